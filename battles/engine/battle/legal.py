"""Legal actions: complete command bodies that the acting or prompted seat can send as they are.

Candidates are generated from the state and each is kept only if `decide` accepts
it, so the list never offers what the rules refuse. Where a choice is combinatorial
(which cards to discard, which path), a few representative bodies stand for it:
every body listed is legal, not every legal body is listed. Attacks carry the
rules engine's to-hit answer with its exact odds.

>>> from battles.engine.demo import demo_setup
>>> from battles.engine.battle.decide import create
>>> from battles.engine.battle.evolve import replay
>>> s = replay(create("b", demo_setup(seed=1)))
>>> {"move", "pass", "rotate"} <= {a.body["type"] for a in legal_actions(s)}
True
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..arcs import rotation_cost
from ..cards import (
    AllyDestroyedWindowEffect,
    AllyEffect,
    AllyMoveEffect,
    AreaAttackEffect,
    ArrangeTopEffect,
    AttackEffect,
    BonusAgainstEffect,
    CardDef,
    DiscardEffect,
    DiscardForEffect,
    DrawPenaltyEffect,
    DuelEffect,
    FollowUpEffect,
    ForceDefenceRerollEffect,
    HinderEffect,
    LethalWindowEffect,
    LookAtHandEffect,
    LowDeckWindowEffect,
    MarkEffect,
    MoveEffect,
    PushEffect,
    RootEffect,
    RotateEffect,
    ScavengeWreckEffect,
    SpendTaintEffect,
    SpendTokensEffect,
    StatusEffect,
    TakeDamageEffect,
    TeleportEffect,
    TerrainEffect,
    TokenCostEffect,
    UltimatumEffect,
    UnitOrderEffect,
)
from ..dice import DEFENCE_DICE
from ..errors import RuleViolation
from ..hexes import Hex, spiral
from ..movement import reachable, step_cost, teleport_problem
from .commands import parse_command
from .decide import attack_answer, attack_cost, decide
from .randomness import DiceSource, SeededDice
from .state import ACTION, BattleState, CasketState, card_id

MAX_MOVES = 24  # destinations listed per move kind; the nearest and the farthest first


@dataclass(frozen=True, slots=True)
class LegalAction:
    body: dict[str, Any]
    preview: dict[str, Any] | None = None
    # A move's SP cost along its path (R-MOV-3), so that nobody computes it a second time.
    sp_cost: int | None = None
    # The cards the body's overspend takes (R-TRN-3): paid from the deck's top as listed,
    # or by as many hand cards as the player picks instead; 0 when it does not overspend.
    overspend: int = 0
    # What the sender adds before the body is accepted, e.g. ("reason",) for the GM
    # accepting the withdrawal of a seat they do not play (R-TRN-9, R-ADD-24). The engine
    # lists none; the application, which knows who asks, marks them.
    needs: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The action as the API lists it.

        >>> LegalAction({"type": "withdraw", "seat": 1}, needs=("reason",)).as_dict()
        {'body': {'type': 'withdraw', 'seat': 1}, 'needs': ['reason']}
        >>> LegalAction({"type": "vent", "seat": 0, "pay": {"hand": [], "deck": 1}},
        ...             overspend=1).as_dict()["overspend"]
        1
        """
        out: dict[str, Any] = {"body": self.body}
        if self.preview is not None:
            out["to_hit"] = self.preview
        if self.sp_cost is not None:
            out["sp_cost"] = self.sp_cost
        if self.overspend:
            out["overspend"] = self.overspend
        if self.needs:
            out["needs"] = list(self.needs)
        return out


def _overspend(body: dict[str, Any]) -> int:
    """The cards a body's `pay` hands over for its overspend (R-TRN-3)."""
    pay = body.get("pay")
    return (len(pay.get("hand", ())) + int(pay.get("deck", 0))) if pay else 0


def _distinct(cards: Collection[str]) -> list[str]:
    seen: dict[str, str] = {}
    for c in cards:
        seen.setdefault(card_id(c), c)
    return list(seen.values())


def _prompt_candidates(
    state: BattleState, seat: int, kind: str, amount: int
) -> Iterator[dict[str, Any]]:
    c = state.seats[seat]
    if kind == "mulligan":
        yield {"type": "keep_hand", "seat": seat}
        yield {"type": "mulligan", "seat": seat}
    elif kind == "reactive":
        yield {"type": "no_reactive", "seat": seat}
        # R-ADD-122: and a cover waiting in play
        pledged = [x for x in c.in_play if state.card(x).pledge]
        for card in [*_distinct(c.hand), *pledged]:
            if state.card(card).kind == "reactive" or state.card(card).pledge:
                body = {"type": "play_reactive", "seat": seat, "card": card}
                yield from _spend_variants(state, c, instance=card, body=body)
                # R-ADD-107: a dodge after the attack, a few destinations.
                move = next(
                    (e for e in state.card(card).effects if isinstance(e, MoveEffect)), None
                )
                if move is not None:
                    for path, _ in _moves(state, c, move.hexes)[-2:]:
                        yield from _spend_variants(state, c, card, {**body, "path": path})
    elif kind == "take_damage":
        yield {"type": "take_damage", "seat": seat, "hand": [], "deck": amount}
        from_hand = list(c.hand[:amount])
        if from_hand:
            yield {
                "type": "take_damage",
                "seat": seat,
                "hand": from_hand,
                "deck": amount - len(from_hand),
            }
    elif kind == "ultimatum":  # R-ADD-159
        yield {"type": "choose", "seat": seat, "option": "damage"}
        yield {"type": "choose", "seat": seat, "option": "skip_turn"}
    elif kind == "temporal_loop":  # R-ADD-422: the enemy who takes the stored damage
        for target in state.loop_targets(seat):
            yield {"type": "choose", "seat": seat, "option": f"seat_{target}"}
    elif kind == "form":  # R-ADD-362
        for form in ("assault", "tank", "scout"):
            yield {"type": "choose", "seat": seat, "option": form}
    elif kind == "save":  # R-ADD-342: the newest hand cards, or the deck's top
        yield {"type": "choose", "seat": seat, "option": "skip_turn"}
        newest = list(c.hand[max(0, len(c.hand) - amount) :])
        yield {"type": "choose", "seat": seat, "option": "discard", "cards": newest}
        yield {"type": "choose", "seat": seat, "option": "discard", "cards": []}
    elif kind == "duel":  # R-ADD-174
        yield {"type": "choose", "seat": seat, "option": "accept"}
        yield {"type": "choose", "seat": seat, "option": "refuse"}
    elif kind == "ally_destroyed":  # R-ADD-283: a card answering an ally's destruction
        yield {"type": "no_reactive", "seat": seat}
        for card in _distinct(c.hand):
            if any(isinstance(e, AllyDestroyedWindowEffect) for e in state.card(card).effects):
                yield {"type": "play_reactive", "seat": seat, "card": card}
    elif kind == "lethal_damage":  # R-ADD-371: a card answering lethal damage
        yield {"type": "no_reactive", "seat": seat}
        for card in _distinct(c.hand):
            held = state.card(card)
            if any(isinstance(e, LethalWindowEffect) for e in held.effects) and (
                c.holds_required_spends(held)  # R-ADD-420: Price Paid needs its tokens
            ):
                yield {"type": "play_reactive", "seat": seat, "card": card}
    elif kind == "low_deck":  # R-ADD-370: a card answering the seat's own low deck
        yield {"type": "no_reactive", "seat": seat}
        for card in _distinct(c.hand):
            if any(isinstance(e, LowDeckWindowEffect) for e in state.card(card).effects):
                yield {"type": "play_reactive", "seat": seat, "card": card}
    elif kind == "defence_reroll":  # R-ADD-412: let the roll stand, or force blocking dice
        yield {"type": "no_reactive", "seat": seat}
        a = state.attack
        table = DEFENCE_DICE[str(state.ruleset.option("defense_die"))]
        faces = a.defence_faces if a is not None else ()
        blocking = [i + 1 for i, f in enumerate(faces) if table[f - 1].blocks]
        for card in _distinct(c.hand):
            most = max(
                (
                    x.dice
                    for e in state.card(card).effects
                    if isinstance(e, SpendTaintEffect)
                    for x in e.then
                    if isinstance(x, ForceDefenceRerollEffect)
                ),
                default=0,
            )
            for n in range(1, most + 1):
                for combo in itertools.combinations(blocking, n):
                    yield {"type": "play_reactive", "seat": seat, "card": card, "spend": True,
                           "dice": list(combo)}  # fmt: skip
    elif kind == "reroll":  # R-ADD-282: keep the roll, or roll one of its dice again
        yield {"type": "choose", "seat": seat, "option": "keep"}
        for k in range(1, amount + 1):
            yield {"type": "choose", "seat": seat, "option": f"die_{k}"}
    elif kind == "siphon":  # R-ADD-159
        yield {"type": "choose", "seat": seat, "option": "decline"}
        yield {"type": "choose", "seat": seat, "option": "pay"}
    elif kind == "bargain":  # R-ADD-159
        yield {"type": "choose", "seat": seat, "option": "decline"}
        cards = list(c.hand[len(c.hand) - amount :])
        yield {"type": "choose", "seat": seat, "option": "discard", "cards": cards}
    elif kind == "arrange":  # R-ADD-157: as they are, and the other way round
        top = list(c.deck[:amount])
        orders = [top, top[::-1]] if amount > 1 else [top]
        arrange = next(
            e for e in state.card(c.arranging).effects if isinstance(e, ArrangeTopEffect)
        )
        spends = [e for e in arrange.then if isinstance(e, SpendTokensEffect)]
        for order in orders:
            yield {"type": "arrange", "seat": seat, "cards": order}
            if spends:  # the decision accepts it only with the tokens (R-ADD-61)
                yield {"type": "arrange", "seat": seat, "cards": order, "spend": True}
    elif kind == "hand_pick":  # R-ADD-385: the newest and the oldest of the hand looked at
        seen = state.seats[c.looked_at_hand].hand
        picks = [list(seen[len(seen) - amount :]), list(seen[:amount])]
        for cards in picks[: 1 if picks[0] == picks[1] else 2]:
            yield {"type": "choose", "seat": seat, "option": "pick", "cards": cards}
        source = state.card(c.looked_at_source).effects
        if any(isinstance(e, LookAtHandEffect) and e.price for e in source):  # R-ADD-386
            yield {"type": "choose", "seat": seat, "option": "decline"}
    elif kind in ("discard_down", "discard"):
        yield {"type": "discard_down", "seat": seat, "cards": list(c.hand[len(c.hand) - amount :])}
        yield {"type": "discard_down", "seat": seat, "cards": list(c.hand[:amount])}


def _moves(
    state: BattleState, c: CasketState, budget: int, *, every: bool = False, line: bool = False
) -> list[tuple[list[list[int]], int | None]]:
    """(path, SP cost) of the cheapest path to each reachable hex; MAX_MOVES of them unless
    `every`. A `line` move's paths go straight in each direction, their cost left to
    `decide`, which checks every step."""
    if line:  # R-ADD-63: each direction, each length; decide checks every step
        lines: list[tuple[list[list[int]], int | None]] = [
            ([[c.at.q + dq * k, c.at.r + dr * k] for k in range(1, n + 1)], None)
            for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
            for n in range(1, budget + 1)
        ]
        return lines[:MAX_MOVES]
    reach = reachable(
        state.board,
        c.at,
        budget,
        allies=state.ally_hexes(c),
        enemies=[*state.blocking_hexes(c), *state.barred_for(c)],  # R-ADD-163: sanctuaries
        legs_destroyed="legs" in c.destroyed,
        surcharge=c.move_cost + c.ward_move_cost,  # R-ADD-113, R-ADD-362: SP more per hex
    )
    paths: list[tuple[list[list[int]], int | None]] = [
        ([[h.q, h.r] for h in r.path], _ignoring_terrain(state, c, r.path, r.cost))
        for r in reach.values()
    ]
    if len(paths) > MAX_MOVES and not every:
        half = MAX_MOVES // 2
        paths = paths[:half] + paths[-half:]
    return paths


def _ignoring_terrain(state: BattleState, c: CasketState, path: Sequence[Hex], cost: int) -> int:
    """R-ADD-362: a Scout Form's moves pay 1 SP a hex whatever the terrain (climbing, legs
    and surcharges still counted); the hexes listed are those the terrain's costs reach."""
    if not c.ignores_terrain:
        return cost
    total, here = 0, c.at
    for h in path:
        step = step_cost(
            state.board, here, h, legs_destroyed="legs" in c.destroyed, ignore_terrain=True
        )
        assert step is not None  # reachable entered it
        total += step + c.move_cost + c.ward_move_cost
        here = h
    return total


def _pay(c: CasketState, cost: int) -> dict[str, Any] | None:
    """Overspend paid from the deck top when the SP beyond the maximum allows it (R-TRN-3)."""
    cards = c.overspend_cards(cost)
    return {"hand": [], "deck": cards} if cards else None


def _with_pay(body: dict[str, Any], c: CasketState, cost: int) -> dict[str, Any]:
    pay = _pay(c, cost)
    return {**body, "pay": pay} if pay else body


def _unit_order_variants(
    state: BattleState, c: CasketState, effect: UnitOrderEffect, v: dict[str, Any]
) -> list[dict[str, Any]]:
    """R-ADD-409: for each own unit the card may order, its attack on each enemy next to it
    where it stands or after a move, and, with no enemy next to it, staying or a move
    toward the nearest enemy; decide checks each."""
    out: list[dict[str, Any]] = []
    foes = [x for x in state.seats if x.in_battle and x.side != c.side]
    for u in state.units:
        if u.owner != c.seat or u.name != effect.unit or u.at.distance(c.at) > effect.within:
            continue
        base = {**v, "unit": u.id}
        adjacent = [x.seat for x in foes if x.at.distance(u.at) == 1]
        out += [{**base, "target": x} for x in adjacent]
        allies = [c.at, *(h for h in state.ally_hexes(c) if h != u.at)]
        reach = reachable(
            state.board, u.at, effect.move, allies=allies, enemies=state.blocking_hexes(c)
        )
        paths = sorted(
            reach.values(),
            key=lambda r: min((x.at.distance(r.path[-1]) for x in foes), default=0),
        )
        for r in paths[:MAX_MOVES]:
            end = r.path[-1]
            path = [[h.q, h.r] for h in r.path]
            near = [x.seat for x in foes if x.at.distance(end) == 1]
            out += [{**base, "path": path, "target": x} for x in near[:2]]
            if not near and not adjacent and len(out) < 3:
                out.append({**base, "path": path})
        if not adjacent:
            out.append(base)
    return out[:12]


def _unit_candidates(
    state: BattleState, c: CasketState
) -> Iterator[tuple[dict[str, Any], Any, int | None]]:
    """Summoned units (R-ADD-401, R-ADD-404): each own unit's move to each hex its movement
    reaches and its attack on each adjacent enemy; each attack card of the hand on each
    enemy unit (decide checks range, sight and cost)."""
    seat = c.seat
    for u in state.units:
        if u.owner == seat:
            if not u.moved and u.movement:
                allies = [c.at, *(h for h in state.ally_hexes(c) if h != u.at)]
                reach = reachable(
                    state.board, u.at, u.movement, allies=allies, enemies=state.blocking_hexes(c)
                )
                for r in list(reach.values())[:MAX_MOVES]:
                    path = [[h.q, h.r] for h in r.path]
                    yield (
                        {"type": "unit_move", "seat": seat, "unit": u.id, "path": path},
                        None,
                        None,
                    )
            if not u.attacked and u.damage:
                for x in state.seats:
                    if x.in_battle and x.side != c.side and x.at.distance(u.at) == 1:
                        body = {"type": "unit_attack", "seat": seat, "unit": u.id, "target": x.seat}
                        yield body, None, None
        elif state.seats[u.owner].side != c.side:
            for card in _distinct(c.hand):
                d = state.card(card)
                if d.attack is not None and d.attack.range.contains(c.at.distance(u.at)):
                    body = {"type": "strike_unit", "seat": seat, "card": card, "unit": u.id}
                    yield _with_pay(body, c, d.sp_cost), None, None


def _action_candidates(
    state: BattleState, seat: int, every_move: bool
) -> Iterator[tuple[dict[str, Any], Any, int | None]]:
    c = state.seats[seat]
    yield {"type": "pass", "seat": seat}, None, None
    if not (c.acted or c.sp_spent or c.moved or c.free_rotation_used):
        # only at the start of a turn (R-TRN-9)
        yield {"type": "withdraw", "seat": seat}, None, None
    for facing in range(1, 7):
        if facing != c.facing:
            cost = rotation_cost(c.facing, facing, not c.free_rotation_used)
            yield _with_pay({"type": "rotate", "seat": seat, "facing": facing}, c, cost), None, None
    if c.heat:
        yield _with_pay({"type": "vent", "seat": seat}, c, 2), None, None
    yield from _unit_candidates(state, c)
    # R-ADD-69: the move a card granted (R-ADD-109: a split one's rest after an attack)
    if c.free_move and not (c.free_move_split and c.free_move_stage == 1):
        for path, sp in _moves(state, c, c.free_move):
            yield {"type": "move", "seat": seat, "path": path, "free": True}, None, sp
    if every_move:
        # Every hex the SP left reaches, and beyond it as far as overspending from the deck
        # can pay: one card per SP past the maximum, up to twice the maximum (R-TRN-3).
        budget = min(c.overspend_room, max(c.sp_left, 0) + len(c.deck))
        for path, sp in _moves(state, c, budget, every=True):
            # (a reachable hex always has its cost; only `line` paths leave it to decide)
            body = _with_pay({"type": "move", "seat": seat, "path": path}, c, sp or 0)
            yield body, None, sp
    elif c.sp_left > 0:
        for path, sp in _moves(state, c, c.sp_left):
            yield {"type": "move", "seat": seat, "path": path}, None, sp
    elif c.overspend_room > 0 and c.deck:
        for path, sp in _moves(state, c, 1):
            body = {"type": "move", "seat": seat, "path": path, "pay": {"hand": [], "deck": 1}}
            yield body, None, sp
    enemies = [x for x in state.seats if x.side != c.side and x.in_battle]
    for instance in _distinct(c.hand):
        card = state.card(instance)
        if card.kind == "reactive":
            continue
        if card.attack is not None:
            for d in enemies:
                answer = attack_answer(state, seat, card, d.seat)
                body = {"type": "attack", "seat": seat, "card": instance, "target": d.seat}
                if answer.possible:
                    cost = attack_cost(state, seat, card)  # R-ADD-99
                    for variant in _spend_variants(state, c, instance, body):
                        for moved in _attack_ally_moves(state, c, card, variant):
                            yield _with_pay(moved, c, cost), answer.as_dict(), None
                    also = _also(state, c, card, d.seat, enemies)
                    if also:  # R-ADD-80: the further attacks spread over other enemies
                        for variant in _spend_variants(state, c, instance, {**body, "also": also}):
                            yield _with_pay(variant, c, cost), answer.as_dict(), None
                # R-ADD-104: a move before the attack, a few paths toward the target.
                move = next((e for e in card.effects if isinstance(e, MoveEffect)), None)
                if move is not None:
                    cost = attack_cost(state, seat, card)  # R-ADD-99
                    for path in _paths_toward(state, c, d.at, move)[:3]:
                        for variant in _spend_variants(state, c, instance, {**body, "path": path}):
                            yield _with_pay(variant, c, cost), None, None
            # R-ADD-382: a hex of card-made terrain with hit points, attacked with the card
            for p in state.placed_terrain:
                if p.hp and card.attack.range.contains(c.at.distance(Hex(p.q, p.r))):
                    body = {"type": "attack_terrain", "seat": seat, "card": instance,
                            "at": [p.q, p.r]}  # fmt: skip
                    yield _with_pay(body, c, card.sp_cost), None, None
            continue
        yield from ((b, None, None) for b in _card_bodies(state, c, instance))


def _also(
    state: BattleState, c: CasketState, card: CardDef, first: int, enemies: list[CasketState]
) -> list[int]:
    """One representative `also` (R-ADD-80, R-ADD-84): each further attack the command may
    name at an enemy other than `first`, the first one in seat order it could be made at
    and not attacked yet; empty when the card names none or one has a condition."""
    follow = [e for e in card.effects if isinstance(e, FollowUpEffect) and e.target != "same"]
    # R-ADD-363: a split "instead" is named as any further attack; decide reads its condition
    if any(e.condition is not None and not e.instead for e in follow):
        return []
    named: list[int] = []
    for effect in follow:
        weapon = AttackEffect(effect.range, effect.damage)
        found = next(
            (
                x.seat
                for x in enemies
                if x.seat != first
                and x.seat not in named
                and (not effect.near or x.at.distance(state.seats[first].at) <= effect.near)
                and attack_answer(state, c.seat, card, x.seat, weapon).possible
            ),
            None,
        )
        if found is None:
            break
        named.append(found)
    return named


def _spend_variants(
    state: BattleState, c: CasketState, instance: str, body: dict[str, Any]
) -> Iterator[dict[str, Any]]:
    """The body without and, when the casket holds the tokens, with `spend` (R-ADD-61); a
    card that needs its spend only with it. An optional discard (R-ADD-152) is offered
    paid from the top of the deck."""
    effects = state.card(instance).effects
    costs = [e for e in effects if isinstance(e, SpendTokensEffect)]
    taint = [e for e in effects if isinstance(e, SpendTaintEffect)]
    # R-ADD-290: a Taint spend may be the card's price, as a token spend may (R-ADD-61).
    if not any(e.required for e in costs) and not any(e.required for e in taint):
        yield body
    if costs and all(c.tokens_of(e.pool) >= (1 if e.n == "all" else e.n) for e in costs):
        yield {**body, "spend": True}
    # R-ADD-145: a Taint spend, from the own pilot or, "yours or target's", the target's.
    enemy = any(e.whose == "enemy" for e in taint)
    if taint and not costs and enemy:  # R-ADD-294: an enemy holding the Taint
        need = max(1 if e.n == "all" else e.n for e in taint)
        for x in state.seats:
            if x.side != c.side and x.in_battle and x.taint >= need:
                yield {**body, "spend": True, "target": x.seat}
    elif taint and not costs:
        need = max(1 if e.n == "all" else e.n for e in taint)
        if c.taint >= need:
            yield {**body, "spend": True}
        target = body.get("target")
        either = any(e.whose == "either" for e in taint)
        if either and isinstance(target, int) and state.seats[target].taint >= need:
            yield {**body, "spend": True, "taint_from": "target"}
    discards = [e for e in effects if isinstance(e, DiscardForEffect)]
    if discards and all(len(c.deck) >= e.n for e in discards):
        yield {**body, "spend": True}


def _names_an_ally(effect: object) -> bool:
    """An ally effect the command's `target` names, maybe bought with tokens (R-ADD-120)."""
    if isinstance(effect, SpendTokensEffect):
        return any(_names_an_ally(e) for e in effect.then)
    return isinstance(effect, AllyEffect) and not effect.every


def _attack_ally_moves(
    state: BattleState, c: CasketState, card: CardDef, body: dict[str, Any]
) -> list[dict[str, Any]]:
    """An attack card's moves of every ally in reach (R-ADD-126), or the body alone."""
    out = [body]
    for effect in card.effects:
        if isinstance(effect, AllyMoveEffect) and effect.every:
            out = [v for b in out for v in _ally_move_variants(state, c, effect, b)]
    return out


def _ally_move_variants(
    state: BattleState, c: CasketState, effect: AllyMoveEffect, body: dict[str, Any]
) -> list[dict[str, Any]]:
    """The card's moves of allies (R-ADD-126): none, or a few paths of one ally at a time
    (`decide` drops those out of reach, too long or not toward the player)."""
    allies = [x for x in state.seats if x.side == c.side and x.seat != c.seat and x.in_battle]
    bases = [body] if effect.every else [{**body, "target": x.seat} for x in allies]
    out: list[dict[str, Any]] = []
    for base in bases:
        out.append(base)
        movers = [x for x in allies if effect.every or x.seat == base["target"]]
        for x in movers[:2]:
            for path, _ in _moves(state, x, effect.hexes)[:3]:
                out.append({**base, "ally_paths": [{"seat": x.seat, "path": path}]})
    return out


def _card_bodies(state: BattleState, c: CasketState, instance: str) -> Iterator[dict[str, Any]]:
    card = state.card(instance)
    base: dict[str, Any] = _with_pay(
        {"type": "play_card", "seat": c.seat, "card": instance}, c, card.sp_cost + c.card_cost
    )
    variants: list[dict[str, Any]] = list(_spend_variants(state, c, instance, base))
    # R-ADD-290: what a Taint spend buys (Void Step's move) is offered as the card's own.
    bought = [x for e in card.effects if isinstance(e, SpendTaintEffect) for x in e.then]
    for effect in [*card.effects, *bought]:
        grown: list[dict[str, Any]] = []
        for v in variants:
            if isinstance(effect, MoveEffect):
                # R-ADD-103: a move ignoring terrain is offered along the straight lines.
                line = effect.line or effect.ignore_terrain
                paths = _moves(state, c, effect.hexes, line=line)
                grown += [{**v, "path": p} for p, _ in paths[:6]]
            elif isinstance(effect, TerrainEffect) and effect.at == "hex":  # R-ADD-162
                grown += [{**v, "path": p} for p in _terrain_paths(state, c, card, effect)]
            elif isinstance(effect, TeleportEffect) and effect.whom == "enemy":
                # R-ADD-390: any enemy, a few hexes within reach of it
                grown += [
                    {**v, "target": x.seat, "path": [p]}
                    for x in state.seats
                    if x.side != c.side and x.in_battle
                    for p in _teleports(state, x, effect)
                ]
            elif isinstance(effect, TeleportEffect):  # R-ADD-102: a few destinations
                grown += [{**v, "path": [p]} for p in _teleports(state, c, effect)]
            elif isinstance(effect, PushEffect):  # R-ADD-100: an enemy within range
                grown += [{**v, "target": x.seat} for x in state.seats if x.side != c.side]
            elif isinstance(effect, RotateEffect):
                if effect.optional:
                    grown.append(v)
                grown += [{**v, "facing": f} for f in range(1, 7) if f != c.facing][:2]
            elif isinstance(effect, DiscardEffect) and effect.source != "deck":
                others = [x for x in c.hand if x != instance]
                grown.append({**v, "discard": others[: effect.n]})
            elif isinstance(effect, TakeDamageEffect):  # R-ADD-431: deck only, or hand first
                others = [x for x in c.hand if x != instance]
                grown.append(v)
                if others:
                    grown.append({**v, "discard": others[: effect.amount]})
            elif isinstance(effect, StatusEffect) and effect.target == "target":
                grown += [{**v, "target": x.seat} for x in state.seats if x.seat != c.seat]
            elif isinstance(effect, AreaAttackEffect) and effect.around == "wreck":
                grown += [{**v, "target": x.seat} for x in state.seats if x.defeated]
            elif isinstance(
                effect,
                HinderEffect
                | RootEffect
                | DrawPenaltyEffect
                | MarkEffect
                | UltimatumEffect
                | DuelEffect,
            ):
                # R-ADD-65, R-ADD-159: an enemy within range
                grown += [{**v, "target": x.seat} for x in state.seats if x.side != c.side]
            elif isinstance(effect, ScavengeWreckEffect):  # R-ADD-158: an enemy's wreck
                grown += [
                    {**v, "target": x.seat}
                    for x in state.seats
                    if x.side != c.side and x.defeated and not x.wreck_removed
                ]
            elif isinstance(effect, LookAtHandEffect | BonusAgainstEffect) and "target" not in v:
                # R-ADD-156: an enemy within range
                grown += [{**v, "target": x.seat} for x in state.seats if x.side != c.side]
            elif _names_an_ally(effect):  # R-ADD-120
                grown += [{**v, "target": x.seat} for x in state.seats if x.side == c.side]
            elif isinstance(effect, AllyMoveEffect):  # R-ADD-126
                grown += _ally_move_variants(state, c, effect, v)
            elif isinstance(effect, TokenCostEffect) and effect.n == "x":
                # R-ADD-389: every X from 1 to the most the card takes and the seat holds
                most = min(effect.most, c.tokens_of(effect.pool))
                grown += [{**v, "tokens": n} for n in range(1, most + 1)]
            elif isinstance(effect, UnitOrderEffect):  # R-ADD-409
                grown += _unit_order_variants(state, c, effect, v)
            else:
                grown.append(v)
        variants = grown
    yield from variants


def _paths_toward(
    state: BattleState, c: CasketState, target: Hex, move: MoveEffect
) -> list[list[list[int]]]:
    """Paths of an attack card's move (R-ADD-104): from the longest, each step to the
    first neighbour (direction order) one hex nearer the target that is on the board;
    `decide` checks the rest."""
    paths: list[list[list[int]]] = []
    for n in range(move.hexes, 0, -1):
        here, path = c.at, []
        for _ in range(n):
            nearer = [
                h
                for h in here.neighbours()
                if h in state.board and h.distance(target) == here.distance(target) - 1
            ]
            if not nearer or nearer[0] == target:
                break
            here = nearer[0]
            path.append([here.q, here.r])
        if path and path not in paths:
            paths.append(path)
    return paths


def _terrain_paths(
    state: BattleState, c: CasketState, card: CardDef, effect: TerrainEffect
) -> list[list[list[int]]]:
    """A few hex groups for a card's terrain (R-ADD-162): from a first hex in reach, the
    nearest to an enemy first, each next hex a neighbour of the last (direction order);
    `decide` keeps those it accepts."""
    low, high = (card.range.low, card.range.high) if card.range is not None else (0, 1)
    enemies = [x.at for x in state.seats if x.side != c.side and x.in_battle]

    def open_hex(h: Hex) -> bool:
        return h in state.board and not state.board.terrain_at(h).impassable

    firsts = [h for h in spiral(c.at, high) if low <= c.at.distance(h) and open_hex(h)]
    firsts.sort(key=lambda h: min((h.distance(e) for e in enemies), default=0))
    out: list[list[list[int]]] = []
    for first in firsts[:3]:
        group = [first]
        while len(group) < effect.hexes:
            grown = next(
                (
                    n
                    for g in reversed(group)
                    for n in g.neighbours()
                    if open_hex(n) and n not in group
                ),
                None,
            )
            if grown is None:
                break
            group.append(grown)
        if len(group) == effect.hexes:
            out.append([[h.q, h.r] for h in group])
    return out


def _teleports(state: BattleState, c: CasketState, effect: TeleportEffect) -> list[list[int]]:
    """A few destinations of `c`'s teleport (R-ADD-102, R-ADD-390), the farthest first."""
    taken = [x.at for x in state.seats if x.in_battle and x.seat != c.seat]
    taken += state.barred_for(c)  # R-ADD-163
    taken += state.unit_hexes()  # R-ADD-403
    hexes = [
        h
        for h in spiral(c.at, effect.hexes)
        if teleport_problem(
            state.board,
            c.at,
            h,
            effect.hexes,
            occupied=taken,
            near_terrain=effect.near_terrain,
            onto=effect.onto,
        )
        is None
    ]
    return [[h.q, h.r] for h in reversed(hexes)][:4]


# What only the table knows: a table command refused for these alone is still a candidate.
_TABLE_INPUT = frozenset({"wrong_dice_count", "cards_not_reported"})


def _accepted(state: BattleState, body: dict[str, Any], dice: DiceSource | None) -> bool:
    """`decide` accepts `body`; at a table (`dice` None), or would once the table reports
    the faces it rolled and the cards it drew (R-ADD-18)."""
    try:
        decide(state, parse_command(body), dice)
    except RuleViolation as err:
        return dice is None and err.code in _TABLE_INPUT
    return True


def legal_actions(
    state: BattleState, seats: Collection[int] | None = None, *, every_move: bool = False
) -> Iterator[LegalAction]:
    """Every listed body is one `decide` accepts now; `seats` limits them to those seats.

    Moves are listed with their SP cost, MAX_MOVES destinations of those the SP left
    reaches (the nearest and the farthest); `every_move` lists every reachable hex instead,
    including those paid for by overspending from the deck (R-TRN-3): the play page shows
    them all on the board.

    In a table battle the bodies leave out `faces` and `drawn`, which only the table
    knows: each is checked as far as it goes without them (an overspend the deck cannot
    pay is not listed), and the table adds what it rolled and drew.
    """
    if state.over:
        return
    table = state.dice_mode == "table"

    def dice() -> DiceSource | None:
        return None if table else SeededDice(state.version)

    if state.prompts:
        for p in state.prompts:
            if seats is not None and p.seat not in seats:
                continue
            for body in _prompt_candidates(state, p.seat, p.kind, p.amount):
                if _accepted(state, body, dice()):
                    yield LegalAction(body, overspend=_overspend(body))
        return
    active = state.active
    if state.phase != ACTION or active is None or (seats is not None and active not in seats):
        return
    for body, preview, cost in _action_candidates(state, active, every_move):
        if _accepted(state, body, dice()):
            yield LegalAction(body, preview, cost, _overspend(body))
