"""Scenarios for the catalogue entries of damage over time and lasting effects put on an
enemy (issue 17, group "dot": R-ADD-110 to R-ADD-116), played through decide/evolve with
the helpers of test_card_catalogue.py. Each docstring quotes the card's printed text;
`test_every_automated_entry_has_a_scenario_below` (test_card_catalogue.py) counts these
scenarios with the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from battles.engine.battle.events import (
    AttackDeclared,
    AttacksForgone,
    BleedApplied,
    BleedTicked,
    CardsDiscarded,
    CardsDrawn,
    CasketMoved,
    DamageScheduled,
    DamageTaken,
    DefenceLowered,
    DefenceRaised,
    DefenceRolled,
    DrawPenaltyImposed,
    Event,
    MoveCostRaised,
    OngoingDamageScheduled,
    PromptOpened,
    Rooted,
    SpDrained,
    SpendArmed,
    TokensChanged,
)
from battles.engine.cards import (
    BleedEffect,
    DrawPenaltyEffect,
    MoveCostEffect,
    OngoingDamageEffect,
    RootEffect,
    effect_from_dict,
)
from battles.engine.errors import InvalidInput
from battles.engine.tohit import MAX_DAMAGE

from .battle_builder import FILLER, Battle, of_type, one
from .test_card_catalogue import (
    AUTOMATED,
    Attack,
    arrange,
    attack,
    autoplayed,
    battle,
    built,
    check_attack,
    declared,
    hit,
    ignored,
    play,
    reach,
    reactive,
    resolve_hit,
    run_scenario,
    spend,
    tokens,
)

ITEMS = "equipment_items"
DOT_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


# --- helpers -------------------------------------------------------------------------------------


def _far(section: str, cid: str) -> int:
    """The card's longest reach: where check_attack puts the target."""
    card = built(section, cid)
    assert card.range is not None
    return card.range.high


def _missed(section: str, cid: str, damage: int, ignore: int = 0) -> Battle:
    """The printed reach and damage; the declaration's missing roll ([1, 1]) lands nothing
    on the target (R-ADD-65)."""
    b = check_attack(section, cid, Attack(_far(section, cid), damage, ignore))
    t = b.seat(1)
    assert (t.rooted_turns, t.bleed, t.ongoing_damage, t.move_cost_next_turn) == (0, 0, (), 0)
    assert (t.damage_next_turn, t.sp_penalty, t.statuses) == (0, 0, ())
    return b


def _hit(b: Battle, card: Any, damage: int, **extra: Any) -> list[Event]:
    """Seat 0 hits seat 1 for `damage`, no blocks (BLOOD faces, as resolve_hit),
    seat 1 takes it from the deck; `extra` goes into the attack command (spend)."""
    events = attack(b, card, faces=[3, 2, *[4] * damage], **extra)
    assert one(events, DefenceRolled).final_damage == damage
    events += b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": damage,
                    "drawn": [FILLER] * damage})  # fmt: skip
    return events


def _pass_0(b: Battle, drawn: int = 1) -> list[Event]:
    """Seat 0 ends its turn (drawing back what it played); seat 1's turn starts."""
    events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * drawn})
    assert b.state.active == 1 or b.state.prompts
    return events


def _pass_1_next_round(b: Battle) -> None:
    """Seat 1 ends the round (drawing back to 6); round 2's initiative gives seat 0 the
    first turn (R-TRN-2)."""
    drawn = [FILLER] * (6 - len(b.seat(1).hand))
    b.do({"type": "pass", "seat": 1, "faces": [6, 1], "drawn": drawn})
    assert b.state.active == 0


def _take(b: Battle, n: int) -> None:
    b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": n, "drawn": [FILLER] * n})


def _step(b: Battle) -> dict[str, Any]:
    """A one-hex move of seat 1 away from seat 0 (north-east)."""
    at = b.seat(1).at
    return {"type": "move", "seat": 1, "path": [[at.q + 1, at.r - 1]]}


def _check_rooted(b: Battle, turns: int) -> None:
    """R-ADD-111: through each of seat 1's next `turns` turns no move; then it moves."""
    assert b.seat(1).rooted_turns == turns and "immobilised" in b.seat(1).statuses
    for k in range(turns):
        if k:
            _pass_1_next_round(b)
            b.do({"type": "pass", "seat": 0})
        else:
            _pass_0(b)
        assert b.state.active == 1
        err = b.refuse(_step(b))
        assert (err.code, err.rule) == ("immobilised", "R-ADD-111")
        b.do({"type": "rotate", "seat": 1, "facing": 5})  # rotating is not moving
        b.do({"type": "rotate", "seat": 1, "facing": 4})
    _pass_1_next_round(b)
    assert b.seat(1).rooted_turns == 0 and "immobilised" not in b.seat(1).statuses
    b.do({"type": "pass", "seat": 0})
    assert one(b.do(_step(b)), CasketMoved).cost == 1


def _root_on_hit(section: str, cid: str, damage: int, turns: int = 1) -> None:
    """ "Target cannot move (next turn | for N turns)": on a hit only, under either ruleset."""
    _missed(section, cid, damage)
    card = built(section, cid)
    for version in ("2.0", "2.1"):
        b = battle(card, gap=reach(card), version=version)
        events = resolve_hit(b, card, damage, kill=False)
        assert one(events, Rooted) == Rooted(1, turns, cid)
        _check_rooted(b, turns)


def _bleed_on_hit(section: str, cid: str, damage: int, n: int, ignore: int = 0) -> None:
    """ "Bleed N": N counters on a hit; at the start of the target's turn 1 damage, one
    counter off (R-ADD-110)."""
    _missed(section, cid, damage, ignore)
    card = built(section, cid)
    b = battle(card, gap=reach(card), version="2.1")
    events = resolve_hit(b, card, damage, kill=False)
    assert one(events, BleedApplied) == BleedApplied(1, n, n, cid)
    _check_bleeds(b, n)


def _check_bleeds(b: Battle, n: int) -> None:
    hp = b.seat(1).hp
    events = _pass_0(b)
    assert one(events, BleedTicked) == BleedTicked(1, n - 1)
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", 1)
    assert "R-ADD-110" in prompt.reason
    _take(b, 1)
    assert (b.seat(1).hp, b.seat(1).bleed) == (hp - 1, n - 1)


def _burn_on_hit(section: str, cid: str, damage: int, burn: int) -> None:
    """ "Apply Burn (target takes N damage at start of their next turn)": R-ADD-73."""
    _missed(section, cid, damage)
    card = built(section, cid)
    b = battle(card, version="2.1")
    events = resolve_hit(b, card, damage, kill=False)
    assert one(events, DamageScheduled) == DamageScheduled(1, burn, cid)
    prompt = one(_pass_0(b), PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", burn)


def _spend_for_hit(
    section: str,
    cid: str,
    base: int,
    pool: str,
    n: int,
    bonus: int,
    landed: Callable[[list[Event]], bool],
) -> list[Event]:
    """ "Spend N <pool> to deal X and apply …": the bonus and what lands on a hit are bought
    together (R-ADD-116); a hit without the spend lands neither."""
    spend(section, cid, base, pool, n, bonus)
    card = built(section, cid)
    plain = battle(card, version="2.1")
    assert not landed(_hit(plain, card, base))
    b = battle(card, version="2.1")
    tokens(b, pool, n)
    events = _hit(b, card, base + bonus, spend=True)
    assert one(events, SpendArmed) == SpendArmed(0, cid)
    assert landed(events) and b.seat(0).armed_spend is None
    return events


def _bleeds(n: int) -> Callable[[list[Event]], bool]:
    return lambda events: [(e.seat, e.amount) for e in of_type(events, BleedApplied)] == [(1, n)]


def _burns(n: int) -> Callable[[list[Event]], bool]:
    return lambda events: [(e.seat, e.amount) for e in of_type(events, DamageScheduled)] == [(1, n)]


def _move_cost_on_hit(cid: str, damage: int, more: int) -> None:
    """ "Target's movement costs +N SP next turn": each hex of its moves next turn (R-ADD-113)."""
    _missed(ITEMS, cid, damage)
    card = built(ITEMS, cid)
    b = battle(card, gap=reach(card))
    events = resolve_hit(b, card, damage, kill=False)
    assert one(events, MoveCostRaised) == MoveCostRaised(1, more, cid)
    _pass_0(b)
    assert one(b.do(_step(b)), CasketMoved).cost == 1 + more
    _pass_1_next_round(b)
    b.do({"type": "pass", "seat": 0})
    assert one(b.do(_step(b)), CasketMoved).cost == 1  # the turn after: back to normal


def _ongoing_on_hit(cid: str, damage: int, amount: int, turns: int) -> None:
    """ "Ongoing: target takes N damage at start of their turn for T turns" (R-ADD-112)."""
    _missed(ITEMS, cid, damage)
    card = built(ITEMS, cid)
    b = battle(card, gap=reach(card), version="2.1")
    events = resolve_hit(b, card, damage, kill=False)
    assert one(events, OngoingDamageScheduled) == OngoingDamageScheduled(1, amount, turns, cid)
    for k in range(turns + 1):
        events = _pass_0(b) if k == 0 else b.do({"type": "pass", "seat": 0})
        prompts = [p for p in of_type(events, PromptOpened) if p.kind == "take_damage"]
        if k < turns:
            assert [(p.seat, p.amount) for p in prompts] == [(1, amount)], k
            assert "R-ADD-73" in prompts[0].reason
            _take(b, amount)
        else:
            assert not prompts and b.seat(1).ongoing_damage == ()
        _pass_1_next_round(b)


# --- scenarios -----------------------------------------------------------------------------------


def _chains_of_penance() -> None:
    """ "Deal 4 damage. Target cannot move until end of their next turn. Discard 1 card from
    your deck (self-harm).\""""
    card = built("church", "chains-of-penance")
    b = battle(card, gap=4)
    deck = len(b.seat(0).deck)
    events = attack(b, card, drawn=[FILLER])
    d = one(events, AttackDeclared)
    assert (hit(d), ignored(d)) == (4, 0) and b.seat(1).rooted_turns == 0  # missed
    lost = one(events, CardsDiscarded).from_deck  # to the discard pile, not damage (R-DMG-8)
    assert len(lost) == 1 and len(b.seat(0).deck) == deck - 1 and lost[0] in b.seat(0).discard
    assert (
        battle(card, gap=5)
        .refuse({"type": "attack", "seat": 0, "card": "chains-of-penance#1", "target": 1})
        .code
    )
    for version in ("2.0", "2.1"):
        b = battle(card, gap=2, version=version)
        events = attack(b, card, drawn=[FILLER], faces=[3, 2, 4, 4, 4, 4])
        events += b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 4,
                        "drawn": [FILLER] * 4})  # fmt: skip
        assert one(events, Rooted) == Rooted(1, 1, "chains-of-penance")
        _check_rooted(b, 1)


def _emberforged_strike() -> None:
    """ "Deal 5 damage. Spend 2 Forge tokens to deal 7 damage and set target on fire (2
    damage at start of their next turn). Molten fury.\""""
    _spend_for_hit("crucible", "emberforged-strike", 5, "forge", 2, 2, _burns(2))


def _barbed_arrow_volley() -> None:
    """ "Deal 3 damage at range. Apply Bleed 3. If target already has Bleed counters, apply
    +1 additional Bleed (max 4 total).\""""
    _bleed_on_hit("elves", "barbed-arrow-volley", 3, 3)
    card = built("elves", "barbed-arrow-volley")
    b = battle(card, version="2.1")
    arrange(b, BleedApplied(1, 2, 2, "arranged"))
    events = resolve_hit(b, card, 3, kill=False)
    assert one(events, BleedApplied) == BleedApplied(1, 4, 6, "barbed-arrow-volley")


def _venom_strike() -> None:
    """ "Deal 2 damage. Apply Bleed 3 (poisoned blade). Enemies with 5+ Bleed take +2
    damage from this attack.\""""
    _bleed_on_hit("elves", "venom-strike", 2, 3)
    card = built("elves", "venom-strike")
    for have, damage in ((4, 2), (5, 4)):
        b = battle(card)
        arrange(b, BleedApplied(1, have, have, "arranged"))
        assert hit(declared(b, card)) == damage, have


def _entangling_arrow() -> None:
    """ "2 damage, root 1 turn.\""""
    _root_on_hit("equipment", "entangling-arrow", 2)


def _root_grasp() -> None:
    """ "Target can't move 1 turn." (4 hexes): an enemy named in the command, within 4
    hexes (R-ADD-111, R-ADD-65)."""
    card = built("equipment", "root-grasp")
    far = battle(card, gap=5)
    err = far.refuse({"type": "play_card", "seat": 0, "card": "root-grasp#1", "target": 1})
    assert (err.code, err.rule) == ("out_of_range", "R-RNG-2")
    b = battle(card, gap=4)
    err = b.refuse({"type": "play_card", "seat": 0, "card": "root-grasp#1"})
    assert err.code == "target_required"
    assert one(play(b, "root-grasp", target=1), Rooted) == Rooted(1, 1, "root-grasp")
    _check_rooted(b, 1)


def _volcanic_cleave_equipment() -> None:
    """ "Deal 6 damage. Spend 1 Forge token: Deal 7 damage instead and apply Burn (2 damage
    next turn).\""""
    _spend_for_hit("equipment", "volcanic-cleave", 6, "forge", 1, 1, _burns(2))


def _volcanic_cleave_items() -> None:
    """ "Deal 4 damage. Spend 1 Forge token: Deal 5 damage instead and apply Burn (2 damage
    next turn).\""""
    _spend_for_hit(ITEMS, "volcanic-cleave", 4, "forge", 1, 1, _burns(2))


def _cinder_slash_equipment() -> None:
    """ "Deal 5 damage. Apply Burn (target takes 2 damage at start of their next turn).\""""
    _burn_on_hit("equipment", "cinder-slash", 5, 2)


def _cinder_slash_items() -> None:
    """ "Deal 3 damage. Apply Burn (target takes 2 damage at start of their next turn).\""""
    _burn_on_hit(ITEMS, "cinder-slash", 3, 2)


def _feral_strike_equipment() -> None:
    """ "Deal 3 damage. Spend 1 Biomass: Deal 4 damage and apply Bleed 1.\""""
    _spend_for_hit("equipment", "feral-strike", 3, "biomass", 1, 1, _bleeds(1))


def _rifle_suppressing_fire() -> None:
    """ "Deal 2 damage, target loses 1 SP": its next turn's SP (R-ADD-116, R-ADD-65)."""
    _missed(ITEMS, "rifle-suppressing-fire", 2)
    card = built(ITEMS, "rifle-suppressing-fire")
    b = battle(card, gap=2)
    resolve_hit(b, card, 2, kill=False)
    assert b.seat(1).sp_penalty == 1
    events = _pass_0(b)
    assert (one(events, SpDrained).amount, b.seat(1).sp_max) == (1, 4)


def _longbow_pierce_shot() -> None:
    """ "Deal 4 damage, Armor-Piercing, Bleed 1\""""
    _bleed_on_hit(ITEMS, "longbow-pierce-shot", 4, 1, MAX_DAMAGE)


def _tower_shield_hunker_down() -> None:
    """ "+3 Defense, cannot attack until next turn\" (R-ADD-64, R-ADD-115)."""
    card = built(ITEMS, "tower-shield-hunker-down")
    b = battle(card, hand=("blade",))
    events = play(b, "tower-shield-hunker-down")
    assert one(events, DefenceRaised).amount == 3
    assert one(events, AttacksForgone) == AttacksForgone(0, "tower-shield-hunker-down")
    err = b.refuse({"type": "attack", "seat": 0, "card": "blade#1", "target": 1})
    assert (err.code, err.rule) == ("no_attacks", "R-ADD-115")
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    d = one(b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
                  "component": "chassis", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
    assert d.defence_modifier - int(d.to_hit["defense_modifier"]) == 3
    b.do({"type": "pass", "seat": 1, "drawn": ["test-maul"], "faces": [6, 1]})
    assert b.state.active == 0 and not b.seat(0).no_attacks  # its next turn: it may attack
    again = b.do({"type": "attack", "seat": 0, "card": "blade#1", "target": 1,
                  "component": "chassis", "faces": [1, 1]})  # fmt: skip
    assert one(again, AttackDeclared).attacker == 0


def _bone_wand_curse() -> None:
    """ "Target draws 1 fewer card next turn" (Ranged 2-4): an enemy named in the command;
    its next Draw phase fills its hand to 5 (R-ADD-114)."""
    card = built(ITEMS, "bone-wand-curse")
    for gap in (1, 5):
        err = battle(card, gap=gap).refuse(
            {"type": "play_card", "seat": 0, "card": "bone-wand-curse#1", "target": 1}
        )
        assert (err.code, err.rule) == ("out_of_range", "R-RNG-2"), gap
    b = battle(card, gap=3)
    events = play(b, "bone-wand-curse", target=1)
    assert one(events, DrawPenaltyImposed) == DrawPenaltyImposed(1, 1, "bone-wand-curse")
    _pass_0(b)
    junk = tuple(x for x in b.seat(1).hand if x.startswith(FILLER))[:2]
    arrange(b, CardsDiscarded(1, junk, (), "arranged", "R-ADD-14"))
    events = b.do({"type": "pass", "seat": 1, "drawn": [FILLER], "faces": [6, 1]})
    assert len(one(events, CardsDrawn).cards) == 1 and len(b.seat(1).hand) == 5
    assert b.seat(1).draw_penalty == 0  # one Draw phase only


def _feral_strike_items() -> None:
    """ "Deal 4 damage. OR: Spend 2 Biomass to deal 6 damage and apply Bleed 2.\""""
    _spend_for_hit(ITEMS, "feral-strike", 4, "biomass", 2, 2, _bleeds(2))


def _rending_bite() -> None:
    """ "Deal 5 damage. OR: Spend 2 Biomass to deal 7 damage and apply Bleed 2.\""""
    _spend_for_hit(ITEMS, "rending-bite", 5, "biomass", 2, 2, _bleeds(2))


def _bloodline_fury() -> None:
    """ "Deal 7 damage. OR: Spend 4 Biomass to deal 11 damage, ignore Defense, and apply
    Bleed 3.\""""
    card = built(ITEMS, "bloodline-fury")
    plain = declared(battle(card), card)
    assert (hit(plain), ignored(plain)) == (7, 0)
    b = battle(card)
    tokens(b, "biomass", 4)
    d = declared(b, card, spend=True)
    assert (hit(d), ignored(d), b.seat(0).tokens_of("biomass")) == (11, MAX_DAMAGE, 0)
    _spend_for_hit(ITEMS, "bloodline-fury", 7, "biomass", 4, 4, _bleeds(3))


DOT_SCENARIOS.update({
    ("church", "chains-of-penance"): _chains_of_penance,
    ("crucible", "emberforged-strike"): _emberforged_strike,
    ("elves", "barbed-arrow-volley"): _barbed_arrow_volley,
    ("elves", "venom-strike"): _venom_strike,
    ("equipment", "entangling-arrow"): _entangling_arrow,
    ("equipment", "root-grasp"): _root_grasp,
    ("equipment", "volcanic-cleave"): _volcanic_cleave_equipment,
    ("equipment", "cinder-slash"): _cinder_slash_equipment,
    ("equipment", "feral-strike"): _feral_strike_equipment,
    (ITEMS, "greatsword-impale"): lambda: _root_on_hit(ITEMS, "greatsword-impale", 5),
    (ITEMS, "halberd-trip"): lambda: _root_on_hit(ITEMS, "halberd-trip", 2),
    (ITEMS, "crossbow-leg-shot"): lambda: _move_cost_on_hit("crossbow-leg-shot", 3, 1),
    (ITEMS, "longbow-pierce-shot"): _longbow_pierce_shot,
    (ITEMS, "rifle-suppressing-fire"): _rifle_suppressing_fire,
    (ITEMS, "chain-whip-lash"): lambda: _bleed_on_hit(ITEMS, "chain-whip-lash", 3, 1),
    (ITEMS, "chain-whip-trip"): lambda: _root_on_hit(ITEMS, "chain-whip-trip", 2),
    (ITEMS, "tower-shield-hunker-down"): _tower_shield_hunker_down,
    (ITEMS, "glacial-tome-ice-lance"): lambda: _move_cost_on_hit("glacial-tome-ice-lance", 4, 1),
    (ITEMS, "winter-s-heart-staff-glacial-prison"):
        lambda: _root_on_hit(ITEMS, "winter-s-heart-staff-glacial-prison", 3, 2),
    (ITEMS, "winter-s-heart-staff-frostbite"):
        lambda: _ongoing_on_hit("winter-s-heart-staff-frostbite", 3, 1, 2),
    (ITEMS, "bone-wand-curse"): _bone_wand_curse,
    (ITEMS, "necromancer-s-grimoire-wither"):
        lambda: _ongoing_on_hit("necromancer-s-grimoire-wither", 3, 1, 3),
    (ITEMS, "living-branch-thorn-strike"):
        lambda: _bleed_on_hit(ITEMS, "living-branch-thorn-strike", 2, 1),
    (ITEMS, "druid-s-tome-entangle"): lambda: _move_cost_on_hit("druid-s-tome-entangle", 2, 2),
    (ITEMS, "world-tree-staff-grasping-roots"):
        lambda: _root_on_hit(ITEMS, "world-tree-staff-grasping-roots", 3, 2),
    (ITEMS, "ember-strike"): lambda: _burn_on_hit(ITEMS, "ember-strike", 4, 1),
    (ITEMS, "volcanic-cleave"): _volcanic_cleave_items,
    (ITEMS, "cinder-slash"): _cinder_slash_items,
    (ITEMS, "rending-bite"): _rending_bite,
    (ITEMS, "feral-strike"): _feral_strike_items,
    (ITEMS, "bloodline-fury"): _bloodline_fury,
    (ITEMS, "nomads-pinning-arrow"): lambda: _root_on_hit(ITEMS, "nomads-pinning-arrow", 4),
})  # fmt: skip


def _hit_reporting(
    b: Battle,
    card: Any,
    damage: int,
    picks: list[str],
    *,
    reactive: bool = False,
    roll: tuple[int, int] = (3, 2),
) -> list[Event]:
    """Seat 0 hits seat 1 for `damage`, no blocks; seat 1 takes it from the deck, and the
    table reports the random picks after the damage cards (R-ADD-18, R-ADD-117)."""
    defence = [4] * damage
    events = attack(b, card, faces=[*roll] if reactive else [*roll, *defence])
    if reactive:  # a shield card in hand opens the window: none is played
        events += b.do({"type": "no_reactive", "seat": 1, "faces": defence})
    assert one(events, DefenceRolled).final_damage == damage
    events += b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": damage,
                    "drawn": [FILLER] * damage + picks})  # fmt: skip
    return events


def _thunderstrike() -> None:
    """ "Deal 6 damage, target discards 1 random card\""""
    cid = "tempest-scepter-thunderstrike"
    _missed(ITEMS, cid, 6)
    card = built(ITEMS, cid)
    b = battle(card, gap=4)
    events = _hit_reporting(b, card, 6, ["test-maul"], roll=(3, 3))  # 6: a hit at 4 hexes
    lost = one(events, CardsDiscarded)
    assert (lost.seat, lost.from_hand, lost.rule) == (1, ("test-maul#1",), "R-ADD-117")
    assert "test-maul#1" in b.seat(1).discard and len(b.seat(1).hand) == 5


def _chain_whip_disarm() -> None:
    """ "Deal 2 damage, target discards 1 random weapon card from hand": a Primary Weapon
    card; a hand without one loses nothing (R-ADD-117)."""
    cid = "chain-whip-disarm"
    _missed(ITEMS, cid, 2)
    card = built(ITEMS, cid)
    b = battle(card)
    attack(b, card, faces=[3, 2, 4, 4])
    err = b.refuse({"type": "take_damage", "seat": 1, "hand": [], "deck": 2,
                    "drawn": [FILLER] * 3})  # fmt: skip
    assert (err.code, err.rule) == ("card_not_in_deck", "R-ADD-117")  # chaff is no weapon
    b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 2,
          "drawn": [FILLER] * 2 + ["test-maul"]})  # fmt: skip
    assert "test-maul#1" in b.seat(1).discard
    unarmed = battle(card)
    arrange(unarmed, CardsDiscarded(1, ("test-maul#1",), (), "arranged", "R-ADD-14"))
    events = _hit_reporting(unarmed, card, 2, [])
    assert not [e for e in of_type(events, CardsDiscarded) if e.rule == "R-ADD-117"]


def _mace_shield_break() -> None:
    """ "Deal 3 damage, destroy 1 Shield card in target's hand": lost as damage is, to the
    damage pile under 2.1 (R-ADD-117, R-DMG-8)."""
    cid = "mace-shield-break"
    _missed(ITEMS, cid, 3)
    card = built(ITEMS, cid)
    b = battle(card, opponent=("pavise",), version="2.1")
    events = _hit_reporting(b, card, 3, ["pavise"], reactive=True)
    lost = [e for e in of_type(events, DamageTaken) if e.from_hand]
    assert [(e.seat, e.from_hand, e.component) for e in lost] == [(1, ("pavise#1",), None)]
    assert "pavise#1" in b.seat(1).damage_pile


def _bone_prison() -> None:
    """ "Deal 2 damage, target cannot move next turn, target discards 1 card": the target
    chooses the card (R-ADD-117) and is rooted (R-ADD-111)."""
    cid = "necromancer-s-grimoire-bone-prison"
    _missed(ITEMS, cid, 2)
    card = built(ITEMS, cid)
    b = battle(card, gap=2)
    events = resolve_hit(b, card, 2, kill=False)
    assert one(events, Rooted) == Rooted(1, 1, cid)
    prompts = [p for p in b.state.prompts if p.kind == "discard"]
    assert [(p.seat, p.amount, p.rule) for p in prompts] == [(1, 1, "R-ADD-117")]
    b.do({"type": "discard_down", "seat": 1, "cards": ["test-maul#1"]})
    assert "test-maul#1" in b.seat(1).discard and not b.state.prompts
    _check_rooted(b, 1)


def _frost_shield() -> None:
    """ "Reduce damage by 1, attacker's movement costs +1 SP next turn" (R-ADD-118)."""
    cid = "frost-focus-frost-shield"
    b = reactive(ITEMS, cid, 1, 0)  # seat 1 attacked seat 0, which answered with the card
    assert b.seat(1).move_cost_next_turn == 1
    b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": 1, "drawn": [FILLER]})
    b.do({"type": "pass", "seat": 1, "drawn": ["test-maul"]})
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER], "faces": [1, 6]})  # seat 1 first
    assert b.state.active == 1
    assert one(b.do(_step(b)), CasketMoved).cost == 2


DOT_SCENARIOS.update({
    (ITEMS, "tempest-scepter-thunderstrike"): _thunderstrike,
    (ITEMS, "chain-whip-disarm"): _chain_whip_disarm,
    (ITEMS, "mace-shield-break"): _mace_shield_break,
    (ITEMS, "necromancer-s-grimoire-bone-prison"): _bone_prison,
    (ITEMS, "frost-focus-frost-shield"): _frost_shield,
})  # fmt: skip


@pytest.mark.parametrize("key", sorted(DOT_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_dot_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, DOT_SCENARIOS[key])


# --- the new vocabulary's validation -------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "field", "rule"),
    [
        ({"kind": "root", "turns": 4}, "card.effects[0].turns", "R-ADD-111"),
        ({"kind": "root", "turns": True}, "card.effects[0].turns", "R-ADD-111"),
        ({"kind": "bleed", "n": 0}, "card.effects[0].n", "R-ADD-110"),
        ({"kind": "bleed", "n": 2, "more_if_bleeding": -1},
         "card.effects[0].more_if_bleeding", "R-ADD-110"),
        ({"kind": "ongoing_damage", "amount": 1, "turns": 0}, "card.effects[0].turns", "R-ADD-112"),
        ({"kind": "ongoing_damage", "amount": 0, "turns": 2}, "card.effects[0].amount", "R-ADD-112"),
        ({"kind": "move_cost", "amount": 0}, "card.effects[0].amount", "R-ADD-113"),
        ({"kind": "draw_penalty", "n": 7}, "card.effects[0].n", "R-ADD-114"),
        ({"kind": "lower_defence", "amount": 0}, "card.effects[0].amount", "R-ADD-119"),
        ({"kind": "sp_penalty", "amount": "most"}, "card.effects[0].amount", "R-TRN-3"),
        ({"kind": "no_attacks", "turns": 1}, "card.effects[0].turns", None),
        ({"kind": "target_discards", "n": 0}, "card.effects[0].n", "R-ADD-117"),
        ({"kind": "target_discards", "n": 1, "pick": "attacker"}, "card.effects[0].pick", None),
        ({"kind": "target_discards", "n": 1, "of": "spell"}, "card.effects[0].of", None),
        ({"kind": "target_discards", "n": 1, "pick": "target", "of": "weapon"},
         "card.effects[0].of", "R-ADD-117"),
    ],
)  # fmt: skip
def test_a_bad_field_of_a_dot_effect_is_named(doc: dict[str, Any], field: str, rule: str) -> None:
    with pytest.raises(InvalidInput) as err:
        effect_from_dict(doc, "card.effects[0]")
    assert (err.value.field, err.value.rule) == (field, rule)


def test_dot_effects_read_back_from_their_dicts() -> None:
    for effect in (
        RootEffect(2),
        BleedEffect(3, more_if_bleeding=1),
        OngoingDamageEffect(1, 3),
        MoveCostEffect(2),
        DrawPenaltyEffect(1),
    ):
        assert effect_from_dict(effect.as_dict()) == effect


def test_two_roots_do_not_add_up_and_ongoing_damage_adds_turn_by_turn() -> None:
    """R-ADD-111: the longer root counts; R-ADD-112: two ongoing hits add up per turn."""
    card = built(ITEMS, "halberd-trip")
    b = battle(card)
    arrange(
        b,
        Rooted(1, 2, "a"),
        Rooted(1, 1, "b"),
        OngoingDamageScheduled(1, 1, 3, "c"),
        OngoingDamageScheduled(1, 2, 1, "d"),
    )
    assert (b.seat(1).rooted_turns, b.seat(1).ongoing_damage) == (2, (3, 1, 1))


def test_bleed_and_burn_at_the_same_start_of_turn_are_one_discard() -> None:
    """R-ADD-110 with R-ADD-73: Bleed's 1 damage joins the scheduled damage in one prompt."""
    card = built(ITEMS, "ember-strike")
    b = battle(card, version="2.1")
    arrange(b, BleedApplied(1, 2, 2, "arranged"))
    resolve_hit(b, card, 4, kill=False)
    prompts = [p for p in of_type(_pass_0(b), PromptOpened) if p.kind == "take_damage"]
    assert [(p.seat, p.amount) for p in prompts] == [(1, 2)]
    assert "R-ADD-73" in prompts[0].reason and "R-ADD-110" in prompts[0].reason


def test_a_rooted_casket_cannot_move_with_a_card_either() -> None:
    """R-ADD-111: "cannot move": a move card is refused too."""
    card = built(ITEMS, "halberd-trip")
    b = battle(card, opponent=("stride",))
    resolve_hit(b, card, 2, kill=False)
    _pass_0(b)
    at = b.seat(1).at
    err = b.refuse({"type": "play_card", "seat": 1, "card": "stride#1",
                    "path": [[at.q + 1, at.r - 1]]})  # fmt: skip
    assert (err.code, err.rule) == ("immobilised", "R-ADD-111")


def test_spending_without_effects_on_a_hit_arms_nothing() -> None:
    """R-ADD-116: only a spend that buys effects on a hit is remembered by the attack."""
    card = built("crucible", "forge-fury")
    b = battle(card)
    tokens(b, "forge", 2)
    events = attack(b, card, spend=True)
    assert not of_type(events, SpendArmed) and of_type(events, TokensChanged)


@pytest.mark.parametrize("seed", range(4))
def test_the_autoplayer_plays_decks_of_dot_cards_through_legal_actions(seed: int) -> None:
    """Decks of this group's cards only, either ruleset and policy: the greedy player
    drives the battle through legal actions only (roots, random discards, the target's
    own discard prompt, Bleed at each turn's start, attacks forbidden after Hunker Down),
    and the events replay to the state they led to."""
    import random

    from .battle_builder import seat

    rng = random.Random(seed)
    keys = sorted(DOT_SCENARIOS)
    cards = {built(*k).id: built(*k) for k in keys}
    rows = []
    for _ in range(2):
        ids = rng.sample(sorted(cards), 10)
        rows.append([{"card": c, "count": 3} for c in ids])
    doc = {
        "name": "Dot mix",
        "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 4}, "hexes": []},
        "rules": {"version": ("2.0", "2.1")[seed % 2], "options": {}},
        "dice": {"mode": "digital", "seed": seed, "seed_public": True},
        "policy": ("auto", "prompt")[seed // 2 % 2],
        "cards": [c.as_dict() for c in cards.values()],
        "seats": [
            {**seat(0, at=(0, 3), facing=1), "deck": rows[0]},
            {**seat(1, at=(0, -3), facing=4, casket_class="heavy"), "deck": rows[1]},
        ],
    }
    events = autoplayed(f"dot-{seed}", doc, seed=seed, commands=1500)
    lasting = (Rooted, BleedApplied, OngoingDamageScheduled, MoveCostRaised, DamageScheduled)
    assert any(isinstance(e, lasting) for e in events)


def _mandible_rend() -> None:
    """ "Deal 3 damage. Target has -1 Defense until end of their next turn (armor shredded
    by mandibles). If target is adjacent to another ally, deal 4 damage instead." (R-ADD-119)"""
    section, cid = "emergent", "mandible-rend"
    _missed(section, cid, 3)
    card = built(section, cid)
    b = battle(card)
    events = resolve_hit(b, card, 3, kill=False)
    assert one(events, DefenceLowered) == DefenceLowered(1, 1, cid)
    # The next attack on seat 1 (its own turn comes first: seat 1 attacks back) ...
    _pass_0(b)
    b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
          "component": "chassis", "faces": [1, 1]})  # fmt: skip
    assert b.seat(1).defence_malus == 1
    _pass_1_next_round(b)  # ... and lapses when that turn ends
    assert b.seat(1).defence_malus == 0
    # While it holds, an attack on seat 1 cancels one more block (R-DMG-3).
    c = battle(card)
    arrange(c, DefenceLowered(1, 1, "arranged"))
    d = declared(c, card)
    assert ignored(d) == 1
    # "Adjacent to another ally": an ally of the attacker's side next to the target.
    for ally, damage in (((1, 1), 4), ((2, 2), 3)):
        y = _with_ally(card, ally)
        assert hit(declared(y, card)) == damage, ally


def _with_ally(card: Any, at: tuple[int, int]) -> Battle:
    """Seat 0 at [0, 3] and its ally seat 2 at `at`; the enemy seat 1 at [0, 2] (R-ADD-74)."""
    from .battle_builder import CARDS, deck, seat
    from .test_card_catalogue import MAUL

    doc = {
        "name": "Allies", "rules": {"version": "2.0", "options": {}},
        "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "dice": {"mode": "table"}, "policy": "prompt",
        "cards": [CARDS[FILLER], MAUL, card.as_dict()],
        "seats": [
            seat(0, at=(0, 3), facing=1, side="pack", rows=deck(**{card.id: 2})),
            seat(1, at=(0, 2), facing=4, side="prey", rows=deck(**{"test-maul": 2})),
            seat(2, at=at, facing=1, side="pack", rows=deck(**{"test-maul": 2})),
        ],
    }  # fmt: skip
    b = Battle.create(doc)
    hands = [[card.id], ["test-maul"], ["test-maul"]]
    for i in range(3):
        body: dict[str, Any] = {"type": "keep_hand", "seat": i,
                                "drawn": hands[i] + [FILLER] * 5}  # fmt: skip
        if i == 2:
            body["faces"] = [6, 1, 1]
        b.do(body)
    assert b.state.active == 0
    return b


def _absolute_zero() -> None:
    """ "Deal 5 damage, target loses all SP next turn, remove this card from game after use"
    (R-ADD-119, R-ADD-70)."""
    cid = "winter-s-heart-staff-absolute-zero"
    _missed(ITEMS, cid, 5)
    card = built(ITEMS, cid)
    b = battle(card, gap=2)
    resolve_hit(b, card, 5, kill=False)
    assert f"{cid}#1" in b.seat(0).removed and f"{cid}#1" not in b.seat(0).discard
    events = _pass_0(b)
    assert (one(events, SpDrained).amount, b.seat(1).sp_max) == (5, 0)
    assert b.refuse(_step(b)).rule == "R-TRN-3"  # no SP, nothing to overspend


DOT_SCENARIOS.update({
    ("emergent", "mandible-rend"): _mandible_rend,
    (ITEMS, "winter-s-heart-staff-absolute-zero"): _absolute_zero,
})  # fmt: skip
