"""Live updates (issue 13): from one player's command POST to the other player's open page
receiving it through `GET …/updates` (docs/FRONTEND.md "Live updates").

Two web processes (two gunicorn servers on two ports, as two hosts behind a load
balancer with no sticky sessions) share one PostgreSQL database. Alice's page talks
to server A only, Bob's to server B only. Each page keeps asking for updates as a
page would (`after` = the last version it holds; it waits `poll_after_ms` when the
server says so). The players take turns: whoever's turn it is posts a legal action
(a rotation when there is one, else a pass) to its own server; the time measured is
from just before that POST to the moment the *other* page's update request returns
the command's events. 50 commands by default, a random pause of 0.2–0.8 s between
them so the commands do not fall in step with the polling.

Both server modes are measured in one run:

- `sync`: gunicorn's sync workers, exactly as the Procfile runs them (`make serve`):
  each request holds a process, so the endpoint answers at once and a page asks
  again after `poll_after_ms` (1 s): short polling.
- `gthread`: the same with `--worker-class gthread --threads 8`: requests wait up
  to 20 s in a thread, answered as soon as the store has the event: long polling.
- `asgi`: what `make serve` runs now: gunicorn with uvicorn workers
  (penance_site.serving.Worker), REDIS_URL set (the servers announce each command to
  each other through Redis pub/sub, battles/live.py). Each page holds one server-sent
  events stream (`GET …/stream`, battles/streams.py) and, on each version it hears,
  asks `…/updates?after=N&wait=0` for the events, as the play page does.
- `sync-long` (not run by default): sync workers made to hold requests
  (`PENANCE_LIVE_MAX_WAIT=20`), the configuration docs/FRONTEND.md advises against;
  with `--watchers` more open pages than workers it shows why.

`--watchers N [M …]` adds N more open pages (the battle's watchers), alternating servers;
several counts are measured in turn on the same two servers (a new battle each), `--rounds
R` times over, and the p95s printed as ratios to the first count's in the same round: one
run per table, baseline included. `--watcher-pages` makes each watcher's page in `asgi`
mode do what the play page does (replay.js `listen()`): take the frame and log lines its
stream pushes when they start at the version it shows, else (the opening, a reconnect, a
version not pushed) fetch the log lines after that version and the frame at the new one,
signed in with a session as a browser is; `--fetch-always` fetches every version (the page
before the stream carried the fragments), `--no-updates` without asking `…/updates` first.
The players' pages still ask `…/updates`: its answer is the "other page" time. In `asgi`
mode the mover's own page is timed too: the POST, then its log lines and frame fetched side
by side, as `follow()` does. `--server-log FILE` keeps the servers' warnings (a failed
Redis publish, a push that took too long) and counts them at the end.

Run:

    DATABASE_URL=postgres://root@127.0.0.1:5432/wtlive .venv/bin/python bench/live.py
    DATABASE_URL=… REDIS_URL=redis://127.0.0.1:6379/14 .venv/bin/python bench/live.py \
        --modes asgi --workers 1 --watcher-pages --no-updates --watchers 0 50 --rounds 2

Target: the other page has the command within 2 s (p95), in both modes.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import http.client
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-0000000000000000000")
# The servers run with DEBUG off, where the dice secrets' key is required (R-ADD-206,
# penance_site/dice_keys.py); this process writes the battles' secrets and its servers
# read them, so all of them take the same bench-only key (inherited through the environment).
os.environ.setdefault(
    "PENANCE_DICE_KEY",
    base64.urlsafe_b64encode(hashlib.sha256(b"penance bench-only dice key").digest()).decode(),
)

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client as DjangoClient  # noqa: E402

from battles.engine.demo import demo_setup  # noqa: E402
from battles.services import battle_create  # noqa: E402
from bench.benchdb import throwaway_database  # noqa: E402
from bench.serving import wait_until_serving  # noqa: E402
from penance_site.accounts.tokens import api_token_create  # noqa: E402

GUNICORN = str(Path(sys.executable).with_name("gunicorn"))


class Client:
    """One page's keep-alive connection to one server, with its user's token."""

    def __init__(self, port: int, token: str, timeout: float = 30) -> None:
        self.port = port
        self.timeout = timeout
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        status, raw = self.raw(method, path, body)
        return status, json.loads(raw) if raw else None

    def raw(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        data = json.dumps(body) if body is not None else None
        for attempt in (1, 2):
            try:
                self.conn.request(
                    method, path, body=data, headers={**self.headers, **(headers or {})}
                )
                response = self.conn.getresponse()
                raw = response.read()
                break
            except (OSError, http.client.HTTPException):
                # A sync worker closes the connection after each answer: open a new one.
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                if attempt == 2 or method != "GET":
                    raise
        return response.status, raw


class Page:
    """A player's open page: asks for updates in a loop, and notes when each version came."""

    def __init__(self, port: int, token: str, battle: str, version: int) -> None:
        self.client = Client(port, token, timeout=40)
        self.battle = battle
        self.version = version
        self.arrived: dict[int, float] = {}
        self.requests = 0
        self.errors: list[str] = []
        self.stop = threading.Event()
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop.is_set():
            path = f"/api/battles/{self.battle}/updates?after={self.version}&wait=20"
            try:
                status, body = self.client.call("GET", path)
            except (OSError, http.client.HTTPException, ValueError) as exc:
                self.errors.append(f"{type(exc).__name__}: {exc}")
                time.sleep(0.5)
                continue
            now = time.perf_counter()
            self.requests += 1
            if status != 200:
                self.errors.append(f"updates {status}: {str(body)[:200]}")
                time.sleep(1)
                continue
            if body["events"]:
                with self.changed:
                    for e in body["events"]:
                        self.arrived.setdefault(e["version"], now)
                    self.version = body["events"][-1]["version"]
                    self.changed.notify_all()
            if body["poll_after_ms"]:
                self.stop.wait(body["poll_after_ms"] / 1000)

    def wait_for(self, version: int, timeout: float = 30) -> float | None:
        with self.changed:
            self.changed.wait_for(lambda: version in self.arrived, timeout=timeout)
            return self.arrived.get(version)


class StreamPage(Page):
    """A page on the pushed stream: reads `…/stream`, and on each version past its own
    asks `…/updates?after=N&wait=0` for the events (the play page's `listen`)."""

    def __init__(self, port: int, token: str, battle: str, version: int) -> None:
        super().__init__(port, token, battle, version)
        self.port = port
        self.token = token
        self.stream: http.client.HTTPConnection | None = None
        self.heard = version

    def fetch(self) -> None:
        while True:
            path = f"/api/battles/{self.battle}/updates?after={self.version}&wait=0"
            status, body = self.client.call("GET", path)
            now = time.perf_counter()
            self.requests += 1
            if status != 200:
                self.errors.append(f"updates {status}: {str(body)[:200]}")
                return
            with self.changed:
                for e in body["events"]:
                    self.arrived.setdefault(e["version"], now)
                if body["events"]:
                    self.version = body["events"][-1]["version"]
                self.changed.notify_all()
            if not body["more"]:
                return

    def opening(self) -> tuple[int, dict[str, str]]:
        """The version the page asks the stream to start after, and how it signs in."""
        return self.version, {"Authorization": f"Token {self.token}"}

    def listen(self, response: http.client.HTTPResponse) -> None:
        """Read the stream's messages: each version past the page's own is fetched."""
        while not self.stop.is_set():
            line = response.readline()
            if not line:
                return
            if line.startswith(b"data: ") and int(line[6:]) > self.version:
                self.heard = int(line[6:])
                self.fetch()

    def run(self) -> None:
        # Reconnect until closed, as the browser's EventSource does.
        while not self.stop.is_set():
            try:
                after, headers = self.opening()
                self.stream = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                self.stream.request(
                    "GET", f"/api/battles/{self.battle}/stream?after={after}", headers=headers
                )
                response = self.stream.getresponse()
                if response.status != 200:
                    self.errors.append(f"stream {response.status}")
                    time.sleep(1)
                    continue
                self.listen(response)
            except (OSError, http.client.HTTPException, ValueError) as exc:
                if not self.stop.is_set():
                    self.errors.append(f"{type(exc).__name__}: {exc}")
                    time.sleep(0.5)

    def close(self) -> None:
        self.stop.set()
        if self.stream is not None and self.stream.sock is not None:
            self.stream.sock.shutdown(2)


class WatcherPage(StreamPage):
    """A watcher's play page (replay.js `listen()`): on each `fragments` message that starts
    at the version it shows, it takes the frame and log lines from the stream and asks
    nothing (`takePushed`); on a plain version (the opening, a reconnect, a version the
    server could not push) it fetches the log lines after the version it showed and the
    frame at the new one, as `follow()` does (side by side in a browser, one after the
    other here). `ask_updates` (the page before the stream named the version) asks
    `…/updates` first; `pushed` off: every version fetched (the page before the stream
    carried the fragments)."""

    def __init__(
        self,
        port: int,
        token: str,
        battle: str,
        version: int,
        session: str,
        ask_updates: bool,
        pushed: bool = True,
    ) -> None:
        super().__init__(port, token, battle, version)
        self.page = Client(port, token)
        self.page.headers = {"Cookie": f"sessionid={session}"}
        self.ask_updates = ask_updates
        self.pushed = pushed
        self.shown = version
        self.taken = 0  # versions taken from the stream, no request
        self.fetched = 0  # versions fetched

    def opening(self) -> tuple[int, dict[str, str]]:
        return self.shown, {"Cookie": self.page.headers["Cookie"]}

    def listen(self, response: http.client.HTTPResponse) -> None:
        """Read the stream's named messages (`event:` then `data:`, a blank line ends one)."""
        event, data = "message", b""
        while not self.stop.is_set():
            line = response.readline()
            if not line:
                return
            if line.startswith(b"event: "):
                event = line[7:].strip().decode()
            elif line.startswith(b"data: "):
                data = line[6:].rstrip(b"\n")
            elif line == b"\n" and data:
                self.message(event, data)
                event, data = "message", b""

    def message(self, event: str, data: bytes) -> None:
        if event == "fragments":
            pushed = json.loads(data)
            if self.pushed and pushed["after"] == self.shown:
                self.taken += 1
                self.shown = self.version = self.heard = pushed["version"]
                return
            self.heard = pushed["version"]
        elif event == "version":
            self.heard = int(data)
        else:
            return
        if self.heard > self.shown:
            self.fetch()

    def fetch(self) -> None:
        heard = self.heard
        if self.ask_updates:
            super().fetch()
        else:
            self.version = heard
        site = f"/battles/{self.battle}/replay/"
        for path, headers in (
            (f"{site}log?after={self.shown}", {}),
            (f"{site}?at={heard}", {"HX-Request": "true"}),
        ):
            status, _ = self.page.raw("GET", path, headers=headers)
            self.requests += 1
            if status != 200:
                self.errors.append(f"{path}: {status}")
        self.fetched += 1
        self.shown = heard


def own_page(port: int, session: str, battle: str, shown: int, version: int) -> None:
    """The mover's page after its command (replay.js `follow()`): its log lines after the
    version it showed and its frame at the new one, side by side."""
    site = f"/battles/{battle}/replay/"
    paths = [(f"{site}log?after={shown}", {}), (f"{site}?at={version}", {"HX-Request": "true"})]
    answers: list[int] = []

    def get(path: str, headers: dict[str, str]) -> None:
        client = Client(port, "")
        client.headers = {"Cookie": f"sessionid={session}"}
        answers.append(client.raw("GET", path, headers=headers)[0])
        client.conn.close()

    threads = [threading.Thread(target=get, args=p) for p in paths]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if answers != [200, 200]:
        raise RuntimeError(f"own page: {answers}")


def start_server(
    database_url: str, port: int, workers: int, mode: str, log: Path | None = None
) -> subprocess.Popen[bytes]:
    """gunicorn as the Procfile starts it (sync workers), or with threads (`gthread`), or
    sync workers made to hold requests (`sync-long`); its warnings to `log` when given."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_DEBUG": "",
        "PENANCE_ENV_FILE": "",
    }
    env.pop("PENANCE_LIVE_MAX_WAIT", None)  # "auto": what the server mode allows
    if mode == "sync-long":
        env["PENANCE_LIVE_MAX_WAIT"] = "20"
    command = [
        GUNICORN,
        "penance_site.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--graceful-timeout",
        "20",
    ]
    if mode == "gthread":
        command += ["--worker-class", "gthread", "--threads", "8"]
    if mode == "asgi":
        command[1] = "penance_site.asgi:application"
        command += ["--worker-class", "penance_site.serving.Worker"]
        if not env.get("REDIS_URL"):
            raise SystemExit("asgi mode: set REDIS_URL, which carries commands between servers")
    server = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("ab") if log is not None else subprocess.DEVNULL,
        start_new_session=True,
    )
    return wait_until_serving(server, port)


def stop_server(server: subprocess.Popen[bytes]) -> None:
    os.killpg(server.pid, 15)
    server.wait(timeout=30)


def database_url(name: str) -> str:
    s = connection.settings_dict
    auth = f"{s['USER']}@" if s["USER"] else ""
    return f"postgres://{auth}{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{name}"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def choose(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    bodies = [a["body"] for a in actions]
    rotations = [b for b in bodies if b["type"] == "rotate" and "pay" not in b]
    if rotations:
        return rng.choice(rotations)
    return next(b for b in bodies if b["type"] == "pass")


class Result:
    """One measurement: per command the other page's delivery, the POST, and the mover's
    own page (the POST, then its log lines and frame); the requests; the errors."""

    def __init__(self) -> None:
        self.delivery: list[float] = []
        self.post_ms: list[float] = []
        self.own_ms: list[float] = []
        self.requests = 0
        self.errors: list[str] = []
        self.elapsed = 0.0
        self.taken = 0
        self.fetched = 0
        self.server_cpu = 0.0  # both servers' CPU seconds (all their processes)
        self.bench_cpu = 0.0  # this process's CPU seconds (the simulated pages)


def server_cpu(servers: list[subprocess.Popen[bytes]]) -> float:
    """CPU seconds used so far by every process of `servers` (each started in a session of
    its own, so its workers share its process group): from /proc, user and system."""
    groups = {server.pid for server in servers}
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        # after the name: state, ppid, pgrp, …; utime and stime are the 12th and 13th
        if int(fields[2]) in groups:
            total += int(fields[11]) + int(fields[12])
    return total / tick


def measure(
    ports: tuple[int, int],
    tokens: tuple[str, str],
    battle: str,
    commands: int,
    seed: int,
    watcher_tokens: list[str],
    stream: bool = False,
    watcher_sessions: list[str] | None = None,
    ask_updates: bool = True,
    player_sessions: tuple[str, str] | None = None,
    pushed: bool = True,
    servers: list[subprocess.Popen[bytes]] | None = None,
) -> Result:
    rng = random.Random(seed)
    out = Result()
    started = time.monotonic()
    cpu_before = server_cpu(servers or []), time.process_time()
    players = [Client(ports[i], tokens[i]) for i in (0, 1)]
    status, detail = players[0].call("GET", f"/api/battles/{battle}/")
    assert status == 200, detail
    kind = StreamPage if stream else Page
    pages: list[Page] = [kind(ports[i], tokens[i], battle, detail["version"]) for i in (0, 1)]
    crowd: Crowd | None = None
    if stream and watcher_sessions:
        # The watchers' pages in a process of their own: they share the machine's cores
        # with the servers, as browsers on it would, but not this process's GIL with the
        # players' pages, whose times are measured here.
        crowd = Crowd(
            [
                (ports[i % 2], t, battle, detail["version"], session, ask_updates, pushed)
                for i, (t, session) in enumerate(zip(watcher_tokens, watcher_sessions, strict=True))
            ]
        )
    else:
        pages += [
            kind(ports[i % 2], t, battle, detail["version"]) for i, t in enumerate(watcher_tokens)
        ]
    for page in pages:
        page.thread.start()
    time.sleep(2)  # every page's stream open before the first command
    try:
        while len(out.delivery) < commands:
            time.sleep(rng.uniform(0.2, 0.8))
            mover = None
            for i in (0, 1):
                status, legal = players[i].call("GET", f"/api/battles/{battle}/legal-actions")
                if status == 200 and legal["actions"]:
                    mover = i
                    break
            if mover is None:
                out.errors.append("nobody has a legal action")
                break
            body = {
                **choose(legal["actions"], rng),
                "command_id": uuid.uuid4().hex,
                "expected_version": legal["version"],
            }
            start = time.perf_counter()
            status, answer = players[mover].call("POST", f"/api/battles/{battle}/commands", body)
            out.post_ms.append((time.perf_counter() - start) * 1000)
            if status != 201:
                out.errors.append(f"command {status}: {str(answer)[:200]}")
                continue
            first, last = answer["events"][0]["version"], answer["events"][-1]["version"]
            if player_sessions is not None:
                own_page(ports[mover], player_sessions[mover], battle, legal["version"], last)
                out.own_ms.append((time.perf_counter() - start) * 1000)
            arrived = pages[1 - mover].wait_for(first)
            if arrived is None:
                out.errors.append(f"version {first} never reached the other page")
                continue
            out.delivery.append((arrived - start) * 1000)
    finally:
        for page in pages:
            if isinstance(page, StreamPage):
                page.close()
            else:
                page.stop.set()
        crowded = crowd.end() if crowd is not None else None
    out.elapsed = time.monotonic() - started
    out.server_cpu = server_cpu(servers or []) - cpu_before[0]
    out.bench_cpu = time.process_time() - cpu_before[1]
    out.requests = sum(p.requests for p in pages)
    out.errors += [e for p in pages for e in p.errors]
    if crowded is not None:
        out.requests += crowded["requests"]
        out.taken, out.fetched = crowded["taken"], crowded["fetched"]
        out.bench_cpu += crowded["cpu"]
        out.errors += crowded["errors"]
    return out


class Crowd:
    """The watchers' pages (WatcherPage), run in a forked process until `end`."""

    def __init__(self, pages: list[tuple[Any, ...]]) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self.stop = context.Event()
        self.results = context.Queue()
        self.process = context.Process(target=self.run, args=(pages,), daemon=True)
        self.process.start()

    def run(self, specs: list[tuple[Any, ...]]) -> None:
        try:
            started = time.process_time()
            pages = [WatcherPage(*spec) for spec in specs]
            for page in pages:
                page.thread.start()
            self.stop.wait()
            for page in pages:
                page.close()
            self.results.put(
                {
                    "requests": sum(p.requests for p in pages),
                    "taken": sum(p.taken for p in pages),
                    "fetched": sum(p.fetched for p in pages),
                    "errors": [e for p in pages for e in p.errors],
                    "cpu": time.process_time() - started,
                }
            )
            self.results.close()
            self.results.join_thread()
        finally:
            # Not the parent's exit handlers: they would close its database connection,
            # whose socket this fork shares.
            os._exit(0)

    def end(self) -> dict[str, Any]:
        self.stop.set()
        found: dict[str, Any] = self.results.get(timeout=60)
        self.process.join(timeout=30)
        return found


def sessions_for(users: list[Any]) -> list[str]:
    """A browser's session per user, stored where the servers read it."""
    out = []
    for user in users:
        signed_in = DjangoClient()
        signed_in.force_login(user)
        out.append(signed_in.cookies["sessionid"].value)
    return out


def p95(values: list[float]) -> float:
    return percentile(values, 95) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    parser.add_argument("--port", type=int, default=8775, help="server A; server B is +1")
    parser.add_argument(
        "--modes",
        nargs="+",
        default=["sync", "gthread"],
        choices=["sync", "gthread", "sync-long", "asgi"],
    )
    parser.add_argument(
        "--watchers",
        type=int,
        nargs="+",
        default=[0],
        help="more open pages; several counts are measured in turn on the same servers, "
        "each against the first (the baseline of the run)",
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="measure every count this many times, in turn"
    )
    parser.add_argument(
        "--watcher-pages",
        action="store_true",
        help="asgi: each watcher's page behaves as the play page (takes pushed fragments, "
        "else fetches its log lines and frame per version)",
    )
    parser.add_argument(
        "--no-updates",
        action="store_true",
        help="with --watcher-pages: the watchers take the version from the stream, no …/updates",
    )
    parser.add_argument(
        "--fetch-always",
        action="store_true",
        help="with --watcher-pages: ignore the pushed fragments and fetch every version "
        "(the page before the stream carried them)",
    )
    parser.add_argument(
        "--server-log", type=Path, default=None, help="the servers' warnings (stderr) here"
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench/live.py measures the production setup: set DATABASE_URL=postgres://…")
    print(
        f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, PostgreSQL {connection.pg_version}"
    )
    watcher_mode = ""
    if args.watcher_pages:
        watcher_mode = (
            "; the watchers fetch log lines and frame per version"
            if args.fetch_always
            else "; the watchers take pushed fragments (else fetch log lines and frame)"
        ) + (", without …/updates" if args.no_updates else "")
    print(
        f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; two gunicorn servers, "
        f"{args.workers} workers each; {args.commands} commands per measurement; open pages "
        f"{', '.join(str(2 + n) for n in args.watchers)} in turn, {args.rounds} round(s)"
        + watcher_mode
    )
    if args.server_log is not None:
        args.server_log.write_bytes(b"")
    with throwaway_database("live") as name:
        model = get_user_model()
        gm = model.objects.create_user(username="live-gm")
        made = 0
        for mode in args.modes:
            ports = (args.port, args.port + 1)
            servers = [
                start_server(database_url(name), p, args.workers, mode, args.server_log)
                for p in ports
            ]
            rows: list[tuple[int, int, Result]] = []
            try:
                for run in range(args.rounds):
                    for count in args.watchers:
                        made += 1
                        alice = model.objects.create_user(username=f"alice-{made}")
                        bob = model.objects.create_user(username=f"bob-{made}")
                        tokens = (
                            api_token_create(user=alice, name="bench")[1],
                            api_token_create(user=bob, name="bench")[1],
                        )
                        setup = demo_setup(players=(alice.username, bob.username))
                        battle = battle_create(gm=gm, setup=setup)
                        watchers = []
                        for i in range(count):
                            watcher = model.objects.create_user(username=f"watcher-{made}-{i}")
                            battle.watchers.create(user=watcher)
                            watchers.append(watcher)
                        watcher_tokens = [
                            api_token_create(user=w, name="bench")[1] for w in watchers
                        ]
                        asgi = mode == "asgi"
                        watcher_sessions = sessions_for(watchers) if args.watcher_pages else []
                        player_sessions = tuple(sessions_for([alice, bob])) if asgi else None
                        result = measure(
                            ports,
                            tokens,
                            str(battle.id),
                            args.commands,
                            1,
                            watcher_tokens,
                            asgi,
                            watcher_sessions,
                            not args.no_updates,
                            player_sessions,  # type: ignore[arg-type]
                            not args.fetch_always,
                            servers,
                        )
                        rows.append((run, count, result))
                        report(mode, count, result, args.watcher_pages)
            finally:
                stopping = time.monotonic()
                for server in servers:
                    stop_server(server)
                print(f"{mode}: both servers stopped in {time.monotonic() - stopping:.1f} s")
            ratios(rows, args.watchers[0])
    if args.server_log is not None:
        lines = args.server_log.read_text(errors="replace").splitlines()
        warned = [line for line in lines if "live:" in line]
        print(f"server log {args.server_log}: {len(lines)} lines, {len(warned)} from live:")
        for line in warned[:10]:
            print(f"  {line}")


def report(mode: str, count: int, r: Result, watcher_pages: bool) -> None:
    if not r.delivery:
        print(f"{mode}, {2 + count} pages: nothing delivered; errors {r.errors[:5]}")
        return
    own = (
        f"; own page median {statistics.median(r.own_ms):.0f} ms, p95 {p95(r.own_ms):.0f} ms"
        if r.own_ms
        else ""
    )
    pushed = f"; watchers' versions pushed {r.taken}, fetched {r.fetched}" if watcher_pages else ""
    print(
        f"{mode}, {2 + count} pages: {len(r.delivery)} commands in {r.elapsed:.0f} s; POST → "
        f"other page: median {statistics.median(r.delivery):.0f} ms, p95 "
        f"{p95(r.delivery):.0f} ms, max {max(r.delivery):.0f} ms{own}; command POST median "
        f"{statistics.median(r.post_ms):.0f} ms, max {max(r.post_ms):.0f} ms; requests "
        f"{r.requests / r.elapsed:.1f}/s in all{pushed}; errors {len(r.errors)}; CPU per "
        f"command: servers {1000 * r.server_cpu / len(r.delivery):.0f} ms, this bench's "
        f"pages {1000 * r.bench_cpu / len(r.delivery):.0f} ms"
    )
    for error in r.errors[:5]:
        print(f"  error: {error}")


def ratios(rows: list[tuple[int, int, Result]], baseline: int) -> None:
    """Each measurement's p95s as ratios to the baseline's of the same round (and to both
    rounds' baselines pooled)."""
    if len({count for _, count, _ in rows}) < 2:
        return
    base = {run: r for run, count, r in rows if count == baseline}
    pooled = [r for run, count, r in rows if count == baseline]
    pooled_other = p95([x for r in pooled for x in r.delivery])
    pooled_own = p95([x for r in pooled for x in r.own_ms])
    print("| round | open pages | other page p95 | × baseline | own page p95 | × baseline |")
    print("|---|---|---|---|---|---|")
    for run, count, r in rows:
        b = base[run]
        print(
            f"| {run + 1} | {2 + count} | {p95(r.delivery):.0f} ms | "
            f"{p95(r.delivery) / p95(b.delivery):.2f} | {p95(r.own_ms):.0f} ms | "
            f"{p95(r.own_ms) / p95(b.own_ms) if r.own_ms else float('nan'):.2f} |"
        )
    for count in sorted({c for _, c, _ in rows} - {baseline}):
        mine = [r for _, c, r in rows if c == count]
        other = p95([x for r in mine for x in r.delivery])
        own = p95([x for r in mine for x in r.own_ms])
        print(
            f"all rounds pooled, {2 + count} pages against {2 + baseline}: other page p95 "
            f"{other:.0f} / {pooled_other:.0f} ms = {other / pooled_other:.2f}; own page p95 "
            f"{own:.0f} / {pooled_own:.0f} ms = {own / pooled_own if pooled_own else 0:.2f}"
        )


if __name__ == "__main__":
    main()
