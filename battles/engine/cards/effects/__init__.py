"""The effect vocabulary: every effect a card may have, grouped by family.

Each family is one module (its name is the family's, which the battle's resolvers mirror):

- `attacks`: attacks, further attacks and areas, and what changes an attack;
- `defence`: reductions, Defense, wards and answers to an attack;
- `movement`: moves, rotations, pushes, teleports and what a move costs;
- `terrain`: terrain and seeds made during a battle;
- `allies`: what a card does for or with allies;
- `triggers`: conditional, triggered and limited effects, and reactive windows;
- `conditions`: statuses and lasting states put on a casket;
- `resources`: Heat, Taint, tokens, SP and self-inflicted costs;
- `hand`: draws, discards, recoveries and the deck.

`base` holds what they share (validation, the stored form), `bounds` the limits values are
checked against, and `condition` the battle-state tests a conditional effect reads
(R-ADD-59). `Effect` lists every effect class once; `ALL_EFFECTS`, `EFFECT_TYPES` and
`FAMILIES` are read from it.

>>> len(ALL_EFFECTS) == len(EFFECT_TYPES) == sum(len(f) for f in FAMILIES.values())
True
>>> [c.__name__ for c in FAMILIES["terrain"]][:2]
['PlantSeedsEffect', 'DetonateSeedsEffect']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, get_args

from ...errors import InvalidInput
from ...tohit import parse_range
from . import allies, attacks, conditions, defence, hand, movement, resources, terrain, triggers
from .allies import (
    AllyEffect,
    AllyMoveEffect,
    CoverEffect,
    DeflectEffect,
    GuardEffect,
    SummonEffect,
    UnitBoostEffect,
    UnitOrderEffect,
    ZoneEffect,
)
from .attacks import (
    AdvantageEffect,
    AfterAttackEffect,
    AreaAttackEffect,
    AttackBonusEffect,
    AttackEffect,
    AttackRulesEffect,
    BonusAgainstEffect,
    BuffNextAttackEffect,
    BuffThisTurnEffect,
    ComponentTypeDamageEffect,
    DamageAuraEffect,
    DestroyOnCriticalEffect,
    EnhanceNextAttackEffect,
    FollowUpEffect,
    ForceDefenceRerollEffect,
    IgnoreCoverEffect,
    LastingBonusEffect,
    OfferMissEffect,
    RerollAttackDieEffect,
)
from .base import rebased
from .condition import condition_from_dict
from .conditions import (
    AreaHinderEffect,
    BarReactivesEffect,
    BleedEffect,
    BleedFactorEffect,
    CardCostEffect,
    ChooseFormEffect,
    ChrysalisEffect,
    DamageNextTurnEffect,
    DamageUntilDiscardsEffect,
    DrawPenaltyEffect,
    DuelEffect,
    ForbidCardsEffect,
    GritModifierEffect,
    GritRerollEffect,
    HinderEffect,
    LastingCurseEffect,
    LowerDefenceEffect,
    MarkEffect,
    NoAttacksEffect,
    OngoingDamageEffect,
    SpPenaltyEffect,
    StatusEffect,
    TemporalLoopEffect,
    TransformEffect,
    UltimatumEffect,
)
from .defence import (
    AfterDefenceEffect,
    CounterEffect,
    DefenceEffect,
    PreventComponentDamageEffect,
    ReduceIncomingEffect,
    RemoveDamageCardEffect,
    RiposteEffect,
    ThornsEffect,
    UnflankableEffect,
    UntargetableEffect,
    WardEffect,
)
from .hand import (
    ArrangeTopEffect,
    DiscardChosenEffect,
    DiscardEffect,
    DiscardForEffect,
    DiscardHandEffect,
    DrawEffect,
    LookAtHandEffect,
    RecoverDamagedEffect,
    RecoverEffect,
    RecoverNamedEffect,
    RemoveFromGameEffect,
    RestoreHpEffect,
    ShuffleInEffect,
    TargetDiscardsEffect,
)
from .movement import (
    FreePassageEffect,
    GrantMoveEffect,
    GrantRotationEffect,
    MoveCostEffect,
    MoveEffect,
    PushEffect,
    RootEffect,
    RotateEffect,
    ScatterEffect,
    TeleportEffect,
)
from .resources import (
    DamageBargainEffect,
    FlipWoundEffect,
    ForfeitTokensEffect,
    GainSpEffect,
    GainTokensEffect,
    GiveHeatEffect,
    HeatCapacityEffect,
    HeatEffect,
    RemoveHeatRolledEffect,
    RemoveTaintRolledEffect,
    RollSufferingEffect,
    SelfDamageEffect,
    SpBoostEffect,
    SpendTaintEffect,
    SpendTokensEffect,
    SpLockEffect,
    TaintAuraEffect,
    TaintCounterEffect,
    TaintEffect,
    TakeDamageEffect,
)
from .terrain import (
    DetonateSeedsEffect,
    PlantSeedsEffect,
    ScavengeWreckEffect,
    SeedAreaEffect,
    TerrainEffect,
)
from .triggers import (
    AllyDestroyedWindowEffect,
    ForTurnsEffect,
    LethalWindowEffect,
    LimitEffect,
    LowDeckWindowEffect,
    TokenCostEffect,
    TriggerEffect,
    UnlessSpentEffect,
    WhenEffect,
    WindowEffect,
)

__all__ = [
    "ALL_EFFECTS",
    "EFFECT_TYPES",
    "FAMILIES",
    "AdvantageEffect",
    "AfterAttackEffect",
    "AfterDefenceEffect",
    "AllyDestroyedWindowEffect",
    "AllyEffect",
    "AllyMoveEffect",
    "AreaAttackEffect",
    "AreaHinderEffect",
    "ArrangeTopEffect",
    "AttackBonusEffect",
    "AttackEffect",
    "AttackRulesEffect",
    "BarReactivesEffect",
    "BleedEffect",
    "BleedFactorEffect",
    "BonusAgainstEffect",
    "BuffNextAttackEffect",
    "BuffThisTurnEffect",
    "CardCostEffect",
    "ChooseFormEffect",
    "ChrysalisEffect",
    "ComponentTypeDamageEffect",
    "CounterEffect",
    "CoverEffect",
    "DamageAuraEffect",
    "DamageBargainEffect",
    "DamageNextTurnEffect",
    "DamageUntilDiscardsEffect",
    "DefenceEffect",
    "DeflectEffect",
    "DestroyOnCriticalEffect",
    "DetonateSeedsEffect",
    "DiscardChosenEffect",
    "DiscardEffect",
    "DiscardForEffect",
    "DiscardHandEffect",
    "DrawEffect",
    "DrawPenaltyEffect",
    "DuelEffect",
    "Effect",
    "EnhanceNextAttackEffect",
    "FlipWoundEffect",
    "FollowUpEffect",
    "ForTurnsEffect",
    "ForbidCardsEffect",
    "ForceDefenceRerollEffect",
    "ForfeitTokensEffect",
    "FreePassageEffect",
    "GainSpEffect",
    "GainTokensEffect",
    "GiveHeatEffect",
    "GrantMoveEffect",
    "GrantRotationEffect",
    "GritModifierEffect",
    "GritRerollEffect",
    "GuardEffect",
    "HeatCapacityEffect",
    "HeatEffect",
    "HinderEffect",
    "IgnoreCoverEffect",
    "LastingBonusEffect",
    "LastingCurseEffect",
    "LethalWindowEffect",
    "LimitEffect",
    "LookAtHandEffect",
    "LowDeckWindowEffect",
    "LowerDefenceEffect",
    "MarkEffect",
    "MoveCostEffect",
    "MoveEffect",
    "NoAttacksEffect",
    "OfferMissEffect",
    "OngoingDamageEffect",
    "PlantSeedsEffect",
    "PreventComponentDamageEffect",
    "PushEffect",
    "RecoverDamagedEffect",
    "RecoverEffect",
    "RecoverNamedEffect",
    "ReduceIncomingEffect",
    "RemoveDamageCardEffect",
    "RemoveFromGameEffect",
    "RemoveHeatRolledEffect",
    "RemoveTaintRolledEffect",
    "RerollAttackDieEffect",
    "RestoreHpEffect",
    "RiposteEffect",
    "RollSufferingEffect",
    "RootEffect",
    "RotateEffect",
    "ScatterEffect",
    "ScavengeWreckEffect",
    "SeedAreaEffect",
    "SelfDamageEffect",
    "ShuffleInEffect",
    "SpBoostEffect",
    "SpLockEffect",
    "SpPenaltyEffect",
    "SpendTaintEffect",
    "SpendTokensEffect",
    "StatusEffect",
    "SummonEffect",
    "TaintAuraEffect",
    "TaintCounterEffect",
    "TaintEffect",
    "TakeDamageEffect",
    "TargetDiscardsEffect",
    "TeleportEffect",
    "TemporalLoopEffect",
    "TerrainEffect",
    "ThornsEffect",
    "TokenCostEffect",
    "TransformEffect",
    "TriggerEffect",
    "UltimatumEffect",
    "UnflankableEffect",
    "UnitBoostEffect",
    "UnitOrderEffect",
    "UnlessSpentEffect",
    "UntargetableEffect",
    "WardEffect",
    "WhenEffect",
    "WindowEffect",
    "ZoneEffect",
    "effect_from_dict",
]

# Every effect, in the order `effect_from_dict` lists the known kinds.
Effect = (
    AttackEffect
    | MoveEffect
    | RotateEffect
    | HeatEffect
    | DrawEffect
    | DiscardEffect
    | BuffNextAttackEffect
    | ReduceIncomingEffect
    | RollSufferingEffect
    | StatusEffect
    | AttackBonusEffect
    | GainTokensEffect
    | SpendTokensEffect
    | RecoverEffect
    | DiscardHandEffect
    | DefenceEffect
    | WhenEffect
    | AfterAttackEffect
    | TaintEffect
    | HinderEffect
    | TriggerEffect
    | GrantMoveEffect
    | IgnoreCoverEffect
    | RemoveHeatRolledEffect
    | ShuffleInEffect
    | DiscardChosenEffect
    | LimitEffect
    | SpPenaltyEffect
    | DamageNextTurnEffect
    | WindowEffect
    | CounterEffect
    | PlantSeedsEffect
    | DetonateSeedsEffect
    | RemoveFromGameEffect
    | RootEffect
    | BleedEffect
    | OngoingDamageEffect
    | MoveCostEffect
    | DrawPenaltyEffect
    | LastingCurseEffect
    | TemporalLoopEffect
    | NoAttacksEffect
    | TargetDiscardsEffect
    | LowerDefenceEffect
    | FollowUpEffect
    | AreaAttackEffect
    | RemoveTaintRolledEffect
    | AreaHinderEffect
    | DamageAuraEffect
    | EnhanceNextAttackEffect
    | AttackRulesEffect
    | WardEffect
    | GainSpEffect
    | AfterDefenceEffect
    | PushEffect
    | TeleportEffect
    | ScatterEffect
    | GiveHeatEffect
    | SpendTaintEffect
    | SeedAreaEffect
    | MarkEffect
    | UnlessSpentEffect
    | DiscardForEffect
    | RecoverNamedEffect
    | UntargetableEffect
    | LookAtHandEffect
    | BonusAgainstEffect
    | ArrangeTopEffect
    | ScavengeWreckEffect
    | UltimatumEffect
    | DamageBargainEffect
    | OfferMissEffect
    | AllyEffect
    | CoverEffect
    | RemoveDamageCardEffect
    | DeflectEffect
    | AllyMoveEffect
    | GuardEffect
    | ZoneEffect
    | ThornsEffect
    | LastingBonusEffect
    | TokenCostEffect
    | SpBoostEffect
    | BuffThisTurnEffect
    | UnflankableEffect
    | HeatCapacityEffect
    | DestroyOnCriticalEffect
    | FreePassageEffect
    | TaintCounterEffect
    | SelfDamageEffect
    | TakeDamageEffect
    | RiposteEffect
    | TransformEffect
    | DuelEffect
    | BarReactivesEffect
    | ForfeitTokensEffect
    | AdvantageEffect
    | TerrainEffect
    | GrantRotationEffect
    | BleedFactorEffect
    | PreventComponentDamageEffect
    | RerollAttackDieEffect
    | ForceDefenceRerollEffect
    | AllyDestroyedWindowEffect
    | FlipWoundEffect
    | TaintAuraEffect
    | GritModifierEffect
    | GritRerollEffect
    | LowDeckWindowEffect
    | LethalWindowEffect
    | ForTurnsEffect
    | ChooseFormEffect
    | ComponentTypeDamageEffect
    | ChrysalisEffect
    | ForbidCardsEffect
    | CardCostEffect
    | SpLockEffect
    | SummonEffect
    | UnitOrderEffect
    | UnitBoostEffect
    | RecoverDamagedEffect
    | RestoreHpEffect
    | DamageUntilDiscardsEffect
)

ALL_EFFECTS: tuple[type[Effect], ...] = get_args(Effect)
EFFECT_TYPES: Mapping[str, type[Effect]] = MappingProxyType({cls.kind: cls for cls in ALL_EFFECTS})
# Each family's effects, by module: every effect is in exactly one.
FAMILIES: Mapping[str, tuple[type[Effect], ...]] = MappingProxyType(
    {
        module.__name__.rsplit(".", 1)[1]: tuple(
            cls for cls in ALL_EFFECTS if cls.__module__ == module.__name__
        )
        for module in (
            attacks,
            defence,
            movement,
            terrain,
            allies,
            triggers,
            conditions,
            resources,
            hand,
        )
    }
)


# The fields holding lists of effects, where not `then`.
EFFECT_LISTS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"choose_form": ("assault", "tank", "scout")}
)


def effect_from_dict(d: object, path: str = "effect") -> Effect:
    """Parse one effect `{"kind": ..., <its fields>}`; any bad field names its path.

    >>> effect_from_dict({"kind": "discard", "n": 2, "source": "hand"})
    DiscardEffect(n=2, source='hand')
    >>> effect_from_dict({"kind": "move", "hexes": 0}, "card.effects[1]")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: card.effects[1].hexes: must be an integer from 1 to 20, got 0 (R-TRN-5)
    >>> effect_from_dict({"kind": "blink"}, "card.effects[0]")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: card.effects[0].kind: unknown effect 'blink'; known: attack, move, rotate, heat, draw, ...
    """
    if not isinstance(d, Mapping):
        raise InvalidInput(path, "must be an object with a 'kind'")
    kind = d.get("kind")
    if not isinstance(kind, str) or kind not in EFFECT_TYPES:
        raise InvalidInput(
            f"{path}.kind", f"unknown effect {kind!r}; known: {', '.join(EFFECT_TYPES)}"
        )
    cls = EFFECT_TYPES[kind]
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    for key in d:
        if key != "kind" and key not in names:
            raise InvalidInput(
                f"{path}.{key}", f"unknown field of {kind}; allowed: kind, {', '.join(names)}"
            )
    values: dict[str, Any] = {}
    for f in fields:
        if f.name not in d:
            if f.default is dataclasses.MISSING:
                raise InvalidInput(f"{path}.{f.name}", f"required by {kind}")
            continue
        value = d[f.name]
        if f.name == "range":
            value = parse_range(value, f"{path}.range")
        elif f.name == "condition" and value is not None:
            value = condition_from_dict(value, f"{path}.condition")
        elif f.name == "cards" and isinstance(value, list):
            value = tuple(value)  # recover_named's card ids (R-ADD-153)
        elif f.name in EFFECT_LISTS.get(kind, ("then",)):
            # `then`, or a chosen form's effects (R-ADD-362)
            if not isinstance(value, list | tuple):
                raise InvalidInput(f"{path}.{f.name}", "must be a list of effects")
            value = tuple(effect_from_dict(e, f"{path}.{f.name}[{i}]") for i, e in enumerate(value))
        values[f.name] = value
    with rebased(path, kind):
        return cls(**values)
