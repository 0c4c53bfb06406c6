"""The piles of cards: drawing, recovering, dealing a table's hand and discarding for a card."""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import (
    CardDef,
    DiscardForEffect,
    LookAtHandEffect,
    RecoverNamedEffect,
)
from ...errors import RuleViolation
from .. import events as ev
from ..state import (
    HAND_SIZE,
    CasketState,
    card_id,
)
from . import harm, passives
from .tx import _Tx


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


def _discard_for(
    tx: _Tx, seat: int, card: CardDef, effect: DiscardForEffect, discard: Sequence[str]
) -> None:
    """R-ADD-152: an optional discard paid: the hand cards named in `discard`, the rest
    from the top of the deck (the player's choice of hand or deck, R-TRN-3)."""
    from_hand = _hand_cards(tx.seat(seat), discard, "discard", "R-ADD-152")
    _discard_hand_and_deck(
        tx, seat, card, effect.n, from_hand, "R-ADD-152", "; name hand cards in 'discard'"
    )


def _discard_hand_and_deck(
    tx: _Tx,
    seat: int,
    card: CardDef,
    n: int,
    from_hand: tuple[str, ...],
    rule: str,
    hint: str = "",
) -> None:
    """A card's discard of `n`: the hand cards `from_hand`, the rest from the top of the deck
    (the player's choice of hand or deck, R-TRN-3), under `rule`; `hint` ends the refusal of
    a deck too small."""
    c = tx.seat(seat)
    if len(from_hand) > n:
        raise RuleViolation("wrong_discard_count", f"{card.name} discards {n} card(s)", rule)
    n_deck = n - len(from_hand)
    if n_deck > len(c.deck):
        raise RuleViolation(
            "deck_too_small", f"{card.name}: the deck holds {len(c.deck)} card(s){hint}", rule
        )
    from_deck = tx.take(c.deck, n_deck, card.name, rule)
    tx.emit(ev.CardsDiscarded(seat, from_hand, from_deck, card.name, rule))
    passives._triggers(tx, seat, "cards_discarded")  # R-ADD-139: "whenever you discard cards"


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


def _restore(tx: _Tx, seat: int, n: int, reason: str, rule: str) -> None:
    """R-ADD-440: the `n` cards most recently lost to damage leave the damage pile (the
    rules' Damage Graveyard, R-DMG-8) for the discard pile, newest first; under ruleset 2.0
    the pile is always empty and nothing moves."""
    cards = tuple(reversed(tx.seat(seat).damage_pile))[:n]
    if cards:
        tx.emit(ev.CardsRestored(seat, cards, reason, rule))


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
                    harm._out_of_cards(tx, seat)
                else:
                    harm._defeat(
                        tx, seat, "needed to draw with an empty deck and discard pile", "R-TRN-6"
                    )
                return
            harm._reshuffle(tx, seat)
            c = tx.seat(seat)
        remaining = [x for x in c.deck if x not in batch]
        batch.extend(tx.take(remaining, 1, reason, "R-TRN-6"))
    if batch:
        tx.emit(ev.CardsDrawn(seat, tuple(batch), reason, "R-TRN-6"))
    harm._check_hp(tx, seat)


def _looked_at(tx: _Tx, seat: int) -> tuple[int, CardDef, LookAtHandEffect]:
    """The enemy whose hand `seat` looked at, the card that looked and its effect."""
    c = tx.seat(seat)
    card = tx.state.card(c.looked_at_source)
    effect = next(e for e in card.effects if isinstance(e, LookAtHandEffect))
    return c.looked_at_hand, card, effect


def _priced(tx: _Tx, seat: int) -> bool:
    return _looked_at(tx, seat)[2].price > 0


def _hand_pick(
    tx: _Tx, seat: int, option: str, names: Sequence[str], amount: int, *, opened: bool = True
) -> None:
    """R-ADD-385: the player names `amount` cards of the hand it looked at; that enemy
    discards them (R-DMG-8: discarded by a card's text). R-ADD-386: or takes them into its
    own hand, paying the price, or declines and pays nothing. `opened`: the answer of an
    open prompt (policy `auto` answers before any opens)."""
    enemy, card, effect = _looked_at(tx, seat)
    rule = "R-ADD-386" if effect.steal else "R-ADD-385"
    if option == "decline":
        if names:
            raise RuleViolation("unused_argument", "'decline' names no cards", rule)
        if opened:
            tx.emit(ev.PromptClosed(seat, "hand_pick"))
        return
    if len(names) != amount:
        raise RuleViolation(
            "wrong_discard_count",
            f"cards: name exactly {amount} card(s) of seat {enemy}'s hand",
            rule,
        )
    cards = _hand_cards(tx.seat(enemy), names, "cards", rule)
    have = tx.seat(seat).tokens_of(effect.pool) if effect.price else 0
    if have < effect.price:
        raise RuleViolation(
            "not_enough_tokens",
            f"{card.name} spends {effect.price} {effect.pool} token(s); seat {seat} holds {have}",
            "R-ADD-61",
        )
    if opened:
        tx.emit(ev.PromptClosed(seat, "hand_pick"))
    if not effect.steal:
        tx.emit(ev.CardsDiscarded(enemy, cards, (), card.name, rule))
        return
    _steal(tx, seat, enemy, card, effect, cards)


def _steal(
    tx: _Tx, seat: int, enemy: int, card: CardDef, effect: LookAtHandEffect, cards: Sequence[str]
) -> None:
    """R-ADD-386: the price paid, the cards go to `seat`'s hand as its own; a copy whose
    number `seat` holds already (each seat numbers its own copies) takes the next free one."""
    c = tx.seat(seat)
    if effect.price:
        have = c.tokens_of(effect.pool)
        tx.emit(ev.TokensChanged(seat, effect.pool, -effect.price, have - effect.price, card.id))
    held = {*c.deck, *c.hand, *c.discard, *c.removed, *c.in_play, *c.damage_pile}
    renamed: list[str] = []
    for x in cards:
        name, k = x, 1
        while name in held:
            name, k = f"{card_id(x)}#{k}", k + 1
        held.add(name)
        renamed.append(name)
    tx.emit(ev.CardsStolen(seat, enemy, tuple(cards), tuple(renamed), card.id))
