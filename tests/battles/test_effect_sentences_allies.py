"""The allies' event on the replay and play pages reads as a sentence citing its ruling
(issue 17, allies: R-ADD-122)."""

from __future__ import annotations

from battles.replay import Names, describe, plain

NAMES = Names({0: "Penitent Scout", 1: "Bastion Heavy", 2: "Ember Warden"}, {}, {})


def test_a_covered_attack_names_the_covering_and_the_covered_casket() -> None:
    payload = {"seat": 0, "target": 2, "card": "martyr-shield#1", "reduction": 2}
    assert plain(describe("AttackCovered", payload, NAMES)) == (
        "Penitent Scout takes Ember Warden's damage with martyr-shield#1, reducing it by 2 "
        "(R-ADD-122)"
    )
    payload = {"seat": 0, "target": 2, "card": "interpose#1", "reduction": 0}
    assert plain(describe("AttackCovered", payload, NAMES)).endswith("with interpose#1 (R-ADD-122)")
    payload = {"seat": 0, "target": 2, "card": "bulwark#1", "reduction": 2, "keeps": True}
    assert plain(describe("AttackCovered", payload, NAMES)) == (
        "Penitent Scout shields Ember Warden with bulwark#1, reducing its damage by 2 (R-ADD-430)"
    )


def test_defence_an_ally_gave_says_until_when() -> None:
    """R-ADD-123: until the giver's next turn, or the end of the round."""
    lent = {"seat": 2, "amount": 2, "until": 0, "source": "asset-protection"}
    assert plain(describe("DefenceLent", lent, NAMES)) == (
        "Ember Warden gains +2 Defense until Penitent Scout's next turn "
        "(asset-protection, R-ADD-123)"
    )
    lent = {"seat": 2, "amount": 1, "until": -1, "source": "nature"}
    assert plain(describe("DefenceLent", lent, NAMES)) == (
        "Ember Warden gains +1 Defense until the end of the round (nature, R-ADD-123)"
    )


def test_a_damage_card_removed_from_the_game_is_named() -> None:
    payload = {"seat": 2, "cards": ["damage#2"], "source": "field-suture"}
    sentence = plain(describe("DamageCardsRemoved", payload, NAMES))
    assert sentence.startswith("Ember Warden removes ")
    assert sentence.endswith(" from its discard pile, out of the game (field-suture, R-ADD-124)")


def test_deflected_damage_names_the_attacker() -> None:
    payload = {"seat": 0, "attacker": 1, "amount": 2}
    assert plain(describe("DamageDeflected", payload, NAMES)) == (
        "Penitent Scout deflects 2 damage back to Bastion Heavy (R-ADD-125)"
    )


def test_an_ally_moved_by_a_card_says_by_whom() -> None:
    payload = {"seat": 2, "path": [[0, 7], [0, 6]], "by": 0, "source": "hivemind-beacon"}
    assert plain(describe("AllyMoved", payload, NAMES)) == (
        "Ember Warden is moved 2 hexes to 0,6 by Penitent Scout's card (hivemind-beacon, R-ADD-126)"
    )


def test_a_warded_attack_names_the_ward_and_the_target() -> None:
    payload = {"seat": 0, "card": "divine-scepter-divine-intervention#1", "target": 2}
    sentence = plain(describe("AttackWarded", payload, NAMES))
    assert sentence.startswith("Penitent Scout's ")
    assert sentence.endswith(" negates the damage of this attack on Ember Warden (R-ADD-128)")


def test_a_zone_names_its_hex() -> None:
    payload = {"seat": 0, "card": "consecrated-ground#1", "at": [0, 3]}
    sentence = plain(describe("ZoneCreated", payload, NAMES))
    assert sentence.startswith("Penitent Scout's ")
    assert sentence.endswith(" makes a zone around 0,3 until the end of the round (R-ADD-129)")
