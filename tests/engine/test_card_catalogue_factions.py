"""Scenarios for the faction sections' catalogue entries automated by issue 17's second
pass (R-ADD-73 and after), played through decide/evolve like those of
test_card_catalogue.py, whose helpers they use. Kept in their own file so that engineers
adding entries to other sections do not edit the same lines;
`test_every_automated_entry_has_a_scenario_below` (in test_card_catalogue.py) counts
the scenarios of both files.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battles.engine.battle.events import BuffGained, DamageScheduled, DamageTaken, PromptOpened
from battles.engine.cards import CardDef, card_from_dict

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, start
from .test_card_catalogue import (
    AUTOMATED,
    Attack,
    arrange,
    battle,
    built,
    check_attack,
    declared,
    hit,
    play,
    resolve_hit,
    run_scenario,
)

FACTION_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _venomous_spit() -> None:
    """ "Deal 2 damage. Target takes 2 additional damage at start of their next turn
    (poison).": scheduled by a hit only, taken once when the target's turn starts, without
    an attack, together with any strain damage (R-ADD-73)."""
    card = built("vestige-bloodlines", "venomous-spit")
    missed = check_attack("vestige-bloodlines", "venomous-spit", Attack(4, 2))
    assert missed.seat(1).damage_next_turn == 0  # the missing roll schedules nothing
    b = battle(card, version="2.1")
    events = resolve_hit(b, card, 2, kill=False)
    assert one(events, DamageScheduled) == DamageScheduled(1, 2, "venomous-spit")
    assert b.seat(1).damage_next_turn == 2
    hp = b.seat(1).hp
    events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})  # seat 1's turn starts
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount, prompt.rule) == (
        1,
        "take_damage",
        2,
        "R-DMG-6",
    )
    assert "R-ADD-73" in prompt.reason and not of_type(events, DamageTaken)
    assert b.seat(1).damage_next_turn == 0  # taken once: the next turn starts clean
    b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 2, "drawn": [FILLER] * 2})
    assert b.seat(1).hp == hp - 2
    # With the strain roll's System Damage (6 Heat + 3: 2 damage, R-TRN-4): one discard of 4.
    b = battle(card, version="2.1")
    resolve_hit(b, card, 2, kill=False)
    b.do({"type": "adjust_heat", "seat": 1, "heat": 6, "reason": "arranged"})
    events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER], "faces": [3]})
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", 4)
    assert "R-TRN-4" in prompt.reason and "R-ADD-73" in prompt.reason


FACTION_SCENARIOS.update({
    ("vestige-bloodlines", "venomous-spit"): _venomous_spit,
})  # fmt: skip


# --- R-ADD-74: passives that add to each of the owner's attacks -------------------------------


def _attack_with_gun(b: Battle) -> int:
    """Seat 0 attacks seat 1 with the test's Gun (2 damage): the declared hit damage."""
    return hit(declared(b, card_from_dict(CARDS["gun"])))


def _scent_of_blood() -> None:
    """ "Passive: You deal +2 damage to enemies with 15 or fewer cards remaining in their
    deck.": the deck only (R-ADD-74); under 2.0 damage moves deck cards to the discard
    pile, so the target's HP stays the same while its deck shrinks."""
    card = built("vestige-bloodlines", "scent-of-blood")
    for left, played, damage in ((16, True, 2), (15, True, 4), (15, False, 2)):
        b = battle(card, hand=("gun",))
        if played:
            play(b, "scent-of-blood")
            assert "scent-of-blood#1" in b.seat(0).in_play
        hp = b.seat(1).hp
        arrange(b, DamageTaken(1, (), b.seat(1).deck[:-left], 0, None))
        assert (len(b.seat(1).deck), b.seat(1).hp) == (left, hp)
        assert _attack_with_gun(b) == damage, (left, played)
        sources = [e.source for e in of_type(b.events, BuffGained)]
        assert sources == (["scent-of-blood"] if damage == 4 else [])


def _yard(card: CardDef, others: list[tuple[tuple[int, int], str]], *hand: str) -> Battle:
    """Seat 0 ("pack", at [0, 3] facing N) holds `card` and `hand` and acts first; seat 1
    ("prey") stands adjacent, north, facing S; `others` are further seats (hex, side)."""
    cards = [CARDS[FILLER], card.as_dict(), *(CARDS[h] for h in hand)]
    seats = [
        {
            **seat(0, at=(0, 3), facing=1, side="pack"),
            "deck": deck(**{card.id: 1, **{h: 1 for h in hand}}),
        },
        {**seat(1, at=(0, 2), facing=4, side="prey"), "deck": deck()},
        *(
            {**seat(2 + i, at=at, facing=1, side=side), "deck": deck()}
            for i, (at, side) in enumerate(others)
        ),
    ]
    doc = {
        "name": "Yard", "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"}, "policy": "prompt",
        "cards": cards, "seats": seats,
    }  # fmt: skip
    hands = [[card.id, *hand, *[FILLER] * (5 - len(hand))], *[[FILLER] * 6] * (len(seats) - 1)]
    b = start(doc, hands, initiative=(6, *range(1, len(seats))))
    assert b.state.active == 0
    return b


def _wolves_pact() -> None:
    """ "Passive: When adjacent to 2+ allies, gain +1 damage to all attacks.": allies on
    the own side, in the battle (R-ADD-74); the adjacent enemy is no ally."""
    card = built("nomads", "wolves-pact")
    near = [((1, 3), "pack"), ((-1, 3), "pack")]
    far = [((1, 3), "pack"), ((-2, 3), "pack")]
    for allies, damage in ((near, 3), (far, 2)):
        b = _yard(card, allies, "gun")
        play(b, "wolves-pact")
        assert _attack_with_gun(b) == damage, allies


def _ashen_kings_wrath() -> None:
    """ "Deal 6 damage. If outnumbered (2+ enemies within 6 hexes), deal 8 damage instead.":
    enemy caskets in the battle within 6 hexes of the attacker, the target included
    (R-ADD-75)."""
    card = built("crucible", "ashen-kings-wrath")
    check_attack("crucible", "ashen-kings-wrath", Attack(1, 6))  # one enemy: 6
    for other, damage in (
        (((0, -3), "prey"), 8),  # a second enemy 6 hexes away
        (((0, -4), "prey"), 6),  # 7 hexes away
        (((1, 3), "pack"), 6),  # an ally does not outnumber
    ):
        b = _yard(card, [other])
        assert hit(declared(b, card)) == damage, other


FACTION_SCENARIOS.update({
    ("vestige-bloodlines", "scent-of-blood"): _scent_of_blood,
    ("nomads", "wolves-pact"): _wolves_pact,
    ("crucible", "ashen-kings-wrath"): _ashen_kings_wrath,
})  # fmt: skip


@pytest.mark.parametrize("key", sorted(FACTION_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_faction_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, FACTION_SCENARIOS[key])
