"""A battle recorded under ruleset 2.0 replays exactly as before ruleset 2.1 existed.

`data/battle-2.0.json` was exported (format penance-battle/1, 561 events of a seeded
demo battle under 2.0) by the code as it was before ruleset 2.1, together with the
final state that code folded. Today's code must reproduce every digest and fold the
same state: 2.1 changed no 2.0 event and no 2.0 rule (RULINGS.md "Ruleset 2.1").
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from battles.codec import BATTLE_EVENTS
from battles.engine.battle import replay, state_to_dict
from battles.engine.battle.state import CasketState
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


def _json_default(f: dataclasses.Field[Any]) -> Any:
    """A casket field's default as state_to_dict writes it (tuples as lists)."""
    value = f.default_factory() if f.default is dataclasses.MISSING else f.default  # type: ignore[misc]
    return list(value) if isinstance(value, tuple) else value


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
    # Every casket field added since the recording (2.1's, and issue 17's token pools, card
    # Defense, granted moves, scheduled damage, lasting effects, enhancements, wards, ...:
    # R-ADD-61 onwards) is at its default: no 2.0 card sets any of them. Fields whose value
    # the log itself implies are checked against the log below.
    implied = ("damaged_round", "defeated_round", "discarded_this_turn", "kills")
    recorded_names = set(recorded["final_state"]["seats"][0])
    fields = {f.name: f for f in dataclasses.fields(CasketState)}
    found = []
    for seat in folded["seats"]:
        added = {n: seat.pop(n) for n in list(seat) if n not in recorded_names}
        assert {n: v for n, v in added.items() if n not in implied} == {
            n: _json_default(fields[n]) for n in added if n not in implied
        }
        found.append([added[n] for n in implied])
    # Issue 17's records of the round, the turn and the mission (R-ADD-144): what the log's
    # damage, discards and defeats say.
    last_damaged, rnd = [0, 0], 0
    for e in document["events"]:
        if e["type"] == "RoundStarted":
            rnd = e["payload"]["round"]
        elif e["type"] == "DamageTaken" and (
            e["payload"]["from_hand"] or e["payload"]["from_deck"]
        ):
            last_damaged[e["payload"]["seat"]] = rnd
    assert last_damaged == [19, 8]  # both took damage; neither was defeated
    assert found == [[r, 0, False, []] for r in last_damaged]
    assert folded == recorded["final_state"]
