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
from typing import Literal

from ..arcs import attack_side, candidate_sides, choose_side_row, rotation_cost, rotation_steps
from ..board import BATTLE_TERRAIN
from ..cards import (
    DAMAGE_CARD,
    MAX_SEEDS,
    SP_ALL,
    AdvantageEffect,
    AfterAttackEffect,
    AfterDefenceEffect,
    AllyEffect,
    AllyMoveEffect,
    AreaAttackEffect,
    AreaHinderEffect,
    ArrangeTopEffect,
    AttackBonusEffect,
    AttackEffect,
    AttackRulesEffect,
    BarReactivesEffect,
    BleedEffect,
    BonusAgainstEffect,
    BuffNextAttackEffect,
    BuffThisTurnEffect,  # issue 17, triggers
    CardDef,
    Condition,
    CounterEffect,
    CoverEffect,
    DamageAuraEffect,
    DamageBargainEffect,
    DamageNextTurnEffect,
    DefenceEffect,
    DeflectEffect,
    DestroyOnCriticalEffect,  # issue 17, triggers
    DetonateSeedsEffect,
    DiscardChosenEffect,
    DiscardEffect,
    DiscardForEffect,
    DiscardHandEffect,
    DrawEffect,
    DrawPenaltyEffect,
    DuelEffect,
    Effect,
    EnhanceNextAttackEffect,
    FollowUpEffect,
    ForfeitTokensEffect,
    FreePassageEffect,  # issue 17, triggers
    GainSpEffect,
    GainTokensEffect,
    GiveHeatEffect,
    GrantMoveEffect,
    GrantRotationEffect,
    GuardEffect,
    HeatCapacityEffect,  # issue 17, triggers
    HeatEffect,
    HinderEffect,
    IgnoreCoverEffect,
    LastingBonusEffect,  # issue 17, triggers
    LimitEffect,
    LookAtHandEffect,
    LowerDefenceEffect,
    MarkEffect,
    MoveCostEffect,
    MoveEffect,
    NoAttacksEffect,
    OfferMissEffect,
    OngoingDamageEffect,
    PlantSeedsEffect,
    PushEffect,
    RecoverEffect,
    RecoverNamedEffect,
    ReduceIncomingEffect,
    RemoveDamageCardEffect,
    RemoveFromGameEffect,
    RemoveHeatRolledEffect,
    RemoveTaintRolledEffect,
    RiposteEffect,  # issue 17, triggers
    RollSufferingEffect,
    RootEffect,
    RotateEffect,
    ScatterEffect,
    ScavengeWreckEffect,
    SeedAreaEffect,
    SelfDamageEffect,  # issue 17, triggers
    ShuffleInEffect,
    SpBoostEffect,  # issue 17, triggers
    SpendTaintEffect,
    SpendTokensEffect,
    SpPenaltyEffect,
    StatusEffect,
    TaintCounterEffect,  # issue 17, triggers
    TaintEffect,
    TargetDiscardsEffect,
    TeleportEffect,
    TerrainEffect,
    ThornsEffect,  # issue 17, triggers
    TokenCostEffect,  # issue 17, triggers
    TransformEffect,
    TriggerEffect,
    UltimatumEffect,
    UnflankableEffect,  # issue 17, triggers
    UnlessSpentEffect,
    UntargetableEffect,
    WardEffect,
    WhenEffect,
    WindowEffect,
    ZoneEffect,
)
from ..dice import (
    STRAIN_AUTO_FAIL_HEAT,
    SUFFERING_DIE,
    attack_result,
    component_for_roll,
    defence_result,
    odds,
    strain_result,
)
from ..errors import RuleViolation
from ..hexes import Hex
from ..los import line_of_sight
from ..movement import forced_path, teleport_problem, validate_free_path, validate_path
from ..ruleset import ENGINE_VERSION
from ..tohit import (
    ATTACKER_STATUSES,
    MAX_DAMAGE,
    MAX_REACHABLE_TARGET,
    TARGET_STATUSES,
    Attacker,
    Modifier,
    Target,
    ToHit,
    Weapon,
    WeaponRange,
    parse_range,
    to_hit,
)
from . import events as ev
from .commands import (
    AdjustComponentDamage,
    AdjustHeat,
    AdjustTaint,
    Arrange,
    Attack,
    Choose,
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
    FollowUp,
    PlacedTerrain,
    Ward,
    card_id,
)

VENT_COST = 2  # seed 002 "Common Actions": Vent Heat, 2 SP, remove 3 Heat (R-ADD-19)
VENT_HEAT = 3
NEURAL_FEEDBACK_EVERY = 5  # R-DMG-7
SURVIVAL_WOUND_FACES = (1, 2, 3)  # R-PLT-3: on 1–3 the pilot takes 2 wounds
SURVIVAL_WOUNDS = 2
JAM_HEAT = 2  # catastrophic failure, seed 001 (R-HIT-4, R-DMG-1)
REAR = 4  # R-ARC-2: the rear side
PROMPT_COMMANDS = {
    "mulligan": (KeepHand, Mulligan),
    "reactive": (PlayReactive, NoReactive),
    "take_damage": (TakeDamage,),
    "discard_down": (DiscardDown,),
    "discard": (DiscardDown,),  # a card's "discard N of your choice" (R-ADD-62)
    "arrange": (Arrange,),  # "look at the top N cards, arrange them" (R-ADD-157)
    "ultimatum": (Choose,),  # "target enemy must choose" (R-ADD-159)
    "bargain": (Choose,),  # "enemy may discard 2 cards to reduce damage to 2" (R-ADD-159)
    "siphon": (Choose,),  # a reactive card's "miss this attack, give me 2 tokens" (R-ADD-159)
    "duel": (Choose,),  # "challenge 1 visible enemy to Honor Duel" (R-ADD-174)
}
# The ruling behind each prompt, cited when an answer comes without its prompt.
PROMPT_RULES = {
    "mulligan": "R-TRN-1",
    "reactive": "R-REA-1",
    "take_damage": "R-DMG-6",
    "discard_down": "R-TRN-7",
    "discard": "R-ADD-62",
    "arrange": "R-ADD-157",
    "ultimatum": "R-ADD-159",
    "bargain": "R-ADD-159",
    "siphon": "R-ADD-159",
    "duel": "R-ADD-174",
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
        command,
        KeepHand
        | Mulligan
        | PlayReactive
        | NoReactive
        | TakeDamage
        | DiscardDown
        | Arrange
        | Choose,
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
        _reactive_declined(tx, seat)
    elif kind == "take_damage":
        _take_damage(tx, seat, (), amount, component)
        _after_damage(tx)
    elif kind == "discard_down":
        hand = tx.seat(seat).hand
        tx.emit(ev.CardsDiscarded(seat, hand[len(hand) - amount :], (), "discard down", "R-TRN-7"))
    elif kind == "discard":
        hand = tx.seat(seat).hand
        tx.emit(ev.CardsDiscarded(seat, hand[len(hand) - amount :], (), "chosen", "R-ADD-62"))
    elif kind == "arrange":  # the order is kept, nothing spent (R-ADD-157)
        _arranged(tx, seat, tx.seat(seat).deck[:amount], False)
    elif kind == "ultimatum":  # the damage, as auto takes any damage (R-ADD-159)
        _ultimatum(tx, seat, "damage", amount)
    elif kind == "bargain":  # no cards given up (R-ADD-159)
        _reactive_window(tx)
    elif kind == "siphon":  # the price refused: the hit stands (R-ADD-159)
        _roll_defence(tx)
    elif kind == "duel":  # a binding challenge is accepted (R-ADD-174)
        _duel_answer(tx, seat, True)


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
            if s.follow_ups and s.attack is None:
                _follow_up(tx)  # R-ADD-80: the card's next attack, nobody decides it
            elif active is None:
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
    for seat in order:  # R-ADD-137, R-ADD-147: "at the start of each round", in turn order
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
    before = tx.seat(seat)
    penalty = before.sp_penalty  # TurnStarted clears it
    scheduled = before.damage_next_turn  # TurnStarted clears it too
    # R-ADD-112: this turn's share of ongoing damage (TurnStarted moves the rest up).
    scheduled += before.ongoing_damage[0] if before.ongoing_damage else 0
    # R-ADD-88: the enemies' damage auras this casket stands in as its turn starts, taken
    # with R-ADD-73's scheduled damage.
    aura_damage = _aura_damage(tx, seat)
    skip = before.skip_next_turn
    tx.emit(ev.TurnStarted(seat))
    if skip:
        # R-ADD-159: the turn starts (what lasts until it lapses) and ends at once: no SP,
        # no triggers, no strain roll, no actions, no draw; damage due now still lands.
        tx.emit(ev.TurnSkipped(seat))
        bled = _bleed(tx, seat)
        _scheduled_damage(tx, seat, scheduled + bled, bled, aura_damage)
        return
    c = tx.seat(seat)
    lines = _sp_lines(c)
    tx.emit(ev.SpRestored(seat, max(0, sum(v for _, v, _ in lines)), lines))
    if penalty:  # R-ADD-65: an enemy card's "−N SP next turn"
        tx.emit(ev.SpDrained(seat, min(penalty, tx.seat(seat).sp_max), "R-ADD-65"))
    _triggers(tx, seat, "start_of_turn")
    _zones(tx, seat)
    bled = _bleed(tx, seat)
    scheduled += bled
    c = tx.seat(seat)
    heat = c.heat
    if heat < STRAIN_HEAT:
        _scheduled_damage(tx, seat, scheduled, bled, aura_damage)
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
            reason += " or Bleed (R-ADD-110)" if bled else ""
        if aura_damage:
            reason += " and an enemy's damage aura (R-ADD-88)"
        _inflict(tx, seat, result.damage + scheduled + aura_damage, None, reason)
        return
    elif result.critical_failure:
        face = tx.dice.d6(1, purpose="the malfunction component roll", rule="R-TRN-4")[0]
        _component_damage(
            tx, seat, component_for_roll(face), 1, "strain: critical failure", "R-TRN-4"
        )
    _scheduled_damage(tx, seat, scheduled, bled, aura_damage)


def _bleed(tx: _Tx, seat: int) -> bool:
    """R-ADD-110: a bleeding casket's turn start: one counter off, 1 damage taken with the
    other damage of that moment. Whether it bled."""
    c = tx.seat(seat)
    if not (c.bleed and c.in_battle):
        return False
    tx.emit(ev.BleedTicked(seat, c.bleed - 1))
    return True


def _aura_damage(tx: _Tx, seat: int) -> int:
    c = tx.seat(seat)
    return sum(
        x.damage_aura
        for x in tx.state.seats
        if x.damage_aura
        and x.in_battle
        and x.side != c.side
        and x.at.distance(c.at) <= x.damage_aura_within
    )


def _scheduled_damage(tx: _Tx, seat: int, amount: int, bled: bool, aura: int) -> None:
    """R-ADD-73: poison or fire an enemy's card scheduled for the start of this turn, with
    ongoing damage (R-ADD-112), Bleed (R-ADD-110) and R-ADD-88's aura damage: one discard."""
    reasons = []
    if amount:
        reasons.append(
            "damage scheduled by a card (R-ADD-73)" + (" or Bleed (R-ADD-110)" if bled else "")
        )
    if aura:
        reasons.append("an enemy's damage aura (R-ADD-88)")
    if amount or aura:
        _inflict(tx, seat, amount + aura, None, " and ".join(reasons))


def _end_turn(tx: _Tx, seat: int) -> None:
    """Draw (R-TRN-6) and End (R-TRN-7) for the seat that passed."""
    c = tx.seat(seat)
    # R-ADD-114: an enemy card's "draws N fewer cards next turn"
    fill = HAND_SIZE - c.draw_penalty
    if len(c.hand) < fill:
        reason = "draw phase" + (" (fewer: R-ADD-114)" if c.draw_penalty else "")
        _draw(tx, seat, fill - len(c.hand), reason)
    c = tx.seat(seat)
    if not c.in_battle:
        return
    _triggers(tx, seat, "end_of_turn")  # R-TRN-7: end-of-turn effects
    c = tx.seat(seat)
    water = tx.state.board.terrain_at(c.at).heat_end_of_turn
    if water < 0 and c.heat:
        _change_heat(tx, seat, water, "end of turn in water", "R-TRN-7")
    elif water > 0:  # issue 17, terrain: lava's +2 (R-ADD-160) needs no Heat to start from
        name = tx.state.board.terrain_at(c.at).name
        _change_heat(tx, seat, water, f"end of turn in {name}", "R-ADD-160")
    if tx.state.ground_of(c) == ("holy", "ally") and tx.seat(seat).heat:  # R-ADD-163
        _change_heat(tx, seat, -1, "end of turn on holy ground", "R-ADD-163")
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


def _inflict(
    tx: _Tx,
    seat: int,
    amount: int,
    component: str | None,
    reason: str,
    *,
    attack: CardDef | None = None,
) -> None:
    """Damage the defender must discard: their choice of split unless there is none (R-DMG-6).
    The defender's wards act on it first (R-ADD-94); `attack` is the card of the attack
    that deals it, None for damage without an attack."""
    amount = _warded(tx, seat, amount, attack)
    amount = _reduce_taken(tx, seat, amount)  # R-ADD-136: the casket's standing reductions
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
        tx.emit(ev.PromptClosed(seat, "reactive"))
        _reactive_declined(tx, seat)
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
    elif isinstance(command, Choose):
        _choose(tx, command, prompt.kind, prompt.amount)
    elif isinstance(command, Arrange):
        order = _arrangement(tx.seat(seat), prompt.amount, command.cards)
        tx.emit(ev.PromptClosed(seat, "arrange"))
        _arranged(tx, seat, order, command.spend)


def _arrangement(c: CasketState, n: int, names: Sequence[str]) -> tuple[str, ...]:
    """R-ADD-157: the top `n` cards of the deck in the order `names` gives (instance or
    card ids), each exactly once."""
    top = list(c.deck[:n])
    out: list[str] = []
    for name in names:
        match = next((x for x in top if x == name or card_id(x) == name), None)
        if match is None:
            raise RuleViolation(
                "not_looked_at",
                f"cards: {name!r} is not one of the {n} card(s) looked at (or is named twice)",
                "R-ADD-157",
            )
        top.remove(match)
        out.append(match)
    if top:
        raise RuleViolation(
            "wrong_arrange_count", f"put back all {n} card(s) looked at, in order", "R-ADD-157"
        )
    return tuple(out)


def _choose(tx: _Tx, command: Choose, kind: str, amount: int) -> None:
    """R-ADD-159: an ultimatum's or a damage bargain's answer; each takes its own options."""
    seat = command.seat
    options = {
        "ultimatum": ("damage", "skip_turn"),
        "bargain": ("discard", "decline"),
        "siphon": ("pay", "decline"),
        "duel": ("accept", "refuse"),  # R-ADD-174
    }[kind]
    if command.option not in options:
        raise RuleViolation(
            "wrong_option", f"the {kind} prompt's options are {', '.join(options)}", "R-ADD-159"
        )
    if command.cards and command.option != "discard":
        raise RuleViolation("unused_argument", "only 'discard' names cards", "R-ADD-159")
    if kind == "ultimatum":
        tx.emit(ev.PromptClosed(seat, kind))
        _ultimatum(tx, seat, command.option, amount)
        return
    if kind == "siphon":
        _siphon(tx, seat, command.option == "pay")
        return
    if kind == "duel":
        _duel_answer(tx, seat, command.option == "accept")
        return
    if command.option == "discard":
        if len(command.cards) != amount:
            raise RuleViolation(
                "wrong_discard_count", f"give up exactly {amount} hand card(s)", "R-ADD-159"
            )
        a = tx.state.attack
        assert a is not None
        card = tx.state.card(a.card)
        bargain = next(e for e in card.effects if isinstance(e, DamageBargainEffect))
        cards = _hand_cards(tx.seat(seat), command.cards, "cards", "R-ADD-159")
        tx.emit(ev.CardsDiscarded(seat, cards, (), f"{card.name}: bargain", "R-ADD-159"))
        tx.emit(ev.HitDamageBargained(seat, bargain.damage, card.id))
    tx.emit(ev.PromptClosed(seat, kind))
    _reactive_window(tx)


def _siphon(tx: _Tx, seat: int, pay: bool) -> None:
    """R-ADD-159: the attacker pays the reactive card's price to its defender and the hit
    becomes a miss, or refuses and the defence dice are rolled."""
    a = tx.state.attack
    assert a is not None and a.reactive is not None
    reactive = tx.state.card(a.reactive)
    offer = next(e for e in reactive.effects if isinstance(e, OfferMissEffect))
    tx.emit(ev.PromptClosed(seat, "siphon"))
    if not pay:
        _roll_defence(tx)
        return
    have = tx.seat(seat).tokens_of(offer.pool)
    if have < offer.n:  # pragma: no cover - the prompt opens only with the tokens
        raise RuleViolation("not_enough_tokens", f"seat {seat} holds {have}", "R-ADD-61")
    tx.emit(ev.TokensChanged(seat, offer.pool, -offer.n, have - offer.n, reactive.id))
    _gain_tokens(tx, a.target, GainTokensEffect(offer.pool, offer.n), reactive.id)
    tx.emit(ev.HitBargainedAway(seat, reactive.id))
    _end_attack(tx, "miss")


def _duel_answer(tx: _Tx, seat: int, accepted: bool) -> None:
    """R-ADD-174: the challenged casket's answer: a duel, or Coward's Mark."""
    challenger = tx.seat(seat).challenged_by
    assert challenger is not None
    source = tx.seat(challenger).duel_source
    assert source is not None
    duel = next(e for e in tx.state.card(source).effects if isinstance(e, DuelEffect))
    tx.emit(ev.PromptClosed(seat, "duel"))
    tx.emit(ev.DuelAnswered(seat, challenger, accepted, duel.mark_damage))


def _duel_refusal(c: CasketState, d: CasketState, seats: Sequence[CasketState]) -> str | None:
    """R-ADD-174: why `c` may not attack `d` while an Honor Duel holds (None: it may). A
    duel whose other casket has left the battle no longer binds."""
    if c.duel_with is not None and seats[c.duel_with].in_battle and c.duel_with != d.seat:
        return f"seat {c.seat} is in an Honor Duel: it may attack only seat {c.duel_with}"
    if d.duel_with is not None and seats[d.duel_with].in_battle and d.duel_with != c.seat:
        return f"seat {d.seat} is in an Honor Duel: only seat {d.duel_with} may attack it"
    return None


def _coward_bonus(c: CasketState, d: CasketState) -> int:
    """R-ADD-174: Coward's Mark, "all Crucible attacks against them deal +2": an attack by
    a casket whose setup names the Crucible (R-ADD-121) or by the challenger who marked it."""
    if d.cowards_mark and (c.faction == "crucible" or c.seat == d.coward_of):
        return d.cowards_mark
    return 0


def _ultimatum(tx: _Tx, seat: int, option: str, damage: int) -> None:
    """R-ADD-159: the damage now (no attack, the chooser's split, R-DMG-6, R-DMG-8), or the
    next turn skipped."""
    tx.emit(ev.UltimatumAnswered(seat, option))
    if option == "damage":
        _inflict(tx, seat, damage, None, "an ultimatum's damage, chosen (R-ADD-159)")


def _arranged(tx: _Tx, seat: int, order: tuple[str, ...], spend: bool) -> None:
    """R-ADD-157: the looked-at cards go back in `order`; then the card's `then` runs,
    its spend paid when the answer says `spend`."""
    card = tx.state.card(tx.seat(seat).arranging)
    effect = next(e for e in card.effects if isinstance(e, ArrangeTopEffect))
    spends = [e for e in effect.then if isinstance(e, SpendTokensEffect)]
    if spend and not spends:
        raise RuleViolation(
            "unused_argument", f"{card.name} has no effect that uses 'spend'", "R-ADD-61"
        )
    for cost in spends if spend else []:
        _check_holds(tx, seat, card, cost.pool, cost.n)
    tx.emit(ev.DeckArranged(seat, order))
    for then in effect.then:
        _effect(tx, seat, card, then, None, (), None, (), {}, False, spend)


def _reactive_ok(tx: _Tx, card: CardDef, seat: int | None = None) -> bool:
    """Whether `card` may answer the attack now, played by `seat` (default: the attacked
    casket; an ally covering it, R-ADD-122, pays from its own pool)."""
    a = tx.state.attack
    cost = card.token_cost
    payer = a.target if a is not None and seat is None else seat
    return (
        a is not None
        and payer is not None
        and card.kind == "reactive"
        and a.reactive_allowed
        and (a.shield_allowed or not card.shield)
        and _in_window(tx, card)
        # R-ADD-133: a card printed with a token cost only with the player's tokens
        and (cost is None or tx.seat(payer).tokens_of(cost.pool) >= cost.n)
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
    pledged = [x for x in tx.seat(seat).in_play if tx.state.card(x).pledge]
    a = tx.state.attack
    if command.card in pledged and a is not None and seat != a.target:
        instance = command.card  # R-ADD-122: a cover waiting in play, not in the hand
    else:
        instance = _hand_cards(tx.seat(seat), [command.card], "card", "R-REA-1")[0]
    card = tx.state.card(instance)
    if card.kind != "reactive" and not card.pledge:
        raise RuleViolation(
            "not_reactive", f"{card.name} is not a reactive card: not now", "R-REA-1"
        )
    if card.shield and not _reactive_ok(tx, card, seat):
        raise RuleViolation(
            "shield_side_only",
            f"{card.name} is a shield card: only against attacks on a shield side",
            "R-REA-2",
        )
    if not _in_window(tx, card):
        raise RuleViolation(
            "outside_window", f"{card.name} answers only attacks made in melee", "R-ADD-58"
        )
    assert a is not None
    cover = _cover_of(card)
    if seat != a.target:  # an ally's window: only a card that takes the damage (R-ADD-122)
        if cover is None:
            raise RuleViolation(
                "not_a_cover_card",
                f"{card.name} does not take an ally's damage: only such a card answers for "
                f"seat {a.target}",
                "R-ADD-122",
            )
        distance = tx.seat(seat).at.distance(tx.seat(a.target).at)
        if distance > cover.within:
            raise RuleViolation(
                "out_of_range",
                f"{card.name} covers an ally within {cover.within} hexes; seat {a.target} is "
                f"{distance} hexes away",
                "R-ADD-122",
            )
    elif cover is not None:
        raise RuleViolation(
            "cover_for_an_ally",
            f"{card.name} takes an ally's damage, not the attacked casket's own",
            "R-ADD-122",
        )
    _check_limit(tx.seat(seat), card)
    _check_token_cost(tx, seat, card)
    _check_spend(tx, seat, card, command.spend)
    _check_taint_spend(tx, seat, card, command.spend, None, None)
    bought: list[SpendTokensEffect | SpendTaintEffect] = []
    if command.spend:
        bought = [e for e in card.effects if isinstance(e, SpendTokensEffect | SpendTaintEffect)]
    # R-ADD-59: a reactive card's conditions read the defender's state as it is played.
    held = [
        e for e in card.effects if isinstance(e, WhenEffect) and _holds(tx, seat, e.condition, None)
    ]
    extra: list[Effect] = [x for e in bought for x in e.then] + [x for e in held for x in e.then]
    if not command.spend:  # R-ADD-151: what a spend would have replaced
        extra += [x for e in card.effects if isinstance(e, UnlessSpentEffect) for x in e.then]
    effects = [*card.effects, *extra]
    # R-ADD-125: a deflection takes its damage off as a reduction does.
    reduction = sum(
        e.amount for e in effects if isinstance(e, ReduceIncomingEffect | DeflectEffect)
    )
    dodge = _dodge(tx, seat, card, command.path)
    if cover is not None:
        if dodge:
            raise RuleViolation(
                "unused_argument", f"{card.name} covers an ally: no 'path'", "R-ADD-107"
            )
        tx.emit(ev.AttackCovered(seat, a.target, instance, reduction))
    else:
        tx.emit(ev.ReactivePlayed(seat, instance, reduction, dodge))
    _pay_tokens(tx, seat, card)
    for taint in (
        [e for e in card.effects if isinstance(e, TaintCounterEffect)] if command.spend else []
    ):
        # R-ADD-130: "Spend 1 Taint: deal 4 damage instead" (checked in `_check_spend`)
        _change_taint(tx, seat, -taint.n, card.id)
        tx.emit(ev.CounterRaised(seat, taint.counter, card.id))
    for spent in bought:
        if isinstance(spent, SpendTaintEffect):
            _spend_taint(tx, seat, card, spent)  # R-ADD-145: the defender's own pilot's
        else:
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
            _change_taint(tx, seat, effect.change(tx.seat(seat).taint), card.id)
        elif isinstance(effect, MoveCostEffect):  # R-ADD-113: on the attacker
            assert tx.state.attack is not None
            tx.emit(ev.MoveCostRaised(tx.state.attack.attacker, effect.amount, card.id))
        elif isinstance(effect, LastingBonusEffect):
            _lasting_bonus(tx, seat, effect, card.id)
        elif isinstance(effect, EnhanceNextAttackEffect):
            # R-ADD-183: "next attack this turn" on a reactive card waits for the owner's
            # next attack, in its own next turn, and lapses as that turn ends.
            _enhance(tx, seat, card, effect)
    tx.emit(ev.PromptClosed(seat, "reactive"))
    if cover is not None:
        _reactive_window(tx)  # the attacked casket may still play its own (R-ADD-122)
        return
    # R-ADD-159: "offer bargain: miss this attack, give me N tokens": the attacker, when it
    # holds them, chooses before the defence roll.
    offer = next((e for e in card.effects if isinstance(e, OfferMissEffect)), None)
    if offer is not None and tx.seat(a.attacker).tokens_of(offer.pool) >= offer.n:
        reason = (
            f"{card.name}: give {offer.n} {offer.pool} token(s) to seat {seat} and the attack "
            "misses, or refuse and it hits"
        )
        _open_prompt(tx, a.attacker, "siphon", offer.n, None, "R-ADD-159", reason)
        return
    _roll_defence(tx)


def _reactive_defence(tx: _Tx, instance: str | None) -> int:
    """R-ADD-98: the automatic blocks a reactive card adds to the attack it answers."""
    if instance is None:
        return 0
    return sum(e.amount for e in tx.state.card(instance).effects if isinstance(e, DefenceEffect))


def _dodge(tx: _Tx, seat: int, card: CardDef, path: Sequence[Hex]) -> tuple[tuple[int, int], ...]:
    """R-ADD-107: the move a reactive card makes once the attack it answers has ended,
    declared with the card: up to its hexes, each step legal from where the casket
    stands now (R-TRN-5, R-LOS-5); empty: no move ("up to")."""
    move = next((e for e in card.effects if isinstance(e, MoveEffect)), None)
    if not path:
        return ()
    if move is None:
        raise RuleViolation("unused_argument", f"{card.name} makes no move: no 'path'", "R-ADD-107")
    if len(path) > move.hexes:
        raise RuleViolation(
            "path_too_long", f"{card.name} moves at most {move.hexes} hex(es)", "R-ADD-107"
        )
    _path_cost(tx, tx.seat(seat), path)
    return tuple((h.q, h.r) for h in path)


def _dodged(tx: _Tx, seat: int, card: str, path: tuple[tuple[int, int], ...]) -> None:
    """R-ADD-107: the declared dodge, as the attack ends; a casket destroyed or pushed
    since (R-ADD-100), whose path is no longer legal from where it stands, stays."""
    c = tx.seat(seat)
    if not c.in_battle:
        return
    try:
        _path_cost(tx, c, [Hex(q, r) for q, r in path])
    except RuleViolation:
        return
    tx.emit(ev.CasketMoved(seat, path, 0, card_id(card)))
    _entered(tx, seat, c.at, [Hex(q, r) for q, r in path])  # R-ADD-165


def _reactive_minimum(tx: _Tx, instance: str | None) -> int:
    """R-ADD-58: the least damage a reactive card's "(minimum 1)" reduction leaves."""
    if instance is None:
        return 0
    effects = tx.state.card(instance).effects
    spends = SpendTokensEffect | WhenEffect | SpendTaintEffect
    inner = [x for e in effects if isinstance(e, spends) for x in e.then]
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
    # R-ADD-98: a reactive card's "+N Defense vs next attack" adds blocks to this attack,
    # unless a PIERCE face voids the card (R-DMG-4).
    blocks = 0 if a.defence_buffs_ignored else _reactive_defence(tx, a.reactive)
    if blocks and not result.pierce:
        result = defence_result(faces, a.damage, a.defence_modifier + blocks, die)
    # R-DMG-4: PIERCE leaves the reactive card spent and without effect.
    reduction = 0 if result.pierce else a.reduction
    final = max(0, result.final_damage - reduction)
    if reduction:  # R-ADD-58: "reduce by N (minimum 1)" never takes a hit below 1
        final = max(final, min(_reactive_minimum(tx, a.reactive), result.final_damage))
    if a.warded_by is not None:  # R-ADD-128: the ward negates all the attack's damage
        final = 0
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
    deflect = sum(
        e.amount
        for e in (tx.state.card(a.reactive).effects if a.reactive else ())
        if isinstance(e, DeflectEffect)
    )
    if deflect and a.warded_by is None and result.final_damage > final:  # R-ADD-125
        tx.emit(ev.DamageDeflected(a.target, a.attacker, min(deflect, result.final_damage - final)))
    if result.heat:
        _change_heat(tx, a.target, result.heat, "HEAT defence faces", "R-DMG-4")
    if result.component_damage:
        _component_damage(
            tx, a.target, a.component, result.component_damage, "CRITICAL defence faces", "R-DMG-4"
        )
    if a.reactive is not None and not result.pierce:  # R-ADD-97: "if you block 3+ damage"
        _after_defence(tx, a.target, a.reactive, "prevented_at_least", result.final_damage - final)
    attack = tx.state.card(a.card)
    cover = a.covered_by
    if cover is not None and not result.pierce and tx.seat(cover).in_battle:
        # R-ADD-122: the damage the roll leaves is the covering ally's, less its card's
        # reduction; the roll's Heat and Component Damage stay the attacked casket's.
        taken = max(0, final - a.cover_reduction)
        if a.cover_reduction:
            taken = max(taken, min(_reactive_minimum(tx, a.cover_card), final))
        name = tx.state.card(a.cover_card).name if a.cover_card else "cover"
        reason = f"{name}: seat {a.target}'s damage from an attack by seat {a.attacker} (R-ADD-122)"
        _inflict(tx, cover, taken, None, reason, attack=attack)
        return
    _inflict(tx, a.target, final, a.component, f"an attack by seat {a.attacker}", attack=attack)


def _after_defence(tx: _Tx, seat: int, reactive: str, test: str, prevented: int) -> None:
    """R-ADD-97: the reactive card's effects waiting for what it did."""
    card = tx.state.card(reactive)
    for effect in card.effects:
        if isinstance(effect, AfterDefenceEffect) and effect.test == test:
            if test == "prevented_at_least" and prevented < effect.n:
                continue
            for inner in effect.then:
                _effect(tx, seat, card, inner, None, (), None, (), {}, True)


def _end_attack(tx: _Tx, outcome: str) -> None:
    a = tx.state.attack
    assert a is not None
    card = tx.state.card(a.card)
    hit = outcome in ("hit", "execution")
    # R-ADD-65: the target was in the battle when the attack was declared, so a defeated
    # target now was destroyed by this attack.
    killed = hit and tx.seat(a.target).defeated
    # R-ADD-95: "on miss" is a roll that missed, not a catastrophic failure; "if this deals
    # damage" reads the damage after the defender's wards (an EXECUTION's is all of it).
    dealt = a.damage if outcome == "execution" else (a.final_damage or 0) if hit else 0
    fires = {
        "kill": killed,
        "hit": hit,
        "end": True,
        "miss": outcome == "miss",
        "damage": dealt > 0,
    }
    d = tx.seat(a.target)
    if (
        a.grade == "critical"
        and hit
        and d.in_battle
        and a.component not in d.destroyed
        and any(isinstance(e, DestroyOnCriticalEffect) for e in card.effects)
    ):
        _destroy(tx, a.target, a.component)  # R-ADD-131: "Destroy 1 Component on Crit"
    waiting = list(card.effects)
    if tx.seat(a.attacker).armed_spend == card.id:  # R-ADD-116: bought with the spend
        waiting += [x for e in card.effects if isinstance(e, SpendTokensEffect) for x in e.then]
    for effect in waiting:
        # R-ADD-187: an effect for the further attacks only does not follow the first.
        if isinstance(effect, AfterAttackEffect) and effect.attacks == "further" and not a.further:
            continue
        if isinstance(effect, AfterAttackEffect) and fires[effect.on]:
            for inner in effect.then:
                _effect(tx, a.attacker, card, inner, None, (), None, (), {}, True,
                        attack_target=a.target, ended=True)  # fmt: skip
    # R-ADD-180: the hit effects an enhancement this attack spent brought, as its card's.
    for source in a.enhanced_by:
        for effect in _carried(tx.state, source):
            if isinstance(effect, AfterAttackEffect) and fires[effect.on]:
                for inner in effect.then:
                    _effect(tx, a.attacker, tx.state.cards[source], inner, None, (), None, (),
                            {}, True, attack_target=a.target, ended=True)  # fmt: skip
    thorns = _thorns(tx)  # read before AttackEnded spends the next attack's thorns
    tx.emit(ev.AttackEnded(a.attacker, a.card, outcome))
    # R-ADD-107: the defender's dodge, unless a PIERCE face voided its card (R-DMG-4).
    if a.reactive is not None and a.reactive_path and not a.pierced:
        _dodged(tx, a.target, a.reactive, a.reactive_path)
    # R-ADD-58: the reactive card's counter-damage, once the attack has ended; a PIERCE
    # face voided the card (R-DMG-4).
    counter = 0
    reasons: list[str] = []
    if a.reactive is not None and not a.pierced:
        if a.final_damage:  # R-ADD-97: "if you took damage"
            _after_defence(tx, a.target, a.reactive, "took_damage", 0)
        answer = tx.state.card(a.reactive)
        effects = answer.effects
        counter = a.extra_counter + sum(e.damage for e in effects if isinstance(e, CounterEffect))
        if a.final_damage:  # R-ADD-130: "after taking damage, counterattack for 3"
            counter += sum(e.damage for e in effects if isinstance(e, RiposteEffect))
        if counter:
            reasons.append(f"{answer.name}: counter-damage (R-ADD-58)")
        elif a.deflected:
            counter = a.deflected
            reasons.append(f"{answer.name}: deflected damage (R-ADD-125)")
        # R-ADD-143: "attacker gains N Heat", voided with the rest of the card by PIERCE.
        heat = sum(
            e.amount for e in effects if isinstance(e, GiveHeatEffect) and e.to == "attacker"
        )
        if heat and tx.seat(a.attacker).in_battle:
            _change_heat(tx, a.attacker, heat, answer.name, "R-ADD-143")
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


def attack_answer(
    state: BattleState,
    seat: int,
    card: CardDef,
    target: int,
    effect: AttackEffect | None = None,
    *,
    reach: int | None = None,
) -> ToHit:
    """The rules engine's to-hit answer for `seat` attacking `target` with `card` (R-HIT-1);
    `effect` is one of the card's further attacks (R-ADD-80), else its first. An aura
    card's attacks are not refused for line of sight or arc (R-ADD-85). `reach`: the hexes
    the card reaches further, by default those of the enhancements still waiting (an
    attack that has spent them gives its own, R-ADD-90)."""
    a = state.seats[seat]
    d = state.seats[target]
    effect = effect if effect is not None else card.attack
    assert effect is not None
    others = [c.at for c in state.seats if c.seat not in (seat, target) and c.in_battle]
    enemies = state.enemy_hexes(a)
    to_hit_lines, damage_lines = _attack_lines(a)
    if state.ground_of(a) == ("distortion", "enemy"):  # issue 17, terrain (R-ADD-163)
        to_hit_lines.append(Modifier("distortion", 1, "Attacking from distortion", "R-ADD-163"))
    ward_to_hit, ward_damage = _ward_lines(d, card)
    to_hit_lines += ward_to_hit
    damage_lines += ward_damage
    answer = to_hit(
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
        Weapon(_reach(a, card, effect.range, reach), effect.damage, card.name),
        others=others,
        enemies=enemies,
        rules=state.ruleset,
        extra_to_hit=to_hit_lines,
        extra_damage=damage_lines,
        # R-ADD-176: "roll with Advantage" is the card's own attack's, not its further ones'.
        advantage=sum(e.n for e in card.effects if isinstance(e, AdvantageEffect))
        if effect is card.attack
        else 0,
    )
    return _aura(card, answer)


# --- issue 17, buffs: enhancements, the own attack's rules, wards --------------------------------


def _ranged(card: CardDef) -> bool:
    """R-ADD-90: a ranged attack is one made with a card whose range is not Melee, the test
    of R-ARC-3's firing arc."""
    return card.attack is not None and not card.attack.range.melee


def attack_cost(state: BattleState, seat: int, card: CardDef) -> int:
    """The SP an attack with `card` costs `seat` now: its printed cost, less what the
    enhancements it would spend take off, never below 0 (R-ADD-99)."""
    waiting = state.seats[seat].enhancements
    return max(0, card.sp_cost + sum(x.sp_cost for x in waiting if _enhances(x.attacks, card)))


def _extra_reach(c: CasketState, card: CardDef) -> int:
    """R-ADD-90: the waiting enhancements' "+N range" for an attack with `card`."""
    return sum(x.reach for x in c.enhancements if _enhances(x.attacks, card))


def _reach(
    c: CasketState, card: CardDef, printed: WeaponRange, more: int | None = None
) -> WeaponRange:
    """R-ADD-90: the card's range, reaching `more` hexes further (the waiting enhancements')."""
    if more is None:
        more = _extra_reach(c, card)
    if not more:
        return printed
    return WeaponRange(f"{printed.low}-{printed.high + more}", printed.low, printed.high + more)


def _enhances(attacks: str, card: CardDef) -> bool:
    """Whether an enhancement for `attacks` ("any", "ranged", "melee") is for this attack."""
    return attacks == "any" or (attacks == "ranged") == _ranged(card)


def _use_enhancements(
    tx: _Tx, seat: int, card: CardDef, target: int, reach: int
) -> tuple[set[str], tuple[str, ...]]:
    """R-ADD-90: the waiting enhancements this attack spends, before its to-hit answer.
    Their numbers are BuffGained the attack spends (R-ADD-27); cover and the range band
    are cancelled as R-ADD-60 cancels cover, once each; the flags are returned, with the
    enhancing cards whose hit effects wait for this attack's outcome (R-ADD-180)."""
    chosen = [
        (i, x) for i, x in enumerate(tx.seat(seat).enhancements) if _enhances(x.attacks, card)
    ]
    if not chosen:
        return set(), ()
    spent = tuple(i for i, x in chosen if not x.every)  # R-ADD-96: "all your attacks"
    if spent:
        tx.emit(ev.EnhancementsSpent(seat, spent))
    flags: set[str] = set()
    # The card's own "ignores cover" has already cancelled the cover line (R-ADD-60).
    cancelled = {"cover"} if any(isinstance(e, IgnoreCoverEffect) for e in card.effects) else set()
    for _, x in chosen:
        # R-ADD-173: "+2 damage to enemies that have Bleed": spent, but no damage, without.
        damage = 0 if x.vs_bleeding and not tx.seat(target).bleed else x.damage
        if damage or x.to_hit or x.ignore_defence:
            tx.emit(ev.BuffGained(seat, damage, x.to_hit, x.ignore_defence, 0, x.source))
        for key, wanted in (("cover", x.ignore_cover), ("range", x.ignore_range)):
            if wanted and key not in cancelled:
                cancelled.add(key)
                answer = attack_answer(tx.state, seat, card, target, reach=reach)
                value = sum(m.value for m in answer.modifiers if m.key == key)
                if value:
                    tx.emit(ev.BuffGained(seat, 0, -value, 0, 0, x.source))
        if x.cannot_miss:
            flags.add("cannot_miss")
        if x.ignore_defence_buffs:
            flags.add("ignore_defence_buffs")
    carried: list[str] = []
    for _, x in chosen:
        for effect in _carried(tx.state, x.source):
            if isinstance(effect, AttackBonusEffect):
                # R-ADD-180: read as the attack is declared, its target known (R-ADD-59).
                if _holds(tx, seat, effect.condition, target):
                    tx.emit(ev.BuffGained(seat, effect.damage, effect.to_hit, 0, 0, x.source))
            elif x.source not in carried:
                carried.append(x.source)
    return flags, tuple(carried)


def _enhance(tx: _Tx, seat: int, card: CardDef, effect: EnhanceNextAttackEffect) -> None:
    """R-ADD-90: the enhancement waits for the owner's next attack of its kind."""
    tx.emit(
        ev.AttackEnhanced(
            seat,
            card.id,
            effect.attacks,
            effect.damage,
            effect.to_hit,
            effect.blocks_ignored,
            effect.ignore_cover,
            effect.ignore_range,
            effect.cannot_miss,
            effect.ignore_defence_buffs,
            effect.this_turn,
            effect.every,
            effect.sp_cost,
            effect.reach,
            effect.vs_bleeding,
        )
    )


def _carried(state: BattleState, source: str) -> tuple[Effect, ...]:
    """R-ADD-180: what the enhancing card `source` adds to the attack that spends it."""
    card = state.cards.get(source)
    if card is None:
        return ()
    return tuple(
        inner for e in card.effects if isinstance(e, EnhanceNextAttackEffect) for inner in e.then
    )


def _attack_rules(tx: _Tx, seat: int, card: CardDef, target: int, spend: bool) -> set[str]:
    """R-ADD-91, R-ADD-92: the flags of the card's own attack rules whose condition holds,
    those bought with tokens included when the player spends them (R-ADD-61)."""
    effects = list(card.effects)
    if spend:
        effects += [x for e in card.effects if isinstance(e, SpendTokensEffect) for x in e.then]
    flags: set[str] = set()
    for e in effects:
        if isinstance(e, AttackRulesEffect) and _holds(tx, seat, e.condition, target):
            flags |= {
                n for n in ("cannot_miss", "no_reactive", "ignore_defence_buffs") if getattr(e, n)
            }
    return flags


def _ward_matches(w: Ward, card: CardDef | None) -> bool:
    """R-ADD-93: whether a ward acts on an attack made with `card` (None: damage without an
    attack, which only a ward against "all" damage reduces)."""
    if w.against == "all":
        return True
    if card is None:
        return False
    if w.against == "ranged":
        return _ranged(card)
    if w.against == "melee":
        return not _ranged(card)
    return True


def _ward_lines(d: CasketState, card: CardDef) -> tuple[list[Modifier], list[Modifier]]:
    """R-ADD-93: the target's wards in an attacker's to-hit answer."""
    to_hit_lines: list[Modifier] = []
    damage_lines: list[Modifier] = []
    for w in d.wards:
        if _ward_matches(w, card):
            label = f"Target's ward: {w.source}"
            if w.to_hit:
                to_hit_lines.append(Modifier("ward", w.to_hit, label, "R-ADD-93"))
            if w.damage:
                damage_lines.append(Modifier("ward", w.damage, label, "R-ADD-93"))
    return to_hit_lines, damage_lines


def _spend_declared_wards(tx: _Tx, seat: int, card: CardDef) -> None:
    """R-ADD-93: "the first attack against you", "the next melee attack": a ward with uses
    acting as attacks are declared spends one on the attack just declared."""
    wards = tx.seat(seat).wards
    # From the last, so that a ward leaving the list moves none still to be spent.
    for i in reversed(range(len(wards))):
        w = wards[i]
        if w.uses and w.declared and _ward_matches(w, card):
            tx.emit(ev.WardUsed(seat, i, w.source))


def _warded(tx: _Tx, seat: int, amount: int, attack: CardDef | None) -> int:
    """R-ADD-94: the damage left after the casket's wards, in the order they were raised:
    each takes off its reduction, then caps what reaches its threshold. A ward that changes
    nothing is not used; one that prevents damage recovers its cards (R-ADD-62)."""
    c = tx.seat(seat)
    if amount <= 0 or not c.in_battle:
        return amount
    gone = 0  # wards that left the list: later indices move down
    for i, w in enumerate(c.wards):
        if w.declared or not _ward_matches(w, attack):
            continue
        after = max(0, amount - w.reduce)
        if w.cap is not None and amount >= w.at_least:
            after = min(after, w.cap)
        if after == amount:
            continue
        tx.emit(ev.WardUsed(seat, i - gone, w.source, amount, after))
        if w.uses == 1:
            gone += 1
        amount = after
        if w.recover:
            _recover(tx, seat, w.recover, tx.state.card(w.source).name)
        if not amount:
            break
    return amount


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
        if c.rooted_turns:
            raise RuleViolation(
                "immobilised",
                "a card has rooted this casket: it cannot move this turn",
                "R-ADD-111",
            )
        if "immobilised" in c.statuses:
            raise RuleViolation("immobilised", "an immobilised casket cannot move", "R-ADD-17")
        if any(w.immobile for w in c.wards):
            raise RuleViolation("immobilised", "a card keeps the casket immobile", "R-ADD-93")
        if command.free:
            _free_move(tx, c, command)
            return
        # R-ADD-113: an enemy card's "movement costs +N SP", per hex this turn
        cost = _path_cost(tx, c, command.path) + c.move_cost * len(command.path)
        _pay(tx, c, cost, command.pay)
        tx.emit(ev.CasketMoved(seat, tuple((h.q, h.r) for h in command.path), cost))
        _entered(tx, seat, c.at, command.path)  # R-ADD-165
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
    if c.free_move_split and c.free_move_stage == 1:
        raise RuleViolation(
            "free_move_after_attack",
            "the rest of this move comes after an attack: attack first",
            "R-ADD-109",
        )
    if len(command.path) > c.free_move:
        raise RuleViolation(
            "path_too_long", f"the granted move is at most {c.free_move} hex(es)", "R-ADD-69"
        )
    _path_cost(tx, c, command.path)
    hexes = tuple((h.q, h.r) for h in command.path)
    tx.emit(ev.CasketMoved(c.seat, hexes, 0, c.free_move_source))
    _entered(tx, c.seat, c.at, command.path)  # R-ADD-165


def _path_cost(tx: _Tx, c: CasketState, path: Sequence[object]) -> int:
    s = tx.state
    _not_barred(tx, c, path)
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
    if c.no_attacks:
        raise RuleViolation(
            "no_attacks",
            "a card this casket played forbids attacking until its next turn",
            "R-ADD-115",
        )
    if not 0 <= command.target < len(tx.state.seats) or command.target == seat:
        raise RuleViolation("bad_target", "target must be another seat", "R-ARC-1")
    d = tx.seat(command.target)
    if d.defeated:
        raise RuleViolation("target_defeated", f"seat {d.seat} is already defeated", "R-TRN-8")
    if d.withdrawn:
        raise RuleViolation("target_withdrawn", f"seat {d.seat} has withdrawn", "R-TRN-9")
    if d.side == c.side:
        raise RuleViolation("not_an_enemy", f"seat {d.seat} is on your side", "R-TRN-8")
    duel = _duel_refusal(c, d, tx.state.seats)
    if duel is not None:
        raise RuleViolation("in_duel", duel, "R-ADD-174")
    _check_targetable(d, card.attack, "")
    move = next((e for e in card.effects if isinstance(e, MoveEffect)), None)
    if command.path and move is None:
        raise RuleViolation("unused_argument", f"{card.name} makes no move: no 'path'", "R-ADD-104")
    reach = _extra_reach(c, card)  # R-ADD-90: kept for this attack once its enhancements go
    # R-ADD-104: with a move before the attack, its to-hit answer is the one after the move.
    answer = attack_answer(tx.state, seat, card, command.target, reach=reach)
    if not answer.possible and not command.path:
        refusal = answer.refusal
        assert refusal is not None
        raise refusal
    _check_limit(tx.seat(seat), card)
    _check_token_cost(tx, seat, card)
    _check_spend(tx, seat, card, command.spend)
    _check_taint_spend(tx, seat, card, command.spend, command.taint_from, command.target)
    cost = attack_cost(tx.state, seat, card)  # R-ADD-99
    _pay(tx, c, cost, command.pay, exclude=[instance, *command.discard])
    tx.emit(ev.CardPlayed(seat, instance, cost, card.manual, card.text if card.manual else ""))
    _pay_tokens(tx, seat, card)
    if command.path and move is not None:
        _card_move(tx, tx.seat(seat), card, move, command.path, d.at)
        answer = attack_answer(tx.state, seat, card, command.target, reach=reach)
        if not answer.possible:
            refusal = answer.refusal
            assert refusal is not None
            raise refusal
    # R-ADD-91, R-ADD-92: the card's own attack rules, read as it is played (R-ADD-59).
    rules = _attack_rules(tx, seat, card, command.target, command.spend)
    passive = _passive_bonuses(tx, seat)
    enhanced = any(_enhances(x.attacks, card) for x in tx.seat(seat).enhancements)
    mark = _mark_on(tx, seat, command.target)
    marks = [m for m in tx.seat(seat).bonus_against if m[0] == command.target]
    coward = _coward_bonus(tx.seat(seat), tx.seat(command.target))
    riders = AttackBonusEffect | SpendTokensEffect | IgnoreCoverEffect | SpendTaintEffect
    enhanced_by: tuple[str, ...] = ()  # R-ADD-180
    if (
        passive
        or enhanced
        or mark is not None
        or marks
        or coward
        or any(isinstance(e, riders | DiscardForEffect) for e in card.effects)
    ):
        if coward:  # R-ADD-174: Coward's Mark
            marker = tx.seat(command.target).coward_of
            mark_card = tx.seat(marker).duel_source if marker is not None else None
            tx.emit(ev.BuffGained(seat, coward, 0, 0, 0, mark_card or "coward's mark"))
        if mark is not None:  # R-ADD-149: the marker's attacks on its mark
            _mark_riders(tx, seat, card, command.target, *mark)
        # R-ADD-59: the card's own bonuses are part of this attack's to-hit answer, and
        # R-ADD-74: so are those of the attacker's passives in play.
        _attack_riders(
            tx, seat, card, command.target, command.spend, command.taint_from, command.discard
        )
        for source, bonus in passive:
            if _holds(tx, seat, bonus.condition, command.target):
                tx.emit(ev.BuffGained(seat, bonus.damage, bonus.to_hit, 0, 0, source.id))
        for _, damage, bonus_mark in marks:  # R-ADD-156: "your next attack vs that target"
            tx.emit(ev.BuffGained(seat, damage, 0, 0, 0, bonus_mark))
        used, enhanced_by = _use_enhancements(tx, seat, card, command.target, reach)
        rules |= used
        answer = attack_answer(tx.state, seat, card, command.target, reach=reach)
        if not answer.possible:
            refusal = answer.refusal
            assert refusal is not None
            raise refusal
    # R-ADD-152: the attack's own discards ("Discard 1 card") name their hand cards in
    # `discard`; `spend` says whether its optional cost was paid (riders above).
    _card_effects(
        tx,
        seat,
        card,
        None,
        (),
        None,
        command.discard,
        skip_attack=True,
        spend=command.spend,
        attack_target=command.target,
        ally_paths=command.ally_paths,
    )
    _queue_follow_ups(tx, seat, instance, card, command, enhanced_by)
    _strike(
        tx,
        seat,
        instance,
        command.target,
        command.component,
        answer,
        rules,
        command.spend,
        enhanced_by,
    )


def _strike(
    tx: _Tx,
    seat: int,
    instance: str,
    target: int,
    named: str | None,
    answer: ToHit,
    rules: set[str],
    spend: bool | None = None,
    enhanced_by: tuple[str, ...] = (),
    further: bool = False,
) -> None:
    """One attack from its declaration to its end or its first prompt (R-HIT-*, R-DMG-*);
    `rules`: the card's own attack rules in force (R-ADD-91, R-ADD-92); `spend`: the
    attack command's, for the card's first attack (None for a further one, R-ADD-80);
    `enhanced_by`: the enhancing cards whose hit effects wait for its outcome (R-ADD-180);
    `further`: one of the card's further attacks (R-ADD-80, R-ADD-187)."""
    card = tx.state.card(instance)
    assert answer.target_number is not None and answer.side is not None
    assert answer.defense_modifier is not None
    component_roll = None
    component = named
    if component is None:
        component_roll = tx.dice.d6(1, purpose="the target component roll", rule="R-DMG-6")[0]
        component = component_for_roll(component_roll)
    if tx.seat(seat).untargetable_until_attack:  # R-ADD-155: attacking breaks it
        tx.emit(ev.UntargetableEnded(seat, card.id))
    a = tx.seat(seat)
    grades = ("hit", "strong", "critical", "execution")
    ignore = a.buff_ignore_defence
    d = tx.seat(target)
    # R-DMG-3: the target's card Defense (R-ADD-64) and its wards' (R-ADD-93), unless the
    # attack ignores Defense buffs (R-ADD-92).
    # R-ADD-123: an ally's card Defense lent to it counts as its own.
    card_defence = d.card_defence + sum(w.defence for w in d.wards if _ward_matches(w, card))
    ground = tx.state.ground_of(d)  # issue 17, terrain: holy ground, sanctuary (R-ADD-163)
    if ground is not None and ground[1] == "ally":
        card_defence += GROUND_DEFENCE.get(ground[0], 0)
    if "ignore_defence_buffs" in rules:
        card_defence = 0
    tx.emit(
        ev.AttackDeclared(
            attacker=seat,
            target=target,
            card=instance,
            component=component,
            component_roll=component_roll,
            target_number=answer.target_number,
            side=answer.side,
            damage_by_grade=tuple((g, answer.damage_for(g)) for g in grades),
            # R-DMG-3: cancelled blocks and the target's card Defense, less what an enemy
            # card took off it (R-ADD-119).
            defence_modifier=answer.defense_modifier - ignore + card_defence - d.defence_malus,
            # R-ADD-91: "enemy cannot use Reactive cards against this attack".
            # R-ADD-174: "they cannot use defense cards this turn".
            reactive_allowed=bool(answer.reactive_allowed)
            and "no_reactive" not in rules
            and d.reactives_barred_by is None,
            shield_allowed=bool(answer.shield_cards_allowed),
            to_hit=answer.as_dict(),
            enhanced_by=enhanced_by,
            further=further,
        )
    )
    if "ignore_defence_buffs" in rules:  # R-ADD-92: a reactive card's Defense too
        tx.emit(ev.DefenceBuffsIgnored(seat))
    _spend_declared_wards(tx, target, card)
    _ward(tx, target)
    if spend is not None:  # the card's first attack: its own damage, once (R-ADD-130)
        for owed in [e for e in card.effects if isinstance(e, SelfDamageEffect)]:
            if spend:  # R-ADD-130: "spend 2 Bargain tokens to negate self-damage"
                have = tx.seat(seat).tokens_of(owed.avoid_pool)
                tx.emit(ev.TokensChanged(seat, owed.avoid_pool, -owed.avoid_n, have - owed.avoid_n,
                                         card.id))  # fmt: skip
            else:
                tx.emit(ev.SelfDamageDue(seat, owed.amount, card.id))
    pool = answer.dice
    faces = tx.dice.d6(pool.count, purpose="the attack roll", rule="R-HIT-4")
    # R-ADD-91: an attack that cannot miss hits on any total but a catastrophic failure (0).
    cannot_miss = "cannot_miss" in rules
    roll = attack_result(faces, 1 if cannot_miss else answer.target_number, pool)
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
        if component not in tx.seat(target).destroyed:
            _destroy(tx, target, component)
        warded = tx.state.attack is not None and tx.state.attack.warded_by is not None
        if not warded:  # R-ADD-128: a ward negates the damage, not the destruction
            _take_damage(tx, target, (), damage, component)
        _end_attack(tx, "execution")
        return
    # R-ADD-159: "enemy may discard N cards from hand to reduce damage to M", before the
    # reactive window; offered only when it can be paid and lowers the damage.
    bargain = next((e for e in card.effects if isinstance(e, DamageBargainEffect)), None)
    defender = tx.seat(target)
    if bargain is not None and len(defender.hand) >= bargain.cards and damage > bargain.damage:
        reason = (
            f"{card.name}: discard {bargain.cards} card(s) from your hand to make this hit "
            f"{bargain.damage} damage, or decline"
        )
        _open_prompt(tx, defender.seat, "bargain", bargain.cards, None, "R-ADD-159", reason)
        return
    _reactive_window(tx)


def _ward(tx: _Tx, target: int) -> None:
    """R-ADD-128: the first ward in play, in seat order, that covers the attacked casket
    (its own, or an ally's within reach) takes this attack's damage away and is spent."""
    t = tx.seat(target)
    for x in tx.state.seats:
        if not x.in_battle or x.side != t.side:
            continue
        for instance in x.in_play:
            ward = next(
                (e for e in tx.state.card(instance).effects if isinstance(e, GuardEffect)), None
            )
            if ward and (x.seat == target or x.at.distance(t.at) <= ward.within):
                tx.emit(ev.AttackWarded(x.seat, instance, target))
                return


def _cover_of(card: CardDef) -> CoverEffect | None:
    return next((e for e in card.effects if isinstance(e, CoverEffect)), None)


def _coverers(tx: _Tx) -> list[int]:
    """R-ADD-122: the allies of the attacked casket that may still cover it, in seat order:
    in the battle, not yet asked, holding a cover card that reaches it."""
    a = tx.state.attack
    assert a is not None
    if a.covered_by is not None:
        return []
    t = tx.seat(a.target)
    out = []
    for x in _allies(tx, a.target, None):
        if x.seat in a.cover_declined:
            continue
        for instance in (*x.hand, *x.in_play):
            card = tx.state.card(instance)
            cover = _cover_of(card)
            ready = _reactive_ok(tx, card, x.seat) if instance in x.hand else card.pledge
            if cover and ready and a.reactive_allowed and x.at.distance(t.at) <= cover.within:
                out.append(x.seat)
                break
    return out


def _reactive_window(tx: _Tx) -> None:
    """After a hit: first each ally that could take the damage (R-ADD-122), then the
    attacked casket's own reactive card (R-REA-1), then the defence roll."""
    a = tx.state.attack
    assert a is not None
    coverers = _coverers(tx)
    if coverers:
        reason = f"play a card that takes seat {a.target}'s damage, or none"
        _open_prompt(tx, coverers[0], "reactive", 0, a.component, "R-ADD-122", reason)
        return
    defender = tx.seat(a.target)
    eligible = any(
        _reactive_ok(tx, card) and _cover_of(card) is None
        for card in (tx.state.card(x) for x in defender.hand)
    )
    if eligible:
        _open_prompt(
            tx,
            defender.seat,
            "reactive",
            0,
            a.component,
            "R-REA-1",
            "play one reactive card or none",
        )
    else:
        _roll_defence(tx)


def _queue_follow_ups(
    tx: _Tx,
    seat: int,
    instance: str,
    card: CardDef,
    command: Attack,
    enhanced_by: tuple[str, ...] = (),
) -> None:
    """R-ADD-80, R-ADD-81: the attacks the card makes after its first, fixed as it is played:
    each `follow_up` at the next seat `also` names (checked now, as any attack is), each
    casket an `area_attack` catches, the blasts of the enhancements its first attack spent
    too (R-ADD-182). Conditions read the state now (R-ADD-59)."""
    c = tx.seat(seat)
    named = list(command.also)
    attacked = {command.target}
    attacks: list[tuple[int, str, int]] = []
    after_kill: int | None = None
    carried = [e for s in enhanced_by for e in _carried(tx.state, s)]
    for effect in [*card.effects, *(e for e in carried if isinstance(e, AreaAttackEffect))]:
        if isinstance(effect, FollowUpEffect):
            if not _holds(tx, seat, effect.condition, command.target):
                continue
            if effect.on == "kill":
                after_kill = command.target
            if effect.target == "same":
                target = command.target
            elif named:
                target = named.pop(0)
                if effect.target == "other" and target in attacked:
                    raise RuleViolation(
                        "same_target_again",
                        f"{card.name} attacks different targets: seat {target} is attacked already",
                        "R-ADD-80",
                    )
                _check_follow_up_target(tx, seat, card, target, effect, command.target)
            elif effect.target == "any" and effect.on == "end":
                target = command.target  # "attack twice": the same target unless named
            else:
                continue  # "up to N targets": not named, not made
            attacked.add(target)
            attacks.append((target, effect.range.text, effect.damage))
        elif isinstance(effect, AreaAttackEffect):
            # R-ADD-84: a blast is around the first attack's target, not the attacker.
            centre = c.at if effect.around == "self" else tx.seat(command.target).at
            first = card.attack
            assert first is not None
            reach = effect.reach(first.range).text
            caught = [
                x.seat
                for x in tx.state.seats
                if x.in_battle
                and x.seat not in (seat, command.target)
                and x.at.distance(centre) <= effect.within
                and (effect.allies or x.side != c.side)
            ]
            if effect.pick and len(caught) > effect.pick:
                caught = _pick(tx, seat, card, caught, effect.pick)
            # R-ADD-182: "deal damage to … adjacent enemies": the shot's own printed damage.
            damage = first.damage if effect.damage_of_attack else effect.damage
            attacks += [(x, reach, damage) for x in caught]
    # R-ADD-186: a bonus for each attack of the card, read for each one's target now.
    each = [e for e in card.effects if isinstance(e, AttackBonusEffect) and e.each_attack]
    attacks = [
        (x, reach_text, damage + sum(b.damage for b in each if _holds(tx, seat, b.condition, x)))
        for x, reach_text, damage in attacks
    ]
    if named:
        raise RuleViolation(
            "unused_argument",
            f"{card.name} makes no further attack at seat {named[0]} ('also')",
            "R-ADD-80",
        )
    if attacks:
        tx.emit(
            ev.AttacksQueued(
                seat,
                instance,
                tuple(attacks),
                command.component,
                after_kill,
                "R-ADD-80",
                ignore_defence=any(
                    isinstance(e, AreaAttackEffect) and e.ignore_defence for e in card.effects
                ),
            )
        )


def _pick(tx: _Tx, seat: int, card: CardDef, caught: list[int], n: int) -> list[int]:
    """R-ADD-87: `n` of the caught seats at random, in seat order: each pick a d6 naming
    the next seat of those left in seat order (1 the first), re-rolled above their count;
    every face is in an EffectRolled."""
    left = sorted(caught)
    chosen: list[int] = []
    faces: list[int] = []
    while len(chosen) < n:
        face = tx.dice.d6(1, purpose=f"{card.name}: a random target", rule="R-ADD-87")[0]
        faces.append(face)
        if face <= len(left):
            chosen.append(left.pop(face - 1))
    tx.emit(ev.EffectRolled(seat, tuple(faces), len(chosen), card.id))
    return sorted(chosen)


def _check_targetable(d: CasketState, weapon: AttackEffect, prefix: str) -> None:
    """R-ADD-155: no attack names an untargetable casket, nor a ranged one a casket only
    ranged attacks cannot target; `prefix` names the command field ("also: ")."""
    if d.untargetable == "all" or (d.untargetable == "ranged" and not weapon.range.melee):
        which = (
            "attacks" if d.untargetable == "all" else "ranged attacks (a card that is not Melee)"
        )
        raise RuleViolation(
            "untargetable",
            f"{prefix}seat {d.seat} cannot be targeted by {which} until its next turn",
            "R-ADD-155",
        )


def _check_follow_up_target(
    tx: _Tx, seat: int, card: CardDef, target: int, effect: FollowUpEffect, first: int
) -> None:
    if not 0 <= target < len(tx.state.seats) or target == seat:
        raise RuleViolation("bad_target", "also: each target must be another seat", "R-ARC-1")
    d = tx.seat(target)
    if not d.in_battle or d.side == tx.seat(seat).side:
        raise RuleViolation(
            "not_an_enemy", f"also: seat {target} is not an enemy in the battle", "R-TRN-8"
        )
    _check_targetable(d, AttackEffect(effect.range, effect.damage), "also: ")
    away = d.at.distance(tx.seat(first).at)
    if effect.near and away > effect.near:
        raise RuleViolation(
            "too_far_from_target",
            f"also: seat {target} is {away} hexes from seat {first}; {card.name} reaches "
            f"{effect.near} from its first target",
            "R-ADD-84",
        )
    answer = attack_answer(tx.state, seat, card, target, AttackEffect(effect.range, effect.damage))
    if not answer.possible:
        refusal = answer.refusal
        assert refusal is not None
        raise RuleViolation(refusal.code, f"also: seat {target}: {refusal.message}", refusal.rule)


def _is_aura(card: CardDef) -> bool:
    return any(isinstance(e, AreaAttackEffect) and e.aura for e in card.effects)


def _aura(card: CardDef, answer: ToHit) -> ToHit:
    """R-RNG-3, R-ADD-85: an aura card's attacks ignore line of sight and the firing arc;
    every other refusal (range, R-HIT-3) stands."""
    if not _is_aura(card) or answer.possible or answer.refusal is None:
        return answer
    if answer.refusal.code not in ("out_of_arc", "no_line_of_sight"):
        return answer
    n = answer.target_number
    assert n is not None
    if n > MAX_REACHABLE_TARGET:
        refusal = RuleViolation(
            "impossible_target",
            f"Target number {n}+ cannot be reached: two DEATH BLOWs total 10",
            "R-HIT-3",
        )
        return replace(answer, refusal=refusal)
    return replace(answer, possible=True, refusal=None, odds=odds(n, answer.dice))


def _follow_up(tx: _Tx) -> None:
    """The next queued attack of the card being played (R-ADD-80): made as any attack, with
    its to-hit read now, or passed over when its target is gone or the rules refuse it."""
    f: FollowUp = tx.state.follow_ups[0]
    card = tx.state.card(f.card)
    target = tx.seat(f.target)
    reason = ""
    answer = None
    if not tx.seat(f.attacker).in_battle:
        reason = f"seat {f.attacker} is out of the battle"
    elif f.after_kill is not None and not tx.seat(f.after_kill).defeated:
        reason = f"the first attack did not defeat seat {f.after_kill}"
    elif not target.in_battle:
        reason = f"seat {f.target} is out of the battle"
    else:
        effect = AttackEffect(parse_range(f.range), f.damage)
        answer = attack_answer(tx.state, f.attacker, card, f.target, effect)
        if not answer.possible:
            assert answer.refusal is not None
            reason = f"{answer.refusal.message} ({answer.refusal.rule})"
    made = not reason
    tx.emit(ev.FollowUpTaken(f.attacker, f.card, f.target, made, reason, "R-ADD-80"))
    if made:
        assert answer is not None
        if f.ignore_defence:  # R-ADD-60: spent by this attack's declaration
            tx.emit(ev.BuffGained(f.attacker, 0, 0, MAX_DAMAGE, 0, card.id))
        # The card's own attack rules hold for each of its attacks (R-ADD-80, R-ADD-91).
        rules = _attack_rules(tx, f.attacker, card, f.target, False)
        _strike(tx, f.attacker, f.card, f.target, f.component, answer, rules, further=True)


def _reactive_declined(tx: _Tx, seat: int) -> None:
    """An ally that declined to cover leaves the window to the next one (R-ADD-122); the
    attacked casket's declining leads to the defence roll (R-REA-1)."""
    tx.emit(ev.ReactiveDeclined(seat))
    a = tx.state.attack
    if a is not None and seat != a.target:
        _reactive_window(tx)
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
    target = command.target
    wreck = next(
        (e for e in card.effects if isinstance(e, AreaAttackEffect) and e.around == "wreck"), None
    )
    if wreck is not None:  # R-ADD-89: the command's target is the wreck, not an effect's
        _queue_wreck(tx, seat, instance, card, wreck, target)
        target = None
    _card_effects(
        tx,
        seat,
        card,
        target,
        command.path,
        command.facing,
        command.discard,
        spend=command.spend,
        ally_paths=command.ally_paths,
    )
    # R-ADD-68: a passive stays in play; R-ADD-89: a card with attacks to make stays until
    # its last one has ended.
    if not card.passive and not any(f.card == instance for f in tx.state.follow_ups):
        tx.emit(ev.CardResolved(seat, instance))


def _queue_wreck(
    tx: _Tx, seat: int, instance: str, card: CardDef, effect: AreaAttackEffect, target: int | None
) -> None:
    """R-ADD-89: every casket within the area around a destroyed enemy (the command's
    `target`, within the card's printed range, distance only) is attacked as R-ADD-84 says."""
    c = tx.seat(seat)
    if target is None or not 0 <= target < len(tx.state.seats) or target == seat:
        raise RuleViolation(
            "target_required", f"{card.name} needs a destroyed enemy as 'target'", "R-ADD-89"
        )
    w = tx.seat(target)
    if w.side == c.side or not w.defeated:
        raise RuleViolation(
            "not_a_wreck", f"seat {target} is not a destroyed enemy on the board", "R-ADD-89"
        )
    printed = card.range
    distance = c.at.distance(w.at)
    if printed is None or not printed.contains(distance):
        raise RuleViolation(
            "out_of_range",
            f"{card.name} reaches {printed.text if printed else 'no one'}; seat {target} is "
            f"{distance} hexes away",
            "R-RNG-2",
        )
    reach = effect.reach(printed).text
    caught = [
        x.seat
        for x in tx.state.seats
        if x.in_battle
        and x.seat != seat
        and x.at.distance(w.at) <= effect.within
        and (effect.allies or x.side != c.side)
    ]
    if caught:
        attacks = tuple((x, reach, effect.damage) for x in caught)
        tx.emit(ev.AttacksQueued(seat, instance, attacks, None, None, "R-ADD-89"))


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


def _zones(tx: _Tx, seat: int) -> None:
    """R-ADD-129: the allies' zones `seat` starts its turn in, in the order made."""
    c = tx.seat(seat)
    for owner, instance, q, r in tx.state.zones:
        card = tx.state.card(instance)
        if owner == seat or tx.seat(owner).side != c.side or not c.in_battle:
            continue
        for zone in (e for e in card.effects if isinstance(e, ZoneEffect)):
            if c.at.distance(Hex(q, r)) <= zone.radius:
                for inner in zone.then:
                    _effect(tx, seat, card, inner, None, (), None, (), {}, True)


def _destroyed(tx: _Tx, seat: int) -> None:
    """R-ADD-68: every other casket's passives that watch for a destruction nearby; and
    R-ADD-148: the effects of every mark on the destroyed casket. R-ADD-131: a casket
    destroyed while an attack on it resolves was destroyed by that attacker."""
    a = tx.state.attack
    killer = a.attacker if a is not None and a.target == seat else None
    for other in tx.state.seats:
        if other.seat != seat:
            _triggers(tx, other.seat, "casket_destroyed", about=seat, killer=killer)
    for other in tx.state.seats:
        if other.marked == seat and other.mark_source is not None and other.in_battle:
            card = tx.state.card(other.mark_source)
            for effect in card.effects:
                if isinstance(effect, MarkEffect):
                    for inner in effect.then:
                        _effect(tx, other.seat, card, inner, None, (), None, (), {}, True)
    for other in tx.state.seats:  # R-ADD-174: "if you kill target" in the duel
        challenger = other.duel_challenger == other.seat and other.duel_with == seat
        if challenger and other.in_battle and seat in other.kills and other.duel_source:
            card = tx.state.card(other.duel_source)
            for effect in card.effects:
                if isinstance(effect, DuelEffect):
                    for inner in effect.then:
                        _effect(tx, other.seat, card, inner, None, (), None, (), {}, True)


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


def _check_holds(tx: _Tx, seat: int, card: CardDef, pool: str, n: int | Literal["all"]) -> None:
    """R-ADD-61: a spend of `n` tokens of `pool` (all of them: at least 1) is refused,
    naming what the seat holds, when the seat holds fewer."""
    have = tx.seat(seat).tokens_of(pool)
    if have < (1 if n == "all" else n):
        raise RuleViolation(
            "not_enough_tokens",
            f"{card.name} spends {n} {pool} token(s); seat {seat} holds {have}",
            "R-ADD-61",
        )


def _check_spend(tx: _Tx, seat: int, card: CardDef, spend: bool) -> None:
    """R-ADD-61: `spend` only for a card that spends tokens, and only with the tokens;
    a card that does nothing without its spend needs it."""
    costs = [e for e in card.effects if isinstance(e, SpendTokensEffect)]
    counters = [e for e in card.effects if isinstance(e, TaintCounterEffect)]
    taint = bool(counters) or any(isinstance(e, SpendTaintEffect) for e in card.effects)
    avoid = [e for e in card.effects if isinstance(e, SelfDamageEffect)]
    for e2 in avoid if spend else []:  # R-ADD-130: buying off the card's self-damage
        _check_holds(tx, seat, card, e2.avoid_pool, e2.avoid_n)
    if spend and not costs and any(isinstance(e, DiscardForEffect) for e in card.effects):
        return  # R-ADD-152: an optional discard; its cards are checked as it is paid
    if spend and not costs and not taint and not avoid:
        raise RuleViolation(
            "unused_argument", f"{card.name} has no effect that uses 'spend'", "R-ADD-61"
        )
    for t in counters if spend else []:  # R-ADD-130: the pilot's Taint, not a token pool
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
            _check_holds(tx, seat, card, e.pool, e.n)


def _check_taint_spend(
    tx: _Tx, seat: int, card: CardDef, spend: bool, taint_from: str | None, target: int | None
) -> None:
    """R-ADD-145: `taint_from` only for a spend of "yours or target's" Taint, made; the
    pilot who pays holds the Taint ("all" needs at least 1)."""
    costs = [e for e in card.effects if isinstance(e, SpendTaintEffect)]
    either = any(e.whose == "either" for e in costs)
    if taint_from is not None and not (spend and either):
        raise RuleViolation(
            "unused_argument",
            f"{card.name} spends no one's Taint but its pilot's: 'taint_from' needs "
            "'spend': true on a card that spends yours or the target's",
            "R-ADD-145",
        )
    if not spend:
        return
    payer = target if taint_from == "target" and target is not None else seat
    for e in costs:
        have = tx.seat(payer).taint
        need = 1 if e.n == "all" else e.n
        if have < need:
            raise RuleViolation(
                "not_enough_taint",
                f"{card.name} spends {e.n} Taint; seat {payer}'s pilot has {have}",
                "R-ADD-145",
            )


def _spend_taint(tx: _Tx, payer: int, card: CardDef, effect: SpendTaintEffect) -> int:
    """Remove the spent Taint from the paying pilot (checked by `_check_taint_spend`); the
    Taint spent (R-ADD-145)."""
    have = tx.seat(payer).taint
    n = have if effect.n == "all" else effect.n
    _change_taint(tx, payer, -n, card.id)
    return n


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
    if test in ("card_moved_at_least", "card_moved_through"):
        # R-ADD-106: the card's own move, made in this command before its attack (R-ADD-104).
        path = [h for e in tx.events if isinstance(e, ev.CasketMoved) and e.seat == seat
                and e.by_card is not None for h in e.path]  # fmt: skip
        if test == "card_moved_at_least":
            return len(path) >= n
        board = tx.state.board
        return any(board.terrain_at(Hex(*h)).name == condition.terrain for h in path)
    if test == "card_drew_ranged_at_least":
        # R-ADD-188: the cards this card drew, in this command, that are ranged attack cards.
        drawn = [x for e in tx.events if isinstance(e, ev.CardsDrawn) and e.seat == seat
                 for x in e.cards]  # fmt: skip
        return sum(1 for x in drawn if _ranged(tx.state.card(x))) >= n
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
    if test == "destroyed_within_this_round":  # R-ADD-144: any side's, where it fell
        return any(
            x.defeated_round == tx.state.round and x.at.distance(c.at) <= condition.within
            for x in tx.state.seats
            if x.defeated and x.seat != seat
        )
    if test == "discarded_this_turn":  # R-ADD-144
        return c.discarded_this_turn
    if test == "near_terrain":  # R-ADD-144: the own hex or one next to it
        board = tx.state.board
        near = (c.at, *(h for h in c.at.neighbours() if h in board))
        return any(board.terrain_at(h).name == condition.terrain for h in near)
    if test == "own_mark_in_battle":  # R-ADD-149
        return c.marked is not None and tx.seat(c.marked).in_battle
    if test == "own_in_duel":  # R-ADD-174: a duel whose other casket is still in it
        return c.duel_with is not None and tx.seat(c.duel_with).in_battle
    if test == "own_form":  # R-ADD-170: taken this round; "metamorph" is any form
        held = c.form if c.form_round == tx.state.round else ""
        return bool(held) and condition.form in ("metamorph", held)
    if test == "standing_in_open":  # R-ADD-146: the own hex's terrain gives no cover
        return tx.state.board.terrain_at(c.at).cover == "none"
    # R-ADD-121: the allies of the faction the text names, near the casket or the target.
    allied = [x.at for x in _allies(tx, seat, condition.faction)]
    if test == "allies_within_at_least":
        return sum(1 for at in allied if at.distance(c.at) <= condition.within) >= n
    if t is None:  # pragma: no cover - attack bonuses sit on attack cards (CardDef)
        return False
    if test == "attack_side_is":  # R-ADD-146: the side R-ARC-1 picks, as the to-hit does
        melee_facing = str(tx.state.ruleset.option("melee_facing"))
        sides = candidate_sides(t.at, t.facing, c.at)
        return choose_side_row(sides, t.shield, c.at.distance(t.at), melee_facing).side == n
    if test == "target_cowards_mark":  # R-ADD-174
        return t.cowards_mark > 0
    if test == "target_immobilised":  # R-ADD-146: "slow/freeze effects"
        return "immobilised" in t.statuses
    if test == "target_damaged_this_round":  # R-ADD-144
        return t.damaged_round == tx.state.round
    if test == "target_killed_an_ally":  # R-ADD-144: by its attacks, of the own side
        return any(tx.seat(k).side == c.side for k in t.kills)
    if test == "target_without_cover":  # R-ADD-144: no cover on the attack's line (R-COV-1)
        others = [x.at for x in tx.state.seats if x.seat not in (seat, t.seat) and x.in_battle]
        return line_of_sight(tx.state.board, c.at, t.at, others).cover == "none"
    if test == "allies_near_target_at_least":
        return sum(1 for at in allied if at.distance(t.at) <= condition.within) >= n
    if test == "target_hp_at_most":
        return t.hp <= n
    if test == "target_moved_last_turn":
        return t.moved_last_turn > 0
    if test == "from_rear":  # R-ADD-98: the side of R-ARC-1, the defender's choice included
        return attack_side(t.at, t.facing, c.at, t.shield) == REAR
    if test == "target_deck_at_most":  # R-ADD-74: the deck only, not the discard pile
        return len(t.deck) <= n
    if test == "target_bleed_at_least":  # R-ADD-110
        return t.bleed >= n
    if test == "target_adjacent_allies_at_least":  # R-ADD-119: the attacker's other allies
        allies = [x for x in tx.state.seats if x.side == c.side and x.seat != seat]
        return sum(1 for x in allies if x.in_battle and x.at.distance(t.at) == 1) >= n
    return t.taint >= n  # target_taint_at_least


def _mark_on(tx: _Tx, seat: int, target: int) -> tuple[CardDef, MarkEffect] | None:
    """The mark effect of `seat`'s mark when `target` is that mark (R-ADD-148)."""
    c = tx.seat(seat)
    if c.marked != target or c.mark_source is None:
        return None
    card = tx.state.card(c.mark_source)
    return next(((card, e) for e in card.effects if isinstance(e, MarkEffect)), None)


def _mark_riders(
    tx: _Tx, seat: int, card: CardDef, target: int, source: CardDef, mark: MarkEffect
) -> None:
    """R-ADD-149: "+N damage against Prey", and tracking cancels the Prey's obscured line
    of the to-hit answer (R-COV-4) by an equal bonus; under option dice_pool_advantage its
    disadvantage die stays, as cover's does (R-ADD-60)."""
    if mark.damage:
        tx.emit(ev.BuffGained(seat, mark.damage, 0, 0, 0, source.id))
    if mark.tracks and not tx.state.ruleset.option("dice_pool_advantage"):
        answer = attack_answer(tx.state, seat, card, target)
        obscured = sum(m.value for m in answer.modifiers if m.key == "obscured")
        if obscured:
            tx.emit(ev.BuffGained(seat, 0, -obscured, 0, 0, source.id))


def _allies(tx: _Tx, seat: int, faction: str | None) -> list[CasketState]:
    """The allies of `seat`: the other caskets of its side still in the battle (R-ADD-74),
    only those whose setup names `faction` when one is given (R-ADD-121)."""
    c = tx.seat(seat)
    return [
        x
        for x in tx.state.seats
        if x.side == c.side
        and x.seat != seat
        and x.in_battle
        and (faction is None or x.faction == faction)
    ]


# "Behind you": the casket's sides 3, 4 and 5, those R-REA-2 names its rear (R-ADD-127).
REAR_SIDES = frozenset({3, 4, 5})


def _ally_moves(
    tx: _Tx,
    seat: int,
    card: CardDef,
    effect: AllyMoveEffect,
    target: int | None,
    paths: Sequence[tuple[int, Sequence[Hex]]],
    toward: int,
) -> None:
    """R-ADD-126: each ally the card may move, along the command's path for it (none: it
    stays), every step legal (R-TRN-5, R-LOS-5) and, "toward you" or "toward target",
    nearer seat `toward` (the player, or the attack's target)."""
    c = tx.seat(seat)
    goal = tx.seat(toward).at
    if effect.every:
        near = _allies(tx, seat, effect.faction)
        movable = [x.seat for x in near if c.at.distance(x.at) <= effect.within]
    else:
        movable = _ally_targets(tx, seat, card, effect, target)
    for ally, path in paths:
        if ally not in movable:
            raise RuleViolation(
                "not_moved_by_card",
                f"{card.name} moves {'allies' if effect.every else f'seat {target}'} within "
                f"{effect.within} hexes, not seat {ally}",
                "R-ADD-126",
            )
        if len(path) > effect.hexes:
            raise RuleViolation(
                "path_too_long",
                f"{card.name} moves an ally at most {effect.hexes} hex(es)",
                "R-ADD-126",
            )
        moving = tx.seat(ally)
        _path_cost(tx, moving, path)
        if effect.toward or effect.toward_target:
            here = moving.at
            for step in path:
                if step.distance(goal) >= here.distance(goal):
                    raise RuleViolation(
                        "not_toward",
                        f"{card.name} moves allies toward seat {toward}: {list(step)} is no nearer",
                        "R-ADD-126",
                    )
                here = step
        tx.emit(ev.AllyMoved(ally, tuple((h.q, h.r) for h in path), seat, card.id))
        _entered(tx, ally, moving.at, path)  # R-ADD-165
    if effect.draw_per_ally and paths:  # "Draw 1 card for each ally that moves"
        _draw(tx, seat, effect.draw_per_ally * len(paths), card.name)


def _ally_targets(
    tx: _Tx,
    seat: int,
    card: CardDef,
    effect: AllyEffect | AllyMoveEffect,
    target: int | None,
) -> list[int]:
    """The caskets an ally effect acts on (R-ADD-120): every ally in reach, or the one the
    command's `target` names (the own casket only where the text says "self or")."""
    c = tx.seat(seat)
    if effect.every:
        near = [
            x for x in _allies(tx, seat, effect.faction) if c.at.distance(x.at) <= effect.within
        ]
        if isinstance(effect, AllyEffect) and effect.behind:  # R-ADD-127: the rear sides
            near = [x for x in near if set(candidate_sides(c.at, c.facing, x.at)) <= REAR_SIDES]
        return [x.seat for x in near]
    if target is None or not 0 <= target < len(tx.state.seats):
        raise RuleViolation(
            "target_required", f"{card.name} needs an ally as 'target'", "R-ADD-120"
        )
    if target == seat and isinstance(effect, AllyEffect) and effect.self_allowed:
        return [seat]
    if target not in [x.seat for x in _allies(tx, seat, None)]:
        raise RuleViolation(
            "not_an_ally", f"seat {target} is not an ally of seat {seat} in the battle", "R-ADD-120"
        )
    t = tx.seat(target)
    if effect.faction is not None and t.faction != effect.faction:
        raise RuleViolation(
            "not_of_faction",
            f"{card.name} acts on a {effect.faction} ally; seat {target}'s setup names "
            f"{t.faction or 'no faction'}",
            "R-ADD-121",
        )
    if c.at.distance(t.at) > effect.within:
        raise RuleViolation(
            "out_of_range",
            f"{card.name} reaches allies within {effect.within} hexes; seat {target} is "
            f"{c.at.distance(t.at)} hexes away",
            "R-ADD-120",
        )
    return [target]


def _passive_bonuses(tx: _Tx, seat: int) -> list[tuple[CardDef, AttackBonusEffect]]:
    """R-ADD-74: the attack bonuses of the passives `seat` has in play, in play order."""
    out: list[tuple[CardDef, AttackBonusEffect]] = []
    for instance in tx.seat(seat).in_play:
        card = tx.state.card(instance)
        for effect in card.effects:
            if isinstance(effect, TriggerEffect) and effect.on == "attack":
                out += [(card, b) for b in effect.then if isinstance(b, AttackBonusEffect)]
    return out


def _attack_riders(
    tx: _Tx,
    seat: int,
    card: CardDef,
    target: int,
    spend: bool,
    taint_from: str | None = None,
    discard: Sequence[str] = (),
) -> None:
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
        elif isinstance(effect, SpendTaintEffect) and spend:
            payer = target if taint_from == "target" else seat
            n = _spend_taint(tx, payer, card, effect)
            if effect.damage_per_taint:
                tx.emit(ev.BuffGained(seat, n * effect.damage_per_taint, 0, 0, 0, card.id))
            for inner in effect.then:
                if isinstance(inner, AttackBonusEffect):
                    bonus(inner)
        elif isinstance(effect, DiscardForEffect) and spend:
            _discard_for(tx, seat, card, effect, discard)
            for inner in effect.then:
                if isinstance(inner, AttackBonusEffect):
                    bonus(inner)
                else:
                    _effect(tx, seat, card, inner, None, (), None, (), {}, True, False)
        elif isinstance(effect, SpendTokensEffect) and spend:
            n = _spend_tokens(tx, seat, card, effect)
            if any(isinstance(x, AfterAttackEffect) for x in effect.then):
                tx.emit(ev.SpendArmed(seat, card.id))  # R-ADD-116
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
    ally_paths: Sequence[tuple[int, Sequence[Hex]]] = (),
) -> None:
    used = {"path": False, "facing": False, "discard": False, "target": False}
    for effect in card.effects:
        if isinstance(effect, AllyMoveEffect):  # R-ADD-126: the command's own field
            toward = seat if attack_target is None else attack_target
            _ally_moves(tx, seat, card, effect, target, ally_paths, toward)
            used["target"] = used["target"] or not effect.every
            ally_paths = ()
            continue
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
        ("ally_paths", ally_paths),
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
    ended: bool = False,
) -> None:
    """One effect of `card`; `ended`: run by `_end_attack`, the attack's outcome known."""
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
    if isinstance(effect, FollowUpEffect | AreaAttackEffect):
        return  # queued as the attack is declared, made once it ends (R-ADD-80, R-ADD-81)
    if isinstance(effect, DamageAuraEffect):
        tx.emit(ev.DamageAuraRaised(seat, effect.amount, effect.within, card.id))
        return
    if isinstance(effect, AreaHinderEffect):
        for x in tx.state.seats:
            near = 1 <= x.at.distance(c.at) <= effect.within
            if not (x.in_battle and x.side != c.side and near):
                continue
            # R-ADD-86: the cone is the caster's front sector, its edges included (R-ARC-1).
            if effect.cone and 1 not in candidate_sides(c.at, c.facing, x.at):
                continue
            tx.emit(ev.BuffGained(x.seat, 0, effect.to_hit, 0, 0, card.id))
        return
    if isinstance(effect, RemoveTaintRolledEffect):
        faces = tx.dice.d6(effect.d3, purpose=f"{card.name}: 1d3", rule="R-ADD-67")
        total = sum((f + 1) // 2 for f in faces)
        tx.emit(ev.EffectRolled(seat, faces, total, card.id))
        removed = min(total, c.taint)  # R-ADD-82: Taint never goes below 0
        _change_taint(tx, seat, -removed, card.id)
        if removed and effect.recover_per:
            _recover(tx, seat, removed * effect.recover_per, card.name)
        return
    if isinstance(effect, AttackRulesEffect):
        return  # `_attack` reads it as the attack is declared (R-ADD-91)
    if isinstance(effect, AfterDefenceEffect):
        return  # the attack the reactive card answers runs it (R-ADD-97)
    if isinstance(effect, GainSpEffect):
        tx.emit(ev.SpGained(seat, effect.amount, card.id))
        return
    if isinstance(effect, AdvantageEffect):
        return  # `attack_answer` reads it: the attack roll's pool (R-ADD-176)
    if isinstance(effect, ForfeitTokensEffect):  # R-ADD-175: all of them, however many
        have = c.tokens_of(effect.pool)
        if have:
            tx.emit(ev.TokensChanged(seat, effect.pool, -have, 0, card.id))
        return
    if isinstance(effect, DuelEffect):
        _challenge(tx, seat, card, target)
        used["target"] = True
        return
    if isinstance(effect, BarReactivesEffect):  # R-ADD-174: the attack's target
        if attack_target is not None and _holds(tx, seat, effect.condition, attack_target):
            tx.emit(ev.ReactivesBarred(attack_target, seat, card.id))
        return
    if isinstance(effect, TransformEffect):  # R-ADD-170: until the end of this round
        tx.emit(ev.FormTaken(seat, effect.form, tx.state.round, card.id))
        return
    if isinstance(effect, EnhanceNextAttackEffect):
        _enhance(tx, seat, card, effect)
        return
    if isinstance(effect, WardEffect):
        tx.emit(
            ev.WardRaised(
                seat,
                card.id,
                effect.until,
                effect.against,
                effect.defence,
                effect.to_hit,
                effect.damage,
                effect.reduce,
                effect.cap,
                effect.at_least,
                effect.uses,
                effect.recover,
                effect.immobile,
            )
        )
        return
    if isinstance(effect, SpendTaintEffect):
        return  # spent with the attack's riders or the reactive card's play (R-ADD-145)
    if isinstance(effect, GrantRotationEffect):
        if tx.seat(seat).free_rotation_used:  # R-ADD-189: unused, the turn's own is there
            tx.emit(ev.RotationGranted(seat, card.id))
        return
    if isinstance(effect, WhenEffect):
        about = attack_target if attack_target is not None else target
        if _holds(tx, seat, effect.condition, about):
            for inner in effect.then:
                _effect(tx, seat, card, inner, target, path, facing, discard, used, skip_attack,
                        attack_target=attack_target, ended=ended)  # fmt: skip
        return
    if isinstance(effect, PushEffect):
        _push(tx, seat, card, effect, target, used, attack_target, ended)
        return
    if isinstance(effect, ScatterEffect):
        if attack_target is not None and ended:
            _scatter(tx, seat, card, attack_target)
        return
    if isinstance(effect, TeleportEffect):
        _teleport(tx, c, card, effect, path)
        used["path"] = True
        return
    if isinstance(effect, GrantMoveEffect):
        tx.emit(ev.MoveGranted(seat, effect.hexes, card.id, effect.split))
        return
    if isinstance(effect, UnlessSpentEffect):
        if not spend:  # R-ADD-151: the spend replaces these
            for inner in effect.then:
                _effect(tx, seat, card, inner, target, path, facing, discard, used, skip_attack,
                        attack_target=attack_target)  # fmt: skip
        return
    if isinstance(effect, DiscardForEffect):
        if spend:
            used["discard"] = True
            if not skip_attack:  # an attack card's riders paid it already (R-ADD-152)
                _discard_for(tx, seat, card, effect, discard)
                for inner in effect.then:
                    _effect(tx, seat, card, inner, target, path, facing, discard, used, False)
        return
    if isinstance(effect, RecoverNamedEffect):
        _recover_named(tx, seat, effect, card.name)
        return
    if isinstance(effect, UntargetableEffect):
        tx.emit(ev.UntargetableGained(seat, effect.against, effect.until_attack, card.id))
        return
    if isinstance(effect, UltimatumEffect):
        enemy = _enemy_in_range(tx, seat, card, target)  # R-ADD-159, as R-ADD-65
        used["target"] = True
        reason = f"{card.name}: take {effect.damage} damage now, or skip your next turn (choose)"
        _open_prompt(tx, enemy, "ultimatum", effect.damage, None, "R-ADD-159", reason)
        return
    if isinstance(effect, ScavengeWreckEffect):
        wreck = _wreck_in_range(tx, seat, card, target)
        used["target"] = True
        tx.emit(ev.WreckScavenged(seat, wreck, card.id))
        for inner in effect.then:
            _effect(tx, seat, card, inner, None, (), None, (), used, skip_attack)
        return
    if isinstance(effect, ArrangeTopEffect):
        # R-ADD-157: a table arranges its own deck, whose order the engine never knows;
        # it is still asked for the spend of `then`.
        n = 0 if tx.table or len(c.deck) < 2 else min(effect.n, len(c.deck))
        if not n and not effect.then:
            return
        tx.emit(ev.CardsLookedAt(seat, c.deck[:n], card.id))
        reason = f"{card.name}: put the top {n} cards back in any order"
        if effect.then:
            reason += " (and say whether you spend)"
        _open_prompt(tx, seat, "arrange", n, None, "R-ADD-157", reason)
        return
    if isinstance(effect, LookAtHandEffect | BonusAgainstEffect):
        enemy = _enemy_in_range(tx, seat, card, target)  # R-ADD-156, as R-ADD-65
        used["target"] = True
        if isinstance(effect, LookAtHandEffect):
            tx.emit(ev.HandRevealed(seat, enemy, tx.seat(enemy).hand, card.id))
        else:
            tx.emit(ev.TargetBonusGained(seat, enemy, effect.damage, card.id))
        return
    if isinstance(effect, TerrainEffect):  # issue 17, terrain (R-ADD-160 to R-ADD-162)
        if effect.at == "target":  # in `after_attack`: where the target stands as it ends
            if attack_target is not None and ended:
                _make_terrain(tx, seat, card, effect, [tx.seat(attack_target).at])
            return
        if effect.at == "self":
            _make_terrain(tx, seat, card, effect, [c.at])
            return
        _make_terrain(tx, seat, card, effect, _terrain_hexes(tx, c, card, effect, path))
        used["path"] = True
        return
    if isinstance(effect, ZoneEffect):  # R-ADD-129: the copy just played, on this hex
        instance = next(x for x in reversed(c.in_play) if card_id(x) == card.id)
        tx.emit(ev.ZoneCreated(seat, instance, (c.at.q, c.at.r)))
        return
    if isinstance(effect, RemoveDamageCardEffect):  # R-ADD-124: the newest first
        junk = tuple(x for x in reversed(c.discard) if card_id(x) == DAMAGE_CARD.id)
        if junk:
            tx.emit(ev.DamageCardsRemoved(seat, junk[: effect.n], card.id))
        return
    if isinstance(effect, AllyEffect):  # R-ADD-120: the ally's own gains
        used["target"] = used.get("target", False) or not effect.every
        for ally in _ally_targets(tx, seat, card, effect, target):
            for inner in effect.then:
                own_turn = ally == seat and effect.defence_until == "your_next_turn"
                if isinstance(inner, DefenceEffect) and not own_turn:
                    # R-ADD-123: until the player's next turn, or the round's end.
                    until = seat if effect.defence_until == "your_next_turn" else -1
                    tx.emit(ev.DefenceLent(ally, inner.amount, until, card.id))
                else:
                    _effect(tx, ally, card, inner, None, (), None, (), {}, True)
        return
    if isinstance(effect, PlantSeedsEffect):
        if attack_target is not None:
            at = tx.seat(attack_target).at
            have = next((n for q, r, n in tx.state.seeds if (q, r) == (at.q, at.r)), 0)
            total = min(MAX_SEEDS, have + effect.n)
            if total > have:
                tx.emit(ev.SeedsPlanted((at.q, at.r), total - have, total, card.id))
        return
    if isinstance(effect, SeedAreaEffect):
        # R-ADD-147: every board hex within reach of the own casket, at most 4 a hex.
        counts = {(q, r): n for q, r, n in tx.state.seeds}
        area = sorted(h for h in tx.state.board.cells if h.distance(c.at) <= effect.within)
        for h in area:
            before = counts.get((h.q, h.r), 0)
            total = min(MAX_SEEDS, before + effect.n)
            if total > before:
                tx.emit(ev.SeedsPlanted((h.q, h.r), total - before, total, card.id))
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
            amount = SP_ALL if effect.amount == "all" else effect.amount  # R-ADD-119
            tx.emit(ev.SpPenaltyImposed(attack_target, amount, card.id))
        return
    if isinstance(effect, LowerDefenceEffect):
        if attack_target is not None:
            tx.emit(ev.DefenceLowered(attack_target, effect.amount, card.id))
        return
    if isinstance(effect, MarkEffect):  # R-ADD-148: an enemy within the card's range
        marked = _enemy_in_range(tx, seat, card, target)
        used["target"] = True
        if effect.visible:  # R-ADD-149: "visible", the line of sight of R-LOS-1..4
            t = tx.seat(marked)
            others = [x.at for x in tx.state.seats if x.seat not in (seat, marked) and x.in_battle]
            if not line_of_sight(tx.state.board, c.at, t.at, others).clear:
                raise RuleViolation(
                    "no_line_of_sight", f"{card.name} marks a visible enemy only", "R-ADD-149"
                )
        tx.emit(ev.EnemyMarked(seat, marked, card.id))
        return
    if isinstance(effect, GiveHeatEffect):
        # R-ADD-143: after a hit, the target's Heat; a reactive card's "attacker gains
        # N Heat" waits for the attack's end (`_end_attack`).
        to = attack_target if effect.to == "target" else None
        if to is not None and tx.seat(to).in_battle:
            _change_heat(tx, to, effect.amount, card.name, "R-ADD-143")
        return
    if isinstance(effect, DamageNextTurnEffect):
        if attack_target is not None:
            tx.emit(ev.DamageScheduled(attack_target, effect.amount, card.id))
        return
    if isinstance(effect, RootEffect | DrawPenaltyEffect):  # issue 17, dot
        who = attack_target
        if who is None:  # a card without an attack: an enemy within its range (R-ADD-65)
            who = _enemy_in_range(tx, seat, card, target)
            used["target"] = True
        if isinstance(effect, RootEffect):
            tx.emit(ev.Rooted(who, effect.turns, card.id))
        else:
            tx.emit(ev.DrawPenaltyImposed(who, effect.n, card.id))
        return
    if isinstance(effect, BleedEffect):
        if attack_target is not None:
            have = tx.seat(attack_target).bleed
            n = effect.n + (effect.more_if_bleeding if have else 0)
            tx.emit(ev.BleedApplied(attack_target, n, have + n, card.id))
            if effect.adjacent:  # R-ADD-182: the enemies beside the target, in seat order
                at, side = tx.seat(attack_target).at, tx.seat(seat).side
                for x in tx.state.seats:
                    near = x.seat != attack_target and x.at.distance(at) == 1
                    if near and x.in_battle and x.side != side:
                        tx.emit(ev.BleedApplied(x.seat, effect.n, x.bleed + effect.n, card.id))
        return
    if isinstance(effect, OngoingDamageEffect):
        if attack_target is not None:
            tx.emit(ev.OngoingDamageScheduled(attack_target, effect.amount, effect.turns, card.id))
        return
    if isinstance(effect, MoveCostEffect):
        if attack_target is not None:
            tx.emit(ev.MoveCostRaised(attack_target, effect.amount, card.id))
        return
    if isinstance(effect, NoAttacksEffect):
        tx.emit(ev.AttacksForgone(seat, card.id))
        return
    if isinstance(effect, TargetDiscardsEffect):
        if attack_target is not None:
            _target_discards(tx, attack_target, card, effect)
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
            _change_taint(tx, who, effect.change(tx.seat(who).taint), card.id)
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
        if skip_attack:
            return  # an attack card's move is the attack command's path (R-ADD-104)
        if not path:
            raise RuleViolation("path_required", f"{card.name} moves: give 'path'", "R-ADD-25")
        _card_move(tx, c, card, effect, path, None)
        used["path"] = True
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


def _target_discards(tx: _Tx, seat: int, card: CardDef, effect: TargetDiscardsEffect) -> None:
    """R-ADD-117: the target loses cards from its hand, at random among those of the kind
    the text names (every pick in the events), or of its own choice (a prompt)."""
    t = tx.seat(seat)
    if not t.in_battle:
        return
    if effect.pick == "target":
        n = min(effect.n, len(t.hand))
        if n:
            reason = f"{card.name}: discard {n} card(s) of your choice (R-ADD-117)"
            _open_prompt(tx, seat, "discard", n, None, "R-ADD-117", reason)
        return

    def fits(x: CardDef) -> bool:
        # "weapon card": a Primary Weapon card (R-DMG-6, R-ADD-52); a shield card (R-REA-2)
        return {"weapon": x.kind == "primary_weapon", "shield": x.shield}.get(effect.of, True)

    pool = [x for x in t.hand if fits(tx.state.card(x))]
    n = min(effect.n, len(pool))
    if not n:
        return
    purpose = f"{card.name}: the target's random card(s)"
    order, _ = tx.shuffle(pool, purpose)
    picked = tx.take(order, n, purpose, "R-ADD-117")
    if effect.lost:  # "destroy": lost as damage is, no component (R-DMG-8)
        _take_damage(tx, seat, picked, 0, None)
    else:
        tx.emit(ev.CardsDiscarded(seat, picked, (), card.name, "R-ADD-117"))


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


def _challenge(tx: _Tx, seat: int, card: CardDef, target: int | None) -> None:
    """R-ADD-174: a visible enemy within the card's range, neither in a duel nor asked to
    one, is challenged and asked for its answer."""
    enemy = _enemy_in_range(tx, seat, card, target)
    c, t = tx.seat(seat), tx.seat(enemy)
    others = [x.at for x in tx.state.seats if x.seat not in (seat, enemy) and x.in_battle]
    if not line_of_sight(tx.state.board, c.at, t.at, others).clear:
        raise RuleViolation(
            "no_line_of_sight", f"{card.name} challenges a visible enemy", "R-ADD-174"
        )
    for x in (c, t):
        if (
            x.duel_with is not None and tx.seat(x.duel_with).in_battle
        ) or x.challenged_by is not None:
            raise RuleViolation(
                "in_duel", f"seat {x.seat} is already in an Honor Duel", "R-ADD-174"
            )
    tx.emit(ev.DuelChallenged(seat, enemy, card.id))
    reason = f"{card.name}: accept the Honor Duel, or refuse and bear Coward's Mark (choose)"
    _open_prompt(tx, enemy, "duel", 0, None, "R-ADD-174", reason)


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


def _card_move(
    tx: _Tx,
    c: CasketState,
    card: CardDef,
    effect: MoveEffect,
    path: Sequence[object],
    toward: Hex | None,
) -> None:
    """A card's move along `path`, at no SP beyond the card's (R-ADD-25): each step legal
    (R-TRN-5, R-LOS-5) unless it ignores terrain (R-ADD-103); straight (R-ADD-63); each
    step one hex nearer `toward`, the attack's target (R-ADD-104). A rooted casket makes
    none (R-ADD-111)."""
    if c.rooted_turns:
        raise RuleViolation(
            "immobilised", "a card has rooted this casket: it cannot move this turn", "R-ADD-111"
        )
    if len(path) > effect.hexes:
        raise RuleViolation(
            "path_too_long", f"{card.name} moves at most {effect.hexes} hex(es)", "R-ADD-25"
        )
    steps: tuple[Hex, ...] = tuple(path)  # type: ignore[arg-type]
    if effect.ignore_terrain:
        s = tx.state
        _not_barred(tx, c, steps)
        validate_free_path(
            s.board,
            c.at,
            steps,
            allies=s.ally_hexes(c),
            enemies=s.enemy_hexes(c),
            through_enemies=effect.through_enemies,
        )
    else:
        _path_cost(tx, c, steps)
    hexes = tuple((h.q, h.r) for h in steps)
    if effect.line:
        line = ((c.at.q, c.at.r), *hexes)
        turns = {(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(line)}
        if len(turns) != 1:
            raise RuleViolation(
                "not_a_straight_line",
                f"{card.name} moves in a straight line: every step in one direction",
                "R-ADD-63",
            )
    if effect.toward:
        if toward is None:  # pragma: no cover - the catalogue puts toward on attack cards
            raise RuleViolation(
                "target_required", f"{card.name} moves toward a target", "R-ADD-104"
            )
        here = c.at
        for step in steps:
            if step.distance(toward) != here.distance(toward) - 1:
                raise RuleViolation(
                    "not_toward_target",
                    f"{card.name} moves toward its target: [{step.q}, {step.r}] is no nearer",
                    "R-ADD-104",
                )
            here = step
    tx.emit(ev.CasketMoved(c.seat, hexes, 0, card.id))
    _entered(tx, c.seat, c.at, steps)  # R-ADD-165


def _push(
    tx: _Tx,
    seat: int,
    card: CardDef,
    effect: PushEffect,
    target: int | None,
    used: dict[str, bool],
    attack_target: int | None,
    ended: bool,
) -> None:
    """R-ADD-100: the attack's target after a hit, or the command's enemy on a card
    without an attack, is pushed (pulled) straight away from (toward) the own casket."""
    who = attack_target
    if who is None:  # a card without an attack: an enemy within its range
        who = _enemy_in_range(tx, seat, card, target)
        used["target"] = True
    elif not ended:  # pragma: no cover - the catalogue puts an attack's push in after_attack
        raise RuleViolation("push_before_hit", f"{card.name} pushes after its hit", "R-ADD-100")
    d = tx.seat(who)
    if not d.in_battle:
        return  # destroyed by the hit: nothing is left to push
    path: tuple[Hex, ...] = ()
    if "anchored" not in d.statuses:  # R-ADD-101
        s = tx.state
        occupied = [x.at for x in s.seats if x.in_battle and x.seat != who]
        occupied += s.barred_for(d)  # R-ADD-163: a push stops at an enemy's sanctuary
        source = tx.seat(seat).at
        path = forced_path(s.board, source, d.at, effect.hexes, toward=effect.toward,
                           occupied=occupied)  # fmt: skip
    tx.emit(ev.CasketPushed(who, tuple((h.q, h.r) for h in path), seat, card.id))
    _entered(tx, who, d.at, path)  # R-ADD-165
    if effect.adjacent_damage and tx.seat(who).at.distance(tx.seat(seat).at) == 1:
        reason = f"{card.name}: ends adjacent (R-ADD-100)"
        _inflict(tx, who, effect.adjacent_damage, None, reason)


def _scatter(tx: _Tx, seat: int, card: CardDef, who: int) -> None:
    """R-ADD-108: 1d6 names a direction; the target goes to that neighbour, or the first
    clockwise from it that is on the board, not impassable and empty; none: it stays."""
    d = tx.seat(who)
    if not d.in_battle:
        return
    face = tx.dice.d6(1, purpose=f"{card.name}: the direction", rule="R-ADD-108")[0]
    tx.emit(ev.EffectRolled(seat, (face,), face, card.id, "R-ADD-108"))
    s = tx.state
    occupied = {x.at for x in s.seats if x.in_battle} | set(s.barred_for(d))  # R-ADD-163
    path: tuple[tuple[int, int], ...] = ()
    for k in range(6):
        h = d.at.neighbour((face - 1 + k) % 6 + 1)
        if h in s.board and not s.board.terrain_at(h).impassable and h not in occupied:
            path = ((h.q, h.r),)
            break
    tx.emit(ev.CasketPushed(who, path, seat, card.id, "R-ADD-108"))
    _entered(tx, who, d.at, [Hex(q, r) for q, r in path])  # R-ADD-165


def _teleport(
    tx: _Tx, c: CasketState, card: CardDef, effect: TeleportEffect, path: Sequence[object]
) -> None:
    """R-ADD-102: the command's `path` is the one hex the casket teleports to."""
    if len(path) != 1:
        raise RuleViolation(
            "destination_required",
            f"{card.name} teleports: give 'path' as the one destination hex",
            "R-ADD-102",
        )
    destination: Hex = path[0]  # type: ignore[assignment]
    _not_barred(tx, c, path)
    s = tx.state
    occupied = [x.at for x in s.seats if x.in_battle and x.seat != c.seat]
    problem = teleport_problem(s.board, c.at, destination, effect.hexes, occupied=occupied,
                               near_terrain=effect.near_terrain)  # fmt: skip
    if problem is not None:
        raise problem
    hexes = c.at.distance(destination)
    tx.emit(ev.CasketTeleported(c.seat, (destination.q, destination.r), hexes, card.id))
    _entered(tx, c.seat, c.at, [destination])  # R-ADD-165


# R-ADD-163: Consecrated Ground's "allies standing in it gain +1 Defense", Sanctuary's
# "allies inside gain +3 Defense".
GROUND_DEFENCE = {"holy": 1, "sanctuary": 3}


def _not_barred(tx: _Tx, c: CasketState, steps: Sequence[object]) -> None:
    """R-ADD-163: "enemies cannot enter" an enemy's sanctuary, whatever the move."""
    barred = set(tx.state.barred_for(c))
    for h in steps:
        if h in barred:
            assert isinstance(h, Hex)
            raise RuleViolation(
                "sanctuary",
                f"[{h.q}, {h.r}] is an enemy's sanctuary: it cannot be entered",
                "R-ADD-163",
            )


def _terrain_hexes(
    tx: _Tx, c: CasketState, card: CardDef, effect: TerrainEffect, path: Sequence[object]
) -> list[Hex]:
    """R-ADD-162: the command's `path` names the hexes: the first within the card's printed
    range (no range: the own hex or an adjacent one) and in sight of the casket (R-LOS-1..4,
    caskets never block, R-LOS-3), each next one adjacent to one named before it."""
    hexes: list[Hex] = [h for h in path if isinstance(h, Hex)]
    if len(hexes) != effect.hexes or len(set(hexes)) != len(hexes):
        raise RuleViolation(
            "hexes_required",
            f"{card.name} makes {effect.hexes} hex(es) of {effect.terrain}: give 'path' as "
            f"{effect.hexes} different hex(es)",
            "R-ADD-162",
        )
    first = hexes[0]
    low, high = (card.range.low, card.range.high) if card.range is not None else (0, 1)
    if not low <= c.at.distance(first) <= high:
        raise RuleViolation(
            "out_of_range",
            f"{card.name} reaches {low}..{high} hexes; [{first.q}, {first.r}] is "
            f"{c.at.distance(first)} away",
            "R-ADD-162",
        )
    if first != c.at and not line_of_sight(tx.state.board, c.at, first, []).clear:
        raise RuleViolation(
            "no_line_of_sight", f"{card.name}: [{first.q}, {first.r}] is out of sight", "R-ADD-162"
        )
    for i, h in enumerate(hexes[1:], start=1):
        if not any(h.distance(before) == 1 for before in hexes[:i]):
            raise RuleViolation(
                "hexes_not_adjacent",
                f"{card.name}: [{h.q}, {h.r}] touches none of the hexes named before it",
                "R-ADD-162",
            )
    return hexes


def _make_terrain(
    tx: _Tx, seat: int, card: CardDef, effect: TerrainEffect, hexes: Sequence[Hex]
) -> None:
    """R-ADD-160/161: the terrain made, on board hexes that are not impassable (a wall stays
    a wall), until the round's end, for N rounds, N of the player's turns, or the battle."""
    board = tx.state.board
    # R-ADD-166: a wall is never raised under a casket.
    walled = (board.kinds.get(effect.terrain) or BATTLE_TERRAIN[effect.terrain]).impassable
    occupied = {x.at for x in tx.state.seats if x.in_battle} if walled else set()
    for h in hexes:
        if h not in board or board.terrain_at(h).impassable or h in occupied:
            raise RuleViolation(
                "terrain_not_placeable",
                f"{card.name}: [{h.q}, {h.r}] is off the board, impassable or, for a wall, "
                "occupied",
                "R-ADD-162",
            )
    until_round, turns = 0, 0
    if effect.until == "end_of_round":
        until_round = tx.state.round
    elif effect.until == "rounds":  # the current round is the first of them
        until_round = tx.state.round + effect.n - 1
    elif effect.until == "turns":
        turns = effect.n
    placed = tuple((h.q, h.r) for h in hexes)
    tx.emit(
        ev.TerrainCreated(seat, card.id, effect.terrain, placed, until_round, turns, effect.damage)
    )


def _entered(tx: _Tx, who: int, start: Hex, path: Sequence[Hex]) -> None:
    """R-ADD-165: after `who` moved from `start` along `path` (any move: a step, a card's,
    a push, a teleport), each terrain that hurts the maker's enemies and that the move
    entered from outside it deals its damage once, without an attack, as the move ends."""
    mover = tx.seat(who)
    fired: list[PlacedTerrain] = []
    previous = start
    for h in path:
        p = tx.state.placed_at(h)
        if (
            p is not None
            and p.damage
            # R-ADD-166: a fire wall burns whoever crosses it, a field the maker's enemies
            and (p.kind == "fire_wall" or tx.state.seats[p.seat].side != mover.side)
            and all((f.seat, f.card, f.kind) != (p.seat, p.card, p.kind) for f in fired)
        ):
            before = tx.state.placed_at(previous)
            came_from_inside = before is not None and (before.seat, before.card, before.kind) == (
                p.seat,
                p.card,
                p.kind,
            )
            if not came_from_inside:
                fired.append(p)
        previous = h
    for p in fired:
        if not tx.seat(who).in_battle:
            return
        tx.emit(ev.TerrainEntered(who, (p.q, p.r), p.seat, p.card, p.kind, p.damage))
        name = tx.state.cards[p.card].name if p.card in tx.state.cards else p.card
        _terrain_damage(tx, who, p.damage, f"{name}: entered its {p.kind.replace('_', ' ')}")


def _terrain_damage(tx: _Tx, seat: int, amount: int, reason: str) -> None:
    """Damage without an attack (R-DMG-6, R-ADD-165), as `_inflict` deals it, but never
    ending an attack in progress: a move inside an attack (a push, a dodge) is not its hit."""
    amount = _warded(tx, seat, amount, None)
    amount = _reduce_taken(tx, seat, amount)  # R-ADD-136, as `_inflict`
    if amount <= 0 or not tx.seat(seat).in_battle:
        return
    if not tx.seat(seat).hand:
        _take_damage(tx, seat, (), amount, None)
        return
    _open_prompt(tx, seat, "take_damage", amount, None, "R-DMG-6", reason)


def _discard_for(
    tx: _Tx, seat: int, card: CardDef, effect: DiscardForEffect, discard: Sequence[str]
) -> None:
    """R-ADD-152: an optional discard paid: the hand cards named in `discard`, the rest
    from the top of the deck (the player's choice of hand or deck, R-TRN-3)."""
    c = tx.seat(seat)
    from_hand = _hand_cards(c, discard, "discard", "R-ADD-152")
    if len(from_hand) > effect.n:
        raise RuleViolation(
            "wrong_discard_count", f"{card.name} discards {effect.n} card(s)", "R-ADD-152"
        )
    n_deck = effect.n - len(from_hand)
    if n_deck > len(c.deck):
        raise RuleViolation(
            "deck_too_small",
            f"{card.name}: the deck holds {len(c.deck)} card(s); name hand cards in 'discard'",
            "R-ADD-152",
        )
    from_deck = tx.take(c.deck, n_deck, card.name, "R-ADD-152")
    tx.emit(ev.CardsDiscarded(seat, from_hand, from_deck, card.name, "R-ADD-152"))
    _triggers(tx, seat, "cards_discarded")  # R-ADD-139: "whenever you discard cards"


def _recover_named(tx: _Tx, seat: int, effect: RecoverNamedEffect, reason: str) -> None:
    """R-ADD-153: the newest discards of the named cards back to the hand (R-ADD-62)."""
    named = [x for x in reversed(tx.seat(seat).discard) if card_id(x) in effect.cards]
    if named:
        tx.emit(ev.CardsRecovered(seat, tuple(named[: effect.n]), reason))


def _wreck_in_range(tx: _Tx, seat: int, card: CardDef, target: int | None) -> int:
    """R-ADD-158: the command's `target`, a defeated enemy casket whose wreck (its last
    hex) lies within the card's printed range and is still in play."""
    if target is None or not 0 <= target < len(tx.state.seats):
        raise RuleViolation(
            "target_required",
            f"{card.name} needs a destroyed enemy's wreck as 'target'",
            "R-ADD-158",
        )
    c, w = tx.seat(seat), tx.seat(target)
    if w.side == c.side or not w.defeated or w.wreck_removed:
        raise RuleViolation(
            "not_a_wreck",
            f"seat {target} is not a destroyed enemy's wreck still in play",
            "R-ADD-158",
        )
    reach = card.range
    if reach is None or not reach.low <= c.at.distance(w.at) <= reach.high:
        raise RuleViolation(
            "out_of_range",
            f"{card.name} reaches {reach.text if reach else 'no one'}; the wreck of seat "
            f"{target} is {c.at.distance(w.at)} hexes away",
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


@dataclass(frozen=True, slots=True)
class Decision:
    """A command's events and the state they lead to: the caller folds nothing again."""

    events: tuple[ev.Event, ...]
    state: BattleState


def decided(
    state: BattleState,
    command: Command,
    dice: DiceSource | None = None,
    *,
    before: BattleState | None = None,
) -> Decision:
    """`decide`, with the state its events lead to.

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.evolve import replay
    >>> from battles.engine.battle.commands import parse_command
    >>> s = replay(create("b1", demo_setup(seed=3)))
    >>> d = decided(s, parse_command({"type": "rotate", "seat": s.active, "facing": 3}))
    >>> [e.type for e in d.events], d.state.version == s.version + 1
    (['CasketRotated'], True)
    """
    events = decide(state, command, dice, before=before)
    after = state
    for event in events:
        after = evolve(after, event)
    return Decision(tuple(events), after)
