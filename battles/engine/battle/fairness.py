"""Whether a battle's sealed dice were fair: every roll and shuffle derived again (R-ADD-45).

A digital battle without a public seed rolls from a 256-bit secret that nobody can
read while it runs; its BattleCreated carries only the secret's SHA-256
(`setup.dice.commitment`). When the battle ends, DiceSecretRevealed records the
secret. `check_dice` then checks the secret against the commitment and decides every
recorded command again, on the state the recorded events before it lead to, with the
dice the secret and that version give (`SealedDice`): each command must give exactly
the events recorded for it. The first event that differs is reported with its version
and what differs.

Each command's body is recorded with its events (metadata `command`), so the check
needs nothing but the stream. Commands are decided again under the battle's pinned
ruleset (its BattleCreated's `setup.rules`) by the engine of today, which is the one
that recorded them only when the BattleCreated's `engine_version` is today's: a battle
recorded by another engine version, or under a ruleset this engine does not know, is
reported `cannot_check`, saying why, rather than `broken` (R-ADD-205). Its secret is
still checked against its commitment.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidInput, RuleViolation
from ..ruleset import DEFAULT_VERSION, ENGINE_VERSION, RULESETS
from . import events as ev
from .commands import Revert, parse_command
from .decide import deal, decide
from .evolve import evolve
from .randomness import SECRET_BYTES, SealedDice, dice_commitment
from .state import BattleState

# What a check found: the dice were derived again and match (`verified`), they are
# still sealed (`sealed`: the battle runs, or never ended), one event differs
# (`broken`), or there is nothing to check: a public seed, a table's physical dice, or
# system dice of a battle created before commitments (`unsealed`), or the commands cannot
# be decided again here (`cannot_check`: another engine version, an unknown ruleset).
DICE_STATUSES = (
    "verified",
    "sealed",
    "broken",
    "public_seed",
    "table",
    "unsealed",
    "cannot_check",
)


@dataclass(frozen=True, slots=True)
class RecordedCommand:
    """One append of a battle's stream: its command id, the command's body (None for the
    creation, and for commands recorded before bodies were kept) and its events."""

    command_id: str
    body: Mapping[str, Any] | None
    events: tuple[ev.Event, ...]


@dataclass(frozen=True, slots=True)
class DiceCheck:
    status: str
    commitment: str | None = None
    commands: int = 0  # commands decided again
    first_broken_version: int | None = None
    reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.status != "broken"

    def as_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "commitment": self.commitment,
            "commands": self.commands,
            "first_broken_version": self.first_broken_version,
            "reason": self.reason,
        }


def _short(value: object) -> str:
    text = json.dumps(value, default=list, sort_keys=True)
    return text if len(text) <= 160 else text[:157] + "..."


def _difference(
    derived: Sequence[ev.Event], recorded: Sequence[ev.Event]
) -> tuple[int, str] | None:
    """The index of the first recorded event the derived ones do not match, and why."""
    for i, (d, r) in enumerate(zip(derived, recorded, strict=False)):
        if d == r:
            continue
        if type(d) is not type(r):
            return i, f"recorded {r.type}, but deciding the command again gives {d.type}"
        for f in dataclasses.fields(d):
            mine, theirs = getattr(d, f.name), getattr(r, f.name)
            if mine != theirs:
                return i, (
                    f"{r.type}.{f.name} is recorded as {_short(theirs)}, but the dice give "
                    f"{_short(mine)}"
                )
        return i, f"{r.type} differs from the event deciding the command again gives"
    if len(derived) != len(recorded):
        i = min(len(derived), len(recorded))
        return i, (
            f"the command recorded {len(recorded)} event(s); deciding it again with the "
            f"revealed dice gives {len(derived)}"
        )
    return None


def _broken(commitment: str, commands: int, version: int, reason: str) -> DiceCheck:
    return DiceCheck("broken", commitment, commands, version, reason)


def replay_obstacle(engine_version: object, setup: Mapping[str, Any]) -> str | None:
    """Why this engine cannot decide a battle's commands again, or None when it can: the
    battle was recorded by another engine version, or under a ruleset it does not know
    (R-ADD-205).

    >>> replay_obstacle(ENGINE_VERSION, {"rules": {"version": "2.1"}}) is None
    True
    >>> print(replay_obstacle("0.9.0", {"rules": {"version": "2.1"}}))
    the battle was recorded by engine 0.9.0 and this site runs engine 1.0.0, which may not decide its commands the same way
    >>> print(replay_obstacle(ENGINE_VERSION, {"rules": {"version": "9.9"}}))
    the battle's ruleset '9.9' is not one this engine knows (2.0, 2.1)
    """
    if engine_version != ENGINE_VERSION:
        return (
            f"the battle was recorded by engine {engine_version} and this site runs engine "
            f"{ENGINE_VERSION}, which may not decide its commands the same way"
        )
    rules = setup.get("rules")
    version = (
        rules.get("version", DEFAULT_VERSION) if isinstance(rules, Mapping) else DEFAULT_VERSION
    )
    if version not in RULESETS:
        known = ", ".join(RULESETS)
        return f"the battle's ruleset {version!r} is not one this engine knows ({known})"
    return None


def check_dice(commands: Sequence[RecordedCommand]) -> DiceCheck:
    """Check a battle's dice from its appends, in stream order (the creation first).

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.decide import create
    >>> check_dice([RecordedCommand("c", None, tuple(create("b", demo_setup(seed=3))))]).status
    'public_seed'
    """
    if not commands or not commands[0].events:
        return DiceCheck("broken", None, 0, 1, "the stream has no BattleCreated")
    created = commands[0].events[0]
    if not isinstance(created, ev.BattleCreated):
        return DiceCheck("broken", None, 0, 1, "a battle starts with its BattleCreated")
    dice = created.setup.get("dice", {})
    if dice.get("mode") == "table":
        return DiceCheck("table")
    if dice.get("seed") is not None:
        return DiceCheck("public_seed")
    commitment = dice.get("commitment")
    if not isinstance(commitment, str):
        return DiceCheck("unsealed")

    version = 0
    revealed: tuple[int, ev.DiceSecretRevealed] | None = None
    for rc in commands:
        for e in rc.events:
            version += 1
            if isinstance(e, ev.DiceSecretRevealed) and revealed is None:
                revealed = (version, e)
    if revealed is None:
        return DiceCheck("sealed", commitment)
    at, event = revealed
    try:
        secret = bytes.fromhex(event.secret)
    except (TypeError, ValueError):
        return _broken(commitment, 0, at, "the revealed secret is not hex")
    if len(secret) != SECRET_BYTES or dice_commitment(secret) != commitment:
        return _broken(
            commitment,
            0,
            at,
            "the revealed secret's SHA-256 is not the commitment recorded in BattleCreated",
        )
    obstacle = replay_obstacle(created.engine_version, created.setup)
    if obstacle is not None:
        reason = f"the dice cannot be checked here: {obstacle}"
        return DiceCheck("cannot_check", commitment, 0, None, reason)

    state: BattleState | None = None
    previous: tuple[str, BattleState | None] | None = None  # the latest command, its start
    version = 0
    for n, rc in enumerate(commands):
        recorded = [e for e in rc.events if not isinstance(e, ev.DiceSecretRevealed)]
        if n == 0:
            derived: list[ev.Event] = [created, *deal(created, SealedDice(secret, 1))]
        else:
            assert state is not None
            if rc.body is None:
                return _broken(
                    commitment, n - 1, version + 1, f"command {rc.command_id!r} has no body"
                )
            try:
                command = parse_command(rc.body)
                before = None
                if isinstance(command, Revert) and previous and previous[0] == command.command_id:
                    before = previous[1]
                derived = decide(state, command, SealedDice(secret, state.version), before=before)
            except (InvalidInput, RuleViolation) as exc:
                return _broken(
                    commitment,
                    n - 1,
                    version + 1,
                    f"command {rc.command_id!r} is refused when decided again: {exc}",
                )
        difference = _difference(derived, recorded)
        if difference is not None:
            i, reason = difference
            return _broken(commitment, n - 1 if n else 0, version + i + 1, reason)
        start = state
        for e in rc.events:
            state = evolve(state, e)
        previous = (rc.command_id, start)
        version += len(rc.events)
    return DiceCheck("verified", commitment, len(commands) - 1)
