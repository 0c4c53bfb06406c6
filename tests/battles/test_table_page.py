"""The table (docs/FRONTEND.md): the page of a running battle at its latest step. Each legal
body is listed once in the page's lists and, where it is played on the table, again on the
board or in the hand; sides are named for people; no Python value or internal key shows;
the end shows who won and how, and the header says the battle is over."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from battles.engine.battle import legal_actions
from battles.models import Battle
from battles.selectors import battle_state_at
from tests.battles.played import played_battle

pytestmark = pytest.mark.django_db


def _page(username: str, battle: Battle, query: str = "") -> str:
    client = Client()
    client.force_login(User.objects.get(username=username))
    response = client.get(f"/battles/{battle.pk}/replay/{query}")
    assert response.status_code == 200
    return response.content.decode()


def _bodies(page: str) -> list[str]:
    found = re.findall(r'data-command="([^"]+)"', page)
    return [json.dumps(json.loads(html.unescape(c)), sort_keys=True) for c in found]


GM_FORMS = {"adjust_heat", "adjust_component_damage", "relocate", "return_card",
            "adjust_taint", "revert", "end_battle"}  # fmt: skip


def _visible_text(page: str) -> str:
    """The page's words as a reader gets them: no tags, no templates, no scripts."""
    page = re.sub(r"<(script|template|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


def test_every_legal_body_is_listed_once_and_played_on_the_board_or_in_the_hand() -> None:
    battle = played_battle(commands=55, name="Turn")  # seat 0 acts: moves, turns, cards
    state = battle_state_at(battle=battle)
    assert state.active == 0 and not state.prompts
    page = _page("gm", battle)
    legal = sorted(
        json.dumps(a.body, sort_keys=True) for a in legal_actions(state, every_move=True)
    )
    board = re.search(r'<figure class="board" data-board>.*?</figure>', page, re.S)
    hand = re.search(r"<section class=\"hand-strip\" data-hand.*?</section>", page, re.S)
    assert board and hand
    lists = page.replace(board.group(0), "").replace(hand.group(0), "")
    listed = sorted(b for b in _bodies(lists) if json.loads(b)["type"] not in GM_FORMS)
    assert listed == legal  # each once, in the lists
    on_table = _bodies(board.group(0))
    assert set(on_table) <= set(legal)
    kinds = {json.loads(b)["type"] for b in on_table}
    assert {"move", "rotate"} <= kinds
    # Each move and turn is on the board; each card play in the hand's choices.
    for b in legal:
        if json.loads(b)["type"] in ("move", "rotate", "attack", "play_card"):
            assert b in on_table, b
    # The hand strip: a card per hand card, with cost words, never "None SP".
    cards = re.findall(r'<li class="hand-card[^"]*" data-card="([^"]+)"', hand.group(0))
    assert cards == list(state.seats[0].hand)
    assert "None" not in _visible_text(page)


def test_the_status_bar_says_whose_turn_and_the_sides_have_names() -> None:
    battle = played_battle(commands=55, name="Turn")
    gm, player = _page("gm", battle), _page("player", battle)
    assert "Your turn: Penitent Scout" in gm
    assert "Penitent Scout&#x27;s turn" in player or "Penitent Scout's turn" in player
    assert 'data-mine="1"' in gm and 'data-mine="0"' in player
    text = _visible_text(gm)
    assert "the penitents" in text and "the bastion" in text
    for word in (" True", " False", " None", "_"):
        assert word not in text.replace("R-", ""), word


def test_the_end_says_who_won_how_and_links_the_replay() -> None:
    finished = played_battle(commands=3000, name="Finished")
    state = battle_state_at(battle=finished)
    assert state.over and state.winner
    page = _page("gm", finished, f"?at={state.version}")
    result = re.search(r"<section class=\"result\" data-result.*?</section>", page, re.S)
    assert result, "the result view at the battle's last step"
    words = _visible_text(result.group(0))
    winner = {"penitents": "The penitents win", "bastion": "The bastion wins"}[state.winner]
    assert winner in words
    assert f"{state.round} rounds" in words
    for c in state.seats:
        assert c.pilot in words
    assert 'href="?at=1"' in result.group(0)
    # The header says it is over, from the stream, at once (not "In Progress").
    assert "<span data-battle-status>Over</span>" in page
    assert "In Progress" not in page
    assert "won by <strong>the " in page
