"""The piles of cards: drawing, reshuffling, recovering and discarding for a card."""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import (
    CardDef,
    DiscardForEffect,
    RecoverNamedEffect,
    TargetDiscardsEffect,
)
from ...errors import RuleViolation
from .. import events as ev
from ..state import (
    HAND_SIZE,
    CasketState,
    card_id,
)
from . import flow, harm, play, prompts
from .tx import _Tx


def _reshuffle(tx: _Tx, seat: int) -> None:
    c = tx.seat(seat)
    damage = f"damage#{c.damage_cards + 1}"
    order, known = tx.shuffle((*c.discard, damage), "the discard pile")
    tx.emit(ev.DeckReshuffled(seat, order, damage, known))


def _draw(tx: _Tx, seat: int, n: int, reason: str) -> None:
    """Draw one at a time; an empty deck reshuffles the discard pile with a Damage card, and a
    draw from an empty deck and discard pile defeats the casket (R-TRN-6)."""
    batch: list[str] = []
    for _ in range(n):
        c = tx.seat(seat)
        if len(c.deck) == len(batch):
            if batch:
                tx.emit(ev.CardsDrawn(seat, tuple(batch), reason, "R-TRN-6"))
                batch = []
            c = tx.seat(seat)
            if not c.discard:
                if tx.state.ruleset.damage_pile:
                    flow._out_of_cards(tx, seat)
                else:
                    harm._defeat(
                        tx, seat, "needed to draw with an empty deck and discard pile", "R-TRN-6"
                    )
                return
            _reshuffle(tx, seat)
            c = tx.seat(seat)
        remaining = [x for x in c.deck if x not in batch]
        batch.extend(tx.take(remaining, 1, reason, "R-TRN-6"))
    if batch:
        tx.emit(ev.CardsDrawn(seat, tuple(batch), reason, "R-TRN-6"))
    harm._check_hp(tx, seat)


def _hand_cards(
    c: CasketState, names: Sequence[str], field_name: str, rule: str
) -> tuple[str, ...]:
    """Resolve card names (instance ids or card ids) to distinct instances in the hand."""
    hand = list(c.hand)
    out: list[str] = []
    for name in names:
        match = next((x for x in hand if x == name or card_id(x) == name), None)
        if match is None:
            raise RuleViolation(
                "card_not_in_hand", f"{field_name}: {name!r} is not in seat {c.seat}'s hand", rule
            )
        hand.remove(match)
        out.append(match)
    return tuple(out)


def _deal_table_hand(tx: _Tx, seat: int) -> None:
    cards = tx.take(tx.seat(seat).deck, HAND_SIZE, "the opening hand", "R-TRN-1")
    tx.emit(ev.CardsDrawn(seat, cards, "opening hand", "R-TRN-1"))


def _target_discards(tx: _Tx, seat: int, card: CardDef, effect: TargetDiscardsEffect) -> None:
    """R-ADD-117: the target loses cards from its hand, at random among those of the kind
    the text names (every pick in the events), or of its own choice (a prompt)."""
    t = tx.seat(seat)
    if not t.in_battle:
        return
    if effect.pick == "target":
        n = min(effect.n, len(t.hand))
        if n:
            reason = f"{card.name}: discard {n} card(s) of your choice (R-ADD-117)"
            prompts._open_prompt(tx, seat, "discard", n, None, "R-ADD-117", reason)
        return

    def fits(x: CardDef) -> bool:
        # "weapon card": a Primary Weapon card (R-DMG-6, R-ADD-52); a shield card (R-REA-2)
        return {"weapon": x.kind == "primary_weapon", "shield": x.shield}.get(effect.of, True)

    pool = [x for x in t.hand if fits(tx.state.card(x))]
    n = min(effect.n, len(pool))
    if not n:
        return
    purpose = f"{card.name}: the target's random card(s)"
    order, _ = tx.shuffle(pool, purpose)
    picked = tx.take(order, n, purpose, "R-ADD-117")
    if effect.lost:  # "destroy": lost as damage is, no component (R-DMG-8)
        harm._take_damage(tx, seat, picked, 0, None)
    else:
        tx.emit(ev.CardsDiscarded(seat, picked, (), card.name, "R-ADD-117"))


def _discard_for(
    tx: _Tx, seat: int, card: CardDef, effect: DiscardForEffect, discard: Sequence[str]
) -> None:
    """R-ADD-152: an optional discard paid: the hand cards named in `discard`, the rest
    from the top of the deck (the player's choice of hand or deck, R-TRN-3)."""
    c = tx.seat(seat)
    from_hand = _hand_cards(c, discard, "discard", "R-ADD-152")
    if len(from_hand) > effect.n:
        raise RuleViolation(
            "wrong_discard_count", f"{card.name} discards {effect.n} card(s)", "R-ADD-152"
        )
    n_deck = effect.n - len(from_hand)
    if n_deck > len(c.deck):
        raise RuleViolation(
            "deck_too_small",
            f"{card.name}: the deck holds {len(c.deck)} card(s); name hand cards in 'discard'",
            "R-ADD-152",
        )
    from_deck = tx.take(c.deck, n_deck, card.name, "R-ADD-152")
    tx.emit(ev.CardsDiscarded(seat, from_hand, from_deck, card.name, "R-ADD-152"))
    play._triggers(tx, seat, "cards_discarded")  # R-ADD-139: "whenever you discard cards"


def _recover_named(tx: _Tx, seat: int, effect: RecoverNamedEffect, reason: str) -> None:
    """R-ADD-153: the newest discards of the named cards back to the hand (R-ADD-62)."""
    named = [x for x in reversed(tx.seat(seat).discard) if card_id(x) in effect.cards]
    if named:
        tx.emit(ev.CardsRecovered(seat, tuple(named[: effect.n]), reason))


def _recover(tx: _Tx, seat: int, n: int, reason: str) -> None:
    """R-ADD-62: the `n` most recently discarded cards go back to the hand, newest first."""
    c = tx.seat(seat)
    cards = tuple(reversed(c.discard))[:n]
    if cards:
        tx.emit(ev.CardsRecovered(seat, cards, reason))
