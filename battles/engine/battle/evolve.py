"""`evolve(state, event) -> state`: pure, never validates, never rolls.

Every decision was made by `decide` and every random outcome is inside the event,
so replaying a battle is a fold of this function over its events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..board import with_terrain
from ..dice import COMPONENTS
from ..hexes import Hex
from . import events as ev
from .setup import initial_state
from .state import (
    ACTION,
    END,
    OVER,
    SETUP,
    AttackInProgress,
    BattleState,
    CasketState,
    Enhancement,
    FollowUp,
    PlacedTerrain,
    Prompt,
    Ward,
    card_id,
)
from .state import with_changes as replace


def _without(zone: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    gone = list(cards)
    out = list(zone)
    for c in gone:
        out.remove(c)
    return tuple(out)


def _seat(state: BattleState, n: int, **changes: Any) -> BattleState:
    seats = list(state.seats)
    seats[n] = replace(seats[n], **changes)
    return replace(state, seats=tuple(seats))


def _created(state: BattleState | None, e: ev.BattleCreated) -> BattleState:
    return initial_state(e.battle_id, e.setup)


def _deck_shuffled(s: BattleState, e: ev.DeckShuffled) -> BattleState:
    return _seat(s, e.seat, deck=e.order)


def _wound_deck(s: BattleState, e: ev.WoundDeckShuffled) -> BattleState:
    return _seat(s, e.seat, wound_deck=e.order, wounds=e.face_up)


def _drawn(s: BattleState, e: ev.CardsDrawn) -> BattleState:
    c = s.seats[e.seat]
    return _seat(s, e.seat, deck=_without(c.deck, e.cards), hand=c.hand + e.cards)


def _hand_kept(s: BattleState, e: ev.HandKept) -> BattleState:
    return _seat(s, e.seat, hand_decided=True)


def _mulligan(s: BattleState, e: ev.MulliganTaken) -> BattleState:
    c = s.seats[e.seat]
    return _seat(
        s, e.seat, hand=_without(c.hand, e.returned), deck=c.deck + e.returned, hand_decided=True
    )


def _round_started(s: BattleState, e: ev.RoundStarted) -> BattleState:
    s = replace(s, round=e.round, phase=ACTION, order=(), turn=0)
    for c in s.seats:  # R-ADD-63: once-per-round plays are counted afresh
        if any(x.startswith("round:") for x in c.limited_plays):
            kept = tuple(x for x in c.limited_plays if not x.startswith("round:"))
            s = _seat(s, c.seat, limited_plays=kept)
    return s


def _initiative(s: BattleState, e: ev.InitiativeRolled) -> BattleState:
    return replace(s, order=e.order, turn=0)


def _turn_started(s: BattleState, e: ev.TurnStarted) -> BattleState:
    s = _lapse_lent_defence(s, e.seat)  # R-ADD-123: "until your next turn"
    s = _end_duel(s, e.seat)  # R-ADD-174: "for 1 round"
    for card in s.seats[e.seat].in_play:  # R-ADD-122: an unused pledge lapses
        if s.card(card).pledge:
            s = _put_away(s, e.seat, card)
    c = s.seats[e.seat]
    s = replace(s, phase=ACTION, turn=s.order.index(e.seat))
    for other in s.seats:  # R-ADD-138: a reactive card's "once per turn" is any seat's turn
        if other.seat != e.seat and any(x.startswith("turn:") for x in other.limited_plays):
            kept = tuple(x for x in other.limited_plays if not x.startswith("turn:"))
            s = _seat(s, other.seat, limited_plays=kept)
    # An enemy's immobilised stays through this whole turn, so it stops this turn's moves,
    # and lapses when the turn ends (R-ADD-43, ruleset 2.1).
    # R-ADD-111: a card's root lasts through the whole of the casket's next turns.
    rooted = c.rooted_turns > 0
    kept = ("immobilised",) if c.immobilised_by not in (None, e.seat) or rooted else ()
    # Statuses last until the start of their casket's next turn (R-ADD-17). A jam's −2
    # damage is for the next attack "this turn or next turn" (R-DMG-1), then it lapses.
    return _seat(
        s,
        e.seat,
        sp_spent=0,
        moved_last_turn=c.moved,
        moved=0,
        free_rotation_used=False,
        acted=False,
        damage_this_turn=0,
        statuses=kept,
        defence_bonus=0,  # R-ADD-64: card Defense lasts until the casket's next turn
        limited_plays=tuple(x for x in c.limited_plays if not x.startswith("turn:")),
        sp_penalty=0,  # R-ADD-65: decide drains it after this turn's SpRestored
        damage_next_turn=0,  # R-ADD-73: decide inflicts it after this turn's SP
        jam_penalty=c.jam_penalty if c.jam_this_turn else 0,
        jam_this_turn=False,
        ongoing_damage=c.ongoing_damage[1:],  # R-ADD-112: decide inflicts this turn's share
        move_cost=c.move_cost_next_turn,  # R-ADD-113: this is the "next turn"
        move_cost_next_turn=0,
        no_attacks=False,  # R-ADD-115: "until next turn"
        damage_aura=0,  # R-ADD-88: until the casket's next turn
        damage_aura_within=0,
        # R-ADD-93: "until your next turn" lapses now; "until the end of your next turn"
        # lasts to the end of this one.
        wards=tuple(
            replace(w, until="end_of_turn") if w.until == "end_of_next_turn" else w
            for w in c.wards
            if w.until != "next_turn"
        ),
        discarded_this_turn=False,  # R-ADD-144
        untargetable="",  # R-ADD-155: until the casket's next turn
        untargetable_until_attack=False,
        thorns=0,  # R-ADD-130: until the casket's next turn
        thorns_melee=0,
        attacked=False,  # R-ADD-134
        sp_gained=0,  # R-ADD-135: for the turn it was gained in
        destroyed_enemy=False,  # R-ADD-131
    )


def _sp_restored(s: BattleState, e: ev.SpRestored) -> BattleState:
    return _seat(s, e.seat, sp_max=e.sp_max)


def _strain(s: BattleState, e: ev.StrainChecked) -> BattleState:
    return s


def _sp_drained(s: BattleState, e: ev.SpDrained) -> BattleState:
    return _seat(s, e.seat, sp_max=s.seats[e.seat].sp_max - e.amount)


def _turn_ended(s: BattleState, e: ev.TurnEnded) -> BattleState:
    # From now until its next turn this is the casket's most recent turn: the hexes an
    # attacker's to-hit counts for it (R-HIT-2).
    c = s.seats[e.seat]
    s = _seat(s, e.seat, moved_last_turn=c.moved)
    if c.turn_buff_damage or c.turn_buff_to_hit or c.turn_buff_ignore:  # R-ADD-139: lapses
        s = _seat(
            s,
            e.seat,
            buff_damage=c.buff_damage - c.turn_buff_damage,
            buff_to_hit=c.buff_to_hit - c.turn_buff_to_hit,
            buff_ignore_defence=c.buff_ignore_defence - c.turn_buff_ignore,
            turn_buff_damage=0,
            turn_buff_to_hit=0,
            turn_buff_ignore=0,
        )
    if c.wards or c.enhancements:  # R-ADD-90, R-ADD-93: what lasts "this turn" lapses
        s = _seat(
            s,
            e.seat,
            wards=tuple(w for w in c.wards if w.until != "end_of_turn"),
            enhancements=tuple(x for x in c.enhancements if not x.this_turn),
        )
    if c.free_move:  # R-ADD-69: a granted move lapses with the turn
        s = _seat(
            s, e.seat, free_move=0, free_move_source=None, free_move_split=False, free_move_stage=0
        )
    rooted = max(0, c.rooted_turns - 1)  # R-ADD-111: one of its rooted turns is over
    lapsed = c.immobilised_by not in (None, e.seat) or c.rooted_turns > 0
    if lapsed:  # R-ADD-43: its one turn is over
        statuses = c.statuses if rooted else tuple(x for x in c.statuses if x != "immobilised")
        s = _seat(s, e.seat, statuses=statuses, immobilised_by=None, rooted_turns=rooted)
    if c.move_cost or c.draw_penalty or c.defence_malus:  # R-ADD-113/114/119: this turn's
        s = _seat(s, e.seat, move_cost=0, draw_penalty=0, defence_malus=0)
    for x in s.seats:  # R-ADD-174: "cannot use defense cards this turn"
        if x.reactives_barred_by == e.seat:
            s = _seat(s, x.seat, reactives_barred_by=None)
    if any(p.turns and p.seat == e.seat for p in s.placed_terrain):  # R-ADD-161
        s = _place_terrain(
            s,
            tuple(
                replace(p, turns=p.turns - 1) if p.turns and p.seat == e.seat else p
                for p in s.placed_terrain
                if not (p.turns == 1 and p.seat == e.seat)
            ),
        )
    return replace(s, phase=ACTION, turn=s.turn + 1)


def _place_terrain(s: BattleState, placed: tuple[PlacedTerrain, ...]) -> BattleState:
    """R-ADD-160: the board is the setup's with the terrain still placed, the latest on top."""
    setup_board = s.setup_board or s.board
    board = with_terrain(setup_board, {Hex(p.q, p.r): p.kind for p in placed})
    return replace(
        s, placed_terrain=placed, board=board, setup_board=setup_board if placed else None
    )


def _terrain_created(s: BattleState, e: ev.TerrainCreated) -> BattleState:
    made = tuple(
        PlacedTerrain(q, r, e.kind, e.seat, e.card, e.until_round, e.turns, e.damage)
        for q, r in e.hexes
    )
    return _place_terrain(s, (*s.placed_terrain, *made))


def _terrain_entered(s: BattleState, e: ev.TerrainEntered) -> BattleState:
    if e.kind != "mine":
        return s
    spent = (e.at[0], e.at[1], e.maker, e.card)  # R-ADD-165: a mine fires once
    return _place_terrain(
        s, tuple(p for p in s.placed_terrain if (p.q, p.r, p.seat, p.card) != spent)
    )


def _round_ended(s: BattleState, e: ev.RoundEnded) -> BattleState:
    for c in s.seats:  # R-ADD-93: "until end of round"
        if any(w.until == "end_of_round" for w in c.wards):
            s = _seat(s, c.seat, wards=tuple(w for w in c.wards if w.until != "end_of_round"))
    s = _lapse_lent_defence(s, -1)  # R-ADD-123: "until end of round"
    if s.placed_terrain:  # R-ADD-161: what lasts to this round's end, or whose maker is gone
        kept = tuple(
            p
            for p in s.placed_terrain
            if not (0 < p.until_round <= e.round)
            and not (p.turns and not s.seats[p.seat].in_battle)
        )
        if kept != s.placed_terrain:
            s = _place_terrain(s, kept)
    for owner, card, _, _ in s.zones:  # R-ADD-129: the zones end with the round
        if card in s.seats[owner].in_play:
            s = _put_away(s, owner, card)
    return replace(s, zones=()) if s.zones else s


def _zone_created(s: BattleState, e: ev.ZoneCreated) -> BattleState:
    return replace(s, zones=(*s.zones, (e.seat, e.card, e.at[0], e.at[1])))


def _rotation_granted(s: BattleState, e: ev.RotationGranted) -> BattleState:
    return _seat(s, e.seat, free_rotation_used=False)  # R-ADD-189


def _lapse_lent_defence(s: BattleState, until: int) -> BattleState:
    """R-ADD-123: the Defense allies' cards gave until `until`'s next turn (-1: the round's end)."""
    for c in s.seats:
        if any(u == until for u, _ in c.lent_defence):
            kept = tuple(x for x in c.lent_defence if x[0] != until)
            s = _seat(s, c.seat, lent_defence=kept)
    return s


def _damage_cards_removed(s: BattleState, e: ev.DamageCardsRemoved) -> BattleState:
    c = s.seats[e.seat]
    return _seat(s, e.seat, discard=_without(c.discard, e.cards), removed=(*c.removed, *e.cards))


def _warded(s: BattleState, e: ev.AttackWarded) -> BattleState:
    s = _put_away(s, e.seat, e.card)
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, warded_by=f"{e.seat}:{e.card}"))


def _ally_moved(s: BattleState, e: ev.AllyMoved) -> BattleState:
    # Not its own turn's movement: nothing R-HIT-2 or R-TRN-5 counts (R-ADD-126).
    q, r = e.path[-1]
    return _seat(s, e.seat, at=Hex(q, r))


def _deflected(s: BattleState, e: ev.DamageDeflected) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, deflected=e.amount))


def _defence_lent(s: BattleState, e: ev.DefenceLent) -> BattleState:
    lent = s.seats[e.seat].lent_defence
    return _seat(s, e.seat, lent_defence=(*lent, (e.until, e.amount)))


def _won(s: BattleState, e: ev.BattleWon | ev.BattleEnded) -> BattleState:
    return replace(s, phase=OVER, winner=e.side, result=e.reason, prompts=(), attack=None)


def _moved(s: BattleState, e: ev.CasketMoved) -> BattleState:
    c = s.seats[e.seat]
    q, r = e.path[-1]
    s = _seat(
        s,
        e.seat,
        at=Hex(q, r),
        moved=c.moved + len(e.path),
        sp_spent=c.sp_spent + e.cost,
        acted=True,
    )
    if c.free_move and e.by_card is not None and e.by_card == c.free_move_source:
        left = c.free_move - len(e.path)
        if c.free_move_split and c.free_move_stage == 0 and left > 0:
            # R-ADD-109: the move before the attack; the rest waits for one.
            s = _seat(s, e.seat, free_move=left, free_move_stage=1)
        else:  # R-ADD-69: used
            s = _seat(
                s,
                e.seat,
                free_move=0,
                free_move_source=None,
                free_move_split=False,
                free_move_stage=0,
            )
    return s


def _rotated(s: BattleState, e: ev.CasketRotated) -> BattleState:
    c = s.seats[e.seat]
    return _seat(
        s,
        e.seat,
        facing=e.facing,
        sp_spent=c.sp_spent + e.cost,
        free_rotation_used=c.free_rotation_used or e.free_used,
        acted=True,
    )


def _vented(s: BattleState, e: ev.HeatVented) -> BattleState:
    c = s.seats[e.seat]
    return _seat(
        s, e.seat, sp_spent=c.sp_spent + e.cost, heat=max(0, c.heat - e.removed), acted=True
    )


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


def _put_away(s: BattleState, seat: int, card: str) -> BattleState:
    """A resolved card leaves play for the discard pile, or for the removed cards when its
    text removes it from the game (R-ADD-70)."""
    c = s.seats[seat]
    in_play = _without(c.in_play, [card])
    if s.card(card).leaves_game:
        return _seat(s, seat, in_play=in_play, removed=(*c.removed, card))
    return _seat(s, seat, in_play=in_play, discard=(*c.discard, card))


def _heat(s: BattleState, e: ev.HeatChanged) -> BattleState:
    return _seat(s, e.seat, heat=e.heat)


def _discarded(
    s: BattleState, e: ev.CardsDiscarded | ev.DamageTaken | ev.OverspendPaid, pile: str = "discard"
) -> BattleState:
    # Discards, damage and overspend all move cards from hand and deck top to a pile: the
    # discard pile, or under ruleset 2.1 for damage the damage pile (R-DMG-8).
    c = s.seats[e.seat]
    cards = e.from_hand + e.from_deck
    # R-ADD-144: damage is not a discard; a discard or an overspend in the own turn is.
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


def _reshuffled(s: BattleState, e: ev.DeckReshuffled) -> BattleState:
    c = s.seats[e.seat]
    return _seat(s, e.seat, deck=c.deck + e.order, discard=(), damage_cards=c.damage_cards + 1)


def _buff(s: BattleState, e: ev.BuffGained) -> BattleState:
    c = s.seats[e.seat]
    return _seat(
        s,
        e.seat,
        buff_damage=c.buff_damage + e.damage,
        buff_to_hit=c.buff_to_hit + e.to_hit,
        buff_ignore_defence=c.buff_ignore_defence + e.ignore_defence,
        damage_this_turn=c.damage_this_turn + e.damage_this_turn,
    )


def _status(s: BattleState, e: ev.StatusApplied) -> BattleState:
    c = s.seats[e.seat]
    setter = s.active
    if (
        e.status == "immobilised"
        and s.ruleset.damage_pile
        and setter is not None
        and setter != e.seat
    ):
        # R-ADD-43: who set it decides when it lapses (the end of the target's next turn).
        s = _seat(s, e.seat, immobilised_by=setter)
    if e.status in c.statuses:
        return s
    return _seat(s, e.seat, statuses=(*c.statuses, e.status))


def _tokens(s: BattleState, e: ev.TokensChanged) -> BattleState:
    c = s.seats[e.seat]
    pools = dict(c.tokens)
    pools[e.pool] = e.total
    return _seat(s, e.seat, tokens=tuple((k, v) for k, v in pools.items() if v))


def _taint_changed(s: BattleState, e: ev.TaintChanged) -> BattleState:
    return _seat(s, e.seat, taint=e.taint)


def _shuffled_in(s: BattleState, e: ev.CardsShuffledIn) -> BattleState:
    c = s.seats[e.seat]
    return _seat(s, e.seat, discard=_without(c.discard, e.cards), deck=e.order)


def _effect_rolled(s: BattleState, e: ev.EffectRolled) -> BattleState:
    return s  # its consequence follows as its own event


def _sp_penalty(s: BattleState, e: ev.SpPenaltyImposed) -> BattleState:
    return _seat(s, e.seat, sp_penalty=s.seats[e.seat].sp_penalty + e.amount)


def _damage_scheduled(s: BattleState, e: ev.DamageScheduled) -> BattleState:
    return _seat(s, e.seat, damage_next_turn=s.seats[e.seat].damage_next_turn + e.amount)


def _seeds_planted(s: BattleState, e: ev.SeedsPlanted) -> BattleState:
    q, r = e.at
    others = tuple(x for x in s.seeds if (x[0], x[1]) != (q, r))
    return replace(s, seeds=(*others, (q, r, e.total)))


def _seeds_detonated(s: BattleState, e: ev.SeedsDetonated) -> BattleState:
    return replace(s, seeds=())


def _move_granted(s: BattleState, e: ev.MoveGranted) -> BattleState:
    return _seat(
        s,
        e.seat,
        free_move=e.hexes,
        free_move_source=e.source,
        free_move_split=e.split,
        free_move_stage=0,
    )


def _defence_raised(s: BattleState, e: ev.DefenceRaised) -> BattleState:
    return _seat(s, e.seat, defence_bonus=s.seats[e.seat].defence_bonus + e.amount)


def _untargetable(s: BattleState, e: ev.UntargetableGained) -> BattleState:
    # R-ADD-155: a later card's untargetability replaces an earlier one.
    return _seat(s, e.seat, untargetable=e.against, untargetable_until_attack=e.until_attack)


def _untargetable_ended(s: BattleState, e: ev.UntargetableEnded) -> BattleState:
    return _seat(s, e.seat, untargetable="", untargetable_until_attack=False)


def _hand_revealed(s: BattleState, e: ev.HandRevealed) -> BattleState:
    return s  # information only (R-ADD-156)


def _looked_at(s: BattleState, e: ev.CardsLookedAt) -> BattleState:
    return _seat(s, e.seat, arranging=e.source)  # R-ADD-157: the prompt's card


def _arranged(s: BattleState, e: ev.DeckArranged) -> BattleState:
    deck = s.seats[e.seat].deck
    if sorted(e.order) != sorted(deck[: len(e.order)]):
        raise ValueError("DeckArranged must reorder the top of the deck (R-ADD-157)")
    return _seat(s, e.seat, deck=(*e.order, *deck[len(e.order) :]), arranging="")


def _ultimatum_answered(s: BattleState, e: ev.UltimatumAnswered) -> BattleState:
    skip = s.seats[e.seat].skip_next_turn or e.option == "skip_turn"
    return _seat(s, e.seat, skip_next_turn=skip)


def _turn_skipped(s: BattleState, e: ev.TurnSkipped) -> BattleState:
    # R-ADD-159: the turn ends at once (decide finishes it from the END phase).
    return replace(_seat(s, e.seat, skip_next_turn=False), phase=END)


def _bargained(s: BattleState, e: ev.HitDamageBargained) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, damage=e.damage))


def _bargained_away(s: BattleState, e: ev.HitBargainedAway) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, grade="miss", damage=0))


def _wreck_scavenged(s: BattleState, e: ev.WreckScavenged) -> BattleState:
    return _seat(s, e.wreck, wreck_removed=True)


def _target_bonus(s: BattleState, e: ev.TargetBonusGained) -> BattleState:
    marks = s.seats[e.seat].bonus_against
    return _seat(s, e.seat, bonus_against=(*marks, (e.target, e.damage, e.source)))


def _suffering(s: BattleState, e: ev.SufferingRolled) -> BattleState:
    return s


def _declared(s: BattleState, e: ev.AttackDeclared) -> BattleState:
    attack = AttackInProgress(
        attacker=e.attacker,
        target=e.target,
        card=e.card,
        component=e.component,
        target_number=e.target_number,
        side=e.side,
        damage_by_grade=e.damage_by_grade,
        defence_modifier=e.defence_modifier,
        reactive_allowed=e.reactive_allowed,
        shield_allowed=e.shield_allowed,
        enhanced_by=e.enhanced_by,
        further=e.further,
    )
    if s.seats[e.attacker].free_move_split:  # R-ADD-109: the rest after the attack
        s = _seat(s, e.attacker, free_move_stage=2)
    # The attack spends the next-attack buffs and the jam penalty (R-DMG-1).
    s = _seat(
        s,
        e.attacker,
        attacked=True,  # R-ADD-134
        held_bonuses=(),  # R-ADD-139: spent by this attack
        turn_buff_damage=0,  # R-ADD-139: spent, nothing left to lapse
        turn_buff_to_hit=0,
        turn_buff_ignore=0,
        buff_damage=0,
        buff_to_hit=0,
        buff_ignore_defence=0,
        jam_penalty=0,
        jam_this_turn=False,
        # R-ADD-156: an attack on a marked target spends its marks (decide added them as
        # BuffGained just before).
        bonus_against=tuple(m for m in s.seats[e.attacker].bonus_against if m[0] != e.target),
    )
    return replace(s, attack=attack)


def _rolled(s: BattleState, e: ev.AttackRolled) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, grade=e.grade, damage=e.damage))


def _jammed(s: BattleState, e: ev.WeaponJammed) -> BattleState:
    c = s.seats[e.seat]
    return _seat(
        s,
        e.seat,
        hand=_without(c.hand, e.discarded),
        discard=c.discard + e.discarded,
        heat=e.heat,
        jam_penalty=-2,
        jam_this_turn=True,
    )


def _reactive(s: BattleState, e: ev.ReactivePlayed) -> BattleState:
    c = s.seats[e.seat]
    attack = s.attack
    assert attack is not None
    s = _seat(s, e.seat, hand=_without(c.hand, [e.card]), in_play=(*c.in_play, e.card))
    s = _count_play(s, e.seat, e.card)  # a reactive card's plays count too (R-ADD-133)
    return replace(
        s,
        attack=replace(attack, reactive=e.card, reduction=e.reduction, reactive_path=e.path),
    )


def _declined(s: BattleState, e: ev.ReactiveDeclined) -> BattleState:
    a = s.attack
    if a is not None and e.seat != a.target:  # an ally declined to cover (R-ADD-122)
        return replace(s, attack=replace(a, cover_declined=(*a.cover_declined, e.seat)))
    return s


def _covered(s: BattleState, e: ev.AttackCovered) -> BattleState:
    c = s.seats[e.seat]
    attack = s.attack
    assert attack is not None
    if e.card in c.hand:  # a pledge is in play already (R-ADD-122)
        s = _seat(s, e.seat, hand=_without(c.hand, [e.card]), in_play=(*c.in_play, e.card))
    s = _count_play(s, e.seat, e.card)  # a cover's too (R-ADD-122, R-ADD-133)
    return replace(
        s,
        attack=replace(attack, covered_by=e.seat, cover_card=e.card, cover_reduction=e.reduction),
    )


def _defence(s: BattleState, e: ev.DefenceRolled) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, final_damage=e.final_damage, pierced=e.pierce))


def _attack_ended(s: BattleState, e: ev.AttackEnded) -> BattleState:
    a = s.attack
    if a is not None and a.reactive is not None:
        s = _put_away(s, a.target, a.reactive)
    if a is not None and a.covered_by is not None and a.cover_card is not None:
        s = _put_away(s, a.covered_by, a.cover_card)
    if a is not None and s.seats[a.target].thorns_once:
        s = _seat(s, a.target, thorns_once=0)  # R-ADD-130: spent on this attack
    if s.seats[e.attacker].armed_spend is not None:  # R-ADD-116: spent with this attack
        s = _seat(s, e.attacker, armed_spend=None)
    # R-ADD-80: a card with attacks still to make stays in play until its last one.
    if not any(f.card == e.card for f in s.follow_ups):
        s = _put_away(s, e.attacker, e.card)
    return replace(s, attack=None)


def _attacks_queued(s: BattleState, e: ev.AttacksQueued) -> BattleState:
    queued = tuple(
        FollowUp(e.attacker, e.card, t, r, d, e.component, e.after_kill, e.ignore_defence)
        for t, r, d in e.attacks
    )
    return replace(s, follow_ups=(*s.follow_ups, *queued))


def _damage_aura_raised(s: BattleState, e: ev.DamageAuraRaised) -> BattleState:
    c = s.seats[e.seat]
    within = max(c.damage_aura_within, e.within)
    return _seat(s, e.seat, damage_aura=c.damage_aura + e.amount, damage_aura_within=within)


def _follow_up_taken(s: BattleState, e: ev.FollowUpTaken) -> BattleState:
    s = replace(s, follow_ups=s.follow_ups[1:])
    # Passed over as the card's last attack: nothing else will put the card away.
    last = not any(f.card == e.card for f in s.follow_ups)
    if not e.made and last and e.card in s.seats[e.attacker].in_play:
        s = _put_away(s, e.attacker, e.card)
    return s


def _prompt_opened(s: BattleState, e: ev.PromptOpened) -> BattleState:
    prompt = Prompt(e.seat, e.kind, e.amount, e.component, e.rule, e.reason)
    phase = END if e.kind == "discard_down" else s.phase
    return replace(s, prompts=(*s.prompts, prompt), phase=phase)


def _prompt_closed(s: BattleState, e: ev.PromptClosed) -> BattleState:
    kept = tuple(p for p in s.prompts if (p.seat, p.kind) != (e.seat, e.kind))
    return replace(s, prompts=kept)


def _with_total(c: CasketState, component: str, total: int) -> tuple[int, ...]:
    damage = list(c.component_damage)
    damage[COMPONENTS.index(component)] = total
    return tuple(damage)


def _component_damaged(s: BattleState, e: ev.ComponentDamaged) -> BattleState:
    c = s.seats[e.seat]
    return _seat(s, e.seat, component_damage=_with_total(c, e.component, e.total))


def _component_destroyed(s: BattleState, e: ev.ComponentDestroyed) -> BattleState:
    c = s.seats[e.seat]
    return _seat(
        s,
        e.seat,
        destroyed=(*c.destroyed, e.component),
        hand=_without(c.hand, e.discarded),
        discard=c.discard + e.discarded,
    )


def _wound(s: BattleState, e: ev.WoundFlipped) -> BattleState:
    c = s.seats[e.seat]
    return _seat(
        s, e.seat, wound_deck=_without(c.wound_deck, [e.wound]), wounds=(*c.wounds, e.wound)
    )


def _survival(s: BattleState, e: ev.SurvivalRolled) -> BattleState:
    return s


def _pilot_killed(s: BattleState, e: ev.PilotKilled) -> BattleState:
    return _seat(s, e.seat, pilot_dead=True)


def _damage_taken(s: BattleState, e: ev.DamageTaken) -> BattleState:
    # Ruleset 2.1: lost for good, face up on the damage pile (R-DMG-8).
    return _discarded(s, e, "damage_pile" if s.ruleset.damage_pile else "discard")


def _taint(s: BattleState, e: ev.TaintAdjusted) -> BattleState:
    return _seat(s, e.seat, taint=e.taint)


def _overloaded(s: BattleState, e: ev.TaintOverloaded) -> BattleState:
    return s  # its wounds follow as WoundFlipped events


def _withdrew(s: BattleState, e: ev.CasketWithdrew) -> BattleState:
    s = replace(s, prompts=tuple(p for p in s.prompts if p.seat != e.seat))
    s = _lapse_lent_defence(s, e.seat)  # R-ADD-123: its next turn will not come
    return _seat(s, e.seat, withdrawn=True)


def _defeated(s: BattleState, e: ev.CasketDefeated) -> BattleState:
    # A defeated casket's open prompts answer nothing any more.
    s = replace(s, prompts=tuple(p for p in s.prompts if p.seat != e.seat))
    s = _lapse_lent_defence(s, e.seat)  # R-ADD-123: its next turn will not come
    # R-ADD-144: a casket defeated while an attack on it is resolved is that attacker's kill
    # (R-ADD-131: its killing blow).
    a = s.attack
    if a is not None and a.target == e.seat:
        kills = (*s.seats[a.attacker].kills, e.seat)
        s = _seat(s, a.attacker, kills=kills, destroyed_enemy=True)
    return _seat(s, e.seat, defeated=True, defeated_round=s.round)


def _heat_adjusted(s: BattleState, e: ev.HeatAdjusted) -> BattleState:
    return _seat(s, e.seat, heat=e.heat)


def _component_adjusted(s: BattleState, e: ev.ComponentDamageAdjusted) -> BattleState:
    c = s.seats[e.seat]
    destroyed = c.destroyed
    if e.destroyed and e.component not in destroyed:
        destroyed = (*destroyed, e.component)
    elif not e.destroyed and e.component in destroyed:
        destroyed = tuple(x for x in destroyed if x != e.component)
    return _seat(
        s, e.seat, component_damage=_with_total(c, e.component, e.total), destroyed=destroyed
    )


def _relocated(s: BattleState, e: ev.CasketRelocated) -> BattleState:
    return _seat(s, e.seat, at=Hex(*e.at), facing=e.facing)


def _returned(s: BattleState, e: ev.CardReturned) -> BattleState:
    c = s.seats[e.seat]
    zone: tuple[str, ...] = getattr(c, e.from_zone)
    return _seat(s, e.seat, **{e.from_zone: _without(zone, [e.card])}, hand=(*c.hand, e.card))


def _reverted(s: BattleState, e: ev.CommandReverted) -> BattleState:
    from .snapshot import state_from_dict

    restored = state_from_dict(e.state, s)
    return replace(restored, version=s.version)


def _dice_revealed(s: BattleState, e: ev.DiceSecretRevealed) -> BattleState:
    return replace(s, dice_revealed=True)


# --- lasting effects on an enemy (issue 17, dot) -------------------------------------------------


def _rooted(s: BattleState, e: ev.Rooted) -> BattleState:
    c = s.seats[e.seat]
    statuses = c.statuses if "immobilised" in c.statuses else (*c.statuses, "immobilised")
    return _seat(s, e.seat, rooted_turns=max(c.rooted_turns, e.turns), statuses=statuses)


def _bleed_applied(s: BattleState, e: ev.BleedApplied) -> BattleState:
    return _seat(s, e.seat, bleed=e.total)


def _bleed_ticked(s: BattleState, e: ev.BleedTicked) -> BattleState:
    return _seat(s, e.seat, bleed=e.total)


def _ongoing_damage(s: BattleState, e: ev.OngoingDamageScheduled) -> BattleState:
    have = s.seats[e.seat].ongoing_damage
    turns = max(len(have), e.turns)
    padded = (*have, *(0,) * (turns - len(have)))
    added = tuple(x + (e.amount if i < e.turns else 0) for i, x in enumerate(padded))
    return _seat(s, e.seat, ongoing_damage=added)


def _move_cost(s: BattleState, e: ev.MoveCostRaised) -> BattleState:
    c = s.seats[e.seat]
    return _seat(s, e.seat, move_cost_next_turn=c.move_cost_next_turn + e.amount)


def _draw_penalty(s: BattleState, e: ev.DrawPenaltyImposed) -> BattleState:
    return _seat(s, e.seat, draw_penalty=s.seats[e.seat].draw_penalty + e.n)


def _attacks_forgone(s: BattleState, e: ev.AttacksForgone) -> BattleState:
    return _seat(s, e.seat, no_attacks=True)


def _spend_armed(s: BattleState, e: ev.SpendArmed) -> BattleState:
    return _seat(s, e.seat, armed_spend=e.source)


def _defence_lowered(s: BattleState, e: ev.DefenceLowered) -> BattleState:
    return _seat(s, e.seat, defence_malus=s.seats[e.seat].defence_malus + e.amount)


# --- issue 17, buffs --------------------------------------------------------------------------------


def _enhanced(s: BattleState, e: ev.AttackEnhanced) -> BattleState:
    c = s.seats[e.seat]
    x = Enhancement(
        e.source,
        e.attacks,
        e.damage,
        e.to_hit,
        e.ignore_defence,
        e.ignore_cover,
        e.ignore_range,
        e.cannot_miss,
        e.ignore_defence_buffs,
        e.this_turn,
        e.every,
        e.sp_cost,
        e.reach,
        e.vs_bleeding,
    )
    return _seat(s, e.seat, enhancements=(*c.enhancements, x))


def _enhancements_spent(s: BattleState, e: ev.EnhancementsSpent) -> BattleState:
    c = s.seats[e.seat]
    kept = tuple(x for i, x in enumerate(c.enhancements) if i not in e.indices)
    return _seat(s, e.seat, enhancements=kept)


def _ward_raised(s: BattleState, e: ev.WardRaised) -> BattleState:
    c = s.seats[e.seat]
    w = Ward(
        e.source,
        e.until,
        e.against,
        e.defence,
        e.to_hit,
        e.damage,
        e.reduce,
        e.cap,
        e.at_least,
        e.uses,
        e.recover,
        e.immobile,
    )
    return _seat(s, e.seat, wards=(*c.wards, w))


def _ward_used(s: BattleState, e: ev.WardUsed) -> BattleState:
    a = s.attack
    if a is not None and a.target == e.seat and e.after is not None:
        # The attack's damage after the defender's wards: what "deals damage" reads (R-ADD-95).
        s = replace(s, attack=replace(a, final_damage=e.after))
    c = s.seats[e.seat]
    w = c.wards[e.index]
    if not w.uses:
        return s
    wards = list(c.wards)
    if w.uses == 1:  # R-ADD-93: its last use spent
        del wards[e.index]
    else:
        wards[e.index] = replace(w, uses=w.uses - 1)
    return _seat(s, e.seat, wards=tuple(wards))


def _defence_buffs_ignored(s: BattleState, e: ev.DefenceBuffsIgnored) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, defence_buffs_ignored=True))


def _sp_gained(s: BattleState, e: ev.SpGained) -> BattleState:
    # R-ADD-95: as SP not yet spent; TurnStarted resets the count, so it lasts this turn.
    return _seat(s, e.seat, sp_spent=s.seats[e.seat].sp_spent - e.amount)


def _pushed(s: BattleState, e: ev.CasketPushed) -> BattleState:
    """R-ADD-100: only the hex changes; a push is no move of the casket's own (R-HIT-2)."""
    if not e.path:
        return s
    q, r = e.path[-1]
    return _seat(s, e.seat, at=Hex(q, r))


def _teleported(s: BattleState, e: ev.CasketTeleported) -> BattleState:
    """R-ADD-102: the distance counts as hexes moved this turn (R-HIT-2)."""
    c = s.seats[e.seat]
    return _seat(s, e.seat, at=Hex(*e.at), moved=c.moved + e.hexes, acted=True)


def _marked(s: BattleState, e: ev.EnemyMarked) -> BattleState:
    return _seat(s, e.seat, marked=e.target, mark_source=e.source)  # R-ADD-148


# issue 17, triggers


def _thorns_raised(s: BattleState, e: ev.ThornsRaised) -> BattleState:
    c = s.seats[e.seat]
    if e.until == "next_attack":
        return _seat(s, e.seat, thorns_once=c.thorns_once + e.damage)
    if e.melee_only:
        return _seat(s, e.seat, thorns_melee=c.thorns_melee + e.damage)
    return _seat(s, e.seat, thorns=c.thorns + e.damage)


def _lasting_bonus(s: BattleState, e: ev.LastingBonusGained) -> BattleState:
    return _seat(s, e.seat, lasting_damage=e.total)


def _sp_boosted(s: BattleState, e: ev.SpBoosted) -> BattleState:
    c = s.seats[e.seat]
    if e.maximum:
        return _seat(s, e.seat, sp_max=c.sp_max + e.amount)
    return _seat(s, e.seat, sp_gained=c.sp_gained + e.amount)


def _turn_buff(s: BattleState, e: ev.TurnBuffGained) -> BattleState:
    c = s.seats[e.seat]
    return _seat(
        s,
        e.seat,
        buff_damage=c.buff_damage + e.damage,
        buff_to_hit=c.buff_to_hit + e.to_hit,
        buff_ignore_defence=c.buff_ignore_defence + e.ignore_defence,
        turn_buff_damage=c.turn_buff_damage + e.damage,
        turn_buff_to_hit=c.turn_buff_to_hit + e.to_hit,
        turn_buff_ignore=c.turn_buff_ignore + e.ignore_defence,
    )


def _counter_raised(s: BattleState, e: ev.CounterRaised) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, extra_counter=s.attack.extra_counter + e.amount))


def _self_damage_due(s: BattleState, e: ev.SelfDamageDue) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, self_damage=s.attack.self_damage + e.amount))


def _bonus_held(s: BattleState, e: ev.BonusHeld) -> BattleState:
    return _seat(s, e.seat, held_bonuses=(*s.seats[e.seat].held_bonuses, e.source))


def _component_prevented(s: BattleState, e: ev.ComponentDamagePrevented) -> BattleState:
    # R-ADD-136: the passive's use this round, counted as a round's plays are (R-ADD-63).
    c = s.seats[e.seat]
    return _seat(s, e.seat, limited_plays=(*c.limited_plays, f"round:{e.source}"))


def _damage_reduced(s: BattleState, e: ev.DamageReduced) -> BattleState:
    return s  # the damage prompt that follows asks for the reduced amount


def _form_taken(s: BattleState, e: ev.FormTaken) -> BattleState:
    return _seat(s, e.seat, form=e.form, form_round=e.round)  # R-ADD-170


def _duel_challenged(s: BattleState, e: ev.DuelChallenged) -> BattleState:
    s = _seat(s, e.seat, duel_source=e.source)  # R-ADD-174
    return _seat(s, e.target, challenged_by=e.seat)


def _duel_answered(s: BattleState, e: ev.DuelAnswered) -> BattleState:
    """R-ADD-174: a duel between the two, or Coward's Mark on the one who refused."""
    s = _seat(s, e.seat, challenged_by=None)
    if not e.accepted:
        return _seat(s, e.seat, cowards_mark=e.mark_damage, coward_of=e.challenger)
    s = _seat(s, e.seat, duel_with=e.challenger, duel_challenger=e.challenger)
    return _seat(s, e.challenger, duel_with=e.seat, duel_challenger=e.challenger)


def _end_duel(s: BattleState, seat: int) -> BattleState:
    """R-ADD-174: the duel `seat` challenged to ends as its next turn starts."""
    for x in s.seats:
        if x.duel_challenger == seat:
            s = _seat(s, x.seat, duel_with=None, duel_challenger=None)
    return s


def _reactives_barred(s: BattleState, e: ev.ReactivesBarred) -> BattleState:
    return _seat(s, e.seat, reactives_barred_by=e.by)  # R-ADD-174


_HANDLERS: dict[type[ev.Event], Callable[[Any, Any], BattleState]] = {
    ev.BattleCreated: _created,
    ev.DeckShuffled: _deck_shuffled,
    ev.WoundDeckShuffled: _wound_deck,
    ev.CardsDrawn: _drawn,
    ev.HandKept: _hand_kept,
    ev.MulliganTaken: _mulligan,
    ev.RoundStarted: _round_started,
    ev.InitiativeRolled: _initiative,
    ev.TurnStarted: _turn_started,
    ev.SpRestored: _sp_restored,
    ev.StrainChecked: _strain,
    ev.SpDrained: _sp_drained,
    ev.TurnEnded: _turn_ended,
    ev.RoundEnded: _round_ended,
    ev.BattleWon: _won,
    ev.CasketMoved: _moved,
    ev.CasketRotated: _rotated,
    ev.HeatVented: _vented,
    ev.CardPlayed: _card_played,
    ev.CardResolved: _card_resolved,
    ev.OverspendPaid: _discarded,
    ev.HeatChanged: _heat,
    ev.CardsDiscarded: _discarded,
    ev.CardsRecovered: _recovered,
    ev.DeckReshuffled: _reshuffled,
    ev.BuffGained: _buff,
    ev.StatusApplied: _status,
    ev.TokensChanged: _tokens,
    ev.TaintChanged: _taint_changed,
    ev.MoveGranted: _move_granted,
    ev.SpPenaltyImposed: _sp_penalty,
    ev.DamageScheduled: _damage_scheduled,
    ev.SeedsPlanted: _seeds_planted,
    ev.SeedsDetonated: _seeds_detonated,
    ev.EffectRolled: _effect_rolled,
    ev.CardsShuffledIn: _shuffled_in,
    ev.DefenceRaised: _defence_raised,
    ev.SufferingRolled: _suffering,
    ev.AttackDeclared: _declared,
    ev.AttackRolled: _rolled,
    ev.WeaponJammed: _jammed,
    ev.ReactivePlayed: _reactive,
    ev.ReactiveDeclined: _declined,
    ev.DefenceRolled: _defence,
    ev.AttackEnded: _attack_ended,
    ev.PromptOpened: _prompt_opened,
    ev.PromptClosed: _prompt_closed,
    ev.DamageTaken: _damage_taken,
    ev.ComponentDamaged: _component_damaged,
    ev.ComponentDestroyed: _component_destroyed,
    ev.WoundFlipped: _wound,
    ev.SurvivalRolled: _survival,
    ev.PilotKilled: _pilot_killed,
    ev.CasketDefeated: _defeated,
    ev.CasketWithdrew: _withdrew,
    ev.BattleEnded: _won,
    ev.TaintAdjusted: _taint,
    ev.TaintOverloaded: _overloaded,
    ev.HeatAdjusted: _heat_adjusted,
    ev.ComponentDamageAdjusted: _component_adjusted,
    ev.CasketRelocated: _relocated,
    ev.CardReturned: _returned,
    ev.CommandReverted: _reverted,
    ev.DiceSecretRevealed: _dice_revealed,
    # issue 17, dot
    ev.Rooted: _rooted,
    ev.BleedApplied: _bleed_applied,
    ev.BleedTicked: _bleed_ticked,
    ev.OngoingDamageScheduled: _ongoing_damage,
    ev.MoveCostRaised: _move_cost,
    ev.DrawPenaltyImposed: _draw_penalty,
    ev.AttacksForgone: _attacks_forgone,
    ev.SpendArmed: _spend_armed,
    ev.DefenceLowered: _defence_lowered,
    # issue 17, area
    ev.AttacksQueued: _attacks_queued,
    ev.FollowUpTaken: _follow_up_taken,
    ev.DamageAuraRaised: _damage_aura_raised,
    # issue 17, buffs
    ev.AttackEnhanced: _enhanced,
    ev.EnhancementsSpent: _enhancements_spent,
    ev.WardRaised: _ward_raised,
    ev.WardUsed: _ward_used,
    ev.SpGained: _sp_gained,
    ev.DefenceBuffsIgnored: _defence_buffs_ignored,
    ev.CasketPushed: _pushed,  # issue 17, move
    ev.CasketTeleported: _teleported,  # issue 17, move
    ev.EnemyMarked: _marked,
    # issue 17, misc
    ev.UntargetableGained: _untargetable,
    ev.UntargetableEnded: _untargetable_ended,
    ev.HandRevealed: _hand_revealed,
    ev.TargetBonusGained: _target_bonus,
    ev.CardsLookedAt: _looked_at,
    ev.DeckArranged: _arranged,
    ev.WreckScavenged: _wreck_scavenged,
    ev.UltimatumAnswered: _ultimatum_answered,
    ev.TurnSkipped: _turn_skipped,
    ev.HitDamageBargained: _bargained,
    ev.HitBargainedAway: _bargained_away,
    ev.AttackCovered: _covered,  # issue 17, allies
    ev.DefenceLent: _defence_lent,  # issue 17, allies
    ev.DamageCardsRemoved: _damage_cards_removed,  # issue 17, allies
    ev.DamageDeflected: _deflected,  # issue 17, allies
    ev.AllyMoved: _ally_moved,  # issue 17, allies
    ev.AttackWarded: _warded,  # issue 17, allies
    ev.ZoneCreated: _zone_created,  # issue 17, allies
    # issue 17, triggers
    ev.ThornsRaised: _thorns_raised,
    ev.LastingBonusGained: _lasting_bonus,
    ev.SpBoosted: _sp_boosted,
    ev.DamageReduced: _damage_reduced,
    ev.TurnBuffGained: _turn_buff,
    ev.ComponentDamagePrevented: _component_prevented,
    ev.CounterRaised: _counter_raised,
    ev.SelfDamageDue: _self_damage_due,
    ev.BonusHeld: _bonus_held,
    ev.FormTaken: _form_taken,  # issue 17, forms
    ev.DuelChallenged: _duel_challenged,  # issue 17, forms
    ev.DuelAnswered: _duel_answered,  # issue 17, forms
    ev.ReactivesBarred: _reactives_barred,  # issue 17, forms
    ev.TerrainCreated: _terrain_created,  # issue 17, terrain
    ev.TerrainEntered: _terrain_entered,  # issue 17, terrain
    ev.RotationGranted: _rotation_granted,  # issue 17, combos
}
assert set(_HANDLERS) == set(ev.EVENT_TYPES.values()), "every event type needs a handler"


def evolve(state: BattleState | None, event: ev.Event) -> BattleState:
    """The state after one more event; `state` is None only before BattleCreated.

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.setup import parse_setup
    >>> s = evolve(None, ev.BattleCreated("b1", parse_setup(demo_setup()), "1.0.0"))
    >>> s.version, s.phase, len(s.seats[0].deck)
    (1, 'setup', 30)
    """
    handler = _HANDLERS[type(event)]
    if state is None and not isinstance(event, ev.BattleCreated):
        raise ValueError(f"a battle's first event is BattleCreated, not {event.type}")
    new = handler(state, event)
    version = (0 if state is None else state.version) + 1
    if new is state:
        return replace(new, version=version)
    # `new` was built for this event alone and nobody holds it yet: set its version in
    # place rather than copying the whole state once more (replay's hot path).
    object.__setattr__(new, "version", version)
    return new


def replay(events: Iterable[ev.Event], state: BattleState | None = None) -> BattleState:
    """Fold `events` over `state` (None: from the beginning).

    >>> replay([])
    Traceback (most recent call last):
    ...
    ValueError: no events to replay
    """
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events to replay")
    return state


__all__ = ["SETUP", "evolve", "replay"]
