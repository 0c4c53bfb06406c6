"""`manage.py load_demo`: demo users (and, as later issues land, demo battles and a campaign).

Idempotent: running it twice changes nothing. The demo passwords are public,
so it refuses to run with DEBUG off unless told `--allow-production`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

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
