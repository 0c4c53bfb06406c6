"""What an action costs and may spend: a path's SP and the hexes it may not enter, a card's
kind, limits, SP, tokens and Taint, checked before and paid as it is played."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from ...cards import (
    CardDef,
    DiscardForEffect,
    FreePassageEffect,
    GainTokensEffect,
    SelfDamageEffect,
    SpendTaintEffect,
    SpendTokensEffect,
    TaintCounterEffect,
)
from ...errors import RuleViolation
from ...hexes import Hex
from ...movement import validate_path
from .. import events as ev
from ..commands import (
    Pay,
)
from ..state import (
    CasketState,
)
from . import harm, piles
from .tx import _Tx


def _check_card_kind(c: CasketState, card: CardDef) -> None:
    # Seed 002 "Component Destroyed": the arms take their card types with them.
    if card.kind == "primary_weapon" and "right_arm" in c.destroyed:
        raise RuleViolation(
            "right_arm_destroyed", "right arm destroyed: no Primary Weapon cards", "R-DMG-7"
        )
    if card.kind == "secondary" and "left_arm" in c.destroyed:
        raise RuleViolation(
            "left_arm_destroyed", "left arm destroyed: no Secondary Equipment cards", "R-DMG-7"
        )
    _check_forbidden(c, card)


def _check_forbidden(c: CasketState, card: CardDef) -> None:
    """R-ADD-340: "until end of your turn … you cannot use defense cards or movement cards"."""
    barred = [x for x in card.classes if x in c.forbidden_classes]
    if barred:
        raise RuleViolation(
            "card_class_forbidden",
            f"{card.name} is a {barred[0]} card: seat {c.seat} may not play "
            f"{' or '.join(c.forbidden_classes)} cards until its turn ends",
            "R-ADD-340",
        )


def _check_limit(c: CasketState, card: CardDef) -> None:
    """R-ADD-63: "once per turn / round / mission" (a mission's battle)."""
    limit = card.limit
    if limit is None:
        return
    if c.limited_plays.count(f"{limit.per}:{card.id}") >= limit.n:
        raise RuleViolation(
            "use_limit_reached",
            f"{card.name} may be played {limit.n} time(s) per {limit.per}",
            "R-ADD-63",
        )


def _pay(tx: _Tx, c: CasketState, cost: int, pay: Pay | None, exclude: Sequence[str] = ()) -> None:
    """Check and pay SP: up to twice the maximum, each SP beyond it paid with a card (R-TRN-3)."""
    after = c.sp_spent + cost
    if after > c.sp_limit:
        raise RuleViolation(
            "sp_exceeded",
            f"costs {cost} SP; seat {c.seat} has spent {c.sp_spent} of at most "
            f"{c.sp_limit} this turn (twice the maximum {c.sp_max}"
            + (f", and {c.sp_gained} gained)" if c.sp_gained else ")"),
            "R-TRN-3",
        )
    cards = c.overspend_cards(cost)
    given = (len(pay.hand) + pay.deck) if pay else 0
    if given != cards:
        raise RuleViolation(
            "overspend_payment",
            f"costs {cost} SP with {max(0, c.sp_left)} left: pay {cards} card(s) in 'pay' "
            f"(hand ids and/or a count from the deck), not {given}",
            "R-TRN-3",
        )
    if not cards or pay is None:
        return
    hand_ok = [x for x in c.hand if x not in exclude]
    hand = piles._hand_cards(replace(c, hand=tuple(hand_ok)), pay.hand, "pay.hand", "R-TRN-3")
    if pay.deck > len(c.deck):
        raise RuleViolation(
            "deck_too_small", f"pay.deck: the deck holds {len(c.deck)} card(s)", "R-TRN-3"
        )
    deck = tx.take(c.deck, pay.deck, "overspend from the deck", "R-TRN-3")
    tx.emit(ev.OverspendPaid(c.seat, cards, hand, deck))


def _check_token_cost(tx: _Tx, seat: int, card: CardDef, tokens: int | None = None) -> None:
    """R-ADD-133: a card printed with a cost in tokens needs them to be played. R-ADD-389:
    a cost of X tokens is the command's `tokens`, 1 to the card's most, and only such a
    card takes `tokens`."""
    cost = card.token_cost
    x_cost = cost is not None and cost.n == "x"
    if tokens is not None and not x_cost:
        raise RuleViolation(
            "not_an_x_cost",
            f"tokens: {card.name} is not printed with a cost of X tokens",
            "R-ADD-389",
        )
    if cost is None:
        return
    if cost.n == "x":
        if tokens is None:
            raise RuleViolation(
                "tokens_required",
                f"tokens: {card.name} costs X {cost.pool} tokens: name X, 1 to {cost.most}",
                "R-ADD-389",
            )
        if tokens > cost.most:
            raise RuleViolation(
                "too_many_tokens",
                f"tokens: {card.name} takes at most {cost.most} {cost.pool} tokens",
                "R-ADD-389",
            )
    need = tokens if tokens is not None else cost.least
    have = tx.seat(seat).tokens_of(cost.pool)
    if have < need:
        raise RuleViolation(
            "not_enough_tokens",
            f"{card.name} costs {need} {cost.pool} token(s); seat {seat} holds {have}",
            "R-ADD-389" if cost.n == "x" else "R-ADD-133",
        )


def _pay_tokens(tx: _Tx, seat: int, card: CardDef, tokens: int | None = None) -> None:
    """R-ADD-133: the printed token cost, paid as the card is played (checked before);
    a cost of X tokens pays the command's `tokens` (R-ADD-389)."""
    cost = card.token_cost
    if cost is not None:
        n = cost.n if cost.n != "x" else tokens or 0
        have = tx.seat(seat).tokens_of(cost.pool)
        tx.emit(ev.TokensChanged(seat, cost.pool, -n, have - n, card.id))


def _check_holds(tx: _Tx, seat: int, card: CardDef, pool: str, n: int | Literal["all"]) -> None:
    """R-ADD-61: a spend of `n` tokens of `pool` (all of them: at least 1) is refused,
    naming what the seat holds, when the seat holds fewer."""
    have = tx.seat(seat).tokens_of(pool)
    if have < (1 if n == "all" else n):
        raise RuleViolation(
            "not_enough_tokens",
            f"{card.name} spends {n} {pool} token(s); seat {seat} holds {have}",
            "R-ADD-61",
        )


def _check_spend(tx: _Tx, seat: int, card: CardDef, spend: bool) -> None:
    """R-ADD-61: `spend` only for a card that spends tokens, and only with the tokens;
    a card that does nothing without its spend needs it."""
    costs = [e for e in card.effects if isinstance(e, SpendTokensEffect)]
    counters = [e for e in card.effects if isinstance(e, TaintCounterEffect)]
    taint = bool(counters) or any(isinstance(e, SpendTaintEffect) for e in card.effects)
    avoid = [e for e in card.effects if isinstance(e, SelfDamageEffect)]
    for e2 in avoid if spend else []:  # R-ADD-130: buying off the card's self-damage
        _check_holds(tx, seat, card, e2.avoid_pool, e2.avoid_n)
    if spend and not costs and any(isinstance(e, DiscardForEffect) for e in card.effects):
        return  # R-ADD-152: an optional discard; its cards are checked as it is paid
    if spend and not costs and not taint and not avoid:
        raise RuleViolation(
            "unused_argument", f"{card.name} has no effect that uses 'spend'", "R-ADD-61"
        )
    for t in counters if spend else []:  # R-ADD-130: the pilot's Taint, not a token pool
        if tx.seat(seat).taint < t.n:
            raise RuleViolation(
                "not_enough_taint",
                f"{card.name} spends {t.n} Taint; seat {seat}'s pilot has {tx.seat(seat).taint}",
                "R-ADD-130",
            )
    for e in costs:
        if e.required and not spend:
            raise RuleViolation(
                "spend_required",
                f"{card.name} does nothing without spending {e.n} {e.pool} token(s): "
                "send 'spend': true",
                "R-ADD-61",
            )
        if spend:
            _check_holds(tx, seat, card, e.pool, e.n)


def _check_taint_spend(
    tx: _Tx, seat: int, card: CardDef, spend: bool, taint_from: str | None, target: int | None
) -> None:
    """R-ADD-145: `taint_from` only for a spend of "yours or target's" Taint, made; the
    pilot who pays holds the Taint ("all" needs at least 1)."""
    costs = [e for e in card.effects if isinstance(e, SpendTaintEffect)]
    either = any(e.whose == "either" for e in costs)
    if taint_from is not None and not (spend and either):
        raise RuleViolation(
            "unused_argument",
            f"{card.name} spends no one's Taint but its pilot's: 'taint_from' needs "
            "'spend': true on a card that spends yours or the target's",
            "R-ADD-145",
        )
    if not spend:
        for e in costs:
            if e.required:  # R-ADD-290, R-ADD-294: the spend is the card's price
                raise RuleViolation(
                    "spend_required",
                    f"{card.name} does nothing without spending {e.n} Taint: send 'spend': true",
                    "R-ADD-290",
                )
        return
    payer = target if taint_from == "target" and target is not None else seat
    if any(e.whose == "enemy" for e in costs):
        payer = _taint_enemy(tx, seat, card, target)
    for e in costs:
        have = tx.seat(payer).taint
        need = 1 if e.n == "all" else e.n
        if have < need:
            raise RuleViolation(
                "not_enough_taint",
                f"{card.name} spends {e.n} Taint; seat {payer}'s pilot has {have}",
                "R-ADD-145",
            )


def _taint_enemy(tx: _Tx, seat: int, card: CardDef, target: int | None) -> int:
    """R-ADD-294: "Spend N enemy Taint Markers" (printed range "Target"): the command's
    `target`, any enemy casket still in the battle."""
    if target is None or not 0 <= target < len(tx.state.seats):
        raise RuleViolation(
            "target_required",
            f"{card.name} spends an enemy's Taint: name it as 'target'",
            "R-ADD-294",
        )
    t = tx.seat(target)
    if t.side == tx.seat(seat).side or not t.in_battle:
        raise RuleViolation(
            "not_an_enemy", f"seat {target} is not an enemy in the battle", "R-ADD-294"
        )
    return target


def _spend_taint(tx: _Tx, payer: int, card: CardDef, effect: SpendTaintEffect) -> int:
    """Remove the spent Taint from the paying pilot (checked by `_check_taint_spend`); the
    Taint spent (R-ADD-145)."""
    have = tx.seat(payer).taint
    n = have if effect.n == "all" else effect.n
    harm._change_taint(tx, payer, -n, card.id)
    return n


def _spend_tokens(tx: _Tx, seat: int, card: CardDef, effect: SpendTokensEffect) -> int:
    """Spend the tokens (checked by `_check_spend`); the number spent."""
    have = tx.seat(seat).tokens_of(effect.pool)
    n = have if effect.n == "all" else effect.n
    tx.emit(ev.TokensChanged(seat, effect.pool, -n, have - n, card.id))
    return n


def _gain_tokens(tx: _Tx, seat: int, effect: GainTokensEffect, source: str) -> None:
    """R-ADD-61: a pool never holds more than its cap; a gain at the cap gains nothing."""
    have = tx.seat(seat).tokens_of(effect.pool)
    gained = min(effect.n, max(0, effect.cap - have))
    if gained:
        tx.emit(ev.TokensChanged(seat, effect.pool, gained, have + gained, source))


def _path_cost(tx: _Tx, c: CasketState, path: Sequence[object]) -> int:
    s = tx.state
    _not_barred(tx, c, path)
    # R-ADD-136: "move through enemy-occupied hexes … ignore terrain costs".
    free = any(isinstance(e, FreePassageEffect) for x in c.in_play for e in s.card(x).effects)
    allies, enemies = s.ally_hexes(c), s.blocking_hexes(c)
    return validate_path(
        s.board,
        c.at,
        path,  # type: ignore[arg-type]
        allies=[*allies, *enemies] if free else allies,
        enemies=() if free else enemies,
        legs_destroyed="legs" in c.destroyed,
        require_sight=True,
        # R-ADD-362: a Scout Form's "ignore terrain" ignores its costs, as R-ADD-136's
        ignore_terrain=free or c.ignores_terrain,
    )


def _not_barred(tx: _Tx, c: CasketState, steps: Sequence[object]) -> None:
    """R-ADD-163: "enemies cannot enter" an enemy's sanctuary, whatever the move."""
    barred = set(tx.state.barred_for(c))
    for h in steps:
        if h in barred:
            assert isinstance(h, Hex)
            raise RuleViolation(
                "sanctuary",
                f"[{h.q}, {h.r}] is an enemy's sanctuary: it cannot be entered",
                "R-ADD-163",
            )
