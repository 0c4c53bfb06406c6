"""bench/faction_battles.py: its options (the autoplayer's policy, the factions, the
ruleset) reach the battles it plays, and the figures it prints are counted from them."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from battles.engine.battle.autoplay import choose_ranked, choose_thrifty

BENCH = Path(__file__).resolve().parents[2] / "bench" / "faction_battles.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("faction_battles_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    if not module.DEFAULT_PATH.is_file():
        pytest.skip(f"no card database at {module.DEFAULT_PATH}")
    return module


def test_the_policies_are_the_autoplayers_and_the_bot(bench: ModuleType) -> None:
    assert {"thrifty": choose_thrifty, "ranked": choose_ranked} == bench.POLICIES


def test_p90_is_the_nearest_rank(bench: ModuleType) -> None:
    assert bench.percentile(list(range(1, 11)), 0.9) == 9
    assert bench.percentile([60, 8, 9, 10, 12, 11, 7, 9, 10, 13], 0.9) == 13
    assert bench.percentile([5], 0.9) == 5


def test_the_policy_changes_the_battle(bench: ModuleType) -> None:
    """The same seed and decks played by the bot and by the thrifty player: other commands
    (the bot ranks attacks by expected damage and never pays cards to attack)."""
    read = bench.read_database(json.loads(bench.DEFAULT_PATH.read_text(encoding="utf-8")))
    ranked = bench.battle(read, "church", "elves", 2, 60, 60, 1, "ranked")
    thrifty = bench.battle(read, "church", "elves", 2, 60, 60, 1, "thrifty")
    assert ranked["over"] and thrifty["over"]
    assert (ranked["commands"], ranked["tally"].attacks) != (
        thrifty["commands"],
        thrifty["tally"].attacks,
    )


def test_with_prompts_the_autoplayer_plays_reactive_cards(bench: ModuleType) -> None:
    """`--prompts`: the seats answer the reactive window themselves (R-REA-1), as the bot
    does at a table; policy `auto` declines every one."""
    read = bench.read_database(json.loads(bench.DEFAULT_PATH.read_text(encoding="utf-8")))
    answered = bench.battle(read, "church", "elves", 2, 60, 60, 1, "ranked", "2.1", True)
    auto = bench.battle(read, "church", "elves", 2, 60, 60, 1, "ranked", "2.1", False)
    assert answered["tally"].reactives > 0
    assert answered["tally"].reactive_reduction > 0
    assert auto["tally"].reactives == 0


def test_a_run_prints_rounds_p90_and_what_they_were_spent_on(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "battles.json"
    bench.main(
        ["--factions", "church,elves", "--per-pair", "2", "--policy", "ranked", "--out", str(out)]
    )
    printed = capsys.readouterr().out
    assert "policy ranked" in printed
    assert "1 pairs, 2 battles finished without an engine error" in printed
    assert "engine errors: 0" in printed
    records = json.loads(out.read_text(encoding="utf-8"))
    assert [r["factions"] for r in records] == [["church", "elves"], ["elves", "church"]]
    rounds = sorted(r["rounds"] for r in records)
    assert f"rounds per battle: median {(rounds[0] + rounds[1]) / 2:g}, p90 {rounds[1]}," in (
        printed
    )
    for r in records:
        assert 0 < r["hits"] <= r["attacks"] <= r["target_numbers"]
        assert r["turns_with_attack"] <= r["casket_turns"]
        assert r["rounds_with_attack"] <= r["rounds"]
        assert 0 < r["first_attack_round"] <= r["rounds"]
        assert r["deck_out_round"] <= r["rounds"]
        assert r["ending"] in {"defeat", "pilot death", "round limit (more HP wins, R-TRN-9c)"}


def test_unknown_options_are_refused(bench: ModuleType) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--policy", "random"])
    with pytest.raises(SystemExit):
        bench.main(["--factions", "church,atlantis"])
    with pytest.raises(SystemExit):
        bench.main(["--factions", "church"])
