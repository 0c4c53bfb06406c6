"""Parts 2 and 3 of bench/battles.py: command latency and time travel on PostgreSQL.

Run through bench/battles.py (it sets DJANGO_SETTINGS_MODULE and calls `bench_database`):

    DATABASE_URL=postgres://root@127.0.0.1:5432/test .venv/bin/python bench/battles.py

The events table is append-only (triggers refuse DELETE), so the bench works in a
throwaway database of its own, `test_bench_battles`, created and migrated at the start
and dropped at the end: nothing is left behind and no other database is touched.

Two battles are built from the demo setup, both played by random legal actions: a small
one (about 100 events) and a big one (100,000 events; 10,000 with --quick). The big one is
written fast but as the service would have written it: one `append` per command with the
service's metadata and fingerprint, and a snapshot whenever a command carries the stream
past a multiple of PENANCE_SNAPSHOT_EVERY (the rule of `services._snapshot_if_due`).
Then:

- latency: `battle_command_execute` for N commands on each battle, interleaved so drift
  hits both alike (the first few are warm-up); target big/small <= 1.5x;
- time travel: `battle_state_at` of the big battle at random versions.
"""

from __future__ import annotations

import gc
import os
import platform
import random
import statistics
import sys
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.base_user import AbstractBaseUser  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from battles.codec import BATTLE_EVENTS  # noqa: E402
from battles.engine.battle import (  # noqa: E402
    BattleState,
    Event,
    decide,
    evolve,
    legal_actions,
    parse_command,
    state_to_dict,
)
from battles.engine.demo import demo_setup  # noqa: E402
from battles.engine.ruleset import ENGINE_VERSION  # noqa: E402
from battles.models import Battle  # noqa: E402
from battles.selectors import battle_state_at, battle_stream  # noqa: E402
from battles.services import (  # noqa: E402
    _cache,
    _metadata,
    _new_events,
    battle_command_execute,
    battle_create,
    command_fingerprint,
)
from bench.benchdb import throwaway_database  # noqa: E402
from penance_site.eventstore.models import Snapshot  # noqa: E402
from penance_site.eventstore.store import (  # noqa: E402
    append,
    read_stream,
    snapshot_store,
)

WARM_UP = 10  # untimed commands per battle before the timed ones
WRITE_CHUNK = 500  # commands per transaction while building a battle


@dataclass(frozen=True, slots=True)
class Planned:
    """One command of a planned battle: its body, the events `decide` gave, the snapshot due."""

    body: dict[str, Any]
    expected_version: int
    events: list[Event]
    snapshot: dict[str, Any] | None


def _random_body(state: BattleState, rng: random.Random) -> dict[str, Any]:
    # The same random player as bench/battles.py's random_battle: passing less often keeps
    # a battle long, which is what the bench needs.
    actions = list(legal_actions(state))
    body = rng.choice(actions).body
    if body["type"] == "pass" and rng.random() < 0.6:
        body = rng.choice(actions).body
    return body


def _plan(
    state: BattleState, rng: random.Random, n_events: int, n_more: int
) -> tuple[list[Planned], list[dict[str, Any]]] | None:
    """Commands from `state` until the stream holds `n_events`, then `n_more` more bodies.

    None when the battle ends first: a stream is one battle, so the caller tries another.
    The extra bodies are the latency commands; planning them checks the battle lasts.
    """
    every: int = settings.PENANCE_SNAPSHOT_EVERY
    planned: list[Planned] = []
    more: list[dict[str, Any]] = []
    while len(more) < n_more:
        if state.over:
            return None
        body = _random_body(state, rng)
        old = state.version
        events = decide(state, parse_command(body))
        for e in events:
            state = evolve(state, e)
        if old >= n_events:
            more.append(body)
            continue
        due = state.version // every > old // every
        planned.append(Planned(body, old, events, state_to_dict(state) if due else None))
    return planned, more


def _write(battle: Battle, actor: AbstractBaseUser, planned: list[Planned]) -> None:
    """Record planned commands as `battle_command_execute` would, without loading or deciding."""
    stream = battle_stream(battle=battle)
    for start in range(0, len(planned), WRITE_CHUNK):
        with transaction.atomic():
            for p in planned[start : start + WRITE_CHUNK]:
                append(
                    stream=stream,
                    expected_version=p.expected_version,
                    events=_new_events(p.events),
                    command_id=uuid.uuid4().hex,
                    metadata=_metadata(actor, p.events),
                    fingerprint=command_fingerprint(p.body, p.expected_version),
                )
                if p.snapshot is not None:
                    snapshot_store(
                        stream=stream,
                        version=p.expected_version + len(p.events),
                        engine_version=ENGINE_VERSION,
                        state=p.snapshot,
                    )


def _head(battle: Battle) -> BattleState:
    events = read_stream(battle_stream(battle=battle))
    state = None
    for e in events:
        state = evolve(state, BATTLE_EVENTS.decode_record(e.type, e.schema_version, e.payload))
    assert state is not None
    return state


def build_battle(
    *, gm: AbstractBaseUser, player: AbstractBaseUser, n_events: int, n_more: int, seed: int
) -> tuple[Battle, list[dict[str, Any]]]:
    """A battle of at least `n_events` events (whole commands) and the bodies of `n_more`
    commands that follow it. A battle that would end too soon is left behind (in the
    throwaway database) and the next seed tried."""
    while True:
        setup = demo_setup(seed=seed, players=(player.get_username(), player.get_username()))
        setup["policy"] = "prompt"
        battle = battle_create(gm=gm, setup=setup)
        plan = _plan(_head(battle), random.Random(seed), n_events, n_more)
        if plan is not None:
            break
        seed += 1000
    planned, more = plan
    _write(battle, player, planned)
    if planned:
        last = planned[-1]
        state = battle_state_at(battle=battle)
        assert state.version == last.expected_version + len(last.events)
        _cache(battle, state)
    return battle, more


def _percentile(samples: list[float], p: int) -> float:
    return statistics.quantiles(samples, n=100, method="inclusive")[p - 1]


def _execute(battle: Battle, actor: AbstractBaseUser, body: Mapping[str, Any]) -> float:
    version = battle.version
    t0 = time.perf_counter()
    result = battle_command_execute(
        battle=battle,
        actor=actor,
        command_id=uuid.uuid4().hex,
        expected_version=version,
        body=body,
    )
    elapsed = time.perf_counter() - t0
    assert not result.duplicate and result.version == battle.version > version
    return elapsed


def _check_snapshots(battle: Battle) -> None:
    """The state the service loads (latest snapshot plus the events after it) is the fold of
    the whole stream: the snapshots written in bulk are the ones the service would use."""
    assert battle_state_at(battle=battle) == _head(battle)


def bench_latency(
    small: tuple[Battle, list[dict[str, Any]]],
    big: tuple[Battle, list[dict[str, Any]]],
    actor: AbstractBaseUser,
) -> tuple[list[float], list[float]]:
    """Seconds per `battle_command_execute`, small and big interleaved, warm-up dropped."""
    times: tuple[list[float], list[float]] = ([], [])
    for i, pair in enumerate(zip(small[1], big[1], strict=True)):
        for (battle, _), body, out in zip((small, big), pair, times, strict=True):
            t = _execute(battle, actor, body)
            if i >= WARM_UP:
                out.append(t)
    return times


def bench_time_travel(battle: Battle, samples: int, seed: int = 3) -> list[float]:
    rng = random.Random(seed)
    head = battle.version
    out = []
    for _ in range(samples):
        v = rng.randint(1, head)
        t0 = time.perf_counter()
        state = battle_state_at(battle=battle, version=v)
        out.append(time.perf_counter() - t0)
        assert state.version == v
    return out


def _ms(samples: list[float]) -> str:
    median, p99 = statistics.median(samples), _percentile(samples, 99)
    return f"median {median * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"


def bench_database(*, quick: bool) -> None:
    if connection.vendor != "postgresql":
        sys.exit(
            "bench/battles.py parts 2-3 measure PostgreSQL: set "
            "DATABASE_URL=postgres://user@host:port/name (or pass --replay-only)"
        )
    n_big = 10_000 if quick else 100_000
    n_commands = 30 if quick else 300
    n_travel = 20 if quick else 100
    every = settings.PENANCE_SNAPSHOT_EVERY

    with throwaway_database("battles"):
        pg = connection.pg_version
        print(
            f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, PostgreSQL {pg // 10000}.{pg % 10000}"
        )
        print(f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, snapshot every {every} events")
        users = get_user_model()._default_manager
        gm = users.create_user(username="bench-gm")
        player = users.create_user(username="bench-player")
        n_more = WARM_UP + n_commands

        t0 = time.perf_counter()
        small = build_battle(gm=gm, player=player, n_events=100, n_more=n_more, seed=11)
        big = build_battle(gm=gm, player=player, n_events=n_big, n_more=n_more, seed=1)
        build_s = time.perf_counter() - t0
        snapshots = Snapshot.objects.filter(stream_id=str(big[0].id)).count()
        print(
            f"built: small battle {small[0].version} events, big battle {big[0].version} "
            f"events with {snapshots} snapshots, in {build_s:.0f} s"
        )
        _check_snapshots(big[0])
        # Statistics as autovacuum would keep them after a bulk load (it may be off, as on the
        # VM in docs/PERFORMANCE.md). Without them the planner takes a 100,000-event stream for
        # one row and picks plans that scan it: that case is in docs/PERFORMANCE.md too.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        gc.collect()  # the plan's 100,000 events are garbage now, not a collector's burden

        small_t, big_t = bench_latency(small, big, player)
        ratio = statistics.median(big_t) / statistics.median(small_t)
        p99_ratio = _percentile(big_t, 99) / _percentile(small_t, 99)
        print(
            f"command latency ({len(small_t)} commands each, after {WARM_UP} warm-up, "
            f"interleaved): small {_ms(small_t)} | big {_ms(big_t)} | big/small median "
            f"x{ratio:.2f}, p99 x{p99_ratio:.2f}; target <= 1.5x: "
            f"{'met' if ratio <= 1.5 else 'NOT met'}"
        )

        travel = bench_time_travel(big[0], n_travel)
        t0 = time.perf_counter()
        battle_state_at(battle=big[0])
        head_ms = (time.perf_counter() - t0) * 1000
        print(
            f"time travel: battle_state_at(big, random version of {big[0].version}), "
            f"{n_travel} samples: {_ms(travel)} (current state: {head_ms:.2f} ms)"
        )
