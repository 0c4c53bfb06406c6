"""The campaigns API (campaigns/campaigns_api.py): who may read and change a campaign (R-ADD-31), and
what each endpoint answers: decks checked in full (R-ADD-15), dead pilots refused
(R-PLT-1), GM adjustments recorded in the stream with their reason (R-PLT-4)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from battles.engine.battle.setup import BOT_PLAYER
from battles.engine.demo import DEMO_DECKS, demo_board
from campaigns import services
from campaigns.catalogue import catalogue_load_demo
from campaigns.models import Campaign, CardVersion, Mission
from campaigns.selectors import campaign_state
from penance_site.eventstore.store import ConcurrencyError, StreamRef
from tests.campaigns.builders import (
    DemoCampaign,
    demo_campaign,
    finish,
    make_users,
    seats,
    start_mission,
)

pytestmark = pytest.mark.django_db

SEED = 9  # start_mission seed: ann's pilot (seat 0) dies, bob's build takes component damage
PERSISTENT = {"version": "2.0", "options": {"persistent_component_damage": True}}


def client_for(user: Any | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


def deck(name: str = "penitent-scout") -> list[dict[str, Any]]:
    return [{"card": c, "count": n} for c, n in DEMO_DECKS[name]]


def build_body(**changes: Any) -> dict[str, Any]:
    body = {"name": "Scout Mk II", "casket_class": "scout", "shield": "left", "deck": deck()}
    return {**body, **changes}


def public_campaign() -> DemoCampaign:
    """demo_campaign's twin, but public: outsiders get 403 rather than 404."""
    gm, ann, bob = make_users("gm", "ann", "bob")
    catalogue_load_demo()
    campaign = services.campaign_create(gm=gm, name="Open Ashes", private=False)
    pilots, builds = [], []
    for user, casket_class, shield, name in (
        (ann, "scout", "left", "penitent-scout"),
        (bob, "heavy", "right", "bastion-heavy"),
    ):
        services.campaign_player_add(campaign=campaign, actor=gm, username=user.username)
        pilots.append(
            services.pilot_enlist(campaign=campaign, actor=gm, player=user.username, name="P")
        )
        build, _ = services.build_revise(
            campaign=campaign,
            actor=user,
            build_id=None,
            name=name,
            casket_class=casket_class,
            shield=shield,
            deck=deck(name),
        )
        builds.append(build)
    campaign.refresh_from_db()
    return DemoCampaign(campaign, gm, ann, bob, pilots, builds)


@dataclass
class World:
    dc: DemoCampaign
    mission: Mission
    outsider: Any
    newcomer: Any  # a user the GM may add as a player

    def url(self, template: str) -> str:
        return "/api/campaigns/" + template.format(
            c=self.dc.campaign.id,
            p=self.dc.pilots[0].id,  # ann's pilot
            b=self.dc.builds[0].id,  # ann's build
            m=self.mission.id,
        )


def make_world(*, private: bool = True, rules: object = None) -> World:
    dc = demo_campaign(rules=rules) if private else public_campaign()
    mission = services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="Ember Road")
    outsider, newcomer = make_users("eve", "carl")
    return World(dc, mission, outsider, newcomer)


@pytest.fixture
def world() -> World:
    return make_world()


# --- access: owner, member, outsider, anonymous for every endpoint (R-ADD-31) ---------------------

Body = Callable[[World], dict[str, Any]] | None

# (name, method, path, body, GM's status, a member player's status)
ENDPOINTS: list[tuple[str, str, str, Body, int, int]] = [
    ("campaign", "get", "{c}/", None, 200, 200),
    ("events", "get", "{c}/events", None, 200, 200),
    ("players add", "post", "{c}/players", lambda w: {"username": "carl"}, 201, 403),
    ("missions", "get", "{c}/missions", None, 200, 200),
    ("mission plan", "post", "{c}/missions", lambda w: {"name": "Second"}, 201, 403),
    ("mission", "get", "{c}/missions/{m}/", None, 200, 200),
    (
        "mission start",
        "post",
        "{c}/missions/{m}/start",
        lambda w: {
            "board": demo_board(),
            "seats": seats(w.dc),
            "dice": {"mode": "digital", "seed": 7},
            "policy": "auto",
        },
        201,
        403,
    ),
    ("pilots", "get", "{c}/pilots", None, 200, 200),
    ("pilot enlist", "post", "{c}/pilots", lambda w: {"player": "ann", "name": "Maud"}, 201, 403),
    ("pilot", "get", "{c}/pilots/{p}/", None, 200, 200),
    ("career", "get", "{c}/pilots/{p}/career", None, 200, 200),
    (
        "adjustment",
        "post",
        "{c}/pilots/{p}/adjustments",
        lambda w: {"kind": "scar", "scar": "burnt hand", "reason": "furnace"},
        201,
        403,
    ),
    ("builds", "get", "{c}/builds", None, 200, 200),
    # A player creates builds for themselves (the GM names the player).
    ("build create", "post", "{c}/builds", lambda w: build_body(player="ann"), 201, 201),
    ("build", "get", "{c}/builds/{b}/", None, 200, 200),
    ("build revise", "post", "{c}/builds/{b}/revisions", lambda w: build_body(), 201, 201),
    ("build version", "get", "{c}/builds/{b}/versions/1/", None, 200, 200),
    # The GM gets past the access check; the casket has nothing to repair (R-PLT-5).
    ("build repair", "post", "{c}/builds/{b}/repair", lambda w: {"reason": "forge"}, 422, 403),
]
IDS = [e[0] for e in ENDPOINTS]


def call(w: World, user: Any | None, method: str, path: str, body: Body) -> Any:
    client = client_for(user)
    url = w.url(path)
    if method == "get":
        return client.get(url)
    return client.post(url, body(w) if body else {}, format="json")


# How often each request folds the campaign stream: a read once; a write once in its
# service (to decide, under the campaign's lock), and once more where the answer shows
# what the service created (the service returns the new row, not the state).
FOLDS = {
    "events": 0,  # the stream as stored: nothing to fold
    "players add": 1,
    "mission plan": 2,
    "mission start": 2,
    "pilot enlist": 2,
    "adjustment": 1,
    "build create": 2,
    "build revise": 2,
    "build repair": 1,
}


@pytest.mark.parametrize(("name", "method", "path", "body", "gm", "player"), ENDPOINTS, ids=IDS)
def test_each_request_folds_the_campaign_stream_as_few_times_as_it_must(
    world: World,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    method: str,
    path: str,
    body: Body,
    gm: int,
    player: int,
) -> None:
    from campaigns.codec import CAMPAIGN_EVENTS

    folds = []
    fold = CAMPAIGN_EVENTS.fold
    monkeypatch.setattr(CAMPAIGN_EVENTS, "fold", lambda *a, **k: folds.append(1) or fold(*a, **k))
    assert call(world, world.dc.gm, method, path, body).status_code == gm
    assert len(folds) == FOLDS.get(name, 1)


@pytest.mark.parametrize(("name", "method", "path", "body", "gm", "player"), ENDPOINTS, ids=IDS)
def test_the_gm_reads_and_changes_everything(
    world: World, name: str, method: str, path: str, body: Body, gm: int, player: int
) -> None:
    response = call(world, world.dc.gm, method, path, body)
    assert response.status_code == gm, response.content


@pytest.mark.parametrize(("name", "method", "path", "body", "gm", "player"), ENDPOINTS, ids=IDS)
def test_a_player_reads_everything_and_changes_only_their_builds(
    world: World, name: str, method: str, path: str, body: Body, gm: int, player: int
) -> None:
    before = campaign_state(campaign=world.dc.campaign).version
    response = call(world, world.dc.ann, method, path, body)
    assert response.status_code == player, response.content
    if player == 403:
        assert campaign_state(campaign=world.dc.campaign).version == before


@pytest.mark.parametrize(("name", "method", "path", "body", "gm", "player"), ENDPOINTS, ids=IDS)
def test_an_outsider_does_not_learn_a_private_campaign_exists(
    world: World, name: str, method: str, path: str, body: Body, gm: int, player: int
) -> None:
    assert call(world, world.outsider, method, path, body).status_code == 404


@pytest.mark.parametrize(("name", "method", "path", "body", "gm", "player"), ENDPOINTS, ids=IDS)
def test_an_outsider_is_refused_a_public_campaign(
    name: str, method: str, path: str, body: Body, gm: int, player: int
) -> None:
    w = make_world(private=False)
    before = campaign_state(campaign=w.dc.campaign).version
    assert call(w, w.outsider, method, path, body).status_code == 403
    assert campaign_state(campaign=w.dc.campaign).version == before


@pytest.mark.parametrize(("name", "method", "path", "body", "gm", "player"), ENDPOINTS, ids=IDS)
def test_anonymous_requests_are_401(
    world: World, name: str, method: str, path: str, body: Body, gm: int, player: int
) -> None:
    response = call(world, None, method, path, body)
    assert response.status_code == 401
    assert response.has_header("WWW-Authenticate")


def test_anonymous_requests_to_the_campaign_list_are_401() -> None:
    assert client_for(None).get("/api/campaigns/").status_code == 401
    assert client_for(None).post("/api/campaigns/", {"name": "x"}, format="json").status_code == 401


@pytest.mark.parametrize(
    "path",
    [
        "{c}/missions/00000000-0000-0000-0000-000000000000/",
        "{c}/pilots/00000000-0000-0000-0000-000000000000/",
        "{c}/pilots/00000000-0000-0000-0000-000000000000/career",
        "{c}/builds/00000000-0000-0000-0000-000000000000/",
        "{c}/builds/{b}/versions/2/",
        "{c}/builds/{b}/versions/0/",
        "00000000-0000-0000-0000-000000000000/",
    ],
)
def test_unknown_ids_in_the_url_are_404(world: World, path: str) -> None:
    assert client_for(world.dc.gm).get(world.url(path)).status_code == 404


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("{c}/missions/00000000-0000-0000-0000-000000000000/start", {}),
        ("{c}/pilots/00000000-0000-0000-0000-000000000000/adjustments", {}),
        ("{c}/builds/00000000-0000-0000-0000-000000000000/revisions", build_body()),
        ("{c}/builds/00000000-0000-0000-0000-000000000000/repair", {"reason": "r"}),
    ],
)
def test_writes_to_unknown_ids_are_404(world: World, path: str, body: dict[str, Any]) -> None:
    response = client_for(world.dc.gm).post(world.url(path), body, format="json")
    assert response.status_code == 404


# --- campaigns ------------------------------------------------------------------------------------


def test_the_creator_of_a_campaign_is_its_gm_and_it_is_private_by_default() -> None:
    (gm,) = make_users("gm")
    client = client_for(gm)
    response = client.post("/api/campaigns/", {"name": "  Cinders "}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["name"], body["gm"], body["role"], body["private"]) == (
        "Cinders",
        "gm",
        "gm",
        True,
    )
    assert body["rules"]["version"] == "2.1"  # the default ruleset (RULINGS.md "Ruleset 2.1")
    assert Campaign.objects.get(id=body["id"]).gm == gm
    listed = client.get("/api/campaigns/").json()
    assert [(c["id"], c["role"]) for c in listed] == [(body["id"], "gm")]


def test_the_list_holds_the_campaigns_a_user_runs_or_plays_and_no_others(world: World) -> None:
    other = demo_campaign(prefix="x-")
    ann = client_for(world.dc.ann).get("/api/campaigns/").json()
    assert [(c["id"], c["role"], c["gm"]) for c in ann] == [
        (str(world.dc.campaign.id), "player", "gm")
    ]
    assert client_for(world.outsider).get("/api/campaigns/").json() == []
    assert {c["id"] for c in client_for(other.gm).get("/api/campaigns/").json()} == {
        str(other.campaign.id)
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "x" * 121}, "name"),
        ({"name": "Ash", "private": "yes"}, "private"),
        ({"name": "Ash", "colour": "red"}, "colour"),
        ({"name": "Ash", "rules": {"version": "9.9"}}, "rules.version"),
    ],
)
def test_a_bad_campaign_is_400_naming_the_field(body: dict[str, Any], field: str) -> None:
    (gm,) = make_users("gm")
    response = client_for(gm).post("/api/campaigns/", body, format="json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == [field]
    assert not Campaign.objects.exists()


def test_the_campaign_page_is_a_projection_of_its_stream(world: World) -> None:
    body = client_for(world.dc.ann).get(world.url("{c}/")).json()
    assert body["role"] == "player"
    assert body["players"] == ["ann", "bob"]
    assert [p["name"] for p in body["pilots"]] == [p.name for p in world.dc.pilots]
    assert [b["id"] for b in body["builds"]] == [str(b.id) for b in world.dc.builds]
    assert [(m["number"], m["name"], m["status"]) for m in body["missions"]] == [
        (1, "Ember Road", "planned")
    ]
    assert body["version"] == campaign_state(campaign=world.dc.campaign).version


def test_the_events_are_the_campaign_stream(world: World) -> None:
    body = client_for(world.dc.ann).get(world.url("{c}/events")).json()
    types = [e["type"] for e in body["events"]]
    assert types[:2] == ["CampaignCreated", "PlayerJoined"]
    assert types[-1] == "MissionPlanned"
    assert body["version"] == len(types) == campaign_state(campaign=world.dc.campaign).version
    first = body["events"][0]
    assert first["stream_type"] == "campaign" and first["stream_id"] == str(world.dc.campaign.id)
    assert (first["metadata"]["actor"], first["metadata"]["adjustment"]) == ("gm", False)


def test_the_gm_adds_players_by_username(world: World) -> None:
    client = client_for(world.dc.gm)
    response = client.post(world.url("{c}/players"), {"username": "carl"}, format="json")
    assert response.status_code == 201
    assert response.json()["players"] == ["ann", "bob", "carl"]
    assert client_for(world.newcomer).get(world.url("{c}/")).json()["role"] == "player"
    again = client.post(world.url("{c}/players"), {"username": "carl"}, format="json")
    assert (again.status_code, again.json()["code"]) == (422, "already_a_player")
    nobody = client.post(world.url("{c}/players"), {"username": "zed"}, format="json")
    assert [e["field"] for e in nobody.json()["errors"]] == ["username"]


def test_a_stale_campaign_is_409(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    def moved_on(**_: Any) -> None:
        raise ConcurrencyError(StreamRef("campaign", str(world.dc.campaign.id)), 7, 8)

    monkeypatch.setattr(services, "mission_plan", moved_on)
    response = client_for(world.dc.gm).post(
        world.url("{c}/missions"), {"name": "Late"}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["code"] == "stale_version"
    assert response.json()["current_version"] == 8


# --- missions -------------------------------------------------------------------------------------


def test_the_gm_plans_missions_in_order(world: World) -> None:
    response = client_for(world.dc.gm).post(
        world.url("{c}/missions"), {"name": "Ash Fields"}, format="json"
    )
    assert response.status_code == 201
    assert (response.json()["number"], response.json()["status"]) == (2, "planned")
    rows = client_for(world.dc.bob).get(world.url("{c}/missions")).json()
    assert [m["name"] for m in rows] == ["Ember Road", "Ash Fields"]


def test_starting_a_mission_creates_its_battle_and_links_it(world: World) -> None:
    gm = client_for(world.dc.gm)
    body = {"board": demo_board(), "seats": seats(world.dc), "dice": {"mode": "digital", "seed": 3}}
    response = gm.post(world.url("{c}/missions/{m}/start"), body, format="json")
    assert response.status_code == 201, response.content
    out = response.json()
    assert out["battle_url"] == f"/api/battles/{out['battle']}/"
    assert out["mission"]["status"] == "in_progress"
    assert [d["build_version"] for d in out["mission"]["deployments"]] == [1, 1]
    battle = gm.get(out["battle_url"]).json()
    assert battle["id"] == out["battle"] and battle["gm"] == "gm"
    mission = client_for(world.dc.ann).get(world.url("{c}/missions/{m}/")).json()
    assert mission["battle"] == out["battle"]
    again = gm.post(world.url("{c}/missions/{m}/start"), body, format="json")
    assert (again.status_code, again.json()["code"]) == (422, "mission_started")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda b: b.pop("board"), "board"),
        (lambda b: b["seats"][0].update(at=[0]), "seats[0].at"),
        (lambda b: b["seats"][1].update(facing=9), "seats[1].facing"),
        (lambda b: b["seats"][0].update(pilot="nobody"), "seats[0].pilot"),
        (
            lambda b: b["seats"][0].update(pilot="00000000-0000-0000-0000-000000000000"),
            "seats[0].pilot",
        ),
        (lambda b: b["seats"][0].update(build_version=5), "seats[0].build_version"),
        (lambda b: b["seats"][0].update(colour="red"), "seats[0].colour"),
        (lambda b: b.update(policy="lazy"), "policy"),
        (lambda b: b["seats"].pop(), "seats"),
    ],
)
def test_a_bad_mission_start_is_400_naming_the_field(
    world: World, change: Callable[[dict[str, Any]], Any], field: str
) -> None:
    body = {"board": demo_board(), "seats": seats(world.dc)}
    change(body)
    response = client_for(world.dc.gm).post(
        world.url("{c}/missions/{m}/start"), body, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["field"] == field
    assert Mission.objects.get(id=world.mission.id).battle_id is None


def test_a_mission_seat_may_be_the_bot_and_its_player_watches(world: World) -> None:
    """`"bot": true` on a seat: the server's bot plays that pilot and build (R-ADD-210,
    R-ADD-335); the pilot's player watches the battle."""
    gm = client_for(world.dc.gm)
    body = {"board": demo_board(), "seats": seats(world.dc), "dice": {"mode": "digital"}}
    body["seats"][1]["bot"] = True
    response = gm.post(world.url("{c}/missions/{m}/start"), body, format="json")
    assert response.status_code == 201, response.content
    battle = gm.get(response.json()["battle_url"]).json()
    assert [seat["player"] for seat in battle["seats"]] == ["ann", BOT_PLAYER]
    bob_view = client_for(world.dc.bob).get(response.json()["battle_url"])
    assert (bob_view.status_code, bob_view.json()["role"]) == (200, "watcher")


@pytest.mark.parametrize(
    ("bot", "dice", "rule"),
    [("yes", {"mode": "digital"}, "R-ADD-211"), (True, {"mode": "table"}, "R-ADD-212")],
)
def test_a_bad_bot_seat_is_refused_naming_the_rule_and_starts_nothing(
    world: World, bot: object, dice: dict[str, str], rule: str
) -> None:
    body = {"board": demo_board(), "seats": seats(world.dc), "dice": dice}
    body["seats"][1]["bot"] = bot
    response = client_for(world.dc.gm).post(
        world.url("{c}/missions/{m}/start"), body, format="json"
    )
    assert response.status_code == 400, response.content
    error = response.json()["errors"][0]
    assert (error["field"], error["rule"]) == ("seats[1].bot", rule)
    assert Mission.objects.get(id=world.mission.id).battle_id is None


def test_a_dead_pilot_cannot_be_deployed() -> None:
    """The tenth wound flipped kills the pilot; the next mission refuses them (R-PLT-1)."""
    dc = demo_campaign(rules={"version": "2.0"})  # seed 9 kills under 2.0's endless decks
    _, battle = start_mission(dc, seed=SEED)
    finish(battle, dc.gm)  # the battle ends and its outcome is applied
    client = client_for(dc.gm)
    base = f"/api/campaigns/{dc.campaign.id}"
    ann_pilot = client.get(f"{base}/pilots/{dc.pilots[0].id}/").json()
    assert ann_pilot["status"] == "dead"
    mission = client.post(f"{base}/missions", {"name": "Too soon"}, format="json").json()
    response = client.post(
        f"{base}/missions/{mission['id']}/start",
        {"board": demo_board(), "seats": seats(dc)},
        format="json",
    )
    assert response.status_code == 422
    assert (response.json()["code"], response.json()["rule"]) == ("pilot_dead", "R-PLT-1")
    assert client.get(f"{base}/missions/{mission['id']}/").json()["status"] == "planned"

    career = client_for(dc.ann).get(f"{base}/pilots/{dc.pilots[0].id}/career").json()
    assert career["totals"]["missions"] == 1
    types = {e["type"] for e in career["events"]}
    assert {"PilotEnlisted", "PilotDied", "WoundFlipped"} <= types
    assert {e["source"] for e in career["events"]} == {"campaign", "battle"}


# --- pilots ---------------------------------------------------------------------------------------


def test_the_gm_enlists_pilots_for_players(world: World) -> None:
    response = client_for(world.dc.gm).post(
        world.url("{c}/pilots"),
        {"player": "bob", "name": "Brother Cole", "faction": "church", "sp_modifier": -1},
        format="json",
    )
    assert response.status_code == 201, response.content
    pilot = response.json()
    assert (pilot["player"], pilot["status"], pilot["sp_modifier"]) == ("bob", "alive", -1)
    listed = client_for(world.dc.ann).get(world.url("{c}/pilots")).json()
    assert pilot["id"] in [p["id"] for p in listed]


@pytest.mark.parametrize(
    ("body", "status", "field_or_code"),
    [
        ({"player": "carl", "name": "X"}, 422, "not_a_player"),
        ({"player": "ann", "name": "X", "sp_modifier": 4}, 400, "sp_modifier"),
        ({"player": "ann", "name": "X", "sp_modifier": "1"}, 400, "sp_modifier"),
        ({"player": "ann"}, 400, "name"),
    ],
)
def test_a_refused_enlistment_names_the_field_or_the_rule(
    world: World, body: dict[str, Any], status: int, field_or_code: str
) -> None:
    response = client_for(world.dc.gm).post(world.url("{c}/pilots"), body, format="json")
    assert response.status_code == status
    out = response.json()
    assert (out["errors"][0]["field"] if status == 400 else out["code"]) == field_or_code


ADJUSTMENTS = [
    # A battle's Taint change is play; the GM's is an adjustment (the command marks it).
    pytest.param(
        {"kind": "taint", "delta": 3, "reason": "fed the furnace"},
        "TaintChanged",
        lambda p: p["taint"] == 3,
        id="taint",
    ),
    pytest.param(
        {"kind": "scar", "scar": "burnt hand", "reason": "the furnace"},
        "ScarGained",
        lambda p: p["scars"] == ["burnt hand"],
        id="scar",
    ),
    pytest.param(
        {"kind": "sp_modifier", "sp_modifier": 2, "reason": "veteran"},
        "GMAdjusted",
        lambda p: p["sp_modifier"] == 2,
        id="sp_modifier",
    ),
    pytest.param(
        {"kind": "retire", "reason": "took the vows"},
        "PilotRetired",
        lambda p: p["status"] == "retired",
        id="retire",
    ),
]


@pytest.mark.parametrize(("body", "event", "check"), ADJUSTMENTS)
def test_an_adjustment_changes_the_pilot_and_is_an_adjustment_event(
    world: World, body: dict[str, Any], event: str, check: Callable[[dict[str, Any]], bool]
) -> None:
    gm = client_for(world.dc.gm)
    response = gm.post(world.url("{c}/pilots/{p}/adjustments"), body, format="json")
    assert response.status_code == 201, response.content
    assert check(response.json())
    assert check(client_for(world.dc.ann).get(world.url("{c}/pilots/{p}/")).json())
    last = gm.get(world.url("{c}/events")).json()["events"][-1]
    assert last["type"] == event
    assert last["payload"]["reason"] == body["reason"]
    assert last["payload"]["pilot_id"] == str(world.dc.pilots[0].id)
    assert (last["metadata"]["actor"], last["metadata"]["adjustment"]) == ("gm", True)


def test_a_taint_adjustment_is_recorded_with_its_reason(world: World) -> None:
    gm = client_for(world.dc.gm)
    body = {"kind": "taint", "delta": 3, "reason": "fed the furnace"}
    response = gm.post(world.url("{c}/pilots/{p}/adjustments"), body, format="json")
    assert response.status_code == 201
    assert response.json()["taint"] == 3
    last = gm.get(world.url("{c}/events")).json()["events"][-1]
    assert (last["type"], last["payload"]["delta"], last["payload"]["reason"]) == (
        "TaintChanged",
        3,
        "fed the furnace",
    )
    assert last["metadata"]["actor"] == "gm"


@pytest.mark.parametrize(
    ("body", "status", "field_or_code"),
    [
        ({"kind": "taint", "reason": "r"}, 400, "delta"),
        ({"kind": "taint", "delta": 1, "scar": "x", "reason": "r"}, 400, "scar"),
        ({"kind": "taint", "delta": 1}, 400, "reason"),
        ({"kind": "taint", "delta": 1, "reason": " "}, 400, "reason"),
        ({"kind": "taint", "delta": "1", "reason": "r"}, 400, "delta"),
        ({"kind": "taint", "delta": -1, "reason": "r"}, 422, "taint_out_of_range"),
        ({"kind": "heal", "reason": "r"}, 400, "kind"),
        ({"kind": "treat_trauma", "wound": "trauma-1", "reason": "r"}, 422, "no_such_trauma"),
        ({"kind": "treat_trauma", "wound": "nope", "reason": "r"}, 422, "no_such_trauma"),
        ({"kind": "sp_modifier", "sp_modifier": 7, "reason": "r"}, 400, "sp_modifier"),
    ],
)
def test_a_refused_adjustment_names_the_field_or_the_rule(
    world: World, body: dict[str, Any], status: int, field_or_code: str
) -> None:
    before = campaign_state(campaign=world.dc.campaign).version
    response = client_for(world.dc.gm).post(
        world.url("{c}/pilots/{p}/adjustments"), body, format="json"
    )
    assert response.status_code == status, response.content
    out = response.json()
    assert (out["errors"][0]["field"] if status == 400 else out["code"]) == field_or_code
    assert campaign_state(campaign=world.dc.campaign).version == before


# --- builds ---------------------------------------------------------------------------------------


def test_a_player_creates_a_build_for_themselves(world: World) -> None:
    response = client_for(world.dc.bob).post(world.url("{c}/builds"), build_body(), format="json")
    assert response.status_code == 201, response.content
    build = response.json()
    assert (build["player"], build["current_version"], build["name"]) == ("bob", 1, "Scout Mk II")
    assert build["versions"][0]["deck"][0] == {"card": "pyre-lance", "version": 1, "count": 4}


def test_a_player_may_not_create_a_build_for_another_player(world: World) -> None:
    response = client_for(world.dc.bob).post(
        world.url("{c}/builds"), build_body(player="ann"), format="json"
    )
    assert response.status_code == 403


def test_the_gm_creates_builds_for_a_named_player(world: World) -> None:
    gm = client_for(world.dc.gm)
    response = gm.post(world.url("{c}/builds"), build_body(player="bob"), format="json")
    assert (response.status_code, response.json()["player"]) == (201, "bob")
    mine = gm.post(world.url("{c}/builds"), build_body(), format="json")
    assert (mine.status_code, mine.json()["code"]) == (422, "not_a_player")


def test_a_bad_deck_is_400_listing_every_problem(world: World) -> None:
    bad = [
        {"card": "pyre-lance", "count": 4},
        {"card": "pyre-lance", "count": 2},
        {"card": "litany-carbine", "count": 5},
    ]
    response = client_for(world.dc.ann).post(
        world.url("{c}/builds"), build_body(deck=bad), format="json"
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["field"], e["rule"], e["code"]) for e in errors] == [
        ("deck[1]", "R-TRN-1", "duplicate_card"),
        ("deck", "R-TRN-1", "deck_size"),
    ]
    assert all(e["message"] for e in errors)
    assert len(campaign_state(campaign=world.dc.campaign).builds) == 2


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"deck": [{"card": "pyre-lance", "count": "4"}]}, "deck[0].count"),
        ({"deck": [{"card": "pyre-lance", "count": 4, "x": 1}]}, "deck[0].x"),
        ({"deck": [{"card": "no-such-card", "count": 30}]}, "deck[0].card"),
        ({"deck": [{"card": "pyre-lance", "version": 9, "count": 30}]}, "deck[0].card"),
        ({"deck": []}, "deck"),
        ({"deck": "all of them"}, "deck"),
        ({"casket_class": "dreadnought"}, "casket_class"),
        ({"shield": "up"}, "shield"),
        ({"equipment": "rope"}, "equipment"),
        ({"name": ""}, "name"),
    ],
)
def test_a_bad_build_is_400_naming_the_field(
    world: World, change: dict[str, Any], field: str
) -> None:
    response = client_for(world.dc.ann).post(
        world.url("{c}/builds"), build_body(**change), format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["field"] == field


def test_a_revision_makes_a_new_version_and_keeps_the_old(world: World) -> None:
    ann = client_for(world.dc.ann)
    response = ann.post(
        world.url("{c}/builds/{b}/revisions"),
        build_body(name="Scout Mk III", shield="right", equipment=["grapnel"]),
        format="json",
    )
    assert response.status_code == 201, response.content
    build = response.json()
    assert build["current_version"] == 2
    assert [v["shield"] for v in build["versions"]] == ["left", "right"]
    old = ann.get(world.url("{c}/builds/{b}/versions/1/")).json()
    assert (old["version"], old["shield"], old["equipment"]) == (1, "left", [])
    new = ann.get(world.url("{c}/builds/{b}/versions/2/")).json()
    assert (new["name"], new["equipment"], new["player"]) == ("Scout Mk III", ["grapnel"], "ann")


def test_a_player_may_not_revise_another_players_build(world: World) -> None:
    before = campaign_state(campaign=world.dc.campaign).version
    response = client_for(world.dc.bob).post(
        world.url("{c}/builds/{b}/revisions"), build_body(), format="json"
    )
    assert response.status_code == 403
    assert campaign_state(campaign=world.dc.campaign).version == before


def test_the_gm_revises_a_players_build_and_it_stays_theirs(world: World) -> None:
    gm = client_for(world.dc.gm)
    url = world.url("{c}/builds/{b}/revisions")
    response = gm.post(url, build_body(player="ann"), format="json")
    assert (response.status_code, response.json()["player"]) == (201, "ann")
    moved = gm.post(url, build_body(player="bob"), format="json")
    assert [e["field"] for e in moved.json()["errors"]] == ["player"]


def test_a_build_version_lists_its_cards(world: World) -> None:
    body = client_for(world.dc.bob).get(world.url("{c}/builds/{b}/versions/1/")).json()
    assert (body["build"], body["player"]) == (str(world.dc.builds[0].id), "ann")
    assert sum(r["count"] for r in body["deck"]) == 30
    for row in body["deck"]:
        cv = CardVersion.objects.get(card_id=row["card"], version=row["version"])
        assert (row["name"], row["kind"], row["sp_cost"]) == (cv.name, cv.kind, cv.sp_cost)


def test_the_gm_repairs_carried_component_damage() -> None:
    """Under persistent_component_damage a casket keeps its damage until repaired (R-PLT-5)."""
    dc = demo_campaign(rules=PERSISTENT)
    _, battle = start_mission(dc, seed=SEED)
    finish(battle, dc.gm)
    url = f"/api/campaigns/{dc.campaign.id}/builds/{dc.builds[1].id}/"
    assert client_for(dc.bob).get(url).json()["component_damage"]
    bob = client_for(dc.bob).post(f"{url}repair", {"reason": "forge"}, format="json")
    assert bob.status_code == 403
    gm = client_for(dc.gm)
    assert [e["field"] for e in gm.post(f"{url}repair", {}, format="json").json()["errors"]] == [
        "reason"
    ]
    response = gm.post(f"{url}repair", {"reason": "the forge at Vell"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["component_damage"] == {}
    last = gm.get(f"/api/campaigns/{dc.campaign.id}/events").json()["events"][-1]
    assert (last["type"], last["metadata"]["adjustment"]) == ("CasketRepaired", True)
