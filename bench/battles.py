"""Benchmark of battles as event streams (issue 4).

1. Replay: a 10,000-event battle (the demo setup played by random legal actions) folded
   through `from_record` + `evolve`, beside `json.loads` of the same stored payloads alone
   (target: replay at most 3x the decode time).
2. Command latency on PostgreSQL (median and 99th percentile) for a battle of 100 events and
   one of 100,000 events, through `battle_command_execute` with snapshots every
   PENANCE_SNAPSHOT_EVERY events (target: within 1.5x of each other).
3. Time travel: `battle_state_at` to random versions of the 100,000-event battle (median).

Parts 2 and 3 need Django and a database: `DATABASE_URL=postgres://... python bench/battles.py`.
`--quick` shrinks every size for a smoke test; `--replay-only` runs part 1 alone.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from battles.codec import BATTLE_EVENTS  # noqa: E402
from battles.engine.battle import (  # noqa: E402
    Event,
    create,
    decide,
    evolve,
    legal_actions,
    parse_command,
    replay,
)
from battles.engine.demo import demo_setup  # noqa: E402


def random_battle(n_events: int, seed: int = 1) -> list[Event]:
    """A battle of at least `n_events` events played by random legal actions.

    Random players rarely finish a battle, which is what a long stream needs; if one
    does end, the next seed starts over.
    """
    while True:
        rng = random.Random(seed)
        setup = demo_setup(seed=seed)
        setup["policy"] = "prompt"
        events = create(f"bench-{seed}", setup)
        state = replay(events)
        while len(events) < n_events and not state.over:
            actions = list(legal_actions(state))
            body = rng.choice(actions).body
            if body["type"] == "pass" and rng.random() < 0.6:
                body = rng.choice(actions).body
            new = decide(state, parse_command(body))
            for e in new:
                state = evolve(state, e)
            events.extend(new)
        if len(events) >= n_events:
            # Any prefix of a stream is a battle at some version: cutting keeps the size exact.
            return events[:n_events]
        seed += 1000


def _median(samples: list[float]) -> float:
    return statistics.median(samples)


def bench_replay(n_events: int, rounds: int) -> dict[str, Any]:
    events = random_battle(n_events)
    stored = [BATTLE_EVENTS.to_record(e) for e in events]
    texts = [json.dumps(payload) for _, _, payload in stored]
    decode_t: list[float] = []
    replay_t: list[float] = []
    full_t: list[float] = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        payloads = [json.loads(t) for t in texts]
        decode_t.append(time.perf_counter() - t0)

        t0 = time.perf_counter()
        state = None
        for (type_, version, _), payload in zip(stored, payloads, strict=True):
            state = evolve(state, BATTLE_EVENTS.decode_record(type_, version, payload))
        replay_t.append(time.perf_counter() - t0)

        t0 = time.perf_counter()
        state2 = None
        for (type_, version, _), text in zip(stored, texts, strict=True):
            state2 = evolve(state2, BATTLE_EVENTS.decode_record(type_, version, json.loads(text)))
        full_t.append(time.perf_counter() - t0)
        assert state == state2 == replay(events)
    decode, fold, full = _median(decode_t), _median(replay_t), _median(full_t)
    return {
        "events": len(events),
        "decode_ms": decode * 1000,
        "replay_ms": fold * 1000,
        "decode_and_replay_ms": full * 1000,
        "ratio": fold / decode,
        "ratio_with_decode": full / decode,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--replay-only", action="store_true")
    args = parser.parse_args()
    print(f"# bench/battles.py  {datetime.date.today()}  {platform.node()}")
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    r = bench_replay(1_000 if args.quick else 10_000, 3 if args.quick else 7)
    print(
        f"replay {r['events']} events: decode {r['decode_ms']:.1f} ms, "
        f"from_record+evolve {r['replay_ms']:.1f} ms (x{r['ratio']:.2f} of decode), "
        f"decode+from_record+evolve {r['decode_and_replay_ms']:.1f} ms "
        f"(x{r['ratio_with_decode']:.2f}); target replay <= 3x decode: "
        f"{'met' if r['ratio'] <= 3 else 'NOT met'}"
    )
    if args.replay_only:
        return
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")
    from bench.battles_db import bench_database  # Django must be configured first

    bench_database(quick=args.quick)


if __name__ == "__main__":
    main()
