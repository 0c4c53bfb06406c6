"""Scenarios for the catalogue entries of issue 17's buffs group: enhancements of a later
attack (R-ADD-90), attacks that cannot miss or take no reactive card (R-ADD-91), attacks
that ignore Defense buffs (R-ADD-92) and wards lasting a turn or a round (R-ADD-93,
R-ADD-94). Played through decide/evolve with the helpers of test_card_catalogue.py; each
scenario quotes the text it checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from battles.engine.battle.events import (
    AttackDeclared,
    AttackEnhanced,
    AttackRolled,
    CardPlayed,
    CardsDiscarded,
    CardsRecovered,
    CasketRotated,
    DefenceRaised,
    DefenceRolled,
    EnhancementsSpent,
    Event,
    PromptOpened,
    SpDrained,
    TokensChanged,
    WardRaised,
    WardUsed,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.battle.snapshot import state_from_dict, state_to_dict
from battles.engine.cards import (
    AttackRulesEffect,
    CardDef,
    EnhanceNextAttackEffect,
    WardEffect,
    card_from_dict,
    effect_from_dict,
)
from battles.engine.errors import InvalidInput
from battles.engine.tohit import MAX_DAMAGE

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat
from .test_card_catalogue import (
    MAUL,
    arrange,
    attack,
    battle,
    built,
    declared,
    hit,
    ignored,
    kill_reward,
    plain_target_number,
    play,
    resolve_hit,
    run_scenario,
    spend,
    tokens,
)
from .test_card_catalogue_factions import _yard

BUFFS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}
ITEMS = "equipment_items"
GUN = card_from_dict(CARDS["gun"])  # Ranged 1-6, 2 damage: a ranged attack (R-ADD-90)
BLADE = card_from_dict(CARDS["blade"])  # Melee, 3 damage


def _blocks_added(d: AttackDeclared) -> int:
    """Automatic blocks beyond the rules' own defence modifier (R-DMG-3, R-ADD-64)."""
    return d.defence_modifier - int(d.to_hit["defense_modifier"])


def _pass(b: Battle, seat: int, **extra: Any) -> list[Event]:
    """The seat passes, drawing back to 6 (its deck holds fillers and test cards)."""
    missing = 6 - len(b.seat(seat).hand)
    return b.do({"type": "pass", "seat": seat, "drawn": [FILLER] * missing, **extra})


def _enemy_attack(
    b: Battle, card: str, defence_faces: int, *, roll: tuple[int, int] = (3, 2)
) -> list[Event]:
    """Seat 1 attacks seat 0 with its `card`, a plain hit (5 against 5), and BLOOD
    defence faces (no blocks), one per point of damage."""
    return b.do({"type": "attack", "seat": 1, "card": f"{card}#1", "target": 0,
                 "component": "chassis", "faces": [*roll, *[4] * defence_faces]})  # fmt: skip


def _taken(events: list[Event]) -> int:
    """The damage seat 0 is asked to discard (0: no prompt)."""
    prompts = [p for p in of_type(events, PromptOpened) if p.kind == "take_damage"]
    return prompts[0].amount if prompts else 0


# --- R-ADD-90: enhancements of the next (ranged) attack --------------------------------------


def _ranged_enhancement(cid: str, damage: int, blocks: int) -> Battle:
    """Played, the enhancement waits; a Melee attack leaves it; the next ranged attack
    spends it (+`damage`, `blocks` cancelled) and the card is in the discard pile."""
    card = built(ITEMS, cid)
    b = battle(card, hand=("blade", "gun"))
    events = play(b, cid)
    assert one(events, AttackEnhanced).attacks == "ranged"
    assert f"{cid}#1" in b.seat(0).discard  # "Discard after use": played and resolved
    melee = declared(b, BLADE)
    assert (hit(melee), ignored(melee)) == (3, 0)  # a Melee card's attack is not ranged
    assert len(b.seat(0).enhancements) == 1
    events = attack(b, GUN)
    ranged = one(events, AttackDeclared)
    assert (hit(ranged), ignored(ranged)) == (2 + damage, blocks)
    assert one(events, EnhancementsSpent).indices == (0,)
    assert b.seat(0).enhancements == ()
    return b


def _scope_adjust() -> None:
    """ "Your next ranged attack has +2 range and +1 damage.": the Gun (range 1-6) reaches
    8 hexes for that attack, its band still long (+2, R-RNG-1)."""
    cid = "focusing-lens-scope-adjust"
    card = built(ITEMS, cid)
    far = {"type": "attack", "seat": 0, "card": "gun#1", "target": 1}
    plain = battle(card, hand=("gun",), gap=8)
    assert plain.refuse(far).rule == "R-RNG-2"
    b = battle(card, hand=("gun",), gap=8)
    play(b, cid)
    assert any(a.body.get("card") == "gun#1" for a in legal_actions(b.state))
    d = declared(b, GUN)
    assert (hit(d), d.to_hit["distance"]) == (3, 8)
    assert any(m["key"] == "range" and m["value"] == 2 for m in d.to_hit["modifiers"])
    assert b.seat(0).enhancements == ()


def _hardened_core() -> None:
    """ "Enhance your next ranged attack: Armor-Piercing. Discard after use." (R-ADD-60)"""
    _ranged_enhancement("armor-piercing-rounds-hardened-core", 0, MAX_DAMAGE)


def _ap_shot() -> None:
    """ "Enhance your next ranged attack: +1 damage, Armor-Piercing. Discard after use.\""""
    _ranged_enhancement("armor-piercing-rounds-ap-shot", 1, MAX_DAMAGE)


def _perfect_aim() -> None:
    """ "Your next ranged attack +3 damage, ignore cover, auto-hits." (R-ADD-91: a roll
    below the target number is a plain hit; two JAMs are still a catastrophic failure)"""
    card = built(ITEMS, "focusing-lens-perfect-aim")
    b = battle(card, hand=("gun",), cover=True, gap=2)
    play(b, "focusing-lens-perfect-aim")
    base = plain_target_number(b, GUN)  # heavy cover +2 in it
    events = attack(b, GUN, faces=[1, 1, *[4] * 5])
    d = one(events, AttackDeclared)
    assert (hit(d), d.target_number) == (5, base - 2)
    rolled = one(events, AttackRolled)
    assert (rolled.total, rolled.grade, rolled.damage) == (2, "hit", 5) and d.target_number > 2
    assert one(events, DefenceRolled).final_damage == 5
    jammed = battle(card, hand=("gun",), gap=2)
    play(jammed, "focusing-lens-perfect-aim")
    assert one(attack(jammed, GUN, faces=[6, 6]), AttackRolled).grade == "catastrophic"


def _lock_on() -> None:
    """ "Your next ranged attack ignores cover and range penalties": at 5 hexes (medium,
    +1, R-RNG-1) in heavy cover (+2) the target number is the base 5."""
    card = built(ITEMS, "targeting-sigil-lock-on")
    b = battle(card, hand=("gun",), cover=True, gap=5)
    assert plain_target_number(b, GUN) == 8
    play(b, "targeting-sigil-lock-on")
    d = declared(b, GUN)
    assert (d.target_number, hit(d)) == (5, 2)


def _void_bolts(cid: str, damage: int) -> None:
    """Ignore Defense buffs (R-ADD-92): the target's +2 card Defense is not counted; the
    own pilot gains 1 Taint as the card is played (R-ADD-66)."""
    card = built(ITEMS, cid)
    b = battle(card, hand=("gun",))
    play(b, cid)
    assert b.seat(0).taint == 1
    arrange(b, DefenceRaised(1, 2, "arranged"))
    d = declared(b, GUN)
    assert (hit(d), _blocks_added(d)) == (2 + damage, 0)
    plain = battle(card, hand=("gun",))
    arrange(plain, DefenceRaised(1, 2, "arranged"))
    assert _blocks_added(declared(plain, GUN)) == 2  # without the card the Defense counts


def _void_shot() -> None:
    """ "Enhance your next ranged attack: +2 damage, ignore Defense buffs, gain 1 Taint.
    Discard after use.\""""
    _void_bolts("void-tipped-bolts-void-shot", 2)


def _shadow_tip() -> None:
    """ "Enhance your next ranged attack: Ignore Defense buffs, gain 1 Taint. Discard after
    use.\""""
    _void_bolts("void-tipped-bolts-shadow-tip", 0)


def _martyrdoms_certainty() -> None:
    """ "Discard 1 card from deck. Your next attack cannot miss (auto-hit) but deals -2
    damage.\""""
    card = built("church", "martyrdoms-certainty")
    b = battle(card, hand=("blade",))
    deck = len(b.seat(0).deck)
    events = b.do({"type": "play_card", "seat": 0, "card": "martyrdoms-certainty#1",
                   "drawn": [FILLER]})  # fmt: skip
    assert len(one(events, CardsDiscarded).from_deck) == 1 and len(b.seat(0).deck) == deck - 1
    events = attack(b, BLADE, faces=[1, 1, 4])
    assert hit(one(events, AttackDeclared)) == 1
    assert one(events, AttackRolled).grade == "hit"  # 2 against 5: it cannot miss


def _aim_assist() -> None:
    """ "Next attack this turn +2 damage": spent by this turn's next attack, or gone at
    the turn's end (R-ADD-90)."""
    card = built(ITEMS, "targeting-sigil-aim-assist")
    b = battle(card, hand=("blade",))
    play(b, "targeting-sigil-aim-assist")
    assert hit(declared(b, BLADE)) == 5
    later = battle(card, hand=("blade",))
    play(later, "targeting-sigil-aim-assist")
    _pass(later, 0)
    assert later.seat(0).enhancements == ()
    _pass(later, 1, faces=[6, 1])  # round 2: seat 0 first
    assert hit(declared(later, BLADE)) == 3


BUFFS_SCENARIOS.update({
    (ITEMS, "armor-piercing-rounds-hardened-core"): _hardened_core,
    (ITEMS, "focusing-lens-scope-adjust"): _scope_adjust,
    (ITEMS, "armor-piercing-rounds-ap-shot"): _ap_shot,
    (ITEMS, "focusing-lens-perfect-aim"): _perfect_aim,
    (ITEMS, "targeting-sigil-lock-on"): _lock_on,
    (ITEMS, "void-tipped-bolts-void-shot"): _void_shot,
    (ITEMS, "void-tipped-bolts-shadow-tip"): _shadow_tip,
    ("church", "martyrdoms-certainty"): _martyrdoms_certainty,
    (ITEMS, "targeting-sigil-aim-assist"): _aim_assist,
})  # fmt: skip


# --- R-ADD-91, R-ADD-92: the card's own attack ---------------------------------------------------


def _shimmer_strike() -> None:
    """ "Deal 3 damage. If you have 3+ Bargain tokens, enemy cannot use Reactive cards
    against this attack (too confused by illusions).\""""
    card = built("wyrd-conclave", "shimmer-strike")
    for held, window in ((2, True), (3, False)):
        b = battle(card, opponent=("ward",))
        tokens(b, "bargain", held)
        events = attack(b, card, faces=[3, 2, *([] if window else [4] * 3)])
        d = one(events, AttackDeclared)
        assert (hit(d), d.reactive_allowed) == (3, window)
        assert [p.kind for p in b.state.prompts] == (["reactive"] if window else ["take_damage"])


def _phase_cut() -> None:
    """ "Deal 4 damage. Ignore Defense buffs (attack phases through armor). Gain 1 Bargain
    token if this kills target (bargain fulfilled).\""""
    card = built("wyrd-conclave", "phase-cut")
    b = battle(card)
    arrange(b, DefenceRaised(1, 3, "arranged"))
    d = declared(b, card)
    assert (hit(d), _blocks_added(d)) == (4, 0)

    def check(b: Battle, kill: bool) -> None:
        assert b.seat(0).tokens_of("bargain") == (1 if kill else 0)

    kill_reward("wyrd-conclave", "phase-cut", 4, check)


def _hostile_takeover() -> None:
    """ "Deal 7 damage. OR: Spend 4 Credits to deal 10 damage, ignore Defense, and cannot be
    blocked." (R-ADD-60; "cannot be blocked": no reactive card, R-ADD-91)"""
    spend(ITEMS, "hostile-takeover", 7, "credit", 4, 3)
    card = built(ITEMS, "hostile-takeover")
    plain = declared(battle(card), card)
    assert (ignored(plain), plain.reactive_allowed) == (0, True)
    b = battle(card)
    tokens(b, "credit", 4)
    d = declared(b, card, spend=True)
    assert (hit(d), ignored(d), d.reactive_allowed) == (10, MAX_DAMAGE, False)


BUFFS_SCENARIOS.update({
    ("wyrd-conclave", "shimmer-strike"): _shimmer_strike,
    ("wyrd-conclave", "phase-cut"): _phase_cut,
    (ITEMS, "hostile-takeover"): _hostile_takeover,
})  # fmt: skip


# --- R-ADD-93, R-ADD-94: wards ---------------------------------------------------------------------


def _warded(section: str, cid: str, opponent: tuple[str, ...] = (), **extra: Any) -> Battle:
    """Seat 0 plays the card and passes: seat 1's turn, seat 0 warded."""
    b = battle(built(section, cid), opponent=opponent)
    events = play(b, cid, **extra)
    assert of_type(events, WardRaised)
    _pass(b, 0)
    assert b.state.active == 1
    return b


def _forge_blessing(section: str) -> None:
    """ "Until end of round, reduce all incoming damage by 2. Gain 1 Forge token when
    activated." (R-ADD-94: after the defence dice)"""
    b = _warded(section, "forge-blessing", opponent=("blade",))
    assert b.seat(0).tokens_of("forge") == 1
    events = _enemy_attack(b, "test-maul", 2)
    assert one(events, DefenceRolled).final_damage == 2
    used = one(events, WardUsed)
    assert (used.source, used.before, used.after, _taken(events)) == ("forge-blessing", 2, 0, 0)
    events = _enemy_attack(b, "blade", 3)  # every attack this round
    assert _taken(events) == 1
    b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": 1, "drawn": [FILLER]})
    _pass(b, 1, faces=[6, 1])  # the round ends
    assert b.seat(0).wards == ()


def _golden_parachute_items() -> None:
    """ "Until end of round, reduce all incoming damage by 2. OR: Spend 3 Credits to reduce
    all incoming damage by 4 instead.\""""
    for spending, taken in ((False, 1), (True, 0)):
        b = battle(built(ITEMS, "golden-parachute"), opponent=("blade",))
        tokens(b, "credit", 3)
        play(b, "golden-parachute", **({"spend": True} if spending else {}))
        assert b.seat(0).tokens_of("credit") == (0 if spending else 3)
        _pass(b, 0)
        assert _taken(_enemy_attack(b, "blade", 3)) == taken


def _golden_parachute() -> None:
    """ "Until end of round, the first time you take 5+ damage, reduce it to 3. Costs 3
    Credits to activate.\""""
    card = built("equipment", "golden-parachute")
    poor = battle(card)
    tokens(poor, "credit", 2)
    err = poor.refuse({"type": "play_card", "seat": 0, "card": "golden-parachute#1"})
    assert (err.code, err.rule) == ("spend_required", "R-ADD-61")
    b = battle(card, opponent=("ruin",))
    tokens(b, "credit", 3)
    play(b, "golden-parachute", spend=True)
    assert b.seat(0).tokens_of("credit") == 0
    _pass(b, 0)
    events = _enemy_attack(b, "test-maul", 2)  # 2 damage: not 5+, the ward waits
    assert (_taken(events), of_type(events, WardUsed)) == (2, [])
    b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": 2, "drawn": [FILLER] * 2})
    events = _enemy_attack(b, "ruin", 24)
    assert _taken(events) == 3 and b.seat(0).wards == ()  # the first time only


def _adaptive_molt(section: str) -> None:
    """ "Until end of round, negate the next attack that would deal 4+ damage. Costs 2
    Biomass to activate.\""""
    card = built(section, "adaptive-molt")
    err = battle(card).refuse({"type": "play_card", "seat": 0, "card": "adaptive-molt#1"})
    assert err.code == "spend_required"
    b = battle(card, opponent=("ruin",))
    tokens(b, "biomass", 2)
    play(b, "adaptive-molt", spend=True)
    _pass(b, 0)
    events = _enemy_attack(b, "test-maul", 2)
    assert _taken(events) == 2 and len(b.seat(0).wards) == 1
    b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": 2, "drawn": [FILLER] * 2})
    events = _enemy_attack(b, "ruin", 24)
    assert (_taken(events), one(events, WardUsed).after, b.seat(0).wards) == (0, 0, ())


def _distortion_field(section: str) -> None:
    """ "Until end of round, attacks against you have -1 to hit (reality distortion). Apply 2
    Taint to yourself." (+1 on their target number, R-HIT-1)"""
    b = _warded(section, "distortion-field")
    assert b.seat(0).taint == 2
    d = one(_enemy_attack(b, "test-maul", 0, roll=(1, 1)), AttackDeclared)
    assert d.target_number == 6
    assert any(m["key"] == "ward" and m["rule"] == "R-ADD-93" for m in d.to_hit["modifiers"])
    _pass(b, 1, faces=[6, 1])
    assert b.seat(0).wards == ()


def _death_shroud(section: str) -> None:
    """ "Until end of your next turn, the first time you would take damage, reduce it by 2.
    When this blocks damage, recover 1 card from discard pile.\""""
    b = _warded(section, "death-shroud")
    hand = len(b.seat(0).hand)
    events = _enemy_attack(b, "test-maul", 2)
    assert (one(events, WardUsed).after, _taken(events)) == (0, 0)
    assert one(events, CardsRecovered).cards == ("death-shroud#1",)
    assert len(b.seat(0).hand) == hand + 1 and b.seat(0).wards == ()
    # Unused, it lasts through the owner's next turn and lapses at its end.
    b = _warded(section, "death-shroud")
    _pass(b, 1, faces=[6, 1])
    assert b.state.active == 0 and len(b.seat(0).wards) == 1
    _pass(b, 0)
    assert b.seat(0).wards == ()


def _tower_shield_advance() -> None:
    """ "Move 2 hexes, +1 Defense this turn": the Defense lapses as the turn ends."""
    b = battle(built(ITEMS, "tower-shield-advance"))
    play(b, "tower-shield-advance", path=[[1, 2], [1, 1]])
    assert (b.seat(0).at.q, b.seat(0).at.r) == (1, 1)
    assert [w.defence for w in b.seat(0).wards] == [1]
    _pass(b, 0)
    assert b.seat(0).wards == ()
    assert _blocks_added(one(_enemy_attack(b, "test-maul", 0, roll=(1, 1)), AttackDeclared)) == 0


def _deathless_advance() -> None:
    """ "Move up to 3 hexes. Until end of turn, you cannot take more than 5 damage from any
    single attack (damage cap)." The cap is shown on an attack by refolding the card's own
    ward in the enemy's turn, since no enemy attacks in the owner's turn."""
    b = battle(built("ossuarium", "deathless-advance"), opponent=("ruin",))
    events = play(b, "deathless-advance", path=[[1, 2], [1, 3], [0, 4]])
    raised = one(events, WardRaised)
    assert (raised.cap, raised.against, raised.until) == (5, "attacks", "end_of_turn")
    assert (b.seat(0).at.q, b.seat(0).at.r) == (0, 4)
    _pass(b, 0)
    assert b.seat(0).wards == ()
    arrange(b, raised)
    # Both moved (R-HIT-2): 7 to hit, a strong hit of 25 damage, capped at 5.
    b.do({"type": "move", "seat": 1, "path": [[0, 3]]})
    assert _taken(_enemy_attack(b, "ruin", 25, roll=(4, 3))) == 5


def _fortify() -> None:
    """ "+2 Defense, immobile, lasts 2 turns.": this turn and the owner's next, to its end
    (R-ADD-93): two blocks against each attack, no move action meanwhile."""
    b = _warded("equipment", "fortify", opponent=("blade",))
    d = one(_enemy_attack(b, "test-maul", 0, roll=(1, 1)), AttackDeclared)
    assert _blocks_added(d) == 2
    _pass(b, 1, faces=[6, 1])  # round 2: the owner's next turn
    err = b.refuse({"type": "move", "seat": 0, "path": [[0, 4]]})
    assert (err.code, err.rule) == ("immobilised", "R-ADD-93")
    _pass(b, 0)
    assert b.seat(0).wards == ()
    d = one(_enemy_attack(b, "blade", 0, roll=(1, 1)), AttackDeclared)
    assert _blocks_added(d) == 0


def _glacial_tome_ice_armor() -> None:
    """ "+2 Defense until next turn, first attack against you deals -2 damage" (R-ADD-64;
    the −2 before the defence dice, R-DMG-1, R-ADD-93)"""
    b = _warded(ITEMS, "glacial-tome-ice-armor", opponent=("blade",))
    first = one(_enemy_attack(b, "blade", 0, roll=(1, 1)), AttackDeclared)
    assert (hit(first), _blocks_added(first)) == (1, 2)
    second = one(_enemy_attack(b, "test-maul", 0, roll=(1, 1)), AttackDeclared)
    assert (hit(second), _blocks_added(second)) == (2, 2)


def _camouflage() -> None:
    """ "+2 Defense vs ranged, 1 turn." (until the owner's next turn, as R-ADD-64)"""
    b = _warded("equipment", "camouflage", opponent=("gun",))
    ranged = one(_enemy_attack(b, "gun", 0, roll=(1, 1)), AttackDeclared)
    melee = one(_enemy_attack(b, "test-maul", 0, roll=(1, 1)), AttackDeclared)
    assert (_blocks_added(ranged), _blocks_added(melee)) == (2, 0)
    _pass(b, 1, faces=[6, 1])
    assert b.seat(0).wards == ()


def _spear_brace() -> None:
    """ "+3 Defense vs next melee attack": a ranged attack leaves it, the first Melee attack
    spends it."""
    b = _warded(ITEMS, "spear-brace", opponent=("gun", "blade"))
    blocks = [
        _blocks_added(one(_enemy_attack(b, card, 0, roll=(1, 1)), AttackDeclared))
        for card in ("gun", "test-maul", "blade")
    ]
    assert blocks == [0, 3, 0]


BUFFS_SCENARIOS.update({
    ("equipment", "forge-blessing"): lambda: _forge_blessing("equipment"),
    (ITEMS, "forge-blessing"): lambda: _forge_blessing(ITEMS),
    (ITEMS, "golden-parachute"): _golden_parachute_items,
    ("equipment", "golden-parachute"): _golden_parachute,
    ("equipment", "adaptive-molt"): lambda: _adaptive_molt("equipment"),
    (ITEMS, "adaptive-molt"): lambda: _adaptive_molt(ITEMS),
    ("equipment", "distortion-field"): lambda: _distortion_field("equipment"),
    (ITEMS, "distortion-field"): lambda: _distortion_field(ITEMS),
    ("equipment", "death-shroud"): lambda: _death_shroud("equipment"),
    (ITEMS, "death-shroud"): lambda: _death_shroud(ITEMS),
    (ITEMS, "tower-shield-advance"): _tower_shield_advance,
    ("ossuarium", "deathless-advance"): _deathless_advance,
    (ITEMS, "glacial-tome-ice-armor"): _glacial_tome_ice_armor,
    ("equipment", "fortify"): _fortify,
    ("equipment", "camouflage"): _camouflage,
    (ITEMS, "spear-brace"): _spear_brace,
})  # fmt: skip


# --- R-ADD-95 .. R-ADD-97 ----------------------------------------------------------------------------


def _divine_judgment() -> None:
    """ "Deal 8 damage, ignore 1 Defense. On Miss: Recover 2 SP and gain 'Judgment Delayed'
    (+3 damage to next attack)." (a catastrophic failure is not a miss, R-ADD-95)"""
    card = built("church", "divine-judgment")
    b = battle(card, hand=("blade",))
    d = declared(b, card)  # 2 against 5: a miss
    assert (hit(d), ignored(d)) == (8, 1)
    assert (b.seat(0).sp_spent, b.seat(0).buff_damage) == (4 - 2, 3)
    assert hit(declared(b, BLADE)) == 6  # the next attack spends it
    jammed = battle(card)
    attack(jammed, card, faces=[6, 6])
    assert (jammed.seat(0).sp_spent, jammed.seat(0).buff_damage) == (4, 0)
    struck = battle(card)
    attack(struck, card, faces=[3, 2, *[1] * 8])  # a hit, every die a SHIELD
    assert (struck.seat(0).sp_spent, struck.seat(0).buff_damage) == (4, 0)


def _adrenaline_surge() -> None:
    """ "Gain +3 SP this turn, draw 2 cards, gain 2 Heat. Remove this card from game after
    use." (R-ADD-95, R-ADD-70)"""
    cid = "combat-stimulants-adrenaline-surge"
    b = battle(built(ITEMS, cid))
    hand = len(b.seat(0).hand)
    play(b, cid, drawn=[FILLER, FILLER])
    c = b.seat(0)
    assert (c.sp_left, c.heat, len(c.hand)) == (5 - 1 + 3, 2, hand - 1 + 2)
    assert f"{cid}#1" in c.removed and f"{cid}#1" not in c.discard
    assert c.overspend_room == 2 * 5 - 1 + 3
    _pass(b, 0)  # 7 cards in hand: discard down to 6 (R-TRN-7)
    b.do({"type": "discard_down", "seat": 0, "cards": [FILLER]})
    _pass(b, 1, faces=[6, 1])
    assert b.seat(0).sp_left == 5  # this turn only


def _profit_margin() -> None:
    """ "Deal 6 damage. Gain 1 Credit if this deals damage." (after the dice and the
    target's wards, R-ADD-95)"""
    card = built(ITEMS, "profit-margin")
    b = battle(card)
    resolve_hit(b, card, 6, kill=False)
    assert b.seat(0).tokens_of("credit") == 1
    blocked = battle(card)
    attack(blocked, card, faces=[3, 2, *[1] * 6])  # every die a SHIELD: no damage
    assert blocked.seat(0).tokens_of("credit") == 0
    warded = battle(card)
    arrange(warded, WardRaised(1, "arranged", "end_of_round", "all", 0, 0, 0, 6, None, 0, 0, 0))
    attack(warded, card, faces=[3, 2, *[4] * 6])
    assert warded.seat(0).tokens_of("credit") == 0
    missed = battle(card)
    attack(missed, card)
    assert missed.seat(0).tokens_of("credit") == 0


def _answered(b: Battle, cid: str, weapon: str, damage: int, faces: int) -> list[Event]:
    """Seat 1 hits seat 0 with `weapon`; seat 0 answers with `cid`, `faces` a die BLOOD
    (no block) and the rest SHIELD."""
    b.do({"type": "attack", "seat": 1, "card": f"{weapon}#1", "target": 0,
          "component": "chassis", "faces": [3, 2]})  # fmt: skip
    dice = [4] * faces + [1] * (damage - faces)
    return b.do({"type": "play_reactive", "seat": 0, "card": f"{cid}#1", "faces": dice})


def _bone_spike_counter(section: str) -> None:
    """ "Play when attacked in melee. Deal 2 damage to attacker after attack resolves.
    Recover 1 card from discard if you took damage." (R-ADD-58, R-ADD-97)"""
    card = built(section, "bone-spike-counter")
    b = battle(card, first=1)
    _answered(b, "bone-spike-counter", "test-maul", 2, 2)
    events = b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": 2,
                   "drawn": [FILLER] * 2})  # fmt: skip
    assert one(events, CardsRecovered).seat == 0
    assert [(p.seat, p.amount) for p in of_type(events, PromptOpened)] == [(1, 2)]
    unhurt = battle(card, first=1)
    events = _answered(unhurt, "bone-spike-counter", "test-maul", 2, 0)
    assert not of_type(events, CardsRecovered)
    assert [(p.seat, p.amount) for p in of_type(events, PromptOpened)] == [(1, 2)]


def _necrotic_shield(section: str) -> None:
    """ "Play when targeted by attack. Reduce damage by 3 (minimum 1). If you block 3+
    damage, recover 1 card from discard pile." (R-ADD-58, R-ADD-97)"""
    card = built(section, "necrotic-shield")
    for weapon, damage, recovered in (("blade", 3, False), ("ruin", 24, True)):
        b = battle(card, first=1, opponent=(weapon,))
        arrange(b, CardsDiscarded(0, (), (b.seat(0).deck[0],), "arranged", "R-ADD-62"))
        events = _answered(b, "necrotic-shield", weapon, damage, damage)
        rolled = one(events, DefenceRolled)
        assert rolled.final_damage == (1 if damage == 3 else 21)
        assert bool(of_type(events, CardsRecovered)) == recovered, weapon


def _duelists_stance() -> None:
    """ "Until end of turn, your melee attacks deal +2 damage but you take +1 damage from
    all sources." (R-ADD-96; the +1 shown by refolding the card's ward in the enemy's
    turn, since no enemy attacks in the owner's turn)"""
    card = built("crucible", "duelists-stance")
    b = battle(card, hand=("blade", "gun"))
    events = play(b, "duelists-stance")
    assert hit(declared(b, BLADE)) == 5
    assert hit(declared(b, GUN)) == 2  # not a melee attack
    assert len(b.seat(0).enhancements) == 1  # every melee attack this turn
    _pass(b, 0)
    assert (b.seat(0).enhancements, b.seat(0).wards) == ((), ())
    arrange(b, one(events, WardRaised))
    assert _taken(_enemy_attack(b, "test-maul", 2)) == 3


def _divine_guidance() -> None:
    """ "Until end of turn, all your attacks gain +1 accuracy (reduce target number by 1).
    Your next attack this turn cannot miss (5+ becomes 4+, etc)." (R-ADD-96)"""
    card = built("church", "divine-guidance")
    b = battle(card, hand=("blade", "gun"))
    play(b, "divine-guidance")
    events = attack(b, BLADE, faces=[1, 1, 4, 4, 4])
    first = one(events, AttackDeclared)
    assert first.target_number == plain_target_number(b, BLADE) - 1
    assert one(events, AttackRolled).grade == "hit"  # 2 against 4
    b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 3, "drawn": [FILLER] * 3})
    events = attack(b, GUN, faces=[1, 1])
    assert one(events, AttackDeclared).target_number == plain_target_number(b, GUN) - 1
    assert one(events, AttackRolled).grade == "miss"  # the cannot-miss was spent


BUFFS_SCENARIOS.update({
    ("church", "divine-judgment"): _divine_judgment,
    (ITEMS, "combat-stimulants-adrenaline-surge"): _adrenaline_surge,
    (ITEMS, "profit-margin"): _profit_margin,
    ("equipment", "bone-spike-counter"): lambda: _bone_spike_counter("equipment"),
    (ITEMS, "bone-spike-counter"): lambda: _bone_spike_counter(ITEMS),
    ("equipment", "necrotic-shield"): lambda: _necrotic_shield("equipment"),
    (ITEMS, "necrotic-shield"): lambda: _necrotic_shield(ITEMS),
    ("crucible", "duelists-stance"): _duelists_stance,
    ("church", "divine-guidance"): _divine_guidance,
})  # fmt: skip


# --- R-ADD-98 -------------------------------------------------------------------------------------


def _barkskin() -> None:
    """ "Reactive: +2 Defense vs next attack.": two automatic blocks against the attack it
    answers; a PIERCE face voids it (R-DMG-4)."""
    card = built("equipment", "barkskin")
    for faces, blocks, final in (([4, 4], 2, 0), ([5, 4], 0, 2)):
        b = battle(card, first=1)
        b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
              "component": "chassis", "faces": [3, 2]})  # fmt: skip
        events = b.do({"type": "play_reactive", "seat": 0, "card": "barkskin#1", "faces": faces})
        rolled = one(events, DefenceRolled)
        assert (rolled.blocks, rolled.final_damage, rolled.pierce) == (blocks, final, faces[0] == 5)
        assert b.seat(0).defence_bonus == 0  # for that attack only


def _point_blank_execution() -> None:
    """ "Deal 6 damage. This attack cannot miss. If attacking from rear arc (hex 4), deal 8
    damage instead." (the rear side's own +3 damage and -2 to hit apply too, R-ARC-2)"""
    card = built("church", "point-blank-execution")
    b = battle(card)
    events = attack(b, card, faces=[1, 1, *[4] * 6])
    assert hit(one(events, AttackDeclared)) == 6
    assert one(events, AttackRolled).grade == "hit"  # 2 against 5
    rear = battle(card)
    arrange(rear, CasketRotated(1, 1, 0, False))  # seat 1 turns its back on seat 0
    d = one(attack(rear, card, faces=[1, 1, *[4] * 11]), AttackDeclared)
    assert (d.side, hit(d)) == (4, 8 + 3)


def _quick_reload() -> None:
    """ "Draw 1 card, your next ranged attack costs -1 SP." (R-ADD-99: never below 0; the
    legal actions ask for the lower cost too)"""
    cid = "ammunition-bandolier-quick-reload"
    card = built(ITEMS, cid)
    b = battle(card, hand=("blade", "gun"))
    hand = len(b.seat(0).hand)
    play(b, cid, drawn=[FILLER])
    assert len(b.seat(0).hand) == hand - 1 + 1
    assert one(attack(b, BLADE), CardPlayed).cost == 2  # a Melee attack pays in full
    # 2 SP spent of a maximum cut to 1: twice the maximum reached, 1 SP more cannot be paid.
    arrange(b, SpDrained(0, 4, "arranged"))
    assert any(
        a.body.get("card") == "gun#1" and "pay" not in a.body for a in legal_actions(b.state)
    )
    assert one(attack(b, GUN), CardPlayed).cost == 0
    plain = battle(card, hand=("gun",))
    arrange(plain, SpDrained(0, 5, "arranged"))
    assert plain.refuse({"type": "attack", "seat": 0, "card": "gun#1", "target": 1}).code == (
        "sp_exceeded"
    )


def _pack_fury() -> None:
    """ "Until end of round, gain +1 damage to all attacks for each enemy within 6 hexes
    (max +3 damage). Outnumbered, never outfought. Desperate strength." (counted as it is
    played, enemies only, R-ADD-75, R-ADD-96)"""
    card = built("crucible", "pack-fury")
    two = [((0, -2), "prey"), ((0, -4), "prey"), ((1, 3), "pack")]  # 5 and 7 hexes; an ally
    four = [((0, -2), "prey"), ((1, -2), "prey"), ((-1, -1), "prey")]  # all 5 hexes away
    for others, bonus in ((two, 2), (four, 3)):
        b = _yard(card, others, "blade", "gun")
        play(b, "pack-fury")
        assert (hit(declared(b, BLADE)), hit(declared(b, GUN))) == (3 + bonus, 2 + bonus)
        _pass(b, 0)
        assert b.seat(0).enhancements == ()


BUFFS_SCENARIOS.update({
    ("crucible", "pack-fury"): _pack_fury,
    (ITEMS, "ammunition-bandolier-quick-reload"): _quick_reload,
    ("equipment", "barkskin"): _barkskin,
    ("church", "point-blank-execution"): _point_blank_execution,
})  # fmt: skip


@pytest.mark.parametrize("key", sorted(BUFFS_SCENARIOS), ids="/".join)
def test_buffs_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, BUFFS_SCENARIOS[key])


# --- the vocabulary's own checks ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ({"kind": "enhance_next_attack", "attacks": "thrown", "damage": 1}, "e.attacks"),
        ({"kind": "enhance_next_attack", "damage": 999}, "e.damage"),
        ({"kind": "enhance_next_attack", "cannot_miss": 1}, "e.cannot_miss"),
        ({"kind": "enhance_next_attack", "this_turn": True}, "e"),
        ({"kind": "attack_rules", "no_reactive": "yes"}, "e.no_reactive"),
        ({"kind": "attack_rules"}, "e"),
        ({"kind": "attack_rules", "cannot_miss": True, "condition": {"test": "x"}},
         "e.condition.test"),
        ({"kind": "ward", "until": "forever", "reduce": 1}, "e.until"),
        ({"kind": "ward", "until": "next_turn", "against": "fire", "reduce": 1}, "e.against"),
        ({"kind": "ward", "until": "next_turn", "to_hit": -1}, "e.to_hit"),
        ({"kind": "ward", "until": "next_turn", "damage": 2}, "e.damage"),
        ({"kind": "ward", "until": "next_turn", "cap": -1}, "e.cap"),
        ({"kind": "ward", "until": "next_turn"}, "e"),
        ({"kind": "ward", "until": "next_turn", "against": "all", "defence": 1}, "e.against"),
        ({"kind": "ward", "until": "used", "defence": 1}, "e.uses"),
        ({"kind": "ward", "until": "next_turn", "reduce": 1, "at_least": 4}, "e.at_least"),
        ({"kind": "ward", "until": "next_turn", "defence": 1, "recover": 1}, "e.recover"),
        ({"kind": "ward", "until": "next_turn", "defence": 1, "reduce": 1, "uses": 1}, "e.uses"),
        ({"kind": "enhance_next_attack", "damage": 1, "every": True}, "e.every"),
        ({"kind": "gain_sp", "amount": 0}, "e.amount"),
        ({"kind": "ward", "until": "next_turn", "immobile": "yes"}, "e.immobile"),
        ({"kind": "enhance_next_attack", "attacks": "any", "reach": 2}, "e.reach"),
        ({"kind": "after_defence", "test": "blocked", "then": []}, "e.test"),
        ({"kind": "after_defence", "test": "prevented_at_least", "then": [{"kind": "recover", "n": 1}]},
         "e.n"),
        ({"kind": "after_defence", "test": "took_damage", "then": [{"kind": "counter", "damage": 1}]},
         "e.then[0]"),
        ({"kind": "after_attack", "on": "missed", "then": [{"kind": "gain_sp", "amount": 1}]},
         "e.on"),
    ],
)  # fmt: skip
def test_a_bad_field_of_the_new_kinds_is_named(doc: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        effect_from_dict(doc, "e")
    assert err.value.field == field


def test_after_defence_is_for_reactive_cards_only() -> None:
    effect = effect_from_dict(
        {"kind": "after_defence", "test": "took_damage", "then": [{"kind": "recover", "n": 1}]}
    )
    with pytest.raises(InvalidInput) as err:
        CardDef(id="x", name="X", kind="other", sp_cost=0, automated=True, effects=(effect,))
    assert (err.value.field, err.value.rule) == ("card.effects[0]", "R-REA-1")


def test_an_attack_rule_needs_the_cards_own_attack() -> None:
    with pytest.raises(InvalidInput) as err:
        CardDef(id="x", name="X", kind="other", sp_cost=0, automated=True,
                effects=(AttackRulesEffect(cannot_miss=True),))  # fmt: skip
    assert (err.value.field, err.value.rule) == ("card.effects[0]", "R-ADD-59")


def test_the_new_kinds_round_trip_and_say_only_what_they_change() -> None:
    effects = (
        EnhanceNextAttackEffect("ranged", ignore_cover=True, this_turn=True),
        AttackRulesEffect(ignore_defence_buffs=True),
        WardEffect("end_of_turn", "attacks", cap=0, at_least=4, uses=1),
    )
    for e in effects:
        assert effect_from_dict(e.as_dict()) == e
    assert WardEffect("next_turn", "melee", defence=3, uses=1).as_dict() == {
        "kind": "ward", "until": "next_turn", "against": "melee", "defence": 3, "uses": 1,
    }  # fmt: skip


def test_wards_and_enhancements_survive_a_snapshot() -> None:
    """Snapshots (and reverts) carry them (battles/engine/battle/snapshot.py)."""
    b = _warded("equipment", "death-shroud")
    arrange(b, AttackEnhanced(1, "x", "ranged", 1, 0, MAX_DAMAGE, True, False, True, False, True))
    again = state_from_dict(state_to_dict(b.state))
    assert again == b.state and again.seat(0).wards and again.seat(1).enhancements


def test_wards_stack_in_order_and_the_spent_one_leaves() -> None:
    """R-ADD-94: a reduction, then a cap from a threshold spent once; the later ward's
    position moves down when the earlier leaves."""
    b = battle(built("equipment", "death-shroud"), first=1, opponent=("ruin",))
    arrange(
        b,
        WardRaised(0, "one", "end_of_round", "all", 0, 0, 0, 0, 3, 5, 1, 0),
        WardRaised(0, "two", "end_of_round", "all", 0, 0, 0, 1, None, 0, 0, 0),
    )
    events = _enemy_attack(b, "ruin", 24)
    used = of_type(events, WardUsed)
    assert [(u.index, u.source, u.before, u.after) for u in used] == [
        (0, "one", 24, 3),
        (0, "two", 3, 2),
    ]
    assert _taken(events) == 2 and [w.source for w in b.seat(0).wards] == ["two"]


def test_ignoring_defence_buffs_ignores_a_reactive_cards_defence_too() -> None:
    """R-ADD-92, R-ADD-98: Phase Cut against Barkskin: its +2 Defense does not count, while
    a plain attack's target keeps it."""
    bark = built("equipment", "barkskin")
    for cid, blocks in (("phase-cut", 0), ("test-maul", 2)):
        attacker = built("wyrd-conclave", "phase-cut") if cid == "phase-cut" else None
        cards = [CARDS[FILLER], MAUL, bark.as_dict(), *([attacker.as_dict()] if attacker else [])]
        doc = {
            "name": "Bark", "board": {"name": "Bark", "shape": {"kind": "hexagon", "radius": 3},
                                      "hexes": []},
            "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"},
            "policy": "prompt", "cards": cards,
            "seats": [{**seat(0, at=(0, 1), facing=1), "deck": deck(**{cid: 1})},
                      {**seat(1, at=(0, 0), facing=4), "deck": deck(barkskin=1)}],
        }  # fmt: skip
        b = Battle.create(doc)
        b.do({"type": "keep_hand", "seat": 0, "drawn": [cid, *[FILLER] * 5]})
        b.do({"type": "keep_hand", "seat": 1, "drawn": ["barkskin", *[FILLER] * 5],
              "faces": [6, 1]})  # fmt: skip
        damage = 4 if attacker else 2
        b.do({"type": "attack", "seat": 0, "card": f"{cid}#1", "target": 1,
              "component": "chassis", "faces": [3, 2]})  # fmt: skip
        events = b.do({"type": "play_reactive", "seat": 1, "card": "barkskin#1",
                       "faces": [4] * damage})  # fmt: skip
        assert one(events, DefenceRolled).blocks == blocks, cid


def test_an_enhancement_is_a_buff_line_of_the_to_hit_answer() -> None:
    """R-ADD-90: its numbers are BuffGained from the card, spent by the attack (R-ADD-27)."""
    b = battle(built(ITEMS, "armor-piercing-rounds-ap-shot"), hand=("gun",))
    play(b, "armor-piercing-rounds-ap-shot")
    events = attack(b, GUN)
    sources = [e for e in events if type(e).__name__ == "BuffGained"]
    assert [getattr(e, "source", None) for e in sources] == ["armor-piercing-rounds-ap-shot"]
    assert b.seat(0).buff_damage == 0 and not of_type(events, TokensChanged)
