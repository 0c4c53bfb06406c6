"""The event store's models move here from the battles app, their tables untouched.

The tables `eventstore_event` and `eventstore_snapshot` (and the append-only
triggers) were created by battles' migrations 0001 and 0002 and hold every
event written so far. This migration only tells Django's state that the models
now belong to this app; no row moves and no SQL runs. It depends on those battles
migrations because they created the tables: a fact of history, not an import
(the event store's code imports nothing from battles).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [("battles", "0002_eventstore_append_only")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Event",
                    fields=[
                        ("position", models.BigAutoField(primary_key=True, serialize=False)),
                        ("stream_type", models.CharField(max_length=40)),
                        ("stream_id", models.CharField(max_length=64)),
                        ("version", models.PositiveIntegerField()),
                        ("type", models.CharField(max_length=80)),
                        ("schema_version", models.PositiveSmallIntegerField(default=1)),
                        ("payload", models.JSONField()),
                        ("metadata", models.JSONField(default=dict)),
                        ("command_id", models.CharField(blank=True, default="", max_length=64)),
                        ("recorded_at", models.DateTimeField()),
                        ("digest", models.CharField(max_length=64)),
                    ],
                    options={
                        "db_table": "eventstore_event",
                        "ordering": ["position"],
                        "indexes": [
                            models.Index(fields=["command_id"], name="eventstore_command_idx"),
                            models.Index(
                                fields=["stream_type", "type"], name="eventstore_type_idx"
                            ),
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("stream_type", "stream_id", "version"),
                                name="eventstore_stream_version",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(("version__gte", 1)),
                                name="eventstore_version_positive",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Snapshot",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("stream_type", models.CharField(max_length=40)),
                        ("stream_id", models.CharField(max_length=64)),
                        ("version", models.PositiveIntegerField()),
                        ("engine_version", models.CharField(max_length=40)),
                        ("state", models.JSONField()),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "db_table": "eventstore_snapshot",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("stream_type", "stream_id", "engine_version", "version"),
                                name="eventstore_snapshot_unique",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        )
    ]
