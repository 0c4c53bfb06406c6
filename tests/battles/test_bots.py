"""The server's bot (battles.bots, R-ADD-210..215): a seat given `"bot": true` is played by
the server through the same command path as anyone's, one task per version, sent on
commit; a repeated or late task adds nothing."""

from __future__ import annotations

import json
import random
import time
import uuid
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client

from battles import services
from battles.engine.battle import parse_setup
from battles.engine.battle.autoplay import choose
from battles.engine.battle.legal import legal_actions
from battles.engine.demo import demo_setup
from battles.engine.errors import InvalidInput
from battles.models import Battle
from battles.selectors import battle_events, battle_head_version, battle_state_at
from battles.services import bot_user
from battles.tasks import bot_turn


def bot_setup(human: str | None = "alice", *, dice: dict[str, Any] | None = None) -> dict[str, Any]:
    """The demo battle with seat 1 (and seat 0 too when `human` is None) the bot's."""
    setup = demo_setup(players=(human or "x", "x"))
    seats = []
    for i, seat in enumerate(setup["seats"]):
        if i == 1 or human is None:
            seat = {k: v for k, v in seat.items() if k != "player"} | {"bot": True}
        seats.append(seat)
    out = {**setup, "seats": seats}
    if dice is not None:
        out["dice"] = dice
    return out


# --- the setup (engine) ---------------------------------------------------------------------------


def test_a_bot_seat_normalises_to_the_bots_name() -> None:
    seats = parse_setup(bot_setup())["seats"]
    assert seats[1]["bot"] is True and seats[1]["player"] == "bot"
    assert "bot" not in seats[0]  # a human seat normalises as it always did


@pytest.mark.parametrize(
    ("change", "field", "rule"),
    [
        (lambda s: s["seats"][1].update(player="bob"), "seats[1].player", "R-ADD-210"),
        (lambda s: s["seats"][1].update(bot="yes"), "seats[1].bot", "R-ADD-211"),
        (lambda s: s["seats"][0].update(bot=1), "seats[0].bot", "R-ADD-211"),
        (lambda s: s.update(dice={"mode": "table"}), "seats[1].bot", "R-ADD-212"),
        (lambda s: s["seats"][0].update(player="bot"), "seats[0].player", "R-ADD-214"),
    ],
    ids=["bot-names-a-player", "bot-not-boolean", "bot-one", "table-dice", "human-called-bot"],
)
def test_a_bad_bot_seat_is_refused_naming_the_field_and_rule(
    change: Any, field: str, rule: str
) -> None:
    setup = bot_setup()
    change(setup)
    with pytest.raises(InvalidInput) as refused:
        parse_setup(setup)
    assert (refused.value.field, refused.value.rule) == (field, rule)


def test_a_human_seat_still_needs_its_player() -> None:
    setup = bot_setup()
    del setup["seats"][0]["player"]
    with pytest.raises(InvalidInput) as refused:
        parse_setup(setup)
    assert refused.value.field == "seats[0].player"


def test_bots_alone_are_a_battle() -> None:  # R-ADD-213
    seats = parse_setup(bot_setup(None))["seats"]
    assert [s["player"] for s in seats] == ["bot", "bot"]


# --- through the API and the service --------------------------------------------------------------


@pytest.fixture(autouse=True)
def in_process(settings: Any) -> None:
    """The embedded default (no Redis): bot tasks run in the process that committed. The
    Redis path has its own test below."""
    settings.CELERY_TASK_ALWAYS_EAGER = True


@pytest.fixture
def alice(django_user_model: type[User], db: None) -> User:
    return django_user_model.objects.create_user(username="alice")


def test_the_api_creates_a_battle_against_the_bot_and_refuses_a_bad_seat(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    made = client.post("/api/battles/", json.dumps(bot_setup()), content_type="application/json")
    assert made.status_code == 201, made.content
    battle = Battle.objects.get(pk=made.json()["id"])
    assert [s.player.username for s in battle.seats.all()] == ["alice", "bot"]
    before = Battle.objects.count()
    bad = bot_setup()
    bad["seats"][1]["player"] = "alice"
    refused = client.post("/api/battles/", json.dumps(bad), content_type="application/json")
    assert refused.status_code == 400
    assert "seats[1].player" in refused.content.decode() and "R-ADD-210" in refused.content.decode()
    assert Battle.objects.count() == before


def test_nobody_signs_in_as_the_bot(db: None) -> None:
    bot = bot_user()
    assert not bot.is_active and not bot.has_usable_password()
    assert bot_user().pk == bot.pk


def _alice_plays(battle: Battle, alice: User) -> bool:
    """Alice's greedy move if the battle waits on her; False when it does not."""
    state = battle_state_at(battle=battle)
    actions = list(legal_actions(state, {0}))
    if state.over or not actions:
        return False
    body = choose(state, actions, random.Random(state.version))
    services.battle_command_execute(
        battle=battle,
        actor=alice,
        command_id=uuid.uuid4().hex,
        expected_version=state.version,
        body=body,
    )
    return True


def test_one_person_plays_a_battle_against_the_bot_to_its_end(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    """After each of alice's commands commits, the bot answers every turn and prompt of its
    own before the call returns (in-process, no Redis): alice always finds the battle
    waiting on her, until it ends."""
    gm = User.objects.create_user(username="gm")
    with django_capture_on_commit_callbacks(execute=True):
        battle = services.battle_create(gm=gm, setup=bot_setup())
    for _ in range(2000):
        with django_capture_on_commit_callbacks(execute=True):
            if not _alice_plays(battle, alice):
                break
    state = battle_state_at(battle=battle)
    assert state.over, "the battle never ended"
    events = battle_events(battle=battle, limit=100_000)
    by_bot = [e for e in events if e.metadata.get("actor") == "bot"]
    assert by_bot, "the bot never played"
    assert all(e.command_id.startswith("bot-") for e in by_bot)
    assert {e.metadata.get("actor") for e in events} == {"gm", "alice", "bot"}


def test_a_repeated_or_late_bot_task_adds_nothing(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    gm = User.objects.create_user(username="gm")
    with django_capture_on_commit_callbacks(execute=True):
        battle = services.battle_create(gm=gm, setup=bot_setup())
    # Until the bot has played once: then its task's version is in the past.
    while not any(e.metadata.get("actor") == "bot" for e in battle_events(battle=battle)):
        with django_capture_on_commit_callbacks(execute=True):
            assert _alice_plays(battle, alice)
    first_bot = next(e for e in battle_events(battle=battle) if e.metadata.get("actor") == "bot")
    played_at = first_bot.version - 1
    head = battle_head_version(battle=battle)
    assert bot_turn(str(battle.id), played_at) is None  # the same task again
    assert bot_turn(str(battle.id), 1) is None  # a task far too late
    assert bot_turn(str(battle.id), head + 5) is None  # a version the battle never had
    assert battle_head_version(battle=battle) == head


def test_the_bot_plays_only_its_own_seats(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    """A task at the head of a battle waiting on alice plays nothing."""
    gm = User.objects.create_user(username="gm")
    with django_capture_on_commit_callbacks(execute=True):
        battle = services.battle_create(gm=gm, setup=bot_setup())
    head = battle_head_version(battle=battle)
    assert list(legal_actions(battle_state_at(battle=battle), {0}))  # alice's move
    assert bot_turn(str(battle.id), head) is None
    assert battle_head_version(battle=battle) == head


def test_bots_alone_play_their_battle_to_its_end_without_anyone(
    db: None, django_capture_on_commit_callbacks: Any
) -> None:
    gm = User.objects.create_user(username="gm")
    with django_capture_on_commit_callbacks(execute=True):
        battle = services.battle_create(gm=gm, setup=bot_setup(None))
    state = battle_state_at(battle=battle)
    # Over, or stopped at a stalemate only the GM may end (R-ADD-40).
    from battles.engine.battle.stalemate import stalemate

    assert state.over or stalemate(state) is not None
    assert battle_head_version(battle=battle) > 10


def test_the_battles_page_offers_a_practice_battle_against_the_bot(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    page = client.get("/battles/")
    assert b'action="/battles/practice/"' in page.content
    assert b"Practise against the bot" in page.content
    assert client.get("/battles/practice/").status_code == 405  # a POST creates
    made = client.post("/battles/practice/")
    assert made.status_code == 302
    battle = Battle.objects.get(gm=alice)
    assert made["Location"] == f"/battles/{battle.id}/replay/"
    assert [s.player.username for s in battle.seats.all()] == ["alice", "bot"]
    assert battle.dice_mode == "digital"
    assert client.get(made["Location"]).status_code == 200
    assert Client().post("/battles/practice/").status_code == 302  # signed out: to login
    assert Battle.objects.count() == 1


@pytest.mark.redis
@pytest.mark.skipif(not django_settings.REDIS_URL, reason="needs REDIS_URL")
def test_with_redis_a_celery_worker_plays_the_bots_turn_within_two_seconds(
    committed_db: None, settings: Any
) -> None:
    from celery.contrib.testing.worker import start_worker

    from penance_site.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    users = get_user_model()
    prefix = uuid.uuid4().hex[:8]
    gm = users.objects.create_user(username=f"gm-{prefix}")
    human = users.objects.create_user(username=f"alice-{prefix}")
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        battle = services.battle_create(gm=gm, setup=bot_setup(human.username))
        deadline = time.monotonic() + 60
        by_bot: list[Any] = []
        while not by_bot and time.monotonic() < deadline:
            if not _alice_plays(battle, human):
                time.sleep(0.05)  # the bot's turn: its task is with the worker
            events = battle_events(battle=battle, limit=100_000)
            by_bot = [e for e in events if e.metadata.get("actor") == "bot"]
    assert by_bot, "the bot never played through the worker"
    before = next(e for e in events if e.version == by_bot[0].version - 1)
    assert (by_bot[0].recorded_at - before.recorded_at).total_seconds() < 2
