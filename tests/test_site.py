"""The site's own pages: home, health and the OpenAPI schema."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db
def test_health_reports_database_vendor(client: Client) -> None:
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json()["ok"] is True


@pytest.mark.django_db
def test_home_page_renders(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert b"Penance Tracker" in response.content


@pytest.mark.django_db
def test_openapi_schema_and_docs_are_served(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert schema.json()["info"]["title"] == "Penance Tracker API"
    assert client.get("/api/docs/").status_code == 200
