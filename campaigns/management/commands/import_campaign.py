"""`manage.py import_campaign FILE`: a campaign exported by another site
(`GET /api/campaigns/{id}/export`), checked whole and loaded, or refused with nothing
written, naming what failed (campaigns/portability.py, R-ADD-207)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from battles.engine.errors import InvalidInput
from campaigns.portability import campaign_import


class Command(BaseCommand):
    help = "Import a campaign export file (format penance-campaign/1)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file GET /api/campaigns/{id}/export gave")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            document = json.loads(path.read_bytes())
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise CommandError(
                f"{path}: not a JSON document ({exc}); nothing was imported"
            ) from None
        try:
            campaign = campaign_import(document=document)
        except InvalidInput as exc:
            rule = f" ({exc.rule})" if exc.rule else ""
            raise CommandError(
                f"{path}: refused, nothing was imported: {exc.field}: {exc.message}{rule}"
            ) from None
        self.stdout.write(f"imported campaign {campaign.name!r} ({campaign.id})")
