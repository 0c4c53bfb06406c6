"""Several tokens per user (issue 14): a database whose users hold rest_framework.authtoken
keys migrates to ApiToken (accounts 0003) and every key still signs its user in to the API,
while the database keeps only the keys' digests. Runs in a subprocess on a scratch database
of its own (as tests/eventstore/test_migrations.py), so the test database is never
migrated backwards."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.eventstore.test_migrations import ROOT, scratch_database_url  # noqa: F401

SCRIPT = """
import django
django.setup()
from django.core.management import call_command
call_command("migrate", "accounts", "0002_api_tokens", verbosity=0)
call_command("migrate", "auth", verbosity=0)
call_command("migrate", "authtoken", verbosity=0)
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
ann = get_user_model().objects.create_user(username="ann")
key = Token.objects.create(user=ann).key

call_command("migrate", verbosity=0)
from penance_site.accounts.models import ApiToken
(token,) = ApiToken.objects.filter(user=ann)
assert token.name == "API token" and token.prefix == key[:6], token
assert key not in token.digest and not Token.objects.exists()

from django.test import Client
ok = Client().get("/api/campaigns/", HTTP_AUTHORIZATION=f"Token {key}", HTTP_HOST="localhost")
assert ok.status_code == 200, ok.status_code
wrong = Client().get("/api/campaigns/", HTTP_AUTHORIZATION="Token " + "0" * 40, HTTP_HOST="localhost")
assert wrong.status_code == 401, wrong.status_code
print("tokens-carried-over")
"""


def test_existing_authtoken_keys_keep_working_after_the_migration(
    scratch_database_url: str,  # noqa: F811
) -> None:
    env = {**os.environ, "DATABASE_URL": scratch_database_url, "DJANGO_ALLOWED_HOSTS": "localhost"}
    env.pop("REDIS_URL", None)
    env.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=Path(ROOT),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stdout.strip().endswith("tokens-carried-over")
