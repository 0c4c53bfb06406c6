"""Every event class says who sees which of its fields while the battle runs (R-ADD-28);
one that says nothing shows a player or watcher only its seat."""

from __future__ import annotations

import dataclasses

import pytest

from battles.engine.battle.events import EVENT_TYPES, UNDECLARED, Event, Shown
from battles.engine.battle.view import public_payload


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_every_event_class_declares_each_field_once(name: str) -> None:
    cls = EVENT_TYPES[name]
    assert "SHOWN" in vars(cls), f"{name} declares no SHOWN (R-ADD-28)"
    shown = cls.SHOWN
    assert isinstance(shown, Shown)
    named = [*shown.everyone, *shown.owners, *shown.nobody]
    assert len(named) == len(set(named)), f"{name} names a field twice"
    assert set(named) == {f.name for f in dataclasses.fields(cls)}, name
    assert set(shown.owner_seats) <= set(shown.everyone) or not shown.owners, name


def test_every_event_class_is_exported_by_name() -> None:
    """mypy (strict) refuses `ev.X` for a name not in `events.__all__`; the tests alone would
    pass without it, so this says which to add."""
    from battles.engine.battle import events

    missing = sorted(c.__name__ for c in EVENT_TYPES.values() if c.__name__ not in events.__all__)
    assert not missing, f"add to battle/events/__init__.py's __all__: {missing}"


def test_an_undeclared_event_shows_other_seats_only_its_seat() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Peeked(Event):
        seat: int
        cards: tuple[str, ...]

    assert Peeked.shown() is UNDECLARED
    payload = {"seat": 0, "cards": ["relic#1"]}
    assert UNDECLARED.redact(payload, {1}) == {"seat": 0}
    assert public_payload("Peeked", payload, {0}, full=False) == {"seat": 0}
    assert public_payload("Peeked", payload, set(), full=True) == payload


def test_a_field_left_out_of_the_declaration_is_withheld() -> None:
    shown = Shown(everyone=("seat",), owners=("cards",))
    assert shown.redact({"seat": 1, "cards": ["a#1"], "order": ["b#1"]}, {0}) == {
        "seat": 1,
        "cards": [None],
    }
