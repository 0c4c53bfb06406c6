"""A campaign you can take with you (campaigns/portability.py, R-ADD-207): the GM exports
it as one file; another site imports it, checking every digest chain, and refuses a file
with one byte changed, with nothing written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from battles.engine.errors import InvalidInput
from campaigns import services
from campaigns.models import Campaign, CampaignBoard, Mission
from campaigns.portability import campaign_import
from tests.campaigns.builders import demo_campaign, finish, start_mission

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def played() -> Any:
    dc = demo_campaign(prefix="pt-")
    _, battle = start_mission(dc, seed=9, name="The Ash Causeway")
    finish(battle, dc.gm)
    services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="The Drowned Chapel")
    services.board_create(
        campaign=dc.campaign, actor=dc.gm, name="Quarry", shape={"kind": "hexagon", "radius": 3}
    )
    return dc


def _export(user: Any, campaign: Campaign) -> Any:
    client = Client()
    client.force_login(user)
    return client.get(f"/api/campaigns/{campaign.id}/export")


def test_only_the_gm_exports(played: Any) -> None:
    response = _export(played.gm, played.campaign)
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    document = response.json()
    assert document["format"] == "penance-campaign/1"
    assert len(document["battles"]) == 1 and document["battles"][0]["events"]
    assert all(e["digest"] for e in document["events"])
    assert {b["name"] for b in document["boards"]} == {"Quarry"}
    assert document["cards"] and document["builds"]
    assert _export(played.ann, played.campaign).status_code == 403
    outsider = get_user_model().objects.create_user(username="pt-outsider")
    assert _export(outsider, played.campaign).status_code == 404  # a private campaign


def test_a_campaign_already_here_is_refused(played: Any) -> None:
    document = _export(played.gm, played.campaign).json()
    with pytest.raises(InvalidInput) as refused:
        campaign_import(document=document)
    assert refused.value.field == "campaign.id"


def _changed(text: str, needle: str) -> str:
    """The text with one byte changed: the first character after `needle`."""
    at = text.index(needle) + len(needle)
    return text[:at] + chr(ord(text[at]) ^ 1) + text[at + 1 :]


@pytest.mark.parametrize(
    ("needle", "field"),
    [
        ('"name": "Sister Ophelia', "events["),  # a campaign event's payload
        ('"battles": [', "battles[0].events["),  # into a battle's events (below)
        ('"name": "Quarr', "digest"),  # a board, which no event chain covers
        ('"sp_cost": ', "digest"),  # a card
    ],
)
def test_a_file_with_one_byte_changed_is_refused_with_nothing_written(
    played: Any, tmp_path: Path, needle: str, field: str
) -> None:
    document = _export(played.gm, played.campaign).json()
    text = json.dumps(document, ensure_ascii=False)
    if needle == '"battles": [':
        # A name in the first battle's events (its setup), after the battles begin.
        events = text.index('"events": [', text.index(needle))
        at = text.index('"name": "', events) + len('"name": "')
        changed_text = text[:at] + chr(ord(text[at]) ^ 1) + text[at + 1 :]
    else:
        changed_text = _changed(text, needle)
    changed = json.loads(changed_text)
    before = (Campaign.objects.count(), Mission.objects.count(), CampaignBoard.objects.count())
    with pytest.raises(InvalidInput) as refused:
        campaign_import(document=changed)
    assert refused.value.field.startswith(field), refused.value.field
    path = tmp_path / "changed.json"
    path.write_text(changed_text)
    with pytest.raises(CommandError, match="refused, nothing was imported"):
        call_command("import_campaign", str(path))
    after = (Campaign.objects.count(), Mission.objects.count(), CampaignBoard.objects.count())
    assert after == before


def test_a_file_that_is_not_json_any_more_is_refused(played: Any, tmp_path: Path) -> None:
    text = json.dumps(_export(played.gm, played.campaign).json())
    path = tmp_path / "broken.json"
    path.write_text(_changed(text, '"format": '))  # the opening quote becomes '#'
    with pytest.raises(CommandError, match="not a JSON document"):
        call_command("import_campaign", str(path))


ROUND_TRIP = textwrap.dedent(
    """
    import json, re, sys
    import django
    django.setup()
    from django.core.management import call_command
    from django.contrib.auth import get_user_model
    from django.test import Client
    call_command("migrate", verbosity=0)
    for name in sys.argv[2].split(","):
        get_user_model().objects.create_user(username=name)
    call_command("import_campaign", sys.argv[1])
    from render import render
    print(json.dumps(render(sys.argv[3], sys.argv[4].split(","))))
    """
)

RENDER = textwrap.dedent(
    """
    import json
    import re
    from django.contrib.auth import get_user_model
    from django.test import Client

    def render(username, urls):
        client = Client()
        client.force_login(get_user_model().objects.get(username=username))
        out = {}
        for url in urls:
            response = client.get(url)
            html = response.content.decode()
            if response["Content-Type"].startswith("application/json"):
                # Key order means nothing in JSON, and PostgreSQL's jsonb stores keys in an
                # order of its own: compare the answers, not how they were spelled.
                html = json.dumps(json.loads(html), sort_keys=True, indent=0)
            # What differs per request or per site: the CSRF token, and the invitation
            # link (signed with the site's key, the GM's user id and the time).
            html = re.sub(r'(csrf[^"]*" (?:content|value)=")[^"]+', r"\\1", html)
            out[url] = re.sub(r'(id="invite-link"[^>]*value=")[^"]+', r"\\1", html)
        return out
    """
)


def test_the_round_trip_gives_the_same_pages_and_replays(
    played: Any, tmp_path: Path, settings: Any
) -> None:
    document = _export(played.gm, played.campaign).json()
    path = tmp_path / "campaign.json"
    path.write_text(json.dumps(document))
    (tmp_path / "render.py").write_text(RENDER)
    c = played.campaign
    battle = document["battles"][0]["id"]
    urls = [
        f"/campaigns/{c.id}/",
        f"/campaigns/{c.id}/pilots/{played.pilots[0].id}/",
        f"/campaigns/{c.id}/pilots/{played.pilots[1].id}/",
        f"/campaigns/{c.id}/builds/",
        f"/campaigns/{c.id}/builds/{played.builds[0].id}/",
        f"/campaigns/{c.id}/boards/",
        f"/battles/{battle}/replay/",
        f"/battles/{battle}/replay/?at=40",
        f"/api/campaigns/{c.id}/events",
        f"/api/battles/{battle}/events?limit=1000",
    ]
    sys.path.insert(0, str(tmp_path))
    try:
        from render import render  # type: ignore[import-not-found]

        here = render(played.gm.username, urls)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("render", None)
    users = sorted({played.gm.username, played.ann.username, played.bob.username})
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'other-site.sqlite3'}",
        "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}",
        "PENANCE_DICE_KEY": settings.PENANCE_DICE_KEYS[0],
        "DJANGO_ALLOWED_HOSTS": "testserver",
    }
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            ROUND_TRIP,
            str(path),
            ",".join(users),
            played.gm.username,
            ",".join(urls),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    there = json.loads(result.stdout.strip().splitlines()[-1])
    for url in urls:
        if there[url] != here[url]:
            import difflib

            diff = difflib.unified_diff(
                here[url].splitlines(), there[url].splitlines(), lineterm=""
            )
            pytest.fail(f"{url} differs:\n" + "\n".join(list(diff)[:40]))


def test_staff_import_through_the_admin_page_and_see_the_refusal(played: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    text = json.dumps(_export(played.gm, played.campaign).json())
    staff = get_user_model().objects.create_superuser(username="pt-staff", password=None)
    client = Client()
    assert client.get("/admin/campaigns/import/").status_code == 302  # not signed in
    client.force_login(staff)
    page = client.get("/admin/campaigns/campaign/")
    assert b"/admin/campaigns/import/" in page.content
    changed = _changed(text, '"name": "Quarr')
    upload = SimpleUploadedFile("c.json", changed.encode(), content_type="application/json")
    answer = client.post("/admin/campaigns/import/", {"file": upload})
    assert answer.status_code == 200
    assert "refused, nothing was imported: digest" in answer.content.decode()
    upload = SimpleUploadedFile("c.json", text.encode(), content_type="application/json")
    answer = client.post("/admin/campaigns/import/", {"file": upload})
    assert "campaign.id: this campaign is already on this site" in answer.content.decode()
