"""The event store's tables: append-only events and disposable snapshots.

The events table is the truth for every battle and campaign. It is
append-only in the database itself (triggers, see the migration), and the
ORM refuses updates and deletes too, so a slip in Python cannot rewrite history.
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.db import models


class AppendOnlyError(Exception):
    """Raised when code tries to change or delete a stored event."""


class EventQuerySet(models.QuerySet["Event"]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("events are append-only: no update")

    def delete(self) -> NoReturn:
        raise AppendOnlyError("events are append-only: no delete")


class Event(models.Model):
    # The global position: an identity assigned at insert. Appends to different streams
    # run in parallel on PostgreSQL, so positions may commit out of order; readers page
    # by (transaction_id, position) (docs/ARCHITECTURE.md).
    position = models.BigAutoField(primary_key=True)
    stream_type = models.CharField(max_length=40)
    stream_id = models.CharField(max_length=64)
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=80)
    schema_version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    metadata = models.JSONField(default=dict)
    command_id = models.CharField(max_length=64, blank=True, default="")
    recorded_at = models.DateTimeField()
    digest = models.CharField(max_length=64)
    # The id of the transaction that wrote the event (PostgreSQL's pg_current_xact_id;
    # 0 on SQLite): readers of the whole store page in (transaction_id, position) order
    # below the oldest transaction in flight (docs/ARCHITECTURE.md).
    transaction_id = models.BigIntegerField(default=0)

    objects = EventQuerySet.as_manager()

    class Meta:
        db_table = "eventstore_event"
        constraints = [
            models.UniqueConstraint(
                fields=["stream_type", "stream_id", "version"], name="eventstore_stream_version"
            ),
            models.CheckConstraint(
                condition=models.Q(version__gte=1), name="eventstore_version_positive"
            ),
        ]
        indexes = [
            models.Index(fields=["command_id"], name="eventstore_command_idx"),
            models.Index(fields=["transaction_id", "position"], name="eventstore_reader_idx"),
        ]
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.stream_type}/{self.stream_id}@{self.version} {self.type}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(f"event {self.position} is stored; events are never changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"event {self.position} is stored; events are never deleted")


class Snapshot(models.Model):
    """A cached fold of a stream up to `version`. Never the truth: it can be rebuilt."""

    stream_type = models.CharField(max_length=40)
    stream_id = models.CharField(max_length=64)
    version = models.PositiveIntegerField()
    engine_version = models.CharField(max_length=40)
    state = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "eventstore_snapshot"
        constraints = [
            models.UniqueConstraint(
                fields=["stream_type", "stream_id", "engine_version", "version"],
                name="eventstore_snapshot_unique",
            )
        ]

    def __str__(self) -> str:
        return f"snapshot {self.stream_type}/{self.stream_id}@{self.version}"
