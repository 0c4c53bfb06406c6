"""The campaigns admin: staff only, changelists with search and filters, the card database
import page with its per-entry report, card edits through card_save, deck validity, and
CSV/JSON exports."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from battles.engine.demo import DEMO_DECKS
from campaigns.catalogue import card_rows_for, card_save, catalogue_load_demo
from campaigns.models import (
    BuildVersion,
    Card,
    CardVersion,
    CasketBuild,
    DeckEntry,
    OutcomeOutbox,
    Pilot,
)
from tests.campaigns.test_catalogue import DOCUMENT, JAB, deploy, jab

pytestmark = pytest.mark.django_db

CHANGELISTS = (
    "card",
    "cardversion",
    "buildversion",
    "casketbuild",
    "pilot",
    "campaign",
    "mission",
    "outcomeoutbox",
)


@pytest.fixture
def staff(django_user_model: type[User]) -> Client:
    user = django_user_model.objects.create_superuser(username="admin", password="x" * 12)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def member(django_user_model: type[User]) -> Client:
    user = django_user_model.objects.create_user(username="member", password="x" * 12)
    client = Client()
    client.force_login(user)
    return client


def url(model: str, view: str = "changelist", *args: Any) -> str:
    return reverse(f"admin:campaigns_{model}_{view}", args=args)


def deployed_demo_deck() -> BuildVersion:
    """The demo scout deck as a deployed build version (deck rows, a battle's deployment)."""
    catalogue_load_demo()
    rows = card_rows_for((card_id, n, None) for card_id, n in DEMO_DECKS["penitent-scout"])
    deployment = deploy([])
    build_version = deployment.build_version
    for i, (cv, n) in enumerate(rows):
        DeckEntry.objects.create(build_version=build_version, position=i, card_version=cv, count=n)
    return build_version


def action(client: Client, model: str, name: str, pks: list[Any]) -> Any:
    data = {"action": name, "_selected_action": [str(pk) for pk in pks]}
    return client.post(url(model), data)


# --- who gets in ---------------------------------------------------------------------------------


@pytest.mark.parametrize("model", CHANGELISTS)
def test_staff_see_every_changelist(staff: Client, model: str) -> None:
    deployed_demo_deck()
    response = staff.get(url(model))
    assert response.status_code == 200, model


@pytest.mark.parametrize("model", CHANGELISTS)
def test_a_user_who_is_not_staff_is_sent_to_the_login(member: Client, model: str) -> None:
    response = member.get(url(model))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_the_import_page_is_for_staff_only(member: Client, client: Client) -> None:
    for who in (member, client):
        response = who.get(url("card", "import"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))


def test_staff_without_card_permissions_cannot_import(django_user_model: type[User]) -> None:
    user = django_user_model.objects.create_user(username="clerk", is_staff=True)
    client = Client()
    client.force_login(user)
    assert client.get(url("card", "import")).status_code == 403


# --- cards ---------------------------------------------------------------------------------------


def test_the_card_changelist_links_the_import_page(staff: Client) -> None:
    response = staff.get(url("card"))
    assert url("card", "import") in response.content.decode()


def test_cards_filter_by_their_current_versions_kind_faction_and_automation(
    staff: Client,
) -> None:
    card_save(card_id="rust-tooth-jab", fields=JAB, source="t")
    card_save(
        card_id="hymn",
        fields={"name": "Hymn", "kind": "other", "sp_cost": 0, "text": "Sing.", "faction": ""},
        source="t",
    )

    def ids(query: str) -> list[str]:
        response = staff.get(url("card") + query)
        assert response.status_code == 200
        return [c.pk for c in response.context["cl"].result_list]

    assert ids("?kind=primary_weapon") == ["rust-tooth-jab"]
    assert ids("?faction=church") == ["rust-tooth-jab"]
    assert ids("?faction=-") == ["hymn"]
    assert ids("?automated=no") == ["hymn"]
    assert ids("?automated=yes") == ["rust-tooth-jab"]
    assert ids("?q=melee") == ["rust-tooth-jab"]  # a keyword
    assert ids("?q=hym") == ["hymn"]


def test_a_cards_page_lists_its_versions(staff: Client) -> None:
    v1, _ = card_save(card_id="rust-tooth-jab", fields=JAB, source="t")
    deploy([v1])
    card_save(card_id="rust-tooth-jab", fields=jab(sp_cost=2), source="errata")
    response = staff.get(url("card", "change", "rust-tooth-jab"))
    assert response.status_code == 200
    inline = response.context["inline_admin_formsets"][0]
    assert sorted(f.original.version for f in inline) == [1, 2]


def card_form(**changes: Any) -> dict[str, Any]:
    data = {
        **{k: v for k, v in JAB.items() if k not in ("keywords", "effects", "shield", "damage")},
        "keywords": "attack, melee",
        "effects": json.dumps(JAB["effects"]),
        "damage": JAB["damage"],
        "automated": "on",
        "source": "admin form",
        "versions-TOTAL_FORMS": "0",
        "versions-INITIAL_FORMS": "0",
        "versions-MIN_NUM_FORMS": "0",
        "versions-MAX_NUM_FORMS": "1000",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_staff_add_a_card_through_the_form(staff: Client) -> None:
    response = staff.post(url("card", "add"), card_form(id="rust-tooth-jab"))
    assert response.status_code == 302, response.context["adminform"].form.errors
    version = CardVersion.objects.get(card_id="rust-tooth-jab")
    assert (version.version, version.keywords, version.source) == (
        1,
        ["attack", "melee"],
        "admin form",
    )
    assert version.effects == JAB["effects"] and version.automated


def test_editing_a_used_card_in_the_admin_makes_a_new_version(staff: Client) -> None:
    v1, _ = card_save(card_id="rust-tooth-jab", fields=JAB, source="t")
    deploy([v1])
    data = card_form(sp_cost=2, **{"versions-TOTAL_FORMS": "1", "versions-INITIAL_FORMS": "1"})
    data["versions-0-id"] = str(v1.pk)
    data["versions-0-card"] = "rust-tooth-jab"
    response = staff.post(url("card", "change", "rust-tooth-jab"), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert list(
        CardVersion.objects.filter(card_id="rust-tooth-jab").values_list("version", "sp_cost")
    ) == [(1, 1), (2, 2)]
    assert Card.objects.get().current_version == 2


def test_a_bad_effect_in_the_admin_form_is_shown_on_its_field(staff: Client) -> None:
    data = card_form(id="rust-tooth-jab", effects=json.dumps([{"kind": "move", "hexes": 0}]))
    response = staff.post(url("card", "add"), data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "effects[0].hexes" in errors["effects"][0] and "R-TRN-5" in errors["effects"][0]
    assert not Card.objects.exists()


# --- the import page -----------------------------------------------------------------------------


def upload(content: bytes | str, name: str = "cards.json") -> SimpleUploadedFile:
    raw = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, raw, content_type="application/json")


def test_the_import_page_shows_its_form(staff: Client) -> None:
    response = staff.get(url("card", "import"))
    assert response.status_code == 200
    assert b'enctype="multipart/form-data"' in response.content


def test_importing_an_upload_shows_the_report_of_every_entry(staff: Client) -> None:
    response = staff.post(url("card", "import"), {"file": upload(json.dumps(DOCUMENT))})
    assert response.status_code == 200
    report = response.context["report"]
    assert (report.entries, report.loaded, report.source) == (7, 4, "cards.json")
    page = response.content.decode()
    assert "Tithe" in page and "is not a whole number of SP" in page
    assert "is loaded from church #0 (R-ADD-53)" in page
    assert "metadata, not cards" in page
    assert "4 created, 0 updated, 0 new_version, 0 unchanged" in page
    assert Card.objects.count() == 4


def test_a_dry_run_upload_reports_and_writes_nothing(staff: Client) -> None:
    data = {"file": upload(json.dumps(DOCUMENT)), "dry_run": "on"}
    response = staff.post(url("card", "import"), data)
    assert response.context["report"].loaded == 4
    assert "dry run" in response.content.decode()
    assert not Card.objects.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"universal": [', "not JSON"),
        (b"\xff\xfe\x00", "not UTF-8"),
        ("[1, 2]", "database: must be an object of sections"),
    ],
)
def test_an_upload_that_is_no_card_database_is_a_form_error(
    staff: Client, content: Any, message: str
) -> None:
    response = staff.post(url("card", "import"), {"file": upload(content)})
    assert response.status_code == 200
    assert response.context["report"] is None
    assert message in str(response.context["form"].errors["file"])
    assert not Card.objects.exists()


# --- exports -------------------------------------------------------------------------------------


def read_csv(response: Any) -> list[dict[str, str]]:
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_cards_export_as_csv_and_json(staff: Client) -> None:
    card_save(
        card_id="rust-tooth-jab",
        fields=jab(text="-1 Heat. Deal 2 damage.", automated=False),
        source="t",
    )
    response = action(staff, "card", "export_csv", ["rust-tooth-jab"])
    rows = read_csv(response)
    assert response["Content-Disposition"] == 'attachment; filename="cards.csv"'
    assert [(r["id"], r["version"], r["kind"]) for r in rows] == [
        ("rust-tooth-jab", "1", "primary_weapon")
    ]
    assert json.loads(rows[0]["effects"]) == JAB["effects"]
    assert rows[0]["text"] == "'-1 Heat. Deal 2 damage."  # no formula for spreadsheets

    response = action(staff, "card", "export_json", ["rust-tooth-jab"])
    assert response["Content-Type"] == "application/json"
    (row,) = response.json()
    assert row["text"] == "-1 Heat. Deal 2 damage." and row["keywords"] == ["attack", "melee"]


def test_card_versions_export_every_selected_version(staff: Client) -> None:
    v1, _ = card_save(card_id="rust-tooth-jab", fields=JAB, source="t")
    deploy([v1])
    v2, _ = card_save(card_id="rust-tooth-jab", fields=jab(sp_cost=2), source="t")
    response = action(staff, "cardversion", "export_json", [v1.pk, v2.pk])
    assert [(r["version"], r["sp_cost"]) for r in response.json()] == [(1, 1), (2, 2)]


def test_pilots_export_as_csv_and_json(staff: Client) -> None:
    deployed_demo_deck()
    pilot = Pilot.objects.get()
    rows = read_csv(action(staff, "pilot", "export_csv", [pilot.pk]))
    assert [(r["name"], r["player"], r["status"]) for r in rows] == [
        ("Sister Ashe", "player", "alive")
    ]
    (row,) = action(staff, "pilot", "export_json", [pilot.pk]).json()
    assert row["id"] == str(pilot.pk) and row["taint"] == 0


def test_builds_export_their_decks_and_validity(staff: Client) -> None:
    build_version = deployed_demo_deck()
    build = CasketBuild.objects.get()
    (row,) = action(staff, "casketbuild", "export_json", [build.pk]).json()
    assert row["deck_valid"] is True and row["deck_problems"] == []
    assert sum(r["count"] for r in row["deck"]) == 30
    rows = read_csv(action(staff, "buildversion", "export_csv", [build_version.pk]))
    assert rows[0]["deck_valid"] == "True" and len(json.loads(rows[0]["deck"])) > 1


# --- decks and the campaign side -----------------------------------------------------------------


def test_the_build_changelist_shows_whether_each_deck_is_valid(staff: Client) -> None:
    build_version = deployed_demo_deck()
    response = staff.get(url("buildversion"))
    assert 'alt="True"' in response.content.decode()
    entry = build_version.deck_entries.first()
    assert entry is not None
    entry.count += 1
    entry.save()
    response = staff.get(url("buildversion") + "?casket_class=scout")
    assert 'alt="False"' in response.content.decode()
    detail = staff.get(url("buildversion", "change", build_version.pk)).content.decode()
    assert "31 cards; a casket deck has exactly 30" in detail and "R-TRN-1" in detail


def test_the_campaign_side_is_read_only_in_the_admin(staff: Client) -> None:
    build_version = deployed_demo_deck()
    pilot = Pilot.objects.get()
    for model, pk in (
        ("pilot", pilot.pk),
        ("buildversion", build_version.pk),
        ("campaign", pilot.campaign_id),
    ):
        page = staff.get(url(model, "change", pk))
        assert page.status_code == 200
        assert page.context["has_change_permission"] is False
        assert staff.post(url(model, "change", pk), {}).status_code == 403
    assert staff.get(url("pilot", "add")).status_code == 403


def test_pilots_search_by_player_and_filter_by_status(staff: Client) -> None:
    deployed_demo_deck()
    assert len(staff.get(url("pilot") + "?q=player").context["cl"].result_list) == 1
    assert len(staff.get(url("pilot") + "?status=dead").context["cl"].result_list) == 0


def test_the_outbox_filters_pending_and_applied_rows(staff: Client) -> None:
    deployment = deployed_demo_deck().deployments.get()
    mission = deployment.mission
    OutcomeOutbox.objects.create(battle=mission.battle, mission=mission)
    assert len(staff.get(url("outcomeoutbox") + "?state=pending").context["cl"].result_list) == 1
    assert len(staff.get(url("outcomeoutbox") + "?state=applied").context["cl"].result_list) == 0


# --- equipment items and support units (issue 17) -------------------------------------------------

ITEMS_AND_UNITS: dict[str, Any] = {
    "equipment_items": [
        {
            "name": "DAGGER",
            "faction": "universal",
            "category": "Weapon",
            "weight": "Light",
            "craftingCost": "2 Scrap",
            "cards": [
                {
                    "name": "Stab",
                    "cost": 1,
                    "range": "Melee",
                    "type": "Attack",
                    "damage": 3,
                    "effect": "Deal 3 damage",
                },
                {"name": "Deflect", "cost": 0, "type": "Reactive", "effect": "Reduce damage by 1"},
            ],
        }
    ],
    "support_units": [
        {
            "name": "FLAGELLANT PACK",
            "faction": "church",
            "hp": 6,
            "movement": 4,
            "defense": 1,
            "theme": "Zealots",
            "behaviorCards": [
                {
                    "id": "church-flagellant-pack-frenzy",
                    "name": "FRENZY",
                    "type": "Attack",
                    "effect": "Move 4 hexes toward the nearest enemy and attack.",
                },
            ],
        }
    ],
}


def test_imported_items_and_units_are_listed_read_only_in_the_admin(staff: Client) -> None:
    upload = SimpleUploadedFile("units.json", json.dumps(ITEMS_AND_UNITS).encode())
    page = staff.post(url("card", "import"), {"file": upload}).content.decode()
    assert "1 equipment items, 1 support units" in page
    items = staff.get(url("equipmentitem")).content.decode()
    assert "DAGGER" in items
    units = staff.get(url("supportunit") + "?q=flagellant").content.decode()
    assert "FLAGELLANT PACK" in units
    assert staff.get(url("supportunit", "change", "church-flagellant-pack")).status_code == 200
    assert staff.post(url("equipmentitem", "change", "dagger"), {}).status_code == 403
    assert staff.get(url("supportunit", "add")).status_code == 403
