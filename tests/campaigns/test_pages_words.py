"""Every campaign page of the demo in words: walking from the campaigns list as the GM, a
player and the admin, following every link to a campaign page, no page shows `True`, `False`, `None` or an internal key (a
snake_case key such as `primary_weapon` or `in_progress`), and the mission wizard opens
with nothing refused."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urldefrag, urlparse

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from campaigns.models import Campaign, Mission

pytestmark = pytest.mark.django_db

# Visible words that are Python's, or an internal key (lower snake_case).
PYTHON_WORDS = re.compile(r"\b(True|False|None)\b")
SNAKE_KEY = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
# Not pages of the site's own (the Django admin, the API and its docs, logging out, files).
SKIP = re.compile(r"^/(admin|api|static|media|accounts/logout)|\.(txt|json|csv|ico|svg|png)$")
MOST_PAGES = 400  # a bound on the walk, not a measured number
# The campaign pages (this app's); the battle pages are the battles app's and walked by its
# own tests.
SCOPE = "/campaigns/"


class _Text(HTMLParser):
    """The text a reader sees (and the alt, title, placeholder and aria-label texts), and
    the page's links."""

    HIDDEN = frozenset({"script", "style", "template"})

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.links: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self._hidden += 1
        for name, value in attrs:
            if name in ("alt", "title", "placeholder", "aria-label") and value:
                self.text.append(value)
            if tag == "a" and name == "href" and value:
                self.links.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.text.append(data)


def walk(client: Client, start: str, least: int = 10) -> dict[str, list[str]]:
    """Every page reachable from `start` by the site's own links: its offending words."""
    seen: set[str] = set()
    queue = [start]
    found: dict[str, list[str]] = {}
    while queue and len(seen) < MOST_PAGES:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        if response.status_code in (301, 302):
            queue.append(response["Location"])
            continue
        assert response.status_code == 200, (url, response.status_code)
        if not response["Content-Type"].startswith("text/html"):
            continue
        parser = _Text()
        parser.feed(response.content.decode())
        text = " ".join(parser.text)
        bad = PYTHON_WORDS.findall(text) + SNAKE_KEY.findall(text)
        if bad:
            found[url] = sorted(set(bad))
        for href in parser.links:
            href = urldefrag(href)[0]
            parsed = urlparse(href)
            if parsed.scheme or parsed.netloc or not href.startswith(SCOPE) or SKIP.search(href):
                continue
            if href not in seen:
                queue.append(href)
    assert len(seen) >= least, seen  # it walked the site, not one page
    return found


@pytest.fixture
def demo(django_user_model: Any) -> Any:
    with override_settings(DEBUG=True):
        call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return django_user_model.objects


@pytest.mark.parametrize("username", ["gm", "player", "admin"])
def test_no_page_of_the_demo_shows_python_words_or_internal_keys(demo: Any, username: str) -> None:
    client = Client()
    client.force_login(demo.get(username=username))
    # The admin is in no campaign of the demo: the list and the new-campaign form.
    found = walk(client, "/campaigns/", least=1 if username == "admin" else 10)
    assert found == {}


def test_the_wizard_opens_with_nothing_refused(demo: Any) -> None:
    client = Client()
    client.force_login(demo.get(username="gm"))
    campaign = Campaign.objects.get(name__startswith="Demo")
    mission = Mission.objects.get(campaign=campaign, status="planned")
    page = client.get(f"/campaigns/{campaign.id}/missions/{mission.id}/start/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "Not ready" not in body
    ticked = re.findall(r'name="deploy-[^"]+"[^>]*checked', body)
    builds = re.findall(
        r'<select id="build-[^"]+" name="build-[^"]+">.*?selected>([^<]+)<', body, re.S
    )
    assert len(ticked) == 2, ticked
    assert len(set(builds)) == len(builds), builds
