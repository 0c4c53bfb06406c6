"""Scenarios for the catalogue entries of issue 17's "misc" group (R-ADD-150 to R-ADD-159):
thrown weapons, "OR: spend tokens" alternatives, discards made as part of an attack,
recovering a named card. Played through decide/evolve with the helpers of
test_card_catalogue.py; `test_every_automated_entry_has_a_scenario_below` (there) counts
these scenarios with the others.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .test_card_catalogue import (
    AUTOMATED,
    ENTRIES,
    Attack,
    built,
    check_attack,
)

MISC_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


# --- R-ADD-150: thrown weapons ------------------------------------------------------------------


def _throw(cid: str, reach: int, damage: int) -> None:
    """ "Deal N damage, discard this card": a plain attack at the printed range whose card
    goes to the discard pile as any played card does (R-ADD-150), where the item's
    "Recover 1 discarded Hand Axe card" finds it; it is not removed from the game."""
    b = check_attack("equipment_items", cid, Attack(reach, damage))
    assert f"{cid}#1" in b.seat(0).discard and not b.seat(0).removed
    card = built("equipment_items", cid)
    assert [e.kind for e in card.effects] == ["attack"]
    assert b.seat(0).discard.count(f"{cid}#1") == 1


MISC_SCENARIOS.update({
    ("equipment_items", "hand-axe-throw"): lambda: _throw("hand-axe-throw", 3, 3),
    ("equipment_items", "spear-javelin-throw"): lambda: _throw("spear-javelin-throw", 5, 5),
})  # fmt: skip


@pytest.mark.parametrize("key", sorted(MISC_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_misc_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    assert ENTRIES[key].text  # the scenario's docstring quotes it
    MISC_SCENARIOS[key]()
