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
    # issue 17, triggers
    "ThornsRaised": (
        {"seat": 0, "damage": 1, "melee_only": True, "until": "next_turn", "source": "emberguard"},
        "Penitent Scout: each melee attacker takes 1 damage after the attack until its next "
        "turn (emberguard, R-ADD-130)",
    ),
    "LastingBonusGained": (
        {"seat": 0, "damage": 1, "total": 2, "source": "righteous-fury"},
        "Penitent Scout deals +1 damage with every attack for the rest of the battle, +2 in "
        "all (righteous-fury, R-ADD-131)",
    ),
    "SpBoosted": (
        {"seat": 0, "amount": 5, "maximum": False, "source": "flagellants-zeal"},
        "Penitent Scout gains 5 SP this turn (flagellants-zeal, R-ADD-135)",
    ),
    "DamageReduced": (
        {"seat": 1, "amount": 1, "source": "dwarven-bulwark"},
        "Bastion Heavy takes 1 damage less (dwarven-bulwark, R-ADD-136)",
    ),
    "TurnBuffGained": (
        {"seat": 0, "damage": 2, "to_hit": -1, "ignore_defence": 1, "source": "blood-offering"},
        "Penitent Scout's next attack this turn: +2 damage, −1 on the target number, ignores 1 "
        "Defense (blood-offering, R-ADD-139)",
    ),
    "ComponentDamagePrevented": (
        {"seat": 1, "component": "legs", "amount": 1, "source": "ironborn-resilience#1"},
        "Bastion Heavy ignores 1 Component Damage to its legs (ironborn-resilience#1, R-ADD-136)",
    ),
    "CounterRaised": (
        {"seat": 0, "amount": 2, "source": "void-reflection"},
        "Penitent Scout's counter-damage rises by 2 (void-reflection, R-ADD-130)",
    ),
    "SelfDamageDue": (
        {"seat": 0, "amount": 2, "source": "paradox-blade"},
        "Penitent Scout will take 2 damage once this attack has ended (paradox-blade, R-ADD-130)",
    ),
    "BonusHeld": (
        {"seat": 0, "source": "ancestral-wrath#1"},
        "Penitent Scout holds its next-attack bonus from ancestral-wrath#1 until an attack "
        "(R-ADD-139)",
    ),
    "EffectRolled": (
        {"seat": 0, "faces": [5], "total": 3, "source": "breathe-the-core"},
        "Penitent Scout rolls for breathe-the-core: [5] = 3 (R-ADD-67)",
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
