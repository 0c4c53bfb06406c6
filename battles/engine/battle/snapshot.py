"""A battle state as JSON and back: snapshots in the event store, and reverts.

The static part (board, ruleset, cards) is the setup document; the dynamic part
is every other field. `state_from_dict(d, base)` reuses `base`'s static part
when the document leaves the setup out (a revert carries only the dynamic part).

>>> from battles.engine.demo import demo_setup
>>> from battles.engine.battle.setup import initial_state, parse_setup
>>> s = initial_state("b1", parse_setup(demo_setup()))
>>> state_from_dict(state_to_dict(s)) == s
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..board import with_terrain
from ..hexes import Hex
from .setup import initial_state
from .state import (
    AttackInProgress,
    BattleState,
    CasketState,
    Enhancement,
    FollowUp,
    PlacedTerrain,
    Prompt,
    Unit,
    Ward,
)

_CASKET_FIELDS = tuple(f.name for f in dataclasses.fields(CasketState))
_DYNAMIC = (
    "phase",
    "round",
    "order",
    "turn",
    "winner",
    "result",
    "version",
)


def _casket_dict(c: CasketState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in _CASKET_FIELDS:
        value = getattr(c, name)
        if isinstance(value, Hex):
            value = [value.q, value.r]
        elif name in ("enhancements", "wards"):  # Buffs and wards: small records
            value = [dataclasses.asdict(x) for x in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out


def _casket(d: Mapping[str, Any]) -> CasketState:
    values: dict[str, Any] = {
        k: (tuple(v) if isinstance(v, list) else v) for k, v in d.items() if k in _CASKET_FIELDS
    }
    values["at"] = Hex(*d["at"])
    values["tokens"] = tuple((str(k), int(n)) for k, n in d.get("tokens", ()))
    values["enhancements"] = tuple(Enhancement(**x) for x in d.get("enhancements", ()))
    values["wards"] = tuple(Ward(**x) for x in d.get("wards", ()))
    values["lent_defence"] = tuple((int(u), int(n)) for u, n in d.get("lent_defence", ()))
    return CasketState(**values)


def state_to_dict(state: BattleState, *, with_setup: bool = True) -> dict[str, Any]:
    """The state as JSON values; `with_setup` False leaves out the static part."""
    out: dict[str, Any] = {name: getattr(state, name) for name in _DYNAMIC}
    out["order"] = list(state.order)
    out["battle_id"] = state.battle_id
    out["seats"] = [_casket_dict(c) for c in state.seats]
    out["prompts"] = [p.as_dict() for p in state.prompts]
    if state.dice_revealed:  # written only then: every earlier state reads as it did
        out["dice_revealed"] = True
    if state.seeds:  # the same (R-ADD-66)
        out["seeds"] = [list(x) for x in state.seeds]
    if state.follow_ups:  # the same (R-ADD-80)
        out["follow_ups"] = [f.as_dict() for f in state.follow_ups]
    if state.zones:  # the same (R-ADD-129)
        out["zones"] = [list(x) for x in state.zones]
    if state.placed_terrain:  # the same (R-ADD-160)
        out["placed_terrain"] = [dataclasses.asdict(p) for p in state.placed_terrain]
    if state.units_summoned:  # the same (R-ADD-400)
        out["units"] = [dataclasses.asdict(u) for u in state.units]
        out["units_summoned"] = state.units_summoned
    if state.attack is None:
        out["attack"] = None
    else:
        out["attack"] = state.attack.as_dict()
        out["attack"]["damage_by_grade"] = [list(x) for x in state.attack.damage_by_grade]
    if with_setup:
        out["setup"] = state.setup
    return out


def state_from_dict(d: Mapping[str, Any], base: BattleState | None = None) -> BattleState:
    """The state `state_to_dict` wrote; the static part comes from `d["setup"]` or `base`."""
    if "setup" in d:
        base = initial_state(d["battle_id"], d["setup"])
    if base is None:
        raise ValueError("a state document without its setup needs a base state")
    attack = None
    if d["attack"] is not None:
        a = dict(d["attack"])
        a["damage_by_grade"] = tuple(tuple(x) for x in a["damage_by_grade"])
        if "reactive_path" in a:  # R-ADD-107
            a["reactive_path"] = tuple(tuple(h) for h in a["reactive_path"])
        # Snapshots written before R-ADD-122 have no such field.
        a["cover_declined"] = tuple(a.get("cover_declined", ()))
        a["enhanced_by"] = tuple(a.get("enhanced_by", ()))  # R-ADD-180
        a["defence_faces"] = tuple(a.get("defence_faces", ()))  # R-ADD-412
        attack = AttackInProgress(**a)
    # R-ADD-160: the board is the setup's with the terrain cards placed; `base` may be a
    # later state whose board carries terrain of its own.
    placed = tuple(PlacedTerrain(**p) for p in d.get("placed_terrain", ()))
    setup_board = base.setup_board or base.board
    return replace(
        base,
        board=with_terrain(setup_board, {Hex(p.q, p.r): p.kind for p in placed}),
        placed_terrain=placed,
        setup_board=setup_board if placed else None,
        seats=tuple(_casket(c) for c in d["seats"]),
        prompts=tuple(Prompt(**p) for p in d["prompts"]),
        attack=attack,
        phase=d["phase"],
        round=d["round"],
        order=tuple(d["order"]),
        turn=d["turn"],
        winner=d["winner"],
        result=d["result"],
        # Snapshots and reverts written before R-ADD-45 have no such field.
        dice_revealed=d.get("dice_revealed", False),
        seeds=tuple((int(q), int(r), int(n)) for q, r, n in d.get("seeds", ())),
        zones=tuple((int(o), str(c), int(q), int(r)) for o, c, q, r in d.get("zones", ())),
        version=d["version"],
        follow_ups=tuple(FollowUp(**f) for f in d.get("follow_ups", ())),
        units=tuple(Unit(**u) for u in d.get("units", ())),
        units_summoned=d.get("units_summoned", 0),
    )
