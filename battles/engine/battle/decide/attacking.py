"""Attacking: the attack command, strikes, enhancements, follow-up and area attacks, riders."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ...arcs import in_firing_arc
from ...cards import (
    AfterAttackEffect,
    AreaAttackEffect,
    AttackBonusEffect,
    AttackEffect,
    AttackRulesEffect,
    CardDef,
    DiscardForEffect,
    EnhanceNextAttackEffect,
    FollowUpEffect,
    GuardEffect,
    HeatEffect,
    IgnoreCoverEffect,
    LastingBonusEffect,
    MoveEffect,
    NoAttacksEffect,
    RerollAttackDieEffect,
    SelfDamageEffect,
    SpendTaintEffect,
    SpendTokensEffect,
    TriggerEffect,
)
from ...dice import (
    attack_result,
    component_for_roll,
)
from ...errors import RuleViolation
from ...los import has_line_of_sight, line_through
from ...tohit import (
    MAX_DAMAGE,
    ToHit,
    parse_range,
)
from .. import events as ev
from ..commands import (
    Attack,
    AttackTerrain,
)
from ..state import (
    CasketState,
    FollowUp,
)
from . import conditions, costs, harm, moves, passives, piles, play, resolution, targeting
from . import effects as resolvers
from .tx import GROUND_DEFENCE, _Tx


def _use_enhancements(
    tx: _Tx, seat: int, card: CardDef, target: int, reach: int
) -> tuple[set[str], tuple[str, ...]]:
    """R-ADD-90: the waiting enhancements this attack spends, before its to-hit answer.
    Their numbers are BuffGained the attack spends (R-ADD-27); cover and the range band
    are cancelled as R-ADD-60 cancels cover, once each; the flags are returned, with the
    enhancing cards whose hit effects wait for this attack's outcome (R-ADD-180)."""
    chosen = [
        (i, x)
        for i, x in enumerate(tx.seat(seat).enhancements)
        if targeting._enhances(x.attacks, card)
    ]
    if not chosen:
        return set(), ()
    spent = tuple(i for i, x in chosen if not x.every)  # R-ADD-96: "all your attacks"
    if spent:
        tx.emit(ev.EnhancementsSpent(seat, spent))
    flags: set[str] = set()
    # The card's own "ignores cover" has already cancelled the cover line (R-ADD-60).
    cancelled = {"cover"} if any(isinstance(e, IgnoreCoverEffect) for e in card.effects) else set()
    for _, x in chosen:
        # R-ADD-173: "+2 damage to enemies that have Bleed": spent, but no damage, without.
        damage = 0 if x.vs_bleeding and not tx.seat(target).bleed else x.damage
        if damage or x.to_hit or x.ignore_defence:
            tx.emit(ev.BuffGained(seat, damage, x.to_hit, x.ignore_defence, 0, x.source))
        for key, wanted in (("cover", x.ignore_cover), ("range", x.ignore_range)):
            if wanted and key not in cancelled:
                cancelled.add(key)
                answer = targeting.attack_answer(tx.state, seat, card, target, reach=reach)
                value = sum(m.value for m in answer.modifiers if m.key == key)
                if value:
                    tx.emit(ev.BuffGained(seat, 0, -value, 0, 0, x.source))
        if x.cannot_miss:
            flags.add("cannot_miss")
        if x.ignore_defence_buffs:
            flags.add("ignore_defence_buffs")
    carried: list[str] = []
    for _, x in chosen:
        for effect in targeting._carried(tx.state, x.source):
            if isinstance(effect, AttackBonusEffect):
                # R-ADD-180: read as the attack is declared, its target known (R-ADD-59).
                if conditions._holds(tx, seat, effect.condition, target):
                    tx.emit(ev.BuffGained(seat, effect.damage, effect.to_hit, 0, 0, x.source))
            elif x.source not in carried:
                carried.append(x.source)
    return flags, tuple(carried)


def _enhance(tx: _Tx, seat: int, card: CardDef, effect: EnhanceNextAttackEffect) -> None:
    """R-ADD-90: the enhancement waits for the owner's next attack of its kind."""
    tx.emit(
        ev.AttackEnhanced(
            seat,
            card.id,
            effect.attacks,
            effect.damage,
            effect.to_hit,
            effect.blocks_ignored,
            effect.ignore_cover,
            effect.ignore_range,
            effect.cannot_miss,
            effect.ignore_defence_buffs,
            effect.this_turn,
            effect.every,
            effect.sp_cost,
            effect.reach,
            effect.vs_bleeding,
            effect.this_round,
        )
    )


def _attack_rules(tx: _Tx, seat: int, card: CardDef, target: int, spend: bool) -> set[str]:
    """R-ADD-91, R-ADD-92: the flags of the card's own attack rules whose condition holds,
    those bought with tokens included when the player spends them (R-ADD-61)."""
    effects = list(card.effects)
    if spend:
        effects += [x for e in card.effects if isinstance(e, SpendTokensEffect) for x in e.then]
    flags: set[str] = set()
    for e in effects:
        if isinstance(e, AttackRulesEffect) and conditions._holds(tx, seat, e.condition, target):
            flags |= {
                n for n in ("cannot_miss", "no_reactive", "ignore_defence_buffs") if getattr(e, n)
            }
    return flags


def _refuse_unless_possible(answer: ToHit) -> None:
    """Raise the refusal a to-hit answer carries when it allows no attack (R-HIT-1)."""
    if not answer.possible:
        refusal = answer.refusal
        assert refusal is not None
        raise refusal


def _attack_card(
    tx: _Tx, c: CasketState, command: Attack | AttackTerrain
) -> tuple[str, CardDef, AttackEffect]:
    """The hand card an attack command plays (R-TRN-5), its definition and its attack:
    refused unless it makes an attack (R-ADD-14), may be played now, and the casket may
    attack (R-ADD-115)."""
    instance = piles._hand_cards(c, [command.card], "card", "R-TRN-5")[0]
    card = tx.state.card(instance)
    attack = card.attack
    if attack is None:
        raise RuleViolation(
            "not_an_attack", f"{card.name} makes no attack: play it with play_card", "R-ADD-14"
        )
    costs._check_card_kind(c, card)
    if c.no_attacks:
        raise RuleViolation(
            "no_attacks",
            "a card this casket played forbids attacking until its next turn",
            "R-ADD-115",
        )
    return instance, card, attack


def _attack(tx: _Tx, c: CasketState, command: Attack) -> None:
    seat = command.seat
    instance, card, attack = _attack_card(tx, c, command)
    barring = next(
        (
            x
            for x, _ in c.timed
            if any(isinstance(e, NoAttacksEffect) for e in tx.state.card(x).effects)
        ),
        None,
    )
    if barring is not None:  # R-ADD-375: "For 2 turns: …, cannot attack"
        raise RuleViolation(
            "no_attacks",
            f"{tx.state.card(barring).name}, in play, forbids attacking for as long as it lasts",
            "R-ADD-375",
        )
    if not 0 <= command.target < len(tx.state.seats) or command.target == seat:
        raise RuleViolation("bad_target", "target must be another seat", "R-ARC-1")
    d = tx.seat(command.target)
    if d.defeated:
        raise RuleViolation("target_defeated", f"seat {d.seat} is already defeated", "R-TRN-8")
    if d.withdrawn:
        raise RuleViolation("target_withdrawn", f"seat {d.seat} has withdrawn", "R-TRN-9")
    if d.side == c.side:
        raise RuleViolation("not_an_enemy", f"seat {d.seat} is on your side", "R-TRN-8")
    duel = targeting._duel_refusal(c, d, tx.state.seats)
    if duel is not None:
        raise RuleViolation("in_duel", duel, "R-ADD-174")
    _check_targetable(d, attack, "")
    move = next((e for e in card.effects if isinstance(e, MoveEffect)), None)
    if command.path and move is None:
        raise RuleViolation("unused_argument", f"{card.name} makes no move: no 'path'", "R-ADD-104")
    reach = targeting._extra_reach(
        c, card
    )  # R-ADD-90: kept for this attack once its enhancements go
    # R-ADD-104: with a move before the attack, its to-hit answer is the one after the move.
    answer = targeting.attack_answer(tx.state, seat, card, command.target, reach=reach)
    if not command.path:
        _refuse_unless_possible(answer)
    costs._check_limit(tx.seat(seat), card)
    costs._check_token_cost(tx, seat, card)
    costs._check_spend(tx, seat, card, command.spend)
    costs._check_taint_spend(tx, seat, card, command.spend, command.taint_from, command.target)
    cost = targeting.attack_cost(tx.state, seat, card)  # R-ADD-99
    costs._pay(tx, c, cost, command.pay, exclude=[instance, *command.discard])
    tx.emit(ev.CardPlayed(seat, instance, cost, card.manual, card.text if card.manual else ""))
    costs._pay_tokens(tx, seat, card)
    passives._triggers(tx, seat, "card_played", played=card.id)  # R-ADD-361
    if command.path and move is not None:
        moves._card_move(tx, tx.seat(seat), card, move, command.path, d.at)
        answer = targeting.attack_answer(tx.state, seat, card, command.target, reach=reach)
        _refuse_unless_possible(answer)
    # R-ADD-91, R-ADD-92: the card's own attack rules, read as it is played (R-ADD-59).
    rules = _attack_rules(tx, seat, card, command.target, command.spend)
    passive = _passive_bonuses(tx, seat)
    enhanced = any(targeting._enhances(x.attacks, card) for x in tx.seat(seat).enhancements)
    mark = conditions._mark_on(tx, seat, command.target)
    marks = [m for m in tx.seat(seat).bonus_against if m[0] == command.target]
    coward = targeting._coward_bonus(tx.seat(seat), tx.seat(command.target))
    riders = AttackBonusEffect | SpendTokensEffect | IgnoreCoverEffect | SpendTaintEffect
    enhanced_by: tuple[str, ...] = ()  # R-ADD-180
    split = _split(tx, seat, card, command)
    if (
        passive
        or split
        or enhanced
        or mark is not None
        or marks
        or coward
        or any(isinstance(e, riders | DiscardForEffect) for e in card.effects)
    ):
        if split:  # R-ADD-363: "… for N damage each instead"
            tx.emit(ev.BuffGained(seat, split, 0, 0, 0, card.id))
        if coward:  # R-ADD-174: Coward's Mark
            marker = tx.seat(command.target).coward_of
            mark_card = tx.seat(marker).duel_source if marker is not None else None
            tx.emit(ev.BuffGained(seat, coward, 0, 0, 0, mark_card or "coward's mark"))
        if mark is not None:  # R-ADD-149: the marker's attacks on its mark
            conditions._mark_riders(tx, seat, card, command.target, *mark)
        # R-ADD-59: the card's own bonuses are part of this attack's to-hit answer, and
        # R-ADD-74: so are those of the attacker's passives in play.
        _attack_riders(
            tx, seat, card, command.target, command.spend, command.taint_from, command.discard
        )
        for source, bonus in passive:
            if conditions._holds(tx, seat, bonus.condition, command.target):
                tx.emit(ev.BuffGained(seat, bonus.damage, bonus.to_hit, 0, 0, source.id))
        for _, damage, bonus_mark in marks:  # R-ADD-156: "your next attack vs that target"
            tx.emit(ev.BuffGained(seat, damage, 0, 0, 0, bonus_mark))
        used, enhanced_by = _use_enhancements(tx, seat, card, command.target, reach)
        rules |= used
        answer = targeting.attack_answer(tx.state, seat, card, command.target, reach=reach)
        _refuse_unless_possible(answer)
    # R-ADD-152: the attack's own discards ("Discard 1 card") name their hand cards in
    # `discard`; `spend` says whether its optional cost was paid (riders above).
    play._card_effects(
        tx,
        seat,
        card,
        None,
        (),
        None,
        command.discard,
        skip_attack=True,
        spend=command.spend,
        attack_target=command.target,
        ally_paths=command.ally_paths,
    )
    _queue_follow_ups(tx, seat, instance, card, command, enhanced_by)
    _strike(
        tx,
        seat,
        instance,
        command.target,
        command.component,
        answer,
        rules,
        command.spend,
        enhanced_by,
    )


def _strike(
    tx: _Tx,
    seat: int,
    instance: str,
    target: int,
    named: str | None,
    answer: ToHit,
    rules: set[str],
    spend: bool | None = None,
    enhanced_by: tuple[str, ...] = (),
    further: bool = False,
) -> None:
    """One attack from its declaration to its end or its first prompt (R-HIT-*, R-DMG-*);
    `rules`: the card's own attack rules in force (R-ADD-91, R-ADD-92); `spend`: the
    attack command's, for the card's first attack (None for a further one, R-ADD-80);
    `enhanced_by`: the enhancing cards whose hit effects wait for its outcome (R-ADD-180);
    `further`: one of the card's further attacks (R-ADD-80, R-ADD-187)."""
    card = tx.state.card(instance)
    assert answer.target_number is not None and answer.side is not None
    assert answer.defense_modifier is not None
    component_roll = None
    component = named
    if component is None:
        component_roll = tx.dice.d6(1, purpose="the target component roll", rule="R-DMG-6")[0]
        component = component_for_roll(component_roll)
    if tx.seat(seat).untargetable_until_attack:  # R-ADD-155: attacking breaks it
        tx.emit(ev.UntargetableEnded(seat, card.id))
    a = tx.seat(seat)
    grades = ("hit", "strong", "critical", "execution")
    ignore = a.buff_ignore_defence
    d = tx.seat(target)
    # R-DMG-3: the target's card Defense (R-ADD-64) and its wards' (R-ADD-93), unless the
    # attack ignores Defense buffs (R-ADD-92).
    # R-ADD-123: an ally's card Defense lent to it counts as its own.
    warded = [w.defence for w in d.wards if targeting._ward_matches(w, card)]
    card_defence = d.card_defence + sum(x for x in warded if x > 0)
    ground = tx.state.ground_of(d)  # holy ground, sanctuary (R-ADD-163)
    if ground is not None and ground[1] == "ally":
        card_defence += GROUND_DEFENCE.get(ground[0], 0)
    if "ignore_defence_buffs" in rules:
        card_defence = 0
    # R-ADD-362: a form's "−1 Defense" is no buff: ignoring buffs keeps it.
    card_defence += sum(x for x in warded if x < 0)
    tx.emit(
        ev.AttackDeclared(
            attacker=seat,
            target=target,
            card=instance,
            component=component,
            component_roll=component_roll,
            target_number=answer.target_number,
            side=answer.side,
            damage_by_grade=tuple((g, answer.damage_for(g)) for g in grades),
            # R-DMG-3: cancelled blocks and the target's card Defense, less what an enemy
            # card took off it (R-ADD-119).
            defence_modifier=answer.defense_modifier - ignore + card_defence - d.defence_malus,
            # R-ADD-91: "enemy cannot use Reactive cards against this attack".
            # R-ADD-174: "they cannot use defense cards this turn".
            reactive_allowed=bool(answer.reactive_allowed)
            and "no_reactive" not in rules
            and d.reactives_barred_by is None,
            shield_allowed=bool(answer.shield_cards_allowed),
            to_hit=answer.as_dict(),
            enhanced_by=enhanced_by,
            further=further,
        )
    )
    if "ignore_defence_buffs" in rules:  # R-ADD-92: a reactive card's Defense too
        tx.emit(ev.DefenceBuffsIgnored(seat))
    resolution._spend_declared_wards(tx, target, card)
    _ward(tx, target)
    if spend is not None:  # the card's first attack: its own damage, once (R-ADD-130)
        for owed in [e for e in card.effects if isinstance(e, SelfDamageEffect)]:
            if spend:  # R-ADD-130: "spend 2 Bargain tokens to negate self-damage"
                have = tx.seat(seat).tokens_of(owed.avoid_pool)
                tx.emit(
                    ev.TokensChanged(
                        seat, owed.avoid_pool, -owed.avoid_n, have - owed.avoid_n, card.id
                    )
                )
            else:
                tx.emit(ev.SelfDamageDue(seat, owed.amount, card.id))
    pool = answer.dice
    faces = tx.dice.d6(pool.count, purpose="the attack roll", rule="R-HIT-4")
    # R-ADD-91: an attack that cannot miss hits on any total but a catastrophic failure (0).
    cannot_miss = "cannot_miss" in rules
    roll = attack_result(faces, 1 if cannot_miss else answer.target_number, pool)
    damage = answer.damage_for(roll.grade) if roll.hit else 0
    tx.emit(ev.AttackRolled(roll.faces, roll.total, roll.grade, damage))
    # R-ADD-282: "reroll 1 attack die": the attacker sees the roll, then chooses.
    rerolls = [
        source
        for source in (instance, *enhanced_by)
        for e in (card.effects if source == instance else targeting._carried(tx.state, source))
        if isinstance(e, RerollAttackDieEffect)
    ]
    if rerolls:
        number = 1 if cannot_miss else answer.target_number
        resolution._offer_reroll(tx, seat, roll.faces, pool.keep, number, len(rerolls), rerolls[0])
        return
    resolution._after_roll(tx)


def _ward(tx: _Tx, target: int) -> None:
    """R-ADD-128: the first ward in play, in seat order, that covers the attacked casket
    (its own, or an ally's within reach) takes this attack's damage away and is spent."""
    t = tx.seat(target)
    for x in tx.state.seats:
        if not x.in_battle or x.side != t.side:
            continue
        for instance in x.in_play:
            ward = next(
                (e for e in tx.state.card(instance).effects if isinstance(e, GuardEffect)), None
            )
            if ward and (x.seat == target or x.at.distance(t.at) <= ward.within):
                tx.emit(ev.AttackWarded(x.seat, instance, target))
                return


def _attack_terrain(tx: _Tx, c: CasketState, command: AttackTerrain) -> None:
    """R-ADD-382: an attack card played against a hex of card-made terrain with hit points:
    its printed cost paid, the hex in its printed range, in sight (R-LOS-1: the hex's own
    terrain never blocks) and in the front arc (R-ARC-3); no roll, no defence, and the hex
    loses the card's printed damage. "Attack resolves normally": the card's own Heat is
    generated; its other effects name a casket or an attack's outcome and do not resolve
    (R-ADD-364)."""
    seat = command.seat
    instance, card, first = _attack_card(tx, c, command)
    at = command.at
    placed = tx.state.placed_at(at)
    if placed is None or not placed.hp:
        raise RuleViolation(
            "no_terrain_to_attack",
            f"[{at.q}, {at.r}] holds no card-made terrain with hit points",
            "R-ADD-382",
        )
    distance = c.at.distance(at)
    if not first.range.contains(distance):
        raise RuleViolation(
            "out_of_range",
            f"{card.name} reaches {first.range.text}; [{at.q}, {at.r}] is {distance} away",
            "R-RNG-2",
        )
    if not in_firing_arc(c.at, c.facing, at):
        raise RuleViolation("out_of_arc", f"[{at.q}, {at.r}] is outside the front arc", "R-ARC-3")
    if not has_line_of_sight(tx.state.board, c.at, at):
        raise RuleViolation("no_line_of_sight", f"[{at.q}, {at.r}] is out of sight", "R-LOS-1")
    costs._check_limit(c, card)
    costs._check_token_cost(tx, seat, card)
    costs._pay(tx, c, card.sp_cost, command.pay, exclude=[instance])
    tx.emit(
        ev.CardPlayed(seat, instance, card.sp_cost, card.manual, card.text if card.manual else "")
    )
    costs._pay_tokens(tx, seat, card)
    left = max(0, placed.hp - first.damage)
    tx.emit(ev.TerrainAttacked(seat, card.id, (at.q, at.r), placed.kind, first.damage, left))
    heat = sum(e.amount for e in card.effects if isinstance(e, HeatEffect))
    if heat:
        harm._change_heat(tx, seat, heat, card.name, "R-ADD-364")
    tx.emit(ev.CardResolved(seat, instance))


def _split(tx: _Tx, seat: int, card: CardDef, command: Attack) -> int:
    """R-ADD-363: "can target 2 different enemies for N damage each instead": with the
    further attack named (`also`) and its condition holding as the card is played
    (R-ADD-59), the change to the first attack's printed damage; 0 otherwise."""
    first = card.attack
    if first is None or not command.also:
        return 0
    for effect in card.effects:
        if not isinstance(effect, FollowUpEffect) or not effect.instead:
            continue
        if conditions._holds(tx, seat, effect.condition, command.target):
            return effect.damage - first.damage
    return 0


def _queue_follow_ups(
    tx: _Tx,
    seat: int,
    instance: str,
    card: CardDef,
    command: Attack,
    enhanced_by: tuple[str, ...] = (),
) -> None:
    """R-ADD-80, R-ADD-81: the attacks the card makes after its first, fixed as it is played:
    each `follow_up` at the next seat `also` names (checked now, as any attack is), each
    casket an `area_attack` catches, the blasts of the enhancements its first attack spent
    too (R-ADD-182). Conditions read the state now (R-ADD-59)."""
    c = tx.seat(seat)
    named = list(command.also)
    attacked = {command.target}
    attacks: list[tuple[int, str, int]] = []
    after_kill: int | None = None
    carried = [e for s in enhanced_by for e in targeting._carried(tx.state, s)]
    for effect in [*card.effects, *(e for e in carried if isinstance(e, AreaAttackEffect))]:
        if isinstance(effect, FollowUpEffect):
            if not conditions._holds(tx, seat, effect.condition, command.target):
                continue
            if effect.on == "kill":
                after_kill = command.target
            if effect.target == "same":
                target = command.target
            elif named:
                target = named.pop(0)
                if effect.target == "other" and target in attacked:
                    raise RuleViolation(
                        "same_target_again",
                        f"{card.name} attacks different targets: seat {target} is attacked already",
                        "R-ADD-80",
                    )
                _check_follow_up_target(tx, seat, card, target, effect, command.target)
            elif effect.target == "any" and effect.on == "end":
                target = command.target  # "attack twice": the same target unless named
            else:
                continue  # "up to N targets": not named, not made
            attacked.add(target)
            attacks.append((target, effect.range.text, effect.damage))
        elif isinstance(effect, AreaAttackEffect):
            # R-ADD-84: a blast is around the first attack's target, not the attacker.
            centre = c.at if effect.around == "self" else tx.seat(command.target).at
            first = card.attack
            assert first is not None
            if effect.around == "line":  # R-ADD-393: no farther than the attack reaches
                effect = replace(effect, within=min(effect.within, first.range.high))
            reach = effect.reach(first.range).text
            # R-ADD-381: a line from the attacker through the first target.
            line = (
                line_through(c.at, tx.seat(command.target).at, effect.within)
                if effect.around == "line"
                else ()
            )
            caught = [
                x.seat
                for x in tx.state.seats
                if x.in_battle
                and x.seat not in (seat, command.target)
                and (
                    x.at in line
                    if effect.around == "line"
                    else x.at.distance(centre) <= effect.within
                )
                and (effect.allies or x.side != c.side)
            ]
            if effect.pick and len(caught) > effect.pick:
                caught = _pick(tx, seat, card, caught, effect.pick)
            if effect.first_behind:  # R-ADD-393: the nearest beyond the target, seat order
                beyond = c.at.distance(tx.seat(command.target).at)
                behind = [x for x in caught if c.at.distance(tx.seat(x).at) > beyond]
                caught = sorted(behind, key=lambda x: (c.at.distance(tx.seat(x).at), x))[:1]
            # R-ADD-182: "deal damage to … adjacent enemies": the shot's own printed damage;
            # R-ADD-393: `plus` the enhancement's own +damage
            damage = first.damage + effect.plus if effect.damage_of_attack else effect.damage
            attacks += [(x, reach, damage) for x in caught]
    # R-ADD-186: a bonus for each attack of the card, read for each one's target now.
    each = [e for e in card.effects if isinstance(e, AttackBonusEffect) and e.each_attack]
    attacks = [
        (
            x,
            reach_text,
            damage + sum(b.damage for b in each if conditions._holds(tx, seat, b.condition, x)),
        )
        for x, reach_text, damage in attacks
    ]
    if named:
        raise RuleViolation(
            "unused_argument",
            f"{card.name} makes no further attack at seat {named[0]} ('also')",
            "R-ADD-80",
        )
    if attacks:
        tx.emit(
            ev.AttacksQueued(
                seat,
                instance,
                tuple(attacks),
                command.component,
                after_kill,
                "R-ADD-80",
                # R-ADD-393: an enhancement's Armor-Piercing line too
                ignore_defence=any(
                    isinstance(e, AreaAttackEffect) and e.ignore_defence
                    for e in [*card.effects, *carried]
                ),
            )
        )


def _pick(tx: _Tx, seat: int, card: CardDef, caught: list[int], n: int) -> list[int]:
    """R-ADD-87: `n` of the caught seats at random, in seat order: each pick a d6 naming
    the next seat of those left in seat order (1 the first), re-rolled above their count;
    every face is in an EffectRolled."""
    left = sorted(caught)
    chosen: list[int] = []
    faces: list[int] = []
    while len(chosen) < n:
        face = tx.dice.d6(1, purpose=f"{card.name}: a random target", rule="R-ADD-87")[0]
        faces.append(face)
        if face <= len(left):
            chosen.append(left.pop(face - 1))
    tx.emit(ev.EffectRolled(seat, tuple(faces), len(chosen), card.id))
    return sorted(chosen)


def _check_targetable(d: CasketState, weapon: AttackEffect, prefix: str) -> None:
    """R-ADD-155: no attack names an untargetable casket, nor a ranged one a casket only
    ranged attacks cannot target; `prefix` names the command field ("also: ")."""
    if d.untargetable == "all" or (d.untargetable == "ranged" and not weapon.range.melee):
        which = (
            "attacks" if d.untargetable == "all" else "ranged attacks (a card that is not Melee)"
        )
        raise RuleViolation(
            "untargetable",
            f"{prefix}seat {d.seat} cannot be targeted by {which} until its next turn",
            "R-ADD-155",
        )


def _check_follow_up_target(
    tx: _Tx, seat: int, card: CardDef, target: int, effect: FollowUpEffect, first: int
) -> None:
    if not 0 <= target < len(tx.state.seats) or target == seat:
        raise RuleViolation("bad_target", "also: each target must be another seat", "R-ARC-1")
    d = tx.seat(target)
    if not d.in_battle or d.side == tx.seat(seat).side:
        raise RuleViolation(
            "not_an_enemy", f"also: seat {target} is not an enemy in the battle", "R-TRN-8"
        )
    _check_targetable(d, AttackEffect(effect.range, effect.damage), "also: ")
    away = d.at.distance(tx.seat(first).at)
    if effect.near and away > effect.near:
        raise RuleViolation(
            "too_far_from_target",
            f"also: seat {target} is {away} hexes from seat {first}; {card.name} reaches "
            f"{effect.near} from its first target",
            "R-ADD-84",
        )
    answer = targeting.attack_answer(
        tx.state, seat, card, target, AttackEffect(effect.range, effect.damage)
    )
    if not answer.possible:
        refusal = answer.refusal
        assert refusal is not None
        raise RuleViolation(refusal.code, f"also: seat {target}: {refusal.message}", refusal.rule)


def _follow_up(tx: _Tx) -> None:
    """The next queued attack of the card being played (R-ADD-80): made as any attack, with
    its to-hit read now, or passed over when its target is gone or the rules refuse it."""
    f: FollowUp = tx.state.follow_ups[0]
    card = tx.state.card(f.card)
    target = tx.seat(f.target)
    reason = ""
    answer = None
    if not tx.seat(f.attacker).in_battle:
        reason = f"seat {f.attacker} is out of the battle"
    elif f.after_kill is not None and not tx.seat(f.after_kill).defeated:
        reason = f"the first attack did not defeat seat {f.after_kill}"
    elif not target.in_battle:
        reason = f"seat {f.target} is out of the battle"
    else:
        effect = AttackEffect(parse_range(f.range), f.damage)
        answer = targeting.attack_answer(tx.state, f.attacker, card, f.target, effect)
        if not answer.possible:
            assert answer.refusal is not None
            reason = f"{answer.refusal.message} ({answer.refusal.rule})"
    made = not reason
    tx.emit(ev.FollowUpTaken(f.attacker, f.card, f.target, made, reason, "R-ADD-80"))
    if made:
        assert answer is not None
        if f.ignore_defence:  # R-ADD-60: spent by this attack's declaration
            tx.emit(ev.BuffGained(f.attacker, 0, 0, MAX_DAMAGE, 0, card.id))
        # The card's own attack rules hold for each of its attacks (R-ADD-80, R-ADD-91).
        rules = _attack_rules(tx, f.attacker, card, f.target, False)
        _strike(tx, f.attacker, f.card, f.target, f.component, answer, rules, further=True)


def _passive_bonuses(tx: _Tx, seat: int) -> list[tuple[CardDef, AttackBonusEffect]]:
    """R-ADD-74: the attack bonuses of the passives `seat` has in play, in play order."""
    out: list[tuple[CardDef, AttackBonusEffect]] = []
    for instance in tx.seat(seat).in_play:
        card = tx.state.card(instance)
        for effect in card.effects:
            if isinstance(effect, TriggerEffect) and effect.on == "attack":
                out += [(card, b) for b in effect.then if isinstance(b, AttackBonusEffect)]
    return out


def _attack_riders(
    tx: _Tx,
    seat: int,
    card: CardDef,
    target: int,
    spend: bool,
    taint_from: str | None = None,
    discard: Sequence[str] = (),
) -> None:
    """The attack card's own bonuses, before its to-hit answer (R-ADD-59, R-ADD-61): each
    one that holds is a BuffGained the attack declared next spends."""

    def bonus(effect: AttackBonusEffect) -> None:
        if conditions._holds(tx, seat, effect.condition, target):
            tx.emit(ev.BuffGained(seat, effect.damage, effect.to_hit, 0, 0, card.id))

    def ignore_cover() -> None:
        # R-ADD-60: the cover lines of the to-hit answer, cancelled by an equal bonus.
        answer = targeting.attack_answer(tx.state, seat, card, target)
        cover = sum(m.value for m in answer.modifiers if m.key == "cover")
        if cover:
            tx.emit(ev.BuffGained(seat, 0, -cover, 0, 0, card.id))

    for effect in card.effects:
        if isinstance(effect, AttackBonusEffect):
            bonus(effect)
        elif isinstance(effect, IgnoreCoverEffect):
            ignore_cover()
        elif isinstance(effect, SpendTaintEffect) and spend:
            payer = target if taint_from == "target" else seat
            n = costs._spend_taint(tx, payer, card, effect)
            if effect.damage_per_taint:
                tx.emit(ev.BuffGained(seat, n * effect.damage_per_taint, 0, 0, 0, card.id))
            for inner in effect.then:
                if isinstance(inner, AttackBonusEffect):
                    bonus(inner)
        elif isinstance(effect, DiscardForEffect) and spend:
            piles._discard_for(tx, seat, card, effect, discard)
            for inner in effect.then:
                if isinstance(inner, AttackBonusEffect):
                    bonus(inner)
                else:
                    resolvers._effect(resolvers.Resolving(tx, seat, card, skip_attack=True), inner)
        elif isinstance(effect, SpendTokensEffect) and spend:
            n = costs._spend_tokens(tx, seat, card, effect)
            if any(isinstance(x, AfterAttackEffect) for x in effect.then):
                tx.emit(ev.SpendArmed(seat, card.id))  # R-ADD-116
            if effect.damage_per_token:
                tx.emit(ev.BuffGained(seat, n * effect.damage_per_token, 0, 0, 0, card.id))
            for inner in effect.then:
                if isinstance(inner, AttackBonusEffect):
                    bonus(inner)
                elif isinstance(inner, IgnoreCoverEffect):
                    ignore_cover()
                else:
                    resolvers._effect(resolvers.Resolving(tx, seat, card, skip_attack=True), inner)


def _lasting_bonus(tx: _Tx, seat: int, effect: LastingBonusEffect, source: str) -> None:
    """R-ADD-131: +damage on every later attack of the seat, for the rest of the battle."""
    total = tx.seat(seat).lasting_damage + effect.damage
    tx.emit(ev.LastingBonusGained(seat, effect.damage, total, source))
