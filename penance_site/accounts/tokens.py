"""Several named API tokens per user (issue 14), each revocable on its own.

A key is 40 random hex characters, shown once when it is made; the database keeps only its
SHA-256 (`ApiToken.digest`), so a copy of the database signs nobody in. Clients send it as
before: `Authorization: Token <key>` (`HashedTokenAuthentication`, the API's token class
in place of rest_framework.authtoken's one-token-per-user `TokenAuthentication`; the keys
that existed were carried over by migration accounts.0003).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from .models import ApiToken

MAX_TOKENS = 50  # per user: enough for every table tool, few enough to list on one page
LAST_USED_EVERY = timedelta(minutes=10)  # `last_used_at` is written at most this often


class TokenRefused(ValueError):
    """A token that cannot be made: `field` and `message` for the form."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def digest_of(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@transaction.atomic
def api_token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """A new named token for the user and its key (shown once; only its digest is kept)."""
    name = name.strip()
    if not name or len(name) > 100:
        raise TokenRefused("name", "a token needs a name of 1 to 100 characters")
    if ApiToken.objects.filter(user_id=user.pk).count() >= MAX_TOKENS:
        raise TokenRefused("name", f"at most {MAX_TOKENS} tokens; revoke one first")
    key = secrets.token_hex(20)
    token = ApiToken.objects.create(user=user, name=name, digest=digest_of(key), prefix=key[:6])
    return token, key


SIGN_IN_NAME = "API sign-in"


@dataclass(frozen=True)
class SignIn:
    """A sign-in's new key, and the tokens revoked to make room for it (R-ADD-203)."""

    key: str
    revoked: list[dict[str, Any]]


@transaction.atomic
def api_token_sign_in(*, user: User) -> SignIn:
    """A token for an API sign-in (`POST /api/auth/token`): a new one each time, named
    "API sign-in". A user holds at most MAX_TOKENS (R-ADD-203): at the limit, the tokens
    never used go first, oldest first, then those used longest ago; the answer lists
    them, so that no client loses its token without being told."""
    # Locks the user's tokens: two sign-ins at the limit revoke one token each.
    held = ApiToken.objects.select_for_update().filter(user_id=user.pk)
    extra = held.count() - MAX_TOKENS + 1
    revoked: list[dict[str, Any]] = []
    if extra > 0:
        order = (F("last_used_at").asc(nulls_first=True), "created_at", "id")
        for token in held.order_by(*order)[:extra]:
            revoked.append(
                {
                    "id": token.pk,
                    "name": token.name,
                    "prefix": token.prefix,
                    "created_at": token.created_at.isoformat(),
                    "last_used_at": token.last_used_at and token.last_used_at.isoformat(),
                }
            )
        ApiToken.objects.filter(pk__in=[t["id"] for t in revoked]).delete()
    return SignIn(api_token_create(user=user, name=SIGN_IN_NAME)[1], revoked)


def api_token_revoke(*, user: User, token_id: int) -> bool:
    """Delete one of the user's own tokens; False when they hold no token with that id."""
    deleted, _ = ApiToken.objects.filter(user_id=user.pk, pk=token_id).delete()
    return bool(deleted)


def api_tokens_of(*, user: User) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user_id=user.pk).order_by("created_at", "id")


class HashedTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>` against the digests of `ApiToken`; `request.auth` is the
    `ApiToken` used (API logout deletes it)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = ApiToken.objects.select_related("user").filter(digest=digest_of(key)).first()
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_EVERY:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token
