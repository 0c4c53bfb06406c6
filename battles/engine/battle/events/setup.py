"""Setting a battle up: its creation, the decks' shuffles, the opening hands and mulligans."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .base import Event, Shown, public


@public
@dataclass(frozen=True, slots=True)
class BattleCreated(Event):
    """The setup document, normalised; the state's static part comes from it alone."""

    battle_id: str
    setup: Mapping[str, Any]
    engine_version: str


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    """A casket deck's new order, top first; `known` is false for a physical shuffle."""

    SHOWN: ClassVar[Shown] = Shown.secret_order("seat", "known", "reason")
    seat: int
    order: tuple[str, ...]
    known: bool
    reason: str


@dataclass(frozen=True, slots=True)
class WoundDeckShuffled(Event):
    """The pilot wound deck, top first, with carried wounds face up (R-PLT-1, R-PLT-2)."""

    SHOWN: ClassVar[Shown] = Shown.secret_order("seat", "face_up", "known")
    seat: int
    order: tuple[str, ...]
    face_up: tuple[str, ...]
    known: bool


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "reason", "rule"), owners=("cards",))
    seat: int
    cards: tuple[str, ...]
    reason: str
    rule: str


@public
@dataclass(frozen=True, slots=True)
class HandKept(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class MulliganTaken(Event):
    """The hand goes back into the deck; a DeckShuffled and a CardsDrawn follow (R-TRN-1)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat",), owners=("returned",))
    seat: int
    returned: tuple[str, ...]
