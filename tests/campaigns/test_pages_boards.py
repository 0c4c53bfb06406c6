"""Issue 14: the board editor. A campaign's GM creates a board from a shape, paints terrain
and levels hex by hex (saved at once as a FORMATS.md board document, checked by the engine's
board parser, a refusal naming its field and rule), previews a line of sight with the
engine's LOS and cover, and the mission wizard offers the board."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from battles.engine.board import parse_board
from battles.selectors import battle_setup
from campaigns import services
from campaigns.models import CampaignBoard, Mission

from .builders import demo_campaign, make_users
from .test_pages_campaign import client_for
from .test_pages_wizard import url as wizard_url
from .test_pages_wizard import wizard_form

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def dc() -> Any:
    return demo_campaign()


@pytest.fixture
def board(dc: Any) -> CampaignBoard:
    return services.board_create(
        campaign=dc.campaign, actor=dc.gm, name="Pit", shape={"kind": "hexagon", "radius": 3}
    )


def boards(dc: Any) -> str:
    return f"/campaigns/{dc.campaign.id}/boards/"


def editor(dc: Any, board: CampaignBoard) -> str:
    return f"{boards(dc)}{board.id}/"


def test_board_pages_are_the_gms_only(dc: Any, board: CampaignBoard) -> None:
    (outsider,) = make_users("outsider")
    pages = [boards(dc), editor(dc, board)]
    posts = [
        (boards(dc), {"name": "X", "kind": "hexagon", "radius": "2"}),
        (f"{editor(dc, board)}paint", {"q": "0", "r": "0", "terrain": "wall", "level": "0"}),
        (f"{editor(dc, board)}delete", {}),
    ]
    for page in pages:
        assert client_for(dc.gm).get(page).status_code == 200
        assert client_for(dc.ann).get(page).status_code == 403
        assert client_for(outsider).get(page).status_code == 404
        assert Client().get(page)["Location"].startswith("/accounts/login/")
    for page, data in posts:
        assert client_for(dc.ann).post(page, data).status_code == 403
        assert client_for(outsider).post(page, data).status_code == 404
        assert Client().post(page, data).status_code == 302
    board.refresh_from_db()
    assert board.document["hexes"] == [] and CampaignBoard.objects.count() == 1


def test_creating_a_board_opens_its_editor_with_every_hex_drawn(dc: Any) -> None:
    r = client_for(dc.gm).post(
        boards(dc), {"name": "Quarry", "kind": "rectangle", "width": "6", "height": "4"}
    )
    board = CampaignBoard.objects.get(name="Quarry")
    assert r.status_code == 302 and r["Location"] == editor(dc, board)
    assert board.document == {
        "name": "Quarry",
        "shape": {"kind": "rectangle", "width": 6, "height": 4},
        "hexes": [],
    }
    body = client_for(dc.gm).get(editor(dc, board)).content.decode()
    assert len(re.findall(r'data-hex="-?\d+,-?\d+" tabindex="0" role="button"', body)) == 24
    assert "Quarry" in client_for(dc.gm).get(boards(dc)).content.decode()


@pytest.mark.parametrize(
    ("data", "field", "rule"),
    [
        ({"name": "X", "kind": "hexagon", "radius": "-1"}, "board.shape.radius", ""),
        ({"name": "X", "kind": "hexagon", "radius": "big"}, "board.shape.radius", "R-BRD-1"),
        ({"name": "X", "kind": "hexagon", "radius": "40"}, "board.shape.radius", ""),
        ({"name": "X", "kind": "rectangle", "width": "5", "height": "0"}, "board.shape.height", ""),
        ({"name": "X", "kind": "circle"}, "board.shape.kind", "R-BRD-1"),
        ({"name": " ", "kind": "hexagon", "radius": "2"}, "board.name", ""),
    ],
)
def test_a_bad_new_board_is_a_400_naming_the_field(
    dc: Any, data: dict[str, str], field: str, rule: str
) -> None:
    r = client_for(dc.gm).post(boards(dc), data)
    assert r.status_code == 400
    body = r.content.decode()
    assert f"<strong>{field}</strong>" in body and rule in body
    assert not CampaignBoard.objects.exists()


def test_painting_saves_the_engines_normalised_document(dc: Any, board: CampaignBoard) -> None:
    gm = client_for(dc.gm)
    paint = f"{editor(dc, board)}paint"
    assert gm.post(paint, {"q": "0", "r": "-1", "terrain": "wall", "level": "0"}).status_code == 302
    r = gm.post(paint, {"q": "1", "r": "0", "terrain": "forest", "level": "2"}, **HX)
    assert r.status_code == 200 and r.content.decode().lstrip().startswith('<div id="board-area">')
    assert "hex 1,0: forest, level 2" in r.content.decode()
    gm.post(paint, {"q": "2", "r": "0", "terrain": "rubble", "level": "1"})
    gm.post(paint, {"q": "2", "r": "0", "terrain": "clear", "level": "0"})  # painted back
    board.refresh_from_db()
    assert board.document["hexes"] == [
        {"q": 0, "r": -1, "terrain": "wall"},
        {"q": 1, "r": 0, "terrain": "forest", "level": 2},
    ]
    assert parse_board(board.document).to_document() == board.document


@pytest.mark.parametrize(
    ("data", "field", "rule"),
    [
        (
            {"q": "0", "r": "0", "terrain": "lava", "level": "0"},
            "board.hexes[0].terrain",
            "R-BRD-3",
        ),
        ({"q": "0", "r": "0", "terrain": "clear", "level": "3"}, "board.hexes[0].level", ""),
        ({"q": "9", "r": "0", "terrain": "wall", "level": "0"}, "board.hexes[0]", ""),
        ({"q": "x", "r": "0", "terrain": "wall", "level": "0"}, "q", "R-BRD-1"),
        ({"q": "0", "r": "0", "terrain": "wall", "level": "high"}, "level", "R-BRD-4"),
    ],
)
def test_a_refused_paint_names_the_parsers_field_and_saves_nothing(
    dc: Any, board: CampaignBoard, data: dict[str, str], field: str, rule: str
) -> None:
    for headers in ({}, HX):
        r = client_for(dc.gm).post(f"{editor(dc, board)}paint", data, **headers)
        assert r.status_code == 400
        body = r.content.decode()
        assert f"<strong>{field}</strong>" in body and rule in body
        assert "Nothing was changed" in body
    board.refresh_from_db()
    assert board.document["hexes"] == []


def test_line_of_sight_preview_is_the_engines_with_rulings(dc: Any, board: CampaignBoard) -> None:
    services.board_paint(board=board, actor=dc.gm, cells=[(0, -1)], terrain="wall", level=0)
    services.board_paint(board=board, actor=dc.gm, cells=[(2, -2)], terrain="rubble", level=0)
    gm = client_for(dc.gm)
    blocked = gm.get(editor(dc, board), {"from_q": 0, "from_r": 0, "to_q": 0, "to_r": -3}, **HX)
    body = blocked.content.decode()
    assert 'data-los="blocked"' in body and "blocked</strong> by wall at 0,-1" in body
    assert "R-LOS-2" in body and 'class="pick-line blocked"' in body
    clear = gm.get(editor(dc, board), {"from_q": 0, "from_r": 0, "to_q": 3, "to_r": -3})
    body = clear.content.decode()
    assert 'data-los="clear"' in body and "3 hexes" in body
    assert "Cover at B: <strong>light</strong>" in body and "rubble at 2,-2 (light" in body
    assert "R-COV-1" in body and "line of sight from here (A)" in body
    off = gm.get(editor(dc, board), {"from_q": 0, "from_r": 0, "to_q": 9, "to_r": 0})
    assert off.status_code == 400
    assert "<strong>to_q</strong>" in off.content.decode()
    assert (
        "hex 9,0 is not on the board" in off.content.decode() and "R-BRD-1" in off.content.decode()
    )
    bad = gm.get(editor(dc, board), {"from_q": "x", "from_r": 0, "to_q": 1, "to_r": 0}, **HX)
    assert bad.status_code == 400 and "<strong>from_q</strong>" in bad.content.decode()


def test_a_paint_keeps_the_line_of_sight_and_redraws_it(dc: Any, board: CampaignBoard) -> None:
    los = {"from_q": "0", "from_r": "0", "to_q": "0", "to_r": "-3"}
    data = {"q": "0", "r": "-2", "terrain": "dense_forest", "level": "0", **los}
    r = client_for(dc.gm).post(f"{editor(dc, board)}paint", data, **HX)
    assert "blocked</strong> by dense forest at 0,-2" in r.content.decode()


def test_the_wizard_offers_a_drawn_board_and_starts_a_mission_on_it(
    dc: Any, board: CampaignBoard
) -> None:
    board = services.board_paint(board=board, actor=dc.gm, cells=[(1, 1)], terrain="water", level=0)
    mission = services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="Pit fight")
    slug = f"drawn-{board.id}"
    page = client_for(dc.gm).get(wizard_url(dc, mission)).content.decode()
    assert f'value="{slug}"' in page and "Pit" in page
    form = wizard_form(dc, slug)
    pids = [p.id for p in dc.pilots]
    form.update({f"q-{pids[0]}": "0", f"r-{pids[0]}": "-3", f"q-{pids[1]}": "0"})
    form.update({f"r-{pids[1]}": "3"})
    r = client_for(dc.gm).post(wizard_url(dc, mission), form)
    assert r.status_code == 302
    mission.refresh_from_db()
    assert mission.status == Mission.Status.IN_PROGRESS
    assert battle_setup(battle=mission.battle)["board"] == board.document


def test_a_drawn_board_belongs_to_its_campaign(dc: Any, board: CampaignBoard) -> None:
    other = demo_campaign(prefix="o-")
    url = f"/campaigns/{other.campaign.id}/boards/{board.id}/"
    assert client_for(other.gm).get(url).status_code == 404


def test_deleting_a_board(dc: Any, board: CampaignBoard) -> None:
    r = client_for(dc.gm).post(f"{editor(dc, board)}delete")
    assert r.status_code == 302 and not CampaignBoard.objects.exists()
