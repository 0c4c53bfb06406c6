"""The campaigns API: campaigns, their event stream, players, missions, pilots and
casket builds; thin views over `campaigns.services` and `campaigns.selectors`.

Who may do what (R-ADD-31): anonymous requests are 401. The GM and the campaign's
players read everything in it; anyone else gets 404 for a private campaign (they may
not learn it exists) and 403 for a public one. The GM makes every change, except that
a player creates and revises their own builds. Pilot, build and mission pages are
projections of the campaign's stream.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from django.http import HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from penance_site.api import (
    ConflictOutput,
    ErrorsOutput,
    RefusalOutput,
    SignedInView,
    request_example,
    validated,
)
from penance_site.api_fields import (
    BoardField,
    DirectionField,
    HexField,
    RulesField,
    StrictIntegerField,
    StrictSerializer,
)
from penance_site.api_schema import EndpointSchemas
from penance_site.users import signed_in

from . import access, decklists, domain, selectors, services
from .models import Campaign, CasketBuild, Mission, Pilot

TAGS = ["campaigns"]
ADJUSTMENTS: dict[str, tuple[str, ...]] = {
    # kind -> the fields it needs besides `reason` (R-PLT-1, R-PLT-4, R-TRN-3)
    "taint": ("delta",),
    "treat_trauma": ("wound",),
    "scar": ("scar",),
    "retire": (),
    "sp_modifier": ("sp_modifier",),
}
ADJUSTMENT_FIELDS = ("delta", "wound", "scar", "sp_modifier")
MAX_DECK_ROWS = 200  # a deck has 30 cards (R-ADD-15); more rows than this is no deck
MAX_EQUIPMENT = 50  # a casket's equipment list; past this it is no build, only work

# --- output shapes (rendered through these serializers, and documented by them) -------------------


@extend_schema_field(OpenApiTypes.STR)
class ChoiceText(serializers.ChoiceField):
    """A choice documented as a string listing its values. As an enum, drf-spectacular would
    name it after the field (`status`, `role`, `kind`), and those names already belong to
    the battles' and cards' choice sets: the schema would warn of a collision."""

    def __init__(self, choices: Any, **kwargs: Any) -> None:
        super().__init__(choices, **kwargs)
        values = ", ".join(str(c) for c in self.choices)
        help_text = kwargs.get("help_text")
        self.help_text = f"{help_text}; one of: {values}" if help_text else f"one of: {values}"


# The output serializers read the campaign's folded state (campaigns/domain.py) directly:
# the shapes below are the only description of what the API shows.


class MappingValues(serializers.ListSerializer[Any]):
    """A list of the values of a mapping (the state keeps pilots and builds by id)."""

    def to_representation(self, data: Any) -> list[Any]:
        return super().to_representation(list(data.values()) if isinstance(data, Mapping) else data)


# A row the domain keeps as a tuple, shown as an object whose fields name its items in
# order. (Comments, not docstrings: a serializer's docstring becomes its schema text.)
class TupleRow(serializers.Serializer[Any]):
    def to_representation(self, instance: Any) -> Any:
        if isinstance(instance, tuple):
            instance = dict(zip(self.fields, instance, strict=True))
        return super().to_representation(instance)


class BlankAsNull:
    """The state's "" for "not yet" (a mission's battle, its winner) shown as null."""

    def to_representation(self, value: Any) -> Any:
        return None if value == "" else super().to_representation(value)  # type: ignore[misc]


class OptionalUUIDField(BlankAsNull, serializers.UUIDField):
    pass


class OptionalCharField(BlankAsNull, serializers.CharField):
    pass


class ComponentDamageField(serializers.DictField):
    """(component, damage) pairs as an object in COMPONENTS order (R-ADD-7)."""

    def to_representation(self, value: Any) -> dict[str, Any]:
        return super().to_representation(domain.components_dict(value))


class RoleField(ChoiceText):
    """The requesting user's role, which the view passes in the serializer's context."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=("gm", "player"), source="*", read_only=True, **kwargs)

    def to_representation(self, value: Any) -> str:
        role: str = self.context["role"]
        return role


class PilotWoundOutput(serializers.Serializer[Any]):
    wound = serializers.CharField(help_text="a wound card id, e.g. severe-2 (R-PLT-1)")
    kind = ChoiceText(choices=("severe", "trauma"))
    mission = serializers.CharField(source="mission_id", help_text="the mission it came from")
    battle = serializers.CharField(source="battle_id")


class PilotOutput(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    player = serializers.CharField(help_text="username")
    name = serializers.CharField()
    faction = serializers.CharField(allow_blank=True)
    status = ChoiceText(choices=Pilot.Status.choices)
    taint = serializers.IntegerField(help_text="R-PLT-4")
    taint_overload = serializers.BooleanField(help_text="Taint 10 or more (R-PLT-3)")
    taint_purging = serializers.BooleanField(help_text="Taint 8 or more: purging open (R-PLT-4)")
    sp_modifier = serializers.IntegerField(help_text="-3 to 3 (R-TRN-3)")
    wounds = PilotWoundOutput(many=True, help_text="severe and untreated trauma, oldest first")
    carried_wounds = serializers.ListField(
        child=serializers.CharField(), help_text="face up when the next battle starts (R-PLT-2)"
    )
    scars = serializers.ListField(child=serializers.CharField())
    missions = serializers.ListField(
        child=serializers.CharField(), help_text="the missions the pilot was deployed in"
    )
    withdrawn_from = serializers.ListField(
        child=serializers.CharField(),
        help_text="missions the pilot withdrew from: withdrawn, not defeated (R-TRN-9)",
    )

    class Meta:
        list_serializer_class = MappingValues


class BuildDeckRowOutput(TupleRow):
    card = serializers.CharField()
    version = serializers.IntegerField(help_text="the card version the build pins")
    count = serializers.IntegerField()


class BuildVersionOutput(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    name = serializers.CharField()
    casket_class = serializers.CharField()
    shield = serializers.CharField()
    faction = serializers.CharField(allow_blank=True)
    deck = BuildDeckRowOutput(many=True)
    equipment = serializers.ListField(child=serializers.CharField())
    construction = serializers.CharField(
        allow_blank=True,
        help_text='the rule the deck was checked under: "R-ADD-52" (built from its equipment) '
        'or "" (the older rule, R-ADD-220)',
    )


# A deck row with its card version from the catalogue (context `cards`, by (card, version)).
class BuildCardRowOutput(BuildDeckRowOutput):
    name = serializers.CharField(allow_null=True, help_text="null if the card version is gone")
    kind = serializers.CharField(allow_null=True)
    sp_cost = serializers.IntegerField(allow_null=True)

    def to_representation(self, instance: Any) -> Any:
        card, version, count = instance
        cv = self.context["cards"].get((card, version))
        return {
            "card": card,
            "version": version,
            "count": count,
            "name": cv.name if cv else None,
            "kind": cv.kind if cv else None,
            "sp_cost": cv.sp_cost if cv else None,
        }


@extend_schema_field(OpenApiTypes.UUID)
class BuildIdField(serializers.Field[Any, Any, Any, Any]):
    """The id of the build a version belongs to (context `build`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, value: Any) -> str:
        build_id: str = self.context["build"].id
        return build_id


@extend_schema_field(OpenApiTypes.STR)
class BuildPlayerField(BuildIdField):
    def to_representation(self, value: Any) -> str:
        player: str = self.context["build"].player
        return player


class BuildVersionDetailOutput(BuildVersionOutput):
    build = BuildIdField()
    player = BuildPlayerField()
    deck = BuildCardRowOutput(many=True)


class BuildOutput(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    player = serializers.CharField(help_text="username")
    name = serializers.CharField(source="current.name")
    current_version = serializers.IntegerField(source="current.version")
    pilot = serializers.CharField(
        source="pilot_id", allow_blank=True, help_text='the pilot whose casket it is ("" for none)'
    )
    component_damage = ComponentDamageField(
        child=serializers.IntegerField(),
        help_text="carried until repaired, under persistent_component_damage (R-PLT-5)",
    )
    destroyed = serializers.BooleanField(
        help_text="defeated in a mission under pc-1: it does not deploy until the Workshop's "
        "retrofit rebuilds it (R-ADD-352)"
    )
    versions = BuildVersionOutput(many=True)

    class Meta:
        list_serializer_class = MappingValues


class MissionDeploymentOutput(TupleRow):
    seat = serializers.IntegerField()
    pilot = serializers.UUIDField()
    build = serializers.UUIDField()
    build_version = serializers.IntegerField(help_text="the build version the battle pinned")


class MissionOutput(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    number = serializers.IntegerField(help_text="missions are played in this order (R-PLT-5)")
    name = serializers.CharField()
    status = ChoiceText(choices=Mission.Status.choices)
    battle = OptionalUUIDField(source="battle_id", allow_null=True)
    winner = OptionalCharField(allow_null=True)
    deployments = MissionDeploymentOutput(many=True)


class CampaignSummaryOutput(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    name = serializers.CharField()
    gm = serializers.CharField(help_text="the GM's username")
    private = serializers.BooleanField()
    role = ChoiceText(choices=("gm", "player"), help_text="yours")
    version = serializers.IntegerField(help_text="the campaign stream's version")
    created_at = serializers.DateTimeField()


class CampaignDetailOutput(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    name = serializers.CharField()
    gm = serializers.CharField()
    private = serializers.BooleanField()
    role = RoleField(help_text="yours")
    rules = serializers.JSONField(help_text="the ruleset every mission is played with")
    players = serializers.ListField(child=serializers.CharField())
    version = serializers.IntegerField()
    missions = MissionOutput(many=True)
    pilots = PilotOutput(many=True)
    builds = BuildOutput(many=True)


class CampaignPlayersOutput(serializers.Serializer[Any]):
    players = serializers.ListField(child=serializers.CharField())


class CampaignEventOutput(serializers.Serializer[Any]):
    position = serializers.IntegerField(
        required=False,
        help_text="the event's place in the whole store: staff only (R-ADD-204); others "
        "order events by `version`",
    )
    stream_type = serializers.CharField()
    stream_id = serializers.CharField()
    version = serializers.IntegerField()
    type = serializers.CharField(help_text="PilotWounded, TaintChanged, BuildRevised …")
    schema_version = serializers.IntegerField()
    payload = serializers.JSONField()
    metadata = serializers.JSONField(
        help_text="`actor`, and `adjustment`: true for a GM's correction"
    )
    command_id = serializers.CharField()
    recorded_at = serializers.CharField()
    digest = serializers.CharField()


class CampaignEventsOutput(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    events = CampaignEventOutput(many=True)


class CareerEntryOutput(serializers.Serializer[Any]):
    # A declared field named like Field.source: DRF's metaclass takes declared fields out of
    # the class namespace, which the stubs cannot see.
    source = serializers.ChoiceField(choices=("campaign", "battle"))  # type: ignore[assignment]
    mission = serializers.CharField(allow_null=True)
    battle = serializers.CharField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    role = serializers.CharField(allow_null=True, help_text="attacks: attacker or target")
    position = serializers.IntegerField(
        required=False, help_text="the event's place in the whole store: staff only (R-ADD-204)"
    )
    version = serializers.IntegerField()
    type = serializers.CharField()
    payload = serializers.JSONField()
    recorded_at = serializers.CharField()


class CareerTotalsOutput(serializers.Serializer[Any]):
    missions = serializers.IntegerField()
    attacks_made = serializers.IntegerField()
    attacks_taken = serializers.IntegerField()
    damage_taken = serializers.IntegerField()
    wounds_flipped = serializers.IntegerField()
    wounds_kept = serializers.IntegerField()
    taint = serializers.IntegerField()


class PilotCareerOutput(serializers.Serializer[Any]):
    pilot = PilotOutput()
    totals = CareerTotalsOutput()
    events = CareerEntryOutput(many=True)


class MissionStartOutput(serializers.Serializer[Any]):
    battle = serializers.UUIDField()
    battle_url = serializers.CharField(help_text="the battle in the battles API")
    mission = MissionOutput()


ERRORS = {
    400: OpenApiResponse(ErrorsOutput, "malformed input; `field` names it"),
    401: OpenApiResponse(description="not signed in"),
    403: OpenApiResponse(
        description="not the GM or a player of this (public) campaign, or not allowed this"
    ),
    404: OpenApiResponse(description="no such campaign (or a private one you are not part of)"),
}
READ_ERRORS = {k: v for k, v in ERRORS.items() if k != 400}
WRITE_ERRORS = {
    **ERRORS,
    409: OpenApiResponse(ConflictOutput, "the campaign changed meanwhile; retry"),
    422: OpenApiResponse(RefusalOutput, "the campaign's rules refuse (code, message, rule)"),
}
endpoint = EndpointSchemas(TAGS, READ_ERRORS, WRITE_ERRORS)


# --- input shapes ---------------------------------------------------------------------------------


class StrictBooleanField(serializers.BooleanField):
    """A boolean that must arrive as JSON true or false, not "yes" or 1."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            raise serializers.ValidationError("must be true or false")
        return data


class CampaignCreateInput(StrictSerializer):
    name = serializers.CharField(max_length=services.MAX_TEXT)
    private = StrictBooleanField(
        required=False, help_text="default true: outsiders get 404, not 403"
    )
    rules = RulesField(required=False, help_text='{"version": "2.0", "options": {...}}')
    campaign_rules = serializers.JSONField(
        required=False,
        help_text='between missions: {"version": "pc-1" or "plt-1", "modules": [...]} (R-ADD-230)',
    )


class CampaignPlayerInput(StrictSerializer):
    username = serializers.CharField(max_length=150)


class MissionPlanInput(StrictSerializer):
    name = serializers.CharField(max_length=services.MAX_TEXT)


class MissionSeatInput(StrictSerializer):
    pilot = serializers.UUIDField(help_text="a pilot of the campaign, alive (R-PLT-1)")
    build = serializers.UUIDField(help_text="a build of the pilot's player")
    build_version = StrictIntegerField(
        min_value=1, required=False, help_text="default: the build's current version"
    )
    side = serializers.CharField(max_length=60)
    at = HexField()
    facing = DirectionField()
    # Passed through as sent: the battle setup's check names the rule for a value that is
    # not a boolean (R-ADD-211) and for a bot in a table-dice battle (R-ADD-212).
    bot = serializers.JSONField(
        required=False,
        help_text="true: the server's bot plays this pilot and build; its player watches "
        "(R-ADD-210, R-ADD-335). Not in a table-dice battle (R-ADD-212)",
    )


class MissionStartInput(StrictSerializer):
    board = BoardField(help_text="a board document (FORMATS.md)")
    # many=True makes a ListSerializer, which takes max_length; the stubs type the child.
    seats = MissionSeatInput(many=True, max_length=8)  # type: ignore[call-arg]
    dice = serializers.JSONField(required=False, help_text='{"mode": "digital"|"table", "seed"}')
    policy = serializers.ChoiceField(choices=("prompt", "auto"), required=False)
    name = serializers.CharField(
        required=False, max_length=services.MAX_TEXT, help_text="default: campaign and mission"
    )


class PilotEnlistInput(StrictSerializer):
    player = serializers.CharField(max_length=150, help_text="a player's username")
    name = serializers.CharField(max_length=services.MAX_TEXT)
    faction = serializers.CharField(required=False, allow_blank=True, max_length=60)
    sp_modifier = StrictIntegerField(required=False, help_text="-3 to 3 (R-TRN-3)")


class PilotAdjustmentInput(StrictSerializer):
    kind = ChoiceText(choices=tuple(ADJUSTMENTS))
    delta = StrictIntegerField(required=False, help_text="taint: the change (R-PLT-4)")
    wound = serializers.CharField(required=False, help_text="treat_trauma: a trauma wound id")
    scar = serializers.CharField(required=False, help_text="scar: its description")
    sp_modifier = StrictIntegerField(required=False, help_text="sp_modifier: the new value")
    # Checked by the domain, which cites R-PLT-4 for a missing reason.
    reason = serializers.CharField(allow_blank=True, trim_whitespace=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        needed = ADJUSTMENTS[attrs["kind"]]
        errors = {
            name: [f"required by kind {attrs['kind']}"] for name in needed if name not in attrs
        }
        errors.update(
            {
                name: [f"not used by kind {attrs['kind']}"]
                for name in ADJUSTMENT_FIELDS
                if name in attrs and name not in needed
            }
        )
        if errors:
            raise serializers.ValidationError(errors)
        return attrs


class BuildDeckRowInput(StrictSerializer):
    card = serializers.CharField(max_length=80, help_text="a card id")
    version = StrictIntegerField(
        min_value=1, required=False, help_text="a version of the card; default: its current one"
    )
    count = StrictIntegerField(help_text="copies in the deck (R-TRN-1)")


class BuildInput(StrictSerializer):
    name = serializers.CharField(max_length=services.MAX_TEXT)
    casket_class = serializers.CharField(max_length=20, help_text="light, scout, heavy … (R-TRN-3)")
    shield = serializers.CharField(max_length=10, help_text="left or right (R-ARC-2)")
    faction = serializers.CharField(required=False, allow_blank=True, max_length=60)
    deck = BuildDeckRowInput(  # type: ignore[call-arg]  # a ListSerializer: max_length
        many=True,
        max_length=MAX_DECK_ROWS,
        help_text=f"checked against the ruleset (R-ADD-15); at most {MAX_DECK_ROWS} rows",
    )
    equipment = serializers.ListField(
        child=serializers.CharField(max_length=services.MAX_TEXT),
        required=False,
        max_length=MAX_EQUIPMENT,
        help_text=f"at most {MAX_EQUIPMENT} items",
    )
    player = serializers.CharField(
        required=False,
        max_length=150,
        help_text="whose build: the GM may name any player; a player only themselves",
    )
    pilot = serializers.UUIDField(
        required=False, help_text="the pilot whose casket it is: one of the owner's (R-ADD-220)"
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("pilot") is not None:
            attrs["pilot"] = str(attrs["pilot"])
        return attrs


class DeckListInput(StrictSerializer):
    text = serializers.CharField(
        max_length=20_000, trim_whitespace=False, help_text="a deck list (R-ADD-221)"
    )
    name = serializers.CharField(
        required=False, max_length=services.MAX_TEXT, help_text="default: the list's Name:"
    )
    pilot = serializers.UUIDField(required=False, help_text="for a new build: its pilot")


class BuildRepairInput(StrictSerializer):
    reason = serializers.CharField(allow_blank=True, trim_whitespace=False)


DECK_EXAMPLE = request_example(
    "A build",
    {
        "name": "Penitent Scout",
        "casket_class": "scout",
        "shield": "left",
        "deck": [{"card": "strike", "count": 12}, {"card": "dash", "version": 2, "count": 18}],
    },
)


# --- presentation ---------------------------------------------------------------------------------


def _detail(state: domain.CampaignState, role: str) -> dict[str, Any]:
    return CampaignDetailOutput(state, context={"role": role}).data


# --- views ----------------------------------------------------------------------------------------


def _without_position(event: dict[str, Any], request: Request) -> dict[str, Any]:
    """An event as the user may see it: the store-wide position tells how much happens on
    the whole site, in other campaigns too, so only staff see it (R-ADD-204); a campaign's
    events are ordered by their stream `version`."""
    if request.user.is_staff:
        return event
    return {k: v for k, v in event.items() if k != "position"}


_Found = TypeVar("_Found")


def _found(thing: _Found | None, what: str) -> _Found:
    """`thing`, or a 404 saying the campaign has no such `what`."""
    if thing is None:
        raise NotFound(f"no such {what} in this campaign")
    return thing


class CampaignsView(SignedInView):
    def campaign(self, request: Request, campaign_id: UUID) -> tuple[Campaign, str]:
        """The campaign and the user's role; 404 if none or private and not theirs, 403 if
        public and not theirs (R-ADD-31)."""
        return access.campaign_for(campaign_id=campaign_id, user=request.user)

    def state(self, request: Request, campaign_id: UUID) -> domain.CampaignState:
        """The state of a campaign the user may see (`campaign`'s 404 and 403 first)."""
        campaign, _ = self.campaign(request, campaign_id)
        return selectors.campaign_state(campaign=campaign)

    def gm_input(
        self,
        request: Request,
        campaign_id: UUID,
        serializer_class: type[serializers.Serializer[Any]],
        what: str,
    ) -> tuple[Campaign, dict[str, Any]]:
        """The campaign and the request's valid body, for what only its GM does: the
        campaign's 404 and 403 first, then the GM's 403, then the body's 400."""
        campaign, role = self.campaign(request, campaign_id)
        self.gm_only(role, what)
        return campaign, validated(serializer_class, request.data)

    @staticmethod
    def created(output: type[serializers.Serializer[Any]], made: Any) -> Response:
        """The 201 answer to a write: what it made, as `output` shows it."""
        return Response(output(made).data, status=status.HTTP_201_CREATED)

    @staticmethod
    def gm_only(role: str, what: str) -> None:
        access.gm_only(role, what)

    @staticmethod
    def pilot_of(state: domain.CampaignState, pilot_id: UUID) -> domain.PilotState:
        return _found(state.pilots.get(str(pilot_id)), "pilot")

    @staticmethod
    def build_of(state: domain.CampaignState, build_id: UUID) -> domain.BuildState:
        return _found(state.builds.get(str(build_id)), "build")

    # Before a write, the read-model rows say whether the thing named exists (404); the
    # service then folds the stream once, under the campaign's lock.
    @staticmethod
    def mission_row(campaign: Campaign, mission_id: UUID) -> Mission:
        return _found(selectors.mission_in(campaign=campaign, mission_id=mission_id), "mission")

    @staticmethod
    def pilot_row(campaign: Campaign, pilot_id: UUID) -> None:
        if not selectors.pilot_exists(campaign=campaign, pilot_id=pilot_id):
            raise NotFound("no such pilot in this campaign")

    @staticmethod
    def build_row(campaign: Campaign, build_id: UUID) -> CasketBuild:
        return _found(selectors.build_in(campaign=campaign, build_id=build_id), "build")

    @staticmethod
    def mission_of(state: domain.CampaignState, mission_id: UUID) -> domain.MissionState:
        return _found(next((m for m in state.missions if m.id == str(mission_id)), None), "mission")


class CampaignListView(CampaignsView):
    @endpoint.read(
        "campaigns_list",
        "The campaigns you run or play in, newest first",
        CampaignSummaryOutput(many=True),
        errors={401: ERRORS[401]},
    )
    def get(self, request: Request) -> Response:
        campaigns = selectors.campaign_list_for(user=request.user).select_related("gm")
        rows = [
            {
                "id": c.id,
                "name": c.name,
                "gm": c.gm.get_username(),
                "private": c.private,
                "role": "gm" if c.gm_id == request.user.pk else "player",
                "version": c.version,
                "created_at": c.created_at,
            }
            for c in campaigns
        ]
        return Response(CampaignSummaryOutput(rows, many=True).data)

    @endpoint.write(
        "campaigns_create",
        "Start a campaign; you become its GM",
        CampaignCreateInput,
        CampaignDetailOutput,
        description="The ruleset is fixed for every mission of the campaign (R-PLT-5).",
        errors={400: ERRORS[400], 401: ERRORS[401]},
    )
    def post(self, request: Request) -> Response:
        data = validated(CampaignCreateInput, request.data)
        campaign = services.campaign_create(gm=signed_in(request.user), **data)
        state = selectors.campaign_state(campaign=campaign)
        return Response(_detail(state, "gm"), status=status.HTTP_201_CREATED)


class CampaignDetailView(CampaignsView):
    @endpoint.read(
        "campaigns_retrieve",
        "A campaign: players, missions, pilots and builds, from its stream",
        CampaignDetailOutput,
    )
    def get(self, request: Request, campaign_id: UUID) -> Response:
        campaign, role = self.campaign(request, campaign_id)
        state = selectors.campaign_state(campaign=campaign)
        return Response(_detail(state, role))


class CampaignEventsView(CampaignsView):
    @endpoint.read(
        "campaigns_events",
        "The campaign's event stream",
        CampaignEventsOutput,
        description="GM corrections carry `metadata.adjustment` true (R-PLT-4).",
    )
    def get(self, request: Request, campaign_id: UUID) -> Response:
        campaign, _ = self.campaign(request, campaign_id)
        events = selectors.campaign_events(campaign=campaign)
        out = {
            "version": events[-1].version if events else 0,
            "events": [_without_position(e.as_dict(), request) for e in events],
        }
        return Response(CampaignEventsOutput(out).data)


class CampaignPlayersView(CampaignsView):
    @endpoint.write(
        "campaigns_players_add",
        "Add a player (an existing user) to the campaign (GM only)",
        CampaignPlayerInput,
        CampaignPlayersOutput,
    )
    def post(self, request: Request, campaign_id: UUID) -> Response:
        campaign, data = self.gm_input(request, campaign_id, CampaignPlayerInput, "adds players")
        state = services.campaign_player_add(
            campaign=campaign, actor=signed_in(request.user), username=data["username"]
        )
        out = {"players": list(state.players)}
        return self.created(CampaignPlayersOutput, out)


# --- missions -------------------------------------------------------------------------------------


class MissionListView(CampaignsView):
    @endpoint.read(
        "campaigns_missions_list", "The campaign's missions in order", MissionOutput(many=True)
    )
    def get(self, request: Request, campaign_id: UUID) -> Response:
        state = self.state(request, campaign_id)
        return Response(MissionOutput(state.missions, many=True).data)

    @endpoint.write(
        "campaigns_missions_create",
        "Plan the next mission (GM only)",
        MissionPlanInput,
        MissionOutput,
    )
    def post(self, request: Request, campaign_id: UUID) -> Response:
        campaign, data = self.gm_input(request, campaign_id, MissionPlanInput, "plans missions")
        mission = services.mission_plan(
            campaign=campaign, actor=signed_in(request.user), name=data["name"]
        )
        state = selectors.campaign_state(campaign=campaign)
        return self.created(MissionOutput, self.mission_of(state, mission.id))


class MissionDetailView(CampaignsView):
    @endpoint.read(
        "campaigns_missions_retrieve",
        "A mission: its status, battle and deployments",
        MissionOutput,
    )
    def get(self, request: Request, campaign_id: UUID, mission_id: UUID) -> Response:
        state = self.state(request, campaign_id)
        return Response(MissionOutput(self.mission_of(state, mission_id)).data)


class MissionStartView(CampaignsView):
    @endpoint.write(
        "campaigns_missions_start",
        "Start the mission's battle with the campaign's pilots and builds (GM only)",
        MissionStartInput,
        MissionStartOutput,
        description=(
            "Each seat names a pilot and one of their player's builds (its current version "
            "unless `build_version` is given). Carried wounds start face up (R-PLT-2) and, "
            "under persistent_component_damage, the build's component damage carries over "
            "(R-PLT-5). A dead pilot is a 422 `pilot_dead` (R-PLT-1); missions are played in "
            "order (422 `missions_in_order`)."
        ),
    )
    def post(self, request: Request, campaign_id: UUID, mission_id: UUID) -> Response:
        campaign, role = self.campaign(request, campaign_id)
        mission = self.mission_row(campaign, mission_id)
        self.gm_only(role, "starts missions")
        data = validated(MissionStartInput, request.data)
        seats = [
            {
                **seat,
                "pilot": str(seat["pilot"]),
                "build": str(seat["build"]),
                "at": list(seat["at"]),
            }
            for seat in data.pop("seats")
        ]
        battle = services.mission_start(
            mission=mission, actor=signed_in(request.user), seats=seats, **data
        )
        state = selectors.campaign_state(campaign=campaign)
        out = {
            "battle": battle.pk,
            "battle_url": reverse("battles-detail", kwargs={"battle_id": battle.pk}),
            "mission": self.mission_of(state, mission_id),
        }
        return self.created(MissionStartOutput, out)


# --- pilots ---------------------------------------------------------------------------------------


class PilotListView(CampaignsView):
    @endpoint.read(
        "campaigns_pilots_list",
        "The campaign's pilots, dead and retired ones included",
        PilotOutput(many=True),
    )
    def get(self, request: Request, campaign_id: UUID) -> Response:
        state = self.state(request, campaign_id)
        return Response(PilotOutput(state.pilots, many=True).data)

    @endpoint.write(
        "campaigns_pilots_create",
        "Enlist a pilot for one of the campaign's players (GM only)",
        PilotEnlistInput,
        PilotOutput,
    )
    def post(self, request: Request, campaign_id: UUID) -> Response:
        campaign, data = self.gm_input(request, campaign_id, PilotEnlistInput, "enlists pilots")
        pilot = services.pilot_enlist(campaign=campaign, actor=signed_in(request.user), **data)
        state = selectors.campaign_state(campaign=campaign)
        return self.created(PilotOutput, self.pilot_of(state, pilot.id))


class PilotDetailView(CampaignsView):
    @endpoint.read(
        "campaigns_pilots_retrieve",
        "A pilot: status, Taint, wounds carried, scars (a projection of the stream)",
        PilotOutput,
    )
    def get(self, request: Request, campaign_id: UUID, pilot_id: UUID) -> Response:
        state = self.state(request, campaign_id)
        return Response(PilotOutput(self.pilot_of(state, pilot_id)).data)


class PilotCareerView(CampaignsView):
    @endpoint.read(
        "campaigns_pilots_career",
        "Every event that concerned the pilot across the campaign's battles, with totals",
        PilotCareerOutput,
    )
    def get(self, request: Request, campaign_id: UUID, pilot_id: UUID) -> Response:
        campaign, _ = self.campaign(request, campaign_id)
        career = _found(selectors.pilot_career(campaign=campaign, pilot_id=str(pilot_id)), "pilot")
        career = {
            **career,
            "events": [_without_position(e, request) for e in career["events"]],
        }
        return Response(PilotCareerOutput(career).data)


class PilotAdjustmentsView(CampaignsView):
    @endpoint.write(
        "campaigns_pilots_adjust",
        "A GM's change to a pilot between missions, with a reason (GM only)",
        PilotAdjustmentInput,
        PilotOutput,
        description=(
            "`kind` taint needs `delta` (R-PLT-4), treat_trauma a trauma `wound` (R-PLT-1), "
            "scar a `scar`, sp_modifier the new `sp_modifier` (R-TRN-3); retire nothing more. "
            "Every kind needs a `reason`; the event is marked as an adjustment."
        ),
        examples=[
            request_example(
                "Taint", {"kind": "taint", "delta": -2, "reason": "purged at the shrine"}
            )
        ],
    )
    def post(self, request: Request, campaign_id: UUID, pilot_id: UUID) -> Response:
        campaign, role = self.campaign(request, campaign_id)
        self.pilot_row(campaign, pilot_id)
        self.gm_only(role, "adjusts pilots")
        data = validated(PilotAdjustmentInput, request.data)
        common = {
            "campaign": campaign,
            "actor": request.user,
            "pilot_id": str(pilot_id),
            "reason": data["reason"],
        }
        kind = data["kind"]
        if kind == "taint":
            pilot = services.pilot_taint_adjust(**common, delta=data["delta"])
        elif kind == "treat_trauma":
            pilot = services.pilot_trauma_treat(**common, wound=data["wound"])
        elif kind == "scar":
            pilot = services.pilot_scar_add(**common, scar=data["scar"])
        elif kind == "retire":
            pilot = services.pilot_retire(**common)
        else:
            pilot = services.pilot_sp_modifier_adjust(**common, sp_modifier=data["sp_modifier"])
        return self.created(PilotOutput, pilot)


# --- builds ---------------------------------------------------------------------------------------


class BuildListView(CampaignsView):
    @endpoint.read(
        "campaigns_builds_list",
        "The campaign's casket builds with every version",
        BuildOutput(many=True),
    )
    def get(self, request: Request, campaign_id: UUID) -> Response:
        state = self.state(request, campaign_id)
        return Response(BuildOutput(state.builds, many=True).data)

    @endpoint.write(
        "campaigns_builds_create",
        "Create a casket build: a player for themselves, the GM for any player",
        BuildInput,
        BuildOutput,
        description=(
            "The deck must be legal under the campaign's ruleset (R-ADD-15): a 400 lists "
            "every violation, each with its field (`deck` or `deck[i]`) and rule."
        ),
        examples=[DECK_EXAMPLE],
    )
    def post(self, request: Request, campaign_id: UUID) -> Response:
        campaign, role = self.campaign(request, campaign_id)
        data = validated(BuildInput, request.data)
        player = data.pop("player", None)
        if role != "gm" and player not in (None, request.user.get_username()):
            raise PermissionDenied("players create builds only for themselves (R-ADD-31)")
        build, _ = services.build_revise(
            campaign=campaign, actor=signed_in(request.user), build_id=None, player=player, **data
        )
        state = selectors.campaign_state(campaign=campaign)
        return self.created(BuildOutput, self.build_of(state, build.id))


class BuildDetailView(CampaignsView):
    @endpoint.read(
        "campaigns_builds_retrieve",
        "A casket build with every version and the component damage it carries",
        BuildOutput,
    )
    def get(self, request: Request, campaign_id: UUID, build_id: UUID) -> Response:
        state = self.state(request, campaign_id)
        return Response(BuildOutput(self.build_of(state, build_id)).data)


class BuildRevisionsView(CampaignsView):
    @endpoint.write(
        "campaigns_builds_revise",
        "Write the build's next version (its player or the GM)",
        BuildInput,
        BuildOutput,
        description=(
            "Earlier versions stay as they were: battles pin the version they used. "
            "`player`, if given, must be the build's player. The deck is checked as on "
            "creation (R-ADD-15)."
        ),
        examples=[DECK_EXAMPLE],
    )
    def post(self, request: Request, campaign_id: UUID, build_id: UUID) -> Response:
        campaign, role = self.campaign(request, campaign_id)
        build = self.build_row(campaign, build_id)
        owner = build.player.get_username()
        access.build_editor_only(role=role, owner=owner, user=request.user)
        data = validated(BuildInput, request.data)
        player = data.pop("player", None)
        if player is not None and player != owner:
            raise serializers.ValidationError(
                {"player": [f"the build belongs to {owner}; a build keeps its player"]}
            )
        services.build_revise(
            campaign=campaign, actor=signed_in(request.user), build_id=str(build.id), **data
        )
        state = selectors.campaign_state(campaign=campaign)
        return self.created(BuildOutput, self.build_of(state, build_id))


class BuildVersionView(CampaignsView):
    @endpoint.read(
        "campaigns_builds_version",
        "One version of a build, its deck rows with the cards' names, kinds and SP costs",
        BuildVersionDetailOutput,
    )
    def get(self, request: Request, campaign_id: UUID, build_id: UUID, version: int) -> Response:
        build = self.build_of(self.state(request, campaign_id), build_id)
        if not 1 <= version <= len(build.versions):
            raise NotFound(f"the build has no version {version}")
        chosen = build.versions[version - 1]
        cards = selectors.deck_card_versions(deck=chosen.deck)
        out = BuildVersionDetailOutput(chosen, context={"build": build, "cards": cards}).data
        return Response(out)


class BuildRepairView(CampaignsView):
    @endpoint.write(
        "campaigns_builds_repair",
        "Repair the component damage a build carries (GM only, R-PLT-5)",
        BuildRepairInput,
        BuildOutput,
    )
    def post(self, request: Request, campaign_id: UUID, build_id: UUID) -> Response:
        campaign, role = self.campaign(request, campaign_id)
        self.build_row(campaign, build_id)
        self.gm_only(role, "repairs caskets")
        data = validated(BuildRepairInput, request.data)
        build = services.build_repair(
            campaign=campaign,
            actor=signed_in(request.user),
            build_id=str(build_id),
            reason=data["reason"],
        )
        return self.created(BuildOutput, build)


DECKLIST_ERRORS = (
    "A 400 names every bad line: `field` is `line N` (its number in the text), with the "
    "message and the ruling (R-ADD-221; R-ADD-52 for construction); nothing is written."
)


class BuildDeckListView(CampaignsView):
    @endpoint.read(
        "campaigns_builds_decklist",
        "The build's current deck list as text (R-ADD-221)",
        OpenApiTypes.STR,
        status=(200, "text/plain"),
    )
    def get(self, request: Request, campaign_id: UUID, build_id: UUID) -> HttpResponse:
        build = self.build_of(self.state(request, campaign_id), build_id)
        text = decklists.decklist_text(version=build.current)
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        filename = "".join(ch if ch.isalnum() else "-" for ch in build.current.name) or "deck"
        response["Content-Disposition"] = f'inline; filename="{filename}.txt"'
        return response

    @endpoint.write(
        "campaigns_builds_decklist_import",
        "Write the build's next version from a deck list (its player or the GM)",
        DeckListInput,
        BuildOutput,
        description=DECKLIST_ERRORS,
    )
    def post(self, request: Request, campaign_id: UUID, build_id: UUID) -> Response:
        campaign, role = self.campaign(request, campaign_id)
        build = self.build_row(campaign, build_id)
        access.build_editor_only(role=role, owner=build.player.get_username(), user=request.user)
        return _decklist_import(self, request, campaign, str(build.id))


class DeckListImportView(CampaignsView):
    @endpoint.write(
        "campaigns_builds_decklist_create",
        "Create a build from a deck list (a player for themselves)",
        DeckListInput,
        BuildOutput,
        description=DECKLIST_ERRORS,
    )
    def post(self, request: Request, campaign_id: UUID) -> Response:
        campaign, _ = self.campaign(request, campaign_id)
        return _decklist_import(self, request, campaign, None)


def _decklist_import(
    view: CampaignsView, request: Request, campaign: Campaign, build_id: str | None
) -> Response:
    """A deck list into a new build or the build's next version (R-ADD-221): 201 with the
    build, or 400 naming every bad line."""
    data = validated(DeckListInput, request.data)
    build, _ = decklists.build_decklist_import(
        campaign=campaign,
        actor=signed_in(request.user),
        text=data["text"],
        build_id=build_id,
        name=data.get("name", ""),
        pilot=str(data["pilot"]) if data.get("pilot") else None,
    )
    state = selectors.campaign_state(campaign=campaign)
    return view.created(BuildOutput, view.build_of(state, build.id))
