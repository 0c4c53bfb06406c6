"""Benchmark: how demo battles end under ruleset 2.1, beside 2.0 (issue 11).

The project's greedy autoplayer plays seeded demo battles (the two demo decks, the
demo board, policy `auto`) to their end, or until round `--cap`, in the engine alone.
For each ruleset: how the battles ended (a casket's defeat, a pilot's death, a draw,
the round limit, unfinished), rounds and events per battle (median, p90) and pilots
killed per battle. Run:

    .venv/bin/python bench/battle_lengths.py --battles 200 --baseline 20

Targets under 2.1: every battle ends within 100 rounds; median rounds between 5 and
14 (the game's own simulator: 9); at least 4 battles in 5 end by a casket's defeat;
fewer than 1 pilot in 5 dies per battle.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from battles.engine.battle.autoplay import greedy_commands
from battles.engine.battle.decide import create
from battles.engine.battle.evolve import replay
from battles.engine.battle.state import BattleState
from battles.engine.demo import demo_setup


def ending(state: BattleState) -> str:
    """How a battle ended, from its final state (R-TRN-8, R-TRN-9, R-DMG-9, R-PLT-1)."""
    if not state.over:
        return "unfinished"
    if state.result and state.result.startswith("round limit"):
        return "round limit"
    if state.winner is None:
        return "draw"
    losers = [c for c in state.seats if c.side != state.winner]
    if any(c.pilot_dead for c in losers):
        return "pilot death"
    if any(c.withdrawn for c in losers):
        return "withdrawal"
    return "defeat"


def play(seed: int, ruleset: str, cap: int) -> BattleState:
    last = replay(create(f"bench-{seed}", demo_setup(seed=seed, ruleset=ruleset)))
    for _, _, after in greedy_commands(last, seed=seed):
        last = after
        if last.round > cap:
            break
    return last


def p90(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def report(ruleset: str, battles: int, cap: int) -> dict[str, object]:
    start = time.perf_counter()
    states = [play(seed, ruleset, cap) for seed in range(1, battles + 1)]
    elapsed = time.perf_counter() - start
    endings = Counter(ending(s) for s in states)
    rounds = [s.round for s in states]
    events = [s.version for s in states]
    killed = sum(1 for s in states for c in s.seats if c.pilot_dead)
    line = {
        "ruleset": ruleset,
        "battles": battles,
        "endings": dict(endings),
        "rounds median": statistics.median(rounds),
        "rounds p90": p90(rounds),
        "rounds max": max(rounds),
        "events median": statistics.median(events),
        "events p90": p90(events),
        "pilots killed per battle": round(killed / battles, 3),
        "seconds": round(elapsed, 1),
    }
    print(" | ".join(f"{k}: {v}" for k, v in line.items()))
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=200, help="seeded battles under 2.1")
    parser.add_argument("--baseline", type=int, default=20, help="seeded battles under 2.0")
    parser.add_argument("--cap", type=int, default=200, help="stop a battle after this round")
    args = parser.parse_args()
    print(
        f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )
    new = report("2.1", args.battles, args.cap)
    report("2.0", args.baseline, args.cap)
    endings = new["endings"]
    assert isinstance(endings, dict)
    battles = args.battles
    checks = {
        "every 2.1 battle ends within 100 rounds": new["rounds max"] <= 100  # type: ignore[operator]
        and "unfinished" not in endings,
        "median rounds 5..14": 5 <= new["rounds median"] <= 14,  # type: ignore[operator]
        "at least 4 in 5 end by a casket's defeat": endings.get("defeat", 0) >= 0.8 * battles,
        "fewer than 1 pilot in 5 dies per battle": new["pilots killed per battle"] < 0.2,  # type: ignore[operator]
    }
    for name, ok in checks.items():
        print(f"{'met' if ok else 'NOT MET'}: {name}")


if __name__ == "__main__":
    main()
