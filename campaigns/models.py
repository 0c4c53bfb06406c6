"""Tables of the campaigns app: the card catalogue, and read models of campaign streams.

The card catalogue (Card, CardVersion) is plain data that admins edit; a card version
that a battle played is never changed again (services make a new version instead).

A campaign's truth is its event stream (StreamRef("campaign", str(id)), docs/CAMPAIGNS.md).
The Campaign, Pilot, CasketBuild and BuildVersion rows are projections of it that the
services keep in step in the same transaction, for listing, search and the admin; they
are checked against the stream's fold by `campaigns.services.campaign_rows_check`.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

from battles.engine.cards import CARD_KINDS

# --- card catalogue ------------------------------------------------------------------------------


class Card(models.Model):
    """A card's identity; its content lives in its versions."""

    id = models.SlugField(primary_key=True, max_length=80)
    current_version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    # Why the effect catalogue leaves the card to the players (R-ADD-57), from the import.
    manual_reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.id


class CardVersion(models.Model):
    """One version of a card, in the engine's vocabulary (battles/engine/cards).

    `effects` is the structured effect list; empty with `automated` false means the
    players resolve the card from its text (`manual`, R-ADD-14).
    """

    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="versions")
    version = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    faction = models.CharField(max_length=60, blank=True, default="")
    card_type = models.CharField(max_length=60, blank=True, default="")
    kind = models.CharField(max_length=20, choices=[(k, k) for k in CARD_KINDS])
    sp_cost = models.PositiveSmallIntegerField("SP cost")
    range = models.CharField(max_length=20, blank=True, default="")
    damage = models.PositiveSmallIntegerField(null=True, blank=True)
    heat = models.SmallIntegerField(default=0)
    keywords = models.JSONField(default=list, blank=True)
    text = models.TextField(blank=True, default="")
    shield = models.BooleanField(default=False)
    effects = models.JSONField(default=list, blank=True)
    automated = models.BooleanField(default=False)
    copies_per_deck = models.PositiveSmallIntegerField(null=True, blank=True)
    source = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["card_id", "version"]
        constraints = [
            models.UniqueConstraint(fields=["card", "version"], name="campaigns_card_version")
        ]

    def __str__(self) -> str:
        return f"{self.card_id} v{self.version}"


class EquipmentItem(models.Model):
    """An equipment item of the card database (issue 17): the slot it takes, who may carry it,
    and the cards it brings (`cards`: [[card id, copies], ...]). Written by the import only."""

    id = models.SlugField(primary_key=True, max_length=80)
    name = models.CharField(max_length=120)
    factions = models.JSONField(default=list, blank=True)  # empty: every faction
    category = models.CharField(max_length=60, blank=True, default="")
    slot = models.CharField(max_length=20)
    two_handed = models.BooleanField(default=False)
    weight = models.CharField(max_length=60, blank=True, default="")
    crafting_cost = models.CharField(max_length=60, blank=True, default="")
    cards = models.JSONField(default=list, blank=True)
    passives = models.JSONField(default=list, blank=True)
    missing = models.JSONField(default=list, blank=True)
    source = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


class ConstructionPool(models.Model):
    """The cards a deck is built from besides its items' (R-ADD-52): `universal`, or a
    faction's own cards (its section, its tactics, its equipment no item brings), as the
    import read them (`carddb.DatabaseRead.universal` / `faction_pools`)."""

    name = models.SlugField(primary_key=True, max_length=60)
    cards = models.JSONField(default=list, blank=True)
    source = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class StarterDeck(models.Model):
    """A deck staff prepared for a faction and class (R-ADD-222): built and checked like any
    build (R-ADD-52 with the card database, else R-ADD-15/R-ADD-29), copied by a player into
    a new build in one step. `deck` rows are [card id, card version, count]."""

    name = models.CharField(max_length=120, unique=True)
    faction = models.CharField(max_length=60, blank=True, default="")
    casket_class = models.CharField(max_length=20)
    shield = models.CharField(max_length=10, default="left")
    equipment = models.JSONField(default=list, blank=True)
    deck = models.JSONField(default=list)
    construction = models.CharField(max_length=20, blank=True, default="")
    notes = models.TextField(blank=True, default="")
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["faction", "casket_class", "name"]

    def __str__(self) -> str:
        return self.name


class SupportUnit(models.Model):
    """A support unit of the card database (issue 17) and the ids of its behaviour cards
    (cards of kind `behaviour`). Written by the import only."""

    id = models.SlugField(primary_key=True, max_length=80)
    name = models.CharField(max_length=120)
    faction = models.CharField(max_length=60, blank=True, default="")
    hp = models.PositiveSmallIntegerField()
    movement = models.PositiveSmallIntegerField()
    defense = models.PositiveSmallIntegerField()
    equipment_slots = models.PositiveSmallIntegerField(null=True, blank=True)
    theme = models.TextField(blank=True, default="")
    behaviour_cards = models.JSONField(default=list, blank=True)
    source = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


# --- campaign read models ------------------------------------------------------------------------


class Campaign(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=120)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_run"
    )
    private = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class CampaignPlayer(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_played"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="campaigns_player_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.campaign_id}"


class Mission(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned"
        IN_PROGRESS = "in_progress"
        COMPLETED = "completed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="missions")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PLANNED)
    battle = models.OneToOneField(
        "battles.Battle", on_delete=models.PROTECT, null=True, blank=True, related_name="mission"
    )
    winner = models.CharField(max_length=60, blank=True, default="")

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="campaigns_mission_number")
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.name}"


class Pilot(models.Model):
    class Status(models.TextChoices):
        ALIVE = "alive"
        DEAD = "dead"
        RETIRED = "retired"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="pilots")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="pilots"
    )
    name = models.CharField(max_length=120)
    faction = models.CharField(max_length=60, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ALIVE)
    taint = models.PositiveIntegerField(default=0)
    permanent_wounds = models.PositiveSmallIntegerField(default=0)
    trauma = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "name"]

    def __str__(self) -> str:
        return self.name


class CasketBuild(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="builds")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="casket_builds"
    )
    name = models.CharField(max_length=120)
    current_version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["campaign", "name"]

    def __str__(self) -> str:
        return self.name


class BuildVersion(models.Model):
    """One revision of a build; immutable once written (BuildRevised)."""

    build = models.ForeignKey(CasketBuild, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    casket_class = models.CharField(max_length=20)
    shield = models.CharField(max_length=10)
    faction = models.CharField(max_length=60, blank=True, default="")
    equipment = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["build", "version"]
        constraints = [
            models.UniqueConstraint(fields=["build", "version"], name="campaigns_build_version")
        ]

    def __str__(self) -> str:
        return f"{self.build} v{self.version}"


class DeckEntry(models.Model):
    """A row of a build version's deck: a card version and its count (R-TRN-1, R-ADD-15)."""

    build_version = models.ForeignKey(
        BuildVersion, on_delete=models.CASCADE, related_name="deck_entries"
    )
    position = models.PositiveSmallIntegerField()
    card_version = models.ForeignKey(
        CardVersion, on_delete=models.PROTECT, related_name="deck_entries"
    )
    count = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["build_version", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["build_version", "position"], name="campaigns_deck_entry_position"
            )
        ]

    def __str__(self) -> str:
        return f"{self.count}x {self.card_version}"


class Deployment(models.Model):
    """A seat of a mission's battle: the pilot and the build version it pinned."""

    mission = models.ForeignKey(Mission, on_delete=models.CASCADE, related_name="deployments")
    seat = models.PositiveSmallIntegerField()
    pilot = models.ForeignKey(Pilot, on_delete=models.PROTECT, related_name="deployments")
    build_version = models.ForeignKey(
        BuildVersion, on_delete=models.PROTECT, related_name="deployments"
    )

    class Meta:
        ordering = ["mission", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["mission", "seat"], name="campaigns_deployment_seat")
        ]

    def __str__(self) -> str:
        return f"{self.mission} seat {self.seat}: {self.pilot}"


class OutcomeOutbox(models.Model):
    """A campaign battle that ended and whose outcome the campaign must take in.

    Written in the battle's final transaction, so it exists exactly when the battle
    ended; the task marks it applied, and the sweep re-sends rows still pending.
    """

    battle = models.OneToOneField(
        "battles.Battle", on_delete=models.PROTECT, primary_key=True, related_name="outcome_outbox"
    )
    mission = models.OneToOneField(Mission, on_delete=models.PROTECT, related_name="outbox")
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    applied_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["created_at"]
        verbose_name = "outcome outbox row"
        indexes = [models.Index(fields=["applied_at", "sent_at"], name="campaigns_outbox_pending")]

    def __str__(self) -> str:
        return f"outcome of {self.battle_id}"


# --- boards a GM drew (issue 14) ---------------------------------------------------------------


class CampaignBoard(models.Model):
    """A board a campaign's GM painted in the board editor: a FORMATS.md board document,
    always as the engine's board parser normalised it (`Board.to_document`). The mission
    wizard offers it next to the shipped library (campaigns/boards/)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="boards")
    name = models.CharField(max_length=200)
    document = models.JSONField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["campaign", "name", "created_at"]

    def __str__(self) -> str:
        return self.name
