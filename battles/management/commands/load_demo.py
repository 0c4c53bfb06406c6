"""`manage.py load_demo`: demo users and two demo battles (a campaign comes with issue 5).

Idempotent: running it twice changes nothing. The demo passwords are public,
so it refuses to run with DEBUG off unless told `--allow-production`.
"""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from battles.engine.battle import legal_actions
from battles.engine.battle.autoplay import choose
from battles.engine.demo import demo_setup
from battles.models import Battle
from battles.selectors import battle_state_at
from battles.services import battle_command_execute, battle_create

# name, seed, policy, most commands: seed 1 under the auto policy ends in round 47.
DEMO_BATTLES = (
    ("Demo: The Ash Causeway (finished, replay)", 1, "auto", 3000),
    ("Demo: The Ash Causeway (in progress)", 4, "prompt", 60),
)

DEMO_USERS = (
    # username, password, staff/superuser
    ("admin", "penance-admin", True),
    ("gm", "penance-gm", False),
    ("player", "penance-player", False),
)


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

    def _demo_battle(self, gm: Any, name: str, seed: int, policy: str, commands: int) -> None:
        """A battle played through the command service by the greedy autoplayer: legal
        actions only, every event recorded as a real table's would be."""
        battle = Battle.objects.filter(name=name, gm=gm).first()
        if battle is not None:
            self.stdout.write(f"kept battle {name!r} ({battle.id})")
            return
        setup = demo_setup(seed=seed, players=("gm", "player"))
        setup["name"] = name
        setup["policy"] = policy
        battle = battle_create(gm=gm, setup=setup)
        rng = random.Random(seed)
        state = battle_state_at(battle=battle)
        for i in range(commands):
            if state.over:
                break
            body = choose(state, list(legal_actions(state)), rng)
            battle_command_execute(
                battle=battle,
                actor=gm,
                command_id=f"demo-{battle.id}-{i}",
                expected_version=state.version,
                body=body,
            )
            state = battle_state_at(battle=battle)
        outcome = f"won by {state.winner}" if state.over else f"round {state.round}, in progress"
        self.stdout.write(
            f"created battle {name!r} ({battle.id}): {state.version} events, {outcome}"
        )
