"""The sentences of the events of summoned units (battles/engine/battle/events/units.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.battle import events as ev

from .parts import Names, Part, Sentence, _rule, card, count, hex_at, path_end, said, sentence, t

said(
    ev.UnitSummoned,
    "{who}'s ",
    card("source"),
    " summons {name} ({unit}: {hp:count:HP/HP}, {movement:count:hex/hexes} of movement, "
    "{damage} melee damage, Defense {defence}) at ",
    hex_at("at"),
    lambda p, names: _rule("R-ADD-400"),
)


def _ordered(p: Mapping[str, Any], names: Names) -> list[Part]:
    """The card that ordered the unit, when one did (R-ADD-409)."""
    return [t(" at the order of "), names.card(p["by_card"])] if p.get("by_card") else []


said(
    ev.UnitMoved,
    "{who}'s unit {unit} moves {path:len:hex/hexes} to ",
    path_end(),
    _ordered,
    lambda p, names: _rule("R-ADD-409" if p.get("by_card") else "R-ADD-401"),
)

said(
    ev.UnitAttacked,
    "{who}'s unit {unit} hits {target:casket} for {damage:count:damage/damage}",
    _ordered,
    lambda p, names: _rule("R-ADD-409" if p.get("by_card") else "R-ADD-401"),
)

said(
    ev.UnitsBoosted,
    "{who}'s ",
    card("source"),
    " gives {units:len:unit/units} ({unit_ids}) +{damage} damage and +{defence} Defense "
    "until the end of round {until_round}",
    lambda p, names: _rule("R-ADD-408"),
    unit_ids=lambda p: ", ".join(p["units"]),
)


@sentence(ev.UnitDamaged)
def _unit_damaged(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    hit = f"{who} hits unit {p['unit']} with "
    taken = f" for {count(p['amount'], 'damage', 'damage')}"
    after = ": it is destroyed" if p["hp"] <= 0 else f": {count(p['hp'], 'HP', 'HP')} left"
    return (t(hit), names.card(p["source"]), t(taken + after), *_rule("R-ADD-404"))
