"""Drop the (stream_type, type) index: nothing needs it for a guarantee, and every
append paid to maintain it (issue 16). The career query it served reads the pilot's
own battles through the (stream_type, stream_id, version) index instead, so its cost
follows the pilot's career rather than the size of the store.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("eventstore", "0002_event_transaction_id"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="event",
            name="eventstore_type_idx",
        ),
    ]
