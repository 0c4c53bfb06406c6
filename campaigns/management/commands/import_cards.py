"""`manage.py import_cards PATH [--dry-run]`: load the game's card database into the catalogue.

Every entry is loaded or reported on one line (section, index, name, reason); the
summary gives the counts per section and how many loaded cards are fully automated.
Importing the same file twice changes nothing. `--dry-run` reports and rolls back.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from battles.engine.errors import InvalidInput
from campaigns.catalogue import cards_import


def read_card_database(path: Path) -> object:
    """The parsed JSON document at `path`; CommandError for a missing, unreadable or bad file."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise CommandError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CommandError(f"{path}: is a directory, not a card database file") from None
    except OSError as err:
        raise CommandError(f"{path}: cannot be read ({err.strerror or err})") from None
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise CommandError(f"{path}: not UTF-8 text, so not a JSON card database") from None
    except json.JSONDecodeError as err:
        raise CommandError(
            f"{path}: not JSON (line {err.lineno}, column {err.colno}: {err.msg})"
        ) from None


class Command(BaseCommand):
    help = "Import a card database file (the game's JSON format) into the card catalogue."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="the card database JSON file")
        parser.add_argument(
            "--dry-run", action="store_true", help="report what would load, then roll back"
        )
        parser.add_argument(
            "--source",
            default=None,
            help="the source recorded on the cards (default: the file's name)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["path"]
        document = read_card_database(path)
        source = options["source"] or path.name
        try:
            with transaction.atomic():
                report = cards_import(document=document, source=source)
                if options["dry_run"]:
                    transaction.set_rollback(True)
        except InvalidInput as err:
            raise CommandError(f"{path}: {err}") from None
        for line in report.lines():
            self.stdout.write(line)
        if options["dry_run"]:
            self.stdout.write("dry run: nothing was written")
