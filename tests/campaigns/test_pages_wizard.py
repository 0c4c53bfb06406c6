"""Issue 14: the GM's mission wizard: a library board, deployments by form fields, dice and
prompt policy; the campaign's ruleset (R-PLT-5); a dead pilot refused (R-PLT-1)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from battles.engine.board import parse_board
from battles.engine.hexes import Hex
from battles.selectors import battle_setup
from campaigns import domain, selectors, services
from campaigns.models import Mission

from .builders import demo_campaign, make_users
from .test_pages_campaign import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def dc() -> Any:
    return demo_campaign()


@pytest.fixture
def mission(dc: Any) -> Mission:
    return services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="Cinder Road")


def url(dc: Any, mission: Mission) -> str:
    return f"/campaigns/{dc.campaign.id}/missions/{mission.id}/start/"


def wizard_form(dc: Any, board: str = "ash-causeway", **extra: str) -> dict[str, str]:
    lib = {b.slug: b for b in selectors.board_library()}
    data = {"board": board, "dice_mode": "digital", "seed": "5", "policy": "auto"}
    for i, (pilot, build) in enumerate(zip(dc.pilots, dc.builds, strict=True)):
        q, r, facing = lib[board].deploy[i] if board in lib else (0, -4 + 8 * i, 4 - 3 * i)
        data.update(
            {
                f"deploy-{pilot.id}": "on",
                f"build-{pilot.id}": str(build.id),
                f"side-{pilot.id}": ("penitents", "bastion")[i],
                f"q-{pilot.id}": str(q),
                f"r-{pilot.id}": str(r),
                f"facing-{pilot.id}": str(facing),
            }
        )
    data.update(extra)
    return data


def test_library_boards_are_board_documents_with_valid_deployments() -> None:
    library = selectors.board_library()
    assert len(library) >= 3
    for b in library:
        board = parse_board(b.document)  # FORMATS.md board document
        assert b.name == b.document["name"]
        assert len(b.deploy) >= 2
        for q, r, facing in b.deploy:
            assert Hex(q, r) in board.cells and not board.terrain_at(Hex(q, r)).impassable
            assert 1 <= facing <= 6


def test_wizard_access_gm_only_players_403_outsiders_404(dc: Any, mission: Mission) -> None:
    (outsider,) = make_users("outsider")
    assert client_for(dc.gm).get(url(dc, mission)).status_code == 200
    assert client_for(dc.ann).get(url(dc, mission)).status_code == 403
    assert client_for(outsider).get(url(dc, mission)).status_code == 404
    assert Client().get(url(dc, mission))["Location"].startswith("/accounts/login/")
    r = client_for(dc.ann).post(url(dc, mission), wizard_form(dc))
    assert r.status_code == 403
    mission.refresh_from_db()
    assert mission.status == Mission.Status.PLANNED


def test_campaign_page_offers_the_wizard_for_the_next_mission_to_the_gm(
    dc: Any, mission: Mission
) -> None:
    page = f"/campaigns/{dc.campaign.id}/"
    assert url(dc, mission) in client_for(dc.gm).get(page).content.decode()
    assert url(dc, mission) not in client_for(dc.ann).get(page).content.decode()


def test_wizard_suggests_deployments_from_the_board(dc: Any, mission: Mission) -> None:
    body = client_for(dc.gm).get(url(dc, mission), {"board": "chapel-ruins"}).content.decode()
    chapel = next(b for b in selectors.board_library() if b.slug == "chapel-ruins")
    for pilot in dc.pilots:
        assert f'id="deploy-{pilot.id}" name="deploy-{pilot.id}" checked' in body
    placed = {
        (int(q), int(r))
        for q, r in zip(
            re.findall(r'name="q-[0-9a-f-]+" value="(-?\d+)"', body),
            re.findall(r'name="r-[0-9a-f-]+" value="(-?\d+)"', body),
            strict=True,
        )
    }
    assert placed == {(q, r) for q, r, _ in chapel.deploy[:2]}
    assert "Ruleset <strong>2.1</strong>" in body and "R-PLT-5" in body


@pytest.mark.parametrize("board", ["ash-causeway", "chapel-ruins", "drowned-crossing"])
def test_starting_a_mission_on_a_library_board_opens_its_battle(
    dc: Any, mission: Mission, board: str
) -> None:
    r = client_for(dc.gm).post(url(dc, mission), wizard_form(dc, board))
    mission.refresh_from_db()
    assert mission.status == Mission.Status.IN_PROGRESS
    assert r.status_code == 302 and r["Location"] == f"/battles/{mission.battle_id}/replay/"
    setup = battle_setup(battle=mission.battle)
    library = {b.slug: b for b in selectors.board_library()}
    assert setup["board"]["name"] == library[board].name
    assert setup["policy"] == "auto"
    assert setup["dice"]["mode"] == "digital" and setup["dice"]["seed"] == 5
    assert [s["facing"] for s in setup["seats"]] == [f for _, _, f in library[board].deploy[:2]]


def test_a_custom_board_document_can_be_pasted(dc: Any, mission: Mission) -> None:
    doc = {"name": "Pit", "shape": {"kind": "hexagon", "radius": 5}, "hexes": []}
    form = wizard_form(dc, "custom", board_document=json.dumps(doc))
    r = client_for(dc.gm).post(url(dc, mission), form)
    assert r.status_code == 302
    mission.refresh_from_db()
    assert battle_setup(battle=mission.battle)["board"]["name"] == "Pit"


def _kill(dc: Any, pilot: Any) -> None:
    """The pilot dies (as a battle's outcome would record it, R-PLT-1)."""
    from django.db import transaction

    class Outcome(domain.Command):
        pass

    with transaction.atomic():
        state = selectors.campaign_state(campaign=dc.campaign)
        event = domain.PilotDied(str(pilot.id), "", "", "R-PLT-1")
        services._record(dc.campaign, None, state, Outcome(), [event])


def test_a_dead_pilot_cannot_be_picked_with_the_reason(dc: Any, mission: Mission) -> None:
    _kill(dc, dc.pilots[0])
    body = client_for(dc.gm).get(url(dc, mission)).content.decode()
    pid = dc.pilots[0].id
    assert re.search(rf'name="deploy-{pid}"\s+disabled', body)
    assert "Cannot deploy: dead: all 10 wounds face up (R-PLT-1)" in body
    # forcing the dead pilot into the form is refused by the service, naming R-PLT-1
    r = client_for(dc.gm).post(url(dc, mission), wizard_form(dc))
    assert r.status_code == 400
    assert "is dead" in r.content.decode() and "R-PLT-1" in r.content.decode()
    mission.refresh_from_db()
    assert mission.status == Mission.Status.PLANNED and mission.battle_id is None


def test_a_retired_pilot_is_refused_too(dc: Any, mission: Mission) -> None:
    services.pilot_retire(
        campaign=dc.campaign, actor=dc.gm, pilot_id=str(dc.pilots[1].id), reason="Old"
    )
    r = client_for(dc.gm).post(url(dc, mission), wizard_form(dc))
    assert r.status_code == 400 and "R-ADD-31" in r.content.decode()


@pytest.mark.parametrize(
    ("change", "field", "rule"),
    [
        ({"q-0": "north"}, "seats[0].at (q of Sister Ophelia Vance)", "R-BRD-1"),
        ({"facing-1": "9"}, "seats[1].facing", "R-BRD-2"),
        ({"build-0": "build-1"}, "seats[0].build (Sister Ophelia Vance)", "R-ADD-31"),
        ({"board": "moon"}, "board", ""),
        ({"board": "custom", "board_document": "{nope"}, "board_document", "R-BRD-1"),
        ({"seed": "x"}, "seed", ""),
        ({"dice_mode": "psychic"}, "dice.mode", ""),
        ({"policy": "maybe"}, "policy", ""),
    ],
)
def test_bad_wizard_input_is_a_400_naming_field_and_rule_and_starts_nothing(
    dc: Any, mission: Mission, change: dict[str, str], field: str, rule: str
) -> None:
    form = wizard_form(dc)
    pids = [str(p.id) for p in dc.pilots]
    bids = [str(b.id) for b in dc.builds]
    for key, value in change.items():
        name, _, index = key.rpartition("-")
        if index.isdigit():
            key = f"{name}-{pids[int(index)]}"
        form[key] = bids[1] if value == "build-1" else value
    r = client_for(dc.gm).post(url(dc, mission), form)
    assert r.status_code == 400
    body = r.content.decode()
    assert f"<strong>{field}" in body and rule in body and "Nothing was changed" in body
    mission.refresh_from_db()
    assert mission.status == Mission.Status.PLANNED and mission.battle_id is None


def test_a_started_mission_says_so(dc: Any, mission: Mission) -> None:
    client_for(dc.gm).post(url(dc, mission), wizard_form(dc))
    body = client_for(dc.gm).get(url(dc, mission)).content.decode()
    assert "already in progress" in body
    r = client_for(dc.gm).post(url(dc, mission), wizard_form(dc))
    assert r.status_code == 400 and "R-PLT-5" in r.content.decode()


def test_without_a_seed_digital_dice_are_sealed(dc: Any, mission: Mission) -> None:
    """R-ADD-45: no seed, no way to compute the dice while the battle runs."""
    r = client_for(dc.gm).post(url(dc, mission), wizard_form(dc, seed=""))
    assert r.status_code == 302
    mission.refresh_from_db()
    dice = battle_setup(battle=mission.battle)["dice"]
    assert dice["mode"] == "digital" and dice["seed_public"] is False and dice["seed"] is None
    assert dice["commitment"]


def test_each_pilot_is_offered_their_own_builds_first(dc: Any, mission: Mission) -> None:
    """R-ADD-220: a pilot's own builds, then their player's builds of no pilot, then the
    player's other pilots' builds (named here against that order, so a sort by name fails)."""
    from battles.engine.demo import DEMO_DECKS

    second = services.pilot_enlist(
        campaign=dc.campaign, actor=dc.gm, player=dc.ann.username, name="Sister Second"
    )
    deck = [{"card": c, "count": n} for c, n in DEMO_DECKS["penitent-scout"]]

    def build(name: str, pilot: Any) -> Any:
        made, _ = services.build_revise(
            campaign=dc.campaign,
            actor=dc.ann,
            build_id=None,
            name=name,
            casket_class="scout",
            shield="left",
            deck=deck,
            pilot=str(pilot.id),
        )
        return str(made.id)

    firsts, seconds = build("A first's", dc.pilots[0]), build("Z second's", second)
    free = str(dc.builds[0].id)  # Ann's build of no pilot, "Penitent Scout"
    body = client_for(dc.gm).get(url(dc, mission)).content.decode()

    def offered(pilot: Any) -> list[str]:
        select = body.split(f'name="build-{pilot.id}"')[1].split("</select>")[0]
        return re.findall(r'<option value="([^"]+)"', select)

    assert offered(dc.pilots[0]) == [firsts, free, seconds]
    assert offered(second) == [seconds, free, firsts]
