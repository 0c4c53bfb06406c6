"""The battles API (docs/BATTLES.md): create, command, read, time travel, export and import,
and who may do what — the GM, a seat's player, a watcher, an outsider, nobody."""

from __future__ import annotations

import itertools
import json
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client, override_settings

from battles.codec import BATTLE_EVENTS
from battles.engine.battle import replay, state_view
from battles.engine.demo import demo_setup
from battles.engine.ruleset import ENGINE_VERSION
from battles.models import Battle
from battles.selectors import battle_state_at
from battles.services import TIMESTAMP_FORMAT
from penance_site.accounts.tokens import api_token_create
from penance_site.eventstore.models import Event, Snapshot
from penance_site.eventstore.store import (
    StreamRef,
    event_digest,
    read_stream,
    snapshot_load,
    stream_version,
)

pytestmark = pytest.mark.django_db

CREATED_VERSION = 13  # demo setup, seed 7: the creation command's events


def body_of(response: Any) -> Any:
    return response.json()


def post(client: Client, url: str, body: Any, **extra: Any) -> Any:
    data = body if isinstance(body, str) else json.dumps(body)
    return client.post(url, data=data, content_type="application/json", **extra)


def stream(battle_id: str) -> StreamRef:
    return StreamRef("battle", battle_id)


def version(battle_id: str) -> int:
    return stream_version(stream(battle_id))


def field_errors(response: Any) -> list[str | None]:
    assert response.status_code == 400, response.content
    return [e["field"] for e in response.json()["errors"]]


@pytest.fixture
def users(django_user_model: type[User]) -> dict[str, User]:
    return {
        name: django_user_model.objects.create_user(username=name)
        for name in ("gm", "player", "watcher", "outsider")
    }


@pytest.fixture
def clients(users: dict[str, User]) -> dict[str, Client]:
    out = {"anonymous": Client()}
    for name, user in users.items():
        c = Client()
        c.force_login(user)
        out[name] = c
    return out


@pytest.fixture
def battle_id(clients: dict[str, Client], users: dict[str, User]) -> str:
    """A demo battle run by `gm` (who plays seat 0); `player` plays seat 1; `watcher` watches."""
    response = post(clients["gm"], "/api/battles/", demo_setup())
    assert response.status_code == 201, response.content
    bid = response.json()["id"]
    added = post(clients["gm"], f"/api/battles/{bid}/watchers", {"username": "watcher"})
    assert added.status_code == 201, added.content
    return str(bid)


def send(
    client: Client,
    bid: str,
    body: dict[str, Any],
    *,
    command_id: str | None = None,
    expected: int | None = None,
) -> Any:
    return post(
        client,
        f"/api/battles/{bid}/commands",
        {
            "command_id": command_id or uuid.uuid4().hex,
            "expected_version": version(bid) if expected is None else expected,
            **body,
        },
    )


def active_seat(client: Client, bid: str) -> int:
    return client.get(f"/api/battles/{bid}/").json()["state"]["active"]


def play(client: Client, bid: str, commands: int, prefer: str = "rotate") -> list[Any]:
    """Send `commands` legal actions as the GM, preferring one type, else passing."""
    answers = []
    for _ in range(commands):
        actions = client.get(f"/api/battles/{bid}/legal-actions").json()["actions"]
        bodies = [a["body"] for a in actions]
        chosen = next((b for b in bodies if b["type"] == prefer), None) or next(
            b for b in bodies if b["type"] == "pass"
        )
        response = send(client, bid, chosen)
        assert response.status_code == 201, response.content
        answers.append(response.json())
    return answers


def stored(bid: str) -> list[tuple[int, str, dict[str, Any]]]:
    return [(e.version, e.type, e.payload) for e in read_stream(stream(bid))]


# --- create and read -----------------------------------------------------------------------------


def test_create_returns_state_and_makes_the_creator_gm(
    clients: dict[str, Client], users: dict[str, User]
) -> None:
    response = post(clients["gm"], "/api/battles/", demo_setup())
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["role"] == "gm" and body["gm"] == "gm"
    assert body["version"] == CREATED_VERSION == version(body["id"])
    assert body["seats"] == [{"seat": 0, "player": "gm"}, {"seat": 1, "player": "player"}]
    assert body["status"] == "in_progress" and body["winner"] is None
    # R-TRN-1: six cards dealt; the GM sees every hand and the deck order.
    assert [len(s["hand"]) for s in body["state"]["seats"]] == [6, 6]
    assert body["state"]["seats"][0]["deck"] is not None
    battle = Battle.objects.get(pk=body["id"])
    assert (battle.gm, battle.created_by, battle.version) == (users["gm"], users["gm"], 13)
    assert [e.command_id for e in read_stream(stream(body["id"]))] == [f"create-{battle.id}"] * 13


def test_any_signed_in_user_creates_and_runs_their_own_battle(clients: dict[str, Client]) -> None:
    response = post(clients["outsider"], "/api/battles/", demo_setup())
    assert response.status_code == 201
    assert response.json()["role"] == "gm" and response.json()["gm"] == "outsider"


def test_create_with_an_unknown_player_names_the_seat_and_creates_nothing(
    clients: dict[str, Client],
) -> None:
    response = post(clients["gm"], "/api/battles/", demo_setup(players=("gm", "nobody")))
    assert field_errors(response) == ["seats[1].player"]
    assert not Battle.objects.exists() and not Event.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seats": []}, "seats"),
        ({"dice": {"mode": "dice bag"}}, "dice.mode"),
        ({"colour": "red"}, "setup.colour"),
    ],
)
def test_create_with_a_bad_setup_names_the_field(
    clients: dict[str, Client], change: dict[str, Any], field: str
) -> None:
    assert field_errors(post(clients["gm"], "/api/battles/", {**demo_setup(), **change})) == [field]
    assert not Battle.objects.exists()


def test_list_shows_the_battles_each_user_is_part_of(
    clients: dict[str, Client], battle_id: str
) -> None:
    post(clients["outsider"], "/api/battles/", demo_setup(players=("outsider", "gm")))
    roles = {
        name: [(b["id"], b["role"]) for b in clients[name].get("/api/battles/").json()]
        for name in ("gm", "player", "watcher", "outsider")
    }
    assert roles["player"] == [(battle_id, "player")]
    assert roles["watcher"] == [(battle_id, "watcher")]
    assert len(roles["outsider"]) == 1 and roles["outsider"][0][1] == "gm"
    # The GM plays seat 1 of the outsider's battle and runs the fixture's battle.
    assert sorted(r for _, r in roles["gm"]) == ["gm", "player"]


def test_detail_shows_a_player_their_own_hand_only(
    clients: dict[str, Client], battle_id: str
) -> None:
    """R-ADD-28: a player sees their own hand, never another's, and no deck order."""
    body = clients["player"].get(f"/api/battles/{battle_id}/").json()
    assert body["role"] == "player"
    theirs, own = body["state"]["seats"]
    assert theirs["hand"] is None and theirs["hand_count"] == 6
    assert len(own["hand"]) == 6 and own["deck"] is None and own["deck_count"] == 24
    watcher = clients["watcher"].get(f"/api/battles/{battle_id}/").json()
    assert watcher["role"] == "watcher"
    assert [s["hand"] for s in watcher["state"]["seats"]] == [None, None]


def test_unknown_battle_is_404(clients: dict[str, Client]) -> None:
    assert clients["gm"].get(f"/api/battles/{uuid.uuid4()}/").status_code == 404


# --- who may do what -----------------------------------------------------------------------------

READS = ("", "events", "state", "legal-actions", "verify", "setup")


@pytest.mark.parametrize("endpoint", READS)
@pytest.mark.parametrize(
    ("who", "expected"),
    [("gm", 200), ("player", 200), ("watcher", 200), ("outsider", 403), ("anonymous", 401)],
)
def test_reads_are_for_the_battles_members(
    clients: dict[str, Client], battle_id: str, endpoint: str, who: str, expected: int
) -> None:
    url = f"/api/battles/{battle_id}/{endpoint}"
    assert clients[who].get(url).status_code == expected


@pytest.mark.parametrize(
    ("who", "expected"),
    [("gm", 200), ("player", 403), ("watcher", 403), ("outsider", 403), ("anonymous", 401)],
)
def test_only_the_gm_exports_a_running_battle(
    clients: dict[str, Client], battle_id: str, who: str, expected: int
) -> None:
    """R-ADD-28: an export shows every deck's order."""
    assert clients[who].get(f"/api/battles/{battle_id}/export").status_code == expected


@pytest.mark.parametrize(
    ("who", "expected"),
    [("gm", 201), ("player", 403), ("watcher", 403), ("outsider", 403), ("anonymous", 401)],
)
def test_only_the_gm_adds_watchers(
    clients: dict[str, Client], battle_id: str, who: str, expected: int
) -> None:
    response = post(clients[who], f"/api/battles/{battle_id}/watchers", {"username": "outsider"})
    assert response.status_code == expected


@pytest.mark.parametrize(
    ("who", "expected"),
    [("gm", 201), ("player", 201), ("watcher", 403), ("outsider", 403), ("anonymous", 401)],
)
def test_commands_come_from_the_gm_and_the_seats_player(
    clients: dict[str, Client], battle_id: str, who: str, expected: int
) -> None:
    seat = active_seat(clients["gm"], battle_id)
    assert seat == 1  # the player's seat
    before = version(battle_id)
    response = send(clients[who], battle_id, {"type": "pass", "seat": seat})
    assert response.status_code == expected, response.content
    assert version(battle_id) > before if expected == 201 else version(battle_id) == before


@pytest.mark.parametrize(
    ("method", "url"),
    [("get", "/api/battles/"), ("post", "/api/battles/"), ("post", "/api/battles/import")],
)
def test_anonymous_requests_are_401(clients: dict[str, Client], method: str, url: str) -> None:
    client = clients["anonymous"]
    response = client.get(url) if method == "get" else post(client, url, demo_setup())
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_token_authentication_works(
    users: dict[str, User], clients: dict[str, Client], battle_id: str
) -> None:
    _, key = api_token_create(user=users["player"], name="table tool")
    client = Client()
    ok = client.get(f"/api/battles/{battle_id}/", HTTP_AUTHORIZATION=f"Token {key}")
    assert ok.status_code == 200 and ok.json()["role"] == "player"
    seat = active_seat(clients["gm"], battle_id)
    sent = post(
        client,
        f"/api/battles/{battle_id}/commands",
        {
            "command_id": "tok-1",
            "expected_version": version(battle_id),
            "type": "pass",
            "seat": seat,
        },
        HTTP_AUTHORIZATION=f"Token {key}",
    )
    assert sent.status_code == 201, sent.content
    wrong = client.get(f"/api/battles/{battle_id}/", HTTP_AUTHORIZATION="Token not-a-token")
    assert wrong.status_code == 401


def test_a_player_cannot_command_the_other_seat_but_the_gm_can(
    clients: dict[str, Client], battle_id: str
) -> None:
    """Only a seat's player or the GM act for it (docs/BATTLES.md "prompts")."""
    assert active_seat(clients["gm"], battle_id) == 1
    before = version(battle_id)
    refused = send(clients["player"], battle_id, {"type": "rotate", "seat": 0, "facing": 2})
    assert refused.status_code == 403 and "seat 0" in refused.json()["message"]
    assert version(battle_id) == before
    # The GM plays seat 0 but acts for seat 1 too.
    accepted = send(clients["gm"], battle_id, {"type": "rotate", "seat": 1, "facing": 2})
    assert accepted.status_code == 201, accepted.content
    assert accepted.json()["events"][0]["actor"] == "gm"


def test_gm_adjustments_are_refused_to_players(clients: dict[str, Client], battle_id: str) -> None:
    """R-ADD-24: adjustments are the GM's."""
    adjust = {"type": "adjust_heat", "seat": 1, "heat": 3, "reason": "spilled coolant"}
    before = version(battle_id)
    assert send(clients["player"], battle_id, adjust).status_code == 403
    assert version(battle_id) == before
    response = send(clients["gm"], battle_id, adjust)
    assert response.status_code == 201, response.content
    event = response.json()["events"][0]
    assert (event["type"], event["adjustment"], event["payload"]["heat"]) == (
        "HeatAdjusted",
        True,
        3,
    )


# --- commands ------------------------------------------------------------------------------------


def test_playing_legal_actions_appends_events_in_order(
    clients: dict[str, Client], battle_id: str
) -> None:
    answers = play(clients["gm"], battle_id, 6)
    versions = [e["version"] for a in answers for e in a["events"]]
    assert versions == list(range(CREATED_VERSION + 1, CREATED_VERSION + 1 + len(versions)))
    assert answers[-1]["version"] == version(battle_id) == versions[-1]
    assert not any(a["duplicate"] for a in answers)
    detail = clients["gm"].get(f"/api/battles/{battle_id}/").json()
    assert detail["version"] == versions[-1] == Battle.objects.get(pk=battle_id).version
    events = clients["gm"].get(f"/api/battles/{battle_id}/events?limit=1000").json()
    assert [e["version"] for e in events["events"]] == list(range(1, versions[-1] + 1))


def test_stale_expected_version_is_409_and_appends_nothing(
    clients: dict[str, Client], battle_id: str
) -> None:
    play(clients["gm"], battle_id, 1)
    current = version(battle_id)
    seat = active_seat(clients["gm"], battle_id)
    response = send(clients["gm"], battle_id, {"type": "pass", "seat": seat}, expected=current - 1)
    assert response.status_code == 409
    body = response.json()
    assert (body["code"], body["current_version"]) == ("stale_version", current)
    assert body["message"]
    assert version(battle_id) == current


def test_rule_violation_is_422_with_the_rule_and_appends_nothing(
    clients: dict[str, Client], battle_id: str
) -> None:
    """R-TRN-5: only the active seat passes."""
    seat = active_seat(clients["gm"], battle_id)
    before = stored(battle_id)
    response = send(clients["gm"], battle_id, {"type": "pass", "seat": 1 - seat})
    assert response.status_code == 422
    assert response.json()["rule"] == "R-TRN-5" and response.json()["code"]
    assert stored(battle_id) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"command_id": "x", "type": "pass", "seat": 1}, "expected_version"),
        (
            {"command_id": "x", "expected_version": "13", "type": "pass", "seat": 1},
            "expected_version",
        ),
        ({"command_id": "", "expected_version": 13, "type": "pass", "seat": 1}, "command_id"),
        ({"command_id": "x" * 65, "expected_version": 13, "type": "pass", "seat": 1}, "command_id"),
        ({"command_id": "x", "expected_version": 13, "seat": 1}, "type"),
        ({"command_id": "x", "expected_version": 13, "type": "dance", "seat": 1}, "type"),
        ({"command_id": "x", "expected_version": 13, "type": "rotate", "seat": 1}, "facing"),
        (
            {"command_id": "x", "expected_version": 13, "type": "rotate", "seat": 1, "facing": 9},
            "facing",
        ),
        ({"command_id": "x", "expected_version": 13, "type": "pass", "seat": 1, "hop": 1}, "hop"),
        ({"command_id": "x", "expected_version": 13, "type": "pass"}, "seat"),
    ],
)
def test_malformed_commands_are_400_naming_the_field(
    clients: dict[str, Client], battle_id: str, body: dict[str, Any], field: str
) -> None:
    before = version(battle_id)
    response = post(clients["gm"], f"/api/battles/{battle_id}/commands", body)
    assert field_errors(response) == [field]
    assert version(battle_id) == before


def test_a_command_body_that_is_not_an_object_is_400(
    clients: dict[str, Client], battle_id: str
) -> None:
    response = post(clients["gm"], f"/api/battles/{battle_id}/commands", [1, 2])
    assert response.status_code == 400
    assert post(clients["gm"], f"/api/battles/{battle_id}/commands", "{").status_code == 400


def test_retried_command_returns_its_original_events_and_appends_nothing(
    clients: dict[str, Client], battle_id: str
) -> None:
    seat = active_seat(clients["gm"], battle_id)
    first = send(clients["gm"], battle_id, {"type": "pass", "seat": seat}, command_id="pass-1")
    assert first.status_code == 201 and first.json()["duplicate"] is False
    after = stored(battle_id)
    again = send(
        clients["gm"],
        battle_id,
        {"type": "pass", "seat": seat},
        command_id="pass-1",
        expected=CREATED_VERSION,
    )
    assert again.status_code == 201
    assert again.json()["duplicate"] is True
    assert again.json()["events"] == first.json()["events"]
    assert again.json()["version"] == first.json()["version"]
    assert stored(battle_id) == after


def test_reused_command_id_with_another_body_is_409(
    clients: dict[str, Client], battle_id: str
) -> None:
    seat = active_seat(clients["gm"], battle_id)
    send(clients["gm"], battle_id, {"type": "rotate", "seat": seat, "facing": 2}, command_id="c-1")
    after = stored(battle_id)
    response = send(
        clients["gm"], battle_id, {"type": "rotate", "seat": seat, "facing": 3}, command_id="c-1"
    )
    assert response.status_code == 409
    assert response.json()["code"] == "command_id_reused"
    assert stored(battle_id) == after


# --- reading events and states -------------------------------------------------------------------


def test_events_hide_deck_orders_and_digests_from_players_but_not_from_the_gm(
    clients: dict[str, Client], battle_id: str
) -> None:
    """R-ADD-28: nobody sees a deck's order while the battle runs; the GM sees all."""
    as_player = clients["player"].get(f"/api/battles/{battle_id}/events").json()["events"]
    as_gm = clients["gm"].get(f"/api/battles/{battle_id}/events").json()["events"]
    shuffles = [i for i, e in enumerate(as_gm) if e["type"] == "DeckShuffled"]
    assert len(shuffles) == 2
    for i in shuffles:
        assert len(as_gm[i]["payload"]["order"]) == 30
        assert as_player[i]["payload"]["order"] is None
        assert as_player[i]["payload"]["cards"] == 30
    drawn = {
        e["payload"]["seat"]: e["payload"]["cards"] for e in as_player if e["type"] == "CardsDrawn"
    }
    assert drawn[0] == [None] * 6 and None not in drawn[1]
    assert all(e["digest"] is None for e in as_player)
    assert all(len(e["digest"]) == 64 for e in as_gm)


def test_events_page_after_a_version(clients: dict[str, Client], battle_id: str) -> None:
    page = clients["gm"].get(f"/api/battles/{battle_id}/events?after=5&limit=3").json()
    assert [e["version"] for e in page["events"]] == [6, 7, 8]
    assert page["version"] == CREATED_VERSION


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("limit=0", "limit"),
        ("limit=1001", "limit"),
        ("limit=many", "limit"),
        ("after=-1", "after"),
        ("after=x", "after"),
    ],
)
def test_bad_event_paging_is_400_naming_the_parameter(
    clients: dict[str, Client], battle_id: str, query: str, field: str
) -> None:
    assert field_errors(clients["gm"].get(f"/api/battles/{battle_id}/events?{query}")) == [field]


def test_state_at_a_version_equals_the_replay_of_that_many_events(
    clients: dict[str, Client], battle_id: str
) -> None:
    play(clients["gm"], battle_id, 4)
    events = read_stream(stream(battle_id))
    for n in (1, CREATED_VERSION, CREATED_VERSION + 2, len(events)):
        expected = replay(
            BATTLE_EVENTS.decode_record(e.type, e.schema_version, e.payload) for e in events[:n]
        )
        answer = clients["gm"].get(f"/api/battles/{battle_id}/state?at={n}").json()
        assert answer["version"] == n
        assert answer["state"] == json.loads(json.dumps(state_view(expected, {0}, full=True)))
    # A player's time travel is filtered like the present.
    past = clients["player"].get(f"/api/battles/{battle_id}/state?at={CREATED_VERSION}").json()
    assert past["state"]["seats"][0]["hand"] is None


@pytest.mark.parametrize("at", ["0", "999", "x"])
def test_state_at_a_version_out_of_range_is_400(
    clients: dict[str, Client], battle_id: str, at: str
) -> None:
    assert field_errors(clients["gm"].get(f"/api/battles/{battle_id}/state?at={at}")) == ["at"]


def test_legal_actions_are_for_the_viewers_seats(
    clients: dict[str, Client], battle_id: str
) -> None:
    assert active_seat(clients["gm"], battle_id) == 1
    gm = clients["gm"].get(f"/api/battles/{battle_id}/legal-actions").json()
    player = clients["player"].get(f"/api/battles/{battle_id}/legal-actions").json()
    watcher = clients["watcher"].get(f"/api/battles/{battle_id}/legal-actions").json()
    assert gm["version"] == player["version"] == CREATED_VERSION
    bodies = [a["body"] for a in gm["actions"]]
    assert [a["body"] for a in player["actions"]] == bodies and {b["seat"] for b in bodies} == {1}
    # The same list, but the GM (who does not play seat 1) withdraws it with a reason.
    assert [a.get("needs") for a in gm["actions"] if "needs" in a] == [["reason"]]
    assert [a for a in player["actions"] if "needs" not in a] == player["actions"]
    assert [{k: v for k, v in a.items() if k != "needs"} for a in gm["actions"]] == player[
        "actions"
    ]
    assert watcher["actions"] == []
    # Once seat 0 is active, only the GM (who plays it) gets actions.
    send(clients["player"], battle_id, {"type": "pass", "seat": 1})
    assert clients["player"].get(f"/api/battles/{battle_id}/legal-actions").json()["actions"] == []


def test_setup_posted_again_is_a_rematch(clients: dict[str, Client], battle_id: str) -> None:
    setup = clients["player"].get(f"/api/battles/{battle_id}/setup").json()
    # An explicit seed is public: every player can roll the same dice (R-ADD-45).
    assert setup["dice"] == {"mode": "digital", "seed": 7, "seed_public": True}
    assert setup["policy"] == "auto"
    rematch = post(clients["player"], "/api/battles/", setup)
    assert rematch.status_code == 201, rematch.content
    assert rematch.json()["role"] == "gm"  # whoever posts it runs the rematch
    first, second = stored(battle_id), stored(rematch.json()["id"])
    # Same seed, same battle (R-ADD-18); only the recorded battle id differs.
    assert [e[:2] for e in first] == [e[:2] for e in second]
    assert first[1:] == second[1:]


def test_verify_reports_an_intact_chain(clients: dict[str, Client], battle_id: str) -> None:
    play(clients["gm"], battle_id, 2)
    report = clients["player"].get(f"/api/battles/{battle_id}/verify").json()
    assert report["ok"] is True and report["checked"] == version(battle_id)
    assert report["stream"] == f"battle/{battle_id}"


def test_watchers_need_an_existing_username(clients: dict[str, Client], battle_id: str) -> None:
    url = f"/api/battles/{battle_id}/watchers"
    assert field_errors(post(clients["gm"], url, {"username": "ghost"})) == ["username"]
    assert field_errors(post(clients["gm"], url, {"username": "outsider", "x": 1})) == ["x"]
    added = post(clients["gm"], url, {"username": "outsider"})
    assert added.json() == {"battle": battle_id, "username": "outsider"}
    assert clients["outsider"].get(f"/api/battles/{battle_id}/").json()["role"] == "watcher"


# --- snapshots -----------------------------------------------------------------------------------


@override_settings(PENANCE_SNAPSHOT_EVERY=5)
def test_snapshots_are_written_and_loading_from_them_equals_full_replay(
    clients: dict[str, Client],
) -> None:
    response = post(clients["gm"], "/api/battles/", demo_setup())
    bid = response.json()["id"]
    play(clients["gm"], bid, 8)
    head = version(bid)
    snapshots = list(
        Snapshot.objects.filter(stream_id=bid).order_by("version").values_list("version", flat=True)
    )
    # The creation (13 events) crosses 5 and 10: one snapshot at its end, then one per crossing.
    assert snapshots[0] == CREATED_VERSION and len(snapshots) >= 3
    assert all(b // 5 > a // 5 for a, b in itertools.pairwise(snapshots))
    battle = Battle.objects.get(pk=bid)
    events = read_stream(stream(bid))
    for n in (*snapshots, head, snapshots[-1] + 1 if snapshots[-1] < head else head):
        nearest = snapshot_load(stream=stream(bid), engine_version=ENGINE_VERSION, at_or_before=n)
        assert nearest is not None
        full = replay(
            BATTLE_EVENTS.decode_record(e.type, e.schema_version, e.payload) for e in events[:n]
        )
        assert battle_state_at(battle=battle, version=n) == full


# --- revert --------------------------------------------------------------------------------------


def test_revert_of_the_latest_command_restores_the_state_before_it(
    clients: dict[str, Client], battle_id: str, users: dict[str, User]
) -> None:
    """R-ADD-24: a revert appends a compensating CommandReverted; the log keeps the original."""
    seat = active_seat(clients["gm"], battle_id)
    battle = Battle.objects.get(pk=battle_id)
    before = battle_state_at(battle=battle)
    sent = send(clients["gm"], battle_id, {"type": "pass", "seat": seat}, command_id="to-undo")
    assert sent.status_code == 201
    undone = send(
        clients["gm"], battle_id, {"type": "revert", "reverts": "to-undo", "reason": "misclick"}
    )
    assert undone.status_code == 201, undone.content
    events = undone.json()["events"]
    assert [e["type"] for e in events] == ["CommandReverted"] and events[0]["adjustment"]
    after = battle_state_at(battle=battle)
    assert after.version == sent.json()["version"] + 1
    assert replace(after, version=before.version) == before
    # The reverted command's events stay in the log.
    assert [e.command_id for e in read_stream(stream(battle_id))].count("to-undo") == 3


def test_revert_of_an_older_command_is_422(clients: dict[str, Client], battle_id: str) -> None:
    seat = active_seat(clients["gm"], battle_id)
    send(clients["gm"], battle_id, {"type": "rotate", "seat": seat, "facing": 2}, command_id="old")
    send(clients["gm"], battle_id, {"type": "rotate", "seat": seat, "facing": 3}, command_id="new")
    before = version(battle_id)
    response = send(
        clients["gm"], battle_id, {"type": "revert", "reverts": "old", "reason": "too late"}
    )
    assert response.status_code == 422
    assert (response.json()["code"], response.json()["rule"]) == ("revert_unavailable", "R-ADD-24")
    assert version(battle_id) == before


def test_revert_by_a_player_is_403(clients: dict[str, Client], battle_id: str) -> None:
    send(clients["player"], battle_id, {"type": "pass", "seat": 1}, command_id="mine")
    response = send(
        clients["player"], battle_id, {"type": "revert", "reverts": "mine", "reason": "oops"}
    )
    assert response.status_code == 403


# --- export and import ---------------------------------------------------------------------------


def test_export_then_import_keeps_every_event_and_verifies(
    clients: dict[str, Client], battle_id: str
) -> None:
    play(clients["gm"], battle_id, 3)
    document = clients["gm"].get(f"/api/battles/{battle_id}/export").json()
    assert document["format"] == "penance-battle/1"
    assert document["battle"]["gm"] == "gm" and document["setup"]["dice"]["seed"] == 7
    response = post(clients["player"], "/api/battles/import", document)
    assert response.status_code == 201, response.content
    copy = response.json()
    assert copy["role"] == "gm" and copy["id"] != battle_id and copy["gm"] == "player"
    assert copy["version"] == version(battle_id)
    original, imported = read_stream(stream(battle_id)), read_stream(stream(copy["id"]))
    assert [(e.type, e.schema_version, e.payload, e.recorded_at) for e in original] == [
        (e.type, e.schema_version, e.payload, e.recorded_at) for e in imported
    ]
    assert clients["player"].get(f"/api/battles/{copy['id']}/verify").json()["ok"] is True
    again = clients["player"].get(f"/api/battles/{copy['id']}/state").json()["state"]
    assert again == clients["gm"].get(f"/api/battles/{battle_id}/state").json()["state"]


def rechained(document: dict[str, Any], suffix: str) -> dict[str, Any]:
    """The document as another site would export the same battle: other command ids, and the
    digest chain over them."""
    previous = ""
    events = []
    for e in document["events"]:
        command_id = e["command_id"][:50] + suffix
        metadata = {**e["metadata"], "command_id": command_id}
        digest = event_digest(
            previous_digest=previous,
            version=e["version"],
            type=e["type"],
            schema_version=e["schema_version"],
            payload=e["payload"],
            metadata=metadata,
            command_id=command_id,
            recorded_at=datetime.strptime(e["recorded_at"], TIMESTAMP_FORMAT).replace(tzinfo=UTC),
        )
        events.append({**e, "command_id": command_id, "metadata": metadata, "digest": digest})
        previous = digest
    return {**document, "events": events}


def test_import_of_a_battle_from_another_site_reproduces_every_digest(
    clients: dict[str, Client], battle_id: str
) -> None:
    """Command ids unused here are kept, so the chain is the same, digest for digest."""
    play(clients["gm"], battle_id, 3)
    document = rechained(clients["gm"].get(f"/api/battles/{battle_id}/export").json(), "-away")
    response = post(clients["gm"], "/api/battles/import", document)
    assert response.status_code == 201, response.content
    imported = read_stream(stream(response.json()["id"]))
    assert [(e.type, e.payload, e.command_id, e.digest) for e in imported] == [
        (e["type"], e["payload"], e["command_id"], e["digest"]) for e in document["events"]
    ]
    exported_again = clients["gm"].get(f"/api/battles/{response.json()['id']}/export").json()
    assert exported_again["events"] == document["events"]


def test_import_into_the_same_store_keeps_command_ids_and_every_digest(
    clients: dict[str, Client], battle_id: str
) -> None:
    """Command ids are scoped to their stream (issue 15), so a copy keeps them."""
    document = clients["gm"].get(f"/api/battles/{battle_id}/export").json()
    copy = post(clients["gm"], "/api/battles/import", document).json()["id"]
    imported = read_stream(stream(copy))
    assert [(e.command_id, e.digest) for e in imported] == [
        (e["command_id"], e["digest"]) for e in document["events"]
    ]
    # The copy plays on like any battle, its revert naming its own command ids.
    seat = active_seat(clients["gm"], copy)
    assert send(clients["gm"], copy, {"type": "pass", "seat": seat}).status_code == 201


TAMPERINGS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("payload", lambda d: d["events"][4]["payload"].update(seat=0), "events[4].digest"),
    (
        "deck order",
        lambda d: d["events"][1]["payload"]["order"].reverse(),
        "events[1].digest",
    ),
    (
        "timestamp",
        lambda d: d["events"][2].update(recorded_at="2020-01-01T00:00:00.000000Z"),
        "events[2].digest",
    ),
    ("dropped event", lambda d: d["events"].pop(3), "events[3].version"),
    ("format", lambda d: d.update(format="penance-battle/9"), "format"),
    ("no events", lambda d: d.update(events=[]), "events"),
    ("digest missing", lambda d: d["events"][0].pop("digest"), "events[0].digest"),
]


@pytest.mark.parametrize(("what", "tamper", "field"), TAMPERINGS, ids=[t[0] for t in TAMPERINGS])
def test_a_tampered_import_is_400_and_creates_nothing(
    clients: dict[str, Client],
    battle_id: str,
    what: str,
    tamper: Callable[[dict[str, Any]], None],
    field: str,
) -> None:
    document = clients["gm"].get(f"/api/battles/{battle_id}/export").json()
    tamper(document)
    battles, events = Battle.objects.count(), Event.objects.count()
    response = post(clients["gm"], "/api/battles/import", document)
    assert field_errors(response) == [field]
    assert (Battle.objects.count(), Event.objects.count()) == (battles, events)


def test_import_needs_every_player_to_exist(
    clients: dict[str, Client], battle_id: str, users: dict[str, User]
) -> None:
    document = clients["gm"].get(f"/api/battles/{battle_id}/export").json()
    users["player"].username = "renamed"
    users["player"].save()
    response = post(clients["gm"], "/api/battles/import", document)
    assert field_errors(response) == ["events[0].payload.setup.seats[1].player"]
    assert Battle.objects.count() == 1


# --- the schema ----------------------------------------------------------------------------------


def test_openapi_schema_generates_without_warnings(tmp_path: Any) -> None:
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )
    text = (tmp_path / "schema.yml").read_text()
    assert "/api/battles/{battle_id}/commands" in text and "battles_import" in text


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "revert", "reason": "oops"}, "reverts"),
        ({"type": "revert", "reverts": "", "reason": "oops"}, "reverts"),
        ({"type": "pass", "seat": 1, "reverts": "x"}, "reverts"),
        ({"type": "revert", "reverts": "x"}, "reason"),
    ],
)
def test_a_revert_names_the_command_it_undoes_in_reverts(
    clients: dict[str, Client], battle_id: str, body: dict[str, Any], field: str
) -> None:
    """`command_id` is the request's own id, so a revert names its target `reverts`."""
    assert field_errors(send(clients["gm"], battle_id, body)) == [field]


# --- admin ---------------------------------------------------------------------------------------


def test_the_admin_shows_battles_read_only(battle_id: str, django_user_model: type[User]) -> None:
    admin = django_user_model.objects.create_superuser(username="root", email="r@example.com")
    client = Client()
    client.force_login(admin)
    assert client.get("/admin/battles/battle/").status_code == 200
    page = client.get(f"/admin/battles/battle/{battle_id}/change/")
    assert page.status_code == 200 and b"player" in page.content
    assert client.get("/admin/battles/battle/add/").status_code == 403
    assert client.post(f"/admin/battles/battle/{battle_id}/delete/").status_code == 403
    assert Battle.objects.filter(pk=battle_id).exists()


# --- ruleset 2.1 and ending a battle (issue 11) --------------------------------------------------


def test_an_unknown_ruleset_version_is_refused_listing_the_allowed_ones(
    clients: dict[str, Client],
) -> None:
    setup = {**demo_setup(), "rules": {"version": "3.0"}}
    response = post(clients["gm"], "/api/battles/", setup)
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "setup.rules.version" or error["field"].endswith("rules.version")
    assert '"2.0", "2.1"' in error["message"]


def test_new_battles_default_to_ruleset_2_1_and_the_rules_index_lists_it(
    clients: dict[str, Client],
) -> None:
    setup = demo_setup()
    del setup["rules"]
    response = post(clients["gm"], "/api/battles/", setup)
    assert response.status_code == 201, response.content
    bid = response.json()["id"]
    assert clients["gm"].get(f"/api/battles/{bid}/setup").json()["rules"]["version"] == "2.1"
    index = clients["gm"].get("/api/rules/").json()
    assert index["default_version"] == "2.1" and "2.1" in index["versions"]
    assert {"R-DMG-8", "R-DMG-9", "R-TRN-9"} <= set(index["rulings"])


def test_a_player_withdraws_and_the_other_side_wins_r_trn_9(
    clients: dict[str, Client], battle_id: str
) -> None:
    seat = active_seat(clients["gm"], battle_id)
    client = clients["gm"] if seat == 0 else clients["player"]
    actions = client.get(f"/api/battles/{battle_id}/legal-actions").json()["actions"]
    assert {"type": "withdraw", "seat": seat} in [a["body"] for a in actions]
    response = send(client, battle_id, {"type": "withdraw", "seat": seat})
    assert response.status_code == 201, response.content
    assert response.json()["events"][0]["type"] == "CasketWithdrew"
    state = clients["gm"].get(f"/api/battles/{battle_id}/").json()["state"]
    assert state["seats"][seat]["withdrawn"] and not state["seats"][seat]["defeated"]


def test_only_the_gm_ends_a_battle_and_it_is_an_adjustment_r_trn_9(
    clients: dict[str, Client], battle_id: str
) -> None:
    body = {"type": "end_battle", "side": "bastion", "reason": "the objective was held"}
    refused = send(clients["player"], battle_id, body)
    assert refused.status_code == 403
    response = send(clients["gm"], battle_id, body)
    assert response.status_code == 201, response.content
    ended = response.json()["events"][-1]
    assert (ended["type"], ended["payload"]["rule"]) == ("BattleEnded", "R-TRN-9")
    assert stored(battle_id)[-1][1] == "BattleEnded"
    detail = clients["gm"].get(f"/api/battles/{battle_id}/").json()
    assert detail["status"] == "over" and detail["winner"] == "bastion"
