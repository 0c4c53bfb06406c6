"""The battle viewer in a real browser (issue 12): the drawn board, stepping by keys, scrub
bar and log without a reload, the URL carrying the step, nothing hidden leaking (R-ADD-28),
no console errors, touch targets of 44 px, and screenshots kept as artifacts."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from battles.models import Battle
from battles.selectors import battle_state_at
from tests.browser.conftest import signed_in


class Watched:
    """A page with its console errors and every response body it fetched."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        self.bodies: list[str] = []
        self.hosts: set[str] = set()
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("response", self._response)

    def _response(self, response: Any) -> None:
        self.hosts.add(re.sub(r"^(\w+://[^/]+).*$", r"\1", response.url))
        if "text" in response.headers.get("content-type", "") or "json" in response.headers.get(
            "content-type", ""
        ):
            with contextlib.suppress(Exception):  # a redirect has no body to read
                self.bodies.append(response.text())

    def step(self) -> int:
        return int(self.page.locator("#frame [data-step]").get_attribute("data-step"))

    def wait_step(self, n: int) -> None:
        self.page.wait_for_function(
            "n => Number(document.querySelector('#frame [data-step]').dataset.step) === n", arg=n
        )
        assert self.page.url.endswith(f"?at={n}"), self.page.url


@pytest.fixture
def as_player(browser: Any, site: str, running: Battle, tag: str) -> Iterator[Watched]:
    yield from _login(browser, site, "player" + tag)


def _login(browser: Any, site: str, username: str) -> Iterator[Watched]:
    watched: list[Watched] = []
    page = signed_in(browser, site, username, watch=lambda p: watched.append(Watched(p)))
    yield watched[0]
    page.context.close()


def test_the_board_has_one_element_per_hex_and_one_token_per_casket(
    as_player: Watched, site: str, running: Battle, artifacts: Path
) -> None:
    page = as_player.page
    page.goto(f"{site}/battles/{running.pk}/replay/")
    state = battle_state_at(battle=running)
    assert page.locator("svg [data-hex]").count() == len(state.board)
    tokens = page.locator("svg [data-seat]")
    assert tokens.count() == len(state.seats)
    for i in range(tokens.count()):
        assert re.match(r"seat \d: .+ at -?\d+,-?\d+", tokens.nth(i).get_attribute("aria-label"))
    assert as_player.step() == state.version  # a running battle opens at its latest step
    assert not as_player.errors


def test_keys_the_scrub_bar_and_a_log_line_move_the_step_and_the_url_without_a_reload(
    as_player: Watched, site: str, running: Battle, artifacts: Path
) -> None:
    page = as_player.page
    page.goto(f"{site}/battles/{running.pk}/replay/?at=20")
    page.evaluate("window.notReloaded = true")
    page.screenshot(path=str(artifacts / "viewer-step-20.png"))

    page.keyboard.press("ArrowRight")
    as_player.wait_step(21)
    page.keyboard.press("j")
    as_player.wait_step(22)
    page.keyboard.press("k")
    as_player.wait_step(21)
    page.keyboard.press("ArrowLeft")
    as_player.wait_step(20)
    page.keyboard.press("Home")
    as_player.wait_step(1)
    page.keyboard.press("End")
    head = battle_state_at(battle=running).version
    as_player.wait_step(head)

    # Shift+→ jumps to the next turn's start: the frame then shows a TurnStarted event.
    page.keyboard.press("Home")
    as_player.wait_step(1)
    page.keyboard.press("Shift+ArrowRight")
    page.wait_for_function(
        "() => Number(document.querySelector('#frame [data-step]').dataset.step) > 1"
    )
    assert "'s turn" in page.locator("#frame .current").inner_text()

    # The scrub bar.
    page.locator("#scrub").fill("30")
    as_player.wait_step(30)
    page.screenshot(path=str(artifacts / "viewer-step-30.png"))

    # A clicked log line.
    line = page.locator('.log [data-line="12"]')
    line.scroll_into_view_if_needed()
    line.click()
    as_player.wait_step(12)
    assert page.locator('.log [data-line="12"]').get_attribute("aria-current") == "step"

    # The step links in the frame.
    page.locator('#frame [data-nav="next"]').click()
    as_player.wait_step(13)
    assert page.evaluate("window.notReloaded") is True  # every move above was without a reload
    assert not as_player.errors


def test_a_copied_url_reopens_the_same_step(as_player: Watched, site: str, running: Battle) -> None:
    page = as_player.page
    page.goto(f"{site}/battles/{running.pk}/replay/?at=10")
    page.keyboard.press("ArrowRight")
    as_player.wait_step(11)
    copied = page.url
    fresh = page.context.new_page()
    fresh.goto(copied)
    assert fresh.locator("#frame [data-step]").get_attribute("data-step") == "11"
    assert fresh.locator("#scrub").input_value() == "11"
    fresh.close()


def test_selecting_a_casket_shows_its_arc_and_lines_of_sight_from_the_server(
    as_player: Watched, site: str, running: Battle, artifacts: Path
) -> None:
    page = as_player.page
    page.goto(f"{site}/battles/{running.pk}/replay/?at=30")
    overlay = page.locator('[data-overlay-for="0"]')
    assert overlay.get_attribute("hidden") is not None
    page.locator('svg [data-seat="0"]').focus()
    page.keyboard.press("Enter")
    assert overlay.get_attribute("hidden") is None
    assert page.locator('svg [data-seat="0"]').get_attribute("aria-pressed") == "true"
    assert "sight to Bastion Heavy" in overlay.text_content()
    assert overlay.is_visible()
    page.screenshot(path=str(artifacts / "viewer-selected.png"))
    # The selection stays while stepping.
    page.keyboard.press("ArrowRight")
    as_player.wait_step(31)
    assert page.locator('[data-overlay-for="0"]').get_attribute("hidden") is None


def test_a_player_never_sees_the_opponents_hand_or_deck_order_in_anything_fetched(
    as_player: Watched, site: str, running: Battle
) -> None:
    state = battle_state_at(battle=running)
    opponent = state.seats[0]
    public = {
        state.cards[i.split("#")[0]].name
        for c in state.seats
        for i in (*c.discard, *c.in_play, *c.damage_pile, *(c.hand if c.seat == 1 else ()))
        if not i.startswith("damage#")
    }
    secret = {state.cards[i.split("#")[0]].name for i in opponent.hand} - public
    page = as_player.page
    page.goto(f"{site}/battles/{running.pk}/replay/")
    for _ in range(5):
        before = as_player.step()
        page.keyboard.press("ArrowLeft")
        as_player.wait_step(before - 1)
    fetched = "\n".join(as_player.bodies)
    assert f"{len(opponent.hand)} cards, hidden" in fetched
    for name in secret:
        assert name not in fetched, name
    for instance in opponent.deck:  # no deck order, not even as instance ids
        assert instance not in fetched
    # Everything came from the site itself: no CDN.
    assert as_player.hosts == {site}
    assert not as_player.errors


def test_step_links_and_the_scrub_bar_are_touch_sized(
    as_player: Watched, site: str, running: Battle
) -> None:
    page = as_player.page
    page.goto(f"{site}/battles/{running.pk}/replay/?at=5")
    for target in page.locator(
        "#frame [data-nav], #frame [data-command], #scrub, header.site a, header.site button"
    ).all():
        box = target.bounding_box()
        assert box and box["height"] >= 44, (target.inner_text(), box)


def test_the_board_prints_and_scales_to_a_phone(
    browser: Any, site: str, running: Battle, artifacts: Path, tag: str
) -> None:
    for watched in _login(browser, site, "gm" + tag):
        page = watched.page
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{site}/battles/{running.pk}/replay/?at=40")
        board = page.locator(".board > svg").bounding_box()
        assert board and board["width"] <= 390
        page.screenshot(path=str(artifacts / "viewer-phone.png"))
        page.emulate_media(media="print")
        assert page.locator(".scrub").is_hidden() and page.locator(".board > svg").is_visible()
        assert not watched.errors


def test_the_odds_and_series_charts_draw(as_player: Watched, site: str, running: Battle) -> None:
    from battles.selectors import battle_events

    declared = next(
        e for e in battle_events(battle=running, limit=500) if e.type == "AttackDeclared"
    )
    page = as_player.page
    page.goto(f"{site}/battles/{running.pk}/replay/?at={declared.version}")
    for key in ("odds", "hp", "heat", "component_damage"):
        assert page.evaluate(
            f"() => Boolean(window.Chart && Chart.getChart(document.querySelector('canvas[data-chart=\"{key}\"]')))"
        ), key
    # The text alternative's links jump too.
    page.locator(".charts details").first.locator("summary").click()
    page.locator(".charts details").first.locator("a[data-at]").first.click()
    page.wait_for_function("() => window.location.search.startsWith('?at=')")
    assert not as_player.errors


def test_an_outsider_gets_the_403_page(browser: Any, site: str, running: Battle, tag: str) -> None:
    for watched in _login(browser, site, "outsider" + tag):
        response = watched.page.goto(f"{site}/battles/{running.pk}/replay/")
        assert response.status == 403
        assert "not the GM, a player or a watcher" in watched.page.content()


def test_a_chart_point_is_picked_by_a_click_beside_it(
    as_player: Watched, site: str, running: Battle
) -> None:
    """The charts' dots are small: a click within a comfortable radius of one (not on it)
    still steps to its version."""
    page = as_player.page
    page.goto(f"{site}/battles/{running.pk}/replay/?at=1")  # an earlier step: the replay
    canvas = page.locator('canvas[data-chart="hp"]')
    canvas.scroll_into_view_if_needed()
    canvas.wait_for(state="visible")
    chart = "Chart.getChart(document.querySelector('canvas[data-chart=\"hp\"]'))"
    page.wait_for_function(f"() => {chart}.width > 0 && {chart}.getDatasetMeta(0).data.length > 2")
    # A point halfway along, and a click 9 px right and 9 px below its centre (12.7 px away:
    # off the 5 px dot, within the 16 px the charts allow).
    dx, dy = 9, 9
    point = page.evaluate(
        f"""([dx, dy]) => {{
          const c = {chart};
          const meta = c.getDatasetMeta(0);
          const i = Math.floor(meta.data.length / 2);
          const p = meta.data[i];
          const near = [];
          c.data.datasets.forEach((d, k) => c.getDatasetMeta(k).data.forEach((q, j) => {{
            if (Math.hypot(q.x - p.x - dx, q.y - p.y - dy) <= 21) near.push(d.versions[j]);
          }}));
          return {{x: p.x, y: p.y, off: Math.hypot(dx, dy), near}};
        }}""",
        [dx, dy],
    )
    assert point["off"] > 5 + 1  # outside the dot and Chart.js's default 1 px hit radius
    assert point["near"] and 1 not in point["near"], point
    box = canvas.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + point["x"] + dx, box["y"] + point["y"] + dy)
    page.wait_for_function(
        "near => near.includes(Number(document.querySelector('#frame [data-step]').dataset.step))",
        arg=point["near"],
        timeout=10_000,  # a bound on waiting for the frame, not a measured time
    )
    assert not as_player.errors
