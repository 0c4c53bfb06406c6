"""Table dice mode through the API (issue 13, R-ADD-18): the faces and cards a table reports
are checked exactly as the engine checks them, and every refusal names the field at fault,
what it allows and the ruling; nothing is recorded."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from battles.engine.demo import demo_setup
from penance_site.eventstore.store import StreamRef, read_stream
from tests.battles.api_calls import post, send, version

pytestmark = pytest.mark.django_db


@pytest.fixture
def clients(django_user_model: type[User]) -> dict[str, Client]:
    out = {}
    for name in ("gm", "alice", "bob"):
        c = Client()
        c.force_login(django_user_model.objects.create_user(username=name))
        out[name] = c
    return out


def new_battle(clients: dict[str, Client], mode: str) -> str:
    setup = demo_setup(players=("alice", "bob"))
    setup["dice"] = {"mode": mode}
    response = post(clients["gm"], "/api/battles/", setup)
    assert response.status_code == 201, response.content
    return str(response.json()["id"])


@pytest.fixture
def table(clients: dict[str, Client]) -> str:
    """A table battle: both seats' mulligan prompts open, no card dealt yet (R-TRN-1)."""
    return new_battle(clients, "table")


def deck(clients: dict[str, Client], bid: str, seat: int) -> list[str]:
    """The seat's deck as the GM sees it (unordered at a table: only the table knows)."""
    return list(clients["gm"].get(f"/api/battles/{bid}/").json()["state"]["seats"][seat]["deck"])


def refused(response: Any, bid: str, before: int, status: int = 422) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert version(bid) == before, "a refused command records nothing"
    body: dict[str, Any] = response.json()
    return body


def kept_seat_0(clients: dict[str, Client], bid: str) -> None:
    sent = send(
        clients["alice"], bid, {"type": "keep_hand", "seat": 0, "drawn": deck(clients, bid, 0)[:6]}
    )
    assert sent.status_code == 201, sent.content


# --- cards reported (`drawn`) --------------------------------------------------------------------


def test_a_hand_dealt_at_the_table_must_be_reported(clients: dict[str, Client], table: str) -> None:
    before = version(table)
    body = refused(send(clients["alice"], table, {"type": "keep_hand", "seat": 0}), table, before)
    assert (body["code"], body["field"], body["rule"]) == ("cards_not_reported", "drawn", "R-TRN-1")
    assert "takes 6 card(s)" in body["message"] and "reported 0 in all" in body["message"]
    assert "card id" in body["allowed"]


def test_too_few_cards_say_how_many_were_reported(clients: dict[str, Client], table: str) -> None:
    before = version(table)
    five = deck(clients, table, 0)[:5]
    response = send(clients["alice"], table, {"type": "keep_hand", "seat": 0, "drawn": five})
    body = refused(response, table, before)
    assert (body["code"], body["field"]) == ("cards_not_reported", "drawn")
    assert "reported 5 in all" in body["message"]


def test_a_card_not_in_the_pile_is_named_by_its_place(
    clients: dict[str, Client], table: str
) -> None:
    before = version(table)
    drawn = [*deck(clients, table, 0)[:5], "censer-maul"]  # seat 1's weapon, not in seat 0's deck
    response = send(clients["alice"], table, {"type": "keep_hand", "seat": 0, "drawn": drawn})
    body = refused(response, table, before)
    assert (body["code"], body["field"], body["rule"]) == (
        "card_not_in_deck",
        "drawn[5]",
        "R-TRN-1",
    )
    assert "'censer-maul'" in body["message"]


def test_cards_reported_but_not_taken_are_refused(clients: dict[str, Client], table: str) -> None:
    before = version(table)
    drawn = deck(clients, table, 0)[:7]
    response = send(clients["alice"], table, {"type": "keep_hand", "seat": 0, "drawn": drawn})
    body = refused(response, table, before)
    assert (body["code"], body["field"], body["rule"]) == (
        "unused_cards_reported",
        "drawn",
        "R-ADD-18",
    )


@pytest.mark.parametrize(
    ("drawn", "field"),
    [
        ("cathedral-stride", "drawn"),
        ([3], "drawn[0]"),
        ([""], "drawn[0]"),
        (["x" * 121], "drawn[0]"),
    ],
)
def test_malformed_drawn_is_a_400_naming_it(
    clients: dict[str, Client], table: str, drawn: Any, field: str
) -> None:
    before = version(table)
    response = send(clients["alice"], table, {"type": "keep_hand", "seat": 0, "drawn": drawn})
    body = refused(response, table, before, 400)
    assert [e["field"] for e in body["errors"]] == [field]


# --- die faces (`faces`) ---------------------------------------------------------------------------


def test_faces_the_command_does_not_roll_are_refused(
    clients: dict[str, Client], table: str
) -> None:
    before = version(table)
    body = {"type": "keep_hand", "seat": 0, "drawn": deck(clients, table, 0)[:6], "faces": [4]}
    answer = refused(send(clients["alice"], table, body), table, before)
    assert (answer["code"], answer["field"], answer["rule"]) == (
        "unused_dice_reported",
        "faces",
        "R-ADD-18",
    )
    assert answer["allowed"] == {"faces": [1, 2, 3, 4, 5, 6], "count": 0}
    assert "rolls 0 die face(s)" in answer["message"]


def test_missing_initiative_faces_say_how_many_are_needed(
    clients: dict[str, Client], table: str
) -> None:
    kept_seat_0(clients, table)
    before = version(table)
    body = {"type": "keep_hand", "seat": 1, "drawn": deck(clients, table, 1)[:6], "faces": [5]}
    answer = refused(send(clients["bob"], table, body), table, before)
    assert (answer["code"], answer["field"], answer["rule"]) == (
        "wrong_dice_count",
        "faces",
        "R-TRN-2",
    )
    assert answer["allowed"] == {"faces": [1, 2, 3, 4, 5, 6], "min_count": 2}
    assert "the initiative roll needs 1 more die face(s)" in answer["message"]


def test_a_tied_initiative_needs_the_re_roll_too(clients: dict[str, Client], table: str) -> None:
    kept_seat_0(clients, table)
    before = version(table)
    body = {"type": "keep_hand", "seat": 1, "drawn": deck(clients, table, 1)[:6], "faces": [3, 3]}
    answer = refused(send(clients["bob"], table, body), table, before)
    assert (answer["code"], answer["field"]) == ("wrong_dice_count", "faces")
    assert answer["allowed"]["min_count"] == 4  # R-TRN-2: the tied players roll again


@pytest.mark.parametrize(
    ("faces", "field"),
    [
        ([7], "faces[0]"),
        ([0], "faces[0]"),
        ([4, -1], "faces[1]"),
        (["3"], "faces[0]"),
        ([True], "faces[0]"),
        ([2.5], "faces[0]"),
        (3, "faces"),
        ([1] * 201, "faces"),
    ],
)
def test_malformed_faces_are_a_400_naming_the_face(
    clients: dict[str, Client], table: str, faces: Any, field: str
) -> None:
    kept_seat_0(clients, table)
    before = version(table)
    body = {"type": "keep_hand", "seat": 1, "drawn": deck(clients, table, 1)[:6], "faces": faces}
    answer = refused(send(clients["bob"], table, body), table, before, 400)
    assert [e["field"] for e in answer["errors"]] == [field]
    if field != "faces":
        assert answer["errors"][0]["rule"] == "R-HIT-4" and "1..6" in answer["errors"][0]["message"]


def test_the_right_faces_and_cards_are_recorded_as_reported(
    clients: dict[str, Client], table: str
) -> None:
    kept_seat_0(clients, table)
    hand = deck(clients, table, 1)[:6]
    body = {"type": "keep_hand", "seat": 1, "drawn": hand, "faces": [2, 2, 6, 1]}
    sent = send(clients["bob"], table, body)
    assert sent.status_code == 201, sent.content
    events = {e.type: e.payload for e in read_stream(StreamRef("battle", table))}
    assert events["InitiativeRolled"]["throws"] == [[[0, 2], [1, 2]], [[0, 6], [1, 1]]]
    assert clients["bob"].get(f"/api/battles/{table}/").json()["state"]["seats"][1]["hand"] == hand


# --- a digital battle takes none ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "field"), [({"faces": [3]}, "faces"), ({"drawn": ["a"]}, "drawn")]
)
def test_a_digital_battle_refuses_reported_faces_and_cards(
    clients: dict[str, Client], extra: dict[str, Any], field: str
) -> None:
    bid = new_battle(clients, "digital")
    state = clients["gm"].get(f"/api/battles/{bid}/").json()["state"]
    before = version(bid)
    body = {"type": "pass", "seat": state["active"], **extra}
    answer = refused(send(clients["gm"], bid, body), bid, before)
    assert (answer["code"], answer["field"], answer["rule"]) == (
        "table_mode_only",
        field,
        "R-ADD-18",
    )


def test_the_schema_documents_the_table_refusal(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    refusal = schema["components"]["schemas"]["TableRefusalOutput"]["properties"]
    assert {"code", "message", "rule", "field", "allowed"} <= set(refusal)
    operation = schema["paths"]["/api/battles/{battle_id}/commands"]["post"]
    ref = operation["responses"]["422"]["content"]["application/json"]["schema"]["$ref"]
    assert ref.endswith("/TableRefusalOutput")
