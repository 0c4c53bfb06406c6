"""Decks in browsers with the real card database (skipped where ../shared/data is absent):
a player builds a casket from equipment in the deck builder, sees each violation appear and
go (the deck's size, an item not for the faction, a two-handed weapon with a shield), fills
the faction part, saves, exports the deck list, imports it into a new build and gets the
same deck; staff edit a card and see the builds it touches; the build moves to the new
version. Screenshots at 820x1180 and 1280x800 (R-ADD-220..223)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from battles.engine.carddata.decks import SLOTS_BY_CLASS, Loadout, build_casket_deck, random_loadout
from battles.engine.errors import InvalidInput
from battles.engine.ruleset import Ruleset
from campaigns import selectors, services
from campaigns.catalogue import cards_import, construction_read, item_cards_required
from campaigns.models import (
    Campaign,
    Card,
    CardVersion,
    ConstructionPool,
    EquipmentItem,
    StarterDeck,
    SupportUnit,
)
from tests.campaigns.test_import_cards import REAL_DB

PASSWORD = "pw-a-long-enough-phrase-42"
WAIT_MS = 15_000  # a bound on waiting for the server, not a measured time
SIZES = ((820, 1180), (1280, 800))


@pytest.fixture
def real_catalogue(committed_db: None, tag: str) -> Iterator[None]:
    """The real database imported, and taken out again afterwards (its cards, items, units
    and pools, and this test's campaign, which holds them): the session's other browser
    tests find the catalogue they expect (the demo set, one page of it)."""
    if not REAL_DB.is_file():
        pytest.skip(f"the real card database is not at {REAL_DB}")
    before = set(Card.objects.values_list("pk", flat=True))
    cards_import(document=json.loads(REAL_DB.read_text(encoding="utf-8")), source="real")
    try:
        yield
    finally:
        # Projections of this test's own campaign (fresh names); its events stay, as
        # every test's do (the store is append-only).
        Campaign.objects.filter(name=f"Decks{tag}").delete()
        StarterDeck.objects.all().delete()
        added = Card.objects.exclude(pk__in=before)
        CardVersion.objects.filter(card__in=added).delete()
        added.delete()
        for model in (ConstructionPool, EquipmentItem, SupportUnit):
            model.objects.all().delete()


def _login(browser: Any, site: str, username: str, size: tuple[int, int] = (1280, 800)) -> Any:
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{site}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main [type=submit]")
    page.wait_for_load_state()
    return page


def _shoot(page: Any, artifacts: Any, name: str, at: str = "") -> None:
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        if at:
            page.locator(at).scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"{name}-{width}x{height}.png"), full_page=False)
    page.set_viewport_size({"width": 1280, "height": 800})


def _legal_church_scout() -> tuple[list[str], list[tuple[str, int]]]:
    """Items in a scout's slots and a legal deck for them, by the engine (R-ADD-52)."""
    read = construction_read(faction="church")
    rng = random.Random("browser-church-scout")
    for _ in range(50):
        drawn = random_loadout(read, "church", rng)
        kept = [i for i in drawn.items if read.items[i].slot != "accessory"]
        kept += [i for i in drawn.items if read.items[i].slot == "accessory"][
            : SLOTS_BY_CLASS["scout"]["accessory"]
        ]
        loadout = Loadout("church", "scout", tuple(kept))
        try:
            deck = build_casket_deck(
                construction_read(faction="church", items=kept), loadout, Ruleset()
            )
        except InvalidInput:  # no legal deck for this draw: another draw
            continue
        if any(read.items[i].slot == "offhand" for i in kept):
            return kept, deck
    raise AssertionError("no legal church scout with an off-hand")


def _problems(page: Any) -> set[str]:
    return set(
        page.eval_on_selector_all("#deck-check [data-code]", "els => els.map(e => e.dataset.code)")
    )


def _wait_problem(page: Any, code: str, present: bool) -> None:
    page.wait_for_function(
        "([code, present]) => !!document.querySelector(`#deck-check [data-code='${code}']`) === present",
        arg=[code, present],
        timeout=WAIT_MS,
    )


def _choose(page: Any, field: str, value: str) -> None:
    """Choose an item (or the faction): the builder re-renders, the cards follow. A choice
    made just as an earlier answer swaps the form lands on the old form and sends nothing:
    then the new form is asked again, unless it already shows the choice."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for attempt in range(3):
        try:
            with page.expect_response(lambda r: r.request.method == "POST", timeout=10_000):
                page.select_option(f"#{field}", str(value))
            break
        except PlaywrightTimeout:
            if page.input_value(f"#{field}") == str(value):
                break  # the form the server rendered already holds the choice
            if attempt == 2:
                raise
    page.wait_for_selector(f"#{field}", timeout=WAIT_MS)


def _set_count(page: Any, card: str, name: str, count: int) -> None:
    """Find the card by name in the catalogue and set its copies (the live check runs)."""
    if page.input_value("#f-faction") != "":
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.select_option("#f-faction", "")
    page.fill("#f-q", name)
    page.wait_for_selector(f'#catalogue tr[data-card="{card}"]', timeout=WAIT_MS)
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.fill(f"#count-{card}", str(count))


def test_a_player_builds_from_equipment_exports_imports_and_moves_to_errata(
    browser: Any, site: str, real_catalogue: None, tag: str, artifacts: Any
) -> None:
    users = get_user_model().objects
    gm_user = users.create_user(username=f"gm{tag}", password=PASSWORD)
    ann_user = users.create_user(username=f"ann{tag}", password=PASSWORD)
    users.create_superuser(username=f"staff{tag}", password=PASSWORD)
    campaign = services.campaign_create(gm=gm_user, name=f"Decks{tag}")
    services.campaign_player_add(campaign=campaign, actor=gm_user, username=ann_user.username)
    pilot = services.pilot_enlist(
        campaign=campaign,
        actor=gm_user,
        player=ann_user.username,
        name="Sister Ash",
        faction="church",
    )
    items, deck = _legal_church_scout()
    slots = {i.pk: i for i in EquipmentItem.objects.filter(pk__in=items)}
    names = dict(
        CardVersion.objects.filter(card_id__in=[c for c, _ in deck]).values_list("card_id", "name")
    )

    page = _login(browser, site, ann_user.username)
    page.goto(f"{site}/campaigns/{campaign.id}/builds/new/?pilot={pilot.id}")
    assert page.input_value("#b-faction") == "church"
    page.fill("#b-name", "Ash Pyre")
    # The items, slot by slot: their cards follow into the deck; it is not 30 cards yet.
    weapon = next(i for i in items if slots[i].slot == "weapon")
    _choose(page, "item-weapon", weapon)
    _wait_problem(page, "deck_size", True)
    for card, _ in slots[weapon].cards:
        page.wait_for_selector(f'#deck-status [data-deck-card="{card}"]', timeout=WAIT_MS)
    # An item for another faction: named, then gone when changed back.
    foreign = (
        EquipmentItem.objects.filter(slot="weapon", factions=["elves"])
        .exclude(two_handed=True)
        .first()
    )
    assert foreign is not None
    _choose(page, "item-weapon", foreign.pk)
    _wait_problem(page, "item_not_for_faction", True)
    _shoot(page, artifacts, "decks-violation", at="#deck-check")
    _choose(page, "item-weapon", weapon)
    _wait_problem(page, "item_not_for_faction", False)
    # A two-handed weapon leaves no hand for a shield: named, then gone.
    offhand = next(i for i in items if slots[i].slot == "offhand")
    _choose(page, "item-offhand", offhand)
    two_handed = EquipmentItem.objects.filter(slot="weapon", two_handed=True, factions=[]).first()
    assert two_handed is not None
    _choose(page, "item-weapon", two_handed.pk)
    _wait_problem(page, "slots_exceeded", True)
    _choose(page, "item-weapon", weapon)
    _wait_problem(page, "slots_exceeded", False)
    for n, accessory in enumerate(i for i in items if slots[i].slot == "accessory"):
        _choose(page, f"item-accessory-{n}", accessory)
    # The faction part, card by card, until the deck is legal.
    required = item_cards_required(faction="church", items=items)
    for card, count in deck:
        if required.get(card, 0) != count:
            _set_count(page, card, names[card], count)
    _wait_problem(page, "deck_size", False)
    page.wait_for_selector("#deck-check .ok", timeout=WAIT_MS)
    assert _problems(page) == set()
    _shoot(page, artifacts, "decks-builder", at="#deck-check")
    with page.expect_navigation():
        page.click("button[value=save]")
    assert "Built from its equipment" in page.inner_text("main")
    _shoot(page, artifacts, "decks-build", at="h1")
    state = selectors.campaign_state(campaign=campaign)
    built = next(b for b in state.builds.values() if b.current.name == "Ash Pyre")
    assert sorted((c, n) for c, _, n in built.current.deck) == sorted(deck)
    assert built.pilot_id == str(pilot.id)

    # The deck list as text, and back into a new build: the same deck.
    text = page.request.get(site + page.get_attribute("#decklist-link", "href")).text()
    assert "Faction: church" in text and "Class: scout" in text
    page.goto(f"{site}/campaigns/{campaign.id}/builds/new/")
    page.fill("#decklist-text", text.replace("Name: Ash Pyre", "Name: Ash Pyre copy"))
    with page.expect_navigation():
        page.click("button[value=import]")
    state = selectors.campaign_state(campaign=campaign)
    copy = next(b for b in state.builds.values() if b.current.name == "Ash Pyre copy")
    assert sorted(copy.current.deck) == sorted(built.current.deck)
    assert copy.current.equipment == built.current.equipment
    page.goto(f"{site}/campaigns/{campaign.id}/builds/{built.id}/sheet/")
    _shoot(page, artifacts, "decks-sheet")
    # The deck sheet prints on one A4 page.
    pdf = page.pdf(format="A4", print_background=False)
    (artifacts / "decks-sheet.pdf").write_bytes(pdf)
    assert len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf)) == 1

    # Staff edit a card of the deck and see the builds it touches.
    card = next(c for c, _ in deck if c not in required)
    staff = _login(browser, site, f"staff{tag}")
    staff.goto(f"{site}/admin/campaigns/card/{card}/change/")
    cost = int(staff.input_value("#id_sp_cost"))
    staff.fill("#id_sp_cost", str(cost + 1))
    with staff.expect_navigation():
        staff.click("input[name=_save]")
    staff.goto(f"{site}/admin/campaigns/card/{card}/versions/")
    table = staff.inner_text("#card-builds")
    assert "Ash Pyre" in table and "Ash Pyre copy" in table and "behind" in table
    assert staff.inner_text('#version-diff tr[data-field="sp_cost"]').split()[-2:] == [
        str(cost),
        str(cost + 1),
    ]
    _shoot(staff, artifacts, "decks-errata")

    # The build moves to the new version in one step.
    page.goto(f"{site}/campaigns/{campaign.id}/builds/{built.id}/")
    assert f"{names[card]} (version 1 → 2)" in page.inner_text("#stale-cards")
    with page.expect_navigation():
        page.click("#stale-cards button")
    state = selectors.campaign_state(campaign=campaign)
    moved = state.builds[built.id]
    assert moved.current.version == 2
    assert (card, 2, dict(deck)[card]) in moved.current.deck
    assert page.query_selector("#stale-cards") is None
    assert page.errors == [] and staff.errors == []
