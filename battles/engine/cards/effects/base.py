"""What every effect shares: the validation helpers and the stored form (the bounds they
check against are in `bounds`).

The stored form (`as_dict`, the JSON events and stored decks hold) is written once, here,
from each dataclass's fields: `Stored.as_dict` writes every field in declaration order and
leaves out a field that holds its default, unless the field is declared with
`metadata=WRITTEN` (written even at its default, as the form has always had it). Values are
written as JSON: a range as its text, a condition or an effect by its own `as_dict`, a
tuple as a list. `StoredEffect` puts the effect's `kind` first. Parsing a stored form back
is as generic (`effect_from_dict`, from the same fields).

>>> from battles.engine.cards import LimitEffect, MoveEffect
>>> MoveEffect(2).as_dict(), MoveEffect(2, line=True).as_dict()
({'kind': 'move', 'hexes': 2}, {'kind': 'move', 'hexes': 2, 'line': True})
>>> LimitEffect("turn").as_dict()  # `n` is WRITTEN: the form always had it
{'kind': 'limit', 'per': 'turn', 'n': 1}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple

from ...errors import InvalidInput
from ...tohit import WeaponRange
from .bounds import SLUG_RE

# A field's metadata: written in the stored form even when it holds its default.
WRITTEN: Mapping[str, bool] = MappingProxyType({"written": True})


def bounded(
    low: int, high: int, rule: str | None = None, *, written: bool = False
) -> Mapping[str, object]:
    """A field's metadata: an integer from `low` to `high`, checked as the effect is made
    (`StoredEffect.__post_init__`, with `check_int`'s words, the field named `kind.name`);
    `written` as `WRITTEN`. An effect that checks more in a `__post_init__` of its own
    checks its integers there too."""
    return MappingProxyType({"bounds": (low, high, rule), "written": written})


_BOUNDS: dict[type, tuple[tuple[str, int, int, str | None], ...]] = {}


def _bounds(cls: type) -> tuple[tuple[str, int, int, str | None], ...]:
    """(name, low, high, rule) of each `bounded` field of a stored dataclass, in order."""
    bounds = _BOUNDS.get(cls)
    if bounds is None:
        bounds = _BOUNDS[cls] = tuple(
            (f.name, *f.metadata["bounds"])
            for f in dataclasses.fields(cls)
            if "bounds" in f.metadata
        )
    return bounds


_LAYOUTS: dict[type, tuple[tuple[str, object, bool], ...]] = {}


def _layout(cls: type) -> tuple[tuple[str, object, bool], ...]:
    """(name, default, always written) of each field of a stored dataclass, in order."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        layout = _LAYOUTS[cls] = tuple(
            (
                f.name,
                f.default,
                f.default is dataclasses.MISSING or bool(f.metadata.get("written")),
            )
            for f in dataclasses.fields(cls)
        )
    return layout


# The values the stored form writes as they are: every field but ranges, conditions, effects
# and tuples of them.
_AS_IS = frozenset({int, str, bool, type(None)})


def stored(value: object) -> Any:
    """One field's value as the stored form writes it."""
    if type(value) in _AS_IS:
        return value
    if isinstance(value, Stored):
        return value.as_dict()
    if isinstance(value, WeaponRange):
        return value.text
    if isinstance(value, tuple):
        return [stored(v) for v in value]
    return value


def _write(out: dict[str, Any], value: Stored) -> dict[str, Any]:
    """`out` with the fields of `value` the stored form writes, in declaration order."""
    for name, default, always in _layout(type(value)):
        field = getattr(value, name)
        if always or field != default:
            out[name] = stored(field)
    return out


class Stored:
    """A frozen dataclass whose stored form is its fields (see the module's doc)."""

    __slots__ = ()

    def as_dict(self) -> dict[str, Any]:
        return _write({}, self)


class StoredEffect(Stored):
    """An effect: its stored form starts with its `kind`, the name `effect_from_dict` reads."""

    __slots__ = ()
    kind: ClassVar[str]

    def __post_init__(self) -> None:
        for name, low, high, rule in _bounds(type(self)):
            check_int(getattr(self, name), f"{self.kind}.{name}", low, high, rule)

    def as_dict(self) -> dict[str, Any]:
        return _write({"kind": self.kind}, self)


@contextmanager
def rebased(path: str, own: str) -> Iterator[None]:
    """Re-raise an InvalidInput raised under the prefix `own` under `path` instead.

    Values validate themselves on construction with a generic prefix ("card", "move");
    a parser that knows where the value sits in a document rebases the field path.
    """
    try:
        yield
    except InvalidInput as err:
        field = err.field
        if field == own or field.startswith((own + ".", own + "[")):
            raise InvalidInput(path + field[len(own) :], err.message, err.rule) from None
        raise


def check_int(value: object, field: str, low: int, high: int, rule: str | None = None) -> None:
    # bool is an int subclass; JSON `true` must never pass for 1.
    if type(value) is not int or not low <= value <= high:
        raise InvalidInput(field, f"must be an integer from {low} to {high}, got {value!r}", rule)


def check_bool(value: object, field: str) -> None:
    if not isinstance(value, bool):
        raise InvalidInput(field, f"must be true or false, got {value!r}")


def check_faction(value: object, field: str) -> None:
    """`value`, None or a faction's name (R-ADD-121): a slug only, since the factions are
    carddb's, which imports the effects."""
    if value is not None and (not isinstance(value, str) or not SLUG_RE.fullmatch(value)):
        raise InvalidInput(field, f"{value!r} is not a faction name", "R-ADD-121")


def check_choice(value: object, field: str, allowed: Sequence[str]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise InvalidInput(field, f"{value!r} is not one of: {', '.join(allowed)}")


class InnerMust(NamedTuple):
    """What an inner effect of class `cls` must hold: one of `allowed` in its `field`,
    else the refusal `message` under `rule`."""

    cls: type
    field: str
    allowed: tuple[str, ...]
    message: str
    rule: str


def check_inner(
    effects: object,
    field: str,
    kinds: Sequence[str],
    rule: str = "R-ADD-65",
    *,
    musts: Sequence[InnerMust] = (),
) -> None:
    """`effects`, a non-empty tuple of effects of `kinds`; each of them of a `musts` class
    holds one of the allowed values in that class's field, the first that does not refused
    at `field[i].<its field>`.

    >>> from battles.engine.cards import TaintEffect
    >>> must = InnerMust(TaintEffect, "target", ("self",), "its own Taint", "R-ADD-120")
    >>> then = (TaintEffect(1, "self"), TaintEffect(1, "target"))
    >>> check_inner(then, "x.then", ("taint",), musts=(must,))
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: x.then[1].target: its own Taint (R-ADD-120)
    """
    if not isinstance(effects, tuple) or not effects:
        raise InvalidInput(field, "must be a non-empty tuple of effects")
    for i, e in enumerate(effects):
        if getattr(e, "kind", None) not in kinds:
            raise InvalidInput(f"{field}[{i}]", f"must be one of: {', '.join(kinds)}", rule)
    for i, e in enumerate(effects):
        for must in musts:
            if isinstance(e, must.cls) and getattr(e, must.field) not in must.allowed:
                raise InvalidInput(f"{field}[{i}].{must.field}", must.message, must.rule)
