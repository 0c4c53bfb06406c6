"""Component damage carried into a battle from an earlier one (R-PLT-5, R-DMG-7, R-ADD-30).

A setup may give a casket `casket.component_damage` only under the ruleset option
`persistent_component_damage`; the casket starts with it, components at the threshold
start destroyed without their one-time effects, and neural feedback counts only the
multiples of 5 reached in this battle.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from battles.engine.battle import parse_setup
from battles.engine.battle.events import (
    ComponentDamaged,
    ComponentDestroyed,
    SpRestored,
    WoundFlipped,
)
from battles.engine.demo import demo_setup
from battles.engine.errors import InvalidInput

from .battle_builder import Battle, of_type, one, seat, setup, start

PERSISTENT = {"persistent_component_damage": True}
FIELD = "seats[0].casket.component_damage"


def carried(
    damage: dict[str, Any], *, options: dict[str, Any] | None = None, defender: bool = False
) -> dict[str, Any]:
    """The default scenario setup with `damage` carried by seat 0 (or seat 1, `defender`)."""
    seats = [seat(0, at=(0, 0), facing=1), seat(1, at=(0, -1), facing=4)]
    seats[1 if defender else 0]["casket"]["component_damage"] = damage
    return setup(seats=seats, options=PERSISTENT if options is None else options)


def invalid(doc: dict[str, Any]) -> InvalidInput:
    with pytest.raises(InvalidInput) as info:
        parse_setup(doc)
    return info.value


# --- parsing (R-PLT-5, R-ADD-7, R-DMG-7) ---------------------------------------------------------


def test_carried_component_damage_is_refused_without_the_persistence_option() -> None:
    """R-PLT-5: component damage awaiting repair is the option persistent_component_damage."""
    err = invalid(carried({"legs": 1}, options={}))
    assert (err.field, err.rule) == (FIELD, "R-PLT-5")


def test_even_an_empty_carried_damage_is_refused_without_the_option() -> None:
    err = invalid(carried({}, options={}))
    assert (err.field, err.rule) == (FIELD, "R-PLT-5")


def test_carried_damage_must_be_an_object() -> None:
    err = invalid(carried([1, 0, 0, 0, 0]))  # type: ignore[arg-type]
    assert (err.field, err.rule) == (FIELD, "R-ADD-7")


def test_an_unknown_component_name_is_refused_naming_it() -> None:
    """R-ADD-7: right_arm, left_arm, legs, head, chassis."""
    err = invalid(carried({"legs": 1, "arm": 1}))
    assert (err.field, err.rule) == (f"{FIELD}.arm", "R-ADD-7")


@pytest.mark.parametrize("value", [-1, 4, True, "2", 1.0, None])
def test_a_carried_value_outside_0_to_the_threshold_is_refused_naming_it(value: object) -> None:
    """R-DMG-7: a component is destroyed at 3 (default threshold); more says nothing more."""
    err = invalid(carried({"head": value}))
    assert (err.field, err.rule) == (f"{FIELD}.head", "R-DMG-7")


def test_the_upper_bound_follows_the_component_threshold_option() -> None:
    """R-DMG-7 option component_threshold (seed 001: 8)."""
    options = {**PERSISTENT, "component_threshold": 8}
    assert parse_setup(carried({"head": 8}, options=options))["seats"][0]["casket"][
        "component_damage"
    ] == {"right_arm": 0, "left_arm": 0, "legs": 0, "head": 8, "chassis": 0}
    err = invalid(carried({"head": 9}, options=options))
    assert (err.field, err.rule) == (f"{FIELD}.head", "R-DMG-7")


def test_carried_damage_normalises_to_every_component_in_order() -> None:
    casket = parse_setup(carried({"chassis": 1, "legs": 2}))["seats"][0]["casket"]
    assert list(casket["component_damage"].items()) == [
        ("right_arm", 0),
        ("left_arm", 0),
        ("legs", 2),
        ("head", 0),
        ("chassis", 1),
    ]


def test_a_setup_without_carried_damage_normalises_exactly_as_before() -> None:
    """Stored battles replay unchanged: no new key unless some damage is carried."""
    normalised = parse_setup(demo_setup())
    assert [s["casket"] for s in normalised["seats"]] == [
        {"name": "Penitent Scout", "class": "scout", "shield": "left"},
        {"name": "Bastion Heavy", "class": "heavy", "shield": "right"},
    ]
    assert "component_damage" not in json.dumps(normalised["seats"])


def test_all_zero_carried_damage_normalises_as_if_absent() -> None:
    with_zeros = parse_setup(carried({"legs": 0, "head": 0}))
    without = parse_setup(setup(options=PERSISTENT))
    assert with_zeros == without
    assert set(with_zeros["seats"][0]["casket"]) == {"name", "class", "shield"}


# --- the battle's start (R-PLT-5, R-DMG-7, R-ADD-30) ---------------------------------------------


def test_the_casket_starts_with_its_carried_damage_and_destroyed_components() -> None:
    """R-ADD-30: components at the threshold start destroyed, in COMPONENTS order."""
    b = Battle.create(carried({"chassis": 3, "legs": 2, "right_arm": 3}))
    c = b.seat(0)
    assert c.component_damage == (3, 0, 2, 0, 3)
    assert c.destroyed == ("right_arm", "chassis")
    assert (b.seat(1).component_damage, b.seat(1).destroyed) == ((0, 0, 0, 0, 0), ())


def test_components_destroyed_before_the_battle_repeat_no_destruction_effects() -> None:
    """R-ADD-30: the arms' discards happened in the earlier battle; no event, no wound."""
    b = start(carried({"right_arm": 3, "left_arm": 3}))
    assert not of_type(b.events, ComponentDestroyed)
    assert not of_type(b.events, WoundFlipped)
    assert len(b.seat(0).hand) == 6 and b.seat(0).wounds == ()


def test_a_chassis_destroyed_before_the_battle_costs_1_sp_at_the_first_refresh() -> None:
    """R-TRN-3: −1 SP maximum for a destroyed chassis, from the very first Refresh."""
    b = start(carried({"chassis": 3}))
    restored = next(e for e in of_type(b.events, SpRestored) if e.seat == 0)
    assert restored.sp_max == 4 and ("chassis destroyed", -1, "R-TRN-3") in restored.lines
    assert b.seat(0).sp_left == 4


def test_a_damaged_but_intact_chassis_costs_no_sp() -> None:
    b = start(carried({"chassis": 2}))
    assert next(e for e in of_type(b.events, SpRestored) if e.seat == 0).sp_max == 5


def _critical_failure(damage: dict[str, int], wounds: list[str]) -> tuple[Battle, list[Any]]:
    """Seat 1 carries `damage`, starts its turn at 10 Heat and so takes 1 Component Damage
    to its legs (R-TRN-4 critical failure, component face 3); the table reports `wounds`
    flipped (a reported wound left unflipped is refused, R-ADD-18)."""
    b = start(carried(damage, defender=True))
    b.do({"type": "adjust_heat", "seat": 1, "heat": 10, "reason": "test"})
    return b, b.do({"type": "pass", "seat": 0, "faces": [3], "drawn": wounds})


def test_reaching_5_from_4_carried_is_neural_feedback() -> None:
    """R-DMG-7, R-ADD-30: 4 carried plus 1 taken in this battle reaches 5: one wound."""
    b, new = _critical_failure({"head": 2, "chassis": 2}, ["minor"])
    assert one(new, ComponentDamaged).total == 1 and b.seat(1).total_component_damage == 5
    flipped = one(new, WoundFlipped)
    assert (flipped.seat, flipped.reason, flipped.rule) == (1, "neural feedback", "R-DMG-7")
    assert b.seat(1).wounds == (flipped.wound,)


def test_5_carried_plus_1_is_no_neural_feedback() -> None:
    """R-ADD-30: the 5 was reached in the earlier battle, which dealt its wound."""
    b, new = _critical_failure({"head": 3, "chassis": 2}, [])
    assert b.seat(1).total_component_damage == 6
    assert not of_type(new, WoundFlipped) and b.seat(1).wounds == ()
