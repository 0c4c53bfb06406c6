"""Issue 14's story through the pages only (the Django test client, no browser): a GM creates
a campaign and invites two players through the link, they sign up and build decks (an
illegal one refused with its rule first), the GM enlists pilots, plans a mission and starts
it with the wizard on a library board; the battle is played to its end through the service
and the pages show the outcome."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from battles.engine.demo import DEMO_DECKS
from campaigns.models import Campaign, Mission

from .builders import finish, make_users
from .test_pages_campaign import client_for

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-enough-passphrase-42"


def test_a_campaign_from_creation_to_a_finished_mission_through_the_pages() -> None:
    from campaigns.catalogue import catalogue_load_demo

    catalogue_load_demo()
    (gm_user,) = make_users("marta")
    gm = client_for(gm_user)
    r = gm.post("/campaigns/", {"name": "Cinders", "private": "on", "rules_version": "2.1"})
    campaign = Campaign.objects.get(name="Cinders")
    page = r["Location"]
    link = re.search(r'value="http://testserver(/join/[^"]+/)"', gm.get(page).content.decode())
    assert link is not None

    players = {}
    for name, deck, cls, shield in (
        ("ann", "penitent-scout", "scout", "left"),
        ("bob", "bastion-heavy", "heavy", "right"),
    ):
        client = Client()
        r = client.post(
            link.group(1), {"username": name, "password1": PASSWORD, "password2": PASSWORD}
        )
        assert r["Location"] == page
        counts = {f"count-{c}": str(n) for c, n in DEMO_DECKS[deck]}
        build = {"name": f"{name}'s casket", "casket_class": cls, "shield": shield, **counts}
        first = next(iter(counts))
        illegal = {**build, first: str(int(build[first]) + 1), "action": "save"}
        r = client.post(f"{page}builds/new/", illegal)
        assert r.status_code == 400 and "R-TRN-1" in r.content.decode()
        r = client.post(f"{page}builds/new/", {**build, "action": "save"})
        assert r.status_code == 302
        players[name] = client
        gm.post(f"{page}do/enlist_pilot", {"player": name, "name": f"Pilot {name}"})

    # a second player cannot edit the first player's build
    anns_build = re.search(
        r'href="(/campaigns/[^"]+/builds/[^"]+/)">ann',
        players["bob"].get(f"{page}builds/").content.decode(),
    )
    assert anns_build is not None
    assert players["bob"].get(f"{anns_build.group(1)}edit/").status_code == 403

    gm.post(f"{page}do/plan_mission", {"name": "First Light"})
    mission = Mission.objects.get(campaign=campaign, number=1)
    wizard = f"{page}missions/{mission.id}/start/"
    form_page = gm.get(wizard, {"board": "drowned-crossing"}).content.decode()
    fields = dict(
        re.findall(r'name="((?:build|side|q|r|facing)-[0-9a-f-]+)" value="([^"]*)"', form_page)
    )
    fields.update(
        re.findall(r'name="(build-[0-9a-f-]+)">\s*<option value="([0-9a-f-]+)" selected', form_page)
    )
    fields.update(
        re.findall(
            r'<select id="facing-[0-9a-f-]+" name="(facing-[0-9a-f-]+)">.*?<option value="(\d)" selected',
            form_page,
            re.S,
        )
    )
    deploy = {m: "on" for m in re.findall(r'name="(deploy-[0-9a-f-]+)" checked', form_page)}
    assert len(deploy) == 2
    form = {
        **fields,
        **deploy,
        "board": "drowned-crossing",
        "dice_mode": "digital",
        "seed": "11",
        "policy": "auto",
    }
    r = gm.post(wizard, form)
    mission.refresh_from_db()
    assert r.status_code == 302 and r["Location"] == f"/battles/{mission.battle_id}/replay/"
    assert gm.get(r["Location"]).status_code == 200

    finish(mission.battle, gm_user, seed=1)
    mission.refresh_from_db()
    assert mission.status == Mission.Status.COMPLETED
    body = players["ann"].get(page).content.decode()
    assert "Outcome:" in body
    for name, client in players.items():
        sheet = re.search(r'href="(/campaigns/[^"]+/pilots/[^"]+/)">Pilot ' + name, body)
        assert sheet is not None
        text = client.get(sheet.group(1)).content.decode()
        assert f"/battles/{mission.battle_id}/replay/?at=" in text
    outsider = client_for(make_users("eve")[0])
    assert outsider.get(page).status_code == 404
