"""The server-rendered battle list, viewer and rulings pages: who may see what (R-ADD-28),
the contract the browser tests and assistive tools rely on (data-hex, data-seat, data-step,
data-command), and the parts the viewer is made of (issue 12)."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from battles.engine.battle.events import EVENT_TYPES
from battles.engine.demo import demo_setup
from battles.models import Battle
from battles.selectors import battle_events, battle_state_at
from battles.services import battle_create
from tests.battles.played import played_battle, users

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle() -> Battle:
    """A battle at its start (hands being decided)."""
    gm = users()["gm"]
    return battle_create(gm=gm, setup=demo_setup(seed=2))


@pytest.fixture
def running() -> Battle:
    """A battle 40 commands in: attacks, hits and damage, still running."""
    return played_battle(commands=40)


def _client(username: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(username=username))
    return client


def _page(username: str, battle: Battle, query: str = "") -> str:
    response = _client(username).get(f"/battles/{battle.pk}/replay/{query}")
    assert response.status_code == 200
    return response.content.decode()


# --- access ----------------------------------------------------------------------------------


def test_replay_page_shows_the_gm_every_hand(battle: Battle) -> None:
    response = _client("gm").get(f"/battles/{battle.pk}/replay/")
    assert response.status_code == 200
    hands = [c["hand"] for c in response.context["f"]["state"]["seats"]]
    assert all(h is not None for h in hands)


def test_replay_page_hides_the_other_hand_from_a_player(battle: Battle) -> None:
    response = _client("player").get(f"/battles/{battle.pk}/replay/?at=3")
    assert response.status_code == 200
    assert response.context["f"]["at"] == 3
    seats = response.context["f"]["state"]["seats"]
    assert seats[0]["hand"] is None and seats[0]["deck"] is None


def test_a_player_never_sees_the_opponents_hand_or_deck_order_anywhere_in_the_page(
    running: Battle,
) -> None:
    """R-ADD-28: not in the panels, the log, the current event nor the frame a step fetches."""
    state = battle_state_at(battle=running)
    assert not state.over
    opponent = state.seats[0]  # the gm's seat; `player` holds seat 1
    names = {state.cards[i.split("#")[0]].name for i in opponent.hand}
    # Cards of the opponent's hand that the player has seen some other way (a discard of
    # the same card) cannot be told apart by name; compare on the ones never shown.
    public = {
        state.cards[i.split("#")[0]].name
        for i in (*opponent.discard, *opponent.in_play, *opponent.damage_pile,
                  *state.seats[1].hand, *state.seats[1].discard, *state.seats[1].damage_pile)
        if not i.startswith("damage#")
    }  # fmt: skip
    secret = names - public
    page = _page("player", running)
    frame = (
        _client("player")
        .get(f"/battles/{running.pk}/replay/?at={state.version}", HTTP_HX_REQUEST="true")
        .content.decode()
    )
    for text in (page, frame):
        assert f"{len(opponent.hand)} cards, hidden" in text
        for name in secret:
            assert name not in text, name
    # The log says that the opponent drew, not what.
    assert "Penitent Scout draws 6 hidden cards" in page
    gm_page = _page("gm", running)
    assert "Penitent Scout draws 6 hidden cards" not in gm_page


def test_replay_page_refuses_an_outsider_with_the_reason_in_the_sites_look(
    battle: Battle,
) -> None:
    response = _client("outsider").get(f"/battles/{battle.pk}/replay/")
    assert response.status_code == 403
    body = response.content.decode()
    assert "not the GM, a player or a watcher of this battle" in body
    assert 'class="site"' in body and "Log out" in body


def test_an_unknown_battle_is_a_404_page_in_the_sites_look() -> None:
    users()
    response = _client("player").get("/battles/00000000-0000-0000-0000-000000000000/replay/")
    assert response.status_code == 404
    assert b"Nothing here (404)" in response.content and b'class="site"' in response.content


def test_replay_page_sends_anonymous_users_to_log_in(battle: Battle) -> None:
    response = Client().get(f"/battles/{battle.pk}/replay/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("at", ["99999", "0", "abc", "²", "-1", "1.5"])
def test_replay_page_refuses_a_step_outside_the_stream_naming_the_parameter(
    battle: Battle, at: str
) -> None:
    """Issue 15: a 4xx naming the parameter, never a 500 (`"²".isdigit()` is true)."""
    response = _client("gm").get(f"/battles/{battle.pk}/replay/", {"at": at})
    assert response.status_code == 400
    assert b"<strong>at</strong> must be a step from 1 to" in response.content


# --- the contract ----------------------------------------------------------------------------


def test_replay_page_draws_every_hex_and_casket_and_shows_the_step(battle: Battle) -> None:
    """Issue 12's contract: one [data-hex] per board hex, one [data-seat] per casket with
    a text label, the step in [data-step] matching ?at=N."""
    state = battle_state_at(battle=battle)
    page = _page("player", battle, "?at=5")
    hexes = re.findall(r'data-hex="(-?\d+,-?\d+)"', page)
    assert len(hexes) == len(set(hexes)) == len(state.board)
    assert sorted(re.findall(r'<g class="token[^"]*" data-seat="(\d)"', page)) == ["0", "1"]
    assert (
        len(
            re.findall(
                r'data-seat="\d" role="button" aria-pressed="false" aria-label="seat \d: ', page
            )
        )
        == 2
    )
    assert 'data-step="5"' in page
    for command in ("first", "prev", "next", "last"):
        assert f'data-nav="{command}"' in page


def test_a_running_battle_opens_at_its_latest_step_and_a_finished_one_at_step_1(
    running: Battle,
) -> None:
    head = battle_state_at(battle=running).version
    assert f'data-step="{head}"' in _page("player", running)
    finished = played_battle(commands=3000, name="Finished")
    assert battle_state_at(battle=finished).over
    assert 'data-step="1"' in _page("player", finished)


def test_an_htmx_step_answers_only_the_frame_and_varies_on_the_header(running: Battle) -> None:
    response = _client("player").get(f"/battles/{running.pk}/replay/?at=20", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="frame"') and "<html" not in body
    assert 'data-step="20"' in body
    assert "HX-Request" in response["Vary"]
    assert "HX-Request" in _client("player").get(f"/battles/{running.pk}/replay/")["Vary"]


# --- the parts ---------------------------------------------------------------------------------


def test_the_log_links_every_event_grouped_by_round_and_turn(running: Battle) -> None:
    head = battle_state_at(battle=running).version
    page = _page("gm", running)
    steps = [int(v) for v in re.findall(r'<li data-line="(\d+)"', page)]
    assert steps == list(range(1, head + 1))
    assert "<h3>Round 1</h3>" in page and "<h4>Penitent Scout's turn</h4>" in page


def test_an_attack_reads_as_a_sentence_with_its_modifiers_and_rulings_linked(
    running: Battle,
) -> None:
    declared = next(
        e for e in battle_events(battle=running, limit=500) if e.type == "AttackDeclared"
    )
    page = _page("gm", running, f"?at={declared.version}")
    tn = declared.payload["target_number"]
    assert f"needs {tn}+ (Base to-hit 5 " in page
    assert '<a class="rule" href="/rules/#R-HIT-1">R-HIT-1</a>' in page
    # The frame itemises it and gives the exact odds of each grade, with a text table.
    frame = re.search(r'<table class="tohit">.*?</table>', page, re.S)
    assert frame and "R-HIT-1" in frame.group(0) and f"{tn}+" in frame.group(0)
    odds = json.loads(
        re.search(r'id="odds-data" type="application/json">(.*?)</script>', page).group(1)
    )
    assert [r["grade"] for r in odds] == [
        "catastrophic",
        "miss",
        "hit",
        "strong",
        "critical",
        "execution",
    ]
    assert '<table class="odds-table">' in page


def test_dice_are_drawn_as_faces_with_a_text_label(running: Battle) -> None:
    rolled = next(e for e in battle_events(battle=running, limit=500) if e.type == "AttackRolled")
    page = _page("gm", running, f"?at={rolled.version}")
    face = rolled.payload["faces"][0]
    assert re.search(
        rf'<span class="die face-{face}" role="img" aria-label="[A-Z ]+, worth \d"', page
    )


def test_cards_show_by_name_with_cost_and_text_on_hover_or_focus(running: Battle) -> None:
    page = _page("gm", running)
    # Instance ids are in the command bodies the buttons post, never in what people read.
    text = re.sub(r'(data-command|value)="[^"]*"', "", page)
    assert "pyre-lance#" not in text
    assert re.search(
        r'<span class="card" tabindex="0">Pyre Lance<span class="tip" role="tooltip">3 SP — ', page
    )


def test_the_scrub_bar_marks_attacks_hits_and_round_starts(running: Battle) -> None:
    page = _page("player", running)
    kinds = set(re.findall(r'class="marker marker-(\w+)"', page))
    assert {"round", "attack"} <= kinds
    head = battle_state_at(battle=running).version
    assert f'<input id="scrub" type="range" min="1" max="{head}"' in page


def test_charts_carry_their_data_and_a_table_for_each(running: Battle) -> None:
    page = _page("player", running)
    charts = json.loads(
        re.search(r'id="chart-data" type="application/json">(.*?)</script>', page).group(1)
    )
    assert [c["key"] for c in charts] == ["hp", "heat", "component_damage"]
    assert all(len(s["points"]) == len(c["labels"]) for c in charts for s in c["series"])
    assert page.count("as a table</summary>") == 3


def test_every_ruling_the_viewer_cites_is_on_the_rulings_page(running: Battle) -> None:
    rulings = Client().get("/rules/").content.decode()
    anchors = set(re.findall(r'<dt id="(R-[A-Z]+-\d+)">', rulings))
    cited = set()
    for e in battle_events(battle=running, limit=500):
        cited |= set(
            re.findall(r'href="/rules/#(R-[A-Z]+-\d+)"', _page("gm", running, f"?at={e.version}"))
        )
        if len(cited) > 12:
            break
    assert cited and cited <= anchors, cited - anchors
    assert "R-ADD-28" in anchors and "R-RNG-1" in anchors


def test_every_event_type_has_a_sentence() -> None:
    from battles import replay

    missing = [name for name, cls in EVENT_TYPES.items() if cls not in replay.SENTENCES]
    assert not missing
    assert set(replay.SENTENCES) == set(EVENT_TYPES.values())
    with pytest.raises(KeyError, match="no sentence"):
        replay.describe("NoSuchEvent", {}, replay.Names({}, {}, {}))


def test_the_battle_list_shows_status_round_players_and_last_activity(running: Battle) -> None:
    page = _client("player").get("/battles/").content.decode()
    row = re.search(rf'<tr data-battle="{running.pk}">.*?</tr>', page, re.S).group(0)
    round_ = battle_state_at(battle=running).round
    assert f'<td class="num">{round_}</td>' in row
    assert "seat 0: gm, seat 1: player" in row and "ago</time>" in row
    assert running.name.encode() not in _client("outsider").get("/battles/").content


def test_the_header_offers_admin_only_to_staff_and_a_logout_button(battle: Battle) -> None:
    page = _client("player").get("/battles/").content.decode()
    assert 'href="/admin/"' not in page
    assert '<button type="submit">Log out</button>' in page
    staff = User.objects.create_user("boss", is_staff=True)
    client = Client()
    client.force_login(staff)
    assert 'href="/admin/"' in client.get("/battles/").content.decode()


def test_login_page_renders() -> None:
    assert Client().get("/accounts/login/").status_code == 200


@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_the_api_docs_load_nothing_from_another_site(url: str) -> None:
    """Swagger UI and ReDoc come from the project's static files (drf-spectacular-sidecar)."""
    body = Client().get(url).content.decode()
    assert "/static/drf_spectacular_sidecar/" in body
    assert not re.search(r'(src|href)="(https?:)?//', body)


# --- playing (issue 13) ------------------------------------------------------------------------


def _offered(page: str) -> list[dict[str, object]]:
    import html

    return [json.loads(html.unescape(c)) for c in re.findall(r'data-command="([^"]+)"', page)]


def test_every_offered_action_is_a_legal_body_of_the_viewers_seats(running: Battle) -> None:
    from battles.engine.battle import legal_actions

    state = battle_state_at(battle=running)
    legal = [a.body for a in legal_actions(state, every_move=True)]
    gm_offered = [b for b in _offered(_page("gm", running)) if b["type"] not in GM_FORMS]
    assert gm_offered and all(b in legal for b in gm_offered)
    assert len(gm_offered) == len(legal)
    # The player holds seat 1 only: never another seat's actions, and no GM forms.
    player = _offered(_page("player", running))
    assert all(b.get("seat") == 1 for b in player)
    assert not any(b["type"] in GM_FORMS for b in player)


def test_reachable_hexes_are_drawn_per_casket_hidden_until_it_is_selected() -> None:
    """Issue 13: selecting your casket shows every hex it can reach, each with its SP cost
    written in it and the overspend it takes (R-TRN-3); the engine lists them."""
    from battles.engine.battle import legal_actions

    # The first point, 40 commands or more in, where the acting casket may move.
    for commands in range(40, 60):
        battle = played_battle(commands=commands, name=f"Turn {commands}")
        state = battle_state_at(battle=battle)
        moves = [a for a in legal_actions(state, every_move=True) if a.body["type"] == "move"]
        if moves and any(a.body.get("pay") for a in moves):
            break
    else:
        raise AssertionError("no turn with moves, overspend among them, in commands 40 to 59")
    running = battle
    page = _page("gm", running)
    group = re.search(
        rf'<g class="reach" data-reach-for="{state.active}" hidden>(.*?)</g>\s*</g>', page, re.S
    )
    assert group, "the active casket's reachable hexes, hidden until it is selected"
    drawn = re.findall(r'data-move-dest="(-?\d+,-?\d+)"', page)
    assert sorted(drawn) == sorted("{},{}".format(*a.body["path"][-1]) for a in moves)
    for a in moves:
        q, r = a.body["path"][-1]
        cell = re.search(rf'data-move-dest="{q},{r}".*?</g>', page, re.S)
        assert cell and f">{a.sp_cost} SP" in cell.group(0)
        if a.body.get("pay"):
            assert "overspend" in cell.group(0) and "R-TRN-3" in cell.group(0)
    # The other seat's player sees no reachable hexes of a casket they do not play.
    other = "player" if state.active == 0 else "gm"
    if other == "player":
        assert "data-reach-for" not in _page("player", running)


def test_the_prompted_defender_chooses_which_hand_cards_to_lose_and_the_form_posts_them() -> None:
    """R-DMG-6: the defender picks any split between hand and deck top; the prompt dialog
    offers the hand as ticks, and the body the page builds from them is accepted."""
    import html

    from tests.battles.api_calls import send

    # Seed 1 with prompts: after 18 commands seat 1 (the player) takes 4 damage, 5 in hand.
    battle = played_battle(commands=18, policy="prompt", name="Damage prompt")
    state = battle_state_at(battle=battle)
    (prompt,) = state.prompts
    assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", 4)
    hand = list(state.seats[1].hand)
    for username in ("player", "gm"):
        page = _page(username, battle)
        form = re.search(r'<form class="choose-cards" data-command="([^"]+)" '
                         r'data-deck-total="4">(.*?)</form>', page, re.S)  # fmt: skip
        assert form, f"{username}: no card choice in the prompt"
        assert json.loads(html.unescape(form.group(1))) == {"type": "take_damage", "seat": 1}
        ticks = re.findall(
            r'<input type="checkbox" name="hand" value="([^"]+)" data-list>', form.group(2)
        )
        assert ticks == hand
        assert "R-DMG-6" in form.group(2)
    # What the page sends for two ticked cards: those two and two from the deck's top.
    body = {"type": "take_damage", "seat": 1, "hand": hand[:2], "deck": 2}
    answer = send(_client("player"), str(battle.pk), body)
    assert answer.status_code == 201, answer.content
    after = battle_state_at(battle=battle)
    assert set(hand[:2]) <= set(after.seats[1].discard) | set(after.seats[1].damage_pile)
    assert not set(hand[:2]) & set(after.seats[1].hand)
    # After 10 commands seat 0 (the GM's) is the one taking damage: the player gets no choice.
    other = played_battle(commands=10, policy="prompt", name="GM's damage prompt")
    assert [(p.seat, p.kind) for p in battle_state_at(battle=other).prompts] == [(0, "take_damage")]
    assert 'class="choose-cards"' not in _page("player", other)
    assert 'class="choose-cards"' in _page("gm", other)


GM_FORMS = {"adjust_heat", "adjust_component_damage", "relocate", "return_card",
            "adjust_taint", "revert", "end_battle"}  # fmt: skip


def test_a_player_without_an_action_is_told_whom_the_battle_waits_for(running: Battle) -> None:
    state = battle_state_at(battle=running)
    idle = "player" if state.active == 0 and not state.prompts else "gm"
    page = _page(idle, running)
    if idle == "player":
        assert "Waiting</h2>" in page and "is taking its turn (R-TRN-2)" in page


def test_no_play_panel_on_an_earlier_step_nor_for_a_finished_battle(running: Battle) -> None:
    assert "data-play" not in _page("gm", running, "?at=5")
    finished = played_battle(commands=3000, name="Finished")
    assert "data-play" not in _page("gm", finished)


def _page_lines(username: str, battle: Battle) -> list[object]:
    page = _client(username).get(f"/battles/{battle.pk}/replay/")
    return [line for r in page.context["timeline"].rounds for t in r.turns for line in t.lines]


def _fragment_lines(username: str, battle: Battle, after: int) -> list[object]:
    response = _client(username).get(f"/battles/{battle.pk}/replay/log?after={after}")
    assert response.status_code == 200
    return list(response.context["lines"])


@pytest.mark.parametrize("username", ["gm", "player", "watcher"])
def test_the_log_fragment_is_the_pages_log_after_a_version(running: Battle, username: str) -> None:
    """Read from the events after `after` alone, the lines are the ones the whole page's log
    folds, as this viewer may see them (R-ADD-28)."""
    if username == "watcher":
        running.watchers.create(user=User.objects.get_or_create(username="watcher")[0])
    lines = _page_lines(username, running)
    head = len(lines)
    for after in (0, 1, head // 2, head - 1, head):
        assert _fragment_lines(username, running, after) == [
            line
            for line in lines
            if line.version > after  # type: ignore[attr-defined]
        ]


def test_the_log_fragment_shows_a_player_everything_once_the_battle_is_over() -> None:
    finished = played_battle(commands=3000, name="Finished")
    assert battle_state_at(battle=finished).over
    lines = _page_lines("player", finished)
    after = len(lines) - 30
    assert _fragment_lines("player", finished, after) == lines[after:]


def test_the_log_fragment_holds_the_lines_after_a_version(running: Battle) -> None:
    head = battle_state_at(battle=running).version
    body = (
        _client("player").get(f"/battles/{running.pk}/replay/log?after={head - 3}").content.decode()
    )
    assert [int(v) for v in re.findall(r'data-line="(\d+)"', body)] == [head - 2, head - 1, head]
    bad = _client("player").get(f"/battles/{running.pk}/replay/log?after=x")
    assert bad.status_code == 400
    assert _client("outsider").get(f"/battles/{running.pk}/replay/log?after=1").status_code == 403


# --- the URLs people guess and the rulings page ----------------------------------------------


def test_the_battle_url_people_guess_goes_to_the_battles_page(battle: Battle) -> None:
    response = _client("player").get(f"/battles/{battle.pk}/")
    assert response.status_code == 302
    assert response["Location"] == f"/battles/{battle.pk}/replay/"


def test_rulings_page_has_a_table_of_contents_and_a_filter() -> None:
    page = Client().get("/rules/").content.decode()
    toc = page[page.index('<nav class="rulings-toc"') : page.index("</nav>")]
    anchors = re.findall(r'href="#([a-z0-9-]+)"', toc)
    # Every chapter the contents name is on the page, RULINGS.md's and the addenda's.
    assert "r-los" in anchors and "addenda-0" in anchors  # RULINGS.md's, then the addenda's
    for anchor in anchors:
        assert f'id="{anchor}"' in page
    assert "data-rulings-filter" in page
    assert "battles/rulings.js" in page
    # Chapter titles are names a reader looks for, not the history of where they came from.
    assert "(issue" not in toc


def test_rulings_page_lists_every_addendum_once() -> None:
    """R-ADD-… and the R-MOV-… movement rulings the addenda define alike."""
    page = Client().get("/rules/").content.decode()
    text = (Path(__file__).resolve().parents[2] / "docs" / "RULINGS-ADDENDA.md").read_text()
    defined = re.findall(r"^- \*\*(R-[A-Z]+-\d+)", text, re.M)
    assert "R-MOV-1" in defined
    for rid in set(defined):
        assert page.count(f'<dt id="{rid}">') == 1, rid


def test_scrub_markers_that_would_overlap_are_one_marker_with_a_count(running: Battle) -> None:
    """A long battle's key moments do not pile up on the scrub bar: markers closer than
    replay.MARKER_SPACING are drawn as one, with how many moments it holds."""
    from battles.replay import MARKER_SPACING

    response = _client("gm").get(f"/battles/{running.pk}/replay/")
    markers = response.context["markers"]
    raw = response.context["timeline"].markers
    assert sum(m["count"] for m in markers) == len(raw)
    assert any(m["count"] > 1 for m in markers)  # 40 commands put several moments together
    lefts = [m["left"] for m in markers]
    assert all(b - a >= MARKER_SPACING for a, b in itertools.pairwise(lefts))
    page = response.content.decode()
    grouped = next(m for m in markers if m["count"] > 1)
    assert f'<span class="marker-count">{grouped["count"]}</span>' in page
    assert f"{grouped['count']} moments: " in grouped["title"]
