"""Harm: damage taken, components, wounds, Heat, Taint and its overload, the Damage card an
empty deck reshuffles with, and defeat; damage inflicted (wards, prompts) is `resolution`'s."""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import (
    AllyDestroyedWindowEffect,
    ComponentTypeDamageEffect,
    GritRerollEffect,
    PreventComponentDamageEffect,
    ReduceIncomingEffect,
    TriggerEffect,
)
from ...cards.effects.attacks import COMPONENT_CARD_KINDS
from ...dice import (
    SUFFERING_DIE,
)
from .. import events as ev
from ..state import (
    TAINT_OVERLOAD,
)
from . import passives
from .tx import NEURAL_FEEDBACK_EVERY, SURVIVAL_WOUND_FACES, SURVIVAL_WOUNDS, _Tx


def _check_hp(tx: _Tx, seat: int) -> None:
    """Ruleset 2.1: the moment deck and discard pile are both empty the casket is defeated,
    whatever its hand holds (R-DMG-9)."""
    c = tx.seat(seat)
    if tx.state.ruleset.damage_pile and c.in_battle and not c.deck and not c.discard:
        _out_of_cards(tx, seat)


def _change_heat(tx: _Tx, seat: int, amount: int, reason: str, rule: str) -> None:
    heat = max(0, tx.seat(seat).heat + amount)
    if heat != tx.seat(seat).heat:
        tx.emit(ev.HeatChanged(seat, heat - tx.seat(seat).heat, heat, reason, rule))


def _take_damage(
    tx: _Tx, seat: int, from_hand: tuple[str, ...], from_deck: int, component: str | None
) -> None:
    """Discard for damage (under ruleset 2.1 onto the damage pile, R-DMG-8); the deck
    reshuffles as at draw time when it runs out, and with nothing left anywhere the casket
    is defeated (R-DMG-6; under 2.1 the moment deck and discard are empty, R-DMG-9)."""
    primary = 0

    def weapons(cards: Sequence[str]) -> int:
        return sum(1 for x in cards if tx.state.card(x).kind == "primary_weapon")

    discarded: list[str] = [*from_hand]
    if from_hand:
        primary += weapons(from_hand)
        tx.emit(ev.DamageTaken(seat, from_hand, (), weapons(from_hand), component))
    left = from_deck
    while left > 0:
        c = tx.seat(seat)
        if not c.deck:
            if not c.discard:
                if tx.state.ruleset.damage_pile:
                    _out_of_cards(tx, seat)
                else:
                    _defeat(
                        tx, seat, "damage with no cards left in deck or discard pile", "R-DMG-6"
                    )
                break
            _reshuffle(tx, seat)
            c = tx.seat(seat)
        taken = tx.take(c.deck, min(left, len(c.deck)), "damage from the deck", "R-DMG-6")
        primary += weapons(taken)
        discarded += taken
        tx.emit(ev.DamageTaken(seat, (), taken, weapons(taken), component))
        left -= len(taken)
    if component is not None and primary and not tx.seat(seat).pilot_dead:
        _component_damage(tx, seat, component, primary, "Primary Weapon cards discarded", "R-DMG-6")
    _component_type_damage(tx, seat, component, discarded)
    _check_hp(tx, seat)


def _component_type_damage(
    tx: _Tx, seat: int, component: str | None, discarded: Sequence[str]
) -> None:
    """R-ADD-365: "if target discards cards from that component type, deal +N Component
    Damage": the attack's own damage on its target, at the component it names, discarding
    one or more cards of that component's type."""
    a = tx.state.attack
    if a is None or a.target != seat or component is None or component != a.component:
        return
    kind = COMPONENT_CARD_KINDS.get(component)
    extra = sum(
        e.amount for e in tx.state.card(a.card).effects if isinstance(e, ComponentTypeDamageEffect)
    )
    if not extra or kind is None or tx.seat(seat).pilot_dead:
        return
    if any(tx.state.card(x).kind == kind for x in discarded):
        name = tx.state.card(a.card).name
        _component_damage(
            tx, seat, component, extra, f"{name}: that component's cards discarded", "R-ADD-365"
        )


def _component_damage(
    tx: _Tx, seat: int, component: str, amount: int, reason: str, rule: str
) -> None:
    amount = _prevent_component_damage(tx, seat, component, amount)
    if amount <= 0:
        return
    c = tx.seat(seat)
    before_total = c.total_component_damage
    total = c.damage_of(component) + amount
    tx.emit(ev.ComponentDamaged(seat, component, amount, total, reason, rule))
    passives._triggers(tx, seat, "component_damaged", times=amount)
    threshold = int(tx.state.ruleset.option("component_threshold"))
    if total >= threshold and component not in c.destroyed:
        _destroy(tx, seat, component)
    # R-DMG-7: each multiple of 5 total Component Damage reached wounds the pilot once.
    after_total = before_total + amount
    crossings = after_total // NEURAL_FEEDBACK_EVERY - before_total // NEURAL_FEEDBACK_EVERY
    for _ in range(crossings):
        _wound(tx, seat, "neural feedback", "R-DMG-7")


def _prevent_component_damage(tx: _Tx, seat: int, component: str, amount: int) -> int:
    """R-ADD-136: "the first Component Damage you take each round is ignored": each such
    passive in play, once a round. R-ADD-281: first, the reactive card that answered the
    attack dealing it, once in that attack, unless a PIERCE face voided the card."""
    c = tx.seat(seat)
    if not c.in_battle:
        return amount
    a = tx.state.attack
    answering = a.reactive if a is not None and a.target == seat else None
    if a is not None and answering is not None and not (a.pierced or a.component_prevented):
        prevents = [
            e.n
            for e in tx.state.card(answering).effects
            if isinstance(e, PreventComponentDamageEffect)
        ]
        # R-ADD-387: "prevent it", the whole of that Component Damage
        cut = amount if "all" in prevents else min(amount, sum(n for n in prevents if n != "all"))
        if cut:
            tx.emit(ev.ComponentDamagePrevented(seat, component, cut, answering, "R-ADD-281"))
            amount -= cut
    for instance in c.in_play:
        if amount <= 0 or f"round:{instance}" in tx.seat(seat).limited_plays:
            continue
        for effect in tx.state.card(instance).effects:
            if (
                isinstance(effect, TriggerEffect)
                and effect.on == "first_component_damage_each_round"
            ):
                cut = min(
                    amount,
                    sum(e.amount for e in effect.then if isinstance(e, ReduceIncomingEffect)),
                )
                if cut:
                    tx.emit(ev.ComponentDamagePrevented(seat, component, cut, instance))
                    amount -= cut
                break
    return amount


def _destroy(tx: _Tx, seat: int, component: str) -> None:
    """Seed 002 "Component Destroyed": the arms discard their cards from hand."""
    c = tx.seat(seat)
    kind = {"right_arm": "primary_weapon", "left_arm": "secondary"}.get(component)
    discarded = tuple(x for x in c.hand if kind and tx.state.card(x).kind == kind)
    tx.emit(ev.ComponentDestroyed(seat, component, discarded, "R-DMG-7"))


def _wound(tx: _Tx, seat: int, reason: str, rule: str) -> None:
    c = tx.seat(seat)
    if c.pilot_dead or not c.wound_deck:
        return
    result = _grit_check(tx, seat, reason) if tx.state.ruleset.option("grit_checks") else ""
    if result in ("shrug-it-off", "iron-will"):
        if result == "shrug-it-off":
            _change_heat(tx, seat, 1, "Grit check: shrug it off", "R-ADD-305")
        return
    wound = tx.take(c.wound_deck, 1, "the pilot wound flip", "R-PLT-1")[0]
    tx.emit(ev.WoundFlipped(seat, wound, reason, rule))
    if result == "tough-it-out" and wound.startswith("severe-"):
        tx.emit(ev.WoundEased(seat, wound, "R-ADD-305"))
    if not tx.seat(seat).wound_deck:
        tx.emit(ev.PilotKilled(seat, "R-PLT-1"))
        if not tx.seat(seat).defeated:
            tx.emit(ev.CasketDefeated(seat, "its pilot is dead: the casket is inert", "R-ADD-20"))
            passives._destroyed(tx, seat)


# pilot-grit-system.md's Grit Check Results Table, highest band first: 8+ Iron Will,
# 6-7 Shrug It Off, 4-5 Tough It Out, 1-3 Full Wound (R-ADD-234, R-ADD-305).
GRIT_BANDS = ((8, "iron-will"), (6, "shrug-it-off"), (4, "tough-it-out"))


def grit_band(total: int) -> str:
    """The Grit check's result for a total of 1d6 + Grit + modifiers.

    >>> [grit_band(t) for t in (3, 4, 5, 6, 7, 8)]
    ['full-wound', 'tough-it-out', 'tough-it-out', 'shrug-it-off', 'shrug-it-off', 'iron-will']
    """
    return next((name for at, name in GRIT_BANDS if total >= at), "full-wound")


def _grit_check(tx: _Tx, seat: int, reason: str) -> str:
    """A pilot about to flip a wound rolls 1d6 + Grit first, once per wound (R-ADD-305):
    the setup's modifier on every check, its bonus on the first check only, and -1 per
    trauma wound face up (pilot-grit-system.md's "Trauma Wound: -1 Grit per Trauma")."""
    c = tx.seat(seat)
    face = tx.dice.d6(1, purpose="the Grit check", rule="R-ADD-305")[0]
    trauma = sum(1 for w in c.wounds if w.startswith("trauma-"))
    # R-ADD-361: a card's "+1 to your next Grit Check" (`grit_next`) on this one only
    modifier = c.grit_modifier - trauma + (c.grit_bonus if c.grit_checks == 0 else 0) + c.grit_next
    total = face + c.grit + modifier
    result = grit_band(total)
    tx.emit(ev.GritChecked(seat, face, c.grit, modifier, total, result, reason))
    if result == "full-wound":
        result = _grit_reroll(tx, seat, c.grit + modifier, result)
    return result


def _grit_reroll(tx: _Tx, seat: int, added: int, result: str) -> str:
    """R-ADD-411: "Once per mission: When you would fail a Grit Check, reroll it. If you
    still fail, gain +1 Grit permanently": the first passive in play (play order) whose
    reroll this battle has not used rolls the failed check again with the same Grit and
    modifier (`added`); the new band stands, and a second Full Wound raises the pilot's
    Grit for the campaign. No choice: a reroll of a failure can only help."""
    c = tx.seat(seat)
    for instance in c.in_play:
        if instance in c.grit_rerolled:
            continue
        effect = next(
            (e for e in tx.state.card(instance).effects if isinstance(e, GritRerollEffect)),
            None,
        )
        if effect is None:
            continue
        face = tx.dice.d6(1, purpose="the Grit check rolled again", rule="R-ADD-411")[0]
        result = grit_band(face + added)
        tx.emit(ev.GritRerolled(seat, instance, face, face + added, result))
        if result == "full-wound" and effect.gain:
            tx.emit(ev.GritRaised(seat, instance, effect.gain))
        return result
    return result


def _taint_overload(tx: _Tx, seat: int) -> None:
    """Taint Overload (R-PLT-3, R-ADD-44): Taint reaching 10 is a trigger like a defeat:
    1d6, on 1–3 the pilot takes 2 wounds. It fires each time Taint rises to 10 from below."""
    face = tx.dice.d6(1, purpose="the Taint Overload roll", rule="R-PLT-3")[0]
    wounds = SURVIVAL_WOUNDS if face in SURVIVAL_WOUND_FACES else 0
    tx.emit(ev.TaintOverloaded(seat, tx.seat(seat).taint, face, wounds))
    for _ in range(wounds):
        _wound(tx, seat, "Taint Overload", "R-PLT-3")


def _defeat(tx: _Tx, seat: int, reason: str, rule: str) -> None:
    if not tx.seat(seat).in_battle:
        return
    tx.emit(ev.CasketDefeated(seat, reason, rule))
    face = tx.dice.d6(1, purpose="the pilot's survival roll", rule="R-PLT-3")[0]
    wounds = SURVIVAL_WOUNDS if face in SURVIVAL_WOUND_FACES else 0
    tx.emit(ev.SurvivalRolled(seat, face, wounds))
    for _ in range(wounds):
        _wound(tx, seat, "casket defeated: survival roll", "R-PLT-3")
    passives._destroyed(tx, seat)
    _ally_destroyed_windows(tx, seat)


def _ally_destroyed_windows(tx: _Tx, seat: int) -> None:
    """R-ADD-283: the casket `seat` was destroyed by the loss of its cards; each ally still
    in the battle holding a card whose window is such a destruction within its reach may
    play it now (a prompt of its own; policy `auto` plays no reactive card)."""
    if tx.state.over or tx.state.policy == "auto":
        return
    gone = tx.seat(seat)
    for x in tx.state.seats:
        if x.seat == seat or not x.in_battle or x.side != gone.side:
            continue
        reach = [
            e.within
            for instance in x.hand
            for e in tx.state.card(instance).effects
            if isinstance(e, AllyDestroyedWindowEffect)
        ]
        distance = x.at.distance(gone.at)
        if reach and distance <= max(reach):
            reason = f"seat {seat}, {distance} hex(es) away, is destroyed: play a card answering it, or none"
            tx.emit(ev.PromptOpened(x.seat, "ally_destroyed", 0, None, "R-ADD-283", reason))


def _change_taint(tx: _Tx, seat: int, amount: int, source: str) -> None:
    """R-ADD-66: a card's Taint, never below 0; rising to 10 from below is Taint Overload
    (R-PLT-3, R-ADD-44)."""
    c = tx.seat(seat)
    taint = max(0, c.taint + amount)
    if taint == c.taint:
        return
    tx.emit(ev.TaintChanged(seat, taint - c.taint, taint, source))
    if c.taint < TAINT_OVERLOAD <= taint and c.in_battle and not c.pilot_dead:
        _taint_overload(tx, seat)


def _suffering(tx: _Tx, seat: int, n: int) -> None:
    """Seed 001 §4's suffering die, each face applied in the order rolled."""
    faces = tx.dice.d6(n, purpose="the suffering dice", rule="R-ADD-14")
    tx.emit(ev.SufferingRolled(seat, faces))
    for f in faces:
        face = SUFFERING_DIE[f]
        c = tx.seat(seat)
        if face.cards_discarded:
            taken = tx.take(c.deck, min(face.cards_discarded, len(c.deck)), face.name, "R-ADD-14")
            if taken:
                tx.emit(ev.CardsDiscarded(seat, (), taken, face.name, "R-ADD-14"))
        if face.heat:
            _change_heat(tx, seat, face.heat, face.name, "R-ADD-14")
        if face.damage_this_turn or face.damage_next_attack:
            tx.emit(
                ev.BuffGained(seat, face.damage_next_attack, 0, 0, face.damage_this_turn, face.name)
            )
        if face.cards_recovered:
            c = tx.seat(seat)
            if c.discard:
                tx.emit(ev.CardsRecovered(seat, (c.discard[-1],), face.name))


def _out_of_cards(tx: _Tx, seat: int) -> None:
    _defeat(tx, seat, "its deck and discard pile are empty: no HP left", "R-DMG-9")


def _reshuffle(tx: _Tx, seat: int) -> None:
    c = tx.seat(seat)
    damage = f"damage#{c.damage_cards + 1}"
    order, known = tx.shuffle((*c.discard, damage), "the discard pile")
    tx.emit(ev.DeckReshuffled(seat, order, damage, known))
