"""Load test through the production server (issue 16): tables of two players and viewers.

It starts `make serve` (gunicorn, WEB_CONCURRENCY workers; the Celery worker and beat
too when REDIS_URL is set) on a throwaway database of its own, then runs one bounded
round per user count:

- a table is a battle with two players; each player polls its legal actions
  (`GET …/legal-actions`) and, when it has some, posts one of them
  (`POST …/commands`), thinking `--think` seconds (±50 %) between requests;
- a viewer steps through a battle's replay (`GET …/state?at=N`), one step every
  `--think`/4 seconds;
- a fifth of the users are viewers, the rest sit at tables.

After each round every battle played is verified (its digest chain) and checked
against what the server answered: every accepted command's events are in its stream
exactly once, at the versions answered, and the stream holds no other command. The
baseline, in the same run: the same kind of command through the service in this
process (no HTTP), so the HTTP path's latency is a ratio to it. Run:

    DATABASE_URL=postgres://root@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/14 \\
        .venv/bin/python bench/load.py --users 20 100 --seconds 60

Target: no errors, no lost or doubled events, p99 of the command POST at 20 users
within 3× the in-process p50 plus 50 ms.
"""

from __future__ import annotations

import argparse
import gc
import http.client
import itertools
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-0000000000000000000")

import django  # noqa: E402

# Every request carries a number that the server's access log repeats beside gunicorn's
# own time for it (`%(M)s`: from the request read to the response written, in the
# worker), so a slow request's time splits into the worker's part and the rest (waiting
# in the listen queue for a free worker, the network stack, the load generator's threads).
REQUEST_HEADER = "X-Bench-Request"
ACCESS_LOG_FORMAT = "bench-request %({x-bench-request}i)s %(M)s %(B)s"
_request_ids = itertools.count(1)

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402

from battles.engine.demo import demo_setup  # noqa: E402
from battles.selectors import (  # noqa: E402
    battle_legal_actions,
    battle_stream,
    battle_verify,
)
from battles.services import battle_command_execute, battle_create  # noqa: E402
from bench.benchdb import throwaway_database  # noqa: E402
from bench.serving import wait_until_serving  # noqa: E402
from penance_site.accounts.tokens import api_token_create  # noqa: E402
from penance_site.eventstore.store import read_stream  # noqa: E402


@dataclass
class Tally:
    """What one round saw, from every user thread (appended under the lock)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    command_ms: list[float] = field(default_factory=list)
    step_ms: list[float] = field(default_factory=list)
    read_ms: list[float] = field(default_factory=list)
    accepted: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    # Every request of the round: (start, end) in perf_counter seconds, to see whether the
    # slowest commands shared a stall.
    spans: list[tuple[float, float]] = field(default_factory=list)
    # Request number -> (kind, start, end), to join with the server's log.
    requests: dict[int, tuple[str, float, float]] = field(default_factory=dict)
    stale: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, **kwargs: Any) -> None:
        with self.lock:
            for name, value in kwargs.items():
                getattr(self, name).append(value)


def request_kind(path: str) -> str:
    """The load test's three requests, named as its report names them."""
    if path.endswith("/commands"):
        return "command POST"
    if "/legal-actions" in path:
        return "legal actions"
    return "replay step" if "/state" in path else "other"


class Client:
    """One user's keep-alive connection, with its token."""

    def __init__(self, port: int, token: str, tally: Tally | None = None) -> None:
        self.port = port
        self.tally = tally
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        data = json.dumps(body) if body is not None else None
        request_id = next(_request_ids)
        headers = {**self.headers, REQUEST_HEADER: str(request_id)}
        start = time.perf_counter()
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            raise
        end = time.perf_counter()
        if self.tally is not None:
            self.tally.add(spans=(start, end))
            with self.tally.lock:
                self.tally.requests[request_id] = (request_kind(path), start, end)
        return response.status, json.loads(raw) if raw else None, (end - start) * 1000


def player(
    port: int, token: str, battle: str, deadline: float, think: float, spread: float, tally: Tally
):
    rng = random.Random(f"{battle}{token}")
    client = Client(port, token, tally)
    # Users arrive spread over one think time, as people at real tables do (--arrivals);
    # started in the same millisecond, every user's first request queues behind the
    # others' for the few workers, and that one burst sets the round's p99.
    time.sleep(spread * think * rng.random())
    while time.monotonic() < deadline:
        try:
            status, body, ms = client.call("GET", f"/api/battles/{battle}/legal-actions")
            tally.add(read_ms=ms)
            if status != 200:
                tally.add(errors=f"legal-actions {status}: {str(body)[:200]}")
            elif body["actions"]:
                action = rng.choice(body["actions"])["body"]
                command_id = uuid.uuid4().hex
                request = {**action, "command_id": command_id, "expected_version": body["version"]}
                status, answer, ms = client.call("POST", f"/api/battles/{battle}/commands", request)
                if status == 201:
                    tally.add(command_ms=ms)
                    with tally.lock:
                        tally.accepted[(battle, command_id)] = [
                            e["version"] for e in answer["events"]
                        ]
                elif status == 409 and answer.get("code") == "stale_version":
                    with tally.lock:
                        tally.stale += 1
                else:
                    tally.add(errors=f"command {status}: {str(answer)[:200]}")
        except (OSError, http.client.HTTPException, ValueError) as exc:
            tally.add(errors=f"{type(exc).__name__}: {exc}")
        time.sleep(think * rng.uniform(0.5, 1.5))


def viewer(
    port: int, token: str, battle: str, deadline: float, think: float, spread: float, tally: Tally
):
    client = Client(port, token, tally)
    step = 1
    time.sleep(spread * think * random.Random(token).random())  # arrivals, as the players'
    while time.monotonic() < deadline:
        try:
            status, body, ms = client.call("GET", f"/api/battles/{battle}/state?at={step}")
            if status == 200:
                tally.add(step_ms=ms)
                step += 1
            elif status == 400:  # past the head: start again from the first step
                step = 1
            else:
                tally.add(errors=f"state {status}: {str(body)[:200]}")
        except (OSError, http.client.HTTPException, ValueError) as exc:
            tally.add(errors=f"{type(exc).__name__}: {exc}")
        time.sleep(think / 4)


def warm_up(port: int, token: str, battle: str, workers: int) -> None:
    """Load every worker's code and caches before measuring: a worker's first requests
    import the engine and the URL conf, which is start-up, not load."""
    client = Client(port, token)
    for _ in range(10 * workers):
        client.call("GET", f"/api/battles/{battle}/legal-actions")
        client.call("GET", f"/api/battles/{battle}/state?at=1")
        client.conn.close()  # a new connection may land on another worker


def users(prefix: str, count: int) -> list[Any]:
    model = get_user_model()
    return [model.objects.create_user(username=f"{prefix}{i}") for i in range(count)]


def token(user: Any) -> str:
    """A new API token of the user (only digests are stored, so each call makes one)."""
    return api_token_create(user=user, name="bench")[1]


def check(battles: list[Any], tally: Tally) -> dict[str, int]:
    """Verify each battle and hold its stream to the server's answers: every accepted
    command exactly once at the versions answered, and no command nobody was told of."""
    lost = doubled = phantom = broken = 0
    for battle in battles:
        if not battle_verify(battle=battle).ok:
            broken += 1
        groups: dict[str, list[int]] = {}
        for e in read_stream(battle_stream(battle=battle)):
            groups.setdefault(e.command_id, []).append(e.version)
        answered = {cid: v for (b, cid), v in tally.accepted.items() if b == str(battle.id)}
        for command_id, versions in answered.items():
            stored = groups.get(command_id)
            if stored is None:
                lost += 1
            elif stored != versions:
                doubled += 1
        phantom += sum(1 for cid in groups if cid not in answered and cid != f"create-{battle.id}")
    return {"lost": lost, "doubled": doubled, "phantom": phantom, "unverified": broken}


def in_process_p50(gm: Any, players: list[Any], commands: int) -> float:
    """The same kind of command through the service, in this process: its p50 in ms."""
    battle = battle_create(
        gm=gm, setup={**demo_setup(players=(players[0].username, players[1].username))}
    )
    rng = random.Random(1)
    times: list[float] = []
    while len(times) < commands:
        version, actions = battle_legal_actions(battle=battle, user=gm)
        if not actions:
            break
        body = rng.choice(actions).body
        start = time.perf_counter()
        battle_command_execute(
            battle=battle,
            actor=gm,
            command_id=uuid.uuid4().hex,
            expected_version=version,
            body=dict(body),
        )
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def server_log(log: Path) -> dict[int, tuple[float, int]]:
    """Request number -> (the worker's own ms for it, the response's bytes), read from the
    server's access log."""
    times: dict[int, tuple[float, int]] = {}
    for line in log.read_text(errors="replace").splitlines():
        _, marker, rest = line.partition("bench-request ")
        fields = rest.split()
        if marker and len(fields) == 3 and fields[0].isdigit():
            times[int(fields[0])] = (float(fields[1]), int(fields[2]) if fields[2].isdigit() else 0)
    return times


def slowest_commands(
    tally: Tally, server: dict[int, tuple[float, int]], count: int = 3, slow_ms: float = 100.0
) -> str:
    """The slowest commands, each with the worker's own part of it, and how many other
    requests overlapped it and how many of those were slow too: many slow neighbours say
    the machine stalled, few say the command itself was slow."""
    out = []
    posts = sorted(
        (
            (rid, start, end)
            for rid, (kind, start, end) in tally.requests.items()
            if kind == "command POST"
        ),
        key=lambda r: r[1] - r[2],
    )
    for rid, start, end in posts[:count]:
        overlapping = [
            (a, b) for a, b in tally.spans if a < end and b > start and (a, b) != (start, end)
        ]
        slow = sum(1 for a, b in overlapping if (b - a) * 1000 > slow_ms)
        in_worker = f"{server[rid][0]:.0f} ms in the worker" if rid in server else "not in the log"
        out.append(
            f"{(end - start) * 1000:.0f} ms ({in_worker}; {slow} of {len(overlapping)} "
            f"overlapping requests over {slow_ms:.0f} ms)"
        )
    return "; ".join(out)


def split_times(tally: Tally, server: dict[int, tuple[float, int]], kind: str) -> str:
    """p50 and p99 of the worker's part of one kind of request, of the rest (client-side
    time minus the worker's), each percentile taken on its own, and the responses' median
    size."""
    worker, outside, sizes = [], [], []
    for rid, (k, start, end) in tally.requests.items():
        if k == kind and rid in server:
            worker.append(server[rid][0])
            outside.append((end - start) * 1000 - server[rid][0])
            sizes.append(server[rid][1])
    missing = sum(1 for k, _, _ in tally.requests.values() if k == kind) - len(worker)
    return (
        f"{kind}: in the worker p50 {percentile(worker, 50):.1f} ms, p99 "
        f"{percentile(worker, 99):.1f} ms; outside it p50 {percentile(outside, 50):.1f} ms, "
        f"p99 {percentile(outside, 99):.1f} ms; response p50 {percentile(sizes, 50):.0f} bytes"
        + (f"; {missing} not in the log" if missing else "")
    )


def percentile(values: list[float] | list[int], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def start_server(database_url: str, port: int, workers: int, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "WEB_CONCURRENCY": str(workers),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_DEBUG": "",
        # The Procfile keeps its access log on stdout; only the line's format is ours.
        "GUNICORN_CMD_ARGS": f"--access-logformat '{ACCESS_LOG_FORMAT}'",
    }
    server = subprocess.Popen(
        ["make", "serve", f"HOST=127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    return wait_until_serving(server, port)


def database_url(name: str) -> str:
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{name}"
    auth = f"{s['USER']}@" if s["USER"] else ""
    return f"postgres://{auth}{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{name}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--seconds", type=float, default=60.0, help="each round's length")
    parser.add_argument("--think", type=float, default=2.0, help="a player's seconds per request")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--arrivals",
        choices=("spread", "together"),
        default="spread",
        help="'spread': each user's first request comes after a random part of one think "
        "time; 'together': every user starts in the same instant (a burst the few workers "
        "queue)",
    )
    parser.add_argument(
        "--dump",
        type=Path,
        help="write every request of each round (kind, start and end in seconds from the "
        "round's start, the worker's ms, bytes) to this JSON file, one list per user count",
    )
    parser.add_argument(
        "--gc",
        choices=("frozen", "as-is"),
        default="frozen",
        help="the load generator's garbage collector during a round: 'frozen' moves what "
        "the set-up made out of its reach (gc.freeze), so that a full collection of that "
        "heap does not pause every user thread at once; 'as-is' leaves it",
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench/load.py measures the production setup: set DATABASE_URL=postgres://…")

    print(
        f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, PostgreSQL {connection.pg_version}; "
        f"Redis: {'yes' if os.environ.get('REDIS_URL') else 'no (Celery in-process)'}"
    )
    print(
        f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; gunicorn workers: {args.workers}; "
        f"load generator's gc: {args.gc}; arrivals: {args.arrivals}"
    )
    with throwaway_database("load") as name:
        gm = users("gm-", 1)[0]
        baseline = in_process_p50(gm, users("solo-", 2), 150)
        print(f"in-process command (service, no HTTP): p50 {baseline:.1f} ms")
        log = Path(tempfile.mkdtemp(prefix="penance-load-")) / "server.log"
        print(f"server log: {log}")
        server = start_server(database_url(name), args.port, args.workers, log)
        dumped: dict[int, list[list[Any]]] = {}
        try:
            for count in args.users:
                viewers = max(1, count // 5)
                tables = (count - viewers) // 2
                seated = users(f"u{count}-", tables * 2)
                watching = users(f"v{count}-", viewers)
                battles = [
                    battle_create(
                        gm=gm,
                        setup=demo_setup(
                            seed=i, players=(seated[2 * i].username, seated[2 * i + 1].username)
                        ),
                    )
                    for i in range(tables)
                ]
                for i, user in enumerate(watching):
                    battles[i % tables].watchers.create(user=user)
                warm_up(args.port, token(seated[0]), str(battles[0].id), args.workers)
                if args.gc == "frozen":
                    gc.collect()
                    gc.freeze()
                tally = Tally()
                deadline = time.monotonic() + args.seconds
                threads = [
                    threading.Thread(
                        target=player,
                        args=(
                            args.port,
                            token(u),
                            str(battles[i // 2].id),
                            deadline,
                            args.think,
                            1.0 if args.arrivals == "spread" else 0.0,
                            tally,
                        ),
                    )
                    for i, u in enumerate(seated)
                ] + [
                    threading.Thread(
                        target=viewer,
                        args=(
                            args.port,
                            token(u),
                            str(battles[i % tables].id),
                            deadline,
                            args.think,
                            1.0 if args.arrivals == "spread" else 0.0,
                            tally,
                        ),
                    )
                    for i, u in enumerate(watching)
                ]
                start = time.monotonic()
                round_start = time.perf_counter()
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                elapsed = time.monotonic() - start
                found = check(battles, tally)
                p50, p99 = percentile(tally.command_ms, 50), percentile(tally.command_ms, 99)
                print(
                    f"{count} users ({tables} tables, {viewers} viewers), {elapsed:.0f} s: "
                    f"{len(tally.command_ms) / elapsed:.1f} commands/s; command POST p50 "
                    f"{p50:.1f} ms, p99 {p99:.1f} ms (p99 / (3 × in-process p50 + 50 ms) = "
                    f"{p99 / (3 * baseline + 50):.2f}); legal actions p50 "
                    f"{percentile(tally.read_ms, 50):.1f} ms, p99 {percentile(tally.read_ms, 99):.1f}"
                    f" ms; replay step p50 {percentile(tally.step_ms, 50):.1f} ms, p99 "
                    f"{percentile(tally.step_ms, 99):.1f} ms; stale 409s {tally.stale}; "
                    f"errors {len(tally.errors)}; {found}"
                )
                time.sleep(1)  # the last access-log lines reach the file
                served = server_log(log)
                for kind in ("command POST", "legal actions", "replay step"):
                    print(f"  {split_times(tally, served, kind)}")
                if args.dump:
                    dumped[count] = [
                        [
                            kind,
                            start - round_start,
                            end - round_start,
                            *served.get(rid, (None, None)),
                        ]
                        for rid, (kind, start, end) in sorted(tally.requests.items())
                    ]
                    args.dump.write_text(json.dumps(dumped))
                print(f"  slowest commands: {slowest_commands(tally, served)}")
                for error in tally.errors[:5]:
                    print(f"  error: {error}")
        finally:
            os.killpg(server.pid, 15)
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
