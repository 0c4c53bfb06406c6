"""One effect of a card, resolved."""

from __future__ import annotations

from collections.abc import Sequence

from ....arcs import candidate_sides, rotation_steps
from ....cards import (
    DAMAGE_CARD,
    MAX_SEEDS,
    SP_ALL,
    AdvantageEffect,
    AfterAttackEffect,
    AfterDefenceEffect,
    AllyEffect,
    AreaAttackEffect,
    AreaHinderEffect,
    ArrangeTopEffect,
    AttackBonusEffect,
    AttackEffect,
    AttackRulesEffect,
    BarReactivesEffect,
    BleedEffect,
    BonusAgainstEffect,
    BuffNextAttackEffect,
    BuffThisTurnEffect,
    CardDef,
    DamageAuraEffect,
    DamageNextTurnEffect,
    DefenceEffect,
    DestroyOnCriticalEffect,
    DetonateSeedsEffect,
    DiscardChosenEffect,
    DiscardEffect,
    DiscardForEffect,
    DiscardHandEffect,
    DrawEffect,
    DrawPenaltyEffect,
    DuelEffect,
    Effect,
    EnhanceNextAttackEffect,
    FollowUpEffect,
    ForfeitTokensEffect,
    GainSpEffect,
    GainTokensEffect,
    GiveHeatEffect,
    GrantMoveEffect,
    GrantRotationEffect,
    HeatEffect,
    HinderEffect,
    IgnoreCoverEffect,
    LastingBonusEffect,
    LimitEffect,
    LookAtHandEffect,
    LowerDefenceEffect,
    MarkEffect,
    MoveCostEffect,
    MoveEffect,
    NoAttacksEffect,
    OngoingDamageEffect,
    PlantSeedsEffect,
    PushEffect,
    RecoverEffect,
    RecoverNamedEffect,
    ReduceIncomingEffect,
    RemoveDamageCardEffect,
    RemoveFromGameEffect,
    RemoveHeatRolledEffect,
    RemoveTaintRolledEffect,
    RollSufferingEffect,
    RootEffect,
    RotateEffect,
    ScatterEffect,
    ScavengeWreckEffect,
    SeedAreaEffect,
    SelfDamageEffect,
    ShuffleInEffect,
    SpBoostEffect,
    SpendTaintEffect,
    SpendTokensEffect,
    SpPenaltyEffect,
    StatusEffect,
    TaintEffect,
    TargetDiscardsEffect,
    TeleportEffect,
    TerrainEffect,
    ThornsEffect,
    TokenCostEffect,
    TransformEffect,
    UltimatumEffect,
    UnlessSpentEffect,
    UntargetableEffect,
    WardEffect,
    WhenEffect,
    ZoneEffect,
)
from ....errors import RuleViolation
from ....los import line_of_sight
from ... import events as ev
from ...state import (
    card_id,
)
from .. import attacking, conditions, harm, moves, piles, play, prompts
from ..tx import _Tx


def _effect(
    tx: _Tx,
    seat: int,
    card: CardDef,
    effect: Effect,
    target: int | None,
    path: Sequence[object],
    facing: int | None,
    discard: Sequence[str],
    used: dict[str, bool],
    skip_attack: bool,
    spend: bool = False,
    *,
    attack_target: int | None = None,
    ended: bool = False,
) -> None:
    """One effect of `card`; `ended`: run by `_end_attack`, the attack's outcome known."""
    c = tx.seat(seat)
    if isinstance(effect, LimitEffect):
        return  # checked before the card is played (R-ADD-63)
    if isinstance(effect, TokenCostEffect):
        return  # paid as the card is played (R-ADD-133)
    if isinstance(effect, DestroyOnCriticalEffect):
        return  # `_end_attack` destroys the component on a critical hit (R-ADD-131)
    if isinstance(effect, SelfDamageEffect):
        return  # `_attack` records it, `_end_attack` deals it (R-ADD-130)
    if isinstance(effect, ThornsEffect):
        tx.emit(ev.ThornsRaised(seat, effect.damage, effect.melee_only, effect.until, card.id))
        return
    if isinstance(effect, LastingBonusEffect):
        attacking._lasting_bonus(tx, seat, effect, card.id)
        return
    if isinstance(effect, SpBoostEffect):
        tx.emit(ev.SpBoosted(seat, effect.amount, effect.maximum, card.id))
        return
    if isinstance(effect, BuffThisTurnEffect):
        tx.emit(
            ev.TurnBuffGained(seat, effect.damage, effect.to_hit, effect.ignore_defence, card.id)
        )
        return
    if isinstance(effect, RemoveFromGameEffect):
        return  # evolve puts the resolved card with the removed cards (R-ADD-70)
    if isinstance(effect, AfterAttackEffect):
        return  # `_end_attack` runs it when the attack's outcome is known (R-ADD-65)
    if isinstance(effect, FollowUpEffect | AreaAttackEffect):
        return  # queued as the attack is declared, made once it ends (R-ADD-80, R-ADD-81)
    if isinstance(effect, DamageAuraEffect):
        tx.emit(ev.DamageAuraRaised(seat, effect.amount, effect.within, card.id))
        return
    if isinstance(effect, AreaHinderEffect):
        for x in tx.state.seats:
            near = 1 <= x.at.distance(c.at) <= effect.within
            if not (x.in_battle and x.side != c.side and near):
                continue
            # R-ADD-86: the cone is the caster's front sector, its edges included (R-ARC-1).
            if effect.cone and 1 not in candidate_sides(c.at, c.facing, x.at):
                continue
            tx.emit(ev.BuffGained(x.seat, 0, effect.to_hit, 0, 0, card.id))
        return
    if isinstance(effect, RemoveTaintRolledEffect):
        faces = tx.dice.d6(effect.d3, purpose=f"{card.name}: 1d3", rule="R-ADD-67")
        total = sum((f + 1) // 2 for f in faces)
        tx.emit(ev.EffectRolled(seat, faces, total, card.id))
        removed = min(total, c.taint)  # R-ADD-82: Taint never goes below 0
        harm._change_taint(tx, seat, -removed, card.id)
        if removed and effect.recover_per:
            piles._recover(tx, seat, removed * effect.recover_per, card.name)
        return
    if isinstance(effect, AttackRulesEffect):
        return  # `_attack` reads it as the attack is declared (R-ADD-91)
    if isinstance(effect, AfterDefenceEffect):
        return  # the attack the reactive card answers runs it (R-ADD-97)
    if isinstance(effect, GainSpEffect):
        tx.emit(ev.SpGained(seat, effect.amount, card.id))
        return
    if isinstance(effect, AdvantageEffect):
        return  # `attack_answer` reads it: the attack roll's pool (R-ADD-176)
    if isinstance(effect, ForfeitTokensEffect):  # R-ADD-175: all of them, however many
        have = c.tokens_of(effect.pool)
        if have:
            tx.emit(ev.TokensChanged(seat, effect.pool, -have, 0, card.id))
        return
    if isinstance(effect, DuelEffect):
        prompts._challenge(tx, seat, card, target)
        used["target"] = True
        return
    if isinstance(effect, BarReactivesEffect):  # R-ADD-174: the attack's target
        if attack_target is not None and conditions._holds(
            tx, seat, effect.condition, attack_target
        ):
            tx.emit(ev.ReactivesBarred(attack_target, seat, card.id))
        return
    if isinstance(effect, TransformEffect):  # R-ADD-170: until the end of this round
        tx.emit(ev.FormTaken(seat, effect.form, tx.state.round, card.id))
        return
    if isinstance(effect, EnhanceNextAttackEffect):
        attacking._enhance(tx, seat, card, effect)
        return
    if isinstance(effect, WardEffect):
        tx.emit(
            ev.WardRaised(
                seat,
                card.id,
                effect.until,
                effect.against,
                effect.defence,
                effect.to_hit,
                effect.damage,
                effect.reduce,
                effect.cap,
                effect.at_least,
                effect.uses,
                effect.recover,
                effect.immobile,
            )
        )
        return
    if isinstance(effect, SpendTaintEffect):
        return  # spent with the attack's riders or the reactive card's play (R-ADD-145)
    if isinstance(effect, GrantRotationEffect):
        if tx.seat(seat).free_rotation_used:  # R-ADD-189: unused, the turn's own is there
            tx.emit(ev.RotationGranted(seat, card.id))
        return
    if isinstance(effect, WhenEffect):
        about = attack_target if attack_target is not None else target
        if conditions._holds(tx, seat, effect.condition, about):
            for inner in effect.then:
                _effect(tx, seat, card, inner, target, path, facing, discard, used, skip_attack,
                        attack_target=attack_target, ended=ended)  # fmt: skip
        return
    if isinstance(effect, PushEffect):
        moves._push(tx, seat, card, effect, target, used, attack_target, ended)
        return
    if isinstance(effect, ScatterEffect):
        if attack_target is not None and ended:
            moves._scatter(tx, seat, card, attack_target)
        return
    if isinstance(effect, TeleportEffect):
        moves._teleport(tx, c, card, effect, path)
        used["path"] = True
        return
    if isinstance(effect, GrantMoveEffect):
        tx.emit(ev.MoveGranted(seat, effect.hexes, card.id, effect.split))
        return
    if isinstance(effect, UnlessSpentEffect):
        if not spend:  # R-ADD-151: the spend replaces these
            for inner in effect.then:
                _effect(tx, seat, card, inner, target, path, facing, discard, used, skip_attack,
                        attack_target=attack_target)  # fmt: skip
        return
    if isinstance(effect, DiscardForEffect):
        if spend:
            used["discard"] = True
            if not skip_attack:  # an attack card's riders paid it already (R-ADD-152)
                piles._discard_for(tx, seat, card, effect, discard)
                for inner in effect.then:
                    _effect(tx, seat, card, inner, target, path, facing, discard, used, False)
        return
    if isinstance(effect, RecoverNamedEffect):
        piles._recover_named(tx, seat, effect, card.name)
        return
    if isinstance(effect, UntargetableEffect):
        tx.emit(ev.UntargetableGained(seat, effect.against, effect.until_attack, card.id))
        return
    if isinstance(effect, UltimatumEffect):
        enemy = conditions._enemy_in_range(tx, seat, card, target)  # R-ADD-159, as R-ADD-65
        used["target"] = True
        reason = f"{card.name}: take {effect.damage} damage now, or skip your next turn (choose)"
        prompts._open_prompt(tx, enemy, "ultimatum", effect.damage, None, "R-ADD-159", reason)
        return
    if isinstance(effect, ScavengeWreckEffect):
        wreck = conditions._wreck_in_range(tx, seat, card, target)
        used["target"] = True
        tx.emit(ev.WreckScavenged(seat, wreck, card.id))
        for inner in effect.then:
            _effect(tx, seat, card, inner, None, (), None, (), used, skip_attack)
        return
    if isinstance(effect, ArrangeTopEffect):
        # R-ADD-157: a table arranges its own deck, whose order the engine never knows;
        # it is still asked for the spend of `then`.
        n = 0 if tx.table or len(c.deck) < 2 else min(effect.n, len(c.deck))
        if not n and not effect.then:
            return
        tx.emit(ev.CardsLookedAt(seat, c.deck[:n], card.id))
        reason = f"{card.name}: put the top {n} cards back in any order"
        if effect.then:
            reason += " (and say whether you spend)"
        prompts._open_prompt(tx, seat, "arrange", n, None, "R-ADD-157", reason)
        return
    if isinstance(effect, LookAtHandEffect | BonusAgainstEffect):
        enemy = conditions._enemy_in_range(tx, seat, card, target)  # R-ADD-156, as R-ADD-65
        used["target"] = True
        if isinstance(effect, LookAtHandEffect):
            tx.emit(ev.HandRevealed(seat, enemy, tx.seat(enemy).hand, card.id))
        else:
            tx.emit(ev.TargetBonusGained(seat, enemy, effect.damage, card.id))
        return
    if isinstance(effect, TerrainEffect):  # issue 17, terrain (R-ADD-160 to R-ADD-162)
        if effect.at == "target":  # in `after_attack`: where the target stands as it ends
            if attack_target is not None and ended:
                moves._make_terrain(tx, seat, card, effect, [tx.seat(attack_target).at])
            return
        if effect.at == "self":
            moves._make_terrain(tx, seat, card, effect, [c.at])
            return
        moves._make_terrain(tx, seat, card, effect, moves._terrain_hexes(tx, c, card, effect, path))
        used["path"] = True
        return
    if isinstance(effect, ZoneEffect):  # R-ADD-129: the copy just played, on this hex
        instance = next(x for x in reversed(c.in_play) if card_id(x) == card.id)
        tx.emit(ev.ZoneCreated(seat, instance, (c.at.q, c.at.r)))
        return
    if isinstance(effect, RemoveDamageCardEffect):  # R-ADD-124: the newest first
        junk = tuple(x for x in reversed(c.discard) if card_id(x) == DAMAGE_CARD.id)
        if junk:
            tx.emit(ev.DamageCardsRemoved(seat, junk[: effect.n], card.id))
        return
    if isinstance(effect, AllyEffect):  # R-ADD-120: the ally's own gains
        used["target"] = used.get("target", False) or not effect.every
        for ally in conditions._ally_targets(tx, seat, card, effect, target):
            for inner in effect.then:
                own_turn = ally == seat and effect.defence_until == "your_next_turn"
                if isinstance(inner, DefenceEffect) and not own_turn:
                    # R-ADD-123: until the player's next turn, or the round's end.
                    until = seat if effect.defence_until == "your_next_turn" else -1
                    tx.emit(ev.DefenceLent(ally, inner.amount, until, card.id))
                else:
                    _effect(tx, ally, card, inner, None, (), None, (), {}, True)
        return
    if isinstance(effect, PlantSeedsEffect):
        if attack_target is not None:
            at = tx.seat(attack_target).at
            have = next((n for q, r, n in tx.state.seeds if (q, r) == (at.q, at.r)), 0)
            total = min(MAX_SEEDS, have + effect.n)
            if total > have:
                tx.emit(ev.SeedsPlanted((at.q, at.r), total - have, total, card.id))
        return
    if isinstance(effect, SeedAreaEffect):
        # R-ADD-147: every board hex within reach of the own casket, at most 4 a hex.
        counts = {(q, r): n for q, r, n in tx.state.seeds}
        area = sorted(h for h in tx.state.board.cells if h.distance(c.at) <= effect.within)
        for h in area:
            before = counts.get((h.q, h.r), 0)
            total = min(MAX_SEEDS, before + effect.n)
            if total > before:
                tx.emit(ev.SeedsPlanted((h.q, h.r), total - before, total, card.id))
        return
    if isinstance(effect, DetonateSeedsEffect):
        seeded = tx.state.seeds
        if seeded:
            tx.emit(ev.SeedsDetonated(seeded, card.id))
            mine = tx.seat(seat)
            for q, r, n in seeded:
                for x in tx.state.seats:
                    if x.in_battle and x.side != mine.side and (x.at.q, x.at.r) == (q, r):
                        damage = min(effect.max_per_hex, n * effect.per_seed)
                        harm._inflict(tx, x.seat, damage, None, f"{card.name}: Thornvine seeds")
        return
    if isinstance(effect, SpPenaltyEffect):
        if attack_target is not None:
            amount = SP_ALL if effect.amount == "all" else effect.amount  # R-ADD-119
            tx.emit(ev.SpPenaltyImposed(attack_target, amount, card.id))
        return
    if isinstance(effect, LowerDefenceEffect):
        if attack_target is not None:
            tx.emit(ev.DefenceLowered(attack_target, effect.amount, card.id))
        return
    if isinstance(effect, MarkEffect):  # R-ADD-148: an enemy within the card's range
        marked = conditions._enemy_in_range(tx, seat, card, target)
        used["target"] = True
        if effect.visible:  # R-ADD-149: "visible", the line of sight of R-LOS-1..4
            t = tx.seat(marked)
            others = [x.at for x in tx.state.seats if x.seat not in (seat, marked) and x.in_battle]
            if not line_of_sight(tx.state.board, c.at, t.at, others).clear:
                raise RuleViolation(
                    "no_line_of_sight", f"{card.name} marks a visible enemy only", "R-ADD-149"
                )
        tx.emit(ev.EnemyMarked(seat, marked, card.id))
        return
    if isinstance(effect, GiveHeatEffect):
        # R-ADD-143: after a hit, the target's Heat; a reactive card's "attacker gains
        # N Heat" waits for the attack's end (`_end_attack`).
        to = attack_target if effect.to == "target" else None
        if to is not None and tx.seat(to).in_battle:
            harm._change_heat(tx, to, effect.amount, card.name, "R-ADD-143")
        return
    if isinstance(effect, DamageNextTurnEffect):
        if attack_target is not None:
            tx.emit(ev.DamageScheduled(attack_target, effect.amount, card.id))
        return
    if isinstance(effect, RootEffect | DrawPenaltyEffect):
        who = attack_target
        if who is None:  # a card without an attack: an enemy within its range (R-ADD-65)
            who = conditions._enemy_in_range(tx, seat, card, target)
            used["target"] = True
        if isinstance(effect, RootEffect):
            tx.emit(ev.Rooted(who, effect.turns, card.id))
        else:
            tx.emit(ev.DrawPenaltyImposed(who, effect.n, card.id))
        return
    if isinstance(effect, BleedEffect):
        if attack_target is not None:
            have = tx.seat(attack_target).bleed
            n = effect.n + (effect.more_if_bleeding if have else 0)
            tx.emit(ev.BleedApplied(attack_target, n, have + n, card.id))
            if effect.adjacent:  # R-ADD-182: the enemies beside the target, in seat order
                at, side = tx.seat(attack_target).at, tx.seat(seat).side
                for x in tx.state.seats:
                    near = x.seat != attack_target and x.at.distance(at) == 1
                    if near and x.in_battle and x.side != side:
                        tx.emit(ev.BleedApplied(x.seat, effect.n, x.bleed + effect.n, card.id))
        return
    if isinstance(effect, OngoingDamageEffect):
        if attack_target is not None:
            tx.emit(ev.OngoingDamageScheduled(attack_target, effect.amount, effect.turns, card.id))
        return
    if isinstance(effect, MoveCostEffect):
        if attack_target is not None:
            tx.emit(ev.MoveCostRaised(attack_target, effect.amount, card.id))
        return
    if isinstance(effect, NoAttacksEffect):
        tx.emit(ev.AttacksForgone(seat, card.id))
        return
    if isinstance(effect, TargetDiscardsEffect):
        if attack_target is not None:
            piles._target_discards(tx, attack_target, card, effect)
        return
    if isinstance(effect, HinderEffect):
        who = attack_target
        if who is None:  # a card without an attack: an enemy within its range
            who = conditions._enemy_in_range(tx, seat, card, target)
            used["target"] = True
        tx.emit(ev.BuffGained(who, 0, effect.to_hit, 0, 0, card.id))
        return
    if isinstance(effect, TaintEffect):
        who = seat if effect.target == "self" else attack_target
        if who is not None:
            harm._change_taint(tx, who, effect.change(tx.seat(who).taint), card.id)
        return
    if isinstance(effect, DiscardChosenEffect):
        n = min(effect.n, len(c.hand))
        if n:
            reason = f"{card.name}: discard {n} card(s) of your choice"
            prompts._open_prompt(tx, seat, "discard", n, None, "R-ADD-62", reason)
        return
    if isinstance(effect, ShuffleInEffect):
        newest = tuple(reversed(c.discard))
        cards = newest if effect.n == "all" else newest[: effect.n]
        if cards:
            order, known = tx.shuffle((*c.deck, *cards), f"{card.name}: the deck")
            tx.emit(ev.CardsShuffledIn(seat, cards, order, known, card.name))
        return
    if isinstance(effect, RemoveHeatRolledEffect):
        faces = tx.dice.d6(effect.d3, purpose=f"{card.name}: 1d3", rule="R-ADD-67")
        total = sum((f + 1) // 2 for f in faces)
        tx.emit(ev.EffectRolled(seat, faces, total, card.id))
        harm._change_heat(tx, seat, -total, card.name, "R-ADD-67")
        return
    if isinstance(effect, AttackEffect | AttackBonusEffect | IgnoreCoverEffect):
        if not skip_attack:  # pragma: no cover - play_card refuses attack cards
            raise RuleViolation("use_attack", "send an attack command", "R-HIT-1")
    elif isinstance(effect, SpendTokensEffect):
        # On an attack card `_attack_riders` spent them already.
        if spend and not skip_attack:
            play._spend_tokens(tx, seat, card, effect)
            for inner in effect.then:
                _effect(tx, seat, card, inner, target, path, facing, discard, used, False)
    elif isinstance(effect, GainTokensEffect):
        play._gain_tokens(tx, seat, effect, card.id)
    elif isinstance(effect, RecoverEffect):
        piles._recover(tx, seat, effect.n, card.name)
    elif isinstance(effect, DiscardHandEffect):
        if c.hand:
            tx.emit(ev.CardsDiscarded(seat, c.hand, (), card.name, "R-ADD-14"))
            play._triggers(tx, seat, "cards_discarded")  # R-ADD-139
    elif isinstance(effect, DefenceEffect):
        tx.emit(ev.DefenceRaised(seat, effect.amount, card.id))
    elif isinstance(effect, MoveEffect):
        if skip_attack:
            return  # an attack card's move is the attack command's path (R-ADD-104)
        if not path:
            raise RuleViolation("path_required", f"{card.name} moves: give 'path'", "R-ADD-25")
        moves._card_move(tx, c, card, effect, path, None)
        used["path"] = True
    elif isinstance(effect, RotateEffect):
        if facing is None and effect.optional:
            return  # R-ADD-63: "you may rotate"
        if facing is None:
            raise RuleViolation("facing_required", f"{card.name} rotates: give 'facing'", "R-ARC-5")
        steps = rotation_steps(c.facing, facing)
        if effect.steps != "any" and steps > effect.steps:
            raise RuleViolation(
                "rotation_too_far", f"{card.name} turns at most {effect.steps} step(s)", "R-ADD-16"
            )
        used["facing"] = True
        tx.emit(ev.CasketRotated(seat, facing, 0, False))
    elif isinstance(effect, HeatEffect):
        harm._change_heat(tx, seat, effect.amount, card.name, "R-ADD-14")
    elif isinstance(effect, DrawEffect):
        piles._draw(tx, seat, effect.n, card.name)
    elif isinstance(effect, DiscardEffect):
        used["discard"] = True
        from_hand: tuple[str, ...] = ()
        if effect.source in ("hand", "choice"):
            from_hand = piles._hand_cards(c, discard, "discard", "R-ADD-14")
        if effect.source == "hand" and len(from_hand) != effect.n:
            raise RuleViolation(
                "wrong_discard_count",
                f"{card.name}: list {effect.n} hand card(s) in 'discard'",
                "R-ADD-14",
            )
        if len(from_hand) > effect.n:
            raise RuleViolation(
                "wrong_discard_count", f"{card.name} discards {effect.n} card(s)", "R-ADD-14"
            )
        n_deck = effect.n - len(from_hand)
        if n_deck > len(c.deck):
            raise RuleViolation(
                "deck_too_small", f"{card.name}: the deck holds {len(c.deck)} card(s)", "R-ADD-14"
            )
        from_deck = tx.take(c.deck, n_deck, card.name, "R-ADD-14")
        tx.emit(ev.CardsDiscarded(seat, from_hand, from_deck, card.name, "R-ADD-14"))
        play._triggers(tx, seat, "cards_discarded")  # R-ADD-139
    elif isinstance(effect, BuffNextAttackEffect):
        tx.emit(
            ev.BuffGained(seat, effect.damage, effect.to_hit, effect.blocks_ignored, 0, card.id)
        )
    elif isinstance(effect, StatusEffect):
        who = seat
        if effect.target == "target":
            if target is None or not 0 <= target < len(tx.state.seats) or target == seat:
                raise RuleViolation(
                    "target_required", f"{card.name} needs another seat as 'target'", "R-COV-4"
                )
            used["target"] = True
            who = target
        tx.emit(ev.StatusApplied(who, effect.status, card.id))
    elif isinstance(effect, RollSufferingEffect):
        harm._suffering(tx, seat, effect.n)
    elif isinstance(effect, ReduceIncomingEffect):  # pragma: no cover - reactive cards only
        raise RuleViolation("reactive_in_own_turn", "reactive cards answer attacks", "R-REA-1")
