"""The GM's controls at the table (issue 13, R-ADD-24, R-TRN-9): set Heat, add Component
Damage, relocate, return a card, revert, end the battle and accept a withdrawal. Each needs
a reason (a 400 naming `reason` without one, nothing recorded), is the GM's alone (403 for
players) and is shown in the log as an adjustment with its reason."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from battles import services
from battles.engine.demo import demo_setup
from battles.engine.errors import InvalidInput
from battles.models import Battle
from penance_site.eventstore.store import StreamRef, read_stream
from tests.battles.api_calls import post, send, version

pytestmark = pytest.mark.django_db


@pytest.fixture
def clients(django_user_model: type[User]) -> dict[str, Client]:
    out = {}
    for name in ("gm", "alice", "bob", "watcher"):
        c = Client()
        c.force_login(django_user_model.objects.create_user(username=name))
        out[name] = c
    return out


@pytest.fixture
def bid(clients: dict[str, Client]) -> str:
    """Seed 7, policy auto: seat 1 (bob) has the first turn; the GM plays no seat."""
    response = post(clients["gm"], "/api/battles/", demo_setup(players=("alice", "bob")))
    assert response.status_code == 201, response.content
    battle = str(response.json()["id"])
    added = post(clients["gm"], f"/api/battles/{battle}/watchers", {"username": "watcher"})
    assert added.status_code == 201
    return battle


def bob_discards_a_card(clients: dict[str, Client], bid: str) -> str:
    """Bob plays Grinding Pivot (it goes to his discard pile); its instance id."""
    body = {"type": "play_card", "seat": 1, "card": "grinding-pivot#1", "facing": 2}
    played = send(clients["bob"], bid, body, command_id="pivot")
    assert played.status_code == 201, played.content
    return "grinding-pivot#1"


CONTROLS: dict[str, dict[str, Any]] = {
    "adjust_heat": {"type": "adjust_heat", "seat": 0, "heat": 4},
    "adjust_component_damage": {
        "type": "adjust_component_damage",
        "seat": 0,
        "component": "legs",
        "amount": 2,
    },
    "relocate": {"type": "relocate", "seat": 0, "at": [1, -4], "facing": 3},
    "return_card": {"type": "return_card", "seat": 1, "card": "grinding-pivot#1"},
    "revert": {"type": "revert", "reverts": "pivot"},
    "end_battle": {"type": "end_battle", "side": None},
    "withdraw": {"type": "withdraw", "seat": 1},
}
EVENT = {
    "adjust_heat": "HeatAdjusted",
    "adjust_component_damage": "ComponentDamageAdjusted",
    "relocate": "CasketRelocated",
    "return_card": "CardReturned",
    "revert": "CommandReverted",
    "end_battle": "BattleEnded",
    "withdraw": "CasketWithdrew",
}
NEEDS_A_DISCARD = ("return_card", "revert")


@pytest.mark.parametrize("control", list(CONTROLS))
@pytest.mark.parametrize("reason", [None, "", "   ", 7, "x" * 501])
def test_every_control_needs_a_reason(
    clients: dict[str, Client], bid: str, control: str, reason: Any
) -> None:
    if control in NEEDS_A_DISCARD:
        bob_discards_a_card(clients, bid)
    body = dict(CONTROLS[control])
    if reason is not None:
        body["reason"] = reason
    before = version(bid)
    response = send(clients["gm"], bid, body)
    assert response.status_code == 400, response.content
    assert [e["field"] for e in response.json()["errors"]] == ["reason"]
    assert version(bid) == before


@pytest.mark.parametrize("control", list(CONTROLS))
def test_every_control_is_recorded_as_an_adjustment_with_its_reason(
    clients: dict[str, Client], bid: str, control: str
) -> None:
    if control in NEEDS_A_DISCARD:
        bob_discards_a_card(clients, bid)
    before = version(bid)
    body = {**CONTROLS[control], "reason": f"the table agreed: {control}"}
    response = send(clients["gm"], bid, body)
    assert response.status_code == 201, response.content
    first = response.json()["events"][0]
    assert first["type"] == EVENT[control]
    assert all(e["adjustment"] for e in response.json()["events"])
    assert {e["reason"] for e in response.json()["events"]} == {f"the table agreed: {control}"}
    # Every member's log shows it so: the events, and the live updates.
    for who in ("gm", "alice", "bob", "watcher"):
        log = clients[who].get(f"/api/battles/{bid}/events?after={before}").json()["events"]
        assert (log[0]["type"], log[0]["adjustment"], log[0]["reason"]) == (
            EVENT[control],
            True,
            f"the table agreed: {control}",
        )
        live = clients[who].get(f"/api/battles/{bid}/updates?after={before}&wait=0").json()
        assert live["events"] == log
    stored = read_stream(StreamRef("battle", bid), after_version=before)
    assert all(e.metadata["adjustment"] and e.metadata["actor"] == "gm" for e in stored)


@pytest.mark.parametrize("control", [c for c in CONTROLS if c != "withdraw"])
def test_players_cannot_use_the_gm_controls(
    clients: dict[str, Client], bid: str, control: str
) -> None:
    if control in NEEDS_A_DISCARD:
        bob_discards_a_card(clients, bid)
    before = version(bid)
    body = {**CONTROLS[control], "reason": "I would like to"}
    response = send(clients["bob"], bid, body)
    assert response.status_code == 403, response.content
    assert "R-ADD-24" in response.json()["message"]
    assert version(bid) == before


def test_a_player_withdraws_with_no_reason_and_it_is_play(
    clients: dict[str, Client], bid: str
) -> None:
    """R-TRN-9 (a): the seat's player withdraws at the start of their turn; that is play."""
    response = send(clients["bob"], bid, {"type": "withdraw", "seat": 1})
    assert response.status_code == 201, response.content
    event = response.json()["events"][0]
    assert (event["type"], event["adjustment"], event["reason"]) == ("CasketWithdrew", False, None)


def test_a_player_gives_no_reason_for_their_own_withdrawal(
    clients: dict[str, Client], bid: str
) -> None:
    before = version(bid)
    response = send(clients["bob"], bid, {"type": "withdraw", "seat": 1, "reason": "tired"})
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["field"], error["rule"]) == ("reason", "R-TRN-9")
    assert version(bid) == before


def test_a_withdrawal_the_gm_accepts_keeps_its_reason_in_the_metadata(
    clients: dict[str, Client], bid: str
) -> None:
    before = version(bid)
    body = {"type": "withdraw", "seat": 1, "reason": "Bob had to leave"}
    response = send(clients["gm"], bid, body, command_id="bob-leaves")
    assert response.status_code == 201, response.content
    stored = read_stream(StreamRef("battle", bid), after_version=before)
    assert stored[0].metadata["reason"] == "Bob had to leave"
    # A retry is the same command; the same id with another reason is another command.
    url = f"/api/battles/{bid}/commands"
    envelope = {"command_id": "bob-leaves", "expected_version": before}
    again = post(clients["gm"], url, {**envelope, **body})
    assert again.status_code == 201 and again.json()["duplicate"] is True
    reused = post(clients["gm"], url, {**envelope, **body, "reason": "another"})
    assert reused.status_code == 409 and reused.json()["code"] == "command_id_reused"


def test_a_reason_is_refused_where_no_control_takes_one(
    clients: dict[str, Client], bid: str
) -> None:
    before = version(bid)
    response = send(clients["gm"], bid, {"type": "pass", "seat": 1, "reason": "why not"})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "reason"
    assert version(bid) == before


@pytest.mark.parametrize(("reason", "adjustment"), [(None, False), ("my own call", True)])
def test_a_gm_who_plays_the_seat_withdraws_it_as_play_or_with_a_reason(
    clients: dict[str, Client], reason: str | None, adjustment: bool
) -> None:
    response = post(clients["gm"], "/api/battles/", demo_setup(players=("alice", "gm")))
    battle = str(response.json()["id"])  # seed 7: seat 1 (the GM's) has the first turn
    body: dict[str, Any] = {"type": "withdraw", "seat": 1}
    if reason is not None:
        body["reason"] = reason
    sent = send(clients["gm"], battle, body)
    assert sent.status_code == 201, sent.content
    event = sent.json()["events"][0]
    assert (event["type"], event["adjustment"], event["reason"]) == (
        "CasketWithdrew",
        adjustment,
        reason,
    )


def test_in_process_callers_may_withdraw_a_seat_without_a_reason(
    clients: dict[str, Client], bid: str
) -> None:
    """The reason is the API's demand (issue 13); the service asks for it on request only, so
    in-process callers (campaign tooling) keep working, and the withdrawal is play."""
    battle = Battle.objects.get(pk=bid)
    gm = User.objects.get(username="gm")
    result = services.battle_command_execute(
        battle=battle,
        actor=gm,
        command_id="gm-withdraws",
        expected_version=version(bid),
        body={"type": "withdraw", "seat": 1},
    )
    assert result.events[0].type == "CasketWithdrew"
    assert result.events[0].metadata["adjustment"] is False
    with pytest.raises(InvalidInput) as refused:
        services.battle_command_execute(
            battle=battle,
            actor=gm,
            command_id="gm-withdraws-again",
            expected_version=version(bid),
            body={"type": "withdraw", "seat": 0},
            require_reason=True,
        )
    assert refused.value.field == "reason"


def test_ending_a_sealed_battle_shows_the_reason_on_the_revealed_secret_too(
    clients: dict[str, Client],
) -> None:
    """Digital dice without a seed are sealed (R-ADD-45): the end also reveals the secret,
    in the same append, and the GM's reason goes with that event as well."""
    setup = demo_setup(players=("alice", "bob"))
    setup["dice"] = {"mode": "digital"}
    battle = str(post(clients["gm"], "/api/battles/", setup).json()["id"])
    body = {"type": "end_battle", "side": None, "reason": "time at the table"}
    response = send(clients["gm"], battle, body)
    assert response.status_code == 201, response.content
    events = response.json()["events"]
    assert [e["type"] for e in events] == ["BattleEnded", "DiceSecretRevealed"]
    assert all(e["adjustment"] and e["reason"] == "time at the table" for e in events)
