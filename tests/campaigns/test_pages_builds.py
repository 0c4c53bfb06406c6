"""Issue 14: builds and the deck builder: catalogue search and filter, counts, every deck
problem with its rule (R-TRN-1, R-ADD-15, R-ADD-29), new build versions, and the diff."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from battles.engine.demo import DEMO_DECKS
from campaigns import selectors, services
from campaigns.models import CardVersion, CasketBuild

from .builders import demo_campaign, make_users
from .test_pages_campaign import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def dc() -> Any:
    return demo_campaign()


def base(dc: Any) -> str:
    return f"/campaigns/{dc.campaign.id}/builds/"


def form(deck: dict[str, int], **fields: str) -> dict[str, str]:
    data = {"name": "Ash Runner", "casket_class": "scout", "shield": "left", "faction": ""}
    data.update(fields)
    data.update({f"count-{card}": str(n) for card, n in deck.items()})
    return data


SCOUT = dict(DEMO_DECKS["penitent-scout"])


def versions(build: Any) -> int:
    return CasketBuild.objects.get(id=build.id).current_version


def test_build_pages_access_gm_member_outsider_anonymous(dc: Any) -> None:
    (outsider,) = make_users("outsider")
    build = dc.builds[0]
    urls = [
        base(dc),
        f"{base(dc)}{build.id}/",
        f"{base(dc)}new/",
        f"{base(dc)}{build.id}/diff/?a=1&b=1",
    ]
    for url in urls:
        assert client_for(dc.gm).get(url).status_code == 200, url
        assert client_for(dc.ann).get(url).status_code == 200, url
        assert client_for(dc.bob).get(url).status_code == 200, url
        assert client_for(outsider).get(url).status_code == 404, url
        assert Client().get(url)["Location"].startswith("/accounts/login/"), url


def test_a_player_edits_only_their_own_build(dc: Any) -> None:
    anns, bobs = dc.builds
    ann = client_for(dc.ann)
    assert ann.get(f"{base(dc)}{anns.id}/edit/").status_code == 200
    assert ann.get(f"{base(dc)}{bobs.id}/edit/").status_code == 403
    r = ann.post(f"{base(dc)}{bobs.id}/edit/", {**form(SCOUT), "action": "save"})
    assert r.status_code == 403 and versions(bobs) == 1
    listing = ann.get(base(dc)).content.decode()
    assert f"{base(dc)}{anns.id}/edit/" in listing and f"{base(dc)}{bobs.id}/edit/" not in listing


def test_the_gm_edits_every_build(dc: Any) -> None:
    bobs = dc.builds[1]
    deck = dict(DEMO_DECKS["bastion-heavy"])
    r = client_for(dc.gm).post(
        f"{base(dc)}{bobs.id}/edit/",
        {**form(deck, name="Bastion Heavy", casket_class="heavy"), "action": "save"},
    )
    assert r.status_code == 302 and r["Location"] == f"{base(dc)}{bobs.id}/#v2"
    assert versions(bobs) == 2


def test_check_lists_every_problem_with_its_rule_and_saves_nothing(dc: Any) -> None:
    CardVersion.objects.filter(card_id="pyre-lance").update(copies_per_deck=3)
    deck = {**SCOUT, "pyre-lance": 6}
    r = client_for(dc.ann).post(f"{base(dc)}new/", {**form(deck), "action": "check"})
    assert r.status_code == 200
    body = r.content.decode()
    problems = re.search(r'id="problems".*?</div>', body, re.S).group(0)  # type: ignore[union-attr]
    assert "2 problems" in problems
    assert "R-ADD-29" in problems and "Pyre Lance" in problems and "R-TRN-1" in problems
    assert 'data-code="too_many_copies"' in problems and 'data-code="deck_size"' in problems
    assert CasketBuild.objects.count() == 2


def test_saving_an_illegal_deck_is_a_400_with_every_rule_and_changes_nothing(dc: Any) -> None:
    CardVersion.objects.filter(card_id="pyre-lance").update(copies_per_deck=3)
    anns = dc.builds[0]
    deck = {**SCOUT, "pyre-lance": 6}
    r = client_for(dc.ann).post(f"{base(dc)}{anns.id}/edit/", {**form(deck), "action": "save"})
    assert r.status_code == 400
    body = r.content.decode()
    assert "Nothing was changed" in body and "R-ADD-29" in body and "R-TRN-1" in body
    assert "<strong>deck: Pyre Lance</strong>" in body
    assert versions(anns) == 1
    # the draft survives the refusal
    assert 'name="count-pyre-lance" min="0" max="30" value="6"' in body


def test_a_legal_deck_is_checked_then_saved_as_a_new_build(dc: Any) -> None:
    ann = client_for(dc.ann)
    r = ann.post(f"{base(dc)}new/", {**form(SCOUT, name="Second Scout"), "action": "check"})
    assert "Legal deck: no problems" in r.content.decode()
    r = ann.post(f"{base(dc)}new/", {**form(SCOUT, name="Second Scout"), "action": "save"})
    assert r.status_code == 302
    build = CasketBuild.objects.get(name="Second Scout")
    assert build.player == dc.ann and r["Location"] == f"{base(dc)}{build.id}/#v1"
    page = ann.get(r["Location"]).content.decode()
    assert "Pyre Lance" in page and "30 cards" in page


@pytest.mark.parametrize(
    ("fields", "field", "rule"),
    [
        ({"count-pyre-lance": "many"}, "count-pyre-lance", "R-TRN-1"),
        ({"count-pyre-lance": "31"}, "count-pyre-lance", "R-TRN-1"),
        ({"casket_class": "titan"}, "casket_class", "R-TRN-3"),
        ({"shield": "both"}, "shield", "R-ARC-2"),
        ({"name": ""}, "name", ""),
    ],
)
def test_bad_builder_input_is_a_400_naming_the_field_and_rule(
    dc: Any, fields: dict[str, str], field: str, rule: str
) -> None:
    r = client_for(dc.ann).post(f"{base(dc)}new/", {**form(SCOUT), **fields, "action": "save"})
    assert r.status_code == 400
    body = r.content.decode()
    assert f"<strong>{field}</strong>" in body and rule in body
    assert CasketBuild.objects.count() == 2


def test_filter_narrows_the_catalogue_and_keeps_the_draft(dc: Any) -> None:
    r = client_for(dc.ann).post(
        f"{base(dc)}new/", {**form(SCOUT), "q": "lance", "action": "filter"}
    )
    assert r.status_code == 200
    body = r.content.decode()
    shown = re.findall(r'<tr data-card="([a-z-]+)">', body)
    assert shown == ["pyre-lance"]
    # cards of the deck that the filter hides travel as hidden fields
    assert '<input type="hidden" name="count-litany-carbine" value="5">' in body
    assert "Deck: 30 of 30 cards" in body
    r = client_for(dc.ann).get(f"{base(dc)}new/", {"kind": "reactive"})
    # Kinds are shown in words (R-ADD-220's builder), the engine's key stays in data.
    kinds = set(
        re.findall(r'<tr data-card="[a-z-]+">.*?<td>([A-Za-z ]+)</td>', r.content.decode(), re.S)
    )
    assert kinds == {"Reactive"}


def test_versions_list_and_diff_between_two(dc: Any) -> None:
    anns = dc.builds[0]
    deck = {**SCOUT, "pyre-lance": 2, "litany-carbine": 7, "censer-maul": 1}
    del deck["chain-anchor"]
    services.build_revise(
        campaign=dc.campaign,
        actor=dc.ann,
        build_id=str(anns.id),
        name="Penitent Scout II",
        casket_class="scout",
        shield="right",
        deck=[{"card": c, "count": n} for c, n in deck.items()],
    )
    page = client_for(dc.bob).get(f"{base(dc)}{anns.id}/").content.decode()
    assert re.findall(r'data-version="(\d)"', page) == ["2", "1"]
    r = client_for(dc.bob).get(f"{base(dc)}{anns.id}/diff/", {"a": "1", "b": "2"})
    assert r.status_code == 200
    body = r.content.decode()
    changes = dict(re.findall(r'data-card="([a-z-]+)" data-change="([a-z]+)"', body))
    assert changes == {
        "pyre-lance": "changed",
        "litany-carbine": "changed",
        "censer-maul": "added",
        "chain-anchor": "removed",
    }
    assert 'data-field="shield"' in body and 'data-field="name"' in body
    diff = selectors.build_versions_diff(
        old=selectors.campaign_state(campaign=dc.campaign).builds[str(anns.id)].versions[0],
        new=selectors.campaign_state(campaign=dc.campaign).builds[str(anns.id)].versions[1],
    )
    assert diff["old_total"] == diff["new_total"] == 30


@pytest.mark.parametrize("query", [{"a": "1", "b": "9"}, {"a": "x", "b": "1"}, {"b": "1"}])
def test_diff_of_unknown_versions_is_a_400_naming_the_parameter(dc: Any, query: Any) -> None:
    r = client_for(dc.ann).get(f"{base(dc)}{dc.builds[0].id}/diff/", query)
    assert r.status_code == 400
    assert re.search(r"<strong>[ab]</strong>: must be a version of this build", r.content.decode())


def test_equipment_is_one_per_line_and_kept(dc: Any) -> None:
    ann = client_for(dc.ann)
    data = {**form(SCOUT, name="Kit"), "equipment": "Flare\r\n\r\nGrapnel\n", "action": "save"}
    r = ann.post(f"{base(dc)}new/", data)
    assert r.status_code == 302
    build = CasketBuild.objects.get(name="Kit")
    state = selectors.campaign_state(campaign=dc.campaign)
    assert state.builds[str(build.id)].current.equipment == ("Flare", "Grapnel")
    page = ann.get(f"{base(dc)}{build.id}/edit/").content.decode()
    assert ">Flare\nGrapnel</textarea>" in page


@pytest.mark.parametrize("action", ["filter", "check", "save"])
def test_a_card_not_in_the_catalogue_is_a_400_naming_it(dc: Any, action: str) -> None:
    data = {**form(SCOUT), "count-no-such-card": "2", "action": action}
    r = client_for(dc.ann).post(f"{base(dc)}new/", data)
    assert r.status_code == 400
    body = r.content.decode()
    assert "<strong>deck: no-such-card.card</strong>: no card &#x27;no-such-card&#x27;" in body
    assert "Deck: 30 of 30 cards" in body  # the rest of the draft survives
    assert CasketBuild.objects.count() == 2
    data = {**form(SCOUT), "version-pyre-lance": "7", "action": action}
    r = client_for(dc.ann).post(f"{base(dc)}new/", data)
    assert r.status_code == 400 and "has no version 7" in r.content.decode()


HX = {"HTTP_HX_REQUEST": "true"}


def _problem_items(html: str) -> list[str]:
    block = re.search(r'id="problems".*?</div>', html, re.S)
    assert block is not None
    return re.findall(r"<li[^>]*>(.*?)</li>", block.group(0), re.S)


def test_the_live_check_answers_the_deck_status_with_every_rule_and_save_refuses_the_same(
    dc: Any,
) -> None:
    CardVersion.objects.filter(card_id="pyre-lance").update(copies_per_deck=3)
    deck = {**SCOUT, "pyre-lance": 6}
    ann = client_for(dc.ann)
    live = ann.post(f"{base(dc)}new/", {**form(deck), "action": "check"}, **HX)
    assert live.status_code == 200 and "HX-Request" in live["Vary"]
    body = live.content.decode()
    assert body.lstrip().startswith('<div id="deck-status">')
    assert f"Deck: {sum(deck.values())} of 30 cards" in body
    checked = _problem_items(body)
    assert len(checked) == 2 and any("R-ADD-29" in p for p in checked)
    assert any("R-TRN-1" in p for p in checked)
    saved = ann.post(f"{base(dc)}new/", {**form(deck), "action": "save"})
    assert saved.status_code == 400
    refused = re.search(r'<div class="errors" role="alert".*?</div>', saved.content.decode(), re.S)
    assert refused is not None
    items = [re.sub(r'\s*<a class="rule"[^>]*>|</a>', " ", p).split() for p in checked]
    listed = [
        re.sub(r'<span class="rule">|</span>', " ", li).split()
        for li in re.findall(r"<li[^>]*>(.*?)</li>", refused.group(0), re.S)
    ]
    assert listed == items  # the same problems, fields and rules, in the same order
    assert CasketBuild.objects.count() == 2


def test_the_live_check_of_a_legal_deck_says_so_and_a_bad_count_is_a_problem(dc: Any) -> None:
    ann = client_for(dc.ann)
    ok = ann.post(f"{base(dc)}new/", {**form(SCOUT), "action": "check"}, **HX).content.decode()
    assert "✔ Legal deck: no problems." in ok
    bad = ann.post(
        f"{base(dc)}new/", {**form(SCOUT), "count-pyre-lance": "many", "action": "check"}, **HX
    ).content.decode()
    assert "<strong>count-pyre-lance</strong>" in bad and "(R-TRN-1)" in bad


def test_the_live_check_and_filter_follow_the_pages_access(dc: Any) -> None:
    (outsider,) = make_users("outsider")
    bobs = dc.builds[1]
    data = {**form(SCOUT), "action": "check"}
    assert client_for(outsider).post(f"{base(dc)}new/", data, **HX).status_code == 404
    assert client_for(dc.ann).post(f"{base(dc)}{bobs.id}/edit/", data, **HX).status_code == 403
    assert client_for(dc.gm).post(f"{base(dc)}{bobs.id}/edit/", data, **HX).status_code == 200
    assert Client().post(f"{base(dc)}new/", data, **HX).status_code == 302
    filtered = client_for(dc.ann).post(
        f"{base(dc)}new/", {**form(SCOUT), "q": "lance", "action": "filter"}, **HX
    )
    assert re.findall(r'<tr data-card="([a-z-]+)">', filtered.content.decode()) == ["pyre-lance"]
