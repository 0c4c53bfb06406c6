"""The effect vocabulary is one list, split by family, with one stored form.

`Effect` (the union) is the list; `ALL_EFFECTS`, `EFFECT_TYPES` and `FAMILIES` are read from
it, each effect class lives in exactly one family module, and no class writes its stored
form by hand (it is derived from the fields, `cards.effects.base.Stored`).
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from typing import get_args

import pytest

from battles.engine.cards import ALL_EFFECTS, EFFECT_TYPES, FAMILIES, Effect
from battles.engine.cards.effects import (
    allies,
    attacks,
    conditions,
    defence,
    hand,
    movement,
    resources,
    terrain,
    triggers,
)
from battles.engine.cards.effects.base import StoredEffect
from battles.engine.errors import InvalidInput

MODULES = (attacks, defence, movement, terrain, allies, triggers, conditions, resources, hand)


def test_effect_types_and_all_effects_are_the_union_in_its_order() -> None:
    # Imported here, not at the top: test_cards imports every effect class by name, so a
    # class missing from `__all__` would stop this module's collection with a bare
    # ImportError before test_every_effect_class_is_exported_by_name could name it.
    from tests.engine.test_cards import EFFECT_KINDS

    assert get_args(Effect) == ALL_EFFECTS
    assert tuple(EFFECT_TYPES.values()) == ALL_EFFECTS
    assert all(kind == cls.kind for kind, cls in EFFECT_TYPES.items())
    assert (
        len(set(ALL_EFFECTS)) == len(ALL_EFFECTS) == len(EFFECT_KINDS)
    )  # test_cards pins the kinds


def test_every_effect_is_in_exactly_one_family() -> None:
    assert list(FAMILIES) == [
        *("attacks", "defence", "movement", "terrain", "allies", "triggers", "conditions"),
        *("resources", "hand"),
    ]
    placed = [cls for family in FAMILIES.values() for cls in family]
    assert sorted(placed, key=lambda c: c.kind) == sorted(ALL_EFFECTS, key=lambda c: c.kind)
    assert len(placed) == len(set(placed))
    for name, family in FAMILIES.items():
        assert all(cls.__module__ == f"battles.engine.cards.effects.{name}" for cls in family)


def test_every_effect_class_of_a_family_module_is_in_the_union() -> None:
    for module in MODULES:
        defined = {
            obj
            for obj in vars(module).values()
            if isinstance(obj, type)
            and issubclass(obj, StoredEffect)
            and obj.__module__ == module.__name__
        }
        assert defined == set(FAMILIES[module.__name__.rsplit(".", 1)[1]])


def test_every_effect_class_is_exported_by_name() -> None:
    """`from battles.engine.cards import XEffect` works only for names in `effects.__all__`
    (the package star-imports it); a class left out fails here, not at a distant import."""
    from battles.engine import cards
    from battles.engine.cards import effects

    missing = sorted(c.__name__ for c in ALL_EFFECTS if c.__name__ not in effects.__all__)
    assert not missing, f"add to cards/effects/__init__.py's __all__: {missing}"
    assert all(getattr(cards, c.__name__) is c for c in ALL_EFFECTS)


def test_no_effect_writes_its_stored_form_by_hand() -> None:
    for cls in ALL_EFFECTS:
        assert dataclasses.is_dataclass(cls) and issubclass(cls, StoredEffect)
        assert "as_dict" not in vars(cls), cls.__name__


def test_every_bounded_field_is_checked_as_its_effect_is_made() -> None:
    # `bounded` fields are checked by StoredEffect.__post_init__: an effect with a
    # __post_init__ of its own would skip them, so it checks its integers itself.
    checked = 0
    for cls in ALL_EFFECTS:
        fields = [f for f in dataclasses.fields(cls) if "bounds" in f.metadata]
        if not fields:
            continue
        assert cls.__post_init__ is StoredEffect.__post_init__, cls.__name__
        lows = {f.name: f.metadata["bounds"][0] for f in fields}
        for f in fields:
            low, high, rule = f.metadata["bounds"]
            for bad in (low - 1, high + 1, True):
                with pytest.raises(InvalidInput) as e:
                    cls(**{**lows, f.name: bad})
                assert e.value.field == f"{cls.kind}.{f.name}"
                assert e.value.message == f"must be an integer from {low} to {high}, got {bad!r}"
                assert e.value.rule == rule
            checked += 1
    assert checked >= 43  # CoverEffect checks its `within` itself, with its booleans


def test_the_cards_package_imports_no_database_reading() -> None:
    # carddata reads the database into cards; cards never imports it (no import circle).
    code = (
        "import sys, battles.engine.cards; "
        "print(sorted(m for m in sys.modules if m.startswith('battles.engine.carddata')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
