"""The effect catalogue (R-ADD-57): every automated entry is played through decide/evolve
on a small battle and does what its text promises.

Each card is built the way the database import builds it: `derive_from_database` on an
entry carrying the catalogue's recorded text, cost and range, so the hash match is part
of every scenario and no database file is needed. The expectations below are written
from the printed texts (quoted beside them), not read from the catalogue's effects.
Battles are table battles (R-ADD-18): every die face and drawn card is given.
Conditions and token counts the scenario needs are arranged with GM adjustments or, where
none exists, by folding the event that would have produced them (`arrange`).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from random import Random
from typing import Any

import pytest

from battles.engine.battle import battle_outcome, evolve
from battles.engine.battle.decide import attack_answer
from battles.engine.battle.events import (
    AttackDeclared,
    BuffGained,
    CardsDiscarded,
    CardsDrawn,
    CardsRecovered,
    CardsShuffledIn,
    CasketMoved,
    CasketRotated,
    DamageTaken,
    DefenceRaised,
    DefenceRolled,
    EffectRolled,
    Event,
    HeatChanged,
    PromptOpened,
    SeedsDetonated,
    SeedsPlanted,
    SpDrained,
    StatusApplied,
    TaintChanged,
    TokensChanged,
)
from battles.engine.carddata.card_catalogue import catalogue, lookup, text_hash
from battles.engine.carddata.carddb import DatabaseRead, read_database
from battles.engine.carddata.derive import db_kind, derive_from_database
from battles.engine.cards import CardDef, card_from_dict
from battles.engine.tohit import MAX_DAMAGE, parse_range

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat

ENTRIES = catalogue()
AUTOMATED = sorted(k for k, e in ENTRIES.items() if e.automated)
# The test's own attacker: a plain Melee 2 attack (see the reactive scenarios).
MAUL: dict[str, Any] = {
    "id": "test-maul", "name": "Test Maul", "kind": "primary_weapon", "sp_cost": 1,
    "range": "Melee", "damage": 2, "heat": 0, "automated": True,
    "effects": [{"kind": "attack", "range": "Melee", "damage": 2}],
}  # fmt: skip


DATABASE = Path(__file__).resolve().parents[3] / "shared/data/penance-card-database-v5.15b.json"


@lru_cache(maxsize=1)
def database() -> DatabaseRead:
    """The real card database as the import reads it; every scenario skips without it."""
    if not DATABASE.is_file():
        pytest.skip(f"the real card database is not at {DATABASE}")
    return read_database(json.loads(DATABASE.read_text(encoding="utf-8")))


def built(section: str, card_id: str) -> CardDef:
    """The card exactly as the database import derives it from its own entry (R-ADD-57):
    the database's kind, keywords, cost, range, damage and text, through the catalogue's
    hash match; an item's card takes its item's slot (R-ADD-52)."""
    found = database().by_section.get((section, card_id))
    assert found is not None, f"{section}/{card_id}: catalogued but not in the database"
    assert found.card.automated, (section, card_id, database().notes.get(card_id))
    return found.card


def database_kind(section: str, card_id: str) -> str:
    """The kind the card's own database entry gives it (its type and keywords), before any
    kind its catalogue entry sets."""
    found = database().by_section[(section, card_id)]
    return db_kind(section, found.card_type.lower(), found.card.keywords)


@contextmanager
def played_as(card_id: str) -> Iterator[set[str]]:
    """How a scenario played `card_id`: "reactive" for each accepted `play_reactive` of it
    (in answer to an attack, R-REA-1), "own turn" for each accepted `play_card` or
    `attack` with it in its owner's turn (a passive is played so, then waits for its
    trigger)."""
    modes: set[str] = set()
    plain = Battle.do

    def do(self: Battle, body: Any, dice: Any = None) -> list[Event]:
        events = plain(self, body, dice)
        if str(body.get("card", "")).split("#", 1)[0] == card_id:
            kind = body.get("type")
            modes.add("reactive" if kind == "play_reactive" else str(kind))
        return events

    Battle.do = do  # type: ignore[method-assign]
    try:
        yield modes
    finally:
        Battle.do = plain  # type: ignore[method-assign]


# How a card of each database kind is played as printed (R-REA-1: a reactive card answers
# an attack in an opponent's turn; every other card is played in its owner's own turn).
PLAYED_AS = {"reactive": {"reactive"}}
OWN_TURN = {"play_card", "attack"}
# The cards whose printed text is played otherwise than their database kind says, each
# with the ruling that names it: the kind their catalogue entry gives them.
PLAYED_OTHERWISE = {
    ("ossuarium", "corpse-shield"): "R-ADD-272",  # typed Reactive, printed "Passive: …"
    ("nomads", "ghost-step"): "R-ADD-272",  # "After making an attack, move up to 2 hexes"
    ("nomads", "scrapper"): "R-ADD-272",  # "When you destroy an enemy Casket, …"
}


def run_scenario(key: tuple[str, str], scenario: Callable[[], object]) -> None:
    """Run one card's scenario and check that it played the card the way the database's
    kind of the card is played: a reactive card in answer to an attack, any other card
    in its owner's turn."""
    assert ENTRIES[key].text  # the scenario's docstring or comment quotes it
    with played_as(key[1]) as modes:
        scenario()
    kind = database_kind(*key)
    if key in PLAYED_OTHERWISE:
        assert ENTRIES[key].kind not in (None, kind), (key, PLAYED_OTHERWISE[key])
        kind = built(*key).kind
    else:
        assert built(*key).kind == "reactive" or kind != "reactive", key
    wanted = PLAYED_AS.get(kind, OWN_TURN)
    assert modes & wanted, f"{key}: a {kind} card, played only as {sorted(modes) or 'nothing'}"


def battle(
    card: CardDef,
    *,
    gap: int = 1,
    first: int = 0,
    hand: tuple[str, ...] = (),
    opponent: tuple[str, ...] = (),
    lava: bool = False,
    version: str = "2.0",
    cover: bool = False,
    options: dict[str, Any] | None = None,
) -> Battle:
    """Seat 0 at [0, 3] facing N holds `card` (+ `hand`); seat 1 `gap` hexes north facing S;
    radius 8, so ranges up to 10 fit with one hex to spare. `first` acts first (R-TRN-2)."""
    rows0 = deck(**{card.id: 2}, **{h: 1 for h in hand if h != card.id})
    rows1 = deck(**{"test-maul": 2}, **{o: 1 for o in opponent})
    cards = [
        CARDS[FILLER],
        MAUL,
        card.as_dict(),
        *(CARDS[x] for x in {*hand, *opponent} - {card.id}),
    ]
    board: dict[str, Any] = {"name": "Catalogue yard", "shape": {"kind": "hexagon", "radius": 8},
                             "hexes": [{"q": 0, "r": 3, "terrain": "lava"}] if lava else []}  # fmt: skip
    if lava:
        board["terrain_kinds"] = {"lava": {}}
    if cover:  # the target in heavy cover, +2 (R-COV-1, R-COV-2)
        board["hexes"].append({"q": 0, "r": 3 - gap, "terrain": "fortification"})
    doc = {
        "name": "Catalogue", "board": board, "rules": {"version": version, "options": options or {}},
        "dice": {"mode": "table"}, "policy": "prompt",
        "cards": cards,
        "seats": [
            {**seat(0, at=(0, 3), facing=1), "deck": rows0},
            {**seat(1, at=(0, 3 - gap), facing=4), "deck": rows1},
        ],
    }  # fmt: skip
    b = Battle.create(doc)
    hands = [[card.id, *hand], ["test-maul", *opponent]]
    for i in (0, 1):
        body: dict[str, Any] = {"type": "keep_hand", "seat": i,
                                "drawn": hands[i] + [FILLER] * (6 - len(hands[i]))}  # fmt: skip
        if i == 1:
            body["faces"] = [6, 1] if first == 0 else [1, 6]
        b.do(body)
    return b


def arrange(b: Battle, *events: Event) -> None:
    """Fold events a scenario needs that no command of this test produces (tokens)."""
    for e in events:
        b.state = evolve(b.state, e)


def tokens(b: Battle, pool: str, n: int) -> None:
    arrange(b, TokensChanged(0, pool, n, n, "arranged"))


def attack(b: Battle, card: CardDef, **extra: Any) -> list[Event]:
    """Seat 0 attacks seat 1, named component, a missing roll: the declaration is the point."""
    body = {"type": "attack", "seat": 0, "card": f"{card.id}#1", "target": 1,
            "component": "chassis", "faces": [1, 1], **extra}  # fmt: skip
    return b.do(body)


def declared(b: Battle, card: CardDef, **extra: Any) -> AttackDeclared:
    d: AttackDeclared = one(attack(b, card, **extra), AttackDeclared)
    return d


def hit(d: AttackDeclared) -> int:
    return dict(d.damage_by_grade)["hit"]


def ignored(d: AttackDeclared) -> int:
    """Blocks the attack cancels beyond the rules' own defence modifier (R-DMG-3)."""
    return int(d.to_hit["defense_modifier"]) - d.defence_modifier


def plain_target_number(b: Battle, card: CardDef) -> int:
    attack_effect = card.attack
    assert attack_effect is not None
    plain = CardDef(id="plain", name="Plain", kind="other", sp_cost=0, range=attack_effect.range,
                    damage=attack_effect.damage, effects=(attack_effect,), automated=True)  # fmt: skip
    n = attack_answer(b.state, 0, plain, 1).target_number
    assert n is not None
    return n


# --- the catalogue itself ----------------------------------------------------------------------


def test_every_entry_hash_is_its_recorded_text_cost_and_range() -> None:
    """R-ADD-57: the key the database import matches on."""
    for e in ENTRIES.values():
        assert e.sha256 == text_hash(e.text, e.cost, e.range), e.id


def test_a_changed_text_falls_back_to_manual_with_the_reason() -> None:
    """R-ADD-57: an entry reviewed for another text is not applied."""
    e = ENTRIES[("equipment", "cleaving-strike")]
    entry = {"id": e.id, "name": "Cleaving Strike", "type": "Attack", "cost": e.cost,
             "range": e.range, "damage": 4, "effect": e.text + " Draw 1 card.",
             "keywords": ["attack", "primary"]}  # fmt: skip
    d = derive_from_database(entry, "equipment")
    assert d.card is not None and not d.automated
    assert d.note is not None and "R-ADD-57" in d.note and e.sha256 in d.note


def test_a_card_catalogued_manual_keeps_its_reason() -> None:
    e = ENTRIES[("dwarves", "iron-wall")]  # blocks damage once Component Damage is known
    assert e.manual and lookup("dwarves", e.id, e.text, e.cost, e.range) == (None, e.manual)


def test_the_same_id_in_two_sections_is_two_entries() -> None:
    """Ids repeat across sections (forge-blessing): the section is part of the key."""
    a, b = ENTRIES[("dwarves", "forge-blessing")], ENTRIES[("crucible", "forge-blessing")]
    assert a.automated and not b.automated


def test_every_automated_entry_builds_from_its_database_entry() -> None:
    """R-ADD-57: each automated catalogue entry is the card the database import loads
    from the entry it was written for (its hash matches that entry), and a card the
    database makes reactive stays reactive unless a ruling names it (PLAYED_OTHERWISE)."""
    addenda = (Path(__file__).resolve().parents[2] / "docs/RULINGS-ADDENDA.md").read_text()
    for key in AUTOMATED:
        card = built(*key)
        db = database_kind(*key)
        if key in PLAYED_OTHERWISE:
            assert f"**{PLAYED_OTHERWISE[key]} " in addenda and key[1] in addenda, key
        else:
            assert (card.kind == "reactive") == (db == "reactive"), (key, card.kind, db)


def test_no_manual_reason_blames_a_text_that_did_not_change() -> None:
    """R-ADD-270: the catalogue is looked up with the printed cost and range, so a card
    whose printed text, cost and range hash to its entry's never says "written for another
    text" (a cost printed in tokens is not rewritten to 0 SP before the lookup)."""
    read = database()
    doc = json.loads(DATABASE.read_text(encoding="utf-8"))
    checked = 0
    for (section, cid), found in read.by_section.items():
        entry = ENTRIES.get((section, cid))
        if entry is None or read.cards.get(cid) != found:
            continue
        src = found.source
        group, _, sub = src.section.partition(".")  # "v3_optional.<name>" (R-ADD-53)
        raw = (doc[group][sub] if sub else doc[group])[src.index]
        raw = raw if src.sub is None else raw["cards"][src.sub]
        if text_hash(raw.get("effect", ""), raw.get("cost"), raw.get("range")) != entry.sha256:
            continue
        checked += 1
        assert "written for another text" not in read.notes.get(cid, ""), cid
        if entry.manual is not None:
            assert not found.card.automated and read.notes.get(cid) == entry.manual, cid
    assert checked > 500


# R-ADD-274: the cards that make terrain without printing how long it lasts.
NO_PRINTED_DURATION = {
    ("equipment", "smoke-bomb"),
    ("equipment_items", "inferno-staff-meteor-strike"),
    ("equipment_items", "winter-s-heart-staff-avalanche"),
    ("equipment_items", "world-tree-staff-earthquake"),
    ("nomads", "smoke-and-mirrors"),
}


def test_terrain_lasts_as_printed_or_as_the_ruling_naming_the_card_says() -> None:
    """R-ADD-161, R-ADD-274: terrain lasting to the end of the round either prints "round"
    or is a card R-ADD-274 names; every card it names is such a card."""
    addenda = (Path(__file__).resolve().parents[2] / "docs/RULINGS-ADDENDA.md").read_text()
    ruling = addenda[addenda.index("**R-ADD-274 ") :]
    ruling = ruling.split("\n- **")[0]
    unprinted = set()
    for key, e in ENTRIES.items():
        shown = repr([x.as_dict() for x in e.effects or ()])
        if "'terrain'" in shown and "'end_of_round'" in shown and "round" not in e.text:
            unprinted.add(key)
    assert unprinted == NO_PRINTED_DURATION
    assert all(f"`{cid}`" in ruling for _, cid in NO_PRINTED_DURATION)


def all_scenarios() -> dict[tuple[str, str], Callable[[], object]]:
    """The scenarios below and those of every other `test_card_catalogue_*.py` file, each
    exporting a `*_SCENARIOS` dict (imported here, when the tests run, since they build on
    this file's helpers). A file per group of cards keeps engineers off each other's lines."""
    found = dict(SCENARIOS)
    for module in sorted(pkgutil.iter_modules([str(Path(__file__).parent)])):
        if not module.name.startswith("test_card_catalogue_"):
            continue
        loaded = importlib.import_module(f"{__package__}.{module.name}")
        groups = [v for k, v in vars(loaded).items() if k.endswith("_SCENARIOS")]
        assert len(groups) == 1, f"{module.name} exports one *_SCENARIOS dict"
        twice = found.keys() & groups[0].keys()
        assert not twice, f"a card has two scenarios: {sorted(twice)}"
        found.update(groups[0])
    return found


def test_every_automated_entry_has_a_scenario_below() -> None:
    assert sorted(all_scenarios()) == AUTOMATED


# --- the scenarios -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Attack:
    """An attack card: its reach, its printed damage, blocks ignored, target-number change."""

    reach: int
    damage: int
    ignore: int = 0  # MAX_DAMAGE: all Defense
    to_hit: int = 0


def check_attack(section: str, cid: str, spec: Attack) -> Battle:
    card = built(section, cid)
    assert card.range == (parse_range("Melee") if spec.reach == 1 else card.range)
    assert card.range is not None and card.range.high == spec.reach
    b = battle(card, gap=spec.reach)
    base = plain_target_number(b, card)
    d = declared(b, card)
    assert (hit(d), ignored(d), d.target_number - base) == (spec.damage, spec.ignore, spec.to_hit)
    far = battle(card, gap=spec.reach + 1)
    assert far.refuse({"type": "attack", "seat": 0, "card": f"{cid}#1", "target": 1}).code
    return b


def conditional(
    section: str, cid: str, base: int, bonus: int, make_true: Callable[[Battle], None], **kw: Any
) -> None:
    """Base damage when the condition fails, base + bonus when it holds (R-ADD-59)."""
    card = built(section, cid)
    assert hit(declared(battle(card, **kw), card)) == base
    b = battle(card, **kw)
    make_true(b)
    assert hit(declared(b, card)) == base + bonus


def spend(section: str, cid: str, base: int, pool: str, n: int, bonus: int) -> None:
    """ "Spend N <pool>: deal X instead": without spending, base; spending, base + bonus and
    the tokens go; spending without them is refused (R-ADD-61)."""
    card = built(section, cid)
    assert hit(declared(battle(card), card)) == base
    b = battle(card)
    tokens(b, pool, n + 1)
    events = attack(b, card, spend=True)
    assert hit(one(events, AttackDeclared)) == base + bonus
    assert one(events, TokensChanged).amount == -n and b.seat(0).tokens_of(pool) == 1
    poor = battle(card)
    tokens(poor, pool, n - 1) if n > 1 else None
    err = poor.refuse({"type": "attack", "seat": 0, "card": f"{cid}#1", "target": 1,
                       "spend": True, "component": "chassis", "faces": [1, 1]})  # fmt: skip
    assert (err.code, err.rule) == ("not_enough_tokens", "R-ADD-61")


def gains(section: str, cid: str, pool: str, n: int, damage: int) -> None:
    card = built(section, cid)
    b = battle(card)
    events = attack(b, card)
    assert hit(one(events, AttackDeclared)) == damage
    assert b.seat(0).tokens_of(pool) == n


def reactive(
    section: str, cid: str, reduce: int, minimum: int, *, pool: str = "", more: int = 0
) -> Battle:
    """Seat 1 hits seat 0 with a Melee 2 attack, no blocks; seat 0 answers with the card
    (R-REA-1): final damage = 2 − reduction, never below `minimum` (R-ADD-58); spending
    `pool` reduces `more` further (R-ADD-61)."""
    card = built(section, cid)
    results = []
    for spending in [False, True] if pool else [False]:
        b = battle(card, first=1)
        if spending:
            arrange(b, TokensChanged(0, pool, 1, 1, "arranged"))
        b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
              "component": "chassis", "faces": [3, 2]})  # fmt: skip
        assert [p.kind for p in b.state.prompts] == ["reactive"]
        answer: dict[str, Any] = {
            "type": "play_reactive",
            "seat": 0,
            "card": f"{cid}#1",
            "faces": [4, 4],
        }
        if spending:
            answer["spend"] = True
        if cid == "buckler-block":
            answer["drawn"] = [FILLER]
        events = b.do(answer)
        rolled = one(events, DefenceRolled)
        total = reduce + (more if spending else 0)
        assert rolled.reduction_applied == total
        assert rolled.final_damage == max(min(minimum, 2), 2 - total)
        if spending:
            assert b.seat(0).tokens_of(pool) == 0
        results.append(b)
    return results[0]


def reactive_gain(section: str, cid: str, pool: str, n: int) -> None:
    b = reactive(section, cid, 2, 1)
    assert b.seat(0).tokens_of(pool) == n


def defence(section: str, cid: str, n: int) -> None:
    """ "+N Defense until your next turn": N automatic blocks against the next enemy attack,
    gone at the start of the own next turn (R-DMG-3, R-ADD-64)."""
    card = built(section, cid)
    b = battle(card)
    assert (
        one(b.do({"type": "play_card", "seat": 0, "card": f"{cid}#1"}), DefenceRaised).amount == n
    )
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    d = one(b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
                  "component": "chassis", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
    assert d.defence_modifier - int(d.to_hit["defense_modifier"]) == n
    # Round 1 ends; round 2's initiative gives seat 0 the first turn, and the bonus lapses.
    b.do({"type": "pass", "seat": 1, "drawn": ["test-maul"], "faces": [6, 1]})
    assert b.state.active == 0 and b.seat(0).defence_bonus == 0


def play(b: Battle, cid: str, **extra: Any) -> list[Event]:
    return b.do({"type": "play_card", "seat": 0, "card": f"{cid}#1", **extra})


def _desperate_lunge() -> None:
    """ "Move up to 2 hexes in any direction. You may rotate once during movement. Generate 1 Heat.\""""
    card = built("universal", "desperate-lunge")
    b = battle(card, gap=4)
    events = play(b, "desperate-lunge", path=[[1, 2], [1, 1]])
    assert one(events, CasketMoved).path == ((1, 2), (1, 1)) and b.seat(0).heat == 1
    b = battle(card, gap=4)
    assert one(play(b, "desperate-lunge", path=[[0, 2]], facing=2), CasketRotated).facing == 2
    err = battle(card, gap=4).refuse({"type": "play_card", "seat": 0, "card": "desperate-lunge#1",
                                      "path": [[0, 2]], "facing": 3})  # fmt: skip
    assert err.code == "rotation_too_far"


def _wardens_pivot() -> None:
    """ "Rotate to any facing (no limit). Free action - does not cost SP.\""""
    b = battle(built("universal", "wardens-pivot"))
    assert one(play(b, "wardens-pivot", facing=4), CasketRotated).facing == 4
    assert b.seat(0).sp_spent == 0


def _ironstriders_rush() -> None:
    """ "Move up to 3 hexes in straight line. Ignore difficult terrain. Generate 2 Heat.\""""
    card = built("universal", "ironstriders-rush")
    b = battle(card, gap=5)
    assert one(play(b, "ironstriders-rush", path=[[0, 2], [0, 1], [0, 0]]), CasketMoved)
    assert b.seat(0).heat == 2
    err = battle(card, gap=5).refuse({"type": "play_card", "seat": 0, "card": "ironstriders-rush#1",
                                      "path": [[0, 2], [1, 1]]})  # fmt: skip
    assert (err.code, err.rule) == ("not_a_straight_line", "R-ADD-63")


def _souls_recall() -> None:
    """ "Draw 2 cards.\""""
    b = battle(built("universal", "souls-recall"))
    assert len(one(play(b, "souls-recall", drawn=[FILLER, FILLER]), CardsDrawn).cards) == 2
    assert len(b.seat(0).hand) == 7


def _tattered_hope() -> None:
    """ "Discard your entire hand. Draw 3 cards.\""""
    b = battle(built("universal", "tattered-hope"))
    events = play(b, "tattered-hope", drawn=[FILLER] * 3)
    assert len(one(events, CardsDiscarded).from_hand) == 5
    assert len(b.seat(0).hand) == 3


def _recover(section: str, cid: str, n: int, attack_card: bool) -> None:
    """ "Recover N cards from (your) discard pile": the newest first (R-ADD-62)."""
    card = built(section, cid)
    b = battle(card)
    junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:n]
    arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
    events = attack(b, card) if attack_card else play(b, cid)
    assert set(one(events, CardsRecovered).cards) == set(junk)
    assert set(junk) <= set(b.seat(0).hand)


def _heat_vent() -> None:
    """ "Remove up to 3 Heat. Draw 1 card.\""""
    b = battle(built("dwarves", "heat-vent"))
    b.do({"type": "adjust_heat", "seat": 0, "heat": 4, "reason": "arranged"})
    play(b, "heat-vent", drawn=[FILLER])
    assert b.seat(0).heat == 1 and len(b.seat(0).hand) == 6


def _dwarf_forge_blessing() -> None:
    """ "Your next attack deals +2 damage. Gain 1 Heat.\""""
    b = battle(built("dwarves", "forge-blessing"), opponent=())
    events = play(b, "forge-blessing")
    assert one(events, BuffGained).damage == 2 and b.seat(0).heat == 1


def _desperate_gamble() -> None:
    """ "Discard 3 cards from deck. Your next attack deals +5 damage and ignores all Defense.\""""
    b = battle(built("nomads", "desperate-gamble"))
    events = play(b, "desperate-gamble", drawn=[FILLER] * 3)
    assert len(one(events, CardsDiscarded).from_deck) == 3
    buff = one(events, BuffGained)
    assert (buff.damage, buff.ignore_defence) == (5, MAX_DAMAGE)


def _nature_stride() -> None:
    """ "Move up to 4 hexes. Ignore difficult terrain.\""""
    b = battle(built("elves", "nature-stride"), gap=6)
    path = [[0, 2], [0, 1], [1, 0], [1, -1]]
    assert len(one(play(b, "nature-stride", path=path), CasketMoved).path) == 4


def _token_utility(section: str, cid: str, pool: str, n: int) -> None:
    """ "Gain N <pool> tokens immediately. Generate 1 Heat.\""""
    b = battle(built(section, cid))
    play(b, cid)
    assert (b.seat(0).tokens_of(pool), b.seat(0).heat) == (n, 1)


def _anvil_breaker() -> None:
    """ "7 damage. Can't move after.\""""
    card = built("equipment", "anvil-breaker")
    b = battle(card)
    events = attack(b, card)
    assert (
        hit(one(events, AttackDeclared)) == 7 and one(events, StatusApplied).status == "immobilised"
    )
    assert b.refuse({"type": "move", "seat": 0, "path": [[1, 2]]}).code == "immobilised"


def _hp_at_most_15(b: Battle) -> None:
    # Ruleset 2.1: 9 cards lost to damage leave 15 in deck and discard (R-DMG-8, R-DMG-9).
    arrange(b, DamageTaken(1, (), b.seat(1).deck[:9], 0, None))
    assert b.seat(1).hp == 15


SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {
    ("universal", "desperate-lunge"): _desperate_lunge,
    ("universal", "wardens-pivot"): _wardens_pivot,
    ("universal", "ironstriders-rush"): _ironstriders_rush,
    # "Play when targeted by attack. Reduce damage by 2 (minimum 1)."
    ("universal", "unyielding-bulwark"): lambda: reactive("universal", "unyielding-bulwark", 2, 1),
    ("universal", "second-skin"): lambda: reactive("universal", "second-skin", 1, 1),
    ("universal", "souls-recall"): _souls_recall,
    ("universal", "tattered-hope"): _tattered_hope,
    # equipment
    ("equipment", "faithful-thrust"): lambda: check_attack("equipment", "faithful-thrust", Attack(1, 4)),
    ("equipment", "cleaving-strike"): lambda: check_attack("equipment", "cleaving-strike", Attack(1, 5, 1)),
    ("equipment", "execution-blow"): lambda: conditional(
        "equipment", "execution-blow", 7, 2, _hp_at_most_15, version="2.1"),  # "+2 if target ≤15 HP"
    ("equipment", "buckler-block"): lambda: reactive("equipment", "buckler-block", 1, 0),
    ("equipment", "defensive-stance"): lambda: defence("equipment", "defensive-stance", 2),
    ("equipment", "hammer-strike"): lambda: check_attack("equipment", "hammer-strike", Attack(1, 5, 1)),
    ("equipment", "runic-smash"): lambda: gains("equipment", "runic-smash", "rune", 1, 6),
    ("equipment", "anvil-breaker"): _anvil_breaker,
    ("equipment", "tower-block"): lambda: reactive("equipment", "tower-block", 3, 0),
    ("equipment", "shield-wall"): lambda: defence("equipment", "shield-wall", 3),
    ("equipment", "aimed-shot"): lambda: check_attack("equipment", "aimed-shot", Attack(6, 3)),
    ("equipment", "piercing-arrow"): lambda: check_attack("equipment", "piercing-arrow", Attack(8, 4, 1)),
    ("equipment", "sniper-shot"): lambda: check_attack("equipment", "sniper-shot", Attack(10, 6, 0, 1)),
    ("equipment", "regenerate"): lambda: _recover("equipment", "regenerate", 3, False),
    ("equipment", "quick-slash"): lambda: check_attack("equipment", "quick-slash", Attack(1, 6)),
    ("equipment", "pistol-shot"): lambda: check_attack("equipment", "pistol-shot", Attack(4, 6)),
    ("equipment", "forge-spear-throw"): lambda: spend("equipment", "forge-spear-throw", 6, "forge", 2, 2),
    ("equipment", "lava-forged-shield"): lambda: reactive_gain("equipment", "lava-forged-shield", "forge", 1),
    ("equipment", "contract-blade"): lambda: gains("equipment", "contract-blade", "credit", 2, 3),
    ("equipment", "mercenary-strike"): lambda: spend("equipment", "mercenary-strike", 4, "credit", 1, 1),
    ("equipment", "hostile-takeover"): lambda: _spend_all("equipment", "hostile-takeover", 6, "credit", 0),
    ("equipment", "expense-report"): lambda: reactive_gain("equipment", "expense-report", "credit", 2),
    ("equipment", "savage-claw"): lambda: gains("equipment", "savage-claw", "biomass", 2, 3),
    ("equipment", "bloodline-fury"): lambda: _spend_all("equipment", "bloodline-fury", 7, "biomass", 2),
    ("equipment", "chitin-plating"): lambda: reactive("equipment", "chitin-plating", 2, 1, pool="biomass", more=1),
    ("equipment", "distortion-blade"): lambda: check_attack("equipment", "distortion-blade", Attack(1, 3, 1)),
    ("equipment", "warped-slash"): lambda: conditional(
        "equipment", "warped-slash", 3, 2,
        lambda b: b.do({"type": "adjust_taint", "seat": 1, "taint": 2, "reason": "arranged"})),
    ("equipment", "death-grip"): lambda: _recover("equipment", "death-grip", 1, True),
    ("equipment", "drain-essence"): lambda: (check_attack("equipment", "drain-essence", Attack(2, 2)),
                                             _recover("equipment", "drain-essence", 1, True)),
    ("equipment", "bone-ward"): lambda: reactive("equipment", "bone-ward", 2, 1),
    # dwarves
    ("dwarves", "crushing-blow"): lambda: check_attack("dwarves", "crushing-blow", Attack(1, 4, MAX_DAMAGE)),
    ("dwarves", "thundering-blow"): lambda: conditional(
        "dwarves", "thundering-blow", 7, 2,
        lambda b: b.do({"type": "adjust_component_damage", "seat": 0, "component": "legs",
                        "amount": 2, "reason": "arranged"})),
    ("dwarves", "war-pick-strike"): lambda: check_attack("dwarves", "war-pick-strike", Attack(1, 4, MAX_DAMAGE)),
    ("dwarves", "molten-hammer"): lambda: _molten_hammer(),
    ("dwarves", "runic-strike"): lambda: _runic_strike(),
    ("dwarves", "heat-vent"): _heat_vent,
    ("dwarves", "forge-blessing"): _dwarf_forge_blessing,
    ("dwarves", "shield-mastery"): lambda: defence("dwarves", "shield-mastery", 2),
    # ossuarium
    ("ossuarium", "bone-scythe-swing"): lambda: check_attack("ossuarium", "bone-scythe-swing", Attack(1, 3)),
    ("ossuarium", "death-grasp"): lambda: check_attack("ossuarium", "death-grasp", Attack(5, 2)),
    ("ossuarium", "bone-armor"): lambda: reactive("ossuarium", "bone-armor", 2, 0),
    # elves, nomads
    ("elves", "nature-stride"): _nature_stride,
    ("nomads", "desperate-gamble"): _desperate_gamble,
    ("nomads", "quick-slash"): lambda: check_attack("nomads", "quick-slash", Attack(1, 3)),
    ("nomads", "pistol-shot"): lambda: check_attack("nomads", "pistol-shot", Attack(4, 3)),
    ("nomads", "opportunist-strike"): lambda: _opportunist_strike(),
    # crucible
    ("crucible", "hammer-strike"): lambda: _lava_hammer(),
    ("crucible", "volcanic-slash"): lambda: conditional(
        "crucible", "volcanic-slash", 4, 1, lambda b: tokens(b, "forge", 3)),
    ("crucible", "forge-fury"): lambda: (spend("crucible", "forge-fury", 6, "forge", 2, 2), _gains_heat("crucible", "forge-fury", 1)),
    ("crucible", "component-sunder"): lambda: spend("crucible", "component-sunder", 5, "forge", 2, 2),
    ("crucible", "ember-shield"): lambda: reactive("crucible", "ember-shield", 2, 1, pool="forge", more=2),
    ("crucible", "forge-call"): lambda: _token_utility("crucible", "forge-call", "forge", 2),
    # emergent
    ("emergent", "mantis-strikes"): lambda: check_attack("emergent", "mantis-strikes", Attack(1, 3)),
    ("emergent", "segmented-lash"): lambda: check_attack("emergent", "segmented-lash", Attack(2, 3)),
    ("emergent", "arthropod-fury"): lambda: spend("emergent", "arthropod-fury", 6, "metamorph", 1, 2),
    ("emergent", "precision-strikes"): lambda: _precision(),
    ("emergent", "reactive-carapace"): lambda: reactive("emergent", "reactive-carapace", 2, 1, pool="metamorph", more=2),
    # exchange
    ("exchange", "ledger-strike"): lambda: conditional(
        "exchange", "ledger-strike", 3, 1, lambda b: tokens(b, "credit", 3)),
    ("exchange", "coin-throw"): lambda: (check_attack("exchange", "coin-throw", Attack(4, 2)),
                                         spend("exchange", "coin-throw", 2, "credit", 1, 2)),
    ("exchange", "liquidation"): lambda: spend("exchange", "liquidation", 5, "credit", 2, 2),
    ("exchange", "defense-contract"): lambda: reactive("exchange", "defense-contract", 2, 1, pool="credit", more=2),
    ("exchange", "war-bonds"): lambda: _token_utility("exchange", "war-bonds", "credit", 3),
    # vestige bloodlines
    ("vestige-bloodlines", "savage-strike"): lambda: check_attack("vestige-bloodlines", "savage-strike", Attack(1, 3)),
    ("vestige-bloodlines", "reactive-scales"): lambda: reactive(
        "vestige-bloodlines", "reactive-scales", 2, 1, pool="biomass", more=1),
}  # fmt: skip


def _spend_all(section: str, cid: str, base: int, pool: str, heat: int) -> None:
    """ "Spend all <pool>: +1 damage per <token> spent.\""""
    card = built(section, cid)
    assert hit(declared(battle(card), card)) == base
    b = battle(card)
    tokens(b, pool, 4)
    events = attack(b, card, spend=True)
    assert hit(one(events, AttackDeclared)) == base + 4 and b.seat(0).tokens_of(pool) == 0
    assert b.seat(0).heat == heat


def _gains_heat(section: str, cid: str, n: int) -> None:
    card = built(section, cid)
    b = battle(card)
    attack(b, card)
    assert b.seat(0).heat == n


def _molten_hammer() -> None:
    """ "Deal 5 damage plus your current Heat (max +2 damage).\""""
    card = built("dwarves", "molten-hammer")
    for heat, damage in ((0, 5), (1, 6), (2, 7), (4, 7)):
        b = battle(card)
        if heat:
            b.do({"type": "adjust_heat", "seat": 0, "heat": heat, "reason": "arranged"})
        assert hit(declared(b, card)) == damage, heat


def _runic_strike() -> None:
    """ "Deal 6 damage. Gain 1 Heat.\""""
    check_attack("dwarves", "runic-strike", Attack(1, 6))
    _gains_heat("dwarves", "runic-strike", 1)


def _opportunist_strike() -> None:
    """ "Deal 5 damage if target moved during their last turn. Otherwise deals 3 damage.\""""
    card = built("nomads", "opportunist-strike")
    assert hit(declared(battle(card), card)) == 3
    b = battle(card, gap=2, first=1)
    b.do({"type": "move", "seat": 1, "path": [[0, 2]]})
    b.do({"type": "pass", "seat": 1})
    assert hit(declared(b, card)) == 5


def _lava_hammer() -> None:
    """ "Deal 3 damage. If standing in lava, deal 4 damage instead.\""""
    card = built("crucible", "hammer-strike")
    assert hit(declared(battle(card), card)) == 3
    assert hit(declared(battle(card, lava=True), card)) == 4


def _precision() -> None:
    """ "Deal 5 damage to specific component (you choose ...)": the attack names it (R-DMG-6)."""
    card = built("emergent", "precision-strikes")
    d = declared(battle(card), card, component="head")
    assert (hit(d), d.component, d.component_roll) == (5, "head", None)


def resolve_hit(
    b: Battle, card: CardDef, damage: int, *, kill: bool, roll: tuple[int, int] = (3, 2)
) -> list[Event]:
    """Seat 0 hits seat 1 (ruleset 2.1) for `damage`, no blocks; seat 1 takes it from the
    deck. With `kill`, seat 1 has 1 HP left and is defeated (R-DMG-9, survival face 4)."""
    if kill:
        arrange(b, DamageTaken(1, (), b.seat(1).deck[:-1], 0, None))
        assert b.seat(1).hp == 1
    events = attack(b, card, faces=[*roll, *[4] * damage])
    assert one(events, DefenceRolled).final_damage == damage
    answer: dict[str, Any] = {"type": "take_damage", "seat": 1, "hand": [], "deck": damage,
                              "drawn": [FILLER] * damage}  # fmt: skip
    if kill:
        answer["drawn"] = [b.seat(1).deck[0].split("#")[0]]
        answer["faces"] = [4]
    events += b.do(answer)
    assert b.seat(1).defeated == kill
    return events


def kill_reward(section: str, cid: str, damage: int, check: Callable[[Battle, bool], None]) -> None:
    """ "If this destroys/kills the target, …": only when the attack defeats it (R-ADD-65)."""
    card = built(section, cid)
    for kill in (False, True):
        b = battle(card, version="2.1", gap=reach(card))
        resolve_hit(b, card, damage, kill=kill)
        check(b, kill)


def reach(card: CardDef) -> int:
    assert card.range is not None
    return card.range.low


def shards(n: int, pool: str = "soul_shard") -> Callable[[Battle, bool], None]:
    def check(b: Battle, kill: bool) -> None:
        assert b.seat(0).tokens_of(pool) == (n if kill else 0)

    return check


def _kill_recovers(
    section: str, cid: str, damage: int, n: int, pool: str = "", gained: int = 0
) -> None:
    card = built(section, cid)
    for kill in (False, True):
        b = battle(card, version="2.1")
        junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:n]
        arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
        events = resolve_hit(b, card, damage, kill=kill)
        assert len(of_type(events, CardsRecovered)) == kill
        assert (set(junk) <= set(b.seat(0).hand)) == kill
        if pool:
            assert b.seat(0).tokens_of(pool) == (gained if kill else 0)


def _phylactery_strike(section: str = "equipment") -> None:
    """ "Deal 6 damage. If this reduces target to 0 HP, gain 1 Heat. Recover 2 cards from discard pile.\""""
    card = built(section, "phylactery-strike")
    for kill in (False, True):
        b = battle(card, version="2.1")
        junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:2]
        arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
        events = resolve_hit(b, card, 6, kill=kill)
        assert set(one(events, CardsRecovered).cards) == set(junk)
        assert b.seat(0).heat == (1 if kill else 0)


def _void_strike(section: str = "equipment") -> None:
    """ "Deal 4 damage. Apply 1 Taint to target. Bypasses all Defense.": Taint on a hit only."""
    card = built(section, "void-strike")
    assert check_attack(section, "void-strike", Attack(1, 4, MAX_DAMAGE)).seat(1).taint == 0
    b = battle(card)
    events = resolve_hit(b, card, 4, kill=False)
    assert one(events, TaintChanged).seat == 1 and b.seat(1).taint == 1


def _void_ward(section: str = "equipment") -> None:
    """ "Reduce damage by 2 (minimum 1). Apply 1 Taint to yourself.\""""
    assert reactive(section, "void-ward", 2, 1).seat(0).taint == 1


def _hp_condition(
    section: str, cid: str, hp: int, base: Callable[[Battle], int], more: int
) -> None:
    """A gain that grows when the target is below N HP (R-ADD-59 `when`)."""
    card = built(section, cid)
    b = battle(card, version="2.1")
    attack(b, card)
    first = base(b)
    b = battle(card, version="2.1")
    arrange(b, DamageTaken(1, (), b.seat(1).deck[: 24 - hp], 0, None))
    assert b.seat(1).hp == hp
    attack(b, card)
    assert base(b) == first + more


def _soul_reaper() -> None:
    """ "Deal 4 damage. If target is below 15 HP, recover 2 cards from discard pile instead of 1.\""""
    check_attack("equipment", "soul-reaper", Attack(1, 4))

    def recovered(b: Battle) -> int:
        return sum(len(e.cards) for e in of_type(b.events, CardsRecovered))

    card = built("equipment", "soul-reaper")
    for hp, n in ((15, 1), (14, 2)):
        b = battle(card, version="2.1")
        junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:2]
        arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"),
                DamageTaken(1, (), b.seat(1).deck[: 24 - hp], 0, None))  # fmt: skip
        attack(b, card)
        assert recovered(b) == n, hp


def _calculated_assault() -> None:
    """ "Deal 3 damage. Gain 2 Credits. If target is below 20 HP, gain 3 Credits instead.\""""
    check_attack("equipment", "calculated-assault", Attack(1, 3))
    _hp_condition("equipment", "calculated-assault", 19, lambda b: b.seat(0).tokens_of("credit"), 1)
    _hp_condition("equipment", "calculated-assault", 20, lambda b: b.seat(0).tokens_of("credit"), 0)


def _salvage(cid: str, n: int, gained_taint: int) -> None:
    """ "Spend N Soul Shards to recover N cards from discard pile. Gain T Taint.\""""
    card = built("ossuarium", cid)
    err = battle(card).refuse({"type": "play_card", "seat": 0, "card": f"{cid}#1"})
    assert (err.code, err.rule) == ("spend_required", "R-ADD-61")
    b = battle(card)
    tokens(b, "soul_shard", n)
    junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:n]
    arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
    events = play(b, cid, spend=True)
    assert set(one(events, CardsRecovered).cards) == set(junk)
    assert (b.seat(0).tokens_of("soul_shard"), b.seat(0).taint) == (0, gained_taint)


def _conditional_draw(
    section: str, cid: str, make_true: Callable[[Battle], None], **kw: Any
) -> None:
    """ "Draw 2 cards. If …, draw 3 cards instead.\""""
    card = built(section, cid)
    b = battle(card, **kw)
    assert sum(len(e.cards) for e in of_type(play(b, cid, drawn=[FILLER] * 2), CardsDrawn)) == 2
    b = battle(card, **kw)
    make_true(b)
    assert sum(len(e.cards) for e in of_type(play(b, cid, drawn=[FILLER] * 3), CardsDrawn)) == 3


def _ash_cloak() -> None:
    """ "Draw 2 cards. If standing in lava, draw 3 cards instead.\""""
    card = built("crucible", "ash-cloak")
    b = battle(card)
    assert len(one(play(b, "ash-cloak", drawn=[FILLER] * 2), CardsDrawn).cards) == 2
    b = battle(card, lava=True)
    assert (
        sum(len(e.cards) for e in of_type(play(b, "ash-cloak", drawn=[FILLER] * 3), CardsDrawn))
        == 3
    )


SCENARIOS.update({
    ("ossuarium", "soul-harvest"): lambda: kill_reward("ossuarium", "soul-harvest", 3, shards(3)),
    ("ossuarium", "siphon-essence"): lambda: (check_attack("ossuarium", "siphon-essence", Attack(4, 2)),
                                              kill_reward("ossuarium", "siphon-essence", 2, shards(2))),
    ("ossuarium", "necrotic-touch"): lambda: kill_reward("ossuarium", "necrotic-touch", 2, shards(4)),
    ("ossuarium", "soul-rend"): lambda: kill_reward("ossuarium", "soul-rend", 4, shards(3)),
    ("ossuarium", "drain-life"): lambda: (check_attack("ossuarium", "drain-life", Attack(6, 5)),
                                          kill_reward("ossuarium", "drain-life", 5, shards(4))),
    ("ossuarium", "salvage-protocol"): lambda: _salvage("salvage-protocol", 3, 2),
    ("ossuarium", "emergency-rebuild"): lambda: _salvage("emergency-rebuild", 5, 3),
    ("equipment", "bone-scythe-strike"): lambda: _kill_recovers("equipment", "bone-scythe-strike", 2, 1),
    ("equipment", "phylactery-strike"): _phylactery_strike,
    ("equipment", "profit-margin"): lambda: kill_reward("equipment", "profit-margin", 5, shards(3, "credit")),
    ("equipment", "soul-reaper"): _soul_reaper,
    ("equipment", "calculated-assault"): _calculated_assault,
    ("equipment", "void-strike"): _void_strike,
    ("equipment", "void-ward"): _void_ward,
    ("vestige-bloodlines", "devouring-maw"): lambda: _kill_recovers(
        "vestige-bloodlines", "devouring-maw", 5, 2, "biomass", 3),
    ("exchange", "hostile-takeover"): lambda: _kill_recovers("exchange", "hostile-takeover", 6, 2, "credit", 4),
    ("emergent", "antenna-sense"): lambda: _conditional_draw(
        "emergent", "antenna-sense", lambda b: tokens(b, "metamorph", 3)),
    ("crucible", "ash-cloak"): _ash_cloak,
})  # fmt: skip


def _answer_maul(b: Battle, cid: str, **extra: Any) -> list[Event]:
    b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
          "component": "chassis", "faces": [3, 2]})  # fmt: skip
    return b.do({"type": "play_reactive", "seat": 0, "card": f"{cid}#1", "faces": [4, 4], **extra})


def _stone_skin() -> None:
    """ "Reduce damage from next attack by 2. Gain 1 Heat." (printed 1 SP, played for 0, R-ADD-67)"""
    b = reactive("dwarves", "stone-skin", 2, 0)
    assert (b.seat(0).heat, b.seat(0).sp_spent) == (1, 0)


def _insurance_policy() -> None:
    """ "Play when targeted by attack. Spend 2 Credits: Reduce damage by 4 (minimum 1).\""""
    card = built("equipment", "insurance-policy")
    b = battle(card, first=1)
    b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
          "component": "chassis", "faces": [3, 2]})  # fmt: skip
    err = b.refuse(
        {"type": "play_reactive", "seat": 0, "card": "insurance-policy#1", "faces": [4, 4]}
    )
    assert (err.code, err.rule) == ("spend_required", "R-ADD-61")
    b = battle(card, first=1)
    tokens(b, "credit", 2)
    rolled = one(_answer_maul(b, "insurance-policy", spend=True), DefenceRolled)
    assert (rolled.reduction_applied, rolled.final_damage) == (4, 1)
    assert b.seat(0).tokens_of("credit") == 0


def _volcanic_ward() -> None:
    """ "Reduce damage by 3 (minimum 1). If standing in lava, reduce by 4 instead.\""""
    card = built("equipment", "volcanic-ward")
    for lava, reduction in ((False, 3), (True, 4)):
        b = battle(card, first=1, lava=lava)
        rolled = one(_answer_maul(b, "volcanic-ward"), DefenceRolled)
        assert (rolled.reduction_applied, rolled.final_damage) == (reduction, 1)


def _flash_grenade(section: str) -> None:
    """ "Deal 2 damage. Target has -1 to their next attack roll": +1 on its target number."""
    card = built(section, "flash-grenade")
    assert check_attack(section, "flash-grenade", Attack(4, 2)).seat(1).buff_to_hit == 0  # a miss
    b = battle(card)
    resolve_hit(b, card, 2, kill=False)
    assert b.seat(1).buff_to_hit == 1


SCENARIOS.update({
    ("dwarves", "stone-skin"): _stone_skin,
    ("equipment", "insurance-policy"): _insurance_policy,
    ("equipment", "volcanic-ward"): _volcanic_ward,
    ("equipment", "flash-grenade"): lambda: _flash_grenade("equipment"),
    ("nomads", "flash-grenade"): lambda: _flash_grenade("nomads"),
})  # fmt: skip


def _next_own_turn(b: Battle, faces: tuple[int, ...] = ()) -> list[Event]:
    """Seat 0 passes (drawing back to 6), seat 1 passes, round 2 gives seat 0 the first turn."""
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
    return b.do({"type": "pass", "seat": 1, "faces": [6, 1, *faces]})


def _passive_in_play(section: str, cid: str) -> Battle:
    """A passive stays in play once played (R-ADD-68)."""
    b = battle(built(section, cid))
    play(b, cid)
    assert f"{cid}#1" in b.seat(0).in_play and f"{cid}#1" not in b.seat(0).discard
    return b


def _bargain_struck() -> None:
    """ "Passive: At start of your turn, gain 1 Bargain token. ... Maximum 10 Bargain tokens.\""""
    b = _passive_in_play("wyrd-conclave", "bargain-struck")
    assert one(_next_own_turn(b), TokensChanged).total == 1
    # "Bargain tokens persist across missions": carried by the outcome (R-ADD-306).
    assert ENTRIES[("wyrd-conclave", "bargain-struck")].campaign is None
    b.do({"type": "end_battle", "seat": 0, "side": None, "reason": "arranged"})
    assert battle_outcome(b.events).seats[0].tokens == (("bargain", 1),)
    b = _passive_in_play("wyrd-conclave", "bargain-struck")
    tokens(b, "bargain", 10)
    assert of_type(_next_own_turn(b), TokensChanged) == []
    assert b.seat(0).tokens_of("bargain") == 10


def _photosynthesis_pendant() -> None:
    """ "At start of your turn, recover 1 card from discard pile.\""""
    b = _passive_in_play("elves", "photosynthesis-pendant")
    junk = next(x for x in b.seat(0).hand if x.startswith(FILLER))
    arrange(b, CardsDiscarded(0, (junk,), (), "arranged", "R-ADD-14"))
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * 2})
    newest = b.seat(0).discard[-1]
    events = b.do({"type": "pass", "seat": 1, "faces": [6, 1]})
    assert one(events, CardsRecovered).cards == (newest,)


def _corpse_fuel() -> None:
    """ "Passive: Whenever an enemy is destroyed within 3 hexes, gain 2 Soul Shards.\""""
    card = built("ossuarium", "corpse-fuel")
    for gap, gained in ((1, 2), (4, 0)):
        b = battle(card, gap=gap, hand=("gun",), version="2.1")
        play(b, "corpse-fuel")
        # Medium range at 4 hexes adds 1 to the target number (R-RNG-1): roll 6 there.
        resolve_hit(
            b, card_from_dict(CARDS["gun"]), 2, kill=True, roll=(3, 2) if gap < 4 else (4, 2)
        )
        assert b.seat(0).tokens_of("soul_shard") == gained, gap


def _clan_vengeance() -> None:
    """ "Each time you take Component Damage, your next attack deals +2 damage. This bonus
    stacks": a strain critical failure (R-TRN-4) gives 1 Component Damage, so +2."""
    b = _passive_in_play("dwarves", "clan-vengeance")
    b.do({"type": "adjust_heat", "seat": 0, "heat": 10, "reason": "arranged"})
    events = _next_own_turn(b, faces=(3,))  # the malfunction component roll: legs
    assert one(events, BuffGained).damage == 2 and b.seat(0).buff_damage == 2


SCENARIOS.update({
    ("wyrd-conclave", "bargain-struck"): _bargain_struck,
    ("elves", "photosynthesis-pendant"): _photosynthesis_pendant,
    ("ossuarium", "corpse-fuel"): _corpse_fuel,
    ("dwarves", "clan-vengeance"): _clan_vengeance,
})  # fmt: skip


def _move_after(section: str, cid: str, damage: int, hexes: int) -> None:
    """ "Deal N damage. After attack resolves, move up to H hexes": a move at no SP for the
    rest of the turn, hit or miss, once (R-ADD-69)."""
    card = built(section, cid)
    b = battle(card)
    d = one(attack(b, card), AttackDeclared)  # a miss
    assert hit(d) == damage and b.seat(0).free_move == hexes
    path = [[0, 4], [0, 5], [0, 6]][: hexes + 1]
    err = b.refuse({"type": "move", "seat": 0, "path": path, "free": True})
    assert (err.code, err.rule) == ("path_too_long", "R-ADD-69")
    spent = b.seat(0).sp_spent
    moved = one(b.do({"type": "move", "seat": 0, "path": path[:hexes], "free": True}), CasketMoved)
    assert (moved.cost, moved.by_card, b.seat(0).sp_spent) == (0, cid, spent)
    err = b.refuse({"type": "move", "seat": 0, "path": [[1, 2 + hexes]], "free": True})
    assert (err.code, err.rule) == ("no_free_move", "R-ADD-69")
    unused = battle(card)
    attack(unused, card)
    unused.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    assert unused.seat(0).free_move == 0  # lapses with the turn


SCENARIOS.update({
    ("equipment", "blade-dance"): lambda: _move_after("equipment", "blade-dance", 5, 1),
    ("equipment", "hit-and-run"): lambda: _move_after("equipment", "hit-and-run", 7, 2),
    ("nomads", "hit-and-run"): lambda: _move_after("nomads", "hit-and-run", 4, 2),
    ("nomads", "feint-and-strike"): lambda: _move_after("nomads", "feint-and-strike", 5, 1),
})  # fmt: skip


def _breathe_the_core() -> None:
    """ "Remove 1d3 Heat tokens.": a d6 halved, rounded up (R-ADD-67)."""
    card = built("universal", "breathe-the-core")
    for face, heat in ((1, 3), (4, 2), (5, 1)):
        b = battle(card)
        b.do({"type": "adjust_heat", "seat": 0, "heat": 4, "reason": "arranged"})
        events = play(b, "breathe-the-core", faces=[face])
        assert one(events, EffectRolled).total == 4 - heat and b.seat(0).heat == heat


def _taint_bolt(section: str = "equipment") -> None:
    """ "Deal 4 damage at range 4. Apply 2 Taint to target. Ignores cover.\""""
    card = built(section, "taint-bolt")
    check_attack(section, "taint-bolt", Attack(4, 4))
    b = battle(card, gap=2, cover=True)
    base = plain_target_number(b, card)
    assert base - declared(b, card).target_number == 2  # the fortification's +2, cancelled
    b = battle(card)
    resolve_hit(b, card, 4, kill=False)
    assert b.seat(1).taint == 2


def _liquidation_shot() -> None:
    """ "Deal 4 damage at range 4. Spend 2 Credits: Ignore cover and +2 damage.\""""
    card = built("equipment", "liquidation-shot")
    b = battle(card, gap=2, cover=True)
    base = plain_target_number(b, card)
    d = declared(b, card)
    assert (hit(d), d.target_number) == (4, base)
    b = battle(card, gap=2, cover=True)
    tokens(b, "credit", 2)
    d = declared(b, card, spend=True)
    assert (hit(d), base - d.target_number, b.seat(0).tokens_of("credit")) == (6, 2, 0)


SCENARIOS.update({
    ("universal", "breathe-the-core"): _breathe_the_core,
    ("equipment", "taint-bolt"): _taint_bolt,
    ("equipment", "liquidation-shot"): _liquidation_shot,
})  # fmt: skip


def _shuffle_in(section: str, cid: str, discarded: int, back: int, heat: int) -> None:
    """Cards from the discard pile back into the deck, shuffled (R-ADD-62)."""
    card = built(section, cid)
    b = battle(card)
    b.do({"type": "adjust_heat", "seat": 0, "heat": 4, "reason": "arranged"})
    junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:discarded]
    arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
    deck = len(b.seat(0).deck)
    moved = one(play(b, cid), CardsShuffledIn)
    assert set(moved.cards) == set(junk[-back:]) and len(moved.cards) == back
    assert len(b.seat(0).deck) == deck + back and b.seat(0).heat == heat
    assert b.seat(0).discard == (*junk[: discarded - back], f"{cid}#1")


SCENARIOS.update({
    # "Remove 3 Heat. Recover 3 cards from discard pile to deck (shuffle)."
    ("church", "absolution"): lambda: _shuffle_in("church", "absolution", 4, 3, 1),
    # "Shuffle your discard pile back into your deck."
    ("nomads", "winds-of-change"): lambda: _shuffle_in("nomads", "winds-of-change", 4, 4, 4),
})  # fmt: skip


def _draw_then_discard(section: str, cid: str, drawn: int, discarded: int) -> None:
    """ "Draw N cards, then discard M cards (of your choice)": the player picks them after
    the draw, from the whole hand, drawn cards included (R-ADD-62)."""
    card = built(section, cid)
    b = battle(card)
    before = set(b.seat(0).hand)
    events = play(b, cid, drawn=[FILLER] * drawn)
    prompt = one(events, PromptOpened)
    assert (prompt.kind, prompt.amount, prompt.rule) == ("discard", discarded, "R-ADD-62")
    assert b.refuse({"type": "pass", "seat": 0}).code == "prompt_pending"
    new = [x for x in b.seat(0).hand if x not in before][:discarded]
    wrong = b.refuse({"type": "discard_down", "seat": 0, "cards": [*new, *before][: discarded + 1]})
    assert (wrong.code, wrong.rule) == ("wrong_discard_count", "R-ADD-62")
    gone = one(b.do({"type": "discard_down", "seat": 0, "cards": new}), CardsDiscarded)
    assert gone.from_hand == tuple(new) and b.state.prompts == ()
    assert b.state.active == 0 and len(b.seat(0).hand) == 5 + drawn - discarded


SCENARIOS.update({
    ("equipment", "scavenge"): lambda: _draw_then_discard("equipment", "scavenge", 2, 1),
    ("nomads", "scavenge"): lambda: _draw_then_discard("nomads", "scavenge", 2, 1),
    ("nomads", "scavengers-cunning"): lambda: _draw_then_discard("nomads", "scavengers-cunning", 3, 2),
})  # fmt: skip


def _dwarf_forge_fury() -> None:
    """ "Deal 3 damage + 1 damage per Heat you currently have (max +6). Remove all Heat
    after attack resolves.\""""
    card = built("dwarves", "forge-fury")
    for heat, damage in ((0, 3), (2, 5), (6, 9), (8, 9)):
        b = battle(card)
        if heat:
            b.do({"type": "adjust_heat", "seat": 0, "heat": heat, "reason": "arranged"})
        assert hit(declared(b, card)) == damage, heat
        assert b.seat(0).heat == 0


SCENARIOS[("dwarves", "forge-fury")] = _dwarf_forge_fury


def _regenerative_shell(section: str = "equipment") -> None:
    """ "Spend 3 Biomass: Recover 2 cards from discard pile. You may only use this once
    per round.\""""
    card = built(section, "regenerative-shell")
    b = battle(card, hand=(card.id,))
    tokens(b, "biomass", 9)
    junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:2]
    arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
    assert set(one(play(b, card.id, spend=True), CardsRecovered).cards) == set(junk)
    again = {"type": "play_card", "seat": 0, "card": f"{card.id}#2", "spend": True}
    err = b.refuse(again)
    assert (err.code, err.rule) == ("use_limit_reached", "R-ADD-63")
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # round 2, seat 0 first
    b.do(again)
    assert b.seat(0).tokens_of("biomass") == 3


SCENARIOS[("equipment", "regenerative-shell")] = _regenerative_shell


def _executive_order() -> None:
    """ "Deal 4 damage. Target has -2 SP next turn (economic pressure).\""""
    card = built("exchange", "executive-order")
    assert check_attack("exchange", "executive-order", Attack(6, 4)).seat(1).sp_penalty == 0
    b = battle(card)
    resolve_hit(b, card, 4, kill=False)
    assert b.seat(1).sp_penalty == 2
    events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})  # seat 1's turn starts
    assert (one(events, SpDrained).amount, b.seat(1).sp_max, b.seat(1).sp_penalty) == (2, 3, 0)


def _confession() -> None:
    """ "Target enemy's next attack: +2 to target number (harder for them to hit). Draw 1
    card." (range 2 hexes)"""
    card = built("church", "confession-under-duress")
    b = battle(card, gap=2)
    events = play(b, card.id, target=1, drawn=[FILLER])
    assert one(events, BuffGained).seat == 1 and b.seat(1).buff_to_hit == 2
    assert len(one(events, CardsDrawn).cards) == 1
    far = battle(card, gap=3).refuse({"type": "play_card", "seat": 0, "card": f"{card.id}#1",
                                      "target": 1, "drawn": [FILLER]})  # fmt: skip
    assert (far.code, far.rule) == ("out_of_range", "R-RNG-2")
    own = battle(card, gap=2).refuse({"type": "play_card", "seat": 0, "card": f"{card.id}#1",
                                      "target": 0, "drawn": [FILLER]})  # fmt: skip
    assert own.code == "not_an_enemy"


SCENARIOS.update({
    ("exchange", "executive-order"): _executive_order,
    ("church", "confession-under-duress"): _confession,
})  # fmt: skip


def _counter(
    cid: str,
    reduction: int,
    check: Callable[[Battle], None],
    section: str = "equipment",
    damage: int = 2,
) -> None:
    """ "Play when attacked in melee. ... Deal 2 damage to attacker (after attack
    resolves)": only against a Melee attack; the attacker then takes 2 damage, choosing
    hand or deck (R-DMG-6); a PIERCE face voids the card, counter included (R-ADD-58)."""
    card = built(section, cid)
    for pierce in (False, True):
        b = battle(card, first=1)
        b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
              "component": "chassis", "faces": [3, 2]})  # fmt: skip
        rolled = one(_answer_maul_faces(b, cid, [5, 4] if pierce else [4, 4]), DefenceRolled)
        assert rolled.final_damage == (2 if pierce else 2 - reduction)
        events = b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": rolled.final_damage,
                       "drawn": [FILLER] * rolled.final_damage})  # fmt: skip
        counters = [p for p in of_type(events, PromptOpened) if p.seat == 1]
        if pierce:
            assert counters == [] and b.state.prompts == ()
            continue
        assert (counters[0].kind, counters[0].amount) == ("take_damage", damage)
        taken = b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": damage,
                      "drawn": [FILLER] * damage})  # fmt: skip
        assert len(one(taken, DamageTaken).from_deck) == damage and b.state.active == 1
        check(b)
    ranged = battle(card, first=1, opponent=("gun",))
    ranged.do({"type": "attack", "seat": 1, "card": "gun#1", "target": 0,
               "component": "chassis", "faces": [3, 2, 4, 4]})  # fmt: skip
    assert [p.kind for p in ranged.state.prompts] == ["take_damage"]  # no reactive window


def _answer_maul_faces(b: Battle, cid: str, faces: list[int]) -> list[Event]:
    return b.do({"type": "play_reactive", "seat": 0, "card": f"{cid}#1", "faces": faces})


SCENARIOS.update({
    # "Play when attacked in melee. Reduce damage by 1. Deal 2 damage to attacker. Gain 1 Heat."
    ("equipment", "magma-parry"): lambda: _counter(
        "magma-parry", 1, lambda b: _heat_is(b, 0, 1)),
    # "... Deal 2 damage to attacker after attack resolves. Gain 2 Biomass."
    ("equipment", "feral-counter"): lambda: _counter(
        "feral-counter", 0, lambda b: _tokens_are(b, "biomass", 2)),
})  # fmt: skip


def _heat_is(b: Battle, seat_n: int, heat: int) -> None:
    assert b.seat(seat_n).heat == heat


def _tokens_are(b: Battle, pool: str, n: int) -> None:
    assert b.seat(0).tokens_of(pool) == n


def _plants(cid: str, damage: int, n: int) -> None:
    """ "Deal N damage. Plant S Thornvine seed(s) in target's hex": on a hit, at most 4 a
    hex (R-ADD-66)."""
    card = built("elves", cid)
    assert (
        check_attack("elves", cid, Attack(card.range.high if card.range else 1, damage)).state.seeds
        == ()
    )
    b = battle(card)
    resolve_hit(b, card, damage, kill=False)
    assert b.state.seeds == ((0, 2, n),)
    b = battle(card)
    arrange(b, SeedsPlanted((0, 2), 3, 3, "arranged"))
    resolve_hit(b, card, damage, kill=False)
    assert b.state.seeds == ((0, 2, 4),)


def _natures_wrath() -> None:
    """ "Detonate all Thornvine seeds on the battlefield. Deal 2 damage per seed to enemies
    in those hexes (max 8 damage per hex). Clear all seeds after detonation.\""""
    card = built("elves", "natures-wrath")
    b = battle(card)
    arrange(b, SeedsPlanted((0, 2), 3, 3, "arranged"), SeedsPlanted((0, 3), 1, 1, "arranged"),
            SeedsPlanted((1, 1), 2, 2, "arranged"))  # fmt: skip
    events = play(b, "natures-wrath")
    assert len(one(events, SeedsDetonated).hexes) == 3 and b.state.seeds == ()
    prompts = of_type(events, PromptOpened)
    assert [(p.seat, p.kind, p.amount) for p in prompts] == [(1, "take_damage", 6)]


SCENARIOS.update({
    ("elves", "thorn-blade-slash"): lambda: _plants("thorn-blade-slash", 3, 2),
    ("elves", "vine-whip-lash"): lambda: _plants("vine-whip-lash", 2, 1),
    ("elves", "natures-wrath"): _natures_wrath,
})  # fmt: skip


# The other scenario files run their own (test_every_automated_entry_has_a_scenario_below
# checks that together they cover every automated entry).
@pytest.mark.parametrize("key", sorted(SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    run_scenario(key, SCENARIOS[key])


def test_an_attack_bonus_reads_the_state_before_the_card_resolves() -> None:
    """R-ADD-59: the bonus is a BuffGained from the card, spent by its own attack."""
    card = built("crucible", "volcanic-slash")
    b = battle(card)
    tokens(b, "forge", 3)
    events = attack(b, card)
    assert one(events, BuffGained).source == card.id
    assert b.seat(0).buff_damage == 0


def test_a_required_spend_is_refused_without_spend() -> None:
    """R-ADD-61: spend on a card without a spend effect names the field."""
    card = built("equipment", "faithful-thrust")
    err = battle(card).refuse({"type": "attack", "seat": 0, "card": "faithful-thrust#1",
                               "target": 1, "spend": True})  # fmt: skip
    assert (err.code, err.rule) == ("unused_argument", "R-ADD-61")


def test_heat_changed_events_name_the_card() -> None:
    b = battle(built("crucible", "forge-call"))
    assert "Forge Call" in one(play(b, "forge-call"), HeatChanged).reason
    assert of_type(b.events, TokensChanged)[-1].source == "forge-call"


def test_the_autoplayer_plays_catalogued_cards_through_legal_actions_only() -> None:
    """The engine's legal actions cover the new vocabulary: a seeded digital battle between
    two decks of catalogued cards runs under the greedy player, every command one `decide`
    accepted, and its events replay to the same state."""
    from battles.engine.battle import replay
    from battles.engine.battle.autoplay import greedy_commands
    from battles.engine.battle.decide import create

    picks = [
        [("equipment", c) for c in ("cleaving-strike", "contract-blade", "mercenary-strike",
                                     "hostile-takeover", "expense-report", "regenerate")]
        + [("crucible", "forge-call"), ("crucible", "forge-fury"), ("universal", "tattered-hope"),
           ("universal", "ironstriders-rush"), ("nomads", "scavengers-cunning"),
           ("equipment", "blade-dance"), ("church", "confession-under-duress")],
        [("ossuarium", c) for c in ("soul-harvest", "soul-rend", "salvage-protocol", "bone-armor")]
        + [("equipment", c) for c in ("anvil-breaker", "shield-wall", "chitin-plating",
                                       "savage-claw", "bloodline-fury")]
        + [("universal", "desperate-lunge"), ("wyrd-conclave", "bargain-struck"),
           ("exchange", "executive-order")],
    ]  # fmt: skip
    cards: dict[str, CardDef] = {}
    rows = []
    for picked in picks:
        row = []
        extra = 30 - 2 * len(picked)  # R-TRN-1: 30 cards, two or three of each
        for i, (section, cid) in enumerate(picked):
            cards[cid] = built(section, cid)
            row.append({"card": cid, "count": 3 if i < extra else 2})
        rows.append(row)
    doc = {
        "name": "Catalogue autoplay",
        "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 4}, "hexes": []},
        "rules": {"version": "2.1", "options": {}},
        "dice": {"mode": "digital", "seed": 17, "seed_public": True},
        "policy": "auto",
        "cards": [c.as_dict() for c in cards.values()],
        "seats": [
            {**seat(0, at=(0, 3), facing=1), "deck": rows[0]},
            {**seat(1, at=(0, -3), facing=4), "deck": rows[1]},
        ],
    }
    events = create("catalogue-autoplay", doc)
    played: set[str] = set()
    state = replay(events)
    for _, new, state in greedy_commands(replay(events), seed=3):
        events += new
        played |= {e.card.split("#")[0] for e in new if hasattr(e, "card") and "#" in e.card}
        if state.round > 30:
            break
    assert replay(events) == state
    assert len(played & set(cards)) >= 6, sorted(played)
    assert any(isinstance(e, TokensChanged) and e.amount > 0 for e in events)
    assert any(isinstance(e, TokensChanged) and e.amount < 0 for e in events)  # a spend


def autoplayed(name: str, doc: dict[str, Any], *, seed: int, commands: int) -> list[Event]:
    """The battle `doc` created, then driven by the greedy player through legal actions
    only for up to `commands` + 1 commands (or to its end); every command is one `decide`
    accepts, and the events replay to the state they led to. Returns every event."""
    from battles.engine.battle import replay
    from battles.engine.battle.autoplay import greedy_commands
    from battles.engine.battle.decide import create

    events = create(name, doc)
    last = replay(events)
    for n, (_, new, after) in enumerate(greedy_commands(replay(events), seed=seed)):
        events += new
        last = after
        if n >= commands:
            break
    assert replay(events) == last
    return events


def random_decks(
    rng: Random, keys: Sequence[tuple[str, str]], per_deck: int
) -> tuple[dict[str, CardDef], list[list[dict[str, Any]]]]:
    """Two 30-card decks (R-TRN-1) of `per_deck` catalogued cards drawn from `keys` at
    random, one id once, 2 copies each and the rest spread over them; the cards by id."""
    cards: dict[str, CardDef] = {}
    rows: list[list[dict[str, Any]]] = []
    for _ in range(2):
        row: list[dict[str, Any]] = []
        for key in rng.sample(keys, per_deck):
            card = built(*key)
            if card.id not in cards and card.id not in {r["card"] for r in row}:
                cards[card.id] = card
                row.append({"card": card.id, "count": 2})
        for i in range(30 - 2 * len(row)):  # R-TRN-1: 30 cards
            row[i % len(row)]["count"] += 1
        rows.append(row)
    return cards, rows


@pytest.mark.parametrize("seed", range(6))
def test_random_decks_of_catalogued_cards_play_through_legal_actions(seed: int) -> None:
    """Two decks of 15 catalogued cards drawn at random, either ruleset, either prompt
    policy: the greedy player drives up to 1,500 commands through legal actions only, every
    one `decide` accepts, and the events replay to the state they led to."""
    rng = Random(seed)
    cards, rows = random_decks(rng, AUTOMATED, 15)
    doc = {
        "name": "Catalogue mix",
        "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 4},
                  "hexes": [{"q": 0, "r": 0, "terrain": "forest"}]},
        "rules": {"version": rng.choice(["2.0", "2.1"]), "options": {}},
        "dice": {"mode": "digital", "seed": seed, "seed_public": True},
        "policy": rng.choice(["auto", "prompt"]),
        "cards": [c.as_dict() for c in cards.values()],
        "seats": [
            {**seat(0, at=(0, 3), facing=1), "deck": rows[0]},
            {**seat(1, at=(0, -3), facing=4, casket_class="heavy"), "deck": rows[1]},
        ],
    }  # fmt: skip
    autoplayed(f"mix-{seed}", doc, seed=seed, commands=1500)


# --- equipment items' cards (section equipment_items, ids `<item>-<card>`, R-ADD-53) -----------

ITEMS = "equipment_items"


def _item_attack(
    cid: str, damage: int, *, ignore: int = 0, heat: int = 0, taint: int = 0
) -> Battle:
    """ "Deal N damage[, bypass B Defense | Armor-Piercing][, gain H Heat | T Taint]": the
    printed reach and damage, the blocks cancelled (R-DMG-3, R-ADD-60), and the own Heat or
    Taint gained as the card is played (R-ADD-27)."""
    card = built(ITEMS, cid)
    assert card.range is not None
    b = check_attack(ITEMS, cid, Attack(card.range.high, damage, ignore))
    assert (b.seat(0).heat, b.seat(0).taint) == (heat, taint)
    return b


def _item_on_hit(cid: str, damage: int, check: Callable[[Battle], None], **kw: Any) -> None:
    """What the text does to the target ("target loses N SP next turn", "target gains N
    Taint") happens on a hit only (R-ADD-65): nothing at the declaration, then `check`."""
    card = built(ITEMS, cid)
    before = _item_attack(cid, damage, **kw)
    assert (before.seat(1).sp_penalty, before.seat(1).taint) == (0, 0)
    b = battle(card, gap=reach(card))
    resolve_hit(b, card, damage, kill=False)
    check(b)


def _sp_penalty(n: int) -> Callable[[Battle], None]:
    def check(b: Battle) -> None:
        assert b.seat(1).sp_penalty == n
        events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})  # seat 1's turn starts
        assert (one(events, SpDrained).amount, b.seat(1).sp_max) == (n, 5 - n)

    return check


def _target_taint(n: int) -> Callable[[Battle], None]:
    def check(b: Battle) -> None:
        assert b.seat(1).taint == n

    return check


def _item_recovers(cid: str, n: int, *, attack_card: bool, heat: int = 0, taint: int = 0) -> None:
    """ "Recover N cards from (your) discard pile": the newest N (R-ADD-62), with the card's
    own Heat or Taint."""
    card = built(ITEMS, cid)
    b = battle(card, gap=reach(card) if attack_card else 1)
    junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:n]
    older = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[n : n + 1]
    arrange(b, CardsDiscarded(0, older, (), "arranged", "R-ADD-14"))
    arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
    events = attack(b, card) if attack_card else play(b, cid)
    assert set(one(events, CardsRecovered).cards) == set(junk)
    assert set(junk) <= set(b.seat(0).hand) and not set(older) & set(b.seat(0).hand)
    assert (b.seat(0).heat, b.seat(0).taint) == (heat, taint)


def _item_draw(cid: str, n: int, heat_removed: int = 0) -> None:
    """ "Draw N card(s)[, remove H Heat]" / "Remove H Heat, draw N card": Heat never below 0."""
    b = battle(built(ITEMS, cid))
    b.do({"type": "adjust_heat", "seat": 0, "heat": 4, "reason": "arranged"})
    events = play(b, cid, drawn=[FILLER] * n)
    assert len(one(events, CardsDrawn).cards) == n and len(b.seat(0).hand) == 5 + n
    assert b.seat(0).heat == 4 - heat_removed


def _item_reactive(cid: str, reduce: int, minimum: int = 0, heat: int = 0, taint: int = 0) -> None:
    """ "Reduce damage by N[, gain H Heat | T Taint]" answering a Melee 2 attack (R-REA-1)."""
    b = reactive(ITEMS, cid, reduce, minimum)
    assert (b.seat(0).heat, b.seat(0).taint) == (heat, taint)


def _item_reactive_gain(cid: str, reduce: int, pool: str, n: int) -> None:
    """ "Reduce damage by N (minimum 1). Gain 1 <token>.\""""
    b = reactive(ITEMS, cid, reduce, 1)
    assert b.seat(0).tokens_of(pool) == n


def _item_reactive_or_spend(cid: str, pool: str, spent_reduction: int) -> None:
    """ "Reduce damage by 2 (minimum 1). OR: Spend 2 <tokens> to reduce damage by X": 2
    without spending, X with (R-ADD-61); spending needs both tokens."""
    card = built(ITEMS, cid)
    for spending in (False, True):
        b = battle(card, first=1)
        if spending:
            tokens(b, pool, 2)
        b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
              "component": "chassis", "faces": [3, 2]})  # fmt: skip
        answer: dict[str, Any] = {"type": "play_reactive", "seat": 0, "card": f"{cid}#1",
                                  "faces": [4, 4], **({"spend": True} if spending else {})}  # fmt: skip
        rolled = one(b.do(answer), DefenceRolled)
        assert (rolled.reduction_applied, rolled.final_damage) == (
            spent_reduction if spending else 2,
            1,
        )
        assert b.seat(0).tokens_of(pool) == 0
    poor = battle(card, first=1)
    tokens(poor, pool, 1)
    poor.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
             "component": "chassis", "faces": [3, 2]})  # fmt: skip
    err = poor.refuse({"type": "play_reactive", "seat": 0, "card": f"{cid}#1", "faces": [4, 4],
                       "spend": True})  # fmt: skip
    assert (err.code, err.rule) == ("not_enough_tokens", "R-ADD-61")


def _item_or_spend_ignore(cid: str, base: int, bonus: int) -> None:
    """ "Deal N damage. OR: Spend 2 Credits to deal N+X damage and ignore Defense.\""""
    card = built(ITEMS, cid)
    gap = reach(card)
    d = declared(battle(card, gap=gap), card)
    assert (hit(d), ignored(d)) == (base, 0)
    b = battle(card, gap=gap)
    tokens(b, "credit", 2)
    d = declared(b, card, spend=True)
    assert (hit(d), ignored(d), b.seat(0).tokens_of("credit")) == (base + bonus, MAX_DAMAGE, 0)


def _asset_protection() -> None:
    """ "Gain +2 Defense until your next turn. OR: Spend 2 Credits to gain +4 Defense instead.\""""
    defence(ITEMS, "asset-protection", 2)
    b = battle(built(ITEMS, "asset-protection"))
    tokens(b, "credit", 2)
    events = play(b, "asset-protection", spend=True)
    assert sum(e.amount for e in of_type(events, DefenceRaised)) == 4
    assert b.seat(0).tokens_of("credit") == 0


def _natural_armor() -> None:
    """ "+2 Defense until next turn, recover 1 card from discard pile\""""
    defence(ITEMS, "druid-s-tome-natural-armor", 2)
    _item_recovers("druid-s-tome-natural-armor", 1, attack_card=False)


def _spear_defensive_stance() -> None:
    """ "Move up to 1 hex, +1 Defense until your next turn\""""
    card = built(ITEMS, "spear-defensive-stance")
    b = battle(card, gap=4)
    events = play(b, card.id, path=[[1, 2]])
    assert one(events, CasketMoved).path == ((1, 2),) and one(events, DefenceRaised).amount == 1
    err = battle(card, gap=4).refuse({"type": "play_card", "seat": 0, "card": f"{card.id}#1",
                                      "path": [[0, 2], [0, 1]]})  # fmt: skip
    assert err.code


def _quick_pivot() -> None:
    """ "Rotate to any facing and move 1 hex.\""""
    card = built(ITEMS, "reinforced-joints-quick-pivot")
    b = battle(card, gap=4)
    events = play(b, card.id, facing=4, path=[[1, 2]])
    assert one(events, CasketRotated).facing == 4 and one(events, CasketMoved).path == ((1, 2),)
    err = battle(card, gap=4).refuse({"type": "play_card", "seat": 0, "card": f"{card.id}#1",
                                      "facing": 4, "path": [[0, 2], [0, 1]]})  # fmt: skip
    assert err.code


def _smite_evil() -> None:
    """ "Deal 3 damage, if target has 3+ Taint, deal 6 damage instead\" (R-ADD-59)."""
    _item_attack("codex-of-light-smite-evil", 3)
    for taint, damage in ((2, 3), (3, 6)):
        b = battle(built(ITEMS, "codex-of-light-smite-evil"), gap=2)
        b.do({"type": "adjust_taint", "seat": 1, "taint": taint, "reason": "arranged"})
        assert hit(declared(b, built(ITEMS, "codex-of-light-smite-evil"))) == damage, taint


def _item_soul_reaper() -> None:
    """ "Deal 5 damage. If target is below 15 HP, recover 2 cards from discard pile instead of 1.\""""
    _item_attack("soul-reaper", 5)
    card = built(ITEMS, "soul-reaper")
    for hp, n in ((15, 1), (14, 2)):
        b = battle(card, version="2.1")
        junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:2]
        arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"),
                DamageTaken(1, (), b.seat(1).deck[: 24 - hp], 0, None))  # fmt: skip
        attack(b, card)
        assert sum(len(e.cards) for e in of_type(b.events, CardsRecovered)) == n, hp


SCENARIOS.update({
    # "Deal N damage, gain H Heat"
    (ITEMS, "pistol-point-blank"): lambda: _item_attack("pistol-point-blank", 4, heat=1),
    (ITEMS, "mace-overhead-smash"): lambda: _item_attack("mace-overhead-smash", 6, heat=1),
    (ITEMS, "rifle-hip-fire"): lambda: _item_attack("rifle-hip-fire", 3, heat=1),
    (ITEMS, "flail-overhead-crush"): lambda: _item_attack("flail-overhead-crush", 4, heat=1),
    (ITEMS, "flail-momentum-strike"): lambda: _item_attack("flail-momentum-strike", 5, heat=2),
    (ITEMS, "pyromancer-s-grimoire-fireball"): lambda: _item_attack("pyromancer-s-grimoire-fireball", 4, heat=1),
    # "Deal N damage, bypass B Defense" / "Armor-Piercing" (R-ADD-60)
    (ITEMS, "greatsword-guard-break"): lambda: _item_attack("greatsword-guard-break", 4, ignore=1),
    (ITEMS, "halberd-impale"): lambda: _item_attack("halberd-impale", 6, ignore=1),
    (ITEMS, "flail-wild-swing"): lambda: _item_attack("flail-wild-swing", 3, ignore=1),
    (ITEMS, "shadow-catalyst-void-bolt"): lambda: _item_attack("shadow-catalyst-void-bolt", 2, ignore=1),
    (ITEMS, "warhammer-crushing-blow"): lambda: _item_attack("warhammer-crushing-blow", 3, ignore=MAX_DAMAGE),
    (ITEMS, "rifle-snipe"): lambda: _item_attack("rifle-snipe", 6, ignore=MAX_DAMAGE),
    (ITEMS, "stormcaller-s-grimoire-lightning-bolt"): lambda: _item_attack(
        "stormcaller-s-grimoire-lightning-bolt", 5, ignore=MAX_DAMAGE),
    # "... gain T Taint" / "purge 1 Taint from self" (R-PLT-4, R-ADD-66)
    (ITEMS, "necromancer-s-grimoire-death-s-touch"): lambda: _item_attack(
        "necromancer-s-grimoire-death-s-touch", 4, taint=1),
    (ITEMS, "void-grimoire-reality-tear"): lambda: _item_attack("void-grimoire-reality-tear", 4, ignore=2, taint=1),
    (ITEMS, "abyssal-staff-reality-fracture"): lambda: _item_attack(
        "abyssal-staff-reality-fracture", 6, ignore=MAX_DAMAGE, taint=2),
    (ITEMS, "divine-scepter-pillar-of-light"): lambda: _divine_pillar(),
    # "Deal N damage, target loses S SP next turn" (R-TRN-3, R-ADD-65)
    (ITEMS, "longsword-pommel-strike"): lambda: _item_on_hit("longsword-pommel-strike", 2, _sp_penalty(1)),
    (ITEMS, "mace-stun-strike"): lambda: _item_on_hit("mace-stun-strike", 3, _sp_penalty(2)),
    (ITEMS, "crossbow-suppressing-fire"): lambda: _item_on_hit("crossbow-suppressing-fire", 2, _sp_penalty(1)),
    (ITEMS, "chain-whip-strangle"): lambda: _item_on_hit("chain-whip-strangle", 4, _sp_penalty(2)),
    (ITEMS, "flail-chain-wrap"): lambda: _item_on_hit("flail-chain-wrap", 2, _sp_penalty(1)),
    (ITEMS, "frost-focus-chill-touch"): lambda: _item_on_hit("frost-focus-chill-touch", 2, _sp_penalty(1)),
    (ITEMS, "warhammer-slam"): lambda: _item_on_hit("warhammer-slam", 4, _sp_penalty(1), heat=1),
    # "target gains 1 Taint, you gain 1 Taint"
    (ITEMS, "void-grimoire-corruption-burst"): lambda: _item_on_hit(
        "void-grimoire-corruption-burst", 3, _target_taint(1), taint=1),
    (ITEMS, "abyssal-staff-void-drain"): lambda: (
        _item_on_hit("abyssal-staff-void-drain", 4, _target_taint(1), taint=1),
        _item_recovers("abyssal-staff-void-drain", 2, attack_card=True, taint=1)),
    # "Deal N damage, recover R cards from discard pile"
    (ITEMS, "bone-wand-lifesteal"): lambda: (_item_attack("bone-wand-lifesteal", 2),
                                             _item_recovers("bone-wand-lifesteal", 1, attack_card=True)),
    (ITEMS, "necromancer-s-grimoire-soul-drain"): lambda: (
        _item_attack("necromancer-s-grimoire-soul-drain", 3),
        _item_recovers("necromancer-s-grimoire-soul-drain", 2, attack_card=True)),
    (ITEMS, "staff-of-the-grave-life-siphon"): lambda: (
        _item_attack("staff-of-the-grave-life-siphon", 4, taint=1),
        _item_recovers("staff-of-the-grave-life-siphon", 3, attack_card=True, taint=1)),
    (ITEMS, "death-grip"): lambda: (_item_attack("death-grip", 4),
                                    _item_recovers("death-grip", 1, attack_card=True)),
    (ITEMS, "drain-essence"): lambda: (_item_attack("drain-essence", 3),
                                       _item_recovers("drain-essence", 1, attack_card=True)),
    # "Recover N cards from discard pile[, gain H Heat]"
    (ITEMS, "repair-sigil-emergency-repair"): lambda: _item_recovers("repair-sigil-emergency-repair", 3, attack_card=False),
    (ITEMS, "living-branch-rejuvenate"): lambda: _item_recovers("living-branch-rejuvenate", 2, attack_card=False),
    (ITEMS, "world-tree-staff-regeneration"): lambda: _item_recovers("world-tree-staff-regeneration", 4, attack_card=False),
    (ITEMS, "inferno-staff-phoenix-flame"): lambda: _item_recovers(
        "inferno-staff-phoenix-flame", 3, attack_card=False, heat=2),
    # "Draw 1 card[, remove 1 Heat]" / "Remove 3 Heat, draw 1 card"
    (ITEMS, "pistol-reload"): lambda: _item_draw("pistol-reload", 1),
    (ITEMS, "rifle-reload"): lambda: _item_draw("rifle-reload", 1),
    (ITEMS, "crossbow-reload"): lambda: _item_draw("crossbow-reload", 1, 1),
    (ITEMS, "heat-sink-sigil-vent-boost"): lambda: _item_draw("heat-sink-sigil-vent-boost", 1, 3),
    # "+N Defense until (your) next turn" (R-ADD-64)
    (ITEMS, "longsword-guard-stance"): lambda: defence(ITEMS, "longsword-guard-stance", 2),
    (ITEMS, "flail-defensive-spin"): lambda: defence(ITEMS, "flail-defensive-spin", 1),
    (ITEMS, "kite-shield-defensive-stance"): lambda: defence(ITEMS, "kite-shield-defensive-stance", 2),
    (ITEMS, "living-branch-barkskin"): lambda: defence(ITEMS, "living-branch-barkskin", 1),
    (ITEMS, "druid-s-tome-natural-armor"): _natural_armor,
    (ITEMS, "asset-protection"): _asset_protection,
    (ITEMS, "spear-defensive-stance"): _spear_defensive_stance,
    (ITEMS, "reinforced-joints-quick-pivot"): _quick_pivot,
    # "Reduce damage by N[, gain 1 Heat | 1 Taint]" (R-REA-1)
    (ITEMS, "dagger-deflect"): lambda: _item_reactive("dagger-deflect", 1),
    (ITEMS, "buckler-shield-quick-deflect"): lambda: _item_reactive("buckler-shield-quick-deflect", 1),
    (ITEMS, "kite-shield-shield-block"): lambda: _item_reactive("kite-shield-shield-block", 2),
    (ITEMS, "blessed-talisman-divine-shield"): lambda: _item_reactive("blessed-talisman-divine-shield", 2),
    (ITEMS, "warding-talisman-protective-ward"): lambda: _item_reactive("warding-talisman-protective-ward", 2),
    (ITEMS, "tower-shield-iron-wall"): lambda: _item_reactive("tower-shield-iron-wall", 3, heat=1),
    (ITEMS, "shadow-catalyst-dark-shield"): lambda: _item_reactive("shadow-catalyst-dark-shield", 1, taint=1),
    # "Play when targeted by attack. Reduce damage by N (minimum 1). ..." (R-ADD-58)
    (ITEMS, "bone-ward"): lambda: _item_reactive("bone-ward", 2, 1),
    (ITEMS, "lava-forged-shield"): lambda: _item_reactive_gain("lava-forged-shield", 2, "forge", 1),
    (ITEMS, "volcanic-ward"): lambda: (reactive(ITEMS, "volcanic-ward", 3, 1),
                                       _item_reactive_gain("volcanic-ward", 3, "forge", 1)),
    (ITEMS, "expense-report"): lambda: _item_reactive_gain("expense-report", 2, "credit", 1),
    (ITEMS, "insurance-policy"): lambda: _item_reactive_or_spend("insurance-policy", "credit", 5),
    (ITEMS, "chitin-plating"): lambda: _item_reactive_or_spend("chitin-plating", "biomass", 4),
    (ITEMS, "void-ward"): lambda: _void_ward(ITEMS),
    # "Play when attacked in melee. ... Deal 2 damage to attacker ..." (R-ADD-58)
    (ITEMS, "magma-parry"): lambda: _counter("magma-parry", 1, lambda b: _heat_is(b, 0, 1), ITEMS),
    (ITEMS, "feral-counter"): lambda: _counter(
        "feral-counter", 0, lambda b: _tokens_are(b, "biomass", 2), ITEMS),
    # "Play when attacked in melee. Deal 2 damage to attacker. Gain 1 Credit."
    (ITEMS, "contract-breach-penalty"): lambda: _counter(
        "contract-breach-penalty", 0, lambda b: _tokens_are(b, "credit", 1), ITEMS),
    # "When attacked in melee, deal 3 damage to attacker" (a Reactive card)
    (ITEMS, "longsword-riposte"): lambda: _counter(
        "longsword-riposte", 0, lambda b: _heat_is(b, 0, 0), ITEMS, damage=3),
    (ITEMS, "reinforced-joints-power-stride"): lambda: _power_stride(),
    # attacks whose texts equal or vary the flat equipment list's
    (ITEMS, "bone-scythe-strike"): lambda: _kill_recovers(ITEMS, "bone-scythe-strike", 3, 1),
    (ITEMS, "soul-reaper"): _item_soul_reaper,
    (ITEMS, "phylactery-strike"): lambda: _phylactery_strike(ITEMS),
    (ITEMS, "forge-spear-throw"): lambda: (_item_attack("forge-spear-throw", 4),
                                           spend(ITEMS, "forge-spear-throw", 4, "forge", 2, 2)),
    (ITEMS, "mercenary-strike"): lambda: _item_or_spend_ignore("mercenary-strike", 5, 2),
    (ITEMS, "liquidation-shot"): lambda: (_item_attack("liquidation-shot", 5),
                                          _item_or_spend_ignore("liquidation-shot", 5, 2)),
    (ITEMS, "regenerative-shell"): lambda: _regenerative_shell(ITEMS),
    (ITEMS, "distortion-blade"): lambda: _item_attack("distortion-blade", 3, ignore=1),
    (ITEMS, "void-strike"): lambda: _void_strike(ITEMS),
    (ITEMS, "warped-slash"): lambda: conditional(
        ITEMS, "warped-slash", 3, 2,
        lambda b: b.do({"type": "adjust_taint", "seat": 1, "taint": 2, "reason": "arranged"})),
    (ITEMS, "taint-bolt"): lambda: _taint_bolt(ITEMS),
    (ITEMS, "codex-of-light-smite-evil"): _smite_evil,
    # "3 damage melee." / "4 damage ranged (3 hex range)." / "(5 hex range). Requires line of sight."
    (ITEMS, "nomads-quick-slash"): lambda: _item_attack("nomads-quick-slash", 3),
    (ITEMS, "nomads-aimed-shot"): lambda: _item_attack("nomads-aimed-shot", 4),
    (ITEMS, "nomads-sniper-shot"): lambda: _item_attack("nomads-sniper-shot", 4),
})  # fmt: skip


def _divine_pillar() -> None:
    """ "Deal 5 damage, bypass 1 Defense, purge 1 Taint from self": Taint never below 0."""
    _item_attack("divine-scepter-pillar-of-light", 5, ignore=1)
    card = built(ITEMS, "divine-scepter-pillar-of-light")
    b = battle(card, gap=4)
    b.do({"type": "adjust_taint", "seat": 0, "taint": 2, "reason": "arranged"})
    attack(b, card)
    assert b.seat(0).taint == 1


def _power_stride() -> None:
    """ "Move up to 4 hexes, ignore difficult terrain, gain 1 Heat.\""""
    card = built(ITEMS, "reinforced-joints-power-stride")
    b = battle(card, gap=6)
    path = [[0, 2], [0, 1], [1, 0], [1, -1]]
    assert len(one(play(b, card.id, path=path), CasketMoved).path) == 4 and b.seat(0).heat == 1
    err = battle(card, gap=6).refuse({"type": "play_card", "seat": 0, "card": f"{card.id}#1",
                                      "path": [*path, [1, -2]]})  # fmt: skip
    assert err.code


def _leaves_game(cid: str, *, attack_card: bool, **extra: Any) -> None:
    """ "Remove this card from game after use": resolved, the card is with the removed
    cards, not in the discard pile, so no reshuffle brings it back (R-ADD-70)."""
    card = built(ITEMS, cid)
    b = battle(card, gap=reach(card) if attack_card else 1)
    hp = b.seat(0).hp
    attack(b, card) if attack_card else play(b, cid, **extra)
    assert b.state.attack is None
    assert f"{cid}#1" in b.seat(0).removed and f"{cid}#1" not in b.seat(0).discard
    assert f"{cid}#2" in b.seat(0).deck  # the other copy is untouched
    if not attack_card and "drawn" not in extra:
        # Discarded it would count as HP again; removed it does not (R-DMG-9).
        assert b.seat(0).hp == hp


def _vital_essence() -> None:
    """ "Recover 2 cards from discard pile, remove 1 Heat. Remove this card from game after use.\""""
    _item_recovers("blood-vial-cache-vital-essence", 2, attack_card=False)
    b = battle(built(ITEMS, "blood-vial-cache-vital-essence"))
    b.do({"type": "adjust_heat", "seat": 0, "heat": 3, "reason": "arranged"})
    play(b, "blood-vial-cache-vital-essence")
    assert b.seat(0).heat == 2
    _leaves_game("blood-vial-cache-vital-essence", attack_card=False)


def _focus_enhancer() -> None:
    """ "Draw 3 cards, your next attack +2 damage. Remove this card from game after use.\""""
    b = battle(built(ITEMS, "combat-stimulants-focus-enhancer"))
    events = play(b, "combat-stimulants-focus-enhancer", drawn=[FILLER] * 3)
    assert len(one(events, CardsDrawn).cards) == 3 and one(events, BuffGained).damage == 2
    _leaves_game("combat-stimulants-focus-enhancer", attack_card=False, drawn=[FILLER] * 3)


SCENARIOS.update({
    # "... Remove this card from game after use." (R-ADD-70)
    (ITEMS, "soul-shards-soul-infusion"): lambda: (
        _item_recovers("soul-shards-soul-infusion", 4, attack_card=False, taint=1),
        _leaves_game("soul-shards-soul-infusion", attack_card=False)),
    (ITEMS, "soul-shards-spirit-burst"): lambda: (
        _item_attack("soul-shards-spirit-burst", 5, ignore=MAX_DAMAGE),
        _leaves_game("soul-shards-spirit-burst", attack_card=True)),
    (ITEMS, "soul-shards-life-drain-shard"): lambda: (
        _item_attack("soul-shards-life-drain-shard", 4),
        _item_recovers("soul-shards-life-drain-shard", 3, attack_card=True),
        _leaves_game("soul-shards-life-drain-shard", attack_card=True)),
    (ITEMS, "emergency-repair-kit-quick-patch"): lambda: (
        _item_recovers("emergency-repair-kit-quick-patch", 5, attack_card=False),
        _leaves_game("emergency-repair-kit-quick-patch", attack_card=False)),
    (ITEMS, "blood-vial-cache-crimson-infusion"): lambda: (
        _item_recovers("blood-vial-cache-crimson-infusion", 3, attack_card=False),
        _leaves_game("blood-vial-cache-crimson-infusion", attack_card=False)),
    (ITEMS, "blood-vial-cache-vital-essence"): _vital_essence,
    (ITEMS, "combat-stimulants-focus-enhancer"): _focus_enhancer,
})  # fmt: skip
