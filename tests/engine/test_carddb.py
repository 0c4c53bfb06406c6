"""Reading the whole card database (R-ADD-53), casket decks from the construction rules
(R-ADD-52), the coverage report, and battles between decks built from the real database.

Documents here are hand-written; the real database is read from /work/shared when present.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from battles.engine.battle.autoplay import choose_thrifty, greedy_commands
from battles.engine.battle.decide import create
from battles.engine.battle.evolve import replay
from battles.engine.carddata.carddb import FACTIONS, read_database, slugify
from battles.engine.carddata.coverage import coverage_markdown, faction_coverage, manual_reason
from battles.engine.carddata.decks import (
    Loadout,
    build_casket_deck,
    casket_deck_problems,
    loadout_problems,
    random_loadout,
)
from battles.engine.demo import demo_board
from battles.engine.errors import InvalidInput
from battles.engine.ruleset import Ruleset

DATABASE = (
    Path(__file__).resolve().parents[3] / "shared" / "data" / "penance-card-database-v5.15b.json"
)
RULES = Ruleset("2.1")


def attack(id_: str, damage: int = 3, **more: Any) -> dict[str, Any]:
    return {
        "id": id_,
        "name": id_.replace("-", " ").title(),
        "type": "Attack",
        "cost": 1,
        "range": "Melee",
        "damage": damage,
        "effect": f"Deal {damage} damage.",
        "keywords": ["attack"],
        "cardCount": 1,
        **more,
    }


def utility(id_: str, count: int = 1) -> dict[str, Any]:
    return {
        "id": id_,
        "name": id_.title(),
        "type": "utility",
        "cost": 1,
        "effect": "Draw 1 card.",
        "keywords": [],
        "cardCount": count,
    }


def item(name: str, cards: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    return {
        "name": name,
        "faction": "universal",
        "category": "Weapon",
        "weight": "Light",
        "craftingCost": "2 Scrap",
        "cards": cards,
        **more,
    }


def document() -> dict[str, Any]:
    """A small database: 10 universal cards, a church section, items and a unit."""
    return {
        "_meta": {"version": "test"},
        "universal": [utility(f"u{i}") for i in range(10)],
        "church": [attack("faithful-thrust", 4)] + [utility(f"c{i}", 2) for i in range(12)],
        "equipment": [
            attack("faithful-thrust", 5),
            attack("ember-strike", 3, keywords=["attack", "church"]),
            attack("holy-blade", 4, keywords=["attack", "church"]),
        ],
        "tactics": {"church": [utility("c0")], "elves": []},
        "support_units": [
            {
                "name": "FLAGELLANT PACK",
                "faction": "church",
                "hp": 6,
                "movement": 4,
                "defense": 1,
                "theme": "Zealots",
                "behaviorCards": [
                    {
                        "id": "church-pack-⚔️-frenzy",
                        "name": "FRENZY",
                        "type": "Attack / Reckless",
                        "effect": "Move 4 hexes and attack.",
                    },
                    {
                        "id": "church-pack-nested-only",
                        "name": "ONLY",
                        "type": "Utility",
                        "effect": "Stand still.",
                    },
                ],
            },
        ],
        "special_cards": [{"id": "damage-card", "name": "Damage", "cost": "N/A"}],
        "support_unit_behaviors": [
            {
                "id": "church-pack-⚔️-frenzy",
                "name": "FRENZY",
                "type": "Attack / Reckless",
                "effect": "Move 4 hexes and attack.",
            },
        ],
        "equipment_items": [
            item(
                "DAGGER",
                [
                    {
                        "name": "Stab",
                        "cost": 1,
                        "range": "Melee",
                        "type": "Attack",
                        "damage": 3,
                        "effect": "Deal 3 damage",
                    },
                    {
                        "name": "Deflect",
                        "cost": 0,
                        "type": "Reactive",
                        "effect": "Reduce damage by 1",
                    },
                    {
                        "name": "Stab",
                        "cost": 1,
                        "range": "Melee",
                        "type": "Attack",
                        "damage": 3,
                        "effect": "Deal 3 damage",
                    },
                ],
            ),
            item(
                "KITE SHIELD",
                [{"name": "Brace", "cost": 1, "type": "Defense", "effect": "+1 Defense."}],
                weight="Medium",
            ),
            item("GREATSWORD", [attack("cleave", 6)], weight="Heavy (2-handed)"),
            item("LONGBOW", [attack("arrow", 2)], faction="elves only"),
            item(
                "CRUCIBLE_PRIMARY_WEAPON",
                [attack("ember-strike", 4, cardCount=3)],
                faction="crucible",
                type="Primary Weapon",
                category=None,
            ),
            item(
                "SIGIL",
                [{"name": "Glow", "type": "Passive", "effect": "Always on."}],
                category="Accessory",
            ),
            item("LAMP", [utility("lamp-light")], category="Accessory"),
        ],
    }


# --- reading the database, R-ADD-53 --------------------------------------------------------------


def test_every_section_with_cards_is_read_and_the_others_reported_once_r_add_53() -> None:
    read = read_database(document())
    assert {
        "dagger-stab",
        "dagger-deflect",
        "kite-shield-brace",
        "church-pack-frenzy",
        "church-pack-nested-only",
        "faithful-thrust",
        "ember-strike",
    } <= set(read.cards)
    skipped = [str(r) for r in read.reported if r.source.index < 0]
    assert [s.split(":")[0] for s in skipped] == ["_meta", "special_cards"]
    assert "damage-card" not in read.cards


def test_ids_are_derived_from_item_and_card_names_and_behaviour_ids_lose_emoji() -> None:
    assert slugify("KITE SHIELD") + "-" + slugify("Brace") == "kite-shield-brace"
    read = read_database(document())
    assert read.cards["church-pack-frenzy"].card.kind == "behaviour"
    assert read.cards["church-pack-frenzy"].card.sp_cost == 0
    assert read.cards["church-pack-frenzy"].card.manual


def test_an_item_card_wins_over_the_flat_equipment_list_and_the_report_names_the_fields() -> None:
    read = read_database(document())
    ember = read.cards["ember-strike"]
    assert ember.card.damage == 4 and ember.source.section == "equipment_items"
    (line,) = [
        r for r in read.reported if r.source.section == "equipment" and r.name == "Ember Strike"
    ]
    assert "is loaded from equipment_items #4 'CRUCIBLE_PRIMARY_WEAPON' card 0 (R-ADD-53)" in (
        line.reason
    )
    assert "differs in damage, effect" in line.reason


def test_a_faction_card_wins_over_the_flat_equipment_list_and_over_its_tactics_copy() -> None:
    read = read_database(document())
    assert read.cards["faithful-thrust"].source.section == "church"
    assert read.cards["c0"].source.section == "church"
    tactic = [r for r in read.reported if r.source.section == "tactics.church"]
    assert len(tactic) == 1 and "this entry is identical" in tactic[0].reason


def test_a_factions_flat_equipment_cards_join_its_pool_unless_an_item_brings_them() -> None:
    read = read_database(document())
    assert "holy-blade" in read.faction_pools["church"]
    assert read.cards["holy-blade"].faction == "church"
    # ember-strike is tagged church in the flat list, but an item brings it: only the item.
    assert "ember-strike" not in read.faction_pools["church"]


def test_nested_behaviour_copies_are_referenced_and_nested_only_cards_load_from_the_unit() -> None:
    read = read_database(document())
    tally = read.sections["support_units"]
    assert (tally.entries, tally.loaded, tally.referenced, tally.reported) == (2, 1, 1, 0)
    unit = read.units["church-flagellant-pack"]
    assert unit.behaviour_cards == ("church-pack-frenzy", "church-pack-nested-only")
    assert (unit.hp, unit.movement, unit.defense) == (6, 4, 1)


def test_items_know_their_slot_factions_copies_and_passives_r_add_52() -> None:
    read = read_database(document())
    dagger = read.items["dagger"]
    assert (dagger.slot, dagger.factions, dagger.two_handed) == ("weapon", (), False)
    # Listed twice, one card brought twice: the second listing is referenced, not reported.
    assert dict(dagger.cards) == {"dagger-stab": 2, "dagger-deflect": 1}
    assert read.cards["dagger-stab"].card.kind == "primary_weapon"  # R-DMG-6
    assert read.cards["dagger-deflect"].card.kind == "reactive"
    assert read.cards["dagger-stab"].card.automated  # "Deal 3 damage" is its attack
    shield = read.items["kite-shield"]
    assert shield.slot == "offhand" and read.cards["kite-shield-brace"].card.shield  # R-REA-2
    assert read.items["greatsword"].two_handed
    assert read.items["longbow"].factions == ("elves",)
    assert dict(read.items["crucible-primary-weapon"].cards) == {"ember-strike": 3}
    sigil = read.items["sigil"]
    assert (sigil.slot, sigil.cards, sigil.passives) == ("accessory", (), ("Glow",))


def test_a_sub_section_that_is_not_a_list_is_reported_whole() -> None:
    read = read_database({"tactics": {"church": [utility("c0")], "notes": "later"}})
    assert "c0" in read.cards
    assert [str(r) for r in read.reported] == [
        "tactics.notes: section skipped: not a list of cards"
    ]


def test_a_document_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(InvalidInput, match="database"):
        read_database([1, 2])


def test_token_costs_and_unplain_attack_ranges_load_as_manual_cards_r_add_54() -> None:
    doc = {
        "crucible": [
            {
                "id": "forge-song",
                "name": "Forge Song",
                "type": "buff",
                "cost": "2 Forge tokens",
                "effect": "Your next attack +2 damage.",
                "keywords": ["buff"],
            },
            attack("magma-wave", 4, range="Ranged 3-6 AoE", effect="Deal 4 damage to all."),
            {"id": "silent", "name": "Silent", "type": "buff", "cost": "1 Forge token"},
        ]
    }
    read = read_database(doc)
    song = read.cards["forge-song"].card
    assert (song.sp_cost, song.manual, song.keywords) == (0, True, ("buff", "cost: 2 Forge tokens"))
    wave = read.cards["magma-wave"].card
    assert (wave.range, wave.attack, wave.manual) == (None, None, True)
    assert "range: Ranged 3-6 AoE" in wave.keywords
    assert read.cards["magma-wave"].card_type == "Attack"  # the printed type is kept
    assert manual_reason(wave).startswith("printed range: Ranged 3-6 AoE (R-ADD-54)")
    # Without text nothing would tell the players the cost: it stays reported.
    (line,) = [r for r in read.reported if r.name == "Silent"]
    assert "is not a whole number of SP" in line.reason


# --- casket decks, R-ADD-52 ----------------------------------------------------------------------


def test_a_built_deck_is_legal_and_holds_every_required_card_r_add_52() -> None:
    read = read_database(document())
    loadout = Loadout("church", "scout", ("dagger", "kite-shield", "lamp"))
    rows = build_casket_deck(read, loadout, RULES)
    counts = dict(rows)
    assert sum(counts.values()) == 30
    assert all(counts[f"u{i}"] >= 1 for i in range(10))
    assert counts["dagger-stab"] == 2 and counts["kite-shield-brace"] == 1
    assert casket_deck_problems(read, loadout, rows, RULES) == []


def codes(read: Any, loadout: Loadout, rows: list[tuple[str, int]]) -> list[str]:
    return [p.code for p in casket_deck_problems(read, loadout, rows, RULES)]


def test_every_violation_of_the_construction_rules_is_named_r_add_52() -> None:
    read = read_database(document())
    loadout = Loadout("church", "scout", ("dagger", "kite-shield"))
    legal = build_casket_deck(read, loadout, RULES)
    # A card of an item not carried, and one copy too many of a faction card.
    rows = [*legal[:-1], ("cleave", 1)]
    assert codes(read, loadout, rows) == ["card_not_allowed"]
    over = [(c, 3) if c == "c1" else (c, n) for c, n in legal]
    assert "too_many_copies" in codes(read, loadout, over)
    # A universal card missing, and an item card short of what the item brings.
    short = [(c, n) for c, n in legal if c not in ("u0", "dagger-stab")]
    got = codes(read, loadout, short)
    assert got.count("required_card_missing") == 2 and "deck_size" in got
    assert "behaviour_card_in_deck" in codes(read, loadout, [*legal, ("church-pack-frenzy", 1)])
    assert "unknown_card" in codes(read, loadout, [*legal, ("nope", 1)])


def test_loadouts_are_checked_against_slots_and_factions_r_add_52() -> None:
    read = read_database(document())
    bad = Loadout("church", "scout", ("greatsword", "kite-shield", "longbow", "lamp", "sigil"))
    got = [p.code for p in loadout_problems(read, bad)]
    assert got.count("slots_exceeded") == 3  # two weapons, off-hand under a 2-handed, accessories
    assert "item_not_for_faction" in got
    assert [p.code for p in loadout_problems(read, Loadout("orcs", "titan", ()))] == [
        "unknown_faction",
        "unknown_class",
    ]
    with pytest.raises(InvalidInput, match="is for elves, not church"):
        build_casket_deck(read, Loadout("church", "scout", ("longbow",)), RULES)


# --- the coverage report -------------------------------------------------------------------------


def test_the_coverage_report_counts_each_factions_deck_cards_and_gives_every_manual_reason() -> (
    None
):
    read = read_database(document())
    (church,) = [r for r in faction_coverage(read) if r.faction == "church"]
    assert church.deck_cards == church.automated + church.manual
    table = coverage_markdown(read, source="test.json")
    assert "| church |" in table
    for c in read.cards.values():
        if c.card.manual and c.card.kind != "behaviour":
            assert f"| `{c.card.id}` |" in table
            assert manual_reason(c.card)
    assert manual_reason(read.cards["dagger-stab"].card) == ""


# --- the real database (skipped when absent) -----------------------------------------------------


@pytest.fixture(scope="module")
def real() -> Any:
    if not DATABASE.is_file():
        pytest.skip(f"card database not present at {DATABASE}")
    return read_database(json.loads(DATABASE.read_text(encoding="utf-8")))


def test_the_real_database_loads_its_items_units_and_behaviour_cards(real: Any) -> None:
    assert len(real.items) == 75 and len(real.units) == 42
    assert sum(c.card.kind == "behaviour" for c in real.cards.values()) >= 155
    assert real.sections["equipment_items"].loaded >= 300
    assert all(real.faction_pools[f] for f in FACTIONS)
    # Every faction card loads (R-ADD-54) or is another occurrence of a loaded id (R-ADD-53).
    for line in real.reported:
        if line.source.section in FACTIONS:
            assert "(R-ADD-53)" in line.reason, str(line)


@pytest.mark.parametrize("faction", FACTIONS)
def test_random_loadouts_of_every_faction_build_legal_decks(real: Any, faction: str) -> None:
    for seed in range(5):
        rng = random.Random(seed)
        loadout = random_loadout(real, faction, rng)
        rows = build_casket_deck(real, loadout, RULES, rng)
        assert casket_deck_problems(real, loadout, rows, RULES) == [], (loadout, rows)


def test_a_battle_between_two_real_database_decks_runs_to_its_end(real: Any) -> None:
    rng = random.Random(5)
    seats = []
    used: set[str] = set()
    for n, faction in enumerate(("church", "vestige-bloodlines")):
        loadout = random_loadout(real, faction, rng)
        rows = build_casket_deck(real, loadout, RULES, rng)
        used.update(c for c, _ in rows)
        seats.append(
            {
                "player": f"p{n}",
                "side": faction,
                "casket": {
                    "name": faction,
                    "class": loadout.casket_class,
                    "shield": ("left", "right")[n],
                },
                "deck": [{"card": c, "count": k} for c, k in rows],
                "pilot": {"name": f"Pilot {n}", "carried_wounds": [], "sp_modifier": 0},
                "at": [[0, -4], [0, 4]][n],
                "facing": (4, 1)[n],
            }
        )
    setup = {
        "name": "real decks",
        "board": demo_board(),
        "rules": {"version": "2.1"},
        "dice": {"mode": "digital", "seed": 5},
        "policy": "auto",
        "cards": [real.cards[c].card.as_dict() for c in sorted(used)],
        "seats": seats,
    }
    state = replay(create("real-decks", setup))
    start = state
    for _, _, state in greedy_commands(start, seed=5, chooser=choose_thrifty):  # noqa: B007
        pass
    assert state.over


def test_the_coverage_report_gives_the_catalogues_own_reason_for_a_card_it_keeps_manual(
    real: Any,
) -> None:
    """R-ADD-57: a reviewer's reason beats the generic one read off the card's fields."""
    read = real
    assert read.notes, "the catalogue keeps some cards manual, each with its reason"
    card_id, note = next(iter(read.notes.items()))
    assert not read.cards[card_id].card.automated
    assert note in coverage_markdown(read, source="db.json")
