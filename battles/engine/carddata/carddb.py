"""The whole card database read at once: every card, equipment item and support unit (R-ADD-53).

`read_database` walks every section of the game's card database and gives

- every **card**, derived by `derive.derive_from_database` (the one derivation path, so
  whatever it learns applies to every section): the faction and universal sections,
  `equipment`, the `tactics` and `v3_optional` sub-sections (lists of cards under an
  object), the cards each **equipment item** brings, and the **behaviour cards** of
  support units (`support_unit_behaviors`, and the ones a unit only nests);
- every **equipment item** (`ItemDef`: its slot, factions and the cards it brings, with
  their copies) and every **support unit** (`SupportUnitDef`: its stats and behaviour cards);
- one report line for every entry that is not loaded, and one for every section that
  holds no cards (`_meta`, `special_cards`).

Ids (R-ADD-53): an entry's own id when it is a slug; a behaviour card's id with its
emoji and other non-slug characters dropped ("crucible-honor-guard-⚔️-challenge-accepted"
becomes "crucible-honor-guard-challenge-accepted"); an item's card without an id gets
`<item slug>-<card slug>` ("DAGGER" / "Stab" → "dagger-stab"); an item's id is its name's
slug ("HEAVY (2-handed)" never occurs: names are plain).

Duplicates (R-ADD-53): one id is one card. Where an id occurs more than once, the
occurrence from the most specific source is loaded, by `SOURCE_RANK`: an equipment item's
own card list, then the faction and universal sections, then `tactics` and `v3_optional`,
then the flat `equipment` list, then `support_unit_behaviors`, then a unit's nested list;
within one rank, the first in file order. Every other occurrence is reported on one line
naming the loaded one and saying whether it is identical or which fields differ; a unit's
nested copy identical to its `support_unit_behaviors` entry is the same card, referenced
by the unit, and reported on no line.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import SCHOOL_NOTE, SPELL_SCHOOLS, CardDef
from ..errors import InvalidInput
from .derive import (
    ATTACK_TYPES,
    BEHAVIOUR_SECTION,
    db_cost,
    derive_from_database,
    skipped_sections,
)
from .spelling import EQUIPMENT_SECTION as EQUIPMENT_SECTION
from .spelling import FACTIONS as FACTIONS
from .spelling import ITEMS_SECTION as ITEMS_SECTION
from .spelling import NESTED_CARD_SECTIONS as NESTED_CARD_SECTIONS
from .spelling import UNITS_SECTION as UNITS_SECTION
from .spelling import UNIVERSAL as UNIVERSAL
from .spelling import database_range

# Other spellings the database uses for a faction.
_FACTION_ALIASES = {
    "wyrd": "wyrd-conclave",
    "elves only": "elves",
    "bloodlines": "vestige-bloodlines",
}

# R-ADD-53: lower rank wins when one id occurs more than once.
SOURCE_RANK = {
    ITEMS_SECTION: 0,
    # faction and universal sections: 1
    "tactics": 2,
    "v3_optional": 2,
    EQUIPMENT_SECTION: 3,
    BEHAVIOUR_SECTION: 4,
    UNITS_SECTION: 5,
}
_FACTION_RANK = 1
# Item card types that are an item's always-on ability, not a card played from the hand.
PASSIVE_TYPES = frozenset({"passive", "action"})
SLOTS = ("weapon", "offhand", "accessory")
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """A slug of `text`: lowercase ASCII letters and digits joined by single hyphens.

    >>> slugify("PYROMANCER'S GRIMOIRE"), slugify("crucible-honor-guard-⚔️-challenge-accepted")
    ('pyromancer-s-grimoire', 'crucible-honor-guard-challenge-accepted')
    """
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _NOT_SLUG.sub("-", ascii_text.lower()).strip("-")


def faction_names(value: object) -> tuple[str, ...]:
    """The factions a database `faction` field names; () for universal or none.

    >>> faction_names("church, wyrd-conclave"), faction_names("elves only"), faction_names("universal")
    (('church', 'wyrd-conclave'), ('elves',), ())
    """
    if not isinstance(value, str):
        return ()
    names = []
    for part in value.split(","):
        name = part.strip().lower()
        name = _FACTION_ALIASES.get(name, name)
        if name and name != UNIVERSAL:
            names.append(name)
    return tuple(names)


@dataclass(frozen=True, slots=True)
class Source:
    """Where an entry sits: its section (`tactics.church` for a sub-section), its index there,
    and for a card inside an item or a unit the card's index in that list."""

    section: str
    index: int
    sub: int | None = None
    owner: str = ""

    @property
    def rank(self) -> int:
        return SOURCE_RANK.get(self.section.split(".", 1)[0], _FACTION_RANK)

    def __str__(self) -> str:
        where = f"{self.section} #{self.index}"
        if self.sub is not None:
            where += f" {self.owner!r} card {self.sub}"
        return where


@dataclass(frozen=True, slots=True)
class DatabaseCard:
    """A loaded card with the catalogue's fields the engine's CardDef does not hold."""

    card: CardDef
    faction: str  # "" for universal; factions joined by ", " for an item's several
    card_type: str
    copies: int | None  # the database's cardCount (R-ADD-29), None where it gives none
    source: Source


@dataclass(frozen=True, slots=True)
class ItemDef:
    """An equipment item: the slot it takes, who may carry it and the cards it brings.

    `cards` are (card id, copies) for every card the item brings that loaded; `missing`
    names the ones that did not (a deck with this item cannot be legal, R-ADD-52).
    """

    id: str
    name: str
    factions: tuple[str, ...]  # () = every faction
    category: str
    slot: str
    two_handed: bool
    weight: str
    crafting_cost: str
    cards: tuple[tuple[str, int], ...]
    passives: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()

    @property
    def card_count(self) -> int:
        return sum(n for _, n in self.cards)

    def allowed_to(self, faction: str) -> bool:
        return not self.factions or faction in self.factions


@dataclass(frozen=True, slots=True)
class SupportUnitDef:
    """A support unit and the ids of its behaviour cards."""

    id: str
    name: str
    faction: str
    hp: int
    movement: int
    defense: int
    equipment_slots: int | None
    theme: str
    behaviour_cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reported:
    """An entry (or a whole section, `source.index` -1) not loaded, with its one-line reason."""

    source: Source
    name: str
    reason: str

    def __str__(self) -> str:
        if self.source.index < 0:
            return f"{self.source.section}: section skipped: {self.reason}"
        name = f" {self.name!r}" if self.name else ""
        return f"{self.source}{name}: {self.reason}"


@dataclass
class SectionTally:
    entries: int = 0
    loaded: int = 0
    reported: int = 0
    referenced: int = 0  # a unit's nested copies of cards loaded from their own section


@dataclass
class DatabaseRead:
    """Everything `read_database` found."""

    cards: dict[str, DatabaseCard] = field(default_factory=dict)
    items: dict[str, ItemDef] = field(default_factory=dict)
    units: dict[str, SupportUnitDef] = field(default_factory=dict)
    reported: list[Reported] = field(default_factory=list)
    sections: dict[str, SectionTally] = field(default_factory=dict)
    # Each faction's own cards (its section, its tactics and its cards in the flat equipment
    # list that no item brings), by id, in file order.
    faction_pools: dict[str, tuple[str, ...]] = field(default_factory=dict)
    universal: tuple[str, ...] = ()
    # Why the effect catalogue keeps a loaded card manual, by id, in the reviewer's words
    # (R-ADD-57); cards it has not reviewed have none.
    notes: dict[str, str] = field(default_factory=dict)
    # Every card as derived from its own entry, by (section it is derived in, id): also an
    # occurrence another source's copy outranks (R-ADD-53), so that each catalogue entry's
    # card can be built from the database entry it was written for (R-ADD-57).
    by_section: dict[tuple[str, str], DatabaseCard] = field(default_factory=dict)
    # Automated cards whose text also promises what the campaign does not yet carry over
    # (tokens that persist across missions), by id, with that promise (R-ADD-275): they
    # play automated in the battle but are not counted as automated.
    pending: dict[str, str] = field(default_factory=dict)

    def counted(self, card_id: str) -> bool:
        """Whether the card counts as fully automated: automated, nothing left pending."""
        return self.cards[card_id].card.automated and card_id not in self.pending

    @property
    def automated(self) -> int:
        return sum(self.counted(card_id) for card_id in self.cards)


@dataclass(frozen=True, slots=True)
class _Candidate:
    source: Source
    raw: Mapping[str, Any]  # the entry as the database gives it (for the differing fields)
    entry: Mapping[str, Any]  # the entry in the shape derive_from_database reads
    derive_section: str
    faction: str
    slot: str | None = None
    shield: bool = False


def _str(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _item_slot(item: Mapping[str, Any]) -> tuple[str, bool]:
    """(slot, two-handed) of an item (R-ADD-52): arms take weapons and spell foci, the
    off-hand takes shields and secondary equipment, the rest are accessories."""
    type_ = _str(item.get("type")).lower()
    category = _str(item.get("category")).lower()
    name = _str(item.get("name")).lower()
    two_handed = "2-handed" in _str(item.get("weight")).lower()
    if type_.startswith("secondary") or "shield" in name:
        return "offhand", two_handed
    if type_.startswith("primary") or category in ("weapon", "spell equipment"):
        return "weapon", two_handed
    return "accessory", two_handed


def _item_card_entry(item_slug: str, card: Mapping[str, Any], school: str = "") -> dict[str, Any]:
    entry = dict(card)
    own = card.get("id")
    if not (isinstance(own, str) and own):
        entry["id"] = f"{item_slug}-{slugify(_str(card.get('name')))}"
    keywords = card.get("keywords", [])
    if school in SPELL_SCHOOLS and isinstance(keywords, list):
        # R-ADD-292: a spell item's school is its cards' ("next fire spell").
        entry["keywords"] = [*keywords, SCHOOL_NOTE + school]
    return entry


def _behaviour_entry(card: Mapping[str, Any]) -> dict[str, Any]:
    entry = dict(card)
    own = card.get("id")
    if isinstance(own, str):
        entry["id"] = slugify(own)
    # Behaviour cards are drawn by the unit's AI, never paid for: 0 SP (R-ADD-53).
    entry.setdefault("cost", 0)
    return entry


def _candidates(doc: Mapping[str, Any], out: DatabaseRead) -> Iterator[_Candidate]:
    for section, entries in doc.items():
        name = str(section)
        if name in NESTED_CARD_SECTIONS and isinstance(entries, Mapping):
            for sub, cards in entries.items():
                if not isinstance(cards, list):
                    out.reported.append(
                        Reported(Source(f"{name}.{sub}", -1), "", "not a list of cards")
                    )
                    continue
                where = f"{name}.{sub}"
                faction = _FACTION_ALIASES.get(str(sub), str(sub))
                faction = "" if faction == UNIVERSAL else faction
                for i, raw in enumerate(cards):
                    if isinstance(raw, Mapping):
                        own = faction_names(raw.get("faction")) if "faction" in raw else None
                        f = ", ".join(own) if own is not None else faction
                        yield _Candidate(Source(where, i), raw, raw, where, f)
                    else:
                        yield _Candidate(Source(where, i), {}, {"_not": raw}, where, faction)
            continue
        if not isinstance(entries, list) or name in dict(skipped_sections(doc)):
            continue
        if name == ITEMS_SECTION:
            yield from _item_candidates(entries, out)
            continue
        if name == UNITS_SECTION:
            yield from _unit_candidates(entries, out)
            continue
        default = "" if name in (UNIVERSAL, EQUIPMENT_SECTION) else name
        for i, raw in enumerate(entries):
            if not isinstance(raw, Mapping):
                yield _Candidate(Source(name, i), {}, {"_not": raw}, name, default)
                continue
            entry: Mapping[str, Any] = raw
            if name == BEHAVIOUR_SECTION:
                entry = _behaviour_entry(raw)
            faction = default
            if "faction" in raw:
                faction = ", ".join(faction_names(raw.get("faction")))
            elif name == EQUIPMENT_SECTION:
                # The flat equipment list names the faction among the keywords.
                kws = raw.get("keywords")
                tagged = [k for k in kws if k in FACTIONS] if isinstance(kws, list) else []
                faction = ", ".join(tagged)
            yield _Candidate(Source(name, i), raw, entry, name, faction)


def _item_candidates(entries: Sequence[Any], out: DatabaseRead) -> Iterator[_Candidate]:
    for i, item in enumerate(entries):
        if not isinstance(item, Mapping) or not _str(item.get("name")):
            out.reported.append(Reported(Source(ITEMS_SECTION, i), "", "not an item with a name"))
            continue
        item_slug = slugify(_str(item["name"]))
        slot, _ = _item_slot(item)
        factions = ", ".join(faction_names(item.get("faction")))
        shield = "shield" in _str(item["name"]).lower()
        cards = item.get("cards")
        for j, card in enumerate(cards if isinstance(cards, list) else []):
            source = Source(ITEMS_SECTION, i, j, _str(item["name"]))
            if not isinstance(card, Mapping):
                yield _Candidate(source, {}, {"_not": card}, ITEMS_SECTION, factions)
                continue
            entry = _item_card_entry(item_slug, card, _str(item.get("school")).lower())
            yield _Candidate(source, card, entry, ITEMS_SECTION, factions, slot, shield)


def _unit_candidates(entries: Sequence[Any], out: DatabaseRead) -> Iterator[_Candidate]:
    for i, unit in enumerate(entries):
        if not isinstance(unit, Mapping) or not _str(unit.get("name")):
            out.reported.append(Reported(Source(UNITS_SECTION, i), "", "not a unit with a name"))
            continue
        faction = ", ".join(faction_names(unit.get("faction")))
        cards = unit.get("behaviorCards")
        for j, card in enumerate(cards if isinstance(cards, list) else []):
            source = Source(UNITS_SECTION, i, j, _str(unit["name"]))
            if not isinstance(card, Mapping):
                yield _Candidate(source, {}, {"_not": card}, BEHAVIOUR_SECTION, faction)
                continue
            yield _Candidate(source, card, _behaviour_entry(card), BEHAVIOUR_SECTION, faction)


COST_NOTE = "cost: "
RANGE_NOTE = "range: "


def manual_fallback(entry: Mapping[str, Any]) -> dict[str, Any] | None:
    """The entry as a manual card when its cost or its attack's range is printed in a way the
    engine cannot run (R-ADD-54), else None: a cost that is not a whole number of SP ("2 Forge
    tokens") becomes 0 SP, an attack range that is not one plain range ("Ranged 3-6 AoE")
    becomes no range and no attack, and each printed value is kept as a keyword
    (`cost: 2 Forge tokens`, `range: Ranged 3-6 AoE`) for the players. The text is unchanged.

    >>> manual_fallback({"id": "x", "name": "X", "type": "attack", "cost": "2 Forge tokens",
    ...                  "range": "Melee AoE", "damage": 3, "keywords": ["attack"]})
    {'id': 'x', 'name': 'X', 'type': '', 'cost': 0, 'range': None, 'damage': 3, 'keywords': ['attack', 'cost: 2 Forge tokens', 'range: Melee AoE']}
    >>> manual_fallback({"id": "y", "name": "Y", "type": "utility", "cost": 1}) is None
    True
    """
    keywords = entry.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) and k for k in keywords):
        return None
    out = dict(entry)
    notes: list[str] = []
    cost = entry.get("cost")
    if "cost" in entry and db_cost(cost) is None and isinstance(cost, str) and cost.strip():
        out["cost"] = 0
        notes.append(COST_NOTE + " ".join(cost.split()))
    type_ = _str(entry.get("type")).lower()
    if type_ in ATTACK_TYPES:
        printed = database_range(entry.get("range"))
        if printed is None or printed.low < 1:
            # Derivation only: the catalogue keeps the printed type as the card's type.
            out["type"] = ""
            out["range"] = None
            raw = entry.get("range")
            notes.append(RANGE_NOTE + (" ".join(raw.split()) if isinstance(raw, str) else "none"))
    if not notes:
        return None
    out["keywords"] = [*keywords, *notes]
    return out


def _item_kind(card: CardDef, slot: str | None, shield: bool) -> CardDef:
    """An item card's kind from its item's slot (R-DMG-6: an arm weapon's cards are Primary
    Weapon cards; R-REA-2: a shield's cards are shield cards); reactive cards stay reactive."""
    if slot is None:
        return card
    kind = card.kind
    if kind not in ("reactive", "behaviour"):
        kind = {"weapon": "primary_weapon", "offhand": "secondary"}.get(slot, "other")
    if (kind, shield or card.shield) == (card.kind, card.shield):
        return card
    return dataclasses.replace(card, kind=kind, shield=shield or card.shield)


def _differences(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    keys = [k for k in dict.fromkeys([*a, *b]) if k not in ("id", "cardCount", "cardType")]
    return [str(k) for k in keys if a.get(k) != b.get(k)]


def read_database(doc: object) -> DatabaseRead:
    """Read every card, item and support unit of a card database document (R-ADD-53).

    >>> doc = {"universal": [{"id": "step", "name": "Step", "cost": 1, "effect": "Move 1."}],
    ...        "equipment_items": [{"name": "DAGGER", "faction": "universal", "weight": "Light",
    ...            "category": "Weapon", "craftingCost": "2 Scrap", "cards": [
    ...            {"name": "Stab", "cost": 1, "range": "Melee", "type": "Attack", "damage": 3,
    ...             "effect": "Deal 3 damage"}]}],
    ...        "special_cards": [{"id": "damage-card"}]}
    >>> read = read_database(doc)
    >>> sorted(read.cards), read.items["dagger"].cards, read.cards["dagger-stab"].card.kind
    (['dagger-stab', 'step'], (('dagger-stab', 1),), 'primary_weapon')
    >>> [str(r) for r in read.reported]
    ["special_cards: section skipped: wound, trauma and penalty cards (Damage, SCRAP, Decay): the engine's own piles (R-TRN-6 Damage card, R-PLT-1 wound deck), not deck cards"]
    """
    if not isinstance(doc, Mapping):
        raise InvalidInput("database", "must be an object of sections")
    out = DatabaseRead()
    for section, skipped in skipped_sections(doc):
        if section in NESTED_CARD_SECTIONS and isinstance(doc.get(section), Mapping):
            continue  # read sub-section by sub-section
        out.reported.append(Reported(Source(section, -1), "", skipped))
    candidates = list(_candidates(doc, out))
    derived: dict[int, tuple[CardDef | None, str | None]] = {}
    notes: dict[int, str] = {}
    pending: dict[int, str] = {}
    by_id: dict[str, list[int]] = {}
    for n, cand in enumerate(candidates):
        out.sections.setdefault(cand.source.section, SectionTally()).entries += 1
        if "_not" in cand.entry:
            derived[n] = (None, f"not an object but {type(cand.entry['_not']).__name__}")
            continue
        if cand.source.section == ITEMS_SECTION and "cost" not in cand.entry:
            type_ = _str(cand.entry.get("type")).lower()
            if type_ in PASSIVE_TYPES:
                derived[n] = (
                    None,
                    f"an ability of its item (type {type_!r}) with no SP cost: the item keeps it, "
                    "it is not played from the hand (R-ADD-52)",
                )
                continue
        d = derive_from_database(cand.entry, cand.derive_section)
        fallback = None if d.card is not None else manual_fallback(cand.entry)
        if fallback is not None:
            again = derive_from_database(fallback, cand.derive_section)
            # Only as a manual card: one without text would say nothing of its printed cost.
            if again.card is not None and again.card.manual:
                # The catalogue was looked up with the printed cost and range (R-ADD-270):
                # the fallback's 0 SP is no text anyone reviewed, so its note is not the card's.
                d = dataclasses.replace(again, note=d.note)
        card = None if d.card is None else _item_kind(d.card, cand.slot, cand.shield)
        derived[n] = (card, d.reason)
        if d.note:
            notes[n] = d.note
        if d.campaign:
            pending[n] = d.campaign
        if card is not None:
            by_id.setdefault(card.id, []).append(n)
            if (cand.derive_section, card.id) not in out.by_section:
                count = cand.raw.get("cardCount")
                out.by_section[(cand.derive_section, card.id)] = DatabaseCard(
                    card=card,
                    faction=cand.faction,
                    card_type=_str(cand.raw.get("type")),
                    copies=count if type(count) is int and count > 0 else None,
                    source=cand.source,
                )
    winners: dict[str, int] = {}
    for card_id, ns in by_id.items():
        winners[card_id] = min(ns, key=lambda n: (candidates[n].source.rank, n))
    for n, cand in enumerate(candidates):
        tally = out.sections[cand.source.section]
        card, reason = derived[n]
        name = _str(cand.entry.get("name"))
        if card is not None and winners[card.id] != n:
            first = candidates[winners[card.id]]
            differs = _differences(first.raw, cand.raw)
            same_owner = (first.source.section, first.source.index) == (
                cand.source.section,
                cand.source.index,
            )
            if not differs and (cand.source.section == UNITS_SECTION or same_owner):
                # A unit's copy of its behaviour card, or an item's second copy of a card.
                tally.referenced += 1
                continue
            what = "is identical" if not differs else "differs in " + ", ".join(differs)
            reason = f"id {card.id!r} is loaded from {first.source} (R-ADD-53); this entry {what}"
            card = None
        if card is None:
            tally.reported += 1
            out.reported.append(Reported(cand.source, name, reason or "not a card"))
            continue
        tally.loaded += 1
        if n in notes:
            out.notes[card.id] = notes[n]
        if n in pending:
            out.pending[card.id] = pending[n]
        count = cand.raw.get("cardCount")
        out.cards[card.id] = DatabaseCard(
            card=card,
            faction=cand.faction,
            card_type=_str(cand.raw.get("type")),
            copies=count if type(count) is int and count > 0 else None,
            source=cand.source,
        )
    _collect_items(doc, candidates, derived, out)
    _collect_pools(doc, candidates, derived, out)
    _collect_units(doc, candidates, derived, out)
    return out


def _collect_pools(
    doc: Mapping[str, Any],
    candidates: Sequence[_Candidate],
    derived: Mapping[int, tuple[CardDef | None, str | None]],
    out: DatabaseRead,
) -> None:
    pools: dict[str, list[str]] = {}
    brought = {card_id for item in out.items.values() for card_id, _ in item.cards}
    for n, cand in enumerate(candidates):
        card = derived[n][0]
        if card is None or card.id not in out.cards:
            continue
        section = cand.source.section
        if section == EQUIPMENT_SECTION:
            # A faction's cards in the flat equipment list are its equipment where no item
            # brings them (church, dwarves, elves have no items of their own, R-ADD-52).
            if cand.faction in FACTIONS and card.id not in brought:
                pools.setdefault(cand.faction, []).append(card.id)
        elif section == UNIVERSAL:
            pools.setdefault(UNIVERSAL, []).append(card.id)
        elif section in FACTIONS or (
            section.startswith("tactics.") and section.split(".", 1)[1] in FACTIONS
        ):
            pools.setdefault(section.removeprefix("tactics."), []).append(card.id)
    out.universal = tuple(dict.fromkeys(pools.pop(UNIVERSAL, [])))
    out.faction_pools = {f: tuple(dict.fromkeys(pools.get(f, []))) for f in FACTIONS if f in doc}


def _collect_items(
    doc: Mapping[str, Any],
    candidates: Sequence[_Candidate],
    derived: Mapping[int, tuple[CardDef | None, str | None]],
    out: DatabaseRead,
) -> None:
    items = doc.get(ITEMS_SECTION)
    if not isinstance(items, list):
        return
    brought: dict[int, list[tuple[int, _Candidate]]] = {}
    for n, cand in enumerate(candidates):
        if cand.source.section == ITEMS_SECTION:
            brought.setdefault(cand.source.index, []).append((n, cand))
    for i, item in enumerate(items):
        if not isinstance(item, Mapping) or not _str(item.get("name")):
            continue
        slot, two_handed = _item_slot(item)
        cards: dict[str, int] = {}
        passives: list[str] = []
        missing: list[str] = []
        for n, cand in brought.get(i, []):
            card = derived[n][0]
            label = _str(cand.entry.get("name")) or f"card {cand.source.sub}"
            if card is None:
                reason = derived[n][1] or ""
                (passives if "ability of its item" in reason else missing).append(label)
                continue
            if card.id not in out.cards:
                missing.append(label)
                continue
            count = cand.raw.get("cardCount")
            # An item listing the same card twice brings two copies.
            cards[card.id] = cards.get(card.id, 0) + (
                count if type(count) is int and count > 0 else 1
            )
        item_id = slugify(_str(item["name"]))
        out.items[item_id] = ItemDef(
            id=item_id,
            name=_str(item["name"]),
            factions=faction_names(item.get("faction")),
            category=_str(item.get("category")) or _str(item.get("type")),
            slot=slot,
            two_handed=two_handed,
            weight=_str(item.get("weight")),
            crafting_cost=_str(item.get("craftingCost")),
            cards=tuple(cards.items()),
            passives=tuple(passives),
            missing=tuple(missing),
        )


def _collect_units(
    doc: Mapping[str, Any],
    candidates: Sequence[_Candidate],
    derived: Mapping[int, tuple[CardDef | None, str | None]],
    out: DatabaseRead,
) -> None:
    units = doc.get(UNITS_SECTION)
    if not isinstance(units, list):
        return
    cards_of: dict[int, list[str]] = {}
    for n, cand in enumerate(candidates):
        card = derived[n][0]
        if cand.source.section == UNITS_SECTION and card is not None and card.id in out.cards:
            cards_of.setdefault(cand.source.index, []).append(card.id)
    for i, unit in enumerate(units):
        if not isinstance(unit, Mapping) or not _str(unit.get("name")):
            continue

        def whole(key: str, unit: Mapping[str, Any] = unit) -> int:
            value = unit.get(key)
            return value if type(value) is int and value >= 0 else 0

        slots = unit.get("equipmentSlots")
        faction = ", ".join(faction_names(unit.get("faction")))
        unit_id = slugify(f"{faction}-{_str(unit['name'])}")
        out.units[unit_id] = SupportUnitDef(
            id=unit_id,
            name=_str(unit["name"]),
            faction=faction,
            hp=whole("hp"),
            movement=whole("movement"),
            defense=whole("defense"),
            equipment_slots=slots if type(slots) is int and slots >= 0 else None,
            theme=_str(unit.get("theme")),
            behaviour_cards=tuple(cards_of.get(i, [])),
        )
