"""Proxies named, not guessed (R-ADD-200, R-ADD-202): the client address is REMOTE_ADDR
unless the request comes from a proxy named in PENANCE_TRUSTED_PROXIES; throttles and
login lockouts count that one address, and lock out a (username, address) pair."""

from __future__ import annotations

import ipaddress
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings

from battles import rules_api
from penance_site.client import client_address, client_address_from
from tests.test_settings import _start

pytestmark = pytest.mark.django_db

PROXY = "10.1.2.3"
TRUSTED = override_settings(PENANCE_TRUSTED_PROXIES=(ipaddress.ip_network("10.1.0.0/16"),))


@pytest.fixture
def ann(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user(username="ann", password="right-horse-42")


@pytest.fixture(autouse=True)
def fresh_cache() -> Any:
    cache.clear()
    yield
    cache.clear()


def token_for(username: str, password: str, address: str, forwarded: str | None = None) -> Any:
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    body = json.dumps({"username": username, "password": password})
    return Client(REMOTE_ADDR=address).post(
        "/api/auth/token", data=body, content_type="application/json", **extra
    )


def test_without_named_proxies_the_forwarded_header_is_ignored() -> None:
    request = RequestFactory().get("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="1.1.1.1")
    assert client_address(request) == "203.0.113.9"


def test_the_right_most_untrusted_entry_is_the_client() -> None:
    proxies = [ipaddress.ip_network("10.1.0.0/16"), ipaddress.ip_network("2001:db8::/32")]
    assert client_address_from(PROXY, "6.6.6.6, 198.51.100.7, 10.1.9.9", proxies) == (
        "198.51.100.7"
    )
    assert client_address_from("2001:db8::1", "[2001:db8::5]:443, 198.51.100.7", proxies) == (
        "198.51.100.7"
    )
    # Garbage a client wrote is never taken as an address; the proxy is then the client.
    assert client_address_from(PROXY, "not-an-address", proxies) == PROXY
    # An address outside the named networks is the client, even if it looks internal.
    assert client_address_from("10.2.0.1", "198.51.100.7", proxies) == "10.2.0.1"


@pytest.mark.parametrize("value", ["10.0.0.300", "proxy.example", "10.0.0.0/8,,", "10.0.0.0/33"])
def test_a_bad_proxy_setting_stops_start_up_naming_the_variable(value: str) -> None:
    result = _start({"PENANCE_TRUSTED_PROXIES": value})
    if value == "10.0.0.0/8,,":  # empty entries are skipped, as the blank default is
        assert result.returncode == 0, result.stderr
        return
    assert result.returncode != 0
    assert "PENANCE_TRUSTED_PROXIES" in result.stderr


def test_a_good_proxy_setting_is_read() -> None:
    result = _start(
        {"PENANCE_TRUSTED_PROXIES": "10.0.0.0/8, ::1"}, "settings.PENANCE_TRUSTED_PROXIES"
    )
    assert result.returncode == 0, result.stderr
    assert "10.0.0.0/8" in result.stdout and "::1/128" in result.stdout


@override_settings(PENANCE_LOGIN_MAX_FAILURES=3)
def test_a_spoofed_forwarded_for_from_an_untrusted_client_changes_nothing(ann: User) -> None:
    for n in range(3):
        spoof = f"198.51.100.{n}"
        assert token_for("ann", "wrong", "203.0.113.9", forwarded=spoof).status_code == 400
    locked = token_for("ann", "right-horse-42", "203.0.113.9", forwarded="198.51.100.77")
    assert locked.status_code == 429
    # The throttle too: a new X-Forwarded-For each time is still one client.
    rules_api.RulesAnonThrottle.THROTTLE_RATES = {"rules_anon": "3/minute"}
    try:
        client = Client(REMOTE_ADDR="203.0.113.9")
        codes = [
            client.get("/api/rules/", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code
            for n in range(4)
        ]
    finally:
        del rules_api.RulesAnonThrottle.THROTTLE_RATES
    assert codes == [200, 200, 200, 429]


@TRUSTED
def test_behind_a_trusted_proxy_two_clients_are_throttled_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rules_api.RulesAnonThrottle, "THROTTLE_RATES", {"rules_anon": "3/minute"})
    proxy = Client(REMOTE_ADDR=PROXY)

    def codes(forwarded: str, n: int) -> list[int]:
        return [
            proxy.get("/api/rules/", HTTP_X_FORWARDED_FOR=forwarded).status_code for _ in range(n)
        ]

    assert codes("198.51.100.7", 4) == [200, 200, 200, 429]
    # Another client behind the same proxy has its own count; a spoofed entry left of
    # the one the proxy wrote does not make the first client someone else.
    assert codes("198.51.100.8", 3) == [200, 200, 200]
    assert codes("6.6.6.6, 198.51.100.7", 1) == [429]


@TRUSTED
@override_settings(PENANCE_LOGIN_MAX_FAILURES=3)
def test_behind_a_trusted_proxy_two_clients_are_locked_out_apart(ann: User) -> None:
    for _ in range(3):
        assert token_for("ann", "wrong", PROXY, forwarded="198.51.100.7").status_code == 400
    locked = token_for("ann", "right-horse-42", PROXY, forwarded="198.51.100.7")
    assert locked.status_code == 429
    assert locked.json()["code"] == "locked_out"
    assert "locked for 15 minutes" in locked.json()["message"]
    assert 890 <= int(locked["Retry-After"]) <= 900
    # The same account from another client behind the same proxy signs in.
    assert token_for("ann", "right-horse-42", PROXY, forwarded="198.51.100.8").status_code == 200


@override_settings(PENANCE_LOGIN_MAX_FAILURES=3)
def test_the_lockout_says_the_same_whether_or_not_the_username_exists(ann: User) -> None:
    answers = []
    for name in ("ann", "nobody-by-this-name"):
        for _ in range(3):
            token_for(name, "wrong", "203.0.113.20")
        answers.append(token_for(name, "wrong", "203.0.113.20"))
    assert [a.status_code for a in answers] == [429, 429]
    assert answers[0].json() == answers[1].json()
    # The login form says it plainly too, naming the minutes.
    page = Client(REMOTE_ADDR="203.0.113.20").post(
        "/accounts/login/", {"username": "ann", "password": "right-horse-42"}
    )
    assert page.status_code == 200 and "_auth_user_id" not in page.client.session
    assert "locked for 15 minutes" in page.content.decode()
    # The same words for a username nobody has.
    errors = []
    for name in ("ann", "nobody-by-this-name"):
        form = Client(REMOTE_ADDR="203.0.113.20").post(
            "/accounts/login/", {"username": name, "password": "wrong"}
        )
        errors.append(form.context["form"].non_field_errors())
    assert errors[0] == errors[1] and "locked for 15 minutes" in errors[0][0]


@override_settings(PENANCE_LOGIN_MAX_FAILURES=100, PENANCE_LOGIN_USER_SLOW_AFTER=4)
def test_many_addresses_failing_for_one_username_slow_it_down_rather_than_lock_it(
    ann: User,
) -> None:
    from datetime import timedelta

    from penance_site.accounts.models import LoginFailure

    for n in range(4):
        assert token_for("ann", "wrong", f"203.0.113.{n}").status_code == 400
    slowed = token_for("ann", "right-horse-42", "198.51.100.50")
    assert slowed.status_code == 429
    assert 1 <= int(slowed["Retry-After"]) <= 30
    assert "try again in" in slowed.json()["message"]
    # Once the short wait has passed, the right password works from anywhere.
    LoginFailure.objects.filter(kind="user").update(
        last_failure_at=LoginFailure.objects.get(kind="user").last_failure_at
        - timedelta(seconds=31)
    )
    assert token_for("ann", "right-horse-42", "198.51.100.50").status_code == 200
