"""The flow of a battle: rounds, turns, their start and end, and the round limit."""

from __future__ import annotations

from ...cards import (
    ChrysalisEffect,
    HeatCapacityEffect,
    TaintAuraEffect,
)
from ...dice import (
    STRAIN_AUTO_FAIL_HEAT,
    component_for_roll,
    strain_result,
)
from .. import events as ev
from ..state import (
    ACTION,
    END,
    HAND_SIZE,
    SETUP,
    SP_MAXIMUM,
    STRAIN_HEAT,
    BattleState,
    CasketState,
)
from . import attacking, harm, passives, piles, resolution
from .tx import _Tx


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
                attacking._follow_up(tx)  # R-ADD-80: the card's next attack, nobody decides it
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
        passives._triggers(tx, seat, "start_of_round")
    _start_turn(tx, order[0])
    resolution._release_loop(tx, order[0])  # R-ADD-422


def _sp_lines(c: CasketState) -> tuple[tuple[str, int, str], ...]:
    lines = [(f"{c.casket_class} casket", SP_MAXIMUM[c.casket_class], "R-TRN-3")]
    if "chassis" in c.destroyed:
        lines.append(("chassis destroyed", -1, "R-TRN-3"))
    if c.pilot_sp_modifier:
        lines.append(("pilot", c.pilot_sp_modifier, "R-TRN-3"))
    return tuple(lines)


def _emerge(tx: _Tx, seat: int, source: str) -> None:
    """R-ADD-366: "Next turn, recover 10 cards from discard pile, remove all Heat, gain +2
    Defense permanently this mission": as the turn after the skipped one starts."""
    card = tx.state.card(source)
    effect = next(e for e in card.effects if isinstance(e, ChrysalisEffect))
    tx.emit(ev.ChrysalisEmerged(seat, source))
    piles._recover(tx, seat, effect.recover, card.name)
    heat = tx.seat(seat).heat
    if heat:
        harm._change_heat(tx, seat, -heat, card.name, "R-ADD-366")
    if effect.defence:
        tx.emit(
            ev.WardRaised(
                seat, source, "end_of_battle", "attacks", effect.defence, 0, 0, 0, None, 0, 0, 0
            )
        )


def _start_turn(tx: _Tx, seat: int) -> None:
    before = tx.seat(seat)
    penalty = before.sp_penalty  # TurnStarted clears it
    scheduled = before.damage_next_turn  # TurnStarted clears it too
    # R-ADD-112: this turn's share of ongoing damage (TurnStarted moves the rest up).
    scheduled += before.ongoing_damage[0] if before.ongoing_damage else 0
    # R-ADD-443: damage until so many cards are discarded, each such hit's
    scheduled += sum(d for d, _ in before.damage_until_discards)
    # R-ADD-88: the enemies' damage auras this casket stands in as its turn starts, taken
    # with R-ADD-73's scheduled damage.
    aura_damage = _aura_damage(tx, seat)
    skip = before.skip_next_turn
    tx.emit(ev.TurnStarted(seat))
    _taint_auras(tx, seat)
    if skip:
        # R-ADD-159: the turn starts (what lasts until it lapses) and ends at once: no SP,
        # no triggers, no strain roll, no actions, no draw; damage due now still lands.
        tx.emit(ev.TurnSkipped(seat))
        bled = _bleed(tx, seat)
        _scheduled_damage(tx, seat, scheduled + bled, bled, aura_damage)
        return
    if before.chrysalis:
        _emerge(tx, seat, before.chrysalis)
    c = tx.seat(seat)
    lines = _sp_lines(c)
    tx.emit(ev.SpRestored(seat, max(0, sum(v for _, v, _ in lines)), lines))
    if penalty:  # R-ADD-65: an enemy card's "−N SP next turn"
        tx.emit(ev.SpDrained(seat, min(penalty, tx.seat(seat).sp_max), "R-ADD-65"))
    if tx.seat(seat).sp_locked and tx.seat(seat).sp_max:  # R-ADD-343: "you have 0 SP"
        tx.emit(ev.SpDrained(seat, tx.seat(seat).sp_max, "R-ADD-343"))
    passives._triggers(tx, seat, "start_of_turn")
    passives._zones(tx, seat)
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
        harm._change_heat(tx, seat, result.heat_gained, "strain: minor overload", "R-TRN-4")
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
        resolution._inflict(tx, seat, result.damage + scheduled + aura_damage, None, reason)
        return
    elif result.critical_failure:
        face = tx.dice.d6(1, purpose="the malfunction component roll", rule="R-TRN-4")[0]
        harm._component_damage(
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


def _taint_auras(tx: _Tx, seat: int) -> None:
    """R-ADD-296: "Enemies within 3 hexes gain +1 Taint per turn": each enemy's aura in play
    reaching this casket as its turn starts, in seat order."""
    c = tx.seat(seat)
    for x in tx.state.seats:
        if not x.in_battle or x.side == c.side:
            continue
        for instance in x.in_play:
            for e in tx.state.card(instance).effects:
                if isinstance(e, TaintAuraEffect) and x.at.distance(c.at) <= e.within:
                    harm._change_taint(tx, seat, e.amount, tx.state.card(instance).id)


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
        resolution._inflict(tx, seat, amount + aura, None, " and ".join(reasons))


def _cursed_fewer(s: BattleState, c: CasketState) -> int:
    """R-ADD-421: the cards fewer a lasting curse takes off the casket's Draw phase: its
    own curse's, or the curse of an ally (another casket of its side still in the battle)
    within the curse's spread. Curses do not add up: the most of them counts ("hand size 5
    instead of 6")."""
    fewer = 0
    for other in s.seats:
        if other.side != c.side or not other.in_battle:
            continue
        for _, source in other.curses:
            curse = s.curse(source)
            if curse is None:
                continue
            if other.seat == c.seat or other.at.distance(c.at) <= curse.spread:
                fewer = max(fewer, curse.fewer)
    return fewer


def _end_turn(tx: _Tx, seat: int) -> None:
    """Draw (R-TRN-6) and End (R-TRN-7) for the seat that passed."""
    c = tx.seat(seat)
    # R-ADD-114: an enemy card's "draws N fewer cards next turn"; R-ADD-421: a lasting
    # curse on the casket or on an ally near it
    cursed = _cursed_fewer(tx.state, c)
    fill = HAND_SIZE - c.draw_penalty - cursed
    if len(c.hand) < fill:
        reason = "draw phase" + (" (fewer: R-ADD-114)" if c.draw_penalty else "")
        reason += " (cursed: R-ADD-421)" if cursed else ""
        piles._draw(tx, seat, fill - len(c.hand), reason)
    c = tx.seat(seat)
    if not c.in_battle:
        return
    passives._triggers(tx, seat, "end_of_turn")  # R-TRN-7: end-of-turn effects
    c = tx.seat(seat)
    water = tx.state.board.terrain_at(c.at).heat_end_of_turn
    if water < 0 and c.heat:
        harm._change_heat(tx, seat, water, "end of turn in water", "R-TRN-7")
    elif water > 0:  # lava's +2 (R-ADD-160) needs no Heat to start from
        name = tx.state.board.terrain_at(c.at).name
        harm._change_heat(tx, seat, water, f"end of turn in {name}", "R-ADD-160")
    if tx.state.ground_of(c) == ("holy", "ally") and tx.seat(seat).heat:  # R-ADD-163
        harm._change_heat(tx, seat, -1, "end of turn on holy ground", "R-ADD-163")
    if not c.acted and tx.seat(seat).heat:
        harm._change_heat(tx, seat, -1, "a turn without actions", "R-TRN-5")
    excess = len(tx.seat(seat).hand) - HAND_SIZE
    if excess > 0:
        resolution._open_prompt(
            tx, seat, "discard_down", excess, None, "R-TRN-7", f"discard {excess} card(s)"
        )
        if tx.state.prompts:
            return
    _finish_turn(tx)


def _finish_turn(tx: _Tx) -> None:
    s = tx.state
    seat = s.order[s.turn]
    c = s.seats[seat]
    for instance, left in c.timed:  # R-ADD-375: the last of the turns it lasts is over
        if left <= 1 and instance in c.in_play:
            card = s.card(instance)
            tx.emit(ev.CardLapsed(seat, instance, card.for_turns, card.leaves_game))
    tx.emit(ev.TurnEnded(seat))
    s = tx.state
    for i in range(s.turn, len(s.order)):
        if s.seats[s.order[i]].in_battle:
            _start_turn(tx, s.order[i])
            resolution._release_loop(tx, s.order[i])  # R-ADD-422
            return


def _end_round(tx: _Tx) -> None:
    for seat in tx.state.order:  # R-ADD-137: "at the end of each round", in turn order
        passives._triggers(tx, seat, "end_of_round")
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
