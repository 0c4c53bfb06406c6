"""What one click costs the server on the campaign pages' live checks (issue 14).

    .venv/bin/python bench/campaign_pages.py [--repeats 30]
    DATABASE_URL=postgres://root@127.0.0.1:5432/test .venv/bin/python bench/campaign_pages.py

In a throwaway database (bench/benchdb.py): the test suite's demo campaign (two players,
a pilot and a build each, the demo card set), a planned mission and a drawn board of radius
6. Each request goes through Django's whole stack in process (the test client: middleware,
session, view, template), not over a socket. Measured, interleaved, `--repeats` times each
after one warm-up (median and p95):

- the mission wizard's deployment check (htmx `action=check` on the ash-causeway board:
  the engine's setup check of both seats and the board redrawn, 127 hexes);
- the deck builder's live check (htmx `action=check` of a 30-card deck);
- a board editor paint (htmx, one hex painted, saved, the board redrawn with a line of
  sight);
- baseline: the campaign page (GET), the page every GM action returns to.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-" + "0" * 40)

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import override_settings  # noqa: E402

from battles.engine.demo import DEMO_DECKS  # noqa: E402
from bench.benchdb import throwaway_database  # noqa: E402

HX = {"HTTP_HX_REQUEST": "true"}


def _timed(call: Callable[[], Any]) -> float:
    start = time.perf_counter()
    response = call()
    elapsed = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, (response.status_code, response.content[:300])
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args()
    with throwaway_database("campaign_pages"), override_settings(ALLOWED_HOSTS=["testserver"]):
        from campaigns import services
        from tests.campaigns.builders import demo_campaign
        from tests.campaigns.test_pages_wizard import wizard_form

        dc = demo_campaign()
        mission = services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="Bench")
        board = services.board_create(
            campaign=dc.campaign, actor=dc.gm, name="Bench", shape={"kind": "hexagon", "radius": 6}
        )
        gm = Client()
        gm.force_login(dc.gm)
        base = f"/campaigns/{dc.campaign.id}"
        wizard = {**wizard_form(dc), "action": "check"}
        deck = {
            "name": "Bench",
            "casket_class": "scout",
            "shield": "left",
            "action": "check",
            **{f"count-{c}": str(n) for c, n in DEMO_DECKS["penitent-scout"]},
        }
        terrains = ["wall", "forest", "rubble", "clear"]
        counter = iter(range(10**9))

        def paint() -> Any:
            n = next(counter)
            data = {
                "q": str(n % 5 - 2),
                "r": "1",
                "terrain": terrains[n % 4],
                "level": "0",
                **{"from_q": "0", "from_r": "-4", "to_q": "0", "to_r": "4"},
            }
            return gm.post(f"{base}/boards/{board.id}/paint", data, **HX)

        cases: dict[str, Callable[[], Any]] = {
            "baseline: campaign page (GET)": lambda: gm.get(f"{base}/"),
            "wizard deployment check (htmx)": lambda: gm.post(
                f"{base}/missions/{mission.id}/start/", wizard, **HX
            ),
            "deck builder live check (htmx)": lambda: gm.post(f"{base}/builds/new/", deck, **HX),
            "board editor paint + LOS (htmx)": paint,
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for call in cases.values():
            _timed(call)  # warm-up
        for _ in range(args.repeats):
            for name, call in cases.items():
                times[name].append(_timed(call))
        print(
            f"{platform.node()} · CPython {platform.python_version()} · "
            f"{connection.vendor} · {args.repeats} repeats, interleaved"
        )
        baseline = statistics.median(times["baseline: campaign page (GET)"])
        print("| | median | p95 | median / baseline |\n|---|---|---|---|")
        for name, values in times.items():
            values.sort()
            median = statistics.median(values)
            p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
            print(f"| {name} | {median:.1f} ms | {p95:.1f} ms | ×{median / baseline:.2f} |")


if __name__ == "__main__":
    main()
