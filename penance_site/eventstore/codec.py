"""One codec for every domain: domain events to the store's rows and back.

Pure Python (no Django), so that engine tests can round-trip events without a
database. A domain registers its event types once per stream type
(`register("battle", EVENT_TYPES, UPCASTERS)`); the registry then

- encodes a domain event (a frozen dataclass whose fields are JSON values, tuples
  standing for lists) as a `NewEvent` for `append`;
- decodes a stored row (`RecordedEvent`, or type, schema version and payload) into
  the domain event, upcasting older schema versions first;
- folds stored rows through the domain's `evolve`.

An event class names its schema version in `SCHEMA_VERSION` (1 when absent). When
its fields change, the version goes up and the domain registers an upcaster from
the old version to the next in the mapping it registered (`(type, version) ->
function`); reading applies them in a chain, so a stream recorded years ago folds
through today's `evolve`.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Moved:
...     at: tuple[int, int]
...     @property
...     def type(self) -> str:
...         return "Moved"
>>> codec = EventCodec("doctest", [Moved])
>>> codec.encode(Moved((1, 2)))
NewEvent(type='Moved', payload={'at': [1, 2]}, schema_version=1)
>>> codec.decode_record("Moved", 1, {"at": [1, 2]})
Moved(at=(1, 2))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from .records import NewEvent, RecordedEvent

Payload = Mapping[str, Any]
Upcaster = Callable[[Payload], Payload]
S = TypeVar("S")


class DecodeError(ValueError):
    """A stored record that is not an event of its domain: names the field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.rule: str | None = None


def jsonable(value: Any) -> Any:
    """An event field as JSON values: tuples become lists, at any depth.

    >>> jsonable(((1, 2), {"a": (3,)}))
    [[1, 2], {'a': [3]}]
    """
    if isinstance(value, tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {k: jsonable(v) for k, v in value.items()}
    return value


def _tupler(depth: int) -> Callable[[Any], Any]:
    """Lists to tuples down to `depth` levels (a field typed tuple[tuple[...]] has depth 2)."""
    if depth == 1:
        return lambda value: tuple(value) if isinstance(value, list) else value
    inner = _tupler(depth - 1)
    return lambda value: tuple(map(inner, value)) if isinstance(value, list) else value


def _builder(cls: type) -> Callable[[Payload], Any]:
    """A constructor from a payload, generated once per event type.

    Replay reads every event, and a frozen dataclass's __init__ with a dict of keyword
    arguments costs more than the fold itself, so the fields are set directly.
    """
    depths = {
        f.name: str(f.type).count("tuple[")
        for f in dataclasses.fields(cls)
        if str(f.type).startswith("tuple[")
    }
    lines = ["def build(p):", "    new = new_(cls)"]
    namespace: dict[str, Any] = {"new_": object.__new__, "set_": object.__setattr__, "cls": cls}
    for f in dataclasses.fields(cls):
        value = f"p[{f.name!r}]"
        if f.name in depths:
            namespace[f"t{depths[f.name]}"] = _tupler(depths[f.name])
            value = f"t{depths[f.name]}({value})"
        lines.append(f"    set_(new, {f.name!r}, {value})")
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # noqa: S102 - source built from the class's own fields
    build: Callable[[Payload], Any] = namespace["build"]
    return build


class EventCodec:
    """The event types of one stream type, their schema versions and upcasters."""

    def __init__(
        self,
        stream_type: str,
        types: Iterable[type],
        upcasters: Mapping[tuple[str, int], Upcaster] | None = None,
    ) -> None:
        self.stream_type = stream_type
        self.types: dict[str, type] = {cls.__name__: cls for cls in types}
        # Held, not copied: a domain may register an upcaster after its codec exists.
        self.upcasters: Mapping[tuple[str, int], Upcaster] = (
            upcasters if upcasters is not None else {}
        )
        self._builders = {name: _builder(cls) for name, cls in self.types.items()}
        self._names = {
            name: tuple(f.name for f in dataclasses.fields(cls)) for name, cls in self.types.items()
        }
        self._fields = {name: frozenset(names) for name, names in self._names.items()}

    def schema_version(self, type_: str) -> int:
        cls = self.types.get(type_)
        if cls is None:
            raise DecodeError("type", f"unknown {self.stream_type} event type {type_!r}")
        version: int = getattr(cls, "SCHEMA_VERSION", 1)
        return version

    def to_record(self, event: Any) -> tuple[str, int, dict[str, Any]]:
        """(type, schema_version, JSON payload) as the store keeps them."""
        type_ = type(event).__name__
        if self.types.get(type_) is not type(event):
            raise TypeError(f"{type_} is not a registered {self.stream_type} event type")
        payload = {name: jsonable(getattr(event, name)) for name in self._names[type_]}
        return type_, self.schema_version(type_), payload

    def encode(self, event: Any) -> NewEvent:
        type_, schema_version, payload = self.to_record(event)
        return NewEvent(type_, payload, schema_version)

    def encode_all(self, events: Iterable[Any]) -> list[NewEvent]:
        return [self.encode(e) for e in events]

    def upcast(self, type_: str, schema_version: int, payload: Payload) -> Payload:
        """`payload` of `type_` at `schema_version`, brought to the current schema version."""
        target = self.schema_version(type_)
        if isinstance(schema_version, bool) or not isinstance(schema_version, int):
            raise DecodeError("schema_version", f"must be an integer, got {schema_version!r}")
        if not 1 <= schema_version <= target:
            raise DecodeError(
                "schema_version",
                f"{type_} has schema versions 1..{target}; got {schema_version!r}",
            )
        version = schema_version
        while version < target:
            step = self.upcasters.get((type_, version))
            if step is None:
                raise DecodeError(
                    "schema_version", f"no upcaster from {type_} v{version} to v{version + 1}"
                )
            payload = step(payload)
            version += 1
        return payload

    def decode_record(self, type_: str, schema_version: int, payload: Payload) -> Any:
        """The event a stored record holds, upcast to its current schema."""
        if self.schema_version(type_) != schema_version:
            payload = self.upcast(type_, schema_version, payload)
        if not isinstance(payload, Mapping):
            raise DecodeError("payload", f"{type_}: must be an object")
        if payload.keys() != self._fields[type_]:
            missing = sorted(self._fields[type_] - payload.keys())
            extra = sorted(payload.keys() - self._fields[type_])
            raise DecodeError(
                "payload",
                f"{type_} v{schema_version}: missing {missing or 'nothing'}, "
                f"unknown {extra or 'nothing'}",
            )
        return self._builders[type_](payload)

    def decode(self, event: RecordedEvent) -> Any:
        if event.stream.type != self.stream_type:
            raise DecodeError("stream_type", f"{event.stream} is not a {self.stream_type} stream")
        return self.decode_record(event.type, event.schema_version, event.payload)

    def fold(
        self,
        evolve: Callable[[S | None, Any], S],
        events: Iterable[RecordedEvent],
        state: S | None = None,
    ) -> S | None:
        """`state` with the stored `events` decoded and folded through `evolve`, in order."""
        decode = self.decode_record
        for e in events:
            state = evolve(state, decode(e.type, e.schema_version, e.payload))
        return state


_CODECS: dict[str, EventCodec] = {}


def register(
    stream_type: str,
    types: Iterable[type],
    upcasters: Mapping[tuple[str, int], Upcaster] | None = None,
) -> EventCodec:
    """The codec of a stream type's events; a domain registers once, on import."""
    if stream_type in _CODECS:
        raise ValueError(f"the {stream_type} stream type already has a codec")
    codec = EventCodec(stream_type, types, upcasters)
    _CODECS[stream_type] = codec
    return codec


def codec_for(stream_type: str) -> EventCodec:
    codec = _CODECS.get(stream_type)
    if codec is None:
        raise LookupError(f"no codec is registered for {stream_type} streams")
    return codec


def decode(event: RecordedEvent) -> Any:
    """A stored event of any registered stream type as its domain event."""
    return codec_for(event.stream.type).decode(event)
