"""Every event kind's sentence reads right with one and with two of whatever it counts.

Each event kind (every class in `EVENT_TYPES`) has sample payloads: the real ones of
battles the greedy autoplayer plays (the demo decks, and random decks of catalogued
cards), and an explicit sample below for each kind those battles do not reach. In each
sample every number (at any depth) is set to 1 and to 2, every list cut or grown to one
and to two elements, and then all of them at once; each variant is read with
`plain(describe(...))` as the GM sees it and as each seat and a watcher see it through
`public_payload` (R-ADD-28). No reading may say "(s)", "1 hexes" or "2 hex", repeat a
word ("weapon side side"), show None/True/False or an internal key (a word with an
underscore).
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

import pytest

from battles.codec import BATTLE_EVENTS
from battles.engine.battle import events as ev
from battles.engine.battle import public_payload
from battles.engine.battle.autoplay import greedy_commands
from battles.engine.battle.decide import create
from battles.engine.battle.events import EVENT_TYPES, Event
from battles.engine.battle.evolve import replay
from battles.engine.demo import demo_setup
from battles.sentences import Names, describe, plain

# The nouns a count meets in the sentences, as (singular, plural); mass nouns (damage,
# Heat, SP, Taint, Defense) take no count and are not here.
NOUNS = (
    ("hex", "hexes"),
    ("card", "cards"),
    ("token", "tokens"),
    ("seed", "seeds"),
    ("turn", "turns"),
    ("counter", "counters"),
    ("wound", "wounds"),
    ("enhancement", "enhancements"),
    ("casket", "caskets"),
)
# A count, at most two words ("3 soul shard tokens") and the noun; "1 of its turns" and
# "2 SP this turn" count no turns, and a coordinate ("0,1") counts nothing.
_BETWEEN = r"(?:(?!(?:of|this|next|a|the|SP)\b)[\w-]+ ){0,2}"
ONE_PLURAL = re.compile(rf"(?<![\w.,+−-])1 {_BETWEEN}({'|'.join(p for _, p in NOUNS)})\b")
MANY_SINGULAR = re.compile(
    rf"(?<![\w.,+−-])(?:0|[2-9]|\d\d+) {_BETWEEN}({'|'.join(s for s, _ in NOUNS)})\b"
)
REPEATED = re.compile(r"\b([A-Za-z]+)\s+\1\b", re.IGNORECASE)
PYTHON = re.compile(r"\b(None|True|False)\b")
KEY = re.compile(r"\b\w*_\w*\b")


def faults(text: str, card_names: Iterable[str] = ()) -> list[str]:
    """What is wrong with a sentence's words (empty when it reads right). A card's printed
    name may hold such a word ("True Path"): it is no Python value shown, so the names of
    `card_names` are left out of that check only."""
    found = [f"says {m}" for m in ("(s)", "(es)") if m in text]
    found += [f"one with a plural: {m.group(0)!r}" for m in ONE_PLURAL.finditer(text)]
    found += [f"many with a singular: {m.group(0)!r}" for m in MANY_SINGULAR.finditer(text)]
    found += [f"repeats a word: {m.group(0)!r}" for m in REPEATED.finditer(text)]
    unnamed = text
    for name in sorted(card_names, key=len, reverse=True):
        unnamed = unnamed.replace(name, "")
    found += [f"shows {m.group(0)}" for m in PYTHON.finditer(unnamed)]
    found += [f"shows a key: {m.group(0)!r}" for m in KEY.finditer(text)]
    return found


def test_the_checks_catch_what_they_are_for() -> None:
    """The checks fail on the old wordings and pass the new ones."""
    assert faults("Penitent Scout moves 1 hexes to 0,1") != []
    assert faults("Penitent Scout gains 1 fury token(s), now 1") != []
    assert faults("Penitent Scout gains 1 soul shard tokens, now 1") != []
    assert faults("Bastion Heavy gains 2 Bleed counter, now 2") != []
    assert faults("2 Thornvine seed in 2 hexes detonate") != []
    assert faults("attacks at 2 hexes (weapon side side, legs)") != []
    assert faults("the the penitents win") != []
    assert faults("Bastion Heavy answered: None") != []
    assert faults("Bastion Heavy answered: True", {"True Path"}) != []
    assert faults("Bastion Heavy looks at True Path", {"True Path"}) == []  # a card's name
    assert faults("Waiting for Bastion Heavy: damage_cards") != []
    assert faults("Penitent Scout gains 1 soul shard token, now 1 (salvage, R-ADD-61)") == []
    assert faults("2 Thornvine seeds in 1 hex detonate; needs 5+ (rear −1 R-HIT-2)") == []
    assert faults("Round 1 begins; +1 SP a hex next turn; −2 on the target number") == []


NAMED = Names({0: "Penitent Scout", 1: "Bastion Heavy"}, {1: "Bram"}, {})
DECLARED = {"attacker": 0, "target": 1, "card": "maul#1", "component": "right_arm", "side": 2,
            "target_number": 5, "to_hit": {"distance": 1, "side_name": "weapon side"}}  # fmt: skip


@pytest.mark.parametrize(
    ("type_", "payload", "words"),
    [
        ("CasketMoved", {"seat": 0, "path": [[0, 1]], "cost": 1},
         "Penitent Scout moves 1 hex to 0,1 for 1 SP"),
        ("SeedsDetonated", {"hexes": [[0, 1, 1]], "source": "wrath"},
         "1 Thornvine seed in 1 hex detonates (wrath, R-ADD-66)"),
        ("SeedsDetonated", {"hexes": [[0, 1, 1], [1, 0, 1]], "source": "wrath"},
         "2 Thornvine seeds in 2 hexes detonate (wrath, R-ADD-66)"),
        ("Rooted", {"seat": 1, "turns": 1, "source": "roots"},
         "Bastion Heavy cannot move through their next turn (roots, R-ADD-111)"),
        ("OngoingDamageScheduled", {"seat": 1, "amount": 2, "turns": 1, "source": "curse"},
         "Bastion Heavy will take 2 damage at the start of their next turn (curse, R-ADD-112)"),
        ("TokensChanged", {"seat": 0, "pool": "fury", "amount": 1, "total": 1, "source": "rage"},
         "Penitent Scout gains 1 fury token, now 1 (rage, R-ADD-61)"),
        ("TaintOverloaded", {"seat": 1, "taint": 10, "face": 3, "wounds": 1},
         "Bram's Taint reaches 10: rolled [3], 1 wound (R-PLT-3)"),
        ("AttackDeclared", DECLARED,
         "Penitent Scout attacks Bastion Heavy with maul#1 at 1 hex (weapon side, right arm): "
         "needs 5+"),
        ("ComponentDestroyed", {"seat": 1, "component": "legs", "rule": "R-DMG-7"},
         "Bastion Heavy's legs are destroyed (R-DMG-7)"),
        ("PromptOpened", {"seat": 1, "kind": "discard_down", "amount": 1, "rule": "R-TRN-7",
                          "reason": "discard 1 card(s)"},
         "Waiting for Bastion Heavy: discard down 1 (discard 1 card, R-TRN-7)"),
        ("BattleWon", {"side": "bastion", "reason": "last casket standing", "rule": "R-TRN-8"},
         "The bastion side wins: last casket standing (R-TRN-8)"),
        ("CommandReverted", {"from_version": 5, "to_version": 5, "reason": "misclick"},
         "GM reverts event 5 — misclick"),
    ],
)  # fmt: skip
def test_a_count_agrees_with_its_noun(type_: str, payload: dict[str, Any], words: str) -> None:
    """The wordings this file guards, exactly: one hex, one seed that detonates, their next
    turn, a to-hit side named once, the legs that are destroyed, a side that wins."""
    assert plain(describe(type_, payload, NAMED)) == words


# --- the samples ---------------------------------------------------------------------------

SEATS = {0: "Penitent Scout", 1: "Bastion Heavy", 2: "Ember Warden"}
PILOTS = {0: "Sister Ophelia", 1: "Brother Malachai", 2: "Mother Ysolde"}
CARD = "censer-maul#1"
OTHER = "brace-the-frame#2"


def _battles() -> Iterator[dict[str, Any]]:
    """The setups played: two demo battles, and two with random decks of catalogued cards."""
    from tests.engine.test_card_catalogue import AUTOMATED, random_decks

    for seed in (1, 2):
        yield demo_setup(seed=seed, ruleset=("2.0", "2.1")[seed % 2])
    for seed in (1, 2):
        cards, rows = random_decks(random.Random(seed), AUTOMATED, 15)
        doc = demo_setup(seed=seed, ruleset=("2.0", "2.1")[seed % 2])
        yield {
            **doc,
            "policy": "prompt",
            "cards": [c.as_dict() for c in cards.values()],
            "seats": [{**s, "deck": row} for s, row in zip(doc["seats"], rows, strict=True)],
        }


@cache
def played() -> tuple[Names, dict[str, list[dict[str, Any]]]]:
    """The names of the battles' caskets and cards, and up to four real payloads of each
    event kind met, each different in which of its fields are empty (None, [] or 0)."""
    cards: dict[str, Any] = {}
    found: dict[str, list[dict[str, Any]]] = {}
    shapes: set[tuple[Any, ...]] = set()
    for n, doc in enumerate(_battles()):
        events = create(f"numbers-{n}", doc)
        state = replay(events)
        cards |= dict(state.cards)
        for i, (_, new, _after) in enumerate(greedy_commands(state, seed=n)):
            events += new
            if i >= 600:
                break
        for e in events:
            payload = BATTLE_EVENTS.to_record(e)[2]
            shape = (e.type, *((k, not v) for k, v in sorted(payload.items())))
            if shape not in shapes and len(found.get(e.type, [])) < 4:
                shapes.add(shape)
                found.setdefault(e.type, []).append(payload)
    return Names(SEATS, PILOTS, cards), found


# Each kind the battles above do not reach, by hand (keyword arguments: a renamed or new
# field fails here, not silently).
SAMPLES: tuple[Event, ...] = (
    # A pilot's death: the autoplayed battles reach it only with some decks.
    ev.PilotKilled(seat=1, rule="R-PLT-1"),
    # The Grit check: only under the ruleset option grit_checks (R-ADD-305).
    ev.GritChecked(
        seat=0, face=2, grit=1, modifier=-1, total=2, result="full-wound", reason="neural feedback"
    ),
    ev.WoundEased(seat=0, wound="severe-2", rule="R-ADD-305"),
    # Iron Will Training's reroll of a failed check and its Grit for good (R-ADD-411).
    ev.GritRerolled(seat=0, card=CARD, face=1, total=2, result="full-wound"),
    ev.GritRaised(seat=0, card=CARD, amount=1),
    # Force Reroll's answer to a defence roll (R-ADD-412).
    ev.DefenceRerollOffered(seat=0, target=1, faces=(1, 4, 3), blocking=(1, 3)),
    ev.DefenceRerolled(seat=0, target=1, card=CARD, dice=(1, 3), faces=(4, 4, 2)),
    ev.MulliganTaken(seat=0, returned=(CARD, OTHER)),
    ev.HeatVented(seat=0, cost=2, removed=2),
    ev.TokensChanged(seat=0, pool="soul_shard", amount=-2, total=1, source="salvage"),
    ev.TaintChanged(seat=1, amount=2, taint=2, source="taint-bolt"),
    ev.EffectRolled(seat=0, faces=(5, 2), total=7, source="breathe", rule="R-ADD-67"),
    ev.CardsShuffledIn(
        seat=0, cards=(CARD, OTHER), order=(OTHER, CARD), known=True, reason="absolution"
    ),
    ev.SpPenaltyImposed(seat=1, amount=2, source="executive-order"),
    ev.DamageScheduled(seat=1, amount=2, source="delayed-charge"),
    ev.SeedsPlanted(at=(0, -1), amount=2, total=3, source="thorn-blade"),
    ev.SeedsDetonated(hexes=((0, -1, 3), (1, 1, 2)), source="natures-wrath"),
    ev.MoveGranted(seat=0, hexes=2, source="hit-and-run", split=False),
    ev.DefenceRaised(seat=0, amount=2, source="shield-mastery"),
    ev.BuffGained(
        seat=0, damage=2, to_hit=-1, ignore_defence=1, damage_this_turn=1, source="anointing"
    ),
    ev.ReactivePlayed(seat=1, card=OTHER, reduction=2, path=((0, 1), (0, 2))),
    ev.PromptOpened(
        seat=1, kind="damage_cards", amount=2, component="legs", rule="R-DMG-6", reason="hit"
    ),
    # Free text the engine wrote this way into stored events (decide/flow.py, tohit.py).
    ev.PromptOpened(
        seat=1,
        kind="discard_down",
        amount=2,
        component=None,
        rule="R-TRN-7",
        reason="discard 2 card(s), then 1 card(s); moved 1 hexes",
    ),
    ev.PromptClosed(seat=1, kind="damage_cards"),
    ev.CasketWithdrew(seat=1, rule="R-ADD-24"),
    ev.BattleEnded(side="bastion", reason="time", rule="R-TRN-8"),
    ev.BattleEnded(side="weapon side", reason="time", rule="R-TRN-8"),
    ev.TaintAdjusted(seat=0, taint=2, reason="ruling"),
    ev.TaintOverloaded(seat=0, taint=10, face=2, wounds=2),
    ev.HeatAdjusted(seat=0, heat=2, reason="ruling"),
    ev.ComponentDamageAdjusted(
        seat=1, component="right_arm", amount=2, total=2, destroyed=True, reason="ruling"
    ),
    ev.CasketRelocated(seat=1, at=(1, 2), facing=2, reason="ruling"),
    ev.CardReturned(seat=0, card=CARD, from_zone="discard", reason="ruling"),
    ev.CardsRestored(seat=0, cards=(CARD,), reason="reanimate", rule="R-ADD-440"),
    ev.CommandReverted(
        command_id="c9", from_version=12, to_version=14, state={"round": 2}, reason="misclick"
    ),
    ev.DiceSecretRevealed(secret="ab" * 32),
    ev.Rooted(seat=1, turns=2, source="grasping-roots"),
    ev.BleedApplied(seat=1, amount=2, total=3, source="venom-strike"),
    ev.BleedTicked(seat=1, total=2),
    ev.OngoingDamageScheduled(seat=1, amount=2, turns=2, source="ember-curse"),
    ev.DamageUntilDiscards(seat=1, amount=2, discards=3, source="plague"),
    ev.MoveCostRaised(seat=1, amount=2, source="leg-shot"),
    ev.DrawPenaltyImposed(seat=1, n=2, source="mind-fog"),
    ev.AttacksForgone(seat=1, source="stun"),
    ev.CasketCursed(seat=1, by=0, source="fae-curse"),
    ev.CurseLifted(seat=1, killed=0, source="fae-curse"),
    ev.LoopArmed(seat=0, source="temporal-loop"),
    ev.DamageLooped(seat=0, amount=2, source="temporal-loop"),
    ev.LoopReleased(seat=0, target=1, amount=2, source="temporal-loop"),
    ev.LoopReleased(seat=0, target=-1, amount=2, source="temporal-loop"),
    ev.GritModifierRaised(seat=0, amount=1, source="stone-endurance-boost"),
    ev.GritModifierRaised(seat=0, amount=2, source="martyrs-endurance", next_check=True),
    ev.CardLapsed(seat=0, card=CARD, turns=2, removed=False),
    ev.CardLapsed(seat=0, card=OTHER, turns=2, removed=True),
    ev.DamageNegated(seat=0, amount=2, card=CARD, used=3),
    ev.SpendArmed(seat=0, source="overcharge"),
    ev.DefenceLowered(seat=1, amount=2, source="mandible-rend"),
    ev.AttacksQueued(
        attacker=0,
        card=CARD,
        attacks=((1, "Melee", 3), (2, "Melee", 2)),
        component="legs",
        after_kill=2,
        rule="R-ADD-80",
        ignore_defence=True,
    ),
    ev.FollowUpTaken(attacker=0, card=CARD, target=1, made=True, reason="", rule="R-ADD-80"),
    ev.FollowUpTaken(
        attacker=0, card=CARD, target=1, made=False, reason="out of reach", rule="R-ADD-80"
    ),
    ev.DamageAuraRaised(seat=0, amount=2, within=2, source="molten-armor"),
    ev.AttackEnhanced(
        seat=0,
        source="ap-shot",
        attacks="ranged",
        damage=2,
        to_hit=1,
        ignore_defence=2,
        ignore_cover=True,
        ignore_range=False,
        cannot_miss=False,
        ignore_defence_buffs=True,
        this_turn=True,
        every=True,
        sp_cost=2,
        reach=2,
        vs_bleeding=False,
    ),
    ev.EnhancementsSpent(seat=0, indices=(0, 1)),
    ev.WardRaised(
        seat=1,
        source="forge-blessing",
        until="end_of_round",
        against="melee",
        defence=2,
        to_hit=1,
        damage=2,
        reduce=2,
        cap=2,
        at_least=2,
        uses=2,
        recover=2,
        immobile=True,
    ),
    ev.WardUsed(seat=1, index=1, source="forge-blessing", before=3, after=2),
    ev.WardUsed(seat=1, index=0, source="forge-blessing", before=None, after=None),
    ev.SpGained(seat=0, amount=2, source="adrenaline"),
    ev.DefenceBuffsIgnored(attacker=0),
    ev.CasketPushed(seat=1, path=((0, -1), (0, -2)), by=0, source="shield-slam", rule="R-ADD-100"),
    ev.CasketPushed(seat=1, path=(), by=0, source="shield-slam", rule="R-ADD-100"),
    ev.CasketTeleported(seat=0, at=(2, 1), hexes=2, source="sylvan-step"),
    ev.EnemyMarked(seat=0, target=1, source="death-mark"),
    ev.UntargetableGained(seat=0, against="ranged", until_attack=True, source="veil"),
    ev.UntargetableEnded(seat=0, source="veil"),
    ev.HandRevealed(seat=0, target=1, cards=(CARD, OTHER), source="scanner"),
    ev.TargetBonusGained(seat=0, target=1, damage=2, source="scanner"),
    ev.CardsLookedAt(seat=0, cards=(CARD, OTHER), source="compass"),
    ev.DeckArranged(seat=0, order=(OTHER, CARD)),
    ev.WreckScavenged(seat=0, wreck=1, source="scavenge"),
    ev.UltimatumAnswered(seat=1, option="skip_turn"),
    ev.UltimatumAnswered(seat=1, option="take_damage"),
    ev.TurnSkipped(seat=1),
    ev.HitDamageBargained(seat=1, damage=2, source="fae-bargain"),
    ev.HitBargainedAway(seat=1, source="fae-bargain"),
    ev.AttackCovered(seat=0, target=2, card=OTHER, reduction=2),
    ev.AttackCovered(seat=0, target=2, card=OTHER, reduction=2, keeps=True),
    ev.DefenceLent(seat=2, amount=2, until=0, source="asset-protection"),
    ev.DefenceLent(seat=2, amount=2, until=-1, source="asset-protection"),
    ev.DamageCardsRemoved(seat=2, cards=("damage#1", "damage#2"), source="field-suture"),
    ev.DamageDeflected(seat=0, attacker=1, amount=2),
    ev.AllyMoved(seat=2, path=((0, 7), (0, 6)), by=0, source="beacon"),
    ev.AttackWarded(seat=0, card=OTHER, target=2),
    ev.ZoneCreated(seat=0, card=OTHER, at=(0, 3)),
    ev.ThornsRaised(seat=0, damage=2, melee_only=True, until="next_turn", source="emberguard"),
    ev.ThornsRaised(seat=0, damage=2, melee_only=False, until="next_attack", source="spikes"),
    ev.LastingBonusGained(seat=0, damage=2, total=2, source="righteous-fury"),
    ev.SpBoosted(seat=0, amount=2, maximum=True, source="zeal"),
    ev.DamageReduced(seat=1, amount=2, source="bulwark"),
    ev.TurnBuffGained(seat=0, damage=2, to_hit=-1, ignore_defence=2, source="blood-offering"),
    ev.ComponentDamagePrevented(seat=1, component="left_arm", amount=2, source="resilience"),
    ev.CounterRaised(seat=0, amount=2, source="void-reflection"),
    ev.SelfDamageDue(seat=0, amount=2, source="paradox-blade"),
    ev.BonusHeld(seat=0, source="ancestral-wrath"),
    ev.FormTaken(seat=0, form="storm", round=2, source="stance"),
    ev.FormOffered(seat=0, source="metamorphic-adaptation"),
    # R-ADD-362: a form's lesser Defense, its dearer moves, its moves ignoring terrain
    ev.WardRaised(0, "adaptation", "end_of_round", "attacks", -2, 0, 0, 0, None, 0, 0, 0),
    ev.WardRaised(
        0, "adaptation", "end_of_round", "attacks", 2, 0, 0, 0, None, 0, 0, 0, move_cost=2
    ),
    ev.WardRaised(
        0, "adaptation", "end_of_round", "attacks", 0, 0, 0, 0, None, 0, 0, 0, ignore_terrain=True
    ),
    ev.ChrysalisEntered(seat=0, source="chrysalis-rebirth"),
    ev.ChrysalisEmerged(seat=0, source="chrysalis-rebirth"),
    ev.TerrainAttacked(seat=0, card=OTHER, at=(0, 2), kind="ice_wall", damage=2, left=2),
    ev.TerrainAttacked(seat=0, card=OTHER, at=(0, 2), kind="ice_wall", damage=2, left=0),
    ev.DuelChallenged(seat=0, target=1, source="challenge"),
    ev.DuelAnswered(seat=1, challenger=0, accepted=False, mark_damage=2),
    ev.DuelAnswered(seat=1, challenger=0, accepted=True, mark_damage=0),
    ev.ReactivesBarred(seat=1, by=0, source="challenge"),
    ev.CardsForbidden(seat=0, classes=("defense", "movement"), source="feral-rage"),  # R-ADD-340
    ev.CardCostRaised(seat=1, amount=2, source="market-manipulation"),  # R-ADD-341
    ev.SpLocked(seat=0, turns=(True, False, True), source="deal-with-the-devil"),  # R-ADD-343
    ev.TerrainCreated(
        seat=0,
        card=OTHER,
        kind="dense_smoke",
        hexes=((0, 1), (1, 0)),
        until_round=2,
        turns=0,
        damage=0,
    ),
    ev.TerrainCreated(
        seat=0, card=OTHER, kind="lava", hexes=((0, 1), (1, 0)), until_round=0, turns=2, damage=2
    ),
    ev.TerrainEntered(seat=1, at=(0, 1), maker=0, card=OTHER, kind="runic_mine", damage=2),
    ev.RotationGranted(seat=0, source="whirlwind"),
    ev.RerollOffered(
        seat=0, faces=(1, 6, 3), keep="highest", target_number=5, left=2, source="focus"
    ),
    ev.AttackRerolled(seat=0, die=2, face=4, faces=(1, 4, 3), total=7, grade="strong", damage=3),
    ev.SufferingRolled(seat=0, faces=(2, 5)),
    ev.StatusApplied(seat=0, status="obscured", source="incense"),
    ev.AttackDeclared(
        attacker=0,
        target=1,
        card=CARD,
        component="right_arm",
        component_roll=2,
        target_number=4,
        side=2,
        damage_by_grade=(("hit", 2), ("critical", 2)),
        defence_modifier=-1,
        reactive_allowed=True,
        shield_allowed=False,
        to_hit={
            "distance": 2,
            "side_name": "weapon side",
            "modifiers": [
                {"key": "base", "label": "Base", "value": 4, "rule": "R-HIT-1"},
                {"key": "side", "label": "Weapon side", "value": 1, "rule": "R-ARC-2"},
            ],
            "odds": {"hit": "50%"},
        },
        enhanced_by=("ap-shot", "oil"),
        further=True,
    ),
    ev.CardsDiscarded(seat=0, from_hand=(CARD,), from_deck=(), reason="jam", rule="R-DMG-1"),
    ev.DamageTaken(seat=1, from_hand=(CARD,), from_deck=(), primary_weapons=2, component="legs"),
    ev.ComponentDestroyed(seat=1, component="legs", discarded=(CARD, OTHER), rule="R-DMG-7"),
    ev.WoundDeckShuffled(
        seat=0, order=("minor-1", "minor-2"), face_up=("severe-1", "trauma-2"), known=True
    ),
    ev.OverspendPaid(seat=0, sp=2, from_hand=(CARD,), from_deck=(OTHER,)),
    ev.StrainChecked(seat=0, heat=2, roll=None, total=None, outcome="no_roll"),
    ev.CardsStolen(seat=0, target=1, cards=(CARD,), as_cards=(CARD,), source="espionage"),
    # Summoned units (R-ADD-400 to R-ADD-404)
    ev.UnitSummoned(0, "u1", "Mercenary", (1, 0), 8, 3, 3, 1, CARD),
    ev.UnitMoved(0, "u1", ((1, 0), (1, -1))),
    ev.UnitMoved(0, "u1", ((1, 0),), CARD),
    ev.UnitAttacked(0, "u1", 1, 3),
    ev.UnitAttacked(0, "u1", 1, 3, CARD),
    ev.UnitsBoosted(0, ("u1", "u2"), 2, 2, 3, CARD),
    ev.UnitDamaged(1, "u1", 2, 6, CARD),
    ev.UnitDamaged(1, "u1", 3, 0, CARD),
)


def samples() -> dict[str, list[dict[str, Any]]]:
    """Each kind's sample payloads: the battles' and the explicit ones."""
    found = {k: list(v) for k, v in played()[1].items()}
    for e in SAMPLES:
        found.setdefault(e.type, []).append(BATTLE_EVENTS.to_record(e)[2])
    return found


def test_every_event_kind_has_a_sample() -> None:
    """A new event kind fails here until it has a sample (real or explicit)."""
    missing = sorted(set(EVENT_TYPES) - set(samples()))
    assert not missing, f"event kinds without a sample payload (add one to SAMPLES): {missing}"


def _counted(type_: str) -> set[str]:
    """The fields of an event kind that hold a number or a list."""
    return {
        f.name
        for f in dataclasses.fields(EVENT_TYPES[type_])
        if str(f.type).startswith(("int", "tuple"))
    }


def test_every_number_and_list_field_has_a_sample_that_varies_it() -> None:
    """Each number field is a number, and each list field holds something, in some sample
    of its kind: otherwise the variants below would never set it to 1 or 2."""
    unvaried = []
    for type_, payloads in samples().items():
        for name in _counted(type_):
            if not any(p.get(name) not in (None, [], ()) for p in payloads):
                unvaried.append(f"{type_}.{name}")
    assert not unvaried, sorted(unvaried)


# --- the variants --------------------------------------------------------------------------


def _resized(items: list[Any], n: int) -> list[Any]:
    """`items` cut or grown (its first element again) to `n` elements."""
    return [items[min(i, len(items) - 1)] for i in range(n)]


def _inner(hint: Any, key: Any) -> tuple[Any, bool]:
    """The type of a value's element `key` (Any when not known), and whether the value is a
    list of any length (`tuple[X, ...]`, or a list in a free-form mapping) rather than a
    fixed record such as a hex's `tuple[int, int]`."""
    args = [a for a in get_args(hint) if a is not type(None)]
    if get_origin(hint) in (UnionType, Union) and len(args) == 1:
        return _inner(args[0], key)
    if get_origin(hint) is tuple:
        if args and args[-1] is Ellipsis:
            return args[0], True
        return (args[key] if isinstance(key, int) and key < len(args) else Any), False
    if get_origin(hint) in (Mapping, dict) and len(args) == 2:
        return args[1], True
    return Any, True


def _places(value: Any, hint: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every number (not a bool) and of every non-empty list of any length."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _places(v, _inner(hint, k)[0], (*path, k))
    elif isinstance(value, list | tuple) and value:
        if _inner(hint, 0)[1]:
            yield path
        for i, v in enumerate(value):
            yield from _places(v, _inner(hint, i)[0], (*path, i))


def _set(value: Any, path: tuple[Any, ...], n: int) -> Any:
    """`value` with the number at `path` made `n`, or the list there `n` elements long."""
    if not path:
        return _resized(list(value), n) if isinstance(value, list | tuple) else n
    head, rest = path[0], path[1:]
    if isinstance(value, Mapping):
        return {**value, head: _set(value[head], rest, n)}
    items = list(value)
    items[head] = _set(items[head], rest, n)
    return items


def _all(value: Any, hint: Any, n: int) -> Any:
    """`value` with every list of any length `n` elements long and every number `n`."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return n
    if isinstance(value, Mapping):
        return {k: _all(v, _inner(hint, k)[0], n) for k, v in value.items()}
    if isinstance(value, list | tuple):
        items = _resized(list(value), n) if value and _inner(hint, 0)[1] else list(value)
        return [_all(v, _inner(hint, i)[0], n) for i, v in enumerate(items)]
    return value


def variants(type_: str, payload: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The payload with each number and each list at 1 and 2 in turn, then all at once."""
    hints = get_type_hints(EVENT_TYPES[type_])
    fields = {k: hints.get(k, Any) for k in payload}
    for n in (1, 2):
        for k, v in payload.items():
            for path in _places(v, fields[k], (k,)):
                yield f"{'.'.join(map(str, path))}={n}", _set(payload, path, n)
        yield f"everything={n}", {k: _all(v, fields[k], n) for k, v in payload.items()}


VIEWERS = (("GM", set(), True), ("seat 0", {0}, False), ("seat 1", {1}, False),
           ("watcher", set(), False))  # fmt: skip


@pytest.mark.parametrize("type_", sorted(EVENT_TYPES))
def test_each_sentence_reads_right_with_one_and_with_two(type_: str) -> None:
    names = played()[0]
    payloads = samples().get(type_)
    assert payloads, f"no sample payload for {type_}"
    wrong = []
    for payload in payloads:
        for label, varied in variants(type_, payload):
            for viewer, seats, full in VIEWERS:
                shown = public_payload(type_, varied, seats, full=full)
                text = plain(describe(type_, shown, names))
                printed = {c.name for c in names.cards.values()}
                wrong += [(label, viewer, text, f) for f in faults(text, printed)]
    assert not wrong, "\n".join(map(repr, wrong[:20]))
