"""Random battles between decks built from the real card database, every pair of factions (issue 17).

For each unordered pair of the database's ten factions, `--per-pair` battles: each side
gets a random loadout (`decks.random_loadout`: class, arm weapon, off-hand, accessories)
and a legal 30-card deck built from it (`decks.build_casket_deck`, checked again by
`casket_deck_problems`, R-ADD-52), seat order alternating; the project's greedy
autoplayer (`choose_thrifty`) plays the battle on the demo board under ruleset 2.1 in the engine alone
(no Django), until it ends or round `--cap`; by default with the ruleset's option
`round_limit` 60 (R-TRN-9c: at the end of round 60 the side with more HP wins, as the
game's own simulator stops at a turn limit and compares cards left), because a deck of
mostly manual cards can leave the greedy autoplayer without an attack for ever. Reports battles per pair, engine errors
(any exception, with the first traceback), how battles ended, manual cards played per
battle, and each faction's win rate (draws count half) beside the win rates the
database's own `_meta.description` quotes from the game's simulator.

    .venv/bin/python bench/faction_battles.py --per-pair 4 [--per-side 2] [--cap 60] [--path FILE]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import statistics
import sys
import time
import traceback
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from battles.engine.battle.autoplay import choose_thrifty, greedy_commands
from battles.engine.battle.decide import create
from battles.engine.battle.events import CardPlayed
from battles.engine.battle.evolve import replay
from battles.engine.carddata.carddb import FACTIONS, DatabaseRead, read_database
from battles.engine.carddata.decks import (
    Loadout,
    build_casket_deck,
    casket_deck_problems,
    random_loadout,
)
from battles.engine.demo import demo_board
from battles.engine.ruleset import Ruleset

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "shared/data/penance-card-database-v5.15b.json"
RULESET = "2.1"
# Each side's deployment hexes on the demo board, one per casket (`--per-side` 1 or 2), and
# the facing toward the other side.
_DEPLOY = (((0, -4), (-1, -4)), ((0, 4), (1, 3)))
_FACINGS = (4, 1)
_SHIELD = {"weapon": "left"}

# What the database's _meta.description (v5.15b) quotes from the game's simulator
# (MultiUnitCombatSimulator): "Dwarves 31%→44% WR", "Bloodlines 76%→target 65% WR".
QUOTED = {"dwarves": "44% (v5.15b, was 31%)", "vestige-bloodlines": "76% (target 65%)"}


def setup_for(
    read: DatabaseRead,
    loadouts: tuple[Loadout, ...],
    seed: int,
    rng: random.Random,
    round_limit: int | str = "none",
) -> dict[str, Any]:
    """Two sides of `len(loadouts) // 2` caskets each: the first half side 0, named
    `<faction>-0`, the rest side 1 (R-TRN-8: a side loses when all its caskets are out)."""
    ruleset = Ruleset(RULESET)
    seats = []
    used: set[str] = set()
    per_side = len(loadouts) // 2
    placed = [(_DEPLOY[k][i], _FACINGS[k]) for k in (0, 1) for i in range(per_side)]
    for n, (loadout, (at, facing)) in enumerate(zip(loadouts, placed, strict=True)):
        side = 0 if n < per_side else 1
        rows = build_casket_deck(read, loadout, ruleset, rng)
        problems = casket_deck_problems(read, loadout, rows, ruleset)
        if problems:
            raise AssertionError(f"built an illegal deck: {[p.as_dict() for p in problems]}")
        used.update(card_id for card_id, _ in rows)
        seats.append(
            {
                "player": f"p{n}",
                "side": f"{loadout.faction}-{side}",
                "casket": {
                    "name": f"{loadout.faction} {loadout.casket_class}",
                    "class": loadout.casket_class,
                    "shield": "left" if side == 0 else "right",
                    # Cards that count allies of a faction read it (R-ADD-121).
                    "faction": loadout.faction,
                },
                "deck": [{"card": c, "count": k} for c, k in rows],
                "pilot": {"name": f"Pilot {n}", "carried_wounds": [], "sp_modifier": 0},
                "at": list(at),
                "facing": facing,
            }
        )
    return {
        "name": f"{loadouts[0].faction} v {loadouts[-1].faction}",
        "board": demo_board(),
        "rules": {"version": RULESET, "options": {"round_limit": round_limit}},
        "dice": {"mode": "digital", "seed": seed},
        "policy": "auto",
        "cards": [read.cards[c].card.as_dict() for c in sorted(used)],
        "seats": seats,
    }


def battle(
    read: DatabaseRead,
    a: str,
    b: str,
    seed: int,
    cap: int,
    round_limit: int | str = "none",
    per_side: int = 1,
) -> dict[str, Any]:
    rng = random.Random(seed)
    loadouts = tuple(random_loadout(read, f, rng) for f in [a] * per_side + [b] * per_side)
    setup = setup_for(read, loadouts, seed, rng, round_limit)
    state = replay(create(f"bench-{seed}", setup))
    manual = 0
    commands = 0
    start = state
    for _, events, state in greedy_commands(start, seed=seed, chooser=choose_thrifty):
        commands += 1
        manual += sum(1 for e in events if isinstance(e, CardPlayed) and e.manual)
        if state.round > cap:
            break
    winner = None
    if state.over and state.winner is not None:
        winner = a if state.winner == f"{a}-0" else b
    return {
        "over": state.over,
        "winner": winner,
        "rounds": state.round,
        "manual": manual,
        "commands": commands,
        "result": state.result,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--path", type=Path, default=DEFAULT_PATH)
    parser.add_argument("--per-pair", type=int, default=4)
    parser.add_argument("--cap", type=int, default=60, help="stop a battle after this round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--per-side",
        type=int,
        choices=(1, 2),
        default=1,
        help="caskets a side: 2 plays the cards that act on allies (covers, zones, auras)",
    )
    parser.add_argument(
        "--round-limit",
        default="60",
        help="the ruleset's round_limit option (R-TRN-9c): at the end of that round the side "
        "with more HP wins, as the game's own simulator stops at a turn limit; 'none' for none",
    )
    args = parser.parse_args()
    if not args.path.is_file():
        sys.exit(f"no card database at {args.path} (pass --path)")
    read = read_database(json.loads(args.path.read_text(encoding="utf-8")))
    factions = [f for f in FACTIONS if read.faction_pools.get(f)]
    print(
        f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )
    print(
        f"database {args.path.name}: {len(read.cards)} cards, {len(read.items)} items; "
        f"ruleset {RULESET} (round_limit {args.round_limit}), demo board, greedy autoplayer, "
        f"{args.per_pair} battles per pair, {args.per_side} casket(s) a side, "
        f"cap {args.cap} rounds"
    )
    limit: int | str = "none" if args.round_limit == "none" else int(args.round_limit)
    wins: dict[str, float] = dict.fromkeys(factions, 0.0)
    played: Counter[str] = Counter()
    finished: Counter[str] = Counter()
    per_pair: Counter[tuple[str, str]] = Counter()
    endings: Counter[str] = Counter()
    manual: list[int] = []
    rounds: list[int] = []
    errors: list[str] = []
    t0 = time.perf_counter()
    seed = args.seed
    for a, b in itertools.combinations(factions, 2):
        for n in range(args.per_pair):
            first, second = (a, b) if n % 2 == 0 else (b, a)
            seed += 1
            try:
                r = battle(read, first, second, seed, args.cap, limit, args.per_side)
            except Exception:  # an engine error is what this bench looks for
                errors.append(f"{first} v {second} seed {seed}:\n{traceback.format_exc()}")
                continue
            per_pair[(a, b)] += 1
            played[a] += 1
            played[b] += 1
            manual.append(r["manual"])
            rounds.append(r["rounds"])
            if r["over"]:
                finished[a] += 1
                finished[b] += 1
            if not r["over"]:
                endings["unfinished at the cap"] += 1
            elif (r["result"] or "").startswith("round limit"):
                endings["round limit (more HP wins, R-TRN-9c)"] += 1
                if r["winner"] is None:
                    wins[a] += 0.5
                    wins[b] += 0.5
                else:
                    wins[r["winner"]] += 1
            elif r["winner"] is None:
                endings["draw"] += 1
                wins[a] += 0.5
                wins[b] += 0.5
            else:
                endings["won"] += 1
                wins[r["winner"]] += 1
    elapsed = time.perf_counter() - t0
    pairs = len(list(itertools.combinations(factions, 2)))
    print(
        f"{pairs} pairs, {sum(per_pair.values())} battles finished without an engine error "
        f"(per pair: min {min(per_pair.values(), default=0)}, max "
        f"{max(per_pair.values(), default=0)}); engine errors: {len(errors)}; {elapsed:.0f} s"
    )
    print("endings: " + ", ".join(f"{k} {v}" for k, v in endings.most_common()))
    if rounds:
        print(
            f"rounds per battle: median {statistics.median(rounds):g}, max {max(rounds)}; "
            f"manual cards played per battle: mean {statistics.mean(manual):.1f}, "
            f"median {statistics.median(manual):g}, max {max(manual)}"
        )
    print(
        "| faction | battles | finished | win rate here (of finished; a draw is ½) "
        "| the database's _meta quotes |"
    )
    print("|---|---|---|---|---|")
    for f in factions:
        rate = f"{wins[f] / finished[f]:.0%}" if finished[f] else "–"
        print(f"| {f} | {played[f]} | {finished[f]} | {rate} | {QUOTED.get(f, '–')} |")
    for e in errors[:1]:
        print("first engine error:\n" + e)


if __name__ == "__main__":
    main()
