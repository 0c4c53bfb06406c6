"""The mission wizard gives a side to the server's bot (R-ADD-335): each deployed seat on
that side starts as `"bot": true` (R-ADD-210), the bot plays its turns through
battles.bots (in-process here, no Redis), the pilot's player watches, and the battle's
outcome reaches the campaign exactly once (R-PLT-5). A bot side with table dice is refused
by the battle setup's own check (R-ADD-212), naming the form's field; nothing is started."""

from __future__ import annotations

import json
import random
import re
import uuid
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client

from battles.engine.battle.autoplay import choose
from battles.engine.battle.legal import legal_actions
from battles.engine.demo import DEMO_DECKS
from battles.engine.errors import InvalidInput
from battles.models import Battle, BattleWatcher
from battles.selectors import battle_events, battle_setup, battle_state_at
from battles.services import battle_command_execute
from campaigns import services
from campaigns.models import Mission, OutcomeOutbox
from campaigns.selectors import campaign_events, campaign_state

from .builders import demo_campaign, make_users, seats
from .test_pages_campaign import client_for
from .test_pages_wizard import url, wizard_form

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
BOT_SIDE = "bot-side"


@pytest.fixture(autouse=True)
def in_process(settings: Any) -> None:
    """The embedded default (no Redis): the bot's task runs in the process that committed."""
    settings.CELERY_TASK_ALWAYS_EAGER = True


@pytest.fixture
def dc() -> Any:
    return demo_campaign()


@pytest.fixture
def mission(dc: Any) -> Mission:
    return services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="Cinder Road")


def nothing_started(mission: Mission, battles_before: int) -> None:
    mission.refresh_from_db()
    assert mission.status == Mission.Status.PLANNED and mission.battle_id is None
    assert Battle.objects.count() == battles_before


def enemy(dc: Any) -> dict[str, str]:
    """The form's choice of the bot for the side Brother Malachai (bob's pilot) is on."""
    return {BOT_SIDE: str(dc.pilots[1].id)}


def test_the_wizard_offers_the_side_of_each_deployable_pilot_to_the_bot(
    dc: Any, mission: Mission
) -> None:
    body = client_for(dc.gm).get(url(dc, mission)).content.decode()
    assert '<label for="bot-side">Played by the bot</label>' in body
    assert re.search(r'<option value="" selected>nobody', body)
    offered = re.findall(r'<option value="([0-9a-f-]+)" >the side (.+?) is on<', body)
    assert offered == [(str(p.id), p.name) for p in dc.pilots]
    # The live check names the seats the bot will play.
    form = {**wizard_form(dc), **enemy(dc), "action": "check"}
    checked = client_for(dc.gm).post(url(dc, mission), form, **HX).content.decode()
    assert "Brother Malachai Thorne (bastion, played by the bot)" in checked
    assert "Sister Ophelia Vance (penitents) at" in checked


def test_every_seat_on_the_chosen_side_is_the_bots(dc: Any, mission: Mission) -> None:
    """Bob's two pilots on the bastion side: choosing either gives the bot both seats."""
    tobias = services.pilot_enlist(
        campaign=dc.campaign, actor=dc.gm, player="bob", name="Brother Tobias"
    )
    heavy, _ = services.build_revise(
        campaign=dc.campaign,
        actor=dc.bob,
        build_id=None,
        name="Second Heavy",
        casket_class="heavy",
        shield="right",
        deck=[{"card": c, "count": n} for c, n in DEMO_DECKS["bastion-heavy"]],
        pilot=str(tobias.id),
    )
    pit = {"name": "Pit", "shape": {"kind": "hexagon", "radius": 5}, "hexes": []}
    form = wizard_form(dc, "custom", board_document=json.dumps(pit))
    t = tobias.id
    form.update(
        {f"deploy-{t}": "on", f"build-{t}": str(heavy.id), f"side-{t}": "bastion"}
        | {f"q-{t}": "1", f"r-{t}": "3", f"facing-{t}": "1", BOT_SIDE: str(t), "action": "check"}
    )
    checked = client_for(dc.gm).post(url(dc, mission), form, **HX).content.decode()
    assert "Deployment legal" in checked
    assert re.findall(r"Seat \d: ([^(]+) \(([a-z]+)(, played by the bot)?\)", checked) == [
        ("Sister Ophelia Vance", "penitents", ""),
        ("Brother Malachai Thorne", "bastion", ", played by the bot"),
        ("Brother Tobias", "bastion", ", played by the bot"),
    ]


def test_the_wizard_starts_a_battle_whose_enemy_seat_is_the_bot_and_the_bot_plays_it(
    dc: Any, mission: Mission, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(dc.gm).post(url(dc, mission), wizard_form(dc, **enemy(dc)))
    mission.refresh_from_db()
    assert r.status_code == 302 and r["Location"] == f"/battles/{mission.battle_id}/replay/"
    battle = Battle.objects.get(pk=mission.battle_id)
    setup = battle_setup(battle=battle)
    assert [s.get("bot", False) for s in setup["seats"]] == [False, True]
    assert [s["player"] for s in setup["seats"]] == ["ann", "bot"]
    # The seat stays the pilot's: the campaign deployed bob's pilot and build in it.
    assert setup["seats"][1]["pilot"]["name"] == "Brother Malachai Thorne"
    (deployed,) = [
        m for m in campaign_state(campaign=dc.campaign).missions if m.id == str(mission.id)
    ]
    assert [pilot for _, pilot, _, _ in deployed.deployments] == [str(p.id) for p in dc.pilots]
    assert [s.player.username for s in battle.seats.order_by("seat")] == ["ann", "bot"]
    assert list(
        BattleWatcher.objects.filter(battle=battle).values_list("user__username", flat=True)
    ) == ["bob"]
    # Ann and the bot play it out: after each of her commands the bot answers at once.
    for _ in range(3000):
        state = battle_state_at(battle=battle)
        actions = list(legal_actions(state, {0}))
        if state.over or not actions:
            break
        with django_capture_on_commit_callbacks(execute=True):
            battle_command_execute(
                battle=battle,
                actor=dc.ann,
                command_id=uuid.uuid4().hex,
                expected_version=state.version,
                body=choose(state, actions, random.Random(state.version)),
            )
    assert battle_state_at(battle=battle).over, "the battle never ended"
    actors = {e.metadata.get("actor") for e in battle_events(battle=battle, limit=100_000)}
    assert actors == {"gm", "ann", "bot"}
    # The same battle path applies the outcome, once (R-PLT-5).
    mission.refresh_from_db()
    assert mission.status == Mission.Status.COMPLETED
    assert OutcomeOutbox.objects.get(battle_id=battle.pk).applied_at is not None
    completed = [e for e in campaign_events(campaign=dc.campaign) if e.type == "MissionCompleted"]
    assert len(completed) == 1
    assert services.campaign_outcome_apply(battle_id=str(battle.pk)) is False


def test_only_the_gm_gives_a_side_to_the_bot(dc: Any, mission: Mission) -> None:
    (outsider,) = make_users("outsider")
    before = Battle.objects.count()
    form = wizard_form(dc, **enemy(dc))
    assert client_for(dc.ann).get(url(dc, mission)).status_code == 403
    assert b"Played by the bot" not in client_for(dc.ann).get(url(dc, mission)).content
    assert client_for(dc.ann).post(url(dc, mission), form).status_code == 403
    assert client_for(outsider).post(url(dc, mission), form).status_code == 404
    assert Client().post(url(dc, mission), form)["Location"].startswith("/accounts/login/")
    nothing_started(mission, before)
    with pytest.raises(PermissionDenied, match="only the campaign's GM"):
        services.mission_start(
            mission=mission,
            actor=dc.ann,
            board={},
            seats=[seats(dc)[0], {**seats(dc)[1], "bot": True}],
        )
    nothing_started(mission, before)


def test_a_bot_side_with_table_dice_is_refused_with_its_rule_and_starts_nothing(
    dc: Any, mission: Mission
) -> None:
    before = Battle.objects.count()
    form = wizard_form(dc, dice_mode="table", seed="", **enemy(dc))
    r = client_for(dc.gm).post(url(dc, mission), form)
    assert r.status_code == 400
    body = r.content.decode()
    assert "Nothing was changed" in body
    assert (
        "<strong>bot-side (Brother Malachai Thorne)</strong>: a bot cannot roll physical dice"
        in body
    )
    assert "R-ADD-212" in body
    nothing_started(mission, before)
    # The live check says so before the GM starts anything.
    checked = client_for(dc.gm).post(url(dc, mission), {**form, "action": "check"}, **HX)
    assert 'data-field="bot-side (Brother Malachai Thorne)"' in checked.content.decode()
    nothing_started(mission, before)
    # Table dice are refused for the bot's sake only: with nobody for the bot they start.
    assert client_for(dc.gm).post(url(dc, mission), {**form, BOT_SIDE: ""}).status_code == 302


@pytest.mark.parametrize("choice", ["not-a-pilot", "undeployed"])
def test_a_bot_side_of_no_deployed_pilot_is_refused(dc: Any, mission: Mission, choice: str) -> None:
    before = Battle.objects.count()
    form = wizard_form(dc, **enemy(dc))
    if choice == "undeployed":
        del form[f"deploy-{dc.pilots[1].id}"]
    else:
        form[BOT_SIDE] = choice
    r = client_for(dc.gm).post(url(dc, mission), form)
    assert r.status_code == 400
    body = r.content.decode()
    assert "<strong>bot-side</strong>: choose the side of a deployed pilot" in body
    assert "R-ADD-335" in body
    nothing_started(mission, before)


@pytest.mark.parametrize(
    ("bot", "dice", "field", "rule"),
    [
        ("yes", {"mode": "digital", "seed": 1}, "seats[1].bot", "R-ADD-211"),
        (True, {"mode": "table"}, "seats[1].bot", "R-ADD-212"),
    ],
)
def test_mission_start_refuses_a_bad_bot_seat_by_the_setups_own_check(
    dc: Any, mission: Mission, bot: object, dice: dict[str, Any], field: str, rule: str
) -> None:
    before = Battle.objects.count()
    with pytest.raises(InvalidInput) as refused:
        services.mission_start(
            mission=mission,
            actor=dc.gm,
            board={"name": "Pit", "shape": {"kind": "hexagon", "radius": 5}, "hexes": []},
            seats=[seats(dc)[0], {**seats(dc)[1], "bot": bot}],
            dice=dice,
        )
    assert (refused.value.field, refused.value.rule) == (field, rule)
    nothing_started(mission, before)
