"""Events of the battle's flow: creation, decks, hands, rounds, turns, prompts, reverts."""

from __future__ import annotations

from .. import events as ev
from ..setup import initial_state
from ..state import (
    ACTION,
    END,
    OVER,
    BattleState,
    Prompt,
)
from ..state import with_changes as replace
from .common import Handler, _free_move_gone, _seat, _without
from .moves import _place_terrain
from .piles import _put_away
from .statuses import _end_duel, _lapse_lent_defence


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
    if any(u.owner == e.seat for u in s.units):  # R-ADD-401: a move and an attack a turn
        s = replace(
            s,
            units=tuple(
                replace(u, moved=False, attacked=False) if u.owner == e.seat else u for u in s.units
            ),
        )
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
        card_cost=c.card_cost_next_turn,  # R-ADD-341: this is its "1 turn"
        card_cost_next_turn=0,
        sp_locked=bool(c.sp_locks) and c.sp_locks[0],  # R-ADD-343: one of its turns
        sp_locks=c.sp_locks[1:],
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
    if c.loop_armed:  # R-ADD-422: "next damage you take this turn": the turn is over
        s = _seat(s, e.seat, loop_armed="")
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
    # R-ADD-271: "until end of turn" is the turn it was raised in, whoever's: a reactive
    # card's ward, raised in the attacker's turn, lapses as that turn ends.
    for other in s.seats:
        if other.seat != e.seat and any(w.until == "end_of_turn" for w in other.wards):
            kept = tuple(w for w in other.wards if w.until != "end_of_turn")
            s = _seat(s, other.seat, wards=kept)
    for x in s.seats:  # R-ADD-376: "each turn", whoever's: a new budget
        if x.turn_negated:
            s = _seat(s, x.seat, turn_negated=())
    if c.timed:  # R-ADD-375: one of the turns its timed cards last is over
        s = _seat(s, e.seat, timed=tuple((x, n - 1) for x, n in c.timed if n > 1))
    rooted = max(0, c.rooted_turns - 1)  # R-ADD-111: one of its rooted turns is over
    lapsed = c.immobilised_by not in (None, e.seat) or c.rooted_turns > 0
    if lapsed:  # R-ADD-43: its one turn is over
        statuses = c.statuses if rooted else tuple(x for x in c.statuses if x != "immobilised")
        s = _seat(s, e.seat, statuses=statuses, immobilised_by=None, rooted_turns=rooted)
    if c.move_cost or c.draw_penalty or c.defence_malus or c.card_cost:  # R-ADD-113/114/119/341
        s = _seat(s, e.seat, move_cost=0, draw_penalty=0, defence_malus=0, card_cost=0)
    if c.forbidden_classes or c.sp_locked:  # R-ADD-340, R-ADD-343: this turn's
        s = _seat(s, e.seat, forbidden_classes=(), sp_locked=False)
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


def _round_ended(s: BattleState, e: ev.RoundEnded) -> BattleState:
    for c in s.seats:  # R-ADD-344: an ally's "+1 movement until end of round" unused
        if c.free_move:
            s = _free_move_gone(s, c.seat)
    for c in s.seats:  # R-ADD-93: "until end of round"
        if any(w.until == "end_of_round" for w in c.wards):
            s = _seat(s, c.seat, wards=tuple(w for w in c.wards if w.until != "end_of_round"))
    s = _lapse_lent_defence(s, -1)  # R-ADD-123: "until end of round"
    for c in s.seats:  # R-ADD-370: "until end of round, +3 damage to all attacks"
        if any(x.this_round for x in c.enhancements):
            lasting = tuple(x for x in c.enhancements if not x.this_round)
            s = _seat(s, c.seat, enhancements=lasting)
    if s.placed_terrain:  # R-ADD-161: what lasts to this round's end, or whose maker is gone
        kept = tuple(
            p
            for p in s.placed_terrain
            if not (0 < p.until_round <= e.round)
            and not (p.turns and not s.seats[p.seat].in_battle)
        )
        if kept != s.placed_terrain:
            s = _place_terrain(s, kept)
    if any(0 < u.bonus_until_round <= e.round for u in s.units):  # R-ADD-408
        s = replace(
            s,
            units=tuple(
                replace(u, bonus_damage=0, bonus_defence=0, bonus_until_round=0)
                if 0 < u.bonus_until_round <= e.round
                else u
                for u in s.units
            ),
        )
    for owner, card, _, _ in s.zones:  # R-ADD-129: the zones end with the round
        if card in s.seats[owner].in_play:
            s = _put_away(s, owner, card)
    return replace(s, zones=()) if s.zones else s


def _won(s: BattleState, e: ev.BattleWon | ev.BattleEnded) -> BattleState:
    # R-ADD-402: summoned units fight "until destroyed or mission ends": none outlasts it.
    return replace(s, phase=OVER, winner=e.side, result=e.reason, prompts=(), attack=None, units=())


def _ultimatum_answered(s: BattleState, e: ev.UltimatumAnswered) -> BattleState:
    skip = s.seats[e.seat].skip_next_turn or e.option == "skip_turn"
    return _seat(s, e.seat, skip_next_turn=skip)


def _turn_skipped(s: BattleState, e: ev.TurnSkipped) -> BattleState:
    # R-ADD-159: the turn ends at once (decide finishes it from the END phase).
    return replace(_seat(s, e.seat, skip_next_turn=False), phase=END)


def _prompt_opened(s: BattleState, e: ev.PromptOpened) -> BattleState:
    prompt = Prompt(e.seat, e.kind, e.amount, e.component, e.rule, e.reason)
    phase = END if e.kind == "discard_down" else s.phase
    return replace(s, prompts=(*s.prompts, prompt), phase=phase)


def _prompt_closed(s: BattleState, e: ev.PromptClosed) -> BattleState:
    kept = tuple(p for p in s.prompts if (p.seat, p.kind) != (e.seat, e.kind))
    return replace(s, prompts=kept)


def _reverted(s: BattleState, e: ev.CommandReverted) -> BattleState:
    from ..snapshot import state_from_dict

    restored = state_from_dict(e.state, s)
    return replace(restored, version=s.version)


def _dice_revealed(s: BattleState, e: ev.DiceSecretRevealed) -> BattleState:
    return replace(s, dice_revealed=True)


HANDLERS: dict[type[ev.Event], Handler] = {
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
    ev.PromptOpened: _prompt_opened,
    ev.PromptClosed: _prompt_closed,
    ev.BattleEnded: _won,
    ev.CommandReverted: _reverted,
    ev.DiceSecretRevealed: _dice_revealed,
    ev.UltimatumAnswered: _ultimatum_answered,
    ev.TurnSkipped: _turn_skipped,
}
