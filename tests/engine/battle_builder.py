"""Small battles for the battle engine's scenario tests (battles/engine/battle).

A battle here is a radius-3 board, a handful of cards written inline in the project's
card format (checked with `card_from_dict`), 30-card decks (R-TRN-1) padded with a
blank filler card, and either table dice, where every command reports the exact die
faces (`faces`) and drawn cards (`drawn`), or seeded digital dice.

`Battle` keeps the event list and the state folded from it, so a test sends command
bodies as the API would and checks the events each command produced.

>>> b = Battle.create(setup())
>>> b.state.phase, [p.kind for p in b.state.prompts]
('setup', ['mulligan', 'mulligan'])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from battles.engine.battle import (
    BattleState,
    CasketState,
    create,
    decide,
    evolve,
    parse_command,
    replay,
)
from battles.engine.battle.events import Event
from battles.engine.battle.randomness import DiceSource
from battles.engine.cards import card_from_dict
from battles.engine.errors import RuleViolation

DECK_SIZE = 30  # R-TRN-1
FILLER = "chaff"


def _card(
    id_: str,
    kind: str,
    sp: int,
    effects: Sequence[Mapping[str, Any]] = (),
    *,
    automated: bool = True,
    **extra: Any,
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "id": id_,
        "name": id_.replace("-", " ").title(),
        "kind": kind,
        "sp_cost": sp,
        "effects": list(effects),
        "automated": automated,
        **extra,
    }
    attack = next((e for e in effects if e["kind"] == "attack"), None)
    if attack is not None:
        doc["range"], doc["damage"] = attack["range"], attack["damage"]
    if automated:
        doc["heat"] = sum(e["amount"] for e in effects if e["kind"] == "heat")
    card_from_dict(doc, f"test card {id_}")  # a typo here fails at import, not mid-test
    return doc


# Every card the scenarios use. "gun-rack" starts with another card's id on purpose: a
# table that reports "gun" must not be handed a Gun Rack.
CARDS: dict[str, dict[str, Any]] = {
    c["id"]: c
    for c in (
        _card(FILLER, "other", 0),  # blank: a card to hold, pay with or discard
        _card("blade", "primary_weapon", 2, [{"kind": "attack", "range": "Melee", "damage": 3}]),
        # Big enough to empty a deck in one EXECUTION (R-DMG-5).
        _card("ruin", "primary_weapon", 0, [{"kind": "attack", "range": "Melee", "damage": 24}]),
        _card("gun", "primary_weapon", 1, [{"kind": "attack", "range": "1-6", "damage": 2}]),
        _card("gun-rack", "other", 0),
        _card("pistol", "secondary", 1, [{"kind": "attack", "range": "1-4", "damage": 2}]),
        _card(
            "hammer",
            "universal",
            1,
            [{"kind": "attack", "range": "Melee", "damage": 2}, {"kind": "heat", "amount": 1}],
        ),
        _card("stride", "universal", 1, [{"kind": "move", "hexes": 2}]),
        _card("pivot", "universal", 0, [{"kind": "rotate", "steps": 1}]),
        _card("coolant", "other", 1, [{"kind": "heat", "amount": -2}]),
        _card("stoke", "other", 0, [{"kind": "heat", "amount": 3}]),
        _card("insight", "universal", 1, [{"kind": "draw", "n": 2}]),
        _card("purge", "other", 0, [{"kind": "discard", "n": 1, "source": "hand"}]),
        _card("cull", "other", 0, [{"kind": "discard", "n": 2, "source": "deck"}]),
        _card("sift", "other", 0, [{"kind": "discard", "n": 2, "source": "choice"}]),
        _card("oil", "universal", 1, [{"kind": "buff_next_attack", "damage": 2}]),
        _card("aim", "universal", 0, [{"kind": "buff_next_attack", "to_hit": -2}]),
        _card(
            "smoke", "universal", 1, [{"kind": "status", "target": "self", "status": "obscured"}]
        ),
        _card(
            "snare",
            "universal",
            1,
            [{"kind": "status", "target": "target", "status": "immobilised"}],
        ),
        _card("scourge", "other", 0, [{"kind": "roll_suffering", "n": 1}]),
        _card("ward", "reactive", 0, [{"kind": "reduce_incoming", "amount": 1}]),
        _card(
            "steam",
            "reactive",
            0,
            [{"kind": "reduce_incoming", "amount": 2}, {"kind": "heat", "amount": 1}],
        ),
        _card("pavise", "reactive", 0, [{"kind": "reduce_incoming", "amount": 3}], shield=True),
        _card(
            "rite",
            "other",
            1,
            [{"kind": "heat", "amount": 1}],
            automated=False,
            heat=2,
            text="Gain 1 Heat; every casket within 2 hexes gains 1 Heat. The players apply it.",
        ),
    )
}


def deck(filler: str = FILLER, **counts: int) -> list[dict[str, Any]]:
    """Deck rows: the counts given, padded with `filler` to 30 cards (R-TRN-1, R-ADD-15).

    >>> deck(blade=4)
    [{'card': 'blade', 'count': 4}, {'card': 'chaff', 'count': 26}]
    """
    rows = [{"card": c, "count": n} for c, n in counts.items() if n]
    rest = DECK_SIZE - sum(counts.values())
    if rest:
        rows.append({"card": filler, "count": rest})
    return rows


def board(*hexes: tuple[int, int, str], radius: int = 3) -> dict[str, Any]:
    """A hexagon board document (FORMATS.md); `hexes` are (q, r, terrain) cells."""
    return {
        "name": "Test yard",
        "shape": {"kind": "hexagon", "radius": radius},
        "hexes": [{"q": q, "r": r, "terrain": t} for q, r, t in hexes],
    }


def seat(
    n: int,
    *,
    at: tuple[int, int],
    facing: int,
    side: str | None = None,
    casket_class: str = "assault",
    shield: str = "left",
    rows: list[dict[str, Any]] | None = None,
    carried_wounds: Sequence[str] = (),
    sp_modifier: int = 0,
) -> dict[str, Any]:
    """One seat of a setup document; side defaults to its own side per seat."""
    return {
        "player": f"player{n}",
        "side": side or f"side{n}",
        "casket": {"name": f"Casket {n}", "class": casket_class, "shield": shield},
        "deck": rows if rows is not None else deck(blade=10),
        "pilot": {
            "name": f"Pilot {n}",
            "carried_wounds": list(carried_wounds),
            "sp_modifier": sp_modifier,
        },
        "at": list(at),
        "facing": facing,
    }


def setup(
    *,
    seats: Sequence[dict[str, Any]] | None = None,
    terrain: Sequence[tuple[int, int, str]] = (),
    mode: str = "table",
    seed: int | None = None,
    policy: str = "prompt",
    options: Mapping[str, Any] | None = None,
    version: str = "2.0",
) -> dict[str, Any]:
    """A setup document. Default: two assault caskets face to face, seat 0 at [0, 0]
    facing N and seat 1 adjacent at [0, -1] facing S, so each is in the other's front
    (side 1, R-ARC-2) at distance 1. The scenarios were written for ruleset 2.0, their
    default; `version` "2.1" plays them with the damage pile (R-DMG-8, R-DMG-9)."""
    seats = (
        list(seats)
        if seats is not None
        else [seat(0, at=(0, 0), facing=1), seat(1, at=(0, -1), facing=4)]
    )
    used = {row["card"] for s in seats for row in s["deck"]}
    dice: dict[str, Any] = {"mode": mode}
    if seed is not None:
        dice["seed"] = seed
    return {
        "name": "Scenario",
        "board": board(*terrain),
        "rules": {"version": version, "options": dict(options or {})},
        "dice": dice,
        "policy": policy,
        "cards": [CARDS[c] for c in sorted(used)],
        "seats": seats,
    }


class Battle:
    """A battle's events and its current state; commands go through `decide` and `evolve`."""

    def __init__(self, events: Iterable[Event]) -> None:
        self.events: list[Event] = list(events)
        self.state: BattleState = replay(self.events)
        self.before: BattleState | None = None  # the state before the latest command

    @classmethod
    def create(
        cls,
        setup_doc: Mapping[str, Any],
        battle_id: str = "scenario",
        dice: DiceSource | None = None,
    ) -> Battle:
        return cls(create(battle_id, setup_doc, dice))

    def do(self, body: Mapping[str, Any], dice: DiceSource | None = None) -> list[Event]:
        """Decide `body` (a command body as the API takes it) and fold its events in;
        `dice` overrides the battle's own dice (a digital battle with fixed faces)."""
        command = parse_command(dict(body))
        new = decide(self.state, command, dice)
        self.before = self.state
        for event in new:
            self.state = evolve(self.state, event)
        self.events.extend(new)
        return new

    def refuse(self, body: Mapping[str, Any]) -> RuleViolation:
        """The RuleViolation `body` raises; the battle is left as it was."""
        version = self.state.version
        with pytest.raises(RuleViolation) as info:
            self.do(body)
        assert self.state.version == version
        return info.value

    def seat(self, n: int) -> CasketState:
        return self.state.seats[n]


def types(events: Iterable[Event]) -> list[str]:
    return [e.type for e in events]


def of_type(events: Iterable[Event], cls: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def one(events: Iterable[Event], cls: type[Any]) -> Any:
    """The single event of type `cls` among `events`."""
    found = of_type(events, cls)
    assert len(found) == 1, f"expected one {cls.__name__}, got {types(events)}"
    return found[0]


def start(
    setup_doc: Mapping[str, Any],
    hands: Sequence[Sequence[str]] | None = None,
    initiative: Sequence[int] = (6, 1),
) -> Battle:
    """A table battle (policy prompt) past setup: every seat keeps the hand it reports
    (default six filler cards), and the last keep_hand carries the initiative faces
    (R-TRN-1, R-TRN-2); with the default faces seat 0 acts first."""
    b = Battle.create(setup_doc)
    n = len(b.state.seats)
    hands = hands if hands is not None else [[FILLER] * 6] * n
    for i in range(n):
        body: dict[str, Any] = {"type": "keep_hand", "seat": i, "drawn": list(hands[i])}
        if i == n - 1:
            body["faces"] = list(initiative)
        b.do(body)
    return b
