"""Scenarios for the catalogue entries of issue 17's move group: forced movement (push,
pull, knockback, R-ADD-100, R-ADD-101), teleports (R-ADD-102), moves that ignore terrain
and leaps (R-ADD-103), moves an attack card makes before its attack (R-ADD-104) and leap
ranges (R-ADD-105). Each is played through decide/evolve with the helpers of
test_card_catalogue.py and checks what the card's printed text promises (quoted).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Any

import pytest

from battles.engine.battle.events import (
    AttackDeclared,
    CasketMoved,
    CasketPushed,
    CasketTeleported,
    EffectRolled,
    PromptOpened,
    TaintChanged,
)
from battles.engine.cards import (
    GrantMoveEffect,
    MoveEffect,
    PushEffect,
    TeleportEffect,
    card_from_dict,
    effect_from_dict,
)
from battles.engine.errors import InvalidInput
from battles.engine.hexes import Hex
from battles.engine.movement import forced_path, push_direction
from battles.engine.tohit import MAX_DAMAGE

from .battle_builder import CARDS, FILLER, Battle, board, deck, of_type, one, seat, start
from .test_card_catalogue import (
    AUTOMATED,
    MAUL,
    Attack,
    CardDef,
    attack,
    autoplayed,
    battle,
    built,
    check_attack,
    declared,
    hit,
    play,
    random_decks,
    resolve_hit,
    run_scenario,
    tokens,
)

MOVE_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}
ITEMS = "equipment_items"


def _field(
    mine: Sequence[CardDef],
    theirs: Sequence[CardDef] = (),
    *,
    at0: tuple[int, int] = (0, 3),
    at1: tuple[int, int] = (0, 2),
    terrain: Sequence[tuple[int, int, str]] = (),
    others: Sequence[tuple[int, int]] = (),
    version: str = "2.1",
) -> Battle:
    """Seat 0 at `at0` facing N holds `mine`, seat 1 at `at1` facing S holds the test Maul
    and `theirs`; `others` are further seats of seat 1's side; radius 8 with `terrain`.
    Seat 0 acts first."""
    cards = {c.id: c.as_dict() for c in (*mine, *theirs)}
    rows0 = deck(**{c.id: 2 for c in mine})
    rows1 = deck(**{"test-maul": 2, **{c.id: 2 for c in theirs}})
    seats = [
        {**seat(0, at=at0, facing=1), "deck": rows0},
        {**seat(1, at=at1, facing=4), "deck": rows1},
        *({**seat(2 + i, at=at, facing=4, side="side1"), "deck": deck()}
          for i, at in enumerate(others)),
    ]  # fmt: skip
    yard = board(*terrain, radius=8)
    if any(kind == "lava" for _, _, kind in terrain):
        yard["terrain_kinds"] = {"lava": {}}  # a scenario's own kind (R-BRD-3)
    doc = {
        "name": "Move yard", "board": yard,
        "rules": {"version": version, "options": {}}, "dice": {"mode": "table"},
        "policy": "prompt", "cards": [CARDS[FILLER], MAUL, *cards.values()], "seats": seats,
    }  # fmt: skip
    hand0 = [c.id for c in mine]
    hand1 = ["test-maul", *(c.id for c in theirs)]
    hands = [hand0 + [FILLER] * (6 - len(hand0)), hand1 + [FILLER] * (6 - len(hand1))]
    hands += [[FILLER] * 6] * len(others)
    return start(doc, hands, initiative=(6, *range(1, len(seats))))


def _at(b: Battle, n: int) -> tuple[int, int]:
    return (b.seat(n).at.q, b.seat(n).at.r)


def _relocate(b: Battle, n: int, at: tuple[int, int]) -> None:
    b.do({"type": "relocate", "seat": n, "at": list(at), "facing": b.seat(n).facing,
          "reason": "arranged"})  # fmt: skip


# --- R-ADD-100: push, pull, knockback ---------------------------------------------------------


def _push_on_hit(
    section: str, cid: str, damage: int, hexes: int, *, toward: bool = False, ignore: int = 0
) -> Battle:
    """A hit moves the target `hexes` along the line from the attacker (toward it: a pull,
    never past adjacent); a miss moves nothing (R-ADD-100)."""
    card = built(section, cid)
    assert card.range is not None
    reach = card.range.high
    check_attack(section, cid, Attack(reach, damage, ignore))
    missed = battle(card, gap=card.range.low)
    attack(missed, card)  # faces 1, 1: a miss
    assert not of_type(missed.events, CasketPushed) and _at(missed, 1) == (0, 3 - card.range.low)
    # Pushed: straight north, away from the attacker at [0, 3]. Pulled: south, toward it,
    # from as far as the range and the pull allow, so every hex of the pull is taken.
    gap = card.range.low if not toward else max(card.range.low, min(reach, hexes + 1))
    b = battle(card, gap=gap, version="2.1")
    events = resolve_hit(b, card, damage, kill=False, roll=(5, 1))
    pushed = one(events, CasketPushed)
    step = 1 if toward else -1
    moved = min(hexes, gap - 1) if toward else hexes
    path = tuple((0, 3 - gap + step * k) for k in range(1, moved + 1))
    assert (pushed.seat, pushed.by, pushed.source, pushed.path) == (1, 0, cid, path)
    assert _at(b, 1) == (path[-1] if path else (0, 3 - gap))
    assert b.seat(1).moved == 0 and b.seat(0).at == Hex(0, 3)  # no move of its own (R-HIT-2)
    if not toward:  # the board's edge stops it at once: no damage, no move (R-ADD-100)
        edge = battle(card, gap=card.range.low, version="2.1")
        _relocate(edge, 1, (0, -8))
        _relocate(edge, 0, (0, -8 + card.range.low))
        events = resolve_hit(edge, card, damage, kill=False, roll=(5, 1))
        assert one(events, CasketPushed).path == () and _at(edge, 1) == (0, -8)
    return b


def _pushes(section: str, cid: str, damage: int, hexes: int, **kw: Any) -> Callable[[], object]:
    return lambda: _push_on_hit(section, cid, damage, hexes, **kw)


MOVE_SCENARIOS.update({
    # "2 damage, push 1 hex."
    ("equipment", "shield-bash"): _pushes("equipment", "shield-bash", 2, 1),
    # "4 damage, push 2 hexes."
    ("equipment", "shield-slam"): _pushes("equipment", "shield-slam", 4, 2),
    # "Deal 2 damage, pull enemy 1 hex toward you": in melee it is already adjacent.
    (ITEMS, "hand-axe-hook"): _pushes(ITEMS, "hand-axe-hook", 2, 1, toward=True),
    # "Deal 1 damage, push 1 hex"
    (ITEMS, "greatsword-pommel-bash"): _pushes(ITEMS, "greatsword-pommel-bash", 1, 1),
    # "Deal 3 damage, pull enemy 2 hexes toward you"
    (ITEMS, "halberd-hook"): _pushes(ITEMS, "halberd-hook", 3, 2, toward=True),
    # "Deal 2 damage, push 1 hex"
    (ITEMS, "buckler-shield-shield-bash"): _pushes(ITEMS, "buckler-shield-shield-bash", 2, 1),
    # "Deal 5 damage, pull target 2 hexes toward you"
    (ITEMS, "staff-of-the-grave-death-s-grasp"):
        _pushes(ITEMS, "staff-of-the-grave-death-s-grasp", 5, 2, toward=True),
})  # fmt: skip


def _cinder_blast() -> None:
    """ "Deal 4 damage, push target 1 hex, gain 1 Heat": Ranged 3-6."""
    b = _push_on_hit(ITEMS, "inferno-staff-cinder-blast", 4, 1)
    assert b.seat(0).heat == 1


def _shadow_tendrils() -> None:
    """ "Deal 3 damage, pull target 2 hexes toward you, target loses 1 SP next turn"."""
    b = _push_on_hit(ITEMS, "abyssal-staff-shadow-tendrils", 3, 2, toward=True)
    assert b.seat(1).sp_penalty == 1


def test_a_pull_stops_adjacent_to_the_puller() -> None:
    """A pull from 2 hexes away ends adjacent: it never passes the puller (R-ADD-100)."""
    card = built(ITEMS, "staff-of-the-grave-death-s-grasp")
    b = battle(card, gap=2, version="2.1")
    assert one(resolve_hit(b, card, 5, kill=False, roll=(5, 1)), CasketPushed).path == ((0, 2),)


def _knockback_with_forge(section: str, cid: str, damage: int, ignore: int) -> None:
    """ "Deal N damage. Ignore armor / Bypass 1 Defense. If you have 2+ Forge tokens,
    knockback target 1 hex.": the tokens are read as the hit is known (R-ADD-100)."""
    card = built(section, cid)
    check_attack(section, cid, Attack(1, damage, ignore))
    for forge, path in ((1, ()), (2, ((0, 1),))):
        b = battle(card, version="2.1")
        tokens(b, "forge", forge)
        events = resolve_hit(b, card, damage, kill=False, roll=(5, 1))
        assert tuple(e.path for e in of_type(events, CasketPushed)) == ((path,) if path else ())
        assert _at(b, 1) == (path[-1] if path else (0, 2))


def _chain_whip_grapple() -> None:
    """ "Pull enemy 2 hexes toward you": no attack, no damage; the enemy the command names
    within Ranged 1-3 (R-ADD-100, R-ADD-65)."""
    card = built(ITEMS, "chain-whip-grapple")
    b = battle(card, gap=3)
    hp = b.seat(1).hp
    pushed = one(play(b, "chain-whip-grapple", target=1), CasketPushed)
    assert (pushed.path, _at(b, 1), b.seat(1).hp) == (((0, 1), (0, 2)), (0, 2), hp)
    far = battle(card, gap=4)
    err = far.refuse({"type": "play_card", "seat": 0, "card": "chain-whip-grapple#1", "target": 1})
    assert (err.code, err.rule) == ("out_of_range", "R-RNG-2")
    err = far.refuse({"type": "play_card", "seat": 0, "card": "chain-whip-grapple#1"})
    assert (err.code, err.rule) == ("target_required", "R-RNG-2")


def _anchor_point() -> None:
    """ "Cannot be pushed or pulled until your next turn. +1 Defense.": an enemy's Shield
    Bash hits and moves it nowhere (R-ADD-101); like every status it lapses when the
    casket's next turn starts (R-ADD-17)."""
    anchor = built(ITEMS, "grappling-hook-anchor-point")
    bash = built("equipment", "shield-bash")
    for anchored in (True, False):
        b = _field([anchor], [bash])
        if anchored:
            play(b, "grappling-hook-anchor-point")
            assert "anchored" in b.seat(0).statuses and b.seat(0).defence_bonus == 1
        b.do({"type": "pass", "seat": 0, "drawn": [FILLER] if anchored else []})
        events = b.do({"type": "attack", "seat": 1, "card": "shield-bash#1", "target": 0,
                       "component": "chassis", "faces": [5, 1, 4, 4]})  # fmt: skip
        # +1 Defense: one of the 2 damage is blocked (R-ADD-64).
        taken = 1 if anchored else 2
        events += b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": taken,
                        "drawn": [FILLER] * taken})  # fmt: skip
        pushed = one(events, CasketPushed)
        assert pushed.path == (() if anchored else ((0, 4),)), anchored


MOVE_SCENARIOS.update({
    (ITEMS, "inferno-staff-cinder-blast"): _cinder_blast,
    (ITEMS, "abyssal-staff-shadow-tendrils"): _shadow_tendrils,
    ("equipment", "molten-hammer"):
        lambda: _knockback_with_forge("equipment", "molten-hammer", 7, MAX_DAMAGE),
    (ITEMS, "molten-hammer"): lambda: _knockback_with_forge(ITEMS, "molten-hammer", 4, 1),
    (ITEMS, "chain-whip-grapple"): _chain_whip_grapple,
    (ITEMS, "grappling-hook-anchor-point"): _anchor_point,
})  # fmt: skip


def _pull_enemy() -> None:
    """ "Pull target enemy up to 3 hexes toward you. If they end adjacent, deal 2 damage.":
    Ranged 2-5, no attack; the damage only when the pull ends next to the puller
    (R-ADD-100, R-DMG-6)."""
    cid = "grappling-hook-pull-enemy"
    card = built(ITEMS, cid)
    body = {"type": "play_card", "seat": 0, "card": f"{cid}#1", "target": 1}
    b = battle(card, gap=4, version="2.1")
    hp = b.seat(1).hp
    events = b.do(body)
    assert one(events, CasketPushed).path == ((0, 0), (0, 1), (0, 2))
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", 2)
    b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 2, "drawn": [FILLER] * 2})
    assert b.seat(1).hp == hp - 2
    far = battle(card, gap=5, version="2.1")  # 3 hexes nearer is still 2 away
    events = far.do(body)
    assert _at(far, 1) == (0, 1) and not of_type(events, PromptOpened)
    assert battle(card).refuse({**body, "target": 0}).code == "not_an_enemy"
    near = battle(card, gap=1)
    assert near.refuse(body).code == "out_of_range"  # Ranged 2-5


MOVE_SCENARIOS.update({(ITEMS, "grappling-hook-pull-enemy"): _pull_enemy})


# --- R-ADD-102: teleports -----------------------------------------------------------------------


def _teleport(cid: str, hexes: int, taint: int) -> None:
    """ "Teleport up to N hexes[, ignore terrain], gain 1 Taint": to an empty hex within N
    whatever lies between (a wall here), the distance counting as moved (R-ADD-102)."""
    card = built(ITEMS, cid)
    wall = [(0, 2, "wall"), (1, 2, "wall"), (-1, 3, "wall")]
    b = _field([card], at1=(1, 3 - hexes), terrain=wall)
    body = {"type": "play_card", "seat": 0, "card": f"{cid}#1"}
    for to, code in (([1, 3 - hexes], "occupied_destination"),
                     ([0, 2 - hexes], "too_far"), ([0, 2], "impassable"),
                     ([0, 3], "returns_to_start")):  # fmt: skip
        err = b.refuse({**body, "path": [to]})
        assert (err.code, err.rule) == (code, "R-ADD-102"), to
    err = b.refuse(body)
    assert (err.code, err.rule) == ("destination_required", "R-ADD-102")
    events = b.do({**body, "path": [[0, 3 - hexes]]})
    assert one(events, CasketTeleported) == CasketTeleported(0, (0, 3 - hexes), hexes, cid)
    assert (_at(b, 0), b.seat(0).moved, b.seat(0).sp_spent) == ((0, 3 - hexes), hexes, card.sp_cost)
    assert one(events, TaintChanged).amount == taint == b.seat(0).taint


def _sylvan_step() -> None:
    """ "Teleport up to 4 hexes. Must end in or adjacent to terrain. Once per turn. The
    forest guides you.": next to the forest, not in the open; one play a turn (R-ADD-63)."""
    card = built("elves", "sylvan-step")
    b = _field([card, card], at1=(0, -5), terrain=[(4, -1, "forest")])
    body = {"type": "play_card", "seat": 0, "card": "sylvan-step#1"}
    err = b.refuse({**body, "path": [[0, 0]]})
    assert (err.code, err.rule) == ("not_near_terrain", "R-ADD-102")
    err = b.refuse({**body, "path": [[4, -2]]})  # next to the forest, but 5 hexes away
    assert err.code == "too_far"
    one(b.do({**body, "path": [[3, -1]]}), CasketTeleported)  # 4 away, next to [4, -1]
    assert _at(b, 0) == (3, -1)
    err = b.refuse({**body, "card": "sylvan-step#2", "path": [[4, -1]]})
    assert (err.code, err.rule) == ("use_limit_reached", "R-ADD-63")


MOVE_SCENARIOS.update({
    (ITEMS, "shadow-catalyst-shadow-step"): lambda: _teleport("shadow-catalyst-shadow-step", 2, 1),
    (ITEMS, "void-grimoire-phase-shift"): lambda: _teleport("void-grimoire-phase-shift", 3, 1),
    ("elves", "sylvan-step"): _sylvan_step,
})  # fmt: skip


# --- R-ADD-103: moves that ignore terrain ---------------------------------------------------------


def _ignoring_terrain(section: str, cid: str, hexes: int, *, line: bool, enemies: bool) -> None:
    """A card move over a wall at no step cost and without sight of the destination; never
    ending on the wall; through an enemy only when the text ignores enemies (R-ADD-103)."""
    card = built(section, cid)
    wall = [(0, 2, "wall"), (1, 1, "wall"), (-1, 2, "wall")]
    b = _field([card], at1=(3, 0), terrain=wall)
    body = {"type": "play_card", "seat": 0, "card": f"{cid}#1"}
    up = [[0, 3 - k] for k in range(1, hexes + 2)]
    err = b.refuse({**body, "path": up[:1]})
    assert (err.code, err.rule) == ("impassable", "R-ADD-103")
    err = b.refuse({**body, "path": up})
    assert (err.code, err.rule) == ("path_too_long", "R-ADD-25")
    if line:
        err = b.refuse({**body, "path": [[0, 2], [1, 1], [1, 0]]})
        assert (err.code, err.rule) == ("not_a_straight_line", "R-ADD-63")
    moved = one(b.do({**body, "path": up[:hexes]}), CasketMoved)
    assert (moved.cost, moved.by_card, _at(b, 0), b.seat(0).sp_spent) == (
        0, cid, tuple(up[hexes - 1]), card.sp_cost)  # fmt: skip
    # An enemy in the way: [0, 1] on the straight line north.
    b = _field([card], at1=(0, 1), terrain=wall)
    path = {**body, "path": up[:hexes]}
    if enemies:
        b.do(path)
        assert _at(b, 0) == tuple(up[hexes - 1])
    else:
        assert b.refuse(path).code == "enemy_in_path"


MOVE_SCENARIOS.update({
    # "Move 3 hexes ignoring terrain."
    ("equipment", "grappling-hook"):
        lambda: _ignoring_terrain("equipment", "grappling-hook", 3, line=False, enemies=False),
    # "Move up to 3 hexes in straight line, ignoring all terrain and obstacles. Cannot move
    # through enemies."
    ("nomads", "grappling-hook"):
        lambda: _ignoring_terrain("nomads", "grappling-hook", 3, line=True, enemies=False),
    # "Move up to 5 hexes in straight line to target hex, ignore terrain and enemies."
    (ITEMS, "grappling-hook-hook-shot"):
        lambda: _ignoring_terrain(ITEMS, "grappling-hook-hook-shot", 5, line=True, enemies=True),
})  # fmt: skip


# --- R-ADD-104: a move before the attack ----------------------------------------------------------


def _attack_body(cid: str, path: list[list[int]], faces: list[int]) -> dict[str, Any]:
    return {"type": "attack", "seat": 0, "card": f"{cid}#1", "target": 1, "component": "chassis",
            "path": path, "faces": faces}  # fmt: skip


def _shield_charge() -> None:
    """ "Move 2 hexes, deal 3 damage, push 1 hex": the card's move, then the attack from
    where it stands, then the push on a hit (R-ADD-104, R-ADD-100)."""
    cid = "kite-shield-shield-charge"
    card = built(ITEMS, cid)
    b = _field([card], at1=(0, 0))
    err = b.refuse({"type": "attack", "seat": 0, "card": f"{cid}#1", "target": 1})
    assert err.code == "out_of_range"  # 3 hexes away, no move
    err = b.refuse(_attack_body(cid, [[0, 2], [0, 1], [1, 0]], [5, 1]))
    assert (err.code, err.rule) == ("path_too_long", "R-ADD-25")
    err = b.refuse(_attack_body(cid, [[0, 2]], [5, 1]))  # still 2 away: refused whole
    assert err.code == "out_of_range" and _at(b, 0) == (0, 3)
    events = b.do(_attack_body(cid, [[0, 2], [0, 1]], [5, 1, 4, 4, 4]))
    moved = one(events, CasketMoved)
    assert (moved.path, moved.cost, moved.by_card) == (((0, 2), (0, 1)), 0, cid)
    assert hit(one(events, AttackDeclared)) == 3 and b.seat(0).sp_spent == card.sp_cost
    events = b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 3,
                   "drawn": [FILLER] * 3})  # fmt: skip
    assert one(events, CasketPushed).path == ((0, -1),)


def _dash_strike() -> None:
    """ "Move up to 2 hexes, then attack for 3 damage. If you moved before attacking, +1
    damage (total 4).": the condition reads the state after the move (R-ADD-104)."""
    cid = "nomads-dash-strike"
    card = built(ITEMS, cid)
    assert hit(declared(_field([card]), card)) == 3
    b = _field([card], at1=(0, 1))
    assert hit(one(b.do(_attack_body(cid, [[0, 2]], [1, 1])), AttackDeclared)) == 4
    assert b.seat(0).moved == 1


def _alpha_pounce() -> None:
    """ "Move up to 3 hexes toward target, then deal 6 damage. Gain 1 Biomass.", range
    "3 hexes (leap)": a leap over a wall and a casket, each step nearer the target, then a
    melee strike (R-ADD-103, R-ADD-104)."""
    cid = "alpha-pounce"
    card = built(ITEMS, cid)
    assert card.range is not None and card.range.text == "Melee"
    b = _field([card], at1=(0, -1), terrain=[(0, 2, "wall")], others=[(0, 1)])
    err = b.refuse(_attack_body(cid, [[1, 2], [1, 1], [1, 0]], [1, 1]))
    assert (err.code, err.rule) == ("not_toward_target", "R-ADD-104")
    events = b.do(_attack_body(cid, [[0, 2], [0, 1], [0, 0]], [1, 1]))
    assert one(events, CasketMoved).path == ((0, 2), (0, 1), (0, 0))
    assert hit(one(events, AttackDeclared)) == 6 and b.seat(0).tokens_of("biomass") == 1


def _leaping_pounce() -> None:
    """ "Move up to 3 hexes in straight line toward target, then deal 4 damage. Predatory
    lunge.", range "3 hexes": a straight lunge, then a melee strike (R-ADD-104)."""
    cid = "leaping-pounce"
    card = built("vestige-bloodlines", cid)
    b = _field([card], at1=(0, -1))
    err = b.refuse(_attack_body(cid, [[0, 2], [1, 1], [1, 0]], [1, 1]))
    assert (err.code, err.rule) == ("not_a_straight_line", "R-ADD-63")
    err = b.refuse(_attack_body(cid, [[1, 2], [2, 1], [3, 0]], [1, 1]))  # straight, not toward
    assert (err.code, err.rule) == ("not_toward_target", "R-ADD-104")
    events = b.do(_attack_body(cid, [[0, 2], [0, 1], [0, 0]], [1, 1]))
    assert hit(one(events, AttackDeclared)) == 4 and _at(b, 0) == (0, 0)
    walled = _field([card], at1=(0, -1), terrain=[(0, 1, "wall")])
    err = walled.refuse(_attack_body(cid, [[0, 2], [0, 1], [0, 0]], [1, 1]))
    assert err.code == "impassable"  # an ordinary move: no leap


MOVE_SCENARIOS.update({
    (ITEMS, "kite-shield-shield-charge"): _shield_charge,
    (ITEMS, "nomads-dash-strike"): _dash_strike,
    (ITEMS, "alpha-pounce"): _alpha_pounce,
    ("vestige-bloodlines", "leaping-pounce"): _leaping_pounce,
})  # fmt: skip


# --- R-ADD-105: leap ranges ---------------------------------------------------------------------


def _moved_back(b: Battle) -> None:
    b.do({"type": "move", "seat": 0, "path": [[0, 4]]})  # 2 hexes from the target


def _predator_ambush() -> None:
    """ "Deal 4 damage. If you moved this turn, deal 5 damage instead.", "Range 2 (leap)"."""
    check_attack("equipment", "predator-ambush", Attack(2, 4))
    card = built("equipment", "predator-ambush")
    b = battle(card)
    _moved_back(b)
    assert hit(declared(b, card)) == 5


def _item_predator_ambush() -> None:
    """ "Deal 5 damage. Gain 1 Biomass if you moved this turn.", "Range 2 (leap)"."""
    check_attack(ITEMS, "predator-ambush", Attack(2, 5))
    card = built(ITEMS, "predator-ambush")
    for moved in (False, True):
        b = battle(card)
        if moved:
            _moved_back(b)
        attack(b, card)
        assert b.seat(0).tokens_of("biomass") == int(moved)


MOVE_SCENARIOS.update({
    ("equipment", "predator-ambush"): _predator_ambush,
    (ITEMS, "predator-ambush"): _item_predator_ambush,
})  # fmt: skip


# --- R-ADD-106: conditions on the card's own move ---------------------------------------------


def _lava_leap() -> None:
    """ "Move up to 3 hexes toward target (must end adjacent), then deal 4 damage. If you
    move through lava, deal 5 damage instead.", range "3 hexes": a melee strike after the
    move (R-ADD-104); the lava counts only on the card's own path (R-ADD-106)."""
    cid = "lava-leap"
    card = built("crucible", cid)
    lava = [(0, 2, "lava"), (1, 3, "lava")]
    # Both paths end at [1, 1], straight south of the target: the same side (R-ARC-1).
    for path, damage in (([[0, 2], [1, 1]], 5), ([[1, 2], [1, 1]], 4)):
        b = _field([card], at1=(1, 0), terrain=lava)
        events = b.do(_attack_body(cid, path, [1, 1]))
        assert hit(one(events, AttackDeclared)) == damage, path
    b = _field([card], at1=(1, 0), terrain=lava)
    b.do({"type": "move", "seat": 0, "path": [[1, 3]]})  # lava, but not the card's move
    b.do({"type": "move", "seat": 0, "path": [[0, 3]]})
    assert hit(one(b.do(_attack_body(cid, [[1, 2], [1, 1]], [1, 1])), AttackDeclared)) == 4
    err = _field([card], at1=(0, -1)).refuse(_attack_body(cid, [[0, 2], [0, 1]], [1, 1]))
    assert err.code == "out_of_range"  # it must end adjacent


def _equipment_alpha_pounce() -> None:
    """ "Move up to 3 hexes toward target, then deal 5 damage. Gain 2 Biomass if you moved
    3 hexes.", range "3 hexes (leap)": 2 Biomass only after a move of 3 (R-ADD-106)."""
    card = built("equipment", "alpha-pounce")
    for path, biomass in (([[0, 2], [0, 1], [0, 0]], 2), ([[0, 2], [0, 1]], 0)):
        b = _field([card], at1=(0, 3 - len(path) - 1), terrain=[(0, 2, "wall")])
        events = b.do(_attack_body("alpha-pounce", path, [1, 1]))
        assert hit(one(events, AttackDeclared)) == 5
        assert b.seat(0).tokens_of("biomass") == biomass, path


MOVE_SCENARIOS.update({
    ("crucible", "lava-leap"): _lava_leap,
    ("equipment", "alpha-pounce"): _equipment_alpha_pounce,
})  # fmt: skip


# --- R-ADD-107: a reactive dodge after the attack ---------------------------------------------


def _dodge(section: str, cid: str, hexes: int, reduce: int) -> None:
    """The defender names its dodge with the reactive card; the move is made once the
    attack has ended, at no SP; a PIERCE face voids it with the card (R-ADD-107)."""
    card = built(section, cid)
    away = [[0, 4], [0, 5], [0, 6]]
    for path, faces, moved in ((away[:hexes], [4, 4], True), ([], [4, 4], False),
                               (away[:hexes], [5, 4], False)):  # fmt: skip
        b = battle(card, first=1, version="2.1")
        b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
              "component": "chassis", "faces": [3, 2]})  # fmt: skip
        if path == away[:hexes] and moved:
            body = {"type": "play_reactive", "seat": 0, "card": f"{cid}#1", "faces": faces}
            err = b.refuse({**body, "path": away[: hexes + 1]})
            assert (err.code, err.rule) == ("path_too_long", "R-ADD-107")
            err = b.refuse({**body, "path": [[0, 2]]})  # the attacker's hex
            assert err.code == "enemy_in_path"
        answer = {"type": "play_reactive", "seat": 0, "card": f"{cid}#1", "faces": faces}
        events = b.do({**answer, "path": path} if path else answer)
        assert not of_type(events, CasketMoved) and _at(b, 0) == (0, 3)  # not before the end
        damage = 2 if faces[0] == 5 else max(1, 2 - reduce)  # PIERCE voids the reduction
        events = b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": damage,
                       "drawn": [FILLER] * damage})  # fmt: skip
        if moved:
            dodge = one(events, CasketMoved)
            assert (dodge.seat, dodge.cost, dodge.by_card) == (0, 0, cid)
            assert _at(b, 0) == tuple(path[-1]) and b.seat(0).sp_spent == 0
        else:
            assert not of_type(events, CasketMoved) and _at(b, 0) == (0, 3), (path, faces)


MOVE_SCENARIOS.update({
    # "When attacked, move up to 2 hexes immediately after attack resolves. Reactive dodge."
    ("elves", "leaf-cloak"): lambda: _dodge("elves", "leaf-cloak", 2, 0),
    # "Play when targeted by attack. Reduce damage by 1 (minimum 1). After damage resolves,
    # move 1 hex in any direction."
    ("nomads", "adaptive-armor"): lambda: _dodge("nomads", "adaptive-armor", 1, 1),
})  # fmt: skip


def test_a_pushed_defender_does_not_dodge() -> None:
    """R-ADD-107: Shield Bash pushes the dodging defender first; the dodge declared from
    its old hex is no longer a legal path, so it stays where the push left it."""
    cloak = built("elves", "leaf-cloak")
    bash = built("equipment", "shield-bash")
    b = _field([cloak], [bash])
    b.do({"type": "pass", "seat": 0})
    b.do({"type": "attack", "seat": 1, "card": "shield-bash#1", "target": 0,
          "component": "chassis", "faces": [5, 1]})  # fmt: skip
    b.do({"type": "play_reactive", "seat": 0, "card": "leaf-cloak#1", "faces": [4, 4],
          "path": [[1, 2], [2, 1]]})  # fmt: skip
    events = b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": 2,
                   "drawn": [FILLER] * 2})  # fmt: skip
    assert one(events, CasketPushed).path == ((0, 4),)
    assert not of_type(events, CasketMoved) and _at(b, 0) == (0, 4)


# --- R-ADD-108: a random teleport of the target ---------------------------------------------


def _void_prison() -> None:
    """ "Deal 2 damage, teleport target to random adjacent hex, target loses 1 SP": the
    die names the direction, a taken hex passes to the next clockwise (R-ADD-108)."""
    cid = "void-grimoire-void-prison"
    check_attack(ITEMS, cid, Attack(5, 2))
    card = built(ITEMS, cid)
    # Target at [0, 0]; face 3 is SE, [1, 0]; with a casket there, 4 (S) gives [0, 1].
    for others, to in (((), (1, 0)), (((1, 0),), (0, 1))):
        b = _field([card], at1=(0, 0), others=others)
        attack(b, card, faces=[5, 1, 4, 4])
        events = b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 2,
                       "drawn": [FILLER] * 2, "faces": [3]})  # fmt: skip
        rolled = one(events, EffectRolled)
        assert (rolled.faces, rolled.source, rolled.rule) == ((3,), cid, "R-ADD-108")
        pushed = one(events, CasketPushed)
        assert (pushed.path, pushed.rule, _at(b, 1)) == (((to),), "R-ADD-108", to)
        assert b.seat(1).sp_penalty == 1 and b.seat(1).moved == 0
    missed = _field([card], at1=(0, 0))
    attack(missed, card)  # a miss rolls no direction
    assert not of_type(missed.events, EffectRolled) and _at(missed, 1) == (0, 0)


MOVE_SCENARIOS.update({(ITEMS, "void-grimoire-void-prison"): _void_prison})


# --- R-ADD-109: a move split by an attack -----------------------------------------------------


def _leaf_dance() -> None:
    """ "Move up to 3 hexes. You may make 1 attack during this movement (at any point).
    After attacking, you may continue moving.": 3 free hexes, a part before an attack
    and the rest after it (R-ADD-109)."""
    card = built("elves", "leaf-dance")
    gun = card_from_dict(CARDS["gun"])
    b = _field([card, gun], at1=(0, -1))
    play(b, "leaf-dance")
    assert (b.seat(0).free_move, b.seat(0).free_move_split) == (3, True)
    spent = b.seat(0).sp_spent
    moved = one(b.do({"type": "move", "seat": 0, "path": [[0, 2]], "free": True}), CasketMoved)
    assert (moved.cost, moved.by_card, b.seat(0).free_move) == (0, "leaf-dance", 2)
    err = b.refuse({"type": "move", "seat": 0, "path": [[0, 1]], "free": True})
    assert (err.code, err.rule) == ("free_move_after_attack", "R-ADD-109")
    b.do({"type": "attack", "seat": 0, "card": "gun#1", "target": 1, "component": "chassis",
          "faces": [1, 1]})  # fmt: skip
    err = b.refuse({"type": "move", "seat": 0, "path": [[1, 1], [2, 0], [3, -1]], "free": True})
    assert err.code == "path_too_long"
    b.do({"type": "move", "seat": 0, "path": [[1, 1], [2, 0]], "free": True})
    assert _at(b, 0) == (2, 0) and b.seat(0).free_move == 0
    assert b.seat(0).sp_spent == spent + 1  # the gun's SP only
    # An attack first leaves the whole move for after it; then it is one part.
    b = _field([card, gun], at1=(0, -1))
    play(b, "leaf-dance")
    b.do({"type": "attack", "seat": 0, "card": "gun#1", "target": 1, "component": "chassis",
          "faces": [1, 1]})  # fmt: skip
    b.do({"type": "move", "seat": 0, "path": [[1, 2]], "free": True})
    assert b.seat(0).free_move == 0


MOVE_SCENARIOS.update({("elves", "leaf-dance"): _leaf_dance})


# --- the vocabulary ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ({"kind": "push", "hexes": 0}, "fx.hexes"),
        ({"kind": "push", "hexes": 1, "toward": "yes"}, "fx.toward"),
        ({"kind": "push", "hexes": 1, "adjacent_damage": -1}, "fx.adjacent_damage"),
        ({"kind": "grant_move", "hexes": 3, "split": "yes"}, "fx.split"),
        ({"kind": "push"}, "fx.hexes"),
        ({"kind": "teleport", "hexes": 21}, "fx.hexes"),
        ({"kind": "teleport", "hexes": 2, "near_terrain": 1}, "fx.near_terrain"),
        ({"kind": "move", "hexes": 2, "ignore_terrain": "x"}, "fx.ignore_terrain"),
        ({"kind": "move", "hexes": 2, "through_enemies": True}, "fx.through_enemies"),
        ({"kind": "move", "hexes": 2, "toward": 1}, "fx.toward"),
        ({"kind": "after_attack", "on": "hit", "then": [{"kind": "teleport", "hexes": 1}]},
         "fx.then[0]"),
        ({"kind": "attack_bonus", "damage": 1, "condition": {"test": "card_moved_through"}},
         "fx.condition.terrain"),
        ({"kind": "attack_bonus", "damage": 1, "condition": {"test": "card_moved_at_least"}},
         "fx.condition.n"),
    ],
)  # fmt: skip
def test_a_bad_move_group_field_is_named(doc: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        effect_from_dict(doc, "fx")
    assert err.value.field == field


def test_the_new_effects_round_trip() -> None:
    for effect in (PushEffect(1), PushEffect(3, toward=True), TeleportEffect(2),
                   MoveEffect(5, line=True, ignore_terrain=True, through_enemies=True),
                   GrantMoveEffect(3, split=True)):  # fmt: skip
        assert effect_from_dict(effect.as_dict()) == effect


def test_push_direction_follows_the_nearest_hex_line() -> None:
    """R-ADD-100: exact, and the lower direction on a 30° diagonal."""
    o = Hex(0, 0)
    assert [push_direction(o, o.neighbour(d)) for d in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert push_direction(o, Hex(2, -1)) == 2  # NE and SE tie
    assert push_direction(o, Hex(3, -1)) == 3  # nearer SE
    with pytest.raises(InvalidInput):
        push_direction(o, o)


def test_a_push_stops_at_a_casket_or_impassable_terrain() -> None:
    from battles.engine.board import parse_board

    b = parse_board(board((0, -3, "building"), radius=4))
    assert forced_path(b, Hex(0, 0), Hex(0, -1), 4) == (Hex(0, -2),)
    assert forced_path(b, Hex(0, 0), Hex(1, 0), 4, occupied=[Hex(3, 0)]) == (Hex(2, 0),)
    # Difficult terrain and levels do not slow it.
    b = parse_board(board((2, 0, "forest"), radius=4))
    assert forced_path(b, Hex(0, 0), Hex(1, 0), 2) == (Hex(2, 0), Hex(3, 0))


@pytest.mark.parametrize("key", sorted(MOVE_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_move_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, MOVE_SCENARIOS[key])


MOVE_KEYS = sorted(MOVE_SCENARIOS)


@pytest.mark.parametrize("seed", range(4))
def test_the_autoplayer_plays_the_move_cards_through_legal_actions(seed: int) -> None:
    """Decks of this group's cards on a board with walls and forest: the greedy player
    drives the battle through legal actions only (pushes, teleports, moves that ignore
    terrain, attacks with a move before them), and the events replay to its state."""
    rng = Random(seed)
    cards, rows = random_decks(rng, MOVE_KEYS, 12)
    terrain = [(0, 0, "forest"), (1, -1, "wall"), (-1, 1, "wall"), (2, 0, "rubble")]
    doc = {
        "name": "Move mix", "board": board(*terrain, radius=4),
        "rules": {"version": rng.choice(["2.0", "2.1"]), "options": {}},
        "dice": {"mode": "digital", "seed": seed, "seed_public": True},
        "policy": rng.choice(["auto", "prompt"]),
        "cards": [c.as_dict() for c in cards.values()],
        "seats": [
            {**seat(0, at=(0, 3), facing=1), "deck": rows[0]},
            {**seat(1, at=(0, -3), facing=4), "deck": rows[1]},
        ],
    }  # fmt: skip
    events = autoplayed(f"move-mix-{seed}", doc, seed=seed, commands=600)
    assert (
        of_type(events, CasketPushed)
        or of_type(events, CasketTeleported)
        or any(e.by_card for e in of_type(events, CasketMoved))
    )
