"""The settlement phase through the services and the API, with real mission battles
(pc-1 rules, R-ADD-230…251)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from battles.engine.demo import demo_board
from battles.engine.errors import RuleViolation
from campaigns import services
from campaigns.between import decide as between
from campaigns.between.dice import commitment
from campaigns.models import Mission
from campaigns.selectors import campaign_state
from campaigns.settlement_services import phase_secret, settlement_dice_check, settlement_step
from tests.campaigns.builders import (
    PC_1,
    DemoCampaign,
    demo_campaign,
    finish,
    make_users,
    seats,
    start_mission,
)
from tests.campaigns.test_campaigns_api import client_for

pytestmark = pytest.mark.django_db


def step(dc: DemoCampaign, command: between.BetweenCommand, **kw: Any) -> Any:
    state, events, repeated = settlement_step(
        campaign=dc.campaign, actor=dc.gm, command=command, **kw
    )
    # the state a step answers is the stream folded afresh: ledger, Grit, scars, injuries, rolls
    assert state == campaign_state(campaign=dc.campaign)
    return state, events, repeated


def play_phase(dc: DemoCampaign, mission_id: str, next_name: str) -> Any:
    step(dc, between.OpenPhase(mission_id, ""))
    step(dc, between.ResolveCasualties(mission_id, memorial=False))
    step(
        dc,
        between.ResolveRewards(
            mission_id, success=True, objectives=("primary",), enemies=(("elite", 1),)
        ),
    )
    step(dc, between.RollSalvage(mission_id))
    step(dc, between.ResolvePilots(mission_id, scar_tables=(), scar_choices=_all_choices(dc)))
    step(dc, between.CollectIncome(mission_id))
    step(dc, between.RollEvent(mission_id))
    state, _, _ = step(dc, between.TakeAction(mission_id, player="ann", action="scavenge"))
    step(dc, between.FinishActions(mission_id))
    step(dc, between.PilotCare(mission_id))
    state, _, _ = step(dc, between.SelectMission(mission_id, name=next_name))
    return state


def _all_choices(dc: DemoCampaign) -> tuple[tuple[str, str], ...]:
    # a 20 on a scar table is the player's choice: name one in advance
    return tuple((str(p.id), "iron-jaw") for p in dc.pilots)


def test_missions_with_phases_between_fold_to_the_same_state_and_the_dice_verify() -> None:
    dc = demo_campaign(campaign_rules=PC_1)
    state = campaign_state(campaign=dc.campaign)
    assert state.settlement.version == "pc-1"
    mission, battle = start_mission(dc, seed=3, name="Ember Road")
    finish(battle, dc.gm, seed=3)
    state = play_phase(dc, str(mission.id), "The Second")
    assert state.settlement.phase(str(mission.id)).closed
    second = next(m for m in state.missions if m.number == 2)
    # the next mission starts only after the phase (R-ADD-249): it did, so it may start
    row = Mission.objects.get(id=second.id)
    living = [s for s in seats(dc) if state.pilots[s["pilot"]].status == "alive"]
    living = _rebuilt_or_new(dc, row, state, living)
    battle2 = services.mission_start(
        mission=row,
        actor=dc.gm,
        board=demo_board(),
        dice={"mode": "digital", "seed": 5},
        policy="auto",
        seats=living,
    )
    finish(battle2, dc.gm, seed=5)
    state = play_phase(dc, str(second.id), "The Third")
    assert [p.closed for p in state.settlement.phases] == [True, True]
    assert settlement_dice_check(campaign=dc.campaign) == []
    rolls = state.settlement.rolls
    assert {r.scope for r in rolls} == {"phase-1", "phase-2"}
    assert all(r.source == "sealed" and r.table_version == "pc-1" for r in rolls)
    assert services.campaign_rows_check(campaign=dc.campaign) == []


def _rebuilt_or_new(
    dc: DemoCampaign, row: Mission, state: Any, living: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """A casket defeated in the first battle was destroyed (R-ADD-352): it may not deploy,
    so its player builds a new one with the same deck."""
    out = []
    for seat in living:
        build = state.builds[seat["build"]]
        if build.destroyed:
            with pytest.raises(RuleViolation) as refused:
                services.mission_start_check(
                    mission=row, actor=dc.gm, board=demo_board(), seats=living
                )
            assert (refused.value.code, refused.value.rule) == ("casket_destroyed", "R-ADD-352")
            made, _ = services.build_revise(
                campaign=dc.campaign,
                actor=dc.gm,
                build_id=None,
                player=build.player,
                name=f"{build.current.name} II",
                casket_class=build.current.casket_class,
                shield=build.current.shield,
                deck=[{"card": c, "version": v, "count": n} for c, v, n in build.current.deck],
            )
            seat = {**seat, "build": str(made.id)}
        out.append(seat)
    return out


def test_the_next_mission_waits_for_the_settlement_phase() -> None:
    dc = demo_campaign(campaign_rules=PC_1)
    _, battle = start_mission(dc, seed=3)
    finish(battle, dc.gm, seed=3)
    with pytest.raises(RuleViolation) as e:
        start_mission(dc, seed=4)
    assert e.value.code == "settlement_phase_due"


def test_a_command_id_never_rolls_twice() -> None:
    dc = demo_campaign(campaign_rules=PC_1)
    mission, battle = start_mission(dc, seed=3)
    finish(battle, dc.gm, seed=3)
    mid = str(mission.id)
    step(dc, between.OpenPhase(mid, ""))
    step(dc, between.ResolveCasualties(mid))
    step(dc, between.ResolveRewards(mid, success=True, enemies=(("minion", 2),)), command_id="r1")
    before = campaign_state(campaign=dc.campaign)
    _, events, repeated = step(dc, between.ResolveRewards(mid, success=True), command_id="r1")
    assert repeated and events
    assert campaign_state(campaign=dc.campaign).version == before.version


def test_the_commitment_is_the_phase_secrets() -> None:
    dc = demo_campaign(campaign_rules=PC_1)
    mission, battle = start_mission(dc, seed=3)
    finish(battle, dc.gm, seed=3)
    state, _, _ = step(dc, between.OpenPhase(str(mission.id), ""))
    phase = state.settlement.phase(str(mission.id))
    assert phase.commitment == commitment(phase_secret(campaign=dc.campaign, mission_number=1))
    assert phase.secret == ""  # sealed until the phase closes


# --- the API ----------------------------------------------------------------------------------------


def _api_world() -> tuple[DemoCampaign, str]:
    dc = demo_campaign(campaign_rules=PC_1)
    mission, battle = start_mission(dc, seed=3)
    finish(battle, dc.gm, seed=3)
    return dc, str(mission.id)


def test_the_settlement_reads_like_the_campaign() -> None:
    dc, _ = _api_world()
    url = f"/api/campaigns/{dc.campaign.id}/settlement"
    for user in (dc.gm, dc.ann):
        body = client_for(user).get(url).json()
        assert {"credits", "scrap", "population", "morale", "buildings"} <= set(body)
        assert (body["credits"], body["population"], body["morale"]) == (0, 10, 5)
    (eve,) = make_users("eve")
    assert client_for(eve).get(url).status_code == 404  # private
    assert APIClient().get(url).status_code == 401
    dc.campaign.private = False
    dc.campaign.save()
    assert client_for(eve).get(url).status_code == 403


def test_a_plt1_campaign_has_no_settlement() -> None:
    dc = demo_campaign()
    r = client_for(dc.gm).get(f"/api/campaigns/{dc.campaign.id}/settlement")
    assert r.status_code == 404 and "plt-1" in str(r.json())


def test_commands_over_the_api_and_their_refusals() -> None:
    dc, mid = _api_world()
    url = f"/api/campaigns/{dc.campaign.id}/settlement/commands"
    gm = client_for(dc.gm)
    assert (
        client_for(dc.ann).post(url, {"command": "open", "mission": mid}, format="json").status_code
        == 403
    )
    r = gm.post(url, {"command": "open", "mission": mid, "command_id": "o1"}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["settlement"]["phases"][0]["next_step"] == "return.casualties"
    again = gm.post(url, {"command": "open", "mission": mid, "command_id": "o1"}, format="json")
    assert again.status_code == 200 and again.json()["repeated"]
    twice = gm.post(url, {"command": "open", "mission": mid}, format="json")
    assert twice.status_code == 422 and twice.json()["code"] == "phase_open"
    r = gm.post(url, {"command": "salvage", "mission": mid, "faces": [3]}, format="json")
    assert r.status_code == 422 and r.json()["code"] == "step_out_of_order"
    gm.post(url, {"command": "casualties", "mission": mid, "faces": []}, format="json")
    gm.post(
        url, {"command": "rewards", "mission": mid, "success": True, "faces": []}, format="json"
    )
    r = gm.post(url, {"command": "salvage", "mission": mid, "faces": [9]}, format="json")
    assert (
        r.status_code == 422
        and r.json()["code"] == "roll_outside_die"
        and "d6" in r.json()["message"]
    )
    r = gm.post(url, {"command": "salvage", "mission": mid, "faces": [2, 2]}, format="json")
    assert r.status_code == 400 and r.json()["errors"][0]["field"] == "faces"
    r = gm.post(
        url, {"command": "salvage", "mission": mid, "faces": [2], "bogus": 1}, format="json"
    )
    assert r.status_code == 400
    r = gm.post(url, {"command": "salvage", "mission": mid, "faces": [2]}, format="json")
    assert r.status_code == 201
    roll = r.json()["settlement"]["rolls"][-1]
    assert (roll["table"], roll["die"], roll["faces"], roll["source"]) == (
        "salvage",
        6,
        [2],
        "table",
    )
    assert r.json()["settlement"]["scrap"] == 1
    r = gm.post(url, {"command": "event", "mission": mid, "faces": [30]}, format="json")
    assert r.status_code == 422 and r.json()["code"] == "step_out_of_order"
    dice = gm.get(f"/api/campaigns/{dc.campaign.id}/settlement/dice").json()
    assert dice == {"status": "verified", "problems": []}


def test_a_campaign_created_over_the_api_pins_its_campaign_rules() -> None:
    (gm,) = make_users("gina")
    client = client_for(gm)
    plain = client.post("/api/campaigns/", {"name": "Plain"}, format="json").json()
    old = client.post(
        "/api/campaigns/", {"name": "Old", "campaign_rules": {"version": "plt-1"}}, format="json"
    ).json()
    assert client.get(f"/api/campaigns/{plain['id']}/settlement").json()["version"] == "pc-1"
    assert client.get(f"/api/campaigns/{old['id']}/settlement").status_code == 404
    r = client.post(
        "/api/campaigns/",
        {"name": "Odd", "campaign_rules": {"modules": ["ballooning"]}},
        format="json",
    )
    assert r.status_code == 400
    assert r.json()["errors"][0]["field"] == "campaign_rules.modules[0]"
    with_module = client.post(
        "/api/campaigns/",
        {"name": "Mod", "campaign_rules": {"modules": ["faction_relationships"]}},
        format="json",
    ).json()
    body = client.get(f"/api/campaigns/{with_module['id']}/settlement").json()
    assert body["modules"] == ["faction_relationships"]
