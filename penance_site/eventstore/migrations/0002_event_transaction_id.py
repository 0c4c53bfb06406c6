"""Each event records the transaction that wrote it, for readers of the whole store.

Appends to different streams no longer queue behind one table lock, so positions
may commit out of order; `read_all` pages in (transaction_id, position) order below
the oldest transaction in flight (docs/ARCHITECTURE.md). Events written before this
migration get 0: they were written one at a time, so position order is their order.
Adding a column with a constant default changes no row (no UPDATE, no trigger) on
PostgreSQL. SQLite rebuilds the table to add it, and the rebuilt table has no
triggers, so they are created again (on PostgreSQL that replaces them as they were).
"""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from penance_site.eventstore.sql import create_statements, drop_statements


def recreate_triggers(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    vendor = schema_editor.connection.vendor
    for statement in [*drop_statements(vendor), *create_statements(vendor)]:
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("eventstore", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="transaction_id",
            field=models.BigIntegerField(default=0),
        ),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(fields=["transaction_id", "position"], name="eventstore_reader_idx"),
        ),
        migrations.RunPython(recreate_triggers, recreate_triggers),
    ]
