"""Login lockout: after too many failures for one username or one client address, every
login attempt for it is refused until the window has passed since the last failure.

Counted in the database (accounts.models.LoginFailure), not the cache: a lockout that
lapses when Redis is down would be no lockout. Settings: PENANCE_LOGIN_MAX_FAILURES
(per username), PENANCE_LOGIN_MAX_FAILURES_PER_ADDRESS, PENANCE_LOGIN_LOCKOUT_SECONDS.
"""

from __future__ import annotations

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

from .models import LoginFailure


def client_address(request: HttpRequest | None) -> str | None:
    # REMOTE_ADDR only: X-Forwarded-For is the client's to forge unless a proxy we trust
    # sets it, and a forged address would dodge the per-address lockout.
    if request is None:
        return None
    return str(request.META.get("REMOTE_ADDR") or "") or None


def _keys(username: str | None, address: str | None) -> list[tuple[str, str, int]]:
    keys = []
    if username:
        keys.append(("user", username.lower()[:150], settings.PENANCE_LOGIN_MAX_FAILURES))
    if address:
        keys.append(("address", address[:150], settings.PENANCE_LOGIN_MAX_FAILURES_PER_ADDRESS))
    return keys


def login_locked_out(*, username: str | None, address: str | None) -> bool:
    since = timezone.now() - timedelta(seconds=settings.PENANCE_LOGIN_LOCKOUT_SECONDS)
    for kind, key, limit in _keys(username, address):
        if LoginFailure.objects.filter(
            kind=kind, key=key, failures__gte=limit, last_failure_at__gt=since
        ).exists():
            return True
    return False


@transaction.atomic
def login_failure_record(*, username: str | None, address: str | None) -> None:
    now = timezone.now()
    since = now - timedelta(seconds=settings.PENANCE_LOGIN_LOCKOUT_SECONDS)
    for kind, key, _ in _keys(username, address):
        row, created = LoginFailure.objects.select_for_update().get_or_create(
            kind=kind, key=key, defaults={"failures": 1, "last_failure_at": now}
        )
        if created:
            continue
        if row.last_failure_at <= since:  # an old streak: start counting again
            row.failures, row.last_failure_at = 1, now
            row.save(update_fields=["failures", "last_failure_at"])
        else:
            LoginFailure.objects.filter(pk=row.pk).update(
                failures=F("failures") + 1, last_failure_at=now
            )


def login_failures_clear(*, username: str) -> None:
    # The address count stays: one success must not reset a spray across many accounts.
    LoginFailure.objects.filter(kind="user", key=username.lower()[:150]).delete()


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
        if login_locked_out(username=username, address=client_address(request)):
            raise PermissionDenied("too many failed logins; try again later")
        return super().authenticate(request, username=username, password=password, **kwargs)


def _failed(sender: object, credentials: dict[str, Any], request: Any = None, **_: Any) -> None:
    username = credentials.get("username")
    login_failure_record(
        username=username if isinstance(username, str) else None,
        address=client_address(request),
    )


def _succeeded(sender: object, request: Any, user: Any, **_: Any) -> None:
    login_failures_clear(username=user.get_username())


def connect_signals() -> None:
    user_login_failed.connect(_failed, dispatch_uid="accounts.login_failed")
    user_logged_in.connect(_succeeded, dispatch_uid="accounts.logged_in")
