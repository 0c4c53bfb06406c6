"""Errata and versions (R-ADD-223): staff's edit of a card is a new version, never an
overwrite; the admin shows two versions' differences and every build and starter deck
holding the card with the version it pinned; a build moves on in one step, checked again;
an import's dry run shows each changed card's differences, and its counts add up."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from campaigns import selectors
from campaigns.catalogue import card_version_content, cards_import
from campaigns.models import Card, CardVersion
from campaigns.starters import starter_deck_save

from .builders import demo_campaign, make_users
from .decks_doc import DECKS_DOCUMENT, pyre_build, staff_client
from .test_decklists import GOOD
from .test_import_cards import REAL_DB
from .test_pages_campaign import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def dc() -> Any:
    made = demo_campaign()
    cards_import(document=DECKS_DOCUMENT, source="decks-test")
    made.pyre = pyre_build(made)
    made.starter = starter_deck_save(text=GOOD)
    return made


@pytest.fixture
def staff(django_user_model: Any) -> Client:
    return staff_client(django_user_model)


def edit_form(card_id: str, **changes: Any) -> dict[str, Any]:
    card = Card.objects.get(pk=card_id)
    content = card_version_content(CardVersion.objects.get(card=card, version=card.current_version))
    content.update(changes)
    versions = list(CardVersion.objects.filter(card=card).order_by("version"))
    data: dict[str, Any] = {
        **{k: v for k, v in content.items() if v is not None and not isinstance(v, bool)},
        "keywords": ", ".join(content["keywords"]),
        "effects": json.dumps(content["effects"]),
        "source": "errata",
        "versions-TOTAL_FORMS": str(len(versions)),
        "versions-INITIAL_FORMS": str(len(versions)),
        "versions-MIN_NUM_FORMS": "0",
        "versions-MAX_NUM_FORMS": "1000",
    }
    for flag in ("automated", "shield"):
        if content[flag]:
            data[flag] = "on"
    for i, v in enumerate(versions):
        data[f"versions-{i}-id"] = str(v.pk)
        data[f"versions-{i}-card"] = card_id
    return data


def test_staff_errata_make_a_new_version_and_show_the_builds_it_touches(
    dc: Any, staff: Client
) -> None:
    change = reverse("admin:campaigns_card_change", args=["prayer-1"])
    response = staff.post(change, edit_form("prayer-1", sp_cost=2, text="Deal 2 damage. Pray."))
    assert response.status_code == 302, response.context["adminform"].form.errors
    # Never an overwrite, even of a version no battle used: version 1 is as it was.
    assert list(
        CardVersion.objects.filter(card_id="prayer-1").values_list("version", "sp_cost")
    ) == [(1, 1), (2, 2)]
    page = staff.get(reverse("admin:campaigns_card_versions", args=["prayer-1"])).content.decode()
    assert '<tr data-field="sp_cost"><th>SP cost</th><td>1</td><td>2</td></tr>' in page
    assert 'data-field="text"' in page and 'data-field="name"' not in page
    assert f'data-build="{dc.pyre.id}"' in page and "Pyre" in page
    assert "behind: its owner can move it to version 2" in page
    assert "Pyre II" in page  # the starter deck, pinned to version 1
    older = staff.get(reverse("admin:campaigns_card_versions", args=["prayer-1"]) + "?a=1&b=1")
    assert "No difference" in older.content.decode()


def test_the_versions_page_is_for_staff_only(dc: Any) -> None:
    url = reverse("admin:campaigns_card_versions", args=["prayer-1"])
    assert client_for(dc.ann).get(url).status_code == 302  # to the admin's login
    assert Client().get(url).status_code == 302


def test_a_build_moves_to_the_new_versions_in_one_step(dc: Any, staff: Client) -> None:
    staff.post(
        reverse("admin:campaigns_card_change", args=["prayer-1"]), edit_form("prayer-1", sp_cost=2)
    )
    build_page = f"/campaigns/{dc.campaign.id}/builds/{dc.pyre.id}/"
    page = client_for(dc.ann).get(build_page).content.decode()
    assert 'id="stale-cards"' in page and "Prayer 1 (version 1 → 2)" in page
    url = f"{build_page}update-cards/"
    (outsider,) = make_users("outsider")
    assert client_for(dc.bob).post(url).status_code == 403
    assert client_for(outsider).post(url).status_code == 404
    assert client_for(dc.ann).post(url).status_code == 302
    build = selectors.campaign_state(campaign=dc.campaign).builds[str(dc.pyre.id)]
    assert [v.version for v in build.versions] == [1, 2]
    assert ("prayer-1", 1, 3) in build.versions[0].deck and ("prayer-1", 2, 3) in build.current.deck
    assert 'id="stale-cards"' not in client_for(dc.ann).get(build_page).content.decode()
    again = client_for(dc.ann).post(url)
    assert again.status_code == 400 and "R-ADD-223" in again.content.decode()


def test_a_move_the_new_version_makes_illegal_is_refused_and_saves_nothing(
    dc: Any, staff: Client
) -> None:
    staff.post(
        reverse("admin:campaigns_card_change", args=["prayer-1"]),
        edit_form("prayer-1", copies_per_deck=2),
    )
    before = selectors.campaign_state(campaign=dc.campaign).version
    refused = client_for(dc.ann).post(
        f"/campaigns/{dc.campaign.id}/builds/{dc.pyre.id}/update-cards/"
    )
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "Prayer 1: 3 copies" in body and "R-ADD-29" in body
    assert selectors.campaign_state(campaign=dc.campaign).version == before


def test_staff_move_a_starter_deck_on_with_an_admin_action(dc: Any, staff: Client) -> None:
    staff.post(
        reverse("admin:campaigns_card_change", args=["prayer-2"]), edit_form("prayer-2", sp_cost=3)
    )
    response = staff.post(
        reverse("admin:campaigns_starterdeck_changelist"),
        {"action": "move_to_current_versions", "_selected_action": [dc.starter.pk]},
        follow=True,
    )
    assert "every card at its current version" in response.content.decode()
    dc.starter.refresh_from_db()
    assert ["prayer-2", 2, 3] in dc.starter.deck


def test_an_import_dry_run_shows_each_changed_cards_differences(dc: Any, staff: Client) -> None:
    changed = copy.deepcopy(DECKS_DOCUMENT)
    changed["church"][0]["cost"] = 4
    changed["church"][0]["effect"] = "Deal 2 damage. Then pray."
    upload = SimpleUploadedFile("cards.json", json.dumps(changed).encode(), "application/json")
    response = staff.post(reverse("admin:campaigns_card_import"), {"file": upload, "dry_run": "on"})
    page = response.content.decode()
    assert 'id="import-changes"' in page
    assert "<td>sp_cost</td><td>1</td><td>4</td>" in page
    assert "Then pray." in page
    assert CardVersion.objects.get(card_id="prayer-1", version=1).sp_cost == 1  # nothing written


def test_the_real_imports_counts_agree_with_each_other() -> None:
    if not REAL_DB.is_file():
        pytest.skip(f"the real card database is not at {REAL_DB}")
    report = cards_import(document=json.loads(REAL_DB.read_text(encoding="utf-8")), source="real")
    assert report.entries == report.loaded + report.reported_entries + report.referenced
    assert len(report.reported) == report.reported_entries + report.skipped_sections
    assert report.loaded == sum(report.outcomes.values())
    banner = report.banner()
    assert f"{len(report.reported)} report lines ({report.reported_entries} entries and " in banner
    assert f"{report.cards_written} cards, {report.items_written} equipment items" in banner
