"""The mission wizard's "Played by the bot" in a browser at a tablet's size (820x1180): the
GM chooses the bastion side by keyboard, the engine's live check refuses it with table dice
(R-ADD-212) and accepts it with digital dice, naming the bot's seat; the choice is a touch
target; the started battle seats the bot (R-ADD-210, R-ADD-335)."""

from __future__ import annotations

import re
from typing import Any

from battles.selectors import battle_setup
from campaigns import services
from campaigns.models import Mission
from tests.campaigns.builders import demo_campaign

PASSWORD = "pw-a-long-enough-phrase-42"
WAIT_MS = 15_000  # a bound on waiting for the server, not a measured time


def _wait_text(page: Any, selector: str, text: str) -> None:
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s)?.innerText || '').includes(t)",
        arg=[selector, text],
        timeout=WAIT_MS,
    )


def test_the_gm_gives_the_enemy_side_to_the_bot_in_the_wizard(
    browser: Any, site: str, committed_db: None, tag: str, artifacts: Any
) -> None:
    dc = demo_campaign(prefix=f"wb{tag}-")
    dc.gm.set_password(PASSWORD)
    dc.gm.save()
    mission = services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="Cinder Road")
    bob = dc.pilots[1]

    gm = browser.new_context(viewport={"width": 820, "height": 1180}).new_page()
    errors: list[str] = []
    gm.on("pageerror", lambda e: errors.append(str(e)))
    gm.goto(f"{site}/accounts/login/?next=/campaigns/")
    gm.fill("#id_username", dc.gm.username)
    gm.fill("#id_password", PASSWORD)
    gm.click("main [type=submit]")
    gm.wait_for_url(re.compile(r"/campaigns/$"))
    gm.goto(f"{site}/campaigns/{dc.campaign.id}/missions/{mission.id}/start/")
    gm.check("#board-ash-causeway")
    _wait_text(gm, "#deploy-check", "Deployment legal")
    gm.select_option("#dice-mode", "table")
    _wait_text(gm, "#deploy-check", "Deployment legal")

    # By keyboard: the choice after "nobody" is Ophelia's side; once more, Malachai's.
    gm.focus("#bot-side")
    gm.keyboard.press("ArrowDown")
    gm.keyboard.press("ArrowDown")
    assert gm.input_value("#bot-side") == str(bob.id)
    _wait_text(gm, "#deploy-check", f"bot-side ({bob.name})")
    _wait_text(gm, "#deploy-check", "R-ADD-212")
    assert gm.evaluate("document.activeElement.id") == "bot-side"
    box = gm.locator("#bot-side").bounding_box()
    assert box is not None and box["height"] >= 44
    gm.screenshot(path=str(artifacts / "campaign-wizard-bot-table-refused.png"), full_page=True)

    gm.select_option("#dice-mode", "digital")
    _wait_text(gm, "#deploy-check", f"{bob.name} ({dc.bob.username}, played by the bot)")
    gm.locator("#step-deploy").screenshot(path=str(artifacts / "campaign-wizard-bot.png"))
    gm.select_option("#policy", "auto")
    gm.click("button[value=start]")
    gm.wait_for_url(re.compile(r"/battles/[0-9a-f-]{36}/replay/$"))
    mission.refresh_from_db()
    assert mission.status == Mission.Status.IN_PROGRESS
    seats = battle_setup(battle=mission.battle)["seats"]
    assert [(s["player"], s.get("bot", False)) for s in seats] == [
        (dc.ann.username, False),
        ("bot", True),
    ]
    assert errors == []
    gm.context.close()  # the battle's page follows it live: no request outlives the test
