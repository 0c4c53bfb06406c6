"""Random battles between decks built from the real card database, every pair of factions (issue 17).

For each unordered pair of the database's ten factions, `--per-pair` battles: each side
gets a random loadout (`decks.random_loadout`: class, arm weapon, off-hand, accessories)
and a legal 30-card deck built from it (`decks.build_casket_deck`, checked again by
`casket_deck_problems`, R-ADD-52), seat order alternating; the project's greedy
autoplayer plays the battle on the demo board under ruleset 2.1 (`--ruleset 2.0` for the
older economy) in the engine alone (no Django), until it ends or round `--cap`: `--policy
thrifty` (`choose_thrifty`, the default) or `--policy ranked` (`choose_ranked`, the server's
bot: attacks ranked by expected damage); by default with the ruleset's option
`round_limit` 60 (R-TRN-9c: at the end of round 60 the side with more HP wins, as the
game's own simulator stops at a turn limit and compares cards left), because a deck of
mostly manual cards can leave the greedy autoplayer without an attack for ever. Reports battles per pair, engine errors
(any exception, with the first traceback), how battles ended, rounds per battle (median,
p90, max and their distribution) beside the game's own simulator (median 9 rounds,
RULINGS.md "Ruleset 2.1"), what the rounds were spent on (attacks, hits, damage, blocks,
SP on movement, rounds without an attack), manual cards played per battle, and each
faction's win rate (draws count half) beside the win rates the database's own
`_meta.description` quotes from the game's simulator.

    .venv/bin/python bench/faction_battles.py --per-pair 4 [--policy ranked] [--per-side 2]
        [--ruleset 2.0] [--cap 60] [--round-limit 60|none] [--path FILE]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import platform
import random
import statistics
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from battles.engine.battle.autoplay import choose_ranked, choose_thrifty, greedy_commands
from battles.engine.battle.decide import create
from battles.engine.battle.events import (
    AttackDeclared,
    AttackRolled,
    CardPlayed,
    CasketMoved,
    CasketRotated,
    DamageTaken,
    DeckReshuffled,
    DefenceRolled,
    Event,
    ReactivePlayed,
    RoundStarted,
    StrainChecked,
    TurnStarted,
)
from battles.engine.battle.evolve import replay
from battles.engine.battle.legal import LegalAction
from battles.engine.battle.state import BattleState
from battles.engine.carddata.carddb import FACTIONS, DatabaseRead, read_database
from battles.engine.carddata.decks import (
    Loadout,
    build_casket_deck,
    casket_deck_problems,
    random_loadout,
)
from battles.engine.demo import demo_board
from battles.engine.dice import CRITICAL, EXECUTION, HIT, STRONG
from battles.engine.ruleset import Ruleset
from bench.battle_lengths import ending as battle_ending

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "shared/data/penance-card-database-v5.15b.json"
RULESET = "2.1"
Chooser = Callable[[BattleState, list[LegalAction], random.Random], dict[str, Any]]
# The autoplayer's policies: `thrifty` pays cards for a weapon dearer than the casket's SP
# (decks from the database); `ranked` is the server's bot (battles/bots.py), which attacks
# with the best expected damage and never overspends to attack.
POLICIES: dict[str, Chooser] = {"thrifty": choose_thrifty, "ranked": choose_ranked}
# Each side's deployment hexes on the demo board, one per casket (`--per-side` 1 or 2), and
# the facing toward the other side.
_DEPLOY = (((0, -4), (-1, -4)), ((0, 4), (1, 3)))
_FACINGS = (4, 1)
_SHIELD = {"weapon": "left"}

# What the database's _meta.description (v5.15b) quotes from the game's simulator
# (MultiUnitCombatSimulator): "Dwarves 31%→44% WR", "Bloodlines 76%→target 65% WR".
QUOTED = {"dwarves": "44% (v5.15b, was 31%)", "vestige-bloodlines": "76% (target 65%)"}
# The game's simulator's battle length as the project's sources quote it: RULINGS.md,
# "Ruleset 2.1": "with it [the damage pile, simulator v5.21], its battles last a median of
# 9 rounds". Its "turn" is both caskets acting once, a round here.
SIMULATOR_MEDIAN = 9
_HITS = frozenset({HIT, STRONG, CRITICAL, EXECUTION})
_ENDINGS = {
    "unfinished": "unfinished at the cap",
    "round limit": "round limit (more HP wins, R-TRN-9c)",
}
# The distribution's bins of rounds per battle.
_BINS = ((1, 5), (6, 10), (11, 15), (16, 20), (21, 30), (31, 45), (46, 59), (60, 10**6))


@dataclass
class Tally:
    """What one battle's rounds were spent on, counted from its events."""

    casket_turns: int = 0
    attacks: int = 0
    target_numbers: int = 0  # summed over the attacks (R-HIT-1)
    to_hit_movement: int = 0  # the attacker's and the target's movement (R-HIT-2)
    to_hit_side: int = 0  # the side attacked (R-ARC-2)
    to_hit_cover: int = 0  # (R-COV-1, R-COV-2)
    hits: int = 0
    catastrophic: int = 0
    damage_rolled: int = 0  # the hits' damage before defence (R-DMG-1)
    defence_dice: int = 0  # one a point of damage (R-DMG-2)
    blocks: int = 0  # SHIELD/ABSORB faces and automatic blocks (R-DMG-2, R-DMG-3)
    final_damage: int = 0  # after the defence dice (R-DMG-3)
    reactives: int = 0  # reactive cards played against attacks (R-REA-1)
    reactive_reduction: int = 0
    cards_lost: int = 0  # cards taken as damage of any kind (R-DMG-6, R-DMG-8)
    lost_from_hand: int = 0
    move_sp: int = 0  # SP spent on moves (R-TRN-5)
    rotate_sp: int = 0  # SP spent on turns beyond the free one (R-ARC-5)
    strain_rolls: int = 0  # Heat checks rolled at Refresh (R-TRN-4)
    reshuffles: int = 0  # each adds a Damage card to the deck (R-TRN-6)
    turns_with_attack: int = 0
    rounds_with_attack: int = 0
    first_attack_round: int = 0  # 0: no attack at all
    # The first round in which a casket's draw pile stood empty after a command: where the
    # battle would have ended had HP been the deck alone (the game's simulator's reading),
    # not deck and discard pile (R-DMG-9); 0: never.
    deck_out_round: int = 0


def count(
    tally: Tally, events: list[Event], attacked: set[tuple[int, int]], current: list[int]
) -> None:
    """Add one command's events to `tally`; `current` holds the round being played and the
    casket turns counted so far, `attacked` the (round, turn) pairs with an attack."""
    for e in events:
        if isinstance(e, RoundStarted):
            current[0] = e.round
        elif isinstance(e, TurnStarted):
            tally.casket_turns += 1
            current[1] = tally.casket_turns
        elif isinstance(e, AttackDeclared):
            tally.attacks += 1
            attacked.add((current[0], current[1]))
            tally.target_numbers += e.target_number
            for line in e.to_hit.get("modifiers", ()):
                if line["rule"] == "R-HIT-2":
                    tally.to_hit_movement += line["value"]
                elif line["rule"] == "R-ARC-2":
                    tally.to_hit_side += line["value"]
                elif line["key"] == "cover":
                    tally.to_hit_cover += line["value"]
            if not tally.first_attack_round:
                tally.first_attack_round = current[0]
        elif isinstance(e, AttackRolled):
            if e.grade in _HITS:
                tally.hits += 1
                tally.damage_rolled += e.damage
            elif e.grade == "catastrophic":
                tally.catastrophic += 1
        elif isinstance(e, DefenceRolled):
            tally.defence_dice += len(e.faces)
            tally.blocks += e.blocks
            tally.final_damage += e.final_damage
        elif isinstance(e, ReactivePlayed):
            tally.reactives += 1
            tally.reactive_reduction += e.reduction
        elif isinstance(e, DamageTaken):
            tally.cards_lost += len(e.from_hand) + len(e.from_deck)
            tally.lost_from_hand += len(e.from_hand)
        elif isinstance(e, CasketMoved):
            tally.move_sp += e.cost
        elif isinstance(e, CasketRotated):
            tally.rotate_sp += e.cost
        elif isinstance(e, StrainChecked):
            tally.strain_rolls += e.roll is not None
        elif isinstance(e, DeckReshuffled):
            tally.reshuffles += 1


def percentile(values: list[int], q: float) -> int:
    """The nearest-rank percentile: the smallest value with at least `q` of them at or
    below it.

    >>> percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)
    9
    >>> percentile([7], 0.9)
    7
    """
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def ending(state: BattleState) -> str:
    """How a battle ended (battle_lengths' reading of R-TRN-8, R-TRN-9, R-DMG-9, R-PLT-1),
    in this bench's words."""
    label = battle_ending(state)
    return _ENDINGS.get(label, label)


def setup_for(
    read: DatabaseRead,
    loadouts: tuple[Loadout, ...],
    seed: int,
    rng: random.Random,
    round_limit: int | str = "none",
    ruleset_name: str = RULESET,
    prompts: bool = False,
) -> dict[str, Any]:
    """Two sides of `len(loadouts) // 2` caskets each: the first half side 0, named
    `<faction>-0`, the rest side 1 (R-TRN-8: a side loses when all its caskets are out)."""
    ruleset = Ruleset(ruleset_name)
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
        "rules": {"version": ruleset_name, "options": {"round_limit": round_limit}},
        "dice": {"mode": "digital", "seed": seed},
        # `auto`: the engine answers every prompt (no reactive card, damage from the deck);
        # `prompt`, as a battle with the server's bot: the autoplayer answers them.
        "policy": "prompt" if prompts else "auto",
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
    policy: str = "thrifty",
    ruleset: str = RULESET,
    prompts: bool = False,
) -> dict[str, Any]:
    rng = random.Random(seed)
    loadouts = tuple(random_loadout(read, f, rng) for f in [a] * per_side + [b] * per_side)
    setup = setup_for(read, loadouts, seed, rng, round_limit, ruleset, prompts)
    state = replay(create(f"bench-{seed}", setup))
    manual = 0
    commands = 0
    tally = Tally()
    attacked: set[tuple[int, int]] = set()
    current = [state.round, 0]
    start = state
    for _, events, state in greedy_commands(start, seed=seed, chooser=POLICIES[policy]):
        commands += 1
        manual += sum(1 for e in events if isinstance(e, CardPlayed) and e.manual)
        count(tally, events, attacked, current)
        if not tally.deck_out_round and any(not c.deck for c in state.seats):
            tally.deck_out_round = state.round
        if state.round > cap:
            break
    tally.turns_with_attack = len(attacked)
    tally.rounds_with_attack = len({r for r, _ in attacked})
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
        "ending": ending(state),
        "classes": [lo.casket_class for lo in loadouts],
        "tally": tally,
    }


def distribution(rounds: list[int]) -> str:
    """Battles by rounds, in `_BINS`."""
    parts = []
    for low, high in _BINS:
        n = sum(1 for r in rounds if low <= r <= high)
        label = f"{low}+" if high >= 10**6 else f"{low}-{high}"
        parts.append(f"{label}: {n}")
    return ", ".join(parts)


def spent(tallies: list[Tally], rounds: list[int]) -> list[str]:
    """What the rounds were spent on, summed over the battles: lines to print."""
    total = Tally(**{f.name: sum(getattr(t, f.name) for t in tallies) for f in fields(Tally)})
    all_rounds = sum(rounds)
    firsts = [t.first_attack_round for t in tallies if t.first_attack_round]
    # Deck-only HP: the round a draw pile first ran dry, or the battle's end if none did.
    deck_out = [t.deck_out_round or r for t, r in zip(tallies, rounds, strict=True)]

    def per(x: int, y: int) -> str:
        return f"{x / y:.2f}" if y else "–"

    return [
        f"casket turns {total.casket_turns} ({per(total.casket_turns, all_rounds)} a round); "
        f"attacks {total.attacks} ({per(total.attacks, total.casket_turns)} a casket turn; "
        f"casket turns with an attack {per(total.turns_with_attack * 100, total.casket_turns)} "
        f"%); "
        f"rounds with an attack {total.rounds_with_attack} of {all_rounds} "
        f"({per(total.rounds_with_attack * 100, all_rounds)} %); first attack in round: "
        f"median {statistics.median(firsts) if firsts else '–'}",
        f"mean target number {per(total.target_numbers, total.attacks)}: movement "
        f"(R-HIT-2) {per(total.to_hit_movement, total.attacks)}, side (R-ARC-2) "
        f"{per(total.to_hit_side, total.attacks)}, cover {per(total.to_hit_cover, total.attacks)}",
        f"hits {total.hits} ({per(total.hits * 100, total.attacks)} % of attacks), "
        f"catastrophic failures {total.catastrophic}; damage before defence "
        f"{per(total.damage_rolled, total.hits)} a hit; defence dice {total.defence_dice}, "
        f"blocks {total.blocks} ({per(total.blocks * 100, total.defence_dice)} % of the dice), "
        f"final damage {per(total.final_damage, total.hits)} a hit; "
        f"reactive cards {total.reactives} (reduction {total.reactive_reduction})",
        f"cards lost to damage {total.cards_lost} ({per(total.cards_lost, total.hits)} a hit, "
        f"{per(total.cards_lost, total.casket_turns)} a casket turn; "
        f"{per(total.lost_from_hand * 100, total.cards_lost)} % from hand); Damage cards "
        f"added by reshuffles {total.reshuffles}; strain rolls {total.strain_rolls}; "
        f"SP on moves {per(total.move_sp, total.casket_turns)} a casket turn, on turns "
        f"{per(total.rotate_sp, total.casket_turns)}",
        f"a casket's draw pile first empty (HP as the deck alone): round median "
        f"{statistics.median(deck_out):g}, p90 {percentile(deck_out, 0.9)}",
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--path", type=Path, default=DEFAULT_PATH)
    parser.add_argument("--per-pair", type=int, default=4)
    parser.add_argument("--cap", type=int, default=60, help="stop a battle after this round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--policy",
        choices=sorted(POLICIES),
        default="thrifty",
        help="the autoplayer: thrifty (choose_thrifty) or ranked (choose_ranked, the bot)",
    )
    parser.add_argument("--ruleset", choices=("2.0", "2.1"), default=RULESET)
    parser.add_argument(
        "--prompts",
        action="store_true",
        help="the autoplayer answers the prompts (setup policy prompt, as in a battle with the "
        "server's bot): it plays a reactive card when it holds one (R-REA-1); by default the "
        "engine answers them (policy auto: no reactive card, damage from the deck)",
    )
    parser.add_argument(
        "--factions",
        help="comma-separated factions to pair among (default: all the database's factions)",
    )
    parser.add_argument(
        "--out", type=Path, help="write each battle (factions, classes, rounds, counts) as JSON"
    )
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
    args = parser.parse_args(argv)
    if not args.path.is_file():
        sys.exit(f"no card database at {args.path} (pass --path)")
    read = read_database(json.loads(args.path.read_text(encoding="utf-8")))
    factions = [f for f in FACTIONS if read.faction_pools.get(f)]
    if args.factions:
        wanted = args.factions.split(",")
        unknown = sorted(set(wanted) - set(factions))
        if unknown or len(set(wanted)) < 2:
            parser.error(f"--factions: two or more of {', '.join(factions)}; not {unknown}")
        factions = [f for f in factions if f in wanted]
    print(
        f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"database {args.path.name}: {len(read.cards)} cards, {len(read.items)} items; "
        f"ruleset {args.ruleset} (round_limit {args.round_limit}), demo board, "
        f"policy {args.policy}, prompts answered by "
        f"{'the autoplayer' if args.prompts else 'the engine (auto)'}, {args.per_pair} battles per pair, {args.per_side} casket(s) "
        f"a side, cap {args.cap} rounds"
    )
    limit: int | str = "none" if args.round_limit == "none" else int(args.round_limit)
    wins: dict[str, float] = dict.fromkeys(factions, 0.0)
    played: Counter[str] = Counter()
    finished: Counter[str] = Counter()
    per_pair: Counter[tuple[str, str]] = Counter()
    endings: Counter[str] = Counter()
    manual: list[int] = []
    rounds: list[int] = []
    tallies: list[Tally] = []
    records: list[dict[str, Any]] = []
    errors: list[str] = []
    t0 = time.perf_counter()
    seed = args.seed
    for a, b in itertools.combinations(factions, 2):
        for n in range(args.per_pair):
            first, second = (a, b) if n % 2 == 0 else (b, a)
            seed += 1
            try:
                r = battle(
                    read,
                    first,
                    second,
                    seed,
                    args.cap,
                    limit,
                    args.per_side,
                    args.policy,
                    args.ruleset,
                    args.prompts,
                )
            except Exception:  # an engine error is what this bench looks for
                errors.append(f"{first} v {second} seed {seed}:\n{traceback.format_exc()}")
                continue
            per_pair[(a, b)] += 1
            played[a] += 1
            played[b] += 1
            manual.append(r["manual"])
            rounds.append(r["rounds"])
            tallies.append(r["tally"])
            endings[r["ending"]] += 1
            records.append(
                {
                    "seed": seed,
                    "factions": [first, second],
                    **{k: v for k, v in r.items() if k != "tally"},
                    **asdict(r["tally"]),
                }
            )
            if not r["over"]:
                continue
            finished[a] += 1
            finished[b] += 1
            if r["winner"] is None:
                wins[a] += 0.5
                wins[b] += 0.5
            else:
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
            f"rounds per battle: median {statistics.median(rounds):g}, "
            f"p90 {percentile(rounds, 0.9)}, max {max(rounds)} "
            f"(the game's simulator: median {SIMULATOR_MEDIAN}); "
            f"manual cards played per battle: mean {statistics.mean(manual):.1f}, "
            f"median {statistics.median(manual):g}, max {max(manual)}"
        )
        decided = [x["rounds"] for x in records if not x["ending"].startswith(("round", "unf"))]
        if decided:
            print(
                f"rounds of the {len(decided)} battles ended by the rules' own ends (not the "
                f"round limit or the cap): median {statistics.median(decided):g}, "
                f"p90 {percentile(decided, 0.9)}, max {max(decided)}"
            )
        print("rounds distribution: " + distribution(rounds))
        for line in spent(tallies, rounds):
            print(line)
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
    if args.out is not None:
        args.out.write_text(json.dumps(records, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
