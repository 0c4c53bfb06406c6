"""Allies: what a card does for an ally, moves it makes with allies, cover, guards and zones."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal

from ...errors import InvalidInput
from ...tohit import MAX_DAMAGE
from .attacks import EnhanceNextAttackEffect
from .base import (
    InnerMust,
    StoredEffect,
    bounded,
    check_bool,
    check_choice,
    check_faction,
    check_inner,
    check_int,
)
from .bounds import MAX_HEXES
from .condition import BLOODLINES
from .defence import DefenceEffect
from .resources import TaintEffect

if TYPE_CHECKING:
    from . import Effect

# allies vocabulary: what a card may do for an ally, the ally's own resources (R-ADD-120).
_ALLY_KINDS = (
    *("recover", "draw", "heat", "gain_tokens", "taint", "buff_next_attack", "defence"),
    "remove_damage_card",
    # "+1 damage and +1 movement until end of round" (R-ADD-344)
    *("enhance_next_attack", "grant_move"),
)


@dataclass(frozen=True, slots=True)
class AllyEffect(StoredEffect):
    """ "Ally within N hexes recovers 3 cards", "Remove 1 Taint from self or ally within 2
    hexes", "All allies within 3 hexes recover 2 cards": `then` acts on an ally, not on the
    player's casket (R-ADD-120). The ally is a casket of the own side in the battle within
    `within` hexes, named by the command's `target`; `self_allowed` lets the target be the
    player's own casket ("self or ally"); `every` acts on each such ally instead, none
    named; `faction` takes only allies whose setup names that faction (R-ADD-121). A
    `defence` it gives lasts until the start of the player's next turn ("until your next
    turn"), or with `defence_until` "end_of_round" until the round ends (R-ADD-123).

    >>> from battles.engine.cards import MoveEffect, RecoverEffect
    >>> AllyEffect(3, (RecoverEffect(3),)).as_dict()
    {'kind': 'ally', 'within': 3, 'then': [{'kind': 'recover', 'n': 3}]}
    >>> AllyEffect(3, (DefenceEffect(1),), defence_until="end_of_round").as_dict()["defence_until"]
    'end_of_round'
    >>> AllyEffect(3, (MoveEffect(1),))
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: ally.then[0]: must be one of: recover, draw, heat, gain_tokens, taint, buff_next_attack, defence, remove_damage_card, enhance_next_attack, grant_move (R-ADD-120)
    """

    kind: ClassVar[str] = "ally"
    within: int
    then: tuple[Effect, ...]
    self_allowed: bool = False
    every: bool = False
    faction: str | None = None
    defence_until: Literal["your_next_turn", "end_of_round"] = "your_next_turn"
    # "Allies behind you": only those on the player's rear sides 3-5 (R-ARC-1, R-ADD-127).
    behind: bool = False
    # "Fenmar allies gain …": among every ally, those whose setup names that bloodline
    # (R-ADD-380, R-ADD-344).
    bloodline: str | None = None

    def __post_init__(self) -> None:
        check_int(self.within, "ally.within", 1, MAX_HEXES, "R-ADD-120")
        check_bool(self.behind, "ally.behind")
        if self.behind and not self.every:
            raise InvalidInput("ally.behind", "'behind' picks among every ally", "R-ADD-127")
        check_choice(self.defence_until, "ally.defence_until", ("your_next_turn", "end_of_round"))
        if self.defence_until != "your_next_turn" and not any(
            isinstance(e, DefenceEffect) for e in self.then if isinstance(self.then, tuple)
        ):
            raise InvalidInput("ally.defence_until", "gives no defence to last", "R-ADD-123")
        own_taint = InnerMust(
            TaintEffect,
            field="target",
            allowed=("self",),
            message="an ally's Taint is its own: 'self'",
            rule="R-ADD-120",
        )
        check_inner(self.then, "ally.then", _ALLY_KINDS, "R-ADD-120", musts=(own_taint,))
        check_bool(self.self_allowed, "ally.self_allowed")
        check_bool(self.every, "ally.every")
        if self.every and self.self_allowed:
            raise InvalidInput(
                "ally.self_allowed",
                "'every' acts on the allies only, never the own casket",
                "R-ADD-120",
            )
        check_faction(self.faction, "ally.faction")
        if self.bloodline is not None:
            check_choice(self.bloodline, "ally.bloodline", BLOODLINES)
            if not self.every:
                raise InvalidInput(
                    "ally.bloodline", "'bloodline' picks among every ally", "R-ADD-344"
                )
        for i, e in enumerate(self.then):
            if isinstance(e, EnhanceNextAttackEffect) and not (e.every and e.this_round):
                raise InvalidInput(
                    f"ally.then[{i}]",
                    "an ally's enhancement is every attack's until the round ends",
                    "R-ADD-344",
                )


@dataclass(frozen=True, slots=True)
class CoverEffect(StoredEffect):
    """ "Reactive: Take ally's damage", "When an ally within 2 hexes would take damage,
    redirect that damage to yourself": a reactive card an ally of the attacked casket, within
    `within` hexes of it, plays after the hit; the damage the attacked casket's defence roll
    leaves is the card player's to take instead, less the card's own reductions (R-ADD-122).

    `self_too`: "next attack targeting you or ally within 2 hexes": the attacked casket
    may play it too, as its own reactive card (R-ADD-394).

    `keep`: "Reactive: -2 damage to you and ally": played through the same window, the card
    takes nothing over: the attacked ally keeps its damage, less the card's reduction
    (R-ADD-430).

    >>> CoverEffect(1).as_dict()
    {'kind': 'cover', 'within': 1}
    >>> CoverEffect(2, self_too=True).as_dict()
    {'kind': 'cover', 'within': 2, 'self_too': True}
    >>> CoverEffect(1, self_too=True, keep=True).as_dict()
    {'kind': 'cover', 'within': 1, 'self_too': True, 'keep': True}
    """

    kind: ClassVar[str] = "cover"
    within: int
    self_too: bool = False
    keep: bool = False

    def __post_init__(self) -> None:
        # its own checks: a `bounded` field would be skipped by this __post_init__
        check_int(self.within, "cover.within", 1, MAX_HEXES, "R-ADD-122")
        check_bool(self.self_too, "cover.self_too")
        check_bool(self.keep, "cover.keep")


@dataclass(frozen=True, slots=True)
class DeflectEffect(StoredEffect):
    """ "Reactive: Redirect 3 damage to attacker": the answered attack's damage left after
    the defence dice is `amount` lower, and what that took off, at most `amount`, is the
    attacker's to take once the attack has ended (R-ADD-125).

    >>> DeflectEffect(3).as_dict()
    {'kind': 'deflect', 'amount': 3}
    """

    kind: ClassVar[str] = "deflect"
    amount: int = field(metadata=bounded(1, MAX_DAMAGE, "R-ADD-125"))


@dataclass(frozen=True, slots=True)
class AllyMoveEffect(StoredEffect):
    """ "Choose 1 allied … Casket within range. They immediately move up to 2 hexes toward
    you", "Allied Emergent units within 3 hexes may also move 1 hex": allies within
    `within` hexes (of `faction` when given, R-ADD-121) may each move up to `hexes` hexes,
    every step legal as R-TRN-5 and R-LOS-5 say, and with `toward` each step nearer the
    player's casket. The command's `ally_paths` gives each path; the ally is the one its
    `target` names, or with `every` any ally in reach (R-ADD-126).

    >>> AllyMoveEffect(2, 6, toward=True).as_dict()
    {'kind': 'ally_move', 'hexes': 2, 'within': 6, 'toward': True}
    """

    kind: ClassVar[str] = "ally_move"
    hexes: int
    within: int
    every: bool = False
    faction: str | None = None
    toward: bool = False
    # "Draw 1 card for each ally that moves": the player's draw per ally moved (R-ADD-126).
    draw_per_ally: int = 0
    # "Move 1 hex toward target": each step nearer the card's attack target (R-ADD-126).
    toward_target: bool = False

    def __post_init__(self) -> None:
        check_int(self.hexes, "ally_move.hexes", 1, MAX_HEXES, "R-ADD-126")
        check_int(self.draw_per_ally, "ally_move.draw_per_ally", 0, 3, "R-ADD-126")
        check_bool(self.toward_target, "ally_move.toward_target")
        if self.toward_target and (self.toward or not self.every):
            # The attack's `target` is the enemy: no ally can be named by it as well.
            raise InvalidInput(
                "ally_move.toward_target",
                "moves every ally in reach toward the attack's target, not toward you",
                "R-ADD-126",
            )
        check_int(self.within, "ally_move.within", 1, MAX_HEXES, "R-ADD-126")
        check_bool(self.every, "ally_move.every")
        check_bool(self.toward, "ally_move.toward")
        check_faction(self.faction, "ally_move.faction")


@dataclass(frozen=True, slots=True)
class GuardEffect(StoredEffect):
    """ "Negate all damage from next attack targeting you or ally within 2 hexes": played,
    the card stays in play until the next attack declared on the player's casket or on an
    ally within `within` hexes of it; that attack deals no damage and the card is then
    discarded (R-ADD-128).

    >>> GuardEffect(2).as_dict()
    {'kind': 'guard', 'within': 2}
    """

    kind: ClassVar[str] = "guard"
    within: int = field(metadata=bounded(1, MAX_HEXES, "R-ADD-128"))


@dataclass(frozen=True, slots=True)
class ZoneEffect(StoredEffect):
    """ "Create a 3-hex radius healing zone centered on you until end of round. Allied
    Caskets in this zone recover 2 cards from discard pile at start of their turn": played,
    the card stays in play until the round ends, its zone fixed on the player's hex; each
    ally that starts its turn within `radius` hexes of it gets `then` (R-ADD-129).

    >>> from battles.engine.cards import RecoverEffect
    >>> ZoneEffect(3, (RecoverEffect(2),)).as_dict()
    {'kind': 'zone', 'radius': 3, 'then': [{'kind': 'recover', 'n': 2}]}
    """

    kind: ClassVar[str] = "zone"
    radius: int
    then: tuple[Effect, ...]

    def __post_init__(self) -> None:
        check_int(self.radius, "zone.radius", 1, MAX_HEXES, "R-ADD-129")
        check_inner(self.then, "zone.then", ("recover", "draw", "heat", "gain_tokens"), "R-ADD-129")


@dataclass(frozen=True, slots=True)
class SummonEffect(StoredEffect):
    """ "Summon 1 Mercenary unit (8 HP, 3 damage …)", "Summon a Skeletal Minion within 3
    hexes (3 HP, 3 Movement, 2 melee damage)": a unit of the player's named `name` with
    its printed stats appears on a free hex within `within` hexes of the player's casket
    (R-ADD-400): the one the command's `path` names, else the nearest; `movement` where
    the card prints none is R-ADD-405's. `limit`: at most that many units of this name of
    the player's on the board at once ("up to 2 Mercenaries active simultaneously"). In an
    `after_attack` ("If this kills the target, immediately summon 1 Mercenary") it takes
    the nearest free hex, and makes none when no hex is free or the limit is reached
    (R-ADD-406).

    >>> SummonEffect("Mercenary", 8, 3, 3, within=3, limit=2).as_dict()
    {'kind': 'summon', 'name': 'Mercenary', 'hp': 8, 'movement': 3, 'damage': 3, 'within': 3, 'limit': 2}
    >>> SummonEffect("Treant", 0, 3, 3)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: summon.hp: must be an integer from 1 to 99, got 0 (R-ADD-400)
    """

    kind: ClassVar[str] = "summon"
    name: str
    hp: int
    movement: int
    damage: int
    defence: int = 0
    within: int = 1
    limit: int = 0

    def __post_init__(self) -> None:
        _check_unit(
            self,
            "name",
            "R-ADD-400",
            hp=(1, 99),
            movement=(0, MAX_HEXES),
            damage=(0, MAX_DAMAGE),
            defence=(0, 10),
            within=(1, MAX_HEXES),
            limit=(0, 9),
        )


def _check_unit(effect: StoredEffect, unit: str, rule: str, **bounds: tuple[int, int]) -> None:
    """An effect on summoned units (R-ADD-400): its field `unit`, a unit's printed name, then
    each of its integers named in `bounds`, from low to high, all under `rule`."""
    name = getattr(effect, unit)
    if (
        not isinstance(name, str)
        or not 1 <= len(name) <= 40
        or not name.replace(" ", "").replace("-", "").isalpha()
    ):
        raise InvalidInput(f"{effect.kind}.{unit}", "must be a unit's printed name", "R-ADD-400")
    for field_name, (low, high) in bounds.items():
        check_int(getattr(effect, field_name), f"{effect.kind}.{field_name}", low, high, rule)


@dataclass(frozen=True, slots=True)
class UnitOrderEffect(StoredEffect):
    """ "Target friendly Mercenary immediately moves up to 3 hexes and makes a 3-damage
    attack": the player's unit named `unit` within `within` hexes, named by the command's
    `unit`, moves along the command's `path` (up to `move` hexes) and attacks the
    command's `target` for `damage`, neither spending its own move or attack (R-ADD-409).

    >>> UnitOrderEffect("Mercenary", 4, 3, 3).as_dict()
    {'kind': 'unit_order', 'unit': 'Mercenary', 'within': 4, 'move': 3, 'damage': 3}
    """

    kind: ClassVar[str] = "unit_order"
    unit: str
    within: int
    move: int
    damage: int

    def __post_init__(self) -> None:
        _check_unit(
            self,
            "unit",
            "R-ADD-409",
            within=(1, MAX_HEXES),
            move=(0, MAX_HEXES),
            damage=(1, MAX_DAMAGE),
        )


@dataclass(frozen=True, slots=True)
class UnitBoostEffect(StoredEffect):
    """ "All friendly Mercenary units within range gain +2 damage and +2 Defense until end
    of round": each of the player's units named `unit` within `within` hexes, until the end
    of this round (`rounds` 1) or of the next (`rounds` 2, "extend duration to 2 rounds")
    (R-ADD-408).

    >>> UnitBoostEffect("Mercenary", 4, 2, 2).as_dict()
    {'kind': 'unit_boost', 'unit': 'Mercenary', 'within': 4, 'damage': 2, 'defence': 2}
    >>> UnitBoostEffect("Mercenary", 4, 2, 2, rounds=3)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: unit_boost.rounds: must be an integer from 1 to 2, got 3 (R-ADD-408)
    """

    kind: ClassVar[str] = "unit_boost"
    unit: str
    within: int
    damage: int
    defence: int
    rounds: int = 1

    def __post_init__(self) -> None:
        _check_unit(
            self,
            "unit",
            "R-ADD-408",
            within=(1, MAX_HEXES),
            damage=(0, MAX_DAMAGE),
            defence=(0, 10),
            rounds=(1, 2),
        )
