"""Scenarios for the Vestige catalogue entries that read a casket's bloodline (R-ADD-380),
played through decide/evolve like those of test_card_catalogue.py, whose helpers they use.
Seat 0 ("pack", at [0, 3] facing N) plays the card; seat 1 ("prey") stands adjacent to its
north; further seats name their side, faction and bloodline in their setup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from battles.engine.battle.events import BuffGained
from battles.engine.battle.setup import parse_setup
from battles.engine.cards import CardDef, card_from_dict
from battles.engine.errors import InvalidInput

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, seat, setup, start
from .test_card_catalogue import AUTOMATED, built, declared, hit, play, run_scenario

BLOODLINES_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}

VESTIGE = "vestige-bloodlines"
# Another seat: its hex, its side ("pack" is seat 0's), its faction and bloodline.
Other = tuple[tuple[int, int], str, str | None, str | None]


def _pack(card: CardDef, others: Sequence[Other]) -> Battle:
    """Seat 0 holds `card` and the test's Gun and acts first; `others` are seats 2.."""
    cards = [CARDS[FILLER], card.as_dict(), CARDS["gun"]]

    def casket(n: int, at: tuple[int, int], facing: int, side: str, kin: tuple[str | None, ...]):
        s = seat(n, at=at, facing=facing, side=side)
        faction, bloodline = kin
        if faction is not None:
            s["casket"] = {**s["casket"], "faction": faction}
        if bloodline is not None:
            s["casket"] = {**s["casket"], "bloodline": bloodline}
        return s

    seats = [
        {
            **casket(0, (0, 3), 1, "pack", (VESTIGE, "fenmar")),
            "deck": deck(**{card.id: 1, "gun": 1}),
        },
        {**casket(1, (0, 2), 4, "prey", (None, None)), "deck": deck()},
        *(
            {**casket(2 + i, at, 1, side, (faction, bloodline)), "deck": deck()}
            for i, (at, side, faction, bloodline) in enumerate(others)
        ),
    ]
    doc = {
        "name": "Pack", "board": {"name": "Pack", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"}, "policy": "prompt",
        "cards": cards, "seats": seats,
    }  # fmt: skip
    hands = [[card.id, "gun", *[FILLER] * 4], *[[FILLER] * 6] * (len(seats) - 1)]
    b = start(doc, hands, initiative=(6, *range(1, len(seats))))
    assert b.state.active == 0
    return b


def _pack_instinct() -> None:
    """ "Passive: When you attack an enemy adjacent to 1+ allied Vestige Caskets, deal +1
    damage. If adjacent to 2+ Vestige allies, deal +2 damage instead. Bloodline Bonus
    (Fenmar): Gain +3 damage instead if all adjacent allies are also Fenmar bloodline
    (pure pack).": the allies adjacent to the target (seat 1 at [0, 2]), the Gun's 2
    damage plus the bonus (R-ADD-74, R-ADD-121, R-ADD-380)."""
    card = built(VESTIGE, "pack-instinct")
    v = VESTIGE
    near = ((1, 2), (-1, 2), (1, 1))
    cases: list[tuple[list[Other], int]] = [
        ([], 2),
        ([(near[0], "pack", v, "urtok")], 3),  # 1 Vestige ally, not Fenmar
        ([(near[0], "pack", v, None)], 3),  # no bloodline named
        ([(near[0], "pack", v, "urtok"), (near[1], "pack", v, "vexis")], 4),
        ([(near[0], "pack", v, "fenmar")], 5),  # a pure pack of one: +3
        ([(near[0], "pack", v, "fenmar"), (near[1], "pack", v, "fenmar")], 5),  # +3, not +4
        ([(near[0], "pack", v, "fenmar"), *[(h, "pack", v, "fenmar") for h in near[1:]]], 5),
        ([(near[0], "pack", v, "fenmar"), (near[1], "pack", v, "urtok")], 4),  # mixed: +2
        ([(near[0], "pack", v, "fenmar"), (near[1], "pack", "nomads", None)], 3),  # not pure
        ([(near[0], "pack", "emergent", None)], 2),  # no Vestige ally
        ([(near[0], "prey", v, "fenmar")], 2),  # an enemy is no ally
        ([((0, 4), "pack", v, "fenmar")], 2),  # adjacent to the attacker, not the target
    ]
    for others, damage in cases:
        b = _pack(card, others)
        play(b, "pack-instinct")
        assert hit(declared(b, card_from_dict(CARDS["gun"]))) == damage, others
        bonus = sum(e.damage for e in of_type(b.events, BuffGained) if e.source == card.id)
        assert bonus == damage - 2, others


BLOODLINES_SCENARIOS.update({
    (VESTIGE, "pack-instinct"): _pack_instinct,
})  # fmt: skip


@pytest.mark.parametrize("key", sorted(BLOODLINES_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_bloodline_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, BLOODLINES_SCENARIOS[key])


def test_a_setup_names_a_vestige_caskets_bloodline_or_leaves_it_out() -> None:
    """R-ADD-380: `casket.bloodline` is one of the five the database names, only on a
    casket whose setup names the Vestige faction; kept in the normalised setup and the
    casket's state; a setup without it normalises as before."""
    doc = setup()
    assert "bloodline" not in parse_setup(doc)["seats"][0]["casket"]
    doc["seats"][0]["casket"]["faction"] = VESTIGE
    doc["seats"][0]["casket"]["bloodline"] = "urtok"
    assert parse_setup(doc)["seats"][0]["casket"]["bloodline"] == "urtok"
    b = Battle.create(doc)
    assert (b.seat(0).bloodline, b.seat(1).bloodline) == ("urtok", None)
    for casket, field in (
        ({"faction": VESTIGE, "bloodline": "Fenmar (Wolf)"}, "bloodline"),
        ({"bloodline": "fenmar"}, "bloodline"),  # no faction: no bloodline
        ({"faction": "emergent", "bloodline": "fenmar"}, "bloodline"),
    ):
        doc["seats"][1]["casket"] = {**doc["seats"][1]["casket"], **casket}
        with pytest.raises(InvalidInput) as err:
            parse_setup(doc)
        assert (err.value.field, err.value.rule) == (f"seats[1].casket.{field}", "R-ADD-380")
        for key in ("faction", "bloodline"):
            doc["seats"][1]["casket"].pop(key, None)
