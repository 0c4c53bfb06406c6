"""Events of the piles of cards: cards played, resolved, discarded, recovered, shuffled, looked at."""

from __future__ import annotations

from .. import events as ev
from ..state import (
    BattleState,
    card_id,
)
from .common import Handler, _seat, _without


def _damage_cards_removed(s: BattleState, e: ev.DamageCardsRemoved) -> BattleState:
    c = s.seats[e.seat]
    return _seat(s, e.seat, discard=_without(c.discard, e.cards), removed=(*c.removed, *e.cards))


def _card_played(s: BattleState, e: ev.CardPlayed) -> BattleState:
    c = s.seats[e.seat]
    s = _seat(
        s,
        e.seat,
        hand=_without(c.hand, [e.card]),
        in_play=(*c.in_play, e.card),
        sp_spent=c.sp_spent + e.cost,
        acted=True,
    )
    turns = s.card(e.card).for_turns
    if turns:  # R-ADD-375: "For N turns", the turn it is played in first
        s = _seat(s, e.seat, timed=(*c.timed, (e.card, turns)))
    return _count_play(s, e.seat, e.card)


def _count_play(s: BattleState, seat: int, instance: str) -> BattleState:
    """R-ADD-63: a play of a card with a use limit, counted for the limit's period."""
    limit = s.card(instance).limit
    if limit is None:
        return s
    played = (*s.seats[seat].limited_plays, f"{limit.per}:{card_id(instance)}")
    return _seat(s, seat, limited_plays=played)


def _card_resolved(s: BattleState, e: ev.CardResolved) -> BattleState:
    return _put_away(s, e.seat, e.card)


def _card_lapsed(s: BattleState, e: ev.CardLapsed) -> BattleState:
    """R-ADD-375: the last of its turns is over."""
    timed = tuple(x for x in s.seats[e.seat].timed if x[0] != e.card)
    return _put_away(_seat(s, e.seat, timed=timed), e.seat, e.card)


def _put_away(s: BattleState, seat: int, card: str) -> BattleState:
    """A resolved card leaves play for the discard pile, or for the removed cards when its
    text removes it from the game (R-ADD-70)."""
    c = s.seats[seat]
    in_play = _without(c.in_play, [card])
    if s.card(card).leaves_game:
        return _seat(s, seat, in_play=in_play, removed=(*c.removed, card))
    return _seat(s, seat, in_play=in_play, discard=(*c.discard, card))


def _discarded(
    s: BattleState, e: ev.CardsDiscarded | ev.DamageTaken | ev.OverspendPaid, pile: str = "discard"
) -> BattleState:
    # Discards, damage and overspend all move cards from hand and deck top to a pile: the
    # discard pile, or under ruleset 2.1 for damage the damage pile (R-DMG-8).
    c = s.seats[e.seat]
    cards = e.from_hand + e.from_deck
    # R-ADD-144: damage is not a discard; a discard or an overspend in the own turn is.
    if cards and not isinstance(e, ev.DamageTaken) and c.damage_until_discards:
        # R-ADD-443: each discard counts towards "until they discard N cards total"
        left = tuple((d, n - len(cards)) for d, n in c.damage_until_discards)
        s = _seat(s, e.seat, damage_until_discards=tuple(x for x in left if x[1] > 0))
    if cards and not isinstance(e, ev.DamageTaken) and s.active == e.seat:
        s = _seat(s, e.seat, discarded_this_turn=True)
    elif cards and isinstance(e, ev.DamageTaken):
        s = _seat(s, e.seat, damaged_round=s.round)
    return _seat(
        s,
        e.seat,
        hand=_without(c.hand, e.from_hand),
        deck=_without(c.deck, e.from_deck),
        **{pile: getattr(c, pile) + cards},
    )


def _recovered(s: BattleState, e: ev.CardsRecovered) -> BattleState:
    c = s.seats[e.seat]
    return _seat(s, e.seat, discard=_without(c.discard, e.cards), hand=c.hand + e.cards)


def _restored(s: BattleState, e: ev.CardsRestored) -> BattleState:
    c = s.seats[e.seat]
    return _seat(
        s, e.seat, damage_pile=_without(c.damage_pile, e.cards), discard=c.discard + e.cards
    )


def _reshuffled(s: BattleState, e: ev.DeckReshuffled) -> BattleState:
    c = s.seats[e.seat]
    return _seat(s, e.seat, deck=c.deck + e.order, discard=(), damage_cards=c.damage_cards + 1)


def _shuffled_in(s: BattleState, e: ev.CardsShuffledIn) -> BattleState:
    c = s.seats[e.seat]
    return _seat(s, e.seat, discard=_without(c.discard, e.cards), deck=e.order)


def _effect_rolled(s: BattleState, e: ev.EffectRolled) -> BattleState:
    return s  # its consequence follows as its own event


def _hand_revealed(s: BattleState, e: ev.HandRevealed) -> BattleState:
    # R-ADD-156 is information only; a pick from that hand reads whose it was (R-ADD-385).
    return _seat(s, e.seat, looked_at_hand=e.target, looked_at_source=e.source)


def _stolen(s: BattleState, e: ev.CardsStolen) -> BattleState:
    """R-ADD-386: the cards leave the target's hand for the thief's."""
    t = s.seats[e.target]
    s = _seat(s, e.target, hand=_without(t.hand, e.cards))
    return _seat(s, e.seat, hand=(*s.seats[e.seat].hand, *e.as_cards))


def _looked_at(s: BattleState, e: ev.CardsLookedAt) -> BattleState:
    return _seat(s, e.seat, arranging=e.source)  # R-ADD-157: the prompt's card


def _arranged(s: BattleState, e: ev.DeckArranged) -> BattleState:
    deck = s.seats[e.seat].deck
    if sorted(e.order) != sorted(deck[: len(e.order)]):
        raise ValueError("DeckArranged must reorder the top of the deck (R-ADD-157)")
    return _seat(s, e.seat, deck=(*e.order, *deck[len(e.order) :]), arranging="")


def _suffering(s: BattleState, e: ev.SufferingRolled) -> BattleState:
    return s


def _returned(s: BattleState, e: ev.CardReturned) -> BattleState:
    c = s.seats[e.seat]
    zone: tuple[str, ...] = getattr(c, e.from_zone)
    return _seat(s, e.seat, **{e.from_zone: _without(zone, [e.card])}, hand=(*c.hand, e.card))


HANDLERS: dict[type[ev.Event], Handler] = {
    ev.CardPlayed: _card_played,
    ev.CardResolved: _card_resolved,
    ev.CardLapsed: _card_lapsed,
    ev.OverspendPaid: _discarded,
    ev.CardsDiscarded: _discarded,
    ev.CardsRecovered: _recovered,
    ev.CardsRestored: _restored,
    ev.DeckReshuffled: _reshuffled,
    ev.EffectRolled: _effect_rolled,
    ev.CardsShuffledIn: _shuffled_in,
    ev.SufferingRolled: _suffering,
    ev.CardReturned: _returned,
    ev.HandRevealed: _hand_revealed,
    ev.CardsStolen: _stolen,
    ev.CardsLookedAt: _looked_at,
    ev.DeckArranged: _arranged,
    ev.DamageCardsRemoved: _damage_cards_removed,
}
