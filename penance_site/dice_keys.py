"""The dice secrets, encrypted at rest (R-ADD-206).

A battle's sealed dice derive from a 256-bit secret (battles.models.BattleDiceSecret,
R-ADD-45): whoever reads it can predict every roll left. The database keeps it
encrypted with Fernet (AES-128-CBC and HMAC-SHA256) under a key from the environment,
PENANCE_DICE_KEY, so that a copy of the database, a backup or a read-only SQL injection
does not give the dice away.

PENANCE_DICE_KEY is one or more Fernet keys, comma-separated: the first encrypts, every
one decrypts (MultiFernet), so a key is rotated by putting the new one first, running
`manage.py rotate_dice_key`, then dropping the old one (docs/DEPLOY.md). With
DJANGO_DEBUG off it is required: the web, worker and manage.py processes refuse to start
without it (`require_dice_keys`, the system check penance.E001). With DEBUG on, a fixed
development key stands in.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

VARIABLE = "PENANCE_DICE_KEY"
# Only ever used with DEBUG on: public, like the development SECRET_KEY.
DEVELOPMENT_KEY = base64.urlsafe_b64encode(
    hashlib.sha256(b"penance-development-dice-key-only-used-with-DJANGO_DEBUG-on").digest()
).decode()


class DiceSecretUnreadable(Exception):
    """A stored dice secret that none of the configured keys opens."""


def parse_keys(raw: str | None, *, debug: bool) -> tuple[str, ...]:
    """The keys of PENANCE_DICE_KEY's value; a malformed one fails naming the variable.
    Unset: the development key with DEBUG on, none with it off (start-up then refuses).

    >>> parse_keys(None, debug=True) == (DEVELOPMENT_KEY,)
    True
    >>> parse_keys("", debug=False)
    ()
    >>> parse_keys("not-a-key", debug=False)
    Traceback (most recent call last):
    ...
    django.core.exceptions.ImproperlyConfigured: PENANCE_DICE_KEY: entry 1 is not a Fernet key (32 url-safe base64-encoded bytes; make one with: python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())")
    """
    if not raw or not raw.strip():
        return (DEVELOPMENT_KEY,) if debug else ()
    keys = tuple(part.strip() for part in raw.split(",") if part.strip())
    for n, key in enumerate(keys, start=1):
        try:
            Fernet(key)
        except (ValueError, TypeError):
            raise ImproperlyConfigured(
                f"{VARIABLE}: entry {n} is not a Fernet key (32 url-safe base64-encoded "
                'bytes; make one with: python -c "from cryptography.fernet import Fernet; '
                'print(Fernet.generate_key().decode())")'
            ) from None
    return keys


def _missing() -> ImproperlyConfigured:
    return ImproperlyConfigured(
        f"{VARIABLE} is not set; it is required when DJANGO_DEBUG is off: the battles' dice "
        "secrets are encrypted with it (docs/DEPLOY.md)"
    )


def require_dice_keys() -> None:
    """Refuse to start without a dice key (called by the web and worker entry points)."""
    if not settings.PENANCE_DICE_KEYS:
        raise _missing()


def _fernet(keys: Sequence[str] | None = None) -> MultiFernet:
    keys = settings.PENANCE_DICE_KEYS if keys is None else keys
    if not keys:
        raise _missing()
    return MultiFernet([Fernet(k) for k in keys])


def seal_secret(secret: bytes) -> bytes:
    """The secret encrypted under the first key, as stored."""
    return _fernet().encrypt(secret)


def open_secret(stored: bytes) -> bytes:
    """The secret a stored value holds; DiceSecretUnreadable if no key opens it."""
    return _unlocked(lambda keys: keys.decrypt(bytes(stored)))


def rotate_secret(stored: bytes) -> bytes:
    """The stored value re-encrypted under the first key (MultiFernet.rotate)."""
    return _unlocked(lambda keys: keys.rotate(bytes(stored)))


def _unlocked(use: Callable[[MultiFernet], bytes]) -> bytes:
    try:
        return use(_fernet())
    except InvalidToken:
        raise DiceSecretUnreadable(
            f"a dice secret is not readable with any key of {VARIABLE}: was a key dropped "
            "before `manage.py rotate_dice_key` re-encrypted the secrets under the new one?"
        ) from None


def dice_key_check(app_configs: Any = None, **kwargs: Any) -> list[Any]:
    """The system check penance.E001: `manage.py` commands (migrate, runserver, check)
    refuse to run without the key. Registered by the accounts app (apps.py)."""
    from django.core import checks

    if settings.PENANCE_DICE_KEYS:
        return []
    return [checks.Error(str(_missing()), id="penance.E001")]
