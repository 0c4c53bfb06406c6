"""Test-wide fixtures.

In CI (`PENANCE_REQUIRE_SERVICES=1`) the run stops at once when PostgreSQL or
Redis cannot be reached: a test that silently skips its database is no test.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

import pytest
import pytest_django.fixtures as pytest_django_fixtures

# The tests run with DEBUG off, like production, where PENANCE_DICE_KEY is required: a key
# of the tests' own stands in when the environment gives none (penance_site/dice_keys.py).
TEST_DICE_KEY = "dGVzdC1vbmx5LWRpY2Uta2V5LW5vdC10by1kZXBsb3k="


@pytest.fixture(autouse=True, scope="session")
def dice_key() -> None:
    from django.conf import settings

    if not settings.PENANCE_DICE_KEYS:
        settings.PENANCE_DICE_KEYS = (TEST_DICE_KEY,)


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get("PENANCE_REQUIRE_SERVICES") != "1":
        return
    problems: list[str] = []
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        problems.append(f"DATABASE_URL must point at PostgreSQL, got {url!r}")
    else:
        import psycopg

        try:
            psycopg.connect(url, connect_timeout=5).close()
        except psycopg.Error as exc:
            problems.append(f"PostgreSQL at {url} cannot be reached: {exc}")
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        problems.append("REDIS_URL is not set")
    else:
        import redis

        try:
            redis.Redis.from_url(redis_url, socket_connect_timeout=5).ping()
        except redis.RedisError as exc:
            problems.append(f"Redis at {redis_url} cannot be reached: {exc}")
    if problems:
        pytest.exit("required services unavailable:\n  " + "\n  ".join(problems), returncode=3)


# pytest-django sets up only the databases that collected tests declare (a django_db mark,
# or the db / transactional_db / live_server fixtures). `committed_db` declares none, so a
# run of such tests alone (the browser tests, or one race test) found no tables. Count
# `committed_db` as asking for the default database. (A private hook: pytest-django 4.14.)
_databases_for_test = pytest_django_fixtures._get_databases_for_test


def _with_committed_db(test: pytest.Item) -> tuple[Iterable[str], bool]:
    if "committed_db" in getattr(test, "fixturenames", ()):
        return ("default",), False
    return _databases_for_test(test)


pytest_django_fixtures._get_databases_for_test = _with_committed_db


@pytest.fixture
def committed_db(django_db_setup: None, django_db_blocker: object) -> Iterator[None]:
    """Database access without a wrapping test transaction, for tests with threads or workers.

    Writes commit for real and stay until the test database is dropped at the
    end of the session (events cannot be deleted), so such tests use fresh
    stream ids and never count rows globally.
    """
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        yield
