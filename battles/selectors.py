"""Reads of battles (HackSoft selectors): state at a version, events, legal actions, exports.

The event stream is the truth (docs/BATTLES.md); the Battle row names who may see
it. A state is the nearest snapshot at or before the version asked for plus the
events after it; snapshots of another engine version are ignored.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection
from django.db.models import Exists, Max, OuterRef, Q, QuerySet, Subquery

from battles.codec import BATTLE_EVENTS
from battles.codec import STREAM_TYPE as STREAM_TYPE  # the battle stream type, for campaigns
from battles.engine.battle import (
    BattleOutcome,
    BattleState,
    DiceCheck,
    LegalAction,
    RecordedCommand,
    battle_outcome,
    check_dice,
    ends_battle,
    evolve,
    legal_actions,
    state_from_dict,
)
from battles.engine.battle.decide import PROMPT_RULES
from battles.engine.battle.fairness import replay_obstacle
from battles.engine.errors import InvalidInput
from battles.engine.ruleset import ENGINE_VERSION
from battles.models import Battle, BattleSeat, BattleWatcher
from penance_site.eventstore.models import Event
from penance_site.eventstore.store import (
    RecordedEvent,
    StreamRef,
    VerifyReport,
    command_events,
    iter_stream,
    read_stream,
    recorded_from_row,
    snapshot_load,
    stream_version,
    verify,
)

EXPORT_FORMAT = "penance-battle/1"

# Whoever asks: a signed-in user, or an anonymous one (who sees public battles only).
Someone = User | AnonymousUser


@dataclass(frozen=True, slots=True)
class Viewer:
    """What one user may see of a battle: their seats' hands, or everything (`full`)."""

    role: str | None
    seats: frozenset[int]
    full: bool


def users_by_username(*, usernames: Iterable[str]) -> dict[str, User]:
    """The users with these usernames, by username; unknown names are left out."""
    model = get_user_model()
    found = model._default_manager.filter(**{f"{model.USERNAME_FIELD}__in": set(usernames)})
    return {u.get_username(): u for u in found}


def battle_stream(*, battle: Battle) -> StreamRef:
    return StreamRef(STREAM_TYPE, str(battle.id))


def battle_role(*, battle: Battle, user: Someone) -> str | None:
    """`gm`, `player`, `watcher` or None (not part of this battle).

    The seats come from `battle.seats.all()`: the rows the API's views prefetched with the
    battle (no query), else one query for the battle's few seats."""
    if not user.is_authenticated:
        return None
    if battle.gm_id == user.pk:
        return "gm"
    if any(s.player_id == user.pk for s in battle.seats.all()):
        return "player"
    if BattleWatcher.objects.filter(battle=battle, user_id=user.pk).exists():
        return "watcher"
    return None


@dataclass(frozen=True, slots=True)
class BattleAccess:
    """A battle as a request about its stream first needs it: the row, the asker's role in
    it (as `battle_role`: None for an outsider) and the stream's head version."""

    battle: Battle
    role: str | None
    head: int


def battle_access(*, battle_id: uuid.UUID, user: Someone) -> BattleAccess | None:
    """The battle, `user`'s role in it and its stream's head in one query (the live feed's
    every request starts here); None when no battle has this id."""
    head = (
        Event.objects.filter(stream_type=STREAM_TYPE, stream_id=str(battle_id))
        .order_by("-version")
        .values("version")[:1]
    )
    rows = Battle.objects.filter(pk=battle_id).annotate(stream_head=Subquery(head))
    if not user.is_authenticated:
        row = rows.first()
        return None if row is None else BattleAccess(row, None, row.stream_head or 0)
    found = rows.annotate(
        playing=Exists(BattleSeat.objects.filter(battle=OuterRef("pk"), player_id=user.pk)),
        watching=Exists(BattleWatcher.objects.filter(battle=OuterRef("pk"), user_id=user.pk)),
    ).first()
    if found is None:
        return None
    # The order of battle_role: a GM who also plays is the GM, a player who also watches
    # a player.
    role = (
        "gm"
        if found.gm_id == user.pk
        else "player"
        if found.playing
        else "watcher"
        if found.watching
        else None
    )
    return BattleAccess(found, role, found.stream_head or 0)


def battle_seats_of(*, battle: Battle, user: Someone) -> frozenset[int]:
    """The seats `user` plays in `battle` (a player may hold several); as `battle_role`,
    from the prefetched seats when there are some."""
    if not user.is_authenticated:
        return frozenset()
    return frozenset(s.seat for s in battle.seats.all() if s.player_id == user.pk)


def battle_viewer(
    *,
    battle: Battle,
    user: Someone,
    head: BattleState | None = None,
    head_version: int | None = None,
    role: str | None = None,
) -> Viewer:
    """The GM sees everything; others see their own hands, and everything once the battle is
    over (R-ADD-28). `head` saves loading the current state when the caller has it;
    `head_version` (the stream's version, just read) saves reading it again, and `role`
    (`battle_access`'s, just read) asking for the role again."""
    if role is None:
        role = battle_role(battle=battle, user=user)
    # Only the GM and players hold seats: a watcher or an outsider plays none (battle_role
    # names a user who plays a seat a player before a watcher).
    seats = battle_seats_of(battle=battle, user=user) if role in ("gm", "player") else frozenset()
    if role == "gm":
        return Viewer(role, seats, True)
    if head is None:
        head = battle_state_at(battle=battle, head=head_version)
    return Viewer(role, seats, head.over)


def battle_status(state: BattleState) -> str:
    """The listing status of a state: setup (hands being decided), in progress, or over."""
    if state.over:
        return Battle.Status.OVER
    if state.phase == "setup":
        return Battle.Status.SETUP
    return Battle.Status.IN_PROGRESS


def battle_named(*, name: str, gm: User) -> Battle | None:
    """The newest battle of this name that `gm` runs (the demo finds its battles so)."""
    return Battle.objects.filter(name=name, gm=gm).order_by("-created_at").first()


def battle_list_for(*, user: Someone) -> QuerySet[Battle]:
    """Battles `user` runs, plays in or watches, newest first."""
    if not user.is_authenticated:
        return Battle.objects.none()
    member = Q(gm_id=user.pk) | Q(seats__player_id=user.pk) | Q(watchers__user_id=user.pk)
    ids = Battle.objects.filter(member).values("id")
    return (
        Battle.objects.filter(id__in=ids)
        .select_related("gm")
        .prefetch_related("seats__player")
        .order_by("-created_at")
    )


def battle_list_rows(*, user: Someone) -> list[dict[str, Any]]:
    """The battles list: each battle `user` may see with its status, round, players and last
    activity (the time of its latest event), in three queries whatever the number."""
    battles = list(battle_list_for(user=user))
    ids = [str(b.id) for b in battles]
    events = Event.objects.filter(stream_type=STREAM_TYPE, stream_id__in=ids)
    last = dict(
        events.values("stream_id").annotate(at=Max("recorded_at")).values_list("stream_id", "at")
    )
    rounds: dict[str, int] = {}
    for stream_id, payload in (
        events.filter(type="RoundStarted").order_by("position").values_list("stream_id", "payload")
    ):
        rounds[stream_id] = payload["round"]
    return [
        {
            "battle": b,
            "round": rounds.get(str(b.id)),
            "players": sorted((s.seat, s.player.get_username()) for s in b.seats.all()),
            "last_activity": last.get(str(b.id)),
        }
        for b in battles
    ]


# --- folded states and legal actions of committed history, per process ---------------------
#
# A stream's events never change once committed (append-only), so the state after its
# first v events, and the legal actions in it, are the same for every request that asks.
# Each process keeps the latest few it computed: a player's poll of the legal actions at a
# version already folded costs one query (the head) instead of a snapshot, up to 100 events
# and the engine's search. Only what committed history gives is kept: results computed
# in autocommit (every read saw committed events only), never inside a transaction, whose
# own uncommitted appends a rollback could take back.

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Recent(Generic[K, V]):
    """The `size` most recently used entries (threaded workers share it: a lock)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_STATES: _Recent[tuple[str, int, str], BattleState] = _Recent(256)
_ACTIONS: _Recent[tuple[str, int, str, frozenset[int] | None], tuple[LegalAction, ...]] = _Recent(
    512
)


def _keep_if_committed(keep: Callable[[], None]) -> None:
    """Keep a result only if it was computed in autocommit: then every read behind it saw
    committed events only. Inside a transaction (a service's) nothing is kept."""
    if connection.get_autocommit():
        keep()


def battle_state_at(
    *, battle: Battle, version: int | None = None, head: int | None = None
) -> BattleState:
    """The battle after its first `version` events (None: all of them).

    A state this process folded at that version before (committed history), else the
    nearest state of this process or snapshot of this engine version at or before
    `version`, then the events after it. A version outside 1..head is an InvalidInput
    naming `at`. `head` is the stream's version when the caller has just read it.
    """
    stream = battle_stream(battle=battle)
    if head is None:
        head = stream_version(stream)
    if version is None:
        version = head
    elif not 1 <= version <= head:
        raise InvalidInput("at", f"must be a version from 1 to {head}, got {version}")
    state = _state_up_to(battle, stream, version)
    if state is None:
        raise InvalidInput("at", f"battle {battle.id} has no events")
    return state


def battle_state_for_command(*, battle: Battle, version: int) -> BattleState | None:
    """The battle after its first `version` events, read without asking for the stream's
    head: a command decides on it and the append that records it checks the head. A
    stream that has fewer events gives the state after all of them (its version tells),
    an empty one None."""
    return _state_up_to(battle, battle_stream(battle=battle), version)


def battle_state_keep(*, battle: Battle, state: BattleState) -> None:
    """Keep the state a command led to, called once the command's transaction has ended:
    in autocommit it committed, and the state is committed history, which the next command
    or read at that version takes as it is. Inside a caller's transaction nothing is kept
    (a rollback could still take the command back)."""
    key = (str(battle.id), state.version, ENGINE_VERSION)
    _keep_if_committed(lambda: _STATES.put(key, state))


def _state_up_to(battle: Battle, stream: StreamRef, version: int) -> BattleState | None:
    """The state kept at `version`, else the nearest kept state or snapshot before it and
    the events after that, up to `version` (fewer when the stream is shorter)."""
    battle_id = str(battle.id)
    cached = _STATES.get((battle_id, version, ENGINE_VERSION))
    if cached is not None:
        return cached
    state = _recent_state_before(battle_id, version)
    if state is None:
        snapshot = snapshot_load(stream=stream, engine_version=ENGINE_VERSION, at_or_before=version)
        state = state_from_dict(snapshot.state) if snapshot else None
    after = state.version if state else 0
    state = BATTLE_EVENTS.fold(
        evolve, read_stream(stream, after_version=after, up_to_version=version), state
    )
    if state is not None and state.version == version:
        key = (battle_id, version, ENGINE_VERSION)
        folded = state
        _keep_if_committed(lambda: _STATES.put(key, folded))
    return state


def _recent_state_before(battle_id: str, version: int) -> BattleState | None:
    """The latest state this process keeps of the battle within one snapshot interval
    before `version`: folding on from it reads fewer events than from a snapshot."""
    every: int = settings.PENANCE_SNAPSHOT_EVERY
    for earlier in range(version - 1, max(version - every, 0), -1):
        state = _STATES.get((battle_id, earlier, ENGINE_VERSION))
        if state is not None:
            return state
    return None


def _legal_actions(
    battle: Battle, state: BattleState, seats: frozenset[int] | None
) -> list[LegalAction]:
    """legal_actions(state, seats) (None: every seat), kept per version as the states are."""
    key = (str(battle.id), state.version, ENGINE_VERSION, seats)
    actions = _ACTIONS.get(key)
    if actions is None:
        found = tuple(legal_actions(state) if seats is None else legal_actions(state, seats))
        _keep_if_committed(lambda: _ACTIONS.put(key, found))
        actions = found
    return list(actions)


def battle_head_version(*, battle: Battle) -> int:
    """The stream's latest version (0 before its first event): one indexed query."""
    return stream_version(battle_stream(battle=battle))


def battle_events(
    *, battle: Battle, after: int = 0, limit: int = 100, up_to: int | None = None
) -> list[RecordedEvent]:
    """The stream's events after version `after`, at most `limit` and none past `up_to`
    (None: the stream's end), in version order."""
    return read_stream(
        battle_stream(battle=battle), after_version=after, up_to_version=up_to, limit=limit
    )


def battle_command_events(*, battle: Battle, command_id: str) -> list[RecordedEvent]:
    """The events one command appended to this battle (none if it never ran here)."""
    return list(command_events(battle_stream(battle=battle), command_id))


def battle_latest_command(*, battle: Battle) -> tuple[str, int] | None:
    """The command id of the stream's latest event and the first version that command wrote."""
    stream = battle_stream(battle=battle)
    head = stream_version(stream)
    if head == 0:
        return None
    command_id = read_stream(stream, after_version=head - 1)[0].command_id
    return command_id, command_events(stream, command_id)[0].version


def battle_legal_actions(*, battle: Battle, user: Someone) -> tuple[int, list[LegalAction]]:
    """(version, actions) for the seats `user` plays; the GM gets every seat's, watchers none."""
    state = battle_state_at(battle=battle)
    role = battle_role(battle=battle, user=user)
    if role == "gm":
        return state.version, _legal_actions(battle, state, None)
    seats = battle_seats_of(battle=battle, user=user)
    if not seats:
        return state.version, []
    return state.version, _legal_actions(battle, state, seats)


def battle_setup(*, battle: Battle) -> dict[str, Any]:
    """The normalised setup document the battle was created from (a rematch posts it again)."""
    first = read_stream(battle_stream(battle=battle), limit=1)
    return dict(first[0].payload["setup"])


@dataclass(frozen=True, slots=True)
class BattleVerifyReport:
    """The stream's digest chain (the event store's `verify`) and the battle's dice
    (`check_dice`, R-ADD-45): `ok` when both hold; otherwise the first broken version
    and why, the chain's first."""

    chain: VerifyReport
    dice: DiceCheck

    @property
    def ok(self) -> bool:
        return self.chain.ok and self.dice.ok

    @property
    def first_broken_version(self) -> int | None:
        if not self.chain.ok:
            return self.chain.first_broken_version
        return self.dice.first_broken_version

    def as_dict(self, *, full: bool) -> dict[str, Any]:
        """The report as JSON; a viewer who may not see everything (`full` false: a player
        or watcher while the battle runs) gets no value computed from hidden cards: no
        head digest (SHA-256 over the events, hidden card ids included, so a guess of a
        drawn card could be tested against it) and no dice reason (it quotes the events'
        fields), only whether and where the check broke (R-ADD-28)."""
        out = self.chain.as_dict()
        out["ok"] = self.ok
        dice = self.dice.as_dict()
        if not full:
            out["head_digest"] = None
            if dice["reason"] is not None:
                dice["reason"] = WITHHELD
        if self.chain.ok and not self.dice.ok:
            out["first_broken_version"] = self.dice.first_broken_version
            out["reason"] = f"dice (R-ADD-45): {dice['reason']}"
        out["dice"] = dice
        return out


# What a viewer who may not see everything reads where a value derived from hidden cards was.
WITHHELD = "withheld until the battle is over: it is derived from hidden cards (R-ADD-28)"


def recorded_commands(events: Iterable[RecordedEvent]) -> list[RecordedCommand]:
    """A stream's appends as the dice check reads them: consecutive events of one command
    id, the command's body from their metadata (kept for sealed dice), decoded events."""
    out: list[RecordedCommand] = []
    for e in events:
        event = BATTLE_EVENTS.decode(e)
        if out and out[-1].command_id == e.command_id:
            last = out[-1]
            out[-1] = RecordedCommand(last.command_id, last.body, (*last.events, event))
            continue
        body = e.metadata.get("command")
        out.append(
            RecordedCommand(e.command_id, body if isinstance(body, dict) else None, (event,))
        )
    return out


def battle_dice_check(*, events: Iterable[RecordedEvent]) -> DiceCheck:
    """Whether the recorded rolls and shuffles are the ones the revealed secret gives."""
    events = list(events)
    try:
        commands = recorded_commands(events)
        return check_dice(commands)
    # Events changed behind the store's back may not even decode or replay; whatever
    # breaks, the dice cannot be confirmed (the chain check names the changed event).
    # Events of another engine version may not decode here either: that is said as
    # such, not as broken (R-ADD-205).
    except Exception as exc:
        first = events[0].payload if events else {}
        obstacle = replay_obstacle(first.get("engine_version"), first.get("setup") or {})
        if obstacle is not None:
            reason = f"the dice cannot be checked here: {obstacle}"
            return DiceCheck("cannot_check", None, 0, None, reason)
        return DiceCheck("broken", None, 0, None, f"the events do not replay: {exc}")


def battle_verify(*, battle: Battle) -> BattleVerifyReport:
    """The digest chain and the dice of the battle's stream (R-ADD-45)."""
    stream = battle_stream(battle=battle)
    return BattleVerifyReport(verify(stream), battle_dice_check(events=iter_stream(stream)))


# Where the store keeps an event: an import writes it into a new stream, at a new position.
_STORE_PLACE = ("position", "stream_type", "stream_id")


def export_event(e: RecordedEvent) -> dict[str, Any]:
    """One event as an export carries it: everything its digest covers, and the digest (the
    stored record without its place in the store)."""
    return {k: v for k, v in e.as_dict().items() if k not in _STORE_PLACE}


def battle_export(*, battle: Battle) -> dict[str, Any]:
    """The whole battle as one JSON document (format `penance-battle/1`).

    Each event carries its metadata and command id too: the digest covers them, and
    an import checks the chain against them.
    """
    events = [export_event(e) for e in iter_stream(battle_stream(battle=battle))]
    seats = battle.seats.select_related("player").order_by("seat")
    return {
        "format": EXPORT_FORMAT,
        "battle": {
            "id": str(battle.id),
            "name": battle.name,
            "dice_mode": battle.dice_mode,
            "policy": battle.policy,
            "gm": battle.gm.get_username(),
            "seats": [{"seat": s.seat, "player": s.player.get_username()} for s in seats],
        },
        "setup": events[0]["payload"]["setup"],
        "events": events,
    }


# --- for the apps built on battles (campaigns) ---------------------------------------------------


def battle_stream_ended(*, stream: StreamRef, events: Sequence[RecordedEvent]) -> str | None:
    """The battle id when `events`, just appended to `stream`, closed a battle (R-TRN-8);
    None for any other append. For reactions to the event store's appends."""
    if stream.type != STREAM_TYPE or not any(ends_battle(e.type) for e in events):
        return None
    return stream.id


def battle_outcome_of(*, battle: Battle) -> BattleOutcome:
    """The finished battle's outcome, read from its events through the codec (upcasters
    included); RuleViolation `battle_not_over` (R-PLT-5) while it runs."""
    stream = battle_stream(battle=battle)
    return battle_outcome([BATTLE_EVENTS.decode(e) for e in iter_stream(stream)])


def battles_events_of_types(
    *, battle_ids: Iterable[str], types: Iterable[str]
) -> Iterator[RecordedEvent]:
    """The events of these types in these battles' streams, in store order (for careers:
    one query over every battle a pilot sat in)."""
    rows = Event.objects.filter(
        stream_type=STREAM_TYPE, stream_id__in=list(battle_ids), type__in=list(types)
    ).order_by("position")
    for row in rows.iterator(chunk_size=2000):
        yield recorded_from_row(row)


# --- live play: whom the battle waits for, and what changed since a version ---------------------

# What each prompt asks of its seat, in words a waiting page can show.
PROMPT_WORDS = {
    "mulligan": "to keep the opening hand or take the mulligan",
    "reactive": "to play a reactive card against the attack, or none",
    "take_damage": "to choose the cards lost to damage",
    "discard_down": "to discard down to the hand size",
    "discard": "to choose the cards one of their cards discards",
    "arrange": "to put the top cards of their deck back in any order",
    "ultimatum": "to take the damage now or skip their next turn",
    "save": "to discard cards to resist, or skip their next turn",
    "bargain": "to give up hand cards to lessen the hit, or decline",
    "siphon": "to pay the defender's price to miss, or decline",
    "duel": "to accept the Honor Duel, or refuse it and bear Coward's Mark",
    "reroll": "to roll one of the attack dice again, or keep the roll",
    "defence_reroll": "to force blocking defence dice to be rolled again, or let the roll stand",
    "hand_pick": "to choose the cards an enemy discards from the hand they looked at",
    "form": "to choose the Metamorph form their card gives",
    "ally_destroyed": "to answer an ally's destruction with a card, or none",
    "low_deck": "to answer the deck's fall to a few cards with a card, or none",
    "lethal_damage": "to answer damage that would defeat the casket with a card, or none",
    "temporal_loop": "to choose the enemy who takes the damage stored in the loop",
}


@dataclass(frozen=True, slots=True)
class Waiting:
    """One decision the battle waits for: a seat's turn (R-TRN-5) or an open prompt."""

    seat: int
    player: str
    kind: str  # "turn" or "prompt"
    prompt: str | None
    amount: int
    rule: str
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class PlayStatus:
    """The legal actions of one viewer, and whom the battle waits for (R-TRN-5, prompts)."""

    version: int
    actions: list[LegalAction]
    waiting_for: list[Waiting]
    over: bool
    message: str
    rule: str | None
    # Seats whose withdrawal this viewer gives only with a reason: the GM accepting the
    # withdrawal of a seat they do not play (R-TRN-9, services._control_reason).
    reason_seats: frozenset[int] = frozenset()


def _seat_players(battle: Battle) -> dict[int, str]:
    return {s.seat: s.player.get_username() for s in battle.seats.all()}


def battle_waiting_for(*, battle: Battle, state: BattleState) -> list[Waiting]:
    """Every open prompt, or else the active seat's turn; nothing once the battle is over."""
    if state.over:
        return []
    players = _seat_players(battle)
    if state.prompts:
        return [
            Waiting(
                seat=p.seat,
                player=players.get(p.seat, ""),
                kind="prompt",
                prompt=p.kind,
                amount=p.amount,
                rule=p.rule or PROMPT_RULES.get(p.kind, ""),
                reason=p.reason or PROMPT_WORDS.get(p.kind, p.kind),
            )
            for p in state.prompts
        ]
    active = state.active
    if active is None:
        return []
    return [
        Waiting(
            seat=active,
            player=players.get(active, ""),
            kind="turn",
            prompt=None,
            amount=0,
            rule="R-TRN-5",
            reason=f"round {state.round}: seat {active} acts until it passes",
        )
    ]


def _waiting_message(state: BattleState, waiting: Sequence[Waiting]) -> tuple[str, str | None]:
    if state.over:
        if state.winner:
            return f"the battle is over: side {state.winner} won ({state.result})", "R-TRN-8"
        return f"the battle is over: {state.result or 'a draw'}", "R-TRN-8"
    if not waiting:
        return "the battle waits for nobody", None
    parts = []
    for w in waiting:
        what = "its turn" if w.kind == "turn" else f"the {w.prompt} prompt ({w.reason})"
        parts.append(f"seat {w.seat} ({w.player}): {what} ({w.rule})")
    return "waiting for " + "; ".join(parts), waiting[0].rule


def battle_play_status(*, battle: Battle, user: Someone) -> PlayStatus:
    """The legal actions for the seats `user` plays (the GM: every seat; watchers none), and
    whom the battle waits for and why, from one fold of the stream."""
    state = battle_state_at(battle=battle)
    role = battle_role(battle=battle, user=user)
    seats = battle_seats_of(battle=battle, user=user)
    reason_seats: frozenset[int] = frozenset()
    if role == "gm":
        reason_seats = frozenset(c.seat for c in state.seats) - seats
        # Each listed body is sent as it is, or says what it still needs (R-TRN-9).
        actions = [
            replace(a, needs=("reason",))
            if a.body["type"] == "withdraw" and a.body.get("seat") in reason_seats
            else a
            for a in _legal_actions(battle, state, None)
        ]
    else:
        actions = _legal_actions(battle, state, seats) if seats else []
    waiting = battle_waiting_for(battle=battle, state=state)
    message, rule = _waiting_message(state, waiting)
    return PlayStatus(state.version, actions, waiting, state.over, message, rule, reason_seats)
