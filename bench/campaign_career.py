"""Benchmark of a pilot's career (issue 5): `pilot_career` in a campaign of 50 missions × 4 pilots.

    .venv/bin/python bench/campaign_career.py [--missions 50] [--repeats 20]
    DATABASE_URL=postgres://root@127.0.0.1:5432/test .venv/bin/python bench/campaign_career.py

The bench works in a throwaway database of its own, created and migrated at the start and
dropped at the end (the events table refuses DELETE, so nothing else could clean up): a
temporary SQLite file by default, `test_bench_career` on the PostgreSQL server when
DATABASE_URL points at one. A name apart from pytest's test_<name> keeps a concurrent test
run's database safe; the database DATABASE_URL names is never written.

The build (timed apart, not the measured figure) is one campaign through the services:
four players with a pilot and a build each (the two demo decks alternately), then
`--missions` missions, each started with all four pilots, two against two, and played to
its end by the engine's greedy autoplayer. As tests/campaigns/builders.py's `fast_forward`
does, every command but the last is recorded straight into the store and the last one, the
one that ends the battle, goes through `battle_command_execute`, so the outbox and outcome
path is the real one; `campaign_outcome_apply` then applies the outcome (already applied
when Celery runs eagerly, which is harmless: it applies once, R-PLT-5). A pilot who dies
(R-PLT-1) is replaced by a new pilot for the same player, so every mission has four. A
battle that has not ended within `--limit` commands is rolled back and the mission started
again with the next dice seed (seeds are 100 × mission number + attempt).

Measured, interleaved, `--repeats` times each (median and p95), for the pilot who served in
the most missions:

- `pilot_career(campaign, pilot_id)`;
- baseline: `read_stream` of every event of that pilot's battle streams, the data the career
  draws from;
- `campaign_state(campaign)`, the fold of the campaign stream alone.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import platform
import pstats
import statistics
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-" + "0" * 40)

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from battles.codec import BATTLE_EVENTS  # noqa: E402
from battles.engine.battle.autoplay import greedy_commands  # noqa: E402
from battles.engine.board import parse_board  # noqa: E402
from battles.engine.demo import DEMO_DECKS, demo_board  # noqa: E402
from battles.engine.hexes import Hex  # noqa: E402
from battles.models import Battle  # noqa: E402
from battles.selectors import battle_state_at, battle_stream  # noqa: E402
from battles.services import battle_command_execute  # noqa: E402
from bench.benchdb import throwaway_database  # noqa: E402
from campaigns import services  # noqa: E402
from campaigns.catalogue import catalogue_load_demo  # noqa: E402
from campaigns.models import Campaign, CasketBuild, Mission  # noqa: E402
from campaigns.selectors import campaign_state, pilot_career  # noqa: E402
from penance_site.eventstore.models import Event  # noqa: E402
from penance_site.eventstore.store import NewEvent, StreamRef, append, read_stream  # noqa: E402

PLAYERS = 4
DECKS = (("penitent-scout", "scout", "left"), ("bastion-heavy", "heavy", "right"))
# Two against two across the causeway (R-TRN-8). Distinct clear hexes on the demo board,
# checked against it at start-up (R-BRD-1, R-BRD-3); 4 = S and 1 = N (R-BRD-2), so each
# side starts facing the other.
SIDES = ("penitents", "penitents", "bastion", "bastion")
DEPLOY = ((0, -4), (1, -4), (0, 4), (-1, 4))
FACINGS = (4, 4, 1, 1)
MAX_ATTEMPTS = 20  # seeds tried per mission before the bench gives up
CHUNK = 900  # events per `append` while recording a battle (as fast_forward)


class _NoEnd(Exception):
    """The battle did not end within the command limit: roll the mission start back."""


@dataclass(frozen=True, slots=True)
class _Planned:
    chunks: list[tuple[int, list[NewEvent]]]  # (expected version, events) per append
    final_body: dict[str, Any]
    final_version: int
    commands: int


def _machine() -> str:
    model = ram = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram = f"{int(line.split()[1]) / 1024**2:.0f} GiB"
                break
    except OSError:
        pass
    db = connection.vendor
    if db == "postgresql":
        pg = connection.pg_version
        db += f" {pg // 10000}.{pg % 10000}"
    else:
        import sqlite3

        db += f" {sqlite3.sqlite_version}"
    return (
        f"machine: {platform.node()} {platform.machine()}, {os.cpu_count()} cores ({model}), "
        f"{ram} RAM, Linux {platform.release()}, Python {platform.python_version()}, {db}"
    )


def _check_deploy() -> None:
    board = parse_board(demo_board())
    hexes = [Hex(q, r) for q, r in DEPLOY]
    assert len(set(hexes)) == len(hexes), "deploy hexes must be distinct (R-TRN-1)"
    for h in hexes:
        assert h in board, f"{h} is not on the demo board (R-BRD-1)"
        assert not board.terrain_at(h).impassable, f"{h} is impassable (R-BRD-3)"


# --- building the campaign -----------------------------------------------------------------------


@dataclass
class _Roster:
    campaign: Campaign
    gm: Any
    players: list[Any]
    pilots: list[str]  # the current (living) pilot of each player
    builds: list[CasketBuild]
    enlisted: int = 0


def _enlist(roster: _Roster, i: int) -> str:
    roster.enlisted += 1
    pilot = services.pilot_enlist(
        campaign=roster.campaign,
        actor=roster.gm,
        player=roster.players[i].get_username(),
        name=f"Pilot {roster.enlisted} of player {i + 1}",
    )
    return str(pilot.id)


def _roster() -> _Roster:
    users = get_user_model()._default_manager
    gm = users.create_user(username="bench-gm")
    players = [users.create_user(username=f"bench-player-{i + 1}") for i in range(PLAYERS)]
    catalogue_load_demo()
    campaign = services.campaign_create(gm=gm, name="Bench: the long war")
    roster = _Roster(campaign, gm, players, [], [])
    for i, user in enumerate(players):
        services.campaign_player_add(campaign=campaign, actor=gm, username=user.get_username())
        roster.pilots.append(_enlist(roster, i))
        deck, casket_class, shield = DECKS[i % len(DECKS)]
        build, _ = services.build_revise(
            campaign=campaign,
            actor=user,
            build_id=None,
            name=f"{deck.replace('-', ' ').title()} {i + 1}",
            casket_class=casket_class,
            shield=shield,
            deck=[{"card": c, "count": n} for c, n in DEMO_DECKS[deck]],
        )
        roster.builds.append(build)
    return roster


def _seats(roster: _Roster) -> list[dict[str, Any]]:
    return [
        {
            "pilot": roster.pilots[i],
            "build": str(roster.builds[i].id),
            "side": SIDES[i],
            "at": list(DEPLOY[i]),
            "facing": FACINGS[i],
        }
        for i in range(PLAYERS)
    ]


def _record(event: Any) -> NewEvent:
    type_, schema_version, payload = BATTLE_EVENTS.to_record(event)
    return NewEvent(type_, payload, schema_version)


def _plan(battle: Battle, seed: int, limit: int) -> _Planned:
    """Play the battle in the engine with the greedy autoplayer until the command that
    ends it; _NoEnd when it does not end within `limit` commands."""
    before = battle_state_at(battle=battle)
    chunks: list[tuple[int, list[NewEvent]]] = []
    pending: list[NewEvent] = []
    version = before.version
    for n, (body, events, after) in enumerate(islice(greedy_commands(before, seed=seed), limit)):
        if after.over:
            if pending:
                chunks.append((version, pending))
            return _Planned(chunks, body, before.version, n + 1)
        if len(pending) + len(events) > CHUNK:
            chunks.append((version, pending))
            version += len(pending)
            pending = []
        pending.extend(_record(e) for e in events)
        before = after
    raise _NoEnd


def _write(battle: Battle, gm: Any, planned: _Planned) -> None:
    stream = battle_stream(battle=battle)
    for i, (version, events) in enumerate(planned.chunks):
        append(
            stream=stream,
            expected_version=version,
            events=events,
            command_id=f"ff-{battle.id.hex}-{i}",
            metadata={"actor": gm.get_username(), "adjustment": False},
        )
    battle_command_execute(
        battle=battle,
        actor=gm,
        command_id=f"end-{battle.id.hex}",
        expected_version=planned.final_version,
        body=planned.final_body,
    )


def _mission(roster: _Roster, number: int, limit: int) -> tuple[int, int]:
    """Plan, start, play and settle mission `number`; (attempts, commands)."""
    mission = services.mission_plan(
        campaign=roster.campaign, actor=roster.gm, name=f"Sortie {number}"
    )
    for attempt in range(MAX_ATTEMPTS):
        seed = 100 * number + attempt
        try:
            with transaction.atomic():
                battle = services.mission_start(
                    mission=mission,
                    actor=roster.gm,
                    board=demo_board(),
                    dice={"mode": "digital", "seed": seed},
                    policy="auto",
                    seats=_seats(roster),
                )
                planned = _plan(battle, seed, limit)
        except _NoEnd:
            continue
        break
    else:
        raise RuntimeError(f"mission {number}: no battle ended in {MAX_ATTEMPTS} seeds")
    _write(battle, roster.gm, planned)
    services.campaign_outcome_apply(battle_id=str(battle.id))
    mission.refresh_from_db()
    assert mission.status == Mission.Status.COMPLETED, mission.status
    # R-PLT-1: the dead take no further part; the player enlists a replacement.
    state = campaign_state(campaign=roster.campaign)
    for i, pilot_id in enumerate(roster.pilots):
        if state.pilots[pilot_id].status == "dead":
            roster.pilots[i] = _enlist(roster, i)
    return attempt + 1, planned.commands


def build(missions: int, limit: int) -> tuple[_Roster, dict[str, int]]:
    roster = _roster()
    attempts = commands = 0
    for number in range(1, missions + 1):
        a, c = _mission(roster, number, limit)
        attempts += a
        commands += c
    return roster, {"attempts": attempts, "commands": commands}


# --- measuring -----------------------------------------------------------------------------------


def _p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100, method="inclusive")[94]


def _ms(samples: list[float]) -> str:
    return f"median {statistics.median(samples) * 1000:8.2f} ms, p95 {_p95(samples) * 1000:8.2f} ms"


def measure(campaign: Campaign, pilot_id: str, battles: list[str], repeats: int) -> dict[str, Any]:
    streams = [StreamRef("battle", b) for b in battles]

    def career() -> Any:
        return pilot_career(campaign=campaign, pilot_id=pilot_id)

    def read() -> int:
        return sum(len(read_stream(s)) for s in streams)

    def fold() -> Any:
        return campaign_state(campaign=campaign)

    runs = {"career": career, "read": read, "fold": fold}
    for f in runs.values():  # warm-up: caches, imports, the server's buffers
        f()
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, f in runs.items():
            gc.collect()
            t0 = time.perf_counter()
            f()
            times[name].append(time.perf_counter() - t0)
    return times


def profile(campaign: Campaign, pilot_id: str) -> str:
    prof = cProfile.Profile()
    prof.enable()
    pilot_career(campaign=campaign, pilot_id=pilot_id)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(25)
    return out.getvalue()


def run(args: argparse.Namespace) -> None:
    _check_deploy()
    with throwaway_database("career"):
        print(_machine())
        print(f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
        t0 = time.perf_counter()
        roster, built = build(args.missions, args.limit)
        build_s = time.perf_counter() - t0
        if connection.vendor == "postgresql":
            # Statistics as autovacuum would keep them after a bulk load (it may be off).
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")

        campaign = Campaign.objects.get(pk=roster.campaign.pk)
        state = campaign_state(campaign=campaign)
        # The longest-serving pilot; the first enlisted among equals.
        pilot = max(state.pilots.values(), key=lambda p: len(p.missions))
        battles = [
            m.battle_id
            for m in state.missions
            if m.battle_id and any(pid == pilot.id for _, pid, _, _ in m.deployments)
        ]
        dead = sum(1 for p in state.pilots.values() if p.status == "dead")
        campaign_events = Event.objects.filter(stream_type="campaign").count()
        print(
            f"build (not measured): {args.missions} missions in {build_s:.1f} s, "
            f"{built['commands']} commands, {built['attempts']} battle starts "
            f"({built['attempts'] - args.missions} rolled back), {len(state.pilots)} pilots "
            f"enlisted, {dead} died; missions per pilot: max {len(pilot.missions)}, median "
            f"{statistics.median(len(p.missions) for p in state.pilots.values()):g}"
        )
        print(
            f"store: {Event.objects.count()} events, {Battle.objects.count()} battles, "
            f"campaign stream {campaign_events} events"
        )
        result = pilot_career(campaign=campaign, pilot_id=pilot.id)
        assert result["totals"]["missions"] == len(battles)
        read_events = sum(len(read_stream(StreamRef("battle", b))) for b in battles)
        print(
            f"pilot: {pilot.name} ({pilot.status}), {len(battles)} missions; their battle "
            f"streams hold {read_events} events; career: {len(result['events'])} entries, "
            f"totals {result['totals']}"
        )
        times = measure(campaign, pilot.id, battles, args.repeats)
        career, read, fold = times["career"], times["read"], times["fold"]
        print(f"{args.repeats} repeats, interleaved, after one warm-up each:")
        print(f"  pilot_career                          {_ms(career)}")
        print(f"  baseline: read_stream of its battles  {_ms(read)}")
        print(f"  campaign_state (fold alone)           {_ms(fold)}")
        med = statistics.median
        print(
            f"  career / read_stream: median x{med(career) / med(read):.2f}, "
            f"p95 x{_p95(career) / _p95(read):.2f}; career / campaign_state: median "
            f"x{med(career) / med(fold):.2f}; career / (read + fold): median "
            f"x{med(career) / (med(read) + med(fold)):.2f}"
        )
        if args.profile or med(career) > 1.0:
            print(profile(campaign, pilot.id))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--missions", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--limit", type=int, default=4000, help="commands per battle")
    parser.add_argument("--profile", action="store_true", help="cProfile one pilot_career")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
