"""Issue 14: odd values in every form field of the campaign pages answer 400 (or succeed),
never 500; on PostgreSQL too, which stores no NUL in text."""

from __future__ import annotations

from typing import Any

import pytest

from campaigns import services

from .builders import demo_campaign
from .test_pages_campaign import client_for
from .test_pages_wizard import wizard_form

pytestmark = pytest.mark.django_db
ODD = ["", " ", "-", "--1", "1e3", "²", "0x10", "9" * 50, "[]", "<b>x</b>", "\x00", "é" * 200]


def test_odd_form_values_never_make_a_server_error() -> None:
    dc = demo_campaign()
    mission = services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="M")
    gm = client_for(dc.gm)
    base = f"/campaigns/{dc.campaign.id}"
    bad: list[Any] = []

    def post(url: str, data: dict[str, str], ok: tuple[int, ...] = (302, 400)) -> int:
        status = gm.post(url, data).status_code
        if status not in ok:
            bad.append((url, data, status))
        return status

    wizard = wizard_form(dc)
    for key in [*wizard, "board_document", "battle_name"]:
        for odd in ODD:
            data = {**wizard, key: odd}
            if key == "board_document":
                data["board"] = "custom"
            if post(f"{base}/missions/{mission.id}/start/", data) == 302:
                break  # started: the rest of this field's values would meet a started mission
    pid = dc.pilots[0].id
    adjustments = {"taint": "delta", "sp_modifier": "sp_modifier", "scar": "scar"}
    for kind, field in [*adjustments.items(), ("treat_trauma", "wound"), ("retire", "reason")]:
        for odd in ODD:
            post(f"{base}/pilots/{pid}/adjust/{kind}", {"reason": "r", field: odd})
    for action, field in [("add_player", "username"), ("enlist_pilot", "sp_modifier")]:
        for odd in ODD:
            post(f"{base}/do/{action}", {"player": "ann", "name": "n", field: odd})
    for field in ["name", "casket_class", "shield", "equipment", "count-pyre-lance", "q", "kind"]:
        for odd in ODD:
            data = {"name": "B", "casket_class": "scout", "shield": "left", field: odd}
            post(f"{base}/builds/new/", {**data, "action": "save"}, (200, 302, 400))
    for odd in ODD:
        post("/campaigns/", {"name": "x", "rules_version": odd, "option_round_limit": odd})
        status = gm.get(f"{base}/builds/{dc.builds[0].id}/diff/", {"a": odd, "b": "1"})
        if status.status_code != 400:
            bad.append(("diff", odd, status.status_code))
    assert bad == []
