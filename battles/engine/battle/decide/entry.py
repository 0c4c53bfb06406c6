"""The entry points: create a battle, deal it, decide a command (R-TRN-1, R-ADD-18, R-ADD-45)."""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import RuleViolation
from ...ruleset import ENGINE_VERSION
from .. import events as ev
from ..commands import Command, Revert
from ..evolve import evolve
from ..randomness import (
    DiceSource,
    SealedDice,
    SecretsDice,
    SeededDice,
    TableDice,
    dice_commitment,
)
from ..setup import parse_setup
from ..state import (
    HAND_SIZE,
    WOUND_DECK,
    BattleState,
)
from . import actions, flow, gm, prompts, reactions, resolution
from .effects.table import RESOLVERS
from .tx import _Tx


def dice_for(
    state: BattleState | None, command: Command | None = None, *, secret: bytes | None = None
) -> DiceSource:
    """The dice a command is decided with (R-ADD-18, R-ADD-45).

    Digital battles with sealed dice derive every roll from the battle's `secret` and the
    version the command applies to (the secret must match the setup's commitment);
    without the secret (a trial decision) they roll with `secrets`, as do battles created
    before commitments. A public seed is mixed with the version the command applies to,
    so a seeded battle is the same battle whoever replays its commands. Table battles use
    the faces the command reports.

    >>> dice_for(None).d6(1, purpose="x", rule="R-TRN-2")[0] in range(1, 7)
    True
    """
    if state is not None and state.dice_mode == "table":
        return TableDice(command.faces if command else ())
    if state is not None and state.seed is not None:
        return SeededDice(state.seed * 1_000_003 + state.version)
    if secret is not None:
        if state is None or state.dice_commitment != dice_commitment(secret):
            raise ValueError("the dice secret does not match the battle's commitment (R-ADD-45)")
        return SealedDice(secret, state.version)
    return SecretsDice()


def reveal(state: BattleState, secret: bytes) -> ev.DiceSecretRevealed:
    """The event that opens a finished battle's sealed dice (R-ADD-45): recorded with the
    event that ends it, so from then on anyone can derive every roll again.

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.evolve import replay
    >>> reveal(replay(create("b1", demo_setup(seed=3))), bytes(32))
    Traceback (most recent call last):
    ...
    ValueError: the dice secret does not match the battle's commitment (R-ADD-45)
    """
    if state.dice_commitment is None or state.dice_commitment != dice_commitment(secret):
        raise ValueError("the dice secret does not match the battle's commitment (R-ADD-45)")
    if not state.over:
        raise ValueError("a battle's dice secret is revealed only when the battle ends (R-ADD-45)")
    return ev.DiceSecretRevealed(secret.hex())


def create(
    battle_id: str, setup: object, dice: DiceSource | None = None, *, secret: bytes | None = None
) -> list[ev.Event]:
    """The events that create a battle: setup recorded, decks shuffled, hands dealt (R-TRN-1).

    `setup` is validated (InvalidInput names the field). With policy `auto` every hand
    is kept and round 1 starts at once. `secret` seals the dice (R-ADD-45): the setup's
    `dice.commitment` must be its SHA-256, and the creation's shuffles derive from it and
    version 1, the state after BattleCreated.

    >>> from battles.engine.demo import demo_setup
    >>> events = create("b1", demo_setup(seed=3))
    >>> [e.type for e in events[:4]]
    ['BattleCreated', 'DeckShuffled', 'WoundDeckShuffled', 'CardsDrawn']
    """
    normalised = parse_setup(setup)
    created = ev.BattleCreated(battle_id, normalised, ENGINE_VERSION)
    if secret is not None:
        dice = dice_for(evolve(None, created), secret=secret)
    return [created, *deal(created, dice)]


def deal(created: ev.BattleCreated, dice: DiceSource | None = None) -> list[ev.Event]:
    """The events after BattleCreated that `create` decides with `dice`: decks shuffled,
    hands dealt, mulligan prompts, and with policy `auto` round 1 (R-TRN-1)."""
    normalised = created.setup
    state = evolve(None, created)
    tx = _Tx(state, dice if dice is not None else dice_for(state), RESOLVERS)
    for c in state.seats:
        order, known = tx.shuffle(c.deck, "the casket deck")
        tx.emit(ev.DeckShuffled(c.seat, order, known, "setup"))
        carried = tuple(normalised["seats"][c.seat]["pilot"]["carried_wounds"])
        rest = [w for w in WOUND_DECK if w not in carried]
        wound_order, known = tx.shuffle(rest, "the pilot wound deck")
        tx.emit(ev.WoundDeckShuffled(c.seat, wound_order, carried, known))
        if not tx.table:
            tx.emit(
                ev.CardsDrawn(
                    c.seat,
                    tx.take(tx.seat(c.seat).deck, HAND_SIZE, "", ""),
                    "opening hand",
                    "R-TRN-1",
                )
            )
    for c in state.seats:
        resolution._open_prompt(
            tx, c.seat, "mulligan", 0, None, "R-TRN-1", "keep the hand or mulligan once"
        )
    flow._advance(tx)
    return tx.events


def decide(
    state: BattleState,
    command: Command,
    dice: DiceSource | None = None,
    *,
    before: BattleState | None = None,
) -> list[ev.Event]:
    """The events `command` causes in `state`, or a RuleViolation and nothing.

    `before` is the state before the command a `Revert` names (the service replays it).

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.evolve import replay
    >>> from battles.engine.battle.commands import parse_command
    >>> s = replay(create("b1", demo_setup(seed=3)))
    >>> seat = s.active
    >>> [e.type for e in decide(s, parse_command({"type": "rotate", "seat": seat, "facing": 3}))]
    ['CasketRotated']
    >>> decide(s, parse_command({"type": "pass", "seat": 1 - seat}))
    Traceback (most recent call last):
    ...
    battles.engine.errors.RuleViolation: It is seat 1's turn, not seat 0's (R-TRN-5)
    """
    return list(decided(state, command, dice, before=before).events)


@dataclass(frozen=True)
class Decision:
    """The events a command causes and the state they lead to.

    One pass: each event is folded as it is decided (`_Tx.emit`), so `state` is the state
    the rules read while deciding, with no second fold of the events.
    """

    events: tuple[ev.Event, ...]
    state: BattleState


def decided(
    state: BattleState,
    command: Command,
    dice: DiceSource | None = None,
    *,
    before: BattleState | None = None,
) -> Decision:
    """`decide`'s events for `command` in `state` and the state they lead to, or a
    RuleViolation and nothing; `before` as for `decide`.

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.evolve import replay
    >>> from battles.engine.battle.commands import parse_command
    >>> s = replay(create("b1", demo_setup(seed=3)))
    >>> d = decided(s, parse_command({"type": "rotate", "seat": s.active, "facing": 3}))
    >>> d.state == replay(d.events, s), d.state.seats[s.active].facing
    (True, 3)
    """
    if state.dice_mode == "digital" and (command.faces or command.drawn):
        raise RuleViolation(
            "table_mode_only",
            "this battle rolls its own dice and draws its own cards: 'faces' and 'drawn' "
            "are for table battles",
            "R-ADD-18",
        )
    if command.seat >= len(state.seats):
        raise RuleViolation(
            "no_such_seat", f"the battle has seats 0..{len(state.seats) - 1}", "R-TRN-1"
        )
    if state.over and "campaign" in state.setup:
        raise RuleViolation(
            "outcome_handed_over",
            "this mission's battle is over and its outcome belongs to the campaign: "
            "correct the campaign (GM adjustments) instead of the battle",
            "R-ADD-32",
        )
    tx = _Tx(
        state,
        dice if dice is not None else dice_for(state, command),
        RESOLVERS,
        list(command.drawn),
    )
    decks = [len(c.deck) for c in state.seats]
    if isinstance(command, Revert):
        gm._revert(tx, command, before)
        return Decision(tuple(tx.events), tx.state)
    if state.over:
        raise RuleViolation("battle_over", "the battle is over", "R-TRN-8")
    if command.GM_ONLY:
        gm._adjust(tx, command)
    elif isinstance(command, prompts.PROMPT_ANSWERS):
        prompts._answer(tx, command)
    else:
        actions._act(tx, command)
    # R-ADD-370: a deck fallen to a held card's threshold, by the command or by the turn
    # flow after it (draws), opens that card's window once each has resolved.
    reactions._low_deck_windows(tx, decks)
    decks = [len(c.deck) for c in tx.state.seats]
    flow._advance(tx)
    reactions._low_deck_windows(tx, decks)
    if tx.drawn:
        raise RuleViolation(
            "unused_cards_reported",
            f"the command reported cards it did not use: {tx.drawn}",
            "R-ADD-18",
        )
    if isinstance(tx.dice, TableDice) and tx.dice.unused():
        raise RuleViolation(
            "unused_dice_reported",
            f"the command reported {tx.dice.unused()} die face(s) more than it rolled",
            "R-ADD-18",
        )
    return Decision(tuple(tx.events), tx.state)
