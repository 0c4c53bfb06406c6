"""`decided`: one pass gives a command's events and the state they lead to.

For autoplayed battles (the greedy player through legal actions only, R-ADD-14), every
command's `decided(...).state` must equal the replay of its events on the state before, and
its events must be the ones `decide` gives (seeded dice: the same command decides alike).
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from battles.engine.battle import parse_command, replay
from battles.engine.battle.autoplay import greedy_commands
from battles.engine.battle.decide import Decision, create, decide, decided
from battles.engine.demo import demo_setup

from .battle_builder import seat
from .test_card_catalogue import AUTOMATED, random_decks

COMMANDS = 120  # commands per battle: past the opening into attacks, damage and reactives


def _check_one_pass(doc: dict[str, Any], seed: int) -> int:
    state = replay(create(f"one-pass-{seed}", doc))
    checked = 0
    for body, events, after in greedy_commands(state, seed=seed):
        d = decided(state, parse_command(body))
        assert isinstance(d, Decision)
        assert list(d.events) == events == decide(state, parse_command(body))
        assert d.state == replay(d.events, state) == after
        state, checked = after, checked + 1
        if checked >= COMMANDS:
            break
    return checked


@pytest.mark.parametrize("seed", range(4))
def test_decided_state_is_the_replay_of_its_events_in_demo_battles(seed: int) -> None:
    setup = demo_setup(seed=seed, ruleset="2.0" if seed % 2 else "2.1")
    setup["policy"] = "auto" if seed % 2 else "prompt"
    assert _check_one_pass(setup, seed) > 10


@pytest.mark.parametrize("seed", range(2))
def test_decided_state_is_the_replay_of_its_events_with_catalogued_cards(seed: int) -> None:
    rng = Random(seed)
    cards, rows = random_decks(rng, AUTOMATED, 15)
    doc = {
        "name": "Catalogue mix",
        "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 4},
                  "hexes": [{"q": 0, "r": 0, "terrain": "forest"}]},
        "rules": {"version": rng.choice(["2.0", "2.1"]), "options": {}},
        "dice": {"mode": "digital", "seed": seed, "seed_public": True},
        "policy": rng.choice(["auto", "prompt"]),
        "cards": [c.as_dict() for c in cards.values()],
        "seats": [
            {**seat(0, at=(0, 3), facing=1), "deck": rows[0]},
            {**seat(1, at=(0, -3), facing=4, casket_class="heavy"), "deck": rows[1]},
        ],
    }  # fmt: skip
    assert _check_one_pass(doc, seed) > 10
