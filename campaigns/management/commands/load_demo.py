"""`manage.py load_demo`: demo users, two demo battles, the demo card set and a demo campaign.

It lives in campaigns, the top of the dependency chain, because it loads both apps' demos.

Idempotent: running it twice changes nothing. The demo passwords are public,
so it refuses to run with DEBUG off unless told `--allow-production`.
"""

from __future__ import annotations

import random
from itertools import islice
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from battles.engine.battle import legal_actions
from battles.engine.battle.autoplay import choose, greedy_commands
from battles.engine.demo import DEMO_DECKS, demo_board, demo_setup
from battles.engine.errors import RuleViolation
from battles.selectors import battle_named, battle_state_at
from battles.services import battle_command_execute, battle_create
from campaigns import services as campaign_services
from campaigns.between import decide as between
from campaigns.catalogue import catalogue_load_demo, construction_available
from campaigns.models import Campaign, StarterDeck
from campaigns.selectors import campaign_state
from campaigns.settlement_services import settlement_step
from campaigns.starters import (
    DEMO_STARTERS,
    build_from_starter,
    starter_decks_load_demo,
    starter_name,
)

# name, seed, policy, most commands. Under ruleset 2.1 (the demo's) the greedy
# autoplayer ends seed 1 in a defeat after about 320 events; seed 54 runs long, and its
# first 269 commands make the 1,001-event battle the viewer's step time is measured on
# (docs/PERFORMANCE.md).
# The battle in progress that players join rolls sealed dice (R-ADD-45): no seed in its
# setup, a secret drawn at load and kept encrypted (R-ADD-206), revealed when it ends; its
# seed only drives the autoplayer's choices. The Long Vigil keeps its public seed: it is
# the viewer's benchmark (docs/PERFORMANCE.md), whose 1,001 events and 24 rounds must be
# the same on every load, which a fresh secret would not give.
DEMO_BATTLES = (
    ("Demo: The Ash Causeway (finished, replay)", 1, "auto", 3000),
    ("Demo: The Ash Causeway (in progress)", 4, "prompt", 60),
    ("Demo: The Long Vigil (1,000 events, in progress)", 54, "auto", 269),
)
SEALED = frozenset({"Demo: The Ash Causeway (in progress)"})

DEMO_USERS = (
    # username, password, staff/superuser
    ("admin", "penance-admin", True),
    ("gm", "penance-gm", False),
    ("player", "penance-player", False),
    ("player2", "penance-player2", False),
)
DEMO_CAMPAIGN = "Demo: The Penitent Road"
# Seed 9 under the greedy autoplayer and ruleset 2.1: the penitents win; Brother
# Malachai's casket is defeated and he keeps a severe wound into mission 2.
DEMO_MISSION_SEED = 9


# A battle row as battles.services made it: campaigns never import battles' models
# (tests/test_architecture.py), so its type is the services' own, unnamed here.
BattleRow = Any


class Command(BaseCommand):
    help = "Load the demo data (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="load demo users with public passwords even though DEBUG is off",
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["allow_production"]:
            raise CommandError(
                "load_demo creates users with public passwords; it runs only with "
                "DJANGO_DEBUG=1 (or pass --allow-production)"
            )
        user_model = get_user_model()
        for username, password, is_admin in DEMO_USERS:
            user, created = user_model.objects.get_or_create(
                username=username, defaults={"is_staff": is_admin, "is_superuser": is_admin}
            )
            if created:
                user.set_password(password)
                user.save()
            self.stdout.write(f"{'created' if created else 'kept'} user {username} / {password}")
        gm = user_model.objects.get(username="gm")
        for name, seed, policy, commands in DEMO_BATTLES:
            self._demo_battle(gm, name, seed, policy, commands)
        loaded = catalogue_load_demo()
        self.stdout.write(f"demo card set in the catalogue ({loaded} cards written)")
        starters = starter_decks_load_demo()
        self.stdout.write(f"{len(starters)} starter decks: {', '.join(s.name for s in starters)}")
        self._demo_campaign(gm)

    def _demo_campaign(self, gm: Any) -> None:
        """A campaign with two pilots and builds, mission 1 played to its end (its outcome
        applied: wounds kept), a third pilot and mission 2 planned."""
        campaign = Campaign.objects.filter(name=DEMO_CAMPAIGN, gm=gm).first()
        if campaign is not None:
            self.stdout.write(f"kept campaign {DEMO_CAMPAIGN!r} ({campaign.id})")
            return
        campaign = campaign_services.campaign_create(gm=gm, name=DEMO_CAMPAIGN)
        user_model = get_user_model()
        specs = (
            ("player", "Sister Ophelia Vance", "church", "penitent-scout", "scout", "left"),
            ("player2", "Brother Malachai Thorne", "church", "bastion-heavy", "heavy", "right"),
        )
        seats: list[dict[str, Any]] = []
        for (username, pilot_name, faction, deck, casket_class, shield), side, at, facing in zip(
            specs, ("penitents", "bastion"), ([0, -4], [0, 4]), (4, 1), strict=True
        ):
            player = user_model.objects.get(username=username)
            campaign_services.campaign_player_add(campaign=campaign, actor=gm, username=username)
            pilot = campaign_services.pilot_enlist(
                campaign=campaign, actor=gm, player=username, name=pilot_name, faction=faction
            )
            # Malachai's casket is destroyed in mission 1 (pc-1, R-ADD-352): his player
            # keeps a spare, outfitted freely before the first mission (R-ADD-350).
            made_builds = []
            for copy in ("", " (spare)") if seats else ("",):
                if construction_available():
                    # The card database is imported: the caskets are its starter decks,
                    # built from their equipment (R-ADD-52, R-ADD-220).
                    starter = StarterDeck.objects.get(
                        name=starter_name(*DEMO_STARTERS[len(seats)][:2])
                    )
                    made, _ = build_from_starter(
                        campaign=campaign,
                        actor=player,
                        starter=starter,
                        name=f"{starter.name}{copy}" if copy else "",
                        pilot=str(pilot.id),
                    )
                else:
                    made, _ = campaign_services.build_revise(
                        campaign=campaign,
                        actor=player,
                        build_id=None,
                        name=deck.replace("-", " ").title() + copy,
                        casket_class=casket_class,
                        shield=shield,
                        faction=faction,
                        deck=[{"card": card, "count": n} for card, n in DEMO_DECKS[deck]],
                        equipment=["Reliquary plating"],
                        pilot=str(pilot.id),
                    )
                made_builds.append(made)
            build = made_builds[0]
            seats.append(
                {
                    "pilot": str(pilot.id),
                    "build": str(build.id),
                    "side": side,
                    "at": at,
                    "facing": facing,
                }
            )
        mission = campaign_services.mission_plan(
            campaign=campaign, actor=gm, name="The Ash Causeway"
        )
        battle = campaign_services.mission_start(
            mission=mission,
            actor=gm,
            board=demo_board(),
            seats=seats,
            dice={"mode": "digital", "seed": DEMO_MISSION_SEED},
            policy="auto",
        )
        self._play(battle, gm, seed=0, commands=3000)
        # Applied here so the demo does not wait for a worker; the task sent on commit
        # then finds it applied (exactly once, R-PLT-5).
        campaign_services.campaign_outcome_apply(battle_id=str(battle.pk))
        campaign_services.pilot_enlist(
            campaign=campaign,
            actor=gm,
            player="player",
            name="Sister Maud Keel",
            faction="church",
        )
        self._settlement_phase(campaign, gm, str(mission.id))
        self.stdout.write(f"created campaign {DEMO_CAMPAIGN!r} ({campaign.id})")

    def _settlement_phase(self, campaign: Campaign, gm: Any, mission_id: str) -> None:
        """Mission 1's aftermath and its settlement phase (pc-1, docs/CAMPAIGNS.md): the
        server's sealed dice, a Market built, a rest, and mission 2 planned at the end."""
        state = campaign_state(campaign=campaign)
        malachai = next(p.id for p in state.pilots.values() if p.player == "player2")
        steps: tuple[between.BetweenCommand, ...] = (
            between.OpenPhase(mission_id, ""),
            between.ResolveCasualties(mission_id),
            between.ResolveRewards(
                mission_id, success=True, objectives=("primary",), enemies=(("minion", 2),)
            ),
            between.RollSalvage(mission_id),
            between.ResolvePilots(mission_id),
            between.CollectIncome(mission_id),
            between.RollEvent(mission_id),
            between.TakeAction(mission_id, player="player", action="build", detail="market"),
            between.TakeAction(mission_id, player="player2", action="rest", pilot_id=malachai),
            between.FinishActions(mission_id),
            between.PilotCare(mission_id),
            between.SelectMission(mission_id, name="The Drowned Chapel"),
        )
        for step in steps:
            try:
                settlement_step(campaign=campaign, actor=gm, command=step)
            except RuleViolation as refusal:
                # the sealed dice may leave the settlement short of the Market's cost
                if refusal.code != "unaffordable":
                    raise
                self.stdout.write(f"settlement phase: {refusal.message}")
        self.stdout.write("played mission 1's aftermath and settlement phase")

    def _demo_battle(self, gm: Any, name: str, seed: int, policy: str, commands: int) -> None:
        """A battle played through the command service by the greedy autoplayer: legal
        actions only, every event recorded as a real table's would be."""
        battle = battle_named(name=name, gm=gm)
        if battle is not None:
            self.stdout.write(f"kept battle {name!r} ({battle.id})")
            return
        sealed = name in SEALED
        setup = demo_setup(seed=None if sealed else seed, players=("gm", "player"))
        setup["name"] = name
        setup["policy"] = policy
        battle = battle_create(gm=gm, setup=setup)
        if sealed:
            state = self._play_sealed(battle, gm, seed=seed, commands=commands)
        else:
            state = self._play(battle, gm, seed=seed, commands=commands)
        outcome = f"won by {state.winner}" if state.over else f"round {state.round}, in progress"
        self.stdout.write(
            f"created battle {name!r} ({battle.id}): {state.version} events, {outcome}"
        )

    def _play_sealed(self, battle: BattleRow, gm: Any, *, seed: int, commands: int) -> Any:
        """The greedy autoplayer's choice on the stored state, one command at a time: the
        dice are sealed, so nobody (the autoplayer included) knows a roll before the
        command service decides it."""
        rng = random.Random(seed)
        state = battle_state_at(battle=battle)
        for i in range(commands):
            if state.over:
                break
            body = choose(state, list(legal_actions(state)), rng)
            result = self._send(battle, gm, i, state.version, body)
            state = result.state if result.state is not None else battle_state_at(battle=battle)
        return state

    @staticmethod
    def _send(battle: BattleRow, gm: Any, i: int, version: int, body: dict[str, Any]) -> Any:
        """The demo's i-th command to the battle, through the command service."""
        return battle_command_execute(
            battle=battle,
            actor=gm,
            command_id=f"demo-{battle.id}-{i}",
            expected_version=version,
            body=body,
        )

    def _play(self, battle: BattleRow, gm: Any, *, seed: int, commands: int) -> Any:
        """The greedy autoplayer's commands, each sent through the command service. The
        service decides it again on the stored state; the demo battles roll seeded dice
        (by seed and version), so it records the events the autoplayer saw."""
        state = battle_state_at(battle=battle)
        for i, (body, events, after) in enumerate(
            islice(greedy_commands(state, seed=seed), commands)
        ):
            result = self._send(battle, gm, i, state.version, body)
            if [e.type for e in result.events] != [e.type for e in events]:
                raise CommandError(f"battle {battle.id} left the autoplayer's line at {i}")
            state = after
        return state
