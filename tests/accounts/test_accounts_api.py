"""API sign-in (accounts/): a token for username and password, logout, and the login
lockout per username and per address, which holds while Redis is down."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from penance_site.accounts.models import ApiToken
from penance_site.accounts.tokens import digest_of

pytestmark = pytest.mark.django_db

DEAD_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
    }
}


@pytest.fixture
def ann(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user(username="ann", password="right-horse-42")


def token_for(username: str, password: str, address: str = "10.0.0.1") -> Any:
    body = json.dumps({"username": username, "password": password})
    return Client(REMOTE_ADDR=address).post(
        "/api/auth/token", data=body, content_type="application/json"
    )


def test_token_for_good_credentials_signs_in_api_requests(ann: User) -> None:
    response = token_for("ann", "right-horse-42")
    assert response.status_code == 200, response.content
    key = response.json()["token"]
    (stored,) = ApiToken.objects.filter(user=ann)
    assert stored.digest == digest_of(key) and key not in stored.digest  # only its digest
    assert Client().get("/api/campaigns/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200


def test_wrong_password_is_400_naming_the_password(ann: User) -> None:
    response = token_for("ann", "wrong")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["password"]
    assert not ApiToken.objects.filter(user=ann).exists()


# The username's own count slows it down (R-ADD-202): at 3 failures here, from 3 addresses.
@override_settings(PENANCE_LOGIN_MAX_FAILURES=3, PENANCE_LOGIN_USER_SLOW_AFTER=3)
def test_repeated_failures_lock_out_the_username_even_with_the_right_password(
    ann: User, django_user_model: type[User]
) -> None:
    django_user_model.objects.create_user(username="bob", password="other-horse-42")
    for n in range(3):
        assert token_for("ann", "wrong", address=f"10.0.0.{n}").status_code == 400
    locked = token_for("ann", "right-horse-42", address="10.9.9.9")
    assert locked.status_code == 429
    assert locked.json()["code"] == "locked_out"
    assert token_for("bob", "other-horse-42").status_code == 200  # others are unaffected
    # The site's own login form is locked too: it goes through the same backend.
    page = Client().post("/accounts/login/", {"username": "ann", "password": "right-horse-42"})
    assert page.status_code == 200 and "_auth_user_id" not in page.client.session


@override_settings(PENANCE_LOGIN_MAX_FAILURES_PER_ADDRESS=3)
def test_repeated_failures_from_one_address_lock_out_that_address(ann: User) -> None:
    for name in ("x1", "x2", "x3"):
        assert token_for(name, "guess", address="10.6.6.6").status_code == 400
    assert token_for("ann", "right-horse-42", address="10.6.6.6").status_code == 429
    assert token_for("ann", "right-horse-42", address="10.7.7.7").status_code == 200


# A minute's window, moved past by hand: a loaded machine can take a second between calls.
@override_settings(PENANCE_LOGIN_LOCKOUT_SECONDS=60, PENANCE_LOGIN_MAX_FAILURES=2)
def test_the_lockout_ends_after_its_window(ann: User) -> None:
    from datetime import timedelta

    from penance_site.accounts.models import LoginFailure

    token_for("ann", "wrong")
    token_for("ann", "wrong")
    assert token_for("ann", "right-horse-42").status_code == 429
    LoginFailure.objects.update(
        last_failure_at=LoginFailure.objects.first().last_failure_at - timedelta(seconds=65)
    )  # type: ignore[union-attr]
    assert token_for("ann", "right-horse-42").status_code == 200


@override_settings(CACHES=DEAD_CACHE, PENANCE_LOGIN_MAX_FAILURES=2)
def test_the_lockout_holds_while_redis_is_down(ann: User) -> None:
    token_for("ann", "wrong")
    token_for("ann", "wrong")
    assert token_for("ann", "right-horse-42").status_code == 429


def test_logout_with_a_token_deletes_the_token(ann: User) -> None:
    key = token_for("ann", "right-horse-42").json()["token"]
    auth = {"HTTP_AUTHORIZATION": f"Token {key}"}
    assert Client().post("/api/auth/logout", **auth).status_code == 204
    assert not ApiToken.objects.filter(digest=digest_of(key)).exists()
    assert Client().get("/api/campaigns/", **auth).status_code == 401


def test_logout_with_a_session_ends_the_session(ann: User) -> None:
    client = Client()
    client.force_login(ann)
    assert client.post("/api/auth/logout").status_code == 204
    assert client.get("/api/campaigns/").status_code == 401


def test_logout_needs_a_signed_in_user() -> None:
    response = Client().post("/api/auth/logout")
    assert response.status_code == 401
    assert set(response.json()) == {"code", "message", "rule"}


def test_no_password_reset_route_without_mail_configured(client: Client) -> None:
    assert client.get("/accounts/password_reset/").status_code == 404


def test_staff_see_api_tokens_without_keys_or_digests_and_may_revoke_one(
    ann: User, django_user_model: type[User]
) -> None:
    from penance_site.accounts.tokens import api_token_create

    token, key = api_token_create(user=ann, name="table laptop")
    staff = django_user_model.objects.create_user(username="root", is_staff=True)
    staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    listing = client.get("/admin/accounts/apitoken/").content.decode()
    assert "table laptop" in listing and key not in listing and token.digest not in listing
    page = client.get(f"/admin/accounts/apitoken/{token.pk}/change/").content.decode()
    assert key not in page and token.digest not in page
    assert client.get("/admin/accounts/apitoken/add/").status_code == 403
    assert client.get("/admin/authtoken/tokenproxy/").status_code == 404
    client.post(f"/admin/accounts/apitoken/{token.pk}/delete/", {"post": "yes"})
    assert not ApiToken.objects.filter(pk=token.pk).exists()


def test_at_the_token_limit_a_sign_in_revokes_the_oldest_unused_and_says_so(ann: User) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from penance_site.accounts.tokens import MAX_TOKENS, api_token_create

    made = [api_token_create(user=ann, name=f"tool {n}")[0] for n in range(MAX_TOKENS)]
    now = timezone.now()
    # All used but two; the older of the two unused goes first.
    for n, token in enumerate(made):
        if n not in (7, 30):
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now - timedelta(hours=n))
    response = token_for("ann", "right-horse-42")
    assert response.status_code == 200, response.content
    body = response.json()
    assert [t["name"] for t in body["revoked"]] == ["tool 7"]
    assert f"at most {MAX_TOKENS} API tokens" in body["message"] and "tool 7" in body["message"]
    assert ApiToken.objects.filter(user=ann).count() == MAX_TOKENS
    assert not ApiToken.objects.filter(pk=made[7].pk).exists()
    # Next: the other unused one; then, all used, the one used longest ago (tool 49).
    assert [t["name"] for t in token_for("ann", "right-horse-42").json()["revoked"]] == ["tool 30"]
    ApiToken.objects.filter(user=ann, last_used_at=None).update(last_used_at=now)
    assert [t["name"] for t in token_for("ann", "right-horse-42").json()["revoked"]] == ["tool 49"]
    assert ApiToken.objects.filter(user=ann).count() == MAX_TOKENS


def test_below_the_limit_a_sign_in_revokes_nothing(ann: User) -> None:
    body = token_for("ann", "right-horse-42").json()
    assert body["revoked"] == [] and "message" not in body
