"""`GET /api/battles/<id>/legal-actions` says whom the battle waits for and why (issue 13):
the seat, its player, the turn or the prompt's kind, and the ruling; for the GM, a seat's
player and a watcher alike; outsiders 403, anonymous 401."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from battles.engine.demo import demo_setup
from tests.battles.api_calls import post, send, version

pytestmark = pytest.mark.django_db

NAMES = ("gm", "alice", "bob", "watcher", "outsider")


@pytest.fixture
def clients(django_user_model: type[User]) -> dict[str, Client]:
    out = {"anonymous": Client()}
    for name in NAMES:
        c = Client()
        c.force_login(django_user_model.objects.create_user(username=name))
        out[name] = c
    return out


def new_battle(clients: dict[str, Client], **changes: Any) -> str:
    """A demo battle run by `gm` (who plays no seat): alice plays seat 0, bob seat 1."""
    setup = {**demo_setup(players=("alice", "bob")), **changes}
    response = post(clients["gm"], "/api/battles/", setup)
    assert response.status_code == 201, response.content
    bid = str(response.json()["id"])
    added = post(clients["gm"], f"/api/battles/{bid}/watchers", {"username": "watcher"})
    assert added.status_code == 201, added.content
    return bid


def legal(client: Client, bid: str) -> Any:
    response = client.get(f"/api/battles/{bid}/legal-actions")
    assert response.status_code == 200, response.content
    return response.json()


BOBS_TURN = {
    "seat": 1,
    "player": "bob",
    "kind": "turn",
    "prompt": None,
    "amount": 0,
    "rule": "R-TRN-5",
    "reason": "round 1: seat 1 acts until it passes",
}


def test_a_player_with_no_action_learns_whose_turn_it_is(clients: dict[str, Client]) -> None:
    bid = new_battle(clients)  # seed 7, policy auto: seat 1 (bob) has the first turn
    answer = legal(clients["alice"], bid)
    assert answer["actions"] == []
    assert answer["waiting_for"] == [BOBS_TURN]
    assert answer["over"] is False
    assert answer["rule"] == "R-TRN-5"
    assert "seat 1 (bob)" in answer["message"] and "its turn" in answer["message"]


def test_the_response_stays_compatible(clients: dict[str, Client]) -> None:
    """`version` and `actions` are as before; the wait is told in added fields only."""
    bid = new_battle(clients)
    answer = legal(clients["bob"], bid)
    assert set(answer) == {
        "version",
        "actions",
        "waiting_for",
        "over",
        "message",
        "rule",
        "withdraw_needs_reason",
    }
    assert all(set(a) <= {"body", "to_hit"} for a in answer["actions"])
    assert answer["version"] == version(bid)
    assert {"pass", "rotate"} <= {a["body"]["type"] for a in answer["actions"]}
    assert all(a["body"]["seat"] == 1 for a in answer["actions"])
    assert answer["waiting_for"] == [BOBS_TURN]


@pytest.mark.parametrize("who", ["gm", "alice", "bob", "watcher"])
def test_every_member_sees_whom_the_battle_waits_for(clients: dict[str, Client], who: str) -> None:
    bid = new_battle(clients)
    answer = legal(clients[who], bid)
    assert answer["waiting_for"] == [BOBS_TURN]
    has_actions = who in ("gm", "bob")
    assert bool(answer["actions"]) is has_actions


def test_open_prompts_name_their_kind_seat_player_and_ruling(clients: dict[str, Client]) -> None:
    bid = new_battle(clients, policy="prompt")
    answer = legal(clients["watcher"], bid)
    assert [
        (w["seat"], w["player"], w["kind"], w["prompt"], w["rule"]) for w in answer["waiting_for"]
    ] == [
        (0, "alice", "prompt", "mulligan", "R-TRN-1"),
        (1, "bob", "prompt", "mulligan", "R-TRN-1"),
    ]
    kept = send(clients["alice"], bid, {"type": "keep_hand", "seat": 0})
    assert kept.status_code == 201, kept.content
    alice = legal(clients["alice"], bid)
    assert alice["actions"] == []
    assert alice["waiting_for"] == [
        {
            "seat": 1,
            "player": "bob",
            "kind": "prompt",
            "prompt": "mulligan",
            "amount": 0,
            "rule": "R-TRN-1",
            "reason": "keep the hand or mulligan once",
        }
    ]
    assert "seat 1 (bob): the mulligan prompt" in alice["message"]
    assert {a["body"]["type"] for a in legal(clients["bob"], bid)["actions"]} == {
        "keep_hand",
        "mulligan",
    }


def test_a_table_battle_waits_for_its_prompts_too(clients: dict[str, Client]) -> None:
    bid = new_battle(clients, dice={"mode": "table"})
    answer = legal(clients["gm"], bid)
    assert [w["prompt"] for w in answer["waiting_for"]] == ["mulligan", "mulligan"]
    assert answer["rule"] == "R-TRN-1"


def test_a_finished_battle_waits_for_nobody(clients: dict[str, Client]) -> None:
    bid = new_battle(clients)
    ended = send(
        clients["gm"], bid, {"type": "end_battle", "side": "bastion", "reason": "objective held"}
    )
    assert ended.status_code == 201, ended.content
    for who in ("gm", "alice", "watcher"):
        answer = legal(clients[who], bid)
        assert answer["actions"] == [] and answer["waiting_for"] == []
        assert answer["over"] is True and answer["rule"] == "R-TRN-8"
        assert "bastion won" in answer["message"]


def test_outsiders_and_strangers_learn_nothing(clients: dict[str, Client]) -> None:
    bid = new_battle(clients)
    outsider = clients["outsider"].get(f"/api/battles/{bid}/legal-actions")
    assert outsider.status_code == 403
    assert set(outsider.json()) == {"code", "message", "rule"}
    assert "waiting_for" not in outsider.json()
    assert clients["anonymous"].get(f"/api/battles/{bid}/legal-actions").status_code == 401
    missing = clients["gm"].get(f"/api/battles/{uuid.uuid4()}/legal-actions")
    assert missing.status_code == 404


def test_the_schema_documents_the_wait(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    parts = schema["components"]["schemas"]
    assert {"waiting_for", "over", "message", "rule"} <= set(
        parts["LegalActionsOutput"]["properties"]
    )
    assert set(parts["WaitingOutput"]["required"]) >= {"seat", "player", "kind", "prompt", "rule"}


def test_the_gm_learns_that_accepting_a_withdrawal_needs_a_reason(
    clients: dict[str, Client],
) -> None:
    """R-TRN-9, R-ADD-24: the GM learns which seats' `withdraw` needs a reason (those they
    do not play); the seat's own player withdraws with the body as it is."""
    bid = new_battle(clients)
    answer = legal(clients["gm"], bid)
    gm = [a for a in answer["actions"] if a["body"]["type"] == "withdraw"]
    assert [a["body"] for a in gm] == [{"type": "withdraw", "seat": 1}]
    assert answer["withdraw_needs_reason"] == [0, 1]
    assert legal(clients["bob"], bid)["withdraw_needs_reason"] == []
    bare = send(clients["gm"], bid, gm[0]["body"])
    assert bare.status_code == 400 and bare.json()["errors"][0]["field"] == "reason"
    accepted = send(clients["gm"], bid, {**gm[0]["body"], "reason": "Bob has to leave"})
    assert accepted.status_code == 201, accepted.content
    assert accepted.json()["events"][0]["adjustment"] is True
