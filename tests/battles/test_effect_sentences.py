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
        "Penitent Scout spends 3 soul shard tokens, now 1 (salvage-protocol, R-ADD-61)",
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
        "Penitent Scout may move up to 2 hexes at no SP this turn (hit-and-run, R-ADD-69)",
    ),
    "RotationGranted": (
        {"seat": 0, "source": "nomads-whirlwind-slash"},
        "Penitent Scout may rotate 60° once more at no SP this turn (nomads-whirlwind-slash, "
        "R-ADD-189)",
    ),
    "RerollOffered": (
        {
            "seat": 0,
            "faces": [1, 1],
            "keep": "all",
            "target_number": 5,
            "left": 1,
            "source": "zealots-focus",
        },
        "Penitent Scout may roll one attack die again or keep the roll, by zealots-focus "
        "(R-ADD-282)",
    ),
    "AttackRerolled": (
        {"seat": 0, "die": 2, "face": 4, "faces": [1, 4], "total": 5, "grade": "hit", "damage": 3},
        "Penitent Scout rolls die 2 again: [4]; now [1][4] = 5: hit, 3 damage (R-ADD-282)",
    ),
    "SpPenaltyImposed": (
        {"seat": 1, "amount": 2, "source": "executive-order"},
        "Bastion Heavy will have 2 SP less next turn (executive-order, R-ADD-65)",
    ),
    "SeedsPlanted": (
        {"at": [0, -1], "amount": 2, "total": 3, "source": "thorn-blade-slash"},
        "2 Thornvine seeds planted in 0,-1, 3 there (thorn-blade-slash, R-ADD-66)",
    ),
    "SeedsDetonated": (
        {"hexes": [[0, -1, 3], [1, 1, 1]], "source": "natures-wrath"},
        "4 Thornvine seeds in 2 hexes detonate (natures-wrath, R-ADD-66)",
    ),
    # issue 17, dot
    "Rooted": (
        {"seat": 1, "turns": 2, "source": "world-tree-staff-grasping-roots"},
        "Bastion Heavy cannot move through their next 2 turns "
        "(world-tree-staff-grasping-roots, R-ADD-111)",
    ),
    "BleedApplied": (
        {"seat": 1, "amount": 3, "total": 4, "source": "venom-strike"},
        "Bastion Heavy gains 3 Bleed counters, now 4 (venom-strike, R-ADD-110)",
    ),
    "BleedTicked": (
        {"seat": 1, "total": 2},
        "Bastion Heavy bleeds: 1 damage, 2 Bleed counters left (R-ADD-110)",
    ),
    "DefenceLowered": (
        {"seat": 1, "amount": 1, "source": "mandible-rend"},
        "Bastion Heavy has -1 Defense until the end of their next turn (mandible-rend, R-ADD-119)",
    ),
    "MoveCostRaised": (
        {"seat": 1, "amount": 1, "source": "crossbow-leg-shot"},
        "Bastion Heavy's moves cost +1 SP a hex next turn (crossbow-leg-shot, R-ADD-113)",
    ),
    # issue 17, buffs
    "AttackEnhanced": (
        {
            "seat": 0,
            "source": "ap-shot",
            "attacks": "ranged",
            "damage": 1,
            "to_hit": 0,
            "ignore_defence": 0,
            "ignore_cover": False,
            "ignore_range": False,
            "cannot_miss": False,
            "ignore_defence_buffs": False,
            "this_turn": False,
        },
        "Penitent Scout's next ranged attack is enhanced (ap-shot, R-ADD-90)",
    ),
    "WardRaised": (
        {
            "seat": 1,
            "source": "forge-blessing",
            "until": "end_of_round",
            "against": "all",
            "defence": 0,
            "to_hit": 0,
            "damage": 0,
            "reduce": 2,
            "cap": None,
            "at_least": 0,
            "uses": 0,
            "recover": 0,
        },
        "Bastion Heavy is warded against all damage until end of round (forge-blessing, R-ADD-93)",
    ),
    "WardUsed": (
        {"seat": 1, "index": 0, "source": "forge-blessing", "before": 3, "after": 1},
        "Bastion Heavy's ward acts: 3 damage becomes 1 (forge-blessing, R-ADD-94)",
    ),
    "DefenceBuffsIgnored": (
        {"attacker": 0},
        "Penitent Scout's attack ignores Defense buffs (R-ADD-92)",
    ),
    "SpGained": (
        {"seat": 0, "amount": 3, "source": "adrenaline-surge"},
        "Penitent Scout gains 3 SP this turn (adrenaline-surge, R-ADD-95)",
    ),
    "CasketPushed": (
        {"seat": 1, "path": [[0, -1], [0, -2]], "by": 0, "source": "shield-slam"},
        "Bastion Heavy is forced 2 hexes to 0,-2 (shield-slam, R-ADD-100)",
    ),
    "CasketTeleported": (
        {"seat": 0, "at": [2, 1], "hexes": 3, "source": "sylvan-step"},
        "Penitent Scout teleports 3 hexes to 2,1 (sylvan-step, R-ADD-102)",
    ),
    "EnemyMarked": (
        {"seat": 0, "target": 1, "source": "death-mark"},
        "Penitent Scout marks Bastion Heavy (death-mark, R-ADD-148)",
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
    # issue 17, area
    "AttacksQueued": (
        {
            "attacker": 0,
            "card": "twin-cuts#1",
            "attacks": [[1, "Melee", 3]],
            "component": None,
            "after_kill": None,
            "rule": "R-ADD-80",
        },
        "Penitent Scout's twin-cuts#1 attacks again after this attack: Bastion Heavy (R-ADD-80)",
    ),
    "DamageAuraRaised": (
        {"seat": 0, "amount": 1, "within": 1, "source": "inferno-staff-molten-armor"},
        "Until its next turn, each enemy within 1 hex of Penitent Scout takes 1 damage as "
        "its turn starts (inferno-staff-molten-armor, R-ADD-88)",
    ),
    "FollowUpTaken": (
        {
            "attacker": 0,
            "card": "twin-cuts#1",
            "target": 1,
            "made": False,
            "reason": "seat 1 is out of the battle",
            "rule": "R-ADD-80",
        },
        "Penitent Scout's twin-cuts#1 does not attack Bastion Heavy: seat 1 is out of the battle "
        "(R-ADD-80)",
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
    "GritModifierRaised": (
        {"seat": 0, "amount": 1, "source": "martyrs-endurance", "next_check": True},
        "Ophelia adds +1 to the next Grit check (martyrs-endurance, R-ADD-361)",
    ),
}


def test_a_lasting_grit_modifier_reads_apart_from_a_next_check_bonus() -> None:
    payload = {"seat": 0, "amount": 1, "source": "stone-endurance-boost"}
    assert plain(describe("GritModifierRaised", payload, NAMES)) == (
        "Ophelia adds +1 to every Grit check this battle (stone-endurance-boost, R-ADD-360)"
    )


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


def test_losing_all_sp_reads_as_no_sp() -> None:
    """R-ADD-119: "target loses all SP next turn" is a penalty above any SP maximum."""
    payload = {"seat": 1, "amount": 99, "source": "winter-s-heart-staff-absolute-zero"}
    assert plain(describe("SpPenaltyImposed", payload, NAMES)) == (
        "Bastion Heavy will have no SP next turn (winter-s-heart-staff-absolute-zero, R-ADD-65)"
    )


def test_an_attack_naming_further_targets_names_them() -> None:
    """R-ADD-80: the play panel reads `also` as the attacks that follow."""
    from battles.engine.battle.decide import create
    from battles.engine.battle.evolve import replay
    from battles.engine.demo import demo_setup
    from battles.play_panel import label

    s = replay(create("b", demo_setup(seed=1)))
    names = Names.of(s)
    card = next(iter(s.cards))
    body = {"type": "attack", "seat": 0, "card": f"{card}#1", "target": 1}
    assert label({**body, "also": [1]}, s, names) == label(body, s, names).replace(
        f"at {names.casket(1)}", f"at {names.casket(1)}, then {names.casket(1)}"
    )


def test_a_taint_spend_names_whose_taint_on_the_play_panel() -> None:
    """R-ADD-145: a card spending Taint says so, and whose, not "tokens"."""
    from dataclasses import replace

    from battles.engine.battle.decide import create
    from battles.engine.battle.evolve import replay
    from battles.engine.cards import AttackEffect, CardDef, SpendTaintEffect
    from battles.engine.demo import demo_setup
    from battles.engine.tohit import parse_range
    from battles.play_panel import label

    s = replay(create("b", demo_setup(seed=1)))
    melee = parse_range("Melee")
    rend = CardDef(id="rend", name="Rend", kind="other", sp_cost=1, range=melee, damage=5,
                   effects=(AttackEffect(melee, 5), SpendTaintEffect(1, "either", damage_per_taint=1)),
                   automated=True)  # fmt: skip
    s = replace(s, cards={**s.cards, "rend": rend})
    names = Names.of(s)
    body = {"type": "attack", "seat": 0, "card": "rend#1", "target": 1, "spend": True}
    assert "the pilot's Taint (R-ADD-145)" in label(body, s, names)
    assert "the target's Taint" in label({**body, "taint_from": "target"}, s, names)
