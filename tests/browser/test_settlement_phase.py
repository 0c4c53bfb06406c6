"""The GM plays mission 1's aftermath and settlement phase on a tablet (820×1180), the
settlement prints on one A4 page (pc-1 rules, R-ADD-230…251)."""

from __future__ import annotations

import re
from typing import Any

from campaigns.selectors import campaign_state
from tests.campaigns.builders import PC_1, demo_campaign, finish, start_mission

PASSWORD = "pw-settlement-9"
WAIT_MS = 15000


def _tablet_login(browser: Any, site: str, username: str) -> Any:
    page = browser.new_context(viewport={"width": 820, "height": 1180}).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{site}/accounts/login/?next=/campaigns/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main [type=submit]")
    page.wait_for_url(re.compile(r"/campaigns/$"))
    return page


def _step(page: Any, command: str, fill: dict[str, str] | None = None) -> None:
    form = page.locator(f'form[data-command="{command}"]')
    for selector, value in (fill or {}).items():
        if value == "check":
            form.locator(selector).check()
        elif selector.startswith("select"):
            form.locator(selector).select_option(value)
        else:
            form.locator(selector).fill(value)
    with page.expect_navigation(timeout=WAIT_MS):
        form.locator("[type=submit]").click()


def test_the_gm_plays_an_aftermath_and_a_settlement_phase(
    browser: Any, site: str, committed_db: None, tag: str, artifacts: Any
) -> None:
    dc = demo_campaign(prefix=tag.strip("-"), campaign_rules=PC_1)
    dc.gm.set_password(PASSWORD)
    dc.gm.save()
    mission, battle = start_mission(dc, seed=3, name="Ember Road")
    finish(battle, dc.gm, seed=3)
    page = _tablet_login(browser, site, dc.gm.username)
    page.goto(f"{site}/campaigns/{dc.campaign.id}/")
    page.click('a[data-link="settlement"]')
    page.wait_for_url(re.compile(r"/settlement/$"))
    page.screenshot(path=str(artifacts / "settlement-0-ledger.png"), full_page=True)
    _step(page, "open")
    _step(page, "casualties")
    _step(
        page,
        "rewards",
        {
            "[name=success]": "check",
            "[name=objectives][value=primary]": "check",
            "#e-minion": "2",
        },
    )
    page.screenshot(path=str(artifacts / "settlement-1-return.png"), full_page=True)
    _step(page, "salvage", {"#faces": "4 2"})
    _step(page, "pilots")
    _step(page, "income")
    _step(page, "event", {"#faces": "30"})
    pilot = str(dc.pilots[0].id)
    _step(
        page,
        "action",
        {"select#a-player": dc.ann.username, "select#a-action": "rest", "select#a-pilot": pilot},
    )
    page.screenshot(path=str(artifacts / "settlement-2-actions.png"), full_page=True)
    _step(page, "finish_actions")
    _step(page, "care")
    _step(page, "select", {"#n-name": "The Drowned Chapel"})
    assert "No settlement phase is due" in page.inner_text("#phase")
    page.screenshot(path=str(artifacts / "settlement-3-done.png"), full_page=True)
    assert page.errors == []
    state = campaign_state(campaign=dc.campaign)
    assert state.settlement.phase(str(mission.id)).closed
    rolls = state.settlement.rolls
    assert [r.faces for r in rolls if r.table == "salvage"] == [(4,)]
    assert page.locator("#rolls tbody tr").count() == len(rolls)
    # the settlement prints on one A4 page, and so does the pilot sheet with its Grit
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1
    page.emulate_media(media="screen")
    page.goto(f"{site}/campaigns/{dc.campaign.id}/pilots/{pilot}/")
    assert "Grit" in page.inner_text("#between")
    page.screenshot(path=str(artifacts / "settlement-4-pilot-sheet.png"), full_page=True)
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1
