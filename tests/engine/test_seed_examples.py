"""The Penance seeds' worked examples and diagrams on range, LOS, cover, facing, elevation,
to-hit, odds and dice, recomputed by the engine (mostly through `to_hit`).

Seeds: /work/shared/seeds/000_5b17f67596ed7163.txt (range, LOS, facing, elevation),
001_75e5dc80205ae732.txt (dice), 002_77976442c83478fd.txt (turn structure). Where an
example contradicts its own seed's table, RULINGS.md decides and the test says so. The
seeds draw on a square grid; each test says how a diagram was put on flat-top hexes.

Already tested elsewhere, so not repeated here:
- test_arcs.py: the four "Facing Diagrams" of seed 000, the "which adjacent hex" and
  right-shield Q&A, "Rotate 3 hex-sides = 1 free + 2 SP" and "Rotate 180° … 2 SP", the
  melee damage list as a table, "Can I attack behind me without rotating?".
- test_los.py: seed 000's LOS and cover diagrams as line-of-sight answers (which hexes,
  which cover source), "LOS is (NOT) BLOCKED by" lists, "Elevated: pass through".
- test_dice.py: seed 001's face tables, the defence dice example, the suffering die, seed
  001's complete example as arithmetic, the corrected odds table by target number.
- test_movement.py: "Climbing", seed 002's movement rules.
- test_tohit.py: the order of seed 000's checklist (range, arc, LOS), seed 002's "Head
  destroyed: −1 to all ranged attacks".
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from battles.engine.board import Board
from battles.engine.dice import DicePool, attack_result
from battles.engine.hexes import (
    DIRECTION_VECTORS,
    DIRECTIONS,
    ORIGIN,
    Hex,
    rotate_direction,
    spiral,
)
from battles.engine.los import has_line_of_sight
from battles.engine.ruleset import Ruleset
from battles.engine.tohit import (
    Attacker,
    Modifier,
    Target,
    ToHit,
    Weapon,
    parse_range,
    range_band,
    to_hit,
)
from tests.engine.boards import board

SEED_000 = "000_5b17f67596ed7163.txt"
SEED_001 = "001_75e5dc80205ae732.txt"
SEED_002 = "002_77976442c83478fd.txt"
T = ORIGIN  # the target (defender), facing N with a left shield unless a test says otherwise


def at(direction: int, distance: int) -> Hex:
    dq, dr = DIRECTION_VECTORS[direction]
    return Hex(T.q + dq * distance, T.r + dr * distance)


def shot(
    side: int = 1,
    distance: int = 2,
    *,
    b: Board | None = None,
    weapon: str = "1-13",
    damage: int = 4,
    moved: int = 0,
    moved_last_turn: int = 0,
    target_statuses: frozenset[str] = frozenset(),
    statuses: frozenset[str] = frozenset(),
    options: dict[str, Any] | None = None,
    **kw: Any,
) -> ToHit:
    """An attack from `distance` hexes on side `side` of the north-facing target at T; the
    attacker faces the target."""
    return to_hit(
        b or board(13),
        Attacker(at(side, distance), rotate_direction(side, 3), moved=moved, statuses=statuses),
        Target(T, 1, "left", moved_last_turn, target_statuses),
        Weapon(parse_range(weapon), damage),
        rules=Ruleset("2.0", options or {}),
        **kw,
    )


def keyed(r: ToHit) -> dict[str, int]:
    return {m.key: m.value for m in r.modifiers}


# --- seed 000: Hex Grid Basics, Range Bands, Card Range Examples, Aura ---------------------------


def test_range_rings_hold_6_12_18_hexes_seed_000_hex_counting() -> None:
    """Seed 000 "Hex Counting" and "Range Diagram": range 0 is the own hex, range 1 the 6
    adjacent hexes, range 2 12 hexes, range 3 18 hexes (R-BRD-1: ring k has 6k)."""
    b = board(3)
    counts = Counter(ORIGIN.distance(h) for h in b.cells)
    assert counts == {0: 1, 1: 6, 2: 12, 3: 18}
    assert {h for h in b.cells if ORIGIN.distance(h) == 1} == set(ORIGIN.neighbours())


def test_range_band_table_seed_000_range_bands() -> None:
    """Seed 000 "Range Bands": Short 0-3 +0, Medium 4-6 +1, Long 7-10 +2, Extreme 11+ +3
    (R-RNG-1); the to-hit answer adds that line for every distance it can attack at."""
    table = {0: 0, 1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 1, 7: 2, 8: 2, 9: 2, 10: 2, 11: 3, 12: 3, 13: 3}
    assert {d: range_band(d)[1] for d in table} == table
    for d in range(1, 14):
        assert keyed(shot(1, d)).get("range", 0) == table[d], d


def test_medium_range_5_hexes_needs_6_seed_000_how_it_works() -> None:
    """Seed 000 "How It Works": "Medium range (5 hexes) = need 6+ instead of 5+"."""
    r = shot(1, 5)
    assert r.band == "medium" and r.target_number == 6


@pytest.mark.parametrize(
    ("card", "weapon", "distance", "range_modifier"),
    [
        # "Faithful Thrust: Range: Melee (1 hex only, Short range modifier +0)"
        ("Faithful Thrust", "Melee", 1, 0),
        ("Faithful Thrust", "Melee", 2, None),
        # "Quick Shot (Pistol): Range 3 (up to 3 hexes, Short range modifier +0)"
        ("Quick Shot", "3", 1, 0),
        ("Quick Shot", "3", 3, 0),
        ("Quick Shot", "3", 4, None),
        # "Rifle Shot: Range 8 (up to 8 hexes, Long range modifier +2 if shooting 7-8 hexes)"
        ("Rifle Shot", "8", 3, 0),
        ("Rifle Shot", "8", 6, 1),
        ("Rifle Shot", "8", 7, 2),
        ("Rifle Shot", "8", 8, 2),
        ("Rifle Shot", "8", 9, None),
        # "Sniper Shot: Range 12 (up to 12 hexes, Extreme range modifier +3 if shooting 11-12)"
        ("Sniper Shot", "12", 10, 2),
        ("Sniper Shot", "12", 11, 3),
        ("Sniper Shot", "12", 12, 3),
        ("Sniper Shot", "12", 13, None),
    ],
)
def test_card_range_examples_seed_000(
    card: str, weapon: str, distance: int, range_modifier: int | None
) -> None:
    """Seed 000 "Card Range Examples" (R-RNG-1, R-RNG-2); None: out of the card's range."""
    r = shot(1, distance, weapon=weapon)
    if range_modifier is None:
        assert r.refusal is not None and r.refusal.code == "out_of_range", card
    else:
        assert r.possible, card
        assert keyed(r).get("range", 0) == range_modifier
        assert r.target_number == 5 + range_modifier


def test_self_is_range_0_seed_000_special_range_types() -> None:
    """Seed 000 "Self: Range 0 (affects only you)" (R-RNG-2): nothing else is in range."""
    wr = parse_range("Self")
    assert (wr.low, wr.high) == (0, 0)
    assert [d for d in range(0, 5) if wr.contains(d)] == [0]
    r = shot(1, 1, weapon="Self")
    assert r.refusal is not None and r.refusal.code == "out_of_range"


def test_aura_2_covers_19_hexes_own_included_and_ignores_los_seed_000_aura() -> None:
    """Seed 000 "AURA 2 EXAMPLE" and R-RNG-3: every hex within 2, the own hex included, with
    no LOS needed. The seed's square-grid drawing marks 20 cells around A (21 with A); on
    hexes, R-BRD-1 gives 1 + 6 + 12 = 19 hexes within 2, and the ruling follows the hexes."""
    b = board(4, t_0_m1="wall")
    aura = {h for h in b.cells if ORIGIN.distance(h) <= 2}
    assert len(aura) == 19
    assert aura == set(spiral(ORIGIN, 2))
    assert ORIGIN in aura
    hidden = Hex(0, -2)
    assert hidden in aura and not has_line_of_sight(b, ORIGIN, hidden)


# --- seed 000: LOS, cover -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("middle", "others", "possible", "target_number"),
    [
        ("wall", (), False, None),  # "BLOCKED LOS (Wall in the way) … Cannot attack."
        ("rubble", (), True, 6),  # "LOS clear! Can attack, but target has +1 Defense (cover)."
        ("clear", (Hex(0, -1),), True, 6),  # "LOS clear! Other Caskets don't block."
    ],
)
def test_los_diagrams_as_attacks_seed_000_los_diagram(
    middle: str, others: tuple[Hex, ...], possible: bool, target_number: int | None
) -> None:
    """Seed 000 "LOS Diagram": A, the middle hex and T in a column (A at [0,0], T two hexes
    N, facing A). The casket between gives light cover (seed 000 "Other Caskets: +1 to target number
    if enemy Casket is between you and attacker", R-COV-1(c)). R-LOS-2, R-LOS-3."""
    r = to_hit(
        board(4, t_0_m1=middle),
        Attacker(ORIGIN, 1),
        Target(Hex(0, -2), 4),
        Weapon(parse_range("4"), 3),
        others=others,
    )
    assert r.possible == possible
    if possible:
        assert r.target_number == target_number
    else:
        assert r.refusal is not None
        assert (r.refusal.code, r.refusal.rule) == ("no_line_of_sight", "R-LOS-2")


@pytest.mark.parametrize(
    ("cells", "target_number", "label"),
    [
        # "Base 5+, target in light cover (rubble) = need 6+ to hit"
        ({"t_0_0": "rubble"}, 6, "Light cover: rubble at [0,0]"),
        # the seed's "COVER EXAMPLE": rubble between, next to the target (R-COV-1(b))
        ({"t_0_1": "rubble"}, 6, "Light cover: rubble at [0,1]"),
        # "Base 5+, target in heavy cover (fortress wall) = need 7+ to hit"
        ({"t_0_1": "fortification"}, 7, "Heavy cover: fortification at [0,1]"),
        ({"t_0_0": "fortification"}, 7, "Heavy cover: fortification at [0,0]"),
        # "NO COVER (Behind rubble, but not in it)": rubble on the line, not next to T
        ({"t_0_2": "rubble"}, 5, None),
    ],
)
def test_cover_to_hit_examples_seed_000_cover_rules(
    cells: dict[str, str], target_number: int, label: str | None
) -> None:
    """Seed 000 "To-Hit Example" and "Cover Diagram" (R-COV-1, R-COV-2): the attacker 3 hexes
    S of the target, the two facing each other (front, +0). "Fortress wall" is R-BRD-3's
    fortification."""
    r = to_hit(
        board(5, **cells),
        Attacker(Hex(0, 3), 1),
        Target(T, 4),
        Weapon(parse_range("4"), 3),
    )
    assert r.side == 1
    assert r.target_number == target_number
    covers = [m for m in r.modifiers if m.key == "cover"]
    assert [m.label for m in covers] == ([label] if label else [])


def test_cover_does_not_stack_forest_and_fortress_wall_is_plus_2_seed_000() -> None:
    """Seed 000 "Cover does NOT stack": "Target in forest (+1) AND behind fortress wall (+2) =
    +2 total (highest)" (R-COV-2); a casket on the line adds nothing either. The Q&A line
    "Maximum +1 Defense from cover" contradicts the heavy-cover row (+2); R-COV-2 keeps +2."""
    r = to_hit(
        board(5, t_0_0="forest", t_0_1="fortification"),
        Attacker(Hex(0, 3), 1),
        Target(T, 4),
        Weapon(parse_range("4"), 3),
        others=[Hex(0, 2)],
    )
    assert [(m.key, m.value) for m in r.modifiers] == [("base", 5), ("cover", 2)]
    assert r.target_number == 7


# --- seed 000: facing ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("side", "target_number", "passage"),
    [
        (4, 3, "Base 5+, attacking rear (hex 4) = need 3+ instead"),
        (6, 6, "Base 5+, attacking shield-side (hex 6) = need 6+ instead"),
        (1, 5, "Front/weapon-side: +0 to target number"),
        (2, 5, "Front/weapon-side: +0 to target number"),
        (3, 4, "Easier to hit (flanks, rear): -1 or -2"),
        (5, 4, "Easier to hit (flanks, rear): -1 or -2"),
    ],
)
def test_facing_to_hit_examples_seed_000_to_hit_modifier_explanation(
    side: int, target_number: int, passage: str
) -> None:
    """Seed 000 "To-Hit Modifier Explanation" (R-ARC-2), at short range, nothing else."""
    r = shot(side, 2)
    assert r.side == side
    assert r.target_number == target_number, passage


def test_shield_wall_tactic_seed_000() -> None:
    """Seed 000 "Shield-Wall Tactic" example: enemy A attacks hex-side 6 (shield protected),
    weak enemy B stands on the weapon side (hex-side 2), left shield. A: +1 to hit, +0
    damage, defence +1, shield cards allowed; B: +0, +1 damage, −1, no shield cards."""
    a, b = shot(6, 1), shot(2, 1)
    assert (a.side, a.target_number, a.damage, a.defense_modifier, a.shield_cards_allowed) == (
        6,
        6,
        4,
        1,
        True,
    )
    assert (b.side, b.target_number, b.damage, b.defense_modifier, b.shield_cards_allowed) == (
        2,
        5,
        5,
        -1,
        False,
    )


@pytest.mark.parametrize(
    ("melee_facing", "bonuses"),
    [("simple", [0, 1, 1, 2, 1, 1]), ("side_table", [0, 1, 2, 3, 2, 0])],
)
def test_melee_in_any_adjacent_hex_with_facing_damage_seed_000_melee_range(
    melee_facing: str, bonuses: list[int]
) -> None:
    """Seed 000 "Melee Range": melee any of the 6 adjacent hexes regardless of facing, but
    "Front melee: +0 damage, Side melee: +1, Rear melee: +2". That list is option
    melee_facing=simple (R-ARC-4); the default keeps the R-ARC-2 side table."""
    got = []
    for side in DIRECTIONS:
        # The attacker faces away from the target: facing does not matter at distance 1.
        r = to_hit(
            board(3),
            Attacker(at(side, 1), side),
            Target(T, 1),
            Weapon(parse_range("Melee"), 3),
            rules=Ruleset("2.0", {"melee_facing": melee_facing}),
        )
        assert r.possible
        got.append(r.damage - 3)
    assert got == bonuses


def test_surrounded_rear_attackers_get_plus_3_not_plus_2_seed_000_qa() -> None:
    """Seed 000 Q&A "If I'm surrounded … Rear attackers get +2 damage": superseded by the
    R-ARC-2 table (+3). Only option melee_facing=simple gives +2, and only in melee."""
    assert shot(4, 3).damage == 4 + 3
    assert shot(4, 1, weapon="Melee").damage == 4 + 3
    simple = shot(4, 1, weapon="Melee", options={"melee_facing": "simple"})
    assert simple.damage == 4 + 2


def test_checklist_damage_modifiers_seed_000_quick_reference_step_6() -> None:
    """Seed 000 checklist step 6: Strong Hit +1, Critical Hit +2, EXECUTION no extra damage
    (R-DMG-1), hex-side Weapon +1 / Flank +2 / Rear +3, Elevation higher +1 / lower −1."""
    high = board(13, l_0_2=1)  # the rear attacker 2 hexes S stands on a hill
    r = shot(4, 2, b=high)
    assert [(m.key, m.value) for m in r.damage_modifiers] == [("side", 3), ("elevation", 1)]
    assert {g: r.damage_for(g) for g in ("hit", "strong", "critical", "execution")} == {
        "hit": 8,
        "strong": 9,
        "critical": 10,
        "execution": 8,
    }
    assert [shot(s, 2).damage - 4 for s in (2, 3, 4)] == [1, 2, 3]
    low = shot(1, 2, b=board(13, l_0_0=1))
    assert low.damage == 3


# --- seed 000: elevation -----------------------------------------------------------------------


def test_level_2_attacker_on_level_0_target_needs_4_plus_1_damage_seed_000_elevation() -> None:
    """Seed 000 elevation "To-Hit Example": "Attacker on Level 2, target on Level 0 (2 levels
    higher) - Base 5+ → -1 modifier (higher ground) = need 4+ to hit - If hit, +1 damage
    bonus" (R-ELV-1). The "HIGHER GROUND" diagram ([A2] / [] / [T0]) adds "ignore cover":
    the target in rubble with a casket between still needs 4+ (R-COV-3)."""
    r = shot(1, 2, b=board(13, l_0_m2=2))
    assert r.target_number == 4 and r.damage == 5
    covered = shot(1, 2, b=board(13, l_0_m2=2, t_0_0="rubble"), others=[Hex(0, -1)])
    assert covered.target_number == 4 and covered.damage == 5
    assert covered.los.cover_sources  # still listed, but ignored
    assert covered.los.cover == "none"


def test_shooting_uphill_penalty_seed_000_elevation() -> None:
    """Seed 000 "Shooting Uphill Penalty": 1+ levels lower: +1 to target number, −1 damage."""
    for level in (1, 2):
        r = shot(1, 2, b=board(13, l_0_0=level))
        assert (r.target_number, r.damage) == (6, 3)


def test_shoot_over_allies_from_higher_ground_seed_000_qa() -> None:
    """Seed 000 Q&A "Can I shoot over allies from higher ground? Yes. Higher ground ignores
    cover, including allied Caskets" (R-COV-3, R-LOS-3)."""
    level = shot(1, 3, others=[Hex(0, -1)])
    high = shot(1, 3, b=board(13, l_0_m3=1), others=[Hex(0, -1)])
    assert level.target_number == 6 and high.target_number == 4
    assert high.possible


@pytest.mark.parametrize(
    ("terrain", "possible", "target_number"),
    [("clear", True, 5), ("forest", True, 6), ("rubble", True, 6), ("water", True, 5),
     ("wall", False, None)],
)  # fmt: skip
def test_terrain_types_summary_as_attacks_seed_000(
    terrain: str, possible: bool, target_number: int | None
) -> None:
    """Seed 000 "Terrain Types Summary": LOS and Cover columns, with the target standing in
    the terrain (clear/forest/rubble/water) or the terrain between (wall)."""
    if possible:
        r = shot(1, 2, b=board(13, t_0_0=terrain))
        assert r.possible and r.target_number == target_number
    else:
        r = shot(1, 2, b=board(13, t_0_m1=terrain))
        assert r.refusal is not None and r.refusal.code == "no_line_of_sight"


def test_elevated_hex_between_does_not_block_the_attack_seed_000_terrain_summary() -> None:
    """Seed 000 "Terrain Types Summary": "Elevated: Pass through" (R-BRD-4): a level-2 hex
    between two level-0 caskets neither blocks nor gives cover."""
    r = shot(1, 2, b=board(13, l_0_m1=2))
    assert r.possible and r.target_number == 5


def test_long_range_is_a_disadvantage_die_seed_000_v3_optional() -> None:
    """Seed 000 "v3.0 OPTIONAL: … Long range = Disadvantage (3d6 take lowest 2)" (R-HIT-6)."""
    r = shot(1, 8, options={"dice_pool_advantage": True})
    assert r.dice == DicePool(3, "lowest")
    assert r.target_number == 5
    assert [m.key for m in r.pool_sources] == ["range"]


# --- seed 001: to-hit table, complete example, odds, results ------------------------------------


@pytest.mark.parametrize(
    ("row", "kwargs", "key", "value"),
    [
        ("Short range (0-3 hexes)", {"distance": 3}, "range", 0),
        ("Medium range (4-6 hexes)", {"distance": 4}, "range", 1),
        ("Long range (7-10 hexes)", {"distance": 10}, "range", 2),
        ("Extreme range (11+ hexes)", {"distance": 11}, "range", 3),
        ("Attacker stationary", {"moved": 0}, "attacker_movement", 0),
        ("Attacker moved 1-3 hexes", {"moved": 3}, "attacker_movement", 1),
        ("Attacker moved 4-6 hexes", {"moved": 4}, "attacker_movement", 2),
        ("Attacker sprinted (7+ hexes)", {"moved": 7}, "attacker_movement", 3),
        ("Defender stationary", {"moved_last_turn": 0}, "defender_movement", 0),
        ("Defender moved 1-3 hexes", {"moved_last_turn": 1}, "defender_movement", 1),
        ("Defender moved 4-6 hexes", {"moved_last_turn": 6}, "defender_movement", 2),
        ("Defender sprinted (7+ hexes)", {"moved_last_turn": 8}, "defender_movement", 3),
        ("Front arc (hex 1)", {"side": 1}, "side", 0),
        ("Weapon-side (hex 2)", {"side": 2}, "side", 0),
        ("Flanks (hex 3, 5)", {"side": 3}, "side", -1),
        ("Flanks (hex 3, 5)", {"side": 5}, "side", -1),
        ("Rear (hex 4)", {"side": 4}, "side", -2),
        ("Shield-side (hex 6)", {"side": 6}, "side", 1),
        ("Open ground", {}, "cover", 0),
        ("Light cover", {"b": board(13, t_0_0="rubble")}, "cover", 1),
        ("Heavy cover", {"b": board(13, t_0_0="fortification")}, "cover", 2),
        ("Obscured", {"target_statuses": frozenset({"obscured"})}, "obscured", 2),
        ("Elevated (attacker higher)", {"b": board(13, l_0_m2=1)}, "elevation", -1),
    ],
)
def test_complete_modifier_table_seed_001_section_3(
    row: str, kwargs: dict[str, Any], key: str, value: int
) -> None:
    """Seed 001 "Complete Modifier Table", row by row, as lines of the to-hit answer (R-HIT-1,
    R-RNG-1, R-HIT-2, R-ARC-2, R-COV-2, R-COV-4, R-ELV-1)."""
    r = shot(**kwargs)
    assert keyed(r).get(key, 0) == value, row
    assert r.target_number == 5 + value, row


def test_complete_to_hit_example_needs_11_and_is_refused_seed_001_r_hit_2_r_hit_3() -> None:
    """Seed 001 "Complete To-Hit Calculation Example": Scout shoots the Dwarven Heavy at 5
    hexes (medium), Scout moved 4, Dwarf moved 2, the Dwarf's shield side (hex 6), Dwarf
    behind rubble. The seed adds +1 for "moved 4 hexes" and gets 10+; its own table (and
    R-HIT-2) says 4-6 hexes is +2, so the shot needs 11+, which R-HIT-3 refuses before any
    SP or card is spent. On hexes: the north-facing Dwarf at [0,0], the Scout 5 hexes NW
    (side 6) facing it, rubble at [-1,0] between them next to the Dwarf. The pistol's range
    is not given; a range-6 card is assumed so that the distance is not what refuses it."""
    r = to_hit(
        board(6, t_m1_0="rubble"),
        Attacker(Hex(-5, 0), 3, moved=4),
        Target(T, 1, "left", moved_last_turn=2),
        Weapon(parse_range("6"), 3),
    )
    assert [(m.key, m.value, m.rule) for m in r.modifiers] == [
        ("base", 5, "R-HIT-1"),
        ("range", 1, "R-RNG-1"),
        ("attacker_movement", 2, "R-HIT-2"),  # the seed says +1
        ("defender_movement", 1, "R-HIT-2"),
        ("side", 1, "R-ARC-2"),
        ("cover", 1, "R-COV-1"),
    ]
    assert r.target_number == 11  # the seed says 10+
    assert r.refusal is not None
    assert (r.refusal.code, r.refusal.rule) == ("impossible_target", "R-HIT-3")
    assert r.odds is None and not r.possible


@pytest.mark.parametrize(
    ("kwargs", "target_number", "hit", "seed_percent"),
    [
        ({"distance": 2}, 5, Fraction(7, 12), "72.22%"),
        ({"distance": 5}, 6, Fraction(5, 12), "58.33%"),
        ({"distance": 8}, 7, Fraction(5, 18), "41.67%"),
        ({"distance": 8, "moved_last_turn": 1}, 8, Fraction(1, 6), "27.78%"),
        ({"distance": 8, "moved_last_turn": 4}, 9, Fraction(1, 12), "13.89%"),
        ({"distance": 8, "moved_last_turn": 7}, 10, Fraction(1, 36), None),  # seed: 2.78%, right
    ],
)
def test_hit_chances_by_target_number_are_exact_not_seed_001_table_r_hit_5(
    kwargs: dict[str, Any], target_number: int, hit: Fraction, seed_percent: str | None
) -> None:
    """Seed 001 "Hit Chances by Target Number" prints "5+: 72.22%", the ordinary 2d6 table,
    wrong for dice valued 1-5 and JAM 0 (R-HIT-5): 5+ is 21/36 = 7/12. (Each printed figure
    is in fact the true chance of the next lower target number up to 8+; only "10+: 2.78%",
    EXECUTION alone, is right.) The to-hit answer
    gives the exact fractions; test_dice.py checks the same table from `odds` directly."""
    r = shot(1, **kwargs)
    assert r.target_number == target_number and r.odds is not None
    assert r.odds.hit == hit
    shown = r.odds.as_dict()
    assert shown["hit"] == f"{hit.numerator}/{hit.denominator}"
    if seed_percent is None:
        assert shown["hit_float"] == 0.0278
    else:
        assert shown["hit_float"] != float(seed_percent.rstrip("%")) / 100


def test_hit_result_table_damage_seed_001() -> None:
    """Seed 001 "Hit Result Table": Hit standard damage, Strong Hit +1, Critical Hit +2,
    EXECUTION "still deal standard damage" (R-DMG-1); a roll grades the result (R-HIT-4)."""
    r = shot(1, 2, damage=3)
    by = {g: r.damage_for(g) for g in ("hit", "strong", "critical", "execution")}
    assert by == {"hit": 3, "strong": 4, "critical": 5, "execution": 3}
    for faces, grade in (([3, 2], "hit"), ([4, 4], "strong"), ([5, 4], "critical"),
                         ([5, 5], "execution"), ([1, 3], "miss"), ([6, 6], "catastrophic")):  # fmt: skip
        assert attack_result(faces, r.target_number or 0).grade == grade, faces


def test_catastrophic_failure_next_attack_minus_2_damage_seed_001() -> None:
    """Seed 001 "CATASTROPHIC FAILURE": "Next attack this turn or next turn: -2 damage"
    (R-DMG-1), carried by the attacker status weapon_jammed; the to-hit is unchanged."""
    jammed = shot(1, 2, damage=3, statuses=frozenset({"weapon_jammed"}))
    assert jammed.target_number == 5
    assert [(m.key, m.value) for m in jammed.damage_modifiers] == [("catastrophic_failure", -2)]
    assert jammed.damage == 1
    assert shot(1, 2, damage=1, statuses=frozenset({"weapon_jammed"})).damage == 0


# --- seed 002: example turn ---------------------------------------------------------------------


def test_example_turn_faithful_thrust_needs_7_and_strong_hit_deals_8_seed_002() -> None:
    """Seed 002 "Example Turn Sequence", action 4: "To-Hit: Base 5+ | Moved 3 hexes +1 |
    Medium range (5 hexes) +1 = Need 7+"; the roll STRIKE (3) + DEATH BLOW (5) = 8 is a
    Strong Hit (+1 damage); "Final damage: 4 base + 3 (Blood Offering) + 1 (Strong Hit) = 8".
    The example names no defender movement, side, cover or elevation: the enemy stood still
    and is attacked from its front on open level ground. Seed 000 gives Faithful Thrust
    "Range: Melee", yet the example strikes at 5 hexes; a 1-6 card is assumed to reproduce
    the example's numbers."""
    blood_offering = Modifier("card", 3, "Blood Offering", "card:blood-offering")
    r = to_hit(
        board(6),
        Attacker(Hex(0, -5), 4, moved=3),
        Target(T, 1),
        Weapon(parse_range("1-6"), 4, "Faithful Thrust"),
        extra_damage=[blood_offering],
    )
    assert [(m.key, m.value) for m in r.modifiers] == [
        ("base", 5),
        ("range", 1),
        ("attacker_movement", 1),
    ]
    assert r.target_number == 7 and r.possible
    roll = attack_result([3, 5], r.target_number)
    assert (roll.total, roll.hit, roll.grade) == (8, True, "strong")
    assert r.damage_for(roll.grade) == 8
