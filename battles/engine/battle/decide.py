"""`decide(state, command, dice) -> events`: the rules of a battle turn.

`decide` validates a command (a `RuleViolation` with code, message and ruling
names any refusal, and nothing is decided) and is the only place randomness is
drawn: every die face, shuffle and wound flip lands in an event, so `evolve`
replays without dice. Phases that need nobody's decision (Refresh, Draw, End,
the next turn, the next round) run inside the command that leads into them, up
to the next point where a player must act or answer a prompt.

The working state advances event by event through `evolve`, so each rule reads
the state exactly as the events so far left it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise

from ..arcs import candidate_sides, rotation_cost, rotation_steps
from ..cards import (
    MAX_SEEDS,
    AfterAttackEffect,
    AttackBonusEffect,
    AttackEffect,
    BuffNextAttackEffect,
    BuffThisTurnEffect,  # issue 17, triggers
    CardDef,
    Condition,
    CounterEffect,
    DamageNextTurnEffect,
    DefenceEffect,
    DestroyOnCriticalEffect,  # issue 17, triggers
    DetonateSeedsEffect,
    DiscardChosenEffect,
    DiscardEffect,
    DiscardHandEffect,
    DrawEffect,
    Effect,
    FreePassageEffect,  # issue 17, triggers
    GainTokensEffect,
    GrantMoveEffect,
    HeatCapacityEffect,  # issue 17, triggers
    HeatEffect,
    HinderEffect,
    IgnoreCoverEffect,
    LastingBonusEffect,  # issue 17, triggers
    LimitEffect,
    MoveEffect,
    PlantSeedsEffect,
    RecoverEffect,
    ReduceIncomingEffect,
    RemoveFromGameEffect,
    RemoveHeatRolledEffect,
    RiposteEffect,  # issue 17, triggers
    RollSufferingEffect,
    RotateEffect,
    SelfDamageEffect,  # issue 17, triggers
    ShuffleInEffect,
    SpBoostEffect,  # issue 17, triggers
    SpendTokensEffect,
    SpPenaltyEffect,
    StatusEffect,
    TaintCounterEffect,  # issue 17, triggers
    TaintEffect,
    ThornsEffect,  # issue 17, triggers
    TokenCostEffect,  # issue 17, triggers
    TriggerEffect,
    UnflankableEffect,  # issue 17, triggers
    WhenEffect,
    WindowEffect,
)
from ..dice import (
    STRAIN_AUTO_FAIL_HEAT,
    SUFFERING_DIE,
    attack_result,
    component_for_roll,
    defence_result,
    strain_result,
)
from ..errors import RuleViolation
from ..hexes import Hex
from ..movement import validate_path
from ..ruleset import ENGINE_VERSION
from ..tohit import (
    ATTACKER_STATUSES,
    TARGET_STATUSES,
    Attacker,
    Modifier,
    Target,
    ToHit,
    Weapon,
    to_hit,
)
from . import events as ev
from .commands import (
    AdjustComponentDamage,
    AdjustHeat,
    AdjustTaint,
    Attack,
    Command,
    DiscardDown,
    EndBattle,
    KeepHand,
    Move,
    Mulligan,
    NoReactive,
    Pass,
    Pay,
    PlayCard,
    PlayReactive,
    Relocate,
    ReturnCard,
    Revert,
    Rotate,
    TakeDamage,
    Vent,
    Withdraw,
)
from .evolve import evolve
from .randomness import (
    DiceSource,
    SealedDice,
    SecretsDice,
    SeededDice,
    TableDice,
    dice_commitment,
)
from .setup import parse_setup
from .snapshot import state_to_dict
from .state import (
    ACTION,
    END,
    HAND_SIZE,
    SETUP,
    SP_MAXIMUM,
    STRAIN_HEAT,
    TAINT_OVERLOAD,
    WOUND_DECK,
    BattleState,
    CasketState,
    card_id,
)

VENT_COST = 2  # seed 002 "Common Actions": Vent Heat, 2 SP, remove 3 Heat (R-ADD-19)
VENT_HEAT = 3
NEURAL_FEEDBACK_EVERY = 5  # R-DMG-7
SURVIVAL_WOUND_FACES = (1, 2, 3)  # R-PLT-3: on 1–3 the pilot takes 2 wounds
SURVIVAL_WOUNDS = 2
JAM_HEAT = 2  # catastrophic failure, seed 001 (R-HIT-4, R-DMG-1)
PROMPT_COMMANDS = {
    "mulligan": (KeepHand, Mulligan),
    "reactive": (PlayReactive, NoReactive),
    "take_damage": (TakeDamage,),
    "discard_down": (DiscardDown,),
    "discard": (DiscardDown,),  # a card's "discard N of your choice" (R-ADD-62)
}
# The ruling behind each prompt, cited when an answer comes without its prompt.
PROMPT_RULES = {
    "mulligan": "R-TRN-1",
    "reactive": "R-REA-1",
    "take_damage": "R-DMG-6",
    "discard_down": "R-TRN-7",
    "discard": "R-ADD-62",
}


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


@dataclass
class _Tx:
    """The events decided so far and the state they lead to."""

    state: BattleState
    dice: DiceSource
    drawn: list[str] = field(default_factory=list)
    events: list[ev.Event] = field(default_factory=list)

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    @property
    def table(self) -> bool:
        return self.state.dice_mode == "table"

    def seat(self, n: int) -> CasketState:
        return self.state.seats[n]

    def take(self, pile: Sequence[str], n: int, purpose: str, rule: str) -> tuple[str, ...]:
        """The top `n` of an ordered pile; at a table, the cards the command reports (R-ADD-18)."""
        if not self.table:
            return tuple(pile[:n])
        remaining = list(pile)
        out: list[str] = []
        for _ in range(n):
            if not self.drawn:
                raise RuleViolation(
                    "cards_not_reported",
                    f"{purpose} takes {n} card(s) from a pile whose order only the table "
                    f"knows: report them in 'drawn'",
                    rule,
                )
            name = self.drawn.pop(0)
            match = next(
                (
                    c
                    for c in remaining
                    # A wound kind ("minor") names any wound of that kind; a card is named
                    # by its instance or card id only, never by a prefix of another id.
                    if c == name
                    or card_id(c) == name
                    or ("#" not in c and c.startswith(name + "-"))
                ),
                None,
            )
            if match is None:
                raise RuleViolation(
                    "card_not_in_deck", f"{name!r} is not in the pile {purpose} takes from", rule
                )
            remaining.remove(match)
            out.append(match)
        return tuple(out)

    def shuffle(self, cards: Sequence[str], purpose: str) -> tuple[tuple[str, ...], bool]:
        if self.table:
            return tuple(cards), False
        return self.dice.shuffle(cards, purpose=purpose), True


# --- creation ------------------------------------------------------------------------------------


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
    tx = _Tx(state, dice if dice is not None else dice_for(state))
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
        _open_prompt(tx, c.seat, "mulligan", 0, None, "R-TRN-1", "keep the hand or mulligan once")
    _advance(tx)
    return tx.events


# --- the entry point -----------------------------------------------------------------------------


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
    tx = _Tx(state, dice if dice is not None else dice_for(state, command), list(command.drawn))
    if isinstance(command, Revert):
        _revert(tx, command, before)
        return tx.events
    if state.over:
        raise RuleViolation("battle_over", "the battle is over", "R-TRN-8")
    if command.GM_ONLY:
        _adjust(tx, command)
    elif isinstance(
        command, KeepHand | Mulligan | PlayReactive | NoReactive | TakeDamage | DiscardDown
    ):
        _answer(tx, command)
    else:
        _act(tx, command)
    _advance(tx)
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
    return tx.events


# --- flow: prompts, turns, rounds ----------------------------------------------------------------


def _open_prompt(
    tx: _Tx, seat: int, kind: str, amount: int, component: str | None, rule: str, reason: str
) -> None:
    # A table's opening hand is known only once the table reports it (keep_hand with
    # `drawn`), so even policy `auto` leaves a table's mulligan prompt open.
    if tx.state.policy == "auto" and not (tx.table and kind == "mulligan"):
        _auto_answer(tx, seat, kind, amount, component)
        return
    tx.emit(ev.PromptOpened(seat, kind, amount, component, rule, reason))


def _auto_answer(tx: _Tx, seat: int, kind: str, amount: int, component: str | None) -> None:
    """Policy `auto`: keep hands, play no reactive card, take damage from the deck, discard
    the newest cards down to 6 (issue 4)."""
    if kind == "mulligan":
        tx.emit(ev.HandKept(seat))
    elif kind == "reactive":
        tx.emit(ev.ReactiveDeclined(seat))
        _roll_defence(tx)
    elif kind == "take_damage":
        _take_damage(tx, seat, (), amount, component)
        _after_damage(tx)
    elif kind == "discard_down":
        hand = tx.seat(seat).hand
        tx.emit(ev.CardsDiscarded(seat, hand[len(hand) - amount :], (), "discard down", "R-TRN-7"))
    elif kind == "discard":
        hand = tx.seat(seat).hand
        tx.emit(ev.CardsDiscarded(seat, hand[len(hand) - amount :], (), "chosen", "R-ADD-62"))


def _advance(tx: _Tx) -> None:
    """Run the phases that need nobody's decision, up to the next decision."""
    while not tx.state.over and not tx.state.prompts:
        s = tx.state
        if s.phase == SETUP:
            if not all(c.hand_decided for c in s.seats):
                return
            _start_round(tx, 1)
        elif s.phase == END:
            _finish_turn(tx)
        elif s.phase == ACTION:
            active = s.active
            if active is None:
                _end_round(tx)
            elif not tx.seat(active).in_battle and s.attack is None:
                # A casket defeated (R-ADD-26) or withdrawn (R-TRN-9) in its own turn ends
                # that turn at once.
                _finish_turn(tx)
            else:
                return
        else:
            return


def _start_round(tx: _Tx, n: int) -> None:
    tx.emit(ev.RoundStarted(n))
    seats = tx.state.seats
    contenders = [c.seat for c in seats if c.in_battle]
    throws: list[tuple[tuple[int, int], ...]] = []
    # R-TRN-2: everyone rolls 1d6; those tied for the highest re-roll among themselves.
    while True:
        faces = tx.dice.d6(len(contenders), purpose="the initiative roll", rule="R-TRN-2")
        throws.append(tuple(zip(contenders, faces, strict=True)))
        best = max(faces)
        contenders = [s for s, f in zip(contenders, faces, strict=True) if f == best]
        if len(contenders) == 1:
            break
    first = contenders[0]
    n_seats = len(seats)
    order = tuple(
        (first + i) % n_seats for i in range(n_seats) if seats[(first + i) % n_seats].in_battle
    )
    tx.emit(ev.InitiativeRolled(tuple(throws), order))
    for seat in order:  # R-ADD-137: "at the start of each round", in turn order
        _triggers(tx, seat, "start_of_round")
    _start_turn(tx, order[0])


def _sp_lines(c: CasketState) -> tuple[tuple[str, int, str], ...]:
    lines = [(f"{c.casket_class} casket", SP_MAXIMUM[c.casket_class], "R-TRN-3")]
    if "chassis" in c.destroyed:
        lines.append(("chassis destroyed", -1, "R-TRN-3"))
    if c.pilot_sp_modifier:
        lines.append(("pilot", c.pilot_sp_modifier, "R-TRN-3"))
    return tuple(lines)


def _start_turn(tx: _Tx, seat: int) -> None:
    penalty = tx.seat(seat).sp_penalty  # TurnStarted clears it
    scheduled = tx.seat(seat).damage_next_turn  # TurnStarted clears it too
    tx.emit(ev.TurnStarted(seat))
    c = tx.seat(seat)
    lines = _sp_lines(c)
    tx.emit(ev.SpRestored(seat, max(0, sum(v for _, v, _ in lines)), lines))
    if penalty:  # R-ADD-65: an enemy card's "−N SP next turn"
        tx.emit(ev.SpDrained(seat, min(penalty, tx.seat(seat).sp_max), "R-ADD-65"))
    _triggers(tx, seat, "start_of_turn")
    c = tx.seat(seat)
    heat = c.heat
    if heat < STRAIN_HEAT:
        _scheduled_damage(tx, seat, scheduled)
        return
    # R-ADD-136: "up to 12 Heat before overheating" moves the automatic critical failure.
    effects = [e for x in c.in_play for e in tx.state.card(x).effects]
    capacities = [e.heat for e in effects if isinstance(e, HeatCapacityEffect)]
    auto_fail = max([STRAIN_AUTO_FAIL_HEAT, *capacities])
    roll = (
        None if heat >= auto_fail else tx.dice.d6(1, purpose="the strain roll", rule="R-TRN-4")[0]
    )
    result = strain_result(roll, heat, auto_fail=auto_fail)
    tx.emit(ev.StrainChecked(seat, heat, result.roll, result.total, result.outcome))
    if result.heat_gained:
        _change_heat(tx, seat, result.heat_gained, "strain: minor overload", "R-TRN-4")
    elif result.sp_lost:
        tx.emit(ev.SpDrained(seat, result.sp_lost, "R-TRN-4"))
    elif result.damage:
        # R-ADD-73: damage scheduled for this turn is taken with the strain damage, as
        # one discard (one prompt).
        reason = "strain: system damage (R-TRN-4)"
        if scheduled:
            reason += " and damage scheduled by a card (R-ADD-73)"
        _inflict(tx, seat, result.damage + scheduled, None, reason)
        return
    elif result.critical_failure:
        face = tx.dice.d6(1, purpose="the malfunction component roll", rule="R-TRN-4")[0]
        _component_damage(
            tx, seat, component_for_roll(face), 1, "strain: critical failure", "R-TRN-4"
        )
    _scheduled_damage(tx, seat, scheduled)


def _scheduled_damage(tx: _Tx, seat: int, amount: int) -> None:
    """R-ADD-73: poison or fire an enemy's card scheduled for the start of this turn."""
    if amount:
        _inflict(tx, seat, amount, None, "damage scheduled by a card (R-ADD-73)")


def _end_turn(tx: _Tx, seat: int) -> None:
    """Draw (R-TRN-6) and End (R-TRN-7) for the seat that passed."""
    c = tx.seat(seat)
    if len(c.hand) < HAND_SIZE:
        _draw(tx, seat, HAND_SIZE - len(c.hand), "draw phase")
    c = tx.seat(seat)
    if not c.in_battle:
        return
    _triggers(tx, seat, "end_of_turn")  # R-TRN-7: end-of-turn effects
    c = tx.seat(seat)
    water = tx.state.board.terrain_at(c.at).heat_end_of_turn
    if water and c.heat:
        _change_heat(tx, seat, water, "end of turn in water", "R-TRN-7")
    if not c.acted and tx.seat(seat).heat:
        _change_heat(tx, seat, -1, "a turn without actions", "R-TRN-5")
    excess = len(tx.seat(seat).hand) - HAND_SIZE
    if excess > 0:
        _open_prompt(tx, seat, "discard_down", excess, None, "R-TRN-7", f"discard {excess} card(s)")
        if tx.state.prompts:
            return
    _finish_turn(tx)


def _finish_turn(tx: _Tx) -> None:
    s = tx.state
    seat = s.order[s.turn]
    tx.emit(ev.TurnEnded(seat))
    s = tx.state
    for i in range(s.turn, len(s.order)):
        if s.seats[s.order[i]].in_battle:
            _start_turn(tx, s.order[i])
            return


def _end_round(tx: _Tx) -> None:
    for seat in tx.state.order:  # R-ADD-137: "at the end of each round", in turn order
        _triggers(tx, seat, "end_of_round")
    s = tx.state
    tx.emit(ev.RoundEnded(s.round))
    standing = sorted({c.side for c in s.seats if c.in_battle})
    if len(standing) == 1:
        tx.emit(ev.BattleWon(standing[0], "the last side with an undefeated casket", "R-TRN-8"))
    elif not standing:
        tx.emit(ev.BattleWon(None, "every casket is defeated: a draw", "R-TRN-8"))
    elif s.ruleset.round_limit is not None and s.round >= s.ruleset.round_limit:
        _round_limit_reached(tx)
    else:
        _start_round(tx, s.round + 1)


def _round_limit_reached(tx: _Tx) -> None:
    """R-TRN-9 (c): the side whose caskets still in the battle have the most HP (deck and
    discard, R-DMG-9) wins; equal HP is a draw."""
    s = tx.state
    hp: dict[str, int] = {}
    for c in s.seats:
        if c.in_battle:
            hp[c.side] = hp.get(c.side, 0) + c.hp
    best = max(hp.values())
    leaders = sorted(side for side, v in hp.items() if v == best)
    counts = ", ".join(f"{side} {v}" for side, v in sorted(hp.items()))
    if len(leaders) == 1:
        reason = f"round limit {s.ruleset.round_limit}: the most HP ({counts})"
        tx.emit(ev.BattleWon(leaders[0], reason, "R-TRN-9"))
    else:
        reason = f"round limit {s.ruleset.round_limit}: equal HP ({counts}), a draw"
        tx.emit(ev.BattleWon(None, reason, "R-TRN-9"))


# --- cards moving between zones ------------------------------------------------------------------


def _reshuffle(tx: _Tx, seat: int) -> None:
    c = tx.seat(seat)
    damage = f"damage#{c.damage_cards + 1}"
    order, known = tx.shuffle((*c.discard, damage), "the discard pile")
    tx.emit(ev.DeckReshuffled(seat, order, damage, known))


def _draw(tx: _Tx, seat: int, n: int, reason: str) -> None:
    """Draw one at a time; an empty deck reshuffles the discard pile with a Damage card, and a
    draw from an empty deck and discard pile defeats the casket (R-TRN-6)."""
    batch: list[str] = []
    for _ in range(n):
        c = tx.seat(seat)
        if len(c.deck) == len(batch):
            if batch:
                tx.emit(ev.CardsDrawn(seat, tuple(batch), reason, "R-TRN-6"))
                batch = []
            c = tx.seat(seat)
            if not c.discard:
                if tx.state.ruleset.damage_pile:
                    _out_of_cards(tx, seat)
                else:
                    _defeat(
                        tx, seat, "needed to draw with an empty deck and discard pile", "R-TRN-6"
                    )
                return
            _reshuffle(tx, seat)
            c = tx.seat(seat)
        remaining = [x for x in c.deck if x not in batch]
        batch.extend(tx.take(remaining, 1, reason, "R-TRN-6"))
    if batch:
        tx.emit(ev.CardsDrawn(seat, tuple(batch), reason, "R-TRN-6"))
    _check_hp(tx, seat)


def _check_hp(tx: _Tx, seat: int) -> None:
    """Ruleset 2.1: the moment deck and discard pile are both empty the casket is defeated,
    whatever its hand holds (R-DMG-9)."""
    c = tx.seat(seat)
    if tx.state.ruleset.damage_pile and c.in_battle and not c.deck and not c.discard:
        _out_of_cards(tx, seat)


def _out_of_cards(tx: _Tx, seat: int) -> None:
    _defeat(tx, seat, "its deck and discard pile are empty: no HP left", "R-DMG-9")


def _change_heat(tx: _Tx, seat: int, amount: int, reason: str, rule: str) -> None:
    heat = max(0, tx.seat(seat).heat + amount)
    if heat != tx.seat(seat).heat:
        tx.emit(ev.HeatChanged(seat, heat - tx.seat(seat).heat, heat, reason, rule))


def _hand_cards(
    c: CasketState, names: Sequence[str], field_name: str, rule: str
) -> tuple[str, ...]:
    """Resolve card names (instance ids or card ids) to distinct instances in the hand."""
    hand = list(c.hand)
    out: list[str] = []
    for name in names:
        match = next((x for x in hand if x == name or card_id(x) == name), None)
        if match is None:
            raise RuleViolation(
                "card_not_in_hand", f"{field_name}: {name!r} is not in seat {c.seat}'s hand", rule
            )
        hand.remove(match)
        out.append(match)
    return tuple(out)


# --- damage, components, wounds ------------------------------------------------------------------


def _inflict(tx: _Tx, seat: int, amount: int, component: str | None, reason: str) -> None:
    """Damage the defender must discard: their choice of split unless there is none (R-DMG-6)."""
    amount = _reduce_taken(tx, seat, amount)
    if amount <= 0 or not tx.seat(seat).in_battle:
        _after_damage(tx)
        return
    if not tx.seat(seat).hand:
        _take_damage(tx, seat, (), amount, component)
        _after_damage(tx)
        return
    _open_prompt(tx, seat, "take_damage", amount, component, "R-DMG-6", reason)


def _reduce_taken(tx: _Tx, seat: int, amount: int) -> int:
    """R-ADD-136: "Passive: reduce all damage you take by N", each passive in play in turn."""
    c = tx.seat(seat)
    if amount <= 0 or not c.in_battle:
        return amount
    for instance in c.in_play:
        card = tx.state.card(instance)
        for effect in card.effects:
            if isinstance(effect, TriggerEffect) and effect.on == "damage_taken":
                for inner in effect.then:
                    assert isinstance(inner, ReduceIncomingEffect)
                    cut = min(amount, inner.amount)
                    if cut:
                        tx.emit(ev.DamageReduced(seat, cut, card.id))
                        amount -= cut
    return amount


def _after_damage(tx: _Tx) -> None:
    if tx.state.attack is not None and not tx.state.prompts:
        _end_attack(tx, "hit")


def _take_damage(
    tx: _Tx, seat: int, from_hand: tuple[str, ...], from_deck: int, component: str | None
) -> None:
    """Discard for damage (under ruleset 2.1 onto the damage pile, R-DMG-8); the deck
    reshuffles as at draw time when it runs out, and with nothing left anywhere the casket
    is defeated (R-DMG-6; under 2.1 the moment deck and discard are empty, R-DMG-9)."""
    primary = 0

    def weapons(cards: Sequence[str]) -> int:
        return sum(1 for x in cards if tx.state.card(x).kind == "primary_weapon")

    if from_hand:
        primary += weapons(from_hand)
        tx.emit(ev.DamageTaken(seat, from_hand, (), weapons(from_hand), component))
    left = from_deck
    while left > 0:
        c = tx.seat(seat)
        if not c.deck:
            if not c.discard:
                if tx.state.ruleset.damage_pile:
                    _out_of_cards(tx, seat)
                else:
                    _defeat(
                        tx, seat, "damage with no cards left in deck or discard pile", "R-DMG-6"
                    )
                break
            _reshuffle(tx, seat)
            c = tx.seat(seat)
        taken = tx.take(c.deck, min(left, len(c.deck)), "damage from the deck", "R-DMG-6")
        primary += weapons(taken)
        tx.emit(ev.DamageTaken(seat, (), taken, weapons(taken), component))
        left -= len(taken)
    if component is not None and primary and not tx.seat(seat).pilot_dead:
        _component_damage(tx, seat, component, primary, "Primary Weapon cards discarded", "R-DMG-6")
    _check_hp(tx, seat)


def _component_damage(
    tx: _Tx, seat: int, component: str, amount: int, reason: str, rule: str
) -> None:
    amount = _prevent_component_damage(tx, seat, component, amount)
    if amount <= 0:
        return
    c = tx.seat(seat)
    before_total = c.total_component_damage
    total = c.damage_of(component) + amount
    tx.emit(ev.ComponentDamaged(seat, component, amount, total, reason, rule))
    _triggers(tx, seat, "component_damaged", times=amount)
    threshold = int(tx.state.ruleset.option("component_threshold"))
    if total >= threshold and component not in c.destroyed:
        _destroy(tx, seat, component)
    # R-DMG-7: each multiple of 5 total Component Damage reached wounds the pilot once.
    after_total = before_total + amount
    crossings = after_total // NEURAL_FEEDBACK_EVERY - before_total // NEURAL_FEEDBACK_EVERY
    for _ in range(crossings):
        _wound(tx, seat, "neural feedback", "R-DMG-7")


def _prevent_component_damage(tx: _Tx, seat: int, component: str, amount: int) -> int:
    """R-ADD-136: "the first Component Damage you take each round is ignored": each such
    passive in play, once a round."""
    c = tx.seat(seat)
    if not c.in_battle:
        return amount
    for instance in c.in_play:
        if amount <= 0 or f"round:{instance}" in tx.seat(seat).limited_plays:
            continue
        for effect in tx.state.card(instance).effects:
            if (
                isinstance(effect, TriggerEffect)
                and effect.on == "first_component_damage_each_round"
            ):
                cut = min(
                    amount,
                    sum(e.amount for e in effect.then if isinstance(e, ReduceIncomingEffect)),
                )
                if cut:
                    tx.emit(ev.ComponentDamagePrevented(seat, component, cut, instance))
                    amount -= cut
                break
    return amount


def _destroy(tx: _Tx, seat: int, component: str) -> None:
    """Seed 002 "Component Destroyed": the arms discard their cards from hand."""
    c = tx.seat(seat)
    kind = {"right_arm": "primary_weapon", "left_arm": "secondary"}.get(component)
    discarded = tuple(x for x in c.hand if kind and tx.state.card(x).kind == kind)
    tx.emit(ev.ComponentDestroyed(seat, component, discarded, "R-DMG-7"))


def _wound(tx: _Tx, seat: int, reason: str, rule: str) -> None:
    c = tx.seat(seat)
    if c.pilot_dead or not c.wound_deck:
        return
    wound = tx.take(c.wound_deck, 1, "the pilot wound flip", "R-PLT-1")[0]
    tx.emit(ev.WoundFlipped(seat, wound, reason, rule))
    if not tx.seat(seat).wound_deck:
        tx.emit(ev.PilotKilled(seat, "R-PLT-1"))
        if not tx.seat(seat).defeated:
            tx.emit(ev.CasketDefeated(seat, "its pilot is dead: the casket is inert", "R-ADD-20"))
            _destroyed(tx, seat)


def _taint_overload(tx: _Tx, seat: int) -> None:
    """Taint Overload (R-PLT-3, R-ADD-44): Taint reaching 10 is a trigger like a defeat:
    1d6, on 1–3 the pilot takes 2 wounds. It fires each time Taint rises to 10 from below."""
    face = tx.dice.d6(1, purpose="the Taint Overload roll", rule="R-PLT-3")[0]
    wounds = SURVIVAL_WOUNDS if face in SURVIVAL_WOUND_FACES else 0
    tx.emit(ev.TaintOverloaded(seat, tx.seat(seat).taint, face, wounds))
    for _ in range(wounds):
        _wound(tx, seat, "Taint Overload", "R-PLT-3")


def _defeat(tx: _Tx, seat: int, reason: str, rule: str) -> None:
    if not tx.seat(seat).in_battle:
        return
    tx.emit(ev.CasketDefeated(seat, reason, rule))
    face = tx.dice.d6(1, purpose="the pilot's survival roll", rule="R-PLT-3")[0]
    wounds = SURVIVAL_WOUNDS if face in SURVIVAL_WOUND_FACES else 0
    tx.emit(ev.SurvivalRolled(seat, face, wounds))
    for _ in range(wounds):
        _wound(tx, seat, "casket defeated: survival roll", "R-PLT-3")
    _destroyed(tx, seat)


# --- prompts answered ----------------------------------------------------------------------------


def _deal_table_hand(tx: _Tx, seat: int) -> None:
    cards = tx.take(tx.seat(seat).deck, HAND_SIZE, "the opening hand", "R-TRN-1")
    tx.emit(ev.CardsDrawn(seat, cards, "opening hand", "R-TRN-1"))


def _answer(tx: _Tx, command: Command) -> None:
    kinds = [k for k, types in PROMPT_COMMANDS.items() if isinstance(command, types)]
    prompt = next((p for p in tx.state.prompts if p.seat == command.seat and p.kind in kinds), None)
    if prompt is None:
        waiting = ", ".join(f"seat {p.seat}: {p.kind}" for p in tx.state.prompts) or "nothing"
        raise RuleViolation(
            "no_such_prompt",
            f"seat {command.seat} has no open {'/'.join(kinds)} prompt; the battle waits for "
            f"{waiting}",
            PROMPT_RULES[kinds[0]],
        )
    seat = command.seat
    if isinstance(command, KeepHand):
        if tx.table:
            _deal_table_hand(tx, seat)
        tx.emit(ev.HandKept(seat))
        tx.emit(ev.PromptClosed(seat, "mulligan"))
    elif isinstance(command, Mulligan):
        if tx.table:
            # The physical hand went back and was reshuffled; only the new hand is known.
            tx.emit(ev.MulliganTaken(seat, ()))
            _deal_table_hand(tx, seat)
        else:
            tx.emit(ev.MulliganTaken(seat, tx.seat(seat).hand))
            order, known = tx.shuffle(tx.seat(seat).deck, "the mulligan")
            tx.emit(ev.DeckShuffled(seat, order, known, "mulligan"))
            cards = tx.take(tx.seat(seat).deck, HAND_SIZE, "the new hand", "R-TRN-1")
            tx.emit(ev.CardsDrawn(seat, cards, "mulligan", "R-TRN-1"))
        tx.emit(ev.PromptClosed(seat, "mulligan"))
    elif isinstance(command, PlayReactive):
        _play_reactive(tx, command)
    elif isinstance(command, NoReactive):
        tx.emit(ev.ReactiveDeclined(seat))
        tx.emit(ev.PromptClosed(seat, "reactive"))
        _roll_defence(tx)
    elif isinstance(command, TakeDamage):
        c = tx.seat(seat)
        if len(command.hand) + command.deck != prompt.amount:
            raise RuleViolation(
                "wrong_damage_split",
                f"seat {seat} must discard exactly {prompt.amount} card(s) for damage; "
                f"{len(command.hand)} from hand + {command.deck} from the deck is "
                f"{len(command.hand) + command.deck}",
                "R-DMG-6",
            )
        hand = _hand_cards(c, command.hand, "hand", "R-DMG-6")
        tx.emit(ev.PromptClosed(seat, "take_damage"))
        _take_damage(tx, seat, hand, command.deck, prompt.component)
        _after_damage(tx)
    elif isinstance(command, DiscardDown):
        rule = PROMPT_RULES[prompt.kind]
        if len(command.cards) != prompt.amount:
            purpose = (
                f"to get down to {HAND_SIZE}" if prompt.kind == "discard_down" else prompt.reason
            )
            raise RuleViolation(
                "wrong_discard_count", f"discard exactly {prompt.amount} card(s) {purpose}", rule
            )
        cards = _hand_cards(tx.seat(seat), command.cards, "cards", rule)
        why = "discard down" if prompt.kind == "discard_down" else "chosen"
        tx.emit(ev.CardsDiscarded(seat, cards, (), why, rule))
        tx.emit(ev.PromptClosed(seat, prompt.kind))
        if prompt.kind == "discard":  # R-ADD-139: a card's "discard N of your choice"
            _triggers(tx, seat, "cards_discarded")


def _reactive_ok(tx: _Tx, card: CardDef) -> bool:
    a = tx.state.attack
    cost = card.token_cost
    return (
        a is not None
        and card.kind == "reactive"
        and a.reactive_allowed
        and (a.shield_allowed or not card.shield)
        and _in_window(tx, card)
        # R-ADD-133: a card printed with a token cost only with the tokens
        and (cost is None or tx.seat(a.target).tokens_of(cost.pool) >= cost.n)
    )


def _in_window(tx: _Tx, card: CardDef) -> bool:
    """R-ADD-58: "Play when attacked in melee" answers only an attack with a Melee card."""
    a = tx.state.attack
    if a is None or not any(isinstance(e, WindowEffect) for e in card.effects):
        return True
    weapon = tx.state.card(a.card).attack
    return weapon is not None and weapon.range.melee


def _play_reactive(tx: _Tx, command: PlayReactive) -> None:
    seat = command.seat
    instance = _hand_cards(tx.seat(seat), [command.card], "card", "R-REA-1")[0]
    card = tx.state.card(instance)
    if card.kind != "reactive":
        raise RuleViolation(
            "not_reactive", f"{card.name} is not a reactive card: not now", "R-REA-1"
        )
    if card.shield and not _reactive_ok(tx, card):
        raise RuleViolation(
            "shield_side_only",
            f"{card.name} is a shield card: only against attacks on a shield side",
            "R-REA-2",
        )
    if not _in_window(tx, card):
        raise RuleViolation(
            "outside_window", f"{card.name} answers only attacks made in melee", "R-ADD-58"
        )
    _check_limit(tx.seat(seat), card)
    _check_token_cost(tx, seat, card)
    _check_spend(tx, seat, card, command.spend)
    bought = [e for e in card.effects if isinstance(e, SpendTokensEffect)] if command.spend else []
    # R-ADD-59: a reactive card's conditions read the defender's state as it is played.
    held = [
        e for e in card.effects if isinstance(e, WhenEffect) and _holds(tx, seat, e.condition, None)
    ]
    extra: list[Effect] = [x for e in bought for x in e.then] + [x for e in held for x in e.then]
    effects = [*card.effects, *extra]
    reduction = sum(e.amount for e in effects if isinstance(e, ReduceIncomingEffect))
    tx.emit(ev.ReactivePlayed(seat, instance, reduction))
    _pay_tokens(tx, seat, card)
    for taint in (
        [e for e in card.effects if isinstance(e, TaintCounterEffect)] if command.spend else []
    ):
        # R-ADD-130: "Spend 1 Taint: deal 4 damage instead" (checked in `_check_spend`)
        _change_taint(tx, seat, -taint.n, card.id)
        tx.emit(ev.CounterRaised(seat, taint.counter, card.id))
    for spent in bought:
        _spend_tokens(tx, seat, card, spent)
    for effect in effects:
        if isinstance(effect, HeatEffect):
            _change_heat(tx, seat, effect.amount, card.name, "R-REA-1")
        elif isinstance(effect, DrawEffect):
            _draw(tx, seat, effect.n, card.name)
        elif isinstance(effect, GainTokensEffect):
            _gain_tokens(tx, seat, effect, card.id)
        elif isinstance(effect, RecoverEffect):
            _recover(tx, seat, effect.n, card.name)
        elif isinstance(effect, TaintEffect) and effect.target == "self":
            _change_taint(tx, seat, effect.amount, card.id)
        elif isinstance(effect, LastingBonusEffect):
            _lasting_bonus(tx, seat, effect, card.id)
    tx.emit(ev.PromptClosed(seat, "reactive"))
    _roll_defence(tx)


def _reactive_minimum(tx: _Tx, instance: str | None) -> int:
    """R-ADD-58: the least damage a reactive card's "(minimum 1)" reduction leaves."""
    if instance is None:
        return 0
    effects = tx.state.card(instance).effects
    inner = [x for e in effects if isinstance(e, SpendTokensEffect | WhenEffect) for x in e.then]
    return max(
        (e.minimum for e in (*effects, *inner) if isinstance(e, ReduceIncomingEffect)), default=0
    )


# --- attacks -------------------------------------------------------------------------------------


def _roll_defence(tx: _Tx) -> None:
    a = tx.state.attack
    assert a is not None
    die = str(tx.state.ruleset.option("defense_die"))
    faces = tx.dice.d6(a.damage, purpose="the defence roll", rule="R-DMG-2")
    result = defence_result(faces, a.damage, a.defence_modifier, die)
    # R-DMG-4: PIERCE leaves the reactive card spent and without effect.
    reduction = 0 if result.pierce else a.reduction
    final = max(0, result.final_damage - reduction)
    if reduction:  # R-ADD-58: "reduce by N (minimum 1)" never takes a hit below 1
        final = max(final, min(_reactive_minimum(tx, a.reactive), result.final_damage))
    tx.emit(
        ev.DefenceRolled(
            a.target,
            result.faces,
            result.blocks,
            final,
            result.heat,
            result.pierce,
            result.component_damage,
            reduction,
        )
    )
    if result.heat:
        _change_heat(tx, a.target, result.heat, "HEAT defence faces", "R-DMG-4")
    if result.component_damage:
        _component_damage(
            tx, a.target, a.component, result.component_damage, "CRITICAL defence faces", "R-DMG-4"
        )
    _inflict(tx, a.target, final, a.component, f"an attack by seat {a.attacker}")


def _end_attack(tx: _Tx, outcome: str) -> None:
    a = tx.state.attack
    assert a is not None
    card = tx.state.card(a.card)
    hit = outcome in ("hit", "execution")
    # R-ADD-65: the target was in the battle when the attack was declared, so a defeated
    # target now was destroyed by this attack.
    killed = hit and tx.seat(a.target).defeated
    fires = {"kill": killed, "hit": hit, "end": True}
    d = tx.seat(a.target)
    if (
        a.grade == "critical"
        and hit
        and d.in_battle
        and a.component not in d.destroyed
        and any(isinstance(e, DestroyOnCriticalEffect) for e in card.effects)
    ):
        _destroy(tx, a.target, a.component)  # R-ADD-131: "Destroy 1 Component on Crit"
    for effect in card.effects:
        if isinstance(effect, AfterAttackEffect) and fires[effect.on]:
            for inner in effect.then:
                _effect(tx, a.attacker, card, inner, None, (), None, (), {}, True,
                        attack_target=a.target)  # fmt: skip
    thorns = _thorns(tx)  # read before AttackEnded spends the next attack's thorns
    tx.emit(ev.AttackEnded(a.attacker, a.card, outcome))
    # R-ADD-58: the reactive card's counter-damage, once the attack has ended; a PIERCE
    # face voided the card (R-DMG-4).
    counter = 0
    reasons: list[str] = []
    if a.reactive is not None and not a.pierced:
        effects = tx.state.card(a.reactive).effects
        counter = a.extra_counter + sum(e.damage for e in effects if isinstance(e, CounterEffect))
        if a.final_damage:  # R-ADD-130: "after taking damage, counterattack for 3"
            counter += sum(e.damage for e in effects if isinstance(e, RiposteEffect))
        if counter:
            reasons.append(f"{tx.state.card(a.reactive).name}: counter-damage (R-ADD-58)")
    if thorns:
        reasons.append("thorns (R-ADD-130)")
    if a.self_damage:
        reasons.append(f"{card.name}: its own damage (R-ADD-130)")
    # R-ADD-130: thorns, counter-damage and the card's own damage are one discard, one prompt.
    total = counter + thorns + a.self_damage
    if total and tx.seat(a.attacker).in_battle:
        _inflict(tx, a.attacker, total, None, "; ".join(reasons))


def _thorns(tx: _Tx) -> int:
    """R-ADD-130: what the attack's target deals its attacker once the attack has ended,
    whatever its outcome: nothing from a target the attack took out of the battle."""
    a = tx.state.attack
    assert a is not None
    d = tx.seat(a.target)
    if not d.in_battle:
        return 0
    weapon = tx.state.card(a.card).attack
    melee = weapon is not None and weapon.range.melee
    return d.thorns + d.thorns_once + (d.thorns_melee if melee else 0)


def _attack_lines(c: CasketState) -> tuple[list[Modifier], list[Modifier]]:
    to_hit_lines: list[Modifier] = []
    damage_lines: list[Modifier] = []
    if c.buff_to_hit:
        to_hit_lines.append(
            Modifier("card_buff", c.buff_to_hit, "Next-attack card bonus", "R-HIT-1")
        )
    if c.buff_damage:
        damage_lines.append(
            Modifier("card_buff", c.buff_damage, "Next-attack card bonus", "R-DMG-1")
        )
    if c.damage_this_turn:
        damage_lines.append(
            Modifier("this_turn", c.damage_this_turn, "Damage bonus this turn", "R-DMG-1")
        )
    if c.jam_penalty:
        damage_lines.append(
            Modifier("weapon_jammed", c.jam_penalty, "Catastrophic failure: next attack", "R-DMG-1")
        )
    if c.lasting_damage:
        damage_lines.append(
            Modifier("lasting", c.lasting_damage, "Lasting card bonus (stacks)", "R-ADD-131")
        )
    return to_hit_lines, damage_lines


def attack_answer(state: BattleState, seat: int, card: CardDef, target: int) -> ToHit:
    """The rules engine's to-hit answer for `seat` attacking `target` with `card` (R-HIT-1)."""
    a = state.seats[seat]
    d = state.seats[target]
    effect = card.attack
    assert effect is not None
    others = [c.at for c in state.seats if c.seat not in (seat, target) and c.in_battle]
    enemies = state.enemy_hexes(a)
    to_hit_lines, damage_lines = _attack_lines(a)
    return to_hit(
        state.board,
        Attacker(
            a.at,
            a.facing,
            a.moved,
            a.heat,
            frozenset(a.destroyed),
            frozenset(a.statuses) & set(ATTACKER_STATUSES),
        ),
        Target(
            d.at,
            _facing_for(state, d, a.at),
            d.shield,
            d.moved_last_turn,
            frozenset(d.statuses) & set(TARGET_STATUSES),
        ),
        Weapon(effect.range, effect.damage, card.name),
        others=others,
        enemies=enemies,
        rules=state.ruleset,
        extra_to_hit=to_hit_lines,
        extra_damage=damage_lines,
    )


def _facing_for(state: BattleState, d: CasketState, attacker_at: Hex) -> int:
    """The facing an attack on `d` is judged by: its own, or, with a card in play that says
    it cannot be flanked, one that puts the attacker in its front (R-ADD-136). On a sector
    boundary the other candidate side is the one that gives the defender no bonus either:
    its weapon side (R-ARC-1, R-ARC-2)."""
    if d.at == attacker_at or not any(
        isinstance(e, UnflankableEffect) for x in d.in_play for e in state.card(x).effects
    ):
        return d.facing
    # With facing 1 the candidate sides are the absolute directions themselves (R-ARC-1).
    directions = candidate_sides(d.at, 1, attacker_at)
    if len(directions) == 1:
        return directions[0]
    low, high = directions  # two neighbouring directions, sorted: (d, d+1) or (1, 6)
    first, second = (high, low) if (low, high) == (1, 6) else (low, high)
    # Facing `first` makes the sides (1, 2), facing `second` (6, 1); side 2 is the weapon
    # side of a left shield, side 6 that of a right shield (R-ARC-2).
    return second if d.shield == "right" else first


def _check_turn(tx: _Tx, command: Command) -> CasketState:
    s = tx.state
    if s.phase == SETUP:
        raise RuleViolation(
            "setup_not_finished", "every player keeps a hand or mulligans first", "R-TRN-1"
        )
    if s.prompts:
        p = s.prompts[0]
        raise RuleViolation(
            "prompt_pending",
            f"the battle waits for seat {p.seat} to answer a {p.kind} prompt",
            p.rule,
        )
    if s.active != command.seat:
        raise RuleViolation(
            "not_your_turn", f"It is seat {s.active}'s turn, not seat {command.seat}'s", "R-TRN-5"
        )
    return tx.seat(command.seat)


def _check_card_kind(c: CasketState, card: CardDef) -> None:
    # Seed 002 "Component Destroyed": the arms take their card types with them.
    if card.kind == "primary_weapon" and "right_arm" in c.destroyed:
        raise RuleViolation(
            "right_arm_destroyed", "right arm destroyed: no Primary Weapon cards", "R-DMG-7"
        )
    if card.kind == "secondary" and "left_arm" in c.destroyed:
        raise RuleViolation(
            "left_arm_destroyed", "left arm destroyed: no Secondary Equipment cards", "R-DMG-7"
        )


def _pay(tx: _Tx, c: CasketState, cost: int, pay: Pay | None, exclude: Sequence[str] = ()) -> None:
    """Check and pay SP: up to twice the maximum, each SP beyond it paid with a card (R-TRN-3)."""
    after = c.sp_spent + cost
    if after > c.sp_limit:
        raise RuleViolation(
            "sp_exceeded",
            f"costs {cost} SP; seat {c.seat} has spent {c.sp_spent} of at most "
            f"{c.sp_limit} this turn (twice the maximum {c.sp_max}"
            + (f", and {c.sp_gained} gained)" if c.sp_gained else ")"),
            "R-TRN-3",
        )
    cards = c.overspend_cards(cost)
    given = (len(pay.hand) + pay.deck) if pay else 0
    if given != cards:
        raise RuleViolation(
            "overspend_payment",
            f"costs {cost} SP with {max(0, c.sp_left)} left: pay {cards} card(s) in 'pay' "
            f"(hand ids and/or a count from the deck), not {given}",
            "R-TRN-3",
        )
    if not cards or pay is None:
        return
    hand_ok = [x for x in c.hand if x not in exclude]
    hand = _hand_cards(replace(c, hand=tuple(hand_ok)), pay.hand, "pay.hand", "R-TRN-3")
    if pay.deck > len(c.deck):
        raise RuleViolation(
            "deck_too_small", f"pay.deck: the deck holds {len(c.deck)} card(s)", "R-TRN-3"
        )
    deck = tx.take(c.deck, pay.deck, "overspend from the deck", "R-TRN-3")
    tx.emit(ev.OverspendPaid(c.seat, cards, hand, deck))


def _act(tx: _Tx, command: Command) -> None:
    c = _check_turn(tx, command)
    seat = command.seat
    if isinstance(command, Pass):
        _end_turn(tx, seat)
    elif isinstance(command, Withdraw):
        if c.acted or c.sp_spent or c.moved or c.free_rotation_used:
            raise RuleViolation(
                "withdraw_at_start_of_turn",
                "a casket withdraws at the start of its own turn, before it acts",
                "R-TRN-9",
            )
        tx.emit(ev.CasketWithdrew(seat, "R-TRN-9"))
    elif isinstance(command, Move):
        if "immobilised" in c.statuses:
            raise RuleViolation("immobilised", "an immobilised casket cannot move", "R-ADD-17")
        if command.free:
            _free_move(tx, c, command)
            return
        cost = _path_cost(tx, c, command.path)
        _pay(tx, c, cost, command.pay)
        tx.emit(ev.CasketMoved(seat, tuple((h.q, h.r) for h in command.path), cost))
    elif isinstance(command, Rotate):
        if command.facing == c.facing:
            raise RuleViolation("no_rotation", f"already facing {c.facing}", "R-ARC-5")
        cost = rotation_cost(c.facing, command.facing, not c.free_rotation_used)
        _pay(tx, c, cost, command.pay)
        tx.emit(ev.CasketRotated(seat, command.facing, cost, not c.free_rotation_used))
    elif isinstance(command, Vent):
        if c.heat == 0:
            raise RuleViolation("no_heat", "no Heat to vent", "R-ADD-19")
        _pay(tx, c, VENT_COST, command.pay)
        tx.emit(ev.HeatVented(seat, VENT_COST, min(VENT_HEAT, c.heat)))
    elif isinstance(command, Attack):
        _attack(tx, c, command)
    elif isinstance(command, PlayCard):
        _play_card(tx, c, command)
    else:  # pragma: no cover - parse_command produces no other type
        raise RuleViolation("unknown_command", f"{command.NAME} is not an action", None)


def _free_move(tx: _Tx, c: CasketState, command: Move) -> None:
    """R-ADD-69: the move a card granted: up to its hexes, each step legal, no SP."""
    if not c.free_move or c.free_move_source is None:
        raise RuleViolation("no_free_move", "no card granted a move this turn", "R-ADD-69")
    if command.pay is not None:
        raise RuleViolation("free_move_paid", "a granted move costs no SP: no 'pay'", "R-ADD-69")
    if len(command.path) > c.free_move:
        raise RuleViolation(
            "path_too_long", f"the granted move is at most {c.free_move} hex(es)", "R-ADD-69"
        )
    _path_cost(tx, c, command.path)
    hexes = tuple((h.q, h.r) for h in command.path)
    tx.emit(ev.CasketMoved(c.seat, hexes, 0, c.free_move_source))


def _path_cost(tx: _Tx, c: CasketState, path: Sequence[object]) -> int:
    s = tx.state
    # R-ADD-136: "move through enemy-occupied hexes … ignore terrain costs".
    free = any(isinstance(e, FreePassageEffect) for x in c.in_play for e in s.card(x).effects)
    allies, enemies = s.ally_hexes(c), s.enemy_hexes(c)
    return validate_path(
        s.board,
        c.at,
        path,  # type: ignore[arg-type]
        allies=[*allies, *enemies] if free else allies,
        enemies=() if free else enemies,
        legs_destroyed="legs" in c.destroyed,
        require_sight=True,
        ignore_terrain=free,
    )


def _attack(tx: _Tx, c: CasketState, command: Attack) -> None:
    seat = command.seat
    instance = _hand_cards(c, [command.card], "card", "R-TRN-5")[0]
    card = tx.state.card(instance)
    if card.attack is None:
        raise RuleViolation(
            "not_an_attack", f"{card.name} makes no attack: play it with play_card", "R-ADD-14"
        )
    _check_card_kind(c, card)
    if not 0 <= command.target < len(tx.state.seats) or command.target == seat:
        raise RuleViolation("bad_target", "target must be another seat", "R-ARC-1")
    d = tx.seat(command.target)
    if d.defeated:
        raise RuleViolation("target_defeated", f"seat {d.seat} is already defeated", "R-TRN-8")
    if d.withdrawn:
        raise RuleViolation("target_withdrawn", f"seat {d.seat} has withdrawn", "R-TRN-9")
    if d.side == c.side:
        raise RuleViolation("not_an_enemy", f"seat {d.seat} is on your side", "R-TRN-8")
    answer = attack_answer(tx.state, seat, card, command.target)
    if not answer.possible:
        refusal = answer.refusal
        assert refusal is not None
        raise refusal
    _check_limit(tx.seat(seat), card)
    _check_token_cost(tx, seat, card)
    _check_spend(tx, seat, card, command.spend)
    _pay(tx, c, card.sp_cost, command.pay, exclude=[instance])
    tx.emit(
        ev.CardPlayed(seat, instance, card.sp_cost, card.manual, card.text if card.manual else "")
    )
    _pay_tokens(tx, seat, card)
    passive = _passive_bonuses(tx, seat)
    if passive or any(
        isinstance(e, AttackBonusEffect | SpendTokensEffect | IgnoreCoverEffect)
        for e in card.effects
    ):
        # R-ADD-59: the card's own bonuses are part of this attack's to-hit answer, and
        # R-ADD-74: so are those of the attacker's passives in play.
        _attack_riders(tx, seat, card, command.target, command.spend)
        for source, bonus in passive:
            if _holds(tx, seat, bonus.condition, command.target):
                tx.emit(ev.BuffGained(seat, bonus.damage, bonus.to_hit, 0, 0, source.id))
        answer = attack_answer(tx.state, seat, card, command.target)
        if not answer.possible:
            refusal = answer.refusal
            assert refusal is not None
            raise refusal
    assert answer.target_number is not None and answer.side is not None
    assert answer.defense_modifier is not None
    _card_effects(
        tx, seat, card, None, (), None, (), skip_attack=True, attack_target=command.target
    )
    component_roll = None
    component = command.component
    if component is None:
        component_roll = tx.dice.d6(1, purpose="the target component roll", rule="R-DMG-6")[0]
        component = component_for_roll(component_roll)
    a = tx.seat(seat)
    grades = ("hit", "strong", "critical", "execution")
    ignore = a.buff_ignore_defence
    tx.emit(
        ev.AttackDeclared(
            attacker=seat,
            target=command.target,
            card=instance,
            component=component,
            component_roll=component_roll,
            target_number=answer.target_number,
            side=answer.side,
            damage_by_grade=tuple((g, answer.damage_for(g)) for g in grades),
            # R-DMG-3: cancelled blocks and the target's card Defense (R-ADD-64).
            defence_modifier=answer.defense_modifier
            - ignore
            + tx.seat(command.target).defence_bonus,
            reactive_allowed=bool(answer.reactive_allowed),
            shield_allowed=bool(answer.shield_cards_allowed),
            to_hit=answer.as_dict(),
        )
    )
    for owed in [e for e in card.effects if isinstance(e, SelfDamageEffect)]:
        if command.spend:  # R-ADD-130: "spend 2 Bargain tokens to negate self-damage"
            have = tx.seat(seat).tokens_of(owed.avoid_pool)
            tx.emit(ev.TokensChanged(seat, owed.avoid_pool, -owed.avoid_n, have - owed.avoid_n,
                                     card.id))  # fmt: skip
        else:
            tx.emit(ev.SelfDamageDue(seat, owed.amount, card.id))
    pool = answer.dice
    faces = tx.dice.d6(pool.count, purpose="the attack roll", rule="R-HIT-4")
    roll = attack_result(faces, answer.target_number, pool)
    damage = answer.damage_for(roll.grade) if roll.hit else 0
    tx.emit(ev.AttackRolled(roll.faces, roll.total, roll.grade, damage))
    if roll.catastrophic:
        a = tx.seat(seat)
        weapons = tuple(x for x in a.hand if tx.state.card(x).kind == "primary_weapon")
        tx.emit(ev.WeaponJammed(seat, weapons, a.heat + JAM_HEAT))
        _end_attack(tx, "catastrophic")
        return
    if not roll.hit:
        _end_attack(tx, "miss")
        return
    if roll.grade == "execution":
        # R-DMG-5: no dice, no reactive card, full damage from the deck, component destroyed.
        if component not in tx.seat(command.target).destroyed:
            _destroy(tx, command.target, component)
        _take_damage(tx, command.target, (), damage, component)
        _end_attack(tx, "execution")
        return
    defender = tx.seat(command.target)
    eligible = any(_reactive_ok(tx, tx.state.card(x)) for x in defender.hand)
    if eligible:
        _open_prompt(
            tx, defender.seat, "reactive", 0, component, "R-REA-1", "play one reactive card or none"
        )
    else:
        _roll_defence(tx)


def _play_card(tx: _Tx, c: CasketState, command: PlayCard) -> None:
    seat = command.seat
    instance = _hand_cards(c, [command.card], "card", "R-TRN-5")[0]
    card = tx.state.card(instance)
    if card.kind == "reactive":
        raise RuleViolation(
            "reactive_in_own_turn",
            f"{card.name} is reactive: it answers an attack in an opponent's turn",
            "R-REA-1",
        )
    if card.attack is not None:
        raise RuleViolation(
            "use_attack", f"{card.name} attacks: send an attack command with a target", "R-HIT-1"
        )
    _check_card_kind(c, card)
    _check_limit(tx.seat(seat), card)
    _check_token_cost(tx, seat, card)
    _check_spend(tx, seat, card, command.spend)
    _pay(tx, c, card.sp_cost, command.pay, exclude=[instance, *command.discard])
    tx.emit(
        ev.CardPlayed(seat, instance, card.sp_cost, card.manual, card.text if card.manual else "")
    )
    _pay_tokens(tx, seat, card)
    _card_effects(
        tx,
        seat,
        card,
        command.target,
        command.path,
        command.facing,
        command.discard,
        spend=command.spend,
    )
    if not card.passive:  # R-ADD-68: a passive stays in play
        tx.emit(ev.CardResolved(seat, instance))


def _triggers(
    tx: _Tx, seat: int, on: str, times: int = 1, about: int | None = None, killer: int | None = None
) -> None:
    """Run the `on` triggers of the passives `seat` has in play (R-ADD-68); `about` is the
    destroyed casket for casket_destroyed, `killer` the seat whose attack destroyed it
    (R-ADD-131)."""
    c = tx.seat(seat)
    if not c.in_battle:
        return
    for instance in c.in_play:
        card = tx.state.card(instance)
        for effect in card.effects:
            if not isinstance(effect, TriggerEffect) or effect.on != on:
                continue
            if about is not None:
                gone = tx.seat(about)
                if (
                    (effect.within and c.at.distance(gone.at) > effect.within)
                    or (effect.enemy_only and gone.side == c.side)
                    or (effect.ally_only and gone.side != c.side)
                    or (effect.by_owner and killer != seat)
                ):
                    continue
            for _ in range(times):
                if not effect.stacks:  # R-ADD-139: held once until an attack spends it
                    if instance in tx.seat(seat).held_bonuses:
                        break
                    tx.emit(ev.BonusHeld(seat, instance))
                for inner in effect.then:
                    _effect(tx, seat, card, inner, None, (), None, (), {}, True)


def _destroyed(tx: _Tx, seat: int) -> None:
    """R-ADD-68: every other casket's passives that watch for a destruction nearby. R-ADD-131:
    a casket destroyed while an attack on it resolves was destroyed by that attacker."""
    a = tx.state.attack
    killer = a.attacker if a is not None and a.target == seat else None
    for other in tx.state.seats:
        if other.seat != seat:
            _triggers(tx, other.seat, "casket_destroyed", about=seat, killer=killer)


def _check_limit(c: CasketState, card: CardDef) -> None:
    """R-ADD-63: "once per turn / round / mission" (a mission's battle)."""
    limit = card.limit
    if limit is None:
        return
    if c.limited_plays.count(f"{limit.per}:{card.id}") >= limit.n:
        raise RuleViolation(
            "use_limit_reached",
            f"{card.name} may be played {limit.n} time(s) per {limit.per}",
            "R-ADD-63",
        )


def _check_token_cost(tx: _Tx, seat: int, card: CardDef) -> None:
    """R-ADD-133: a card printed with a cost in tokens needs them to be played."""
    cost = card.token_cost
    if cost is not None and tx.seat(seat).tokens_of(cost.pool) < cost.n:
        have = tx.seat(seat).tokens_of(cost.pool)
        raise RuleViolation(
            "not_enough_tokens",
            f"{card.name} costs {cost.n} {cost.pool} token(s); seat {seat} holds {have}",
            "R-ADD-133",
        )


def _pay_tokens(tx: _Tx, seat: int, card: CardDef) -> None:
    """R-ADD-133: the printed token cost, paid as the card is played (checked before)."""
    cost = card.token_cost
    if cost is not None:
        have = tx.seat(seat).tokens_of(cost.pool)
        tx.emit(ev.TokensChanged(seat, cost.pool, -cost.n, have - cost.n, card.id))


def _check_spend(tx: _Tx, seat: int, card: CardDef, spend: bool) -> None:
    """R-ADD-61: `spend` only for a card that spends tokens, and only with the tokens;
    a card that does nothing without its spend needs it."""
    costs = [e for e in card.effects if isinstance(e, SpendTokensEffect)]
    taint = [e for e in card.effects if isinstance(e, TaintCounterEffect)]
    avoid = [e for e in card.effects if isinstance(e, SelfDamageEffect)]
    for e2 in avoid if spend else []:  # R-ADD-130: buying off the card's self-damage
        if tx.seat(seat).tokens_of(e2.avoid_pool) < e2.avoid_n:
            raise RuleViolation(
                "not_enough_tokens",
                f"{card.name} spends {e2.avoid_n} {e2.avoid_pool} token(s); seat {seat} holds "
                f"{tx.seat(seat).tokens_of(e2.avoid_pool)}",
                "R-ADD-61",
            )
    if spend and not costs and not taint and not avoid:
        raise RuleViolation(
            "unused_argument", f"{card.name} has no effect that uses 'spend'", "R-ADD-61"
        )
    for t in taint if spend else []:  # R-ADD-130: the pilot's Taint, not a token pool
        if tx.seat(seat).taint < t.n:
            raise RuleViolation(
                "not_enough_taint",
                f"{card.name} spends {t.n} Taint; seat {seat}'s pilot has {tx.seat(seat).taint}",
                "R-ADD-130",
            )
    for e in costs:
        if e.required and not spend:
            raise RuleViolation(
                "spend_required",
                f"{card.name} does nothing without spending {e.n} {e.pool} token(s): "
                "send 'spend': true",
                "R-ADD-61",
            )
        if spend:
            have = tx.seat(seat).tokens_of(e.pool)
            need = 1 if e.n == "all" else e.n
            if have < need:
                raise RuleViolation(
                    "not_enough_tokens",
                    f"{card.name} spends {e.n} {e.pool} token(s); seat {seat} holds {have}",
                    "R-ADD-61",
                )


def _spend_tokens(tx: _Tx, seat: int, card: CardDef, effect: SpendTokensEffect) -> int:
    """Spend the tokens (checked by `_check_spend`); the number spent."""
    have = tx.seat(seat).tokens_of(effect.pool)
    n = have if effect.n == "all" else effect.n
    tx.emit(ev.TokensChanged(seat, effect.pool, -n, have - n, card.id))
    return n


def _gain_tokens(tx: _Tx, seat: int, effect: GainTokensEffect, source: str) -> None:
    """R-ADD-61: a pool never holds more than its cap; a gain at the cap gains nothing."""
    have = tx.seat(seat).tokens_of(effect.pool)
    gained = min(effect.n, max(0, effect.cap - have))
    if gained:
        tx.emit(ev.TokensChanged(seat, effect.pool, gained, have + gained, source))


def _holds(tx: _Tx, seat: int, condition: Condition | None, target: int | None) -> bool:
    """Whether an attack bonus's condition holds now (R-ADD-59)."""
    if condition is None:
        return True
    c = tx.seat(seat)
    t = tx.seat(target) if target is not None else None
    test, n = condition.test, condition.n
    if test == "own_heat_at_least":
        return c.heat >= n
    if test == "own_tokens_at_least":
        assert condition.pool is not None
        return c.tokens_of(condition.pool) >= n
    if test == "own_component_damage_at_least":
        return c.total_component_damage >= n
    if test == "moved_this_turn":
        return c.moved > 0
    if test == "standing_in":
        return tx.state.board.terrain_at(c.at).name == condition.terrain
    if test == "enemies_within_at_least":  # R-ADD-75: enemy caskets in the battle
        enemies = [x for x in tx.state.seats if x.side != c.side and x.in_battle]
        return sum(1 for x in enemies if x.at.distance(c.at) <= condition.within) >= n
    if test == "not_attacked_this_turn":  # R-ADD-134
        return not c.attacked
    if test == "attacked_this_turn":  # R-ADD-134
        return c.attacked
    if test == "destroyed_enemy_this_turn":  # R-ADD-131
        return c.destroyed_enemy
    if test == "own_deck_at_most":  # R-ADD-137: the deck only, as R-ADD-74 counts it
        return len(c.deck) <= n
    if test == "no_enemy_within":  # R-ADD-137: enemy caskets in the battle
        enemies = [x for x in tx.state.seats if x.side != c.side and x.in_battle]
        return all(x.at.distance(c.at) > condition.within for x in enemies)
    if test == "own_adjacent_allies_at_least":  # R-ADD-74: own side, in the battle
        allies = [x for x in tx.state.seats if x.side == c.side and x.seat != seat]
        return sum(1 for x in allies if x.in_battle and x.at.distance(c.at) == 1) >= n
    if t is None:  # pragma: no cover - attack bonuses sit on attack cards (CardDef)
        return False
    if test == "target_hp_at_most":
        return t.hp <= n
    if test == "target_moved_last_turn":
        return t.moved_last_turn > 0
    if test == "target_deck_at_most":  # R-ADD-74: the deck only, not the discard pile
        return len(t.deck) <= n
    return t.taint >= n  # target_taint_at_least


def _passive_bonuses(tx: _Tx, seat: int) -> list[tuple[CardDef, AttackBonusEffect]]:
    """R-ADD-74: the attack bonuses of the passives `seat` has in play, in play order."""
    out: list[tuple[CardDef, AttackBonusEffect]] = []
    for instance in tx.seat(seat).in_play:
        card = tx.state.card(instance)
        for effect in card.effects:
            if isinstance(effect, TriggerEffect) and effect.on == "attack":
                out += [(card, b) for b in effect.then if isinstance(b, AttackBonusEffect)]
    return out


def _attack_riders(tx: _Tx, seat: int, card: CardDef, target: int, spend: bool) -> None:
    """The attack card's own bonuses, before its to-hit answer (R-ADD-59, R-ADD-61): each
    one that holds is a BuffGained the attack declared next spends."""

    def bonus(effect: AttackBonusEffect) -> None:
        if _holds(tx, seat, effect.condition, target):
            tx.emit(ev.BuffGained(seat, effect.damage, effect.to_hit, 0, 0, card.id))

    def ignore_cover() -> None:
        # R-ADD-60: the cover lines of the to-hit answer, cancelled by an equal bonus.
        answer = attack_answer(tx.state, seat, card, target)
        cover = sum(m.value for m in answer.modifiers if m.key == "cover")
        if cover:
            tx.emit(ev.BuffGained(seat, 0, -cover, 0, 0, card.id))

    for effect in card.effects:
        if isinstance(effect, AttackBonusEffect):
            bonus(effect)
        elif isinstance(effect, IgnoreCoverEffect):
            ignore_cover()
        elif isinstance(effect, SpendTokensEffect) and spend:
            n = _spend_tokens(tx, seat, card, effect)
            if effect.damage_per_token:
                tx.emit(ev.BuffGained(seat, n * effect.damage_per_token, 0, 0, 0, card.id))
            for inner in effect.then:
                if isinstance(inner, AttackBonusEffect):
                    bonus(inner)
                elif isinstance(inner, IgnoreCoverEffect):
                    ignore_cover()
                else:
                    _effect(tx, seat, card, inner, None, (), None, (), {}, True, False)


def _card_effects(
    tx: _Tx,
    seat: int,
    card: CardDef,
    target: int | None,
    path: Sequence[object],
    facing: int | None,
    discard: Sequence[str],
    *,
    skip_attack: bool = False,
    spend: bool = False,
    attack_target: int | None = None,
) -> None:
    used = {"path": False, "facing": False, "discard": False, "target": False}
    for effect in card.effects:
        _effect(
            tx,
            seat,
            card,
            effect,
            target,
            path,
            facing,
            discard,
            used,
            skip_attack,
            spend,
            attack_target=attack_target,
        )
    for name, value in (
        ("path", path),
        ("facing", facing),
        ("discard", discard),
        ("target", target),
    ):
        if value not in (None, (), []) and not used[name]:
            raise RuleViolation(
                "unused_argument", f"{card.name} has no effect that uses '{name}'", "R-ADD-14"
            )


def _effect(
    tx: _Tx,
    seat: int,
    card: CardDef,
    effect: Effect,
    target: int | None,
    path: Sequence[object],
    facing: int | None,
    discard: Sequence[str],
    used: dict[str, bool],
    skip_attack: bool,
    spend: bool = False,
    *,
    attack_target: int | None = None,
) -> None:
    c = tx.seat(seat)
    if isinstance(effect, LimitEffect):
        return  # checked before the card is played (R-ADD-63)
    if isinstance(effect, TokenCostEffect):
        return  # paid as the card is played (R-ADD-133)
    if isinstance(effect, DestroyOnCriticalEffect):
        return  # `_end_attack` destroys the component on a critical hit (R-ADD-131)
    if isinstance(effect, SelfDamageEffect):
        return  # `_attack` records it, `_end_attack` deals it (R-ADD-130)
    if isinstance(effect, ThornsEffect):
        tx.emit(ev.ThornsRaised(seat, effect.damage, effect.melee_only, effect.until, card.id))
        return
    if isinstance(effect, LastingBonusEffect):
        _lasting_bonus(tx, seat, effect, card.id)
        return
    if isinstance(effect, SpBoostEffect):
        tx.emit(ev.SpBoosted(seat, effect.amount, effect.maximum, card.id))
        return
    if isinstance(effect, BuffThisTurnEffect):
        tx.emit(
            ev.TurnBuffGained(seat, effect.damage, effect.to_hit, effect.ignore_defence, card.id)
        )
        return
    if isinstance(effect, RemoveFromGameEffect):
        return  # evolve puts the resolved card with the removed cards (R-ADD-70)
    if isinstance(effect, AfterAttackEffect):
        return  # `_end_attack` runs it when the attack's outcome is known (R-ADD-65)
    if isinstance(effect, WhenEffect):
        about = attack_target if attack_target is not None else target
        if _holds(tx, seat, effect.condition, about):
            for inner in effect.then:
                _effect(tx, seat, card, inner, target, path, facing, discard, used, skip_attack)
        return
    if isinstance(effect, GrantMoveEffect):
        tx.emit(ev.MoveGranted(seat, effect.hexes, card.id))
        return
    if isinstance(effect, PlantSeedsEffect):
        if attack_target is not None:
            at = tx.seat(attack_target).at
            have = next((n for q, r, n in tx.state.seeds if (q, r) == (at.q, at.r)), 0)
            total = min(MAX_SEEDS, have + effect.n)
            if total > have:
                tx.emit(ev.SeedsPlanted((at.q, at.r), total - have, total, card.id))
        return
    if isinstance(effect, DetonateSeedsEffect):
        seeded = tx.state.seeds
        if seeded:
            tx.emit(ev.SeedsDetonated(seeded, card.id))
            mine = tx.seat(seat)
            for q, r, n in seeded:
                for x in tx.state.seats:
                    if x.in_battle and x.side != mine.side and (x.at.q, x.at.r) == (q, r):
                        damage = min(effect.max_per_hex, n * effect.per_seed)
                        _inflict(tx, x.seat, damage, None, f"{card.name}: Thornvine seeds")
        return
    if isinstance(effect, SpPenaltyEffect):
        if attack_target is not None:
            tx.emit(ev.SpPenaltyImposed(attack_target, effect.amount, card.id))
        return
    if isinstance(effect, DamageNextTurnEffect):
        if attack_target is not None:
            tx.emit(ev.DamageScheduled(attack_target, effect.amount, card.id))
        return
    if isinstance(effect, HinderEffect):
        who = attack_target
        if who is None:  # a card without an attack: an enemy within its range
            who = _enemy_in_range(tx, seat, card, target)
            used["target"] = True
        tx.emit(ev.BuffGained(who, 0, effect.to_hit, 0, 0, card.id))
        return
    if isinstance(effect, TaintEffect):
        who = seat if effect.target == "self" else attack_target
        if who is not None:
            _change_taint(tx, who, effect.amount, card.id)
        return
    if isinstance(effect, DiscardChosenEffect):
        n = min(effect.n, len(c.hand))
        if n:
            reason = f"{card.name}: discard {n} card(s) of your choice"
            _open_prompt(tx, seat, "discard", n, None, "R-ADD-62", reason)
        return
    if isinstance(effect, ShuffleInEffect):
        newest = tuple(reversed(c.discard))
        cards = newest if effect.n == "all" else newest[: effect.n]
        if cards:
            order, known = tx.shuffle((*c.deck, *cards), f"{card.name}: the deck")
            tx.emit(ev.CardsShuffledIn(seat, cards, order, known, card.name))
        return
    if isinstance(effect, RemoveHeatRolledEffect):
        faces = tx.dice.d6(effect.d3, purpose=f"{card.name}: 1d3", rule="R-ADD-67")
        total = sum((f + 1) // 2 for f in faces)
        tx.emit(ev.EffectRolled(seat, faces, total, card.id))
        _change_heat(tx, seat, -total, card.name, "R-ADD-67")
        return
    if isinstance(effect, AttackEffect | AttackBonusEffect | IgnoreCoverEffect):
        if not skip_attack:  # pragma: no cover - play_card refuses attack cards
            raise RuleViolation("use_attack", "send an attack command", "R-HIT-1")
    elif isinstance(effect, SpendTokensEffect):
        # On an attack card `_attack_riders` spent them already.
        if spend and not skip_attack:
            _spend_tokens(tx, seat, card, effect)
            for inner in effect.then:
                _effect(tx, seat, card, inner, target, path, facing, discard, used, False)
    elif isinstance(effect, GainTokensEffect):
        _gain_tokens(tx, seat, effect, card.id)
    elif isinstance(effect, RecoverEffect):
        _recover(tx, seat, effect.n, card.name)
    elif isinstance(effect, DiscardHandEffect):
        if c.hand:
            tx.emit(ev.CardsDiscarded(seat, c.hand, (), card.name, "R-ADD-14"))
            _triggers(tx, seat, "cards_discarded")  # R-ADD-139
    elif isinstance(effect, DefenceEffect):
        tx.emit(ev.DefenceRaised(seat, effect.amount, card.id))
    elif isinstance(effect, MoveEffect):
        if not path:
            raise RuleViolation("path_required", f"{card.name} moves: give 'path'", "R-ADD-25")
        if len(path) > effect.hexes:
            raise RuleViolation(
                "path_too_long", f"{card.name} moves at most {effect.hexes} hex(es)", "R-ADD-25"
            )
        _path_cost(tx, c, path)
        used["path"] = True
        hexes = tuple((h.q, h.r) for h in path)  # type: ignore[attr-defined]
        if effect.line:
            line = ((c.at.q, c.at.r), *hexes)
            turns = {(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(line)}
            if len(turns) != 1:
                raise RuleViolation(
                    "not_a_straight_line",
                    f"{card.name} moves in a straight line: every step in one direction",
                    "R-ADD-63",
                )
        tx.emit(ev.CasketMoved(seat, hexes, 0, card.id))
    elif isinstance(effect, RotateEffect):
        if facing is None and effect.optional:
            return  # R-ADD-63: "you may rotate"
        if facing is None:
            raise RuleViolation("facing_required", f"{card.name} rotates: give 'facing'", "R-ARC-5")
        steps = rotation_steps(c.facing, facing)
        if effect.steps != "any" and steps > effect.steps:
            raise RuleViolation(
                "rotation_too_far", f"{card.name} turns at most {effect.steps} step(s)", "R-ADD-16"
            )
        used["facing"] = True
        tx.emit(ev.CasketRotated(seat, facing, 0, False))
    elif isinstance(effect, HeatEffect):
        _change_heat(tx, seat, effect.amount, card.name, "R-ADD-14")
    elif isinstance(effect, DrawEffect):
        _draw(tx, seat, effect.n, card.name)
    elif isinstance(effect, DiscardEffect):
        used["discard"] = True
        from_hand: tuple[str, ...] = ()
        if effect.source in ("hand", "choice"):
            from_hand = _hand_cards(c, discard, "discard", "R-ADD-14")
        if effect.source == "hand" and len(from_hand) != effect.n:
            raise RuleViolation(
                "wrong_discard_count",
                f"{card.name}: list {effect.n} hand card(s) in 'discard'",
                "R-ADD-14",
            )
        if len(from_hand) > effect.n:
            raise RuleViolation(
                "wrong_discard_count", f"{card.name} discards {effect.n} card(s)", "R-ADD-14"
            )
        n_deck = effect.n - len(from_hand)
        if n_deck > len(c.deck):
            raise RuleViolation(
                "deck_too_small", f"{card.name}: the deck holds {len(c.deck)} card(s)", "R-ADD-14"
            )
        from_deck = tx.take(c.deck, n_deck, card.name, "R-ADD-14")
        tx.emit(ev.CardsDiscarded(seat, from_hand, from_deck, card.name, "R-ADD-14"))
        _triggers(tx, seat, "cards_discarded")  # R-ADD-139
    elif isinstance(effect, BuffNextAttackEffect):
        tx.emit(
            ev.BuffGained(seat, effect.damage, effect.to_hit, effect.blocks_ignored, 0, card.id)
        )
    elif isinstance(effect, StatusEffect):
        who = seat
        if effect.target == "target":
            if target is None or not 0 <= target < len(tx.state.seats) or target == seat:
                raise RuleViolation(
                    "target_required", f"{card.name} needs another seat as 'target'", "R-COV-4"
                )
            used["target"] = True
            who = target
        tx.emit(ev.StatusApplied(who, effect.status, card.id))
    elif isinstance(effect, RollSufferingEffect):
        _suffering(tx, seat, effect.n)
    elif isinstance(effect, ReduceIncomingEffect):  # pragma: no cover - reactive cards only
        raise RuleViolation("reactive_in_own_turn", "reactive cards answer attacks", "R-REA-1")


def _lasting_bonus(tx: _Tx, seat: int, effect: LastingBonusEffect, source: str) -> None:
    """R-ADD-131: +damage on every later attack of the seat, for the rest of the battle."""
    total = tx.seat(seat).lasting_damage + effect.damage
    tx.emit(ev.LastingBonusGained(seat, effect.damage, total, source))


def _change_taint(tx: _Tx, seat: int, amount: int, source: str) -> None:
    """R-ADD-66: a card's Taint, never below 0; rising to 10 from below is Taint Overload
    (R-PLT-3, R-ADD-44)."""
    c = tx.seat(seat)
    taint = max(0, c.taint + amount)
    if taint == c.taint:
        return
    tx.emit(ev.TaintChanged(seat, taint - c.taint, taint, source))
    if c.taint < TAINT_OVERLOAD <= taint and c.in_battle and not c.pilot_dead:
        _taint_overload(tx, seat)


def _enemy_in_range(tx: _Tx, seat: int, card: CardDef, target: int | None) -> int:
    """The command's `target` for a card acting on an enemy: in the battle, on another
    side, within the card's printed range (R-RNG-2, R-ADD-65)."""
    if target is None or not 0 <= target < len(tx.state.seats):
        raise RuleViolation("target_required", f"{card.name} needs an enemy as 'target'", "R-RNG-2")
    c, t = tx.seat(seat), tx.seat(target)
    if t.side == c.side or not t.in_battle:
        raise RuleViolation(
            "not_an_enemy", f"seat {target} is not an enemy in the battle", "R-TRN-8"
        )
    reach = card.range
    if reach is None or not reach.low <= c.at.distance(t.at) <= reach.high:
        raise RuleViolation(
            "out_of_range",
            f"{card.name} reaches {reach.text if reach else 'no one'}; seat {target} is "
            f"{c.at.distance(t.at)} hexes away",
            "R-RNG-2",
        )
    return target


def _recover(tx: _Tx, seat: int, n: int, reason: str) -> None:
    """R-ADD-62: the `n` most recently discarded cards go back to the hand, newest first."""
    c = tx.seat(seat)
    cards = tuple(reversed(c.discard))[:n]
    if cards:
        tx.emit(ev.CardsRecovered(seat, cards, reason))


def _suffering(tx: _Tx, seat: int, n: int) -> None:
    """Seed 001 §4's suffering die, each face applied in the order rolled."""
    faces = tx.dice.d6(n, purpose="the suffering dice", rule="R-ADD-14")
    tx.emit(ev.SufferingRolled(seat, faces))
    for f in faces:
        face = SUFFERING_DIE[f]
        c = tx.seat(seat)
        if face.cards_discarded:
            taken = tx.take(c.deck, min(face.cards_discarded, len(c.deck)), face.name, "R-ADD-14")
            if taken:
                tx.emit(ev.CardsDiscarded(seat, (), taken, face.name, "R-ADD-14"))
        if face.heat:
            _change_heat(tx, seat, face.heat, face.name, "R-ADD-14")
        if face.damage_this_turn or face.damage_next_attack:
            tx.emit(
                ev.BuffGained(seat, face.damage_next_attack, 0, 0, face.damage_this_turn, face.name)
            )
        if face.cards_recovered:
            c = tx.seat(seat)
            if c.discard:
                tx.emit(ev.CardsRecovered(seat, (c.discard[-1],), face.name))


# --- GM adjustments and reverts ------------------------------------------------------------------


def _adjust(tx: _Tx, command: Command) -> None:
    seat = command.seat
    c = tx.seat(seat)
    if isinstance(command, AdjustHeat):
        tx.emit(ev.HeatAdjusted(seat, command.heat, command.reason))
    elif isinstance(command, AdjustTaint):
        tx.emit(ev.TaintAdjusted(seat, command.taint, command.reason))
        if c.taint < TAINT_OVERLOAD <= command.taint and c.in_battle and not c.pilot_dead:
            _taint_overload(tx, seat)
    elif isinstance(command, AdjustComponentDamage):
        total = max(0, c.damage_of(command.component) + command.amount)
        threshold = int(tx.state.ruleset.option("component_threshold"))
        tx.emit(
            ev.ComponentDamageAdjusted(
                seat, command.component, command.amount, total, total >= threshold, command.reason
            )
        )
    elif isinstance(command, Relocate):
        board = tx.state.board
        if command.at not in board or board.terrain_at(command.at).impassable:
            raise RuleViolation(
                "bad_hex", f"{list(command.at)} is off the board or impassable", "R-BRD-3"
            )
        if any(x.at == command.at and x.seat != seat and x.in_battle for x in tx.state.seats):
            raise RuleViolation("occupied", f"{list(command.at)} is occupied", "R-MOV-2")
        tx.emit(
            ev.CasketRelocated(seat, (command.at.q, command.at.r), command.facing, command.reason)
        )
    elif isinstance(command, ReturnCard):
        zone = next(
            (z for z in ("discard", "removed") if any(x == command.card for x in getattr(c, z))),
            None,
        )
        if zone is None:
            raise RuleViolation(
                "card_not_in_discard",
                f"{command.card!r} is in neither seat {seat}'s discard pile nor its removed cards",
                "R-ADD-24",
            )
        tx.emit(ev.CardReturned(seat, command.card, zone, command.reason))
    elif isinstance(command, EndBattle):
        sides = sorted({x.side for x in tx.state.seats})
        if command.side is not None and command.side not in sides:
            raise RuleViolation(
                "no_such_side",
                f"side {command.side!r} is not in this battle; its sides: {', '.join(sides)} "
                "(or null for a draw)",
                "R-TRN-9",
            )
        tx.emit(ev.BattleEnded(command.side, command.reason, "R-TRN-9"))


def _revert(tx: _Tx, command: Revert, before: BattleState | None) -> None:
    if tx.state.dice_revealed:
        raise RuleViolation(
            "dice_revealed",
            "the battle's dice secret was revealed when it ended: reverting the end would "
            "continue a battle whose every roll is known; create a new battle instead",
            "R-ADD-45",
        )
    if before is None:
        raise RuleViolation(
            "revert_unavailable",
            f"command {command.command_id!r} is not this battle's latest command; only the "
            "latest can be reverted",
            "R-ADD-24",
        )
    tx.emit(
        ev.CommandReverted(
            command.command_id,
            before.version,
            tx.state.version,
            state_to_dict(before, with_setup=False),
            command.reason,
        )
    )
