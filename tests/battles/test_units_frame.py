"""Summoned units on the board frame (R-ADD-400): a token on the unit's hex with its id as
visible text and a label that says everything about it, for every viewer."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from battles import pages
from battles.engine.battle import evolve
from battles.engine.battle.events import UnitSummoned
from battles.engine.demo import demo_setup
from battles.selectors import Viewer, battle_state_at
from battles.services import battle_create
from tests.battles.played import users

pytestmark = pytest.mark.django_db


def test_the_frame_draws_a_unit_on_its_hex_with_a_text_label() -> None:
    battle = battle_create(gm=users()["gm"], setup=demo_setup(seed=2))
    state = battle_state_at(battle=battle)
    free = next(
        h
        for h in sorted(state.board.cells)
        if h not in {c.at for c in state.seats} and not state.board.terrain_at(h).impassable
    )
    summoned = UnitSummoned(0, "u1", "Mercenary", (free.q, free.r), 8, 3, 3, 0, "x#1")
    with_unit = evolve(state, summoned)
    for viewer in (Viewer("gm", frozenset(), True), Viewer(None, frozenset(), False)):
        frame = pages._frame(battle, with_unit, viewer, state.version)
        html = render_to_string("battles/_frame.html", {"f": frame, "battle": battle})
        (token,) = re.findall(r'<g class="unit-token[^"]*" data-unit="u1"[^>]*>', html)
        assert f'data-unit-hex="{free.q},{free.r}"' in token
        assert f"unit u1: Mercenary of {state.seats[0].name} (seat 0) at {free.q},{free.r}" in token
        assert ">u1</text>" in html and "8 HP" in token
    # One [data-hex] per board hex still: the unit's token is not a hex (issue 12's contract).
    hexes = re.findall(r'data-hex="(-?\d+,-?\d+)"', html)
    assert len(hexes) == len(set(hexes)) == len(state.board)
