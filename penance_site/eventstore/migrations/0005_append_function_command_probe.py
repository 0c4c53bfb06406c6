"""PostgreSQL: `eventstore_append_if_head` looks the command id up by the command index
(issue 16, cost per append).

The function of 0004 asked "did this stream use the command id?" with the stream and the
id in one filter. Without planner statistics (autovacuum off, or a stream that grew since
the last ANALYZE) PostgreSQL served it from the (stream_type, stream_id, version) index
and filtered every event of the stream, so each append cost more as its stream grew. The
new body finds the id through the command index alone and checks the stream afterwards
(sql.APPEND_FUNCTION_CREATE). Same signature, same answers: going back keeps it.
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from penance_site.eventstore.sql import APPEND_FUNCTION_CREATE


def create(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(APPEND_FUNCTION_CREATE)


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0004_append_function")]

    operations = [migrations.RunPython(create, migrations.RunPython.noop)]
