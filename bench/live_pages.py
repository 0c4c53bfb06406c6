"""From one player's click to the other player's page showing the result (issue 13's
benchmark), in two real browsers on two web processes sharing one PostgreSQL database.

Two gunicorn servers with sync workers, as the Procfile runs them (`make serve`), on two
ports, like two hosts behind a load balancer with no sticky sessions; Alice's browser
talks to server A only, Bob's to server B only. Whoever may act clicks an offered action
on the battle page (a rotation when one is offered, else the first action); the time is
from the click to the other browser's page showing the new step (its [data-step]). The
baseline, in the same run, is the same click to the clicking page's own new step.

    DATABASE_URL=postgres://root@127.0.0.1:5432/test .venv/bin/python bench/live_pages.py
    DATABASE_URL=… REDIS_URL=redis://127.0.0.1:6379/14 .venv/bin/python bench/live_pages.py \
        --mode asgi --workers 1 [--watchers 4]

`--mode asgi` is what `make serve` runs now (uvicorn workers; each page follows the battle
on its pushed stream, battles/streams.py, the servers told of each other's commands through
Redis); `--mode sync` the sync workers and polling measured before. `--watchers N` opens N
more pages (the battle's watchers, alternating servers) that only follow.

Needs Debian's Chromium and `make install` (the front-end files); it collects the static
files, and works in a throwaway database it drops afterwards (bench/live.py's helpers).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import live
from django.contrib.auth import get_user_model
from playwright.sync_api import sync_playwright

from battles.engine.demo import demo_setup
from battles.services import battle_create

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
STEP = "() => Number(document.querySelector('#frame [data-step]').dataset.step)"


def _login(browser: Any, port: int, username: str, battle: str) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"http://127.0.0.1:{port}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("[type=submit]")
    page.wait_for_url("**/battles/")
    page.goto(f"http://127.0.0.1:{port}/battles/{battle}/replay/")
    return page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commands", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--mode", choices=["sync", "asgi"], default="asgi")
    parser.add_argument("--watchers", type=int, default=0)
    args = parser.parse_args()
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=live.ROOT,
        check=True,
        env={**live.os.environ, "PENANCE_ENV_FILE": ""},
    )
    rng = random.Random(13)
    with live.throwaway_database("livepages") as name:
        users = get_user_model()
        gm = users.objects.create_user(username="pages-gm")
        watchers = [f"watcher{i}" for i in range(args.watchers)]
        for who in ("alice", "bob", *watchers):
            users.objects.create_user(username=who, password=f"pw-{who}")
        battle = battle_create(gm=gm, setup=demo_setup(players=("alice", "bob")))
        for who in watchers:
            battle.watchers.create(user=users.objects.get(username=who))
        url = live.database_url(name)
        servers = [live.start_server(url, port, args.workers, args.mode) for port in (8801, 8802)]
        other_ms: list[float] = []
        own_ms: list[float] = []
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                alice = _login(browser, 8801, "alice", str(battle.id))
                bob = _login(browser, 8802, "bob", str(battle.id))
                following = [
                    _login(browser, 8801 + i % 2, who, str(battle.id))
                    for i, who in enumerate(watchers)
                ]
                for _ in range(args.commands):
                    # Only what a person can click: the table page keeps every action in a
                    # closed drawer and the board's choices in templates as well.
                    offered = "#frame .actions button[data-command]:visible"
                    acting = alice if alice.locator(offered).count() else bob
                    other = bob if acting is alice else alice
                    buttons = acting.locator(
                        "#frame .actions button[data-command]:not(.danger):visible"
                    )
                    rotate = acting.locator("#frame button[data-command*='rotate']:visible")
                    button = rotate.first if rotate.count() else buttons.first
                    before = acting.evaluate(STEP)
                    t0 = time.perf_counter()
                    button.click()
                    acting.wait_for_function(
                        f"v => ({STEP})() > v", arg=before, timeout=10000, polling=10
                    )
                    own_ms.append((time.perf_counter() - t0) * 1000)
                    other.wait_for_function(
                        f"v => ({STEP})() > v", arg=before, timeout=10000, polling=10
                    )
                    other_ms.append((time.perf_counter() - t0) * 1000)
                    # Let both pages settle on the same head before the next click.
                    head = acting.evaluate(STEP)
                    other.wait_for_function(f"v => ({STEP})() >= v", arg=head, timeout=10000)
                    time.sleep(rng.uniform(0.2, 0.8))
                browser.close()
        finally:
            for server in servers:
                live.stop_server(server)

    def line(label: str, xs: list[float]) -> str:
        return (
            f"{label}: n={len(xs)} median {statistics.median(xs):.0f} ms, "
            f"p95 {live.percentile(xs, 95):.0f} ms, max {max(xs):.0f} ms"
        )

    print(
        f"machine: {live.platform.node()} {live.platform.machine()}, {time.strftime('%Y-%m-%d %H:%M')}"
    )
    print(
        f"two gunicorn servers, {args.workers} {args.mode} workers each, PostgreSQL, Chromium "
        f"headless, {2 + args.watchers} open pages; following pages: {len(following)}"
    )
    print(line("baseline: click to the clicking page's own new step", own_ms))
    print(line("click to the other player's page showing it", other_ms))
    print(
        f"ratio other / own (median): {statistics.median(other_ms) / statistics.median(own_ms):.2f}"
    )


if __name__ == "__main__":
    main()
