"""The pages' shared watcher fragments: every watcher of a battle sees the same frame and
log lines at a step (R-ADD-28; no play panel, nothing of who asks), so a page following
the battle gets them rendered once per battle, step and head, from the site's cache, and
fifty watchers after a command cost one rendering of each (bench/live_server_cost.py). A
seat's or the GM's fragments show hidden cards and their own controls: they are never
kept, and never read from there.

Committed for real (conftest `committed_db`): a fragment is kept only when autocommit
reads rendered it, which a test's wrapping transaction would hide.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from battles import pages
from tests.battles.api_calls import send, version
from tests.battles.test_live_watcher_cache import SEATS, Recording, table


def frame(client: Client, bid: str, at: int) -> bytes:
    response = client.get(f"/battles/{bid}/replay/?at={at}", HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content[:300]
    assert "HX-Request" in response["Vary"]
    return bytes(response.content)


def log(client: Client, bid: str, after: int) -> bytes:
    response = client.get(f"/battles/{bid}/replay/log?after={after}")
    assert response.status_code == 200, response.content[:300]
    return bytes(response.content)


def key(fragment: str, bid: str, step: int) -> str:
    return pages.watcher_fragment_key(
        fragment=fragment, battle_id=bid, step=step, head=version(bid)
    )


def test_the_second_watcher_reads_the_first_ones_fragments_in_few_queries(
    committed_db: None,
) -> None:
    bid, clients = table()
    head = version(bid)
    # Read each capture before the next request: a request's start empties the query log.
    with CaptureQueriesContext(connection) as queries:
        first_frame = frame(clients["watcher"], bid, head)
    rendered_frame = len(queries)
    with CaptureQueriesContext(connection) as queries:
        first_log = log(clients["watcher"], bid, 0)
    rendered_log = len(queries)
    with CaptureQueriesContext(connection) as queries:
        second_frame = frame(clients["watcher2"], bid, head)
    frame_statements = [q["sql"] for q in queries]
    with CaptureQueriesContext(connection) as queries:
        second_log = log(clients["watcher2"], bid, 0)
    log_statements = [q["sql"] for q in queries]
    assert second_frame == first_frame and second_log == first_log
    assert b'data-line="1"' in first_log and b"data-step" in first_frame
    # The second watcher's requests read only the session, its user, and the battle with
    # the asker's role and the stream's head (one query); no event, no state.
    assert len(frame_statements) == 3 and len(log_statements) == 3, (
        frame_statements,
        log_statements,
    )
    assert rendered_frame > 3 and rendered_log > 3
    for statement in (*frame_statements, *log_statements):
        assert "eventstore_snapshot" not in statement
    assert sum("eventstore_event" in s for s in frame_statements) == 1  # the head, in the join


def test_a_watchers_fragments_hold_nothing_of_who_asks(
    committed_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rendered for each watcher apart (nothing kept), the fragments are the same bytes,
    with neither watcher's name nor a CSRF token in them: what one is given suits all."""

    class Nothing:
        def get(self, *a: Any, **k: Any) -> Any:
            return None

        def set(self, *a: Any, **k: Any) -> None:
            return None

    bid, clients = table()
    head = version(bid)
    monkeypatch.setattr(pages, "cache", Nothing())
    for fetch, step in ((frame, head), (frame, 1), (log, 0)):
        one, two = fetch(clients["watcher"], bid, step), fetch(clients["watcher2"], bid, step)
        assert one == two
        assert b"csrf" not in one.lower() and b"watcher-" not in one


def test_no_seat_reads_or_fills_the_watchers_fragments(
    committed_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    bid, clients = table()
    head = version(bid)
    recording = Recording()
    monkeypatch.setattr(pages, "cache", recording)
    for name in (*SEATS, "gm"):
        frame(clients[name], bid, head)
        log(clients[name], bid, 0)
    assert recording.asked == [] and recording.kept == []
    frame(clients["watcher"], bid, head)
    log(clients["watcher"], bid, 0)
    kept = [key("frame", bid, head), key("log", bid, 0)]
    assert recording.asked == kept and recording.kept == kept


def test_a_seat_never_gets_what_is_kept_for_watchers(committed_db: None) -> None:
    """Whatever the cache holds under the watchers' keys, a seat's frame and log lines are
    rendered for that seat: a wrong entry there reaches watchers only, never a seat's hand
    to another seat."""
    bid, clients = table()
    head = version(bid)
    planted = b"<p>planted for watchers</p>"
    keys = [key("frame", bid, head), key("log", bid, 0)]
    for k in keys:
        cache.set(k, planted, 60)
    try:
        assert frame(clients["watcher"], bid, head) == planted
        assert log(clients["watcher"], bid, 0) == planted
        for name, seat in SEATS.items():
            own = frame(clients[name], bid, head)
            assert own != planted and f'data-seat-hand="{seat}"'.encode() in own
            assert log(clients[name], bid, 0) != planted
        assert frame(clients["gm"], bid, head) != planted
        assert log(clients["gm"], bid, 0) != planted
    finally:
        for k in keys:
            cache.delete(k)


def test_a_new_command_is_a_new_frame(committed_db: None) -> None:
    bid, clients = table()
    before = version(bid)
    old = frame(clients["watcher"], bid, before)
    state = clients["gm"].get(f"/api/battles/{bid}/").json()["state"]
    sent = send(clients["gm"], bid, {"type": "pass", "seat": state["active"]})
    assert sent.status_code == 201, sent.content
    head = version(bid)
    # The same step under a newer head: the step bar now reaches the new head.
    again = frame(clients["watcher2"], bid, before)
    assert again != old and f'data-last="{head}"'.encode() in again
    assert frame(clients["watcher"], bid, before) == again
    lines = log(clients["watcher2"], bid, before)
    assert f'data-line="{head}"'.encode() in lines and b'data-line="1"' not in lines


def test_nothing_is_kept_inside_a_transaction(
    committed_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    bid, clients = table()
    head = version(bid)
    recording = Recording()
    monkeypatch.setattr(pages, "cache", recording)
    with transaction.atomic():
        frame(clients["watcher"], bid, head)
        log(clients["watcher"], bid, 0)
    assert recording.kept == [] and len(recording.asked) == 2


def test_the_cache_down_costs_the_rendering_not_the_fragment(
    committed_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Down:
        def get(self, *a: Any, **k: Any) -> Any:
            raise ConnectionError("cache unreachable")

        set = get

    bid, clients = table()
    head = version(bid)
    expected_frame, expected_log = (
        frame(clients["watcher"], bid, head),
        log(clients["watcher"], bid, 0),
    )
    monkeypatch.setattr(pages, "cache", Down())
    assert frame(clients["watcher2"], bid, head) == expected_frame
    assert log(clients["watcher2"], bid, 0) == expected_log
