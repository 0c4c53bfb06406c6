"""A demo campaign for tests: the demo card set, two players with a pilot and a build each,
and helpers to start a mission and play its battle to the end through the services."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from typing import Any

from django.contrib.auth import get_user_model
from django.test import TestCase

from battles.codec import BATTLE_EVENTS
from battles.engine.battle.autoplay import greedy_commands
from battles.engine.demo import DEMO_DECKS, demo_board
from battles.models import Battle
from battles.selectors import battle_state_at, battle_stream
from battles.services import battle_command_execute
from campaigns import services
from campaigns.catalogue import catalogue_load_demo
from campaigns.models import Campaign, CasketBuild, Mission, Pilot
from penance_site.eventstore.store import NewEvent, append

DEPLOY = ([0, -4], [0, 4])
FACINGS = (4, 1)


@dataclass
class DemoCampaign:
    campaign: Campaign
    gm: Any
    ann: Any
    bob: Any
    pilots: list[Pilot]
    builds: list[CasketBuild]


PLT_1 = {"version": "plt-1"}
PC_1 = {"version": "pc-1"}


def make_users(*names: str) -> list[Any]:
    model = get_user_model()
    return [model.objects.get_or_create(username=n)[0] for n in names]


def demo_campaign(
    *, rules: object = None, prefix: str = "", campaign_rules: object = PLT_1
) -> DemoCampaign:
    """Ann and Bob with a pilot and a build each; the campaign plays plt-1 (R-PLT-1…5, no
    settlement phase between missions) unless `campaign_rules` names pc-1 (R-ADD-230)."""
    gm, ann, bob = make_users(f"{prefix}gm", f"{prefix}ann", f"{prefix}bob")
    catalogue_load_demo()
    campaign = services.campaign_create(
        gm=gm, name="Ashes", rules=rules, campaign_rules=campaign_rules
    )
    pilots, builds = [], []
    specs = (
        (ann, "Sister Ophelia Vance", "penitent-scout", "scout", "left"),
        (bob, "Brother Malachai Thorne", "bastion-heavy", "heavy", "right"),
    )
    for user, pilot_name, deck, casket_class, shield in specs:
        services.campaign_player_add(campaign=campaign, actor=gm, username=user.username)
        pilots.append(
            services.pilot_enlist(
                campaign=campaign, actor=gm, player=user.username, name=pilot_name
            )
        )
        build, _ = services.build_revise(
            campaign=campaign,
            actor=user,
            build_id=None,
            name=deck.replace("-", " ").title(),
            casket_class=casket_class,
            shield=shield,
            deck=[{"card": c, "count": n} for c, n in DEMO_DECKS[deck]],
        )
        builds.append(build)
    campaign.refresh_from_db()
    return DemoCampaign(campaign, gm, ann, bob, pilots, builds)


def start_mission(dc: DemoCampaign, *, seed: int, name: str = "Mission") -> tuple[Mission, Battle]:
    mission = services.mission_plan(campaign=dc.campaign, actor=dc.gm, name=name)
    battle = services.mission_start(
        mission=mission,
        actor=dc.gm,
        board=demo_board(),
        dice={"mode": "digital", "seed": seed},
        policy="auto",
        seats=seats(dc),
    )
    mission.refresh_from_db()
    return mission, battle


def seats(dc: DemoCampaign) -> list[dict[str, Any]]:
    return [
        {
            "pilot": str(p.id),
            "build": str(b.id),
            "side": side,
            "at": at,
            "facing": facing,
        }
        for p, b, side, at, facing in zip(
            dc.pilots, dc.builds, ("penitents", "bastion"), DEPLOY, FACINGS, strict=True
        )
    ]


def fast_forward(battle: Battle, gm: Any, *, seed: int = 0, limit: int = 4000) -> int:
    """Play the battle with the greedy autoplayer in the engine and record every command
    but the last straight into the store, then send the last one (the one that ends the
    battle) through the command service, so the battle's final transaction is the real
    one. Returns the number of commands; fails when the battle does not end in `limit`."""
    before = battle_state_at(battle=battle)
    pending: list[NewEvent] = []
    stream = battle_stream(battle=battle)
    version = before.version

    def flush(n: int) -> None:
        append(
            stream=stream,
            expected_version=version,
            events=pending,
            command_id=f"ff-{battle.id.hex}-{n}",
            metadata={"actor": gm.username, "adjustment": False},
        )

    for n, (body, events, after) in enumerate(islice(greedy_commands(before, seed=seed), limit)):
        if after.over:
            if pending:
                flush(n)
            battle_command_execute(
                battle=battle,
                actor=gm,
                command_id=f"t-{battle.id.hex}-{n}",
                expected_version=before.version,
                body=body,
            )
            return n + 1
        if len(pending) + len(events) > 900:
            flush(n)
            version += len(pending)
            pending = []
        pending.extend(_record(e) for e in events)
        before = after
    raise AssertionError(f"the battle did not end within {limit} commands")


def _record(event: Any) -> NewEvent:
    type_, schema_version, payload = BATTLE_EVENTS.to_record(event)
    return NewEvent(type_, payload, schema_version)


def finish(battle: Battle, gm: Any, *, seed: int = 0) -> int:
    """fast_forward to the end, then apply the outcome as the worker would.

    The send that the battle's final transaction schedules on commit is dropped: with
    REDIS_URL set it would reach a real broker that no worker in this test reads
    (tests/campaigns/test_outcome.py tests the send itself)."""
    with TestCase.captureOnCommitCallbacks(execute=False):
        commands = fast_forward(battle, gm, seed=seed)
    services.campaign_outcome_apply(battle_id=str(battle.id))
    return commands
