"""The table (docs/FRONTEND.md): a running battle's page is one screen at a laptop's and a
tablet's sizes, the board, the status bar, the hand strip and the prompt in view and nothing
to scroll; the panels open over the board and Esc closes them; axe-core finds no serious or
critical violation on the table or the replay. Screenshots: test-artifacts/browser/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from battles.models import Battle
from tests.browser.conftest import passwords_set, signed_in

VIEWPORTS = {"laptop": (1280, 800), "tablet": (820, 1180), "tablet-landscape": (1180, 820)}
AXE = Path(settings.BASE_DIR) / "penance_site" / "static" / "vendor" / "axe.min.js"

IN_VIEW = """sel => { const e = document.querySelector(sel); if (!e) return null;
  const r = e.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5
    && r.height > 0 }"""


def one_screen(page: Any) -> dict[str, Any]:
    """What the table must keep: no page scroll, and each part wholly in the viewport."""
    return page.evaluate(
        f"""() => {{ const inView = {IN_VIEW};
        return {{ scroll: document.documentElement.scrollHeight, height: innerHeight,
          wide: document.documentElement.scrollWidth, width: innerWidth,
          board: inView('#frame .board > svg'), status: inView('#frame .statusbar'),
          hand: inView('#frame [data-hand]'), prompt: inView('#frame [data-prompt]') }} }}"""
    )


def assert_one_screen(page: Any, where: str) -> None:
    m = one_screen(page)
    assert m["scroll"] <= m["height"], (where, m)
    assert m["wide"] <= m["width"], (where, m)
    assert m["board"] and m["status"], (where, m)
    if page.locator("#frame [data-hand]").count():
        assert m["hand"], (where, m)
    if page.locator("#frame [data-prompt]").count():
        assert m["prompt"], (where, m)


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations of the page as it is now."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci && npm run build` (frontend/build.mjs)")
    # By its URL, from the site's own static files: the CSP (R-ADD-201) refuses inline script.
    page.add_script_tag(url="/static/vendor/axe.min.js")
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary + ' ' + n.html.slice(0, 300))}))"
    )
    return list(found)


@pytest.fixture
def table_battle(committed_db: None, tag: str) -> Battle:
    """A running battle 55 commands in: seat 0 (the GM's) acts, with moves that overspend."""
    from tests.battles.played import played_battle

    passwords_set(tag)
    return played_battle(commands=55, tag=tag)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_table_is_one_screen_with_board_status_and_hand(
    browser: Any, site: str, table_battle: Battle, tag: str, artifacts: Path, size: str
) -> None:
    page = signed_in(browser, site, "gm" + tag)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    width, height = VIEWPORTS[size]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{site}/battles/{table_battle.pk}/replay/")
    assert page.locator(".viewer.table-mode").count() == 1
    assert_one_screen(page, "opened")
    status = page.locator("#frame .statusbar").inner_text()
    assert "Your turn" in status and "SP" in status and "Heat" in status and "HP" in status
    assert page.title().startswith("▶ Your turn")
    page.screenshot(path=str(artifacts / f"table-{size}.png"))
    # Your casket selected: its reachable hexes, each with its SP cost; one chosen: the
    # choice to confirm over the board, the layout unchanged.
    page.locator('#frame svg .token[data-seat="0"]').click()
    reach = page.locator('#frame [data-reach-for="0"]')
    assert reach.is_visible()
    overspend = reach.locator(".reach-hex.overspend").first
    assert "▮" in overspend.text_content()
    overspend.click()
    choice = page.locator("#frame [data-choice-panel]")
    assert choice.is_visible() and "overspend" in choice.inner_text()
    assert choice.locator("button[data-command][data-confirm]").count() >= 1
    assert_one_screen(page, "a hex chosen")
    page.screenshot(path=str(artifacts / f"table-{size}-move.png"))
    page.keyboard.press("Escape")
    assert choice.is_hidden()
    # A panel over the board: a real button with aria-expanded, Esc closes it.
    log = page.locator('#frame [data-drawer="log"]')
    log.click()
    assert log.get_attribute("aria-expanded") == "true"
    assert page.locator(".log").is_visible()
    assert_one_screen(page, "log open")
    page.screenshot(path=str(artifacts / f"table-{size}-log.png"))
    page.keyboard.press("Escape")
    assert page.locator(".log").is_hidden()
    assert log.get_attribute("aria-expanded") == "false"
    # The sound on my turn: a switch the browser keeps (localStorage).
    sound = page.locator("#frame button[data-sound]")
    assert sound.get_attribute("aria-pressed") == "false"
    sound.click()
    assert sound.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('penance.sound')") == "1"
    # The long lists stay, closed, as the accessible alternative.
    assert page.locator("#frame details.all-actions").evaluate("d => !d.open")
    assert not errors
    page.context.close()


def test_axe_finds_nothing_serious_on_the_table_and_the_replay(
    browser: Any, site: str, table_battle: Battle, tag: str
) -> None:
    page = signed_in(browser, site, "gm" + tag)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{site}/battles/{table_battle.pk}/replay/")
    assert axe_violations(page) == []
    page.locator('#frame svg .token[data-seat="0"]').click()
    page.locator('#frame [data-reach-for="0"] .reach-hex').first.click()
    assert axe_violations(page) == []
    # The replay at an attack's declaration: its to-hit and odds tables fit the width.
    from battles.selectors import battle_events

    declared = next(
        e.version
        for e in battle_events(battle=table_battle, limit=200)
        if e.type == "AttackDeclared"
    )
    page.goto(f"{site}/battles/{table_battle.pk}/replay/?at={declared}")
    assert page.locator(".viewer.table-mode").count() == 0
    assert page.locator("#frame .attack .odds-table").is_visible()
    wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], wide
    assert axe_violations(page) == []
    page.context.close()
