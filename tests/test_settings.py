"""Settings come from the environment; a bad value stops start-up naming the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOOD_KEY = "k" * 40


def _start(
    env_overrides: dict[str, str], expr: str = "settings.DEBUG"
) -> subprocess.CompletedProcess[str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_"))
    }
    env.update(
        {
            "DJANGO_SECRET_KEY": GOOD_KEY,
            "DJANGO_SETTINGS_MODULE": "penance_site.settings",
            "PENANCE_ENV_FILE": "",  # a developer's .env must not change these tests
        }
    )
    env.update(env_overrides)
    code = f"import django; django.setup(); from django.conf import settings; print({expr})"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_debug_is_off_by_default() -> None:
    result = _start({})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DJANGO_DEBUG", "maybe"),
        ("DATABASE_URL", "mysql://localhost/x"),
        ("DATABASE_URL", "not a url"),
        ("REDIS_URL", "http://localhost:6379"),
        ("DJANGO_ALLOWED_HOSTS", "a.example,,b.example"),
        ("DJANGO_SECRET_KEY", "short"),
        ("PENANCE_SNAPSHOT_EVERY", "often"),
        ("DJANGO_HTTPS", "sometimes"),
        ("DJANGO_HSTS_SECONDS", "a year"),
    ],
)
def test_bad_value_stops_startup_naming_the_variable(variable: str, value: str) -> None:
    result = _start({variable: value})
    assert result.returncode != 0
    assert variable in result.stderr
    assert "ImproperlyConfigured" in result.stderr


def test_missing_secret_key_is_an_error_unless_debug() -> None:
    assert "DJANGO_SECRET_KEY" in _start({"DJANGO_SECRET_KEY": ""}).stderr
    assert _start({"DJANGO_SECRET_KEY": "", "DJANGO_DEBUG": "1"}).returncode == 0


def test_redis_url_switches_celery_and_cache_to_redis() -> None:
    expr = "settings.CELERY_BROKER_URL, settings.CELERY_TASK_ALWAYS_EAGER, settings.CACHES['default']['BACKEND']"
    with_redis = _start({"REDIS_URL": "redis://127.0.0.1:6379/3"}, expr)
    assert with_redis.returncode == 0, with_redis.stderr
    assert with_redis.stdout.strip() == (
        "redis://127.0.0.1:6379/3 False django.core.cache.backends.redis.RedisCache"
    )
    embedded = _start({}, expr)
    assert embedded.stdout.strip() == (
        "memory:// True django.core.cache.backends.locmem.LocMemCache"
    )


def test_https_turns_on_redirect_hsts_and_secure_cookies() -> None:
    result = _start(
        {"DJANGO_HTTPS": "1", "DJANGO_ALLOWED_HOSTS": "tracker.example.org"},
        "[settings.SECURE_SSL_REDIRECT, settings.SECURE_HSTS_SECONDS, "
        "settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE, "
        "settings.CSRF_TRUSTED_ORIGINS]",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[True, 31536000, True, True, ['https://tracker.example.org']]"


def test_without_https_the_site_speaks_plain_http() -> None:
    result = _start({}, "getattr(settings, 'SECURE_SSL_REDIRECT', False)")
    assert result.stdout.strip() == "False"


def test_the_deploy_check_is_clean_with_https() -> None:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_"))
    }
    env.update(
        {
            # A key as random as production's: the check refuses low-entropy ones.
            "DJANGO_SECRET_KEY": "Zq8v-3kLr_Tn0pWx7yBc2Hf9Js4Ua6Ge1Md5Vo-ZiRq8sTbYnP4eW",
            "DJANGO_HTTPS": "1",
            "DJANGO_ALLOWED_HOSTS": "tracker.example.org",
            "PENANCE_ENV_FILE": "",  # a developer's .env must not turn DEBUG on here
            # Required with DEBUG off (penance_site/dice_keys.py): a deployment sets it.
            "PENANCE_DICE_KEY": "dGVzdC1vbmx5LWRpY2Uta2V5LW5vdC10by1kZXBsb3k=",
        }
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_env_file_turns_debug_on_so_manage_py_needs_no_secret_key(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("# written by make run\nDJANGO_DEBUG=1\n")
    result = _start({"PENANCE_ENV_FILE": str(env_file), "DJANGO_SECRET_KEY": ""})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_environment_wins_over_the_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DJANGO_DEBUG=1\n")
    result = _start({"PENANCE_ENV_FILE": str(env_file), "DJANGO_DEBUG": "0"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_malformed_env_file_value_fails_naming_the_variable(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DJANGO_DEBUG=maybe\n")
    result = _start({"PENANCE_ENV_FILE": str(env_file)})
    assert result.returncode != 0
    assert "DJANGO_DEBUG" in result.stderr


def test_env_file_line_that_is_not_key_value_fails_naming_the_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DJANGO_DEBUG\n")
    result = _start({"PENANCE_ENV_FILE": str(env_file)})
    assert result.returncode != 0
    assert f"{env_file}:1" in result.stderr


def test_password_reset_exists_only_when_mail_is_configured() -> None:
    expr = "__import__('django.urls').urls.reverse('password_reset')"
    assert _start({}, expr).returncode != 0  # no such route
    configured = _start({"DJANGO_EMAIL_URL": "smtp+tls://me:p%40ss@mail.example.org:587"}, expr)
    assert configured.returncode == 0, configured.stderr
    assert configured.stdout.strip() == "/accounts/password_reset/"


def test_bad_email_url_stops_startup_naming_the_variable() -> None:
    result = _start({"DJANGO_EMAIL_URL": "imap://mail.example.org"})
    assert result.returncode != 0 and "DJANGO_EMAIL_URL" in result.stderr
