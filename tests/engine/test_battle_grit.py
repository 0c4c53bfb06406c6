"""The Grit check before a wound flips (ruleset option grit_checks, R-ADD-305).

pilot-grit-system.md: "WHEN PILOT TAKES DAMAGE (before flipping Wound card) … Roll 1d6 +
Pilot's Grit stat": 1-3 Full Wound, 4-5 Tough It Out (a severe wound counts as minor this
mission), 6-7 Shrug It Off (no wound, 1 Heat), 8+ Iron Will (no wound); "-1 Grit per
Trauma". Each scenario defeats seat 0 with deck and discard empty (R-DMG-6): a survival
roll of 1-3 wounds the pilot twice (R-PLT-3), each wound checked apart.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battles.codec import BATTLE_EVENTS
from battles.engine.battle import battle_outcome
from battles.engine.battle.events import (
    GritChecked,
    HeatChanged,
    SurvivalRolled,
    WoundEased,
    WoundFlipped,
)
from battles.engine.battle.randomness import SealedDice
from battles.engine.errors import InvalidInput
from battles.sentences import Names, describe, plain

from .battle_builder import Battle, of_type, one, seat, setup, start


def _grit_setup(grit: int = 0, *, option: bool = True, **pilot: Any) -> dict[str, Any]:
    first = seat(0, at=(0, 0), facing=1)
    first["pilot"] |= {"grit": grit, **pilot} if option else pilot
    return setup(
        seats=[first, seat(1, at=(0, -1), facing=4)],
        options={"grit_checks": True} if option else {},
    )


def _defeat_ready(doc: dict[str, Any]) -> Battle:
    """Seat 0 holds 5 cards, its deck and discard empty: passing defeats it (R-DMG-6)."""
    b = start(doc)
    c = b.seat(0)
    emptied = replace(c, hand=c.hand[:5], deck=(), discard=(), removed=c.deck + c.hand[5:])
    b.state = replace(b.state, seats=(emptied, b.seat(1)))
    return b


@pytest.mark.parametrize(
    ("grit", "face", "total", "result", "flipped"),
    [
        (1, 2, 3, "full-wound", True),
        (1, 3, 4, "tough-it-out", True),
        (1, 4, 5, "tough-it-out", True),
        (1, 5, 6, "shrug-it-off", False),
        (1, 6, 7, "shrug-it-off", False),
        (2, 6, 8, "iron-will", False),
        (3, 5, 8, "iron-will", False),
    ],
)
def test_the_grit_check_band_decides_the_flip_at_each_threshold_r_add_305(
    grit: int, face: int, total: int, result: str, flipped: bool
) -> None:
    b = _defeat_ready(_grit_setup(grit))
    heat = b.seat(0).heat
    body: dict[str, Any] = {"type": "pass", "seat": 0, "faces": [3, face, 1]}
    body["drawn"] = ["severe", "minor"] if flipped else ["minor"]
    new = b.do(body)
    assert one(new, SurvivalRolled).wounds == 2
    first, second = of_type(new, GritChecked)
    assert (first.face, first.grit, first.modifier, first.total, first.result) == (
        face,
        grit,
        0,
        total,
        result,
    )
    assert first.reason == "casket defeated: survival roll"
    assert second.result == ("full-wound" if grit + 1 <= 3 else "tough-it-out")
    flips = [w.wound.split("-")[0] for w in of_type(new, WoundFlipped)]
    assert flips == (["severe", "minor"] if flipped else ["minor"])
    eased = of_type(new, WoundEased)
    if result == "tough-it-out":
        assert [e.wound.split("-")[0] for e in eased] == ["severe"]
        assert b.seat(0).eased_wounds == (eased[0].wound,)
    else:
        assert eased == [] and b.seat(0).eased_wounds == ()
    heat_gained = sum(h.amount for h in of_type(new, HeatChanged))
    assert heat_gained == (1 if result == "shrug-it-off" else 0)
    assert b.seat(0).heat == heat + heat_gained
    assert b.seat(0).grit_checks == 2


def test_tough_it_out_leaves_a_minor_wound_minor_r_add_305() -> None:
    """The FAQ: "Tough It Out (4-5) only reduces Severe → Minor. Minors stay Minor."."""
    b = _defeat_ready(_grit_setup(0))
    new = b.do({"type": "pass", "seat": 0, "faces": [3, 4, 5], "drawn": ["minor", "minor"]})
    assert [g.result for g in of_type(new, GritChecked)] == ["tough-it-out", "tough-it-out"]
    assert len(of_type(new, WoundFlipped)) == 2 and not of_type(new, WoundEased)


def test_each_trauma_face_up_takes_1_off_the_check_and_the_bonus_counts_once() -> None:
    """ "Trauma Wound: -1 Grit per Trauma"; the death consequence's "+1 to the next Grit
    check" (R-ADD-237) only on the first check; the faction's modifier on every one."""
    doc = _grit_setup(2, grit_modifier=-1, grit_bonus=1)
    doc["seats"][0]["pilot"]["carried_wounds"] = ["trauma-1"]
    b = _defeat_ready(doc)
    new = b.do({"type": "pass", "seat": 0, "faces": [3, 3, 4], "drawn": ["severe", "trauma"]})
    first, second = of_type(new, GritChecked)
    # 3 + 2 - 1 (faction) - 1 (trauma) + 1 (bonus) = 4; then 4 + 2 - 1 - 1 = 4, no bonus.
    assert (first.modifier, first.total, first.result) == (-1, 4, "tough-it-out")
    assert (second.modifier, second.total, second.result) == (-2, 4, "tough-it-out")


def test_a_trauma_flipped_in_the_battle_weighs_on_the_next_check() -> None:
    b = _defeat_ready(_grit_setup(1))
    new = b.do({"type": "pass", "seat": 0, "faces": [2, 2, 3], "drawn": ["trauma", "minor"]})
    first, second = of_type(new, GritChecked)
    assert (first.total, first.result) == (3, "full-wound")
    assert (second.modifier, second.total, second.result) == (-1, 3, "full-wound")


def test_without_the_option_no_check_is_rolled_r_plt_3() -> None:
    b = _defeat_ready(_grit_setup(option=False))
    new = b.do({"type": "pass", "seat": 0, "faces": [3], "drawn": ["severe", "minor"]})
    assert not of_type(new, GritChecked) and len(of_type(new, WoundFlipped)) == 2


def test_a_table_battle_asks_for_the_grit_die_by_name() -> None:
    b = _defeat_ready(_grit_setup(1))
    err = b.refuse({"type": "pass", "seat": 0, "faces": [3], "drawn": ["severe", "minor"]})
    assert err.code == "wrong_dice_count" and "the Grit check" in str(err)


@pytest.mark.parametrize(
    ("pilot", "field"),
    [
        ({"grit": 4}, "grit"),
        ({"grit_modifier": -4}, "grit_modifier"),
        ({"grit_bonus": -1}, "grit_bonus"),
    ],
)
def test_the_setup_bounds_the_pilot_grit_fields(pilot: dict[str, int], field: str) -> None:
    doc = _grit_setup(0)
    doc["seats"][0]["pilot"] |= pilot
    with pytest.raises(InvalidInput) as info:
        Battle.create(doc)
    assert (info.value.field, info.value.rule) == (f"seats[0].pilot.{field}", "R-ADD-305")


def test_the_setup_refuses_grit_without_the_option() -> None:
    doc = _grit_setup(option=False)
    doc["seats"][0]["pilot"]["grit"] = 1
    with pytest.raises(InvalidInput) as info:
        Battle.create(doc)
    assert (info.value.field, info.value.rule) == ("seats[0].pilot.grit", "R-ADD-305")


def test_sealed_dice_roll_the_check_under_its_own_purpose_r_add_45() -> None:
    """A digital battle's Grit die comes from its sealed dice like every other die: the
    face is the one the secret and the stream version derive for "the Grit check"."""
    b = _defeat_ready(_grit_setup(1))
    b.state = replace(b.state, dice_mode="digital")
    secret = bytes(range(32))
    version = b.state.version
    survival = SealedDice(secret, version).d6(1, purpose="the pilot's survival roll", rule="")
    new = b.do({"type": "pass", "seat": 0}, SealedDice(secret, version))
    assert one(new, SurvivalRolled).face == survival[0]
    checks = of_type(new, GritChecked)
    if survival[0] <= 3:
        expected = SealedDice(secret, version).d6(1, purpose="the Grit check", rule="")
        assert checks[0].face == expected[0]
    else:
        assert checks == []


def test_the_outcome_carries_the_eased_wounds_and_the_checks() -> None:
    b = _defeat_ready(_grit_setup(1))
    b.do({"type": "pass", "seat": 0, "faces": [3, 3, 1], "drawn": ["severe", "minor"]})
    b.do({"type": "pass", "seat": 1})
    assert b.state.over
    mine = battle_outcome(b.events).seats[0]
    assert mine.grit_checks == 2
    assert len(mine.eased_wounds) == 1 and mine.eased_wounds[0] in mine.wounds


def test_the_check_and_the_eased_wound_have_sentences() -> None:
    b = _defeat_ready(_grit_setup(1))
    new = b.do({"type": "pass", "seat": 0, "faces": [3, 3, 1], "drawn": ["severe", "minor"]})
    names = Names.of(b.state)

    def words(event: Any) -> str:
        return plain(describe(event.type, BATTLE_EVENTS.to_record(event)[2], names))

    assert words(of_type(new, GritChecked)[0]) == (
        "Pilot 0 makes a Grit check before a wound (casket defeated: survival roll): "
        "[3] + Grit 1 = 4, tough it out, a severe wound counts as minor (R-ADD-305)"
    )
    assert words(one(new, WoundEased)).startswith("Pilot 0's severe wound no. ")
    assert words(one(new, WoundEased)).endswith(" counts as minor this mission (R-ADD-305)")
