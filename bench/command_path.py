"""A command and a log fetch on a long battle and a short one (one pass per command).

Server time, in process: a command through `battle_command_execute` (what the API's
command view calls) and the play page's log fragment (`GET /battles/<id>/replay/log?after=N`,
through Django's test client as a player, who needs the head state's `over`), plus the
live feed (`GET /api/battles/<id>/updates?after=N&wait=0`), on:

- "The Long Vigil": the demo's 1,001-event battle (`manage.py load_demo`: seed 54, policy
  auto, the greedy autoplayer's first 269 commands), and
- a 10-event battle: the same setup, the autoplayer's commands until it has 10 events.

Each battle then plays on by turns of a free rotation and a pass; the rotation is timed
(the same one-event command on both battles, so the figures differ by the battle's
length alone), and a log fetch of the last few lines and the live feed after each. Two process states, one run:

- `warm`: the process that wrote the previous command answers the next request (the
  state a command leads to is kept once committed, selectors.battle_state_keep);
- `cold`: every request as if in a new process: the per-process states, legal actions and
  guessed stream heads are dropped first, so the state comes from the nearest snapshot
  (PENANCE_SNAPSHOT_EVERY) and the events after it.

Target: the 1,001-event battle within 1.3x of the 10-event one, for the command and the
log fetch (medians). Run against a throwaway database (bench/benchdb.py):

    .venv/bin/python bench/command_path.py                       # SQLite
    DATABASE_URL=postgres://root@127.0.0.1:5432/test .venv/bin/python bench/command_path.py

`--root DIR` runs the same measurement against another checkout's code (the commit
before, for a before/after figure); `--commands N` sets the commands per battle.
"""

from __future__ import annotations

import argparse
import cProfile
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
parser.add_argument(
    "--phases",
    action="store_true",
    help="time the command's phases (state, decision, append, row, snapshot) apart",
)
parser.add_argument(
    "--profile", action="store_true", help="then profile warm commands on each battle (cProfile)"
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
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from battles import selectors  # noqa: E402
from battles.engine.battle import decide, legal_actions, parse_command  # noqa: E402
from battles.engine.battle.autoplay import greedy_commands  # noqa: E402
from battles.engine.demo import demo_setup  # noqa: E402
from battles.services import battle_command_execute, battle_create  # noqa: E402
from penance_site.eventstore import store  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdb import throwaway_database  # noqa: E402

LONG_VIGIL = ("Demo: The Long Vigil (1,000 events, in progress)", 54, "auto", 269)
SHORT_EVENTS = 10
LOG_LINES = 3  # a page that follows the battle asks for the lines after the last it holds

# --phases: the service's steps, each timed where battles.services calls it.
PHASES = (
    "battle_state_for_command",
    "_decide_with_table_check",
    "append",
    "_cache",
    "_snapshot_if_due",
)
phase_times: dict[str, list[float]] = {}
timing = {"on": False}


def _timed_phases() -> None:
    import battles.services as services

    for name in PHASES:
        real = getattr(services, name, None)
        if real is None:
            continue

        def timed(*a: Any, _real: Any = real, _name: str = name, **k: Any) -> Any:
            started = time.perf_counter()
            try:
                return _real(*a, **k)
            finally:
                if timing["on"]:
                    phase_times.setdefault(_name, []).append(time.perf_counter() - started)

        setattr(services, name, timed)


def _forget_process_state() -> None:
    """What a new process would not have: kept states and actions, guessed stream heads."""
    for name in ("_STATES", "_ACTIONS"):
        kept = getattr(selectors, name, None)
        if kept is not None:
            kept.clear()
    heads = getattr(store, "_HEADS", None)
    if heads is not None:
        heads.clear()


class Played:
    """A battle: built by the autoplayer, then played on by turns of one free rotation and
    a pass, so that the command timed is the same on every battle: a turn's free rotation
    (R-ADD-189), decided into one CasketRotated event."""

    def __init__(self, gm: Any, name: str, seed: int, policy: str) -> None:
        setup = demo_setup(seed=seed, players=("gm", "player"))
        setup["name"] = name
        setup["policy"] = policy
        self.gm = gm
        self.battle = battle_create(gm=gm, setup=setup)
        self.state = selectors.battle_state_at(battle=self.battle)
        self.moves = greedy_commands(self.state, seed=seed)
        self.sent = 0
        self.events = 0
        self.rotation_events: list[int] = []
        self.engine_times: list[float] = []

    def send(self, body: dict[str, Any]) -> float:
        """One command through the service; its server time in seconds."""
        started = time.perf_counter()
        result = battle_command_execute(
            battle=self.battle,
            actor=self.gm,
            command_id=f"bench-{self.battle.id}-{self.sent}",
            expected_version=self.state.version,
            body=body,
        )
        elapsed = time.perf_counter() - started
        assert result.state is not None and not result.duplicate
        self.events = len(result.events)
        self.sent += 1
        self.state = result.state
        return elapsed

    def play(self, commands: int) -> None:
        """The autoplayer's next commands (the demo's line)."""
        for _ in range(commands):
            body, _, _ = next(self.moves)
            self.send(body)

    def play_until(self, version: int) -> None:
        while self.state.version < version:
            body, _, _ = next(self.moves)
            self.send(body)

    def rotation(self) -> float:
        """Pass (or answer a prompt) until a seat may rotate for free, then time that."""
        body = self.free_rotation()
        # The engine's share, outside the timed service call: the same decision on the
        # same state (seeded dice), so what is left is the path's.
        started = time.perf_counter()
        decide(self.state, parse_command(body))
        self.engine_times.append(time.perf_counter() - started)
        elapsed = self.send(body)
        self.rotation_events.append(self.events)
        return elapsed

    def free_rotation(self) -> dict[str, Any]:
        """Pass (or answer a prompt) until a seat may rotate for free; that rotation."""
        while True:
            bodies = [dict(a.body) for a in legal_actions(self.state)]
            free = [b for b in bodies if b["type"] == "rotate" and "pay" not in b]
            if free:
                return free[0]
            passes = [b for b in bodies if b["type"] == "pass"]
            self.send(passes[0] if passes else bodies[0])


def _get(client: Client, url: str) -> float:
    started = time.perf_counter()
    response = client.get(url)
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise SystemExit(f"{url}: {response.status_code}")
    return elapsed


def measure(
    battles: dict[str, Played], player: Client, commands: int, cold: bool
) -> dict[str, dict[str, list[float]]]:
    """Server times in seconds, by battle and by request. The battles take turns, a round
    of both untimed first, so that neither gets the process's first requests nor more of
    the machine's other load."""
    out: dict[str, dict[str, list[float]]] = {
        label: {"command": [], "log": [], "updates": []} for label in battles
    }
    for i in range(commands + 1):
        for label, played in battles.items():
            times = out[label]
            if cold:
                _forget_process_state()
            timing["on"] = args.phases and not cold and i > 0
            times["command"].append(played.rotation())
            if timing["on"]:
                for name, kept in phase_times.items():
                    phase_by_battle.setdefault((label, name), []).append(kept.pop())
            timing["on"] = False
            after = played.state.version - LOG_LINES
            url = f"/battles/{played.battle.id}/replay/log?after={after}"
            if cold:
                _forget_process_state()
            times["log"].append(_get(player, url))
            if cold:
                _forget_process_state()
            url = f"/api/battles/{played.battle.id}/updates?after={after}&wait=0"
            times["updates"].append(_get(player, url))
            if i == 0:
                for kept in times.values():
                    kept.clear()
    return out


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:7.2f}"


phase_by_battle: dict[tuple[str, str], list[float]] = {}


def main() -> None:
    if args.phases:
        _timed_phases()
    setup_test_environment()  # the test client's host, as in the test runner
    with throwaway_database("command_path"):
        users = get_user_model().objects
        gm = users.create_user(username="gm")
        player_user = users.create_user(username="player")
        player = Client()
        player.force_login(player_user)

        started = time.perf_counter()
        name, seed, policy, demo_commands = LONG_VIGIL
        long = Played(gm, name, seed, policy)
        long.play(demo_commands)
        short = Played(gm, "Ten events", seed, policy)
        short.play_until(SHORT_EVENTS)
        built = time.perf_counter() - started
        print(
            f"{connection.vendor}; {platform.node()} {platform.machine()}, "
            f"{os.cpu_count()} CPUs, Python {platform.python_version()}; "
            f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; root {args.root}"
        )
        print(
            f"built in {built:.0f} s: the long battle at version {long.state.version}, "
            f"the short one at {short.state.version}; {args.commands} commands each per mode"
        )
        print(
            "mode  battle  events        command ms   log ms  updates ms   (medians)"
            "  engine ms  events/command"
        )
        battles = {"short": short, "long": long}
        for cold in (False, True):
            mode = "cold" if cold else "warm"
            first = {label: played.state.version for label, played in battles.items()}
            for played in battles.values():
                played.rotation_events.clear()
                played.engine_times.clear()
            figures = measure(battles, player, args.commands, cold)
            for label, played in battles.items():
                f = figures[label]
                print(
                    f"{mode}  {label:6} {first[label]:5}..{played.state.version:<5} "
                    f"{_ms(f['command'])}  {_ms(f['log'])}  {_ms(f['updates'])}"
                    f"   {_ms(played.engine_times)}   {statistics.mean(played.rotation_events):.2f}"
                )
            ratios = {
                k: statistics.median(figures["long"][k]) / statistics.median(figures["short"][k])
                for k in ("command", "log", "updates")
            }
            print(
                f"{mode}  long/short: command {ratios['command']:.2f}x, log {ratios['log']:.2f}x, "
                f"updates {ratios['updates']:.2f}x (target 1.3x for command and log)"
            )
        if args.phases:
            print("warm command by phase, medians in ms (short, long):")
            for name in PHASES:
                short_t = phase_by_battle.get(("short", name))
                long_t = phase_by_battle.get(("long", name))
                if short_t and long_t:
                    print(f"  {name:28} {_ms(short_t)}  {_ms(long_t)}")
        if args.profile:
            for label, played in battles.items():
                profile(label, played, args.commands)


def profile(label: str, played: Played, commands: int) -> None:
    """Where a warm rotation's time goes: the functions with the most time of their own."""
    profiler = cProfile.Profile()
    for _ in range(commands):
        if played.state.over:
            break
        body = played.free_rotation()
        profiler.enable()
        played.send(body)
        profiler.disable()
    print(f"--- {label}: {commands} free rotations, by own time")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
