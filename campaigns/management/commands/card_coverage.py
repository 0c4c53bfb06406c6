"""`manage.py card_coverage PATH [--output docs/CARDS.md] [--dry-run]`: the coverage report.

Imports the card database into the catalogue (as `import_cards`; `--dry-run` rolls the
import back), then writes the per-faction coverage table (loaded deck cards, fully
automated, manual), every manual card with its reason and every entry not loaded
(battles/engine/carddata/coverage.py). With `--output`, the tables replace what stands between
the file's `<!-- coverage:start -->` and `<!-- coverage:end -->` markers; without it
they are printed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from battles.engine.carddata.carddb import read_database
from battles.engine.carddata.coverage import coverage_markdown
from battles.engine.errors import InvalidInput
from campaigns.catalogue import cards_import

from .import_cards import read_card_database

START = "<!-- coverage:start -->"
END = "<!-- coverage:end -->"


def replace_between_markers(text: str, tables: str) -> str:
    """`text` with the tables between its coverage markers; ValueError without them."""
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"no {START} … {END} markers")
    return text[: start + len(START)] + "\n" + tables + text[end:]


class Command(BaseCommand):
    help = "Import the card database and write the coverage report (per faction) for CARDS.md."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="the card database JSON file")
        parser.add_argument("--output", type=Path, default=None, help="a file with the markers")
        parser.add_argument("--dry-run", action="store_true", help="roll the import back")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["path"]
        document = read_card_database(path)
        try:
            with transaction.atomic():
                report = cards_import(document=document, source=path.name)
                if options["dry_run"]:
                    transaction.set_rollback(True)
            read = read_database(document)
        except InvalidInput as err:
            raise CommandError(f"{path}: {err}") from None
        tables = coverage_markdown(read, source=path.name)
        output: Path | None = options["output"]
        if output is None:
            self.stdout.write(tables)
            return
        try:
            text = replace_between_markers(output.read_text(encoding="utf-8"), tables)
        except (OSError, ValueError) as err:
            raise CommandError(f"{output}: {err}") from None
        output.write_text(text, encoding="utf-8")
        self.stdout.write(
            f"{output}: coverage of {path.name} written ({report.loaded} cards loaded, "
            f"{read.automated} counted fully automated, R-ADD-275)"
        )
