"""Scenarios for the catalogue entries of issue 17's triggers group: thorns (R-ADD-130),
destruction triggers, killing blows and lasting bonuses (R-ADD-131), an enemy's "moved
this turn" (R-ADD-132) and costs printed in tokens (R-ADD-133), played through
decide/evolve with the helpers of test_card_catalogue.py. Each scenario quotes the text it
checks; `test_every_automated_entry_has_a_scenario_below` counts them with the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from battles.engine.battle.events import (
    AttackDeclared,
    DefenceRolled,
    Event,
    PromptOpened,
    ThornsRaised,
)
from battles.engine.cards import (
    DrawEffect,
    LastingBonusEffect,
    ThornsEffect,
    TokenCostEffect,
    TriggerEffect,
    card_from_dict,
    effect_from_dict,
)
from battles.engine.errors import InvalidInput

from .battle_builder import CARDS, FILLER, Battle, of_type, one
from .test_card_catalogue import (
    ENTRIES,
    battle,
    built,
    play,
)

TRIGGERS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _seat1_attacks(b: Battle, card: str, faces: tuple[int, ...] = (1, 1)) -> list[Event]:
    """Seat 1 attacks seat 0 (named component); (1, 1) misses (R-HIT-4)."""
    return b.do({"type": "attack", "seat": 1, "card": card, "target": 0,
                 "component": "chassis", "faces": list(faces)})  # fmt: skip


def _thorns_prompt(events: list[Event], damage: int) -> None:
    """The attacker is asked to discard `damage` cards once its attack has ended."""
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", damage)
    assert "R-ADD-130" in prompt.reason
    assert events.index(prompt) > [e.type for e in events].index("AttackEnded")


def _take(b: Battle, n: int) -> None:
    hp = b.seat(1).hp
    b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": n, "drawn": [FILLER] * n})
    assert b.seat(1).hp == hp - n  # ruleset 2.1: onto the damage pile (R-DMG-8)


def _thorns(
    section: str, cid: str, damage: int, *, melee_only: bool, defence: int = 0, once: bool = False
) -> None:
    card = built(section, cid)
    b = battle(card, opponent=("gun",), version="2.1")
    raised = one(play(b, cid), ThornsRaised)
    assert (raised.damage, raised.melee_only) == (damage, melee_only)
    assert (raised.until == "next_attack") == once
    if once:  # "Remove this card from game after triggered" (R-ADD-70, R-ADD-130)
        assert f"{cid}#1" in b.seat(0).removed and f"{cid}#1" not in b.seat(0).discard
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    # A melee attack that misses: the thorns still bite once it has ended.
    events = _seat1_attacks(b, "test-maul#1")
    d = one(events, AttackDeclared)
    assert d.defence_modifier - int(d.to_hit["defense_modifier"]) == defence  # R-ADD-64
    _thorns_prompt(events, damage)
    _take(b, damage)
    # A ranged attack (the Gun, Range 1-6, from the adjacent hex).
    events = _seat1_attacks(b, "gun#1")
    if melee_only or once:  # "in melee" only; the trap is spent
        assert not of_type(events, PromptOpened)
    else:
        _thorns_prompt(events, damage)
        _take(b, damage)
    # Round 2: seat 0's next turn starts and "until your next turn" lapses.
    b.do({"type": "pass", "seat": 1, "drawn": ["test-maul", FILLER], "faces": [6, 1]})
    assert b.state.active == 0
    c = b.seat(0)
    assert (c.thorns, c.thorns_melee, c.thorns_once, c.defence_bonus) == (0, 0, 0, 0)


def _glyph_trap_waits() -> None:
    """ "Next enemy that attacks you takes 4 damage.": the trap waits past the owner's next
    turn for the first attack on it (R-ADD-130)."""
    card = built("equipment_items", "runic-charges-glyph-trap")
    b = battle(card, version="2.1")
    play(b, "runic-charges-glyph-trap")
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # round 2, seat 0 first
    assert b.state.active == 0 and b.seat(0).thorns_once == 4
    b.do({"type": "pass", "seat": 0})
    _thorns_prompt(_seat1_attacks(b, "test-maul#1"), 4)


def _glyph_trap() -> None:
    """ "Next enemy that attacks you takes 4 damage. Remove this card from game after
    triggered.\""""
    _thorns("equipment_items", "runic-charges-glyph-trap", 4, melee_only=False, once=True)
    _glyph_trap_waits()


def _thorn_barrier() -> None:
    """ "Deal 2 damage to next attacker.": a reactive card (its keywords), so the attacker of
    the attack it answers takes 2 once that attack has ended (R-ADD-58, R-ADD-130), played
    for 0 SP (R-ADD-67)."""
    card = built("equipment", "thorn-barrier")
    assert card.kind == "reactive"
    b = battle(card, first=1, version="2.1")
    _seat1_attacks(b, "test-maul#1", (3, 2))
    events = b.do({"type": "play_reactive", "seat": 0, "card": "thorn-barrier#1", "faces": [1, 1]})
    assert one(events, DefenceRolled).final_damage == 0  # two SHIELD faces
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", 2)
    assert b.seat(0).sp_spent == 0


TRIGGERS_SCENARIOS.update({
    ("equipment", "thorn-barrier"): _thorn_barrier,
    ("equipment", "emberguard"): lambda: _thorns("equipment", "emberguard", 1, melee_only=True),
    ("equipment_items", "emberguard"): lambda: _thorns(
        "equipment_items", "emberguard", 1, melee_only=True),
    ("equipment_items", "greatsword-defensive-sweep"): lambda: _thorns(
        "equipment_items", "greatsword-defensive-sweep", 2, melee_only=True, defence=1),
    ("equipment_items", "stormcaller-s-grimoire-storm-shield"): lambda: _thorns(
        "equipment_items", "stormcaller-s-grimoire-storm-shield", 1, melee_only=False, defence=1),
    ("equipment_items", "warding-talisman-deflection-field"): lambda: _thorns(
        "equipment_items", "warding-talisman-deflection-field", 1, melee_only=False, defence=2),
    ("equipment_items", "runic-charges-glyph-trap"): _glyph_trap,
})  # fmt: skip


@pytest.mark.parametrize("key", sorted(TRIGGERS_SCENARIOS), ids="/".join)
def test_triggers_scenario(key: tuple[str, str]) -> None:
    TRIGGERS_SCENARIOS[key]()


# --- the new effect kinds' validation -----------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ({"kind": "thorns", "damage": 0}, "effect.damage"),
        ({"kind": "thorns", "damage": 1, "until": "forever"}, "effect.until"),
        ({"kind": "thorns", "damage": 1, "melee_only": 1}, "effect.melee_only"),
        ({"kind": "thorns", "damage": 1, "melee_only": True, "until": "next_attack"},
         "effect.melee_only"),
        ({"kind": "lasting_bonus", "damage": 0}, "effect.damage"),
        ({"kind": "token_cost", "pool": "gold", "n": 1}, "effect.pool"),
        ({"kind": "token_cost", "pool": "forge", "n": 0}, "effect.n"),
        ({"kind": "trigger", "on": "casket_destroyed", "then": [{"kind": "draw", "n": 1}]},
         "effect.within"),
        ({"kind": "trigger", "on": "casket_destroyed", "within": 3, "enemy_only": True,
          "ally_only": True, "then": [{"kind": "draw", "n": 1}]}, "effect.ally_only"),
        ({"kind": "trigger", "on": "start_of_turn", "by_owner": True,
          "then": [{"kind": "draw", "n": 1}]}, "effect.within"),
        ({"kind": "trigger", "on": "end_of_turn", "ally_only": "yes",
          "then": [{"kind": "draw", "n": 1}]}, "effect.ally_only"),
    ],
)  # fmt: skip
def test_a_bad_field_of_a_triggers_effect_is_named(doc: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        effect_from_dict(doc)
    assert err.value.field == field


def test_the_triggers_effects_read_back_what_they_write() -> None:
    for effect in (
        ThornsEffect(2, melee_only=True),
        ThornsEffect(4, until="next_attack"),
        LastingBonusEffect(1),
        TokenCostEffect("metamorph", 1),
        TriggerEffect("casket_destroyed", (DrawEffect(2),), ally_only=True),
        TriggerEffect("casket_destroyed", (DrawEffect(2),), within=6, by_owner=True),
    ):
        assert effect_from_dict(effect.as_dict()) == effect


def test_a_card_of_the_triggers_group_loads_only_from_its_recorded_text() -> None:
    assert ENTRIES[("equipment", "emberguard")].automated
    assert card_from_dict(CARDS["gun"]).attack is not None
