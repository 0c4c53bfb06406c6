"""The replay written for people: each event as a sentence of parts, a log grouped by round
and turn, the scrub bar's key moments and the per-casket series the charts draw.

Presentation only: every number here was decided by the engine and stored in an event
(to-hit lines, dice, odds) or is read off the engine's state (HP, Heat, component damage).
Payloads come through `public_payload` first, so a viewer's log never names a card they may
not see (R-ADD-28). No Django: the pages module feeds it recorded events.

Each event's sentence (a tuple of parts) is written in battles/sentences, registered by
event class; this module re-exports its names for the pages and the tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from battles.engine.battle import BattleState, evolve, public_payload
from battles.engine.dice import GRADES, DicePool, grade_distribution
from battles.sentences import COMPONENT_NAMES as COMPONENT_NAMES
from battles.sentences import SENTENCES as SENTENCES
from battles.sentences import Names as Names
from battles.sentences import Part as Part
from battles.sentences import Sentence as Sentence
from battles.sentences import card_label as card_label
from battles.sentences import describe as describe
from battles.sentences import plain as plain

MARKERS: Mapping[str, tuple[str, str]] = {
    "round": ("R", "round starts"),
    "attack": ("⚔", "attacks"),
    "hit": ("✸", "hits"),
    "destroyed": ("⚙", "destroyed components"),
    "wound": ("✚", "wounds"),
    "defeat": ("☠", "defeats"),
}


# Markers closer than this (in per cent of the scrub bar) are drawn as one, with a count: a
# long battle has hundreds of key moments and a bar is a few hundred pixels wide.
MARKER_SPACING = 1.5


def grouped_markers(markers: Sequence[Mapping[str, Any]], head: int) -> list[dict[str, Any]]:
    """The scrub bar's markers placed along it (`left`, per cent), those that would overlap
    grouped into one: it goes to the group's first moment, shows the gravest kind among them
    (MARKERS' order) and how many moments it holds, and its title lists them.

    >>> ms = [{"version": v, "kind": k, "symbol": MARKERS[k][0], "title": f"{v}: x"}
    ...       for v, k in ((2, "attack"), (3, "hit"), (90, "defeat"))]
    >>> [(m["version"], m["kind"], m["count"]) for m in grouped_markers(ms, 100)]
    [(2, 'hit', 2), (90, 'defeat', 1)]
    """
    gravity = list(MARKERS)
    out: list[dict[str, Any]] = []
    for m in markers:
        left = round(100 * (m["version"] - 1) / max(1, head - 1), 2)
        if out and left - out[-1]["left"] < MARKER_SPACING:
            group = out[-1]
            group["count"] += 1
            group["titles"].append(m["title"])
            if gravity.index(m["kind"]) > gravity.index(group["kind"]):
                group["kind"], group["symbol"] = m["kind"], m["symbol"]
            continue
        out.append({**m, "left": left, "count": 1, "titles": [m["title"]]})
    for group in out:
        titles = group.pop("titles")
        if group["count"] > 1:
            shown = "; ".join(titles[:5]) + ("; …" if len(titles) > 5 else "")
            group["title"] = f"{group['count']} moments: {shown}"
    return out


# --- the timeline of a whole battle ------------------------------------------------------------


@dataclass
class LogLine:
    version: int
    type: str
    sentence: Sentence
    adjustment: bool
    markers: tuple[str, ...]


@dataclass
class Turn:
    seat: int | None
    casket: str
    lines: list[LogLine] = field(default_factory=list)


@dataclass
class Round:
    number: int
    turns: list[Turn] = field(default_factory=list)


@dataclass
class Timeline:
    rounds: list[Round]
    markers: list[dict[str, Any]]
    # Per seat: [{"label", "version", "hp", "heat", "component_damage"}, ...] at every round's
    # start and at the last event: the charts' points.
    series: dict[int, list[dict[str, Any]]]
    turn_starts: list[int]  # versions of TurnStarted, for Shift+arrow stepping
    head: int


def _markers(type_: str, p: Mapping[str, Any]) -> tuple[str, ...]:
    if type_ == "RoundStarted":
        return ("round",)
    if type_ == "AttackDeclared":
        return ("attack",)
    if type_ == "AttackRolled" and p["grade"] not in ("miss", "catastrophic"):
        return ("hit",)
    if type_ == "ComponentDestroyed":
        return ("destroyed",)
    if type_ in ("WoundFlipped", "SurvivalRolled") and (type_ == "WoundFlipped" or p["wounds"]):
        return ("wound",)
    if type_ == "CasketDefeated":
        return ("defeat",)
    return ()


def _point(state: BattleState, label: str) -> dict[int, dict[str, Any]]:
    return {
        c.seat: {
            "label": label,
            "version": state.version,
            "hp": c.hp,
            "heat": c.heat,
            "component_damage": c.total_component_damage,
        }
        for c in state.seats
    }


def log_line(
    version: int,
    type_: str,
    shown: Mapping[str, Any],
    names: Names,
    adjustment_types: frozenset[str],
) -> LogLine:
    """One event's line of the log, from its payload as the viewer may see it."""
    kinds = _markers(type_, shown)
    return LogLine(version, type_, describe(type_, shown, names), type_ in adjustment_types, kinds)


def timeline(
    events: Iterable[tuple[int, str, Mapping[str, Any], Any]],
    seats: frozenset[int],
    *,
    full: bool,
    adjustment_types: frozenset[str],
) -> Timeline:
    """Fold `events` ((version, type, stored payload, decoded event) in order) once into the log,
    the markers and the chart series, as a viewer holding `seats` may see them."""
    state: BattleState | None = None
    names: Names | None = None
    rounds: list[Round] = [Round(0)]
    markers: list[dict[str, Any]] = []
    series: dict[int, list[dict[str, Any]]] = {}
    turn_starts: list[int] = []
    version = 0
    for version, type_, payload, event in events:
        state = evolve(state, event)
        if names is None:
            names = Names.of(state)
        shown = public_payload(type_, payload, seats, full=full)
        if type_ == "RoundStarted":
            rounds.append(Round(shown["round"]))
            for seat, point in _point(state, f"round {shown['round']}").items():
                series.setdefault(seat, []).append(point)
        current = rounds[-1]
        if type_ == "TurnStarted":
            turn_starts.append(version)
            current.turns.append(Turn(shown["seat"], names.casket(shown["seat"])))
        elif not current.turns:
            current.turns.append(Turn(None, ""))
        line = log_line(version, type_, shown, names, adjustment_types)
        current.turns[-1].lines.append(line)
        kinds, sentence = line.markers, line.sentence
        for kind in kinds:
            markers.append(
                {
                    "version": version,
                    "kind": kind,
                    "symbol": MARKERS[kind][0],
                    "title": f"{version}: {plain(sentence)}",
                }
            )
    if state is not None:
        label = "end" if state.over else "now"
        for seat, point in _point(state, label).items():
            series.setdefault(seat, []).append(point)
    return Timeline([r for r in rounds if r.turns], markers, series, turn_starts, version)


def odds_rows(target_number: int, dice: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The exact chance of each grade of an attack (the engine's grade_distribution), as rows
    for the odds chart and its table.

    >>> [(r["grade"], r["chance"]) for r in odds_rows(7, None)][:2]
    [('catastrophic', '1/36'), ('miss', '25/36')]
    """
    pool = DicePool(dice["count"], dice["keep"]) if dice else DicePool(2, "all")
    dist = grade_distribution(target_number, pool)
    return [
        {"grade": g, "chance": _fraction(dist[g]), "percent": round(float(dist[g]) * 100, 1)}
        for g in GRADES
    ]


def _fraction(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}" if f else "0"
