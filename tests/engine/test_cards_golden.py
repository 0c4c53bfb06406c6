"""The stored form of every card and effect is the one the golden dump recorded.

Events and stored decks hold cards as `as_dict()` writes them; the dump
(`tests/engine/data/cards_golden.json`, written by `tests/engine/golden_cards.py`) fixes
that form key by key, in order, so any change to it fails here.
"""

from __future__ import annotations

import json

import pytest

from tests.engine.golden_cards import (
    DATABASE,
    GOLDEN,
    catalogue_dump,
    database_dump,
    vocabulary_dump,
)


def _golden() -> dict[str, object]:
    doc: dict[str, object] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return doc


def _same(now: object, then: object) -> None:
    # Compared as JSON text: dict equality ignores key order, the stored form does not.
    assert json.dumps(now, ensure_ascii=False) == json.dumps(then, ensure_ascii=False)


def test_catalogue_effects_write_the_golden_form() -> None:
    golden = _golden()["catalogue"]
    now = catalogue_dump()
    assert isinstance(golden, dict)
    assert sorted(now) == sorted(golden)
    for key, effects in golden.items():
        _same(now[key], effects)


def test_every_effect_kind_writes_the_golden_form() -> None:
    _same(vocabulary_dump(), _golden()["vocabulary"])


@pytest.mark.skipif(not DATABASE.exists(), reason="the real card database is absent")
def test_database_cards_write_the_golden_form() -> None:
    golden = _golden()["database"]
    now = database_dump()
    assert isinstance(golden, dict) and now is not None
    assert sorted(now) == sorted(golden)
    for card_id, form in golden.items():
        _same(now[card_id], form)
