"""The cards API (campaigns/cards_api.py): everyone signed in reads the catalogue and checks
decks; staff write cards (versions pinned by battles stay as they were); every 400 names
the field."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import include, path
from drf_spectacular.generators import SchemaGenerator

from battles.engine.demo import DEMO_CARDS, DEMO_DECKS
from campaigns import cards_api
from campaigns.catalogue import card_save, catalogue_load_demo
from campaigns.models import Card, CardVersion
from tests.campaigns.test_catalogue import JAB, deploy, jab

# The lead mounts the API under /api/; the tests mount it the same way on their own.
urlpatterns = [path("api/", include("campaigns.cards_api"))]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


@pytest.fixture
def anonymous() -> Client:
    return Client()


@pytest.fixture
def user(django_user_model: type[User]) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_user(username="reader"))
    return client


@pytest.fixture
def staff(django_user_model: type[User]) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_user(username="editor", is_staff=True))
    return client


def send(client: Client, method: str, url: str, body: Any) -> Any:
    data = body if isinstance(body, str) else json.dumps(body)
    return getattr(client, method)(url, data=data, content_type="application/json")


def fields_of(response: Any) -> list[str | None]:
    assert response.status_code == 400, response.content
    return [e["field"] for e in response.json()["errors"]]


def demo_deck(name: str = "penitent-scout") -> list[dict[str, Any]]:
    return [{"card": card_id, "count": n} for card_id, n in DEMO_DECKS[name]]


# --- who may do what -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("get", "/api/cards/", None),
        ("get", "/api/cards/pyre-lance/", None),
        ("get", "/api/cards/pyre-lance/versions/1/", None),
        ("post", "/api/cards/", {"id": "x", **JAB}),
        ("put", "/api/cards/pyre-lance/", JAB),
        ("post", "/api/cards/validate-deck", {"deck": []}),
    ],
)
def test_anonymous_requests_are_401(anonymous: Client, method: str, url: str, body: Any) -> None:
    catalogue_load_demo()
    response = send(anonymous, method, url, body) if body else anonymous.get(url)
    assert response.status_code == 401


def test_a_user_who_is_not_staff_cannot_write_cards(user: Client) -> None:
    catalogue_load_demo()
    before = list(CardVersion.objects.order_by("pk").values())
    assert send(user, "post", "/api/cards/", {"id": "rust-tooth-jab", **JAB}).status_code == 403
    assert send(user, "put", "/api/cards/pyre-lance/", JAB).status_code == 403
    assert list(CardVersion.objects.order_by("pk").values()) == before


# --- reading -------------------------------------------------------------------------------------


def test_users_read_the_catalogue_by_id(user: Client) -> None:
    catalogue_load_demo()
    response = user.get("/api/cards/")
    assert response.status_code == 200
    cards = response.json()
    assert [c["id"] for c in cards] == sorted(c.id for c in DEMO_CARDS)
    lance = next(c for c in cards if c["id"] == "pyre-lance")
    assert lance["version"] == 1 and lance["range"] == "2-8"
    assert lance["effects"][0]["kind"] == "attack"


def test_the_catalogue_filters_by_faction_kind_automation_and_text(user: Client) -> None:
    card_save(card_id="rust-tooth-jab", fields=JAB, source="t")
    card_save(
        card_id="hymn",
        fields={"name": "Hymn", "kind": "other", "sp_cost": 0, "text": "Sing the litany."},
        source="t",
    )

    def ids(query: str) -> list[str]:
        response = user.get("/api/cards/" + query)
        assert response.status_code == 200, response.content
        return [c["id"] for c in response.json()]

    assert ids("?faction=church") == ["rust-tooth-jab"]
    assert ids("?faction=") == ["hymn"]
    assert ids("?kind=other") == ["hymn"]
    assert ids("?automated=true") == ["rust-tooth-jab"]
    assert ids("?automated=false") == ["hymn"]
    assert ids("?q=litany") == ["hymn"]
    assert ids("?q=melee") == ["rust-tooth-jab"]
    assert ids("?q=JAB") == ["rust-tooth-jab"]
    assert fields_of(user.get("/api/cards/?kind=spell")) == ["kind"]
    assert fields_of(user.get("/api/cards/?automated=maybe")) == ["automated"]


def test_a_card_shows_its_current_version_and_every_version(user: Client) -> None:
    v1, _ = card_save(card_id="rust-tooth-jab", fields=JAB, source="t")
    deploy([v1])
    card_save(card_id="rust-tooth-jab", fields=jab(sp_cost=2), source="errata")
    body = user.get("/api/cards/rust-tooth-jab/").json()
    assert (body["version"], body["sp_cost"], body["source"]) == (2, 2, "errata")
    assert [(v["version"], v["in_use"]) for v in body["versions"]] == [(1, True), (2, False)]
    old = user.get("/api/cards/rust-tooth-jab/versions/1/")
    assert old.status_code == 200
    assert (old.json()["version"], old.json()["sp_cost"]) == (1, 1)


def test_unknown_cards_and_versions_are_404(user: Client) -> None:
    card_save(card_id="rust-tooth-jab", fields=JAB, source="t")
    assert user.get("/api/cards/plasma-sword/").status_code == 404
    assert user.get("/api/cards/rust-tooth-jab/versions/2/").status_code == 404


# --- writing -------------------------------------------------------------------------------------


def test_staff_create_a_card(staff: Client) -> None:
    response = send(staff, "post", "/api/cards/", {"id": "rust-tooth-jab", **JAB})
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["id"], body["version"], body["outcome"]) == ("rust-tooth-jab", 1, "created")
    assert body["source"] == "API (editor)"
    assert CardVersion.objects.get().copies_per_deck == 3


def test_creating_a_card_that_exists_is_a_400_naming_the_id(staff: Client) -> None:
    card_save(card_id="rust-tooth-jab", fields=JAB, source="t")
    response = send(staff, "post", "/api/cards/", {"id": "rust-tooth-jab", **JAB})
    assert fields_of(response) == ["id"]


def test_staff_change_an_unused_card_in_place(staff: Client) -> None:
    card_save(card_id="rust-tooth-jab", fields=JAB, source="t")
    response = send(staff, "put", "/api/cards/rust-tooth-jab/", {**jab(sp_cost=2), "source": "s"})
    assert response.status_code == 200, response.content
    assert (response.json()["outcome"], response.json()["version"]) == ("updated", 1)
    assert list(CardVersion.objects.values_list("version", "sp_cost", "source")) == [(1, 2, "s")]
    again = send(staff, "put", "/api/cards/rust-tooth-jab/", {**jab(sp_cost=2), "source": "s"})
    assert again.json()["outcome"] == "unchanged"


def test_staff_changing_a_card_a_battle_used_make_a_new_version(staff: Client) -> None:
    v1, _ = card_save(card_id="rust-tooth-jab", fields=JAB, source="t")
    deploy([v1])
    response = send(staff, "put", "/api/cards/rust-tooth-jab/", jab(sp_cost=2))
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["outcome"], body["version"], body["sp_cost"]) == ("new_version", 2, 2)
    v1.refresh_from_db()
    assert v1.sp_cost == 1
    assert Card.objects.get().current_version == 2


def test_changing_an_unknown_card_is_404(staff: Client) -> None:
    assert send(staff, "put", "/api/cards/plasma-sword/", JAB).status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (jab(sp_cost="3"), "sp_cost"),
        (jab(kind="spell"), "kind"),
        (jab(effects=[{"kind": "move", "hexes": 0}]), "effects[0].hexes"),
        (jab(range="far"), "range"),
        (jab(copies_per_deck=0), "copies_per_deck"),
        (jab(colour="red"), "colour"),
        ({k: v for k, v in JAB.items() if k != "name"}, "name"),
        (jab(source=7), "source"),
        ({**JAB, "id": "other-card"}, "id"),
        ([JAB], "card"),
    ],
)
def test_bad_card_input_is_a_400_naming_the_field(staff: Client, body: Any, field: str) -> None:
    card_save(card_id="rust-tooth-jab", fields=JAB, source="t")
    response = send(staff, "put", "/api/cards/rust-tooth-jab/", body)
    assert fields_of(response) == [field]
    assert CardVersion.objects.get().sp_cost == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"id": "Bad Id", **JAB}, "id"),
        (JAB, "id"),
        ({"id": "rust-tooth-jab", **jab(effects=[{"kind": "blink"}])}, "effects[0].kind"),
    ],
)
def test_bad_new_cards_are_a_400_naming_the_field(staff: Client, body: Any, field: str) -> None:
    assert fields_of(send(staff, "post", "/api/cards/", body)) == [field]
    assert not Card.objects.exists()


def test_a_body_that_is_not_json_is_a_400(staff: Client) -> None:
    response = send(staff, "post", "/api/cards/", "{not json")
    assert response.status_code == 400


# --- deck checks ---------------------------------------------------------------------------------


def test_a_legal_deck_is_valid(user: Client) -> None:
    catalogue_load_demo()
    body = {"rules": {"version": "2.0"}, "deck": demo_deck()}
    response = send(user, "post", "/api/cards/validate-deck", body)
    assert response.status_code == 200, response.content
    assert response.json() == {"valid": True, "problems": []}


def test_a_deck_with_problems_lists_each_with_its_rule(user: Client) -> None:
    catalogue_load_demo()
    deck = demo_deck()
    deck[0]["count"] += 1
    deck.append({"card": deck[1]["card"], "version": 1, "count": 1})
    CardVersion.objects.filter(card_id=deck[0]["card"]).update(copies_per_deck=2)
    response = send(user, "post", "/api/cards/validate-deck", {"deck": deck})
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is False
    assert [(p["code"], p["rule"], p["index"]) for p in body["problems"]] == [
        ("too_many_copies", "R-ADD-29", 0),
        ("duplicate_card", "R-TRN-1", len(deck) - 1),
        ("deck_size", "R-TRN-1", None),
    ]


def test_a_deck_pins_the_versions_it_names(user: Client) -> None:
    v1, _ = card_save(card_id="rust-tooth-jab", fields=JAB, source="t")
    deploy([v1])
    card_save(card_id="rust-tooth-jab", fields=jab(copies_per_deck=1), source="t")
    deck = [{"card": "rust-tooth-jab", "version": 1, "count": 3}]
    old = send(user, "post", "/api/cards/validate-deck", {"deck": deck}).json()
    assert [p["code"] for p in old["problems"]] == ["deck_size"]
    current = [{"card": "rust-tooth-jab", "count": 3}]
    new = send(user, "post", "/api/cards/validate-deck", {"deck": current}).json()
    assert [p["code"] for p in new["problems"]] == ["too_many_copies", "deck_size"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"deck": [{"card": "plasma-sword", "count": 1}]}, "deck[0].card"),
        ({"deck": [{"card": "pyre-lance", "version": 9, "count": 1}]}, "deck[0].version"),
        ({"deck": [{"card": "pyre-lance", "count": "4"}]}, "deck[0].count"),
        ({"deck": [{"card": "pyre-lance", "count": 4, "foil": True}]}, "deck[0].foil"),
        ({"deck": [{"card": "pyre-lance"}]}, "deck[0].count"),
        ({"rules": {"version": "1.0"}, "deck": []}, "rules.version"),
        ({"deck": "pyre-lance"}, "deck"),
        ({}, "deck"),
        ({"deck": [], "sideboard": []}, "sideboard"),
    ],
)
def test_a_malformed_deck_check_is_a_400_naming_the_field(
    user: Client, body: Any, field: str
) -> None:
    catalogue_load_demo()
    assert fields_of(send(user, "post", "/api/cards/validate-deck", body)) == [field]


def test_a_deck_with_a_count_below_one_is_a_problem_not_an_error(user: Client) -> None:
    catalogue_load_demo()
    deck = [{"card": "pyre-lance", "count": 0}]
    body = send(user, "post", "/api/cards/validate-deck", {"deck": deck}).json()
    assert [p["code"] for p in body["problems"]] == ["bad_count", "deck_size"]


# --- schema --------------------------------------------------------------------------------------


def test_every_cards_endpoint_is_in_the_openapi_schema() -> None:
    schema = SchemaGenerator(patterns=urlpatterns).get_schema(request=None, public=True)
    operations = {
        op["operationId"]
        for item in schema["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    assert operations == {
        "cards_list",
        "cards_create",
        "cards_retrieve",
        "cards_update",
        "cards_version",
        "cards_validate_deck",
    }
    assert "CardCreateRequest" in schema["components"]["schemas"]
    assert cards_api.urlpatterns
