"""A simple greedy player that drives a battle through legal actions only.

It serves the demo battles (`load_demo`), the benchmarks and the tests that need a
battle played to its end. It never bypasses the rules: every command it sends is
one `legal_actions` listed and `decide` accepted, except an overspend paid with
cards from hand (legal_actions lists deck payment only), which `decide` checks first.

>>> from battles.engine.demo import demo_setup
>>> from battles.engine.battle.decide import create
>>> events = create("b", demo_setup(seed=2))
>>> more = play(events, commands=20, seed=2)
>>> len(more.events) > 0 and len(more.bodies) == 20
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import islice
from typing import Any

from ..arcs import in_firing_arc, rotation_cost
from ..dice import ATTACK_FACES, DicePool, attack_result
from ..errors import RuleViolation
from ..hexes import Hex
from .commands import parse_command
from .decide import attack_answer, decide
from .events import Event
from .evolve import evolve, replay
from .legal import LegalAction, legal_actions
from .stalemate import stalemate
from .state import BattleState, CasketState


@dataclass
class Played:
    """What `play` did: the command bodies sent, the events they caused, the final state."""

    bodies: list[dict[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    state: BattleState | None = None


def _expected(action: LegalAction) -> float:
    """The attack's expected damage: each result's damage weighted by the exact chance of
    that result and no better (the preview's odds are "at least" chances, R-HIT-5; the
    damage of each result, R-DMG-1). An attack that cannot hit scores 0.

    >>> a = LegalAction({"type": "attack"}, preview={
    ...     "odds": {"hit": "1/2", "strong_or_better": "1/4", "critical_or_better": "1/12",
    ...              "execution": "1/36"},
    ...     "damage": {"by_result": {"hit": 2, "strong": 3, "critical": 4, "execution": 4}}})
    >>> round(_expected(a), 4)  # 1/4 * 2 + 1/6 * 3 + 1/18 * 4 + 1/36 * 4
    1.3333
    """
    p = action.preview or {}
    odds = p.get("odds") or {}
    damage = (p.get("damage") or {}).get("by_result", {})
    at_least = [
        Fraction(str(odds.get(k, "0")))
        for k in ("hit", "strong_or_better", "critical_or_better", "execution")
    ]
    exactly = [a - b for a, b in zip(at_least, [*at_least[1:], Fraction(0)], strict=True)]
    grades = ("hit", "strong", "critical", "execution")
    return float(sum(p * int(damage.get(g, 0)) for p, g in zip(exactly, grades, strict=True)))


def _expected_damage(action: LegalAction) -> float:
    """The chance to hit times the damage of a hit (the preview's exact odds, R-HIT-5)."""
    p = action.preview or {}
    hit = float((p.get("odds") or {}).get("hit_float", 0.0))
    return hit * float((p.get("damage") or {}).get("by_result", {}).get("hit", 0))


def _spends(action: LegalAction) -> bool:
    return bool(action.body.get("spend"))


def _reroll(state: BattleState, seat: int) -> dict[str, Any]:
    """R-ADD-282: a roll that hits is kept; one that misses rolls again its lowest kept die."""
    a = state.attack
    offer = a.reroll if a is not None else None
    if offer is None:
        return {"type": "choose", "seat": seat, "option": "keep"}
    roll = attack_result(offer.faces, offer.target_number, DicePool(len(offer.faces), offer.keep))
    if roll.hit:
        return {"type": "choose", "seat": seat, "option": "keep"}
    worst = min(roll.kept_indices, key=lambda i: ATTACK_FACES[offer.faces[i]].value)
    return {"type": "choose", "seat": seat, "option": f"die_{worst + 1}"}


def choose(
    state: BattleState,
    actions: list[LegalAction],
    rng: random.Random,
    *,
    thrifty: bool = False,
    ranked: bool = False,
) -> dict[str, Any]:
    """The greedy choice, playing to win: answer prompts defensively, attack when it can,
    turn to bring the nearest enemy into the firing arc,
    close in to the reach of the weapons in hand, play a utility card now and then,
    otherwise pass. It never withdraws, and it never turns or steps without a purpose,
    so it cannot shuffle back and forth for hundreds of rounds.

    Of the attacks it may make, `ranked` takes the best expected damage (`_expected`; the
    server's bot, `choose_ranked`); unranked, the first listed (spending tokens when it
    may), which is what this player always did: its ranking read an odds key the preview
    never had, so every attack scored 0, and the seeded battles the demo data and the tests
    replay were played that way."""
    by_type: dict[str, list[LegalAction]] = {}
    for a in actions:
        by_type.setdefault(a.body["type"], []).append(a)
    rerolls = [a for a in by_type.get("choose", []) if a.body["option"].startswith("die_")]
    if rerolls:
        return _reroll(state, rerolls[0].body["seat"])
    kinds = ("play_reactive", "keep_hand", "take_damage", "discard_down", "arrange", "choose")
    for kind in kinds:
        if kind in by_type:
            # A card's token spend buys more (R-ADD-61): spend when it may.
            return max(by_type[kind], key=_spends).body
    # Playing every seat, the autoplayer is the GM too: it confirms a stalemate the engine
    # found and ends the battle in a draw (R-ADD-40, R-TRN-9).
    reason = stalemate(state)
    if reason is not None:
        return {"type": "end_battle", "side": None, "reason": reason}
    attacks = [a for a in by_type.get("attack", []) if "pay" not in a.body]
    if attacks:
        return max(attacks, key=lambda a: (_expected(a) if ranked else 0.0, _spends(a))).body
    unit_action = _unit_action(state, by_type)
    if unit_action is not None:
        return unit_action
    # Thrifty (decks built from the game's database, issue 17): a weapon dearer than the
    # casket's whole SP (a fortress's 4-SP swing) is never free, so it attacks paying the
    # rest in cards (R-TRN-3) when its expected damage repays them; otherwise a casket
    # holding only such weapons never attacks at all.
    dear = [
        a
        for a in by_type.get("attack", [])
        if thrifty
        and a.body.get("pay", {}).get("deck")
        and state.active is not None
        and state.card(a.body["card"]).sp_cost > state.seats[state.active].sp_max
        and _expected_damage(a) > a.body["pay"]["deck"]
    ]
    if dear:
        return max(dear, key=_expected_damage).body
    if state.active is None:
        return actions[0].body
    me = state.seats[state.active]
    enemies = [c for c in state.seats if c.side != me.side and c.in_battle]
    weapons = [x for x in me.hand if state.card(x).attack is not None and _usable(me, state, x)]
    if enemies:
        target = min(enemies, key=lambda c: me.at.distance(c.at))
        gap = me.at.distance(target.at)
        # Close to the reach of the longest-reaching weapon in hand (the shortest reach
        # of each; a hand without weapons closes in to 2 for the cards it will draw).
        reach = [state.card(x).attack for x in weapons]
        want = max((a.range.low for a in reach if a is not None), default=2)
        want = max(1, min(want, gap))
        moves = [a for a in by_type.get("move", []) if "pay" not in a.body]

        def after(a: LegalAction) -> int:
            return abs(Hex(*a.body["path"][-1]).distance(target.at) - want)

        better = [a for a in moves if after(a) < abs(gap - want)]
        if better:
            return min(better, key=lambda a: (after(a), len(a.body["path"]))).body
        opening = _move_opening_fire(state, me, weapons, target.seat, moves, thrifty)
        if opening is not None:
            return opening
        if weapons and not in_firing_arc(me.at, me.facing, target.at):
            turns = [
                a
                for a in by_type.get("rotate", [])
                if "pay" not in a.body and in_firing_arc(me.at, a.body["facing"], target.at)
            ]
            if turns:
                return turns[0].body
    # Manual cards too: a demo table resolves their text by hand.
    cards = [a for a in by_type.get("play_card", []) if "pay" not in a.body]
    if cards and rng.random() < 0.7:
        return rng.choice(cards).body
    if enemies and not weapons:
        cycle = _cycle_hand(state, me, by_type.get("rotate", []))
        if cycle is not None:
            return cycle
    for kind in ("pass", "no_reactive"):
        if kind in by_type:
            return by_type[kind][0].body
    return actions[0].body


def _unit_action(
    state: BattleState, by_type: dict[str, list[LegalAction]]
) -> dict[str, Any] | None:
    """Summoned units (R-ADD-401, R-ADD-404): a unit's attack when one is listed; else a
    unit's move that ends nearer the enemy casket nearest it, the nearest such; else an
    attack card on an enemy unit without overspending. Each unit moves and attacks once a
    turn, so this never loops.

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.decide import create
    >>> s = replay(create("b", demo_setup(seed=2)))
    >>> hit = LegalAction({"type": "unit_attack", "seat": 0, "unit": "u1", "target": 1})
    >>> _unit_action(s, {"unit_attack": [hit]})["type"], _unit_action(s, {})
    ('unit_attack', None)
    """
    if by_type.get("unit_attack"):
        return by_type["unit_attack"][0].body

    def gap(unit_id: str, at: Hex | None = None) -> int:
        """Hexes from `at` (the unit's own hex) to the nearest enemy casket of the unit's."""
        u = state.unit(unit_id)
        if u is None:
            return 0
        side = state.seats[u.owner].side
        where = at if at is not None else u.at
        foes = [c.at.distance(where) for c in state.seats if c.in_battle and c.side != side]
        return min(foes, default=0)

    moves = by_type.get("unit_move", [])
    closer = [
        a for a in moves if gap(a.body["unit"], Hex(*a.body["path"][-1])) < gap(a.body["unit"])
    ]
    if closer:
        return min(closer, key=lambda a: gap(a.body["unit"], Hex(*a.body["path"][-1]))).body
    strikes = [a for a in by_type.get("strike_unit", []) if "pay" not in a.body]
    return strikes[0].body if strikes else None


def _move_opening_fire(
    state: BattleState,
    me: CasketState,
    weapons: list[str],
    target: int,
    moves: list[LegalAction],
    thrifty: bool = False,
) -> dict[str, Any] | None:
    """With a weapon in hand that cannot fire from here (line of sight, arc, reach) and no
    step closer: the shortest move after which one can fire, so two caskets blocked by
    terrain at the same distance do not pass for ever. Thrifty, only a move that leaves
    the SP to pay for that attack."""
    if not weapons:
        return None
    for a in sorted(moves, key=lambda a: len(a.body["path"])):
        moved = state
        for event in decide(state, parse_command(a.body)):
            moved = evolve(moved, event)
        # Thrifty: the attack must still be paid from the SP left after the move, since the
        # autoplayer attacks without overspending; otherwise a fortress holding a weapon of
        # its whole SP steps round its target for ever (seen with the database's decks).
        left = moved.seats[me.seat].sp_left if thrifty else 99
        if any(
            attack_answer(moved, me.seat, moved.card(w), target).possible
            and moved.card(w).sp_cost <= left
            for w in set(weapons)
        ):
            return a.body
    return None


def choose_thrifty(
    state: BattleState, actions: list[LegalAction], rng: random.Random
) -> dict[str, Any]:
    """`choose`, thrifty: for decks built from the game's card database (issue 17), whose
    weapons may cost a casket's whole SP. The demo battles keep `choose` as it was.

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.decide import create
    >>> start = replay(create("b", demo_setup(seed=2)))
    >>> next(greedy_commands(start, chooser=choose_thrifty))[0] == choose(
    ...     start, list(legal_actions(start)), random.Random(0))
    True
    """
    return choose(state, actions, rng, thrifty=True)


def choose_ranked(
    state: BattleState, actions: list[LegalAction], rng: random.Random
) -> dict[str, Any]:
    """`choose`, attacking with the best expected damage (`ranked`): the server's bot.

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.decide import create
    >>> start = replay(create("b", demo_setup(seed=2)))
    >>> next(greedy_commands(start, chooser=choose_ranked))[2].version > start.version
    True
    """
    return choose(state, actions, rng, ranked=True)


def _usable(me: CasketState, state: BattleState, instance: str) -> bool:
    """Whether a card in hand can be played at all: the arms take their cards with them."""
    kind = state.card(instance).kind
    if kind == "primary_weapon":
        return "right_arm" not in me.destroyed
    if kind == "secondary":
        return "left_arm" not in me.destroyed
    return True


def _cycle_hand(
    state: BattleState, me: CasketState, rotations: list[LegalAction]
) -> dict[str, Any] | None:
    """A hand without a weapon it can use clogs: passing keeps six cards and draws none.
    Turn (spending the SP), then overspend paying with the dead cards from hand (R-TRN-3),
    so the draw phase brings new ones. None when nothing is dead or nothing is spendable."""
    dead = [x for x in me.hand if not _usable(me, state, x) or state.card(x).kind == "damage"]
    reactive = [x for x in me.hand if state.card(x).kind == "reactive"]
    dead += reactive[1:]  # one reactive card is kept for the enemy's attacks
    if not dead:
        return None
    for a in rotations:
        body = dict(a.body)
        cards = me.overspend_cards(_rotation_cost(me, body["facing"]))
        if cards > len(dead):
            continue
        body.pop("pay", None)
        if cards:
            body["pay"] = {"hand": dead[:cards], "deck": 0}
        try:
            decide(state, parse_command(body))
        except RuleViolation:
            continue
        return body
    return None


def _rotation_cost(me: CasketState, facing: int) -> int:
    return rotation_cost(me.facing, facing, not me.free_rotation_used)


def greedy_commands(
    state: BattleState,
    *,
    seed: int = 0,
    chooser: Callable[[BattleState, list[LegalAction], random.Random], dict[str, Any]] = choose,
) -> Iterator[tuple[dict[str, Any], list[Event], BattleState]]:
    """The autoplayer's commands one at a time until the battle is over: each command's
    body, the events `decide` gave it and the state after them.

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.decide import create
    >>> body, events, after = next(greedy_commands(replay(create("b", demo_setup(seed=2)))))
    >>> after.version == replay(create("b", demo_setup(seed=2))).version + len(events)
    True
    """
    rng = random.Random(seed)
    while not state.over:
        body = chooser(state, list(legal_actions(state)), rng)
        events = decide(state, parse_command(body))
        for event in events:
            state = evolve(state, event)
        yield body, events, state


def play(
    events: list[Event],
    *,
    commands: int,
    seed: int = 0,
    chooser: Callable[[BattleState, list[LegalAction], random.Random], dict[str, Any]] = choose,
) -> Played:
    """Send up to `commands` commands to the battle `events` describe, or until it is over."""
    start = replay(events)
    out = Played(state=start)
    for body, new, state in islice(greedy_commands(start, seed=seed, chooser=chooser), commands):
        out.bodies.append(body)
        out.events.extend(new)
        out.state = state
    return out
