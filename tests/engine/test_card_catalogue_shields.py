"""Scenarios for the catalogue entries of issue-28's second round read by R-ADD-430 to
R-ADD-439 (shields, teleport strikes, self-inflicted prices), played through decide/evolve
with the helpers of test_card_catalogue.py. Each scenario quotes the text it checks;
`test_every_automated_entry_has_a_scenario_below` counts them with the others.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battles.engine.battle.events import (
    AttackCovered,
    CardsDiscarded,
    CardsRecovered,
    DamageTaken,
    DefenceRolled,
    ReactivePlayed,
)

from .battle_builder import FILLER, of_type, one
from .test_card_catalogue import arrange, battle, built, play, run_scenario
from .test_card_catalogue_allies import _covering, _field, _hit_seat_2, built_reactive
from .test_card_catalogue_gambits import blade_hit

EQUIPMENT = "equipment"
ITEMS = "equipment_items"
SHIELDS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _bulwark() -> None:
    """ "Reactive: -2 damage to you and ally." (range "Self+Ally"): on an adjacent ally's
    attack, through R-ADD-122's window, the ally keeps its damage less 2 and the player
    takes none; on the player's own attack, its own reactive card, 2 less; an ally 2 hexes
    away is not reached (R-ADD-430)."""
    card = built_reactive(EQUIPMENT, "bulwark")
    instance = "bulwark#1"
    b = _covering(card, 1)
    damage = _hit_seat_2(b, "blade")
    assert damage >= 3
    prompt = b.state.prompts[0]
    assert (prompt.seat, prompt.kind, prompt.rule) == (0, "reactive", "R-ADD-122")
    own = len(b.seat(0).hand) + len(b.seat(0).deck)
    events = b.do({"type": "play_reactive", "seat": 0, "card": instance, "faces": [4] * damage})
    assert one(events, AttackCovered) == AttackCovered(0, 2, instance, 2, True)
    assert one(events, DefenceRolled).seat == 2  # every die BLOOD: no block
    prompt = b.state.prompts[0]
    assert (prompt.seat, prompt.kind, prompt.amount, prompt.component) == (
        2,
        "take_damage",
        damage - 2,
        "chassis",
    )
    b.do({"type": "take_damage", "seat": 2, "hand": [], "deck": damage - 2,
          "drawn": [FILLER] * (damage - 2)})  # fmt: skip
    assert b.state.attack is None and instance in b.seat(0).discard
    assert len(b.seat(0).hand) + len(b.seat(0).deck) == own - 1  # the card only
    assert len(b.seat(2).deck) == 24 - (damage - 2)
    # Two hexes away: not reached, seat 2 takes all of it.
    far = _covering(card, 2)
    assert _hit_seat_2(far, "blade", (3, 2, *[4] * damage)) == damage
    assert not of_type(far.events, AttackCovered)
    assert [(p.seat, p.kind, p.amount) for p in far.state.prompts] == [(2, "take_damage", damage)]
    # Attacked itself: its own reactive card, 2 less.
    me = _field(card, first=1)
    me.do({"type": "attack", "seat": 1, "card": "blade#1", "target": 0,
           "component": "chassis", "faces": [3, 2]})  # fmt: skip
    assert [(p.seat, p.kind, p.rule) for p in me.state.prompts] == [(0, "reactive", "R-REA-1")]
    hit = me.state.attack
    assert hit is not None
    events = me.do(
        {"type": "play_reactive", "seat": 0, "card": instance, "faces": [4] * hit.damage}
    )
    assert one(events, ReactivePlayed).reduction == 2
    assert [(p.seat, p.kind, p.amount) for p in me.state.prompts] == [
        (0, "take_damage", hit.damage - 2)
    ]


SHIELDS_SCENARIOS[(EQUIPMENT, "bulwark")] = _bulwark


PACT = "blood-vial-cache-blood-pact"


def _blood_pact() -> None:
    """ "Take 2 damage, recover 6 cards from discard pile, gain +2 damage until end of turn.
    Remove this card from game after use.": the 2 damage first, split as the command names
    it (`discard`: the hand cards, the rest from the deck), then the 6 newest cards of the
    discard pile back to the hand (under 2.0 the 2 lost ones among them), +2 damage to every
    attack this turn, and the card removed from the game (R-ADD-431, R-ADD-62, R-ADD-96,
    R-ADD-70)."""
    card = built(ITEMS, PACT)
    for version in ("2.0", "2.1"):
        b = battle(card, hand=("blade",), version=version)
        older = b.seat(0).deck[:5]
        arrange(b, CardsDiscarded(0, (), older, "arranged", "R-ADD-14"))
        spare = next(x for x in b.seat(0).hand if x.startswith(FILLER))
        events = play(b, card.id, discard=[spare], drawn=[FILLER])
        lost = [(d.from_hand, d.from_deck) for d in of_type(events, DamageTaken)]
        top = lost[-1][1][0]
        assert lost == [((spare,), ()), ((), (top,))] and top.startswith(FILLER), lost
        recovered = one(events, CardsRecovered).cards
        assert events.index(one(events, CardsRecovered)) > events.index(
            of_type(events, DamageTaken)[-1]
        )
        if version == "2.0":  # R-DMG-6: the lost cards go to the discard pile, the newest
            assert set(recovered) == {spare, top, *older[1:]}
            assert b.seat(0).discard == (older[0],)
        else:  # R-DMG-8: to the damage pile; the pile holds 5
            assert set(recovered) == set(older) and not b.seat(0).discard
            assert set(b.seat(0).damage_pile) == {spare, top}
        assert f"{PACT}#1" in b.seat(0).removed and f"{PACT}#1" not in b.seat(0).discard
        assert len(b.seat(0).hand) == 6 - 2 + len(recovered)
        assert b.seat(0).sp_spent == 2
        assert blade_hit(b) == 3 + 2  # the Blade, Melee 3, +2 this turn
    # No hand card named: both from the deck; more than 2 named: refused.
    b = battle(card)
    (taken,) = of_type(play(b, card.id, drawn=[FILLER] * 2), DamageTaken)
    assert not taken.from_hand and len(taken.from_deck) == 2
    b = battle(card)
    fillers = [x for x in b.seat(0).hand if x.startswith(FILLER)][:3]
    err = b.refuse({"type": "play_card", "seat": 0, "card": f"{PACT}#1", "discard": fillers})
    assert (err.code, err.rule) == ("wrong_discard_count", "R-ADD-431")


SHIELDS_SCENARIOS[(ITEMS, PACT)] = _blood_pact


@pytest.mark.parametrize("key", sorted(SHIELDS_SCENARIOS), ids="/".join)
def test_shields_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, SHIELDS_SCENARIOS[key])
