"""Where a battle's randomness comes from: `decide` asks a `DiceSource`, never a global RNG.

Every outcome a source produces is written into an event, so replay (`evolve`)
never needs one. Four sources, by the battle's dice mode (docs/BATTLES.md):

- `SealedDice`: digital play, derived from the battle's 256-bit secret and the
  stream version a command is decided on; the battle's first event carries only
  the secret's SHA-256 (`dice_commitment`), the secret is revealed when the battle
  ends, and then every roll and shuffle can be derived again (R-ADD-45);
- `SecretsDice`: digital play, drawn from the operating system (`secrets`), for
  battles created before commitments and for trial decisions (legal actions);
- `SeededDice`: digital play from an explicit, public seed, for reproducible demo
  and test battles;
- `TableDice`: the table rolled physical dice and drew physical cards; the
  command reports the faces, and the source hands them out in order, refusing
  a wrong count or a face outside 1–6.
"""

from __future__ import annotations

import hashlib
import hmac
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


SECRET_BYTES = 32  # 256 bits (R-ADD-45)
DERIVATION = b"penance-dice/1"


def new_dice_secret() -> bytes:
    """A battle's dice secret: 256 bits from the operating system's secure source."""
    return secrets.token_bytes(SECRET_BYTES)


def dice_commitment(secret: bytes) -> str:
    """The commitment a battle's first event carries: the secret's SHA-256, in hex.

    >>> dice_commitment(bytes(32))[:16]
    '66687aadf862bd77'
    """
    return hashlib.sha256(secret).hexdigest()


class SealedDice:
    """Digital dice derived from a battle's secret and the stream version (R-ADD-45).

    Each call draws from its own stream of bytes, HMAC-SHA256 keyed by the secret over
    `penance-dice/1|<version>|<purpose>|<n>|<block>`, where `n` counts the earlier calls
    with the same purpose in this command; a face or a position is taken from 4 bytes by
    rejection sampling, so it is uniform. Whoever knows the secret derives every roll
    again from the version and the purpose alone; without it, nothing is predictable.

    >>> dice = SealedDice(bytes(32), 12)
    >>> dice.d6(3, purpose="the attack roll", rule="R-HIT-4") == SealedDice(
    ...     bytes(32), 12).d6(3, purpose="the attack roll", rule="R-HIT-4")
    True
    >>> SealedDice(b"short", 1)
    Traceback (most recent call last):
    ...
    ValueError: a dice secret is 32 bytes
    """

    def __init__(self, secret: bytes, version: int) -> None:
        if len(secret) != SECRET_BYTES:
            raise ValueError(f"a dice secret is {SECRET_BYTES} bytes")
        self._secret = secret
        self._version = version
        self._calls: dict[str, int] = {}

    def _below(self, purpose: str) -> _Below:
        n = self._calls.get(purpose, 0)
        self._calls[purpose] = n + 1
        label = b"|".join(
            (DERIVATION, str(self._version).encode(), purpose.encode("utf-8"), str(n).encode())
        )
        return _Below(self._secret, label)

    def d6(self, count: int, *, purpose: str, rule: str) -> tuple[int, ...]:
        below = self._below(purpose)
        return tuple(below(6) + 1 for _ in range(count))

    def shuffle(self, items: Sequence[T], *, purpose: str) -> tuple[T, ...]:
        below = self._below(purpose)
        order = list(items)
        # Fisher-Yates, as SecretsDice.
        for i in range(len(order) - 1, 0, -1):
            j = below(i + 1)
            order[i], order[j] = order[j], order[i]
        return tuple(order)


class _Below:
    """Uniform integers below a bound from HMAC-SHA256(secret, label|block)."""

    def __init__(self, secret: bytes, label: bytes) -> None:
        self._secret = secret
        self._label = label
        self._block = 0
        self._buffer = b""

    def _word(self) -> int:
        if len(self._buffer) < 4:
            message = self._label + b"|" + str(self._block).encode()
            self._buffer += hmac.new(self._secret, message, hashlib.sha256).digest()
            self._block += 1
        word, self._buffer = self._buffer[:4], self._buffer[4:]
        return int.from_bytes(word, "big")

    def __call__(self, bound: int) -> int:
        limit = 2**32 - (2**32 % bound)  # below it every residue is equally likely
        while True:
            word = self._word()
            if word < limit:
                return word % bound


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
