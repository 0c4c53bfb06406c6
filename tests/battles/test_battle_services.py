"""Battle services and selectors (docs/BATTLES.md "Persistence"): creation, commands with
optimistic concurrency and idempotent retries, snapshots, reverts and imports."""

from __future__ import annotations

import itertools
import threading
import uuid
from dataclasses import replace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import connection, connections
from django.test import override_settings

from battles.codec import BATTLE_EVENTS
from battles.engine.battle import replay, state_to_dict
from battles.engine.demo import demo_setup
from battles.engine.errors import InvalidInput, RuleViolation
from battles.engine.ruleset import ENGINE_VERSION
from battles.models import Battle, BattleSeat
from battles.selectors import (
    battle_export,
    battle_legal_actions,
    battle_role,
    battle_state_at,
    battle_stream,
    battle_viewer,
)
from battles.services import (
    battle_command_execute,
    battle_create,
    battle_import,
    battle_watcher_add,
)
from penance_site.eventstore.models import Event, Snapshot
from penance_site.eventstore.store import (
    ConcurrencyError,
    read_stream,
    snapshot_store,
    stream_version,
)
from tests.battles.test_battles_api import rechained


@pytest.fixture
def users(django_user_model: type[User]) -> dict[str, User]:
    return {
        name: django_user_model.objects.create_user(username=name)
        for name in ("gm", "player", "watcher", "outsider")
    }


def new_battle(users: dict[str, User], seed: int | None = 7) -> Battle:
    return battle_create(gm=users["gm"], setup=demo_setup(seed=seed))


def run(battle: Battle, actor: User, body: dict[str, Any], command_id: str | None = None) -> Any:
    return battle_command_execute(
        battle=battle,
        actor=actor,
        command_id=command_id or uuid.uuid4().hex,
        expected_version=stream_version(battle_stream(battle=battle)),
        body=body,
    )


def pass_turn(battle: Battle, actor: User, command_id: str | None = None) -> Any:
    seat = battle_state_at(battle=battle).active
    return run(battle, actor, {"type": "pass", "seat": seat}, command_id)


def full_replay(battle: Battle, up_to: int | None = None) -> Any:
    events = read_stream(battle_stream(battle=battle), up_to_version=up_to)
    return replay(BATTLE_EVENTS.decode_record(e.type, e.schema_version, e.payload) for e in events)


# --- create --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_create_records_the_creation_as_one_command(users: dict[str, User]) -> None:
    battle = new_battle(users)
    events = read_stream(battle_stream(battle=battle))
    assert events[0].type == "BattleCreated" and events[0].payload["battle_id"] == str(battle.id)
    assert {e.command_id for e in events} == {f"create-{battle.id}"}
    assert events[0].metadata["actor"] == "gm" and events[0].metadata["adjustment"] is False
    seats = BattleSeat.objects.filter(battle=battle).order_by("seat")
    assert [(s.seat, s.player) for s in seats] == [(0, users["gm"]), (1, users["player"])]
    assert (battle.status, battle.version, battle.winner) == ("in_progress", 13, "")
    assert (battle.dice_mode, battle.policy, battle.name) == (
        "digital",
        "auto",
        "Demo: The Ash Causeway",
    )


@pytest.mark.django_db
def test_create_with_an_unknown_player_creates_nothing(users: dict[str, User]) -> None:
    with pytest.raises(InvalidInput) as err:
        battle_create(gm=users["gm"], setup=demo_setup(players=("ghost", "player")))
    assert err.value.field == "seats[0].player"
    assert not Battle.objects.exists() and not Event.objects.exists()


# --- commands ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_stale_version_is_refused_before_deciding(users: dict[str, User]) -> None:
    battle = new_battle(users)
    with pytest.raises(ConcurrencyError) as err:
        battle_command_execute(
            battle=battle,
            actor=users["gm"],
            command_id="late",
            expected_version=12,
            body={"type": "pass", "seat": 1},
        )
    assert (err.value.expected, err.value.actual) == (12, 13)
    assert stream_version(battle_stream(battle=battle)) == 13


@pytest.mark.django_db
def test_a_retry_does_not_roll_again(users: dict[str, User]) -> None:
    """R-ADD-18: with secrets dice, the retry of a round-ending pass returns the initiative it
    rolled the first time, not a new roll."""
    battle = new_battle(users, seed=None)
    pass_turn(battle, users["gm"])
    version = stream_version(battle_stream(battle=battle))
    seat = battle_state_at(battle=battle).active
    body = {"type": "pass", "seat": seat}
    first = battle_command_execute(
        battle=battle, actor=users["gm"], command_id="end", expected_version=version, body=body
    )
    assert "InitiativeRolled" in [e.type for e in first.events]
    again = battle_command_execute(
        battle=battle, actor=users["gm"], command_id="end", expected_version=version, body=body
    )
    assert again.duplicate and again.events == first.events
    assert stream_version(battle_stream(battle=battle)) == first.version


@pytest.mark.django_db
def test_a_command_id_used_in_another_battle_is_a_new_command_here(
    users: dict[str, User],
) -> None:
    """Issue 15: a command id is scoped to its stream; nothing of the other battle leaks."""
    one, two = new_battle(users), new_battle(users)
    first = pass_turn(one, users["gm"], command_id="shared")
    second = pass_turn(two, users["gm"], command_id="shared")
    assert not second.duplicate
    assert {e.stream.id for e in second.events} == {str(two.id)}
    assert {e.stream.id for e in first.events} == {str(one.id)}
    assert stream_version(battle_stream(battle=two)) > 13


@pytest.mark.django_db
def test_who_may_command(users: dict[str, User]) -> None:
    battle = new_battle(users)
    battle_watcher_add(battle=battle, actor=users["gm"], user=users["watcher"])
    assert battle_state_at(battle=battle).active == 1
    for who in ("watcher", "outsider"):
        with pytest.raises(PermissionDenied):
            pass_turn(battle, users[who])
    with pytest.raises(PermissionDenied):  # seat 0 is the GM's
        run(battle, users["player"], {"type": "rotate", "seat": 0, "facing": 2})
    with pytest.raises(PermissionDenied):  # R-ADD-24
        run(battle, users["player"], {"type": "adjust_heat", "seat": 1, "heat": 1, "reason": "x"})
    assert stream_version(battle_stream(battle=battle)) == 13
    assert not pass_turn(battle, users["player"]).duplicate


@pytest.mark.django_db
def test_adjustments_are_marked_in_the_metadata(users: dict[str, User]) -> None:
    battle = new_battle(users)
    result = run(
        battle,
        users["gm"],
        {
            "type": "adjust_component_damage",
            "seat": 1,
            "component": "legs",
            "amount": 2,
            "reason": "x",
        },
    )
    assert [(e.type, e.metadata["adjustment"]) for e in result.events] == [
        ("ComponentDamageAdjusted", True)
    ]
    assert battle_state_at(battle=battle).seats[1].damage_of("legs") == 2


@pytest.mark.django_db
def test_rule_violation_appends_nothing(users: dict[str, User]) -> None:
    battle = new_battle(users)
    with pytest.raises(RuleViolation) as err:
        run(battle, users["gm"], {"type": "pass", "seat": 0})
    assert err.value.rule == "R-TRN-5"
    assert stream_version(battle_stream(battle=battle)) == 13


# --- revert --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_revert_and_revert_of_the_revert(users: dict[str, User]) -> None:
    """R-ADD-24: undoing the undo brings the reverted command's outcome back."""
    battle = new_battle(users)
    before = battle_state_at(battle=battle)
    pass_turn(battle, users["gm"], command_id="p")
    after_pass = battle_state_at(battle=battle)
    run(battle, users["gm"], {"type": "revert", "command_id": "p", "reason": "r"}, "undo")
    assert replace(battle_state_at(battle=battle), version=before.version) == before
    run(battle, users["gm"], {"type": "revert", "command_id": "undo", "reason": "r"}, "redo")
    assert replace(battle_state_at(battle=battle), version=after_pass.version) == after_pass


@pytest.mark.django_db
def test_the_creation_cannot_be_reverted(users: dict[str, User]) -> None:
    battle = new_battle(users)
    with pytest.raises(RuleViolation) as err:
        run(
            battle,
            users["gm"],
            {"type": "revert", "command_id": f"create-{battle.id}", "reason": "x"},
        )
    assert (err.value.code, err.value.rule) == ("revert_unavailable", "R-ADD-24")


# --- states and snapshots ------------------------------------------------------------------------


@pytest.mark.django_db
@override_settings(PENANCE_SNAPSHOT_EVERY=5)
def test_snapshots_follow_the_setting_and_replay_equals_them(users: dict[str, User]) -> None:
    battle = new_battle(users)
    versions = [13]
    for _ in range(6):
        versions.append(pass_turn(battle, users["gm"]).version)
    stored = list(
        Snapshot.objects.filter(stream_id=str(battle.id)).values_list("version", flat=True)
    )
    expected = [b for a, b in itertools.pairwise(versions) if b // 5 > a // 5]
    assert sorted(stored) == [13, *expected]
    for v in range(1, versions[-1] + 1):
        assert battle_state_at(battle=battle, version=v) == full_replay(battle, v)


@pytest.mark.django_db
def test_state_loading_starts_from_the_snapshot_of_this_engine_version(
    users: dict[str, User],
) -> None:
    """Snapshots are a cache: the right one is used, one of another engine version ignored."""
    battle = new_battle(users)
    pass_turn(battle, users["gm"])
    state = full_replay(battle, 13)
    marked = state_to_dict(state)
    marked["seats"][0]["heat"] = 9  # a marker no event could explain
    stream = battle_stream(battle=battle)
    snapshot_store(stream=stream, version=13, engine_version=ENGINE_VERSION, state=marked)
    assert battle_state_at(battle=battle).seats[0].heat == 9
    Snapshot.objects.filter(stream_id=stream.id).update(engine_version="0.0.1")
    assert battle_state_at(battle=battle) == full_replay(battle)


@pytest.mark.django_db
@pytest.mark.parametrize("at", [0, 14, -1])
def test_state_at_outside_the_stream_names_at(users: dict[str, User], at: int) -> None:
    battle = new_battle(users)
    with pytest.raises(InvalidInput) as err:
        battle_state_at(battle=battle, version=at)
    assert err.value.field == "at"


@pytest.mark.django_db
def test_everyone_sees_everything_once_the_battle_is_over(users: dict[str, User]) -> None:
    """R-ADD-28: after the battle every card is open, for replays."""
    battle = new_battle(users)
    head = battle_state_at(battle=battle)
    assert not battle_viewer(battle=battle, user=users["player"], head=head).full
    over = replace(head, phase="over")
    viewer = battle_viewer(battle=battle, user=users["player"], head=over)
    assert (viewer.role, viewer.seats, viewer.full) == ("player", frozenset({1}), True)
    assert battle_viewer(battle=battle, user=users["gm"]).full


@pytest.mark.django_db
def test_roles_and_legal_actions(users: dict[str, User]) -> None:
    battle = new_battle(users)
    battle_watcher_add(battle=battle, actor=users["gm"], user=users["watcher"])
    roles = [battle_role(battle=battle, user=users[n]) for n in users]
    assert roles == ["gm", "player", "watcher", None]
    assert battle_legal_actions(battle=battle, user=users["watcher"]) == (13, [])
    version, actions = battle_legal_actions(battle=battle, user=users["player"])
    assert version == 13 and {a.body["seat"] for a in actions} == {1}
    with pytest.raises(PermissionDenied):
        battle_watcher_add(battle=battle, actor=users["player"], user=users["outsider"])


# --- import --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_import_refuses_a_log_that_does_not_replay(users: dict[str, User]) -> None:
    """A rechained document passes the digest check; its events must still make a battle."""
    battle = new_battle(users)
    document = battle_export(battle=battle)
    document["events"][3]["payload"]["cards"][0] = "no-such-card#1"
    with pytest.raises(InvalidInput) as err:
        battle_import(gm=users["gm"], document=rechained(document, "-x"))
    assert err.value.field == "events[3]"
    assert Battle.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["events"][1].update(type="Teleported"), "events[1].type"),
        (lambda d: d["events"][0].update(type="HandKept"), "events[0].type"),
        (lambda d: d["events"][2].update(schema_version=7), "events[2].schema_version"),
        (
            lambda d: d["events"][0]["payload"]["setup"].update(policy="chaos"),
            "events[0].payload.setup.policy",
        ),
    ],
)
def test_import_names_the_faulty_event(users: dict[str, User], change: Any, field: str) -> None:
    battle = new_battle(users)
    document = battle_export(battle=battle)
    change(document)
    with pytest.raises(InvalidInput) as err:
        battle_import(gm=users["gm"], document=rechained(document, "-y"))
    assert err.value.field == field


@pytest.mark.django_db
@override_settings(PENANCE_SNAPSHOT_EVERY=5)
def test_import_keeps_command_boundaries_and_writes_snapshots(users: dict[str, User]) -> None:
    battle = new_battle(users)
    pass_turn(battle, users["gm"], command_id="one")
    pass_turn(battle, users["gm"], command_id="two")
    copy = battle_import(gm=users["outsider"], document=battle_export(battle=battle))
    original = read_stream(battle_stream(battle=battle))
    imported = read_stream(battle_stream(battle=copy))
    # Command ids are scoped to their stream: the copy keeps them, and every digest.
    assert [(e.command_id, e.digest) for e in imported] == [
        (e.command_id, e.digest) for e in original
    ]
    assert (copy.gm, copy.version, copy.status) == (
        users["outsider"],
        battle.version,
        "in_progress",
    )
    snapshots = Snapshot.objects.filter(stream_id=str(copy.id)).values_list("version", flat=True)
    assert sorted(snapshots) == list(range(5, len(imported) + 1, 5))
    assert battle_state_at(battle=copy) == full_replay(copy)


# --- concurrency ---------------------------------------------------------------------------------


def test_two_players_racing_on_one_version_one_wins_one_conflicts(committed_db: None) -> None:
    # Not the django_user_model fixture: it wraps the test in a transaction that would hold
    # SQLite's writer lock while the threads wait for it.
    gm, player, battle = committed_battle()
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def command(actor: User, facing: int) -> None:
        try:
            barrier.wait(timeout=30)
            battle_command_execute(
                battle=battle,
                actor=actor,
                command_id=uuid.uuid4().hex,
                expected_version=13,
                body={"type": "rotate", "seat": 1, "facing": facing},
            )
            outcomes.append("won")
        except ConcurrencyError:
            outcomes.append("conflict")
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=command, args=(gm, 2)),
        threading.Thread(target=command, args=(player, 3)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert sorted(outcomes) == ["conflict", "won"]
    battle.refresh_from_db()
    assert battle.version == stream_version(battle_stream(battle=battle)) == 14


def committed_battle() -> tuple[Any, Any, Battle]:
    """A demo battle committed for real (threads see it), its GM and its player. Not the users
    fixture: it wraps the test in a transaction that would hold SQLite's writer lock."""
    tag = uuid.uuid4().hex[:8]
    gm = User.objects.create_user(username=f"gm-{tag}")
    player = User.objects.create_user(username=f"pl-{tag}")
    return (
        gm,
        player,
        battle_create(gm=gm, setup=demo_setup(players=(gm.username, player.username))),
    )


def rotate_from_13(battle: Battle, gm: Any, command_id: str) -> Any:
    """The one command the race tests send, decided on version 13 (seat 1's first turn)."""
    return battle_command_execute(
        battle=battle,
        actor=gm,
        command_id=command_id,
        expected_version=13,
        body={"type": "rotate", "seat": 1, "facing": 2},
    )


def test_the_same_command_sent_eight_times_at_once_answers_the_original_each_time(
    committed_db: None,
) -> None:
    """Issue 15: a client that sends one command twice (a double tap, a retry racing the
    original) gets the original result every time, never `stale_version`."""
    gm, _player, battle = committed_battle()
    barrier = threading.Barrier(8)
    results: list[Any] = []
    failures: list[BaseException] = []
    command_id = uuid.uuid4().hex

    def send() -> None:
        try:
            barrier.wait(timeout=30)
            results.append(rotate_from_13(battle, gm, command_id))
        except BaseException as exc:
            failures.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert failures == []
    assert len(results) == 8
    assert sum(1 for r in results if not r.duplicate) == 1
    assert len({tuple(e.digest for e in r.events) for r in results}) == 1
    assert stream_version(battle_stream(battle=battle)) == 14


@pytest.mark.postgres
def test_a_copy_that_finds_the_stream_moved_on_answers_the_original(
    committed_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same command sent twice at once, the race made certain: copy B reads the
    stream (the state it decides on) before copy A commits, and appends after; the
    append finds A's command id and B answers A's events, not 409."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises whole requests: B would hold the writer lock")
    import battles.services as services

    gm, _player, battle = committed_battle()
    b_checked, a_committed = threading.Event(), threading.Event()
    real_state = services.battle_state_for_command

    def state_before_a(**kwargs: Any) -> Any:
        state = real_state(**kwargs)
        if threading.current_thread().name == "B":
            b_checked.set()
            assert a_committed.wait(30)
        return state

    monkeypatch.setattr(services, "battle_state_for_command", state_before_a)
    command_id, results, failures = uuid.uuid4().hex, {}, []

    def send(name: str) -> None:
        try:
            if name == "A":
                assert b_checked.wait(30)
            results[name] = rotate_from_13(battle, gm, command_id)
        except BaseException as exc:
            failures.append(exc)
        finally:
            if name == "A":
                a_committed.set()
            connections.close_all()

    threads = [threading.Thread(target=send, args=(n,), name=n) for n in ("B", "A")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert failures == []
    assert not results["A"].duplicate and results["B"].duplicate
    assert results["B"].events == results["A"].events
