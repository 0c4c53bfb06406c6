"""Casket decks from the game's construction rules (R-ADD-52).

A casket deck of ruleset 2.0 or 2.1 holds exactly 30 cards (R-TRN-1) made of

- every universal card, once at least (at most its copies);
- every card of every equipment item the casket carries, as many times as the item
  brings it; the items fit the casket class's slots (`SLOTS`) and are allowed to its
  faction;
- the rest from the faction's own cards (its section, its tactics, and its cards in the
  flat equipment list that no item brings), each at most its copies (R-ADD-29);

and nothing else: no other faction's cards, no card of an item it does not carry, no
behaviour card, no Damage card (R-TRN-6). Two checks, one per rule set:

- `validate_deck` checks a deck of cards as rows (card, count) by R-TRN-1 alone: the deck
  size, whole counts, one row per card, no Damage or behaviour card. A battle's setup and a
  campaign's stored decks use it; it needs no database.
- `casket_deck_problems` checks a deck of card ids against the database for a loadout
  (R-ADD-52: the universal, faction and item cards it may and must hold), and runs
  `validate_deck` on the loaded rows.

Both report `DeckProblem`s. `build_casket_deck` builds a legal deck for a loadout,
`random_loadout` draws one.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..cards import CardDef
from ..errors import InvalidInput
from ..ruleset import Ruleset
from .carddb import FACTIONS, SLOTS, DatabaseRead, ItemDef

# R-ADD-52 (the game's public repository, docs/reference/equipment-pool-complete.md): one
# arm weapon, one off-hand (a shield or secondary equipment; a two-handed weapon takes it
# too) and 1-4 accessories by class.
SLOTS_BY_CLASS: Mapping[str, Mapping[str, int]] = MappingProxyType(
    {
        "scout": MappingProxyType({"weapon": 1, "offhand": 1, "accessory": 1}),
        "assault": MappingProxyType({"weapon": 1, "offhand": 1, "accessory": 2}),
        "heavy": MappingProxyType({"weapon": 1, "offhand": 1, "accessory": 3}),
        "fortress": MappingProxyType({"weapon": 1, "offhand": 1, "accessory": 4}),
    }
)
RULE = "R-ADD-52"


# R-TRN-1: the casket deck size of each ruleset version (seed 002 "30-card Casket HP decks").
DECK_SIZE: Mapping[str, int] = MappingProxyType({"2.0": 30, "2.1": 30})  # R-TRN-1


@dataclass(frozen=True, slots=True)
class DeckProblem:
    """One way a deck breaks the construction rules; `index` is its row, None for the whole deck.

    >>> DeckProblem("deck_size", "29 cards; a casket deck has 30", "R-TRN-1").as_dict()["rule"]
    'R-TRN-1'
    """

    code: str
    message: str
    rule: str
    index: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "rule": self.rule, "index": self.index}


def validate_deck(cards: Sequence[tuple[CardDef, int]], ruleset: Ruleset) -> list[DeckProblem]:
    """Check a built casket deck, given as (card, count) rows; an empty list means legal.

    >>> from battles.engine.cards import DAMAGE_CARD
    >>> from battles.engine.ruleset import Ruleset
    >>> validate_deck([(DAMAGE_CARD, 30)], Ruleset())[0].code
    'damage_card_in_deck'
    """
    size = DECK_SIZE[ruleset.version]
    problems: list[DeckProblem] = []
    seen: set[str] = set()
    total = 0
    for i, (card, count) in enumerate(cards):
        if type(count) is not int or count < 1:
            problems.append(
                DeckProblem(
                    "bad_count",
                    f"{card.name}: count must be a whole number of at least 1, got {count!r}",
                    "R-TRN-1",
                    i,
                )
            )
        else:
            total += count
        if card.kind == "damage":
            problems.append(
                DeckProblem(
                    "damage_card_in_deck",
                    f"{card.name}: Damage cards only enter a deck when it is reshuffled",
                    "R-TRN-6",
                    i,
                )
            )
        if card.kind == "behaviour":
            problems.append(
                DeckProblem(
                    "behaviour_card_in_deck",
                    f"{card.name}: a support unit's behaviour card is not a casket deck's",
                    "R-ADD-52",
                    i,
                )
            )
        if card.id in seen:
            problems.append(
                DeckProblem(
                    "duplicate_card",
                    f"{card.name} is listed twice; give one row with the total count",
                    "R-TRN-1",
                    i,
                )
            )
        seen.add(card.id)
    if total != size:
        problems.append(
            DeckProblem(
                "deck_size",
                f"the deck has {total} cards; a casket deck has exactly {size}",
                "R-TRN-1",
            )
        )
    return problems


@dataclass(frozen=True, slots=True)
class Loadout:
    """What a casket is built from: its faction, its class (R-TRN-3) and the items it carries."""

    faction: str
    casket_class: str
    items: tuple[str, ...]


def _slot_use(items: Sequence[ItemDef]) -> dict[str, int]:
    use = dict.fromkeys(SLOTS, 0)
    for item in items:
        use[item.slot] += 1
        if item.two_handed and item.slot == "weapon":
            use["offhand"] += 1
    return use


def loadout_problems(read: DatabaseRead, loadout: Loadout) -> list[DeckProblem]:
    """Everything wrong with a loadout before any card is counted (R-ADD-52).

    >>> from battles.engine.carddata.carddb import read_database
    >>> read = read_database({"church": [], "equipment_items": [{"name": "LONGBOW",
    ...     "faction": "elves only", "category": "Weapon", "weight": "Light (2-handed)",
    ...     "cards": []}]})
    >>> [p.code for p in loadout_problems(read, Loadout("church", "scout", ("longbow", "nope")))]
    ['item_not_for_faction', 'unknown_item']
    """
    problems: list[DeckProblem] = []
    if loadout.faction not in FACTIONS:
        problems.append(
            DeckProblem(
                "unknown_faction",
                f"{loadout.faction!r} is not a faction; known: {', '.join(FACTIONS)}",
                RULE,
            )
        )
    slots = SLOTS_BY_CLASS.get(loadout.casket_class)
    if slots is None:
        problems.append(
            DeckProblem(
                "unknown_class",
                f"{loadout.casket_class!r} is not a casket class; known: "
                + ", ".join(SLOTS_BY_CLASS),
                "R-TRN-3",
            )
        )
    items: list[ItemDef] = []
    for item_id in loadout.items:
        item = read.items.get(item_id)
        if item is None:
            problems.append(DeckProblem("unknown_item", f"no equipment item {item_id!r}", RULE))
            continue
        items.append(item)
        if not item.allowed_to(loadout.faction):
            problems.append(
                DeckProblem(
                    "item_not_for_faction",
                    f"{item.name} is for {', '.join(item.factions)}, not {loadout.faction}",
                    RULE,
                )
            )
        if item.missing:
            problems.append(
                DeckProblem(
                    "item_cards_not_loaded",
                    f"{item.name} brings cards the engine did not load: {', '.join(item.missing)}",
                    RULE,
                )
            )
    if slots is not None:
        for slot, used in _slot_use(items).items():
            if used > slots[slot]:
                problems.append(
                    DeckProblem(
                        "slots_exceeded",
                        f"{used} items in the {slot} slot(s); a {loadout.casket_class} has "
                        f"{slots[slot]} (a two-handed weapon takes the off-hand too)",
                        RULE,
                    )
                )
    return problems


def _allowed_copies(read: DatabaseRead, loadout: Loadout) -> tuple[dict[str, int], dict[str, int]]:
    """(the most copies of each card the loadout allows, the least copies it requires)."""
    most: dict[str, int] = {}
    least: dict[str, int] = {}
    for card_id in read.universal:
        copies = read.cards[card_id].copies or 1
        most[card_id] = most.get(card_id, 0) + copies
        least[card_id] = least.get(card_id, 0) + 1
    for card_id in read.faction_pools.get(loadout.faction, ()):
        # R-ADD-29: no cardCount bounds it by the deck size alone.
        copies = read.cards[card_id].copies or DECK_SIZE["2.1"]
        most[card_id] = most.get(card_id, 0) + copies
    for item_id in loadout.items:
        item = read.items.get(item_id)
        for card_id, copies in item.cards if item else ():
            most[card_id] = most.get(card_id, 0) + copies
            least[card_id] = least.get(card_id, 0) + copies
    return most, least


def casket_deck_problems(
    read: DatabaseRead,
    loadout: Loadout,
    rows: Sequence[tuple[str, int]],
    ruleset: Ruleset,
) -> list[DeckProblem]:
    """Every way a deck of (card id, count) rows breaks the construction rules for its loadout.

    Row problems carry the row's index; the loadout's and the whole deck's have none.

    >>> from battles.engine.carddata.carddb import read_database
    >>> card = {"name": "Step", "cost": 1, "effect": "Move 1.", "cardCount": 1}
    >>> read = read_database({"universal": [dict(card, id="step")],
    ...                       "church": [dict(card, id="pray", cardCount=29)],
    ...                       "dwarves": [dict(card, id="forge")]})
    >>> [(p.code, p.index) for p in casket_deck_problems(
    ...     read, Loadout("church", "heavy", ()), [("pray", 30)], Ruleset())]
    [('too_many_copies', 0), ('required_card_missing', None)]
    >>> [p.code for p in casket_deck_problems(
    ...     read, Loadout("church", "heavy", ()), [("step", 1), ("pray", 28), ("forge", 1)], Ruleset())]
    ['card_not_allowed']
    """
    problems = loadout_problems(read, loadout)
    most, least = _allowed_copies(read, loadout)
    cards: list[tuple[CardDef, int]] = []
    held: dict[str, int] = {}
    for i, (card_id, count) in enumerate(rows):
        loaded = read.cards.get(card_id)
        if loaded is None:
            problems.append(
                DeckProblem("unknown_card", f"no loaded card {card_id!r} in the database", RULE, i)
            )
            continue
        cards.append((loaded.card, count))
        if type(count) is int:
            held[card_id] = held.get(card_id, 0) + count
        name = loaded.card.name
        if card_id not in most and loaded.card.kind not in ("damage", "behaviour"):
            problems.append(
                DeckProblem(
                    "card_not_allowed",
                    f"{name} is neither universal, nor a {loadout.faction} card, nor brought "
                    "by an item this casket carries",
                    RULE,
                    i,
                )
            )
        elif type(count) is int and card_id in most and count > most[card_id]:
            problems.append(
                DeckProblem(
                    "too_many_copies",
                    f"{name}: {count} copies; this loadout allows at most {most[card_id]}",
                    "R-ADD-29",
                    i,
                )
            )
    for p in validate_deck(cards, ruleset):
        # validate_deck counts rows of loaded cards only: map its indexes back to the rows.
        if p.index is not None:
            index = [i for i, (cid, _) in enumerate(rows) if cid in read.cards][p.index]
            p = DeckProblem(p.code, p.message, p.rule, index)
        problems.append(p)
    for card_id, needed in least.items():
        if held.get(card_id, 0) < needed:
            name = read.cards[card_id].card.name
            problems.append(
                DeckProblem(
                    "required_card_missing",
                    f"{name}: {held.get(card_id, 0)} in the deck; the universal cards and the "
                    f"carried items' cards require {needed}",
                    RULE,
                )
            )
    return sorted(problems, key=lambda p: (p.index is None, p.index or 0))


def build_casket_deck(
    read: DatabaseRead, loadout: Loadout, ruleset: Ruleset, rng: random.Random | None = None
) -> list[tuple[str, int]]:
    """A legal deck for `loadout`: the required cards, then faction cards (in file order, or
    shuffled by `rng`) one copy at a time up to their copies, then more universal copies.

    Raises InvalidInput naming the first problem when no legal deck exists for the loadout.

    >>> from battles.engine.carddata.carddb import read_database
    >>> card = {"name": "Step", "cost": 1, "effect": "Move 1.", "cardCount": 2}
    >>> read = read_database({"universal": [dict(card, id="step")],
    ...                       "church": [dict(card, id="pray", cardCount=28)]})
    >>> build_casket_deck(read, Loadout("church", "scout", ()), Ruleset())
    [('step', 2), ('pray', 28)]
    >>> build_casket_deck(read, Loadout("dwarves", "scout", ()), Ruleset())
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: loadout.faction: dwarves's cards and the universal cards fill only 2 of 30 (R-ADD-52)
    """
    problems = loadout_problems(read, loadout)
    if problems:
        raise InvalidInput("loadout", problems[0].message, problems[0].rule)
    size = DECK_SIZE[ruleset.version]
    most, least = _allowed_copies(read, loadout)
    counts = dict(least)
    total = sum(counts.values())
    if total > size:
        raise InvalidInput(
            "loadout.items",
            f"the universal cards and the items bring {total} cards; a deck has {size}",
            RULE,
        )
    pool = list(read.faction_pools.get(loadout.faction, ()))
    if rng is not None:
        rng.shuffle(pool)
    extra = list(read.universal)
    while total < size:
        progressed = False
        for card_id in pool + extra:
            if total >= size:
                break
            if counts.get(card_id, 0) < min(most[card_id], read.cards[card_id].copies or 1):
                counts[card_id] = counts.get(card_id, 0) + 1
                total += 1
                progressed = True
        if not progressed:
            raise InvalidInput(
                "loadout.faction",
                f"{loadout.faction}'s cards and the universal cards fill only {total} of {size}",
                RULE,
            )
    return list(counts.items())


def random_loadout(read: DatabaseRead, faction: str, rng: random.Random) -> Loadout:
    """A random loadout a legal deck exists for: a class, an arm weapon, an off-hand unless the
    weapon takes both hands, and accessories while the required cards leave room for at
    least a third of the deck from the faction's own cards.

    >>> from battles.engine.carddata.carddb import read_database
    >>> stab = {"name": "Stab", "cost": 1, "type": "Attack", "range": "Melee", "damage": 3,
    ...         "effect": "Deal 3 damage"}
    >>> read = read_database({"equipment_items": [{"name": "DAGGER", "faction": "universal",
    ...                       "category": "Weapon", "cards": [stab]}]})
    >>> random_loadout(read, "church", random.Random(1)).items
    ('dagger',)
    """
    casket_class = rng.choice(sorted(SLOTS_BY_CLASS))
    usable = [
        item
        for item in read.items.values()
        if item.allowed_to(faction) and not item.missing and item.cards
    ]
    by_slot = {slot: [i for i in usable if i.slot == slot] for slot in SLOTS}
    size = DECK_SIZE["2.1"]
    budget = size - len(read.universal) - size // 3
    chosen: list[ItemDef] = []
    weapon = rng.choice(by_slot["weapon"])
    chosen.append(weapon)
    if not weapon.two_handed and by_slot["offhand"]:
        chosen.append(rng.choice(by_slot["offhand"]))
    accessories = by_slot["accessory"][:]
    rng.shuffle(accessories)
    for item in accessories[: SLOTS_BY_CLASS[casket_class]["accessory"]]:
        if sum(i.card_count for i in chosen) + item.card_count <= budget:
            chosen.append(item)
    while sum(i.card_count for i in chosen) > budget and len(chosen) > 1:
        chosen.pop()
    return Loadout(faction, casket_class, tuple(i.id for i in chosen))
