"""To-hit: every modifier line, damage line and refusal of `to_hit`, each with its ruling.

R-HIT-1..3 and R-HIT-6, R-RNG-1..2, R-ARC-1..4, R-COV-1..4, R-ELV-1, R-DMG-1, R-VAR-1..3,
and FORMATS.md's `POST /api/rules/to-hit` answer. Unless a test says otherwise the target
stands on the origin facing N (1) with a left shield, so an attacker in absolute
direction d from it attacks from side d (R-ARC-1), and the attacker faces the target.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battles.engine.arcs import side_row
from battles.engine.board import Board, parse_board
from battles.engine.dice import TWO_DICE, DicePool, odds, pool_for_net_advantage
from battles.engine.errors import InvalidInput
from battles.engine.hexes import (
    DIRECTION_VECTORS,
    DIRECTIONS,
    ORIGIN,
    Hex,
    mirror_direction,
    rotate_direction,
    spiral,
)
from battles.engine.ruleset import Ruleset
from battles.engine.tohit import (
    Attacker,
    Modifier,
    Target,
    ToHit,
    Weapon,
    WeaponRange,
    movement_modifier,
    parse_range,
    range_band,
    to_hit,
)
from tests.engine.boards import board

T = ORIGIN  # the target's hex


OPEN = board()


def at(direction: int, distance: int, centre: Hex = T) -> Hex:
    dq, dr = DIRECTION_VECTORS[direction]
    return Hex(centre.q + dq * distance, centre.r + dr * distance)


def shot(
    direction: int = 1,
    distance: int = 1,
    *,
    b: Board = OPEN,
    weapon: str = "1-12",
    damage: int = 4,
    facing: int = 1,
    shield: str = "left",
    moved: int = 0,
    moved_last_turn: int = 0,
    heat: int = 0,
    destroyed: frozenset[str] = frozenset(),
    statuses: frozenset[str] = frozenset(),
    target_statuses: frozenset[str] = frozenset(),
    attacker_at: Hex | None = None,
    attacker_facing: int | None = None,
    options: dict[str, Any] | None = None,
    **kw: Any,
) -> ToHit:
    """An attack on the target at T from `distance` hexes in absolute `direction`."""
    where = attacker_at if attacker_at is not None else at(direction, distance)
    return to_hit(
        b,
        Attacker(
            where,
            attacker_facing or rotate_direction(direction, 3),
            moved=moved,
            heat=heat,
            destroyed=destroyed,
            statuses=statuses,
        ),
        Target(T, facing, shield, moved_last_turn, target_statuses),
        Weapon(parse_range(weapon), damage),
        rules=Ruleset("2.0", options or {}),
        **kw,
    )


def lines(r: ToHit) -> list[tuple[str, int, str]]:
    return [(m.key, m.value, m.rule) for m in r.modifiers]


def line(r: ToHit, key: str) -> Modifier | None:
    return next((m for m in r.modifiers if m.key == key), None)


def damage_line(r: ToHit, key: str) -> Modifier | None:
    return next((m for m in r.damage_modifiers if m.key == key), None)


def refusal(r: ToHit) -> tuple[str, str | None] | None:
    return None if r.refusal is None else (r.refusal.code, r.refusal.rule)


# --- R-HIT-1 base -------------------------------------------------------------------------------


def test_base_target_number_is_5_r_hit_1() -> None:
    r = shot(1, 1, weapon="Melee")
    assert r.possible and r.refusal is None
    assert lines(r) == [("base", 5, "R-HIT-1")]
    assert r.modifiers[0].label == "Base to-hit"
    assert r.target_number == 5
    assert r.odds is not None and r.odds.hit == Fraction(7, 12)  # R-HIT-5


def test_target_number_is_the_sum_of_the_itemised_lines_r_hit_1() -> None:
    r = shot(4, 5, moved=2, moved_last_turn=5, b=board(t_0_0="rubble"))
    assert r.target_number == sum(m.value for m in r.modifiers) == 5 + 1 + 1 + 2 - 2 + 1


# --- R-RNG-1 bands, R-RNG-2 card ranges -----------------------------------------------------------


@pytest.mark.parametrize(
    ("distance", "band", "value"),
    [(1, "short", 0), (3, "short", 0), (4, "medium", 1), (6, "medium", 1), (7, "long", 2),
     (10, "long", 2), (11, "extreme", 3), (12, "extreme", 3)],
)  # fmt: skip
def test_range_bands_r_rng_1(distance: int, band: str, value: int) -> None:
    r = shot(1, distance, b=board(12))
    assert (r.distance, r.band) == (distance, band)
    assert range_band(distance) == (band, value)
    got = line(r, "range")
    if value == 0:
        assert got is None
    else:
        assert got is not None
        assert (got.value, got.rule) == (value, "R-RNG-1")
        assert got.label == f"{band.capitalize()} range ({distance} hexes)"


def test_range_band_0_is_short_r_rng_1() -> None:
    assert range_band(0) == ("short", 0)


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [("Melee", 1, 1), ("melee", 1, 1), ("Self", 0, 0), ("3", 1, 3), ("8", 1, 8),
     ("2-6", 2, 6), (" 2 - 6 ", 2, 6), ("Ranged 1-4", 1, 4), ("ranged 5", 1, 5)],
)  # fmt: skip
def test_parse_range_forms_r_rng_2(text: str, low: int, high: int) -> None:
    wr = parse_range(text)
    assert (wr.low, wr.high) == (low, high)
    assert wr.text == text
    assert wr.melee == (text.strip().lower() == "melee")


@pytest.mark.parametrize("text", ["", "0", "6-2", "far", "1-", "-3", "Melee 2", "1-2-3", 5, None])
def test_parse_range_refuses_nonsense_naming_the_field_r_rng_2(text: object) -> None:
    with pytest.raises(InvalidInput) as err:
        parse_range(text, "weapon.range")
    assert (err.value.field, err.value.rule) == ("weapon.range", "R-RNG-2")


@pytest.mark.parametrize(
    ("weapon", "distance", "ok"),
    [("Melee", 1, True), ("Melee", 2, False), ("3", 1, True), ("3", 3, True), ("3", 4, False),
     ("2-6", 1, False), ("2-6", 2, True), ("2-6", 6, True), ("2-6", 7, False),
     ("Ranged 1-4", 4, True), ("Ranged 1-4", 5, False), ("Self", 1, False)],
)  # fmt: skip
def test_card_range_decides_out_of_range_r_rng_2(weapon: str, distance: int, ok: bool) -> None:
    r = shot(1, distance, weapon=weapon)
    assert r.possible == ok
    if not ok:
        assert refusal(r) == ("out_of_range", "R-RNG-2")
        assert r.refusal is not None and f"{distance} hexes away" in r.refusal.message


# --- R-HIT-2 movement --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hexes", "value"), [(0, 0), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 2), (7, 3), (15, 3)]
)
def test_attacker_movement_table_r_hit_2(hexes: int, value: int) -> None:
    assert movement_modifier(hexes) == value
    got = line(shot(1, 2, moved=hexes), "attacker_movement")
    if value == 0:
        assert got is None
    else:
        assert got is not None
        assert (got.value, got.rule, got.label) == (
            value,
            "R-HIT-2",
            f"Attacker moved {hexes} hexes",
        )


@pytest.mark.parametrize(
    ("hexes", "value"), [(0, 0), (1, 1), (3, 1), (4, 2), (6, 2), (7, 3), (9, 3)]
)
def test_defender_movement_table_r_hit_2(hexes: int, value: int) -> None:
    got = line(shot(1, 2, moved_last_turn=hexes), "defender_movement")
    if value == 0:
        assert got is None
    else:
        assert got is not None
        assert (got.value, got.rule, got.label) == (value, "R-HIT-2", f"Target moved {hexes} hexes")


# --- R-ARC-2 side lines -------------------------------------------------------------------------


@pytest.mark.parametrize("shield", ["left", "right", "none"])
@pytest.mark.parametrize("side", DIRECTIONS)
@pytest.mark.parametrize("distance", [1, 3])
def test_side_lines_follow_the_side_table_r_arc_2(shield: str, side: int, distance: int) -> None:
    """The to-hit line, damage line, defence modifier and card flags of each side row."""
    row = side_row(side, shield)
    r = shot(side, distance, shield=shield, weapon="Ranged 1-4")
    assert (r.side, r.side_name, r.side_candidates) == (side, row.name, (side,))
    hit_line, dmg_line = line(r, "side"), damage_line(r, "side")
    if row.to_hit:
        assert hit_line is not None
        assert (hit_line.value, hit_line.rule, hit_line.label) == (row.to_hit, "R-ARC-2", row.label)
    else:
        assert hit_line is None
    if row.damage:
        assert dmg_line is not None and (dmg_line.value, dmg_line.rule) == (row.damage, "R-ARC-2")
    else:
        assert dmg_line is None
    assert r.defense_modifier == row.defence
    assert (r.reactive_allowed, r.shield_cards_allowed) == (row.reactive_cards, row.shield_cards)


def test_left_shield_values_by_side_r_arc_2() -> None:
    got = [
        (r.target_number, r.damage, r.defense_modifier, r.shield_cards_allowed, r.reactive_allowed)
        for r in (shot(s, 2) for s in DIRECTIONS)
    ]
    assert got == [
        (5, 4, 0, True, True),
        (5, 5, -1, False, True),
        (4, 6, -2, False, False),
        (3, 7, -3, False, False),
        (4, 6, -2, False, False),
        (6, 4, 1, True, True),
    ]


def test_right_shield_is_the_mirror_r_arc_2() -> None:
    assert shot(2, 2, shield="right").target_number == 6  # its shield side
    assert shot(2, 2, shield="right").defense_modifier == 1
    assert shot(6, 2, shield="right").damage == 5  # its weapon side
    assert (
        shot(6, 2, shield="right").shield_cards_allowed,
        shot(6, 2, shield="right").side_name,
    ) == (
        False,
        "weapon side",
    )


def test_no_shield_sides_2_and_6_are_weapon_sides_r_arc_2() -> None:
    for side in (2, 6):
        r = shot(side, 2, shield="none")
        assert (r.target_number, r.damage, r.defense_modifier) == (5, 5, -1)
        assert (r.shield_cards_allowed, r.reactive_allowed) == (False, True)
    assert shot(1, 2, shield="none").shield_cards_allowed is False


# --- R-ARC-1 boundary ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "shield", "candidates", "side", "target_number", "damage"),
    [
        (Hex(1, -2), "left", (1, 2), 1, 5, 4),  # front vs weapon side: lower damage wins
        (Hex(1, -2), "right", (1, 2), 2, 6, 4),  # right shield: its shield side, +1
        (Hex(-1, -1), "left", (1, 6), 6, 6, 4),  # shield side +1 beats front
        (Hex(2, -1), "left", (2, 3), 2, 5, 5),  # weapon side +0 beats flank −1
        (Hex(1, 1), "left", (3, 4), 3, 4, 6),  # flank −1 beats rear −2
        (Hex(-1, 2), "none", (4, 5), 5, 4, 6),
    ],
)
def test_boundary_tie_break_defender_chooses_r_arc_1(
    attacker: Hex,
    shield: str,
    candidates: tuple[int, ...],
    side: int,
    target_number: int,
    damage: int,
) -> None:
    """R-ARC-1: on a sector boundary the higher to-hit modifier, then the lower damage."""
    # The attacker turns towards the target so that the firing arc (R-ARC-3) allows it.
    attacker_facing = next(
        f
        for f in DIRECTIONS
        if to_hit(
            OPEN,
            Attacker(attacker, f),
            Target(T, 1, shield),
            Weapon(parse_range("4"), 4),
        ).refusal
        is None
    )
    r = shot(attacker_at=attacker, attacker_facing=attacker_facing, shield=shield)
    assert r.side_candidates == candidates
    assert (r.side, r.target_number, r.damage) == (side, target_number, damage)


# --- R-ARC-3 firing arc ---------------------------------------------------------------------------


def test_target_behind_the_attacker_is_out_of_arc_r_arc_3() -> None:
    """Seed 000 Q&A "Can I attack behind me without rotating? No … Rotate first"."""
    r = shot(1, 3, attacker_facing=1)  # attacker N of the target, facing away from it
    assert refusal(r) == ("out_of_arc", "R-ARC-3")
    assert not r.possible and r.odds is None
    assert r.target_number == 5  # still reported


@pytest.mark.parametrize("facing", DIRECTIONS)
def test_distance_1_is_allowed_in_any_direction_r_arc_3(facing: int) -> None:
    """Seed 000 "Melee Range": any adjacent hex regardless of facing, melee or not."""
    assert shot(1, 1, attacker_facing=facing, weapon="Melee").possible
    assert shot(1, 1, attacker_facing=facing, weapon="Ranged 1-4").possible


def test_firing_arc_boundaries_are_included_r_arc_3() -> None:
    """Attacker facing N: targets due east (2/3 boundary) and due west (5/6) are in arc;
    SE-S (3/4 boundary) is not."""
    attacker = Hex(0, 0)
    for target_at, ok in ((Hex(2, -1), True), (Hex(-2, 1), True), (Hex(1, 1), False)):
        r = to_hit(OPEN, Attacker(attacker, 1), Target(target_at, 1), Weapon(parse_range("4"), 1))
        assert (r.refusal is None) == ok, target_at


# --- R-COV-1..4 cover and obscured ----------------------------------------------------------------


def test_target_in_rubble_has_light_cover_named_r_cov_1a() -> None:
    r = shot(1, 3, b=board(t_0_0="rubble"))
    cover = line(r, "cover")
    assert cover is not None
    assert (cover.value, cover.rule, cover.label) == (1, "R-COV-1", "Light cover: rubble at [0,0]")
    assert r.target_number == 6


def test_adjacent_intervening_forest_gives_light_cover_r_cov_1b() -> None:
    cover = line(shot(1, 3, b=board(t_0_m1="forest")), "cover")
    assert cover is not None and (cover.value, cover.label) == (1, "Light cover: forest at [0,-1]")


def test_adjacent_fortification_gives_heavy_cover_r_cov_1b_r_cov_2() -> None:
    r = shot(1, 3, b=board(t_0_m1="fortification"))
    cover = line(r, "cover")
    assert cover is not None
    assert (cover.value, cover.label) == (2, "Heavy cover: fortification at [0,-1]")
    assert r.target_number == 7


def test_intervening_rubble_not_adjacent_to_the_target_gives_no_cover_r_cov_1() -> None:
    assert line(shot(1, 3, b=board(t_0_m2="rubble")), "cover") is None


def test_casket_on_the_line_gives_light_cover_r_cov_1c() -> None:
    r = shot(1, 3, others=[Hex(0, -2)])
    cover = line(r, "cover")
    assert cover is not None and (cover.value, cover.label) == (1, "Light cover: casket at [0,-2]")
    assert r.los.clear  # R-LOS-3: caskets never block


def test_cover_does_not_stack_the_highest_counts_r_cov_2() -> None:
    r = shot(1, 3, b=board(t_0_0="forest", t_0_m1="fortification"), others=[Hex(0, -2)])
    covers = [m for m in r.modifiers if m.key == "cover"]
    assert [(m.value, m.label) for m in covers] == [(2, "Heavy cover: fortification at [0,-1]")]
    assert r.target_number == 7


def test_obscured_is_its_own_line_and_stacks_with_cover_r_cov_4() -> None:
    r = shot(1, 3, b=board(t_0_0="rubble"), target_statuses=frozenset({"obscured"}))
    assert ("obscured", 2, "R-COV-4") in lines(r)
    assert ("cover", 1, "R-COV-1") in lines(r)
    assert r.target_number == 8
    assert line(shot(1, 3, target_statuses=frozenset({"obscured"})), "cover") is None


# --- R-COV-3 + R-ELV-1 elevation ------------------------------------------------------------------


def test_higher_attacker_ignores_cover_minus_1_plus_1_damage_r_cov_3_r_elv_1() -> None:
    b = board(t_0_0="rubble", t_0_m1="fortification", l_0_m3=1)
    r = shot(1, 3, b=b, others=[Hex(0, -2)])
    assert line(r, "cover") is None
    assert r.los.cover_ignored_by_elevation
    assert ("elevation", -1, "R-ELV-1") in lines(r)
    assert r.target_number == 4
    dmg = damage_line(r, "elevation")
    assert dmg is not None and (dmg.value, dmg.rule) == (1, "R-ELV-1")
    assert r.damage == 5


def test_two_levels_higher_is_still_minus_1_r_elv_1() -> None:
    r = shot(1, 3, b=board(l_0_m3=2))
    assert ("elevation", -1, "R-ELV-1") in lines(r) and r.damage == 5


def test_lower_attacker_plus_1_minus_1_damage_and_keeps_cover_r_elv_1() -> None:
    r = shot(1, 3, b=board(t_0_0="rubble", l_0_0=2))
    assert ("elevation", 1, "R-ELV-1") in lines(r)
    assert ("cover", 1, "R-COV-1") in lines(r)
    assert r.target_number == 7
    dmg = damage_line(r, "elevation")
    assert dmg is not None and dmg.value == -1
    assert r.damage == 3


def test_same_level_has_no_elevation_line_r_elv_1() -> None:
    r = shot(1, 3, b=board(l_0_0=1, l_0_m3=1))
    assert line(r, "elevation") is None and damage_line(r, "elevation") is None


# --- statuses: head destroyed, weapon jammed --------------------------------------------------


def test_head_destroyed_adds_1_to_ranged_attacks_only_r_hit_1() -> None:
    """Seed 002 component table "Head: … -1 to all ranged attacks", read by R-HIT-1 as +1."""
    head = frozenset({"head"})
    ranged = shot(1, 1, weapon="Ranged 1-4", destroyed=head)
    assert ("head_destroyed", 1, "R-HIT-1") in lines(ranged)
    assert ranged.target_number == 6
    melee = shot(1, 1, weapon="Melee", destroyed=head)
    assert line(melee, "head_destroyed") is None and melee.target_number == 5
    assert line(shot(1, 1, destroyed=frozenset({"left_arm"})), "head_destroyed") is None


def test_weapon_jammed_takes_2_damage_r_dmg_1() -> None:
    """Seed 001 CATASTROPHIC FAILURE: next attack −2 damage."""
    r = shot(1, 2, statuses=frozenset({"weapon_jammed"}))
    dmg = damage_line(r, "catastrophic_failure")
    assert dmg is not None and (dmg.value, dmg.rule) == (-2, "R-DMG-1")
    assert r.damage == 2
    assert r.target_number == 5


# --- damage by result (R-DMG-1) -----------------------------------------------------------------


def test_damage_by_result_strong_plus_1_critical_plus_2_execution_plus_0_r_dmg_1() -> None:
    r = shot(4, 2)  # rear: +3
    assert r.as_dict()["damage"]["by_result"] == {
        "hit": 7,
        "strong": 8,
        "critical": 9,
        "execution": 7,
    }
    assert r.as_dict()["damage"]["rule"] == "R-DMG-1"
    assert [r.damage_for(g) for g in ("hit", "strong", "critical", "execution")] == [7, 8, 9, 7]


def test_damage_is_never_below_zero_r_dmg_1() -> None:
    r = shot(1, 3, damage=1, b=board(l_0_0=1), statuses=frozenset({"weapon_jammed"}))
    assert r.damage_base + sum(m.value for m in r.damage_modifiers) == -2
    assert r.as_dict()["damage"]["by_result"] == {
        "hit": 0,
        "strong": 0,
        "critical": 0,
        "execution": 0,
    }
    r = shot(1, 2, damage=1, statuses=frozenset({"weapon_jammed"}))
    assert [r.damage_for(g) for g in ("hit", "strong", "critical")] == [0, 0, 1]


def test_extra_lines_from_cards_are_itemised_and_counted_r_hit_1_r_dmg_1() -> None:
    card = Modifier("card", -1, "Steady Aim", "card:steady-aim")
    blood = Modifier("card", 3, "Blood Offering", "card:blood-offering")
    r = shot(1, 5, extra_to_hit=[card], extra_damage=[blood])
    assert r.modifiers[-1] == card
    assert r.target_number == 5 + 1 - 1
    assert r.damage_modifiers[-1] == blood
    assert r.damage == 7


# --- R-HIT-3 impossible targets -------------------------------------------------------------------


def test_target_number_above_10_is_refused_but_itemised_r_hit_3() -> None:
    r = shot(6, 5, moved=4, moved_last_turn=4)  # 5 +1 +2 +2 +1 (shield side)
    assert r.target_number == 11
    assert refusal(r) == ("impossible_target", "R-HIT-3")
    assert not r.possible and r.odds is None
    assert [m.key for m in r.modifiers] == [
        "base",
        "range",
        "attacker_movement",
        "defender_movement",
        "side",
    ]
    d = r.as_dict()
    assert d["odds"] is None and d["target_number"] == 11 and len(d["modifiers"]) == 5
    assert d["refusal"]["code"] == "impossible_target"


def test_target_number_10_is_possible_with_execution_odds_r_hit_3() -> None:
    r = shot(6, 5, moved=4, moved_last_turn=1)
    assert r.target_number == 10 and r.possible
    assert r.odds is not None and r.odds.hit == r.odds.execution == Fraction(1, 36)


def test_another_refusal_takes_precedence_over_impossible_r_hit_3() -> None:
    r = shot(6, 5, moved=4, moved_last_turn=4, weapon="3")
    assert r.target_number == 11
    assert refusal(r) == ("out_of_range", "R-RNG-2")


# --- refusals -----------------------------------------------------------------------------------


def test_wall_on_the_line_is_no_line_of_sight_r_los_2() -> None:
    r = shot(1, 3, b=board(t_0_m1="wall"))
    assert refusal(r) == ("no_line_of_sight", "R-LOS-2")
    assert r.refusal is not None and "wall at [0,-1]" in r.refusal.message
    assert r.target_number == 5 and r.odds is None and not r.los.clear


def test_one_blocking_hex_of_a_divided_pair_refuses_r_los_4() -> None:
    """The line [1,-2] → [0,0] runs between [1,-1] and [0,-1]; the defender picks the side."""
    r = shot(attacker_at=Hex(1, -2), attacker_facing=4, b=board(t_1_m1="wall"))
    assert refusal(r) == ("no_line_of_sight", "R-LOS-4")
    assert r.refusal is not None and "defender chooses" in r.refusal.message


def test_blocker_on_both_nudged_lines_is_plain_r_los_2() -> None:
    """[0,0] → [1,-5] is divided at two vertices, but [0,-1] is entered by both nudges."""
    b = board(t_0_m1="wall")
    r = to_hit(b, Attacker(T, 1), Target(Hex(1, -5), 1), Weapon(parse_range("8"), 1))
    assert r.los.divided and r.los.blocked_by == Hex(0, -1)
    assert refusal(r) == ("no_line_of_sight", "R-LOS-2")


def test_same_hex_is_refused_r_arc_1() -> None:
    r = to_hit(OPEN, Attacker(T, 1), Target(T, 1), Weapon(parse_range("Self"), 2))
    assert refusal(r) == ("same_hex", "R-ARC-1")
    assert (r.distance, r.side, r.target_number, r.odds) == (0, None, None, None)
    assert r.as_dict()["possible"] is False


def test_range_is_checked_before_arc_and_arc_before_sight() -> None:
    """Seed 000 checklist: "1. In range? 2. In firing arc? 3. Have LOS?" (R-RNG-2, R-ARC-3,
    R-LOS-2)."""
    b = board(t_0_m1="wall")
    assert refusal(shot(1, 3, b=b, weapon="2", attacker_facing=1)) == ("out_of_range", "R-RNG-2")
    assert refusal(shot(1, 3, b=b, attacker_facing=1)) == ("out_of_arc", "R-ARC-3")
    assert refusal(shot(1, 3, b=b)) == ("no_line_of_sight", "R-LOS-2")


def test_engaged_attacker_may_only_attack_adjacent_enemies_r_var_3() -> None:
    enemy = Hex(1, -4)  # adjacent to the attacker at [0,-3]
    on = {"engaged_targets_only": True}
    r = shot(1, 3, enemies=[enemy], options=on)
    assert refusal(r) == ("engaged", "R-VAR-3")
    assert r.refusal is not None and "[1,-4]" in r.refusal.message
    assert shot(1, 3, enemies=[enemy]).possible  # option off (default)
    assert shot(1, 3, enemies=[Hex(3, -3)], options=on).possible  # not adjacent
    # The adjacent enemy itself may be attacked.
    r = to_hit(
        OPEN,
        Attacker(Hex(0, -3), 4),
        Target(enemy, 1),
        Weapon(parse_range("Melee"), 3),
        enemies=[enemy],
        rules=Ruleset("2.0", on),
    )
    assert r.possible


# --- options --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("distance", "value"), [(2, 0), (4, 0), (5, 1), (8, 1)])
def test_half_max_range_model_r_var_1(distance: int, value: int) -> None:
    r = shot(1, distance, weapon="8", options={"range_model": "half_max"})
    got = line(r, "range")
    if value:
        assert got is not None and (got.value, got.rule) == (1, "R-VAR-1")
        assert got.label == f"Beyond half of range 8 ({distance} hexes)"
    else:
        assert got is None
    assert r.band == range_band(distance)[0]  # the band is still reported


@pytest.mark.parametrize(("moved", "value"), [(0, 0), (1, 1), (5, 1), (9, 1)])
def test_any_movement_model_r_var_2(moved: int, value: int) -> None:
    r = shot(1, 2, moved=moved, moved_last_turn=5, options={"attacker_movement_model": "any"})
    got = line(r, "attacker_movement")
    if value:
        assert got is not None and (got.value, got.rule) == (1, "R-VAR-2")
    else:
        assert got is None
    defender = line(r, "defender_movement")
    assert defender is not None and (defender.value, defender.rule) == (2, "R-HIT-2")


def test_simple_melee_facing_uses_seed_000_melee_list_r_arc_4() -> None:
    simple = {"melee_facing": "simple"}
    rear = shot(4, 1, weapon="Melee", options=simple)
    dmg = damage_line(rear, "side")
    assert dmg is not None and (dmg.value, dmg.rule) == (2, "R-ARC-4")
    assert ("side", -2, "R-ARC-2") in lines(rear)  # to-hit still from the side table
    assert rear.defense_modifier == -3
    shield_side = damage_line(shot(6, 1, weapon="Melee", options=simple), "side")
    assert shield_side is not None and shield_side.value == 1
    default = damage_line(shot(4, 1, weapon="Melee"), "side")
    assert default is not None and (default.value, default.rule) == (3, "R-ARC-2")
    far = damage_line(shot(4, 2, options=simple), "side")
    assert far is not None and (far.value, far.rule) == (3, "R-ARC-2")


# --- R-HIT-6 dice pool ----------------------------------------------------------------------------

POOL = {"dice_pool_advantage": True}


def test_dice_pool_sources_cancel_one_for_one_r_hit_6() -> None:
    r = shot(4, 8, b=board(10), moved=3, moved_last_turn=4, options=POOL)  # rear, long range
    assert [(m.key, m.value, m.rule) for m in r.pool_sources] == [
        ("flank_or_rear", 1, "R-HIT-6"),
        ("range", -1, "R-HIT-6"),
    ]
    assert lines(r) == [("base", 5, "R-HIT-1")]  # static lines are replaced by the pool
    assert r.target_number == 5
    assert r.dice == TWO_DICE
    assert r.odds == odds(5)
    assert r.damage == 7  # damage still takes the side bonus


def test_dice_pool_advantage_keeps_highest_r_hit_6() -> None:
    r = shot(
        4,
        2,
        b=board(l_0_2=1),
        statuses=frozenset({"aiming"}),
        target_statuses=frozenset({"stunned", "immobilised"}),
        options=POOL,
    )
    assert [m.key for m in r.pool_sources] == [
        "flank_or_rear",
        "higher_ground",
        "stunned",
        "immobilised",
        "aiming",
    ]
    assert r.dice == DicePool(4, "highest") == pool_for_net_advantage(5)
    assert r.odds == odds(5, DicePool(4, "highest"))
    d = r.as_dict()
    assert d["dice"]["count"] == 4 and d["dice"]["keep"] == "highest"
    assert [s["rule"] for s in d["dice"]["sources"]] == ["R-HIT-6"] * 5


def test_dice_pool_disadvantage_keeps_lowest_r_hit_6() -> None:
    r = shot(
        1,
        3,
        b=board(t_0_m1="fortification"),
        moved=6,
        heat=5,
        destroyed=frozenset({"right_arm"}),
        target_statuses=frozenset({"obscured"}),
        options=POOL,
    )
    assert [m.key for m in r.pool_sources] == [
        "heavy_cover",
        "obscured",
        "attacker_movement",
        "heat",
        "primary_weapon_destroyed",
    ]
    assert all(m.value == -1 for m in r.pool_sources)
    assert r.dice == DicePool(4, "lowest")
    assert r.target_number == 5
    assert r.odds == odds(5, DicePool(4, "lowest"))


@pytest.mark.parametrize(("side", "advantage"), [(1, 0), (2, 0), (3, 1), (4, 1), (5, 1), (6, 0)])
def test_dice_pool_flank_or_rear_is_sides_3_4_5_r_hit_6(side: int, advantage: int) -> None:
    r = shot(side, 2, options=POOL)
    assert sum(m.value for m in r.pool_sources) == advantage
    assert r.dice == pool_for_net_advantage(advantage)
    assert r.target_number == 5  # the shield side's +1 is a static line, replaced too


def test_dice_pool_net_one_rolls_three_r_hit_6() -> None:
    r = shot(1, 7, b=board(10), options=POOL)  # long range only
    assert r.dice == DicePool(3, "lowest")
    assert r.odds is not None and r.odds.hit == odds(5, DicePool(3, "lowest")).hit
    below = shot(1, 3, moved=5, heat=4, b=board(t_0_m1="rubble"), options=POOL)
    assert below.pool_sources == () and below.dice == TWO_DICE  # light cover, 5 moved: nothing
    assert "sources" not in below.as_dict()["dice"]


# --- FORMATS.md -------------------------------------------------------------------------------


def test_formats_to_hit_example_is_reproduced_exactly() -> None:
    """FORMATS.md `POST /api/rules/to-hit`: the request and every field of its answer."""
    r = to_hit(
        board(8),
        Attacker(Hex(0, 0), 1, moved=0, heat=0),
        Target(Hex(0, -5), 1, "left", moved_last_turn=2),
        Weapon(parse_range("8"), 4),
        others=[Hex(0, -2)],
        rules=Ruleset("2.0", {}),
    )
    d = r.as_dict()
    assert d["possible"] is True and d["refusal"] is None
    assert (d["distance"], d["band"]) == (5, "medium")
    assert {k: d["los"][k] for k in ("clear", "blocked_by", "divided")} == {
        "clear": True,
        "blocked_by": None,
        "divided": False,
    }
    assert (d["side"], d["side_name"], d["target_number"]) == (4, "rear", 6)
    assert d["modifiers"] == [
        {"key": "base", "value": 5, "label": "Base to-hit", "rule": "R-HIT-1"},
        {"key": "range", "value": 1, "label": "Medium range (5 hexes)", "rule": "R-RNG-1"},
        {
            "key": "defender_movement",
            "value": 1,
            "label": "Target moved 2 hexes",
            "rule": "R-HIT-2",
        },
        {"key": "side", "value": -2, "label": "Rear (side 4)", "rule": "R-ARC-2"},
        {"key": "cover", "value": 1, "label": "Light cover: casket at [0,-2]", "rule": "R-COV-1"},
    ]
    assert d["damage"]["base"] == 4
    assert [{k: m[k] for k in ("key", "value", "rule")} for m in d["damage"]["modifiers"]] == [
        {"key": "side", "value": 3, "rule": "R-ARC-2"}
    ]
    assert d["defense_modifier"] == -3
    assert d["reactive_allowed"] is False and d["shield_cards_allowed"] is False
    assert d["dice"] == {"count": 2, "keep": "all"}
    assert d["odds"] == {
        "hit": "5/12",
        "strong_or_better": "5/18",
        "critical_or_better": "1/12",
        "execution": "1/36",
        "catastrophic": "1/36",
        "hit_float": 0.4167,
    }


def test_as_dict_lists_the_side_candidates_and_cover_sources() -> None:
    d = shot(attacker_at=Hex(-1, -1), attacker_facing=3, b=board(t_0_0="rubble")).as_dict()
    assert d["side_candidates"] == [1, 6] and d["side"] == 6
    assert d["los"]["cover"] == "light"
    assert d["los"]["cover_sources"][0]["at"] == [0, 0]


# --- invalid input names the field ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"attacker_at": Hex(9, 0)}, "attacker.at"),
        ({"target_at": Hex(0, 9)}, "target.at"),
        ({"attacker_facing": 0}, "attacker.facing"),
        ({"attacker_facing": True}, "attacker.facing"),
        ({"target_facing": 7}, "target.facing"),
        ({"shield": "both"}, "target.shield"),
        ({"destroyed": frozenset({"tail"})}, "attacker.destroyed"),
        ({"statuses": frozenset({"obscured"})}, "attacker.statuses"),
        ({"target_statuses": frozenset({"aiming"})}, "target.statuses"),
        ({"moved": -1}, "attacker.moved"),
        ({"moved": True}, "attacker.moved"),
        ({"heat": 1001}, "attacker.heat"),
        ({"moved_last_turn": -3}, "target.moved_last_turn"),
        ({"damage": -1}, "weapon.damage"),
        ({"damage": 101}, "weapon.damage"),
    ],
)
def test_invalid_input_names_the_field(change: dict[str, Any], field: str) -> None:
    spec: dict[str, Any] = {
        "attacker_at": Hex(0, -2),
        "attacker_facing": 4,
        "target_at": T,
        "target_facing": 1,
        "shield": "left",
        "destroyed": frozenset(),
        "statuses": frozenset(),
        "target_statuses": frozenset(),
        "moved": 0,
        "heat": 0,
        "moved_last_turn": 0,
        "damage": 3,
    } | change
    with pytest.raises(InvalidInput) as err:
        to_hit(
            OPEN,
            Attacker(
                spec["attacker_at"],
                spec["attacker_facing"],
                spec["moved"],
                spec["heat"],
                spec["destroyed"],
                spec["statuses"],
            ),
            Target(
                spec["target_at"],
                spec["target_facing"],
                spec["shield"],
                spec["moved_last_turn"],
                spec["target_statuses"],
            ),
            Weapon(WeaponRange("4", 1, 4), spec["damage"]),
        )
    assert err.value.field == field


# --- properties ---------------------------------------------------------------------------------

RADIUS = 5
CELLS = sorted(spiral(ORIGIN, RADIUS))
KINDS = ("clear", "forest", "dense_forest", "rubble", "fortification", "wall", "water")
cells_st = st.sampled_from(CELLS)


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    attacker = draw(cells_st)
    target = draw(cells_st)
    terrain = draw(
        st.dictionaries(
            cells_st,
            st.tuples(st.sampled_from(KINDS), st.integers(0, 2)),
            max_size=30,
        )
    )
    return {
        "terrain": terrain,
        "attacker": attacker,
        "target": target,
        "attacker_facing": draw(st.sampled_from(DIRECTIONS)),
        "target_facing": draw(st.sampled_from(DIRECTIONS)),
        "shield": draw(st.sampled_from(("left", "right", "none"))),
        "moved": draw(st.integers(0, 8)),
        "moved_last_turn": draw(st.integers(0, 8)),
        "heat": draw(st.integers(0, 6)),
        "destroyed": draw(st.frozensets(st.sampled_from(("head", "right_arm")))),
        "statuses": draw(st.frozensets(st.sampled_from(("aiming", "weapon_jammed")))),
        "target_statuses": draw(st.frozensets(st.sampled_from(("obscured", "stunned")))),
        "weapon": draw(st.sampled_from(("Melee", "3", "8", "12", "12", "12", "2-6", "Ranged 1-4"))),
        "damage": draw(st.integers(0, 6)),
        "others": draw(st.lists(cells_st, max_size=3)),
        "enemies": draw(st.lists(cells_st, max_size=2)),
        "options": {
            "melee_facing": draw(st.sampled_from(("side_table", "simple"))),
            "dice_pool_advantage": draw(st.booleans()),
            "range_model": draw(st.sampled_from(("bands", "half_max"))),
            "attacker_movement_model": draw(st.sampled_from(("table", "any"))),
            "engaged_targets_only": draw(st.booleans()),
        },
    }


def run(
    s: dict[str, Any], move: Any = lambda h: h, turn: Any = lambda d: d, swap: bool = False
) -> ToHit:
    """The scenario with every hex mapped by `move` and every direction by `turn`."""
    b = parse_board(
        {
            "shape": {"kind": "hexagon", "radius": RADIUS},
            "hexes": [
                {"q": move(h).q, "r": move(h).r, "terrain": kind, "level": level}
                for h, (kind, level) in s["terrain"].items()
            ],
        }
    )
    shield = {"left": "right", "right": "left"}.get(s["shield"], "none") if swap else s["shield"]
    return to_hit(
        b,
        Attacker(
            move(s["attacker"]),
            turn(s["attacker_facing"]),
            s["moved"],
            s["heat"],
            s["destroyed"],
            s["statuses"],
        ),
        Target(
            move(s["target"]),
            turn(s["target_facing"]),
            shield,
            s["moved_last_turn"],
            s["target_statuses"],
        ),
        Weapon(parse_range(s["weapon"]), s["damage"]),
        others=[move(h) for h in s["others"]],
        enemies=[move(h) for h in s["enemies"]],
        rules=Ruleset("2.0", s["options"]),
    )


def invariant(r: ToHit) -> tuple[object, ...]:
    row = r.row
    return (
        r.possible,
        refusal(r),
        r.distance,
        r.band,
        r.target_number,
        [(m.key, m.value, m.rule) for m in r.modifiers],
        [(m.key, m.value, m.rule) for m in r.pool_sources],
        None
        if row is None
        else (row.to_hit, row.damage, row.defence, row.shield_cards, row.reactive_cards),
        [r.damage_for(g) for g in ("hit", "strong", "critical", "execution")],
        r.dice,
        r.odds,
        r.los.clear,
        r.los.cover,
    )


@settings(max_examples=100, deadline=None)
@given(s=scenarios())
def test_modifiers_always_sum_to_the_target_number_r_hit_1(s: dict[str, Any]) -> None:
    r = run(s)
    if r.distance == 0:
        assert r.target_number is None and r.modifiers == ()
        return
    assert r.target_number == sum(m.value for m in r.modifiers)
    assert r.damage == max(0, r.damage_base + sum(m.value for m in r.damage_modifiers))
    assert all(m.rule for m in (*r.modifiers, *r.damage_modifiers, *r.pool_sources))
    assert (r.odds is None) == (not r.possible)
    if r.target_number > 10:
        assert not r.possible  # R-HIT-3, whatever else refused it first
    if r.refusal is not None and r.refusal.code == "impossible_target":
        assert r.target_number > 10


@settings(max_examples=100, deadline=None)
@given(s=scenarios(), steps=st.integers(1, 5))
def test_rotating_the_whole_scenario_changes_nothing(s: dict[str, Any], steps: int) -> None:
    """R-BRD-2 symmetry: rotate every hex and facing by 60°·steps about the board centre."""
    original = run(s)
    rotated = run(s, lambda h: h.rotate(steps), lambda d: rotate_direction(d, steps))
    assert invariant(rotated) == invariant(original)
    assert rotated.side == original.side


@settings(max_examples=100, deadline=None)
@given(s=scenarios())
def test_mirroring_the_whole_scenario_swaps_shields_and_changes_nothing(s: dict[str, Any]) -> None:
    """Mirror every hex and facing across the N–S axis and swap left and right shields: the
    R-ARC-2 right-shield table is the mirror of the left, and R-LOS-4 favours neither side."""
    original = run(s)
    mirrored = run(s, Hex.mirror, mirror_direction, swap=True)
    assert invariant(mirrored) == invariant(original)
    if original.side is not None:
        assert mirrored.side == mirror_direction(original.side)
