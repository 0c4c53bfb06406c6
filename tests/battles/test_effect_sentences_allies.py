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
