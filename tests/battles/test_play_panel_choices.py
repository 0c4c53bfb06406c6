"""The play panel's card choices for prompts (issue 13), straight from engine states: no
database. A card's "discard N of your choice" (R-ADD-62) is offered like a discard down."""

from __future__ import annotations

import json

from battles.play_panel import panel
from tests.engine.test_card_catalogue import FILLER, battle, built, play


def test_a_cards_discard_of_your_choice_is_offered_as_ticks_and_the_body_they_make_is_legal() -> (
    None
):
    b = battle(built("equipment", "scavenge"))  # "Draw 2 cards, then discard 1 card."
    play(b, "scavenge", drawn=[FILLER] * 2)
    (prompt,) = b.state.prompts
    assert prompt.kind == "discard"
    (choice,) = panel(b.state, frozenset({0}), gm=False, latest_command=None)["prompt_choices"]
    assert json.loads(choice["command"]) == {"type": "discard_down", "seat": 0}
    assert (choice["field"], choice["amount"], choice["rule"]) == ("cards", 1, "R-ADD-62")
    assert [c["instance"] for c in choice["cards"]] == list(b.seat(0).hand)
    # Nobody else is offered the choice: the other seat's player sees none, the GM does.
    assert panel(b.state, frozenset({1}), gm=False, latest_command=None)["prompt_choices"] == []
    assert panel(b.state, frozenset(), gm=True, latest_command=None)["prompt_choices"]
    # What the page sends with the last card ticked is accepted, and closes the prompt.
    last = choice["cards"][-1]["instance"]
    b.do({**json.loads(choice["command"]), "cards": [last]})
    assert b.state.prompts == () and last in b.seat(0).discard


def test_a_pick_from_an_enemys_hand_ticks_that_hand_and_the_body_it_makes_is_legal() -> None:
    """R-ADD-385: Weak Point Scan's player ticks the card of the hand it looked at; only
    that player (and the GM) is offered the choice."""
    b = battle(built("equipment_items", "targeting-sigil-weak-point-scan"), opponent=("gun",))
    play(b, "targeting-sigil-weak-point-scan", target=1)
    (prompt,) = b.state.prompts
    assert (prompt.seat, prompt.kind) == (0, "hand_pick")
    (choice,) = panel(b.state, frozenset({0}), gm=False, latest_command=None)["prompt_choices"]
    assert json.loads(choice["command"]) == {"type": "choose", "seat": 0, "option": "pick"}
    assert (choice["field"], choice["amount"], choice["rule"]) == ("cards", 1, "R-ADD-385")
    assert [c["instance"] for c in choice["cards"]] == list(b.seat(1).hand)
    assert not choice["steal"]
    assert panel(b.state, frozenset({1}), gm=False, latest_command=None)["prompt_choices"] == []
    b.do({**json.loads(choice["command"]), "cards": ["gun#1"]})
    assert b.state.prompts == () and "gun#1" in b.seat(1).discard


def test_blood_pacts_legal_bodies_name_the_hand_cards_its_damage_takes() -> None:
    """R-ADD-431: Blood Pact's own 2 damage, split as its command names it: the panel offers
    it from the deck alone and with hand cards, each labelled, and each body is accepted."""
    from battles.engine.battle import legal_actions
    from battles.play_panel import label
    from battles.replay import Names

    pact = "blood-vial-cache-blood-pact"
    b = battle(built("equipment_items", pact))
    bodies = [a.body for a in legal_actions(b.state, {0}) if a.body.get("card") == f"{pact}#1"]
    assert {len(x.get("discard", ())) for x in bodies} == {0, 2}, bodies
    names = Names({0: "Oak", 1: "Elm"}, {}, {})
    words = [label(x, b.state, names) for x in bodies if x.get("discard")]
    assert words and all("to its damage (R-ADD-431)" in w for w in words), words
    for body in bodies:
        taken = 2 - len(body.get("discard", ()))
        battle(built("equipment_items", pact)).do({**body, "drawn": [FILLER] * taken})
