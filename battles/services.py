"""Writes of battles (HackSoft services): create, command, import, watchers.

Every write goes through the event store (docs/BATTLES.md "Persistence"): the
engine decides, `append` records, and the Battle row's cached figures follow in
the same transaction.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction

from battles.codec import BATTLE_EVENTS, STREAM_TYPE
from battles.engine.battle import (
    BattleState,
    Command,
    Event,
    create,
    dice_commitment,
    dice_for,
    ends_battle,
    evolve,
    new_dice_secret,
    parse_command,
    parse_setup,
    replay,
    reveal,
    state_to_dict,
)
from battles.engine.battle.commands import Revert, Withdraw
from battles.engine.battle.decide import Decision, decided
from battles.engine.battle.events import BattleCreated
from battles.engine.battle.randomness import TableDice
from battles.engine.battle.setup import BOT_PLAYER
from battles.engine.errors import EngineError, InvalidInput, RuleViolation
from battles.engine.ruleset import ENGINE_VERSION
from battles.models import Battle, BattleDiceSecret, BattleSeat, BattleWatcher
from battles.selectors import (
    EXPORT_FORMAT,
    battle_command_events,
    battle_latest_command,
    battle_role,
    battle_seats_of,
    battle_state_at,
    battle_state_for_command,
    battle_state_keep,
    battle_status,
    battle_stream,
    users_by_username,
)
from penance_site.dice_keys import open_secret, seal_secret
from penance_site.eventstore.codec import DecodeError
from penance_site.eventstore.records import chained_digest
from penance_site.eventstore.store import (
    CommandIdReused,
    ConcurrencyError,
    NewEvent,
    RecordedEvent,
    StreamRef,
    append,
    canonical_json,
    snapshot_store,
    stream_version,
)

TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"  # eventstore.format_timestamp
MAX_IMPORT_EVENTS = 100_000


@dataclass(frozen=True, slots=True)
class CommandResult:
    """The events a command recorded (or, for a retry, had recorded), and the stream version."""

    events: tuple[RecordedEvent, ...]
    version: int
    duplicate: bool
    # The battle after the command, when this call recorded it (a retry reads nothing).
    state: BattleState | None = None


# --- helpers -------------------------------------------------------------------------------------


def bot_user() -> User:
    """The server bot's user (R-ADD-210), created on first use: inactive and with no usable
    password, so nobody signs in as it; seated like any player, so its commands take the
    same command path as everyone's."""
    users = get_user_model()
    user, created = users.objects.get_or_create(username=BOT_PLAYER, defaults={"is_active": False})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def _cache(battle: Battle, state: BattleState) -> None:
    """Copy the figures a listing shows from the stream's head onto the row."""
    battle.status = battle_status(state)
    battle.winner = state.winner or ""
    battle.version = state.version
    battle.save(update_fields=["status", "winner", "version"])


def _snapshot(stream: StreamRef, state: BattleState) -> None:
    """The state stored as the stream's snapshot at its version, for this engine version."""
    snapshot_store(
        stream=stream,
        version=state.version,
        engine_version=ENGINE_VERSION,
        state=state_to_dict(state),
    )


def _snapshot_if_due(stream: StreamRef, old_version: int, state: BattleState) -> None:
    """Keep a snapshot whenever a command carries the stream past a multiple of
    PENANCE_SNAPSHOT_EVERY, so loading never replays more than about that many events."""
    every: int = settings.PENANCE_SNAPSHOT_EVERY
    if state.version // every > old_version // every:
        _snapshot(stream, state)


def _metadata(actor: User, events: Sequence[Event], *, reason: str | None = None) -> dict[str, Any]:
    # One append stores one metadata for all of a command's events, so a command is an
    # adjustment when any of its events is (GM commands, docs/BATTLES.md). A GM control
    # whose events are play (a withdrawal the GM accepts for a seat) passes its reason,
    # which makes it an adjustment too (R-ADD-24).
    out: dict[str, Any] = {
        "actor": actor.get_username(),
        "adjustment": reason is not None or any(type(e).ADJUSTMENT for e in events),
    }
    if reason is not None:
        out["reason"] = reason
    return out


def _players(seats: Sequence[Mapping[str, Any]], field: str) -> list[User]:
    """The user of every seat's `player` username; an unknown one is an InvalidInput. A bot's
    seat (R-ADD-210) is the bot's user (battles.bots)."""
    found = users_by_username(usernames=[s["player"] for s in seats])
    out = []
    for i, s in enumerate(seats):
        user = bot_user() if s.get("bot") else found.get(s["player"])
        if user is None:
            raise InvalidInput(f"{field}[{i}].player", f"no user is called {s['player']!r}")
        out.append(user)
    return out


def _battle_rows(
    *,
    gm: User,
    setup: Mapping[str, Any],
    players: Sequence[User],
    battle_id: uuid.UUID | None = None,
) -> Battle:
    battle = Battle.objects.create(
        id=battle_id or uuid.uuid4(),
        name=setup["name"],
        gm=gm,
        created_by=gm,
        dice_mode=setup["dice"]["mode"],
        policy=setup["policy"],
    )
    BattleSeat.objects.bulk_create(
        BattleSeat(battle=battle, seat=i, player=p) for i, p in enumerate(players)
    )
    return battle


# --- create --------------------------------------------------------------------------------------


def _sealed(setup: object) -> tuple[object, bytes | None]:
    """The setup to record and, for sealed digital dice, the new secret (R-ADD-45).

    A digital battle without an explicit seed gets a new 256-bit secret, and its setup
    the secret's SHA-256 as `dice.commitment`; a commitment the request carries (the
    setup of an earlier battle, posted again for a rematch) is replaced. Anything else
    is left for parse_setup to judge.
    """
    if not isinstance(setup, Mapping):
        return setup, None
    dice = setup.get("dice", {})
    if not isinstance(dice, Mapping):
        return setup, None
    if dice.get("mode", "digital") != "digital" or dice.get("seed") is not None:
        return setup, None
    if dice.get("seed_public"):
        return setup, None  # parse_setup refuses public dice without a seed
    secret = new_dice_secret()
    return {**setup, "dice": {**dice, "commitment": dice_commitment(secret)}}, secret


def battle_setup_check(*, setup: Mapping[str, Any]) -> dict[str, Any]:
    """What `battle_create` checks of a setup, nothing written: the setup normalised by the
    engine (`parse_setup`; InvalidInput names the field and rule) and every seat's player an
    existing username. A form can show a setup's refusals before anything is created."""
    sealed, _ = _sealed(setup)
    normalised = parse_setup(sealed)
    _players(normalised["seats"], "seats")
    return normalised


@transaction.atomic
def battle_create(*, gm: User, setup: object, battle_id: uuid.UUID | None = None) -> Battle:
    """A new battle run by `gm` from a setup document (docs/BATTLES.md, R-TRN-1).

    Every seat's `player` must be an existing username. The creation events are the
    stream's first command, with the command id `create-<battle id>`. `battle_id` lets
    a campaign record the battle's id before creating it (campaigns.services).
    """
    setup, secret = _sealed(setup)
    normalised = parse_setup(setup)
    players = _players(normalised["seats"], "seats")
    battle = _battle_rows(gm=gm, setup=normalised, players=players, battle_id=battle_id)
    if secret is not None:
        BattleDiceSecret.objects.create(battle=battle, secret=seal_secret(secret))
    events = create(str(battle.id), setup, secret=secret)
    stream = battle_stream(battle=battle)
    append(
        stream=stream,
        expected_version=0,
        events=BATTLE_EVENTS.encode_all(events),
        command_id=f"create-{battle.id}",
        metadata=_metadata(gm, events),
    )
    state = replay(events)
    _cache(battle, state)
    _snapshot_if_due(stream, 0, state)
    return battle


# --- commands ------------------------------------------------------------------------------------


def command_fingerprint(body: Mapping[str, Any], expected_version: int) -> str:
    """What makes a retry the same command: its body and the version it was decided on.

    The store keeps it with the events, so a retried attack returns its first dice
    instead of rolling again.
    """
    text = canonical_json({"body": body, "expected_version": expected_version})
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _check_may_command(battle: Battle, actor: User, command: Command) -> None:
    """GM commands need the GM; a seat's commands (and prompt answers) need its player or the
    GM (docs/BATTLES.md "prompts")."""
    if battle.gm_id == actor.pk:
        return
    if command.GM_ONLY:
        raise PermissionDenied(f"only the battle's GM may {command.NAME} (R-ADD-24)")
    if command.seat not in battle_seats_of(battle=battle, user=actor):
        raise PermissionDenied(f"you do not play seat {command.seat}; only its player or the GM do")


def _state_before_latest(battle: Battle, command: Revert) -> BattleState | None:
    """The state before the command a revert names, if that is the battle's latest command;
    None lets the engine refuse an older one (R-ADD-24)."""
    latest = battle_latest_command(battle=battle)
    if latest is None or latest[0] != command.command_id:
        return None
    first_version = latest[1]
    if first_version == 1:
        raise RuleViolation(
            "revert_unavailable",
            "the battle's creation cannot be reverted; create a new battle instead",
            "R-ADD-24",
        )
    return battle_state_at(battle=battle, version=first_version - 1)


def _dice_secret(battle: Battle, state: BattleState) -> bytes | None:
    """The battle's dice secret while its dice are sealed (R-ADD-45); None otherwise."""
    if state.dice_commitment is None or state.dice_mode != "digital":
        return None
    row = BattleDiceSecret.objects.filter(battle=battle).first()
    if row is None:
        # Unreachable for a battle created here; an import refuses sealed dice it cannot open.
        raise RuleViolation(
            "dice_secret_missing",
            "this battle's dice are sealed by a secret this site does not hold",
            "R-ADD-45",
        )
    return open_secret(bytes(row.secret))


def battle_command_execute(
    *,
    battle: Battle,
    actor: User,
    command_id: str,
    expected_version: int,
    body: Mapping[str, Any],
    reason: str | None = None,
    require_reason: bool = False,
) -> CommandResult:
    """Decide one command on the state at `expected_version` and record its events, in one
    transaction (`_command_recorded`). Once it has committed, the state the command led to
    is kept for the next command and reads at its version (selectors.battle_state_keep).

    `reason` goes with a GM control whose command carries none: the GM accepting the
    withdrawal of a seat they do not play (R-TRN-9); the command is then an adjustment.
    With `require_reason` (the API's live play) that withdrawal needs one.

    - A command id this battle already recorded with the same body and expected
      version returns the original events (`duplicate`), whatever happened since;
      with anything else it is CommandIdReused.
    - A stream that moved past `expected_version` is a ConcurrencyError: nothing is
      appended. The store's append judges both, once, under the stream's lock; a
      refusal of the rules on a version that is no longer the head gives way to them.
    - RuleViolation (the engine's refusal) appends nothing either.
    """
    result = _command_recorded(
        battle=battle,
        actor=actor,
        command_id=command_id,
        expected_version=expected_version,
        body=body,
        reason=reason,
        require_reason=require_reason,
    )
    if result.state is not None:
        battle_state_keep(battle=battle, state=result.state)
    return result


@transaction.atomic
def _command_recorded(
    *,
    battle: Battle,
    actor: User,
    command_id: str,
    expected_version: int,
    body: Mapping[str, Any],
    reason: str | None,
    require_reason: bool,
) -> CommandResult:
    """battle_command_execute's transaction: checks, state, decision, append."""
    if battle_role(battle=battle, user=actor) not in ("gm", "player"):
        raise PermissionDenied("only the GM and the battle's players give commands")
    if not 1 <= len(command_id) <= 64:
        raise InvalidInput("command_id", "must be 1 to 64 characters")
    command = parse_command(body)
    _check_may_command(battle, actor, command)
    reason = _control_reason(battle, actor, command, reason, require_reason)
    stream = battle_stream(battle=battle)
    fingerprinted = {**body, "reason": reason} if reason is not None else body
    fingerprint = command_fingerprint(fingerprinted, expected_version)

    # One pass: the state at `expected_version` (kept, or the nearest snapshot and the
    # events after it), the engine's decision, one append. The append checks the command
    # id and the head, once, under the stream's lock; nothing is folded again.
    state = battle_state_for_command(battle=battle, version=expected_version)
    if state is None or state.version != expected_version:
        # The stream is behind `expected_version`.
        recorded = _recorded_or_stale(battle, stream, command_id, fingerprint, expected_version)
        if recorded is not None:
            return recorded
        # It reached `expected_version` between the two reads: read the state again.
        state = battle_state_for_command(battle=battle, version=expected_version)
        if state is None or state.version != expected_version:
            raise ConcurrencyError(stream, expected_version, state.version if state else 0)
    try:
        before = _state_before_latest(battle, command) if isinstance(command, Revert) else None
        secret = _dice_secret(battle, state)
        decision = _decide_with_table_check(state, command, before, secret)
    except EngineError:
        # Judged on `expected_version`. When the stream has moved on or took this command
        # id, the answer is the one the append would give, before any judgement.
        recorded = _recorded_or_stale(battle, stream, command_id, fingerprint, expected_version)
        if recorded is not None:
            return recorded
        raise
    events = list(decision.events)
    new_state = decision.state
    # A GM control's reason goes with every one of its events (the log shows it on each).
    control_reason = getattr(command, "reason", None) if command.GM_ONLY else reason
    metadata = _metadata(actor, events, reason=control_reason)
    if secret is not None:
        # The body lets `verify` decide the command again once the secret is revealed.
        metadata["command"] = dict(body)
    if secret is not None and any(ends_battle(e.type) for e in events):
        # The end reveals the secret, in the same append (R-ADD-45).
        revealed = reveal(new_state, secret)
        events = [*events, revealed]
        new_state = evolve(new_state, revealed)
    try:
        result = append(
            stream=stream,
            expected_version=expected_version,
            events=BATTLE_EVENTS.encode_all(events),
            command_id=command_id,
            metadata=metadata,
            fingerprint=fingerprint,
        )
    except CommandIdReused as exc:
        raise _reused(command_id, exc.version) from None
    if result.duplicate:
        # A retry, or the same command sent twice at once (the other copy committed
        # first): the recorded events stand, whatever happened since.
        return CommandResult(result.events, result.version, duplicate=True)
    _cache(battle, new_state)
    _snapshot_if_due(stream, expected_version, new_state)
    return CommandResult(result.events, result.version, duplicate=False, state=new_state)


def _reused(command_id: str, version: int) -> CommandIdReused:
    return CommandIdReused(
        f"command id {command_id!r} was already used in this battle for another "
        f"command (version {version}); use a new command id",
        version=version,
    )


def _recorded_or_stale(
    battle: Battle, stream: StreamRef, command_id: str, fingerprint: str, expected_version: int
) -> CommandResult | None:
    """What the append answers for a command it never gets, in its order: the recorded
    result of the same command (a retry), CommandIdReused for another command under the
    id, ConcurrencyError when the stream is not at `expected_version`; None when it is
    and the id is new (the command's own answer stands)."""
    earlier = battle_command_events(battle=battle, command_id=command_id)
    if earlier:
        if earlier[0].metadata.get("command_fingerprint") != fingerprint:
            raise _reused(command_id, earlier[0].version)
        return CommandResult(tuple(earlier), earlier[-1].version, duplicate=True)
    current = stream_version(stream)
    if current != expected_version:
        raise ConcurrencyError(stream, expected_version, current)
    return None


# --- live play: GM controls and table dice ------------------------------------------------------

MAX_REASON = 500  # as the engine's GM commands (commands.MAX_REASON)


def _control_reason(
    battle: Battle,
    actor: User,
    command: Command,
    reason: str | None,
    required: bool,
) -> str | None:
    """The reason a GM control gives besides its command, checked.

    A withdrawal (R-TRN-9) is the seat's player's own move; when the GM gives it for a
    seat they do not play, the GM is accepting the withdrawal at the table, which is a
    GM control like the others: it needs a reason (R-ADD-24) and is an adjustment.
    """
    if reason is None and not isinstance(command, Withdraw):
        return None
    if not isinstance(command, Withdraw):
        raise InvalidInput(
            "reason",
            f"not a field of {command.NAME}: only the GM's controls take a reason, in the "
            "command body (R-ADD-24)",
        )
    if battle.gm_id != actor.pk:
        if reason is not None:
            raise InvalidInput(
                "reason",
                "only the GM gives a reason, when accepting a withdrawal for a seat they do "
                "not play; a player withdraws with none (R-TRN-9)",
                "R-TRN-9",
            )
        return None
    plays_it = BattleSeat.objects.filter(
        battle=battle, seat=command.seat, player_id=actor.pk
    ).exists()
    if reason is None and (plays_it or not required):
        # The GM withdrawing their own seat is play, as for any player; so is a withdrawal
        # from an in-process caller that does not ask for the GM's reason.
        return None
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
        raise InvalidInput(
            "reason",
            f"required when the GM accepts a withdrawal for seat {command.seat}: a non-empty "
            f"string of at most {MAX_REASON} characters (R-ADD-24)",
            "R-TRN-9",
        )
    return reason.strip()


class TableInputRefused(RuleViolation):
    """The engine refused the faces or cards a table command reported (R-ADD-18): the
    refusal, and the field at fault with the values it allows."""

    def __init__(self, refusal: RuleViolation, field: str, allowed: object) -> None:
        super().__init__(refusal.code, refusal.message, refusal.rule)
        self.field = field
        self.allowed = allowed

    def as_body(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "rule": self.rule,
            "field": self.field,
            "allowed": self.allowed,
        }


class _CountingTableDice(TableDice):
    """The engine's TableDice, unchanged, remembering how many faces the rolls asked for
    so a refusal can say how many the command must report."""

    def __init__(self, faces: Sequence[int]) -> None:
        super().__init__(faces)
        self.asked = 0

    def d6(self, count: int, *, purpose: str, rule: str) -> tuple[int, ...]:
        self.asked += count
        return super().d6(count, purpose=purpose, rule=rule)


FACES_ALLOWED = [1, 2, 3, 4, 5, 6]
DRAWN_ALLOWED = (
    "ids of the cards taken, in the order taken: a card id (cathedral-stride), an instance "
    "id (cathedral-stride#2) or, from a wound deck, a wound kind (minor, severe, trauma)"
)


def _table_refusal(exc: RuleViolation, command: Command, dice: _CountingTableDice) -> RuleViolation:
    """The engine's refusal of table input, naming the field and what it allows."""
    reported = len(command.faces)
    if exc.code == "wrong_dice_count":
        message = f"{exc.message}: report at least {dice.asked} face(s), in the order rolled"
        allowed = {"faces": FACES_ALLOWED, "min_count": dice.asked}
        return TableInputRefused(RuleViolation(exc.code, message, exc.rule), "faces", allowed)
    if exc.code == "unused_dice_reported":
        used = reported - dice.unused()
        message = f"{exc.message}: this command rolls {used} die face(s)"
        allowed = {"faces": FACES_ALLOWED, "count": used}
        return TableInputRefused(RuleViolation(exc.code, message, exc.rule), "faces", allowed)
    if exc.code == "cards_not_reported":
        message = f"{exc.message}; the command reported {len(command.drawn)} in all"
        return TableInputRefused(RuleViolation(exc.code, message, exc.rule), "drawn", DRAWN_ALLOWED)
    if exc.code == "card_not_in_deck":
        named = [i for i, name in enumerate(command.drawn) if repr(name) in exc.message]
        field = f"drawn[{named[0]}]" if len(named) == 1 else "drawn"
        return TableInputRefused(exc, field, DRAWN_ALLOWED)
    if exc.code == "unused_cards_reported":
        return TableInputRefused(exc, "drawn", DRAWN_ALLOWED)
    if exc.code == "invalid_die_face":
        return TableInputRefused(exc, "faces", {"faces": FACES_ALLOWED})
    return exc


def _decide_with_table_check(
    state: BattleState, command: Command, before: BattleState | None, secret: bytes | None
) -> Decision:
    """`decided` as the engine runs it, with the battle's dice (`secret`: sealed digital
    dice, R-ADD-45); at a table, with dice that count what the rolls ask, so a refusal of
    the reported faces or cards names its field and allowed values."""
    if state.dice_mode != "table":
        dice = dice_for(state, command, secret=secret)
        try:
            return decided(state, command, dice, before=before)
        except RuleViolation as exc:
            if exc.code != "table_mode_only":
                raise
            field = "faces" if command.faces else "drawn"
            raise TableInputRefused(exc, field, "none: a digital battle rolls and draws") from None
    dice = _CountingTableDice(command.faces)
    try:
        return decided(state, command, dice, before=before)
    except RuleViolation as exc:
        refusal = _table_refusal(exc, command, dice)
        if refusal is exc:
            raise
        raise refusal from None


# --- watchers ------------------------------------------------------------------------------------


@transaction.atomic
def battle_watcher_add(*, battle: Battle, actor: User, user: User) -> BattleWatcher:
    """Let `user` watch the battle (read-only: no hands, no commands). Only the GM adds."""
    if battle.gm_id != actor.pk:
        raise PermissionDenied("only the battle's GM adds watchers")
    watcher, _ = BattleWatcher.objects.get_or_create(battle=battle, user=user)
    return watcher


# --- import --------------------------------------------------------------------------------------


# An exported event is read as the store's RecordedEvent: it has every field the digest
# covers; its position and stream are those of the store it is imported into.
_IMPORTED = StreamRef(STREAM_TYPE, "import")


def _doc_event(i: int, raw: object) -> RecordedEvent:
    path = f"events[{i}]"
    if not isinstance(raw, Mapping):
        raise InvalidInput(path, "must be an event object as an export writes it")
    shapes: dict[str, tuple[type, str]] = {
        "version": (int, "an integer"),
        "type": (str, "a string"),
        "schema_version": (int, "an integer"),
        "payload": (dict, "an object"),
        "metadata": (dict, "an object"),
        "command_id": (str, "a string"),
        "recorded_at": (str, "a timestamp string"),
        "digest": (str, "a string"),
    }
    for key, (kind, label) in shapes.items():
        value = raw.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise InvalidInput(f"{path}.{key}", f"is required: {label}")
    if raw["version"] != i + 1:
        raise InvalidInput(f"{path}.version", f"must be {i + 1}: versions count from 1 in order")
    if not 1 <= len(raw["command_id"]) <= 64:
        raise InvalidInput(f"{path}.command_id", "must be 1 to 64 characters")
    try:
        moment = datetime.strptime(raw["recorded_at"], TIMESTAMP_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        raise InvalidInput(
            f"{path}.recorded_at", "must be a UTC timestamp like 2026-01-31T12:00:00.000000Z"
        ) from None
    return RecordedEvent(
        position=0,
        stream=_IMPORTED,
        version=raw["version"],
        type=raw["type"],
        schema_version=raw["schema_version"],
        payload=raw["payload"],
        metadata=raw["metadata"],
        command_id=raw["command_id"],
        recorded_at=moment,
        digest=raw["digest"],
    )


def _check_chain(events: Sequence[RecordedEvent]) -> None:
    """Each digest must be the one the store computes for the event and the chain before it."""
    previous = ""
    for i, e in enumerate(events):
        digest = chained_digest(previous, e)
        if digest != e.digest:
            raise InvalidInput(
                f"events[{i}].digest",
                "does not match the event's content and the chain before it: the document "
                "was changed after export",
            )
        previous = digest


def _replayed(events: Sequence[RecordedEvent]) -> tuple[list[Event], list[BattleState]]:
    """The document's events as engine events, and the state after each; faults name the event."""
    engine_events: list[Event] = []
    states: list[BattleState] = []
    state: BattleState | None = None
    for i, e in enumerate(events):
        if (i == 0) != (e.type == "BattleCreated"):
            raise InvalidInput(f"events[{i}].type", "a battle starts with its one BattleCreated")
        try:
            event = BATTLE_EVENTS.decode_record(e.type, e.schema_version, e.payload)
        except DecodeError as exc:
            raise InvalidInput(f"events[{i}].{exc.field}", exc.message) from None
        except (TypeError, ValueError) as exc:
            raise InvalidInput(
                f"events[{i}].payload", f"is not a {e.type} payload: {exc}"
            ) from None
        try:
            state = evolve(state, event)
        # evolve trusts its events (it never validates), so an imported log that is not a
        # battle fails in arbitrary ways; any of them is the document's fault.
        except Exception as exc:
            raise InvalidInput(
                f"events[{i}]", f"does not replay: {type(exc).__name__}: {exc}"
            ) from None
        engine_events.append(event)
        states.append(state)
    return engine_events, states


def _command_groups(events: Sequence[RecordedEvent]) -> list[list[RecordedEvent]]:
    """Consecutive events of one command: each group was one append and is one again."""
    groups: list[list[RecordedEvent]] = []
    seen: set[str] = set()
    for i, e in enumerate(events):
        if groups and groups[-1][-1].command_id == e.command_id:
            groups[-1].append(e)
            continue
        if e.command_id in seen:
            raise InvalidInput(
                f"events[{i}].command_id", "a command's events must follow one another"
            )
        seen.add(e.command_id)
        groups.append([e])
    return groups


def _append_group(
    stream: StreamRef, group: Sequence[RecordedEvent], command_id: str, metadata: dict[str, Any]
) -> RecordedEvent:
    fingerprint = metadata.pop("command_fingerprint", None)
    metadata.pop("command_id", None)
    result = append(
        stream=stream,
        expected_version=group[0].version - 1,
        events=[NewEvent(e.type, e.payload, e.schema_version) for e in group],
        command_id=command_id,
        metadata=metadata,
        fingerprint=fingerprint if isinstance(fingerprint, str) and fingerprint else None,
        recorded_at=group[0].recorded_at,
    )
    return result.events[-1]


def _append_groups(stream: StreamRef, groups: Sequence[Sequence[RecordedEvent]]) -> None:
    """An export's events appended as they were recorded, one append per command, each
    digest reproduced (a battle's import, and a campaign's: campaigns/portability.py)."""
    for group in groups:
        last = _append_group(stream, group, group[0].command_id, dict(group[0].metadata))
        if last.digest != group[-1].digest:
            # Unreachable unless the store's digest rules changed since the export.
            raise InvalidInput(
                f"events[{last.version - 1}].digest", "is not reproduced by this store"
            )


@transaction.atomic
def battle_import(*, gm: User, document: object, battle_id: uuid.UUID | None = None) -> Battle:
    """A new battle (new id, run by `gm`) holding an exported battle's events.

    `battle_id` keeps the exported battle's id instead (a campaign's import: the campaign's
    events name its battles, campaigns/portability.py).

    The document is checked before anything is written: its digest chain (each
    `events[i].digest`), that its events replay, and that every seat's player
    exists here. The events keep their type, schema version, payload, metadata and
    timestamp, one append per original command.

    Command ids are scoped to their stream, so the new stream keeps every one of
    them and reproduces every digest exactly, whether the battle comes from another
    site or from this store.
    """
    if not isinstance(document, Mapping):
        raise InvalidInput("document", f"must be a {EXPORT_FORMAT} export document")
    if document.get("format") != EXPORT_FORMAT:
        raise InvalidInput("format", f"must be {EXPORT_FORMAT!r}, got {document.get('format')!r}")
    raw_events = document.get("events")
    if not isinstance(raw_events, list) or not 1 <= len(raw_events) <= MAX_IMPORT_EVENTS:
        raise InvalidInput("events", f"must be a list of 1 to {MAX_IMPORT_EVENTS} events")
    events = [_doc_event(i, raw) for i, raw in enumerate(raw_events)]
    _check_chain(events)
    engine_events, states = _replayed(events)
    created = engine_events[0]
    assert isinstance(created, BattleCreated)  # _replayed checked the type
    setup = created.setup
    try:
        # evolve trusts the recorded setup; the import must not.
        parse_setup(setup)
    except InvalidInput as exc:
        inner = exc.field.removeprefix("setup").lstrip(".")
        field = "events[0].payload.setup" + (f".{inner}" if inner else "")
        raise InvalidInput(field, exc.message, exc.rule) from None
    if states[-1].dice_commitment is not None and not states[-1].dice_revealed:
        raise InvalidInput(
            "events[0].payload.setup.dice.commitment",
            "this battle's dice are sealed by a secret that stays with the site that drew it "
            "until the battle ends: import it once it is over",
            "R-ADD-45",
        )
    players = _players(setup["seats"], "events[0].payload.setup.seats")
    groups = _command_groups(events)

    battle = _battle_rows(gm=gm, setup=setup, players=players, battle_id=battle_id)
    stream = battle_stream(battle=battle)
    _append_groups(stream, groups)

    every: int = settings.PENANCE_SNAPSHOT_EVERY
    for state in states[every - 1 :: every]:
        _snapshot(stream, state)
    _cache(battle, states[-1])
    return battle
