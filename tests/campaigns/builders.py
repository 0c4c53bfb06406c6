"""A demo campaign for tests: the demo card set, two players with a pilot and a build each,
and helpers to start a mission and play its battle to the end through the services."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.test import TestCase

from battles.engine.battle import decide, legal_actions, parse_command, replay, to_record
from battles.engine.battle.autoplay import choose
from battles.engine.demo import DEMO_DECKS, demo_board
from battles.eventstore import NewEvent, append
from battles.models import Battle
from battles.selectors import battle_state_at, battle_stream
from battles.services import battle_command_execute
from campaigns import services
from campaigns.catalogue import catalogue_load_demo
from campaigns.models import Campaign, CasketBuild, Mission, Pilot

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


def make_users(*names: str) -> list[Any]:
    model = get_user_model()
    return [model.objects.get_or_create(username=n)[0] for n in names]


def demo_campaign(*, rules: object = None, prefix: str = "") -> DemoCampaign:
    gm, ann, bob = make_users(f"{prefix}gm", f"{prefix}ann", f"{prefix}bob")
    catalogue_load_demo()
    campaign = services.campaign_create(gm=gm, name="Ashes", rules=rules)
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


def play_to_end(battle: Battle, gm: Any, *, seed: int = 0, limit: int = 4000) -> int:
    """Play the battle with the greedy autoplayer through the command service until it ends
    (or `limit` commands); returns the commands sent."""
    rng = random.Random(seed)
    state = battle_state_at(battle=battle)
    sent = 0
    while not state.over and sent < limit:
        body = choose(state, list(legal_actions(state)), rng)
        battle_command_execute(
            battle=battle,
            actor=gm,
            command_id=f"t-{battle.id.hex}-{sent}",
            expected_version=state.version,
            body=body,
        )
        sent += 1
        state = battle_state_at(battle=battle)
    return sent


def fast_forward(battle: Battle, gm: Any, *, seed: int = 0, limit: int = 4000) -> int:
    """Play the battle with the greedy autoplayer in the engine and record every command
    but the last straight into the store, then send the last one (the one that ends the
    battle) through the command service, so the battle's final transaction is the real
    one. Returns the number of commands; fails when the battle does not end in `limit`."""
    rng = random.Random(seed)
    state = battle_state_at(battle=battle)
    pending: list[NewEvent] = []
    stream = battle_stream(battle=battle)
    version = state.version
    for n in range(limit):
        body = choose(state, list(legal_actions(state)), rng)
        events = decide(state, parse_command(body))
        after = replay(events, state)
        if after.over:
            if pending:
                append(
                    stream=stream,
                    expected_version=version,
                    events=pending,
                    command_id=f"ff-{battle.id.hex}-{n}",
                    metadata={"actor": gm.username, "adjustment": False},
                )
            battle_command_execute(
                battle=battle,
                actor=gm,
                command_id=f"t-{battle.id.hex}-{n}",
                expected_version=state.version,
                body=body,
            )
            return n + 1
        if len(pending) + len(events) > 900:
            append(
                stream=stream,
                expected_version=version,
                events=pending,
                command_id=f"ff-{battle.id.hex}-{n}",
                metadata={"actor": gm.username, "adjustment": False},
            )
            version += len(pending)
            pending = []
        pending.extend(NewEvent(*_record(e)) for e in events)
        state = after
    raise AssertionError(f"the battle did not end within {limit} commands")


def _record(event: Any) -> tuple[str, dict[str, Any], int]:
    type_, schema_version, payload = to_record(event)
    return type_, payload, schema_version


def finish(battle: Battle, gm: Any, *, seed: int = 0) -> int:
    """fast_forward to the end, then apply the outcome as the worker would.

    The send that the battle's final transaction schedules on commit is dropped: with
    REDIS_URL set it would reach a real broker that no worker in this test reads
    (tests/campaigns/test_outcome.py tests the send itself)."""
    with TestCase.captureOnCommitCallbacks(execute=False):
        commands = fast_forward(battle, gm, seed=seed)
    services.campaign_outcome_apply(battle_id=str(battle.id))
    return commands
