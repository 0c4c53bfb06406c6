"""Builds made from equipment (R-ADD-52, R-ADD-220): the service checks a casket's class,
faction, items and deck and names every violation; builds of the older rule keep working
and say so; a build belongs to a pilot; the deck builder chooses items by slot and the
cards follow."""

from __future__ import annotations

from typing import Any

import pytest

from campaigns import domain, selectors, services
from campaigns.catalogue import cards_import
from campaigns.codec import CAMPAIGN_EVENTS
from campaigns.models import Campaign

from .builders import demo_campaign, make_users
from .decks_doc import DECKS_DOCUMENT, LEGAL_DECK, LEGAL_ITEMS
from .test_pages_campaign import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def dc() -> Any:
    made = demo_campaign()  # its two builds are made before the database is imported
    cards_import(document=DECKS_DOCUMENT, source="decks-test")
    return made


def deck(rows: list[tuple[str, int]] = LEGAL_DECK) -> list[dict[str, Any]]:
    return [{"card": c, "count": n} for c, n in rows]


def revise(dc: Any, **kwargs: Any) -> Any:
    values: dict[str, Any] = {
        "campaign": dc.campaign,
        "actor": dc.ann,
        "build_id": None,
        "name": "Pyre",
        "casket_class": "scout",
        "shield": "left",
        "faction": "church",
        "deck": deck(),
        "equipment": LEGAL_ITEMS,
    }
    values.update(kwargs)
    return services.build_revise(**values)


def stream_version(dc: Any) -> int:
    return selectors.campaign_state(campaign=Campaign.objects.get(pk=dc.campaign.pk)).version


def test_a_build_from_equipment_is_checked_by_r_add_52_and_says_so(dc: Any) -> None:
    build, version = revise(dc, pilot=str(dc.pilots[0].id))
    state = selectors.campaign_state(campaign=dc.campaign)
    made = state.builds[str(build.id)]
    assert (version, made.current.construction, made.current.older_rule) == (1, "R-ADD-52", False)
    assert made.pilot_id == str(dc.pilots[0].id)
    assert made.current.equipment == tuple(LEGAL_ITEMS)


@pytest.mark.parametrize(
    ("changes", "field", "code"),
    [
        ({"equipment": ["longbow", "tower-shield", "charm"]}, "equipment", "item_not_for_faction"),
        (
            {"equipment": ["mace", "greatsword", "tower-shield", "charm"]},
            "equipment",
            "slots_exceeded",
        ),
        ({"equipment": ["mace", "no-such-item"]}, "equipment", "unknown_item"),
        ({"faction": "pirates"}, "faction", "unknown_faction"),
        (
            {"deck": deck([*LEGAL_DECK[:-1], ("prayer-8", 2), ("leaf-step", 1)])},
            "deck[14]",
            "card_not_allowed",
        ),
        ({"deck": deck(LEGAL_DECK[1:])}, "deck", "deck_size"),
    ],
)
def test_every_violation_is_named_by_field_code_and_ruling_and_nothing_is_saved(
    dc: Any, changes: dict[str, Any], field: str, code: str
) -> None:
    before = stream_version(dc)
    with pytest.raises(services.DeckRejected) as refused:
        revise(dc, **changes)
    errors = refused.value.extra_errors
    assert any(e["field"] == field and e["code"] == code for e in errors), errors
    assert all(e["rule"] for e in errors)
    assert stream_version(dc) == before


def test_a_build_of_the_older_rule_keeps_working_until_its_owner_rebuilds_it(dc: Any) -> None:
    state = selectors.campaign_state(campaign=dc.campaign)
    old = state.builds[str(dc.builds[0].id)]
    assert (old.current.construction, old.current.older_rule) == ("", True)
    # Rebuilding it from equipment is the next version; the old version stays as it was.
    _, version = revise(dc, build_id=old.id)
    state = selectors.campaign_state(campaign=dc.campaign)
    rebuilt = state.builds[old.id]
    assert version == 2
    assert [v.older_rule for v in rebuilt.versions] == [True, False]
    assert rebuilt.versions[0].deck == old.current.deck
    # The campaign's history says which rule each version was built under.
    history = client_for(dc.gm).get(f"/campaigns/{dc.campaign.id}/").content.decode()
    first, second = (v.name for v in rebuilt.versions)
    assert f"Build “{first}” version 1 ({old.player}), under the older rule (R-ADD-15)" in history
    assert (
        f"Build “{second}” version 2 ({old.player}), built from its equipment (R-ADD-52)" in history
    )


def test_a_schema_1_build_event_replays_as_the_older_rule_of_no_pilot() -> None:
    payload = {
        "build_id": "b1",
        "version": 1,
        "player": "ann",
        "name": "Pyre",
        "casket_class": "scout",
        "shield": "left",
        "faction": "",
        "deck": [["jab", 1, 30]],
        "equipment": [],
    }
    event = CAMPAIGN_EVENTS.decode_record("BuildRevised", 1, payload)
    assert (event.construction, event.pilot_id) == ("", "")
    assert CAMPAIGN_EVENTS.to_record(event)[1] == 2


def test_a_build_belongs_to_its_owners_pilot(dc: Any) -> None:
    bobs = str(dc.pilots[1].id)
    before = stream_version(dc)
    with pytest.raises(domain.RuleViolation) as refused:
        revise(dc, pilot=bobs)
    assert (refused.value.code, refused.value.rule) == ("not_your_pilot", "R-ADD-220")
    assert stream_version(dc) == before


# --- the deck builder ----------------------------------------------------------------------------


def builder(dc: Any) -> str:
    return f"/campaigns/{dc.campaign.id}/builds/new/"


def form(**fields: str) -> dict[str, str]:
    data = {
        "name": "Pyre",
        "casket_class": "scout",
        "shield": "left",
        "faction": "church",
        "item-weapon": "mace",
        "item-offhand": "tower-shield",
        "item-accessory-0": "charm",
    }
    data.update(fields)
    return data


def test_the_builder_offers_items_by_slot_and_the_cards_follow_them(dc: Any) -> None:
    ann = client_for(dc.ann)
    page = ann.get(builder(dc) + f"?pilot={dc.pilots[0].id}").content.decode()
    assert 'name="item-weapon"' in page and 'name="item-offhand"' in page
    assert "Mace (church; 2 cards)" in page
    followed = ann.post(builder(dc), form(action="follow")).content.decode()
    for card in ("mace-smash", "mace-crush", "tower-shield-shove", "charm-ward", "lunge"):
        assert f'data-deck-card="{card}"' in followed, card
    assert "Deck: 6 of 30 cards" in followed
    assert 'data-code="deck_size"' in followed
    # Changing the weapon takes the mace's cards out and brings the greatsword's.
    swapped = ann.post(
        builder(dc), form(action="follow", **{"item-weapon": "greatsword", "count-mace-smash": "1"})
    ).content.decode()
    assert 'data-deck-card="mace-smash"' not in swapped
    assert 'data-deck-card="greatsword-cleave"' in swapped
    assert 'data-code="slots_exceeded"' in swapped  # two-handed: the shield has no hand left


def test_the_builder_saves_a_legal_casket_for_its_pilot(dc: Any) -> None:
    ann = client_for(dc.ann)
    counts = {f"count-prayer-{n}": "3" for n in range(1, 9)}
    response = ann.post(builder(dc), form(action="save", pilot=str(dc.pilots[0].id), **counts))
    assert response.status_code == 302, response.content.decode()[:2000]
    state = selectors.campaign_state(campaign=dc.campaign)
    made = next(b for b in state.builds.values() if b.current.name == "Pyre")
    assert made.pilot_id == str(dc.pilots[0].id)
    assert sorted(made.current.deck) == sorted((c, 1, n) for c, n in LEGAL_DECK)


def test_a_refused_save_names_the_field_and_ruling_and_saves_nothing(dc: Any) -> None:
    ann = client_for(dc.ann)
    before = stream_version(dc)
    page = ann.post(builder(dc), form(action="save", **{"item-weapon": "longbow"}))
    assert page.status_code == 400
    text = page.content.decode()
    assert "LONGBOW is for elves, not church" in text and "R-ADD-52" in text
    assert stream_version(dc) == before


def test_the_builder_answers_owner_member_outsider(dc: Any) -> None:
    (outsider,) = make_users("outsider")
    edit = f"/campaigns/{dc.campaign.id}/builds/{dc.builds[0].id}/edit/"
    assert client_for(dc.ann).get(edit).status_code == 200
    assert client_for(dc.bob).get(edit).status_code == 403
    assert client_for(outsider).get(edit).status_code == 404
    assert client_for(outsider).get(builder(dc)).status_code == 404
