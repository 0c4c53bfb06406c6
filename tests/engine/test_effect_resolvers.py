"""Effect resolution by table: every effect class has exactly one resolver, in one family."""

from __future__ import annotations

from battles.engine.battle.decide.effects import table
from battles.engine.battle.decide.effects.base import resolved_elsewhere
from battles.engine.cards import EFFECT_TYPES


def test_every_effect_class_has_one_resolver() -> None:
    assert set(table.RESOLVERS) == set(EFFECT_TYPES.values())
    assert sum(len(f.RESOLVERS) for f in table.FAMILIES) == len(EFFECT_TYPES)


def test_each_family_resolves_only_its_own_classes() -> None:
    owner: dict[type, str] = {}
    for family in table.FAMILIES:
        for cls in family.RESOLVERS:
            assert cls not in owner, f"{cls.__name__} in {owner.get(cls)} and {family.__name__}"
            owner[cls] = family.__name__
    assert len(owner) == len(EFFECT_TYPES)


def test_effects_resolved_elsewhere_are_named_in_the_table() -> None:
    # A card's passive or a reactive card's answer is read where it applies (e.g. a cover by
    # the reactive window, R-ADD-122); the rest are resolved as the card resolves.
    elsewhere = {c.__name__ for c, r in table.RESOLVERS.items() if r is resolved_elsewhere}
    assert {"CoverEffect", "TriggerEffect", "LimitEffect", "GuardEffect"} <= elsewhere
    assert {"DrawEffect", "AttackEffect", "MoveEffect", "WardEffect"}.isdisjoint(elsewhere)
