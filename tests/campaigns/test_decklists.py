"""Decks as text (R-ADD-221): a build's deck list out (API text/plain, the build page's
buttons, a printable sheet) and in (API and deck builder), every bad line named by its
number and ruling with nothing saved."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from campaigns import selectors
from campaigns.catalogue import cards_import

from .builders import demo_campaign, make_users
from .decks_doc import DECKS_DOCUMENT, pyre_build
from .test_pages_campaign import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def dc() -> Any:
    made = demo_campaign()
    cards_import(document=DECKS_DOCUMENT, source="decks-test")
    made.pyre = pyre_build(made)
    return made


def api(dc: Any, build: Any = None) -> str:
    base = f"/api/campaigns/{dc.campaign.id}/builds/"
    return f"{base}{(build or dc.pyre).id}/decklist" if build is not False else f"{base}decklist"


def stream_version(dc: Any) -> int:
    return selectors.campaign_state(campaign=dc.campaign).version


def post_json(client: Client, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


GOOD = """Name: Pyre II
Faction: church
Class: scout
Shield: left
Item: Mace
Item: Tower Shield
Item: charm
1 Lunge
1 Brace
1 Smash
1 Crush
1 Shove
1 Ward
""" + "".join(f"3 Prayer {n}\n" for n in range(1, 9))


def test_the_decklist_is_text_with_items_and_faction_named(dc: Any) -> None:
    response = client_for(dc.ann).get(api(dc))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    text = response.content.decode()
    for line in (
        "Faction: church",
        "Class: scout",
        "Item: Mace",
        "Item: Tower Shield",
        "3 Prayer 1",
        "1 Lunge",
        "# 30 cards",
    ):
        assert f"\n{line}\n" in text, line


def test_the_decklist_answers_owner_member_outsider_anonymous(dc: Any) -> None:
    (outsider,) = make_users("outsider")
    assert client_for(dc.bob).get(api(dc)).status_code == 200  # a member reads it
    assert client_for(dc.gm).get(api(dc)).status_code == 200
    assert client_for(outsider).get(api(dc)).status_code == 404
    assert Client().get(api(dc)).status_code == 401
    before = stream_version(dc)
    assert post_json(client_for(dc.bob), api(dc), {"text": GOOD}).status_code == 403
    assert post_json(client_for(outsider), api(dc), {"text": GOOD}).status_code == 404
    assert post_json(client_for(outsider), api(dc, False), {"text": GOOD}).status_code == 404
    assert stream_version(dc) == before


def test_an_exported_list_imports_into_a_new_build_with_the_same_deck(dc: Any) -> None:
    text = client_for(dc.ann).get(api(dc)).content.decode()
    response = post_json(client_for(dc.ann), api(dc, False), {"text": text, "name": "Copy"})
    assert response.status_code == 201, response.content
    state = selectors.campaign_state(campaign=dc.campaign)
    copy = state.builds[response.json()["id"]].current
    original = state.builds[str(dc.pyre.id)].current
    assert sorted(copy.deck) == sorted(original.deck)
    assert (copy.equipment, copy.faction, copy.construction) == (
        original.equipment,
        "church",
        "R-ADD-52",
    )


def test_a_list_imports_as_the_builds_next_version(dc: Any) -> None:
    response = post_json(client_for(dc.ann), api(dc), {"text": GOOD})
    assert response.status_code == 201, response.content
    assert response.json()["current_version"] == 2
    assert response.json()["name"] == "Pyre II"


@pytest.mark.parametrize(
    ("change", "field", "rule", "words"),
    [
        (("1 Smash", "1 Smashh"), "line 10", "R-ADD-221", "no card named “Smashh”"),
        (("Item: charm", "Item: Amulet"), "line 7", "R-ADD-221", "no equipment item “Amulet”"),
        (("1 Lunge", "31 Lunge"), "line 8", "R-TRN-1", "31 copies"),
        (("1 Lunge", "one Lunge"), "line 8", "R-ADD-221", "neither a card line"),
        (("1 Brace", "1 Leaf Step"), "line 9", "R-ADD-52", "Leaf Step is neither universal"),
        (("Item: Mace", "Item: Longbow"), "lines 5, 6, 7", "R-ADD-52", "LONGBOW is for elves"),
        (
            ("Faction: church", "Faction: pirates"),
            "line 2",
            "R-ADD-52",
            "'pirates' is not a faction",
        ),
        (("3 Prayer 8", "4 Prayer 8"), "line 21", "R-ADD-29", "Prayer 8: 4 copies"),
    ],
)
def test_every_bad_line_is_named_with_its_number_and_ruling_and_nothing_is_saved(
    dc: Any, change: tuple[str, str], field: str, rule: str, words: str
) -> None:
    text = GOOD.replace(change[0] + "\n", change[1] + "\n", 1)
    assert text != GOOD
    before = stream_version(dc)
    response = post_json(client_for(dc.ann), api(dc), {"text": text})
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert any(
        e["field"] == field and e["rule"] == rule and words in e["message"] for e in errors
    ), errors
    assert stream_version(dc) == before


def test_the_build_page_has_the_buttons_and_the_sheet_prints(dc: Any) -> None:
    (outsider,) = make_users("outsider")
    page = client_for(dc.bob).get(f"/campaigns/{dc.campaign.id}/builds/{dc.pyre.id}/")
    body = page.content.decode()
    assert f'href="{api(dc)}"' in body and 'id="sheet-link"' in body
    sheet = f"/campaigns/{dc.campaign.id}/builds/{dc.pyre.id}/sheet/"
    text = client_for(dc.ann).get(sheet).content.decode()
    assert "3 × Prayer 1" in text and "Equipment: Mace, Tower Shield, Charm" in text
    assert "decks.css" in text
    assert client_for(outsider).get(sheet).status_code == 404


def test_the_builder_imports_a_list_or_names_its_bad_lines(dc: Any) -> None:
    url = f"/campaigns/{dc.campaign.id}/builds/new/"
    before = stream_version(dc)
    bad = client_for(dc.ann).post(
        url, {"action": "import", "decklist": GOOD.replace("1 Smash", "1 Smashh")}
    )
    assert bad.status_code == 400
    body = bad.content.decode()
    assert "line 10" in body and "R-ADD-221" in body and "1 Smashh" in body
    assert stream_version(dc) == before
    good = client_for(dc.ann).post(url, {"action": "import", "decklist": GOOD})
    assert good.status_code == 302
    state = selectors.campaign_state(campaign=dc.campaign)
    assert any(b.current.name == "Pyre II" for b in state.builds.values())
