"""Benchmark: the server's bot (`choose_ranked`: attacks ranked by expected damage) against
the greedy player as it has always played (`choose`: the first listed attack).

Seeded demo battles (the two demo decks, the demo board) in the engine alone, played to
their end or round `--cap`; the bot takes seat 0 in odd battles and seat 1 in even ones,
so neither deck nor the first move favours it. Run:

    .venv/bin/python bench/bot_policy.py --battles 200

Reported: the bot's wins, losses and draws, its win rate over decided battles with a
95 % Wilson interval, and the seconds taken.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from battles.engine.battle.autoplay import choose, choose_ranked, greedy_commands
from battles.engine.battle.decide import create
from battles.engine.battle.evolve import replay
from battles.engine.battle.legal import LegalAction
from battles.engine.battle.state import BattleState
from battles.engine.demo import demo_setup


def seat_of(state: BattleState, actions: list[LegalAction]) -> int | None:
    """The seat whose move it is: a prompt's seat, else the active seat."""
    seat = actions[0].body.get("seat") if actions else None
    return seat if isinstance(seat, int) else state.active


def play(seed: int, bot_seat: int, cap: int) -> BattleState:
    def chooser(state: BattleState, actions: list[LegalAction], rng: random.Random) -> Any:
        if seat_of(state, actions) == bot_seat:
            return choose_ranked(state, actions, rng)
        return choose(state, actions, rng)

    last = replay(create(f"bot-{seed}", demo_setup(seed=seed)))
    for _, _, after in greedy_commands(last, seed=seed, chooser=chooser):
        last = after
        if last.round > cap:
            break
    return last


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=200)
    parser.add_argument("--cap", type=int, default=200, help="stop a battle after this round")
    args = parser.parse_args()
    print(
        f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )
    start = time.perf_counter()
    won = lost = drawn = unfinished = 0
    for seed in range(1, args.battles + 1):
        bot_seat = seed % 2
        state = play(seed, bot_seat, args.cap)
        if not state.over:
            unfinished += 1
        elif state.winner is None:
            drawn += 1
        elif state.winner == state.seats[bot_seat].side:
            won += 1
        else:
            lost += 1
    decided = won + lost
    low, high = wilson(won, decided)
    print(
        f"{args.battles} battles in {time.perf_counter() - start:.0f} s: the bot won {won}, "
        f"lost {lost}, drew {drawn}, unfinished {unfinished}; win rate over decided "
        f"battles {won / max(decided, 1):.1%} (95 % interval {low:.1%}–{high:.1%})"
    )


if __name__ == "__main__":
    main()
