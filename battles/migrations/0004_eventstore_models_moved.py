"""The event store's models left this app for penance_site.eventstore (its 0001).

State only: the tables stay where they are, with their rows and triggers.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0003_battle_seat_watcher"),
        ("eventstore", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Event"),
                migrations.DeleteModel(name="Snapshot"),
            ],
            database_operations=[],
        )
    ]
