"""The answer to an attack: the to-hit answer, wards, the defence roll and the end of the attack."""

from __future__ import annotations

from ...arcs import candidate_sides
from ...cards import (
    AdvantageEffect,
    AfterAttackEffect,
    AfterDefenceEffect,
    AttackEffect,
    CardDef,
    CounterEffect,
    DeflectEffect,
    DestroyOnCriticalEffect,
    GiveHeatEffect,
    RiposteEffect,
    SpendTokensEffect,
    UnflankableEffect,
)
from ...dice import (
    defence_result,
)
from ...hexes import Hex
from ...tohit import (
    ATTACKER_STATUSES,
    TARGET_STATUSES,
    Attacker,
    Modifier,
    Target,
    ToHit,
    Weapon,
    to_hit,
)
from .. import events as ev
from ..state import (
    BattleState,
    CasketState,
    Ward,
)
from . import attacking, harm, piles, reactions
from . import effects as resolvers
from .tx import _Tx


def _roll_defence(tx: _Tx) -> None:
    a = tx.state.attack
    assert a is not None
    die = str(tx.state.ruleset.option("defense_die"))
    faces = tx.dice.d6(a.damage, purpose="the defence roll", rule="R-DMG-2")
    result = defence_result(faces, a.damage, a.defence_modifier, die)
    # R-ADD-98: a reactive card's "+N Defense vs next attack" adds blocks to this attack,
    # unless a PIERCE face voids the card (R-DMG-4).
    blocks = 0 if a.defence_buffs_ignored else reactions._reactive_defence(tx, a.reactive)
    if blocks and not result.pierce:
        result = defence_result(faces, a.damage, a.defence_modifier + blocks, die)
    # R-DMG-4: PIERCE leaves the reactive card spent and without effect.
    reduction = 0 if result.pierce else a.reduction
    final = max(0, result.final_damage - reduction)
    if reduction:  # R-ADD-58: "reduce by N (minimum 1)" never takes a hit below 1
        final = max(final, min(reactions._reactive_minimum(tx, a.reactive), result.final_damage))
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
    if cover is not None and not result.pierce and tx.seat(cover).in_battle:
        # R-ADD-122: the damage the roll leaves is the covering ally's, less its card's
        # reduction; the roll's Heat and Component Damage stay the attacked casket's.
        taken = max(0, final - a.cover_reduction)
        if a.cover_reduction:
            taken = max(taken, min(reactions._reactive_minimum(tx, a.cover_card), final))
        name = tx.state.card(a.cover_card).name if a.cover_card else "cover"
        reason = f"{name}: seat {a.target}'s damage from an attack by seat {a.attacker} (R-ADD-122)"
        harm._inflict(tx, cover, taken, None, reason, attack=attack)
        return
    harm._inflict(
        tx, a.target, final, a.component, f"an attack by seat {a.attacker}", attack=attack
    )


def _after_defence(tx: _Tx, seat: int, reactive: str, test: str, prevented: int) -> None:
    """R-ADD-97: the reactive card's effects waiting for what it did."""
    card = tx.state.card(reactive)
    for effect in card.effects:
        if isinstance(effect, AfterDefenceEffect) and effect.test == test:
            if test == "prevented_at_least" and prevented < effect.n:
                continue
            for inner in effect.then:
                resolvers._effect(tx, seat, card, inner, None, (), None, (), {}, True)


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
        if isinstance(effect, AfterAttackEffect) and fires[effect.on]:
            for inner in effect.then:
                resolvers._effect(
                    tx,
                    a.attacker,
                    card,
                    inner,
                    None,
                    (),
                    None,
                    (),
                    {},
                    True,
                    attack_target=a.target,
                    ended=True,
                )
    # R-ADD-180: the hit effects an enhancement this attack spent brought, as its card's.
    for source in a.enhanced_by:
        for effect in attacking._carried(tx.state, source):
            if isinstance(effect, AfterAttackEffect) and fires[effect.on]:
                for inner in effect.then:
                    resolvers._effect(
                        tx,
                        a.attacker,
                        tx.state.cards[source],
                        inner,
                        None,
                        (),
                        None,
                        (),
                        {},
                        True,
                        attack_target=a.target,
                        ended=True,
                    )
    thorns = _thorns(tx)  # read before AttackEnded spends the next attack's thorns
    tx.emit(ev.AttackEnded(a.attacker, a.card, outcome))
    # R-ADD-107: the defender's dodge, unless a PIERCE face voided its card (R-DMG-4).
    if a.reactive is not None and a.reactive_path and not a.pierced:
        reactions._dodged(tx, a.target, a.reactive, a.reactive_path)
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
        harm._inflict(tx, a.attacker, total, None, "; ".join(reasons))


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


def _attack_lines(c: CasketState) -> tuple[list[Modifier], list[Modifier]]:
    to_hit_lines: list[Modifier] = []
    damage_lines: list[Modifier] = []
    if c.buff_to_hit:
        to_hit_lines.append(
            Modifier("card_buff", c.buff_to_hit, "Next-attack card bonus", "R-HIT-1")
        )
    if c.buff_damage:
        damage_lines.append(
            Modifier("card_buff", c.buff_damage, "Next-attack card bonus", "R-DMG-1")
        )
    if c.damage_this_turn:
        damage_lines.append(
            Modifier("this_turn", c.damage_this_turn, "Damage bonus this turn", "R-DMG-1")
        )
    if c.jam_penalty:
        damage_lines.append(
            Modifier("weapon_jammed", c.jam_penalty, "Catastrophic failure: next attack", "R-DMG-1")
        )
    if c.lasting_damage:
        damage_lines.append(
            Modifier("lasting", c.lasting_damage, "Lasting card bonus (stacks)", "R-ADD-131")
        )
    return to_hit_lines, damage_lines


def attack_answer(
    state: BattleState,
    seat: int,
    card: CardDef,
    target: int,
    effect: AttackEffect | None = None,
    *,
    reach: int | None = None,
) -> ToHit:
    """The rules engine's to-hit answer for `seat` attacking `target` with `card` (R-HIT-1);
    `effect` is one of the card's further attacks (R-ADD-80), else its first. An aura
    card's attacks are not refused for line of sight or arc (R-ADD-85). `reach`: the hexes
    the card reaches further, by default those of the enhancements still waiting (an
    attack that has spent them gives its own, R-ADD-90)."""
    a = state.seats[seat]
    d = state.seats[target]
    effect = effect if effect is not None else card.attack
    assert effect is not None
    others = [c.at for c in state.seats if c.seat not in (seat, target) and c.in_battle]
    enemies = state.enemy_hexes(a)
    to_hit_lines, damage_lines = _attack_lines(a)
    if state.ground_of(a) == ("distortion", "enemy"):  # distortion (R-ADD-163)
        to_hit_lines.append(Modifier("distortion", 1, "Attacking from distortion", "R-ADD-163"))
    ward_to_hit, ward_damage = _ward_lines(d, card)
    to_hit_lines += ward_to_hit
    damage_lines += ward_damage
    answer = to_hit(
        state.board,
        Attacker(
            a.at,
            a.facing,
            a.moved,
            a.heat,
            frozenset(a.destroyed),
            frozenset(a.statuses) & set(ATTACKER_STATUSES),
        ),
        Target(
            d.at,
            _facing_for(state, d, a.at),
            d.shield,
            d.moved_last_turn,
            frozenset(d.statuses) & set(TARGET_STATUSES),
        ),
        Weapon(attacking._reach(a, card, effect.range, reach), effect.damage, card.name),
        others=others,
        enemies=enemies,
        rules=state.ruleset,
        extra_to_hit=to_hit_lines,
        extra_damage=damage_lines,
        # R-ADD-176: "roll with Advantage" is the card's own attack's, not its further ones'.
        advantage=sum(e.n for e in card.effects if isinstance(e, AdvantageEffect))
        if effect is card.attack
        else 0,
    )
    return attacking._aura(card, answer)


def _ward_matches(w: Ward, card: CardDef | None) -> bool:
    """R-ADD-93: whether a ward acts on an attack made with `card` (None: damage without an
    attack, which only a ward against "all" damage reduces)."""
    if w.against == "all":
        return True
    if card is None:
        return False
    if w.against == "ranged":
        return attacking._ranged(card)
    if w.against == "melee":
        return not attacking._ranged(card)
    return True


def _ward_lines(d: CasketState, card: CardDef) -> tuple[list[Modifier], list[Modifier]]:
    """R-ADD-93: the target's wards in an attacker's to-hit answer."""
    to_hit_lines: list[Modifier] = []
    damage_lines: list[Modifier] = []
    for w in d.wards:
        if _ward_matches(w, card):
            label = f"Target's ward: {w.source}"
            if w.to_hit:
                to_hit_lines.append(Modifier("ward", w.to_hit, label, "R-ADD-93"))
            if w.damage:
                damage_lines.append(Modifier("ward", w.damage, label, "R-ADD-93"))
    return to_hit_lines, damage_lines


def _spend_declared_wards(tx: _Tx, seat: int, card: CardDef) -> None:
    """R-ADD-93: "the first attack against you", "the next melee attack": a ward with uses
    acting as attacks are declared spends one on the attack just declared."""
    wards = tx.seat(seat).wards
    # From the last, so that a ward leaving the list moves none still to be spent.
    for i in reversed(range(len(wards))):
        w = wards[i]
        if w.uses and w.declared and _ward_matches(w, card):
            tx.emit(ev.WardUsed(seat, i, w.source))


def _warded(tx: _Tx, seat: int, amount: int, attack: CardDef | None) -> int:
    """R-ADD-94: the damage left after the casket's wards, in the order they were raised:
    each takes off its reduction, then caps what reaches its threshold. A ward that changes
    nothing is not used; one that prevents damage recovers its cards (R-ADD-62)."""
    c = tx.seat(seat)
    if amount <= 0 or not c.in_battle:
        return amount
    gone = 0  # wards that left the list: later indices move down
    for i, w in enumerate(c.wards):
        if w.declared or not _ward_matches(w, attack):
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


def _facing_for(state: BattleState, d: CasketState, attacker_at: Hex) -> int:
    """The facing an attack on `d` is judged by: its own, or, with a card in play that says
    it cannot be flanked, one that puts the attacker in its front (R-ADD-136). On a sector
    boundary the other candidate side is the one that gives the defender no bonus either:
    its weapon side (R-ARC-1, R-ARC-2)."""
    if d.at == attacker_at or not any(
        isinstance(e, UnflankableEffect) for x in d.in_play for e in state.card(x).effects
    ):
        return d.facing
    # With facing 1 the candidate sides are the absolute directions themselves (R-ARC-1).
    directions = candidate_sides(d.at, 1, attacker_at)
    if len(directions) == 1:
        return directions[0]
    low, high = directions  # two neighbouring directions, sorted: (d, d+1) or (1, 6)
    first, second = (high, low) if (low, high) == (1, 6) else (low, high)
    # Facing `first` makes the sides (1, 2), facing `second` (6, 1); side 2 is the weapon
    # side of a left shield, side 6 that of a right shield (R-ARC-2).
    return second if d.shield == "right" else first
