"""Storage, crafting, the retrofit and scars through the services, the API and the pages,
with real mission battles (pc-1 rules, R-ADD-350…353): who may do what, each refusal
naming its field or resource and its rule, and the stream folding to what was shown."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from battles.engine.demo import demo_board
from campaigns import domain, services
from campaigns.between import decide as between
from campaigns.between import ledger as lg
from campaigns.catalogue import cards_import
from campaigns.codec import CAMPAIGN_EVENTS
from campaigns.models import Campaign
from campaigns.selectors import campaign_state, campaign_stream
from campaigns.settlement_services import settlement_step
from penance_site.eventstore.store import append, read_stream

from .builders import PC_1, PLT_1, DemoCampaign, demo_campaign, finish, make_users, seats
from .builders import start_mission as start
from .decks_doc import DECKS_DOCUMENT, LEGAL_DECK, LEGAL_ITEMS
from .test_campaigns_api import client_for
from .test_pages_campaign import client_for as page_client
from .test_pages_words import PYTHON_WORDS, SNAKE_KEY, _Text

pytestmark = pytest.mark.django_db


def given(dc: DemoCampaign, *events: domain.Event) -> domain.CampaignState:
    """Events the test's story needs recorded as they are (a settlement with a Forge …)."""
    state = campaign_state(campaign=dc.campaign)
    append(
        stream=campaign_stream(campaign=dc.campaign),
        expected_version=state.version,
        events=CAMPAIGN_EVENTS.encode_all(list(events)),
        command_id=f"given-{uuid.uuid4().hex}",
        metadata={"actor": "test", "adjustment": True},
    )
    Campaign.objects.filter(pk=dc.campaign.pk).update(version=state.version + len(events))
    return campaign_state(campaign=dc.campaign)


def resources(dc: DemoCampaign, *, credits: int, scrap: int) -> domain.CampaignState:
    """Set the settlement's Credits and Scrap to these amounts."""
    ledger: lg.Ledger = campaign_state(campaign=dc.campaign).settlement
    return given(
        dc,
        lg.SettlementChanged("credits", credits - ledger.credits, credits, "test", "R-ADD-242"),
        lg.SettlementChanged("scrap", scrap - ledger.scrap, scrap, "test", "R-ADD-238"),
    )


def at_actions(dc: DemoCampaign, mid: str) -> domain.CampaignState:
    """The phase after mission 1 played up to its actions step (sealed dice)."""
    choices = tuple((str(p.id), "iron-jaw") for p in dc.pilots)
    for command in (
        between.OpenPhase(mid, ""),
        between.ResolveCasualties(mid),
        between.ResolveRewards(mid, success=True),
        between.RollSalvage(mid),
        between.ResolvePilots(mid, scar_choices=choices),
        between.CollectIncome(mid),
        between.RollEvent(mid),
    ):
        settlement_step(campaign=dc.campaign, actor=dc.gm, command=command)
    return campaign_state(campaign=dc.campaign)


@pytest.fixture
def played() -> tuple[DemoCampaign, str]:
    dc = demo_campaign(campaign_rules=PC_1)
    cards_import(document=DECKS_DOCUMENT, source="storage-test")
    mission, battle = start(dc, seed=3)
    finish(battle, dc.gm, seed=3)
    at_actions(dc, str(mission.id))
    return dc, str(mission.id)


def words(html: str) -> list[str]:
    """Python words and snake_case keys in a page's visible text (none may show)."""
    parser = _Text()
    parser.feed(html)
    text = " ".join(parser.text)
    return PYTHON_WORDS.findall(text) + SNAKE_KEY.findall(text)


def commands(dc: DemoCampaign) -> str:
    return f"/api/campaigns/{dc.campaign.id}/settlement/commands"


def test_a_defeated_casket_is_destroyed_and_the_api_rebuilds_it_at_the_games_cost(
    played: tuple[DemoCampaign, str],
) -> None:
    dc, mid = played
    state = campaign_state(campaign=dc.campaign)
    (wreck,) = [b for b in state.builds.values() if b.destroyed]
    events = [CAMPAIGN_EVENTS.decode(e) for e in read_stream(campaign_stream(campaign=dc.campaign))]
    assert [e.build_id for e in events if isinstance(e, domain.CasketDestroyed)] == [wreck.id]
    sheet = f"/campaigns/{dc.campaign.id}/builds/{wreck.id}/"
    assert (
        client_for(dc.ann)
        .get(f"/api/campaigns/{dc.campaign.id}/builds/{wreck.id}/")
        .json()["destroyed"]
    )
    assert 'id="casket-destroyed"' in page_client(dc.gm).get(sheet).content.decode()
    body = {"command": "rebuild", "mission": mid, "player": wreck.player, "build": wreck.id}
    gm = client_for(dc.gm)
    r = gm.post(commands(dc), body, format="json")
    assert (r.status_code, r.json()["code"], r.json()["rule"]) == (
        422,
        "building_missing",
        "R-ADD-243",
    )
    given(dc, lg.ConstructionStarted("workshop", 0, 0, 0))
    resources(dc, credits=199, scrap=3)
    r = gm.post(commands(dc), body, format="json")
    assert (r.status_code, r.json()["code"], r.json()["rule"]) == (422, "unaffordable", "R-ADD-352")
    assert "200 Credits (it has 199)" in r.json()["message"]
    resources(dc, credits=200, scrap=2)
    r = gm.post(commands(dc), body, format="json")
    assert r.status_code == 422 and "3 Scrap (it has 2)" in r.json()["message"]
    resources(dc, credits=200, scrap=3)
    for user, code in ((dc.ann, 403), (dc.bob, 403)):
        assert client_for(user).post(commands(dc), body, format="json").status_code == code
    (eve,) = make_users("eve")
    assert client_for(eve).post(commands(dc), body, format="json").status_code == 404
    assert APIClient().post(commands(dc), body, format="json").status_code == 401
    r = gm.post(commands(dc), body, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["events"][0]["type"] == "CasketRebuilt"
    assert (r.json()["settlement"]["credits"], r.json()["settlement"]["scrap"]) == (0, 0)
    assert 'id="casket-destroyed"' not in page_client(dc.gm).get(sheet).content.decode()
    after = campaign_state(campaign=dc.campaign)
    assert not after.builds[wreck.id].destroyed
    api = gm.get(f"/api/campaigns/{dc.campaign.id}/builds/{wreck.id}/").json()
    assert api["destroyed"] is False
    assert services.campaign_rows_check(campaign=dc.campaign) == []


def test_the_forge_crafts_an_item_into_storage_over_the_api(
    played: tuple[DemoCampaign, str],
) -> None:
    dc, mid = played
    given(dc, lg.ConstructionStarted("forge", 0, 0, 0))
    resources(dc, credits=0, scrap=1)
    body = {"command": "craft", "mission": mid, "player": "ann", "item": "mace"}
    gm = client_for(dc.gm)
    r = gm.post(commands(dc), body, format="json")
    assert (r.status_code, r.json()["code"], r.json()["rule"]) == (422, "unaffordable", "R-ADD-351")
    assert "2 Scrap (it has 1)" in r.json()["message"]
    unknown = gm.post(commands(dc), {**body, "item": "lance"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["field"] == "item"
    # The phase's settlement event, rolled with sealed dice, may already have put a Relic in
    # storage (Scavengers, R-ADD-232); the craft adds the Mace after what is there.
    stored = resources(dc, credits=0, scrap=2).settlement.storage
    before = [{"item": item, "name": name} for item, name in stored]
    assert client_for(dc.ann).post(commands(dc), body, format="json").status_code == 403
    r = gm.post(commands(dc), body, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["settlement"]["storage"] == [*before, {"item": "mace", "name": "Mace"}]
    assert r.json()["settlement"]["scrap"] == 0


def test_the_settlement_page_offers_crafting_and_the_retrofit_to_the_gm_only(
    played: tuple[DemoCampaign, str],
) -> None:
    dc, mid = played
    url = f"/campaigns/{dc.campaign.id}/settlement/"
    html = page_client(dc.gm).get(url).content.decode()
    assert 'data-command="craft"' in html and 'data-command="rebuild"' in html
    assert "Mace (2 Scrap)" in html and "200 Credits and 3 Scrap" in html
    assert words(html) == []
    assert 'data-command="craft"' not in page_client(dc.ann).get(url).content.decode()
    do = f"/campaigns/{dc.campaign.id}/settlement/do/craft"
    form = {"mission": mid, "player": "ann", "item": "mace"}
    (eve,) = make_users("eve")
    assert page_client(dc.ann).post(do, form).status_code == 403
    assert page_client(eve).post(do, form).status_code == 404
    assert Client().post(do, form).status_code == 302  # to the login page
    refused = page_client(dc.gm).post(do, form)  # no Forge standing yet
    assert refused.status_code == 400 and "R-ADD-243" in refused.content.decode()
    given(dc, lg.ConstructionStarted("forge", 0, 0, 0))
    before = resources(dc, credits=0, scrap=2).settlement.storage  # a Relic, maybe (R-ADD-232)
    assert page_client(dc.gm).post(do, form).status_code == 302
    after = campaign_state(campaign=dc.campaign).settlement.storage
    assert after == (*before, ("mace", "Mace"))


# --- a casket's equipment from storage (R-ADD-350) -----------------------------------------------


@pytest.fixture
def started() -> DemoCampaign:
    """A pc-1 campaign whose first mission has started: outfitting is no longer free."""
    dc = demo_campaign(campaign_rules=PC_1)
    cards_import(document=DECKS_DOCUMENT, source="storage-test")
    start(dc, seed=3)
    return dc


def revise_body(items: list[str] = LEGAL_ITEMS) -> dict[str, Any]:
    return {
        "name": "Pyre",
        "casket_class": "scout",
        "shield": "left",
        "faction": "church",
        "deck": [{"card": c, "count": n} for c, n in LEGAL_DECK],
        "equipment": items,
    }


def test_a_revision_over_the_api_takes_its_items_out_of_storage(started: DemoCampaign) -> None:
    dc = started
    url = f"/api/campaigns/{dc.campaign.id}/builds/{dc.builds[0].id}/revisions"
    given(dc, lg.ItemStored("mace", "Mace", "test"), lg.ItemStored("tower-shield", "Tower", "t"))
    before = campaign_state(campaign=dc.campaign).version
    r = client_for(dc.ann).post(url, revise_body(), format="json")
    assert r.status_code == 400
    assert (r.json()["errors"][0]["field"], r.json()["errors"][0]["rule"]) == (
        "equipment",
        "R-ADD-350",
    )
    assert "charm" in r.json()["errors"][0]["message"]
    assert campaign_state(campaign=dc.campaign).version == before  # nothing written
    given(dc, lg.ItemStored("charm", "Charm", "test"))
    r = client_for(dc.ann).post(url, revise_body(), format="json")
    assert r.status_code == 201, r.json()
    state = campaign_state(campaign=dc.campaign)
    assert state.settlement.storage == ()
    assert state.builds[str(dc.builds[0].id)].current.equipment == tuple(LEGAL_ITEMS)
    # the same items again: the casket carries them, storage gives nothing
    assert client_for(dc.ann).post(url, revise_body(), format="json").status_code == 201
    assert services.campaign_rows_check(campaign=dc.campaign) == []


def test_the_deck_builder_shows_what_storage_offers_and_names_a_refusal(
    started: DemoCampaign,
) -> None:
    dc = started
    given(dc, lg.ItemStored("mace", "Mace", "test"), lg.ItemStored("mace", "Mace", "test"))
    ann = page_client(dc.ann)
    edit = f"/campaigns/{dc.campaign.id}/builds/{dc.builds[0].id}/edit/"
    html = ann.get(edit).content.decode()
    assert 'id="storage-offer"' in html and "Mace ×2" in html and "R-ADD-350" in html
    assert words(html) == []
    form = {
        "action": "save",
        "name": "Pyre",
        "casket_class": "scout",
        "shield": "left",
        "faction": "church",
        "item-weapon": "mace",
        "item-offhand": "tower-shield",
        "item-accessory-0": "charm",
        **{f"count-prayer-{n}": "3" for n in range(1, 9)},
    }
    page = ann.post(edit, form)
    assert page.status_code == 400
    text = page.content.decode()
    assert "does not hold charm, tower-shield" in text and "R-ADD-350" in text
    assert words(text) == []


def test_before_the_first_mission_caskets_are_outfitted_freely() -> None:
    dc = demo_campaign(campaign_rules=PC_1)
    cards_import(document=DECKS_DOCUMENT, source="storage-test")
    build, _ = services.build_revise(
        campaign=dc.campaign, actor=dc.ann, build_id=str(dc.builds[0].id), **revise_body()
    )
    state = campaign_state(campaign=dc.campaign)
    assert state.builds[str(build.id)].current.equipment == tuple(LEGAL_ITEMS)
    assert state.settlement.storage == ()


# --- scars in the battle setup (R-ADD-353) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("campaign_rules", "scar", "sp", "taint"),
    [
        (PC_1, "Vow of Silence", 1, None),
        (PC_1, "Crystalline Growth", 1, 1),
        (PC_1, "Iron Jaw", 0, None),
        (PLT_1, "Vow of Silence", 0, None),
    ],
)
def test_a_scar_with_an_sp_or_taint_effect_is_in_the_next_battle_setup(
    campaign_rules: dict[str, str], scar: str, sp: int, taint: int | None
) -> None:
    dc = demo_campaign(campaign_rules=campaign_rules)
    services.pilot_scar_add(
        campaign=dc.campaign, actor=dc.gm, pilot_id=str(dc.pilots[0].id), scar=scar, reason="r"
    )
    mission = services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="Ember Road")
    setup = services.mission_start_check(
        mission=mission, actor=dc.gm, board=demo_board(), seats=seats(dc)
    )
    pilot = setup["seats"][0]["pilot"]
    assert (pilot["sp_modifier"], pilot.get("taint")) == (sp, taint)
