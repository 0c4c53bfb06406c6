"""The Content-Security-Policy on every response, and the endpoint its reports go to
(penance_site/csp_report.py, R-ADD-201)."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from penance_site import urls

ROOT = Path(__file__).resolve().parent.parent


def directives(header: str) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            parsed[words[0]] = words[1:]
    return parsed


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", ["/", "/rules/", "/accounts/login/", "/api/docs/", "/api/redoc/", "/admin/login/"]
)
def test_every_page_carries_the_strict_policy(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200
    policy = directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    if url == "/api/redoc/":
        # ReDoc alone writes styles as it renders: they carry a nonce (penance_site/urls.py).
        assert policy["style-src"][0] == "'self'"
        nonce, *hashes = policy["style-src"][1:]
        assert hashes == list(urls.REDOC_STYLE_HASHES)
        assert policy["worker-src"] == ["'self'", "blob:"]
        assert re.fullmatch(r"'nonce-[A-Za-z0-9+/=_-]{16,}'", nonce)
        assert nonce[7:-1] in response.content.decode()
    else:
        assert policy["style-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["report-uri"] == ["/csp-report/"]
    assert not any("unsafe" in v for values in policy.values() for v in values)


@pytest.mark.django_db
def test_api_answers_and_errors_carry_it_too(client: Client) -> None:
    for response in (client.get("/api/nothing-here"), client.get("/health/")):
        assert "frame-ancestors 'none'" in response["Content-Security-Policy"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/", "/", "/accounts/login/"])
def test_pages_have_no_inline_script_or_style(client: Client, url: str) -> None:
    html = client.get(url).content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline <script>"
    assert "<style" not in html
    assert not re.search(r"\sstyle=", html)


def test_no_template_has_inline_script_or_style() -> None:
    offenders = []
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        if re.search(r"<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=", text):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def _report(client: Client, body: bytes, **extra: str) -> int:
    response = client.post("/csp-report/", body, content_type="application/csp-report", **extra)
    return response.status_code


VIOLATION = json.dumps(
    {
        "csp-report": {
            "document-uri": "http://testserver/rules/",
            "violated-directive": "style-src-attr",
            "blocked-uri": "inline",
            "line-number": 12,
        }
    }
).encode()


@pytest.mark.django_db
def test_a_report_is_logged_as_a_warning_without_csrf(caplog: pytest.LogCaptureFixture) -> None:
    cache.clear()
    client = Client(enforce_csrf_checks=True)
    with caplog.at_level(logging.WARNING, logger="penance_site.csp"):
        assert _report(client, VIOLATION) == 204
    (record,) = [r for r in caplog.records if r.name == "penance_site.csp"]
    assert record.levelno == logging.WARNING
    assert "style-src-attr" in record.getMessage()
    assert "http://testserver/rules/" in record.getMessage()


@pytest.mark.django_db
@override_settings(PENANCE_CSP_REPORT_MAX_BYTES=1024)
def test_an_oversized_report_is_refused_unlogged(caplog: pytest.LogCaptureFixture) -> None:
    cache.clear()
    with caplog.at_level(logging.WARNING, logger="penance_site.csp"):
        assert _report(Client(), b"{" + b" " * 2000 + b"}") == 413
    assert not [r for r in caplog.records if r.name == "penance_site.csp"]


@pytest.mark.django_db
@override_settings(PENANCE_CSP_REPORTS_PER_MINUTE=3)
def test_reports_past_the_rate_limit_are_dropped_per_client(
    caplog: pytest.LogCaptureFixture,
) -> None:
    cache.clear()
    client = Client()
    with caplog.at_level(logging.WARNING, logger="penance_site.csp"):
        codes = [_report(client, VIOLATION, REMOTE_ADDR="203.0.113.5") for _ in range(5)]
        other = _report(client, VIOLATION, REMOTE_ADDR="203.0.113.6")
    assert codes == [204, 204, 204, 429, 429]
    assert other == 204
    assert len([r for r in caplog.records if r.name == "penance_site.csp"]) == 4


@pytest.mark.django_db
def test_the_report_endpoint_takes_only_post(client: Client) -> None:
    assert client.get("/csp-report/").status_code == 405
