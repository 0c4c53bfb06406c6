"""Every page of the site under its strict Content-Security-Policy, in Chromium: no page
and no htmx swap breaks the policy (the conftest's watch fails the test on any violation,
R-ADD-201), and the page still works (Swagger UI and ReDoc render from the sidecar's
files, the board is laid out, the replay's markers are placed, htmx swaps happen)."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from battles.models import Battle
from campaigns import services
from tests.browser.conftest import allow_violation, passwords_set, signed_in
from tests.campaigns.builders import demo_campaign, start_mission

WAIT_MS = 15_000  # a bound on waiting for the server, not a measured time


def _visit(page: Any, url: str, ready: str = "main") -> None:
    response = page.goto(url)
    assert response is not None and response.status == 200, (url, response and response.status)
    assert "'unsafe-inline'" not in (response.headers.get("content-security-policy") or "")
    page.locator(ready).first.wait_for(timeout=WAIT_MS)
    page.wait_for_load_state("networkidle")


def test_the_anonymous_pages_and_the_api_docs(browser: Any, site: str) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    _visit(page, f"{site}/")
    _visit(page, f"{site}/rules/")
    _visit(page, f"{site}/accounts/login/")
    _visit(page, f"{site}/admin/login/", ready="#login-form")
    # Swagger UI draws the operations from the schema; ReDoc draws its menu.
    _visit(page, f"{site}/api/docs/", ready=".swagger-ui .opblock")
    # ReDoc's menu always shows its makers' logo from their CDN (no option turns it off);
    # the policy refuses it, as it should (the docs work offline), and ReDoc hides it.
    allow_violation(r"(?=.*img-src).*https://cdn\.redoc\.ly/redoc/logo-mini\.svg")
    _visit(page, f"{site}/api/redoc/", ready="[role=menuitem], .menu-content")
    page.context.close()


def test_the_battle_pages_the_replay_and_the_play_controls(
    browser: Any, site: str, running: Battle, tag: str
) -> None:
    page = signed_in(browser, site, "gm" + tag)
    _visit(page, f"{site}/battles/")
    # A running battle's page is the table (its step counter is in the closed panels): ready
    # when the board is drawn.
    _visit(page, f"{site}/battles/{running.pk}/replay/", ready="#frame [data-hex]")
    # The markers are placed along the scrub bar through the CSSOM (positions.js).
    lefts = page.eval_on_selector_all(".marker", "ms => ms.map(m => m.style.left)")
    assert lefts and all(left.endswith("%") for left in lefts), lefts
    # Step back and forth (the frame is fetched and swapped in), then the play controls.
    head = int(page.get_attribute("#frame [data-step]", "data-step") or 0)
    page.keyboard.press("Home")
    page.wait_for_function(
        "() => document.querySelector('#frame [data-step]').dataset.step === '1'",
        timeout=WAIT_MS,
    )
    page.keyboard.press("End")
    page.wait_for_function(
        "h => Number(document.querySelector('#frame [data-step]').dataset.step) === h",
        arg=head,
        timeout=WAIT_MS,
    )
    page.locator("[data-command]").first.wait_for(timeout=WAIT_MS)
    page.context.close()


def test_the_campaign_pages_and_their_htmx_swaps(
    browser: Any, site: str, committed_db: None, tag: str
) -> None:
    dc = demo_campaign(prefix="csp" + tag[1:])
    for user in (dc.gm, dc.ann, dc.bob):
        user.set_password(f"pw-{user.username}")
        user.save()
    passwords_set(tag)
    mission, battle = start_mission(dc, seed=3, name="Under the policy")
    planned = services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="Next")
    board = services.board_create(
        campaign=dc.campaign, actor=dc.gm, name="Quarry", shape={"kind": "hexagon", "radius": 3}
    )
    c = dc.campaign.id
    build = dc.builds[0]

    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{site}/accounts/login/?next=/campaigns/")
    page.fill("#id_username", dc.gm.username)
    page.fill("#id_password", f"pw-{dc.gm.username}")
    page.click("main [type=submit]")
    page.wait_for_url(re.compile(r"/campaigns/$"))
    urls = [
        reverse("campaign-list"),
        reverse("campaign-page", args=[c]),
        reverse("pilot-sheet", args=[c, dc.pilots[0].id]),
        reverse("build-list", args=[c]),
        reverse("build-page", args=[c, build.id]),
        reverse("mission-page", args=[c, mission.id]),
        reverse("board-list", args=[c]),
        reverse("profile"),
        f"/battles/{battle.pk}/replay/",
    ]
    for url in urls:
        _visit(page, site + url)

    # The board editor: its drawing laid out through the CSSOM, a paint swapped in by htmx.
    _visit(page, site + reverse("board-editor", args=[c, board.id]), ready="[data-hexpick]")
    assert page.eval_on_selector("[data-hexpick] svg", "s => s.style.minWidth").endswith("px")
    page.select_option("#terrain", "wall")
    page.click('[data-hexpick] [data-hex="0,-1"]')
    page.locator('[data-hex="0,-1"].terrain-wall').wait_for(timeout=WAIT_MS)
    # positions.js lays the swapped-in drawing out on htmx:load, just after the swap itself.
    page.wait_for_function(
        "() => document.querySelector('[data-hexpick] svg').style.minWidth.endsWith('px')",
        timeout=WAIT_MS,
    )

    # The mission wizard: a change sends the live check (form-triggers.js), swapped in.
    _visit(page, site + reverse("mission-wizard", args=[c, planned.id]), ready="#wizard")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.locator("#wizard select, #wizard input[type=checkbox]").first.dispatch_event("change")
    assert answer.value.status == 200

    # The deck builder (as the build's player): typing a count sends the live check.
    page.context.clear_cookies()
    page.goto(f"{site}/accounts/login/?next=/campaigns/")
    page.fill("#id_username", dc.ann.username)
    page.fill("#id_password", f"pw-{dc.ann.username}")
    page.click("main [type=submit]")
    page.wait_for_url(re.compile(r"/campaigns/$"))
    _visit(page, site + reverse("build-edit", args=[c, build.id]), ready="#deck-builder")
    count = page.locator("#deck-builder input[type=number]").first
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        count.fill("1")
    assert answer.value.status == 200
    page.locator("#deck-status").wait_for(timeout=WAIT_MS)
    _visit(page, site + reverse("build-new", args=[c]), ready="#deck-builder")
    page.context.close()


def test_the_other_pages_the_admin_and_the_error_pages(
    browser: Any, site: str, committed_db: None, tag: str
) -> None:
    """The pages the tests above do not open: a build's version diff, the password change,
    a 404 page, the admin's index, lists and forms (the card import's and the campaign
    import's among them), and the page logging out lands on."""
    from django.contrib.auth import get_user_model

    dc = demo_campaign(prefix="csp2" + tag[1:])
    dc.gm.set_password(f"pw-{dc.gm.username}")
    dc.gm.save()
    staff = get_user_model().objects.create_superuser(
        username=f"staff{tag}", password=f"pw-staff{tag}"
    )
    c = dc.campaign.id
    build = dc.builds[0]

    page = signed_in(browser, site, dc.gm.username)
    _visit(page, f"{site}{reverse('build-diff', args=[c, build.id])}?a=1&b=1")
    _visit(page, site + reverse("password_change"), ready="form")
    response = page.goto(f"{site}/campaigns/{tag[1:]}-no-such-page/")
    assert response is not None and response.status == 404
    page.locator("main").wait_for(timeout=WAIT_MS)
    # Logging out lands on the site's own page.
    with page.expect_navigation():
        page.click("header form[action='/accounts/logout/'] button")
    assert "You have logged out" in page.inner_text("main")
    page.wait_for_load_state("networkidle")
    page.context.close()

    page = signed_in(browser, site, staff.username)
    for url in (
        "/admin/",
        "/admin/campaigns/card/",
        "/admin/campaigns/card/add/",
        "/admin/campaigns/card/import/",
        "/admin/campaigns/campaign/",
        f"/admin/campaigns/campaign/{c}/change/",
        "/admin/campaigns/import/",
        "/admin/campaigns/starterdeck/",
        "/admin/campaigns/starterdeck/add/",
        "/admin/campaigns/casketbuild/",
        "/admin/auth/user/",
        "/admin/battles/battle/",
    ):
        _visit(page, site + url, ready="#content")
    page.context.close()
