"""The deck builder with the real card database (read from ../shared/data, skipped where
absent): the catalogue paged, filtered by the real factions (a card of several factions
under each), kind, cost and a search of name and text; each card's text, cost, range,
damage and whether it plays itself (or why not); kinds in words."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from battles.engine.carddata.spelling import FACTIONS
from campaigns.catalogue import cards_import
from campaigns.models import Card, CardVersion

from .builders import demo_campaign
from .test_import_cards import REAL_DB
from .test_pages_campaign import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def real() -> Any:
    if not REAL_DB.is_file():
        pytest.skip(f"the real card database is not at {REAL_DB}")
    made = demo_campaign()
    cards_import(document=json.loads(REAL_DB.read_text(encoding="utf-8")), source="real")
    return made


def rows(body: str) -> list[str]:
    return re.findall(r'<tr data-card="([a-z0-9-]+)">', body)


def test_the_real_catalogue_is_paged_filtered_and_shown_in_words(real: Any) -> None:
    ann = client_for(real.ann)
    url = f"/campaigns/{real.campaign.id}/builds/new/"
    body = ann.get(url, {"card_faction": ""}).content.decode()
    total = CardVersion.objects.count()
    assert total > 700
    assert len(rows(body)) == 25  # one page, never the whole catalogue
    assert f"{total} cards match; page 1 of {-(-total // 25)}" in body
    page2 = ann.get(url, {"card_faction": "", "page": "2"}).content.decode()
    assert not set(rows(body)) & set(rows(page2))
    # The faction filter offers the real factions only, and a card of several appears
    # under each of them.
    options = re.findall(
        r'<option value="([^"]*)"', body.split('id="f-faction"')[1].split("</select>")[0]
    )
    assert options == ["", *FACTIONS, "universal"]
    shared = CardVersion.objects.filter(faction="elves, dwarves").first()
    assert shared is not None
    for faction in ("elves", "dwarves"):
        found = ann.get(url, {"card_faction": faction, "q": shared.name}).content.decode()
        assert shared.card_id in rows(found), faction
    # Kind, cost and text search narrow it; kinds are words, never keys.
    reactive = ann.get(url, {"card_faction": "", "kind": "reactive", "cost": "0"}).content.decode()
    assert rows(reactive)
    assert all(
        CardVersion.objects.get(card_id=c, version=1).kind == "reactive"
        and CardVersion.objects.get(card_id=c, version=1).sp_cost == 0
        for c in rows(reactive)
    )
    for page in (body, reactive):
        assert "primary_weapon" not in re.sub(r'value="[^"]*"', "", page)
    assert "Primary weapon" in body
    # Each card shows its text, and whether it plays itself or why the players resolve it.
    manual = Card.objects.exclude(manual_reason="").first()
    assert manual is not None
    cv = CardVersion.objects.get(card=manual, version=manual.current_version)
    found = ann.get(url, {"card_faction": "", "q": cv.name}).content.decode()
    assert "Resolved by hand" in found and manual.manual_reason[:40] in found.replace("&#x27;", "'")
    assert "Plays itself" in body

    # The search reads the card's text too, and a row shows its range and damage: a card
    # with both, found by two words of its text (not of its name) that few cards share.
    def rare_words(cv: CardVersion) -> str | None:
        for w in re.findall(r"[A-Za-z]{5,} [A-Za-z]{5,}", cv.text):
            rare = CardVersion.objects.filter(text__icontains=w).count() <= 10
            if rare and w.lower() not in cv.name.lower():
                return w
        return None

    ranged = CardVersion.objects.filter(version=1, damage__isnull=False).exclude(range="")
    hit, words = next((cv, w) for cv in ranged.order_by("card_id") if (w := rare_words(cv)))
    found = ann.get(url, {"card_faction": "", "q": words}).content.decode()
    assert hit.card_id in rows(found), words
    row = found.split(f'<tr data-card="{hit.card_id}">')[1].split("</tr>")[0]
    assert f"{hit.range} / {hit.damage}" in row.replace("&#x27;", "'"), row
