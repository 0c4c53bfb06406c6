"""One entry of the game's card database turned into a `CardDef`.

`derive_from_database` uses only the entry's fields, never reading meaning into the free
text: an attack's range and damage become an `attack` effect, and the card is automated only
when its text is no more than that attack, or when the effect catalogue (`card_catalogue`)
has reviewed the card (R-ADD-57).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import (
    CARD_CLASSES,
    CLASS_NOTE,
    DAMAGE_CARD,
    AttackEffect,
    CardDef,
    Effect,
    HeatEffect,
    SpendTokensEffect,
    SpLockEffect,
    TokenCostEffect,
)
from ..cards.effects.bounds import SLUG_RE
from ..errors import InvalidInput
from ..tohit import MAX_DAMAGE
from .card_catalogue import lookup
from .spelling import database_range


@dataclass(frozen=True, slots=True)
class DerivedCard:
    """One database entry's outcome: a card, or the one-line reason it cannot be loaded.

    >>> DerivedCard(None, "no id", False).loaded
    False
    """

    card: CardDef | None
    reason: str | None
    automated: bool
    # Why a loaded card stays manual, when the effect catalogue says (R-ADD-57).
    note: str | None = None
    # What the card's text leaves to the campaign, which the battle does not carry over
    # (R-ADD-275): the card plays automated but is not counted so.
    campaign: str | None = None

    def __post_init__(self) -> None:
        if (self.card is None) == (self.reason is None):
            raise ValueError("a DerivedCard has either a card or a reason")
        if self.automated != (self.card is not None and self.card.automated):
            raise ValueError("automated must be the card's own flag")

    @property
    def loaded(self) -> bool:
        return self.card is not None


# The types the database uses for cards whose whole point is one attack on one target.
# Listed rather than guessed from the word "attack" ("attack-enhancement" is a buff).
ATTACK_TYPES = frozenset(
    {"attack", "attack-execute", "attack-debuff", "attack-mark", "movement-attack"}
)

_COST_RE = re.compile(r"\s*(\d{1,2})\s*(?:SP)?\s*(?:\(reactive\))?\s*", re.IGNORECASE)
# "0 SP (but costs Bargain tokens retroactively)": 0 SP and a price paid otherwise (R-ADD-420).
_ZERO_BUT_RE = re.compile(r"\s*0\s*SP\s*\(but costs [^)]*\)\s*", re.IGNORECASE)

_INT_RE = re.compile(r"\s*([+-]?\d{1,3})\s*")

# The only effect texts an automated attack may have: the attack itself, optionally its
# Heat and a short "Basic … attack." label. Everything else is for the players. An
# equipment item's cards print the lone attack without its full stop ("Deal 3 damage").
_PLAIN_ATTACK_RE = re.compile(
    r"Deal (?P<damage>\d{1,2}) damage(?: at range)?(?:\.|$)"
    r"(?: (?:Gain|Generate) (?P<heat>\d) Heat\.)?"
    r"(?: Basic [A-Za-z][A-Za-z' -]{0,30} attack\.)?"
)

_SKIPPED = {
    "_meta": "metadata, not cards",
    # R-ADD-53: the engine's own piles, not cards a deck is built from.
    "special_cards": "wound, trauma and penalty cards (Damage, SCRAP, Decay): the engine's "
    "own piles (R-TRN-6 Damage card, R-PLT-1 wound deck), not deck cards",
}

# The section whose entries are support units' behaviour cards (and the derivation section of
# the ones a unit nests, R-ADD-53).
BEHAVIOUR_SECTION = "support_unit_behaviors"


def _db_int(value: object) -> int | None:
    if type(value) is int:
        return value
    if isinstance(value, str) and (match := _INT_RE.fullmatch(value)):
        return int(match[1])
    return None


def db_cost(value: object) -> int | None:
    if type(value) is int:
        return value if value >= 0 else None
    if isinstance(value, str) and (match := _COST_RE.fullmatch(value)):
        return int(match[1])
    return None


def db_kind(section: str, type_: str, keywords: Sequence[str]) -> str:
    """The kind a card's database entry gives it: its section, its type and its keywords.

    >>> db_kind("dwarves", "reactive-defense", ["dwarven"]), db_kind("universal", "", [])
    ('reactive', 'universal')
    """
    if section == BEHAVIOUR_SECTION:
        return "behaviour"  # R-ADD-52: a support unit's, never a casket deck's
    lowered = {k.lower() for k in keywords}
    if lowered & {"primary", "primary-weapon"}:
        return "primary_weapon"  # R-DMG-6: discarding one damages a component
    if any(w == "reactive" or w.startswith("reactive-") for w in (type_, *lowered)):
        return "reactive"  # R-REA-1/2
    if "secondary" in lowered:
        return "secondary"
    if section == "universal":
        return "universal"
    return "other"


def class_notes(type_: str) -> list[str]:
    """The keyword notes of the classes a printed type names (R-ADD-340): "Defense /
    Formation" and "reactive-defense" are defense cards, "movement-attack" a movement card.

    >>> class_notes("reactive-defense"), class_notes("Movement / Stealth"), class_notes("Attack")
    (['class: defense'], ['class: movement'], [])
    """
    words = set(re.findall(r"[a-z]+", type_.lower()))
    words = {"defense" if w == "defence" else w for w in words}
    return [CLASS_NOTE + x for x in CARD_CLASSES if x in words]


def _plain_attack(text: str, damage: int, heat: int) -> bool:
    match = _PLAIN_ATTACK_RE.fullmatch(text.strip())
    if not match or int(match["damage"]) != damage:
        return False
    return match["heat"] is None or int(match["heat"]) == heat


def derive_from_database(entry: object, section: str) -> DerivedCard:
    """Derive a card from one database entry's fields, never from its free text.

    A card the effect catalogue (battles/engine/carddata/card_catalogue) reviewed for exactly this
    text, cost and range gets the catalogue's effects and is automated (R-ADD-57); a
    catalogued card that stays manual carries the catalogue's reason in `note`.

    An attack-type entry with an integer damage and a plain range gets an attack effect
    (plus a heat effect for a non-zero integer heat field); it is automated only when
    its text is exactly that attack. Entries without id or name, with a cost that is not
    a whole number of SP, or attacks without a usable range, give a reason instead.

    >>> d = derive_from_database({"id": "jab", "name": "Jab", "type": "Attack", "cost": 1,
    ...                           "range": "Melee", "damage": 2, "effect": "Deal 2 damage.",
    ...                           "keywords": ["attack", "primary"]}, "equipment")
    >>> d.card.kind, d.card.effects, d.automated
    ('primary_weapon', (AttackEffect(range=WeaponRange(text='Melee', low=1, high=1), damage=2),), True)
    >>> derive_from_database({"id": "x", "name": "X", "cost": "N/A"}, "special_cards").reason
    "cost 'N/A' is not a whole number of SP"
    """
    if not isinstance(entry, Mapping):
        return _reason(f"not an object but {type(entry).__name__}")
    card_id, name = entry.get("id"), entry.get("name")
    if not isinstance(card_id, str) or not card_id:
        return _reason("no id")
    if card_id in (DAMAGE_CARD.id, "damage-card"):
        return _reason("the blank Damage card is built in as DAMAGE_CARD (R-TRN-6)")
    if not SLUG_RE.fullmatch(card_id):
        return _reason(f"id {card_id!r} is not a slug")
    if not isinstance(name, str) or not name.strip():
        return _reason("no name")
    if "cost" not in entry:
        return _reason("no cost")
    cost = db_cost(entry["cost"])
    keywords = entry.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) and k for k in keywords):
        return _reason("keywords are not a list of strings")
    raw_type = entry.get("type")
    type_ = raw_type.strip().lower() if isinstance(raw_type, str) else ""
    # R-ADD-340: the printed type's classes, which "cannot use defense cards" reads (a
    # support unit's behaviour card is never played by a casket).
    if section != BEHAVIOUR_SECTION:
        keywords = [*keywords, *(n for n in class_notes(type_) if n not in keywords)]
    text = entry.get("effect", "")
    if not isinstance(text, str):
        return _reason("effect text is not a string")

    # R-ADD-57: a card the effect catalogue reviewed for exactly this text plays its effects.
    found, note = lookup(section, card_id, text, entry["cost"], entry.get("range"))
    # R-ADD-133: a printed cost in tokens the catalogue wrote as `token_cost`: 0 SP.
    printed = found.effects if found is not None and found.effects is not None else ()
    if cost is None and any(isinstance(e, TokenCostEffect) for e in printed):
        cost = 0
    # R-ADD-343: "0 SP (but costs future actions)": the future actions are the `sp_lock`.
    if cost is None and any(isinstance(e, SpLockEffect) for e in printed):
        cost = 0
    # R-ADD-420: "0 SP (but costs Bargain tokens retroactively)": the tokens are the
    # required `spend_tokens` its window pays as it resolves.
    spends = any(isinstance(e, SpendTokensEffect) and e.required for e in printed)
    if cost is None and spends and _ZERO_BUT_RE.fullmatch(str(entry.get("cost", ""))):
        cost = 0
    if cost is None:
        return _reason(f"cost {entry.get('cost')!r} is not a whole number of SP", note)
    if found is not None:
        try:
            card = found.card(
                name=name.strip(),
                kind=db_kind(section, type_, keywords),
                sp_cost=cost,
                keywords=tuple(keywords),
                shield=any(k.lower() == "shield" for k in keywords),  # R-REA-2
            )
        except InvalidInput as err:
            return _reason(f"catalogue entry: {err}")
        return DerivedCard(card, None, True, campaign=found.campaign)

    range_ = database_range(entry.get("range"))
    damage = _db_int(entry.get("damage"))
    if damage is not None and not 0 <= damage <= MAX_DAMAGE:
        damage = None
    heat = _db_int(entry.get("heat"))
    # A heat field that is not a whole number (a die roll) is for the players.
    plain_heat = heat is not None or entry.get("heat") is None
    effects: tuple[Effect, ...] = ()
    automated = plain_heat and not text.strip()
    if type_ in ATTACK_TYPES and (range_ is None or range_.low < 1):
        return _reason(
            f"attack range {entry.get('range')!r} is not one plain range (R-RNG-2)", note
        )
    try:
        if type_ in ATTACK_TYPES and range_ is not None:
            if damage is None:
                automated = False  # the printed damage is not one number: the players read it
            else:
                effects = (AttackEffect(range_, damage),)
                if heat:
                    effects += (HeatEffect(heat),)
                automated = plain_heat and _plain_attack(text, damage, heat or 0)
        card = CardDef(
            id=card_id,
            name=name.strip(),
            kind=db_kind(section, type_, keywords),
            sp_cost=cost,
            range=range_,
            damage=damage,
            heat=heat or 0,
            keywords=tuple(keywords),
            text=text,
            shield=any(k.lower() == "shield" for k in keywords),  # R-REA-2
            effects=effects,
            automated=automated,
        )
    except InvalidInput as err:
        return _reason(str(err))
    return DerivedCard(card, None, card.automated, None if card.automated else note)


def _reason(reason: str, note: str | None = None) -> DerivedCard:
    # `note`: what the catalogue said of the printed entry, kept for a manual fallback.
    return DerivedCard(None, reason, False, note)


def iter_database(doc: object) -> Iterator[tuple[str, int, Any]]:
    """Every (section, index, entry) of the database's list-valued sections, in file order.

    Other sections yield nothing; `skipped_sections` says which and why.

    >>> list(iter_database({"_meta": {}, "universal": [{"id": "a"}], "tactics": {"x": []}}))
    [('universal', 0, {'id': 'a'})]
    """
    if not isinstance(doc, Mapping):
        raise InvalidInput("database", "must be an object of sections")
    for section, entries in doc.items():
        if section in _SKIPPED or not isinstance(entries, list):
            continue
        for index, entry in enumerate(entries):
            yield str(section), index, entry


def skipped_sections(doc: object) -> list[tuple[str, str]]:
    """The sections `iter_database` does not read, each with the reason.

    >>> skipped_sections({"_meta": {}, "universal": [], "tactics": {"church": [], "elves": []}})
    [('_meta', 'metadata, not cards'), ('tactics', 'an object of sub-sections (church, elves), not a list of entries')]
    """
    if not isinstance(doc, Mapping):
        raise InvalidInput("database", "must be an object of sections")
    skipped: list[tuple[str, str]] = []
    for section, entries in doc.items():
        if section in _SKIPPED:
            skipped.append((str(section), _SKIPPED[section]))
        elif isinstance(entries, Mapping):
            keys = ", ".join(str(k) for k in entries)
            skipped.append(
                (str(section), f"an object of sub-sections ({keys}), not a list of entries")
            )
        elif not isinstance(entries, list):
            skipped.append((str(section), f"a {type(entries).__name__}, not a list of entries"))
    return skipped
