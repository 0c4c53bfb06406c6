"""Dice as data and exact odds: R-HIT-4..6, R-DMG-2..5, R-TRN-4, seed 001."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battles.engine.arcs import attack_side, side_row
from battles.engine.dice import (
    ATTACK_FACES,
    DEFENCE_DICE,
    MAX_DEFENCE_DICE,
    SUFFERING_DIE,
    TWO_DICE,
    DicePool,
    attack_result,
    component_for_roll,
    damage_distribution,
    defence_result,
    grade,
    odds,
    pool_for_net_advantage,
    strain_result,
    total_distribution,
)
from battles.engine.errors import InvalidInput, RuleViolation
from battles.engine.hexes import Hex

ALL_POOLS = [
    DicePool(2, "all"),
    DicePool(3, "highest"),
    DicePool(4, "highest"),
    DicePool(3, "lowest"),
    DicePool(4, "lowest"),
]
VALUE = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 0}


# --- faces as data ------------------------------------------------------------------------------


def test_attack_faces_are_valued_1_to_5_and_jam_0_r_hit_4() -> None:
    assert [ATTACK_FACES[f].value for f in range(1, 7)] == [1, 2, 3, 4, 5, 0]
    assert ATTACK_FACES[6].name == "JAM"
    assert ATTACK_FACES[5].name == "DEATH BLOW"


def test_default_defence_die_blocks_on_half_its_faces_r_dmg_2() -> None:
    names = [f.name for f in DEFENCE_DICE["default"]]
    assert names == ["SHIELD", "SHIELD", "ABSORB", "BLOOD", "PIERCE", "HEAT"]
    assert [f.blocks for f in DEFENCE_DICE["default"]] == [True] * 3 + [False] * 3


def test_v1_defence_die_has_critical_and_blocks_on_a_third_r_dmg_2() -> None:
    names = [f.name for f in DEFENCE_DICE["v1"]]
    assert names == ["SHIELD", "SHIELD", "BLOOD", "PIERCE", "HEAT", "CRITICAL"]
    assert sum(f.blocks for f in DEFENCE_DICE["v1"]) == 2
    assert DEFENCE_DICE["v1"][5].component_damage == 1


def test_suffering_die_table_seed_001_section_4() -> None:
    assert [SUFFERING_DIE[f].cards_discarded for f in range(1, 7)] == [0, 2, 1, 1, 3, 1]
    assert SUFFERING_DIE[3].damage_this_turn == 1
    penance = SUFFERING_DIE[4]
    assert (penance.name, penance.heat, penance.damage_next_attack) == ("PENANCE", 1, 2)
    assert SUFFERING_DIE[5].damage_next_attack == 3
    assert SUFFERING_DIE[6].cards_recovered == 1
    assert SUFFERING_DIE[1].effect == "No self-harm"


# --- grading and actual rolls (R-HIT-4) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "expected"),
    [(0, "catastrophic"), (1, "hit"), (6, "hit"), (7, "strong"), (8, "strong"), (9, "critical"),
     (10, "execution")],
)  # fmt: skip
def test_grade_by_total_r_hit_4(total: int, expected: str) -> None:
    assert grade(total) == expected


def test_double_jam_is_catastrophic_even_against_target_0_r_hit_4() -> None:
    roll = attack_result([6, 6], 0)
    assert (roll.total, roll.hit, roll.grade, roll.catastrophic) == (0, False, "catastrophic", True)


def test_one_jam_counts_zero_r_hit_4() -> None:
    roll = attack_result([6, 5], 5)
    assert (roll.total, roll.hit, roll.grade) == (5, True, "hit")
    assert attack_result([6, 4], 5).grade == "miss"


def test_double_death_blow_is_execution_r_hit_4() -> None:
    assert attack_result([5, 5], 10).grade == "execution"


def test_keep_highest_and_lowest_choose_the_kept_dice_r_hit_6() -> None:
    high = attack_result([1, 6, 5, 4], 7, DicePool(4, "highest"))
    assert (high.kept, high.kept_indices, high.total, high.grade) == ((5, 4), (2, 3), 9, "critical")
    low = attack_result([1, 6, 5], 1, DicePool(3, "lowest"))
    assert (low.kept, low.total, low.hit) == ((1, 6), 1, True)
    # Kept total 0 only when both kept dice are JAM: one JAM under keep-highest is harmless.
    assert attack_result([6, 6, 2], 2, DicePool(3, "highest")).total == 2
    assert attack_result([6, 6, 2], 2, DicePool(3, "lowest")).grade == "catastrophic"


def test_attack_roll_wrong_dice_count_is_refused_r_hit_6() -> None:
    with pytest.raises(RuleViolation) as err:
        attack_result([1, 2, 3], 5)
    assert (err.value.code, err.value.rule) == ("wrong_dice_count", "R-HIT-6")


@pytest.mark.parametrize("bad", [0, 7, -1, True])
def test_attack_roll_face_out_of_range_is_refused_r_hit_4(bad: int) -> None:
    with pytest.raises(RuleViolation) as err:
        attack_result([1, bad], 5)
    assert err.value.code == "invalid_die_face"


def test_attack_roll_as_dict_names_symbols_and_rule() -> None:
    d = attack_result([5, 3], 6).as_dict()
    assert d["symbols"] == ["DEATH BLOW", "STRIKE"]
    assert (d["grade"], d["rule"], d["dice"]) == ("strong", "R-HIT-4", {"count": 2, "keep": "all"})


# --- pools (R-HIT-6) ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("net", "count", "keep"),
    [(0, 2, "all"), (1, 3, "highest"), (2, 4, "highest"), (7, 4, "highest"),
     (-1, 3, "lowest"), (-2, 4, "lowest"), (-5, 4, "lowest")],
)  # fmt: skip
def test_pool_for_net_advantage_r_hit_6(net: int, count: int, keep: str) -> None:
    assert pool_for_net_advantage(net) == DicePool(count, keep)


@pytest.mark.parametrize(("count", "keep"), [(2, "highest"), (5, "lowest"), (3, "all"), (2, "x")])
def test_invalid_dice_pool_is_rejected_r_hit_6(count: int, keep: str) -> None:
    with pytest.raises(InvalidInput) as err:
        DicePool(count, keep)
    assert err.value.rule == "R-HIT-6"


# --- exact odds (R-HIT-5) -----------------------------------------------------------------------

# Hand-checked: two dice valued 0..5 give totals 0..10 in 1,2,3,4,5,6,5,4,3,2,1 ways out of 36.
# Columns: hit, strong_or_better, critical_or_better, execution, catastrophic (all /36).
TWO_DICE_TABLE = {
    0: (35, 10, 3, 1, 1),
    1: (35, 10, 3, 1, 1),
    2: (33, 10, 3, 1, 1),
    3: (30, 10, 3, 1, 1),
    4: (26, 10, 3, 1, 1),
    5: (21, 10, 3, 1, 1),
    6: (15, 10, 3, 1, 1),
    7: (10, 10, 3, 1, 1),
    8: (6, 6, 3, 1, 1),
    9: (3, 3, 3, 1, 1),
    10: (1, 1, 1, 1, 1),
    11: (0, 0, 0, 0, 1),
}


@pytest.mark.parametrize("target", sorted(TWO_DICE_TABLE))
def test_two_dice_exact_odds_for_every_target_r_hit_5(target: int) -> None:
    o = odds(target)
    got = (o.hit, o.strong_or_better, o.critical_or_better, o.execution, o.catastrophic)
    assert got == tuple(Fraction(n, 36) for n in TWO_DICE_TABLE[target])


def test_target_5_is_7_in_12_not_seed_001s_72_percent_r_hit_5() -> None:
    assert odds(5).hit == Fraction(21, 36) == Fraction(7, 12)
    assert odds(5).hit != Fraction(7222, 10000)


def test_negative_target_still_misses_on_catastrophic_r_hit_4() -> None:
    assert odds(-4).hit == Fraction(35, 36)


def test_odds_as_dict_matches_formats_example() -> None:
    assert odds(6, TWO_DICE).as_dict() == {
        "hit": "5/12",
        "strong_or_better": "5/18",
        "critical_or_better": "1/12",
        "execution": "1/36",
        "catastrophic": "1/36",
        "hit_float": 0.4167,
    }


def test_odds_as_dict_writes_zero_as_fraction() -> None:
    assert odds(11).as_dict()["hit"] == "0/1"
    assert odds(11).as_dict()["hit_float"] == 0.0


def _brute_force_odds(target: int, pool: DicePool) -> tuple[Fraction, ...]:
    counts = [0, 0, 0, 0, 0]
    rolls = list(itertools.product(range(1, 7), repeat=pool.count))
    for roll in rolls:
        values = sorted((VALUE[f] for f in roll), reverse=pool.keep != "lowest")
        total = values[0] + values[1]
        hit = total != 0 and total >= target
        counts[0] += hit
        counts[1] += hit and total >= 7
        counts[2] += hit and total >= 9
        counts[3] += hit and total == 10
        counts[4] += total == 0
    return tuple(Fraction(c, len(rolls)) for c in counts)


@pytest.mark.parametrize("pool", ALL_POOLS, ids=lambda p: f"{p.count}{p.keep}")
def test_pool_odds_match_brute_force_enumeration_r_hit_6(pool: DicePool) -> None:
    for target in range(-1, 12):
        o = odds(target, pool)
        got = (o.hit, o.strong_or_better, o.critical_or_better, o.execution, o.catastrophic)
        assert got == _brute_force_odds(target, pool), target


@pytest.mark.parametrize("pool", ALL_POOLS, ids=lambda p: f"{p.count}{p.keep}")
def test_attack_result_agrees_with_odds_over_every_roll_r_hit_6(pool: DicePool) -> None:
    rolls = list(itertools.product(range(1, 7), repeat=pool.count))
    hits = sum(attack_result(r, 7, pool).hit for r in rolls)
    assert Fraction(hits, len(rolls)) == odds(7, pool).hit


def test_advantage_helps_and_disadvantage_hurts_r_hit_6() -> None:
    hits = [odds(5, pool_for_net_advantage(n)).hit for n in (-2, -1, 0, 1, 2)]
    assert hits == sorted(hits)
    assert len(set(hits)) == 5
    # Three dice keep highest: catastrophic only when all three JAM.
    assert odds(5, DicePool(3, "highest")).catastrophic == Fraction(1, 216)


@pytest.mark.parametrize("pool", ALL_POOLS, ids=lambda p: f"{p.count}{p.keep}")
def test_total_distribution_sums_to_one_r_hit_5(pool: DicePool) -> None:
    dist = total_distribution(pool)
    assert sum(dist.values()) == 1
    assert set(dist) <= set(range(11))
    assert all(p > 0 for p in dist.values())


def test_seed_001_complete_example_needs_11_and_is_impossible_r_hit_2() -> None:
    """Seed 001's worked to-hit example, recomputed; R-HIT-2 corrects "moved 4 hexes" to +2.

    The Scout is 5 hexes from the Dwarf, on its shield side: north-facing Dwarf at
    the origin, Scout 5 hexes NW (side 6, left shield).
    """
    dwarf, scout = Hex(0, 0), Hex(-5, 0)
    assert dwarf.distance(scout) == 5
    side = attack_side(dwarf, 1, scout, "left")
    assert side == 6
    base, medium_range, light_cover = 5, 1, 1  # R-HIT-1, R-RNG-1, R-COV-2
    attacker_moved_4, defender_moved_2 = 2, 1  # R-HIT-2 table: 4–6 → +2, 1–3 → +1
    target = (
        base + medium_range + attacker_moved_4 + defender_moved_2 + side_row(side).to_hit
    ) + light_cover
    assert target == 11  # not the seed's 10+: above 10, refused by R-HIT-3
    assert odds(target).hit == 0
    # With the seed's +1 it would be 10+, EXECUTION only: 1/36.
    assert odds(target - 1).hit == odds(10).execution == Fraction(1, 36)
    roll = attack_result([5, 3], target)  # DEATH BLOW + STRIKE
    assert (roll.total, roll.hit, roll.grade) == (8, False, "miss")


# --- defence (R-DMG-2..5) -----------------------------------------------------------------------


def _brute_force_damage(damage: int, modifier: int, die: str) -> dict[int, Fraction]:
    counts: Counter[int] = Counter()
    blocking = {f.face for f in DEFENCE_DICE[die] if f.blocks}
    for roll in itertools.product(range(1, 7), repeat=damage):
        blocks = max(0, sum(f in blocking for f in roll) + modifier)
        counts[max(0, damage - blocks)] += 1
    return {k: Fraction(v, 6**damage) for k, v in sorted(counts.items())}


@pytest.mark.parametrize("die", ["default", "v1"])
def test_damage_distribution_matches_brute_force_r_dmg_3(die: str) -> None:
    for damage in range(6):
        for modifier in range(-3, 4):
            got = dict(damage_distribution(damage, modifier, die))
            assert got == _brute_force_damage(damage, modifier, die), (damage, modifier)


def test_damage_distribution_handles_large_damage_r_dmg_2() -> None:
    dist = damage_distribution(40, 0)
    assert sum(dist.values()) == 1
    assert sum(k * p for k, p in dist.items()) == 20  # half the dice block on average
    assert dist[40] == Fraction(1, 2**40)


def test_rear_defence_cancels_blocks_and_shield_adds_them_r_dmg_3() -> None:
    # 1 damage from the rear (−3): a rolled block is cancelled, so 1 damage always lands.
    assert dict(damage_distribution(1, -3)) == {1: Fraction(1)}
    # 1 damage on the shield side (+1): always blocked, never below 0.
    assert dict(damage_distribution(1, 1)) == {0: Fraction(1)}


def test_execution_rolls_no_dice_and_takes_full_damage_r_dmg_5() -> None:
    assert dict(damage_distribution(3, 5, execution=True)) == {3: Fraction(1)}
    r = defence_result([], 3, 5, execution=True)
    assert (r.final_damage, r.blocks) == (3, 0)


@pytest.mark.parametrize("damage", [-1, MAX_DEFENCE_DICE + 1])
def test_damage_outside_limits_is_invalid_r_dmg_1(damage: int) -> None:
    with pytest.raises(InvalidInput) as err:
        damage_distribution(damage, 0)
    assert err.value.field == "damage"


def test_unknown_defence_die_is_invalid_r_dmg_2() -> None:
    with pytest.raises(InvalidInput) as err:
        damage_distribution(2, 0, "v9")
    assert err.value.rule == "R-DMG-2"


@settings(max_examples=60, deadline=None)
@given(
    damage=st.integers(0, 30),
    modifier=st.integers(-6, 6),
    die=st.sampled_from(["default", "v1"]),
)
def test_damage_distribution_sums_to_one_within_bounds_r_dmg_3(
    damage: int, modifier: int, die: str
) -> None:
    dist = damage_distribution(damage, modifier, die)
    assert sum(dist.values()) == 1
    assert all(0 <= k <= damage for k in dist)


def test_seed_001_defence_example_r_dmg_2_r_dmg_4() -> None:
    """8 damage: SHIELD SHIELD SHIELD ABSORB BLOOD HEAT PIERCE BLOOD → 4 blocks, 4 damage."""
    r = defence_result([1, 2, 1, 3, 4, 6, 5, 4], 8)
    assert (r.rolled_blocks, r.final_damage, r.heat, r.pierce, r.component_damage) == (
        4,
        4,
        1,
        True,
        0,
    )


def test_seed_002_example_with_v1_dice_gives_component_damage_r_dmg_4() -> None:
    """Seed 002: 8 dice, 2 blocks → 6 damage, one CRITICAL (+1 Component Damage), one HEAT."""
    r = defence_result([1, 2, 3, 3, 3, 6, 5, 4], 8, die="v1")
    assert (r.blocks, r.final_damage, r.component_damage, r.heat, r.pierce) == (2, 6, 1, 1, True)


def test_defence_roll_with_side_modifier_r_dmg_3() -> None:
    r = defence_result([1, 1, 4], 3, -1)  # weapon side: one of two blocks cancelled
    assert (r.rolled_blocks, r.blocks, r.final_damage) == (2, 1, 2)
    r = defence_result([1, 1, 1], 3, 2)  # more blocks than damage: 0, not negative
    assert (r.blocks, r.final_damage) == (5, 0)


def test_defence_roll_needs_one_die_per_damage_r_dmg_2() -> None:
    with pytest.raises(RuleViolation) as err:
        defence_result([1, 2], 3)
    assert (err.value.code, err.value.rule) == ("wrong_dice_count", "R-DMG-2")


# --- strain and components (R-TRN-4, R-DMG-6) ---------------------------------------------------


@pytest.mark.parametrize(
    ("d6", "heat", "outcome", "effect"),
    [(1, 5, "sp_drain", ("sp_lost", 1)), (3, 5, "sp_drain", ("sp_lost", 1)),
     (4, 5, "system_damage", ("damage", 2)), (2, 9, "system_damage", ("damage", 2)),
     (6, 5, "system_damage", ("damage", 2)), (3, 9, "critical_failure", ("component", None))],
)  # fmt: skip
def test_strain_table_r_trn_4(d6: int, heat: int, outcome: str, effect: tuple[str, int]) -> None:
    r = strain_result(d6, heat)
    assert (r.roll, r.total, r.outcome) == (d6, d6 + heat, outcome)
    assert getattr(r, effect[0]) == effect[1]


def test_strain_at_10_heat_is_critical_failure_without_a_roll_r_trn_4() -> None:
    r = strain_result(None, 10, component_d6=2)
    assert (r.roll, r.total, r.critical_failure, r.component) == (None, None, True, "left_arm")


def test_no_strain_check_under_5_heat_r_trn_4() -> None:
    assert strain_result(None, 4).outcome == "none"


def test_strain_roll_is_required_at_5_to_9_heat_r_trn_4() -> None:
    with pytest.raises(RuleViolation) as err:
        strain_result(None, 7)
    assert (err.value.code, err.value.rule) == ("strain_roll_missing", "R-TRN-4")


def test_component_roll_r_dmg_6_supersedes_seed_002_arm_row() -> None:
    """R-DMG-6/R-TRN-4: 1 right arm, 2 left arm (seed 002's "1-2=Arm" is superseded)."""
    got = [component_for_roll(n) for n in range(1, 7)]
    assert got == ["right_arm", "left_arm", "legs", "legs", "head", "chassis"]
    with pytest.raises(RuleViolation):
        component_for_roll(7)
