"""Terrain: terrain and seeds made during a battle, and what a wreck leaves."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal

from ...board import BATTLE_TERRAIN
from ...errors import InvalidInput
from ...tohit import MAX_DAMAGE
from .base import WRITTEN, StoredEffect, bounded, check_choice, check_inner, check_int
from .bounds import AFTER_KINDS

if TYPE_CHECKING:
    from . import Effect

MAX_SEEDS = 4  # Thorn Strike: "max 4 seeds per hex"


@dataclass(frozen=True, slots=True)
class PlantSeedsEffect(StoredEffect):
    """Plant `n` Thornvine seeds in the attack target's hex, at most 4 a hex (R-ADD-66).
    Used after a hit.

    >>> PlantSeedsEffect(2).as_dict()
    {'kind': 'plant_seeds', 'n': 2}
    """

    kind: ClassVar[str] = "plant_seeds"
    n: int = field(metadata=bounded(1, MAX_SEEDS, "R-ADD-66"))


@dataclass(frozen=True, slots=True)
class DetonateSeedsEffect(StoredEffect):
    """Every seeded hex with an enemy casket in it deals `per_seed` damage a seed, at most
    `max_per_hex`, to that casket; then every seed on the board is cleared (R-ADD-66).

    >>> DetonateSeedsEffect(2, 8).as_dict()
    {'kind': 'detonate_seeds', 'per_seed': 2, 'max_per_hex': 8}
    """

    kind: ClassVar[str] = "detonate_seeds"
    per_seed: int = field(metadata=bounded(1, 10, "R-ADD-66"))
    max_per_hex: int = field(metadata=bounded(1, MAX_DAMAGE, "R-ADD-66"))


@dataclass(frozen=True, slots=True)
class SeedAreaEffect(StoredEffect):
    """Add `n` Thornvine seeds to every board hex within `within` hexes of the own casket
    (0: its own hex only), at most 4 a hex (R-ADD-66, R-ADD-147).

    >>> SeedAreaEffect(1, 2).as_dict()
    {'kind': 'seed_area', 'n': 1, 'within': 2}
    """

    kind: ClassVar[str] = "seed_area"
    n: int = field(metadata=bounded(1, MAX_SEEDS, "R-ADD-66"))
    within: int = field(metadata=bounded(0, 6, "R-ADD-147"))


@dataclass(frozen=True, slots=True)
class ScavengeWreckEffect(StoredEffect):
    """ "Target a destroyed enemy wreck within 4 hexes. Gain 3 Soul Shards. That wreck is
    removed from play": the command's `target` is a defeated enemy casket whose wreck lies
    within the card's printed range and was not scavenged before; it is removed and `then`
    runs (R-ADD-158).

    >>> from battles.engine.cards import GainTokensEffect
    >>> ScavengeWreckEffect((GainTokensEffect("soul_shard", 3),)).as_dict()
    {'kind': 'scavenge_wreck', 'then': [{'kind': 'gain_tokens', 'pool': 'soul_shard', 'n': 3}]}
    """

    kind: ClassVar[str] = "scavenge_wreck"
    then: tuple[Effect, ...]

    def __post_init__(self) -> None:
        check_inner(self.then, "scavenge_wreck.then", AFTER_KINDS)


TERRAIN_AT = ("hex", "self", "target", "area")

TERRAIN_UNTIL = ("end_of_round", "rounds", "turns", "battle")

MAX_TERRAIN_HEXES = 5  # the largest printed: Ice Wall's "5-hex ice wall"


@dataclass(frozen=True, slots=True)
class TerrainEffect(StoredEffect):
    """ "Target hex becomes smoke terrain (blocks line of sight). Lasts until end of round":
    `hexes` hexes of `terrain` (a kind of R-ADD-160: smoke, lava, ice, difficult) made
    `at` the hexes the command's `path` names ("hex": the first within the card's range
    and in sight, each next one adjacent to one before, R-ADD-162), the own casket's hex
    ("self") or the attack target's as the attack ends ("target", in `after_attack`), or
    one area, every hex within `within` of the card's first target as its attack ends
    ("area", in `after_attack`: "deal 4 damage to all enemies within 2 hexes, create
    difficult terrain", R-ADD-274). It
    lasts until the end of the round, for `n` rounds or `n` of the player's turns (the
    current one counts), or for the rest of the battle (R-ADD-161).

    >>> TerrainEffect("smoke", hexes=3, until="rounds", n=2).as_dict()
    {'kind': 'terrain', 'terrain': 'smoke', 'hexes': 3, 'at': 'hex', 'until': 'rounds', 'n': 2}
    >>> TerrainEffect("smoke", hexes=2, at="self")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: terrain.hexes: 'self' and 'target' make one hex, got 2 (R-ADD-162)
    """

    kind: ClassVar[str] = "terrain"
    terrain: str
    hexes: int = field(default=1, metadata=WRITTEN)
    at: Literal["hex", "self", "target", "area"] = field(default="hex", metadata=WRITTEN)
    until: Literal["end_of_round", "rounds", "turns", "battle"] = field(
        default="end_of_round", metadata=WRITTEN
    )
    n: int = field(default=1, metadata=WRITTEN)
    # "Enemies entering take 2 damage", a mine's "when enemy enters, deal 6 damage" (R-ADD-165)
    damage: int = 0
    # "area": the radius around the first target's hex (R-ADD-274)
    within: int = 0
    # "5 HP, lasts until destroyed": each hex's hit points, lost to attacks on it (R-ADD-382)
    hp: int = 0

    def __post_init__(self) -> None:
        check_choice(self.terrain, "terrain.terrain", tuple(BATTLE_TERRAIN))
        check_int(self.within, "terrain.within", 0, 6, "R-ADD-274")
        if (self.at == "area") != (self.within > 0):
            raise InvalidInput(
                "terrain.within",
                "an area ('at': 'area') and only an area has a radius",
                "R-ADD-274",
            )
        check_int(self.damage, "terrain.damage", 0, MAX_DAMAGE, "R-ADD-165")
        check_int(self.hexes, "terrain.hexes", 1, MAX_TERRAIN_HEXES, "R-ADD-162")
        check_choice(self.at, "terrain.at", TERRAIN_AT)
        check_choice(self.until, "terrain.until", TERRAIN_UNTIL)
        check_int(self.n, "terrain.n", 1, 10, "R-ADD-161")
        check_int(self.hp, "terrain.hp", 0, 20, "R-ADD-382")
        if self.hp and self.until != "battle":
            raise InvalidInput(
                "terrain.until",
                "terrain with hit points lasts until destroyed: 'battle'",
                "R-ADD-382",
            )
        if self.at != "hex" and self.hexes != 1:
            raise InvalidInput(
                "terrain.hexes", f"'self' and 'target' make one hex, got {self.hexes}", "R-ADD-162"
            )
