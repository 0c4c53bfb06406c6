"""The card catalogue (HackSoft services and selectors): cards, their versions, the import of
the game's card database, and deck checks.

A card's content is checked by the engine (battles/engine/cards) before anything is
written, so every stored version is a card the engine can play. Versions that a battle
used are never changed: an edit then makes a new version and moves the card on to it,
and the deck rows and battles that pinned the old one keep it (issue 5).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from battles.engine.carddata.carddb import (
    DatabaseCard,
    DatabaseRead,
    ItemDef,
    Reported,
    Source,
    read_database,
)
from battles.engine.carddata.decks import (
    DeckProblem,
    Loadout,
    casket_deck_problems,
    validate_deck,
)
from battles.engine.carddata.spelling import UNIVERSAL
from battles.engine.cards import CardDef, card_from_dict
from battles.engine.demo import DEMO_CARDS
from battles.engine.errors import InvalidInput
from battles.engine.ruleset import Ruleset

from .models import Card, CardVersion, ConstructionPool, DeckEntry, EquipmentItem, SupportUnit

logger = logging.getLogger(__name__)

CREATED: Final = "created"
UPDATED: Final = "updated"
NEW_VERSION: Final = "new_version"
UNCHANGED: Final = "unchanged"
OUTCOMES: Final = (CREATED, UPDATED, NEW_VERSION, UNCHANGED)

DEMO_SOURCE: Final = "Penance Tracker demo set"

# A card's content, in the order forms and exports show it. `source` is provenance, not
# content: the same card from another source is unchanged.
CARD_FIELDS: Final = (
    "name",
    "faction",
    "card_type",
    "kind",
    "sp_cost",
    "range",
    "damage",
    "heat",
    "keywords",
    "text",
    "shield",
    "effects",
    "automated",
    "copies_per_deck",
)
_REQUIRED: Final = ("name", "kind", "sp_cost")
_DEFAULTS: Final[Mapping[str, Any]] = {
    "faction": "",
    "card_type": "",
    "range": "",
    "damage": None,
    "heat": 0,
    "keywords": (),
    "text": "",
    "shield": False,
    "effects": (),
    "automated": False,
    "copies_per_deck": None,
}
# The columns' widths (campaigns/models.py): refused here, by field, rather than by the database.
_MAX_LENGTH: Final[Mapping[str, int]] = {
    "id": Card._meta.get_field("id").max_length or 80,
    "name": CardVersion._meta.get_field("name").max_length or 120,
    "faction": CardVersion._meta.get_field("faction").max_length or 60,
    "card_type": CardVersion._meta.get_field("card_type").max_length or 60,
    "range": CardVersion._meta.get_field("range").max_length or 20,
    "source": CardVersion._meta.get_field("source").max_length or 200,
}
# R-ADD-29: a card's copies per deck is at most a whole deck (R-ADD-15: 30 in ruleset 2.0).
MAX_COPIES: Final = 30


# --- validation ----------------------------------------------------------------------------------


def _check_str(value: object, name: str, *, blank: bool = True) -> str:
    if not isinstance(value, str):
        raise InvalidInput(name, f"must be a string, got {value!r}")
    limit = _MAX_LENGTH.get(name)
    if limit is not None and len(value) > limit:
        raise InvalidInput(name, f"at most {limit} characters, got {len(value)}")
    if not blank and not value.strip():
        raise InvalidInput(name, "must not be empty")
    return value


def card_content_clean(*, card_id: object, fields: object) -> dict[str, Any]:
    """The card's content as stored: every field of CARD_FIELDS, checked by the engine.

    Raises InvalidInput naming the field (`sp_cost`, `effects[1].hexes`, `id` …). Missing
    optional fields take their defaults; no effects and `automated` false make a manual
    card, which needs its text (R-ADD-14).
    """
    if not isinstance(fields, Mapping):
        raise InvalidInput("card", "must be an object of card fields")
    unknown = [str(k) for k in fields if k not in CARD_FIELDS]
    if unknown:
        raise InvalidInput(unknown[0], f"unknown field; allowed: {', '.join(CARD_FIELDS)}")
    for name in _REQUIRED:
        if name not in fields:
            raise InvalidInput(name, "required")
    values = {**_DEFAULTS, **fields}
    _check_str(card_id, "id", blank=False)
    _check_str(values["name"], "name", blank=False)
    faction = _check_str(values["faction"], "faction")
    card_type = _check_str(values["card_type"], "card_type")
    range_text = "" if values["range"] is None else _check_str(values["range"], "range")
    copies = values["copies_per_deck"]
    if copies is not None and (type(copies) is not int or not 1 <= copies <= MAX_COPIES):
        raise InvalidInput(
            "copies_per_deck",
            f"must be null or an integer from 1 to {MAX_COPIES}, got {copies!r}",
            "R-ADD-29",
        )
    for name in ("keywords", "effects"):
        if not isinstance(values[name], list | tuple):
            raise InvalidInput(name, f"must be a list, got {values[name]!r}")
    doc = {
        "id": card_id,
        "name": values["name"],
        "kind": values["kind"],
        "sp_cost": values["sp_cost"],
        "range": range_text or None,
        "damage": values["damage"],
        "heat": values["heat"],
        "keywords": list(values["keywords"]),
        "text": values["text"],
        "shield": values["shield"],
        "effects": list(values["effects"]),
        "automated": values["automated"],
    }
    try:
        card = card_from_dict(doc, "card")
    except InvalidInput as err:
        # The engine names `card.<field>`; here the card is the whole document.
        name = err.field.removeprefix("card.") if err.field != "card" else "card"
        raise InvalidInput(name, err.message, err.rule) from None
    return _content_of_def(card, faction=faction, card_type=card_type, copies_per_deck=copies)


def _content_of_def(
    card: CardDef, *, faction: str, card_type: str, copies_per_deck: int | None
) -> dict[str, Any]:
    d = card.as_dict()
    return {
        "name": d["name"],
        "faction": faction,
        "card_type": card_type,
        "kind": d["kind"],
        "sp_cost": d["sp_cost"],
        "range": d["range"] or "",
        "damage": d["damage"],
        "heat": d["heat"],
        "keywords": d["keywords"],
        "text": d["text"],
        "shield": d["shield"],
        "effects": d["effects"],
        "automated": d["automated"],
        "copies_per_deck": copies_per_deck,
    }


def card_version_content(card_version: CardVersion) -> dict[str, Any]:
    """The stored content of a version, in the shape `card_content_clean` returns."""
    return {name: getattr(card_version, name) for name in CARD_FIELDS}


def card_version_def(card_version: CardVersion) -> CardDef:
    """The engine's card for this version; its id is the card's slug."""
    doc = {
        "id": card_version.card_id,
        "name": card_version.name,
        "kind": card_version.kind,
        "sp_cost": card_version.sp_cost,
        "range": card_version.range or None,
        "damage": card_version.damage,
        "heat": card_version.heat,
        "keywords": list(card_version.keywords),
        "text": card_version.text,
        "shield": card_version.shield,
        "effects": list(card_version.effects),
        "automated": card_version.automated,
    }
    return card_from_dict(doc, f"cards[{card_version.card_id} v{card_version.version}]")


# --- selectors -----------------------------------------------------------------------------------


def card_version_in_use(card_version: CardVersion) -> bool:
    """A battle used this version: a deck row of a build version that was deployed holds it."""
    return DeckEntry.objects.filter(
        card_version=card_version, build_version__deployments__isnull=False
    ).exists()


def card_versions_current(
    *,
    faction: str | None = None,
    kind: str | None = None,
    automated: bool | None = None,
    q: str | None = None,
) -> QuerySet[CardVersion]:
    """Every card's current version, by card id; `q` searches id, name, keywords and text."""
    qs = CardVersion.objects.filter(version=F("card__current_version")).order_by("card_id")
    if faction is not None:
        qs = qs.filter(faction=faction)
    if kind is not None:
        qs = qs.filter(kind=kind)
    if automated is not None:
        qs = qs.filter(automated=automated)
    if q:
        qs = qs.filter(
            Q(card__id__icontains=q)
            | Q(name__icontains=q)
            | Q(keywords__icontains=q)
            | Q(text__icontains=q)
        )
    return qs


# Card kinds in words, for pages (the engine's keys stay in data and APIs).
KIND_WORDS: Final[Mapping[str, str]] = {
    "primary_weapon": "Primary weapon",
    "secondary": "Secondary equipment",
    "universal": "Universal",
    "reactive": "Reactive",
    "damage": "Damage",
    "other": "Faction or equipment card",
    "behaviour": "Support unit behaviour",
}
SLOT_WORDS: Final[Mapping[str, str]] = {
    "weapon": "Arm weapon",
    "offhand": "Off-hand",
    "accessory": "Accessory",
}
UNIVERSAL_FILTER: Final = UNIVERSAL


def faction_filter(qs: QuerySet[CardVersion], faction: str) -> QuerySet[CardVersion]:
    """Cards usable by `faction`: a card of several factions (an item's, stored as
    "church, elves") appears under each of them; `universal` is the cards of no faction."""
    if faction == UNIVERSAL_FILTER:
        return qs.filter(faction="")
    return qs.filter(
        Q(faction=faction)
        | Q(faction__startswith=f"{faction}, ")
        | Q(faction__endswith=f", {faction}")
        | Q(faction__contains=f", {faction}, ")
    )


def card_versions_browse(
    *, faction: str = "", kind: str = "", cost: int | None = None, q: str = ""
) -> QuerySet[CardVersion]:
    """The deck builder's catalogue: current versions filtered by a real faction (or
    universal), kind, SP cost and a search of name and text, by name."""
    qs = CardVersion.objects.filter(version=F("card__current_version")).select_related("card")
    if faction:
        qs = faction_filter(qs, faction)
    if kind:
        qs = qs.filter(kind=kind)
    if cost is not None:
        qs = qs.filter(sp_cost=cost)
    if q:
        qs = qs.filter(Q(name__icontains=q) | Q(text__icontains=q))
    return qs.order_by("name", "card_id")


def card_versions_of(*, card: Card) -> QuerySet[CardVersion]:
    return CardVersion.objects.filter(card=card).order_by("version")


def cards_export_rows(queryset: QuerySet[Card] | QuerySet[CardVersion]) -> list[dict[str, Any]]:
    """Rows for CSV and JSON exports: for cards, their current versions; for versions, those."""
    if queryset.model is Card:
        versions = CardVersion.objects.filter(
            card__in=queryset.values("pk"), version=F("card__current_version")
        )
    else:
        versions = queryset  # type: ignore[assignment]
    return [
        {
            "id": v.card_id,
            "version": v.version,
            **card_version_content(v),
            "source": v.source,
            "created_at": v.created_at.isoformat(),
        }
        for v in versions.order_by("card_id", "version")
    ]


def deck_problems(rows: Sequence[tuple[CardVersion, int]], ruleset: Ruleset) -> list[DeckProblem]:
    """A deck's construction problems (R-ADD-15, R-ADD-29); an empty list means legal.

    Versions of one card are one card: listing two of them is the engine's duplicate_card.
    Row problems come in row order, whole-deck problems last.
    """
    problems = validate_deck([(card_version_def(cv), count) for cv, count in rows], ruleset)
    for i, (cv, count) in enumerate(rows):
        cap = cv.copies_per_deck
        if cap is not None and type(count) is int and count > cap:
            problems.append(
                DeckProblem(
                    "too_many_copies",
                    f"{cv.name}: {count} copies; a deck holds at most {cap}",
                    "R-ADD-29",
                    i,
                )
            )
    return sorted(problems, key=lambda p: (p.index is None, p.index or 0))


# --- construction by equipment (R-ADD-52, R-ADD-220) ---------------------------------------------

_CATALOGUE_SOURCE: Final = Source("catalogue", 0)


def construction_available() -> bool:
    """Whether the catalogue holds the card database's construction data (its universal and
    faction pools, R-ADD-52): then builds are made from equipment (R-ADD-220); a catalogue
    of the demo set alone keeps the older rule (R-ADD-15/R-ADD-29)."""
    return ConstructionPool.objects.filter(name=UNIVERSAL).exists()


def item_names(ids: Iterable[str]) -> dict[str, str]:
    """The catalogue's name of each of these equipment items it holds, by id (R-ADD-52)."""
    return dict(EquipmentItem.objects.filter(pk__in=ids).values_list("pk", "name"))


def item_def(item: EquipmentItem) -> ItemDef:
    return ItemDef(
        id=item.pk,
        name=item.name,
        factions=tuple(item.factions),
        category=item.category,
        slot=item.slot,
        two_handed=item.two_handed,
        weight=item.weight,
        crafting_cost=item.crafting_cost,
        cards=tuple((str(c), int(n)) for c, n in item.cards),
        passives=tuple(item.passives),
        missing=tuple(item.missing),
    )


def construction_read(
    *, faction: str, items: Iterable[str] = (), pinned: Iterable[CardVersion] = ()
) -> DatabaseRead:
    """The engine's view of the catalogue that `battles.engine.carddata.decks` checks a casket deck
    against: every equipment item, the universal and `faction` pools, and the cards those
    name (current versions) and the deck's own rows (`pinned`: the versions it holds)."""
    read = DatabaseRead()
    read.items = {i.pk: item_def(i) for i in EquipmentItem.objects.all()}
    pools = {
        p.name: tuple(p.cards)
        for p in ConstructionPool.objects.filter(name__in=[UNIVERSAL, faction])
    }
    read.universal = pools.get(UNIVERSAL, ())
    if faction in pools:
        read.faction_pools = {faction: pools[faction]}
    wanted = set(read.universal) | set(pools.get(faction, ()))
    for item_id in items:
        item = read.items.get(item_id)
        if item is not None:
            wanted.update(c for c, _ in item.cards)
    rows = {cv.card_id: cv for cv in pinned}
    current = CardVersion.objects.filter(
        card_id__in=wanted - rows.keys(), version=F("card__current_version")
    )
    for cv in [*current, *rows.values()]:
        read.cards[cv.card_id] = DatabaseCard(
            card_version_def(cv),
            cv.faction,
            cv.card_type,
            cv.copies_per_deck,
            _CATALOGUE_SOURCE,
        )
    return read


def casket_problems(
    *,
    faction: str,
    casket_class: str,
    items: Sequence[str],
    rows: Sequence[tuple[CardVersion, int]],
    ruleset: Ruleset,
) -> list[DeckProblem]:
    """Every way a casket's deck breaks R-ADD-52 for its class, faction and items, by the
    engine's own check (`battles.engine.carddata.decks.casket_deck_problems`); row problems carry
    the row's index."""
    read = construction_read(faction=faction, items=items, pinned=[cv for cv, _ in rows])
    return casket_deck_problems(
        read,
        Loadout(faction, casket_class, tuple(items)),
        [(cv.card_id, n) for cv, n in rows],
        ruleset,
    )


def item_cards_required(*, faction: str, items: Sequence[str]) -> dict[str, int]:
    """The copies a casket must hold (R-ADD-52 (a), (b)): each universal card once, each
    carried item's cards as the item brings them. Unknown items bring nothing."""
    required: dict[str, int] = {}
    pool = ConstructionPool.objects.filter(name=UNIVERSAL).first()
    for card_id in pool.cards if pool else ():
        required[card_id] = required.get(card_id, 0) + 1
    known = {i.pk: i for i in EquipmentItem.objects.filter(pk__in=list(items))}
    for item_id in items:
        item = known.get(item_id)
        for card_id, n in item.cards if item else ():
            required[card_id] = required.get(card_id, 0) + int(n)
    return required


# --- services ------------------------------------------------------------------------------------


def _check_source(source: object) -> str:
    return _check_str(source, "source")


@transaction.atomic
def card_save(
    *,
    card_id: str,
    fields: Mapping[str, Any],
    source: str,
    actor: Any = None,
    new_version: bool = False,
) -> tuple[CardVersion, str]:
    """Create or change a card; the outcome is created, updated, new_version or unchanged.

    The content is checked whole before any write. A current version that a battle used
    is kept as it is and the change becomes the next version; otherwise the current
    version is changed in place. `new_version` (staff's errata, R-ADD-223) always makes
    the next version, so builds and starter decks keep the one they pinned. The same
    content writes nothing.
    """
    content = card_content_clean(card_id=card_id, fields=fields)
    _check_source(source)
    now = timezone.now()
    # Lock the card so two editors of one card cannot both make "version n+1".
    card = Card.objects.select_for_update().filter(pk=card_id).first()
    if card is None:
        card, created = Card.objects.get_or_create(
            pk=card_id, defaults={"created_at": now, "updated_at": now}
        )
        if created:
            version = CardVersion.objects.create(
                card=card, version=1, source=source, created_at=now, **content
            )
            _log(card_id, CREATED, version, actor)
            return version, CREATED
        card = Card.objects.select_for_update().get(pk=card_id)
    current = CardVersion.objects.get(card=card, version=card.current_version)
    if card_version_content(current) == content:
        return current, UNCHANGED
    if new_version or card_version_in_use(current):
        version = CardVersion.objects.create(
            card=card, version=current.version + 1, source=source, created_at=now, **content
        )
        card.current_version = version.version
        card.updated_at = now
        card.save(update_fields=["current_version", "updated_at"])
        _log(card_id, NEW_VERSION, version, actor)
        return version, NEW_VERSION
    for name, value in content.items():
        setattr(current, name, value)
    current.source = source
    current.save(update_fields=[*CARD_FIELDS, "source"])
    card.updated_at = now
    card.save(update_fields=["updated_at"])
    _log(card_id, UPDATED, current, actor)
    return current, UPDATED


def _log(card_id: str, outcome: str, version: CardVersion, actor: Any) -> None:
    who = getattr(actor, "username", None) or "system"
    logger.info("card %s %s (v%d) by %s", card_id, outcome, version.version, who)


@transaction.atomic
def catalogue_load_demo() -> int:
    """Load the engine's demo cards (battles/engine/demo.py); how many were created or changed.

    Idempotent: a second run returns 0 and writes nothing.
    """
    written = 0
    for card in DEMO_CARDS:
        content = _content_of_def(card, faction="", card_type="", copies_per_deck=None)
        _, outcome = card_save(card_id=card.id, fields=content, source=DEMO_SOURCE)
        written += outcome != UNCHANGED
    return written


# --- import of the game's card database ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReportLine:
    """An entry (or a whole section, `index` None) that was not loaded, and why. A card inside
    an equipment item or a support unit also has its `owner` and its place `sub` there."""

    section: str
    index: int | None
    name: str
    reason: str
    sub: int | None = None
    owner: str = ""

    def __str__(self) -> str:
        if self.index is None:
            return f"{self.section}: section skipped: {self.reason}"
        where = f"{self.section} #{self.index}"
        if self.sub is not None:
            where += f" {self.owner!r} card {self.sub}"
        name = f" {self.name!r}" if self.name else ""
        return f"{where}{name}: {self.reason}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "section": self.section,
            "index": self.index,
            "sub": self.sub,
            "owner": self.owner,
            "name": self.name,
            "reason": self.reason,
        }


@dataclass(slots=True)
class SectionCounts:
    entries: int = 0
    loaded: int = 0
    reported: int = 0
    # A support unit's copies of behaviour cards loaded from their own section, and an item's
    # second copy of a card: the same card, referenced (R-ADD-53).
    referenced: int = 0


@dataclass(slots=True)
class ImportReport:
    """What an import did: per section, every entry is loaded, referenced (the same card as a
    loaded entry, R-ADD-53) or reported (one line each); and the items and units stored."""

    source: str
    sections: dict[str, SectionCounts] = field(default_factory=dict)
    reported: list[ReportLine] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)
    automated: int = 0
    items: int = 0
    units: int = 0
    items_written: int = 0
    units_written: int = 0
    # Every card the import changes: (card id, name, [(field, before, after)]), so a dry run
    # shows each difference before it is applied (R-ADD-223).
    changes: list[tuple[str, str, list[tuple[str, Any, Any]]]] = field(default_factory=list)

    @property
    def entries(self) -> int:
        return sum(s.entries for s in self.sections.values())

    @property
    def loaded(self) -> int:
        return sum(s.loaded for s in self.sections.values())

    @property
    def written(self) -> int:
        """Cards, items and units created or changed (0 when the file was imported before)."""
        cards = sum(n for outcome, n in self.outcomes.items() if outcome != UNCHANGED)
        return cards + self.items_written + self.units_written

    @property
    def reported_entries(self) -> int:
        """Entries not loaded (one report line each; the other lines are whole sections)."""
        return sum(s.reported for s in self.sections.values())

    @property
    def referenced(self) -> int:
        return sum(s.referenced for s in self.sections.values())

    @property
    def skipped_sections(self) -> int:
        return sum(1 for line in self.reported if line.index is None)

    @property
    def cards_written(self) -> int:
        return sum(n for outcome, n in self.outcomes.items() if outcome != UNCHANGED)

    def banner(self) -> str:
        """One line whose counts add up: entries = loaded + reported + referenced; the report's
        lines = reported entries + sections skipped whole; cards, items and units apart."""
        return (
            f"{self.entries} entries: {self.loaded} loaded, {self.reported_entries} reported, "
            f"{self.referenced} referenced; {len(self.reported)} report lines "
            f"({self.reported_entries} entries and {self.skipped_sections} sections skipped "
            f"whole); {self.cards_written} cards, {self.items_written} equipment items and "
            f"{self.units_written} support units created or changed; "
            f"{self.automated} loaded cards fully automated."
        )

    def summary_lines(self) -> list[str]:
        outcomes = ", ".join(f"{self.outcomes[o]} {o}" for o in OUTCOMES)
        referenced = sum(s.referenced for s in self.sections.values())
        lines = [
            f"{self.entries} entries: {self.loaded} loaded ({outcomes}), "
            f"{sum(s.reported for s in self.sections.values())} reported"
            + (f", {referenced} referenced" if referenced else "")
            + f"; {self.automated} loaded cards fully automated",
            f"{self.items} equipment items ({self.items_written} created or changed), "
            f"{self.units} support units ({self.units_written} created or changed)",
        ]
        skipped = sum(1 for line in self.reported if line.index is None)
        if skipped:
            lines.append(f"{skipped} section(s) skipped")
        lines.extend(
            f"  {name}: {c.entries} entries, {c.loaded} loaded, {c.reported} reported"
            + (f", {c.referenced} referenced" if c.referenced else "")
            for name, c in self.sections.items()
        )
        return lines

    def lines(self) -> list[str]:
        """Every reported entry, one line each, then the summary."""
        return [str(line) for line in self.reported] + self.summary_lines()


def database_card_fields(loaded: DatabaseCard) -> dict[str, Any]:
    """The catalogue fields of a card the engine read from the database."""
    return _content_of_def(
        loaded.card,
        faction=loaded.faction,
        card_type=loaded.card_type,
        copies_per_deck=loaded.copies,
    )


def _report_line(r: Reported) -> ReportLine:
    return ReportLine(
        r.source.section,
        None if r.source.index < 0 else r.source.index,
        r.name,
        r.reason,
        r.source.sub,
        r.source.owner,
    )


@transaction.atomic
def cards_import(*, document: object, source: str) -> ImportReport:
    """Upsert every card, equipment item and support unit of a card database document.

    The engine reads the document (`carddb.read_database`, R-ADD-53): every entry is loaded,
    referenced or reported with its section, index, name and reason; an id occurring more
    than once is loaded from its most specific source and reported at the others; sections
    without cards are reported whole. Importing the same document again writes nothing.
    """
    _check_source(source)
    read = read_database(document)
    report = ImportReport(source=source)
    for section, tally in read.sections.items():
        report.sections[section] = SectionCounts(
            tally.entries, tally.loaded, tally.reported, tally.referenced
        )
    report.reported = [_report_line(r) for r in read.reported]
    importer = _Importer(report, read.cards.keys())
    for loaded in read.cards.values():
        reason = importer.card(loaded)
        if reason is not None:
            counts = report.sections[loaded.source.section]
            counts.loaded -= 1
            counts.reported += 1
            name = loaded.card.name
            line = Reported(loaded.source, name, reason)
            report.reported.append(_report_line(line))
    importer.create_new_cards()
    _items_save(read, report)
    _units_save(read, report)
    _pools_save(read, report)
    _manual_reasons_save(read)
    return report


def _pools_save(read: DatabaseRead, report: ImportReport) -> None:
    """The universal and faction pools a deck is built from (R-ADD-52), when the document
    has them; the cards it names are the ones the import loaded."""
    stored = set(Card.objects.filter(pk__in=read.cards.keys()).values_list("pk", flat=True))
    pools = {UNIVERSAL: read.universal, **read.faction_pools} if read.universal else {}
    rows = {
        name: {"cards": [c for c in cards if c in stored], "source": report.source}
        for name, cards in pools.items()
    }
    _upsert(ConstructionPool, rows)


def _manual_reasons_save(read: DatabaseRead) -> None:
    """Why each loaded card is resolved by hand, in the effect catalogue's words (R-ADD-57)."""
    changed = []
    for card in Card.objects.filter(pk__in=read.cards.keys()):
        reason = read.notes.get(card.pk, "")
        if card.manual_reason != reason:
            card.manual_reason = reason
            changed.append(card)
    Card.objects.bulk_update(changed, ["manual_reason"], batch_size=200)


def _upsert(model: Any, rows: dict[str, dict[str, Any]]) -> int:
    """Create or change rows by id; the number created or changed (unchanged rows: none)."""
    current = {obj.pk: obj for obj in model.objects.filter(pk__in=rows)}
    new = [model(pk=pk, **values) for pk, values in rows.items() if pk not in current]
    model.objects.bulk_create(new)
    changed = 0
    for pk, obj in current.items():
        values = rows[pk]
        if any(getattr(obj, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(obj, k, v)
            obj.save()
            changed += 1
    return len(new) + changed


def _items_save(read: DatabaseRead, report: ImportReport) -> None:
    rows = {
        item.id: {
            "name": item.name[:_ITEM_NAME],
            "factions": list(item.factions),
            "category": item.category[:60],
            "slot": item.slot,
            "two_handed": item.two_handed,
            "weight": item.weight[:60],
            "crafting_cost": item.crafting_cost[:60],
            "cards": [[card_id, n] for card_id, n in item.cards],
            "passives": list(item.passives),
            "missing": list(item.missing),
            "source": report.source,
        }
        for item in read.items.values()
        if len(item.id) <= _MAX_LENGTH["id"]
    }
    report.items = len(rows)
    report.items_written = _upsert(EquipmentItem, rows)


def _units_save(read: DatabaseRead, report: ImportReport) -> None:
    rows = {
        unit.id: {
            "name": unit.name[:_ITEM_NAME],
            "faction": unit.faction[:60],
            "hp": unit.hp,
            "movement": unit.movement,
            "defense": unit.defense,
            "equipment_slots": unit.equipment_slots,
            "theme": unit.theme,
            "behaviour_cards": list(unit.behaviour_cards),
            "source": report.source,
        }
        for unit in read.units.values()
        if len(unit.id) <= _MAX_LENGTH["id"]
    }
    report.units = len(rows)
    report.units_written = _upsert(SupportUnit, rows)


_ITEM_NAME: Final = 120


class _Importer:
    """One import's state. New cards are written together at the end and unchanged ones
    not at all, so that an import costs a few queries rather than several per card; a
    card that exists and changes goes through `card_save` (it may need a new version)."""

    def __init__(self, report: ImportReport, ids: Iterable[str]) -> None:
        self.report = report
        self.current = {
            v.card_id: v
            for v in CardVersion.objects.filter(
                card_id__in=list(ids), version=F("card__current_version")
            )
        }
        self.new: dict[str, dict[str, Any]] = {}

    def card(self, loaded: DatabaseCard) -> str | None:
        """Store one loaded card; None when stored, else the reason it was not."""
        card = loaded.card
        fields = database_card_fields(loaded)
        try:
            content = card_content_clean(card_id=card.id, fields=fields)
            current = self.current.get(card.id)
            if current is None:
                self.new[card.id] = content
                outcome = CREATED
            elif card_version_content(current) == content:
                outcome = UNCHANGED
            else:
                before = card_version_content(current)
                differences = [
                    (k, before[k], content[k]) for k in CARD_FIELDS if before[k] != content[k]
                ]
                self.report.changes.append((card.id, content["name"], differences))
                _, outcome = card_save(card_id=card.id, fields=fields, source=self.report.source)
        except InvalidInput as err:
            return str(err)
        self.report.outcomes[outcome] += 1
        self.report.automated += content["automated"]
        return None

    def create_new_cards(self) -> None:
        if not self.new:
            return
        now = timezone.now()
        Card.objects.bulk_create(
            [Card(id=card_id, created_at=now, updated_at=now) for card_id in self.new]
        )
        CardVersion.objects.bulk_create(
            [
                CardVersion(
                    card_id=card_id, version=1, source=self.report.source, created_at=now, **c
                )
                for card_id, c in self.new.items()
            ]
        )
        logger.info("card import %s: %d cards created", self.report.source, len(self.new))


def card_rows_for(
    entries: Iterable[tuple[str, int, int | None]],
) -> list[tuple[CardVersion, int]]:
    """(card version, count) rows for (card id, count, version or None for current) triples.

    Raises InvalidInput naming `deck[i].card` or `deck[i].version` for an unknown card or
    version.
    """
    wanted = list(entries)
    ids = {card_id for card_id, _, _ in wanted}
    cards = {c.pk: c for c in Card.objects.filter(pk__in=ids)}
    versions = {
        (v.card_id, v.version): v for v in CardVersion.objects.filter(card_id__in=cards.keys())
    }
    rows: list[tuple[CardVersion, int]] = []
    for i, (card_id, count, number) in enumerate(wanted):
        card = cards.get(card_id)
        if card is None:
            raise InvalidInput(f"deck[{i}].card", f"no card {card_id!r} in the catalogue")
        version = versions.get((card_id, card.current_version if number is None else number))
        if version is None:
            raise InvalidInput(f"deck[{i}].version", f"card {card_id!r} has no version {number}")
        rows.append((version, count))
    return rows
