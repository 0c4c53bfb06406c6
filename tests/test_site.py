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


def test_favicon_ico_is_served_as_an_icon(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    # An ICO directory of one image whose data is a PNG.
    assert response.content[:4] == b"\x00\x00\x01\x00"
    assert b"\x89PNG" in response.content


@pytest.mark.django_db
def test_logging_out_lands_on_the_sites_own_page(client: Client) -> None:
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_user("leaving", password="x" * 12))
    response = client.post("/accounts/logout/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "You have logged out" in page
    assert 'class="site"' in page  # the site's header, not the admin's
    assert "Django administration" not in page
    assert client.get("/battles/").status_code == 302  # and the session is gone
