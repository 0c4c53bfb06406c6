"""The site's own pages: home, health and the OpenAPI schema."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from penance_site import views

DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1: connections are refused


@pytest.mark.django_db
@override_settings(REDIS_URL=None)
def test_health_reports_database_ok_and_redis_not_configured(client: Client) -> None:
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "database": "ok", "redis": "not configured"}


@pytest.mark.django_db
@override_settings(REDIS_URL=DEAD_REDIS)
def test_health_reports_redis_down_with_200_while_the_database_answers(client: Client) -> None:
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "database": "ok", "redis": "down"}


@pytest.mark.django_db
def test_health_answers_503_when_the_database_is_down(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    class DeadConnection:
        def cursor(self) -> object:
            raise OSError("connection refused")

    monkeypatch.setattr(views, "connection", DeadConnection())
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["database"] == "down"


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
