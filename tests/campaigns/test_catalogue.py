"""The card catalogue's services and selectors (campaigns/catalogue.py): saving cards with
versions, the engine's checks, deck problems (R-ADD-15, R-ADD-29), exports and the import
of a card database document."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from django.contrib.auth.models import User

from battles.engine.cards import AttackEffect, CardDef
from battles.engine.demo import DEMO_CARDS, DEMO_DECKS, demo_setup
from battles.engine.errors import InvalidInput
from battles.engine.ruleset import Ruleset
from battles.engine.tohit import parse_range
from battles.services import battle_create
from campaigns.catalogue import (
    DEMO_SOURCE,
    card_rows_for,
    card_save,
    card_version_def,
    card_version_in_use,
    cards_export_rows,
    cards_import,
    catalogue_load_demo,
    deck_problems,
)
from campaigns.models import (
    BuildVersion,
    Campaign,
    Card,
    CardVersion,
    CasketBuild,
    DeckEntry,
    Deployment,
    Mission,
    Pilot,
)

pytestmark = pytest.mark.django_db

JAB: dict[str, Any] = {
    "name": "Rust-Tooth Jab",
    "faction": "church",
    "card_type": "Attack",
    "kind": "primary_weapon",
    "sp_cost": 1,
    "range": "Melee",
    "damage": 2,
    "heat": 0,
    "keywords": ["attack", "melee"],
    "text": "Deal 2 damage.",
    "shield": False,
    "effects": [{"kind": "attack", "range": "Melee", "damage": 2}],
    "automated": True,
    "copies_per_deck": 3,
}


def jab(**changes: Any) -> dict[str, Any]:
    return {**JAB, **changes}


def deploy(card_versions: Sequence[CardVersion], count: int = 1) -> Deployment:
    """A deployed build whose deck holds these versions: a battle used them.

    Written directly with the ORM (the campaign services are not this module's subject);
    the mission's battle is a real one created from the demo setup.
    """
    gm, _ = User.objects.get_or_create(username="gm")
    player, _ = User.objects.get_or_create(username="player")
    battle = battle_create(gm=gm, setup=demo_setup(seed=7, players=("gm", "player")))
    campaign = Campaign.objects.create(name="The Ash Road", gm=gm)
    mission = Mission.objects.create(campaign=campaign, number=1, name="Causeway", battle=battle)
    pilot = Pilot.objects.create(campaign=campaign, player=player, name="Sister Ashe")
    build = CasketBuild.objects.create(campaign=campaign, player=player, name="Ashe's scout")
    build_version = BuildVersion.objects.create(
        build=build, version=1, casket_class="scout", shield="left"
    )
    for i, cv in enumerate(card_versions):
        DeckEntry.objects.create(
            build_version=build_version, position=i, card_version=cv, count=count
        )
    return Deployment.objects.create(
        mission=mission, seat=1, pilot=pilot, build_version=build_version
    )


# --- card_save -----------------------------------------------------------------------------------


def test_a_new_card_is_created_as_version_1() -> None:
    version, outcome = card_save(card_id="rust-tooth-jab", fields=JAB, source="test")
    assert outcome == "created"
    assert (version.card_id, version.version, version.source) == ("rust-tooth-jab", 1, "test")
    assert Card.objects.get(pk="rust-tooth-jab").current_version == 1
    assert version.effects == [{"kind": "attack", "range": "Melee", "damage": 2}]
    assert version.copies_per_deck == 3


def test_the_same_content_again_is_unchanged_and_writes_nothing() -> None:
    card_save(card_id="rust-tooth-jab", fields=JAB, source="test")
    before = list(CardVersion.objects.values())
    version, outcome = card_save(card_id="rust-tooth-jab", fields=JAB, source="another source")
    assert outcome == "unchanged"
    assert version.source == "test"  # provenance is not content
    assert list(CardVersion.objects.values()) == before


def test_editing_a_card_no_battle_used_changes_its_current_version_in_place() -> None:
    card_save(card_id="rust-tooth-jab", fields=JAB, source="test")
    deploy([])  # a deployed build without this card does not pin it
    version, outcome = card_save(card_id="rust-tooth-jab", fields=jab(sp_cost=2), source="edit")
    assert outcome == "updated"
    assert CardVersion.objects.filter(card_id="rust-tooth-jab").count() == 1
    assert (version.version, version.sp_cost, version.source) == (1, 2, "edit")


def test_a_deck_row_of_a_build_never_deployed_does_not_pin_the_version() -> None:
    v1, _ = card_save(card_id="rust-tooth-jab", fields=JAB, source="test")
    deployment = deploy([v1])
    deployment.delete()
    assert not card_version_in_use(v1)
    _, outcome = card_save(card_id="rust-tooth-jab", fields=jab(sp_cost=2), source="edit")
    assert outcome == "updated"


def test_editing_a_card_a_battle_used_makes_version_2_and_keeps_version_1() -> None:
    v1, _ = card_save(card_id="rust-tooth-jab", fields=JAB, source="test")
    deployment = deploy([v1])
    assert card_version_in_use(v1)

    v2, outcome = card_save(
        card_id="rust-tooth-jab",
        fields=jab(
            damage=3,
            text="Deal 3 damage.",
            effects=[{"kind": "attack", "range": "Melee", "damage": 3}],
        ),
        source="errata",
    )
    assert outcome == "new_version"
    assert v2.version == 2 and v2.damage == 3
    assert Card.objects.get(pk="rust-tooth-jab").current_version == 2
    v1.refresh_from_db()
    assert (v1.damage, v1.source, v1.text) == (2, "test", "Deal 2 damage.")
    # The deck the battle played still holds version 1.
    entry = DeckEntry.objects.get(build_version=deployment.build_version)
    assert entry.card_version_id == v1.pk

    # Version 2 is not used yet: the next edit changes it in place.
    v2b, outcome = card_save(card_id="rust-tooth-jab", fields=jab(sp_cost=2), source="errata")
    assert outcome == "updated" and v2b.pk == v2.pk
    assert CardVersion.objects.filter(card_id="rust-tooth-jab").count() == 2


def test_saving_unchanged_content_of_a_used_card_makes_no_version() -> None:
    v1, _ = card_save(card_id="rust-tooth-jab", fields=JAB, source="test")
    deploy([v1])
    _, outcome = card_save(card_id="rust-tooth-jab", fields=dict(JAB), source="test")
    assert outcome == "unchanged"
    assert CardVersion.objects.count() == 1


@pytest.mark.parametrize(
    ("changes", "field", "rule"),
    [
        ({"sp_cost": "3"}, "sp_cost", "R-TRN-5"),
        ({"sp_cost": True}, "sp_cost", "R-TRN-5"),
        ({"kind": "spell"}, "kind", None),
        ({"range": "far"}, "range", "R-RNG-2"),
        ({"range": 3}, "range", None),
        ({"damage": 101}, "damage", "R-DMG-1"),
        ({"damage": "4"}, "damage", "R-DMG-1"),
        ({"effects": [{"kind": "move", "hexes": 0}]}, "effects[0].hexes", "R-TRN-5"),
        ({"effects": [{"kind": "blink"}]}, "effects[0].kind", None),
        ({"effects": "attack"}, "effects", None),
        ({"keywords": "attack"}, "keywords", None),
        ({"keywords": ["attack", ""]}, "keywords", None),
        ({"copies_per_deck": 0}, "copies_per_deck", "R-ADD-29"),
        ({"copies_per_deck": 31}, "copies_per_deck", "R-ADD-29"),
        ({"faction": None}, "faction", None),
        ({"card_type": "x" * 61}, "card_type", None),
        ({"name": "x" * 121}, "name", None),
        ({"name": "  "}, "name", None),
        ({"shield": "yes"}, "shield", None),
        ({"colour": "red"}, "colour", None),
        # The card's range must be its first attack's (R-RNG-2).
        ({"range": "3"}, "range", "R-RNG-2"),
        # A manual card needs its text for the players (R-ADD-14).
        ({"effects": [], "automated": False, "text": ""}, "text", None),
        # reduce_incoming only on reactive cards (R-REA-1).
        ({"effects": [{"kind": "reduce_incoming", "amount": 1}]}, "effects[0]", "R-REA-1"),
    ],
)
def test_bad_card_input_is_refused_naming_the_field_and_writes_nothing(
    changes: dict[str, Any], field: str, rule: str | None
) -> None:
    with pytest.raises(InvalidInput) as err:
        card_save(card_id="rust-tooth-jab", fields=jab(**changes), source="test")
    assert err.value.field == field
    if rule:
        assert err.value.rule == rule
    assert not Card.objects.exists() and not CardVersion.objects.exists()


@pytest.mark.parametrize("missing", ["name", "kind", "sp_cost"])
def test_a_card_without_a_required_field_is_refused(missing: str) -> None:
    fields = {k: v for k, v in JAB.items() if k != missing}
    with pytest.raises(InvalidInput) as err:
        card_save(card_id="rust-tooth-jab", fields=fields, source="test")
    assert (err.value.field, err.value.message) == (missing, "required")


@pytest.mark.parametrize("card_id", ["Bad Id", "", "x" * 81, 7])
def test_a_card_id_that_is_no_slug_is_refused(card_id: Any) -> None:
    with pytest.raises(InvalidInput) as err:
        card_save(card_id=card_id, fields=JAB, source="test")
    assert err.value.field == "id"


def test_a_bad_source_is_refused() -> None:
    with pytest.raises(InvalidInput) as err:
        card_save(card_id="rust-tooth-jab", fields=JAB, source="s" * 201)
    assert err.value.field == "source"


def test_a_change_to_bad_content_leaves_the_card_as_it_was() -> None:
    card_save(card_id="rust-tooth-jab", fields=JAB, source="test")
    with pytest.raises(InvalidInput):
        card_save(card_id="rust-tooth-jab", fields=jab(kind="spell"), source="test")
    assert CardVersion.objects.get().kind == "primary_weapon"


def test_an_empty_effect_list_with_automated_false_is_a_manual_card() -> None:
    version, _ = card_save(
        card_id="hymn",
        fields={"name": "Hymn", "kind": "other", "sp_cost": 0, "text": "Sing."},
        source="test",
    )
    assert (version.effects, version.automated, version.range, version.damage) == (
        [],
        False,
        "",
        None,
    )
    assert card_version_def(version).manual


# --- engine cards, demo set ----------------------------------------------------------------------


def test_a_version_is_the_engine_card_with_the_slug_as_id() -> None:
    version, _ = card_save(card_id="rust-tooth-jab", fields=JAB, source="test")
    card = card_version_def(version)
    assert isinstance(card, CardDef)
    assert card.id == "rust-tooth-jab"
    assert card.effects == (AttackEffect(parse_range("Melee"), 2),)
    assert card.automated and card.range == parse_range("Melee")


def test_the_demo_set_loads_once_as_the_engine_defines_it() -> None:
    assert catalogue_load_demo() == len(DEMO_CARDS)
    assert catalogue_load_demo() == 0
    assert CardVersion.objects.count() == len(DEMO_CARDS)
    for card in DEMO_CARDS:
        version = CardVersion.objects.get(card_id=card.id)
        assert version.source == DEMO_SOURCE
        assert card_version_def(version) == card


# --- decks ---------------------------------------------------------------------------------------


def demo_deck(name: str = "penitent-scout") -> list[tuple[CardVersion, int]]:
    catalogue_load_demo()
    return card_rows_for((card_id, n, None) for card_id, n in DEMO_DECKS[name])


def test_a_demo_deck_is_legal_under_ruleset_2_0() -> None:
    assert deck_problems(demo_deck(), Ruleset()) == []


def test_a_deck_of_29_cards_is_refused_with_the_deck_size_rule() -> None:
    rows = demo_deck()
    rows[0] = (rows[0][0], rows[0][1] - 1)
    problems = deck_problems(rows, Ruleset())
    assert [(p.code, p.rule, p.index) for p in problems] == [("deck_size", "R-TRN-1", None)]


def test_more_copies_than_the_card_allows_is_a_problem_of_that_row() -> None:
    rows = demo_deck()
    first = rows[0][0]
    first.copies_per_deck = rows[0][1] - 1
    problems = deck_problems(rows, Ruleset())
    assert [(p.code, p.rule, p.index) for p in problems] == [("too_many_copies", "R-ADD-29", 0)]
    assert first.name in problems[0].message


def test_two_versions_of_one_card_are_one_card_listed_twice() -> None:
    v1, _ = card_save(card_id="rust-tooth-jab", fields=JAB, source="test")
    deploy([v1])
    v2, _ = card_save(card_id="rust-tooth-jab", fields=jab(sp_cost=2), source="test")
    problems = deck_problems([(v1, 2), (v2, 1)], Ruleset())
    assert [(p.code, p.index) for p in problems] == [("duplicate_card", 1), ("deck_size", None)]


def test_unknown_cards_and_versions_in_a_deck_name_the_row() -> None:
    catalogue_load_demo()
    with pytest.raises(InvalidInput) as err:
        card_rows_for([("pyre-lance", 4, None), ("plasma-sword", 1, None)])
    assert err.value.field == "deck[1].card"
    with pytest.raises(InvalidInput) as err:
        card_rows_for([("pyre-lance", 4, 2)])
    assert err.value.field == "deck[0].version"


# --- export --------------------------------------------------------------------------------------


def test_export_rows_give_each_cards_current_version() -> None:
    v1, _ = card_save(card_id="rust-tooth-jab", fields=JAB, source="test")
    deploy([v1])
    card_save(card_id="rust-tooth-jab", fields=jab(sp_cost=2), source="errata")
    rows = cards_export_rows(Card.objects.all())
    assert len(rows) == 1
    row = rows[0]
    assert (row["id"], row["version"], row["sp_cost"], row["source"]) == (
        "rust-tooth-jab",
        2,
        2,
        "errata",
    )
    assert row["keywords"] == ["attack", "melee"] and row["effects"] == JAB["effects"]
    versions = cards_export_rows(CardVersion.objects.all())
    assert [(r["id"], r["version"]) for r in versions] == [
        ("rust-tooth-jab", 1),
        ("rust-tooth-jab", 2),
    ]


# --- import of a card database document ----------------------------------------------------------

DOCUMENT: dict[str, Any] = {
    "_meta": {"version": "test"},
    "universal": [
        {
            "id": "lunge",
            "name": "Lunge",
            "type": "movement",
            "cost": 1,
            "range": "Self",
            "effect": "Move up to 2 hexes.",
            "keywords": ["universal", "movement"],
            "cardCount": 2,
        }
    ],
    "church": [
        {
            "id": "faithful-thrust",
            "name": "Faithful Thrust",
            "type": "Attack",
            "cost": 2,
            "range": "Melee",
            "damage": 4,
            "effect": "Deal 4 damage.",
            "keywords": ["attack", "primary"],
            "cardCount": 3,
        },
        {"id": "tithe", "name": "Tithe", "type": "gambit", "cost": "2 Faith tokens"},
        "not an entry",
    ],
    "equipment": [
        {
            "id": "faithful-thrust",
            "name": "Faithful Thrust",
            "type": "Attack",
            "cost": 2,
            "range": "Melee",
            "damage": 4,
            "effect": "Deal 4 damage.",
            "keywords": ["attack"],
            "cardCount": 1,
        },
    ],
    "campaign_cards": [
        {
            "id": "scrap-token",
            "name": "Scrap",
            "faction": "universal",
            "type": "campaign",
            "cost": 0,
            "effect": "Spend in the camp.",
            "cardCount": 0,
        },
        {
            "id": "bone-tithe",
            "name": "Bone Tithe",
            "faction": "ossuarium",
            "type": "campaign",
            "cost": 1,
            "effect": "Gain a Soul Shard.",
        },
    ],
    "tactics": {"church": [], "elves": []},
}


def test_an_import_loads_or_reports_every_entry_of_every_section() -> None:
    report = cards_import(document=DOCUMENT, source="test-db.json")
    assert {s: (c.entries, c.loaded, c.reported) for s, c in report.sections.items()} == {
        "universal": (1, 1, 0),
        "church": (3, 1, 2),
        "equipment": (1, 0, 1),
        "campaign_cards": (2, 2, 0),
    }
    assert (report.entries, report.loaded, report.automated) == (7, 4, 1)
    lines = [str(line) for line in report.reported]
    assert lines == [
        "_meta: section skipped: metadata, not cards",
        "church #1 'Tithe': cost '2 Faith tokens' is not a whole number of SP",
        "church #2: not an object but str",
        # R-ADD-53: one id is one card, loaded from its faction section before the flat
        # equipment list; the report names the fields that differ.
        "equipment #0 'Faithful Thrust': id 'faithful-thrust' is loaded from church #0 "
        "(R-ADD-53); this entry differs in keywords",
    ]
    assert all(line.reason for line in report.reported)
    assert report.lines()[: len(lines)] == lines
    assert (
        "7 entries: 4 loaded (4 created, 0 updated, 0 new_version, 0 unchanged)"
        in (report.lines()[len(lines)])
    )


def test_an_import_maps_factions_types_and_copies_per_deck() -> None:
    cards_import(document=DOCUMENT, source="test-db.json")
    got = {
        v.card_id: (v.faction, v.card_type, v.copies_per_deck, v.kind, v.automated, v.source)
        for v in CardVersion.objects.all()
    }
    assert got == {
        "lunge": ("", "movement", 2, "universal", False, "test-db.json"),
        "faithful-thrust": ("church", "Attack", 3, "primary_weapon", True, "test-db.json"),
        "scrap-token": ("", "campaign", None, "other", False, "test-db.json"),
        "bone-tithe": ("ossuarium", "campaign", None, "other", False, "test-db.json"),
    }


def test_importing_the_same_document_twice_writes_nothing() -> None:
    cards_import(document=DOCUMENT, source="test-db.json")
    before = list(CardVersion.objects.order_by("pk").values())
    report = cards_import(document=DOCUMENT, source="test-db.json")
    assert dict(report.outcomes) == {"unchanged": 4}
    assert report.written == 0
    assert list(CardVersion.objects.order_by("pk").values()) == before


def test_an_import_that_changes_a_used_card_gives_it_a_new_version() -> None:
    cards_import(document=DOCUMENT, source="v1.json")
    deploy([CardVersion.objects.get(card_id="faithful-thrust")])
    changed = {**DOCUMENT, "church": [dict(DOCUMENT["church"][0], cost=3)]}
    report = cards_import(document=changed, source="v2.json")
    assert report.outcomes["new_version"] == 1
    assert list(
        CardVersion.objects.filter(card_id="faithful-thrust").values_list("version", "sp_cost")
    ) == [(1, 2), (2, 3)]


def test_an_import_that_changes_an_unused_card_changes_it_in_place() -> None:
    cards_import(document=DOCUMENT, source="v1.json")
    changed = {**DOCUMENT, "church": [dict(DOCUMENT["church"][0], cost=3)]}
    report = cards_import(document=changed, source="v2.json")
    assert (report.outcomes["updated"], report.outcomes["unchanged"]) == (1, 3)
    assert list(
        CardVersion.objects.filter(card_id="faithful-thrust").values_list(
            "version", "sp_cost", "source"
        )
    ) == [(1, 3, "v2.json")]


def test_an_import_adds_to_cards_it_does_not_name_and_leaves_them_alone() -> None:
    catalogue_load_demo()
    before = list(CardVersion.objects.order_by("pk").values())
    report = cards_import(document=DOCUMENT, source="v1.json")
    assert report.outcomes["created"] == 4
    assert list(CardVersion.objects.filter(source=DEMO_SOURCE).order_by("pk").values()) == before


def test_an_entry_the_catalogue_refuses_is_reported_with_the_field() -> None:
    long_type = {**DOCUMENT["universal"][0], "type": "t" * 61}
    report = cards_import(document={"universal": [long_type]}, source="x.json")
    assert [str(line) for line in report.reported] == [
        "universal #0 'Lunge': card_type: at most 60 characters, got 61"
    ]
    assert not CardVersion.objects.exists()


@pytest.mark.parametrize("document", [[], "cards", None])
def test_a_document_that_is_not_an_object_of_sections_is_refused(document: Any) -> None:
    with pytest.raises(InvalidInput) as err:
        cards_import(document=document, source="x.json")
    assert err.value.field == "database"
