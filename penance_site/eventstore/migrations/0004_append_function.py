"""PostgreSQL: the usual append as one function call (issue 16, cost per append).

`eventstore_append_if_head` takes the stream's lock and inserts a command's events
only if the stream has not used the command id and its head is the one the caller
guessed; otherwise it inserts nothing and the caller takes the slow path (store.py).
As a PL/pgSQL function its statements' plans are kept for the session, where the same
SQL sent as text was planned anew for every command. Each statement in it takes a new
snapshot (READ COMMITTED, a volatile function), so the checks after the lock see every
committed append to the stream. SQLite has no such function and needs none.
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from penance_site.eventstore.sql import APPEND_FUNCTION_CREATE, APPEND_FUNCTION_DROP


def create(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(APPEND_FUNCTION_CREATE)


def drop(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(APPEND_FUNCTION_DROP)


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0003_drop_type_index")]

    operations = [migrations.RunPython(create, drop)]
