"""The sentences of the events of setting a battle up (battles/engine/battle/events/setup.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.battle import events as ev

from .parts import (
    Names,
    Sentence,
    _cards,
    _reason_rule,
    _rule,
    agreed,
    count,
    rule,
    said,
    sentence,
    t,
)


@sentence(ev.BattleCreated)
def _battle_created(p: Mapping[str, Any], names: Names) -> Sentence:
    setup = p.get("setup", {})
    board = setup.get("board", {}).get("name") or "an unnamed board"
    version = setup.get("rules", {}).get("version", "?")
    dice = setup.get("dice", {}).get("mode", "digital")
    n = len(setup.get("seats", []))
    return (
        t(f"The battle is set up on {board}: {count(n, 'casket')}, ruleset {version}, {dice} dice"),
    )


said(
    ev.DeckShuffled,
    "{who}'s deck of {n:count:card} is shuffled ({reason})",
    n=lambda p: p["cards"] if p.get("order") is None else len(p["order"]),
    reason=lambda p: agreed(p.get("reason", "")),
)


@sentence(ev.WoundDeckShuffled)
def _wound_deck_shuffled(p: Mapping[str, Any], names: Names) -> Sentence:
    seat = p.get("seat")
    up = p.get("face_up") or []
    carried = f", carried face up: {', '.join(up)}" if up else ""
    return (t(f"{names.pilot(seat)}'s wound deck is shuffled{carried}"), *_rule("R-PLT-1"))


@sentence(ev.CardsDrawn)
def _cards_drawn(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    cards = p["cards"]
    if cards and all(c is None for c in cards):
        return (
            t(f"{who} draws {count(len(cards), 'hidden card')}"),
            *_reason_rule(p.get("reason"), p.get("rule")),
        )
    return (
        t(f"{who} draws "),
        *_cards(cards, names),
        *_reason_rule(p.get("reason"), p.get("rule")),
    )


said(ev.HandKept, "{who} keeps the opening hand", rule("R-TRN-1"))


said(
    ev.MulliganTaken,
    "{who} takes a mulligan: {returned:len:card} back into the deck",
    rule("R-TRN-1"),
)
