"""The sentences of the events of the GM's controls (battles/engine/battle/events/gm.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.battle import events as ev
from battles.engine.hexes import DIRECTION_NAMES

from .parts import (
    COMPONENT_NAMES,
    Names,
    Sentence,
    _rule,
    _signed,
    card,
    d6,
    hex_at,
    rule,
    said,
    sentence,
    side_words,
    t,
)

said(ev.CasketWithdrew, "{who} withdraws from the battle", rule())


@sentence(ev.BattleEnded)
def _battle_ended(p: Mapping[str, Any], names: Names) -> Sentence:
    won = f"the {side_words(p['side'])} wins" if p.get("side") else "a draw"
    return (t(f"GM ends the battle: {won} — {p['reason']}"), *_rule(p.get("rule")))


said(ev.TaintAdjusted, "GM sets {pilot}'s Taint to {taint} — {reason}", rule("R-PLT-4"))


said(
    ev.TaintOverloaded,
    "{pilot}'s Taint reaches {taint}: rolled ",
    d6("face"),
    ", {wounds:count:wound}",
    rule("R-PLT-3"),
)


said(ev.HeatAdjusted, "GM sets {who}'s Heat to {heat} — {reason}")


@sentence(ev.ComponentDamageAdjusted)
def _component_damage_adjusted(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    comp = COMPONENT_NAMES.get(p["component"], p["component"])
    gone = ", destroyed" if p.get("destroyed") else ""
    return (
        t(
            f"GM gives {who}'s {comp} {_signed(p['amount'])} damage, {p['total']} in "
            f"all{gone} — {p['reason']}"
        ),
    )


said(
    ev.CasketRelocated,
    "GM moves {who} to ",
    hex_at("at"),
    " facing {facing} — {reason}",
    facing=lambda p: DIRECTION_NAMES.get(p["facing"], str(p["facing"])),
)


said(ev.CardReturned, "GM returns ", card(), " to {who}'s hand from the {from_zone} — {reason}")


@sentence(ev.DiceSecretRevealed)
def _dice_secret_revealed(p: Mapping[str, Any], names: Names) -> Sentence:
    return (
        t(
            "The dice secret is revealed: every roll and shuffle can now be re-derived "
            "and checked against the commitment made at the start"
        ),
        *_rule("R-ADD-45"),
    )


@sentence(ev.CommandReverted)
def _command_reverted(p: Mapping[str, Any], names: Names) -> Sentence:
    first, last = p["from_version"], p["to_version"]
    which = f"event {first}" if first == last else f"events {first}–{last}"
    return (t(f"GM reverts {which} — {p['reason']}"),)
