"""The card catalogue API: cards and their versions, and deck checks.

Any signed-in user reads the catalogue and checks decks; only staff create and change
cards, always through `catalogue.card_save` (a version a battle used is never changed:
the change becomes the card's next version). Anonymous requests are 401, other users'
writes 403, and every 400 names the field (and the rule where one applies).

The lead mounts `urlpatterns` under /api/.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from battles.engine.cards import CARD_KINDS
from battles.engine.errors import InvalidInput
from battles.engine.ruleset import parse_ruleset
from penance_site.api import ErrorsOutput, SignedInView, request_example, validated
from penance_site.api_fields import RulesField, StrictIntegerField, StrictSerializer
from penance_site.api_schema import EndpointSchemas

from . import access, catalogue
from .models import Card, CardVersion

TAGS = ["cards"]
MAX_DECK_ROWS = 200  # a deck has 30 cards (R-ADD-15); more rows than this is no deck

# --- output shapes --------------------------------------------------------------------------------


class CardVersionOutput(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="the card's slug")
    version = serializers.IntegerField()
    name = serializers.CharField()
    faction = serializers.CharField(allow_blank=True)
    card_type = serializers.CharField(allow_blank=True, help_text="the card database's type")
    kind = serializers.ChoiceField(choices=CARD_KINDS)
    sp_cost = serializers.IntegerField()
    range = serializers.CharField(allow_blank=True, help_text="Melee, Self, N or A-B (R-RNG-2)")
    damage = serializers.IntegerField(allow_null=True)
    heat = serializers.IntegerField()
    keywords = serializers.ListField(child=serializers.CharField())
    text = serializers.CharField(allow_blank=True)
    shield = serializers.BooleanField()
    effects = serializers.ListField(
        child=serializers.JSONField(), help_text="effects in the engine's vocabulary"
    )
    automated = serializers.BooleanField(
        help_text="false: the players resolve the text beyond the effects (R-ADD-14)"
    )
    copies_per_deck = serializers.IntegerField(
        allow_null=True, help_text="most copies one deck may hold (R-ADD-29)"
    )
    # A declared field named like Field.source: DRF's metaclass takes declared fields out of
    # the class namespace, which the stubs cannot see.
    source = serializers.CharField(allow_blank=True)  # type: ignore[assignment]
    created_at = serializers.DateTimeField()


class VersionSummaryOutput(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    # A declared field named like Field.source: DRF's metaclass takes declared fields out of
    # the class namespace, which the stubs cannot see.
    source = serializers.CharField(allow_blank=True)  # type: ignore[assignment]
    created_at = serializers.DateTimeField()
    in_use = serializers.BooleanField(help_text="a battle used it: it never changes again")


class CardDetailOutput(CardVersionOutput):
    versions = VersionSummaryOutput(many=True)


class CardWriteOutput(CardDetailOutput):
    outcome = serializers.ChoiceField(choices=catalogue.OUTCOMES)


class DeckProblemOutput(serializers.Serializer[Any]):
    code = serializers.CharField()
    message = serializers.CharField()
    rule = serializers.CharField()
    index = serializers.IntegerField(allow_null=True, help_text="the deck row; null: whole deck")


class DeckCheckOutput(serializers.Serializer[Any]):
    valid = serializers.BooleanField()
    problems = DeckProblemOutput(many=True)


ERRORS = {
    400: OpenApiResponse(ErrorsOutput, "malformed input; `field` names it"),
    401: OpenApiResponse(description="not signed in"),
}
FORBIDDEN = {403: OpenApiResponse(description="only staff change the catalogue")}
NOT_FOUND = {404: OpenApiResponse(description="no such card or version")}
endpoint = EndpointSchemas(TAGS, ERRORS, {**ERRORS, **FORBIDDEN})


# --- input shapes ---------------------------------------------------------------------------------


class CardFieldsInput(StrictSerializer):
    """A card's content. Unknown fields are a 400; the values are checked by the engine
    (`catalogue.card_content_clean`), which names the faulty field."""

    name = serializers.CharField(max_length=120)
    faction = serializers.CharField(required=False, allow_blank=True, max_length=60)
    card_type = serializers.CharField(required=False, allow_blank=True, max_length=60)
    kind = serializers.ChoiceField(choices=CARD_KINDS)
    sp_cost = serializers.IntegerField(min_value=0, max_value=99)
    range = serializers.CharField(
        required=False, allow_blank=True, allow_null=True, help_text="Melee, Self, N or A-B"
    )
    damage = serializers.IntegerField(required=False, allow_null=True)
    heat = serializers.IntegerField(required=False, default=0)
    keywords = serializers.ListField(child=serializers.CharField(), required=False)
    text = serializers.CharField(required=False, allow_blank=True)
    shield = serializers.BooleanField(required=False, default=False)
    effects = serializers.ListField(
        child=serializers.JSONField(),
        required=False,
        help_text="effects in the engine's vocabulary; none with automated false: a manual card",
    )
    automated = serializers.BooleanField(required=False, default=False)
    copies_per_deck = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=catalogue.MAX_COPIES
    )
    source = serializers.CharField(  # type: ignore[assignment]  # a field named source: see above
        required=False, max_length=200, help_text="where the card comes from; default: the API"
    )

    def to_internal_value(self, data: Any) -> Any:
        # Only the shape is checked here; the values go to the engine as they came, so that
        # "3" is not quietly taken for 3 and every fault is named the engine's way.
        if not isinstance(data, dict):
            raise InvalidInput("card", "must be an object of card fields")
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            raise InvalidInput(unknown[0], f"unknown field; allowed: {', '.join(self.fields)}")
        return dict(data)

    def to_representation(self, instance: Any) -> Any:
        return instance


@extend_schema_serializer(component_name="CardCreateRequest")
class CardCreateInput(CardFieldsInput):
    id = serializers.SlugField(max_length=80, help_text="the card's slug, e.g. pyre-lance")


@extend_schema_serializer(component_name="CardChangeRequest")
class CardChangeInput(CardFieldsInput):
    id = serializers.SlugField(required=False, help_text="if given, the card's own id")


class DeckRowInput(StrictSerializer):
    card = serializers.CharField(max_length=80, help_text="a card id")
    version = StrictIntegerField(
        min_value=1, required=False, help_text="a version of the card; default: its current one"
    )
    count = StrictIntegerField(help_text="copies in the deck")


@extend_schema_serializer(component_name="DeckCheckRequest")
class DeckCheckInput(StrictSerializer):
    rules = RulesField(required=False, help_text='{"version": "2.0", "options": {...}}')
    # many=True makes a ListSerializer, which takes max_length; the stubs type the child.
    deck = DeckRowInput(many=True, max_length=MAX_DECK_ROWS)  # type: ignore[call-arg]


# --- presentation ---------------------------------------------------------------------------------


def _version_out(v: CardVersion) -> dict[str, Any]:
    return {
        "id": v.card_id,
        "version": v.version,
        **catalogue.card_version_content(v),
        "source": v.source,
        "created_at": v.created_at,
    }


def _detail(card: Card, outcome: str | None = None) -> dict[str, Any]:
    versions = list(catalogue.card_versions_of(card=card))
    current = next(v for v in versions if v.version == card.current_version)
    out = _version_out(current)
    out["versions"] = [
        {
            "version": v.version,
            "source": v.source,
            "created_at": v.created_at,
            "in_use": catalogue.card_version_in_use(v),
        }
        for v in versions
    ]
    if outcome is None:
        return CardDetailOutput(out).data
    out["outcome"] = outcome
    return CardWriteOutput(out).data


# --- views ----------------------------------------------------------------------------------------


class CardsView(SignedInView):
    def staff_only(self, request: Request) -> None:
        access.staff_only(request.user)

    def save(self, request: Request, card_id: str, data: dict[str, Any]) -> tuple[Card, str]:
        fields = {k: v for k, v in data.items() if k not in ("id", "source")}
        source = data.get("source", f"API ({request.user.get_username()})")
        _, outcome = catalogue.card_save(
            card_id=card_id, fields=fields, source=source, actor=request.user
        )
        return Card.objects.get(pk=card_id), outcome


class CardListView(CardsView):
    class QuerySerializer(serializers.Serializer[Any]):
        faction = serializers.CharField(required=False, allow_blank=True)
        kind = serializers.ChoiceField(choices=CARD_KINDS, required=False)
        automated = serializers.ChoiceField(choices=("true", "false"), required=False)
        q = serializers.CharField(
            required=False, max_length=100, help_text="in id, name, keywords or text"
        )

    @endpoint.read(
        "cards_list",
        "The catalogue: every card's current version, by id",
        CardVersionOutput(many=True),
        parameters=[QuerySerializer],
    )
    def get(self, request: Request) -> Response:
        params = validated(self.QuerySerializer, request.query_params)
        automated = params.get("automated")
        versions = catalogue.card_versions_current(
            faction=params.get("faction"),
            kind=params.get("kind"),
            automated=None if automated is None else automated == "true",
            q=params.get("q"),
        )
        return Response(CardVersionOutput([_version_out(v) for v in versions], many=True).data)

    @endpoint.write(
        "cards_create",
        "Add a card to the catalogue (staff)",
        CardCreateInput,
        CardWriteOutput,
        examples=[
            request_example(
                "An automated melee attack",
                {
                    "id": "rust-tooth-jab",
                    "name": "Rust-Tooth Jab",
                    "kind": "primary_weapon",
                    "sp_cost": 1,
                    "range": "Melee",
                    "damage": 2,
                    "text": "Deal 2 damage.",
                    "effects": [{"kind": "attack", "range": "Melee", "damage": 2}],
                    "automated": True,
                    "copies_per_deck": 3,
                },
            )
        ],
    )
    def post(self, request: Request) -> Response:
        self.staff_only(request)
        data = validated(CardCreateInput, request.data)
        card_id = data.get("id")
        if card_id is None:
            raise InvalidInput("id", "required")
        if isinstance(card_id, str) and Card.objects.filter(pk=card_id).exists():
            raise InvalidInput("id", f"card {card_id!r} exists; change it with PUT")
        card, outcome = self.save(request, card_id, data)
        return Response(_detail(card, outcome), status=status.HTTP_201_CREATED)


class CardDetailView(CardsView):
    @endpoint.read(
        "cards_retrieve",
        "A card's current version and the list of its versions",
        CardDetailOutput,
        errors={**ERRORS, **NOT_FOUND},
    )
    def get(self, request: Request, card_id: str) -> Response:
        return Response(_detail(get_object_or_404(Card, pk=card_id)))

    @endpoint.write(
        "cards_update",
        "Change a card (staff): its whole content",
        CardChangeInput,
        CardWriteOutput,
        description=(
            "Fields left out take their defaults. A current version that a battle used is "
            "kept and the change becomes the next version (`new_version`); otherwise the "
            "current version changes (`updated`); the same content writes nothing "
            "(`unchanged`)."
        ),
        status=200,
        errors={**ERRORS, **FORBIDDEN, **NOT_FOUND},
    )
    def put(self, request: Request, card_id: str) -> Response:
        self.staff_only(request)
        card = get_object_or_404(Card, pk=card_id)
        data = validated(CardChangeInput, request.data)
        if "id" in data and data["id"] != card.pk:
            raise InvalidInput("id", f"must be the card's own id {card.pk!r} or left out")
        card, outcome = self.save(request, card.pk, data)
        return Response(_detail(card, outcome))


class CardVersionView(CardsView):
    @endpoint.read(
        "cards_version",
        "One version of a card, as decks and battles pinned it",
        CardVersionOutput,
        errors={**ERRORS, **NOT_FOUND},
    )
    def get(self, request: Request, card_id: str, version: int) -> Response:
        v = get_object_or_404(CardVersion, card_id=card_id, version=version)
        return Response(CardVersionOutput(_version_out(v)).data)


class DeckCheckView(CardsView):
    @endpoint.write(
        "cards_validate_deck",
        "Check a deck of card versions against the construction rules",
        DeckCheckInput,
        DeckCheckOutput,
        description=(
            "Each problem has a code, a message, its rule and its row (`index`; null for "
            "the whole deck): deck size (R-ADD-15, 30 cards in ruleset 2.0), counts, "
            "duplicates, the Damage card, copies per deck (R-ADD-29). Unknown cards or "
            "versions are a 400 naming `deck[i].card` or `deck[i].version`."
        ),
        examples=[
            request_example(
                "Two rows",
                {
                    "rules": {"version": "2.0"},
                    "deck": [
                        {"card": "pyre-lance", "version": 1, "count": 4},
                        {"card": "litany-carbine", "count": 26},
                    ],
                },
            )
        ],
        status=200,
        errors=ERRORS,
    )
    def post(self, request: Request) -> Response:
        data = validated(DeckCheckInput, request.data)
        ruleset = parse_ruleset(data.get("rules"), "rules")
        rows = catalogue.card_rows_for(
            (row["card"], row["count"], row.get("version")) for row in data["deck"]
        )
        problems = catalogue.deck_problems(rows, ruleset)
        out = {"valid": not problems, "problems": [p.as_dict() for p in problems]}
        return Response(DeckCheckOutput(out).data)


urlpatterns = [
    path("cards/", CardListView.as_view(), name="cards"),
    path("cards/validate-deck", DeckCheckView.as_view(), name="cards-validate-deck"),
    path("cards/<slug:card_id>/", CardDetailView.as_view(), name="cards-detail"),
    path(
        "cards/<slug:card_id>/versions/<int:version>/",
        CardVersionView.as_view(),
        name="cards-version",
    ),
]
