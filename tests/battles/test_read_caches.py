"""Reads at a version already folded (issue 16): each process keeps the states and legal
actions it computed from committed history, so a poll at an unchanged version reads only
the stream's head; what a transaction read or decided is never kept.

Committed for real (conftest `committed_db`): the caches keep only what autocommit reads
computed, and a test's wrapping transaction would hide everything. Fresh usernames and
battles each time.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from battles import selectors
from battles.codec import BATTLE_EVENTS
from battles.engine.battle import replay, state_to_dict
from battles.engine.demo import demo_setup
from battles.engine.ruleset import ENGINE_VERSION
from battles.models import Battle
from battles.selectors import battle_legal_actions, battle_state_at, battle_stream
from battles.services import battle_command_execute, battle_create
from penance_site.eventstore.store import read_stream


def committed_battle() -> tuple[Any, Any, Battle]:
    """A demo battle, its GM and the player of seat 1 (seat 0 is someone else's)."""
    tag = uuid.uuid4().hex[:8]
    gm = User.objects.create_user(username=f"gm-{tag}")
    alice = User.objects.create_user(username=f"alice-{tag}")
    bob = User.objects.create_user(username=f"bob-{tag}")
    battle = battle_create(gm=gm, setup=demo_setup(players=(alice.username, bob.username)))
    return gm, bob, battle


def folded_from_scratch(battle: Battle, up_to: int | None = None) -> dict[str, Any]:
    events = read_stream(battle_stream(battle=battle), up_to_version=up_to)
    state = replay(BATTLE_EVENTS.decode_record(e.type, e.schema_version, e.payload) for e in events)
    return state_to_dict(state)


def play(battle: Battle, gm: Any, commands: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    for _ in range(commands):
        version, actions = battle_legal_actions(battle=battle, user=gm)
        if not actions:
            return
        battle_command_execute(
            battle=battle,
            actor=gm,
            command_id=uuid.uuid4().hex,
            expected_version=version,
            body=dict(rng.choice(actions).body),
        )


def test_a_second_poll_at_the_same_version_reads_only_the_head(committed_db: None) -> None:
    _, bob, battle = committed_battle()
    client = Client()
    client.force_login(bob)
    url = f"/api/battles/{battle.id}/legal-actions"
    first = client.get(url)
    with CaptureQueriesContext(connection) as queries:
        second = client.get(url)
    assert first.status_code == second.status_code == 200
    assert second.json() == first.json()
    statements = [q["sql"] for q in queries]
    assert sum("eventstore_event" in s for s in statements) == 1, statements  # the head
    assert not any("eventstore_snapshot" in s for s in statements), statements
    # The player's role and seats come from the seats loaded with the battle.
    assert sum("battles_battleseat" in s for s in statements) == 1, statements


def test_kept_and_incremental_states_equal_the_fold_of_the_whole_stream(
    committed_db: None,
) -> None:
    gm, _, battle = committed_battle()
    play(battle, gm, 25)
    head = battle_state_at(battle=battle)  # on from the state the last poll kept
    assert state_to_dict(head) == folded_from_scratch(battle)
    assert state_to_dict(battle_state_at(battle=battle)) == folded_from_scratch(battle)  # kept
    for version in range(1, head.version + 1):  # each from the one kept before it
        kept = battle_state_at(battle=battle, version=version)
        assert state_to_dict(kept) == folded_from_scratch(battle, version), version


def test_what_a_rolled_back_transaction_read_or_decided_is_never_kept(committed_db: None) -> None:
    gm, _, battle = committed_battle()
    play(battle, gm, 3)
    with pytest.raises(RuntimeError), transaction.atomic():
        play(battle, gm, 4, seed=11)
        rolled_back = battle_state_at(battle=battle).version
        raise RuntimeError("the caller failed after the commands")
    bid, committed = str(battle.id), battle_state_at(battle=battle).version
    assert rolled_back > committed
    for version in range(committed + 1, rolled_back + 1):
        assert selectors._STATES.get((bid, version, ENGINE_VERSION)) is None, version
    play(battle, gm, 4, seed=12)  # other commands over the same versions, committed
    assert state_to_dict(battle_state_at(battle=battle)) == folded_from_scratch(battle)
