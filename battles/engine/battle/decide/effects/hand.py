"""Resolvers of the hand effects: drawing, discarding, recovering, shuffling in, looking at cards."""

from __future__ import annotations

from typing import Any

from ....cards.effects import hand as fx
from ....errors import RuleViolation
from ... import events as ev
from .. import conditions, passives, piles, prompts, resolution
from .base import Resolver, Resolving, resolved_elsewhere


def _discard_for(ctx: Resolving, effect: fx.DiscardForEffect) -> None:
    if ctx.spend:
        ctx.used["discard"] = True
        if not ctx.skip_attack:  # an attack card's riders paid it already (R-ADD-152)
            piles._discard_for(ctx.tx, ctx.seat, ctx.card, effect, ctx.discard)
            for inner in effect.then:
                ctx.then(inner, skip_attack=False)


def _recover_named(ctx: Resolving, effect: fx.RecoverNamedEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    piles._recover_named(tx, seat, effect, card.name)


def _arrange_top(ctx: Resolving, effect: fx.ArrangeTopEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    # R-ADD-157: a table arranges its own deck, whose order the engine never knows;
    # it is still asked for the spend of `then`.
    n = 0 if tx.table or len(c.deck) < 2 else min(effect.n, len(c.deck))
    if not n and not effect.then:
        return
    tx.emit(ev.CardsLookedAt(seat, c.deck[:n], card.id))
    reason = f"{card.name}: put the top {n} cards back in any order"
    if effect.then:
        reason += " (and say whether you spend)"
    resolution._open_prompt(tx, seat, "arrange", n, None, "R-ADD-157", reason)


def _target_discards(ctx: Resolving, effect: fx.TargetDiscardsEffect) -> None:
    tx, card, attack_target = ctx.tx, ctx.card, ctx.attack_target
    if attack_target is not None:
        prompts._target_discards(tx, attack_target, card, effect)


def _discard_chosen(ctx: Resolving, effect: fx.DiscardChosenEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    n = min(effect.n, len(c.hand))
    if n:
        reason = f"{card.name}: discard {n} card(s) of your choice"
        resolution._open_prompt(tx, seat, "discard", n, None, "R-ADD-62", reason)


def _shuffle_in(ctx: Resolving, effect: fx.ShuffleInEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    newest = tuple(reversed(c.discard))
    cards = newest if effect.n == "all" else newest[: effect.n]
    if cards:
        order, known = tx.shuffle((*c.deck, *cards), f"{card.name}: the deck")
        tx.emit(ev.CardsShuffledIn(seat, cards, order, known, card.name))


def _recover(ctx: Resolving, effect: fx.RecoverEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    piles._recover(tx, seat, effect.n, card.name)


def _recover_damaged(ctx: Resolving, effect: fx.RecoverDamagedEffect) -> None:
    piles._restore(ctx.tx, ctx.seat, effect.n, ctx.card.name, "R-ADD-440")


def _restore_hp(ctx: Resolving, effect: fx.RestoreHpEffect) -> None:
    c = ctx.tx.seat(ctx.seat)
    short = effect.n - len(c.deck) - len(c.discard)  # R-DMG-9: the casket's hit points
    if short > 0:
        piles._restore(ctx.tx, ctx.seat, short, ctx.card.name, "R-ADD-441")


def _discard_hand(ctx: Resolving, effect: fx.DiscardHandEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    if c.hand:
        tx.emit(ev.CardsDiscarded(seat, c.hand, (), card.name, "R-ADD-14"))
        passives._triggers(tx, seat, "cards_discarded")  # R-ADD-139


def _draw(ctx: Resolving, effect: fx.DrawEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    # R-ADD-389: "Draw X cards (where X = Credits spent)": the tokens the command paid
    n = ctx.tokens if effect.n == "x" else effect.n
    piles._draw(tx, seat, n, card.name)


def _discard(ctx: Resolving, effect: fx.DiscardEffect) -> None:
    tx, seat, card, discard, used = ctx.tx, ctx.seat, ctx.card, ctx.discard, ctx.used
    c = tx.seat(seat)
    used["discard"] = True
    from_hand: tuple[str, ...] = ()
    if effect.source in ("hand", "choice"):
        from_hand = piles._hand_cards(c, discard, "discard", "R-ADD-14")
    if effect.source == "hand" and len(from_hand) != effect.n:
        raise RuleViolation(
            "wrong_discard_count",
            f"{card.name}: list {effect.n} hand card(s) in 'discard'",
            "R-ADD-14",
        )
    piles._discard_hand_and_deck(tx, seat, card, effect.n, from_hand, "R-ADD-14")


def _look_at_hand(ctx: Resolving, effect: fx.LookAtHandEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    if card.range is None:  # R-ADD-385: no printed range, any enemy in the battle
        enemy = conditions._enemy_anywhere(tx, seat, card, ctx.target)
    else:
        enemy = conditions._enemy_in_range(tx, seat, card, ctx.target)  # R-ADD-156, as R-ADD-65
    ctx.used["target"] = True
    hand = tx.seat(enemy).hand
    tx.emit(ev.HandRevealed(seat, enemy, hand, card.id))
    n = min(effect.discard, len(hand))
    if n:  # R-ADD-385: the player picks from the hand looked at; the target discards it
        reason = f"{card.name}: choose {n} card(s) of seat {enemy}'s hand to discard"
        resolution._open_prompt(tx, seat, "hand_pick", n, None, "R-ADD-385", reason)
    n = min(effect.steal, len(hand))
    # R-ADD-386: a steal for tokens is asked only of a seat holding them (R-ADD-61)
    if n and (not effect.price or tx.seat(seat).tokens_of(effect.pool) >= effect.price):
        price = f" for {effect.price} {effect.pool} token(s), or decline" * bool(effect.price)
        reason = f"{card.name}: choose {n} card(s) of seat {enemy}'s hand to take{price}"
        resolution._open_prompt(tx, seat, "hand_pick", n, None, "R-ADD-386", reason)


RESOLVERS: dict[type[Any], Resolver] = {
    fx.DrawEffect: _draw,
    fx.DiscardEffect: _discard,
    fx.RecoverEffect: _recover,
    fx.ShuffleInEffect: _shuffle_in,
    fx.DiscardChosenEffect: _discard_chosen,
    fx.DiscardHandEffect: _discard_hand,
    fx.RemoveFromGameEffect: resolved_elsewhere,  # evolve puts the resolved card with the removed cards (R-ADD-70)
    fx.TargetDiscardsEffect: _target_discards,
    fx.DiscardForEffect: _discard_for,
    fx.RecoverNamedEffect: _recover_named,
    fx.RecoverDamagedEffect: _recover_damaged,
    fx.RestoreHpEffect: _restore_hp,
    fx.LookAtHandEffect: _look_at_hand,
    fx.ArrangeTopEffect: _arrange_top,
}
