"""Where a campaign roll's faces come from: sealed digital dice or the table's own dice.

Every roll between missions is an event (`RollMade`, R-ADD-248) naming its table,
the table's ruleset version, the die, the raw faces, the total and the outcome. The
faces come from one of two sources, per command:

- `SealedRoller`: the server's dice. Like a battle's sealed dice (R-ADD-45), each
  settlement phase has its own 256-bit secret; the phase's first event carries only
  the secret's SHA-256 (`DiceSealed`) and its last one reveals it (`DiceRevealed`).
  Roll number `n` of the phase is derived from the secret by HMAC-SHA256 over
  `penance-campaign-dice/1|<scope>|<n>|<block>`, with rejection sampling, so whoever
  holds the revealed secret derives every roll again (`derive_faces`), and nobody
  can predict one before.
- `EnteredRoller`: the GM rolled physical dice and entered the faces, in the order
  the step asks for them. A face outside its die is refused, naming the die
  (`roll_outside_die`); too few faces say how many more the step needs.

>>> roller = SealedRoller(bytes(32), "phase-1", 0)
>>> first = roller.roll(6, 2, purpose="salvage")
>>> first == derive_faces(bytes(32), "phase-1", 0, 6, 2)
True
>>> EnteredRoller([7]).roll(6, 1, purpose="the salvage roll")
Traceback (most recent call last):
...
battles.engine.errors.RuleViolation: the salvage roll: a d6 shows 1 to 6, not 7 (R-ADD-248)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Protocol

from battles.engine.errors import InvalidInput, RuleViolation

SECRET_BYTES = 32
DERIVATION = b"penance-campaign-dice/1"
DIES = (3, 6, 10, 12, 20, 100)


class Roller(Protocol):
    source: str

    def roll(self, die: int, count: int, *, purpose: str) -> tuple[int, ...]:
        """`count` dice of `die` faces; `purpose` names the roll in errors."""
        ...

    @property
    def made(self) -> int:
        """How many rolls this roller has handed out (the next roll's offset)."""
        ...


def commitment(secret: bytes) -> str:
    """The SHA-256 of a phase's secret, in hex (what `DiceSealed` records).

    >>> commitment(bytes(32))[:12]
    '66687aadf862'
    """
    return hashlib.sha256(secret).hexdigest()


def derive_faces(secret: bytes, scope: str, index: int, die: int, count: int) -> tuple[int, ...]:
    """The faces of roll `index` of `scope`, derived from the secret (uniform by
    rejection sampling over 4-byte words).

    >>> derive_faces(bytes(32), "phase-1", 3, 100, 1) == derive_faces(bytes(32), "phase-1", 3, 100, 1)
    True
    >>> all(1 <= f <= 20 for f in derive_faces(bytes(32), "p", 0, 20, 50))
    True
    """
    if len(secret) != SECRET_BYTES:
        raise ValueError(f"a campaign dice secret is {SECRET_BYTES} bytes")
    label = b"|".join((DERIVATION, scope.encode("utf-8"), str(index).encode()))
    limit = (2**32 // die) * die
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        digest = hmac.new(secret, label + b"|" + str(block).encode(), hashlib.sha256).digest()
        block += 1
        for i in range(0, len(digest), 4):
            word = int.from_bytes(digest[i : i + 4], "big")
            if word < limit and len(faces) < count:
                faces.append(word % die + 1)
    return tuple(faces)


class SealedRoller:
    """The server's dice for one phase: roll `start + k` of the scope for the k-th call."""

    source = "sealed"

    def __init__(self, secret: bytes, scope: str, start: int) -> None:
        if len(secret) != SECRET_BYTES:
            raise ValueError(f"a campaign dice secret is {SECRET_BYTES} bytes")
        self._secret = secret
        self._scope = scope
        self._start = start
        self._made = 0

    @property
    def made(self) -> int:
        return self._made

    def roll(self, die: int, count: int, *, purpose: str) -> tuple[int, ...]:
        faces = derive_faces(self._secret, self._scope, self._start + self._made, die, count)
        self._made += 1
        return faces


class EnteredRoller:
    """The faces the GM read off physical dice, handed out in order."""

    source = "table"

    def __init__(self, faces: Sequence[object]) -> None:
        self._faces = list(faces)
        self._used = 0
        self._made = 0

    @property
    def made(self) -> int:
        return self._made

    @property
    def unused(self) -> int:
        return len(self._faces) - self._used

    def roll(self, die: int, count: int, *, purpose: str) -> tuple[int, ...]:
        if self._used + count > len(self._faces):
            raise InvalidInput(
                "faces",
                f"{purpose} needs {count} d{die}; {len(self._faces)} faces were entered and "
                f"the step needs more (enter them in the order the step lists its rolls)",
                "R-ADD-248",
            )
        faces = self._faces[self._used : self._used + count]
        self._used += count
        for face in faces:
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= die:
                raise RuleViolation(
                    "roll_outside_die",
                    f"{purpose}: a d{die} shows 1 to {die}, not {face}",
                    "R-ADD-248",
                )
        self._made += 1
        return tuple(f for f in faces if isinstance(f, int))
