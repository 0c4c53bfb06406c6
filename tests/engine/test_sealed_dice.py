"""Sealed digital dice (R-ADD-45), in the engine alone: a battle's rolls and shuffles derive
from a 256-bit secret and the stream version; the first event carries only the secret's
SHA-256; the end reveals the secret, and `check_dice` then derives every roll and shuffle
again and reports the first event that differs."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from dataclasses import asdict, replace
from typing import Any

import pytest

from battles.engine.battle import (
    DiceCheck,
    RecordedCommand,
    check_dice,
    create,
    decide,
    dice_commitment,
    dice_for,
    evolve,
    legal_actions,
    parse_command,
    parse_setup,
    replay,
    reveal,
)
from battles.engine.battle import events as ev
from battles.engine.battle.autoplay import choose
from battles.engine.battle.randomness import SealedDice, SecretsDice, SeededDice
from battles.engine.battle.state import BattleState
from battles.engine.demo import demo_setup
from battles.engine.errors import InvalidInput, RuleViolation
from battles.engine.ruleset import DEFAULT_VERSION

SECRET = bytes(range(32))
OTHER = bytes(range(1, 33))


def sealed_setup(
    secret: bytes = SECRET, policy: str = "auto", ruleset: str | None = None
) -> dict[str, Any]:
    setup = demo_setup(seed=None) if ruleset is None else demo_setup(seed=None, ruleset=ruleset)
    setup["policy"] = policy
    setup["dice"] = {"mode": "digital", "commitment": dice_commitment(secret)}
    return setup


def end_battle(state: BattleState | None = None) -> dict[str, Any]:
    return {"type": "end_battle", "seat": 0, "side": None, "reason": "time is up"}


def play_sealed(
    commands: int = 40,
    *,
    end: bool = True,
    secret: bytes = SECRET,
    seed: int = 1,
    ruleset: str | None = None,
) -> list[RecordedCommand]:
    """A sealed battle as its appends: the greedy autoplayer's commands decided with the
    secret's dice, then (with `end`) the GM's end, which reveals the secret as the
    command service does."""
    events = create("b", sealed_setup(secret, ruleset=ruleset), secret=secret)
    out = [RecordedCommand("create-b", None, tuple(events))]
    state = replay(events)
    rng = random.Random(seed)
    for n in range(commands + 1):
        if state.over:
            break
        if n == commands:
            if not end:
                break
            body = end_battle(state)
        else:
            body = choose(state, list(legal_actions(state)), rng)
        new = decide(state, parse_command(body), dice_for(state, secret=secret))
        state = replay(new, state)
        if state.over:
            new.append(reveal(state, secret))
            state = evolve(state, new[-1])
        out.append(RecordedCommand(f"c{n}", body, tuple(new)))
    return out


def located(commands: list[RecordedCommand], kind: type[ev.Event], after: int = 1) -> tuple:
    """(command index, event index, version) of the first event of `kind` in a command at
    or after index `after`."""
    version = 0
    for i, rc in enumerate(commands):
        for j, e in enumerate(rc.events):
            version += 1
            if i >= after and isinstance(e, kind):
                return i, j, version
    raise AssertionError(f"no {kind.__name__} recorded")


def tampered(commands: list[RecordedCommand], i: int, j: int, **change: Any) -> list:
    rc = commands[i]
    events = list(rc.events)
    events[j] = replace(events[j], **change)
    return [*commands[:i], replace(rc, events=tuple(events)), *commands[i + 1 :]]


@pytest.fixture(scope="module")
def finished() -> list[RecordedCommand]:
    """A sealed battle the greedy autoplayer plays to its end (about 100 commands)."""
    return play_sealed(600, seed=2)


# --- the dice ------------------------------------------------------------------------------------


def test_sealed_dice_follow_from_the_secret_the_version_and_the_purpose() -> None:
    def roll(secret: bytes, version: int, purpose: str = "the attack roll") -> tuple[int, ...]:
        return SealedDice(secret, version).d6(12, purpose=purpose, rule="R-HIT-4")

    assert roll(SECRET, 5) == roll(SECRET, 5)
    assert roll(SECRET, 5) != roll(SECRET, 6)
    assert roll(SECRET, 5) != roll(OTHER, 5)
    assert roll(SECRET, 5) != roll(SECRET, 5, "the defence roll")
    dice = SealedDice(SECRET, 5)
    first = dice.d6(12, purpose="the attack roll", rule="R-HIT-4")
    # A second roll of the same purpose in one command is another draw, not a repeat.
    assert dice.d6(12, purpose="the attack roll", rule="R-HIT-4") != first
    cards = [f"c#{i}" for i in range(30)]
    order = SealedDice(SECRET, 1).shuffle(cards, purpose="the casket deck")
    assert sorted(order) == sorted(cards) and order != tuple(cards)
    assert order == SealedDice(SECRET, 1).shuffle(cards, purpose="the casket deck")


def test_sealed_faces_are_uniform() -> None:
    faces = Counter(SealedDice(SECRET, 9).d6(6000, purpose="x", rule="R-HIT-4"))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in faces.values()), faces
    # Every card reaches every position: the shuffle is no rotation of the input.
    tops = Counter(SealedDice(SECRET, v).shuffle("abcdef", purpose="d")[0] for v in range(600))
    assert set(tops) == set("abcdef") and all(60 < n < 140 for n in tops.values()), tops


def test_a_secret_is_256_bits_and_its_commitment_is_its_sha256() -> None:
    assert dice_commitment(SECRET) == hashlib.sha256(SECRET).hexdigest()
    with pytest.raises(ValueError, match="32 bytes"):
        SealedDice(SECRET[:16], 1)


# --- the setup -----------------------------------------------------------------------------------


def test_an_explicit_seed_is_marked_public_and_sealed_dice_keep_only_the_commitment() -> None:
    assert parse_setup(demo_setup(seed=3))["dice"] == {
        "mode": "digital",
        "seed": 3,
        "seed_public": True,
    }
    assert parse_setup(sealed_setup())["dice"] == {
        "mode": "digital",
        "seed": None,
        "seed_public": False,
        "commitment": dice_commitment(SECRET),
    }
    # A normalised setup normalises to itself (imports and rematches post it again).
    normalised = parse_setup(sealed_setup())
    assert parse_setup(normalised) == normalised
    table = {**demo_setup(seed=None), "dice": {"mode": "table"}}
    assert parse_setup(table)["dice"] == {"mode": "table", "seed": None}


@pytest.mark.parametrize(
    ("dice", "field"),
    [
        ({"mode": "digital", "seed": 3, "seed_public": False}, "dice.seed_public"),
        ({"mode": "digital", "seed_public": True}, "dice.seed"),
        ({"mode": "digital", "seed_public": "yes"}, "dice.seed_public"),
        ({"mode": "digital", "seed": 3, "commitment": "a" * 64}, "dice.commitment"),
        ({"mode": "digital", "commitment": "A" * 64}, "dice.commitment"),
        ({"mode": "digital", "commitment": "ab"}, "dice.commitment"),
        ({"mode": "table", "seed": 0}, "dice.seed"),
        ({"mode": "table", "commitment": "a" * 64}, "dice.commitment"),
        ({"mode": "digital", "secret": "00"}, "dice.secret"),
    ],
)
def test_dice_documents_that_say_nothing_coherent_are_refused(
    dice: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInput) as err:
        parse_setup({**demo_setup(), "dice": dice})
    assert err.value.field == field


# --- creation ------------------------------------------------------------------------------------


def test_the_first_event_carries_the_commitment_and_never_the_secret() -> None:
    events = create("b", sealed_setup(), secret=SECRET)
    created = events[0]
    assert isinstance(created, ev.BattleCreated)
    assert created.setup["dice"]["commitment"] == dice_commitment(SECRET)
    assert created.setup["dice"]["seed_public"] is False
    text = json.dumps([asdict(e) for e in events], default=list)
    assert SECRET.hex() not in text
    assert not any(isinstance(e, ev.DiceSecretRevealed) for e in events)


def test_the_secret_must_match_the_commitment() -> None:
    with pytest.raises(ValueError, match="commitment"):
        create("b", sealed_setup(), secret=OTHER)
    state = replay(create("b", sealed_setup(), secret=SECRET))
    with pytest.raises(ValueError, match="commitment"):
        dice_for(state, secret=OTHER)
    assert isinstance(dice_for(state, secret=SECRET), SealedDice)
    # Without the secret (a trial decision: legal actions) the system source rolls.
    assert isinstance(dice_for(state), SecretsDice)


def test_the_same_secret_gives_the_same_battle_and_another_secret_another() -> None:
    def orders(secret: bytes) -> list[tuple[str, ...]]:
        return [
            e.order
            for e in create("b", sealed_setup(secret), secret=secret)
            if isinstance(e, ev.DeckShuffled)
        ]

    assert orders(SECRET) == orders(SECRET)
    assert orders(SECRET) != orders(OTHER)


def test_nothing_public_predicts_the_dice() -> None:
    """Whatever a player can read while the battle runs (the setup with its commitment, the
    battle id, the versions) gives other deck orders than the secret does: a 30-card
    order matches by chance once in 30! tries."""
    events = create("b", sealed_setup(), secret=SECRET)
    actual = [e.order for e in events if isinstance(e, ev.DeckShuffled)]
    commitment = dice_commitment(SECRET)
    guesses = [
        SealedDice(bytes.fromhex(commitment), 1),
        SealedDice(hashlib.sha256(b"b").digest(), 1),
        SealedDice(bytes(32), 1),
        SeededDice(1),
        SeededDice(int(commitment, 16) % 2**63),
    ]
    created = events[0]
    assert isinstance(created, ev.BattleCreated)
    from battles.engine.battle.decide import deal

    for dice in guesses:
        guessed = [e.order for e in deal(created, dice) if isinstance(e, ev.DeckShuffled)]
        assert all(g != a for g, a in zip(guessed, actual, strict=True))


# --- the reveal and the check --------------------------------------------------------------------


def test_the_end_reveals_the_secret_and_every_roll_derives_again(
    finished: list[RecordedCommand],
) -> None:
    last = finished[-1].events
    assert [e.type for e in last][-2:] == ["BattleWon", "DiceSecretRevealed"]
    assert last[-1] == ev.DiceSecretRevealed(SECRET.hex())
    revealed = [e for rc in finished for e in rc.events if isinstance(e, ev.DiceSecretRevealed)]
    assert len(revealed) == 1
    report = check_dice(finished)
    assert report == DiceCheck("verified", dice_commitment(SECRET), len(finished) - 1)
    assert report.ok and len(finished) > 20


def test_a_battle_the_gm_ends_reveals_its_secret_too() -> None:
    ended = play_sealed(5)
    assert [e.type for e in ended[-1].events] == ["BattleEnded", "DiceSecretRevealed"]
    assert check_dice(ended).status == "verified"


def test_a_tampered_roll_is_reported_with_its_version(finished: list[RecordedCommand]) -> None:
    i, j, version = located(finished, ev.InitiativeRolled)
    rolled = finished[i].events[j]
    assert isinstance(rolled, ev.InitiativeRolled)
    throws = list(rolled.throws)
    first = throws[0]
    throws[0] = ((first[0][0], 7 - first[0][1]), *first[1:])
    report = check_dice(tampered(finished, i, j, throws=tuple(throws)))
    assert (report.ok, report.status, report.first_broken_version) == (False, "broken", version)
    assert report.reason is not None and "InitiativeRolled.throws" in report.reason


def test_a_tampered_attack_roll_is_reported_with_its_version(
    finished: list[RecordedCommand],
) -> None:
    i, j, version = located(finished, ev.AttackRolled)
    rolled = finished[i].events[j]
    assert isinstance(rolled, ev.AttackRolled)
    faces = tuple(7 - f if n == 0 else f for n, f in enumerate(rolled.faces))
    report = check_dice(tampered(finished, i, j, faces=faces))
    assert (report.status, report.first_broken_version) == ("broken", version)
    assert "AttackRolled.faces" in (report.reason or "")


def test_a_tampered_opening_shuffle_is_reported_with_its_version(
    finished: list[RecordedCommand],
) -> None:
    i, j, version = located(finished, ev.DeckShuffled, after=0)
    assert (i, version) == (0, 2)
    shuffled = finished[0].events[j]
    assert isinstance(shuffled, ev.DeckShuffled)
    order = (*shuffled.order[1:], shuffled.order[0])
    report = check_dice(tampered(finished, i, j, order=order))
    assert (report.status, report.first_broken_version) == ("broken", 2)


def test_a_revealed_secret_other_than_the_committed_one_is_reported(
    finished: list[RecordedCommand],
) -> None:
    i, j, version = located(finished, ev.DiceSecretRevealed)
    report = check_dice(tampered(finished, i, j, secret=OTHER.hex()))
    assert (report.status, report.first_broken_version) == ("broken", version)
    assert "commitment" in (report.reason or "")
    assert check_dice(tampered(finished, i, j, secret="zz")).first_broken_version == version


def test_a_command_without_its_body_cannot_be_checked(finished: list[RecordedCommand]) -> None:
    commands = [*finished[:3], replace(finished[3], body=None), *finished[4:]]
    report = check_dice(commands)
    first = sum(len(rc.events) for rc in finished[:3]) + 1
    assert (report.status, report.first_broken_version) == ("broken", first)


def test_a_running_battle_is_sealed_and_nothing_is_checked() -> None:
    running = play_sealed(10, end=False)
    assert check_dice(running) == DiceCheck("sealed", dice_commitment(SECRET))
    assert not any(
        isinstance(e, ev.DiceSecretRevealed) for rc in running for e in rc.events
    ) and SECRET.hex() not in json.dumps([asdict(e) for rc in running for e in rc.events])


def test_public_seeds_tables_and_older_battles_have_nothing_to_check() -> None:
    def status(setup: dict[str, Any]) -> str:
        return check_dice([RecordedCommand("c", None, tuple(create("b", setup)))]).status

    assert status(demo_setup(seed=3)) == "public_seed"
    assert status({**demo_setup(seed=None), "dice": {"mode": "table"}}) == "table"
    # Created before commitments: system dice, nothing committed to.
    assert status(demo_setup(seed=None)) == "unsealed"


def test_the_secret_is_revealed_only_at_the_end_and_only_if_it_matches() -> None:
    state = replay(create("b", sealed_setup(), secret=SECRET))
    with pytest.raises(ValueError, match="ends"):
        reveal(state, SECRET)
    over = replay(decide(state, parse_command(end_battle(state))), state)
    with pytest.raises(ValueError, match="commitment"):
        reveal(over, OTHER)
    assert reveal(over, SECRET) == ev.DiceSecretRevealed(SECRET.hex())


def test_the_end_that_revealed_the_dice_cannot_be_reverted(
    finished: list[RecordedCommand],
) -> None:
    before = replay(e for rc in finished[:-1] for e in rc.events)
    after = replay(finished[-1].events, before)
    assert after.over and after.dice_revealed
    revert = parse_command({"type": "revert", "command_id": finished[-1].command_id, "reason": "x"})
    with pytest.raises(RuleViolation) as err:
        decide(after, revert, before=before)
    assert (err.value.code, err.value.rule) == ("dice_revealed", "R-ADD-45")


def test_a_revert_in_a_sealed_battle_is_decided_again_too() -> None:
    """The GM reverts the latest command (R-ADD-24); `check_dice` decides the revert on
    the state before the command it names, as the command service does."""
    events = create("b", sealed_setup(), secret=SECRET)
    commands = [RecordedCommand("create-b", None, tuple(events))]
    state = replay(events)
    rng = random.Random(3)
    starts: dict[str, BattleState] = {}
    for n in range(12):
        if n == 6:
            latest = commands[-1].command_id
            body: dict[str, Any] = {"type": "revert", "command_id": latest, "reason": "oops"}
            before = starts[latest]
        else:
            body, before = choose(state, list(legal_actions(state)), rng), None
        new = decide(state, parse_command(body), dice_for(state, secret=SECRET), before=before)
        starts[f"c{n}"] = state
        state = replay(new, state)
        commands.append(RecordedCommand(f"c{n}", body, tuple(new)))
    assert any(e.type == "CommandReverted" for rc in commands for e in rc.events)
    body = end_battle()
    new = decide(state, parse_command(body), dice_for(state, secret=SECRET))
    state = replay(new, state)
    new.append(reveal(state, SECRET))
    commands.append(RecordedCommand("end", body, tuple(new)))
    assert check_dice(commands).status == "verified"


# --- what this engine cannot check (R-ADD-205) -----------------------------------------------------


def test_a_battle_recorded_by_another_engine_version_is_not_called_broken(
    finished: list[RecordedCommand],
) -> None:
    created = finished[0].events[0]
    assert isinstance(created, ev.BattleCreated)
    older = tampered(finished, 0, 0, engine_version="0.9.0")
    report = check_dice(older)
    assert (report.status, report.ok, report.first_broken_version) == ("cannot_check", True, None)
    assert "engine 0.9.0" in (report.reason or "") and "cannot be checked" in (report.reason or "")
    # Its secret is still checked against its commitment, whatever the engine.
    i, j, version = located(older, ev.DiceSecretRevealed)
    wrong = check_dice(tampered(older, i, j, secret=OTHER.hex()))
    assert (wrong.status, wrong.first_broken_version) == ("broken", version)


def test_a_battle_under_a_ruleset_this_engine_does_not_know_is_not_called_broken(
    finished: list[RecordedCommand],
) -> None:
    created = finished[0].events[0]
    assert isinstance(created, ev.BattleCreated)
    setup = {**created.setup, "rules": {"version": "9.9", "options": {}}}
    report = check_dice(tampered(finished, 0, 0, setup=setup))
    assert report.status == "cannot_check"
    assert "ruleset '9.9'" in (report.reason or "")


def test_a_battle_is_checked_under_its_own_pinned_ruleset() -> None:
    """A sealed battle played under ruleset 2.0 (not today's default) verifies: its commands
    are decided again under 2.0, the ruleset its BattleCreated pinned (R-ADD-205)."""
    played = play_sealed(600, seed=2, ruleset="2.0")
    created = played[0].events[0]
    assert isinstance(created, ev.BattleCreated)
    assert created.setup["rules"]["version"] == "2.0" != DEFAULT_VERSION
    assert check_dice(played).status == "verified"
    # The same commands claimed for the other ruleset do not decide to the same events.
    setup = {**created.setup, "rules": {**created.setup["rules"], "version": DEFAULT_VERSION}}
    claimed = check_dice(tampered(played, 0, 0, setup=setup))
    assert claimed.status == "broken", claimed
