"""The demo's battles replay exactly under today's engine.

`data/demo-battles.json.gz` holds the four battles `manage.py load_demo` records (the
finished and the running Ash Causeway, the 1,001-event Long Vigil and the campaign's
mission 1), exported (format penance-battle/1, with every digest) by the engine as it was
before it was reorganised by concept (effects by family, decide, evolve and events as
packages, one pass per command), together with the body of every command that made them
and the final state that engine folded.

Today's code must, for each battle:
- import it with every digest of the chain unchanged;
- decide every recorded command again, on the state before it and with the battle's
  seeded dice, into exactly the recorded events;
- fold the same final state.

A reorganisation that changes a single event, a single die or a single field of the
state fails here.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from battles.codec import BATTLE_EVENTS
from battles.engine.battle import replay, state_to_dict
from battles.engine.battle.commands import parse_command
from battles.engine.battle.decide import decide
from battles.engine.battle.evolve import evolve
from battles.selectors import battle_stream
from battles.services import battle_import
from penance_site.eventstore.records import chained_digest
from penance_site.eventstore.store import read_stream, verify

FIXTURE = Path(__file__).parent / "data" / "demo-battles.json.gz"
NAMES = (
    "Demo: The Ash Causeway (finished, replay)",
    "Demo: The Ash Causeway (in progress)",
    "Demo: The Long Vigil (1,000 events, in progress)",
    "Demo: The Penitent Road: mission 1, The Ash Causeway",
)


@cache
def _recorded() -> dict[str, Any]:
    return {
        b["export"]["battle"]["name"]: b
        for b in json.loads(gzip.decompress(FIXTURE.read_bytes()))["battles"]
    }


def test_the_fixture_holds_the_four_demo_battles_and_their_commands() -> None:
    recorded = _recorded()
    assert tuple(recorded) == NAMES
    assert [len(recorded[n]["export"]["events"]) for n in NAMES] == [322, 248, 1001, 447]
    for name in NAMES:
        ids = {e["command_id"] for e in recorded[name]["export"]["events"]}
        # Every command but the creation has its body.
        assert len(ids) - len(recorded[name]["commands"]) == 1


@pytest.mark.django_db
@pytest.mark.parametrize("name", NAMES)
def test_a_demo_battle_imports_decides_again_and_folds_as_recorded(
    name: str, django_user_model: Any
) -> None:
    recorded = _recorded()[name]
    document = recorded["export"]
    for username in {document["battle"]["gm"], *(s["player"] for s in document["battle"]["seats"])}:
        django_user_model.objects.create_user(username=username)
    gm = django_user_model.objects.get(username=document["battle"]["gm"])
    battle = battle_import(gm=gm, document=document)

    stored = read_stream(battle_stream(battle=battle))
    assert [e.digest for e in stored] == [e["digest"] for e in document["events"]]
    assert verify(battle_stream(battle=battle)).ok
    previous = ""
    for e in stored:
        previous = chained_digest(previous, e)
        assert previous == e.digest

    # Each append again: the command decided on the state before it gives its events.
    groups: list[tuple[str, list[Any]]] = []
    for e in stored:
        if groups and groups[-1][0] == e.command_id:
            groups[-1][1].append(BATTLE_EVENTS.decode(e))
        else:
            groups.append((e.command_id, [BATTLE_EVENTS.decode(e)]))
    state = replay(groups[0][1])
    for command_id, events in groups[1:]:
        command = parse_command(recorded["commands"][command_id])
        assert decide(state, command) == events, command_id
        for event in events:
            state = evolve(state, event)

    folded = state_to_dict(state, with_setup=False)
    for seat, was in zip(folded["seats"], recorded["final_state"]["seats"], strict=True):
        assert {k: seat[k] for k in was} == was
    assert {k: folded[k] for k in recorded["final_state"] if k != "seats"} == {
        k: v for k, v in recorded["final_state"].items() if k != "seats"
    }
