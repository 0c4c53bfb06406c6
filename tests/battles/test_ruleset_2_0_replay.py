"""A battle recorded under ruleset 2.0 replays exactly as before ruleset 2.1 existed.

`data/battle-2.0.json` was exported (format penance-battle/1, 561 events of a seeded
demo battle under 2.0) by the code as it was before ruleset 2.1, together with the
final state that code folded. Today's code must reproduce every digest and fold the
same state: 2.1 changed no 2.0 event and no 2.0 rule (RULINGS.md "Ruleset 2.1").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from battles.codec import BATTLE_EVENTS
from battles.engine.battle import replay, state_to_dict
from battles.selectors import battle_export, battle_stream
from battles.services import battle_import
from penance_site.eventstore.records import chained_digest
from penance_site.eventstore.store import read_stream, verify

FIXTURE = Path(__file__).parent / "data" / "battle-2.0.json"


@pytest.fixture
def recorded() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def test_the_recorded_battle_is_a_2_0_battle(recorded: dict[str, Any]) -> None:
    assert recorded["export"]["setup"]["rules"]["version"] == "2.0"
    assert len(recorded["export"]["events"]) == 561


@pytest.mark.django_db
def test_a_2_0_battle_imports_with_every_digest_and_folds_the_same_state(
    recorded: dict[str, Any], django_user_model: Any
) -> None:
    gm = django_user_model.objects.create_user(username="gm")
    django_user_model.objects.create_user(username="player")
    document = recorded["export"]
    battle = battle_import(gm=gm, document=document)

    stored = read_stream(battle_stream(battle=battle))
    assert [e.digest for e in stored] == [e["digest"] for e in document["events"]]
    assert verify(battle_stream(battle=battle)).ok
    previous = ""
    for e in stored:  # the chain recomputed by today's store, event by event
        previous = chained_digest(previous, e)
        assert previous == e.digest
    assert battle_export(battle=battle)["events"] == document["events"]

    state = replay(BATTLE_EVENTS.decode(e) for e in stored)
    folded = state_to_dict(state, with_setup=False)
    # The fields 2.1 added to every casket, at the values a 2.0 battle always has, and
    # issue 17's token pools, card Defense, granted moves and scheduled damage (R-ADD-61,
    # R-ADD-64, R-ADD-69, R-ADD-73), which no 2.0 card sets, and the faction a setup may
    # name (R-ADD-121), which this one does not.
    added_fields = (
        "damage_pile",
        "withdrawn",
        "immobilised_by",
        "taint",
        "tokens",
        "defence_bonus",
        "free_move",
        "free_move_source",
        "limited_plays",
        "sp_penalty",
        "damage_next_turn",
        "faction",
        "lent_defence",
    )
    for seat in folded["seats"]:
        added = [seat.pop(name) for name in added_fields]
        assert added == [[], False, None, 0, [], 0, 0, None, [], 0, 0, None, []]
    assert folded == recorded["final_state"]
