"""The battle viewer's time per step in a real browser (issue 12), against a baseline
measured in the same run: opening the same steps by a full page load.

Needs a running site with the demo data (`make run`, or `make serve` with the demo loaded)
and Debian's Chromium. Steps through the 1,001-event demo battle "Demo: The Long Vigil"
as `player`: each step is a keypress, timed from the key to the new frame being in the page
(the module records it in `window.penanceStepTimes`), and the page's URL and [data-step]
are checked to agree after every step.

    .venv/bin/python bench/viewer_steps.py --base http://127.0.0.1:8000 --steps 60
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from playwright.sync_api import sync_playwright

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--battle", default="Demo: The Long Vigil (1,000 events, in progress)")
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--start", type=int, default=500)
    parser.add_argument("--user", default="player")
    args = parser.parse_args()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(args.base + "/accounts/login/")
        page.fill("#id_username", args.user)
        page.fill("#id_password", f"penance-{args.user}")
        page.click("[type=submit]")
        page.goto(args.base + "/battles/")
        href = page.get_by_role("link", name=args.battle).get_attribute("href")
        url = f"{args.base}{href}"

        # Baseline: the same steps opened by full page loads (a link followed, no JavaScript).
        loads = []
        for n in range(args.start, args.start + min(args.steps, 20)):
            t0 = time.perf_counter()
            page.goto(f"{url}?at={n}", wait_until="load")
            loads.append((time.perf_counter() - t0) * 1000)

        page.goto(f"{url}?at={args.start}", wait_until="load")
        page.evaluate("window.penanceStepTimes.length = 0")
        for i in range(1, args.steps + 1):
            page.keyboard.press("ArrowRight")
            page.wait_for_function(
                "n => Number(document.querySelector('[data-step]').dataset.step) === n",
                arg=args.start + i,
            )
            assert page.url.endswith(f"at={args.start + i}"), page.url
        page.wait_for_function(f"window.penanceStepTimes.length === {args.steps}")
        steps = page.evaluate("window.penanceStepTimes")
        browser.close()

    def line(name: str, xs: list[float]) -> str:
        xs = sorted(xs)
        p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
        return f"{name}: n={len(xs)} median {statistics.median(xs):.1f} ms, p95 {p95:.1f} ms"

    print(f"machine: {platform.node()} {platform.machine()}, {time.strftime('%Y-%m-%d %H:%M')}")
    print(line("baseline: full page load of a step", loads))
    print(line("step by key (fetch the frame, swap, sync URL/log/scrub)", steps))
    print(
        f"ratio step / full load (median): {statistics.median(steps) / statistics.median(loads):.2f}"
    )


if __name__ == "__main__":
    main()
