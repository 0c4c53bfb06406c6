"""Browser tests: Playwright (the PyPI package) driving Debian's Chromium, never a browser
that Playwright downloads. Without /usr/bin/chromium they skip with a message, unless
PENANCE_REQUIRE_BROWSER=1 (CI), which turns the missing browser into a failure.
PENANCE_SKIP_BROWSER=1 skips them on purpose (CI runs them once, on PostgreSQL).
Screenshots are kept under test-artifacts/browser/ (PENANCE_ARTIFACTS to move them).

Every page any browser test opens is watched for Content-Security-Policy violations (the
`securitypolicyviolation` event, and Chromium's console errors naming the policy): a test
whose pages broke the policy fails, listing them (R-ADD-201)."""

from __future__ import annotations

import os
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("PENANCE_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ARTIFACTS = Path(os.environ.get("PENANCE_ARTIFACTS", "test-artifacts/browser"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    mine = [i for i in items if Path(str(i.fspath)).is_relative_to(here)]
    for item in mine:
        item.add_marker(pytest.mark.browser)
    if os.environ.get("PENANCE_SKIP_BROWSER") == "1":
        reason = (
            "browser tests skipped on purpose (PENANCE_SKIP_BROWSER=1; CI runs them on PostgreSQL)"
        )
    elif not CHROMIUM.exists():
        if os.environ.get("PENANCE_REQUIRE_BROWSER") == "1":
            return  # the fixture fails each test, naming the missing browser
        reason = f"no Chromium at {CHROMIUM}: apt-get install -y chromium (or set PENANCE_REQUIRE_BROWSER=1 to fail)"
    else:
        return
    for item in mine:
        item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"PENANCE_REQUIRE_BROWSER=1 but there is no Chromium at {CHROMIUM}")
    # Playwright's sync API keeps an event loop on this thread; the tests' own ORM calls
    # (data set up before the browser acts) are synchronous and safe.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield WatchedBrowser(b)
        b.close()


# Reported by the page itself, before any of its scripts run (an init script is not
# subject to the page's policy). Chromium also logs each violation as a console error.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`
    + ` at ${e.sourceFile || e.documentURI}:${e.lineNumber}`);
});
"""
CSP_MESSAGE = re.compile(r"Content Security Policy|CSP violation", re.IGNORECASE)
violations: list[str] = []
allowed: list[re.Pattern[str]] = []


def allow_violation(pattern: str) -> None:
    """Lets the current test's pages break the policy in the one way `pattern` matches:
    for third-party code that asks for what the policy rightly refuses, said at the call."""
    allowed.append(re.compile(pattern))


def watch_page(page: Any) -> None:
    """Record every CSP violation `page` reports into `violations`."""

    def on_console(message: Any) -> None:
        if message.type == "error" and CSP_MESSAGE.search(message.text):
            violations.append(f"{page.url}: {message.text}")

    page.on("console", on_console)


class WatchedBrowser:
    """The Playwright browser, whose every context reports CSP violations (watch_page)."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, *args: Any, **kwargs: Any) -> Any:
        context = self._browser.new_context(*args, **kwargs)
        context.add_init_script(REPORT_VIOLATIONS)
        context.on("page", watch_page)
        return context

    def new_page(self, *args: Any, **kwargs: Any) -> Any:
        page = self.new_context(*args, **kwargs).new_page()
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(autouse=True)
def no_csp_violations() -> Iterator[None]:
    """Fails the test if any page it opened broke the Content-Security-Policy."""
    violations.clear()
    allowed.clear()
    yield
    found = [v for v in violations if not any(a.search(v) for a in allowed)]
    violations.clear()
    allowed.clear()
    if found:
        pytest.fail("Content-Security-Policy violations:\n" + "\n".join(found), pytrace=False)


@pytest.fixture(scope="session")
def site(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """The site served on a free port from a thread, on the test database.

    Not pytest-django's `live_server`: it flushes the database after each test, and the
    event store refuses DELETE (its rows are append-only). Tests use `committed_db` and
    fresh names instead, as the other tests with threads do."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.test.testcases import LiveServerThread
    from django.test.utils import override_settings

    # "testserver" stays allowed: the session's other tests use Django's test client while
    # this fixture is alive. Live waits are short (2 s) so that no request still holds a
    # database connection when the session ends (a held one keeps the test database from
    # being dropped).
    hosts = ["127.0.0.1", "localhost", "testserver"]
    with (
        django_db_blocker.unblock(),
        override_settings(ALLOWED_HOSTS=hosts, PENANCE_LIVE_MAX_WAIT=2),
    ):
        thread = LiveServerThread("127.0.0.1", StaticFilesHandler, port=0)
        thread.daemon = True
        thread.start()
        thread.is_ready.wait()
        if thread.error:
            raise thread.error
        yield f"http://127.0.0.1:{thread.port}"
        time.sleep(2.5)  # the last live wait ends, and with it its connection
        thread.terminate()
        _close_stray_connections()


def _close_stray_connections() -> None:
    """End the sessions other threads of this test run left open on the PostgreSQL test
    database (server threads, threads of the race tests), so that it can be dropped at
    the end of the run instead of a warning that it is "being accessed by other users"."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    # And this one: measured, a session used here stayed open through pytest-django's
    # teardown (which closes the connections it knows of) and blocked the drop.
    connection.close()


@pytest.fixture
def tag() -> str:
    """A fresh suffix for the names a browser test creates (its writes commit)."""
    return "-" + uuid.uuid4().hex[:8]


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def passwords_set(tag: str) -> dict[str, Any]:
    """tests.battles.played's users for `tag`, each with the password `pw-<username>`."""
    from tests.battles.played import users

    people = users(tag)
    for user in people.values():
        user.set_password(f"pw-{user.username}")
        user.save()
    return people


@pytest.fixture
def running(committed_db: None, tag: str) -> Any:
    """A battle 40 commands in (attacks, hits, damage), still running; its users can log in."""
    from tests.battles.played import played_battle

    passwords_set(tag)
    return played_battle(commands=40, tag=tag)


def signed_in(browser: Any, site: str, username: str, watch: Any = None) -> Any:
    """A page of a new browser context, logged in as `username` through the login form;
    `watch(page)` is called first, so that it sees the login page too."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    if watch is not None:
        watch(page)
    page.goto(f"{site}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("[type=submit]")
    page.wait_for_url(re.compile(r"/battles/$"))
    return page
