"""The sentences of the events of the turn's flow (battles/engine/battle/events/turns.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.battle import events as ev

from .parts import (
    Names,
    Part,
    Sentence,
    _d6,
    _rule,
    _signed,
    agreed,
    rule,
    said,
    sentence,
    side_words,
    t,
)

said(ev.RoundStarted, "Round {round} begins")


@sentence(ev.InitiativeRolled)
def _initiative_rolled(p: Mapping[str, Any], names: Names) -> Sentence:
    parts: list[Part] = [t("Initiative: ")]
    for i, throw in enumerate(p["throws"]):
        if i:
            parts.append(t("; tie, again: "))
        for j, (s, face) in enumerate(throw):
            parts += [t(("" if j == 0 else ", ") + f"{names.casket(s)} "), *_d6([face])]
    order = ", ".join(names.casket(s) for s in p["order"])
    return (*parts, t(f" → order: {order}"), *_rule("R-TRN-2"))


said(ev.TurnStarted, "{who}'s turn")


@sentence(ev.SpRestored)
def _sp_restored(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    lines = ", ".join(
        f"{label} {_signed(v) if i else v}" for i, (label, v, _) in enumerate(p["lines"])
    )
    return (t(f"{who} has {p['sp_max']} SP ({lines})"), *_rule("R-TRN-3"))


@sentence(ev.StrainChecked)
def _strain_checked(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    if p.get("roll") is None:
        return (
            t(f"{who} checks strain at {p['heat']} Heat: no roll needed"),
            *_rule("R-TRN-4"),
        )
    outcome = str(p.get("outcome", "")).replace("_", " ")
    return (
        t(f"{who} checks strain at {p['heat']} Heat: rolled "),
        *_d6([p["roll"]]),
        t(f" + {p['heat']} = {p['total']}: {outcome}"),
        *_rule("R-TRN-4"),
    )


said(ev.SpDrained, "{who} loses {amount} SP", rule())


said(ev.TurnEnded, "{who} ends the turn")


said(ev.RoundEnded, "Round {round} ends")


@sentence(ev.BattleWon)
def _battle_won(p: Mapping[str, Any], names: Names) -> Sentence:
    won = f"The {side_words(p['side'])} wins" if p.get("side") else "A draw"
    return (t(f"{won}: {agreed(p['reason'])}"), *_rule(p.get("rule")))
