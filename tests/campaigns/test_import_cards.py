"""`manage.py import_cards`: the real card database (read from ../shared/data, never copied;
skipped where absent) and the command's handling of files."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from campaigns.catalogue import cards_import
from campaigns.models import Card, CardVersion, EquipmentItem, SupportUnit
from tests.campaigns.test_catalogue import DOCUMENT

pytestmark = pytest.mark.django_db

REAL_DB = Path(__file__).resolve().parents[3] / "shared/data/penance-card-database-v5.15b.json"


@pytest.fixture
def real_db() -> Any:
    if not REAL_DB.is_file():
        pytest.skip(f"the real card database is not at {REAL_DB}")
    return json.loads(REAL_DB.read_text(encoding="utf-8"))


def import_command(*args: str) -> str:
    out = StringIO()
    call_command("import_cards", *args, stdout=out)
    return out.getvalue()


def snapshot() -> list[dict[str, Any]]:
    return list(CardVersion.objects.order_by("pk").values()) + list(
        Card.objects.order_by("pk").values()
    )


# --- the real card database ----------------------------------------------------------------------


def entries_in_file(db: dict[str, Any]) -> dict[str, int]:
    """Every card-like entry of the file by report section, counted from the raw JSON."""
    counts: dict[str, int] = {}
    for section, value in db.items():
        if section in ("_meta", "special_cards"):
            continue
        if section == "equipment_items":
            counts[section] = sum(len(item["cards"]) for item in value)
        elif section == "support_units":
            counts[section] = sum(len(unit["behaviorCards"]) for unit in value)
        elif isinstance(value, dict):
            counts.update({f"{section}.{sub}": len(v) for sub, v in value.items() if v})
        elif value:
            counts[section] = len(value)
    return counts


def test_every_entry_of_the_real_database_loads_or_is_reported(real_db: Any) -> None:
    report = cards_import(document=real_db, source=REAL_DB.name)
    in_file = entries_in_file(real_db)
    assert set(report.sections) == set(in_file)
    for section, entries in in_file.items():
        counts = report.sections[section]
        assert counts.entries == entries, section
        assert counts.loaded + counts.reported + counts.referenced == entries, section
        assert counts.reported == sum(
            1 for r in report.reported if r.section == section and r.index is not None
        )
    assert report.loaded == CardVersion.objects.count() == Card.objects.count()
    # Issue 17: the equipment items' cards and the behaviour cards load too.
    assert report.sections["equipment_items"].loaded > 250
    assert report.sections["support_unit_behaviors"].loaded > 150
    assert CardVersion.objects.filter(kind="behaviour").count() > 150


def test_the_real_import_stores_every_equipment_item_and_support_unit(real_db: Any) -> None:
    report = cards_import(document=real_db, source=REAL_DB.name)
    assert report.items == EquipmentItem.objects.count() == len(real_db["equipment_items"])
    assert report.units == SupportUnit.objects.count() == len(real_db["support_units"])
    dagger = EquipmentItem.objects.get(pk="dagger")
    assert (dagger.slot, dagger.factions) == ("weapon", [])
    assert dagger.cards == [["dagger-stab", 1], ["dagger-deflect", 1], ["dagger-double-strike", 1]]
    stab = CardVersion.objects.get(card_id="dagger-stab")
    assert (stab.kind, stab.sp_cost, stab.damage) == ("primary_weapon", 1, 3)
    # An item listing one card twice brings two copies of one card.
    rounds = dict(EquipmentItem.objects.get(pk="armor-piercing-rounds").cards)
    assert rounds["armor-piercing-rounds-ap-shot"] == 2
    snare = SupportUnit.objects.get(pk="elves-thornvine-snare")
    assert snare.behaviour_cards == ["elves-thornvine-snare-root-and-drain"]
    assert CardVersion.objects.get(card_id=snare.behaviour_cards[0]).kind == "behaviour"
    for unit in SupportUnit.objects.all():
        assert set(unit.behaviour_cards) <= set(Card.objects.values_list("pk", flat=True))


def test_every_reported_entry_of_the_real_database_has_a_reason(real_db: Any) -> None:
    report = cards_import(document=real_db, source=REAL_DB.name)
    assert report.reported
    for line in report.reported:
        assert line.reason.strip(), line
        assert "\n" not in str(line)
    # The sections without cards are reported whole, once.
    assert {r.section for r in report.reported if r.index is None} == {"_meta", "special_cards"}


def test_ids_repeated_in_the_real_database_are_loaded_once_by_r_add_53(real_db: Any) -> None:
    report = cards_import(document=real_db, source=REAL_DB.name)
    duplicates = [r for r in report.reported if "(R-ADD-53)" in r.reason]
    assert len(duplicates) >= 70
    loaded_ids = set(Card.objects.values_list("pk", flat=True))
    for line in duplicates:
        card_id = line.reason.split("'")[1]
        assert card_id in loaded_ids
    # An equipment item's own card wins over the flat equipment list, and the report says
    # which fields differ.
    ember = next(r for r in duplicates if r.section == "equipment" and "'ember-strike'" in r.reason)
    assert "loaded from equipment_items #" in ember.reason
    assert "differs in damage, effect" in ember.reason
    assert CardVersion.objects.get(card_id="ember-strike").damage == 4  # the item's


def test_importing_the_real_database_twice_writes_nothing(real_db: Any) -> None:
    first = cards_import(document=real_db, source=REAL_DB.name)
    before = snapshot()
    second = cards_import(document=real_db, source=REAL_DB.name)
    assert dict(second.outcomes) == {"unchanged": first.loaded}
    assert second.written == 0
    assert snapshot() == before
    assert [str(r) for r in second.reported] == [str(r) for r in first.reported]


def test_the_real_import_counts_the_fully_automated_cards(real_db: Any) -> None:
    report = cards_import(document=real_db, source=REAL_DB.name)
    assert report.automated == CardVersion.objects.filter(automated=True).count()
    assert 0 < report.automated < report.loaded
    assert f"{report.automated} loaded cards fully automated" in report.summary_lines()[0]


def test_the_command_prints_every_reported_line_and_the_summary(real_db: Any) -> None:
    out = import_command(str(REAL_DB)).splitlines()
    # A second import reports the same lines and gives the counts the summary must show.
    again = cards_import(document=real_db, source=REAL_DB.name)
    assert out[: len(again.reported)] == [str(r) for r in again.reported]
    summary = out[len(again.reported)]
    assert summary.startswith(f"{again.entries} entries: {again.loaded} loaded")
    assert f"{again.automated} loaded cards fully automated" in summary
    for section, counts in again.sections.items():
        line = f"  {section}: {counts.entries} entries, {counts.loaded} loaded, "
        assert any(o.startswith(line) for o in out), section


# --- the command on files of its own -------------------------------------------------------------


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def test_the_command_imports_a_file_and_records_its_name_as_source(tmp_path: Path) -> None:
    path = write(tmp_path, "cards-v1.json", json.dumps(DOCUMENT))
    out = import_command(str(path))
    assert "church #1 'Tithe': cost '2 Faith tokens' is not a whole number of SP" in out
    assert "7 entries: 4 loaded (4 created" in out
    assert set(CardVersion.objects.values_list("source", flat=True)) == {"cards-v1.json"}
    again = import_command(str(path))
    assert "4 loaded (0 created, 0 updated, 0 new_version, 4 unchanged)" in again


def test_a_dry_run_reports_and_writes_nothing(tmp_path: Path) -> None:
    path = write(tmp_path, "cards.json", json.dumps(DOCUMENT))
    out = import_command(str(path), "--dry-run")
    assert "4 loaded (4 created" in out
    assert out.rstrip().endswith("dry run: nothing was written")
    assert not Card.objects.exists() and not CardVersion.objects.exists()


def test_a_missing_file_is_a_clear_command_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no such file"):
        import_command(str(tmp_path / "absent.json"))


def test_a_directory_is_a_clear_command_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="is a directory"):
        import_command(str(tmp_path))


def test_a_file_that_is_not_json_is_a_clear_command_error(tmp_path: Path) -> None:
    path = write(tmp_path, "cards.json", '{"universal": [')
    with pytest.raises(CommandError, match=r"not JSON \(line 1, column 16"):
        import_command(str(path))


def test_a_binary_file_is_a_clear_command_error(tmp_path: Path) -> None:
    path = write(tmp_path, "cards.json", b"\xff\xfe\x00garbage")
    with pytest.raises(CommandError, match="not UTF-8"):
        import_command(str(path))


def test_json_that_is_not_a_card_database_is_a_clear_command_error(tmp_path: Path) -> None:
    path = write(tmp_path, "cards.json", "[1, 2, 3]")
    with pytest.raises(CommandError, match="database: must be an object of sections"):
        import_command(str(path))
    assert not Card.objects.exists()


# --- manage.py card_coverage (issue 17) ---------------------------------------------------------


def test_card_coverage_imports_and_writes_the_tables_between_the_markers(tmp_path: Path) -> None:
    path = write(tmp_path, "cards.json", json.dumps(DOCUMENT))
    doc = write(
        tmp_path, "CARDS.md", "# Cards\n<!-- coverage:start -->\nold\n<!-- coverage:end -->\nend\n"
    )
    out = StringIO()
    call_command("card_coverage", str(path), "--output", str(doc), stdout=out)
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("# Cards\n<!-- coverage:start -->\nDatabase `cards.json`")
    assert "old" not in text and text.endswith("<!-- coverage:end -->\nend\n")
    assert "| church |" in text and "church #1 Tithe | cost '2 Faith tokens'" in text
    assert Card.objects.count() == 4  # imported
    assert "coverage of cards.json written (4 cards loaded" in out.getvalue()


def test_card_coverage_without_markers_is_a_clear_command_error(tmp_path: Path) -> None:
    path = write(tmp_path, "cards.json", json.dumps(DOCUMENT))
    doc = write(tmp_path, "CARDS.md", "# no markers\n")
    with pytest.raises(CommandError, match="no <!-- coverage:start -->"):
        call_command("card_coverage", str(path), "--output", str(doc), stdout=StringIO())
    assert doc.read_text(encoding="utf-8") == "# no markers\n"


def test_card_coverage_dry_run_prints_the_tables_and_writes_nothing(tmp_path: Path) -> None:
    path = write(tmp_path, "cards.json", json.dumps(DOCUMENT))
    out = StringIO()
    call_command("card_coverage", str(path), "--dry-run", stdout=out)
    assert "| faction | loaded deck cards | fully automated | manual |" in out.getvalue()
    assert not Card.objects.exists()
