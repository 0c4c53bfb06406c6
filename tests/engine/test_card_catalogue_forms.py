"""Scenarios for the catalogue entries of issue 17's "forms" group: cards that depend on a
casket's form (Metamorph form, Assault Form: R-ADD-170), on Pack Instinct (R-ADD-171) and a
few leftovers, played through decide/evolve with the helpers of test_card_catalogue.py and
test_card_catalogue_allies.py; `test_every_automated_entry_has_a_scenario_below` (in
test_card_catalogue.py) counts the scenarios of this file too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from battles.engine.battle.events import (
    AttackDeclared,
    AttackRolled,
    BleedApplied,
    CardsDiscarded,
    CardsRecovered,
    CasketMoved,
    CounterRaised,
    DamageTaken,
    DefenceRolled,
    DuelAnswered,
    DuelChallenged,
    Event,
    FormTaken,
    PromptOpened,
    RoundEnded,
    TokensChanged,
    WardRaised,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.board import parse_board
from battles.engine.cards import (
    CardDef,
    Condition,
    TransformEffect,
    condition_from_dict,
    effect_from_dict,
)
from battles.engine.errors import InvalidInput
from battles.engine.hexes import Hex
from battles.engine.ruleset import parse_ruleset
from battles.engine.tohit import Attacker, Target, Weapon, parse_range, to_hit

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, start
from .test_card_catalogue import (
    AUTOMATED,
    MAUL,
    _counter,
    arrange,
    attack,
    battle,
    built,
    conditional,
    declared,
    hit,
    play,
    run_scenario,
    tokens,
)
from .test_card_catalogue_allies import EMERGENT, VESTIGE, _counted_attack, _field
from .test_card_catalogue_area import attacks as area_attacks
from .test_card_catalogue_area import field, hits, played_once, strike
from .test_card_catalogue_area import line as area_line
from .test_card_catalogue_states import _killed_by, _with_seats

FORMS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}

ITEMS = "equipment_items"


def _form(b: Battle, form: str, seat_: int = 0, *, rounds_ago: int = 0) -> None:
    """Seat `seat_` took `form` in this round (or `rounds_ago` rounds before), as
    Metamorphic Adaptation's `transform` would record it (R-ADD-170)."""
    arrange(b, FormTaken(seat_, form, b.state.round - rounds_ago, "arranged"))


def _pass(b: Battle, seat_: int, **extra: Any) -> list[Event]:
    """The seat passes, drawing back to 6."""
    missing = 6 - len(b.seat(seat_).hand)
    return b.do({"type": "pass", "seat": seat_, "drawn": [FILLER] * missing, **extra})


# --- R-ADD-170: forms ----------------------------------------------------------------------------


def _metamorph_strike(section: str, base: int) -> Callable[[], None]:
    def scenario() -> None:
        """ "Deal 6 (4) damage. If in Metamorph form, deal 7 (5) damage instead.": any of
        Metamorphic Adaptation's forms is Metamorph form, while its round lasts (R-ADD-170)."""
        for form in ("assault", "tank", "scout"):
            conditional(section, "metamorph-strike", base, 1, lambda b, f=form: _form(b, f))
        card = built(section, "metamorph-strike")
        lapsed = battle(card)
        _form(lapsed, "assault", rounds_ago=1)  # a form of an earlier round has lapsed
        assert hit(declared(lapsed, card)) == base
        enemy = battle(card)
        _form(enemy, "assault", seat_=1)  # the target's form is not the attacker's
        assert hit(declared(enemy, card)) == base

    return scenario


def _chitin_claws() -> None:
    """ "Deal 4 damage. If you have Assault Form active (from Metamorphic Adaptation), deal
    5 damage instead.": Assault Form only, not Tank or Scout Form (R-ADD-170)."""
    conditional("emergent", "chitin-claws", 4, 1, lambda b: _form(b, "assault"))
    card = built("emergent", "chitin-claws")
    for other in ("tank", "scout"):
        b = battle(card)
        _form(b, other)
        assert hit(declared(b, card)) == 4, other


def _apex_form_strike(section: str, base: int, form_bonus: int) -> Callable[[], None]:
    def scenario() -> None:
        """ "Deal 8 damage. If in Metamorph form, +1 damage. Deal +1 damage per allied
        Emergent unit within 3 hexes (max +4)." (items: "Deal 6 damage. If in Metamorph
        form, deal +2 damage. If allied Emergent units are within 3 hexes, deal +1 damage
        per ally (max +4).") The form is R-ADD-170's, the allies R-ADD-121's."""
        card = built(section, "apex-form-strike")
        e = EMERGENT
        near = [((1, 3), "pack", e), ((-3, 3), "pack", e), ((0, 5), "pack", e),
                ((2, 3), "pack", e), ((-1, 3), "pack", e)]  # fmt: skip
        for others, in_form, damage in (
            ([], False, base),
            ([], True, base + form_bonus),
            (near[:2], False, base + 2),
            ([*near[:1], ((0, 7), "pack", e), ((1, 4), "pack", VESTIGE)], False, base + 1),
            (near, True, base + form_bonus + 4),  # five allies, at most +4
        ):
            b = _field(card, others)
            if in_form:
                _form(b, "tank")
            assert hit(declared(b, card)) == damage, (others, in_form)

    return scenario


def _carapace_shield(section: str) -> Callable[[], None]:
    def scenario() -> None:
        """ "Play when targeted by attack. Reduce damage by 2 (minimum 1). If in Metamorph
        form, reduce by 3 instead.": the defender's form as the card is played (R-ADD-67,
        R-ADD-170); the minimum holds for the whole reduction (R-ADD-58)."""
        card = built(section, "carapace-shield")
        for in_form, damage, reduction, final in (
            (False, 24, 2, 22),
            (True, 24, 3, 21),
            (True, 2, 3, 1),  # minimum 1
        ):
            b = battle(card, first=1, opponent=("ruin",))
            if in_form:
                _form(b, "scout")
            weapon = "ruin" if damage == 24 else "test-maul"
            b.do({"type": "attack", "seat": 1, "card": f"{weapon}#1", "target": 0,
                  "component": "chassis", "faces": [3, 2]})  # fmt: skip
            assert [p.kind for p in b.state.prompts] == ["reactive"]
            answer = {"type": "play_reactive", "seat": 0, "card": "carapace-shield#1",
                      "faces": [4] * damage}  # fmt: skip
            rolled: DefenceRolled = one(b.do(answer), DefenceRolled)
            assert (rolled.reduction_applied, rolled.final_damage) == (reduction, final)

    return scenario


def _metamorphic_barrier() -> None:
    """ "Until end of round, reduce all incoming damage by 2. If in Metamorph form, reduce
    by 3 instead.": wards of R-ADD-93/R-ADD-94, the form read as the card is played
    (R-ADD-170). The Blade's 3 damage, no blocks: 1 taken, or none in Metamorph form."""
    card = built(ITEMS, "metamorphic-barrier")
    for in_form, reduces, taken in ((False, [2], 1), (True, [2, 1], 0)):
        b = battle(card, opponent=("blade",))
        if in_form:
            _form(b, "assault")
        raised = of_type(play(b, "metamorphic-barrier"), WardRaised)
        assert [(w.until, w.against, w.reduce) for w in raised] == [
            ("end_of_round", "all", r) for r in reduces
        ]
        _pass(b, 0)
        events = b.do({"type": "attack", "seat": 1, "card": "blade#1", "target": 0,
                       "component": "chassis", "faces": [3, 2, 4, 4, 4]})  # fmt: skip
        if b.state.prompts and b.state.prompts[0].kind == "reactive":
            events = b.do({"type": "decline_reactive", "seat": 0})
        prompts = [p for p in b.state.prompts if p.kind == "take_damage"]
        assert (prompts[0].amount if prompts else 0) == taken, (in_form, events)


FORMS_SCENARIOS.update({
    ("equipment", "metamorph-strike"): _metamorph_strike("equipment", 6),
    (ITEMS, "metamorph-strike"): _metamorph_strike(ITEMS, 4),
    ("emergent", "chitin-claws"): _chitin_claws,
    ("equipment", "apex-form-strike"): _apex_form_strike("equipment", 8, 1),
    (ITEMS, "apex-form-strike"): _apex_form_strike(ITEMS, 6, 2),
    ("equipment", "carapace-shield"): _carapace_shield("equipment"),
    (ITEMS, "carapace-shield"): _carapace_shield(ITEMS),
    (ITEMS, "metamorphic-barrier"): _metamorphic_barrier,
})  # fmt: skip


def _transforming(*cards: CardDef) -> Battle:
    """Seat 0 at [0, 3] facing N holds `cards` (two of each); seat 1 adjacent north, the
    test's Maul in hand; seat 0 acts first."""
    doc = {
        "name": "Forms", "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 4},
                                   "hexes": []},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"},
        "policy": "prompt", "cards": [CARDS[FILLER], MAUL, *(c.as_dict() for c in cards)],
        "seats": [
            {**seat(0, at=(0, 3), facing=1), "deck": deck(**{c.id: 2 for c in cards})},
            {**seat(1, at=(0, 2), facing=4), "deck": deck(**{"test-maul": 2})},
        ],
    }  # fmt: skip
    hands = [[c.id for c in cards] + [FILLER] * (6 - len(cards)), ["test-maul", *[FILLER] * 5]]
    return start(doc, hands)


ADAPTATION = CardDef(id="adaptation", name="Adaptation", kind="other", sp_cost=0,
                     effects=(TransformEffect("assault"),), automated=True)  # fmt: skip


def test_a_form_is_taken_by_a_transform_and_lapses_with_the_round() -> None:
    """R-ADD-170: `transform` records the form and the round (`FormTaken`); the form's
    conditions hold until that round ends, and a later form replaces it."""
    claws = built("emergent", "chitin-claws")
    b = _transforming(ADAPTATION, claws)
    taken = one(play(b, "adaptation"), FormTaken)
    assert (taken.seat, taken.form, taken.round, taken.source) == (0, "assault", 1, "adaptation")
    assert (b.seat(0).form, b.seat(0).form_round) == ("assault", 1)
    assert hit(declared(b, claws, faces=[1, 1])) == 5
    # Round 1 ends; seat 0 acts first in round 2, its form gone.
    b.do({"type": "pass", "seat": 0, "drawn": ["chitin-claws", FILLER]})
    events = _pass(b, 1, faces=[6, 1])
    assert of_type(events, RoundEnded) and b.state.active == 0
    body = {"type": "attack", "seat": 0, "card": "chitin-claws#2", "target": 1,
            "component": "chassis", "faces": [1, 1]}  # fmt: skip
    d: AttackDeclared = one(b.do(body), AttackDeclared)
    assert hit(d) == 4


def test_a_later_form_replaces_the_earlier() -> None:
    claws = built("emergent", "chitin-claws")
    b = battle(claws)
    _form(b, "assault")
    _form(b, "tank")
    assert b.seat(0).form == "tank"
    assert hit(declared(b, claws)) == 4


@pytest.mark.parametrize(
    ("doc", "field", "rule"),
    [
        ({"test": "own_form"}, "condition.form", "R-ADD-170"),
        ({"test": "own_form", "form": "mantis"}, "condition.form", None),
        ({"test": "moved_this_turn", "form": "assault"}, "condition.form", "R-ADD-170"),
    ],
)
def test_a_form_condition_names_a_known_form(
    doc: dict[str, Any], field: str, rule: str | None
) -> None:
    with pytest.raises(InvalidInput) as err:
        condition_from_dict(doc, "condition")
    assert (err.value.field, err.value.rule) == (field, rule)


def test_a_transform_names_one_of_the_three_forms() -> None:
    with pytest.raises(InvalidInput) as err:
        effect_from_dict({"kind": "transform", "form": "metamorph"}, "card.effects[0]")
    assert err.value.field == "card.effects[0].form"
    with pytest.raises(InvalidInput) as err:
        effect_from_dict({"kind": "transform"}, "card.effects[0]")
    assert err.value.field == "card.effects[0].form"
    assert effect_from_dict({"kind": "transform", "form": "scout"}) == TransformEffect("scout")
    assert Condition("own_form", form="metamorph").as_dict() == {
        "test": "own_form",
        "form": "metamorph",
    }


# --- R-ADD-171: Pack Instinct --------------------------------------------------------------------


def _rending_claws() -> None:
    """ "Deal 4 damage. If you have Pack Instinct active, deal 5 damage instead.": the
    Vestige passive's condition, an allied Vestige Casket adjacent to the attacked enemy
    (R-ADD-171, R-ADD-121); the target stands at [0, 2]."""
    v = VESTIGE
    _counted_attack(
        VESTIGE,
        "rending-claws",
        [
            ([], 4),
            ([((1, 2), "pack", v)], 5),
            ([((-1, 3), "pack", v), ((1, 2), "pack", v)], 5),  # +1 however many
            ([((0, 4), "pack", v)], 4),  # adjacent to the attacker, not the target
            ([((1, 2), "pack", EMERGENT)], 4),  # not a Vestige Casket
            ([((1, 2), "pack", None)], 4),  # no faction named
            ([((1, 2), "prey", v)], 4),  # the target's own ally is no ally of the attacker
        ],
    )


FORMS_SCENARIOS.update({
    (VESTIGE, "rending-claws"): _rending_claws,
})  # fmt: skip


# --- R-ADD-172, R-ADD-173: leftovers --------------------------------------------------------------


def _runic_armor() -> None:
    """ "Block 3 damage from next attack. You gain +1 to all defense rolls until end of
    turn.": a reactive card (the database's "reactive-defense"), played in answer to an
    attack (R-REA-1): three automatic blocks against the attack it answers and one more
    (R-ADD-98, R-ADD-172), then one more block on each later attack of this turn, lapsing
    as the attacker's turn ends (R-ADD-271). Played in its own turn it is refused."""
    card = built("dwarves", "runic-armor")
    assert card.kind == "reactive"
    own = battle(card)
    err = own.refuse({"type": "play_card", "seat": 0, "card": "runic-armor#1"})
    assert (err.code, err.rule) == ("reactive_in_own_turn", "R-REA-1")
    # The Ruin's 24 damage, every defence die BLOOD (no block of its own): 24 − 4.
    b = battle(card, first=1, opponent=("ruin", "blade"))
    b.do({"type": "attack", "seat": 1, "card": "ruin#1", "target": 0, "component": "chassis",
          "faces": [3, 2]})  # fmt: skip
    assert [p.kind for p in b.state.prompts] == ["reactive"]
    events = b.do({"type": "play_reactive", "seat": 0, "card": "runic-armor#1",
                   "faces": [4] * 24})  # fmt: skip
    raised = one(events, WardRaised)
    assert (raised.until, raised.against, raised.defence, raised.uses) == (
        "end_of_turn",
        "attacks",
        1,
        0,
    )
    rolled: DefenceRolled = one(events, DefenceRolled)
    assert (rolled.blocks, rolled.final_damage) == (4, 20)
    b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": 20, "drawn": [FILLER] * 20})
    # The Blade's 3 later this turn: the +1 still holds, the 3 blocks were the first attack's.
    events = b.do({"type": "attack", "seat": 1, "card": "blade#1", "target": 0,
                   "component": "chassis", "faces": [3, 2, 4, 4, 4]})  # fmt: skip
    d: AttackDeclared = one(events, AttackDeclared)
    assert d.defence_modifier - int(d.to_hit["defense_modifier"]) == 1
    if b.state.prompts and b.state.prompts[0].kind == "reactive":
        events += b.do({"type": "decline_reactive", "seat": 0})
    assert one(events, DefenceRolled).final_damage == 2
    b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": 2, "drawn": [FILLER] * 2})
    _pass(b, 1)
    assert b.seat(0).wards == ()  # "until end of turn": the attacker's turn has ended


def _adaptive_armor() -> None:
    """ "Reactive: +1 Defense, move 1 hex.": one automatic block against the attack it
    answers (R-ADD-98), and a dodge of one hex once that attack has ended (R-ADD-107,
    R-ADD-172); a PIERCE face voids both."""
    card = built("equipment", "adaptive-armor")
    assert card.kind == "reactive"
    for faces, blocks, final, moved in (([4, 4], 1, 1, True), ([5, 4], 0, 2, False)):
        b = battle(card, first=1, version="2.1")
        b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
              "component": "chassis", "faces": [3, 2]})  # fmt: skip
        body = {"type": "play_reactive", "seat": 0, "card": "adaptive-armor#1", "faces": faces}
        err = b.refuse({**body, "path": [[0, 4], [0, 5]]})
        assert (err.code, err.rule) == ("path_too_long", "R-ADD-107")
        rolled: DefenceRolled = one(b.do({**body, "path": [[0, 4]]}), DefenceRolled)
        assert (rolled.blocks, rolled.final_damage) == (blocks, final)
        assert b.seat(0).at == Hex(0, 3)  # not before the attack ends
        events = b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": final,
                       "drawn": [FILLER] * final})  # fmt: skip
        if moved:
            dodge = one(events, CasketMoved)
            assert (dodge.seat, dodge.cost, dodge.by_card) == (0, 0, "adaptive-armor")
        assert b.seat(0).at == (Hex(0, 4) if moved else Hex(0, 3))


def _hunters_focus() -> None:
    """ "Your next attack this turn deals +2 damage to enemies that have Bleed counters on
    them. Amplifies Bleed builds.": the next attack spends it, with +2 only when its
    target bleeds as it is declared; unused, it lapses as the turn ends (R-ADD-173)."""
    card = built("elves", "hunters-focus")
    for bleed, damage in ((2, 5), (0, 3)):
        b = battle(card, hand=("blade",))
        if bleed:
            arrange(b, BleedApplied(1, bleed, bleed, "arranged"))
        play(b, "hunters-focus")
        assert len(b.seat(0).enhancements) == 1
        body = {"type": "attack", "seat": 0, "card": "blade#1", "target": 1,
                "component": "chassis", "faces": [1, 1]}  # fmt: skip
        assert hit(one(b.do(body), AttackDeclared)) == damage  # the Blade's 3, +2
        assert b.seat(0).enhancements == ()  # spent by that attack, bleeding target or not
    b = battle(card, hand=("blade",))
    play(b, "hunters-focus")
    _pass(b, 0)
    assert b.seat(0).enhancements == ()  # "this turn"


FORMS_SCENARIOS.update({
    ("dwarves", "runic-armor"): _runic_armor,
    ("equipment", "adaptive-armor"): _adaptive_armor,
    ("elves", "hunters-focus"): _hunters_focus,
})  # fmt: skip


def test_an_enhancement_against_bleeding_targets_needs_damage() -> None:
    with pytest.raises(InvalidInput) as err:
        effect_from_dict({"kind": "enhance_next_attack", "to_hit": -1, "vs_bleeding": True}, "e")
    assert (err.value.field, err.value.rule) == ("e.vs_bleeding", "R-ADD-173")
    with pytest.raises(InvalidInput) as err:
        effect_from_dict({"kind": "enhance_next_attack", "damage": 2, "vs_bleeding": 1}, "e")
    assert err.value.field == "e.vs_bleeding"


# --- R-ADD-174, R-ADD-175: Honor Duel, Coward's Mark ------------------------------------------


def _arena(
    hand: tuple[CardDef, ...],
    others: tuple[tuple[tuple[int, int], str], ...] = (),
    *,
    faction: str | None = None,
    version: str = "2.0",
) -> Battle:
    """Seat 0 ("pack", at [0, 3] facing N, of `faction`) holds `hand`; seat 1 ("prey", at
    [0, 2] facing S) the Maul and the Blade; `others` are seats 2.. (hex, side) facing S,
    each with the Maul. Seat 0 acts first, the others in seat order (initiative)."""
    unique = {c.id: c for c in hand}
    cards = [CARDS[FILLER], MAUL, CARDS["blade"], *(c.as_dict() for c in unique.values())]
    first = seat(0, at=(0, 3), facing=1, side="pack")
    if faction is not None:
        first["casket"] = {**first["casket"], "faction": faction}
    seats = [
        {**first, "deck": deck(**{c.id: 2 for c in unique.values()})},
        {**seat(1, at=(0, 2), facing=4, side="prey"), "deck": deck(**{"test-maul": 2, "blade": 1})},
        *({**seat(2 + i, at=at, facing=4, side=side), "deck": deck(**{"test-maul": 2})}
          for i, (at, side) in enumerate(others)),
    ]  # fmt: skip
    doc = {
        "name": "Duels", "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 6},
                                   "hexes": []},
        "rules": {"version": version, "options": {}}, "dice": {"mode": "table"},
        "policy": "prompt", "cards": cards, "seats": seats,
    }  # fmt: skip
    fill = [FILLER] * 6
    hands = [
        [*(c.id for c in hand), *fill[len(hand) :]],
        ["test-maul", "blade", *fill[:4]],
        *(["test-maul", *fill[:5]] for _ in others),
    ]
    b = start(doc, hands, initiative=(6, 5, *range(4, 4 - len(others), -1)))
    assert b.state.order[0] == 0
    return b


def _hits(b: Battle, seat_: int, weapon: str, target: int) -> int:
    body = {"type": "attack", "seat": seat_, "card": f"{weapon}#1", "target": target,
            "component": "chassis", "faces": [1, 1]}  # fmt: skip
    return hit(one(b.do(body), AttackDeclared))


def _refused_attack(b: Battle, seat_: int, weapon: str, target: int) -> tuple[str, str]:
    err = b.refuse({"type": "attack", "seat": seat_, "card": f"{weapon}#1", "target": target,
                    "component": "chassis", "faces": [1, 1]})  # fmt: skip
    return err.code, err.rule


def _challenge(b: Battle, answer: str) -> list[Event]:
    events = play(b, "honor-duel", target=1)
    assert [(p.seat, p.kind, p.rule) for p in b.state.prompts] == [(1, "duel", "R-ADD-174")]
    return events + b.do({"type": "choose", "seat": 1, "option": answer})


def _honor_duel() -> None:
    """ "Challenge 1 visible enemy to Honor Duel. For 1 round, only you and target enemy can
    attack each other (all other units are ignored). If you kill target, gain 3 Forge tokens
    and recover 3 cards. If target refuses duel, they gain "Coward's Mark" (all Crucible
    attacks against them deal +2 damage permanently this mission). Binding challenge."
    (R-ADD-174)"""
    card = built("crucible", "honor-duel")
    # Refused: Coward's Mark, +2 on the challenger's attacks, for the rest of the battle.
    b = _arena((card,))
    events = _challenge(b, "refuse")
    answered = one(events, DuelAnswered)
    assert (answered.seat, answered.challenger, answered.accepted) == (1, 0, False)
    assert (b.seat(1).cowards_mark, b.seat(1).coward_of, b.seat(0).duel_with) == (2, 0, None)
    # Accepted: the two attack only each other until seat 0's next turn starts.
    b = _arena((card,), (((3, 0), "pack"), ((-3, 3), "prey")))
    answered = one(_challenge(b, "accept"), DuelAnswered)
    assert answered.accepted and (b.seat(0).duel_with, b.seat(1).duel_with) == (1, 0)
    _pass(b, 0)
    assert b.state.active == 1
    assert _refused_attack(b, 1, "test-maul", 2) == ("in_duel", "R-ADD-174")
    _pass(b, 1)
    assert b.state.active == 2
    # seat 2 is seat 0's ally; seat 3, an enemy of seat 0, may not attack it either.
    _pass(b, 2)
    assert b.state.active == 3
    assert _refused_attack(b, 3, "test-maul", 0) == ("in_duel", "R-ADD-174")
    _pass(b, 3, faces=[6, 5, 4, 3])  # round 2: seat 0's turn ends the duel
    assert b.state.active == 0 and b.seat(0).duel_with is None and b.seat(1).duel_with is None


def test_a_duellist_attacks_only_its_enemy_and_a_kill_is_rewarded() -> None:
    """R-ADD-174: in the duel the challenger may not attack another enemy; killing the
    duelled casket gains 3 Forge tokens and recovers 3 cards."""
    finisher = built("equipment", "duelist-finisher")
    b = _arena((built("crucible", "honor-duel"), finisher), (((-1, 2), "prey"),), version="2.1")
    # The challenge accepted in an earlier turn, so that the finisher's 5 SP are there.
    arrange(b, DuelChallenged(0, 1, "honor-duel"), DuelAnswered(1, 0, True, 2))
    assert _refused_attack(b, 0, "duelist-finisher", 2) == ("in_duel", "R-ADD-174")
    # Seat 1 down to 1 HP (R-DMG-9); the finisher's hit defeats it.
    arrange(b, DamageTaken(1, (), b.seat(1).deck[:-1], 0, None))
    fillers = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:3]
    arrange(b, CardsDiscarded(0, fillers, (), "arranged", "R-ADD-62"))
    body = {"type": "attack", "seat": 0, "card": "duelist-finisher#1", "target": 1,
            "component": "chassis", "faces": [3, 2, *[4] * 11]}  # fmt: skip
    events = b.do(body)
    assert hit(one(events, AttackDeclared)) == 11  # 9, +2 in Honor Duel
    events = b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 11,
                   "drawn": [b.seat(1).deck[0].split("#")[0]], "faces": [4]})  # fmt: skip
    assert b.seat(1).defeated
    assert b.seat(0).tokens_of("forge") == 3
    recovered = one(events, CardsRecovered)
    assert recovered.seat == 0 and sorted(recovered.cards) == sorted(fillers)


def test_policy_auto_accepts_the_challenge() -> None:
    card = built("crucible", "honor-duel")
    b = _arena((card,))
    b.state = replace(b.state, policy="auto")
    events = play(b, "honor-duel", target=1)
    assert one(events, DuelAnswered).accepted and b.seat(0).duel_with == 1


def test_a_challenge_needs_a_visible_enemy_out_of_any_duel() -> None:
    card = built("crucible", "honor-duel")
    b = _arena((card, card), (((2, 1), "prey"),))
    _challenge(b, "accept")
    err = b.refuse({"type": "play_card", "seat": 0, "card": "honor-duel#2", "target": 2})
    assert (err.code, err.rule) == ("in_duel", "R-ADD-174")
    wrong = _arena((card,))
    play(wrong, "honor-duel", target=1)
    err = wrong.refuse({"type": "choose", "seat": 1, "option": "damage"})
    assert (err.code, err.rule) == ("wrong_option", "R-ADD-159")


def _cowards_brand() -> None:
    """ "Deal 3 damage. If target has "Coward's Mark" (from refusing Honor Duel), deal 6
    damage instead and they cannot use defense cards this turn. Punish dishonor.": with
    the Mark, 6, and the Mark's own +2 when the attacker is a Crucible casket; no reactive
    card against it or later this turn (R-ADD-174)."""
    card = built("crucible", "cowards-brand")
    plain = declared(battle(card, gap=6), card)
    assert (hit(plain), plain.reactive_allowed) == (3, True)
    for faction, damage in ((None, 6), ("crucible", 8)):
        b = _arena((card,), (((3, 0), "pack"),), faction=faction)
        arrange(b, DuelAnswered(1, 2, False, 2))  # seat 2 challenged, seat 1 refused
        d = one(b.do({"type": "attack", "seat": 0, "card": "cowards-brand#1", "target": 1,
                      "component": "chassis", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
        assert (hit(d), d.reactive_allowed) == (damage, False)
        assert b.seat(1).reactives_barred_by == 0
        _pass(b, 0)
        assert b.seat(1).reactives_barred_by is None  # "this turn"


def _duelist_finisher(section: str, base: int) -> Callable[[], None]:
    def scenario() -> None:
        """ "Deal 9 (7) damage. If in Honor Duel, deal 11 (9) damage instead. Spend all
        Forge tokens.": the duel is R-ADD-174's; every Forge token goes, none needed
        (R-ADD-175)."""
        card = built(section, "duelist-finisher")
        for duel, forge, damage in ((False, 0, base), (False, 3, base), (True, 2, base + 2)):
            b = battle(card)
            if forge:
                tokens(b, "forge", forge)
            if duel:
                arrange(b, DuelAnswered(1, 0, True, 2))
            events = attack(b, card)
            assert hit(one(events, AttackDeclared)) == damage
            assert b.seat(0).tokens_of("forge") == 0
            assert [e.amount for e in of_type(events, TokensChanged)] == ([-forge] if forge else [])

    return scenario


FORMS_SCENARIOS.update({
    ("crucible", "honor-duel"): _honor_duel,
    ("crucible", "cowards-brand"): _cowards_brand,
    ("equipment", "duelist-finisher"): _duelist_finisher("equipment", 9),
    (ITEMS, "duelist-finisher"): _duelist_finisher(ITEMS, 7),
})  # fmt: skip


# --- R-ADD-176: an attack rolled with Advantage ----------------------------------------------


def _righteous_wrath() -> None:
    """ "Deal 5 damage. Roll with Advantage (3d6, take 2 highest). If target has killed an
    ally this mission, deal 7 damage instead.": three attack dice, the two highest kept
    (R-ADD-176; a JAM is worth 0, R-HIT-4), and the kill condition of R-ADD-144."""
    card = built("church", "righteous-wrath")
    b = battle(card)
    events = attack(b, card, faces=[1, 6, 5, 4, 4, 4, 4, 4])
    d = one(events, AttackDeclared)
    assert (hit(d), d.to_hit["dice"]) == (5, {"count": 3, "keep": "highest"})
    rolled = one(events, AttackRolled)
    assert (rolled.faces, rolled.total, rolled.grade) == ((1, 6, 5), 6, "hit")  # 5 + 1 kept
    for victim, damage in (("near", 7), ("far", 5)):
        vengeance = _with_seats(card, [((0, 0), victim)])
        _killed_by(vengeance, 1, 2)
        assert hit(declared(vengeance, card, faces=[1, 1, 1])) == damage, victim


def test_advantage_is_one_more_pool_source_under_dice_pool_advantage() -> None:
    """R-ADD-176: with option dice_pool_advantage the card's advantage joins R-HIT-6's
    sources (cancelling a disadvantage); without it, the static target number stays and
    only the pool changes."""
    board = parse_board({"shape": {"kind": "hexagon", "radius": 8}})
    far = (Attacker(Hex(0, 0), 1), Target(Hex(0, -7), 4), Weapon(parse_range("8"), 4))
    pooled = parse_ruleset({"version": "2.0", "options": {"dice_pool_advantage": True}})
    plain = to_hit(board, *far, rules=pooled)
    card = to_hit(board, *far, rules=pooled, advantage=1)
    assert plain.dice.count == 3 and plain.dice.keep == "lowest"  # long range: disadvantage
    assert (card.dice.count, card.dice.keep) == (2, "all")  # cancelled
    assert [m.key for m in card.pool_sources][-1] == "card"
    static, without = to_hit(board, *far, advantage=1), to_hit(board, *far)
    assert static.target_number == without.target_number
    assert (static.dice.count, static.dice.keep) == (3, "highest")
    assert static.odds is not None and without.odds is not None
    assert static.odds.hit > without.odds.hit
    with pytest.raises(InvalidInput) as err:
        effect_from_dict({"kind": "advantage", "n": 0}, "e")
    assert (err.value.field, err.value.rule) == ("e.n", "R-HIT-6")


FORMS_SCENARIOS.update({
    ("church", "righteous-wrath"): _righteous_wrath,
})  # fmt: skip


# --- R-ADD-362: Metamorphic Adaptation's three forms ------------------------------------------


def _adapting(*, difficult: tuple[tuple[int, int], ...] = ()) -> Battle:
    """Seat 0 at [0, 3] facing N holds Metamorphic Adaptation and the test's Maul, with 2
    Metamorph tokens; seat 1 adjacent north holds the Maul; seat 0 acts first. `difficult`:
    hexes of rubble (2 SP a hex, R-MOV-1)."""
    card = built("emergent", "metamorphic-adaptation")
    hexes = [{"q": q, "r": r, "terrain": "rubble"} for q, r in difficult]
    doc = {
        "name": "Forms", "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 4},
                                   "hexes": hexes},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"},
        "policy": "prompt", "cards": [CARDS[FILLER], MAUL, card.as_dict()],
        "seats": [
            {**seat(0, at=(0, 3), facing=1), "deck": deck(**{card.id: 1, "test-maul": 2})},
            {**seat(1, at=(0, 2), facing=4), "deck": deck(**{"test-maul": 2})},
        ],
    }  # fmt: skip
    hands = [[card.id, "test-maul", *[FILLER] * 4], ["test-maul", *[FILLER] * 5]]
    b = start(doc, hands)
    tokens(b, "metamorph", 2)
    return b


def _adapted(form: str, **kw: Any) -> tuple[Battle, list[Event]]:
    """Seat 0 plays the card (2 Metamorph tokens, R-ADD-133) and chooses `form`."""
    b = _adapting(**kw)
    events = play(b, "metamorphic-adaptation")
    spent = one(events, TokensChanged)
    assert (spent.pool, spent.amount, b.seat(0).tokens_of("metamorph")) == ("metamorph", -2, 0)
    assert [(p.seat, p.kind, p.rule) for p in b.state.prompts] == [(0, "form", "R-ADD-362")]
    offered = [a.body for a in legal_actions(b.state)]
    assert offered == [{"type": "choose", "seat": 0, "option": f}
                       for f in ("assault", "tank", "scout")]  # fmt: skip
    chosen = b.do({"type": "choose", "seat": 0, "option": form})
    taken = one(chosen, FormTaken)
    assert (taken.form, taken.round, taken.source) == (form, 1, "metamorphic-adaptation")
    return b, chosen


def _maul_on_seat_0(b: Battle) -> int:
    """Seat 0 passes; seat 1's Melee 2 attack on it is declared: the blocks cards give
    (R-DMG-3), beyond those of the side it comes from."""
    _pass(b, 0)
    body = {"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
            "component": "chassis", "faces": [1, 1]}  # fmt: skip
    d: AttackDeclared = one(b.do(body), AttackDeclared)
    return d.defence_modifier - int(d.to_hit["defense_modifier"])


def _metamorphic_adaptation() -> None:
    """ "Transform into one of three forms until end of round. Choose: [1] Assault Form (+2
    damage to all attacks, -1 Defense), [2] Tank Form (+3 Defense, -1 movement), [3] Scout
    Form (+2 movement, ignore terrain). Transformations are cumulative if you have multiple
    Metamorph tokens.": cost 2 Metamorph tokens (R-ADD-133), the form chosen by prompt and
    held to the round's end (R-ADD-170), each form's bonuses lasting as long (R-ADD-362)."""
    poor = _adapting()
    arrange(poor, TokensChanged(0, "metamorph", -1, 1, "arranged"))
    err = poor.refuse({"type": "play_card", "seat": 0, "card": "metamorphic-adaptation#1"})
    assert (err.code, err.rule) == ("not_enough_tokens", "R-ADD-133")
    wrong = _adapting()
    play(wrong, "metamorphic-adaptation")
    with pytest.raises(InvalidInput) as bad:
        wrong.do({"type": "choose", "seat": 0, "option": "mantis"})
    assert bad.value.field == "option"
    err = wrong.refuse({"type": "choose", "seat": 0, "option": "pick"})
    assert (err.code, err.rule) == ("wrong_option", "R-ADD-362")
    # Assault Form: +2 on every attack of the round, one automatic block fewer.
    b, _ = _adapted("assault")
    assert b.seat(0).form == "assault"
    body = {"type": "attack", "seat": 0, "card": "test-maul#1", "target": 1,
            "component": "chassis", "faces": [1, 1]}  # fmt: skip
    assert hit(one(b.do(body), AttackDeclared)) == 4  # the Maul's 2, +2
    plain = _maul_on_seat_0(_adapting())
    assert (_maul_on_seat_0(b), plain) == (-1, 0)
    # Tank Form: three more blocks; each hex moved costs 1 SP more.
    b, _ = _adapted("tank")
    moved = one(b.do({"type": "move", "seat": 0, "path": [[1, 2]]}), CasketMoved)
    assert moved.cost == 2
    assert _maul_on_seat_0(b) == 3
    # Scout Form: a move of up to 2 hexes at no SP, and terrain costs ignored.
    b, chosen = _adapted("scout", difficult=((1, 2), (1, 1), (0, 1)))
    assert b.seat(0).free_move == 2 and one(chosen, WardRaised).ignore_terrain
    free = one(b.do({"type": "move", "seat": 0, "path": [[1, 2], [1, 1]], "free": True}),
               CasketMoved)  # fmt: skip
    assert free.cost == 0
    moved = one(b.do({"type": "move", "seat": 0, "path": [[0, 1]]}), CasketMoved)
    assert moved.cost == 1  # 2 SP without the form (R-MOV-1)
    plain_move = _adapting(difficult=((-1, 3),))
    assert one(plain_move.do({"type": "move", "seat": 0, "path": [[-1, 3]]}), CasketMoved).cost == 2
    # The round ends: form and bonuses lapse (R-TRN-2).
    b, _ = _adapted("tank")
    _pass(b, 0)
    events = _pass(b, 1, faces=[6, 1])
    assert of_type(events, RoundEnded) and b.state.active == 0
    assert b.seat(0).wards == () and b.seat(0).ward_move_cost == 0


def _bio_reactive_armor(section: str) -> Callable[[], None]:
    def scenario() -> None:
        """ "Play when attacked in melee. Deal 1 damage to attacker. If in Metamorph form,
        deal 3 damage instead.": only against a Melee attack (R-ADD-58); the form read as
        the card is played (R-ADD-170, R-ADD-59), its 2 more counter-damage raised then
        (`CounterRaised`, R-ADD-362); a form of the attacker's does not count."""
        _counter("bio-reactive-armor", 0, lambda b: None, section, damage=1)
        card = built(section, "bio-reactive-armor")
        for whose, damage in ((0, 3), (1, 1)):
            b = battle(card, first=1)
            _form(b, "tank", seat_=whose)
            b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
                  "component": "chassis", "faces": [3, 2]})  # fmt: skip
            played = b.do({"type": "play_reactive", "seat": 0,
                           "card": "bio-reactive-armor#1", "faces": [4, 4]})  # fmt: skip
            assert [e.amount for e in of_type(played, CounterRaised)] == [2] * (whose == 0)
            events = b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": 2,
                           "drawn": [FILLER] * 2})  # fmt: skip
            counters = [p for p in of_type(events, PromptOpened) if p.seat == 1]
            assert (counters[0].kind, counters[0].amount) == ("take_damage", damage), whose

    return scenario


def _bio_spike_volley(section: str, base: int, each: int) -> Callable[[], None]:
    def scenario() -> None:
        """ "Deal 4 (6) damage at range 3. If in Metamorph form, can target 2 different
        enemies for 3 (5) damage each instead.": in the form (R-ADD-170, read as the card
        is played) the command may name a second enemy in `also` (R-ADD-80); then both
        attacks deal 3 (5), the first's printed damage replaced (R-ADD-363); one enemy
        named, the one attack deals 4 (6); out of the form no second enemy is taken."""
        card = built(section, "bio-spike-volley")
        assert card.range is not None and card.range.high == 3
        b = field(card, area_line(3)[:2])
        assert area_attacks(strike(b, card, 1, hits(base))) == [(1, base)]
        body = {"type": "attack", "seat": 0, "card": "bio-spike-volley#1", "target": 1,
                "also": [2]}  # fmt: skip
        refused = field(card, area_line(3)[:2]).refuse(body)
        assert (refused.code, refused.rule) == ("unused_argument", "R-ADD-80")
        alone = field(card, area_line(3)[:2])
        _form(alone, "scout")
        assert area_attacks(strike(alone, card, 1, hits(base))) == [(1, base)]
        split = field(card, area_line(3)[:2])
        _form(split, "tank")
        events = strike(split, card, 1, hits(each, each), also=[2])
        assert area_attacks(events) == [(1, each), (2, each)]
        played_once(split, events, card)
        twice = field(card, area_line(3)[:2])
        _form(twice, "assault")
        refused = twice.refuse({**body, "also": [1]})
        assert (refused.code, refused.rule) == ("same_target_again", "R-ADD-80")

    return scenario


FORMS_SCENARIOS.update({
    ("emergent", "metamorphic-adaptation"): _metamorphic_adaptation,
    ("equipment", "bio-spike-volley"): _bio_spike_volley("equipment", 6, 5),
    (ITEMS, "bio-spike-volley"): _bio_spike_volley(ITEMS, 4, 3),
    ("equipment", "bio-reactive-armor"): _bio_reactive_armor("equipment"),
    (ITEMS, "bio-reactive-armor"): _bio_reactive_armor(ITEMS),
})  # fmt: skip


# Last, so that every scenario above is in the dict when it is parametrized.
@pytest.mark.parametrize("key", sorted(FORMS_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_forms_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, FORMS_SCENARIOS[key])
