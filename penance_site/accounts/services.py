"""Login lockout (R-ADD-202): failures are counted per (username, client address) pair, so
one address guessing a password locks that pair out, not the account for everyone. Two
wider counts stop a spray: one address failing for many usernames is locked out, and one
username failing from many addresses is slowed (one attempt per
PENANCE_LOGIN_USER_SLOW_SECONDS once past PENANCE_LOGIN_USER_SLOW_AFTER) rather than
locked, which an attacker could otherwise do to anyone. The client address is the one of
penance_site/client.py (R-ADD-200). What is said is the same whether or not the username
exists: the counts are of the name as typed.

Counted in the database (accounts.models.LoginFailure), not the cache: a lockout that
lapses when Redis is down would be no lockout. Settings: PENANCE_LOGIN_MAX_FAILURES (per
pair), PENANCE_LOGIN_MAX_FAILURES_PER_ADDRESS, PENANCE_LOGIN_LOCKOUT_SECONDS,
PENANCE_LOGIN_USER_SLOW_AFTER, PENANCE_LOGIN_USER_SLOW_SECONDS.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone

from penance_site import client

from .models import LoginFailure


def client_address(request: HttpRequest | None) -> str | None:
    """The client address under PENANCE_TRUSTED_PROXIES (penance_site/client.py): a forged
    X-Forwarded-For from anyone but a named proxy changes nothing."""
    if request is None:
        return None
    return client.client_address(request) or None


@dataclass(frozen=True)
class Lockout:
    """Why a login is refused now, and for how many more seconds."""

    kind: str  # "pair" or "address": locked out; "user": slowed down
    retry_after: int

    @property
    def message(self) -> str:
        if self.kind == "user":
            return (
                "too many failed logins for this username: try again in "
                f"{self.retry_after} second{'s' if self.retry_after != 1 else ''}"
            )
        minutes = max(1, math.ceil(self.retry_after / 60))
        whose = "this username from your address" if self.kind == "pair" else "your address"
        return (
            f"too many failed logins: logging in as {whose} is locked for "
            f"{minutes} minute{'s' if minutes != 1 else ''}"
        )


def _pair_key(username: str, address: str) -> str:
    # A digest: the pair may be longer than the column, and the key need not be read.
    return hashlib.sha256(f"{username.lower()}\n{address}".encode()).hexdigest()


def _keys(username: str | None, address: str | None) -> list[tuple[str, str]]:
    keys = []
    if username and address:
        keys.append(("pair", _pair_key(username, address)))
    if username:
        keys.append(("user", username.lower()[:150]))
    if address:
        keys.append(("address", address[:150]))
    return keys


def _rule(kind: str) -> tuple[int, int]:
    """(failures, seconds) for a kind of count: past that many failures, refused until
    that long after the last one."""
    if kind == "user":
        return settings.PENANCE_LOGIN_USER_SLOW_AFTER, settings.PENANCE_LOGIN_USER_SLOW_SECONDS
    limit = (
        settings.PENANCE_LOGIN_MAX_FAILURES
        if kind == "pair"
        else settings.PENANCE_LOGIN_MAX_FAILURES_PER_ADDRESS
    )
    return limit, settings.PENANCE_LOGIN_LOCKOUT_SECONDS


def login_lockout(*, username: str | None, address: str | None) -> Lockout | None:
    """The longest refusal that holds for a login as `username` from `address` now."""
    now = timezone.now()
    found: Lockout | None = None
    for kind, key in _keys(username, address):
        limit, seconds = _rule(kind)
        row = LoginFailure.objects.filter(kind=kind, key=key, failures__gte=limit).first()
        if row is None:
            continue
        left = math.ceil(seconds - (now - row.last_failure_at).total_seconds())
        if left > 0 and (found is None or left > found.retry_after):
            found = Lockout(kind, left)
    return found


def login_locked_out(*, username: str | None, address: str | None) -> bool:
    return login_lockout(username=username, address=address) is not None


@transaction.atomic
def login_failure_record(*, username: str | None, address: str | None) -> None:
    now = timezone.now()
    window = timedelta(seconds=settings.PENANCE_LOGIN_LOCKOUT_SECONDS)
    for kind, key in _keys(username, address):
        row, created = LoginFailure.objects.select_for_update().get_or_create(
            kind=kind, key=key, defaults={"failures": 1, "last_failure_at": now}
        )
        if created:
            continue
        if row.last_failure_at <= now - window:  # an old streak: start counting again
            row.failures, row.last_failure_at = 1, now
            row.save(update_fields=["failures", "last_failure_at"])
        else:
            LoginFailure.objects.filter(pk=row.pk).update(
                failures=F("failures") + 1, last_failure_at=now
            )


def login_failures_clear(*, username: str, address: str | None = None) -> None:
    # The pair's count ends with a success. The address's and the username's stay: one
    # success must not reset a spray across many accounts, or from many addresses.
    if address:
        LoginFailure.objects.filter(kind="pair", key=_pair_key(username, address)).delete()


class LockoutBackend(ModelBackend):
    """ModelBackend that refuses locked-out usernames and addresses before checking the
    password (PermissionDenied stops authenticate() trying further backends)."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        lockout = login_lockout(username=username, address=client_address(request))
        if lockout is not None:
            raise PermissionDenied(lockout.message)
        return super().authenticate(request, username=username, password=password, **kwargs)


def _failed(sender: object, credentials: dict[str, Any], request: Any = None, **_: Any) -> None:
    username = credentials.get("username")
    login_failure_record(
        username=username if isinstance(username, str) else None,
        address=client_address(request),
    )


def _succeeded(sender: object, request: Any, user: Any, **_: Any) -> None:
    login_failures_clear(username=user.get_username(), address=client_address(request))


def connect_signals() -> None:
    user_login_failed.connect(_failed, dispatch_uid="accounts.login_failed")
    user_logged_in.connect(_succeeded, dispatch_uid="accounts.logged_in")
