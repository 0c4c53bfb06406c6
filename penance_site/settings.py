"""Penance Tracker settings, read from the environment.

Every value comes from an environment variable with a default that works on a
bare machine (SQLite, Celery in-process). A malformed value stops start-up with
a message that names the variable: a typo in production must not silently
fall back to a default.

Variables: DATABASE_URL, REDIS_URL, DJANGO_SECRET_KEY, DJANGO_DEBUG,
DJANGO_ALLOWED_HOSTS, DJANGO_HTTPS (plus a few optional PENANCE_* tuning knobs and
DJANGO_HSTS_* below).

A development `.env` file (KEY=VALUE lines; `make run` writes one with DJANGO_DEBUG=1)
fills in keys that the environment does not set, so `manage.py` works on its own after
`make run`. PENANCE_ENV_FILE names another file; set it empty to read none.
"""

from __future__ import annotations

import ipaddress
import os
import warnings
from pathlib import Path
from urllib.parse import unquote, urlparse

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from penance_site.dice_keys import parse_keys

BASE_DIR = Path(__file__).resolve().parent.parent


def load_env_file(path: Path) -> None:
    """Set each KEY=VALUE of `path` that the environment does not already set. A line that
    is not KEY=VALUE stops start-up naming the file and line: a half-read file would
    silently run with defaults. The values then go through the same checks as the
    environment's own (a malformed DJANGO_DEBUG fails naming the variable)."""
    if not path.is_file():
        return
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        key, sep, value = text.removeprefix("export ").partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise ImproperlyConfigured(f"{path}:{number}: {line!r} is not KEY=VALUE")
        os.environ.setdefault(key, value.strip().strip("'\""))


load_env_file(Path(os.environ.get("PENANCE_ENV_FILE", BASE_DIR / ".env")))


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean; use one of 1/0, true/false, yes/no, on/off"
    )


def env_int(name: str, default: int, minimum: int = 0) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name}={raw!r} must be at least {minimum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",")]
    if not all(items):
        raise ImproperlyConfigured(f"{name}={raw!r} has an empty entry; separate hosts by commas")
    return items


def env_database(name: str, default: str) -> dict[str, object]:
    raw = os.environ.get(name) or default
    scheme = urlparse(raw).scheme
    if scheme not in {"sqlite", "postgres", "postgresql", "pgsql"}:
        raise ImproperlyConfigured(
            f"{name}={raw!r}: only sqlite:/// and postgres:// URLs are supported"
        )
    try:
        config: dict[str, object] = dict(dj_database_url.parse(raw, conn_max_age=60))
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a database URL: {exc}") from None
    if config["ENGINE"] == "django.db.backends.sqlite3":
        if not config.get("NAME") or config["NAME"] == ":memory:":
            raise ImproperlyConfigured(f"{name}={raw!r}: SQLite needs a file path")
        # IMMEDIATE takes the write lock when a transaction starts, so two
        # appends queue on the busy timeout instead of failing on upgrade.
        # WAL lets readers page events while a writer appends.
        config["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
        config["CONN_MAX_AGE"] = 0
        # A file, not shared-cache memory: the concurrency tests use threads with
        # their own connections, and shared-cache memory databases fail fast on
        # table locks instead of waiting.
        config["TEST"] = {"NAME": str(Path(str(config["NAME"])).with_suffix(".test.sqlite3"))}
    else:
        config["CONN_HEALTH_CHECKS"] = True
    return config


def env_redis(name: str) -> str | None:
    raw = os.environ.get(name)
    if not raw:
        return None
    parsed = urlparse(raw)
    if parsed.scheme not in {"redis", "rediss"} or not parsed.hostname:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a redis:// URL")
    return raw


DEBUG = env_bool("DJANGO_DEBUG", False)

_secret = os.environ.get("DJANGO_SECRET_KEY", "")
if not _secret:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set; it is required when DJANGO_DEBUG is off"
        )
    _secret = "insecure-development-key-only-used-with-DJANGO_DEBUG-on"  # noqa: S105
elif len(_secret) < 32:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be at least 32 characters long")
SECRET_KEY = _secret

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else []
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "django_htmx",
    "penance_site.eventstore",
    "battles",
    "campaigns",
    "penance_site.accounts",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # the Content-Security-Policy header on every response
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "penance_site.middleware.ApiBodyLimitMiddleware",  # a JSON 413 before the body is read
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "penance_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "penance_site.wsgi.application"
ASGI_APPLICATION = "penance_site.asgi.application"

DATABASES = {"default": env_database("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
# Under ASGI (penance_site/asgi.py, `make serve`) each request's sync code runs in a thread
# of its own, so a connection kept for reuse (CONN_MAX_AGE) is never reused and they pile up
# to the server's limit: close each at its request's end.
if os.environ.get("PENANCE_ASGI") == "1":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The project's own static files and the npm packages `make install` copies into
# penance_site/static/vendor/ (docs/FRONTEND.md); WhiteNoise serves them in production.
STATICFILES_DIRS = [BASE_DIR / "penance_site" / "static"]
# Until `collectstatic` (which `make serve` runs) there is no STATIC_ROOT; development and
# tests serve from the finders, so WhiteNoise's start-up warning about it is noise there.
warnings.filterwarnings("ignore", message="No directory at: ", category=UserWarning)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Compressed, not hashed: a manifest would make every page need `collectstatic`
        # first (tests and `make run` too); WhiteNoise revalidates unhashed files.
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
    },
}

# A request body over this is a 413 on the API (penance_site.parsers.LimitedJSONParser).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("PENANCE_MAX_BODY_BYTES", 2_621_440, minimum=1024)
CSRF_FAILURE_VIEW = "penance_site.api.csrf_failure"

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/battles/"

# --- Accounts: login lockout (accounts/services.py) and mail --------------------------
# Failed logins are counted in the database, so the lockout holds while Redis is down.
# PENANCE_LOGIN_MAX_FAILURES counts per (username, client address) pair (R-ADD-202).
AUTHENTICATION_BACKENDS = ["penance_site.accounts.services.LockoutBackend"]
PENANCE_LOGIN_MAX_FAILURES = env_int("PENANCE_LOGIN_MAX_FAILURES", 5, minimum=1)
PENANCE_LOGIN_MAX_FAILURES_PER_ADDRESS = env_int(
    "PENANCE_LOGIN_MAX_FAILURES_PER_ADDRESS", 50, minimum=1
)
PENANCE_LOGIN_LOCKOUT_SECONDS = env_int("PENANCE_LOGIN_LOCKOUT_SECONDS", 900, minimum=1)
# Past this many failures for one username (from any addresses) within the lockout window,
# it is slowed to one attempt per PENANCE_LOGIN_USER_SLOW_SECONDS, not locked (R-ADD-202).
PENANCE_LOGIN_USER_SLOW_AFTER = env_int("PENANCE_LOGIN_USER_SLOW_AFTER", 20, minimum=1)
PENANCE_LOGIN_USER_SLOW_SECONDS = env_int("PENANCE_LOGIN_USER_SLOW_SECONDS", 30, minimum=1)


def env_email(name: str) -> dict[str, object] | None:
    """DJANGO_EMAIL_URL: smtp://user:password@host:port (smtp+tls:// for STARTTLS,
    smtp+ssl:// for TLS from the start) or console:// (mail printed, for development)."""
    raw = os.environ.get(name)
    if not raw:
        return None
    parsed = urlparse(raw)
    if parsed.scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if parsed.scheme not in {"smtp", "smtp+tls", "smtp+ssl"} or not parsed.hostname:
        raise ImproperlyConfigured(
            f"{name}={raw!r}: use smtp://, smtp+tls://, smtp+ssl:// or console://"
        )
    try:
        port = parsed.port or (465 if parsed.scheme == "smtp+ssl" else 587)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} has a bad port") from None
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parsed.hostname,
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": unquote(parsed.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parsed.password or ""),
        "EMAIL_USE_TLS": parsed.scheme == "smtp+tls",
        "EMAIL_USE_SSL": parsed.scheme == "smtp+ssl",
    }


_email = env_email("DJANGO_EMAIL_URL")
# Password reset routes exist only when mail is configured (penance_site/urls.py).
EMAIL_CONFIGURED = _email is not None
if _email:
    globals().update(_email)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "webmaster@localhost")

# --- Redis: Celery broker and result backend, and the cache ------------------
REDIS_URL = env_redis("REDIS_URL")

if REDIS_URL:
    # Redis down must not hold a request: short socket timeouts on the cache, and one quick
    # connection attempt when publishing (kombu's default retries took ~6 s per command).
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # Embedded default: tasks run in-process at send time, nothing to start.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True

CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_TIMEOUT = 0.5
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    "socket_connect_timeout": 0.5,
    "socket_timeout": 2.0,
    "max_retries": 0,  # publishing: one attempt; the outbox sweep retries (CAMPAIGNS.md)
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 0.5
CELERY_REDIS_SOCKET_TIMEOUT = 2.0
# `celery -A penance_site beat` re-sends battle outcomes still pending in the outbox
# (campaigns.services.outcome_outbox_sweep): Redis may have been down when a battle ended.
CELERY_BEAT_SCHEDULE = {
    "sweep-outcome-outbox": {"task": "campaigns.sweep_outcome_outbox", "schedule": 60.0},
}

# --- REST framework ----------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "penance_site.accounts.tokens.HashedTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON only, size-limited, nesting and text checked (penance_site/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["penance_site.parsers.LimitedJSONParser"],
    "DEFAULT_THROTTLE_RATES": {
        "rules_anon": os.environ.get("PENANCE_RULES_ANON_RATE", "120/minute"),
        "rules_user": os.environ.get("PENANCE_RULES_USER_RATE", "600/minute"),
    },
    "EXCEPTION_HANDLER": "penance_site.api.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Penance Tracker API",
    "DESCRIPTION": (
        "Battles as event streams, the Penance rules calculator and campaigns. "
        "Rulings are cited by ID (see RULINGS.md)."
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc from the project's static files, not a CDN: the docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}


# --- Proxies in front of the site (PENANCE_TRUSTED_PROXIES) -----------------------
# Comma-separated addresses or networks (10.0.0.0/8, ::1). The client address used by
# throttles, lockouts and the CSP report limit is REMOTE_ADDR, unless the request came
# from one of these; then it is the right-most X-Forwarded-For entry that is not one of
# them (penance_site/client.py). Default none: X-Forwarded-For is never believed.
def env_networks(name: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    raw = os.environ.get(name, "")
    networks = []
    for item in (part.strip() for part in raw.split(",")):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}={raw!r}: {item!r} is not an IP address or network (e.g. 10.0.0.1, 10.0.0.0/8)"
            ) from None
    return tuple(networks)


PENANCE_TRUSTED_PROXIES = env_networks("PENANCE_TRUSTED_PROXIES")

# --- Dice secrets encrypted at rest (penance_site/dice_keys.py, R-ADD-206) ------------
# PENANCE_DICE_KEY: Fernet keys, comma-separated, the first encrypts. Required with DEBUG
# off (the web, worker and manage.py processes refuse to start without it); a malformed
# key fails here, naming the variable.
PENANCE_DICE_KEYS = parse_keys(os.environ.get("PENANCE_DICE_KEY"), debug=DEBUG)

# --- Content Security Policy (django-csp) ----------------------------------------
# Strict: scripts and styles only from the site's own files (no inline <script>, <style>
# or style= attribute; a script sets styles through the CSSOM), nothing may frame the
# site, no plugins, no <base>. Swagger UI and ReDoc come from drf-spectacular-sidecar's
# static files. Violations are reported to our own endpoint (penance_site/csp_report.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "object-src": [NONE],
        "base-uri": [NONE],
        "report-uri": "/csp-report/",
    },
}
# A CSP report larger than this is refused unread (413); reports past the rate limit
# (per client address, per minute) are dropped with a 429 instead of logged.
PENANCE_CSP_REPORT_MAX_BYTES = env_int("PENANCE_CSP_REPORT_MAX_BYTES", 8192, minimum=512)
PENANCE_CSP_REPORTS_PER_MINUTE = env_int("PENANCE_CSP_REPORTS_PER_MINUTE", 20, minimum=1)

# --- Penance ------------------------------------------------------------------
# Events between snapshots of a battle's state (issue: battles as event streams).
PENANCE_SNAPSHOT_EVERY = env_int("PENANCE_SNAPSHOT_EVERY", 100, minimum=1)

if not DEBUG:
    SESSION_COOKIE_HTTPONLY = True
    CSRF_COOKIE_HTTPONLY = False
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

# --- HTTPS (DJANGO_HTTPS=1 where the site is reached over TLS) ------------------
# Off by default: `make run` and the tests speak plain HTTP on localhost. Behind a
# proxy that ends TLS, it must set X-Forwarded-Proto (docs/DEPLOY.md).
HTTPS = env_bool("DJANGO_HTTPS", False)
# Read (and checked) whether or not HTTPS is on, so a typo fails at once.
_hsts = (
    env_int("DJANGO_HSTS_SECONDS", 31_536_000),
    env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True),
    env_bool("DJANGO_HSTS_PRELOAD", True),
)
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS, SECURE_HSTS_INCLUDE_SUBDOMAINS, SECURE_HSTS_PRELOAD = _hsts
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    CSRF_TRUSTED_ORIGINS = [f"https://{host.lstrip('.')}" for host in ALLOWED_HOSTS if host != "*"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"quiet_refusals": {"()": "penance_site.log_filters.QuietRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("PENANCE_LOG_LEVEL", "WARNING")},
    # 403 and 404 at INFO without a traceback (penance_site/log_filters.py).
    "loggers": {"django.request": {"filters": ["quiet_refusals"]}},
}
