"""The battle pages of the demo in words: the battles list and every demo battle's page
(at its start, half way and now), as the GM, a player and the admin, show no `True`,
`False`, `None` nor an internal key (a snake_case key such as `dense_forest`). The
campaign pages are walked by tests/campaigns/test_pages_words.py with the same reader."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from battles.models import Battle
from battles.selectors import battle_head_version
from tests.campaigns.test_pages_words import PYTHON_WORDS, SNAKE_KEY, _Text

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(django_user_model: Any) -> Any:
    with override_settings(DEBUG=True):
        call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return django_user_model.objects


def _offending(client: Client, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    parser = _Text()
    parser.feed(response.content.decode())
    text = " ".join(parser.text)
    return sorted(set(PYTHON_WORDS.findall(text) + SNAKE_KEY.findall(text)))


@pytest.mark.parametrize("username", ["gm", "player", "admin"])
def test_no_battle_page_of_the_demo_shows_python_words_or_internal_keys(
    demo: Any, username: str
) -> None:
    client = Client()
    client.force_login(demo.get(username=username))
    # The site's own pages outside the battles and campaigns too (the profile, the
    # password change). /rules/ quotes the API's names as code: its own test, below.
    urls = ["/", "/battles/", "/accounts/profile/", "/accounts/password_change/"]
    for battle in Battle.objects.all():
        role = client.get(f"/battles/{battle.pk}/replay/").status_code
        if role != 200:
            continue  # not this user's battle (403): nothing of it is shown
        head = battle_head_version(battle=battle)
        urls += [f"/battles/{battle.pk}/replay/?at={at}" for at in (1, max(1, head // 2), head)]
    assert len(urls) > 4 or username == "admin"
    found = {url: bad for url in urls if (bad := _offending(client, url))}
    found.update({u: bad for u in ["/accounts/login/"] if (bad := _offending(Client(), u))})
    assert found == {}


class _OutsideCode(_Text):
    """The reader's text minus what the page quotes as code (`<code>`): the API's own
    names, which a reader types as they are."""

    def __init__(self) -> None:
        super().__init__()
        self._code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._code += tag == "code"
        super().handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self._code -= tag == "code" and self._code > 0
        super().handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if not self._code:
            super().handle_data(data)


def test_the_rulings_page_shows_no_python_word_and_quotes_every_key_as_code() -> None:
    """/rules/ quotes commands, error codes and option keys on purpose: as code (the
    addenda's `backticks` and the option keys of RULINGS.md's titles), never as words."""
    page = Client().get("/rules/").content.decode()
    everything, words = _Text(), _OutsideCode()
    everything.feed(page)
    words.feed(page)
    assert PYTHON_WORDS.findall(" ".join(everything.text)) == []
    assert SNAKE_KEY.findall(" ".join(words.text)) == []
    assert "<code>round_limit</code>" in page and "<code>electric_field</code>" in page
