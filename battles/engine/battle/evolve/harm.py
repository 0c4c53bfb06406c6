"""Events of harm: damage, components, wounds, Heat, Taint, bleeding, defeat."""

from __future__ import annotations

from ...dice import COMPONENTS
from .. import events as ev
from ..state import (
    BattleState,
    CasketState,
)
from ..state import with_changes as replace
from .common import Handler, _seat, _without
from .piles import _discarded
from .statuses import _lapse_lent_defence


def _vented(s: BattleState, e: ev.HeatVented) -> BattleState:
    c = s.seats[e.seat]
    return _seat(
        s, e.seat, sp_spent=c.sp_spent + e.cost, heat=max(0, c.heat - e.removed), acted=True
    )


def _heat(s: BattleState, e: ev.HeatChanged) -> BattleState:
    return _seat(s, e.seat, heat=e.heat)


def _taint_changed(s: BattleState, e: ev.TaintChanged) -> BattleState:
    return _seat(s, e.seat, taint=e.taint)


def _damage_scheduled(s: BattleState, e: ev.DamageScheduled) -> BattleState:
    return _seat(s, e.seat, damage_next_turn=s.seats[e.seat].damage_next_turn + e.amount)


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


def _grit_checked(s: BattleState, e: ev.GritChecked) -> BattleState:
    # R-ADD-361: a "+1 to your next Grit Check" is spent by this one
    return _seat(s, e.seat, grit_checks=s.seats[e.seat].grit_checks + 1, grit_next=0)


def _grit_rerolled(s: BattleState, e: ev.GritRerolled) -> BattleState:
    # R-ADD-411: once per battle for each such passive
    return _seat(s, e.seat, grit_rerolled=(*s.seats[e.seat].grit_rerolled, e.card))


def _grit_raised(s: BattleState, e: ev.GritRaised) -> BattleState:
    return _seat(s, e.seat, grit_gained=s.seats[e.seat].grit_gained + e.amount)


def _eased(s: BattleState, e: ev.WoundEased) -> BattleState:
    return _seat(s, e.seat, eased_wounds=(*s.seats[e.seat].eased_wounds, e.wound))


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
    s = _units_leave(s, e.seat)  # R-ADD-402
    return _seat(s, e.seat, withdrawn=True)


def _units_leave(s: BattleState, seat: int) -> BattleState:
    """R-ADD-402: a seat's summoned units leave the board with it (defeated or withdrawn):
    they act only in its turns, which will not come."""
    if not any(u.owner == seat for u in s.units):
        return s
    return replace(s, units=tuple(u for u in s.units if u.owner != seat))


def _defeated(s: BattleState, e: ev.CasketDefeated) -> BattleState:
    # A defeated casket's open prompts answer nothing any more.
    s = replace(s, prompts=tuple(p for p in s.prompts if p.seat != e.seat))
    s = _lapse_lent_defence(s, e.seat)  # R-ADD-123: its next turn will not come
    s = _units_leave(s, e.seat)  # R-ADD-402
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


def _until_discards(s: BattleState, e: ev.DamageUntilDiscards) -> BattleState:
    have = s.seats[e.seat].damage_until_discards
    return _seat(s, e.seat, damage_until_discards=(*have, (e.amount, e.discards)))


def _component_prevented(s: BattleState, e: ev.ComponentDamagePrevented) -> BattleState:
    if s.attack is not None and s.attack.reactive == e.source and e.rule == "R-ADD-281":
        # The reactive card's one prevention in the attack it answers.
        return replace(s, attack=replace(s.attack, component_prevented=True))
    # R-ADD-136: the passive's use this round, counted as a round's plays are (R-ADD-63).
    c = s.seats[e.seat]
    return _seat(s, e.seat, limited_plays=(*c.limited_plays, f"round:{e.source}"))


def _damage_negated(s: BattleState, e: ev.DamageNegated) -> BattleState:
    """R-ADD-376: the passive's budget spent in this turn."""
    kept = tuple(x for x in s.seats[e.seat].turn_negated if x[0] != e.card)
    return _seat(s, e.seat, turn_negated=(*kept, (e.card, e.used)))


def _damage_reduced(s: BattleState, e: ev.DamageReduced) -> BattleState:
    return s  # the damage prompt that follows asks for the reduced amount


HANDLERS: dict[type[ev.Event], Handler] = {
    ev.HeatVented: _vented,
    ev.HeatChanged: _heat,
    ev.TaintChanged: _taint_changed,
    ev.DamageScheduled: _damage_scheduled,
    ev.DamageTaken: _damage_taken,
    ev.ComponentDamaged: _component_damaged,
    ev.ComponentDestroyed: _component_destroyed,
    ev.WoundFlipped: _wound,
    ev.SurvivalRolled: _survival,
    ev.GritChecked: _grit_checked,
    ev.GritRerolled: _grit_rerolled,
    ev.GritRaised: _grit_raised,
    ev.WoundEased: _eased,
    ev.PilotKilled: _pilot_killed,
    ev.CasketDefeated: _defeated,
    ev.CasketWithdrew: _withdrew,
    ev.TaintAdjusted: _taint,
    ev.TaintOverloaded: _overloaded,
    ev.HeatAdjusted: _heat_adjusted,
    ev.ComponentDamageAdjusted: _component_adjusted,
    ev.BleedApplied: _bleed_applied,
    ev.BleedTicked: _bleed_ticked,
    ev.OngoingDamageScheduled: _ongoing_damage,
    ev.DamageUntilDiscards: _until_discards,
    ev.DamageReduced: _damage_reduced,
    ev.DamageNegated: _damage_negated,
    ev.ComponentDamagePrevented: _component_prevented,
}
