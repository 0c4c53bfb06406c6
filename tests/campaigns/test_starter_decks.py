"""Starter decks (R-ADD-222): staff keep them in the admin as deck lists, checked as any
build (every bad line named, nothing saved); a player copies one into a new build in one
step; the demo loads a few."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns import selectors
from campaigns.catalogue import cards_import
from campaigns.models import StarterDeck
from campaigns.starters import starter_deck_save, starter_decks_load_demo

from .builders import demo_campaign, make_users
from .decks_doc import DECKS_DOCUMENT, staff_client
from .test_decklists import GOOD
from .test_pages_campaign import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def dc() -> Any:
    made = demo_campaign()
    cards_import(document=DECKS_DOCUMENT, source="decks-test")
    return made


def admin_url(view: str = "changelist", *args: Any) -> str:
    return reverse(f"admin:campaigns_starterdeck_{view}", args=args)


@pytest.fixture
def staff(django_user_model: Any) -> Client:
    return staff_client(django_user_model)


def test_staff_write_a_starter_deck_as_a_deck_list_checked_like_a_build(
    dc: Any, staff: Client
) -> None:
    bad = staff.post(
        admin_url("add"), {"decklist": GOOD.replace("Item: Mace", "Item: Longbow"), "notes": ""}
    )
    assert bad.status_code == 200  # the admin shows the form again with the errors
    text = bad.content.decode()
    assert (
        "LONGBOW is for elves, not church" in text
        and "R-ADD-52" in text
        and "lines 5, 6, 7" in text
    )
    assert not StarterDeck.objects.exists()
    good = staff.post(admin_url("add"), {"decklist": GOOD, "notes": "For new penitents."})
    assert good.status_code == 302, good.content.decode()[:3000]
    starter = StarterDeck.objects.get()
    assert (starter.name, starter.faction, starter.casket_class, starter.construction) == (
        "Pyre II",
        "church",
        "scout",
        "R-ADD-52",
    )
    assert sum(n for _, _, n in starter.deck) == 30
    page = staff.get(admin_url("change", starter.pk)).content.decode()
    assert "3 Prayer 1" in page and "Item: Mace" in page
    listing = staff.get(admin_url()).content.decode()
    assert "equipment (R-ADD-52)" in listing


def test_a_player_copies_a_starter_deck_into_a_new_build_in_one_step(dc: Any) -> None:
    starter = starter_deck_save(text=GOOD)
    url = f"/campaigns/{dc.campaign.id}/builds/from-starter/"
    listing = client_for(dc.ann).get(f"/campaigns/{dc.campaign.id}/builds/").content.decode()
    assert 'id="starter-form"' in listing and "Pyre II (church, scout)" in listing
    response = client_for(dc.ann).post(url, {"starter": starter.pk, "pilot": str(dc.pilots[0].id)})
    assert response.status_code == 302
    state = selectors.campaign_state(campaign=dc.campaign)
    build = next(b for b in state.builds.values() if b.current.name == "Pyre II")
    assert build.player == "ann" and build.pilot_id == str(dc.pilots[0].id)
    assert sorted(build.current.deck) == sorted(tuple(r) for r in starter.deck)
    assert build.current.equipment == tuple(starter.equipment)


def test_copying_a_starter_deck_is_refused_for_others_and_outsiders(dc: Any) -> None:
    (outsider,) = make_users("outsider")
    starter = starter_deck_save(text=GOOD)
    url = f"/campaigns/{dc.campaign.id}/builds/from-starter/"
    before = selectors.campaign_state(campaign=dc.campaign).version
    assert client_for(outsider).post(url, {"starter": starter.pk}).status_code == 404
    theirs = client_for(dc.ann).post(url, {"starter": starter.pk, "pilot": str(dc.pilots[1].id)})
    assert theirs.status_code == 400 and "R-ADD-220" in theirs.content.decode()
    none = client_for(dc.ann).post(url, {"starter": "999"})
    assert none.status_code == 400 and "R-ADD-222" in none.content.decode()
    assert client_for(dc.ann).get(url).status_code == 405
    assert selectors.campaign_state(campaign=dc.campaign).version == before


def test_the_demo_loads_starter_decks_from_the_database_or_the_demo_set(dc: Any) -> None:
    made = starter_decks_load_demo()
    # The small database has too few elves cards and no dwarves: those are left out.
    assert [s.name for s in made] == ["Church scout starter", "Church heavy starter"]
    assert all(s.construction == "R-ADD-52" for s in made)
    assert all(sum(n for _, _, n in s.deck) == 30 for s in made)
    assert starter_decks_load_demo() == made  # idempotent


def test_with_the_demo_set_alone_the_starters_are_its_two_decks() -> None:
    demo_campaign()
    made = starter_decks_load_demo()
    assert [s.name for s in made] == ["Penitent Scout starter", "Bastion Heavy starter"]
    assert all(s.construction == "" for s in made)
