"""A pc-1 campaign of six missions played whole through the services: every battle by the
bot's choices through the battle command service (sealed dice, the Grit check on,
R-ADD-305), its outcome applied once, and every step of the settlement phase between
missions (R-ADD-249). The ledger, every pilot's Grit, scars and injuries, and every roll
equal a fresh fold of the campaign's events, recounted here from the events themselves;
replaying the exported events gives the same campaign (R-PLT-5, R-ADD-248)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from django.test import TestCase

from battles.bots import bot_command_body
from battles.engine.demo import demo_board
from battles.selectors import battle_state_at, battle_verify
from battles.services import battle_command_execute
from campaigns import domain, services
from campaigns.between import decide as between
from campaigns.between import ledger as lg
from campaigns.between.rulebook import rulebook
from campaigns.codec import CAMPAIGN_EVENTS
from campaigns.models import Mission
from campaigns.portability import campaign_export
from campaigns.selectors import campaign_state
from campaigns.settlement_services import settlement_dice_check, settlement_step
from tests.campaigns.builders import DEPLOY, FACINGS, PC_1, DemoCampaign, demo_campaign

pytestmark = pytest.mark.django_db

MISSIONS = 6
# The round limit (R-TRN-9c) ends a battle the two bots would play for ever: with the
# sealed dice every run takes its own path, and a rare one leaves both caskets with nothing
# that reaches the other (seen once in 3,000 commands).
GRIT_RULES = {"options": {"grit_checks": True, "round_limit": 40}}
COMMAND_LIMIT = 3000
MEMORIAL = int(rulebook("pc-1").rules["death"]["memorial"]["credits"])  # R-ADD-237


def _step(dc: DemoCampaign, command: between.BetweenCommand) -> domain.CampaignState:
    state, _, _ = settlement_step(campaign=dc.campaign, actor=dc.gm, command=command)
    # The state a step answers, evolved from the state before it, is the fresh fold.
    assert state == campaign_state(campaign=dc.campaign)
    return state


def _deployable(state: domain.CampaignState, mission_number: int) -> list[str]:
    ledger = state.settlement
    return [
        p.id
        for p in state.pilots.values()
        if p.status == domain.ALIVE
        and ledger.pilot(p.id).morale >= 0
        and ledger.pilot(p.id).out_for_mission != mission_number
    ]


def _seats(dc: DemoCampaign, state: domain.CampaignState, number: int) -> list[dict[str, Any]]:
    """One seat per player: the player's first deployable pilot, else a recruit enlisted
    now, each with a build of its own (R-ADD-220)."""
    seats = []
    ready = _deployable(state, number)
    for i, (user, side) in enumerate(((dc.ann, "penitents"), (dc.bob, "bastion"))):
        pilot_id = next((p for p in ready if state.pilots[p].player == user.username), None)
        if pilot_id is None:
            pilot = services.pilot_enlist(
                campaign=dc.campaign, actor=dc.gm, player=user.username, name=f"Recruit {number}"
            )
            pilot_id = str(pilot.id)
        state = campaign_state(campaign=dc.campaign)
        # A casket defeated in a mission is destroyed under pc-1 (R-ADD-352): the pilot
        # takes a new one rather than the Workshop's retrofit, which the demo cannot afford.
        build = next(
            (b for b in state.builds.values() if b.pilot_id == pilot_id and not b.destroyed),
            None,
        )
        if build is None:
            template = state.builds[str(dc.builds[i].id)].current
            row, _ = services.build_revise(
                campaign=dc.campaign,
                actor=dc.gm,
                build_id=None,
                name=f"{template.name} {number}",
                casket_class=template.casket_class,
                shield=template.shield,
                deck=[{"card": c, "count": n} for c, _, n in template.deck],
                player=user.username,
                pilot=pilot_id,
            )
            build_id = str(row.id)
        else:
            build_id = build.id
        seats.append(
            {
                "pilot": pilot_id,
                "build": build_id,
                "side": side,
                "at": DEPLOY[i],
                "facing": FACINGS[i],
            }
        )
    return seats


def _play_battle(dc: DemoCampaign, battle: Any) -> int:
    """Every command the bot chooses for both seats, through the command service."""
    state = battle_state_at(battle=battle)
    everyone = frozenset(c.seat for c in state.seats)
    for n in range(COMMAND_LIMIT):
        body = bot_command_body(state, everyone)
        if body is None:  # a stalemate (R-ADD-40): the GM ends it (R-TRN-9)
            body = {"type": "end_battle", "seat": 0, "side": None, "reason": "stalemate"}
        with TestCase.captureOnCommitCallbacks(execute=False):
            result = battle_command_execute(
                battle=battle,
                actor=dc.gm,
                command_id=f"six-{battle.id.hex}-{n}",
                expected_version=state.version,
                body=body,
            )
        state = battle_state_at(battle=battle, version=result.version)
        if state.over:
            return n + 1
    raise AssertionError(
        f"the battle did not end in {COMMAND_LIMIT} commands (round {state.round}, "
        f"prompts open: {state.prompts!r})"
    )


def _phase(dc: DemoCampaign, mission: domain.MissionState, number: int) -> domain.CampaignState:
    mid = mission.id
    state = _step(dc, between.OpenPhase(mid, ""))
    # A memorial for the dead, when anyone died and the settlement can pay (R-ADD-237).
    dead = any(state.pilots[pilot].status == domain.DEAD for _, pilot, _, _ in mission.deployments)
    memorial = dead and state.settlement.credits >= MEMORIAL
    state = _step(dc, between.ResolveCasualties(mid, memorial=memorial))
    won = mission.winner == "penitents"
    state = _step(
        dc,
        between.ResolveRewards(
            mid, success=won, objectives=("primary",) if won else (), enemies=(("elite", 1),)
        ),
    )
    state = _step(dc, between.RollSalvage(mid))
    # A 20 on a scar table is the player's choice: named in advance for every pilot.
    choices = tuple((p, "iron-jaw") for p in state.pilots)
    state = _step(dc, between.ResolvePilots(mid, scar_choices=choices))
    state = _step(dc, between.CollectIncome(mid))
    state = _step(dc, between.RollEvent(mid))
    for user in (dc.ann, dc.bob):
        state = _step(dc, between.TakeAction(mid, player=user.username, action="scavenge"))
        # Rest: +1 Morale for the player's living pilot lowest in Morale (R-ADD-241).
        living = [
            p.id
            for p in state.pilots.values()
            if p.player == user.username and p.status == domain.ALIVE
        ]
        if living:
            tired = min(living, key=lambda p: state.settlement.pilot(p).morale)
            rest = between.TakeAction(mid, player=user.username, action="rest", pilot_id=tired)
            state = _step(dc, rest)
    state = _step(dc, between.FinishActions(mid))
    state = _step(dc, between.PilotCare(mid))
    if number < MISSIONS:
        state = _step(dc, between.OfferMissions(mid, count=2))
        offer_id = state.settlement.phase(mid).offers[0][0]
        state = _step(dc, between.SelectMission(mid, offer=offer_id))
    else:
        state = _step(dc, between.SelectMission(mid, name="The Long Road Home"))
    return state


def _recount(state: domain.CampaignState, events: list[domain.Event]) -> dict[str, Any]:
    """What the events themselves say, counted here without the fold: per pilot the
    missions completed, severe wounds kept, scars and minor injuries; the rolls."""
    completed = {e.mission_id for e in events if isinstance(e, domain.MissionCompleted)}
    deployed: Counter[str] = Counter()
    severe: Counter[str] = Counter()
    scars: dict[str, list[str]] = {p: [] for p in state.pilots}
    injuries: dict[str, list[str]] = {p: [] for p in state.pilots}
    overrides: dict[str, int | None] = {}
    for e in events:
        if isinstance(e, domain.MissionStarted) and e.mission_id in completed:
            deployed.update(pilot for _, pilot, _, _ in e.deployments)
        elif isinstance(e, domain.PilotWounded) and e.kind == "severe":
            severe[e.pilot_id] += 1
        elif isinstance(e, (domain.ScarGained, lg.ScarTaken)):
            scars[e.pilot_id].append(e.scar)
        elif isinstance(e, lg.PilotInjured):
            injuries[e.pilot_id].append(e.injury)
        elif isinstance(e, lg.InjuryChanged) and e.kind == "minor":
            injuries[e.pilot_id].remove(e.injury)
        elif isinstance(e, lg.InjuryChanged) and e.change == "downgraded":
            injuries[e.pilot_id].append(e.injury)
        elif isinstance(e, lg.GritOverridden):
            overrides[e.pilot_id] = None if e.grit < 0 else e.grit
    rules = rulebook("pc-1").rules["grit"]

    def ladder(pairs: Any, n: int) -> int:
        return max((level for at, level in pairs if n >= at), default=0)

    grit = {}
    for p, pilot in state.pilots.items():
        recorded = max(ladder(rules["missions"], deployed[p]), ladder(rules["severe"], severe[p]))
        recorded = min(3, recorded + rules["faction_start"].get(pilot.faction, 0))
        grit[p] = overrides[p] if overrides.get(p) is not None else recorded
    rolls = [e for e in events if isinstance(e, lg.RollMade)]
    return {"grit": grit, "scars": scars, "injuries": injuries, "rolls": rolls}


def test_six_missions_with_every_phase_fold_and_replay_to_the_same_campaign() -> None:
    dc = demo_campaign(campaign_rules=PC_1, rules=GRIT_RULES)
    row = services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="The Ash Causeway")
    battles = []
    for number in range(1, MISSIONS + 1):
        state = campaign_state(campaign=dc.campaign)
        mission = state.missions[-1]
        assert (mission.number, mission.status) == (number, "planned")
        row = Mission.objects.get(id=mission.id)
        battle = services.mission_start(
            mission=row,
            actor=dc.gm,
            board=demo_board(),
            policy="auto",
            seats=_seats(dc, state, number),
        )
        _play_battle(dc, battle)
        assert services.campaign_outcome_apply(battle_id=str(battle.id))
        assert not services.campaign_outcome_apply(battle_id=str(battle.id))  # once (R-PLT-5)
        battles.append(battle)
        state = campaign_state(campaign=dc.campaign)
        _phase(dc, state.mission(mission.id), number)

    state = campaign_state(campaign=dc.campaign)
    ledger = state.settlement
    assert [m.status for m in state.missions] == ["completed"] * MISSIONS + ["planned"]
    assert [p.closed for p in ledger.phases] == [True] * MISSIONS
    # Every battle's sealed dice verify, the Grit checks among them (R-ADD-45, R-ADD-305).
    for battle in battles:
        assert battle_verify(battle=battle).dice.status == "verified"
    # Every sealed settlement roll derives again from its phase's secret (R-ADD-248).
    assert settlement_dice_check(campaign=dc.campaign) == []
    assert services.campaign_rows_check(campaign=dc.campaign) == []

    # The events, exported, replay to the same campaign.
    document = json.loads(json.dumps(campaign_export(campaign=dc.campaign)))
    events = [
        CAMPAIGN_EVENTS.decode_record(e["type"], e["schema_version"], e["payload"])
        for e in document["events"]
    ]
    assert domain.replay(events) == state

    # The ledger's pilots, Grit, scars, injuries and rolls as the events say them.
    counted = _recount(state, events)
    for pilot_id in state.pilots:
        assert between.grit(state, pilot_id).value == counted["grit"][pilot_id], pilot_id
        record = ledger.pilot(pilot_id)
        kept = [*state.pilots[pilot_id].scars]
        assert sorted(kept) == sorted(counted["scars"][pilot_id]), pilot_id
        assert sorted(record.injuries) == sorted(counted["injuries"][pilot_id]), pilot_id
    assert len(ledger.rolls) == len(counted["rolls"]) > 0
    assert [r.total for r in ledger.rolls] == [e.total for e in counted["rolls"]]
    # The campaign went somewhere: missions completed by its pilots, and dice rolled in
    # every phase.
    assert max(between.grit(state, p).missions for p in state.pilots) >= 3
    assert {r.scope for r in ledger.rolls} == {f"phase-{n}" for n in range(1, MISSIONS + 1)}
