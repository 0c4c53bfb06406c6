"""Events of statuses and standing buffs: buffs, tokens, penalties, marks, forms, duels, lent defence."""

from __future__ import annotations

from .. import events as ev
from ..state import (
    BattleState,
    CasketState,
)
from .common import Handler, _seat


def _lapse_lent_defence(s: BattleState, until: int) -> BattleState:
    """R-ADD-123: the Defense allies' cards gave until `until`'s next turn (-1: the round's end)."""
    for c in s.seats:
        if any(u == until for u, _ in c.lent_defence):
            kept = tuple(x for x in c.lent_defence if x[0] != until)
            s = _seat(s, c.seat, lent_defence=kept)
    return s


def _defence_lent(s: BattleState, e: ev.DefenceLent) -> BattleState:
    lent = s.seats[e.seat].lent_defence
    return _seat(s, e.seat, lent_defence=(*lent, (e.until, e.amount)))


def _next_attack_buff(c: CasketState, e: ev.BuffGained | ev.TurnBuffGained) -> dict[str, int]:
    """The seat's next-attack buff with the event's added: what both kinds of buff raise."""
    return {
        "buff_damage": c.buff_damage + e.damage,
        "buff_to_hit": c.buff_to_hit + e.to_hit,
        "buff_ignore_defence": c.buff_ignore_defence + e.ignore_defence,
    }


def _buff(s: BattleState, e: ev.BuffGained) -> BattleState:
    c = s.seats[e.seat]
    return _seat(
        s,
        e.seat,
        **_next_attack_buff(c, e),
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


def _sp_penalty(s: BattleState, e: ev.SpPenaltyImposed) -> BattleState:
    return _seat(s, e.seat, sp_penalty=s.seats[e.seat].sp_penalty + e.amount)


def _defence_raised(s: BattleState, e: ev.DefenceRaised) -> BattleState:
    return _seat(s, e.seat, defence_bonus=s.seats[e.seat].defence_bonus + e.amount)


def _untargetable(s: BattleState, e: ev.UntargetableGained) -> BattleState:
    # R-ADD-155: a later card's untargetability replaces an earlier one.
    return _seat(s, e.seat, untargetable=e.against, untargetable_until_attack=e.until_attack)


def _untargetable_ended(s: BattleState, e: ev.UntargetableEnded) -> BattleState:
    return _seat(s, e.seat, untargetable="", untargetable_until_attack=False)


def _target_bonus(s: BattleState, e: ev.TargetBonusGained) -> BattleState:
    c = s.seats[e.seat]
    marks, advantages = c.bonus_against, c.advantage_against
    if e.damage:
        marks = (*marks, (e.target, e.damage, e.source))
    if e.advantage:  # R-ADD-295
        advantages = (*advantages, (e.target, e.advantage, e.source))
    return _seat(s, e.seat, bonus_against=marks, advantage_against=advantages)


def _draw_penalty(s: BattleState, e: ev.DrawPenaltyImposed) -> BattleState:
    return _seat(s, e.seat, draw_penalty=s.seats[e.seat].draw_penalty + e.n)


def _cursed(s: BattleState, e: ev.CasketCursed) -> BattleState:
    return _seat(s, e.seat, curses=(*s.seats[e.seat].curses, (e.by, e.source)))


def _curse_lifted(s: BattleState, e: ev.CurseLifted) -> BattleState:
    kept = tuple(x for x in s.seats[e.seat].curses if x[1] != e.source)
    return _seat(s, e.seat, curses=kept)


def _loop_armed(s: BattleState, e: ev.LoopArmed) -> BattleState:
    return _seat(s, e.seat, loop_armed=e.source)


def _damage_looped(s: BattleState, e: ev.DamageLooped) -> BattleState:
    stored = s.seats[e.seat].loop_stored + e.amount
    return _seat(s, e.seat, loop_armed="", loop_stored=stored, loop_source=e.source)


def _loop_released(s: BattleState, e: ev.LoopReleased) -> BattleState:
    return _seat(s, e.seat, loop_stored=0, loop_source="")


def _attacks_forgone(s: BattleState, e: ev.AttacksForgone) -> BattleState:
    return _seat(s, e.seat, no_attacks=True)


def _grit_modifier_raised(s: BattleState, e: ev.GritModifierRaised) -> BattleState:
    c = s.seats[e.seat]
    if e.next_check:  # R-ADD-361: spent by the next GritChecked
        return _seat(s, e.seat, grit_next=c.grit_next + e.amount)
    return _seat(s, e.seat, grit_modifier=c.grit_modifier + e.amount)


def _spend_armed(s: BattleState, e: ev.SpendArmed) -> BattleState:
    return _seat(s, e.seat, armed_spend=e.source)


def _defence_lowered(s: BattleState, e: ev.DefenceLowered) -> BattleState:
    return _seat(s, e.seat, defence_malus=s.seats[e.seat].defence_malus + e.amount)


def _sp_gained(s: BattleState, e: ev.SpGained) -> BattleState:
    # R-ADD-95: as SP not yet spent; TurnStarted resets the count, so it lasts this turn.
    return _seat(s, e.seat, sp_spent=s.seats[e.seat].sp_spent - e.amount)


def _marked(s: BattleState, e: ev.EnemyMarked) -> BattleState:
    return _seat(s, e.seat, marked=e.target, mark_source=e.source)  # R-ADD-148


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
        **_next_attack_buff(c, e),
        turn_buff_damage=c.turn_buff_damage + e.damage,
        turn_buff_to_hit=c.turn_buff_to_hit + e.to_hit,
        turn_buff_ignore=c.turn_buff_ignore + e.ignore_defence,
    )


def _chrysalis_entered(s: BattleState, e: ev.ChrysalisEntered) -> BattleState:
    return _seat(s, e.seat, chrysalis=e.source, skip_next_turn=True)  # R-ADD-366


def _chrysalis_emerged(s: BattleState, e: ev.ChrysalisEmerged) -> BattleState:
    return _seat(s, e.seat, chrysalis="")  # R-ADD-366


def _form_offered(s: BattleState, e: ev.FormOffered) -> BattleState:
    return _seat(s, e.seat, form_offer=e.source)  # R-ADD-362: the prompt's card


def _form_taken(s: BattleState, e: ev.FormTaken) -> BattleState:
    return _seat(s, e.seat, form=e.form, form_round=e.round, form_offer="")  # R-ADD-170


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


HANDLERS: dict[type[ev.Event], Handler] = {
    ev.BuffGained: _buff,
    ev.StatusApplied: _status,
    ev.TokensChanged: _tokens,
    ev.SpPenaltyImposed: _sp_penalty,
    ev.DefenceRaised: _defence_raised,
    ev.DrawPenaltyImposed: _draw_penalty,
    ev.CasketCursed: _cursed,
    ev.CurseLifted: _curse_lifted,
    ev.LoopArmed: _loop_armed,
    ev.DamageLooped: _damage_looped,
    ev.LoopReleased: _loop_released,
    ev.AttacksForgone: _attacks_forgone,
    ev.SpendArmed: _spend_armed,
    ev.DefenceLowered: _defence_lowered,
    ev.SpGained: _sp_gained,
    ev.EnemyMarked: _marked,
    ev.UntargetableGained: _untargetable,
    ev.UntargetableEnded: _untargetable_ended,
    ev.TargetBonusGained: _target_bonus,
    ev.DefenceLent: _defence_lent,
    ev.LastingBonusGained: _lasting_bonus,
    ev.SpBoosted: _sp_boosted,
    ev.TurnBuffGained: _turn_buff,
    ev.FormOffered: _form_offered,
    ev.ChrysalisEntered: _chrysalis_entered,
    ev.ChrysalisEmerged: _chrysalis_emerged,
    ev.FormTaken: _form_taken,
    ev.DuelChallenged: _duel_challenged,
    ev.DuelAnswered: _duel_answered,
    ev.GritModifierRaised: _grit_modifier_raised,
}
