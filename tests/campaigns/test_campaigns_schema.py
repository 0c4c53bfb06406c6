"""The campaigns API is in the OpenAPI schema (/api/schema/), and the schema generates
without a single warning."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from campaigns import urls as campaign_urls

pytestmark = pytest.mark.django_db

CAMPAIGN = "/api/campaigns/{campaign_id}"
PATHS = {
    "/api/campaigns/": {"get", "post"},
    f"{CAMPAIGN}/": {"get"},
    f"{CAMPAIGN}/events": {"get"},
    f"{CAMPAIGN}/export": {"get"},
    f"{CAMPAIGN}/players": {"post"},
    f"{CAMPAIGN}/missions": {"get", "post"},
    f"{CAMPAIGN}/missions/{{mission_id}}/": {"get"},
    f"{CAMPAIGN}/missions/{{mission_id}}/start": {"post"},
    f"{CAMPAIGN}/pilots": {"get", "post"},
    f"{CAMPAIGN}/pilots/{{pilot_id}}/": {"get"},
    f"{CAMPAIGN}/pilots/{{pilot_id}}/career": {"get"},
    f"{CAMPAIGN}/pilots/{{pilot_id}}/adjustments": {"post"},
    f"{CAMPAIGN}/builds": {"get", "post"},
    f"{CAMPAIGN}/builds/{{build_id}}/": {"get"},
    f"{CAMPAIGN}/builds/{{build_id}}/revisions": {"post"},
    f"{CAMPAIGN}/builds/{{build_id}}/versions/{{version}}/": {"get"},
    f"{CAMPAIGN}/builds/{{build_id}}/repair": {"post"},
    f"{CAMPAIGN}/builds/decklist": {"post"},
    f"{CAMPAIGN}/builds/{{build_id}}/decklist": {"get", "post"},
    f"{CAMPAIGN}/settlement": {"get"},
    f"{CAMPAIGN}/settlement/commands": {"post"},
    f"{CAMPAIGN}/settlement/dice": {"get"},
}


@pytest.fixture
def schema(django_user_model: Any) -> dict[str, Any]:
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_user(username="reader"))
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def test_every_campaigns_path_and_method_is_in_the_schema(schema: dict[str, Any]) -> None:
    campaign_paths = {p for p in schema["paths"] if p.startswith("/api/campaigns")}
    assert campaign_paths == set(PATHS)
    for path, methods in PATHS.items():
        operations = schema["paths"][path]
        assert set(operations) - {"parameters"} == methods, path
        for method in methods:
            assert operations[method]["tags"] == ["campaigns"]
            assert "401" in operations[method]["responses"], (path, method)


def test_the_table_above_covers_every_campaigns_route() -> None:
    """A route added to campaigns/urls.py without a line in PATHS fails here."""

    def routes(patterns: list[URLPattern | URLResolver]) -> set[str]:
        return {str(p.pattern) for p in patterns if str(p.pattern).startswith("campaigns")}

    documented = {
        p.removeprefix("/api/")
        .replace("{campaign_id}", "<uuid:campaign_id>")
        .replace("{mission_id}", "<uuid:mission_id>")
        .replace("{pilot_id}", "<uuid:pilot_id>")
        .replace("{build_id}", "<uuid:build_id>")
        .replace("{version}", "<int:version>")
        for p in PATHS
    }
    assert routes(campaign_urls.urlpatterns) == documented
    assert get_resolver().resolve("/api/campaigns/").url_name == "campaigns"


def test_writes_document_their_refusals(schema: dict[str, Any]) -> None:
    start = schema["paths"][f"{CAMPAIGN}/missions/{{mission_id}}/start"]["post"]
    assert {"201", "400", "401", "403", "404", "409", "422"} <= set(start["responses"])
    build = schema["paths"][f"{CAMPAIGN}/builds"]["post"]
    body = build["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    deck = schema["components"]["schemas"][body.rsplit("/", 1)[1]]["properties"]["deck"]
    assert deck["type"] == "array"


def test_the_schema_generates_without_warnings(tmp_path: Any) -> None:
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )
    text = (tmp_path / "schema.yml").read_text()
    assert "campaigns_missions_start" in text and "campaigns_builds_revise" in text
