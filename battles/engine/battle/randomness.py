"""Where a battle's randomness comes from: `decide` asks a `DiceSource`, never a global RNG.

Every outcome a source produces is written into an event, so replay (`evolve`)
never needs one. Three sources, by the battle's dice mode (docs/BATTLES.md):

- `SecretsDice`: digital play, drawn from the operating system (`secrets`);
- `SeededDice`: digital play from an explicit seed, for reproducible demo and
  test battles;
- `TableDice`: the table rolled physical dice and drew physical cards; the
  command reports the faces, and the source hands them out in order, refusing
  a wrong count or a face outside 1–6.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Protocol, TypeVar

from ..errors import RuleViolation

T = TypeVar("T")


class DiceSource(Protocol):
    def d6(self, count: int, *, purpose: str, rule: str) -> tuple[int, ...]:
        """`count` six-sided dice, faces 1..6; `purpose` and `rule` name the roll in errors."""
        ...

    def shuffle(self, items: Sequence[T], *, purpose: str) -> tuple[T, ...]:
        """A new order of `items`."""
        ...


class SecretsDice:
    """Digital dice from the operating system's secure source.

    >>> all(1 <= f <= 6 for f in SecretsDice().d6(10, purpose="test", rule="R-HIT-4"))
    True
    """

    def d6(self, count: int, *, purpose: str, rule: str) -> tuple[int, ...]:
        return tuple(secrets.randbelow(6) + 1 for _ in range(count))

    def shuffle(self, items: Sequence[T], *, purpose: str) -> tuple[T, ...]:
        order = list(items)
        # Fisher-Yates with the secure source.
        for i in range(len(order) - 1, 0, -1):
            j = secrets.randbelow(i + 1)
            order[i], order[j] = order[j], order[i]
        return tuple(order)


class SeededDice:
    """Digital dice from a seed: the same seed and the same calls give the same battle.

    >>> SeededDice(7).d6(3, purpose="x", rule="R-TRN-2") == SeededDice(7).d6(3, purpose="x", rule="R-TRN-2")
    True
    """

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def d6(self, count: int, *, purpose: str, rule: str) -> tuple[int, ...]:
        return tuple(self._random.randint(1, 6) for _ in range(count))

    def shuffle(self, items: Sequence[T], *, purpose: str) -> tuple[T, ...]:
        order = list(items)
        self._random.shuffle(order)
        return tuple(order)


class TableDice:
    """Faces a table rolled by hand, handed out in the order the command lists them.

    >>> dice = TableDice([4, 6])
    >>> dice.d6(2, purpose="attack roll", rule="R-HIT-4")
    (4, 6)
    >>> dice.d6(1, purpose="defence roll", rule="R-DMG-2")
    Traceback (most recent call last):
    ...
    battles.engine.errors.RuleViolation: defence roll needs 1 more die face(s); the command reported 2 in all (R-DMG-2)
    """

    def __init__(self, faces: Sequence[int], orders: Sequence[Sequence[str]] = ()) -> None:
        for face in faces:
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
                raise RuleViolation("invalid_die_face", f"die face {face!r} is not 1..6", "R-HIT-4")
        self._faces = list(faces)
        self._orders = [tuple(o) for o in orders]
        self._used = 0
        self._orders_used = 0

    def d6(self, count: int, *, purpose: str, rule: str) -> tuple[int, ...]:
        if self._used + count > len(self._faces):
            raise RuleViolation(
                "wrong_dice_count",
                f"{purpose} needs {count - (len(self._faces) - self._used)} more die face(s); "
                f"the command reported {len(self._faces)} in all",
                rule,
            )
        faces = tuple(self._faces[self._used : self._used + count])
        self._used += count
        return faces

    def shuffle(self, items: Sequence[T], *, purpose: str) -> tuple[T, ...]:
        # A physical shuffle has no order the server can know; the table reports
        # the cards it draws instead (checked by decide against the deck).
        if self._orders_used < len(self._orders):
            order = self._orders[self._orders_used]
            self._orders_used += 1
            if sorted(map(str, items)) != sorted(order):
                raise RuleViolation(
                    "card_not_in_deck",
                    f"the reported order for {purpose} is not the cards being shuffled",
                    "R-TRN-6",
                )
            by_name = {str(i): i for i in items}
            return tuple(by_name[name] for name in order)
        return tuple(items)

    def unused(self) -> int:
        """Faces reported but not used: a table command must use every face it reports."""
        return len(self._faces) - self._used
