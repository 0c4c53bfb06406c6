"""Attacks and what they do: declarations, dice, reactive cards, defence, damage taken,
components, wounds and defeats."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .base import Event, SourceOnSeat, public


@public
@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    """An attack with its whole to-hit answer (R-HIT-1) and the buffs it spends."""

    # 2: the combo cards added `enhanced_by` and `further` (upcast.py).
    SCHEMA_VERSION: ClassVar[int] = 2

    attacker: int
    target: int
    card: str
    component: str
    component_roll: int | None
    target_number: int
    side: int
    damage_by_grade: tuple[tuple[str, int], ...]
    defence_modifier: int
    reactive_allowed: bool
    shield_allowed: bool
    to_hit: Mapping[str, Any]
    # combo cards: the cards whose enhancements this attack spent and whose hit
    # effects wait for its outcome (R-ADD-180).
    enhanced_by: tuple[str, ...] = ()
    # combo cards: one of the card's further attacks, not its first (R-ADD-187).
    further: bool = False


@public
@dataclass(frozen=True, slots=True)
class AttackRolled(Event):
    faces: tuple[int, ...]
    total: int
    grade: str
    damage: int


@public
@dataclass(frozen=True, slots=True)
class WeaponJammed(Event):
    """CATASTROPHIC FAILURE: Primary Weapons discarded, +2 Heat, −2 damage next attack."""

    seat: int
    discarded: tuple[str, ...]
    heat: int


@public
@dataclass(frozen=True, slots=True)
class ReactivePlayed(Event):
    seat: int
    card: str
    reduction: int
    # the dodge the card declares, made as the attack ends (R-ADD-107).
    path: tuple[tuple[int, int], ...] = ()


@public
@dataclass(frozen=True, slots=True)
class ReactiveDeclined(Event):
    seat: int


@public
@dataclass(frozen=True, slots=True)
class AttackCovered(Event):
    """An ally of the attacked casket played a card that takes its damage (R-ADD-122), or,
    `keeps`, one that leaves the damage with it, lessened by `reduction` (R-ADD-430)."""

    seat: int
    target: int
    card: str
    reduction: int
    keeps: bool = False


@public
@dataclass(frozen=True, slots=True)
class DefenceLent(Event):
    """An ally's card gave `seat` +Defense until seat `until`'s next turn, or until the
    round ends when `until` is -1 (R-ADD-123)."""

    seat: int
    amount: int
    until: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class DamageCardsRemoved(Event):
    """Damage cards left `seat`'s discard pile for the removed cards (R-ADD-124)."""

    seat: int
    cards: tuple[str, ...]
    source: str


@public
@dataclass(frozen=True, slots=True)
class DamageDeflected(Event):
    """`seat`'s reactive card took `amount` off the attack for its attacker to take once the
    attack has ended (R-ADD-125)."""

    seat: int
    attacker: int
    amount: int


@public
@dataclass(frozen=True, slots=True)
class AllyMoved(Event):
    """An ally's card moved `seat` along `path` in the card player's turn (R-ADD-126)."""

    seat: int
    path: tuple[tuple[int, int], ...]
    by: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class AttackWarded(Event):
    """`seat`'s ward in play negates the damage of the attack just declared on `target`,
    and leaves play (R-ADD-128)."""

    seat: int
    card: str
    target: int


@public
@dataclass(frozen=True, slots=True)
class ZoneCreated(Event):
    """`seat`'s card made a zone centred on hex `at`, until the round ends (R-ADD-129)."""

    seat: int
    card: str
    at: tuple[int, int]


@public
@dataclass(frozen=True, slots=True)
class TerrainCreated(Event):
    """`seat`'s card made `hexes` of terrain `kind` (R-ADD-160): until the end of round
    `until_round`, or for `turns` of `seat`'s turns (the one it is made in counts), or
    (both 0) for the rest of the battle (R-ADD-161)."""

    seat: int
    card: str
    kind: str
    hexes: tuple[tuple[int, int], ...]
    until_round: int = 0
    turns: int = 0
    damage: int = 0  # to the maker's enemies entering it (R-ADD-165)
    hp: int = 0  # each hex's hit points, lost to attacks on it (R-ADD-382)


@public
@dataclass(frozen=True, slots=True)
class TerrainAttacked(Event):
    """`seat` attacked the card-made terrain at `at` with attack card `card`: it lost
    `damage` hit points, `left` remaining; at 0 the hex is destroyed and its own kind
    again (R-ADD-382)."""

    seat: int
    card: str
    at: tuple[int, int]
    kind: str
    damage: int
    left: int


@public
@dataclass(frozen=True, slots=True)
class TerrainEntered(Event):
    """`seat` entered terrain seat `maker`'s card made at `at` that hurts enemies entering it:
    `damage` follows as a prompt or DamageTaken; a mine is spent by it (R-ADD-165)."""

    seat: int
    at: tuple[int, int]
    maker: int
    card: str
    kind: str
    damage: int


@public
@dataclass(frozen=True, slots=True)
class RotationGranted(SourceOnSeat):
    """`seat`'s card gave back its free 60° rotation of this turn (R-ARC-5, R-ADD-189)."""


@public
@dataclass(frozen=True, slots=True)
class DefenceRolled(Event):
    seat: int
    faces: tuple[int, ...]
    blocks: int
    final_damage: int
    heat: int
    pierce: bool
    component_damage: int
    reduction_applied: int


@public
@dataclass(frozen=True, slots=True)
class AttackEnded(Event):
    attacker: int
    card: str
    outcome: str


@public
@dataclass(frozen=True, slots=True)
class PromptOpened(Event):
    seat: int
    kind: str
    amount: int
    component: str | None
    rule: str
    reason: str


@public
@dataclass(frozen=True, slots=True)
class PromptClosed(Event):
    seat: int
    kind: str


@public
@dataclass(frozen=True, slots=True)
class DamageTaken(Event):
    """Cards discarded for damage (R-DMG-6); `primary_weapons` of them mark the component."""

    seat: int
    from_hand: tuple[str, ...]
    from_deck: tuple[str, ...]
    primary_weapons: int
    component: str | None


@public
@dataclass(frozen=True, slots=True)
class ComponentDamaged(Event):
    seat: int
    component: str
    amount: int
    total: int
    reason: str
    rule: str


@public
@dataclass(frozen=True, slots=True)
class ComponentDestroyed(Event):
    """A component's destruction and the cards its effect discards (seed 002 table, R-DMG-7)."""

    seat: int
    component: str
    discarded: tuple[str, ...]
    rule: str


@public
@dataclass(frozen=True, slots=True)
class WoundFlipped(Event):
    seat: int
    wound: str
    reason: str
    rule: str


@public
@dataclass(frozen=True, slots=True)
class SurvivalRolled(Event):
    """Casket defeat: 1d6, on 1–3 the pilot takes 2 wounds (R-PLT-3)."""

    seat: int
    face: int
    wounds: int


@public
@dataclass(frozen=True, slots=True)
class GritChecked(Event):
    """A pilot about to flip a wound rolled 1d6 + Grit (ruleset option grit_checks,
    R-ADD-305): `grit` the campaign's Grit, `modifier` its check modifiers (faction, a
    one-check bonus, -1 per trauma wound face up), `result` the band: full-wound,
    tough-it-out (a severe wound flipped counts as minor), shrug-it-off (no wound, 1 Heat),
    iron-will (no wound)."""

    seat: int
    face: int
    grit: int
    modifier: int
    total: int
    result: str
    reason: str


@public
@dataclass(frozen=True, slots=True)
class GritRerolled(Event):
    """A Grit check in the failing band (1-3, Full Wound) rolled again by `card`'s "once
    per mission: when you would fail a Grit Check, reroll it" (R-ADD-411): the new `face`
    with the first roll's Grit and modifier make `total`, whose band `result` stands."""

    seat: int
    card: str
    face: int
    total: int
    result: str


@public
@dataclass(frozen=True, slots=True)
class GritRaised(Event):
    """`card`'s "if you still fail, gain +1 Grit permanently": the pilot's Grit rises by
    `amount` for the campaign, which takes it over once with the outcome; the battle's
    checks keep the Grit they started with (R-ADD-411)."""

    seat: int
    card: str
    amount: int


@public
@dataclass(frozen=True, slots=True)
class WoundEased(Event):
    """A severe wound flipped after a Grit check of 4-5 counts as minor this mission: the
    campaign keeps it as a minor injury, not a severe wound (R-ADD-305)."""

    seat: int
    wound: str
    rule: str


@public
@dataclass(frozen=True, slots=True)
class PilotKilled(Event):
    seat: int
    rule: str


@public
@dataclass(frozen=True, slots=True)
class CasketDefeated(Event):
    seat: int
    reason: str
    rule: str


@public
@dataclass(frozen=True, slots=True)
class RerollOffered(Event):
    """The attacker may roll one of the attack's dice again (`left` times more), chosen
    after seeing them, or keep the roll: an enhancement the attack spent (`source`) says
    so (R-ADD-282). `keep` and `target_number` are the roll's own (R-HIT-6; 1 for an
    attack that cannot miss, R-ADD-91)."""

    seat: int
    faces: tuple[int, ...]
    keep: str
    target_number: int
    left: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class DefenceRerollOffered(Event):
    """The defence roll `faces` of `target` stands until the attacker (`seat`), holding a
    card that forces blocking dice to be rolled again, answers: `blocking` are the numbers
    (from 1) of the dice that blocked (R-ADD-412)."""

    seat: int
    target: int
    faces: tuple[int, ...]
    blocking: tuple[int, ...]


@public
@dataclass(frozen=True, slots=True)
class DefenceRerolled(Event):
    """The attacker's `card` made `target` roll the defence dice numbered `dice` (from 1)
    again: the roll is now `faces`, applied as any defence roll (R-ADD-412)."""

    seat: int
    target: int
    card: str
    dice: tuple[int, ...]
    faces: tuple[int, ...]


@public
@dataclass(frozen=True, slots=True)
class AttackRerolled(Event):
    """The attacker rolled die number `die` (from 1) again: `face` replaces it, and the
    attack's roll is now `faces`, graded again (R-HIT-4, R-ADD-282)."""

    seat: int
    die: int
    face: int
    faces: tuple[int, ...]
    total: int
    grade: str
    damage: int
