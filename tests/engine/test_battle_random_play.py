"""Random play: a thousand short and a dozen long random legal command sequences
in digital mode (issue 4).

Every command is drawn from `legal_actions`; after each one the checks are that the
fold of all events equals the live state, that every card instance is in exactly one
zone, that SP spent never exceeds twice the maximum (R-TRN-3), and that no casket
stands on an impassable or occupied hex (R-TRN-5). A refused command must leave the
state as it was: `decide` is pure, so the state object is compared before and after.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from battles.codec import BATTLE_EVENTS
from battles.engine.battle import (
    BattleState,
    create,
    decide,
    evolve,
    legal_actions,
    parse_command,
    replay,
    state_from_dict,
    state_to_dict,
)
from battles.engine.demo import demo_setup
from battles.engine.errors import RuleViolation

SEQUENCES = 1000
SHORT = 10  # commands per short sequence: most of them open the battle differently
LONG_SEQUENCES = 12
LONG = 400  # long sequences reach damage, reshuffles, destroyed components, wounds


def _setup(seed: int) -> dict[str, object]:
    # Both rulesets: 2.0's discard-only damage and 2.1's damage pile (R-DMG-8, R-DMG-9).
    setup = demo_setup(seed=seed, ruleset="2.0" if seed % 3 == 0 else "2.1")
    setup["policy"] = "auto" if seed % 2 else "prompt"
    return setup


def _check_invariants(state: BattleState, deck_sizes: dict[int, int]) -> None:
    hexes = Counter(c.at for c in state.seats if c.in_battle)
    assert all(n == 1 for n in hexes.values()), f"two caskets share a hex: {hexes}"
    for c in state.seats:
        assert not state.board.terrain_at(c.at).impassable, f"seat {c.seat} on impassable"
        assert c.at in state.board
        assert c.sp_spent <= 2 * c.sp_max or c.sp_spent == 0, "SP beyond twice the maximum"
        cards = [x for zone in c.zones().values() for x in zone]
        assert len(cards) == len(set(cards)), f"a card in two places: {Counter(cards)}"
        assert len(cards) == deck_sizes[c.seat] + c.damage_cards, "a card vanished or appeared"
        assert len(c.wounds) + len(c.wound_deck) == 10  # R-PLT-1


def _play(seed: int, length: int, *, check_every: int = 1) -> tuple[BattleState, int]:
    rng = random.Random(seed)
    events = create(f"b{seed}", _setup(seed))
    state = replay(events)
    deck_sizes = {c.seat: len(c.deck) + len(c.hand) for c in state.seats}
    for step in range(length):
        if state.over:
            break
        actions = list(legal_actions(state))
        assert actions, f"no legal action in phase {state.phase} with prompts {state.prompts}"
        # Passing ends turns quickly; weigh it down so the battles get somewhere.
        body = rng.choice(actions).body
        if body["type"] == "pass" and len(actions) > 1 and rng.random() < 0.6:
            body = rng.choice(actions).body
        # Withdrawing ends a casket's battle (R-TRN-9): rarely, so battles get somewhere.
        while body["type"] == "withdraw" and len(actions) > 1 and rng.random() < 0.95:
            body = rng.choice(actions).body
        before = state
        new = decide(state, parse_command(body))
        assert state is before
        for event in new:
            state = evolve(state, event)
        events.extend(new)
        if step % check_every == 0:
            _check_invariants(state, deck_sizes)
            assert replay(events) == state
    return state, len(events)


def test_random_short_sequences_keep_every_invariant() -> None:
    """1,000 random openings, each checked after every command."""
    for seed in range(SEQUENCES):
        _play(seed, SHORT)


@pytest.mark.slow
def test_random_long_sequences_keep_every_invariant() -> None:
    """Long games reach the rare paths: damage, reshuffles, destruction, wounds, defeat."""
    seen: Counter[str] = Counter()
    for seed in range(LONG_SEQUENCES):
        state, _ = _play(10_000 + seed, LONG, check_every=7)
        seen.update(c.seat for c in state.seats if c.damage_cards)
    assert seen, "no long game ever reshuffled a deck: the test does not reach the draw rules"


def test_refused_commands_change_nothing() -> None:
    """A refused command raises RuleViolation and the state is untouched (decide is pure)."""
    state = replay(create("b", _setup(3)))
    inactive = next(c.seat for c in state.seats if c.seat != state.active)
    snapshot = state_to_dict(state)
    for body in (
        {"type": "pass", "seat": inactive},
        {"type": "rotate", "seat": state.active, "facing": state.seats[state.active].facing},
        {"type": "move", "seat": state.active, "path": [[40, 40]]},
        {"type": "no_reactive", "seat": state.active},
    ):
        with pytest.raises(RuleViolation) as err:
            decide(state, parse_command(body))
        assert err.value.code and err.value.rule
        assert state_to_dict(state) == snapshot


def test_events_and_snapshots_round_trip_during_play() -> None:
    """Every event survives to_record/from_record, and a snapshot restores the same state."""
    rng = random.Random(5)
    events = create("b", _setup(5))
    state = replay(events)
    for _ in range(150):
        if state.over:
            break
        body = rng.choice(list(legal_actions(state))).body
        new = decide(state, parse_command(body))
        for event in new:
            assert BATTLE_EVENTS.decode_record(*BATTLE_EVENTS.to_record(event)) == event
            state = evolve(state, event)
        events.extend(new)
    assert state_from_dict(state_to_dict(state)) == state
    half = len(events) // 2
    middle = replay(events[:half])
    assert replay(events[half:], state_from_dict(state_to_dict(middle))) == state
