"""The project's own demo cards, two demo casket decks and a ready battle setup.

Everything here is invented for the project (names, texts, numbers) so that a demo or
test battle needs neither the game's card database nor anyone's campaign. The cards
are kept as plain dicts in the project's JSON card format and built with
`card_from_dict`, so the demo exercises the same path a stored card takes.

Two cards are manual on purpose: the engine shows their text and the players resolve
it, which a demo battle must be able to show too.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from .cards import CardDef, card_from_dict
from .errors import InvalidInput
from .ruleset import DEFAULT_VERSION

# --- cards -------------------------------------------------------------------------------------


def _attack_card(
    card_id: str,
    name: str,
    *,
    kind: str,
    sp_cost: int,
    attack: tuple[str, int],
    keywords: list[str],
    text: str,
    heat: int = 0,
) -> dict[str, Any]:
    """An attack card: the range and damage it prints are the attack it makes, and the Heat
    it prints (if any) it gains after the attack."""
    range_, damage = attack
    return {
        "id": card_id,
        "name": name,
        "kind": kind,
        "sp_cost": sp_cost,
        "range": range_,
        "damage": damage,
        **({"heat": heat} if heat else {}),
        "keywords": keywords,
        "text": text,
        "effects": [
            {"kind": "attack", "range": range_, "damage": damage},
            *([{"kind": "heat", "amount": heat}] if heat else []),
        ],
        "automated": True,
    }


def _reactive_card(
    card_id: str, name: str, *, reduce: int, text: str, heat: int = 0, shield: bool = False
) -> dict[str, Any]:
    """A reactive card: 0 SP, one per attack, before defence dice (R-REA-1, R-REA-2); the
    attack it answers deals `reduce` less damage, and it gains the Heat it prints (if any).
    A shield card plays only from the shield sides."""
    return {
        "id": card_id,
        "name": name,
        "kind": "reactive",
        "sp_cost": 0,
        **({"heat": heat} if heat else {}),
        **({"shield": True} if shield else {}),
        "keywords": ["reactive", "shield"] if shield else ["reactive"],
        "text": text,
        "effects": [
            {"kind": "reduce_incoming", "amount": reduce},
            *([{"kind": "heat", "amount": heat}] if heat else []),
        ],
        "automated": True,
    }


_CARD_DOCS: tuple[dict[str, Any], ...] = (
    # Primary weapons: discarding one to damage damages a component (R-DMG-6).
    _attack_card(
        "censer-maul",
        "Censer Maul",
        kind="primary_weapon",
        sp_cost=2,
        attack=("Melee", 4),
        keywords=["primary", "melee"],
        text="Bring the smouldering censer-head down on an adjacent casket for 4 damage. "
        "Its coals bank the furnace: gain 1 Heat.",
        heat=1,
    ),
    _attack_card(
        "pyre-lance",
        "Pyre Lance",
        kind="primary_weapon",
        sp_cost=3,
        attack=("2-8", 4),
        keywords=["primary", "ranged"],
        text="A spear of burning oil hurled from 2 to 8 hexes away: 4 damage. "
        "The siphons run hot: gain 2 Heat.",
        heat=2,
    ),
    _attack_card(
        "grave-bell-cannon",
        "Grave-Bell Cannon",
        kind="primary_weapon",
        sp_cost=3,
        attack=("6", 5),
        keywords=["primary", "ranged"],
        text="The cast-iron bell tolls once and its shot lands up to 6 hexes away "
        "for 5 damage. The recoil cooks the breech: gain 2 Heat.",
        heat=2,
    ),
    _attack_card(
        "litany-carbine",
        "Litany Carbine",
        kind="secondary",
        sp_cost=1,
        attack=("1-4", 2),
        keywords=["secondary", "ranged"],
        text="Each round is stamped with a verse. Fire at a casket 1 to 4 hexes away for 2 damage.",
    ),
    _attack_card(
        "rust-tooth-jab",
        "Rust-Tooth Jab",
        kind="universal",
        sp_cost=0,
        attack=("Melee", 2),
        keywords=["melee"],
        text="A free, ugly shove of the corroded knuckle-teeth: 2 damage to an adjacent "
        "casket, and the strained joints gain you 1 Heat.",
        heat=1,
    ),
    # Movement and facing (R-TRN-5, R-ARC-5).
    {
        "id": "cathedral-stride",
        "name": "Cathedral Stride",
        "kind": "universal",
        "sp_cost": 1,
        "text": "The great legs take the slow processional step: move up to 3 hexes.",
        "effects": [{"kind": "move", "hexes": 3}],
        "automated": True,
    },
    {
        "id": "grinding-pivot",
        "name": "Grinding Pivot",
        "kind": "universal",
        "sp_cost": 1,
        "text": "The waist-gears shriek round: turn to face any direction.",
        "effects": [{"kind": "rotate", "steps": "any"}],
        "automated": True,
    },
    # Heat, cards and buffs.
    {
        "id": "quench-the-furnace",
        "name": "Quench the Furnace",
        "kind": "other",
        "sp_cost": 2,
        "heat": -3,
        "text": "Flood the boiler-heart with black water and let it hiss: remove 3 Heat.",
        "effects": [{"kind": "heat", "amount": -3}],
        "automated": True,
    },
    {
        "id": "reading-of-ashes",
        "name": "Reading of Ashes",
        "kind": "universal",
        "sp_cost": 1,
        "text": "The pilot sifts the cinders of the last prayer for an omen: draw 2 cards.",
        "effects": [{"kind": "draw", "n": 2}],
        "automated": True,
    },
    {
        "id": "shed-the-dross",
        "name": "Shed the Dross",
        "kind": "other",
        "sp_cost": 1,
        "heat": -2,
        "text": "Cast out two cards from your hand as slag; their burning carries off "
        "2 Heat with them.",
        "effects": [
            {"kind": "discard", "n": 2, "source": "hand"},
            {"kind": "heat", "amount": -2},
        ],
        "automated": True,
    },
    {
        "id": "anointing-oil",
        "name": "Anointing Oil",
        "kind": "universal",
        "sp_cost": 1,
        "text": "Smear the weapon with consecrated grease: your next attack deals 2 more "
        "damage and cancels 1 block of the defence dice.",
        "effects": [{"kind": "buff_next_attack", "damage": 2, "ignore_defence": 1}],
        "automated": True,
    },
    {
        "id": "incense-pall",
        "name": "Incense Pall",
        "kind": "universal",
        "sp_cost": 1,
        "text": "Vents in the shoulders pour out grey incense: your casket becomes obscured.",
        "effects": [{"kind": "status", "target": "self", "status": "obscured"}],
        "automated": True,
    },
    {
        "id": "scourge-harness",
        "name": "Scourge Harness",
        "kind": "other",
        "sp_cost": 0,
        "keywords": ["suffering"],
        "text": "The cockpit's barbed straps tighten on the pilot: roll 2 suffering dice "
        "and apply each face, then your next attack deals 1 more damage.",
        "effects": [
            {"kind": "roll_suffering", "n": 2},
            {"kind": "buff_next_attack", "damage": 1},
        ],
        "automated": True,
    },
    # Reactive cards (R-REA-1, R-REA-2).
    _reactive_card(
        "brace-the-frame",
        "Brace the Frame",
        reduce=1,
        text="Lock the knees and take it: the attack you answer deals 1 less damage.",
    ),
    _reactive_card(
        "scalding-veil",
        "Scalding Veil",
        reduce=2,
        text="Blow the pressure valves into the blow's path: the attack you answer deals "
        "2 less damage, and you gain 1 Heat.",
        heat=1,
    ),
    _reactive_card(
        "reliquary-pavise",
        "Reliquary Pavise",
        reduce=3,
        text="Raise the bone-studded pavise on its chains: the attack you answer deals "
        "3 less damage. Only from your shield sides.",
        shield=True,
    ),
    # Manual: the players resolve what the effects cannot say.
    {
        "id": "chain-anchor",
        "name": "Chain Anchor",
        "kind": "secondary",
        "sp_cost": 2,
        "keywords": ["secondary"],
        "text": "Fire a hooked anchor at a casket within 4 hexes that you can see and drag "
        "it up to 2 hexes straight towards you; it stops before any impassable hex or "
        "casket. The players move the dragged casket.",
        "automated": False,
    },
    {
        "id": "requiem-chime",
        "name": "Requiem Chime",
        "kind": "other",
        "sp_cost": 1,
        "heat": 1,
        "text": "A dirge rings from the chest-bells: gain 1 Heat, and every other casket "
        "within 2 hexes of you gains 1 Heat as well. The players add the Heat to the "
        "other caskets.",
        "effects": [{"kind": "heat", "amount": 1}],
        "automated": False,
    },
)

DEMO_CARDS: tuple[CardDef, ...] = tuple(
    card_from_dict(doc, f"demo_cards[{i}]") for i, doc in enumerate(_CARD_DOCS)
)
_BY_ID: Mapping[str, CardDef] = MappingProxyType({c.id: c for c in DEMO_CARDS})


def demo_card(card_id: str) -> CardDef:
    """The demo card with this id.

    >>> demo_card("pyre-lance").attack.range.text
    '2-8'
    >>> demo_card("plasma-sword")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: card: no demo card 'plasma-sword'
    """
    card = _BY_ID.get(card_id)
    if card is None:
        raise InvalidInput("card", f"no demo card {card_id!r}")
    return card


# --- decks -------------------------------------------------------------------------------------

# R-TRN-1: 30 cards each. Both carry at least 10 attacks so a battle ends, and at least
# 4 reactive cards so the reactive prompt comes up.
DEMO_DECKS: Mapping[str, tuple[tuple[str, int], ...]] = MappingProxyType(
    {
        # A scout (6 SP, R-TRN-3): keeps its distance with the lance and carbine.
        "penitent-scout": (
            ("pyre-lance", 4),
            ("litany-carbine", 5),
            ("rust-tooth-jab", 2),
            ("cathedral-stride", 3),
            ("grinding-pivot", 2),
            ("quench-the-furnace", 2),
            ("reading-of-ashes", 2),
            ("incense-pall", 2),
            ("anointing-oil", 1),
            ("brace-the-frame", 2),
            ("scalding-veil", 2),
            ("reliquary-pavise", 1),
            ("chain-anchor", 1),
            ("requiem-chime", 1),
        ),
        # A heavy (4 SP): closes in with the maul and leans on its reactive cards.
        "bastion-heavy": (
            ("censer-maul", 5),
            ("grave-bell-cannon", 3),
            ("rust-tooth-jab", 3),
            ("reliquary-pavise", 3),
            ("brace-the-frame", 3),
            ("scalding-veil", 2),
            ("quench-the-furnace", 3),
            ("cathedral-stride", 2),
            ("grinding-pivot", 1),
            ("anointing-oil", 1),
            ("scourge-harness", 1),
            ("shed-the-dross", 1),
            ("chain-anchor", 1),
            ("requiem-chime", 1),
        ),
    }
)


def demo_deck(name: str) -> list[tuple[CardDef, int]]:
    """A demo deck as the (card, count) rows `validate_deck` reads.

    >>> from .carddata.decks import validate_deck
    >>> from .ruleset import Ruleset
    >>> validate_deck(demo_deck("bastion-heavy"), Ruleset())
    []
    """
    rows = DEMO_DECKS.get(name)
    if rows is None:
        raise InvalidInput("deck", f"no demo deck {name!r}; known: {', '.join(DEMO_DECKS)}")
    return [(demo_card(card_id), count) for card_id, count in rows]


# --- the battle setup --------------------------------------------------------------------------

# Radius-6 hexagon. The causeway runs along q = 0 from (0, -4) to (0, 4) and stays
# clear; cover and obstacles sit off to either side so that moving changes the
# to-hit (R-COV-1, R-LOS-2) without blocking the straight approach.
_TERRAIN: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = (
    ("forest", ((2, -3), (2, -2), (3, -3), (-2, 2), (-2, 3), (-3, 3))),
    ("dense_forest", ((-5, 3), (5, -3))),
    ("rubble", ((1, -1), (-1, 1), (1, 2), (-1, -2))),
    ("wall", ((3, -1), (3, 0), (-3, 0), (-3, 1))),
    ("building", ((-4, -1), (-5, -1), (-4, -2))),
    ("water", ((4, 1), (4, 2), (5, 1))),  # R-TRN-7: -2 Heat at the end of a turn
)
_DEPLOY = ((0, -4), (0, 4))  # 8 hexes apart (R-BRD-1)
# R-BRD-2: 4 = S and 1 = N, so each casket starts facing the other.
_FACINGS = (4, 1)


def demo_board() -> dict[str, Any]:
    """The demo board document (FORMATS.md), as `parse_board` reads it.

    >>> from .board import parse_board
    >>> from .hexes import Hex
    >>> b = parse_board(demo_board())
    >>> len(b), b.terrain_at(Hex(0, 0)).name, b.terrain_at(Hex(3, 0)).impassable
    (127, 'clear', True)
    """
    return {
        "name": "The Ash Causeway",
        "shape": {"kind": "hexagon", "radius": 6},
        "hexes": [
            {"q": q, "r": r, "terrain": terrain} for terrain, cells in _TERRAIN for q, r in cells
        ],
    }


def _deck_doc(name: str) -> list[dict[str, Any]]:
    return [{"card": card_id, "count": count} for card_id, count in DEMO_DECKS[name]]


def demo_setup(
    *,
    seed: int | None = 7,
    players: tuple[str, str] = ("gm", "player"),
    ruleset: str = DEFAULT_VERSION,
) -> dict[str, Any]:
    """A complete battle setup document with the two demo decks facing off; a fresh dict per call.

    `seed` picks reproducible (public) digital dice; None leaves them sealed by a secret
    the site draws at creation (R-ADD-45), or to the system source in the engine alone.
    `ruleset` is the version played, by default the default one (2.1).

    >>> setup = demo_setup(seed=3, players=("ann", "bob"))
    >>> [(s["player"], s["casket"]["class"], s["at"], s["facing"]) for s in setup["seats"]]
    [('ann', 'scout', [0, -4], 4), ('bob', 'heavy', [0, 4], 1)]
    >>> setup["dice"]
    {'mode': 'digital', 'seed': 3}
    """
    used = {card_id for rows in DEMO_DECKS.values() for card_id, _ in rows}
    seats = (
        {
            "player": players[0],
            "side": "penitents",
            "casket": {"name": "Penitent Scout", "class": "scout", "shield": "left"},
            "deck": _deck_doc("penitent-scout"),
            "pilot": {"name": "Sister Ophelia Vance", "carried_wounds": [], "sp_modifier": 0},
        },
        {
            "player": players[1],
            "side": "bastion",
            "casket": {"name": "Bastion Heavy", "class": "heavy", "shield": "right"},
            "deck": _deck_doc("bastion-heavy"),
            "pilot": {"name": "Brother Malachai Thorne", "carried_wounds": [], "sp_modifier": 0},
        },
    )
    return {
        "name": "Demo: The Ash Causeway",
        "board": demo_board(),
        "rules": {"version": ruleset},
        "dice": {"mode": "digital", "seed": seed},
        "policy": "auto",
        "cards": [card.as_dict() for card in DEMO_CARDS if card.id in used],
        "seats": [
            {**seat, "at": list(at), "facing": facing}
            for seat, at, facing in zip(seats, _DEPLOY, _FACINGS, strict=True)
        ],
    }
