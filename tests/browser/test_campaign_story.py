"""A campaign from start to finish in browsers (issue 14): a GM creates a campaign and sends
the invitation link; a player signs up through it and builds a legal deck in the deck
builder after the live check and the save both refuse an illegal one with its rule; the GM
plans a mission and starts it in the wizard on a library board, deploying each pilot by
clicking hexes; the battle is played to its end (the engine's autoplayer, the last command
through the command service) and the pilot sheets show the outcome. Around it: a second
player cannot edit the first one's build, an outsider gets 404 for the private campaign,
the pilot sheet prints on one A4 page, and the board editor paints and shows a line of
sight."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model

from battles.engine.demo import DEMO_DECKS
from battles.engine.hexes import DIRECTION_NAMES
from campaigns import selectors, services
from campaigns.catalogue import catalogue_load_demo
from campaigns.models import Campaign, CasketBuild, Mission, Pilot
from tests.campaigns.builders import finish

PASSWORD = "pw-a-long-enough-phrase-42"
WAIT_MS = 15_000  # a bound on waiting for the server, not a measured time


# The refusals this story provokes on purpose (a 400 save, a 403 edit, a 404 campaign) are
# logged by Chromium as failed loads; any other console error fails the test.
EXPECTED = re.compile(r"Failed to load resource: the server responded with a status of 40[034]")


def _errors(page: Any) -> None:
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on(
        "console",
        lambda m: (
            page.errors.append(m.text) if m.type == "error" and not EXPECTED.match(m.text) else None
        ),
    )


def _page(browser: Any) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    _errors(page)
    return page


def _login(browser: Any, site: str, username: str) -> Any:
    page = _page(browser)
    page.goto(f"{site}/accounts/login/?next=/campaigns/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main [type=submit]")
    page.wait_for_url(re.compile(r"/campaigns/$"))
    return page


def _users(tag: str, *names: str) -> list[Any]:
    model = get_user_model()
    made = []
    for name in names:
        user = model.objects.create_user(username=f"{name}{tag}", password=PASSWORD)
        made.append(user)
    return made


def _wait_text(page: Any, selector: str, text: str) -> None:
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s)?.innerText || '').includes(t)",
        arg=[selector, text],
        timeout=WAIT_MS,
    )


def _save(page: Any) -> None:
    """Save the deck from the keyboard, as a keyboard user does: the deck panel is sticky,
    and a pointer click computed before a scroll can land beside the button."""
    page.focus("button[value=save]")
    page.keyboard.press("Enter")


def _fill_deck(page: Any, deck: dict[str, int]) -> None:
    for card, count in deck.items():
        page.fill(f"#count-{card}", str(count))


def test_a_campaign_from_invitation_to_the_pilot_sheets(
    browser: Any, site: str, committed_db: None, tag: str, artifacts: Any
) -> None:
    catalogue_load_demo()
    gm_user, bob_user, outsider_user = _users(tag, "gm", "bob", "outsider")

    # The GM creates a private campaign and reads its invitation link.
    gm = _login(browser, site, gm_user.username)
    gm.fill("#c-name", f"Road of Ash{tag}")
    gm.click("text=Create campaign")
    gm.wait_for_url(re.compile(r"/campaigns/[0-9a-f-]{36}/$"))
    campaign = Campaign.objects.get(name=f"Road of Ash{tag}")
    invite = gm.input_value("#invite-link")
    assert "/join/" in invite

    # A new player signs up through the link and is in the campaign.
    ann = _page(browser)
    ann.goto(invite)
    ann.fill("#id_username", f"ann{tag}")
    ann.fill("#id_password1", PASSWORD)
    ann.fill("#id_password2", PASSWORD)
    ann.click("text=Sign up and join")
    ann.wait_for_url(re.compile(rf"/campaigns/{campaign.id}/$"))
    # An existing user joins through the same link with one button.
    bob = _login(browser, site, bob_user.username)
    bob.goto(invite)
    bob.click(f"text=Join as {bob_user.username}")
    bob.wait_for_url(re.compile(rf"/campaigns/{campaign.id}/$"))

    # The GM enlists a pilot for each player and plans a mission.
    gm.reload()
    for player, name in ((f"ann{tag}", "Sister Ophelia"), (bob_user.username, "Brother Malachai")):
        gm.select_option("#ep-player", player)
        gm.fill("#ep-name", name)
        with gm.expect_navigation():
            gm.click("#enlist-pilot button[type=submit]")
    gm.fill("#pm-name", "Cinder Road")
    with gm.expect_navigation():
        gm.click("#plan-mission button[type=submit]")

    # Ann builds a deck: the live check and the save refuse 29 cards with R-TRN-1.
    ann.goto(f"{site}/campaigns/{campaign.id}/builds/new/")
    ann.fill("#b-name", "Ash Runner")
    ann.select_option("#b-class", "scout")
    scout = dict(DEMO_DECKS["penitent-scout"])
    short = {**scout, "pyre-lance": scout["pyre-lance"] - 1}
    _fill_deck(ann, short)
    _wait_text(ann, "#deck-h", "Deck: 29 of 30 cards")  # the live check caught up
    live = ann.locator("#deck-check").inner_text()
    assert "Not legal yet" in live and "29 cards" in live and "(R-TRN-1)" in live
    ann.screenshot(path=str(artifacts / "campaign-deck-builder-live-check.png"), full_page=True)
    with ann.expect_navigation():
        _save(ann)
    refused = ann.locator("#errors").inner_text()
    assert "Nothing was changed" in refused and "R-TRN-1" in refused
    assert not CasketBuild.objects.filter(campaign=campaign).exists()
    ann.fill("#count-pyre-lance", str(scout["pyre-lance"]))
    _wait_text(ann, "#deck-check", "Legal deck")
    # The catalogue filters as the search is typed; the cards it hides stay in the deck.
    ann.fill("#f-q", "lance")
    ann.wait_for_function(
        "() => document.querySelectorAll('#catalogue tr[data-card]').length === 1",
        timeout=WAIT_MS,
    )
    assert ann.locator("#catalogue tr[data-card]").get_attribute("data-card") == "pyre-lance"
    _save(ann)
    ann.wait_for_url(re.compile(r"/builds/[0-9a-f-]{36}/#v1$"))
    anns_build = CasketBuild.objects.get(campaign=campaign, name="Ash Runner")
    saved = selectors.campaign_state(campaign=campaign).builds[str(anns_build.id)].current
    assert {c: n for c, _, n in saved.deck} == scout  # every card, the hidden ones too
    services.build_revise(
        campaign=campaign,
        actor=bob_user,
        build_id=None,
        name="Iron Bastion",
        casket_class="heavy",
        shield="right",
        deck=[{"card": c, "count": n} for c, n in DEMO_DECKS["bastion-heavy"]],
    )

    # The second player may not edit the first player's build (R-ADD-31).
    edit = bob.goto(f"{site}/campaigns/{campaign.id}/builds/{anns_build.id}/edit/")
    assert edit is not None and edit.status == 403
    # An outsider does not learn that the private campaign exists.
    outsider = _login(browser, site, outsider_user.username)
    assert outsider.goto(f"{site}/campaigns/{campaign.id}/").status == 404

    # The GM starts the mission in the wizard, deploying by clicking hexes on the board.
    mission = Mission.objects.get(campaign=campaign, number=1)
    pilots = {p.name: p for p in Pilot.objects.filter(campaign=campaign)}
    ophelia, malachai = pilots["Sister Ophelia"], pilots["Brother Malachai"]
    gm.goto(f"{site}/campaigns/{campaign.id}/missions/{mission.id}/start/")
    gm.check("#board-ash-causeway")
    gm.check(f"#place-{ophelia.id}")
    gm.click('[data-hexpick] [data-hex="1,-3"]')
    check = gm.locator("#deploy-check")
    check.get_by_text("Seat 0: Sister Ophelia").wait_for(timeout=WAIT_MS)
    gm.wait_for_function(
        "() => document.querySelector('#deploy-check').innerText.includes('at 1,-3')",
        timeout=WAIT_MS,
    )
    facing_before = gm.input_value(f"#facing-{ophelia.id}")
    gm.click('[data-hexpick] [data-hex="1,-3"]')  # the same hex again turns the pilot
    turned = str(int(facing_before) % 6 + 1)
    assert gm.input_value(f"#facing-{ophelia.id}") == turned
    _wait_text(gm, "#deploy-check", f"at 1,-3, facing {DIRECTION_NAMES[int(turned)]}")
    # By keyboard: Malachai, a focused hex and Enter.
    gm.check(f"#place-{malachai.id}")
    gm.focus('[data-hexpick] [data-hex="-1,3"]')
    gm.keyboard.press("Enter")
    gm.wait_for_function(
        "() => document.querySelector('#deploy-check').innerText.includes('at -1,3')",
        timeout=WAIT_MS,
    )
    gm.wait_for_function(  # the board was drawn again; the focus is back on the hex
        "() => document.activeElement?.dataset?.hex === '-1,3'", timeout=WAIT_MS
    )
    # The facing buttons turn the chosen pilot (Malachai) to a named direction.
    gm.click('[data-face="2"]')
    _wait_text(gm, "#deploy-check", "at -1,3, facing NE")
    assert gm.input_value(f"#facing-{malachai.id}") == "2"
    # A wall is refused by the engine's setup check with its ruling.
    gm.check(f"#place-{ophelia.id}")
    wall = next(
        h
        for h in next(b for b in selectors.board_library() if b.slug == "ash-causeway").document[
            "hexes"
        ]
        if h["terrain"] == "wall"
    )
    gm.click(f'[data-hexpick] [data-hex="{wall["q"]},{wall["r"]}"]')
    check.get_by_text("R-BRD-3").wait_for(timeout=WAIT_MS)
    gm.screenshot(path=str(artifacts / "campaign-wizard-refused-wall.png"), full_page=True)
    gm.click('[data-hexpick] [data-hex="1,-3"]')
    check.get_by_text("Deployment legal").wait_for(timeout=WAIT_MS)
    # Each marker box is at least 44 px: a touch target.
    box = gm.locator('[data-hexpick] [data-hex="0,0"]').bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    gm.screenshot(path=str(artifacts / "campaign-wizard-deployed.png"), full_page=True)
    gm.fill("#dice-seed", "11")
    gm.select_option("#policy", "auto")
    gm.click("button[value=start]")
    gm.wait_for_url(re.compile(r"/battles/[0-9a-f-]{36}/replay/$"))
    mission.refresh_from_db()
    assert mission.status == Mission.Status.IN_PROGRESS
    setup_seats = selectors.campaign_state(campaign=campaign).missions[0].deployments
    assert [pid for _, pid, _, _ in setup_seats] == [str(ophelia.id), str(malachai.id)]
    from battles.selectors import battle_setup

    seats = battle_setup(battle=mission.battle)["seats"]
    assert [s["at"] for s in seats] == [[1, -3], [-1, 3]]
    assert [s["facing"] for s in seats] == [int(turned), 2]

    # The battle is played to its end; the campaign applies its outcome.
    finish(mission.battle, gm_user, seed=3)
    mission.refresh_from_db()
    assert mission.status == Mission.Status.COMPLETED
    state = selectors.campaign_state(campaign=campaign)

    # The pilot sheets show the outcome: the mission completed, what the campaign kept.
    for pilot in (ophelia, malachai):
        ann.goto(f"{site}/campaigns/{campaign.id}/pilots/{pilot.id}/")
        row = ann.locator(f'#career tr[data-battle="{mission.battle_id}"]').inner_text()
        assert "Cinder Road" in row and "battle not over" not in row
        kept = [w for w in state.pilots[str(pilot.id)].wounds if w.mission_id == str(mission.id)]
        for wound in kept:
            assert f"keeps wound {wound.wound}" in row
        if not kept and state.pilots[str(pilot.id)].status == "alive":
            assert "nothing" in row
    ann.screenshot(path=str(artifacts / "campaign-pilot-sheet-after.png"), full_page=True)

    # The pilot sheet prints on one A4 page.
    ann.emulate_media(media="print")
    pdf = ann.pdf(format="A4", print_background=False)
    assert len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf)) == 1

    for page in (gm, ann, bob, outsider):
        assert page.errors == [], page.errors
        page.context.close()


def test_the_board_editor_paints_by_click_and_keyboard_and_shows_line_of_sight(
    browser: Any, site: str, committed_db: None, tag: str, artifacts: Any
) -> None:
    (gm_user,) = _users(tag, "gm")
    campaign = services.campaign_create(gm=gm_user, name=f"Boards{tag}")
    gm = _login(browser, site, gm_user.username)
    gm.goto(f"{site}/campaigns/{campaign.id}/boards/")
    gm.fill("#nb-name", "Quarry")
    gm.fill("#nb-radius", "4")
    gm.click("text=Create and paint")
    gm.wait_for_url(re.compile(r"/boards/[0-9a-f-]{36}/$"))
    board = selectors.campaign_boards(campaign=campaign).get()

    gm.select_option("#terrain", "wall")
    gm.click('[data-hexpick] [data-hex="0,-1"]')
    gm.locator('[data-hex="0,-1"].terrain-wall').wait_for(timeout=WAIT_MS)
    gm.select_option("#terrain", "forest")
    gm.select_option("#level", "2")
    gm.focus('[data-hexpick] [data-hex="2,-2"]')
    gm.keyboard.press("Enter")
    gm.locator('[data-hex="2,-2"].terrain-forest.level-2').wait_for(timeout=WAIT_MS)
    board.refresh_from_db()
    assert board.document["hexes"] == [
        {"q": 0, "r": -1, "terrain": "wall"},
        {"q": 2, "r": -2, "terrain": "forest", "level": 2},
    ]

    gm.check("#pick-from")
    gm.click('[data-hexpick] [data-hex="0,0"]')
    gm.check("#pick-to")
    gm.click('[data-hexpick] [data-hex="0,-3"]')
    gm.locator('[data-los="blocked"]').wait_for(timeout=WAIT_MS)
    assert "R-LOS-2" in gm.locator("#los-result").inner_text()
    gm.click('[data-hexpick] [data-hex="3,-3"]')
    gm.locator('[data-los="clear"]').wait_for(timeout=WAIT_MS)
    assert "light" in gm.locator("#los-result").inner_text()
    gm.screenshot(path=str(artifacts / "campaign-board-editor.png"), full_page=True)
    assert gm.errors == [], gm.errors
    gm.context.close()


def test_the_profile_makes_named_tokens_and_revokes_one(
    browser: Any, site: str, committed_db: None, tag: str, artifacts: Any
) -> None:
    (user,) = _users(tag, "ann")
    page = _login(browser, site, user.username)
    page.goto(f"{site}/accounts/profile/")
    keys = []
    for name in ("table laptop", "dice bot"):
        page.fill("#token-name", name)
        with page.expect_navigation():
            page.click("button[value=create_token]")
        keys.append(page.input_value("#new-token"))
    page.screenshot(path=str(artifacts / "campaign-profile-tokens.png"), full_page=True)
    rows = page.locator("tr[data-token]")
    assert rows.count() == 2 and "dice bot" in rows.nth(1).inner_text()
    with page.expect_navigation():
        rows.nth(0).get_by_role("button", name="Revoke table laptop").click()
    assert page.locator("tr[data-token]").count() == 1
    assert "table laptop" not in page.locator("#tokens").inner_text()
    assert page.locator("#new-token").count() == 0  # a key is shown once
    api = browser.new_context().request  # no session cookie: the token alone signs in
    ok = api.get(f"{site}/api/campaigns/", headers={"Authorization": f"Token {keys[1]}"})
    gone = api.get(f"{site}/api/campaigns/", headers={"Authorization": f"Token {keys[0]}"})
    assert ok.status == 200 and gone.status == 401
    assert page.errors == [], page.errors
    page.context.close()
