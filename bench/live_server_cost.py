"""What one command costs the server across every open page of its battle, in process.

The pushed stream (battles/streams.py) tells each open page of a new version; each page
then asks `GET …/updates?after=N&wait=0` (the play page's `listen()`), and a page that
follows the battle fetches the new frame and log lines (`follow()`). bench/live.py
measures that through two real servers, where the machine's other load moves every
figure; this measures the server's own time per request, through Django's whole stack
(the test client: middleware, session, DRF, view), one request at a time, so that a
before/after ratio taken in one run holds on a busy machine.

One demo battle, its two players and `--watchers` watchers (50), each signed in with a
session of their own as the pages are. Each round: the player whose turn it is posts a
legal action (a free rotation when offered, else a pass: bench/live.py's choice) to
`…/commands`, then that player's own page fetches the new frame (htmx) and log lines; the
other player's page asks `…/updates`, then every watcher's page, in turn, asks
`…/updates` (not with `--no-updates`), its log lines and its frame, as `follow()` does.
Timed per request; `--commands` rounds after one untimed round.

    .venv/bin/python bench/live_server_cost.py                       # SQLite
    DATABASE_URL=postgres://root@127.0.0.1:5432/test .venv/bin/python bench/live_server_cost.py

`--root DIR` runs the same against another checkout's code (`git archive <commit> | tar -x
-C DIR`: the code before a change); `--profile` prints where a watcher's and the players'
requests spend their time (cProfile, by own time).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--root", default=str(Path(__file__).resolve().parents[1]))
parser.add_argument("--commands", type=int, default=30)
parser.add_argument("--watchers", type=int, default=50)
parser.add_argument(
    "--no-updates",
    action="store_true",
    help="the watchers' pages take the version from the stream's event and do not ask "
    "`…/updates` (the play page since it does so); the other player's page still asks",
)
parser.add_argument(
    "--profile",
    nargs="*",
    metavar="REQUEST",
    help="then profile 10 more rounds' requests of these kinds (the words of the table's "
    "first column; none: all), by cumulative and by own time (cProfile)",
)
args = parser.parse_args()
sys.path.insert(0, args.root)
os.chdir(args.root)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-0000000000000000000")
os.environ.setdefault("PENANCE_ENV_FILE", "")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache, caches  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from battles import selectors  # noqa: E402
from battles.engine.demo import demo_setup  # noqa: E402
from battles.services import battle_create  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdb import throwaway_database  # noqa: E402

KINDS = (
    "command POST",
    "own frame (htmx)",
    "own log lines",
    "other player: updates",
    "first watcher: updates",
    "other watchers: updates",
    "first watcher: log lines",
    "other watchers: log lines",
    "first watcher: frame",
    "other watchers: frame",
)
# A watcher's requests per version, as its page makes them: the first of them renders what
# the others may find kept.
WATCHER_KINDS = ("updates", "log lines", "frame")


PROFILING: dict[str, Any] = {"profiler": None, "kinds": ()}
# This process's CPU time (the web worker's share: the database's own is not in it, nor
# any time the machine gave to other processes) and the queries, per request kind.
CPU: dict[str, list[float]] = {k: [] for k in KINDS}
QUERIES: dict[str, list[int]] = {k: [] for k in KINDS}


def _timed(times: dict[str, list[float]], kind: str, call: Any, *a: Any, **k: Any) -> Any:
    profiler = PROFILING["profiler"]
    if profiler is not None and not any(w in kind for w in PROFILING["kinds"]):
        profiler = None
    started, cpu = time.perf_counter(), time.process_time()
    # Past 9,000 queries the log drops its oldest, and the context's count goes wrong.
    connection.queries_log.clear()
    if profiler is not None:
        profiler.enable()
    with CaptureQueriesContext(connection) as queries:
        response = call(*a, **k)
        # Counted before the next request's start empties the log.
        QUERIES[kind].append(len(queries))
    if profiler is not None:
        profiler.disable()
    CPU[kind].append(time.process_time() - cpu)
    times[kind].append(time.perf_counter() - started)
    if response.status_code not in (200, 201):
        raise SystemExit(f"{kind}: {response.status_code} {response.content[:300]!r}")
    return response


def _choose(bodies: list[dict[str, Any]]) -> dict[str, Any]:
    rotations = [b for b in bodies if b["type"] == "rotate" and "pay" not in b]
    if rotations:
        return rotations[0]
    passes = [b for b in bodies if b["type"] == "pass"]
    return passes[0] if passes else bodies[0]


def round_of(
    battle: Any,
    players: list[tuple[Any, Client]],
    watchers: list[Client],
    times: dict[str, list[float]],
    n: int,
) -> None:
    """One command and every page's requests after it."""
    for i, (user, client) in enumerate(players):
        version, actions = selectors.battle_legal_actions(battle=battle, user=user)
        if actions:
            mover, other = client, players[1 - i][1]
            break
    else:
        raise SystemExit("nobody has a legal action")
    body = {
        **_choose([dict(a.body) for a in actions]),
        "command_id": f"bench-{n}",
        "expected_version": version,
    }
    url = f"/api/battles/{battle.id}"
    posted = _timed(
        times,
        "command POST",
        mover.post,
        f"{url}/commands",
        json.dumps(body),
        content_type="application/json",
    )
    head = posted.json()["version"]
    page = f"/battles/{battle.id}/replay/"
    _timed(times, "own frame (htmx)", mover.get, f"{page}?at={head}", HTTP_HX_REQUEST="true")
    _timed(times, "own log lines", mover.get, f"{page}log?after={version}")
    updates = f"{url}/updates?after={version}&wait=0"
    _timed(times, "other player: updates", other.get, updates)
    # Each watcher's page as replay.js makes its requests: `listen()` hears the version
    # (and asks `…/updates`, unless --no-updates), then `follow()` fetches the log lines
    # after the version it showed and the frame at the new head. Which watcher asks first
    # turns with the round, so no one client's session is always the cold one.
    for j in range(len(watchers)):
        watcher = watchers[(j + n) % len(watchers)]
        who = "first watcher" if j == 0 else "other watchers"
        if not args.no_updates:
            _timed(times, f"{who}: updates", watcher.get, updates)
        _timed(times, f"{who}: log lines", watcher.get, f"{page}log?after={version}")
        _timed(times, f"{who}: frame", watcher.get, f"{page}?at={head}", HTTP_HX_REQUEST="true")


def _ms(values: list[float], p: float | None = None) -> str:
    if not values:
        return "      -"
    if p is None:
        return f"{statistics.median(values) * 1000:7.2f}"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))] * 1000:7.2f}"


def main() -> None:
    setup_test_environment()  # the test client's host, as in the test runner
    with throwaway_database("live_cost"):
        cache.clear()
        users = get_user_model().objects
        gm = users.create_user(username="gm")
        alice = users.create_user(username="alice")
        bob = users.create_user(username="bob")
        battle = battle_create(gm=gm, setup=demo_setup(players=("alice", "bob")))
        players = []
        for user in (alice, bob):
            client = Client()
            client.force_login(user)
            players.append((user, client))
        watchers = []
        for i in range(args.watchers):
            user = users.create_user(username=f"watcher-{i}")
            battle.watchers.create(user=user)
            client = Client()
            client.force_login(user)
            watchers.append(client)
        print(
            f"{connection.vendor}; {platform.node()} {platform.machine()}, "
            f"{os.cpu_count()} CPUs, Python {platform.python_version()}; "
            f"{datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC; load {_load()}; root {args.root}; "
            f"cache {type(caches['default']).__name__}; {args.watchers} watchers, {args.commands} commands"
        )
        times: dict[str, list[float]] = {k: [] for k in KINDS}
        round_of(battle, players, watchers, times, 0)
        times = {k: [] for k in KINDS}
        for kept in (*CPU.values(), *QUERIES.values()):
            kept.clear()
        started = time.perf_counter()
        for n in range(1, args.commands + 1):
            round_of(battle, players, watchers, times, n)
        elapsed = time.perf_counter() - started
        print(f"{'request':28} {'median ms':>9} {'p95 ms':>8} {'CPU ms':>8} {'queries':>7}    n")
        for kind in KINDS:
            queries = statistics.median(QUERIES[kind]) if QUERIES[kind] else 0
            print(
                f"{kind:28} {_ms(times[kind]):>9} {_ms(times[kind], 0.95):>8} "
                f"{_ms(CPU[kind]):>8} {queries:>7.0f} {len(times[kind]):>5}"
            )
        per_command = sum(
            statistics.mean(times[k]) * (args.watchers - 1 if k.startswith("other watchers") else 1)
            for k in KINDS
            if times[k]
        )
        own = statistics.median(
            a + b + c
            for a, b, c in zip(
                times["command POST"],
                times["own frame (htmx)"],
                times["own log lines"],
                strict=True,
            )
        )
        watchers_cpu = {
            w: (statistics.mean(CPU[f"first watcher: {w}"]) if CPU[f"first watcher: {w}"] else 0)
            + (
                statistics.mean(CPU[f"other watchers: {w}"]) * (args.watchers - 1)
                if CPU[f"other watchers: {w}"]
                else 0
            )
            for w in WATCHER_KINDS
        }
        print(
            f"per command: the players' own page (POST, frame, log) median {own * 1000:.1f} ms; "
            f"the server's time over every page's requests {per_command * 1000:.0f} ms; "
            f"the watchers' CPU {sum(watchers_cpu.values()) * 1000:.0f} ms ("
            + ", ".join(f"{w} {v * 1000:.0f}" for w, v in watchers_cpu.items())
            + f"; means); {elapsed:.0f} s in all; load {_load()}"
        )
        if args.profile is not None:
            profile(battle, players, watchers, args.commands)


def _load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def profile(battle: Any, players: list[tuple[Any, Client]], watchers: list[Client], n: int) -> None:
    """Where the chosen requests spend their time, by cumulative and by own time."""
    profiler = cProfile.Profile()
    PROFILING["profiler"] = profiler
    PROFILING["kinds"] = tuple(args.profile) or ("",)
    times: dict[str, list[float]] = {k: [] for k in KINDS}
    for i in range(10):
        round_of(battle, players, watchers, times, n + 1 + i)
    PROFILING["profiler"] = None
    print(f"--- 10 rounds, requests matching {args.profile or 'any'}, by cumulative time")
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
    print("--- by own time")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
