"""The server-rendered battle list and replay pages: who may see what (R-ADD-28)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from battles.engine.demo import demo_setup
from battles.services import battle_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(django_user_model: type[User]) -> object:
    for name in ("gm", "player", "outsider"):
        django_user_model.objects.create_user(name, password="pw")
    return battle_create(gm=User.objects.get(username="gm"), setup=demo_setup(seed=2))


def _client(username: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(username=username))
    return client


def test_replay_page_shows_the_gm_every_hand(battle: object) -> None:
    response = _client("gm").get(f"/battles/{battle.pk}/replay/")  # type: ignore[attr-defined]
    assert response.status_code == 200
    hands = [c["hand"] for c in response.context["state"]["seats"]]
    assert all(h is not None for h in hands)


def test_replay_page_hides_the_other_hand_from_a_player(battle: object) -> None:
    response = _client("player").get(f"/battles/{battle.pk}/replay/?at=3")  # type: ignore[attr-defined]
    assert response.status_code == 200
    assert response.context["at"] == 3
    seats = response.context["state"]["seats"]
    assert seats[0]["hand"] is None and seats[0]["deck"] is None


def test_replay_page_refuses_an_outsider(battle: object) -> None:
    response = _client("outsider").get(f"/battles/{battle.pk}/replay/")  # type: ignore[attr-defined]
    assert response.status_code == 403


def test_replay_page_sends_anonymous_users_to_log_in(battle: object) -> None:
    response = Client().get(f"/battles/{battle.pk}/replay/")  # type: ignore[attr-defined]
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("at", ["99999", "0", "abc", "²", "-1", "1.5"])
def test_replay_page_refuses_a_step_outside_the_stream_naming_the_parameter(
    battle: object, at: str
) -> None:
    """Issue 15: a 4xx naming the parameter, never a 500 (`"²".isdigit()` is true)."""
    response = _client("gm").get(f"/battles/{battle.pk}/replay/", {"at": at})  # type: ignore[attr-defined]
    assert response.status_code == 400
    assert b"<strong>at</strong> must be a step from 1 to" in response.content


def test_replay_page_draws_every_hex_and_casket_and_shows_the_step(battle: object) -> None:
    """Issue 12's contract: one [data-hex] per board hex, one [data-seat] per casket with
    a text label, the step in [data-step] matching ?at=N."""
    import re

    from battles.models import Battle
    from battles.selectors import battle_state_at

    state = battle_state_at(battle=Battle.objects.get(pk=battle.pk))  # type: ignore[attr-defined]
    page = _client("player").get(f"/battles/{battle.pk}/replay/?at=5").content.decode()  # type: ignore[attr-defined]
    hexes = re.findall(r'data-hex="(-?\d+,-?\d+)"', page)
    assert len(hexes) == len(set(hexes)) == len(state.board)
    assert sorted(re.findall(r'data-seat="(\d)"', page)) == ["0", "1"]
    assert re.findall(r'data-seat="\d" role="img" aria-label="seat \d: ', page)
    assert 'data-step="5"' in page and 'data-command="next"' in page


def test_battle_list_shows_only_the_users_battles(battle: object) -> None:
    assert battle.name.encode() in _client("player").get("/battles/").content  # type: ignore[attr-defined]
    assert battle.name.encode() not in _client("outsider").get("/battles/").content  # type: ignore[attr-defined]


def test_login_page_renders() -> None:
    assert Client().get("/accounts/login/").status_code == 200
