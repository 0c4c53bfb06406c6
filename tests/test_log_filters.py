"""403 and 404 are logged at INFO without a traceback; other 4xx stay warnings
(penance_site/log_filters.py)."""

from __future__ import annotations

import logging
import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db


def _request_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "django.request"]


def test_a_404_page_and_a_403_api_answer_are_info_without_a_traceback(
    caplog: pytest.LogCaptureFixture, django_user_model: type[User]
) -> None:
    from campaigns import services

    gm = django_user_model.objects.create_user(username="gm")
    outsider = django_user_model.objects.create_user(username="outsider")
    player = django_user_model.objects.create_user(username="player")
    campaign = services.campaign_create(gm=gm, name="Ashes")
    services.campaign_player_add(campaign=campaign, actor=gm, username="player")
    client = Client()
    with caplog.at_level(logging.INFO, logger="django.request"):
        assert client.get("/no-such-page/").status_code == 404
        # A player adding a player: only the GM does (R-ADD-31).
        client.force_login(player)
        body = '{"username": "outsider"}'
        url = f"/api/campaigns/{campaign.id}/players"
        assert client.post(url, body, content_type="application/json").status_code == 403
        client.force_login(outsider)
        assert client.get(f"/campaigns/{uuid.uuid4()}/").status_code == 404
        assert client.get(f"/api/campaigns/{uuid.uuid4()}").status_code == 404
    records = _request_records(caplog)
    quiet = [r for r in records if getattr(r, "status_code", None) in (403, 404)]
    assert sorted(r.status_code for r in quiet) == [403, 404, 404, 404], [  # type: ignore[attr-defined]
        r.getMessage() for r in records
    ]
    assert all(r.levelno == logging.INFO and r.exc_info is None for r in quiet)


def test_a_page_refused_by_permission_denied_is_info_without_a_traceback(
    caplog: pytest.LogCaptureFixture, django_user_model: type[User]
) -> None:
    """A raised PermissionDenied is what Django logs with its traceback: an outsider
    opening a battle's page (they are not its GM, a player or a watcher)."""
    from battles.engine.demo import demo_setup
    from battles.services import battle_create

    gm = django_user_model.objects.create_user(username="gm")
    django_user_model.objects.create_user(username="player")
    outsider = django_user_model.objects.create_user(username="outsider")
    battle = battle_create(gm=gm, setup=demo_setup(seed=3, players=("gm", "player")))
    client = Client()
    client.force_login(outsider)
    with caplog.at_level(logging.INFO, logger="django.request"):
        assert client.get(f"/battles/{battle.pk}/replay/").status_code == 403
    (record,) = _request_records(caplog)
    assert (record.status_code, record.levelno, record.exc_info) == (403, logging.INFO, None)  # type: ignore[attr-defined]


def test_a_refusal_is_not_logged_where_info_is_not_wanted(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert Client().get("/no-such-page/").status_code == 404
    assert _request_records(caplog) == []


def test_other_client_errors_stay_warnings(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="django.request"):
        assert Client().get("/csp-report/").status_code == 405
    (record,) = _request_records(caplog)
    assert record.levelno == logging.WARNING
