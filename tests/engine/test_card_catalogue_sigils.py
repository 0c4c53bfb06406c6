"""Scenarios for the catalogue entries of the faction cards brought to the engine for the
95 % coverage of the real database (R-ADD-280 onwards): a passive that changes what the
owner's other cards do (doubled Bleed), a reactive card on the Component Damage of the
attack it answers, an attack die rolled again and a reactive card answering an ally's
destruction, played through decide/evolve with the helpers of test_card_catalogue.py. Each scenario quotes the text it checks;
`test_every_automated_entry_has_a_scenario_below` counts them with the others.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from unittest import mock

import pytest

from battles.engine.battle.autoplay import choose
from battles.engine.battle.decide import attack_answer
from battles.engine.battle.events import (
    AttackDeclared,
    AttackEnded,
    AttackEnhanced,
    AttackRerolled,
    AttackRolled,
    BleedApplied,
    BleedTicked,
    BuffGained,
    CardsDiscarded,
    CardsDrawn,
    CardsRecovered,
    ChrysalisEmerged,
    ChrysalisEntered,
    ComponentDamaged,
    ComponentDamagePrevented,
    DamageReduced,
    DamageTaken,
    DefenceRolled,
    Event,
    HeatChanged,
    PromptOpened,
    RerollOffered,
    TokensChanged,
    TurnSkipped,
    WardRaised,
    WeaponJammed,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.cards import (
    BleedFactorEffect,
    CardDef,
    EnhanceNextAttackEffect,
    PreventComponentDamageEffect,
    RerollAttackDieEffect,
    card_from_dict,
    effect_from_dict,
)
from battles.engine.errors import InvalidInput

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, start
from .test_card_catalogue import (
    MAUL,
    arrange,
    attack,
    battle,
    built,
    hit,
    play,
    resolve_hit,
    run_scenario,
    tokens,
)

SIGILS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _toxin_mastery() -> None:
    """ "All Bleed effects you apply deal double damage. Bleed 1 becomes Bleed 2, Bleed 2
    becomes Bleed 4, etc. Elven-exclusive sigil.": in play, the owner's Bleed puts twice
    the counters (R-ADD-110: a counter is 1 damage at the start of one of the target's
    turns), the extra counters of "if target already has Bleed counters" included; a
    second copy in play doubles nothing more (R-ADD-280)."""
    card = built("elves", "toxin-mastery")
    venom = built("elves", "venom-strike")  # "Apply Bleed 3"
    barbed = built("elves", "barbed-arrow-volley")  # "Apply Bleed 3 … +1 additional"
    extra = {venom.id: venom.as_dict(), barbed.id: barbed.as_dict()}
    with mock.patch.dict(CARDS, extra):
        for sigils, bleed in ((0, 3), (1, 6), (2, 6)):
            b = battle(card, hand=(venom.id, card.id), version="2.1")
            for k in range(1, sigils + 1):  # both copies in the hand (cardCount 2)
                b.do({"type": "play_card", "seat": 0, "card": f"{card.id}#{k}"})
            assert sum(x.startswith(card.id) for x in b.seat(0).in_play) == sigils
            events = resolve_hit(b, venom, 2, kill=False)
            assert one(events, BleedApplied) == BleedApplied(1, bleed, bleed, venom.id), sigils
            hp = b.seat(1).hp
            drawn = [FILLER] * (6 - len(b.seat(0).hand))  # back to a hand of 6
            ticked = b.do({"type": "pass", "seat": 0, "drawn": drawn})
            # Each counter is one damage at the start of one turn: twice the turns, not more
            # damage a turn.
            assert one(ticked, BleedTicked) == BleedTicked(1, bleed - 1)
            prompt = one(ticked, PromptOpened)
            assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", 1)
            b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 1, "drawn": [FILLER]})
            assert (b.seat(1).hp, b.seat(1).bleed) == (hp - 1, bleed - 1)
        # Bleed 3 + 1 on a bleeding target: (3 + 1) × 2 = 8 more.
        b = battle(card, hand=(barbed.id,), version="2.1", gap=3)
        play(b, card.id)
        arrange(b, BleedApplied(1, 2, 2, "arranged"))
        events = resolve_hit(b, barbed, 3, kill=False)
        assert one(events, BleedApplied) == BleedApplied(1, 8, 10, barbed.id)


SIGILS_SCENARIOS[("elves", "toxin-mastery")] = _toxin_mastery


def _component_damage_answered(
    cid: str, played: bool, weapons: int, faces: tuple[int, int]
) -> tuple[list[Event], int]:
    """Seat 1 hits seat 0's chassis with a Melee 2 attack; seat 0 answers with `cid` (or
    no reactive card), rolls `faces` for defence (4, 4: BLOOD, no block; 5: PIERCE,
    R-DMG-2, R-DMG-4) and takes the 2 damage discarding `weapons` Primary Weapon cards
    from its hand (R-DMG-6: 1 Component Damage each). Returns the events from the answer
    on and seat 0's Heat after the answer."""
    card = built("dwarves", cid)
    b = battle(card, first=1, hand=("blade", "gun"))
    b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
          "component": "chassis", "faces": [3, 2]})  # fmt: skip
    assert [p.kind for p in b.state.prompts] == ["reactive"]
    answer = {"type": "play_reactive", "seat": 0, "card": f"{cid}#1"} if played else {
        "type": "no_reactive", "seat": 0}  # fmt: skip
    events = b.do({**answer, "faces": list(faces)})
    assert one(events, DefenceRolled).final_damage == 2
    heat = b.seat(0).heat
    blades = ["blade#1", "gun#1"][:weapons]
    events += b.do({"type": "take_damage", "seat": 0, "hand": blades, "deck": 2 - weapons,
                    "drawn": [FILLER] * (2 - weapons)})  # fmt: skip
    assert b.state.attack is None
    return events, heat


def _unbreakable() -> None:
    """ "When you would take Component Damage, prevent 1 Component Damage. Gain 1 Heat.": a
    reactive card (R-REA-1) in answer to an attack: of the Component Damage that attack
    deals (here the Primary Weapon cards its damage discards, R-DMG-6) 1 is prevented,
    once; the card's Heat (+1, printed) comes as it is played; a PIERCE face voids it
    (R-DMG-4, R-ADD-281)."""
    for played, weapons, faces, prevented, taken in (
        (False, 1, (4, 4), 0, 1),
        (True, 0, (4, 4), 0, 0),  # no Component Damage: nothing to prevent
        (True, 1, (4, 4), 1, 0),
        (True, 2, (4, 4), 1, 1),  # 1 prevented, once
        (True, 2, (5, 4), 0, 2),  # PIERCE
    ):
        events, heat = _component_damage_answered("unbreakable", played, weapons, faces)
        key = (played, weapons, faces)
        assert heat == (1 if played else 0), key
        cut = of_type(events, ComponentDamagePrevented)
        assert [(e.component, e.amount, e.source, e.rule) for e in cut] == (
            [("chassis", prevented, "unbreakable#1", "R-ADD-281")] if prevented else []
        ), key
        damaged = of_type(events, ComponentDamaged)
        assert sum(e.amount for e in damaged) == taken, key


SIGILS_SCENARIOS[("dwarves", "unbreakable")] = _unbreakable


def _blade_attack(b: Battle, faces: tuple[int, ...]) -> list[Event]:
    """Seat 0 attacks seat 1 (adjacent, target number 5) with the test's blade, Melee 3."""
    return b.do({"type": "attack", "seat": 0, "card": "blade#1", "target": 1,
                 "component": "chassis", "faces": list(faces)})  # fmt: skip


def _zealots_focus() -> None:
    """ "Reroll 1 Attack Die on your next attack this turn.": the next attack's roll is
    shown, then its player rolls one die of their choice again, or keeps the roll; the new
    face stands and grades the attack again (R-HIT-4, R-ADD-282). Unused, it lapses as
    the turn ends (R-ADD-90)."""
    card = built("church", "zealots-focus")
    # Without the card the miss stands: no prompt.
    plain = battle(card, hand=("blade",))
    events = _blade_attack(plain, (1, 1))
    assert one(events, AttackEnded).outcome == "miss" and not plain.state.prompts
    for option, faces, grade, outcome in (
        ("keep", (), "miss", "miss"),  # the roll kept
        ("die_2", (4,), "hit", None),  # JAM-less 1 + 4 = 5: a hit, the window follows
        ("die_1", (6,), "miss", "miss"),  # JAM (0) + 1 = 1: still a miss
    ):
        b = battle(card, hand=("blade",))
        play(b, card.id)
        events = _blade_attack(b, (1, 1))
        assert one(events, AttackRolled).grade == "miss"
        assert one(events, RerollOffered) == RerollOffered(0, (1, 1), "all", 5, 1, card.id)
        assert [(p.seat, p.kind, p.amount) for p in b.state.prompts] == [(0, "reroll", 2)]
        assert not of_type(events, AttackEnded)  # the roll may still change
        defence = [4, 4, 4] if outcome is None else []  # BLOOD: no block (R-DMG-2)
        answer = {"type": "choose", "seat": 0, "option": option, "faces": [*faces, *defence]}
        events = b.do(answer)
        rerolled = of_type(events, AttackRerolled)
        if option == "keep":
            assert not rerolled
        else:
            die = int(option[-1])
            assert [(e.die, e.face, e.grade) for e in rerolled] == [(die, faces[0], grade)]
        ended = of_type(events, AttackEnded)
        assert [e.outcome for e in ended] == ([outcome] if outcome else []), option
        if outcome is None:  # the hit goes on: no reactive card, 3 damage rolled
            assert one(events, DefenceRolled).final_damage == 3
    # A catastrophic failure is a roll too: one JAM rolled again is no longer 0.
    b = battle(card, hand=("blade",))
    play(b, card.id)
    events = _blade_attack(b, (6, 6))
    assert one(events, AttackRolled).grade == "catastrophic" and not of_type(events, WeaponJammed)
    events = b.do({"type": "choose", "seat": 0, "option": "die_2", "faces": [3]})
    assert (one(events, AttackRerolled).total, one(events, AttackEnded).outcome) == (3, "miss")
    assert not of_type(events, WeaponJammed)
    # The third option does not exist on two dice; the prompt's own rule is named.
    b = battle(card, hand=("blade",))
    play(b, card.id)
    _blade_attack(b, (1, 1))
    err = b.refuse({"type": "choose", "seat": 0, "option": "die_3", "faces": [4]})
    assert (err.code, err.rule) == ("wrong_option", "R-ADD-282")
    # "This turn": played, then the turn ends: the next turn's attack offers nothing.
    b = battle(card, hand=("blade",))
    play(b, card.id)
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    b.do({"type": "pass", "seat": 1, "drawn": [FILLER] * (6 - len(b.seat(1).hand)),
          "faces": [6, 1]})  # fmt: skip
    assert b.state.active == 0
    events = _blade_attack(b, (1, 1))
    assert not of_type(events, RerollOffered) and one(events, AttackEnded).outcome == "miss"


SIGILS_SCENARIOS[("church", "zealots-focus")] = _zealots_focus


def _last_rites_field(card: CardDef, reach: int) -> Battle:
    """Ruleset 2.1, table dice. Seat 0 (side "pack") holds `card` and has discarded its 5
    other cards; seat 2, its ally at [1, 2], has 1 HP left; seat 1 (side "prey", at [0, 2],
    beside seat 2) acts first. Seat 0 stands `reach` hexes from seat 2."""
    seats = [
        {**seat(0, at=(0, 3), facing=1, side="pack"), "deck": deck(**{card.id: 2})},
        {**seat(1, at=(0, 2), facing=4, side="prey"), "deck": deck(**{"test-maul": 2})},
        {**seat(2, at=(1, 2), facing=5, side="pack"), "deck": deck()},
    ]
    doc = {
        "name": "Last rites", "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 8},
                                        "hexes": []},
        "rules": {"version": "2.1", "options": {}}, "dice": {"mode": "table"}, "policy": "prompt",
        "cards": [CARDS[FILLER], MAUL, card.as_dict()], "seats": seats,
    }  # fmt: skip
    hands = [[card.id, *[FILLER] * 5], ["test-maul", *[FILLER] * 5], [FILLER] * 6]
    b = start(doc, hands, initiative=(1, 6, 1))
    assert b.state.active == 1
    if reach != 1:
        b.do({"type": "relocate", "seat": 0, "at": [1 + reach, 2], "facing": 1,
              "reason": "arranged"})  # fmt: skip
    assert b.seat(0).at.distance(b.seat(2).at) == reach
    junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))
    arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
    arrange(b, DamageTaken(2, (), b.seat(2).deck[:-1], 0, None))
    assert b.seat(2).hp == 1 and len(b.seat(0).discard) == 5
    return b


def _kill_seat_2(b: Battle) -> list[Event]:
    """Seat 1 hits seat 2 (every defence die BLOOD: no block); seat 2 takes the damage from
    its deck of 1 card and is destroyed: deck and discard pile empty (R-DMG-9; survival
    face 4)."""
    maul = card_from_dict(MAUL)
    damage = attack_answer(b.state, 1, maul, 2).damage_for("hit")  # the flank's too (R-DMG-1)
    b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 2,
          "component": "chassis", "faces": [3, 2, *[4] * damage]})  # fmt: skip
    last = b.seat(2).deck[0].split("#")[0]
    events = b.do({"type": "take_damage", "seat": 2, "hand": [], "deck": damage,
                   "drawn": [last], "faces": [4]})  # fmt: skip
    assert b.seat(2).defeated
    return events


def _last_rites() -> None:
    """ "When an allied Casket within 3 hexes is destroyed (deck reaches 0), immediately
    recover 5 cards from your discard pile and draw 2 cards.": a reactive card whose window
    is an ally's destruction by the loss of its cards, played at once in the attacker's
    turn, at 0 SP: the 5 newest discards back to the hand, then 2 drawn (R-ADD-62,
    R-ADD-283); the attack that destroyed the ally ends once it is answered. Declined, or
    with the ally 4 hexes away, nothing; it answers no attack (R-REA-1)."""
    card = built("church", "last-rites")
    for play_it in (True, False):
        b = _last_rites_field(card, 3)
        events = _kill_seat_2(b)
        prompt = one(events, PromptOpened)
        assert (prompt.seat, prompt.kind, prompt.rule) == (0, "ally_destroyed", "R-ADD-283")
        assert not of_type(events, AttackEnded)  # it waits for the answer
        discarded = b.seat(0).discard
        answer = (
            {"type": "play_reactive", "seat": 0, "card": f"{card.id}#1", "drawn": [FILLER] * 2}
            if play_it
            else {"type": "no_reactive", "seat": 0}
        )
        events = b.do(answer)
        assert one(events, AttackEnded).outcome == "hit" and not b.state.prompts
        if play_it:
            recovered = one(events, CardsRecovered)
            assert set(recovered.cards) == set(discarded) and len(recovered.cards) == 5
            drawn = one(events, CardsDrawn)
            assert (drawn.seat, len(drawn.cards), drawn.reason) == (0, 2, card.name)
            assert len(b.seat(0).hand) == 5 + 2 and b.seat(0).discard == (f"{card.id}#1",)
        else:
            assert len(b.seat(0).hand) == 1 and b.seat(0).discard == discarded
    # Out of reach: no prompt, the attack ends at once.
    far = _last_rites_field(card, 4)
    events = _kill_seat_2(far)
    assert not of_type(events, PromptOpened) and one(events, AttackEnded).outcome == "hit"
    # An attack on the holder itself (beside seat 1) opens no reactive window for it.
    b = _last_rites_field(card, 1)
    events = b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
                   "component": "chassis", "faces": [3, 2, 4, 4]})  # fmt: skip
    assert one(events, DefenceRolled).seat == 0  # rolled at once: no reactive window
    assert [p.kind for p in b.state.prompts] == ["take_damage"]


SIGILS_SCENARIOS[("church", "last-rites")] = _last_rites


def _last_stand_field(card: CardDef, deck_left: int) -> Battle:
    """Ruleset 2.0, table dice. Seat 0 holds `card` and the test's blade and has
    `deck_left` filler cards left in its deck; seat 1, adjacent to the north with the
    test's maul, acts first."""
    b = battle(card, first=1, hand=("blade",))
    kept = [x for x in b.seat(0).deck if x.startswith(FILLER)][-deck_left:]
    arrange(b, DamageTaken(0, (), tuple(x for x in b.seat(0).deck if x not in kept), 0, None))
    assert b.seat(0).deck == tuple(kept) and b.state.active == 1
    return b


def _maul_seat_0(b: Battle) -> list[Event]:
    """Seat 1 hits seat 0 with the maul (every defence die BLOOD: no block), no reactive
    window opening for seat 0's card (R-REA-1); seat 0 takes the whole damage from its
    deck."""
    damage = attack_answer(b.state, 1, card_from_dict(MAUL), 0).damage_for("hit")
    declared = b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
                     "component": "chassis", "faces": [3, 2, *[4] * damage]})  # fmt: skip
    assert one(declared, DefenceRolled).seat == 0  # rolled at once: no reactive window
    drawn = [x.split("#")[0] for x in b.seat(0).deck[:damage]]
    return b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": damage, "drawn": drawn})


def _last_stand() -> None:
    """ "Play when your deck reaches 5 cards or fewer. Until end of round, gain +3 damage
    to all attacks and +2 Defense. Cannot retreat (movement locked to 0). Die where you
    stand. Once per mission.": a reactive card whose window is its holder's own deck
    falling from 6 or more cards to 5 or fewer, played at 0 SP once the damage that did
    it has resolved, in the attacker's turn: every attack of its owner to the end of the
    round deals 3 more, every attack on it meets 2 more blocks, and it takes no move
    action, all lapsing as the round ends (R-ADD-370); once played it is spent for the
    battle (R-ADD-63). Declined, the window does not open again as the deck falls further;
    it answers no attack (R-REA-1)."""
    card = built("crucible", "last-stand")
    b = _last_stand_field(card, 7)
    events = _maul_seat_0(b)
    assert len(b.seat(0).deck) <= 5
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.rule) == (0, "low_deck", "R-ADD-370")
    assert one(events, AttackEnded).outcome == "hit"  # the damage has resolved
    bodies = [a.body for a in legal_actions(b.state, [0])]
    assert {"type": "play_reactive", "seat": 0, "card": f"{card.id}#1"} in bodies
    events = b.do({"type": "play_reactive", "seat": 0, "card": f"{card.id}#1"})
    enhanced = one(events, AttackEnhanced)
    assert (enhanced.damage, enhanced.every, enhanced.this_round) == (3, True, True)
    ward = one(events, WardRaised)
    assert (ward.until, ward.defence, ward.immobile) == ("end_of_round", 2, True)
    assert not b.state.prompts and f"{card.id}#1" in b.seat(0).discard
    assert "battle:last-stand" in b.seat(0).limited_plays
    # Seat 1's turn ends; the enhancement outlives it, the round does not end.
    b.do({"type": "pass", "seat": 1, "drawn": [FILLER]})
    assert b.state.active == 0 and len(b.seat(0).enhancements) == 1
    assert b.refuse({"type": "move", "seat": 0, "path": [[1, 2]]}).code == "immobilised"
    events = b.do({"type": "attack", "seat": 0, "card": "blade#1", "target": 1,
                   "component": "chassis", "faces": [1, 1]})  # fmt: skip
    assert hit(one(events, AttackDeclared)) == 3 + 3
    assert one(events, BuffGained).source == card.id
    assert len(b.seat(0).enhancements) == 1  # every attack: none spends it
    # The round ends: the bonus, the Defense and the lock lapse.
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand)),
          "faces": [6, 1]})  # fmt: skip
    assert b.state.round == 2 and not b.seat(0).enhancements and not b.seat(0).wards
    # Declined: no card played, and 5 cards falling to 3 open nothing again.
    b = _last_stand_field(card, 7)
    _maul_seat_0(b)
    events = b.do({"type": "no_reactive", "seat": 0})
    assert not of_type(events, AttackEnhanced) and f"{card.id}#1" in b.seat(0).hand
    assert b.refuse({"type": "play_reactive", "seat": 0, "card": f"{card.id}#1"})
    b = _last_stand_field(card, 5)
    events = _maul_seat_0(b)
    assert not of_type(events, PromptOpened) and not b.state.prompts


SIGILS_SCENARIOS[("crucible", "last-stand")] = _last_stand


def _chrysalis_rebirth() -> None:
    """ "When your deck reaches 5 cards or fewer, spend 5 Metamorph tokens to enter
    Chrysalis state for 1 turn (cannot act). Next turn, recover 10 cards from discard pile,
    remove all Heat, gain +2 Defense permanently this mission. Metamorphosis completes.
    Once per mission.": R-ADD-370's low-deck window, open only to a seat holding the 5
    tokens (R-ADD-133); played, the casket's next turn is skipped (R-ADD-159), and as its
    turn after that starts it recovers 10 cards, loses its Heat and gains 2 automatic
    blocks for the rest of the battle (R-ADD-366)."""
    card = built("emergent", "chrysalis-rebirth")
    poor = _last_stand_field(card, 7)
    tokens(poor, "metamorph", 4)
    events = _maul_seat_0(poor)
    assert not of_type(events, PromptOpened) and not poor.state.prompts  # cannot pay
    b = _last_stand_field(card, 7)
    tokens(b, "metamorph", 5)
    arrange(b, HeatChanged(0, 4, 4, "arranged", "R-TRN-4"))
    events = _maul_seat_0(b)
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind) == (0, "low_deck")
    events = b.do({"type": "play_reactive", "seat": 0, "card": f"{card.id}#1"})
    assert one(events, TokensChanged).amount == -5 and b.seat(0).tokens_of("metamorph") == 0
    assert one(events, ChrysalisEntered).source == card.id and b.seat(0).skip_next_turn
    assert "battle:chrysalis-rebirth" in b.seat(0).limited_plays
    in_discard = len(b.seat(0).discard)
    assert in_discard > 10
    # Seat 1 ends its turn; seat 0's turn starts and ends at once; round 2 starts with it.
    events = b.do({"type": "pass", "seat": 1, "drawn": ["test-maul"], "faces": [6, 1]})
    skipped = one(events, TurnSkipped)
    assert skipped.seat == 0 and b.state.round == 2 and b.state.active == 0
    emerged = events.index(one(events, ChrysalisEmerged))
    assert emerged > events.index(skipped)
    assert len(one(events, CardsRecovered).cards) == 10
    assert b.seat(0).heat == 0 and not b.seat(0).chrysalis
    ward = one(events, WardRaised)
    assert (ward.until, ward.defence, ward.source) == ("end_of_battle", 2, card.id)
    # The Defense outlives the round (for the rest of the battle).
    b.do({"type": "pass", "seat": 0})
    (down,) = b.state.prompts  # 10 cards recovered: down to 6 (R-TRN-7)
    b.do({"type": "discard_down", "seat": 0, "cards": list(b.seat(0).hand[: down.amount])})
    events = b.do({"type": "attack", "seat": 1, "card": "test-maul#2", "target": 0,
                   "component": "chassis", "faces": [1, 1]})  # fmt: skip
    d = one(events, AttackDeclared)
    assert d.defence_modifier - int(d.to_hit["defense_modifier"]) == 2


SIGILS_SCENARIOS[("emergent", "chrysalis-rebirth")] = _chrysalis_rebirth


def _ancestor_ward_field(card: CardDef, deck_left: int) -> tuple[Battle, list[Event]]:
    """Ruleset 2.1, table dice. Seat 0 holds only `card` in hand, `deck_left` cards in its
    deck and none in its discard pile (the rest lost to damage, R-DMG-8); seat 1,
    adjacent to the north, acts first and hits it with the maul (every defence die
    BLOOD: no block). The attack's events are returned."""
    b = battle(card, first=1, version="2.1")
    c = b.seat(0)
    hand = tuple(x for x in c.hand if not x.startswith(card.id))
    arrange(b, DamageTaken(0, hand, c.deck[:-deck_left], 0, None))
    assert b.seat(0).hand == (f"{card.id}#1",) and len(b.seat(0).deck) == deck_left
    assert not b.seat(0).discard
    damage = attack_answer(b.state, 1, card_from_dict(MAUL), 0).damage_for("hit")
    assert damage == 2
    events = b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
                   "component": "chassis", "faces": [3, 2, 4, 4]})  # fmt: skip
    assert one(events, DefenceRolled).seat == 0  # rolled at once: no reactive window
    return b, events


def _ancestor_ward() -> None:
    """ "When you would take lethal damage (deck would reach 0), prevent up to 5 damage.
    Once per mission. The ancestors protect.": a reactive card whose window is damage
    about to defeat its holder whatever split of it the holder chose (under 2.1 deck and
    discard pile emptied even after the whole hand, R-DMG-9), played at 0 SP before the
    split is asked for: 5 of it, here all 2, are taken off and the casket stands
    (R-ADD-371); once per battle (R-ADD-63). Declined, the damage is split as usual and
    defeats it; damage its hand can absorb opens nothing; it answers no attack
    (R-REA-1)."""
    card = built("dwarves", "ancestor-ward")
    b, events = _ancestor_ward_field(card, 1)  # 1 card in hand + 1 in deck: 2 is lethal
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (0, "lethal_damage", 2)
    assert prompt.rule == "R-ADD-371" and not of_type(events, AttackEnded)
    bodies = [a.body for a in legal_actions(b.state, [0])]
    assert {"type": "play_reactive", "seat": 0, "card": f"{card.id}#1"} in bodies
    events = b.do({"type": "play_reactive", "seat": 0, "card": f"{card.id}#1"})
    reduced = one(events, DamageReduced)
    assert (reduced.seat, reduced.amount, reduced.source) == (0, 2, card.id)
    assert one(events, AttackEnded).outcome == "hit" and not of_type(events, DamageTaken)
    assert b.seat(0).in_battle and len(b.seat(0).deck) == 1 and not b.state.prompts
    assert f"battle:{card.id}" in b.seat(0).limited_plays
    # Declined: the split is asked for, and the damage defeats the casket.
    b, _ = _ancestor_ward_field(card, 1)
    events = b.do({"type": "no_reactive", "seat": 0})
    assert one(events, PromptOpened).kind == "take_damage"
    b.do({"type": "take_damage", "seat": 0, "hand": [f"{card.id}#1"], "deck": 1,
          "drawn": [b.seat(0).deck[0].split("#")[0]], "faces": [4]})  # fmt: skip
    assert b.seat(0).defeated
    # 1 card in hand + 2 in the deck: taking it from the hand leaves the casket standing.
    b, events = _ancestor_ward_field(card, 2)
    assert one(events, PromptOpened).kind == "take_damage"


SIGILS_SCENARIOS[("dwarves", "ancestor-ward")] = _ancestor_ward


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ({"kind": "bleed_factor", "factor": 1}, "effect.factor"),
        ({"kind": "bleed_factor", "factor": 5}, "effect.factor"),
        ({"kind": "bleed_factor"}, "effect.factor"),
        ({"kind": "prevent_component_damage", "n": 0}, "effect.n"),
    ],
)
def test_a_bad_sigil_effect_names_its_field(doc: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        effect_from_dict(doc)
    assert caught.value.field == field


def test_the_sigil_effects_round_trip() -> None:
    assert effect_from_dict({"kind": "bleed_factor", "factor": 2}) == BleedFactorEffect(2)
    prevent = {"kind": "prevent_component_damage", "n": 1}
    assert effect_from_dict(prevent) == PreventComponentDamageEffect(1)
    reroll = {"kind": "enhance_next_attack", "this_turn": True,
              "then": [{"kind": "reroll_attack_die"}]}  # fmt: skip
    wanted = EnhanceNextAttackEffect(this_turn=True, then=(RerollAttackDieEffect(),))
    assert effect_from_dict(reroll) == wanted


# --- R-ADD-365: "if target discards cards from that component type" ---------------------------


def _component_cut(cid: str, damage: int, extra: int, bleed: int) -> Callable[[], None]:
    def scenario() -> None:
        """ "Deal 4 damage to specific component (you choose: …). If target discards cards
        from that component type, deal +2 Component Damage." / "Deal 3 damage to specific
        component. Apply Bleed 2. Add +1 Component Damage if target discards that component
        type.": the named component's type is the right arm's Primary Weapon cards or the
        left arm's Secondary cards (seed 002); legs, head and chassis have none. Seat 1
        holds the Maul (Primary Weapon) and the Pistol (Secondary) and loses the hand card
        given, the rest from the deck (R-DMG-6, R-ADD-365)."""
        card = built("elves", cid)
        cases = [
            ("right_arm", "test-maul#1", 1 + extra),  # R-DMG-6's 1, and the cut's
            ("right_arm", None, 0),  # no card of that type discarded
            ("left_arm", "pistol#1", extra),  # Secondary: the cut's only
            ("left_arm", "test-maul#1", 1),  # a Primary Weapon card is not the left arm's
            ("legs", "test-maul#1", 1),  # the legs have no card type
        ]
        for component, lost, total in cases:
            b = battle(card, opponent=("pistol",))
            attack(b, card, component=component, faces=[3, 2, *[4] * damage])
            hand = [lost] if lost else []
            events = b.do({"type": "take_damage", "seat": 1, "hand": hand,
                           "deck": damage - len(hand), "drawn": [FILLER] * (damage - len(hand))})  # fmt: skip
            hurt = [e for e in of_type(events, ComponentDamaged) if e.seat == 1]
            assert sum(e.amount for e in hurt) == total, (component, lost)
            assert all(e.component == component for e in hurt)
            assert b.seat(1).bleed == bleed
            rider = [e for e in hurt if e.rule == "R-ADD-365"]
            typed = (component, lost) in (("right_arm", "test-maul#1"), ("left_arm", "pistol#1"))
            assert [e.amount for e in rider] == ([extra] if typed else [])

    return scenario


SIGILS_SCENARIOS.update({
    ("elves", "pruning-cut"): _component_cut("pruning-cut", 4, 2, 0),
    ("elves", "surgical-cut"): _component_cut("surgical-cut", 3, 1, 2),
})  # fmt: skip


@pytest.mark.parametrize("key", sorted(SIGILS_SCENARIOS), ids="/".join)
def test_sigils_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, SIGILS_SCENARIOS[key])


@pytest.mark.parametrize(
    ("faces", "option"), [((1, 1), "die_1"), ((6, 2), "die_1"), ((1, 6), "die_2"), ((3, 2), "keep")]
)
def test_the_autoplayer_rolls_again_the_lowest_die_of_a_miss_only(
    faces: tuple[int, int], option: str
) -> None:
    """R-ADD-282: the bot keeps a hit; a miss rolls its lowest die again (a JAM is 0)."""
    card = built("church", "zealots-focus")
    b = battle(card, hand=("blade",))
    play(b, card.id)
    _blade_attack(b, faces)
    actions = list(legal_actions(b.state, [0]))
    assert {a.body["option"] for a in actions} == {"keep", "die_1", "die_2"}
    assert choose(b.state, actions, random.Random(0))["option"] == option
