"""Issue 14: the mission wizard's drawn board: every hex a focusable `data-hex` button, the
deployed pilots drawn where the form puts them, and every change checked by the engine's
setup validation (htmx `action=check`, nothing written), each refusal with its rule."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from battles.engine.board import parse_board
from battles.engine.hexes import DIRECTION_NAMES
from campaigns import selectors, services
from campaigns.models import Mission

from .builders import demo_campaign, make_users
from .test_pages_campaign import client_for
from .test_pages_wizard import _kill, url, wizard_form

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def dc() -> Any:
    return demo_campaign()


@pytest.fixture
def mission(dc: Any) -> Mission:
    return services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="Cinder Road")


def check(dc: Any, mission: Mission, **change: str) -> Any:
    form = wizard_form(dc, **{k: v for k, v in change.items() if not k[-1].isdigit()})
    pids = [str(p.id) for p in dc.pilots]
    for key, value in change.items():
        if key[-1].isdigit():
            name, _, index = key.rpartition("_")
            form[f"{name}-{pids[int(index)]}"] = value
    return client_for(dc.gm).post(url(dc, mission), {**form, "action": "check"}, **HX)


def test_the_wizard_draws_the_chosen_board_with_focusable_hexes_and_the_pilots_on_it(
    dc: Any, mission: Mission
) -> None:
    body = client_for(dc.gm).get(url(dc, mission), {"board": "chapel-ruins"}).content.decode()
    chapel = next(b for b in selectors.board_library() if b.slug == "chapel-ruins")
    hexes = re.findall(r'data-hex="(-?\d+,-?\d+)" tabindex="0" role="button"', body)
    assert len(hexes) == len(parse_board(chapel.document).cells)
    (q0, r0, f0), (q1, r1, f1) = chapel.deploy[:2]
    assert (
        f"hex {q0},{r0}: clear; seat 0: Sister Ophelia Vance, facing {DIRECTION_NAMES[f0]}" in body
    )
    assert (
        f"hex {q1},{r1}: clear; seat 1: Brother Malachai Thorne, facing {DIRECTION_NAMES[f1]}"
        in body
    )
    assert "✔ Deployment legal" in body and "Seat 0: Sister Ophelia Vance" in body
    assert 'data-pick-q="q-' in body and "campaigns/hexpick.js" in body
    assert all(f'data-face="{d}">{n}<' in body for d, n in DIRECTION_NAMES.items())


def test_a_check_answers_the_board_fragment_and_starts_nothing(dc: Any, mission: Mission) -> None:
    r = check(dc, mission, q_0="1", r_0="-3", facing_0="3")
    assert r.status_code == 200 and "HX-Request" in r["Vary"]
    body = r.content.decode()
    assert body.lstrip().startswith('<div id="deploy-area">')
    assert "hex 1,-3: clear; seat 0: Sister Ophelia Vance, facing SE" in body
    assert "Seat 0: Sister Ophelia Vance (penitents) at 1,-3, facing SE" in body
    mission.refresh_from_db()
    assert mission.status == Mission.Status.PLANNED and mission.battle_id is None


@pytest.mark.parametrize(
    ("change", "field", "rule"),
    [
        ({"q_0": "9", "r_0": "9"}, "seats[0].at (Sister Ophelia Vance)", "R-BRD-1"),
        ({"q_0": "0", "r_0": "4"}, "seats[1].at (Brother Malachai Thorne)", "R-TRN-1"),
        ({"q_0": "x"}, "seats[0].at (q of Sister Ophelia Vance)", "R-BRD-1"),
        ({"facing_1": "7"}, "seats[1].facing", "R-BRD-2"),
    ],
)
def test_an_illegal_deployment_is_shown_with_the_engines_field_and_rule(
    dc: Any, mission: Mission, change: dict[str, str], field: str, rule: str
) -> None:
    r = check(dc, mission, **change)
    assert r.status_code == 200
    body = r.content.decode()
    assert "Not ready" in body and f"<strong>{field}" in body and f"({rule})" in body
    mission.refresh_from_db()
    assert mission.status == Mission.Status.PLANNED


def test_an_impassable_hex_is_refused_by_the_setup_check_r_brd_3(dc: Any, mission: Mission) -> None:
    ash = next(b for b in selectors.board_library() if b.slug == "ash-causeway")
    wall = next(h for h in ash.document["hexes"] if h["terrain"] == "wall")
    r = check(dc, mission, q_0=str(wall["q"]), r_0=str(wall["r"]))
    body = r.content.decode()
    assert "impassable terrain" in body and "(R-BRD-3)" in body


def test_a_dead_pilot_cannot_be_placed_r_plt_1(dc: Any, mission: Mission) -> None:
    _kill(dc, dc.pilots[0])
    body = client_for(dc.gm).get(url(dc, mission)).content.decode()
    assert f'id="place-{dc.pilots[0].id}"' not in body  # no place control for the dead
    assert f'id="place-{dc.pilots[1].id}"' in body
    forced = check(dc, mission).content.decode()
    assert "is dead" in forced and "(R-PLT-1)" in forced


def test_the_check_is_the_gms_only(dc: Any, mission: Mission) -> None:
    (outsider,) = make_users("outsider")
    form = {**wizard_form(dc), "action": "check"}
    assert client_for(dc.ann).post(url(dc, mission), form, **HX).status_code == 403
    assert client_for(outsider).post(url(dc, mission), form, **HX).status_code == 404
    assert Client().post(url(dc, mission), form, **HX).status_code == 302


def test_without_a_script_the_check_button_renders_the_whole_page(
    dc: Any, mission: Mission
) -> None:
    form = {**wizard_form(dc), "action": "check"}
    pid = dc.pilots[0].id
    form[f"q-{pid}"], form[f"r-{pid}"] = "9", "9"
    r = client_for(dc.gm).post(url(dc, mission), form)
    body = r.content.decode()
    assert r.status_code == 200 and "<h1>Start mission" in body and "Not ready" in body
    assert f'name="q-{pid}" value="9"' in body  # the form keeps what was typed
