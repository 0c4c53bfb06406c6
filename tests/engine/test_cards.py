"""Cards: the effect vocabulary, the project's card format, the database import and deck rules.

R-TRN-1 (30-card casket decks, seed 002), R-TRN-6 (the blank Damage card), R-REA-1/2
(reactive and shield cards), R-DMG-6 (Primary Weapon cards), R-RNG-2 (card ranges).
Every database entry below is hand-written for the test; the real database is only
read from /work/shared when it is present.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battles.engine.carddata.card_catalogue import catalogue
from battles.engine.carddata.decks import DeckProblem, validate_deck
from battles.engine.carddata.derive import derive_from_database, iter_database, skipped_sections
from battles.engine.carddata.spelling import database_range
from battles.engine.cards import (
    CARD_KINDS,
    DAMAGE_CARD,
    EFFECT_TYPES,
    AdvantageEffect,
    AfterAttackEffect,
    AfterDefenceEffect,
    AllyDestroyedWindowEffect,
    AllyEffect,
    AllyMoveEffect,
    AreaAttackEffect,
    AreaHinderEffect,
    ArrangeTopEffect,
    AttackBonusEffect,
    AttackEffect,
    AttackRulesEffect,
    BarReactivesEffect,
    BleedEffect,
    BleedFactorEffect,
    BonusAgainstEffect,
    BuffNextAttackEffect,
    BuffThisTurnEffect,
    CardCostEffect,
    CardDef,
    ChooseFormEffect,
    ChrysalisEffect,
    ComponentTypeDamageEffect,
    Condition,
    CounterEffect,
    CoverEffect,
    DamageAuraEffect,
    DamageBargainEffect,
    DamageNextTurnEffect,
    DamageUntilDiscardsEffect,
    DefenceEffect,
    DeflectEffect,
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
    FlipWoundEffect,
    FollowUpEffect,
    ForbidCardsEffect,
    ForceDefenceRerollEffect,
    ForfeitTokensEffect,
    ForTurnsEffect,
    FreePassageEffect,
    GainSpEffect,
    GainTokensEffect,
    GiveHeatEffect,
    GrantMoveEffect,
    GrantRotationEffect,
    GritModifierEffect,
    GritRerollEffect,
    GuardEffect,
    HeatCapacityEffect,
    HeatEffect,
    HinderEffect,
    IgnoreCoverEffect,
    LastingBonusEffect,
    LastingCurseEffect,
    LethalWindowEffect,
    LimitEffect,
    LookAtHandEffect,
    LowDeckWindowEffect,
    LowerDefenceEffect,
    MarkEffect,
    MoveCostEffect,
    MoveEffect,
    NoAttacksEffect,
    OfferMissEffect,
    OngoingDamageEffect,
    PlantSeedsEffect,
    PreventComponentDamageEffect,
    PushEffect,
    RecoverDamagedEffect,
    RecoverEffect,
    RecoverNamedEffect,
    ReduceIncomingEffect,
    RemoveDamageCardEffect,
    RemoveFromGameEffect,
    RemoveHeatRolledEffect,
    RemoveTaintRolledEffect,
    RerollAttackDieEffect,
    RestoreHpEffect,
    RiposteEffect,
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
    SpLockEffect,
    SpPenaltyEffect,
    StatusEffect,
    SummonEffect,
    TaintAuraEffect,
    TaintCounterEffect,
    TaintEffect,
    TakeDamageEffect,
    TargetDiscardsEffect,
    TeleportEffect,
    TemporalLoopEffect,
    TerrainEffect,
    ThornsEffect,
    TokenCostEffect,
    TransformEffect,
    TriggerEffect,
    UltimatumEffect,
    UnflankableEffect,
    UnitBoostEffect,
    UnitOrderEffect,
    UnlessSpentEffect,
    UntargetableEffect,
    WardEffect,
    WhenEffect,
    WindowEffect,
    ZoneEffect,
    card_from_dict,
    effect_from_dict,
)
from battles.engine.errors import InvalidInput
from battles.engine.ruleset import Ruleset
from battles.engine.tohit import WeaponRange, parse_range

DATABASE = (
    Path(__file__).resolve().parents[3] / "shared" / "data" / "penance-card-database-v5.15b.json"
)
MELEE = parse_range("Melee")

EXAMPLE_EFFECTS: tuple[Effect, ...] = (
    AttackEffect(parse_range("2-6"), 3),
    MoveEffect(3),
    RotateEffect(2),
    RotateEffect("any"),
    HeatEffect(1),
    HeatEffect(-2),
    DrawEffect(2),
    DiscardEffect(1, "hand"),
    DiscardEffect(2, "choice"),
    BuffNextAttackEffect(damage=2, to_hit=-1, ignore_defence=1),
    ReduceIncomingEffect(2),
    RollSufferingEffect(1),
    StatusEffect("self", "aiming"),
    StatusEffect("target", "immobilised"),
    # Issue 17's vocabulary (R-ADD-58..64).
    MoveEffect(3, line=True),
    RotateEffect(1, optional=True),
    BuffNextAttackEffect(ignore_defence="all"),
    ReduceIncomingEffect(2, minimum=1),
    AttackBonusEffect(2, condition=Condition("standing_in", terrain="lava")),
    AttackBonusEffect(to_hit=-1),
    GainTokensEffect("bargain", 1, cap=10),
    SpendTokensEffect("credit", "all", damage_per_token=1),
    SpendTokensEffect("forge", 1, (ReduceIncomingEffect(2, minimum=1),)),
    SpendTokensEffect("soul_shard", 3, (RecoverEffect(3),), required=True),
    RecoverEffect(1),
    DiscardHandEffect(),
    DefenceEffect(2),
    WhenEffect(Condition("own_tokens_at_least", 3, pool="metamorph"), (DrawEffect(1),)),
    AfterAttackEffect("kill", (GainTokensEffect("soul_shard", 3), RecoverEffect(1))),
    TaintEffect(1, "target"),
    HinderEffect(1),
    TriggerEffect("casket_destroyed", (GainTokensEffect("soul_shard", 2),), 3, True),
    AfterAttackEffect("end", (GrantMoveEffect(2),)),
    GrantMoveEffect(1),
    IgnoreCoverEffect(),
    RemoveHeatRolledEffect(1),
    ShuffleInEffect(3),
    DiscardChosenEffect(2),
    LimitEffect("turn"),
    SpPenaltyEffect(2),
    DamageNextTurnEffect(2),
    WindowEffect("melee"),
    CounterEffect(2),
    PlantSeedsEffect(2),
    DetonateSeedsEffect(2, 8),
    RemoveFromGameEffect(),
    # issue 17, dot (R-ADD-110 to R-ADD-115)
    RootEffect(2),
    BleedEffect(3, more_if_bleeding=1),
    OngoingDamageEffect(1, 3),
    MoveCostEffect(1),
    DrawPenaltyEffect(1),
    LastingCurseEffect(1, 3, "wyrd-conclave"),  # (R-ADD-421)
    TemporalLoopEffect(6),  # (R-ADD-422)
    NoAttacksEffect(),
    TargetDiscardsEffect(1, "random", "shield", lost=True),
    TargetDiscardsEffect(1, "target"),
    LowerDefenceEffect(1),
    SpPenaltyEffect("all"),
    # issue 17, area
    FollowUpEffect(parse_range("Melee"), 3, "other"),
    FollowUpEffect(parse_range("4"), 2, condition=Condition("own_heat_at_least", 2), on="kill"),
    AreaAttackEffect(2),
    AreaAttackEffect(4, within=2, allies=True),
    RemoveTaintRolledEffect(1, recover_per=1),
    AreaHinderEffect(1, 3, cone=True),
    DamageAuraEffect(1),
    # issue 17, buffs
    EnhanceNextAttackEffect("ranged", damage=2, ignore_defence="all", cannot_miss=True),
    AttackRulesEffect(no_reactive=True, condition=Condition("own_tokens_at_least", 3, "bargain")),
    WardEffect("end_of_round", "all", reduce=2, cap=3, at_least=5, uses=1, recover=1),
    GainSpEffect(2),
    AfterDefenceEffect("took_damage", (RecoverEffect(1),)),
    PushEffect(2, toward=True),  # issue 17, move
    TeleportEffect(4, near_terrain=True),
    ScatterEffect(),
    MoveEffect(3, line=True, ignore_terrain=True, through_enemies=True, toward=True),
    GiveHeatEffect(2),  # issue 17, states
    SpendTaintEffect(1, damage_per_taint=1),  # issue 17, states
    SeedAreaEffect(1, 2),  # issue 17, states
    MarkEffect((DrawEffect(1),)),  # issue 17, states
    # issue 17, misc
    UnlessSpentEffect((GainTokensEffect("credit", 1),)),
    DiscardForEffect(1, (AttackBonusEffect(2),)),
    RecoverNamedEffect(("hand-axe-throw", "hand-axe-chop")),
    UntargetableEffect("all", until_attack=True),
    LookAtHandEffect(),
    BonusAgainstEffect(2),
    ArrangeTopEffect(3),
    ScavengeWreckEffect((GainTokensEffect("soul_shard", 3),)),
    UltimatumEffect(4),
    DamageBargainEffect(2, 2),
    OfferMissEffect("bargain", 2),
    # issue 17, allies (R-ADD-120, R-ADD-121)
    AllyEffect(2, (TaintEffect(-1),), self_allowed=True),
    AllyEffect(3, (RecoverEffect(2),), every=True),
    AllyEffect(1, (DefenceEffect(2),), every=True, behind=True),
    AllyEffect(6, (DrawEffect(2), GainTokensEffect("metamorph", 1)), faction="emergent"),
    WhenEffect(
        Condition("allies_within_at_least", 2, within=3, faction="emergent"), (DrawEffect(1),)
    ),
    AttackBonusEffect(1, condition=Condition("allies_near_target_at_least", 1, within=1)),
    CoverEffect(2),
    RemoveDamageCardEffect(1),
    DeflectEffect(3),
    GuardEffect(2),
    ZoneEffect(3, (RecoverEffect(2),)),
    TerrainEffect("smoke", hexes=3, until="rounds", n=2),  # issue 17, terrain
    AllyMoveEffect(2, 5, every=True, faction="vestige-bloodlines", toward=True, draw_per_ally=1),
    AllyEffect(3, (RecoverEffect(3), DefenceEffect(1)), defence_until="end_of_round"),
    # issue 17, triggers
    ThornsEffect(1, melee_only=True),
    LastingBonusEffect(1),
    TokenCostEffect("metamorph", 1),
    SpBoostEffect(1, maximum=True),
    BuffThisTurnEffect(damage=2, to_hit=-1, ignore_defence=1),
    UnflankableEffect(),
    HeatCapacityEffect(12),
    DestroyOnCriticalEffect(),
    FreePassageEffect(),
    TaintCounterEffect(1, 2),
    SelfDamageEffect(2, "bargain", 2),
    TakeDamageEffect(2),  # R-ADD-431
    RiposteEffect(3),
    TransformEffect("tank"),  # issue 17, forms
    AttackBonusEffect(1, condition=Condition("own_form", form="metamorph")),
    DuelEffect((GainTokensEffect("forge", 3), RecoverEffect(3)), 2),
    BarReactivesEffect(Condition("target_cowards_mark")),
    ForfeitTokensEffect("forge"),
    AdvantageEffect(),
    AttackBonusEffect(2, condition=Condition("own_in_duel")),
    GrantRotationEffect(),  # issue 17, combos
    BleedFactorEffect(2),  # the 95 % coverage (R-ADD-280)
    PreventComponentDamageEffect(1),  # (R-ADD-281)
    RerollAttackDieEffect(),  # (R-ADD-282)
    ForceDefenceRerollEffect(2),  # (R-ADD-412)
    AllyDestroyedWindowEffect(3),  # (R-ADD-283)
    FlipWoundEffect(1),  # the real cards' coverage, spends (R-ADD-294)
    TaintAuraEffect(1, 3),  # the real cards' coverage, spends (R-ADD-296)
    GritModifierEffect(1),  # (R-ADD-360)
    GritRerollEffect(1),  # (R-ADD-411)
    LowDeckWindowEffect(5),  # (R-ADD-370)
    LethalWindowEffect(5),  # (R-ADD-371)
    LethalWindowEffect("all"),  # "prevent it" (R-ADD-441)
    ForTurnsEffect(2),  # (R-ADD-375)
    ChooseFormEffect(  # (R-ADD-362)
        (WardEffect("end_of_round", defence=-1),),
        (WardEffect("end_of_round", defence=3, move_cost=1),),
        (GrantMoveEffect(2), WardEffect("end_of_round", ignore_terrain=True)),
    ),
    ComponentTypeDamageEffect(2),  # (R-ADD-365)
    ChrysalisEffect(10, 2),  # (R-ADD-366)
    ForbidCardsEffect(defense=True, movement=True),  # (R-ADD-340)
    CardCostEffect(1, 4),  # (R-ADD-341)
    SpLockEffect(3),  # (R-ADD-343)
    UltimatumEffect(discard=2),  # (R-ADD-342)
    SummonEffect("Mercenary", 8, 3, 3, within=3, limit=2),  # summoned units (R-ADD-400)
    UnitOrderEffect("Mercenary", 4, 3, 3),  # (R-ADD-409)
    UnitBoostEffect("Mercenary", 4, 2, 2, rounds=2),  # (R-ADD-408)
    RecoverDamagedEffect(5),  # (R-ADD-440)
    RestoreHpEffect(5),  # (R-ADD-441)
    DamageUntilDiscardsEffect(2, 3),  # (R-ADD-443)
)


def card(**changes: Any) -> CardDef:
    fields: dict[str, Any] = {
        "id": "test-cut",
        "name": "Test Cut",
        "kind": "primary_weapon",
        "sp_cost": 2,
        "automated": True,
    }
    return CardDef(**(fields | changes))


def card_doc(**changes: Any) -> dict[str, Any]:
    return (
        {"id": "test-cut", "name": "Test Cut", "kind": "other", "sp_cost": 1}
        | {"automated": True}
        | changes
    )


def entry(**changes: Any) -> dict[str, Any]:
    """A hand-written database entry of an ordinary melee attack, fields as the database has them."""
    base: dict[str, Any] = {
        "id": "test-swing",
        "name": "Test Swing",
        "type": "Attack",
        "cost": 2,
        "range": "Melee",
        "damage": 4,
        "effect": "Deal 4 damage.",
        "keywords": ["attack", "melee", "primary"],
        "cardCount": 2,
        "cardType": "equipment",
    }
    return base | changes


# --- the effect vocabulary ---------------------------------------------------------------------


# Every effect kind, in `Effect`'s order: the stored vocabulary, pinned (a kind is added here on
# purpose, with its sample in EXAMPLE_EFFECTS; one removed or renamed would orphan stored cards).
EFFECT_KINDS = [
    "attack",
    "move",
    "rotate",
    "heat",
    "draw",
    "discard",
    "buff_next_attack",
    "reduce_incoming",
    "roll_suffering",
    "status",
    "attack_bonus",
    "gain_tokens",
    "spend_tokens",
    "recover",
    "discard_hand",
    "defence",
    "when",
    "after_attack",
    "taint",
    "hinder",
    "trigger",
    "grant_move",
    "ignore_cover",
    "remove_heat_rolled",
    "shuffle_in",
    "discard_chosen",
    "limit",
    "sp_penalty",
    "damage_next_turn",
    "window",
    "counter",
    "plant_seeds",
    "detonate_seeds",
    "remove_from_game",
    # issue 17, dot
    "root",
    "bleed",
    "ongoing_damage",
    "move_cost",
    "draw_penalty",
    "lasting_curse",  # (R-ADD-421)
    "temporal_loop",  # (R-ADD-422)
    "no_attacks",
    "target_discards",
    "lower_defence",
    # issue 17, area
    "follow_up",
    "area_attack",
    "remove_taint_rolled",
    "area_hinder",
    "damage_aura",
    # issue 17, buffs
    "enhance_next_attack",
    "attack_rules",
    "ward",
    "gain_sp",
    "after_defence",
    "push",  # issue 17, move
    "teleport",  # issue 17, move
    "scatter",  # issue 17, move
    "give_heat",  # issue 17, states
    "spend_taint",  # issue 17, states
    "seed_area",  # issue 17, states
    "mark",  # issue 17, states
    # issue 17, misc
    "unless_spent",
    "discard_for",
    "recover_named",
    "untargetable",
    "look_at_hand",
    "bonus_against",
    "arrange_top",
    "scavenge_wreck",
    "ultimatum",
    "damage_bargain",
    "offer_miss",
    "ally",
    "cover",
    "remove_damage_card",
    "deflect",
    "ally_move",
    "guard",
    "zone",
    # issue 17, triggers
    "thorns",
    "lasting_bonus",
    "token_cost",
    "sp_boost",
    "buff_this_turn",
    "unflankable",
    "heat_capacity",
    "destroy_on_critical",
    "free_passage",
    "taint_counter",
    "self_damage",
    "take_damage",
    "riposte",
    "transform",  # issue 17, forms
    "duel",
    "bar_reactives",
    "forfeit_tokens",
    "advantage",
    "terrain",  # issue 17, terrain
    "grant_rotation",  # issue 17, combos
    "bleed_factor",  # the 95 % coverage (R-ADD-280)
    "prevent_component_damage",  # (R-ADD-281)
    "reroll_attack_die",  # (R-ADD-282)
    "force_defence_reroll",  # (R-ADD-412)
    "ally_destroyed_window",  # (R-ADD-283)
    "flip_wound",  # the real cards' coverage, spends (R-ADD-294)
    "taint_aura",  # the real cards' coverage, spends (R-ADD-296)
    "grit_modifier",  # (R-ADD-360)
    "grit_reroll",  # (R-ADD-411)
    "low_deck_window",  # (R-ADD-370)
    "lethal_window",  # (R-ADD-371)
    "for_turns",  # (R-ADD-375)
    "choose_form",  # (R-ADD-362)
    "component_type_damage",  # (R-ADD-365)
    "chrysalis",  # (R-ADD-366)
    "forbid_cards",  # (R-ADD-340)
    "card_cost",  # (R-ADD-341)
    "sp_lock",  # (R-ADD-343)
    "summon",  # summoned units (R-ADD-400)
    "unit_order",  # (R-ADD-409)
    "unit_boost",  # (R-ADD-408)
    "recover_damaged",  # the Damage Graveyard (R-ADD-440)
    "restore_hp",  # (R-ADD-441)
    "damage_until_discards",  # (R-ADD-443)
]


def test_vocabulary_is_exactly_the_declared_kinds() -> None:
    assert list(EFFECT_TYPES) == EFFECT_KINDS
    assert {type(e).kind for e in EXAMPLE_EFFECTS} == set(EFFECT_TYPES)


@pytest.mark.parametrize("effect", EXAMPLE_EFFECTS, ids=repr)
def test_every_effect_round_trips_through_json(effect: Effect) -> None:
    doc = json.loads(json.dumps(effect.as_dict()))
    assert doc["kind"] == type(effect).kind
    assert effect_from_dict(doc, "e") == effect


def test_buff_next_attack_fields_default_to_zero_and_negative_to_hit_is_easier() -> None:
    """R-HIT-1: a negative to-hit modifier lowers the target number."""
    buff = effect_from_dict({"kind": "buff_next_attack", "to_hit": -2})
    assert buff == BuffNextAttackEffect(to_hit=-2)
    assert buff.as_dict() == {
        "kind": "buff_next_attack",
        "damage": 0,
        "to_hit": -2,
        "ignore_defence": 0,
    }


EFFECT_ERRORS: list[tuple[object, str]] = [
    ({"kind": "take_damage", "amount": 0}, "fx.amount"),  # R-ADD-431
    ("move", "fx"),
    ({"hexes": 2}, "fx.kind"),
    ({"kind": "blink"}, "fx.kind"),
    ({"kind": 3}, "fx.kind"),
    ({"kind": "move", "hexes": 2, "free": True}, "fx.free"),
    ({"kind": "move"}, "fx.hexes"),
    ({"kind": "move", "hexes": 0}, "fx.hexes"),
    ({"kind": "move", "hexes": True}, "fx.hexes"),
    ({"kind": "move", "hexes": "2"}, "fx.hexes"),
    ({"kind": "rotate", "steps": 4}, "fx.steps"),
    ({"kind": "rotate", "steps": "all"}, "fx.steps"),
    ({"kind": "heat", "amount": 0}, "fx.amount"),
    ({"kind": "heat", "amount": 99}, "fx.amount"),
    ({"kind": "draw", "n": -1}, "fx.n"),
    ({"kind": "discard", "n": 1}, "fx.source"),
    ({"kind": "discard", "n": 1, "source": "graveyard"}, "fx.source"),
    ({"kind": "buff_next_attack"}, "fx"),
    ({"kind": "buff_next_attack", "ignore_defence": -1}, "fx.ignore_defence"),
    ({"kind": "reduce_incoming", "amount": 0}, "fx.amount"),
    ({"kind": "roll_suffering", "n": 0}, "fx.n"),
    ({"kind": "status", "target": "ally", "status": "aiming"}, "fx.target"),
    ({"kind": "status", "target": "self", "status": "burning"}, "fx.status"),
    ({"kind": "attack", "range": "3 hexes (line)", "damage": 2}, "fx.range"),
    ({"kind": "attack", "range": "Self", "damage": 2}, "fx.range"),
    ({"kind": "attack", "range": "Melee"}, "fx.damage"),
    ({"kind": "attack", "range": "Melee", "damage": -1}, "fx.damage"),
    # issue 17, allies (R-ADD-120, R-ADD-121)
    ({"kind": "ally", "then": [{"kind": "draw", "n": 1}]}, "fx.within"),
    ({"kind": "ally", "within": 0, "then": [{"kind": "draw", "n": 1}]}, "fx.within"),
    ({"kind": "ally", "within": 2, "then": []}, "fx.then"),
    ({"kind": "ally", "within": 2, "then": [{"kind": "move", "hexes": 1}]}, "fx.then[0]"),
    ({"kind": "ally", "within": 2, "then": [{"kind": "taint", "amount": 1, "target": "target"}]},
     "fx.then[0].target"),
    ({"kind": "ally", "within": 2, "then": [{"kind": "draw", "n": 1}], "every": True,
      "self_allowed": True}, "fx.self_allowed"),
    ({"kind": "ally", "within": 2, "then": [{"kind": "draw", "n": 1}], "every": 1}, "fx.every"),
    ({"kind": "ally", "within": 2, "then": [{"kind": "draw", "n": 1}], "faction": "Emergent"},
     "fx.faction"),
    ({"kind": "when", "condition": {"test": "allies_within_at_least", "n": 2},
      "then": [{"kind": "draw", "n": 1}]}, "fx.condition.within"),
    ({"kind": "when", "condition": {"test": "allies_within_at_least", "within": 3},
      "then": [{"kind": "draw", "n": 1}]}, "fx.condition.n"),
    ({"kind": "when", "condition": {"test": "own_heat_at_least", "n": 2, "faction": "emergent"},
      "then": [{"kind": "draw", "n": 1}]}, "fx.condition.faction"),
    ({"kind": "when", "condition": {"test": "allies_near_target_at_least", "n": 1, "within": 1,
      "faction": "no such"}, "then": [{"kind": "draw", "n": 1}]}, "fx.condition.faction"),
    ({"kind": "ally", "within": 2, "then": [{"kind": "draw", "n": 1}],
      "defence_until": "end_of_round"}, "fx.defence_until"),
    ({"kind": "ally", "within": 2, "then": [{"kind": "defence", "amount": 1}],
      "defence_until": "next_week"}, "fx.defence_until"),
    ({"kind": "cover"}, "fx.within"),
    ({"kind": "remove_damage_card", "n": 0}, "fx.n"),
    ({"kind": "deflect", "amount": 0}, "fx.amount"),
    ({"kind": "guard", "within": 0}, "fx.within"),
    ({"kind": "zone", "radius": 0, "then": [{"kind": "recover", "n": 2}]}, "fx.radius"),
    ({"kind": "terrain", "terrain": "fog"}, "fx.terrain"),  # issue 17, terrain (R-ADD-160)
    ({"kind": "terrain", "terrain": "ice", "hexes": 6}, "fx.hexes"),
    ({"kind": "zone", "radius": 3, "then": [{"kind": "move", "hexes": 1}]}, "fx.then[0]"),
    ({"kind": "ally_move", "hexes": 1, "within": 3, "toward_target": True}, "fx.toward_target"),
    ({"kind": "ally", "within": 1, "then": [{"kind": "draw", "n": 1}], "behind": True},
     "fx.behind"),
    ({"kind": "ally_move", "hexes": 0, "within": 3}, "fx.hexes"),
    ({"kind": "ally_move", "hexes": 1}, "fx.within"),
    ({"kind": "ally_move", "hexes": 1, "within": 3, "toward": "you"}, "fx.toward"),
    ({"kind": "ally_move", "hexes": 1, "within": 3, "faction": "Hive"}, "fx.faction"),
    ({"kind": "ally_move", "hexes": 1, "within": 3, "draw_per_ally": 4}, "fx.draw_per_ally"),
    ({"kind": "cover", "within": 0}, "fx.within"),
    ({"kind": "transform", "form": "mantis"}, "fx.form"),  # issue 17, forms (R-ADD-170)
    ({"kind": "duel", "then": [], "mark_damage": 2}, "fx.then"),  # R-ADD-174
    ({"kind": "duel", "then": [{"kind": "move", "hexes": 1}], "mark_damage": 2}, "fx.then[0]"),
    ({"kind": "duel", "then": [{"kind": "recover", "n": 3}], "mark_damage": 0}, "fx.mark_damage"),
    ({"kind": "bar_reactives", "condition": {"test": "own_in_duel", "n": 1}}, "fx.condition.n"),
    ({"kind": "forfeit_tokens", "pool": "gold"}, "fx.pool"),  # R-ADD-175
    ({"kind": "attack_bonus", "damage": 1, "condition": {"test": "own_form"}},
     "fx.condition.form"),
]  # fmt: skip


@pytest.mark.parametrize(("doc", "field"), EFFECT_ERRORS, ids=[f for _, f in EFFECT_ERRORS])
def test_every_effect_error_names_its_path(doc: object, field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        effect_from_dict(doc, "fx")
    assert err.value.field == field


def test_attack_effect_range_error_cites_r_rng_2() -> None:
    with pytest.raises(InvalidInput) as err:
        effect_from_dict({"kind": "attack", "range": "Self", "damage": 2}, "fx")
    assert err.value.rule == "R-RNG-2"


effects_strategy = st.one_of(
    st.builds(
        AttackEffect,
        st.tuples(st.integers(1, 6), st.integers(0, 6)).map(
            lambda t: parse_range(f"{t[0]}-{t[0] + t[1]}")
        ),
        st.integers(0, 100),
    ),
    st.builds(MoveEffect, st.integers(1, 20)),
    st.builds(RotateEffect, st.one_of(st.integers(1, 3), st.just("any"))),
    st.builds(HeatEffect, st.integers(-20, 20).filter(bool)),
    st.builds(DiscardEffect, st.integers(1, 30), st.sampled_from(["hand", "deck", "choice"])),
    st.builds(
        StatusEffect,
        st.sampled_from(["self", "target"]),
        st.sampled_from(["obscured", "stunned", "immobilised", "aiming"]),
    ),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(effects_strategy, max_size=4))
def test_any_effect_list_round_trips_in_a_manual_card(effects: list[Effect]) -> None:
    attack = next((e for e in effects if isinstance(e, AttackEffect)), None)
    c = card(
        range=attack.range if attack else None,
        damage=attack.damage if attack else None,
        effects=tuple(effects),
        text="Something the effects do not say.",
        automated=False,
    )
    assert card_from_dict(json.loads(json.dumps(c.as_dict()))) == c


# --- the project's card format -----------------------------------------------------------------


def test_card_round_trips_and_its_json_has_exactly_the_carddef_fields() -> None:
    c = card(
        range=MELEE,
        damage=4,
        heat=1,
        keywords=("melee", "shield"),
        text="Deal 4 damage. Gain 1 Heat.",
        shield=True,
        effects=(AttackEffect(MELEE, 4), HeatEffect(1)),
    )
    doc = c.as_dict()
    assert set(doc) == {
        "id",
        "name",
        "kind",
        "sp_cost",
        "range",
        "damage",
        "heat",
        "keywords",
        "text",
        "shield",
        "effects",
        "automated",
    }
    assert doc["range"] == "Melee"
    assert doc["effects"] == [
        {"kind": "attack", "range": "Melee", "damage": 4},
        {"kind": "heat", "amount": 1},
    ]
    assert card_from_dict(json.loads(json.dumps(doc))) == c
    assert hash(card_from_dict(doc)) == hash(c)


def test_optional_card_fields_have_defaults() -> None:
    c = card_from_dict(card_doc())
    assert (c.range, c.damage, c.heat, c.keywords, c.text, c.shield, c.effects) == (
        None,
        None,
        0,
        (),
        "",
        False,
        (),
    )


def test_manual_is_the_opposite_of_automated() -> None:
    assert card(text="Plain.").manual is False
    assert card(text="Something special.", automated=False).manual is True


CARD_ERRORS: list[tuple[dict[str, Any], str, str | None]] = [
    (card_doc(colour="red"), "cards[2].colour", None),
    ({k: v for k, v in card_doc().items() if k != "automated"}, "cards[2].automated", None),
    ({k: v for k, v in card_doc().items() if k != "sp_cost"}, "cards[2].sp_cost", None),
    (card_doc(id="Test Cut"), "cards[2].id", None),
    (card_doc(id=7), "cards[2].id", None),
    (card_doc(name=" "), "cards[2].name", None),
    (card_doc(kind="weapon"), "cards[2].kind", None),
    (card_doc(sp_cost=-1), "cards[2].sp_cost", "R-TRN-5"),
    (card_doc(sp_cost=True), "cards[2].sp_cost", "R-TRN-5"),
    (card_doc(range="5 hexes (area)"), "cards[2].range", "R-RNG-2"),
    (card_doc(damage="4"), "cards[2].damage", "R-DMG-1"),
    (card_doc(heat="+1"), "cards[2].heat", None),
    (card_doc(keywords="melee"), "cards[2].keywords", None),
    (card_doc(keywords=["melee", ""]), "cards[2].keywords", None),
    (card_doc(text=None), "cards[2].text", None),
    (card_doc(shield="yes"), "cards[2].shield", None),
    (card_doc(automated=1), "cards[2].automated", None),
    (card_doc(effects={"kind": "draw", "n": 1}), "cards[2].effects", None),
    (
        card_doc(effects=[{"kind": "draw", "n": 1}, {"kind": "move", "hexes": 0}]),
        "cards[2].effects[1].hexes",
        "R-TRN-5",
    ),
    (
        card_doc(effects=[{"kind": "reduce_incoming", "amount": 1}]),
        "cards[2].effects[0]",
        "R-REA-1",
    ),
    (
        card_doc(
            range="Melee", damage=3, effects=[{"kind": "attack", "range": "Melee", "damage": 4}]
        ),
        "cards[2].range",
        "R-RNG-2",
    ),
    (card_doc(heat=1), "cards[2].heat", None),
    (card_doc(automated=False), "cards[2].text", None),
    (card_doc(kind="damage", sp_cost=1), "cards[2].kind", "R-TRN-6"),
]


@pytest.mark.parametrize(
    ("doc", "field", "rule"),
    CARD_ERRORS,
    ids=[f"{f}-{i}" for i, (_, f, _) in enumerate(CARD_ERRORS)],
)
def test_every_card_error_names_its_path(doc: dict[str, Any], field: str, rule: str | None) -> None:
    with pytest.raises(InvalidInput) as err:
        card_from_dict(doc, "cards[2]")
    assert err.value.field == field
    assert err.value.rule == rule


def test_card_that_is_not_an_object_is_refused_at_its_path() -> None:
    with pytest.raises(InvalidInput) as err:
        card_from_dict(["id"], "deck[0]")
    assert err.value.field == "deck[0]"


def test_reduce_incoming_is_allowed_on_a_reactive_card_r_rea_1() -> None:
    c = card(
        kind="reactive",
        sp_cost=0,
        effects=(ReduceIncomingEffect(2),),
        text="Reduce the damage by 2.",
    )
    assert c.effects == (ReduceIncomingEffect(2),)


def test_a_manual_card_need_not_match_its_heat_with_effects() -> None:
    """The engine runs effects only; a manual card's printed Heat is left to the players."""
    c = card(heat=2, text="Gain 2 Heat if something happens.", automated=False)
    assert c.effects == () and c.heat == 2


def test_damage_card_is_blank_free_and_automated_r_trn_6() -> None:
    assert DAMAGE_CARD.kind == "damage"
    assert DAMAGE_CARD.sp_cost == 0
    assert DAMAGE_CARD.effects == ()
    assert DAMAGE_CARD.automated and not DAMAGE_CARD.manual
    assert card_from_dict(DAMAGE_CARD.as_dict()) == DAMAGE_CARD
    assert set(CARD_KINDS) == {
        "primary_weapon",
        "secondary",
        "universal",
        "reactive",
        "damage",
        "other",
        "behaviour",
    }


# --- deriving cards from database entries ------------------------------------------------------


def test_plain_attack_entry_becomes_an_automated_attack_card() -> None:
    d = derive_from_database(entry(), "equipment")
    assert d.reason is None and d.card is not None and d.automated
    c = d.card
    assert (c.id, c.name, c.kind, c.sp_cost, c.range, c.damage, c.heat) == (
        "test-swing",
        "Test Swing",
        "primary_weapon",
        2,
        MELEE,
        4,
        0,
    )
    assert c.effects == (AttackEffect(MELEE, 4),)
    assert c.text == "Deal 4 damage." and c.keywords == ("attack", "melee", "primary")


@pytest.mark.parametrize(
    "text",
    [
        "Deal 4 damage. Basic melee attack.",
        "Deal 4 damage at range.",
        " Deal 4 damage. Basic Test Clan attack. ",
    ],
)
def test_attack_with_only_a_basic_label_stays_automated(text: str) -> None:
    assert derive_from_database(entry(effect=text), "church").automated


@pytest.mark.parametrize(
    "text",
    [
        "Deal 4 damage. Push the target 1 hex.",
        "Deal 5 damage.",  # disagrees with the damage field: the players decide
        "4 damage.",
        "Deal 4 damage. If the target moved, deal 6 damage instead.",
        "Deal 4 damage. Basic melee attack. Ignore 1 Defense.",
    ],
)
def test_attack_with_extra_text_is_manual_but_keeps_its_attack_effect(text: str) -> None:
    d = derive_from_database(entry(effect=text), "church")
    assert d.card is not None and d.card.manual and not d.automated
    assert d.card.effects == (AttackEffect(MELEE, 4),)


def test_attack_heat_field_adds_a_heat_effect() -> None:
    d = derive_from_database(entry(heat="+1", effect="Deal 4 damage. Gain 1 Heat."), "dwarves")
    assert d.card is not None and d.automated
    assert d.card.effects == (AttackEffect(MELEE, 4), HeatEffect(1))
    assert d.card.heat == 1
    zero = derive_from_database(entry(heat="0"), "dwarves").card
    assert zero is not None and zero.effects == (AttackEffect(MELEE, 4),) and zero.heat == 0


def test_attack_with_a_rolled_heat_field_is_manual() -> None:
    d = derive_from_database(entry(heat="-1d3"), "dwarves")
    assert d.card is not None and d.card.manual and d.card.heat == 0


def test_attack_with_a_damage_spread_loads_without_an_attack_effect() -> None:
    d = derive_from_database(entry(damage="5-7"), "church")
    assert d.card is not None and d.card.manual
    assert d.card.damage is None and d.card.effects == () and d.card.range == MELEE


def test_attack_damage_written_as_a_string_is_an_integer() -> None:
    d = derive_from_database(entry(damage="4"), "church")
    assert d.card is not None and d.card.damage == 4 and d.automated


def test_database_ranged_attack_uses_r_rng_2_ranges() -> None:
    c = derive_from_database(entry(range="Ranged 2-5", keywords=["ranged"]), "elves").card
    assert c is not None and c.range == WeaponRange("2-5", 2, 5) and c.kind == "other"
    c = derive_from_database(entry(range="6 hexes"), "elves").card
    assert c is not None and c.range == WeaponRange("6", 1, 6)


def test_reactive_shield_card_r_rea_2() -> None:
    d = derive_from_database(
        {
            "id": "test-guard",
            "name": "Test Guard",
            "type": "Reactive",
            "cost": "0 SP (Reactive)",
            "range": "Self",
            "effect": "Play when attacked. Reduce the damage by 2.",
            "keywords": ["reactive", "defense", "shield", "secondary"],
        },
        "equipment",
    )
    assert d.card is not None
    assert (d.card.kind, d.card.shield, d.card.sp_cost) == ("reactive", True, 0)
    # The reduction is in the free text only: nothing is derived from it.
    assert d.card.effects == () and d.card.manual
    assert d.card.range == parse_range("Self")


@pytest.mark.parametrize(
    ("changes", "section", "kind"),
    [
        ({"keywords": ["primary-weapon"]}, "church", "primary_weapon"),
        ({"type": "Defense", "keywords": ["defense", "reactive"]}, "universal", "reactive"),
        ({"type": "reactive-defense", "keywords": []}, "dwarves", "reactive"),
        ({"keywords": ["secondary"]}, "equipment", "secondary"),
        ({"keywords": ["utility"], "type": "Utility"}, "universal", "universal"),
        ({"keywords": ["anti-reactive"]}, "wyrd-conclave", "other"),
        ({"keywords": ["primary", "reactive"], "type": "Reactive"}, "church", "primary_weapon"),
    ],
)
def test_derived_kind_r_dmg_6_and_r_rea_1(changes: dict[str, Any], section: str, kind: str) -> None:
    d = derive_from_database(entry(**changes), section)
    assert d.card is not None and d.card.kind == kind


def test_non_attack_entry_keeps_its_printed_values_but_no_effects() -> None:
    d = derive_from_database(
        entry(type="movement", range="Self", damage=None, heat="+1", effect="Move 2 hexes."),
        "universal",
    )
    assert d.card is not None
    assert d.card.effects == () and d.card.heat == 1 and d.card.damage is None and d.card.manual


def test_non_attack_entry_with_an_odd_range_has_no_range() -> None:
    c = derive_from_database(entry(type="Utility", range="2-hex radius"), "elves").card
    assert c is not None and c.range is None and c.effects == ()


@pytest.mark.parametrize(
    ("bad", "reason_part"),
    [
        ({"cost": "2 Scrap tokens"}, "not a whole number of SP"),
        ({"cost": "N/A"}, "not a whole number of SP"),
        ({"cost": -1}, "not a whole number of SP"),
        ({"cost": 1.5}, "not a whole number of SP"),
        ({"cost": None}, "not a whole number of SP"),
        ({"range": "3 hexes (line)"}, "R-RNG-2"),
        ({"range": "Self"}, "R-RNG-2"),
        ({"range": "Melee or Ranged 5"}, "R-RNG-2"),
        ({"range": "N/A"}, "R-RNG-2"),
        ({"id": None}, "no id"),
        ({"id": ""}, "no id"),
        ({"id": "Test Swing!"}, "not a slug"),
        ({"name": ""}, "no name"),
        ({"keywords": "attack"}, "keywords"),
        ({"effect": 3}, "effect text"),
    ],
)
def test_unloadable_entries_give_a_one_line_reason(bad: dict[str, Any], reason_part: str) -> None:
    d = derive_from_database(entry(**bad), "equipment")
    assert d.card is None and not d.automated
    assert d.reason is not None and reason_part in d.reason and "\n" not in d.reason


def test_entries_without_id_name_or_cost_fields_are_reported() -> None:
    no_id = {k: v for k, v in entry().items() if k != "id"}
    no_cost = {k: v for k, v in entry().items() if k != "cost"}
    assert derive_from_database(no_id, "equipment_items").reason == "no id"
    assert derive_from_database(no_cost, "support_unit_behaviors").reason == "no cost"
    assert derive_from_database(["not", "an", "entry"], "x").reason == "not an object but list"


@pytest.mark.parametrize("cost", [3, "3", "3 SP", "3 sp", "0 SP (Reactive)"])
def test_whole_sp_costs_are_accepted(cost: object) -> None:
    c = derive_from_database(entry(cost=cost), "church").card
    assert c is not None and c.sp_cost == int(str(cost).split()[0])


def test_database_damage_card_is_the_built_in_one_r_trn_6() -> None:
    d = derive_from_database(
        {"id": "damage-card", "name": "Damage", "type": "penalty", "cost": "N/A"}, "special_cards"
    )
    assert d.card is None and d.reason is not None and "DAMAGE_CARD" in d.reason


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Melee", ("Melee", 1, 1)),
        ("Melee (1 hex)", ("Melee", 1, 1)),
        ("Melee (Range 1)", ("Melee", 1, 1)),
        ("1 hex (adjacent only)", ("Melee", 1, 1)),
        ("Adjacent", ("Melee", 1, 1)),
        ("Self", ("Self", 0, 0)),
        ("4 hexes", ("4", 1, 4)),
        ("1 hex", ("1", 1, 1)),
        ("Range 3", ("3", 1, 3)),
        ("8", ("8", 1, 8)),
        ("Ranged 1-4", ("1-4", 1, 4)),
        ("Ranged (1-3 hexes)", ("1-3", 1, 3)),
        ("N/A", None),
        ("Battlefield", None),
        ("Melee AoE", None),
        ("Ranged 2-4 AoE", None),
        ("5 hexes (area)", None),
        ("3 hexes (leap)", None),
        ("Self or 1 hex", None),
        ("Melee + 3 hexes", None),
        ("0 hexes", None),
        ("Ranged 5-2", None),
        (None, None),
    ],
)
def test_database_ranges_map_to_r_rng_2(
    text: object, expected: tuple[str, int, int] | None
) -> None:
    got = database_range(text)
    assert (None if got is None else (got.text, got.low, got.high)) == expected


def test_iter_database_reads_list_sections_and_reports_the_rest() -> None:
    doc = {
        "_meta": {"version": "x"},
        "universal": [entry(), entry(id="b")],
        "tactics": {"church": [entry()]},
        "notes": "text",
        "empty": [],
    }
    assert [(s, i) for s, i, _ in iter_database(doc)] == [("universal", 0), ("universal", 1)]
    assert [s for s, _ in skipped_sections(doc)] == ["_meta", "tactics", "notes"]
    with pytest.raises(InvalidInput):
        list(iter_database([]))
    with pytest.raises(InvalidInput):
        skipped_sections("x")


# --- the real database (skipped when absent) ---------------------------------------------------


@pytest.fixture(scope="module")
def database() -> dict[str, Any]:
    if not DATABASE.is_file():
        pytest.skip(f"card database not present at {DATABASE}")
    doc: dict[str, Any] = json.loads(DATABASE.read_text(encoding="utf-8"))
    return doc


def test_every_database_entry_is_a_card_or_has_a_reason(database: dict[str, Any]) -> None:
    for section, index, raw in iter_database(database):
        d = derive_from_database(raw, section)
        where = f"{section}[{index}]"
        assert (d.card is None) != (d.reason is None), where
        if d.reason is not None:
            assert d.reason.strip() and "\n" not in d.reason, where
        else:
            assert d.card is not None
            assert card_from_dict(d.card.as_dict()) == d.card, where


def test_database_per_section_loaded_plus_reported_is_entries(database: dict[str, Any]) -> None:
    entries: Counter[str] = Counter()
    loaded: Counter[str] = Counter()
    reported: Counter[str] = Counter()
    automated: Counter[str] = Counter()
    for section, _, raw in iter_database(database):
        d = derive_from_database(raw, section)
        entries[section] += 1
        loaded[section] += d.loaded
        reported[section] += not d.loaded
        automated[section] += d.automated
    for section, values in database.items():
        if isinstance(values, list) and section != "special_cards":
            assert entries[section] == len(values), section
            assert loaded[section] + reported[section] == len(values), section
    # special_cards are the engine's own piles (R-ADD-53): skipped whole.
    listed = {
        s
        for s, v in database.items()
        if isinstance(v, list) and s not in ("_meta", "special_cards")
    }
    assert set(entries) == {s for s in listed if database[s]}
    assert {s for s, _ in skipped_sections(database)} == set(database) - listed
    for section in entries:
        print(
            f"{section}: entries {entries[section]}, loaded {loaded[section]}, "
            f"reported {reported[section]}, automated {automated[section]}"
        )
    print(
        f"card database: entries {entries.total()}, loaded {loaded.total()}, "
        f"reported {reported.total()}, automated {automated.total()}"
    )
    assert loaded.total() > 0


def test_automated_database_cards_are_plain_attacks_or_catalogued(
    database: dict[str, Any],
) -> None:
    """R-ADD-57: beyond a plain attack, only the reviewed catalogue automates a card."""
    entries = catalogue()
    for section, index, raw in iter_database(database):
        d = derive_from_database(raw, section)
        if d.automated:
            assert d.card is not None
            entry = entries.get((section, d.card.id))
            if entry is not None and entry.automated:
                assert d.card.effects == entry.effects, f"{section}[{index}]"
                continue
            kinds = [type(e).kind for e in d.card.effects]
            assert kinds in (["attack"], ["attack", "heat"]), f"{section}[{index}]"


# --- deck construction, R-TRN-1 ----------------------------------------------------------------


def fifteen_cards() -> list[CardDef]:
    return [
        card(id=f"card-{i}", name=f"Card {i}", text="Plain.", kind=CARD_KINDS[i % 4])
        for i in range(15)
    ]


def test_thirty_card_deck_is_legal_r_trn_1() -> None:
    assert validate_deck([(c, 2) for c in fifteen_cards()], Ruleset()) == []


@pytest.mark.parametrize("last_count", [1, 3])
def test_deck_of_29_or_31_cards_is_refused_r_trn_1(last_count: int) -> None:
    cards = fifteen_cards()
    rows = [(c, 2) for c in cards[:-1]] + [(cards[-1], last_count)]
    problems = validate_deck(rows, Ruleset())
    assert [(p.code, p.rule, p.index) for p in problems] == [("deck_size", "R-TRN-1", None)]
    assert str(27 + last_count + 1) in problems[0].message and "30" in problems[0].message


@pytest.mark.parametrize("count", [0, -2, True, 1.0])
def test_each_count_is_at_least_one_r_trn_1(count: Any) -> None:
    cards = fifteen_cards()
    rows = [(c, 2) for c in cards] + [(card(id="extra", name="Extra"), count)]
    problems = validate_deck(rows, Ruleset())
    assert [(p.code, p.rule, p.index) for p in problems] == [("bad_count", "R-TRN-1", 15)]


def test_damage_cards_are_not_built_into_a_deck_r_trn_6() -> None:
    rows = [(c, 2) for c in fifteen_cards()[:-1]] + [(DAMAGE_CARD, 2)]
    problems = validate_deck(rows, Ruleset())
    assert [(p.code, p.rule, p.index) for p in problems] == [("damage_card_in_deck", "R-TRN-6", 14)]


def test_a_card_listed_twice_is_reported() -> None:
    cards = fifteen_cards()
    rows = [(c, 2) for c in cards[:-1]] + [(cards[0], 2)]
    problems = validate_deck(rows, Ruleset())
    assert [(p.code, p.index) for p in problems] == [("duplicate_card", 14)]


def test_an_empty_deck_has_the_wrong_size_and_problems_serialise() -> None:
    problems = validate_deck([], Ruleset())
    assert [p.as_dict() for p in problems] == [
        {
            "code": "deck_size",
            "message": "the deck has 0 cards; a casket deck has exactly 30",
            "rule": "R-TRN-1",
            "index": None,
        }
    ]
    assert problems[0] == DeckProblem("deck_size", problems[0].message, "R-TRN-1")


def test_deck_size_is_the_same_under_every_option_of_ruleset_2_0() -> None:
    rows = [(c, 2) for c in fifteen_cards()]
    assert validate_deck(rows, Ruleset("2.0", {"component_threshold": 8})) == []


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"heat": "+50"}, "heat.amount"),
        ({"cost": 99, "heat": "-40"}, "heat"),
        ({"effect": ""}, "manual card"),
    ],
)
def test_entries_the_card_rules_refuse_are_reported_not_raised(
    bad: dict[str, Any], field: str
) -> None:
    d = derive_from_database(entry(**bad), "equipment")
    assert d.card is None and d.reason is not None and field in d.reason


def test_a_textless_entry_with_a_rolled_heat_is_not_automated() -> None:
    d = derive_from_database(entry(type="Utility", heat="-1d3", effect=""), "universal")
    assert d.card is None and d.reason is not None and "manual card" in d.reason


# An inner effect of one class must hold certain values in one field (check_inner's musts):
# each refusal names the inner field and its own rule.
INNER_MUSTS = [
    (
        {
            "kind": "after_attack",
            "on": "hit",
            "then": [{"kind": "draw", "n": 1}, {"kind": "give_heat", "amount": 1, "to": "attacker"}],
        },
        "fx.then[1].to",
        "R-ADD-143",
    ),
    (
        {
            "kind": "after_attack",
            "on": "hit",
            "then": [{"kind": "terrain", "terrain": "smoke", "hexes": 1, "at": "self"}],
        },
        "fx.then[0].at",
        "R-ADD-162",
    ),
    (
        {
            "kind": "enhance_next_attack",
            "attacks": "ranged",
            "then": [{"kind": "area_attack", "damage": 1, "within": 1}],
        },
        "fx.then[0].around",
        "R-ADD-182",
    ),
    (
        {"kind": "ally", "within": 3, "then": [{"kind": "taint", "amount": 1, "target": "target"}]},
        "fx.then[0].target",
        "R-ADD-120",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("doc", "field", "rule"), INNER_MUSTS, ids=[f for _, f, _ in INNER_MUSTS])
def test_an_inner_effect_refused_by_its_class_must_names_its_field_and_rule(
    doc: object, field: str, rule: str
) -> None:
    with pytest.raises(InvalidInput) as err:
        effect_from_dict(doc, "fx")
    assert (err.value.field, err.value.rule) == (field, rule)
