"""Movement: moves, rotations, pushes, teleports, and what a move costs or may cross."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal

from ...errors import InvalidInput
from ...tohit import MAX_DAMAGE
from .base import StoredEffect, bounded, check_bool, check_choice, check_int
from .bounds import MAX_HEXES

if TYPE_CHECKING:
    pass


@dataclass(frozen=True, slots=True)
class MoveEffect(StoredEffect):
    """Move up to `hexes` hexes (each step legal as R-TRN-5 and R-LOS-5 say).

    >>> MoveEffect(2).as_dict()
    {'kind': 'move', 'hexes': 2}
    """

    kind: ClassVar[str] = "move"
    hexes: int
    # "in a straight line": every step in one direction (R-ADD-63).
    line: bool = False
    # movement vocabulary: "ignoring (all) terrain (and obstacles)", "(leap)": no step cost, any
    # hex of the board may be crossed, no sight needed (R-ADD-103).
    ignore_terrain: bool = False
    # "ignore terrain and enemies", a leap: enemy caskets may be crossed too (R-ADD-103).
    through_enemies: bool = False
    # "Move up to N hexes toward target": each step one hex nearer the attack's target; the
    # move of an attack card is made with the attack command's path (R-ADD-104).
    toward: bool = False

    def __post_init__(self) -> None:
        check_int(self.hexes, "move.hexes", 1, MAX_HEXES, "R-TRN-5")
        check_bool(self.line, "move.line")
        check_bool(self.ignore_terrain, "move.ignore_terrain")
        check_bool(self.through_enemies, "move.through_enemies")
        check_bool(self.toward, "move.toward")
        if self.through_enemies and not self.ignore_terrain:
            raise InvalidInput(
                "move.through_enemies",
                "only a move that ignores terrain crosses enemies",
                "R-ADD-103",
            )


@dataclass(frozen=True, slots=True)
class RotateEffect(StoredEffect):
    """Rotate up to `steps` 60° turns either way, or to any facing ("any"), at no SP (R-ARC-5).

    Three steps reach every facing; "any" says the same thing the way card texts do.

    >>> RotateEffect("any").as_dict(), RotateEffect(1).steps
    ({'kind': 'rotate', 'steps': 'any'}, 1)
    """

    kind: ClassVar[str] = "rotate"
    steps: int | Literal["any"]
    # "You may rotate": without a facing the card does not turn (R-ADD-63).
    optional: bool = False

    def __post_init__(self) -> None:
        if self.steps != "any":
            check_int(self.steps, "rotate.steps", 1, 3, "R-ARC-5")
        check_bool(self.optional, "rotate.optional")


@dataclass(frozen=True, slots=True)
class GrantMoveEffect(StoredEffect):
    """ "Move up to N hexes after the attack": the owner may make one move of up to
    `hexes` hexes at no SP later this turn (`move` with `free: true`) (R-ADD-69).

    >>> GrantMoveEffect(2).as_dict()
    {'kind': 'grant_move', 'hexes': 2}
    """

    kind: ClassVar[str] = "grant_move"
    hexes: int
    # movement vocabulary: "You may make 1 attack during this movement … After attacking, you
    # may continue moving": one move before an attack and one after it (R-ADD-109).
    split: bool = False

    def __post_init__(self) -> None:
        check_int(self.hexes, "grant_move.hexes", 1, MAX_HEXES, "R-ADD-69")
        check_bool(self.split, "grant_move.split")


@dataclass(frozen=True, slots=True)
class PushEffect(StoredEffect):
    """ "Push N hexes", "knockback target N hex", "pull enemy N hexes toward you": the
    attack's target (after a hit), or the command's `target` on a card without an attack,
    is moved up to `hexes` hexes straight away from the own casket, or toward it with
    `toward`, and stops at the first hex it cannot enter (R-ADD-100).

    >>> PushEffect(2, toward=True).as_dict()
    {'kind': 'push', 'hexes': 2, 'toward': True}
    """

    kind: ClassVar[str] = "push"
    hexes: int
    toward: bool = False
    # "If they end adjacent, deal 2 damage": damage without an attack (R-ADD-100, R-DMG-8).
    adjacent_damage: int = 0

    def __post_init__(self) -> None:
        check_int(self.hexes, "push.hexes", 1, MAX_HEXES, "R-ADD-100")
        check_bool(self.toward, "push.toward")
        check_int(self.adjacent_damage, "push.adjacent_damage", 0, MAX_DAMAGE, "R-ADD-100")


@dataclass(frozen=True, slots=True)
class TeleportEffect(StoredEffect):
    """ "Teleport up to N hexes": the own casket goes to any hex within `hexes` it could
    end a move on, whatever lies between (the command's `path` names that one hex);
    `near_terrain`: "must end in or adjacent to terrain" (R-ADD-102); `onto`: "to any Lava
    Terrain hex", only a hex of that terrain kind (R-ADD-293). `whom` "enemy": "Teleport
    target enemy to any hex within 6 hexes": the enemy the command's `target` names (any
    enemy in the battle, no range printed) goes to the hex the `path` names, within
    `hexes` of its own hex; not its move (R-ADD-390).

    >>> TeleportEffect(4, near_terrain=True).as_dict()
    {'kind': 'teleport', 'hexes': 4, 'near_terrain': True}
    >>> TeleportEffect(8, onto="lava").as_dict()
    {'kind': 'teleport', 'hexes': 8, 'onto': 'lava'}
    >>> TeleportEffect(6, whom="enemy").as_dict()
    {'kind': 'teleport', 'hexes': 6, 'whom': 'enemy'}
    """

    kind: ClassVar[str] = "teleport"
    hexes: int
    near_terrain: bool = False
    onto: str = ""
    whom: Literal["self", "enemy"] = "self"

    def __post_init__(self) -> None:
        check_int(self.hexes, "teleport.hexes", 1, MAX_HEXES, "R-ADD-102")
        check_bool(self.near_terrain, "teleport.near_terrain")
        if not isinstance(self.onto, str) or (self.onto and not self.onto.isidentifier()):
            raise InvalidInput("teleport.onto", "must be a terrain kind's name", "R-ADD-293")
        check_choice(self.whom, "teleport.whom", ("self", "enemy"))
        if self.whom == "enemy" and (self.near_terrain or self.onto):
            raise InvalidInput(
                "teleport.whom", "an enemy's teleport names no terrain to end on", "R-ADD-390"
            )


@dataclass(frozen=True, slots=True)
class ScatterEffect(StoredEffect):
    """ "Teleport target to random adjacent hex": after a hit, 1d6 names a direction
    (R-BRD-2) and the target goes to that neighbouring hex, or the first one clockwise
    from it that can take it (R-ADD-108).

    >>> ScatterEffect().as_dict()
    {'kind': 'scatter'}
    """

    kind: ClassVar[str] = "scatter"


MAX_ROOT_TURNS = 3


@dataclass(frozen=True, slots=True)
class RootEffect(StoredEffect):
    """ "Target cannot move until end of their next turn", "cannot move for 2 turns": the
    enemy is immobilised (R-ADD-17) through the whole of its next `turns` turns, whatever
    the ruleset (R-ADD-111). Used after a hit, or on a card without an attack: then the
    command's `target`, an enemy within the card's range (R-ADD-65).

    >>> RootEffect(2).as_dict()
    {'kind': 'root', 'turns': 2}
    >>> RootEffect(0)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: root.turns: must be an integer from 1 to 3, got 0 (R-ADD-111)
    """

    kind: ClassVar[str] = "root"
    turns: int = field(default=1, metadata=bounded(1, MAX_ROOT_TURNS, "R-ADD-111", written=True))


@dataclass(frozen=True, slots=True)
class MoveCostEffect(StoredEffect):
    """ "Target's movement costs +N SP next turn": during its next turn each hex the
    target moves costs `amount` SP more (R-MOV-1, R-ADD-113). Used after a hit.

    >>> MoveCostEffect(2).as_dict()
    {'kind': 'move_cost', 'amount': 2}
    """

    kind: ClassVar[str] = "move_cost"
    amount: int = field(metadata=bounded(1, 5, "R-ADD-113"))


@dataclass(frozen=True, slots=True)
class FreePassageEffect(StoredEffect):
    """ "You may move through enemy-occupied hexes … You may ignore terrain costs": once the
    card is in play, its owner's moves pass through enemies as through allies (never ending
    on one) and pay 1 SP a hex whatever its terrain, climbing and legs still counted
    (R-MOV-2, R-BRD-3, R-ADD-136).

    >>> FreePassageEffect().as_dict()
    {'kind': 'free_passage'}
    """

    kind: ClassVar[str] = "free_passage"


@dataclass(frozen=True, slots=True)
class GrantRotationEffect(StoredEffect):
    """ "Rotate once after attacking": as the attack ends, the casket's free 60° rotation of
    the turn (R-ARC-5) is available again if it was used; it lapses with the turn (R-ADD-189).
    Used in `after_attack`.

    >>> GrantRotationEffect().as_dict()
    {'kind': 'grant_rotation'}
    """

    kind: ClassVar[str] = "grant_rotation"
