"""The event store's tables: append-only events and disposable snapshots.

The events table is the truth for every battle and campaign. It is
append-only in the database itself (triggers, see the migration), and the
ORM refuses updates and deletes too, so a slip in Python cannot rewrite history.
"""

from __future__ import annotations

import uuid
from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.utils import timezone


class AppendOnlyError(Exception):
    """Raised when code tries to change or delete a stored event."""


class EventQuerySet(models.QuerySet["Event"]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("events are append-only: no update")

    def delete(self) -> NoReturn:  # type: ignore[override]
        raise AppendOnlyError("events are append-only: no delete")


class Event(models.Model):
    # The global position: an identity assigned at insert while appends are
    # serialised (docs/ARCHITECTURE.md), so commit order equals position order.
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
            models.Index(fields=["stream_type", "type"], name="eventstore_type_idx"),
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


# --- Battles -------------------------------------------------------------------------------------
# A battle's truth is its event stream (StreamRef("battle", str(id)), docs/BATTLES.md). These rows
# name who may see and command it and cache a few figures for listing; services keep the cache
# in step with the stream, and nothing here is ever read to decide a rule.


class Battle(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup"
        IN_PROGRESS = "in_progress"
        OVER = "over"

    class DiceMode(models.TextChoices):
        DIGITAL = "digital"
        TABLE = "table"

    class Policy(models.TextChoices):
        PROMPT = "prompt"
        AUTO = "auto"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=120)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="battles_run"
    )
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    dice_mode = models.CharField(max_length=10, choices=DiceMode.choices)
    policy = models.CharField(max_length=10, choices=Policy.choices)
    # Cached from the stream for listings only.
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.SETUP)
    winner = models.CharField(max_length=60, blank=True, default="")
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.id})"


class BattleSeat(models.Model):
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="battle_seats"
    )

    class Meta:
        ordering = ["battle", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "seat"], name="battles_seat_unique")
        ]

    def __str__(self) -> str:
        return f"{self.battle_id} seat {self.seat}"


class BattleWatcher(models.Model):
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="watchers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="battles_watched"
    )
    added_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["battle", "user"], name="battles_watcher_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} watches {self.battle_id}"
