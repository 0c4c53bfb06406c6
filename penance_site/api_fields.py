"""Serializer building blocks shared by the battles APIs: strict objects and hex fields."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from battles.engine.hexes import Hex

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


def _wrong_type(field: serializers.Field[Any, Any, Any, Any], value: Any) -> str | None:
    """DRF turns 5 into "5" for a CharField and 0 into False for a BooleanField; a client
    that sends the wrong type has a bug it should hear about, not a silent conversion."""
    if value is None:
        return None
    if isinstance(field, serializers.CharField) and not isinstance(value, str):
        return "must be a string"
    if isinstance(field, serializers.BooleanField) and not isinstance(value, bool):
        return "must be true or false"
    if isinstance(field, serializers.ListField) and isinstance(value, list):
        for item in value:
            problem = _wrong_type(field.child, item)
            if problem:
                return f"every item {problem}"
    return None


class TypedInput(serializers.Serializer[Any]):
    """Input whose strings are strings and booleans booleans (see `_wrong_type`)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            wrong = {
                name: [problem]
                for name, field in self.fields.items()
                if name in data and (problem := _wrong_type(field, data[name]))
            }
            if wrong:
                raise serializers.ValidationError(wrong)
        return super().to_internal_value(data)


class StrictSerializer(TypedInput):
    """Rejects fields it does not know (FORMATS.md: unknown fields are a 400, not ignored),
    and values of the wrong type."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {
                        name: [f"unknown field; allowed: {', '.join(self.fields)}"]
                        for name in unknown
                    }
                )
        return super().to_internal_value(data)


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer"},
        "minItems": 2,
        "maxItems": 2,
        "example": [0, 0],
        "description": "An axial hex [q, r] (R-BRD-1)",
    }
)
class HexField(serializers.Field[Hex, list[int], list[int], Any]):
    """An axial hex as a two-integer list `[q, r]` (R-BRD-1)."""

    default_error_messages: ClassVar[dict[str, str | StrPromise]] = {
        "invalid": "must be a hex [q, r]: a list of two whole numbers (R-BRD-1)",
        "range": "coordinates must be within ±10000",
    }

    def to_internal_value(self, data: Any) -> Hex:
        if (
            not isinstance(data, list | tuple)
            or len(data) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in data)
        ):
            self.fail("invalid")
        if not all(-10_000 <= v <= 10_000 for v in data):
            self.fail("range")
        return Hex(int(data[0]), int(data[1]))

    def to_representation(self, value: Hex) -> list[int]:
        return [value.q, value.r]


class DirectionField(serializers.IntegerField):
    """A facing or direction 1..6 (R-BRD-2)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", 6)
        kwargs.setdefault("help_text", "1 = N, 2 = NE, 3 = SE, 4 = S, 5 = SW, 6 = NW (R-BRD-2)")
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise serializers.ValidationError("must be a whole number 1..6 (R-BRD-2)")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """An integer that must arrive as a JSON number, not "3" or true."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise serializers.ValidationError("must be a whole number")
        return super().to_internal_value(data)


MAX_BOARD_HEXES = 2000  # a radius-25 hexagon; the game's boards are far smaller


@extend_schema_field(
    {
        "type": "object",
        "description": "A board document (FORMATS.md); `hexes` holds at most "
        f"{MAX_BOARD_HEXES} entries",
        "properties": {"hexes": {"type": "array", "maxItems": MAX_BOARD_HEXES}},
    }
)
class BoardField(serializers.JSONField):
    """A board document (FORMATS.md); parsed and checked by the engine, which names the entry.
    Only the size is checked here, before the engine spends time on it."""

    def to_internal_value(self, data: Any) -> Any:
        hexes = data.get("hexes") if isinstance(data, dict) else None
        if isinstance(hexes, list) and len(hexes) > MAX_BOARD_HEXES:
            raise serializers.ValidationError(
                {"hexes": [f"at most {MAX_BOARD_HEXES} hexes, got {len(hexes)}"]}
            )
        return super().to_internal_value(data)


class RulesField(serializers.JSONField):
    """A ruleset `{"version": "2.0", "options": {...}}`; optional, defaults to 2.0."""
