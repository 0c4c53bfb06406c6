"""The resolution of an attack and of damage: the reactive window and covers (R-REA-1), the
defence roll (R-DMG-2), damage inflicted through wards (R-ADD-94) and the take-damage prompt
(R-DMG-6), terrain entered (R-ADD-163), dodges, and the end of the attack.

These rules call each other in a circle: damage opens a prompt, a prompt answered at once
(policy `auto`) takes the damage or declines the reactive window, which rolls defence, which
inflicts damage, which ends the attack, whose riders and dodges may enter terrain that
inflicts damage. So opening a prompt and its automatic answers live here too; answering a
prompt by command is `prompts`'."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...cards import (
    AfterAttackEffect,
    AfterDefenceEffect,
    AllyDestroyedWindowEffect,
    ArrangeTopEffect,
    CardDef,
    ChooseFormEffect,
    CounterEffect,
    CoverEffect,
    DamageBargainEffect,
    DefenceEffect,
    DeflectEffect,
    DestroyOnCriticalEffect,
    DuelEffect,
    Effect,
    ForceDefenceRerollEffect,
    GiveHeatEffect,
    LethalWindowEffect,
    LowDeckWindowEffect,
    ReduceIncomingEffect,
    RiposteEffect,
    SpendTaintEffect,
    SpendTokensEffect,
    TriggerEffect,
    WhenEffect,
    WindowEffect,
)
from ...dice import (
    DEFENCE_DICE,
    DicePool,
    attack_result,
    defence_result,
)
from ...errors import RuleViolation
from ...hexes import Hex
from ...tohit import MAX_DAMAGE
from .. import events as ev
from ..commands import NoReactive, PlayReactive
from ..state import (
    AttackInProgress,
    PlacedTerrain,
    card_id,
)
from . import conditions, costs, harm, passives, piles, targeting
from . import effects as resolvers
from .tx import JAM_HEAT, _Tx


def _reactive_ok(tx: _Tx, card: CardDef, seat: int | None = None) -> bool:
    """Whether `card` may answer the attack now, played by `seat` (default: the attacked
    casket; an ally covering it, R-ADD-122, pays from its own pool)."""
    a = tx.state.attack
    cost = card.token_cost
    payer = a.target if a is not None and seat is None else seat
    return (
        a is not None
        and payer is not None
        and card.kind == "reactive"
        and a.reactive_allowed
        and (a.shield_allowed or not card.shield)
        and _in_window(tx, card)
        # R-ADD-133: a card printed with a token cost only with the player's tokens
        and (cost is None or tx.seat(payer).tokens_of(cost.pool) >= cost.least)
    )


# The reactive windows that answer no attack: an ally's destruction (R-ADD-283), the holder's
# low deck (R-ADD-370), lethal damage (R-ADD-371).
NoAttackWindow = AllyDestroyedWindowEffect | LowDeckWindowEffect | LethalWindowEffect


def _in_window(tx: _Tx, card: CardDef) -> bool:
    """R-ADD-58: "Play when attacked in melee" answers only an attack with a Melee card.
    R-ADD-283, R-ADD-370, R-ADD-371: a card answering an ally's destruction, its holder's
    low deck or lethal damage answers no attack."""
    if any(isinstance(e, NoAttackWindow) for e in card.effects):
        return False
    if _forced_reroll(card) is not None:  # R-ADD-412: the attacker's, after the defence roll
        return False
    a = tx.state.attack
    if a is None or not any(isinstance(e, WindowEffect) for e in card.effects):
        return True
    weapon = tx.state.card(a.card).attack
    return weapon is not None and weapon.range.melee


def _cover_of(card: CardDef) -> CoverEffect | None:
    return next((e for e in card.effects if isinstance(e, CoverEffect)), None)


def _own_answer(card: CardDef) -> bool:
    """A reactive card the attacked casket may play itself: not one that only takes an
    ally's damage (R-ADD-122), unless it answers for "you or ally" (R-ADD-394)."""
    cover = _cover_of(card)
    return cover is None or cover.self_too


def _coverers(tx: _Tx) -> list[int]:
    """R-ADD-122: the allies of the attacked casket that may still cover it, in seat order:
    in the battle, not yet asked, holding a cover card that reaches it."""
    a = tx.state.attack
    assert a is not None
    if a.covered_by is not None:
        return []
    t = tx.seat(a.target)
    out = []
    for x in conditions._allies(tx, a.target, None):
        if x.seat in a.cover_declined:
            continue
        for instance in (*x.hand, *x.in_play):
            card = tx.state.card(instance)
            cover = _cover_of(card)
            ready = _reactive_ok(tx, card, x.seat) if instance in x.hand else card.pledge
            if cover and ready and a.reactive_allowed and x.at.distance(t.at) <= cover.within:
                out.append(x.seat)
                break
    return out


def _reactive_window(tx: _Tx) -> None:
    """After a hit: first each ally that could take the damage (R-ADD-122), then the
    attacked casket's own reactive card (R-REA-1), then the defence roll."""
    a = tx.state.attack
    assert a is not None
    coverers = _coverers(tx)
    if coverers:
        reason = f"play a card that takes or lessens seat {a.target}'s damage, or none"
        _open_prompt(tx, coverers[0], "reactive", 0, a.component, "R-ADD-122", reason)
        return
    defender = tx.seat(a.target)
    eligible = any(
        _reactive_ok(tx, card) and _own_answer(card)
        for card in (tx.state.card(x) for x in defender.hand)
    )
    if eligible:
        _open_prompt(
            tx,
            defender.seat,
            "reactive",
            0,
            a.component,
            "R-REA-1",
            "play one reactive card or none",
        )
    else:
        _roll_defence(tx)


def _reactive_declined(tx: _Tx, seat: int) -> None:
    """An ally that declined to cover leaves the window to the next one (R-ADD-122); the
    attacked casket's declining leads to the defence roll (R-REA-1)."""
    tx.emit(ev.ReactiveDeclined(seat))
    a = tx.state.attack
    if a is not None and seat != a.target:
        _reactive_window(tx)
    else:
        _roll_defence(tx)


def _reactive_defence(tx: _Tx, instance: str | None) -> int:
    """R-ADD-98: the automatic blocks a reactive card adds to the attack it answers."""
    if instance is None:
        return 0
    return sum(e.amount for e in tx.state.card(instance).effects if isinstance(e, DefenceEffect))


def _reactive_minimum(tx: _Tx, instance: str | None) -> int:
    """R-ADD-58: the least damage a reactive card's "(minimum 1)" reduction leaves."""
    if instance is None:
        return 0
    effects = tx.state.card(instance).effects
    spends = SpendTokensEffect | WhenEffect | SpendTaintEffect
    inner = [x for e in effects if isinstance(e, spends) for x in e.then]
    return max(
        (e.minimum for e in (*effects, *inner) if isinstance(e, ReduceIncomingEffect)), default=0
    )


def _reduced_before_roll(tx: _Tx, instance: str | None, reduction: int) -> int:
    """R-ADD-291: the part of a reactive card's reduction taken off before the defence roll
    ("Reduce next damage taken by 3 (before Defense roll)"): its own reductions and those a
    spend that is its price bought, never more than the reduction the card gave."""
    if instance is None:
        return 0
    effects = tx.state.card(instance).effects
    spends = SpendTokensEffect | SpendTaintEffect
    paid = [x for e in effects if isinstance(e, spends) and e.required for x in e.then]
    before = sum(
        e.amount for e in (*effects, *paid) if isinstance(e, ReduceIncomingEffect) and e.before_roll
    )
    return min(before, reduction)


def _roll_defence(tx: _Tx) -> None:
    a = tx.state.attack
    assert a is not None
    # R-ADD-291: a reduction before the roll leaves fewer points, so fewer dice (R-DMG-2); it
    # is done before any face shows, so a PIERCE face has no part of it to void (R-DMG-4).
    before = _reduced_before_roll(tx, a.reactive, a.reduction)
    rolled = max(0, a.damage - before)
    faces = tx.dice.d6(rolled, purpose="the defence roll", rule="R-DMG-2")
    if _offer_defence_reroll(tx, faces):
        return
    _defend(tx, faces)


def _forced_reroll(card: CardDef) -> tuple[SpendTaintEffect, ForceDefenceRerollEffect] | None:
    """R-ADD-412: the card's "Spend 2 enemy Taint Markers: Force target to reroll up to 2
    successful Defense Dice", its price and its reroll."""
    for e in card.effects:
        if isinstance(e, SpendTaintEffect):
            force = next((x for x in e.then if isinstance(x, ForceDefenceRerollEffect)), None)
            if force is not None:
                return e, force
    return None


def _blocking(tx: _Tx, faces: Sequence[int]) -> tuple[int, ...]:
    """The numbers (from 1) of the defence dice that blocked: a "successful" die."""
    table = DEFENCE_DICE[str(tx.state.ruleset.option("defense_die"))]
    return tuple(i + 1 for i, f in enumerate(faces) if table[f - 1].blocks)


def _defence_reroll_cards(tx: _Tx) -> list[str]:
    """R-ADD-412: the attacker's hand cards that may force the defence dice again now: the
    attacked pilot holds the Taint they spend."""
    a = tx.state.attack
    assert a is not None
    c, t = tx.seat(a.attacker), tx.seat(a.target)
    held = []
    for instance in c.hand:
        forced = _forced_reroll(tx.state.card(instance))
        if forced is not None and forced[0].n != "all" and t.taint >= forced[0].n:
            held.append(instance)
    return held


def _offer_defence_reroll(tx: _Tx, faces: tuple[int, ...]) -> bool:
    """R-ADD-412: "After target rolls Defense Dice, before applying damage": an attacker
    holding a card that forces blocking dice to be rolled again sees the roll and answers
    (prompt `defence_reroll`) before anything follows from it; True when it is asked. A roll
    without a blocking die, a warded attack (no damage to win) and policy `auto` ask none."""
    a = tx.state.attack
    assert a is not None
    if tx.state.policy == "auto" or a.warded_by is not None or a.covered_by is not None:
        return False
    blocking = _blocking(tx, faces)
    if not blocking or not _defence_reroll_cards(tx):
        return False
    tx.emit(ev.DefenceRerollOffered(a.attacker, a.target, faces, blocking))
    reason = "force up to 2 of the blocking defence dice to be rolled again, or let the roll stand"
    _open_prompt(tx, a.attacker, "defence_reroll", len(faces), None, "R-ADD-412", reason)
    return True


def _defence_rerolled(tx: _Tx, command: PlayReactive | NoReactive) -> None:
    """R-ADD-412: the roll stands (`no_reactive`), or the attacker plays the card from the
    hand at 0 SP naming up to its `dice` of the blocking dice (`dice`, from 1); the attacked
    pilot's Taint pays its price (`spend`, R-ADD-294) and the dice named are rolled again;
    the roll is then applied as any defence roll."""
    a = tx.state.attack
    assert a is not None
    faces = a.defence_faces
    if isinstance(command, PlayReactive):
        seat = command.seat
        if command.path:
            raise RuleViolation(
                "unused_argument", "a forced reroll moves nothing: no 'path'", "R-ADD-412"
            )
        instance = piles._hand_cards(tx.seat(seat), [command.card], "card", "R-ADD-412")[0]
        card = tx.state.card(instance)
        forced = _forced_reroll(card)
        if forced is None:
            raise RuleViolation(
                "outside_window", f"{card.name} forces no defence dice again", "R-ADD-412"
            )
        price, force = forced
        if not command.spend:
            raise RuleViolation(
                "spend_required",
                f"{card.name} is paid with the enemy's Taint: 'spend': true",
                "R-ADD-294",
            )
        if instance not in _defence_reroll_cards(tx):
            raise RuleViolation(
                "not_enough_taint",
                f"seat {a.target}'s pilot holds {tx.seat(a.target).taint} Taint, "
                f"{card.name} spends {price.n}",
                "R-ADD-145",
            )
        blocking = _blocking(tx, faces)
        dice = command.dice
        if not dice or len(dice) > force.dice or any(k not in blocking for k in dice):
            raise RuleViolation(
                "wrong_dice",
                f"name 1 to {force.dice} of the dice that blocked ({', '.join(map(str, blocking))})",
                "R-ADD-412",
            )
        tx.emit(ev.CardPlayed(seat, instance, 0, card.manual, card.text if card.manual else ""))
        costs._spend_taint(tx, a.target, card, price)
        new = iter(tx.dice.d6(len(dice), purpose="the defence dice rolled again", rule="R-ADD-412"))
        faces = tuple(next(new) if i + 1 in dice else f for i, f in enumerate(faces))
        tx.emit(ev.DefenceRerolled(seat, a.target, instance, tuple(sorted(dice)), faces))
        tx.emit(ev.CardResolved(seat, instance))
    _defend(tx, faces)


def _defend(tx: _Tx, faces: tuple[int, ...]) -> None:
    """The defence roll `faces` applied (R-DMG-2 to R-DMG-4): blocks, reductions, wards,
    Heat, Component Damage, and the damage dealt."""
    a = tx.state.attack
    assert a is not None
    die = str(tx.state.ruleset.option("defense_die"))
    before = _reduced_before_roll(tx, a.reactive, a.reduction)
    rolled = max(0, a.damage - before)
    result = defence_result(faces, rolled, a.defence_modifier, die)
    # R-ADD-98: a reactive card's "+N Defense vs next attack" adds blocks to this attack,
    # unless a PIERCE face voids the card (R-DMG-4).
    blocks = 0 if a.defence_buffs_ignored else _reactive_defence(tx, a.reactive)
    if blocks and not result.pierce:
        result = defence_result(faces, a.damage, a.defence_modifier + blocks, die)
    # R-DMG-4: PIERCE leaves the reactive card spent and without effect.
    reduction = 0 if result.pierce else a.reduction - before
    final = max(0, result.final_damage - reduction)
    if reduction:  # R-ADD-58: "reduce by N (minimum 1)" never takes a hit below 1
        final = max(final, min(_reactive_minimum(tx, a.reactive), result.final_damage))
    reduction += before
    if a.warded_by is not None:  # R-ADD-128: the ward negates all the attack's damage
        final = 0
    tx.emit(
        ev.DefenceRolled(
            a.target,
            result.faces,
            result.blocks,
            final,
            result.heat,
            result.pierce,
            result.component_damage,
            reduction,
        )
    )
    deflect = sum(
        e.amount
        for e in (tx.state.card(a.reactive).effects if a.reactive else ())
        if isinstance(e, DeflectEffect)
    )
    if deflect and a.warded_by is None and result.final_damage > final:  # R-ADD-125
        tx.emit(ev.DamageDeflected(a.target, a.attacker, min(deflect, result.final_damage - final)))
    if result.heat:
        harm._change_heat(tx, a.target, result.heat, "HEAT defence faces", "R-DMG-4")
    if result.component_damage:
        harm._component_damage(
            tx, a.target, a.component, result.component_damage, "CRITICAL defence faces", "R-DMG-4"
        )
    if a.reactive is not None and not result.pierce:  # R-ADD-97: "if you block 3+ damage"
        _after_defence(tx, a.target, a.reactive, "prevented_at_least", result.final_damage - final)
    attack = tx.state.card(a.card)
    cover = a.covered_by
    shield = _cover_of(tx.state.card(a.cover_card)) if a.cover_card is not None else None
    if cover is not None and shield is not None and shield.keep:
        # R-ADD-430: "-2 damage to you and ally": the ally keeps the damage the roll leaves,
        # less the card's reduction (none when a PIERCE face voided the card, R-DMG-4), on
        # the attack's component as any hit's damage.
        kept = final if result.pierce else max(0, final - a.cover_reduction)
        if kept < final:
            kept = max(kept, min(_reactive_minimum(tx, a.cover_card), final))
        _inflict(tx, a.target, kept, a.component, f"an attack by seat {a.attacker}", attack=attack)
        return
    if cover is not None and not result.pierce and tx.seat(cover).in_battle:
        # R-ADD-122: the damage the roll leaves is the covering ally's, less its card's
        # reduction; the roll's Heat and Component Damage stay the attacked casket's.
        taken = max(0, final - a.cover_reduction)
        if a.cover_reduction:
            taken = max(taken, min(_reactive_minimum(tx, a.cover_card), final))
        name = tx.state.card(a.cover_card).name if a.cover_card else "cover"
        reason = f"{name}: seat {a.target}'s damage from an attack by seat {a.attacker} (R-ADD-122)"
        _inflict(tx, cover, taken, None, reason, attack=attack)
        return
    _inflict(tx, a.target, final, a.component, f"an attack by seat {a.attacker}", attack=attack)


def _after_defence(tx: _Tx, seat: int, reactive: str, test: str, prevented: int) -> None:
    """R-ADD-97: the reactive card's effects waiting for what it did."""
    card = tx.state.card(reactive)
    for effect in card.effects:
        if isinstance(effect, AfterDefenceEffect) and effect.test == test:
            if test == "prevented_at_least" and prevented < effect.n:
                continue
            passives._resolve_at_once(tx, seat, card, effect.then)


def _warded(tx: _Tx, seat: int, amount: int, attack: CardDef | None) -> int:
    """R-ADD-94: the damage left after the casket's wards, in the order they were raised:
    each takes off its reduction, then caps what reaches its threshold. A ward that changes
    nothing is not used; one that prevents damage recovers its cards (R-ADD-62)."""
    c = tx.seat(seat)
    if amount <= 0 or not c.in_battle:
        return amount
    gone = 0  # wards that left the list: later indices move down
    for i, w in enumerate(c.wards):
        if w.declared or not targeting._ward_matches(w, attack):
            continue
        after = max(0, amount - w.reduce)
        if w.cap is not None and amount >= w.at_least:
            after = min(after, w.cap)
        if after == amount:
            continue
        tx.emit(ev.WardUsed(seat, i - gone, w.source, amount, after))
        if w.uses == 1:
            gone += 1
        amount = after
        if w.recover:
            piles._recover(tx, seat, w.recover, tx.state.card(w.source).name)
        if not amount:
            break
    return amount


def _spend_declared_wards(tx: _Tx, seat: int, card: CardDef) -> None:
    """R-ADD-93: "the first attack against you", "the next melee attack": a ward with uses
    acting as attacks are declared spends one on the attack just declared."""
    wards = tx.seat(seat).wards
    # From the last, so that a ward leaving the list moves none still to be spent.
    for i in reversed(range(len(wards))):
        w = wards[i]
        if w.uses and w.declared and targeting._ward_matches(w, card):
            tx.emit(ev.WardUsed(seat, i, w.source))


def _inflict(
    tx: _Tx,
    seat: int,
    amount: int,
    component: str | None,
    reason: str,
    *,
    attack: CardDef | None = None,
) -> None:
    """Damage the defender must discard: their choice of split unless there is none (R-DMG-6).
    The defender's wards act on it first (R-ADD-94); `attack` is the card of the attack
    that deals it, None for damage without an attack."""
    amount = _warded(tx, seat, amount, attack)
    amount = _reduce_taken(tx, seat, amount)  # R-ADD-136: the casket's standing reductions
    if amount <= 0 or not tx.seat(seat).in_battle:
        _after_damage(tx)
        return
    if _looped(tx, seat, amount):
        _after_damage(tx)
        return
    if _lethal(tx, seat, amount) and _negated_as_lethal(tx, seat, amount):
        _after_damage(tx)
        return
    if _lethal_window(tx, seat, amount, component, reason):
        return
    _split(tx, seat, amount, component, reason)


def _looped(tx: _Tx, seat: int, amount: int) -> bool:
    """R-ADD-422: "Next damage you take this turn is stored in temporal loop": the damage,
    after wards and reductions, is stored instead of taken; True when it was."""
    source = tx.seat(seat).loop_armed
    if not source:
        return False
    tx.emit(ev.DamageLooped(seat, amount, source))
    return True


def _release_loop(tx: _Tx, seat: int) -> None:
    """R-ADD-422: "At start of your next turn, choose 1 enemy within 6 hexes": the player
    chooses (prompt `temporal_loop`); with no enemy within reach the damage is lost."""
    c = tx.seat(seat)
    if not c.loop_stored or not c.in_battle:
        return
    if not tx.state.loop_targets(seat):
        tx.emit(ev.LoopReleased(seat, -1, c.loop_stored, c.loop_source))
        return
    why = f"{c.loop_stored} damage stored: choose the enemy within reach who takes it"
    _open_prompt(tx, seat, "temporal_loop", c.loop_stored, None, "R-ADD-422", why)


def _loop_target(tx: _Tx, seat: int, target: int) -> None:
    """R-ADD-422: the chosen enemy takes the stored damage, as damage without an attack."""
    c = tx.seat(seat)
    tx.emit(ev.LoopReleased(seat, target, c.loop_stored, c.loop_source))
    _terrain_damage(tx, target, c.loop_stored, f"{tx.state.cards[c.loop_source].name} (R-ADD-422)")


def _negated_as_lethal(tx: _Tx, seat: int, amount: int) -> bool:
    """R-ADD-391: "When you would take fatal damage, negate it, …" on a card the seat has
    in play: the first such card (play order) takes all of the lethal damage off, runs its
    `then` and leaves play (to the removed cards when its text says so, R-ADD-70); True
    when one did. It is no choice, so it acts under every policy, before R-ADD-371's
    reactive window."""
    for instance in tx.seat(seat).in_play:
        card = tx.state.card(instance)
        saves = [
            e for e in card.effects if isinstance(e, TriggerEffect) and e.on == "lethal_damage"
        ]
        if not saves or not _save_affordable(tx, seat, saves):
            continue
        tx.emit(ev.DamageReduced(seat, amount, instance, "R-ADD-391"))
        for effect in saves:
            for inner in effect.then:
                # R-ADD-441: a save's price, a required spend, is paid as it acts
                paid = isinstance(inner, SpendTokensEffect) and inner.required
                resolvers._effect(
                    resolvers.Resolving(tx, seat, card, skip_attack=not paid, spend=paid), inner
                )
        tx.emit(ev.CardResolved(seat, instance))
        return True
    return False


def _save_affordable(tx: _Tx, seat: int, saves: Sequence[TriggerEffect]) -> bool:
    """R-ADD-441: "if you have 5+ Soul Shards, automatically spend 5 Shards to …": a save
    whose price is a required spend acts only when the seat holds the tokens (the spend
    itself is made as its `then` resolves)."""
    c = tx.seat(seat)
    return all(
        e.n == "all" or c.tokens_of(e.pool) >= e.n
        for save in saves
        for e in save.then
        if isinstance(e, SpendTokensEffect) and e.required
    )


def _split(tx: _Tx, seat: int, amount: int, component: str | None, reason: str) -> None:
    """The defender's split of the damage between hand and deck (R-DMG-6), asked for only
    when there is a hand to take it from."""
    if not tx.seat(seat).hand:
        harm._take_damage(tx, seat, (), amount, component)
        _after_damage(tx)
        return
    _open_prompt(tx, seat, "take_damage", amount, component, "R-DMG-6", reason)


def _lethal(tx: _Tx, seat: int, amount: int) -> bool:
    """R-ADD-371: `amount` damage defeats the casket whatever the split its owner chooses:
    under 2.1 it empties deck and discard pile even after the whole hand (R-DMG-9), under
    2.0 some of it remains once hand, deck and discard pile are all gone (R-DMG-6)."""
    c = tx.seat(seat)
    cards = len(c.hand) + len(c.deck) + len(c.discard)
    return amount >= cards if tx.state.ruleset.damage_pile else amount > cards


def _window_cards(tx: _Tx, seat: int, window: type[NoAttackWindow]) -> list[str]:
    """The cards in the seat's hand answering `window` (lethal damage, R-ADD-371; its own
    low deck, R-ADD-370) that their use limit still lets it play (R-ADD-63)."""
    c = tx.seat(seat)
    held = []
    for instance in c.hand:
        card = tx.state.card(instance)
        if any(isinstance(e, window) for e in card.effects):
            limit = card.limit
            if limit is not None and c.limited_plays.count(f"{limit.per}:{card.id}") >= limit.n:
                continue
            try:
                costs._check_token_cost(tx, seat, card)  # R-ADD-366: a price in tokens
            except RuleViolation:
                continue
            if not c.holds_required_spends(card):  # R-ADD-420: "If you have 0 tokens, …"
                continue
            held.append(instance)
    return held


def _lethal_window(tx: _Tx, seat: int, amount: int, component: str | None, reason: str) -> bool:
    """R-ADD-371: damage about to defeat the casket whatever its split opens, for a holder
    of a card answering lethal damage, a prompt of its own (`lethal_damage`, with the
    damage and component) before the split is asked for; True when it opened. Policy
    `auto` plays no reactive card."""
    if tx.state.policy == "auto" or not _lethal(tx, seat, amount):
        return False
    if not _window_cards(tx, seat, LethalWindowEffect):
        return False
    why = f"{reason}: {amount} damage would defeat the casket; play a card answering it, or none"
    tx.emit(ev.PromptOpened(seat, "lethal_damage", amount, component, "R-ADD-371", why))
    return True


def _reduce_taken(tx: _Tx, seat: int, amount: int) -> int:
    """R-ADD-136: "Passive: reduce all damage you take by N", each passive in play in turn."""
    c = tx.seat(seat)
    if amount <= 0 or not c.in_battle:
        return amount
    for instance in c.in_play:
        card = tx.state.card(instance)
        for effect in card.effects:
            if isinstance(effect, TriggerEffect) and effect.on == "first_damage_each_turn":
                for inner in effect.then:  # R-ADD-376: a budget of each turn
                    assert isinstance(inner, ReduceIncomingEffect)
                    used = dict(tx.seat(seat).turn_negated).get(instance, 0)
                    cut = min(amount, inner.amount - used)
                    if cut > 0:
                        tx.emit(ev.DamageNegated(seat, cut, instance, used + cut))
                        amount -= cut
            if isinstance(effect, TriggerEffect) and effect.on == "damage_taken":
                for inner in effect.then:
                    assert isinstance(inner, ReduceIncomingEffect)
                    # R-ADD-392: "immune to damage", the most any damage can be: all of it
                    immune = inner.amount >= MAX_DAMAGE
                    cut = amount if immune else min(amount, inner.amount)
                    if cut:
                        tx.emit(ev.DamageReduced(seat, cut, card.id))
                        amount -= cut
    return amount


def _after_damage(tx: _Tx) -> None:
    if tx.state.attack is not None and not tx.state.prompts:
        _end_attack(tx, "hit")


def _terrain_damage(tx: _Tx, seat: int, amount: int, reason: str) -> None:
    """Damage without an attack (R-DMG-6, R-ADD-165), as `_inflict` deals it, but never
    ending an attack in progress: a move inside an attack (a push, a dodge) is not its hit."""
    amount = _warded(tx, seat, amount, None)
    amount = _reduce_taken(tx, seat, amount)  # R-ADD-136, as `_inflict`
    if amount <= 0 or not tx.seat(seat).in_battle or _looped(tx, seat, amount):
        return
    if _lethal_window(tx, seat, amount, None, reason):
        return
    if not tx.seat(seat).hand:
        harm._take_damage(tx, seat, (), amount, None)
        return
    _open_prompt(tx, seat, "take_damage", amount, None, "R-DMG-6", reason)


def _entered(tx: _Tx, who: int, start: Hex, path: Sequence[Hex]) -> None:
    """R-ADD-165: after `who` moved from `start` along `path` (any move: a step, a card's,
    a push, a teleport), each terrain that hurts the maker's enemies and that the move
    entered from outside it deals its damage once, without an attack, as the move ends."""
    mover = tx.seat(who)
    fired: list[PlacedTerrain] = []
    previous = start
    for h in path:
        p = tx.state.placed_at(h)
        if (
            p is not None
            and p.damage
            # R-ADD-166: a fire wall burns whoever crosses it, a field the maker's enemies
            and (p.kind == "fire_wall" or tx.state.seats[p.seat].side != mover.side)
            and all((f.seat, f.card, f.kind) != (p.seat, p.card, p.kind) for f in fired)
        ):
            before = tx.state.placed_at(previous)
            came_from_inside = before is not None and (before.seat, before.card, before.kind) == (
                p.seat,
                p.card,
                p.kind,
            )
            if not came_from_inside:
                fired.append(p)
        previous = h
    for p in fired:
        if not tx.seat(who).in_battle:
            return
        tx.emit(ev.TerrainEntered(who, (p.q, p.r), p.seat, p.card, p.kind, p.damage))
        name = tx.state.cards[p.card].name if p.card in tx.state.cards else p.card
        _terrain_damage(tx, who, p.damage, f"{name}: entered its {p.kind.replace('_', ' ')}")


def _after_attack(
    tx: _Tx, a: AttackInProgress, card: CardDef, effect: Effect, fires: Mapping[str, bool]
) -> None:
    """`effect`, when an after-the-attack effect whose outcome came (`fires`), runs its
    `then` for the attacker against the attack's target, the attack ended; none of the
    command's arguments."""
    if isinstance(effect, AfterAttackEffect) and fires[effect.on]:
        for inner in effect.then:
            resolving = resolvers.Resolving(
                tx, a.attacker, card, skip_attack=True, attack_target=a.target, ended=True
            )
            resolvers._effect(resolving, inner)


def _end_attack(tx: _Tx, outcome: str) -> None:
    a = tx.state.attack
    assert a is not None
    card = tx.state.card(a.card)
    hit = outcome in ("hit", "execution")
    # R-ADD-65: the target was in the battle when the attack was declared, so a defeated
    # target now was destroyed by this attack.
    killed = hit and tx.seat(a.target).defeated
    # R-ADD-95: "on miss" is a roll that missed, not a catastrophic failure; "if this deals
    # damage" reads the damage after the defender's wards (an EXECUTION's is all of it).
    dealt = a.damage if outcome == "execution" else (a.final_damage or 0) if hit else 0
    fires = {
        "kill": killed,
        "hit": hit,
        "end": True,
        "miss": outcome == "miss",
        "damage": dealt > 0,
    }
    d = tx.seat(a.target)
    if (
        a.grade == "critical"
        and hit
        and d.in_battle
        and a.component not in d.destroyed
        and any(isinstance(e, DestroyOnCriticalEffect) for e in card.effects)
    ):
        harm._destroy(tx, a.target, a.component)  # R-ADD-131: "Destroy 1 Component on Crit"
    waiting = list(card.effects)
    if tx.seat(a.attacker).armed_spend == card.id:  # R-ADD-116: bought with the spend
        waiting += [x for e in card.effects if isinstance(e, SpendTokensEffect) for x in e.then]
    for effect in waiting:
        # R-ADD-187: an effect for the further attacks only does not follow the first.
        if isinstance(effect, AfterAttackEffect) and effect.attacks == "further" and not a.further:
            continue
        _after_attack(tx, a, card, effect, fires)
    # R-ADD-180: the hit effects an enhancement this attack spent brought, as its card's.
    for source in a.enhanced_by:
        for effect in targeting._carried(tx.state, source):
            _after_attack(tx, a, tx.state.cards[source], effect, fires)
    thorns = _thorns(tx)  # read before AttackEnded spends the next attack's thorns
    tx.emit(ev.AttackEnded(a.attacker, a.card, outcome))
    # R-ADD-107: the defender's dodge, unless a PIERCE face voided its card (R-DMG-4).
    if a.reactive is not None and a.reactive_path and not a.pierced:
        _dodged(tx, a.target, a.reactive, a.reactive_path)
    # R-ADD-58: the reactive card's counter-damage, once the attack has ended; a PIERCE
    # face voided the card (R-DMG-4).
    counter = 0
    reasons: list[str] = []
    if a.reactive is not None and not a.pierced:
        if a.final_damage:  # R-ADD-97: "if you took damage"
            _after_defence(tx, a.target, a.reactive, "took_damage", 0)
        answer = tx.state.card(a.reactive)
        effects = answer.effects
        counter = a.extra_counter + sum(e.damage for e in effects if isinstance(e, CounterEffect))
        if a.final_damage:  # R-ADD-130: "after taking damage, counterattack for 3"
            counter += sum(e.damage for e in effects if isinstance(e, RiposteEffect))
        if counter:
            reasons.append(f"{answer.name}: counter-damage (R-ADD-58)")
        elif a.deflected:
            counter = a.deflected
            reasons.append(f"{answer.name}: deflected damage (R-ADD-125)")
        # R-ADD-143: "attacker gains N Heat", voided with the rest of the card by PIERCE.
        heat = sum(
            e.amount for e in effects if isinstance(e, GiveHeatEffect) and e.to == "attacker"
        )
        if heat and tx.seat(a.attacker).in_battle:
            harm._change_heat(tx, a.attacker, heat, answer.name, "R-ADD-143")
    if thorns:
        reasons.append("thorns (R-ADD-130)")
    if a.self_damage:
        reasons.append(f"{card.name}: its own damage (R-ADD-130)")
    # R-ADD-130: thorns, counter-damage and the card's own damage are one discard, one prompt.
    total = counter + thorns + a.self_damage
    if total and tx.seat(a.attacker).in_battle:
        _inflict(tx, a.attacker, total, None, "; ".join(reasons))


def _thorns(tx: _Tx) -> int:
    """R-ADD-130: what the attack's target deals its attacker once the attack has ended,
    whatever its outcome: nothing from a target the attack took out of the battle."""
    a = tx.state.attack
    assert a is not None
    d = tx.seat(a.target)
    if not d.in_battle:
        return 0
    weapon = tx.state.card(a.card).attack
    melee = weapon is not None and weapon.range.melee
    return d.thorns + d.thorns_once + (d.thorns_melee if melee else 0)


def _dodged(tx: _Tx, seat: int, card: str, path: tuple[tuple[int, int], ...]) -> None:
    """R-ADD-107: the declared dodge, as the attack ends; a casket destroyed or pushed
    since (R-ADD-100), whose path is no longer legal from where it stands, stays."""
    c = tx.seat(seat)
    if not c.in_battle:
        return
    try:
        costs._path_cost(tx, c, [Hex(q, r) for q, r in path])
    except RuleViolation:
        return
    tx.emit(ev.CasketMoved(seat, path, 0, card_id(card)))
    _entered(tx, seat, c.at, [Hex(q, r) for q, r in path])  # R-ADD-165


def _open_prompt(
    tx: _Tx, seat: int, kind: str, amount: int, component: str | None, rule: str, reason: str
) -> None:
    # A table's opening hand is known only once the table reports it (keep_hand with
    # `drawn`), so even policy `auto` leaves a table's mulligan prompt open.
    if tx.state.policy == "auto" and not (tx.table and kind == "mulligan"):
        _auto_answer(tx, seat, kind, amount, component)
        return
    tx.emit(ev.PromptOpened(seat, kind, amount, component, rule, reason))


def _auto_answer(tx: _Tx, seat: int, kind: str, amount: int, component: str | None) -> None:
    """Policy `auto`: keep hands, play no reactive card, take damage from the deck, discard
    the newest cards down to 6 (R-TRN-7)."""
    if kind == "mulligan":
        tx.emit(ev.HandKept(seat))
    elif kind == "reactive":
        _reactive_declined(tx, seat)
    elif kind == "take_damage":
        harm._take_damage(tx, seat, (), amount, component)
        _after_damage(tx)
    elif kind == "discard_down":
        hand = tx.seat(seat).hand
        tx.emit(ev.CardsDiscarded(seat, hand[len(hand) - amount :], (), "discard down", "R-TRN-7"))
    elif kind == "discard":
        hand = tx.seat(seat).hand
        tx.emit(ev.CardsDiscarded(seat, hand[len(hand) - amount :], (), "chosen", "R-ADD-62"))
    elif kind == "arrange":  # the order is kept, nothing spent (R-ADD-157)
        _arranged(tx, seat, tx.seat(seat).deck[:amount], False)
    elif kind == "ultimatum":  # the damage, as auto takes any damage (R-ADD-159)
        _ultimatum(tx, seat, "damage", amount)
    elif kind == "temporal_loop":  # R-ADD-422: the first enemy within reach
        _loop_target(tx, seat, tx.state.loop_targets(seat)[0])
    elif kind == "form":  # R-ADD-362: Assault Form, the first printed
        _form_chosen(tx, seat, "assault")
    elif kind == "save":  # resisted, the newest hand cards first, as a discard (R-ADD-342)
        hand = tx.seat(seat).hand
        _save(tx, seat, "discard", hand[max(0, len(hand) - amount) :], amount)
    elif kind == "bargain":  # no cards given up (R-ADD-159)
        _reactive_window(tx)
    elif kind == "siphon":  # the price refused: the hit stands (R-ADD-159)
        _roll_defence(tx)
    elif kind == "duel":  # a binding challenge is accepted (R-ADD-174)
        _duel_answer(tx, seat, True)
    elif kind == "reroll":  # the roll kept (R-ADD-282)
        _reroll(tx, seat, None)
    elif kind == "hand_pick":
        # The newest cards of the hand looked at are discarded (R-ADD-385), or taken when
        # that costs nothing; nothing is spent (R-ADD-386, as R-ADD-157).
        hand = tx.seat(tx.seat(seat).looked_at_hand).hand
        option = "decline" if piles._priced(tx, seat) else "pick"
        picked = hand[len(hand) - amount :] if option == "pick" else ()
        piles._hand_pick(tx, seat, option, picked, amount, opened=False)


def _duel_answer(tx: _Tx, seat: int, accepted: bool) -> None:
    """R-ADD-174: the challenged casket's answer: a duel, or Coward's Mark."""
    challenger = tx.seat(seat).challenged_by
    assert challenger is not None
    source = tx.seat(challenger).duel_source
    assert source is not None
    duel = next(e for e in tx.state.card(source).effects if isinstance(e, DuelEffect))
    tx.emit(ev.PromptClosed(seat, "duel"))
    tx.emit(ev.DuelAnswered(seat, challenger, accepted, duel.mark_damage))


def _ultimatum(tx: _Tx, seat: int, option: str, damage: int) -> None:
    """R-ADD-159: the damage now (no attack, the chooser's split, R-DMG-6, R-DMG-8), or the
    next turn skipped."""
    tx.emit(ev.UltimatumAnswered(seat, option))
    if option == "damage":
        _inflict(tx, seat, damage, None, "an ultimatum's damage, chosen (R-ADD-159)")


def _form_chosen(tx: _Tx, seat: int, form: str) -> None:
    """R-ADD-362: the casket takes the chosen form (R-ADD-170) and the form's effects
    resolve, each lasting as its own effect says (to the end of the round)."""
    card = tx.state.card(tx.seat(seat).form_offer)
    effect = next(e for e in card.effects if isinstance(e, ChooseFormEffect))
    gifts = effect.of(form)
    tx.emit(ev.FormTaken(seat, form, tx.state.round, card.id))
    for then in gifts:
        resolvers._effect(resolvers.Resolving(tx, seat, card), then)


def _save(tx: _Tx, seat: int, option: str, hand: Sequence[str], n: int) -> None:
    """R-ADD-342: the skipped turn taken, or resisted by discarding `n` cards: the hand
    cards named, the rest from the top of the deck (the chooser's hand or deck, R-ADD-152)."""
    if option == "discard":
        from_hand = piles._hand_cards(tx.seat(seat), hand, "cards", "R-ADD-342")
        if len(from_hand) > n:
            raise RuleViolation("wrong_discard_count", f"discard {n} card(s)", "R-ADD-342")
        deck = tx.seat(seat).deck
        if n - len(from_hand) > len(deck):
            raise RuleViolation(
                "deck_too_small",
                f"the deck holds {len(deck)} card(s); name hand cards",
                "R-ADD-342",
            )
        from_deck = tx.take(deck, n - len(from_hand), "a save's discard", "R-ADD-342")
        tx.emit(ev.CardsDiscarded(seat, from_hand, from_deck, "resisting", "R-ADD-342"))
        passives._triggers(tx, seat, "cards_discarded")  # R-ADD-139
    tx.emit(ev.UltimatumAnswered(seat, option))


def _arranged(tx: _Tx, seat: int, order: tuple[str, ...], spend: bool) -> None:
    """R-ADD-157: the looked-at cards go back in `order`; then the card's `then` runs,
    its spend paid when the answer says `spend`."""
    card = tx.state.card(tx.seat(seat).arranging)
    effect = next(e for e in card.effects if isinstance(e, ArrangeTopEffect))
    spends = [e for e in effect.then if isinstance(e, SpendTokensEffect)]
    if spend and not spends:
        raise RuleViolation(
            "unused_argument", f"{card.name} has no effect that uses 'spend'", "R-ADD-61"
        )
    for cost in spends if spend else []:
        costs._check_holds(tx, seat, card, cost.pool, cost.n)
    tx.emit(ev.DeckArranged(seat, order))
    for then in effect.then:
        resolvers._effect(resolvers.Resolving(tx, seat, card, spend=spend), then)


def _after_roll(tx: _Tx) -> None:
    """The attack once its roll stands (R-HIT-4): a catastrophic failure jams, a miss ends
    it, an EXECUTION destroys (R-DMG-5); a hit goes to the damage bargain (R-ADD-159) or
    the reactive window (R-REA-1)."""
    a = tx.state.attack
    assert a is not None and a.grade is not None
    seat, target, component, damage = a.attacker, a.target, a.component, a.damage
    card = tx.state.card(a.card)
    if a.grade == "catastrophic":
        c = tx.seat(seat)
        weapons = tuple(x for x in c.hand if tx.state.card(x).kind == "primary_weapon")
        tx.emit(ev.WeaponJammed(seat, weapons, c.heat + JAM_HEAT))
        _end_attack(tx, "catastrophic")
        return
    if a.grade == "miss":
        _end_attack(tx, "miss")
        return
    if a.grade == "execution":
        # R-DMG-5: no dice, no reactive card, full damage from the deck, component destroyed.
        if component not in tx.seat(target).destroyed:
            harm._destroy(tx, target, component)
        if a.warded_by is None:  # R-ADD-128: a ward negates the damage, not the destruction
            harm._take_damage(tx, target, (), damage, component)
        _end_attack(tx, "execution")
        return
    # R-ADD-159: "enemy may discard N cards from hand to reduce damage to M", before the
    # reactive window; offered only when it can be paid and lowers the damage.
    bargain = next((e for e in card.effects if isinstance(e, DamageBargainEffect)), None)
    defender = tx.seat(target)
    if bargain is not None and len(defender.hand) >= bargain.cards and damage > bargain.damage:
        reason = (
            f"{card.name}: discard {bargain.cards} card(s) from your hand to make this hit "
            f"{bargain.damage} damage, or decline"
        )
        _open_prompt(tx, defender.seat, "bargain", bargain.cards, None, "R-ADD-159", reason)
        return
    _reactive_window(tx)


def _offer_reroll(
    tx: _Tx,
    seat: int,
    faces: tuple[int, ...],
    keep: str,
    target_number: int,
    left: int,
    source: str,
) -> None:
    """R-ADD-282: the attacker may roll one of the attack's dice again, or keep the roll."""
    tx.emit(ev.RerollOffered(seat, faces, keep, target_number, left, source))
    name = tx.state.card(source).name
    reason = f"{name}: roll one of the {len(faces)} attack dice again, or keep the roll"
    _open_prompt(tx, seat, "reroll", len(faces), None, "R-ADD-282", reason)


def _reroll(tx: _Tx, seat: int, die: int | None) -> None:
    """R-ADD-282: die number `die` (from 1) rolled again and the roll graded again, or
    (None) the roll kept; the attack goes on from its roll."""
    a = tx.state.attack
    assert a is not None and a.reroll is not None
    offer = a.reroll
    if die is not None:
        face = tx.dice.d6(1, purpose="the attack die rolled again", rule="R-ADD-282")[0]
        faces = tuple(face if i == die - 1 else f for i, f in enumerate(offer.faces))
        roll = attack_result(faces, offer.target_number, DicePool(len(faces), offer.keep))
        damage = dict(a.damage_by_grade).get(roll.grade, 0) if roll.hit else 0
        tx.emit(ev.AttackRerolled(seat, die, face, roll.faces, roll.total, roll.grade, damage))
        if offer.left > 1:
            _offer_reroll(
                tx, seat, faces, offer.keep, offer.target_number, offer.left - 1, offer.source
            )
            return
    _after_roll(tx)
