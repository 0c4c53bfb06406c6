"""The battles app's rows: who may see and command a battle, and a few cached figures.

A battle's truth is its event stream in the event store (penance_site/eventstore,
StreamRef("battle", str(id)), docs/BATTLES.md). These rows name who may see and
command it and cache a few figures for listing; services keep the cache in step
with the stream, and nothing here is ever read to decide a rule.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


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


class BattleDiceSecret(models.Model):
    """The 256-bit secret a battle's sealed digital dice derive from (R-ADD-45).

    Only the command service reads it, to decide a command. No API, export, admin or
    page shows it: while the battle runs nobody (its GM included) can learn it, since
    every future roll follows from it. BattleCreated carries its SHA-256; the command
    that ends the battle records it in DiceSecretRevealed, and `verify` then derives
    every roll and shuffle again.

    Stored encrypted under PENANCE_DICE_KEY (penance_site/dice_keys.py, R-ADD-206): a
    copy of the database does not give the dice away.
    """

    battle = models.OneToOneField(
        Battle, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    secret = models.BinaryField(max_length=512)  # a Fernet token of the 32-byte secret

    def __str__(self) -> str:
        return f"dice secret of {self.battle_id}"  # never the secret itself
