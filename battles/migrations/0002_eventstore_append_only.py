"""Make the events table append-only in the database itself (penance_site/eventstore/sql.py)."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from penance_site.eventstore.sql import create_statements, drop_statements


def create_triggers(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    for statement in create_statements(schema_editor.connection.vendor):
        schema_editor.execute(statement)


def drop_triggers(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    for statement in drop_statements(schema_editor.connection.vendor):
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("battles", "0001_initial")]

    operations = [migrations.RunPython(create_triggers, drop_triggers)]
