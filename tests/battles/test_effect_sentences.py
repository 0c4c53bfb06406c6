"""Issue 17's events on the replay and play pages: each one reads as a sentence citing
its ruling, and a card shuffled back into a deck does not reveal the deck's order to the
players while the battle runs (R-ADD-28, R-ADD-62)."""

from __future__ import annotations

from typing import Any

import pytest

from battles.engine.battle import public_payload
from battles.replay import Names, describe, plain

NAMES = Names({0: "Penitent Scout", 1: "Bastion Heavy"}, {0: "Ophelia", 1: "Bram"}, {})
PAYLOADS: dict[str, tuple[dict[str, Any], str]] = {
    "TokensChanged": (
        {"seat": 0, "pool": "soul_shard", "amount": -3, "total": 1, "source": "salvage-protocol"},
        "Penitent Scout spends 3 soul shard token(s), now 1 (salvage-protocol, R-ADD-61)",
    ),
    "TaintChanged": (
        {"seat": 1, "amount": 2, "taint": 2, "source": "taint-bolt"},
        "Bastion Heavy gains 2 Taint, now 2 (taint-bolt, R-ADD-66)",
    ),
    "DefenceRaised": (
        {"seat": 0, "amount": 2, "source": "shield-mastery"},
        "Penitent Scout gains +2 Defense until its next turn (shield-mastery, R-ADD-64)",
    ),
    "MoveGranted": (
        {"seat": 0, "hexes": 2, "source": "hit-and-run"},
        "Penitent Scout may move up to 2 hex(es) at no SP this turn (hit-and-run, R-ADD-69)",
    ),
    "SpPenaltyImposed": (
        {"seat": 1, "amount": 2, "source": "executive-order"},
        "Bastion Heavy will have 2 SP less next turn (executive-order, R-ADD-65)",
    ),
    "SeedsPlanted": (
        {"at": [0, -1], "amount": 2, "total": 3, "source": "thorn-blade-slash"},
        "2 Thornvine seed(s) planted in 0,-1, 3 there (thorn-blade-slash, R-ADD-66)",
    ),
    "SeedsDetonated": (
        {"hexes": [[0, -1, 3], [1, 1, 1]], "source": "natures-wrath"},
        "4 Thornvine seed(s) in 2 hex(es) detonate (natures-wrath, R-ADD-66)",
    ),
    "EffectRolled": (
        {"seat": 0, "faces": [5], "total": 3, "source": "breathe-the-core"},
        "Penitent Scout rolls for breathe-the-core: [5] = 3 (R-ADD-67)",
    ),
    # issue 17, misc
    "UntargetableGained": (
        {"seat": 0, "against": "all", "until_attack": True, "source": "shimmer-veil"},
        "Penitent Scout cannot be targeted by attacks until its next turn or until it attacks "
        "(shimmer-veil, R-ADD-155)",
    ),
    "HandRevealed": (
        {
            "seat": 0,
            "target": 1,
            "cards": [None, None],
            "source": "tactical-scanner-enemy-analysis",
        },
        "Penitent Scout looks at Bastion Heavy's hand: 2 hidden cards "
        "(tactical-scanner-enemy-analysis, R-ADD-156)",
    ),
    "TargetBonusGained": (
        {"seat": 0, "target": 1, "damage": 2, "source": "tactical-scanner-enemy-analysis"},
        "Penitent Scout's next attack on Bastion Heavy gets +2 damage "
        "(tactical-scanner-enemy-analysis, R-ADD-156)",
    ),
    "CardsLookedAt": (
        {"seat": 0, "cards": [None, None, None], "source": "ancient-compass-true-path"},
        "Penitent Scout looks at the top of their deck: 3 hidden cards "
        "(ancient-compass-true-path, R-ADD-157)",
    ),
    "DeckArranged": (
        {"seat": 0, "order": [None, None, None]},
        "Penitent Scout puts them back, top first: 3 hidden cards (R-ADD-157)",
    ),
    "WreckScavenged": (
        {"seat": 0, "wreck": 1, "source": "scavenge-wreckage"},
        "Penitent Scout scavenges the wreck of Bastion Heavy, removed from play "
        "(scavenge-wreckage, R-ADD-158)",
    ),
    "UltimatumAnswered": (
        {"seat": 1, "option": "skip_turn"},
        "Bastion Heavy chooses to skip their next turn (R-ADD-159)",
    ),
    "HitDamageBargained": (
        {"seat": 1, "damage": 2, "source": "fae-bargain"},
        "Bastion Heavy gives up cards to make the hit 2 damage (fae-bargain, R-ADD-159)",
    ),
    "HitBargainedAway": (
        {"seat": 1, "source": "bargain-siphon"},
        "Bastion Heavy pays the price: the attack misses (bargain-siphon, R-ADD-159)",
    ),
    "TurnSkipped": ({"seat": 1}, "Bastion Heavy skips this turn (R-ADD-159)"),
    "UntargetableEnded": (
        {"seat": 0, "source": "gun"},
        "Penitent Scout attacks and can be targeted again (gun, R-ADD-155)",
    ),
}


@pytest.mark.parametrize("type_", sorted(PAYLOADS))
def test_each_new_event_reads_as_a_sentence_citing_its_ruling(type_: str) -> None:
    payload, sentence = PAYLOADS[type_]
    assert plain(describe(type_, payload, NAMES)) == sentence


def test_cards_shuffled_back_in_show_the_cards_but_not_the_new_deck_order() -> None:
    payload = {"seat": 0, "cards": ["chaff#1"], "order": ["a#1", "chaff#1"], "known": True,
               "reason": "Absolution"}  # fmt: skip
    seen = public_payload("CardsShuffledIn", payload, {0}, full=False)
    assert seen["order"] is None and seen["cards"] == ["chaff#1"]
    assert public_payload("CardsShuffledIn", payload, {0}, full=True)["order"] == payload["order"]
    words = plain(describe("CardsShuffledIn", seen, NAMES))
    assert words.startswith("Penitent Scout shuffles") and "R-ADD-62" in words


def test_a_spend_and_a_granted_move_are_told_apart_on_the_play_panel() -> None:
    """Two legal bodies of one card, with and without its spend, read differently."""
    from battles.engine.battle.decide import create
    from battles.engine.battle.evolve import replay
    from battles.engine.demo import demo_setup
    from battles.play_panel import label

    s = replay(create("b", demo_setup(seed=1)))
    names = Names.of(s)
    card = next(iter(s.cards))
    body = {"type": "play_card", "seat": 0, "card": f"{card}#1"}
    assert label({**body, "spend": True}, s, names) != label(body, s, names)
    assert "R-ADD-61" in label({**body, "spend": True}, s, names)
    move = {"type": "move", "seat": 0, "path": [[0, 1]]}
    assert "R-ADD-69" in label({**move, "free": True}, s, names)
    assert "R-ADD-69" not in label(move, s, names)
