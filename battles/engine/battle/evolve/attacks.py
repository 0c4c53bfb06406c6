"""Events of an attack: declared, rolled, answered, covered, warded, ended, and the buffs it spends."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from .. import events as ev
from ..state import (
    AttackInProgress,
    BattleState,
    Enhancement,
    FollowUp,
    RerollOffer,
    Ward,
)
from ..state import with_changes as replace
from .common import Handler, _seat, _without
from .piles import _count_play, _put_away


def _carried(cls: type[Any], e: ev.Event) -> dict[str, Any]:
    """The values of `cls`'s fields in `e`, an event carrying one whole (a ward raised, an
    enhancement): a field the event lacks fails here, not later."""
    return {f.name: getattr(e, f.name) for f in fields(cls)}


def _warded(s: BattleState, e: ev.AttackWarded) -> BattleState:
    s = _put_away(s, e.seat, e.card)
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, warded_by=f"{e.seat}:{e.card}"))


def _deflected(s: BattleState, e: ev.DamageDeflected) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, deflected=e.amount))


def _bargained(s: BattleState, e: ev.HitDamageBargained) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, damage=e.damage))


def _bargained_away(s: BattleState, e: ev.HitBargainedAway) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, grade="miss", damage=0))


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
        # R-ADD-295: and its advantage, read by the to-hit answer the declaration gave.
        advantage_against=tuple(
            m for m in s.seats[e.attacker].advantage_against if m[0] != e.target
        ),
    )
    return replace(s, attack=attack)


def _rolled(s: BattleState, e: ev.AttackRolled) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, grade=e.grade, damage=e.damage))


def _reroll_offered(s: BattleState, e: ev.RerollOffered) -> BattleState:
    assert s.attack is not None
    offer = RerollOffer(e.faces, e.keep, e.target_number, e.left, e.source)
    return replace(s, attack=replace(s.attack, reroll=offer))


def _defence_reroll_offered(s: BattleState, e: ev.DefenceRerollOffered) -> BattleState:
    assert s.attack is not None  # R-ADD-412: the roll waits for the attacker's answer
    return replace(s, attack=replace(s.attack, defence_faces=e.faces))


def _defence_rerolled(s: BattleState, e: ev.DefenceRerolled) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, defence_faces=()))


def _rerolled(s: BattleState, e: ev.AttackRerolled) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, grade=e.grade, damage=e.damage, reroll=None))


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
    # R-ADD-412: a roll that waited for the attacker's answer is applied now
    attack = replace(s.attack, final_damage=e.final_damage, pierced=e.pierce, defence_faces=())
    return replace(s, attack=attack)


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


def _enhanced(s: BattleState, e: ev.AttackEnhanced) -> BattleState:
    c = s.seats[e.seat]
    x = Enhancement(**_carried(Enhancement, e))
    return _seat(s, e.seat, enhancements=(*c.enhancements, x))


def _enhancements_spent(s: BattleState, e: ev.EnhancementsSpent) -> BattleState:
    c = s.seats[e.seat]
    kept = tuple(x for i, x in enumerate(c.enhancements) if i not in e.indices)
    return _seat(s, e.seat, enhancements=kept)


def _ward_raised(s: BattleState, e: ev.WardRaised) -> BattleState:
    c = s.seats[e.seat]
    w = Ward(**_carried(Ward, e))
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


def _thorns_raised(s: BattleState, e: ev.ThornsRaised) -> BattleState:
    c = s.seats[e.seat]
    if e.until == "next_attack":
        return _seat(s, e.seat, thorns_once=c.thorns_once + e.damage)
    if e.melee_only:
        return _seat(s, e.seat, thorns_melee=c.thorns_melee + e.damage)
    return _seat(s, e.seat, thorns=c.thorns + e.damage)


def _counter_raised(s: BattleState, e: ev.CounterRaised) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, extra_counter=s.attack.extra_counter + e.amount))


def _self_damage_due(s: BattleState, e: ev.SelfDamageDue) -> BattleState:
    assert s.attack is not None
    return replace(s, attack=replace(s.attack, self_damage=s.attack.self_damage + e.amount))


def _bonus_held(s: BattleState, e: ev.BonusHeld) -> BattleState:
    return _seat(s, e.seat, held_bonuses=(*s.seats[e.seat].held_bonuses, e.source))


def _reactives_barred(s: BattleState, e: ev.ReactivesBarred) -> BattleState:
    return _seat(s, e.seat, reactives_barred_by=e.by)  # R-ADD-174


def _cards_forbidden(s: BattleState, e: ev.CardsForbidden) -> BattleState:
    had = s.seats[e.seat].forbidden_classes  # R-ADD-340
    return _seat(s, e.seat, forbidden_classes=tuple(dict.fromkeys((*had, *e.classes))))


HANDLERS: dict[type[ev.Event], Handler] = {
    ev.AttackDeclared: _declared,
    ev.AttackRolled: _rolled,
    ev.RerollOffered: _reroll_offered,
    ev.AttackRerolled: _rerolled,
    ev.DefenceRerollOffered: _defence_reroll_offered,
    ev.DefenceRerolled: _defence_rerolled,
    ev.WeaponJammed: _jammed,
    ev.ReactivePlayed: _reactive,
    ev.ReactiveDeclined: _declined,
    ev.DefenceRolled: _defence,
    ev.AttackEnded: _attack_ended,
    ev.AttacksQueued: _attacks_queued,
    ev.FollowUpTaken: _follow_up_taken,
    ev.DamageAuraRaised: _damage_aura_raised,
    ev.AttackEnhanced: _enhanced,
    ev.EnhancementsSpent: _enhancements_spent,
    ev.WardRaised: _ward_raised,
    ev.WardUsed: _ward_used,
    ev.DefenceBuffsIgnored: _defence_buffs_ignored,
    ev.HitDamageBargained: _bargained,
    ev.HitBargainedAway: _bargained_away,
    ev.AttackCovered: _covered,
    ev.DamageDeflected: _deflected,
    ev.AttackWarded: _warded,
    ev.ThornsRaised: _thorns_raised,
    ev.CounterRaised: _counter_raised,
    ev.SelfDamageDue: _self_damage_due,
    ev.BonusHeld: _bonus_held,
    ev.ReactivesBarred: _reactives_barred,
    ev.CardsForbidden: _cards_forbidden,
}
