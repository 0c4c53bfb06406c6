"""The battles API: battles as event streams (docs/BATTLES.md), thin views over services
and selectors.

Who may do what: anonymous requests are 401; a user who is not the battle's GM,
one of its players or a watcher gets 403. Players see their own hands and no
deck's order while the battle runs; the GM sees everything, and so does everyone
once the battle is over (R-ADD-28). Commands come from the GM or the player of
the seat they name; GM adjustments from the GM only (R-ADD-24).
"""

from __future__ import annotations

import contextlib
import os
import time
from typing import Any
from uuid import UUID

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from battles import selectors, services
from battles.codec import BATTLE_EVENTS
from battles.engine.battle import BattleState, public_payload, state_view
from battles.engine.battle.fairness import DICE_STATUSES
from battles.engine.errors import InvalidInput
from battles.engine.ruleset import ENGINE_VERSION
from battles.models import Battle, BattleSeat
from penance_site.api import (
    ConflictOutput,
    ErrorsOutput,
    RefusalOutput,
    SignedInView,
    request_example,
    validated,
)
from penance_site.api_fields import BoardField, StrictIntegerField, StrictSerializer, TypedInput
from penance_site.api_schema import EndpointSchemas
from penance_site.eventstore.store import (
    RecordedEvent,
    format_timestamp,
    stream_version,
)
from penance_site.users import signed_in

TAGS = ["battles"]

# --- output shapes (rendered through these serializers, and documented by them) -------------------


class SeatOutput(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.CharField(help_text="username")


class BattleSummaryOutput(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    name = serializers.CharField()
    gm = serializers.CharField(help_text="the GM's username")
    seats = SeatOutput(many=True)
    status = serializers.ChoiceField(choices=Battle.Status.choices)
    version = serializers.IntegerField(help_text="the stream's version: its number of events")
    winner = serializers.CharField(allow_null=True, help_text="the winning side (R-TRN-8)")
    role = serializers.ChoiceField(choices=("gm", "player", "watcher"), allow_null=True)
    created_at = serializers.DateTimeField()


class BattleDetailOutput(BattleSummaryOutput):
    state = serializers.JSONField(help_text="the state as this viewer may see it (R-ADD-28)")


class EventOutput(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    type = serializers.CharField()
    schema_version = serializers.IntegerField()
    payload = serializers.JSONField(help_text="hidden cards and deck orders are null (R-ADD-28)")
    command_id = serializers.CharField()
    actor = serializers.CharField(allow_null=True)
    adjustment = serializers.BooleanField(help_text="a GM adjustment rather than play")
    reason = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="a GM adjustment's reason (R-ADD-24), where the command gave one",
    )
    recorded_at = serializers.CharField()
    digest = serializers.CharField(
        allow_null=True, help_text="only for viewers who see every payload in full"
    )


class EventsOutput(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="the stream's current version")
    events = EventOutput(many=True)


class CommandOutput(serializers.Serializer[Any]):
    events = EventOutput(many=True)
    version = serializers.IntegerField()
    duplicate = serializers.BooleanField(
        help_text="true when this command id was recorded before: these are its original events"
    )


class TableRefusalOutput(RefusalOutput):
    field = serializers.CharField(
        required=False, help_text="table input only: `faces`, `drawn` or `drawn[i]`"
    )
    allowed = serializers.JSONField(
        required=False,
        help_text="table input only: the faces allowed (1..6) and how many, or what `drawn` holds",
    )


class StateOutput(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    state = serializers.JSONField()


class LegalActionOutput(serializers.Serializer[Any]):
    body = serializers.JSONField(help_text="a command body to send as it is")
    to_hit = serializers.JSONField(required=False, help_text="attacks: the to-hit answer")
    overspend = serializers.IntegerField(
        required=False,
        help_text="cards the body's `pay` gives for its overspend (R-TRN-3); absent when none",
    )
    needs = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="fields to add before sending, e.g. `reason` for the GM accepting the "
        "withdrawal of a seat they do not play (R-TRN-9, R-ADD-24); absent when none",
    )


class WaitingOutput(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.CharField(help_text="the seat player's username")
    kind = serializers.CharField(
        help_text="`turn`: the seat's turn (R-TRN-5); `prompt`: an open prompt"
    )
    prompt = serializers.ChoiceField(
        choices=(
            *("mulligan", "reactive", "take_damage", "discard_down", "discard", "arrange"),
            *(
                "ultimatum",
                "save",
                "bargain",
                "siphon",
                "duel",
                "reroll",
                "defence_reroll",
                "hand_pick",
                "form",
                "ally_destroyed",
                "low_deck",
                "lethal_damage",
                "temporal_loop",
            ),
        ),
        allow_null=True,
        help_text="the prompt's kind; null for a turn",
    )
    amount = serializers.IntegerField(help_text="cards to lose or discard; 0 otherwise")
    rule = serializers.CharField(help_text="the ruling behind the wait, e.g. R-REA-1")
    reason = serializers.CharField()


class LegalActionsOutput(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    actions = LegalActionOutput(many=True)
    waiting_for = WaitingOutput(
        many=True,
        help_text="whom the battle waits for: every open prompt, else the active seat's turn; "
        "empty once the battle is over",
    )
    over = serializers.BooleanField()
    message = serializers.CharField(
        help_text="whom the battle waits for and why, in words (or that it is over)"
    )
    rule = serializers.CharField(allow_null=True, help_text="the ruling behind `message`")
    withdraw_needs_reason = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="the seats whose `withdraw` you send with a `reason`: the GM accepting the "
        "withdrawal of a seat they do not play (R-TRN-9, R-ADD-24); empty for players",
    )


class DiceCheckOutput(serializers.Serializer[Any]):
    status = serializers.CharField(
        help_text=f"one of {', '.join(DICE_STATUSES)}. verified: every roll and shuffle derived again from the revealed secret; "
        "sealed: the battle runs and its secret is hidden; broken: an event differs; "
        "public_seed, table, unsealed: nothing to check (R-ADD-45)",
    )
    commitment = serializers.CharField(
        allow_null=True, help_text="SHA-256 of the dice secret, from the first event"
    )
    commands = serializers.IntegerField(help_text="commands decided again with the secret")
    first_broken_version = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_null=True)


class VerifyOutput(serializers.Serializer[Any]):
    stream = serializers.CharField()
    ok = serializers.BooleanField(help_text="the digest chain holds and the dice check holds")
    checked = serializers.IntegerField()
    first_broken_version = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_null=True)
    head_digest = serializers.CharField(
        allow_null=True,
        help_text="the last event's chained digest; null for a player or watcher while the "
        "battle runs, since it is computed over hidden cards (R-ADD-28)",
    )
    dice = DiceCheckOutput()


class WatcherOutput(serializers.Serializer[Any]):
    battle = serializers.UUIDField()
    username = serializers.CharField()


# Documented limits (the schema's maxItems): past them a setup is no game, only work.
MAX_SETUP_CARDS = 1000
MAX_SETUP_SEATS = 16


class DocumentSerializer(TypedInput):
    """A JSON document checked by the engine or the import, which name the faulty field."""

    def to_representation(self, instance: Any) -> Any:
        return instance


class SetupDocument(DocumentSerializer):
    name = serializers.CharField(required=False)
    board = BoardField(help_text="a board document (FORMATS.md)")
    rules = serializers.JSONField(required=False)
    dice = serializers.JSONField(
        required=False,
        help_text='{"mode": "digital"|"table", "seed", "seed_public"}: without a seed the dice are '
        "sealed by a secret revealed when the battle ends (R-ADD-45)",
    )
    policy = serializers.ChoiceField(choices=("prompt", "auto"), required=False)
    cards = serializers.ListField(
        child=serializers.JSONField(), max_length=MAX_SETUP_CARDS, help_text="at most 1000"
    )
    seats = serializers.ListField(
        child=serializers.JSONField(),
        max_length=MAX_SETUP_SEATS,
        help_text="each seat's `player` is a username; at most 16",
    )


class ExportDocument(DocumentSerializer):
    format = serializers.CharField(default=selectors.EXPORT_FORMAT)
    battle = serializers.JSONField()
    setup = serializers.JSONField()
    events = serializers.ListField(
        child=serializers.JSONField(),
        help_text="version, type, schema_version, payload, metadata, command_id, recorded_at, "
        "digest",
    )


ERRORS = {
    400: OpenApiResponse(ErrorsOutput, "malformed input; `field` names it"),
    401: OpenApiResponse(description="not signed in"),
    403: OpenApiResponse(description="not part of this battle, or not allowed this"),
    404: OpenApiResponse(description="no such battle"),
}
endpoint = EndpointSchemas(TAGS, ERRORS, ERRORS)


# --- presentation -----------------------------------------------------------------------------


def _role_in_list(battle: Battle, user: Any) -> str:
    """The role from a listing's prefetched rows (the listing holds member battles only)."""
    if battle.gm_id == user.pk:
        return "gm"
    if any(s.player_id == user.pk for s in battle.seats.all()):
        return "player"
    return "watcher"


def _summary(battle: Battle, role: str | None, state: BattleState | None = None) -> dict[str, Any]:
    """The battle's row; with `state`, its figures come from the stream rather than the cache."""
    return {
        "id": battle.id,
        "name": battle.name,
        "gm": battle.gm.get_username(),
        "seats": [{"seat": s.seat, "player": s.player.get_username()} for s in battle.seats.all()],
        "status": selectors.battle_status(state) if state else battle.status,
        "version": state.version if state else battle.version,
        "winner": (state.winner if state else battle.winner) or None,
        "role": role,
        "created_at": battle.created_at,
    }


def _detail(battle: Battle, viewer: selectors.Viewer, state: BattleState) -> dict[str, Any]:
    out = _summary(battle, viewer.role, state)
    out["state"] = state_view(state, viewer.seats, full=viewer.full)
    return BattleDetailOutput(out).data


def _detail_for(battle: Battle, request: Request) -> dict[str, Any]:
    """The battle's detail at its head, as the request's user may see it."""
    state = selectors.battle_state_at(battle=battle)
    viewer = selectors.battle_viewer(battle=battle, user=request.user, head=state)
    return _detail(battle, viewer, state)


def _event(e: RecordedEvent, viewer: selectors.Viewer) -> dict[str, Any]:
    # Stored payloads keep their schema version; filter and show them upcast to today's.
    type_, schema_version, payload = BATTLE_EVENTS.to_record(BATTLE_EVENTS.decode(e))
    return {
        "version": e.version,
        "type": type_,
        "schema_version": schema_version,
        "payload": public_payload(type_, payload, viewer.seats, full=viewer.full),
        "command_id": e.command_id,
        "actor": e.metadata.get("actor"),
        "adjustment": bool(e.metadata.get("adjustment")),
        "reason": e.metadata.get("reason") or e.payload.get("reason")
        if e.metadata.get("adjustment")
        else None,
        "recorded_at": format_timestamp(e.recorded_at),
        # A digest over a hidden payload would let a player test guesses of a deck's order.
        "digest": e.digest if viewer.full else None,
    }


# --- views ----------------------------------------------------------------------------------------


class BattlesView(SignedInView):
    def battle(self, request: Request, battle_id: UUID) -> tuple[Battle, str]:
        """The battle and the user's role in it; 404 if none, 403 if not part of it."""
        # Seats with their players in one query; role and seats are read from them.
        seats = Prefetch("seats", queryset=BattleSeat.objects.select_related("player"))
        battles = Battle.objects.select_related("gm").prefetch_related(seats)
        battle = get_object_or_404(battles, pk=battle_id)
        role = selectors.battle_role(battle=battle, user=request.user)
        if role is None:
            raise PermissionDenied("you are not the GM, a player or a watcher of this battle")
        return battle, role


class BattleListView(BattlesView):
    @endpoint.read(
        "battles_list",
        "The battles you run, play in or watch, newest first",
        BattleSummaryOutput(many=True),
        errors={401: ERRORS[401]},
    )
    def get(self, request: Request) -> Response:
        battles = selectors.battle_list_for(user=request.user)
        rows = [_summary(b, _role_in_list(b, request.user)) for b in battles]
        return Response(BattleSummaryOutput(rows, many=True).data)

    @endpoint.write(
        "battles_create",
        "Create a battle from a setup document; you become its GM",
        SetupDocument,
        BattleDetailOutput,
        description=(
            "The body is a setup document (docs/BATTLES.md); every seat's `player` is a "
            "username. The setup of an existing battle (`GET …/setup`) makes a rematch."
        ),
    )
    def post(self, request: Request) -> Response:
        battle = services.battle_create(gm=signed_in(request.user), setup=request.data)
        return Response(_detail_for(battle, request), status=status.HTTP_201_CREATED)


class BattleImportView(BattlesView):
    @endpoint.write(
        "battles_import",
        "Import an exported battle as a new battle you run",
        ExportDocument,
        BattleDetailOutput,
        description=(
            "The document's digest chain is checked event by event (a changed event is a "
            "400 naming `events[i].digest`), its events must replay and its players exist."
        ),
    )
    def post(self, request: Request) -> Response:
        battle = services.battle_import(gm=signed_in(request.user), document=request.data)
        return Response(_detail_for(battle, request), status=status.HTTP_201_CREATED)


class BattleDetailView(BattlesView):
    @endpoint.read(
        "battles_retrieve",
        "A battle's summary and its current state as you may see it",
        BattleDetailOutput,
    )
    def get(self, request: Request, battle_id: UUID) -> Response:
        battle, _ = self.battle(request, battle_id)
        return Response(_detail_for(battle, request))


class BattleCommandView(BattlesView):
    @extend_schema_serializer(component_name="BattleCommandRequest")
    class InputSerializer(TypedInput):
        command_id = serializers.CharField(
            min_length=1,
            max_length=64,
            trim_whitespace=False,
            help_text="chosen by the client, unique within this battle (a UUID); a retry "
            "reuses it and gets the original events back",
        )
        expected_version = StrictIntegerField(
            min_value=0, help_text="the version the command was decided on"
        )
        type = serializers.CharField(help_text="the command: move, attack, pass, revert …")
        seat = serializers.IntegerField(required=False, help_text="the seat acting or answering")
        reverts = serializers.CharField(
            required=False,
            min_length=1,
            max_length=64,
            trim_whitespace=False,
            help_text="revert only: the command id of the battle's latest command (R-ADD-24)",
        )
        reason = serializers.CharField(
            required=False,
            max_length=500,
            help_text="GM controls (adjust_heat, adjust_component_damage, relocate, "
            "return_card, revert, end_battle): why, required (R-ADD-24); also required "
            "when the GM accepts a withdrawal for a seat they do not play (R-TRN-9)",
        )

    ENVELOPE = ("command_id", "expected_version", "reverts")

    @classmethod
    def engine_body(cls, data: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
        """The command as the engine reads it. A revert names the command it undoes in
        `reverts`, since `command_id` is this request's own id; the engine calls it
        `command_id`."""
        body = {k: v for k, v in data.items() if k not in cls.ENVELOPE}
        if body.get("type") == "withdraw":
            # A withdrawal's reason is the GM's (services._control_reason), not the engine's.
            body.pop("reason", None)
        if body.get("type") == "revert":
            if "reverts" not in fields:
                raise InvalidInput("reverts", "required by revert: the command id to undo")
            body["command_id"] = fields["reverts"]
        elif "reverts" in fields:
            raise InvalidInput("reverts", "only a revert names a command to undo")
        return body

    @endpoint.write(
        "battles_command",
        "Give a command; its events are recorded",
        InputSerializer,
        CommandOutput,
        description=(
            "Besides `command_id` and `expected_version`, the body is the command "
            "(docs/BATTLES.md), e.g. the `body` of a legal action. 409 `stale_version` "
            "(with `current_version`) when the battle moved on, 409 `command_id_reused` for "
            "an id this battle used for another command, 422 when the rules refuse (code, "
            "message, rule)."
        ),
        examples=[
            request_example(
                "Pass", {"command_id": "3f0c…", "expected_version": 13, "type": "pass", "seat": 1}
            ),
            request_example(
                "Revert (GM)",
                {
                    "command_id": "9a1d…",
                    "expected_version": 16,
                    "type": "revert",
                    "reverts": "3f0c…",
                    "reason": "wrong card",
                },
            ),
        ],
        errors={
            **ERRORS,
            409: ConflictOutput,
            422: OpenApiResponse(
                TableRefusalOutput,
                "the rules refuse; a refusal of a table's reported `faces` or `drawn` "
                "(R-ADD-18) also names the `field` at fault and what it `allowed`",
            ),
        },
    )
    def post(self, request: Request, battle_id: UUID) -> Response:
        battle, _ = self.battle(request, battle_id)
        fields = validated(self.InputSerializer, request.data)
        data = request.data
        if not isinstance(data, dict):  # the serializer above refuses any other shape
            raise InvalidInput("body", "must be a JSON object")
        body = self.engine_body(data, fields)
        try:
            result = services.battle_command_execute(
                battle=battle,
                actor=signed_in(request.user),
                command_id=fields["command_id"],
                expected_version=fields["expected_version"],
                body=body,
                reason=data.get("reason") if body.get("type") == "withdraw" else None,
                require_reason=True,
            )
        except services.TableInputRefused as exc:  # table dice: the field at fault too
            return Response(exc.as_body(), status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        # The command's own state answers who may see what, without folding it again.
        viewer = selectors.battle_viewer(battle=battle, user=request.user, head=result.state)
        out = {
            "events": [_event(e, viewer) for e in result.events],
            "version": result.version,
            "duplicate": result.duplicate,
        }
        return Response(CommandOutput(out).data, status=status.HTTP_201_CREATED)


class BattleEventsView(BattlesView):
    class QuerySerializer(serializers.Serializer[Any]):
        after = serializers.IntegerField(min_value=0, default=0, help_text="a version")
        limit = serializers.IntegerField(min_value=1, max_value=1000, default=100)

    @endpoint.read(
        "battles_events",
        "The battle's events after a version, as you may see them",
        EventsOutput,
        parameters=[QuerySerializer],
    )
    def get(self, request: Request, battle_id: UUID) -> Response:
        battle, _ = self.battle(request, battle_id)
        query = validated(self.QuerySerializer, request.query_params)
        viewer = selectors.battle_viewer(battle=battle, user=request.user)
        events = selectors.battle_events(battle=battle, **query)
        out = {
            "version": stream_version(selectors.battle_stream(battle=battle)),
            "events": [_event(e, viewer) for e in events],
        }
        return Response(EventsOutput(out).data)


class BattleStateView(BattlesView):
    class QuerySerializer(serializers.Serializer[Any]):
        at = serializers.IntegerField(
            min_value=1, required=False, help_text="a version: the state after that many events"
        )

    @endpoint.read(
        "battles_state",
        "The state now, or after any version (time travel)",
        StateOutput,
        parameters=[QuerySerializer],
    )
    def get(self, request: Request, battle_id: UUID) -> Response:
        battle, _ = self.battle(request, battle_id)
        query = validated(self.QuerySerializer, request.query_params)
        state = selectors.battle_state_at(battle=battle, version=query.get("at"))
        viewer = selectors.battle_viewer(battle=battle, user=request.user)
        out = {"version": state.version, "state": state_view(state, viewer.seats, full=viewer.full)}
        return Response(StateOutput(out).data)


class BattleLegalActionsView(BattlesView):
    @endpoint.read(
        "battles_legal_actions",
        "Commands you may send now, as complete bodies",
        LegalActionsOutput,
        description=(
            "For the seats you play (the GM: every seat); watchers get none. Whoever asks "
            "also learns whom the battle waits for and why (`waiting_for`, `message`, "
            "`rule`), so an empty `actions` says whose turn or prompt it is (R-TRN-5)."
        ),
    )
    def get(self, request: Request, battle_id: UUID) -> Response:
        battle, _ = self.battle(request, battle_id)
        play = selectors.battle_play_status(battle=battle, user=request.user)
        out = {
            "version": play.version,
            "actions": [a.as_dict() for a in play.actions],
            "waiting_for": [w.as_dict() for w in play.waiting_for],
            "over": play.over,
            "message": play.message,
            "rule": play.rule,
            "withdraw_needs_reason": sorted(play.reason_seats),
        }
        return Response(LegalActionsOutput(out).data)


class BattleVerifyView(BattlesView):
    @endpoint.read(
        "battles_verify",
        "Recompute the battle's digest chain and, once it is over, its dice",
        VerifyOutput,
        description=(
            "The digest chain of every event, then the dice (R-ADD-45): a battle with "
            "sealed dice reveals its secret when it ends; from then on every recorded "
            "command is decided again with the dice the secret gives, and the first event "
            "that differs is reported (`first_broken_version`, `reason`, `dice`). While the "
            "battle runs, only the GM gets `head_digest` and the dice check's reason: both are "
            "computed from hidden cards (R-ADD-28)."
        ),
    )
    def get(self, request: Request, battle_id: UUID) -> Response:
        battle, _ = self.battle(request, battle_id)
        full = selectors.battle_viewer(battle=battle, user=request.user).full
        report = selectors.battle_verify(battle=battle).as_dict(full=full)
        return Response(VerifyOutput(report).data)


class BattleSetupView(BattlesView):
    @endpoint.read(
        "battles_setup",
        "The normalised setup document; posting it to /api/battles/ makes a rematch",
        SetupDocument,
    )
    def get(self, request: Request, battle_id: UUID) -> Response:
        battle, _ = self.battle(request, battle_id)
        return Response(selectors.battle_setup(battle=battle))


class BattleExportView(BattlesView):
    @endpoint.read(
        "battles_export",
        "The whole battle as one document (penance-battle/1)",
        ExportDocument,
        description=(
            "Every event in full, so only the GM may export a running battle; once it is "
            "over, every member may (R-ADD-28)."
        ),
    )
    def get(self, request: Request, battle_id: UUID) -> Response:
        battle, _ = self.battle(request, battle_id)
        if not selectors.battle_viewer(battle=battle, user=request.user).full:
            raise PermissionDenied(
                "an export shows every hidden card: only the GM exports a running battle (R-ADD-28)"
            )
        return Response(selectors.battle_export(battle=battle))


class BattleWatchersView(BattlesView):
    @extend_schema_serializer(component_name="BattleWatcherRequest")
    class InputSerializer(StrictSerializer):
        username = serializers.CharField(max_length=150)

    @endpoint.write(
        "battles_watchers_add",
        "Let a user watch the battle (GM only)",
        InputSerializer,
        WatcherOutput,
    )
    def post(self, request: Request, battle_id: UUID) -> Response:
        battle, role = self.battle(request, battle_id)
        if role != "gm":
            raise PermissionDenied("only the battle's GM adds watchers")
        username = validated(self.InputSerializer, request.data)["username"]
        user = selectors.users_by_username(usernames=[username]).get(username)
        if user is None:
            raise InvalidInput("username", f"no user is called {username!r}")
        watcher = services.battle_watcher_add(
            battle=battle, actor=signed_in(request.user), user=user
        )
        out = {"battle": watcher.battle_id, "username": user.get_username()}
        return Response(WatcherOutput(out).data, status=status.HTTP_201_CREATED)


# --- live updates (docs/FRONTEND.md "Live updates") ----------------------------------------------

# How long one request may wait for an event, at most; how often it looks at the store.
LIVE_MAX_WAIT = 20.0
LIVE_POLL_INTERVAL = 0.2
# Where each request holds a whole process (gunicorn sync workers), it answers at once and
# the page asks again after this long, so a waiting page never holds a worker.
LIVE_SHORT_POLL_AFTER_MS = 1000


def live_wait_limit(request: Request) -> float:
    """The longest a request may wait here: PENANCE_LIVE_MAX_WAIT seconds (the setting, else
    the environment variable), or "auto" (the default): LIVE_MAX_WAIT where the server runs
    requests in threads, 0 where each request holds a process (WSGI's `wsgi.multithread`
    false: gunicorn's sync workers). A value that is not a number counts as "auto"."""
    setting = getattr(settings, "PENANCE_LIVE_MAX_WAIT", None)
    if setting is None:
        setting = os.environ.get("PENANCE_LIVE_MAX_WAIT") or "auto"
    if setting == "auto":
        return LIVE_MAX_WAIT if request.META.get("wsgi.multithread") else 0.0
    try:
        seconds = float(setting)
    except (TypeError, ValueError):
        return LIVE_MAX_WAIT if request.META.get("wsgi.multithread") else 0.0
    return max(0.0, min(seconds, LIVE_MAX_WAIT)) if seconds == seconds else 0.0


class UpdatesOutput(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="the stream's current version")
    events = EventOutput(many=True)
    more = serializers.BooleanField(
        help_text="more events follow these: ask again at once with `after` = the last one's "
        "version"
    )
    waited_ms = serializers.IntegerField(help_text="how long the server waited for events")
    poll_after_ms = serializers.IntegerField(
        help_text="how long to wait before the next request: 0 after events or a long poll "
        "that timed out; more where the server answers at once (docs/FRONTEND.md)"
    )


class BattleUpdatesView(BattlesView):
    class QuerySerializer(serializers.Serializer[Any]):
        after = serializers.IntegerField(
            min_value=0, help_text="the version the page shows: events after it are new"
        )
        wait = serializers.IntegerField(
            min_value=0,
            max_value=int(LIVE_MAX_WAIT),
            default=int(LIVE_MAX_WAIT),
            help_text="whole seconds the page will wait for an event; the server may wait less",
        )
        limit = serializers.IntegerField(min_value=1, max_value=1000, default=100)

    @endpoint.read(
        "battles_updates",
        "New events after a version: answered as soon as there are any (long poll)",
        UpdatesOutput,
        description=(
            "Answers at once when the stream is past `after`, with its next events as you may "
            "see them (R-ADD-28), as `…/events` does. Otherwise waits up to `wait` seconds "
            "(at most 20, and 0 where the server runs one request per process) for one, "
            "checking the store five times a second, and answers with no events. The page "
            "then asks again after `poll_after_ms`. Any web process answers, from the store; "
            "a watcher's answer, the same for every watcher, is rendered once per version "
            "and kept in the site's cache. An `after` past the stream's version is a 400."
        ),
        parameters=[QuerySerializer],
    )
    def get(self, request: Request, battle_id: UUID) -> Response:
        # The battle, the asker's role and the stream's head in one query: fifty watchers
        # of a battle each ask after every command (bench/live.py).
        access = selectors.battle_access(battle_id=battle_id, user=request.user)
        if access is None:
            raise Http404("No Battle matches the given query.")
        if access.role is None:
            raise PermissionDenied("you are not the GM, a player or a watcher of this battle")
        battle, head = access.battle, access.head
        query = validated(self.QuerySerializer, request.query_params)
        after: int = query["after"]
        limit: int = query["limit"]
        allowed = live_wait_limit(request)
        wait = min(float(query["wait"]), allowed)
        started = time.monotonic()
        if after > head:
            raise InvalidInput("after", f"must be at most the battle's version {head}, got {after}")
        # At least 50 ms between looks at the store, whatever the setting says.
        interval = max(
            0.05, float(getattr(settings, "PENANCE_LIVE_POLL_INTERVAL", LIVE_POLL_INTERVAL))
        )
        while head <= after and time.monotonic() - started + interval <= wait:
            time.sleep(interval)
            head = selectors.battle_head_version(battle=battle)
        if head <= after:
            shown: list[dict[str, Any]] = []
        elif access.role == "watcher":
            shown = watcher_updates(battle=battle, after=after, limit=limit, head=head)
        else:
            shown = _updates(battle, after, limit, head, request.user, access.role)
        waited_ms = int((time.monotonic() - started) * 1000)
        # Nothing new and no wait (a short poll): the page asks again about once a second;
        # after a long poll that timed out it may ask again at once.
        idle_ms = LIVE_SHORT_POLL_AFTER_MS if not shown and wait == 0 else 0
        # UpdatesOutput's shape, its events already rendered by EventOutput.
        out = {
            "version": head,
            "events": shown,
            "more": bool(shown) and shown[-1]["version"] < head,
            "waited_ms": waited_ms,
            "poll_after_ms": idle_ms,
        }
        response = Response(out)
        response["Cache-Control"] = "no-store"
        return response


# Every watcher of a battle sees the same events (no seat's hand, no deck's order while it
# runs, everything once it is over: R-ADD-28), so the live feed renders a watcher's answer
# once per battle, `after`, `limit` and head, in the site's cache (Redis when there is one,
# shared by every web process), for every watcher who asks the same. The GM's and the
# players' answers show a seat's hidden cards: they are never kept, nor read from here.
# The engine's version and this format's are in the key, so a deploy that changes how
# events are upcast or shown does not serve an answer rendered by the code before it.
WATCHER_UPDATES_FORMAT = 1
WATCHER_UPDATES_SECONDS = 300


def watcher_updates_key(*, battle_id: UUID | str, after: int, limit: int, head: int) -> str:
    return (
        f"battles:updates:{WATCHER_UPDATES_FORMAT}:{ENGINE_VERSION}:{battle_id}:"
        f"watcher:{after}:{limit}:{head}"
    )


def watcher_updates(*, battle: Battle, after: int, limit: int, head: int) -> list[dict[str, Any]]:
    """The events after `after` up to `head` (at most `limit`) as a watcher sees them,
    rendered; from the cache when another watcher asked the same. Nothing in the answer
    depends on which watcher asks; what a watcher may ask is checked before (the caller's
    `battle_access`). The cache down costs the rendering, not the answer."""
    key = watcher_updates_key(battle_id=battle.id, after=after, limit=limit, head=head)
    try:
        kept = cache.get(key)
    except Exception:  # the cache unreachable: render the answer here
        kept = None
    if kept is not None:
        return list(kept)
    shown = _updates(battle, after, limit, head, None, "watcher")
    # Only what autocommit reads rendered: inside a transaction the events read could
    # still be rolled back (as selectors keeps its states).
    if connection.get_autocommit():
        # The cache unreachable: the next watcher renders the answer again.
        with contextlib.suppress(Exception):
            cache.set(key, shown, WATCHER_UPDATES_SECONDS)
    return shown


def _updates(
    battle: Battle, after: int, limit: int, head: int, user: Any, role: str
) -> list[dict[str, Any]]:
    """The events after `after` up to `head` (at most `limit`), rendered for one viewer.
    Read up to `head` only, so the answer is the same whenever it is asked."""
    events = selectors.battle_events(battle=battle, after=after, limit=limit, up_to=head)
    if role == "watcher":
        # No seats and no user to look up: a watcher sees what every watcher sees, the
        # whole battle only once it is over (the head state's `over`, R-ADD-28).
        over = selectors.battle_state_at(battle=battle, head=head).over
        viewer = selectors.Viewer("watcher", frozenset(), over)
    else:
        # What the viewer may see needs the head state's `over` for a player (kept, or the
        # nearest snapshot and the events after it).
        viewer = selectors.battle_viewer(battle=battle, user=user, head_version=head, role=role)
    return [dict(e) for e in EventOutput([_event(e, viewer) for e in events], many=True).data]
