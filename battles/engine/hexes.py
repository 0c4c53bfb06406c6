"""Flat-top axial hexes (R-BRD-1) and the six absolute directions (R-BRD-2).

A `Hex` is a small immutable, hashable value, like a square in python-chess.
It is a NamedTuple rather than a dataclass because hexes are built and hashed
millions of times in line-of-sight and reachability loops.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import NamedTuple

# R-BRD-2: 1 = N, 2 = NE, 3 = SE, 4 = S, 5 = SW, 6 = NW, as (dq, dr).
DIRECTION_VECTORS: dict[int, tuple[int, int]] = {
    1: (0, -1),
    2: (1, -1),
    3: (1, 0),
    4: (0, 1),
    5: (-1, 1),
    6: (-1, 0),
}
DIRECTION_NAMES: dict[int, str] = {1: "N", 2: "NE", 3: "SE", 4: "S", 5: "SW", 6: "NW"}
DIRECTIONS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
_VECTOR_TO_DIRECTION: dict[tuple[int, int], int] = {v: d for d, v in DIRECTION_VECTORS.items()}

_SQRT3 = math.sqrt(3.0)


class Hex(NamedTuple):
    """An axial hex coordinate `(q, r)`; the cube third is `s = -q - r` (R-BRD-1).

    >>> Hex(0, 0).distance(Hex(3, -2))
    3
    >>> Hex(0, 0).neighbour(1)
    Hex(q=0, r=-1)
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: object) -> Hex:
        if not isinstance(other, tuple):
            return NotImplemented
        return Hex(self.q + other[0], self.r + other[1])

    def __sub__(self, other: tuple[int, int]) -> Hex:
        return Hex(self.q - other[0], self.r - other[1])

    def distance(self, other: Hex) -> int:
        """Hex distance, `(|dq| + |dr| + |ds|) / 2` (R-BRD-1).

        >>> Hex(0, 0).distance(Hex(1, -5))
        5
        """
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def neighbour(self, direction: int) -> Hex:
        """The adjacent hex in absolute direction 1..6 (R-BRD-2).

        >>> Hex(2, 2).neighbour(3)
        Hex(q=3, r=2)
        """
        dq, dr = DIRECTION_VECTORS[direction]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes in direction order 1..6.

        >>> len(Hex(0, 0).neighbours())
        6
        """
        q, r = self.q, self.r
        return tuple(Hex(q + dq, r + dr) for dq, dr in DIRECTION_VECTORS.values())

    def direction_to(self, other: Hex) -> int | None:
        """The direction 1..6 of an adjacent hex, or None when `other` is not adjacent.

        >>> Hex(0, 0).direction_to(Hex(-1, 0))
        6
        """
        return _VECTOR_TO_DIRECTION.get((other.q - self.q, other.r - self.r))

    def rotate(self, steps: int, centre: Hex | None = None) -> Hex:
        """Rotate by `steps` × 60° clockwise about `centre` (default the origin).

        Clockwise means direction d becomes direction d + steps.

        >>> Hex(0, -1).rotate(1)
        Hex(q=1, r=-1)
        """
        c = centre or Hex(0, 0)
        x, z = self.q - c.q, self.r - c.r
        y = -x - z
        for _ in range(steps % 6):
            # Cube rotation 60° clockwise: (x, y, z) -> (-z, -x, -y).
            x, y, z = -z, -x, -y
        return Hex(x + c.q, z + c.r)

    def mirror(self) -> Hex:
        """Mirror across the vertical (N–S) axis through the origin (pixel x → -x).

        N and S stay; NE ↔ NW and SE ↔ SW swap.

        >>> Hex(1, -1).mirror()
        Hex(q=-1, r=0)
        """
        return Hex(-self.q, self.r + self.q)

    def to_pixel(self, size: float = 1.0) -> tuple[float, float]:
        """Centre in pixels, flat-top, y growing downward (R-BRD-2). For drawing only: no rule reads it.

        >>> Hex(2, 0).to_pixel()
        (3.0, 1.7320508075688772)
        """
        return (1.5 * size * self.q, _SQRT3 * size * (self.r + self.q / 2))

    def as_list(self) -> list[int]:
        return [self.q, self.r]


ORIGIN = Hex(0, 0)


def rotate_direction(direction: int, steps: int) -> int:
    """Direction after `steps` × 60° clockwise.

    >>> rotate_direction(6, 1)
    1
    """
    return (direction - 1 + steps) % 6 + 1


def mirror_direction(direction: int) -> int:
    """Direction after `Hex.mirror`: 1 and 4 stay, 2 ↔ 6, 3 ↔ 5.

    >>> mirror_direction(2)
    6
    """
    return (1 - direction) % 6 + 1


def ring(centre: Hex, radius: int) -> Iterator[Hex]:
    """The hexes at exactly `radius` from `centre`: 6·radius of them, 1 for radius 0 (R-BRD-1).

    >>> sum(1 for _ in ring(Hex(0, 0), 3))
    18
    """
    if radius == 0:
        yield centre
        return
    dq, dr = DIRECTION_VECTORS[5]
    h = Hex(centre.q + dq * radius, centre.r + dr * radius)
    # Walking N, NE, SE, S, SW, NW from the SW corner traces the ring clockwise.
    for direction in DIRECTIONS:
        for _ in range(radius):
            yield h
            h = h.neighbour(direction)


def spiral(centre: Hex, radius: int) -> Iterator[Hex]:
    """`centre`, then each ring out to `radius`.

    >>> sum(1 for _ in spiral(Hex(0, 0), 2))
    19
    """
    for k in range(radius + 1):
        yield from ring(centre, k)
