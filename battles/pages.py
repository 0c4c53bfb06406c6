"""Server-rendered pages: the battles list and the battle viewer (docs/FRONTEND.md).

The viewer shows the state at any version (`?at=N`), folded from the event stream exactly
as the API's time travel does, with what this viewer may see (R-ADD-28). A full page
carries the parts that do not change while stepping (log, scrub bar, charts); an htmx
request for another step gets only the frame that does (board, current event, panels).
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from battles import board_svg, play_panel, replay
from battles.codec import BATTLE_EVENTS
from battles.engine.arcs import in_firing_arc
from battles.engine.battle import BattleState, public_payload, state_view
from battles.engine.battle.events import EVENT_TYPES
from battles.engine.battle.state import STRAIN_HEAT, PlacedTerrain
from battles.engine.dice import COMPONENTS
from battles.engine.hexes import DIRECTION_NAMES
from battles.engine.los import line_of_sight
from battles.engine.ruleset import (
    DEFAULT_VERSION,
    ENGINE_VERSION,
    RULESETS,
    RULINGS,
    option_in_words,
)
from battles.models import Battle
from battles.selectors import (
    BattleAccess,
    Viewer,
    battle_access,
    battle_events,
    battle_head_version,
    battle_latest_command,
    battle_list_rows,
    battle_setup,
    battle_state_at,
    battle_viewer,
)
from battles.sentences import count, wound_name

ADJUSTMENTS = frozenset(name for name, cls in EVENT_TYPES.items() if cls.ADJUSTMENT)
# Events read back from the current step to find the attack it belongs to: an attack's
# events (declared, rolled, reactive, defence, damage, components, wounds, ended) fit.
ATTACK_WINDOW = 40


@require_GET
@login_required
def battle_list_page(request: HttpRequest) -> HttpResponse:
    rows = battle_list_rows(user=request.user)
    return render(request, "battles/list.html", {"rows": rows})


def _bad_step(request: HttpRequest, battle: Battle, head: int, raw: str) -> HttpResponse:
    context = {"battle": battle, "parameter": "at", "head": head, "given": raw[:40]}
    return render(request, "battles/bad_step.html", context, status=400)


def _access(request: HttpRequest, battle_id: uuid.UUID) -> BattleAccess:
    """The battle, this user's role and the stream's head (one query); 404 for no such
    battle, 403 for outsiders."""
    access = battle_access(battle_id=battle_id, user=request.user)
    if access is None:
        raise Http404("No Battle matches the given query.")
    if access.role is None:
        raise PermissionDenied("you are not the GM, a player or a watcher of this battle")
    return access


def _battle_for(request: HttpRequest, access: BattleAccess) -> tuple[Battle, BattleState, Viewer]:
    """The battle, its state at the head `access` read and what this user may see of it."""
    head = battle_state_at(battle=access.battle, head=access.head)
    viewer = battle_viewer(battle=access.battle, user=request.user, head=head, role=access.role)
    return access.battle, head, viewer


def _is_step(raw: str, head: int) -> bool:
    # ASCII digits only: "²".isdigit() is true, and int("²") fails.
    return raw.isascii() and raw.isdigit() and 1 <= int(raw) <= head


# Every watcher of a battle sees the same frame and log lines at a version (no seat's hand,
# no deck's order while it runs, everything once it is over: R-ADD-28; a watcher has no
# play panel, and the fragments hold no CSRF token, name or other mark of who asks), so a
# page that follows the battle renders them once per battle, step and head for every
# watcher, in the site's cache, as the live feed's updates (battles_api.watcher_updates).
# The GM's and the players' fragments show a seat's hidden cards and their own controls:
# they are never kept, nor read from here. The engine's version, this format's and the
# templates' text are in the key, so a deploy does not serve what the code before it drew;
# a change to how pages.py builds a fragment bumps the format.
WATCHER_FRAGMENT_FORMAT = 2
WATCHER_FRAGMENT_SECONDS = 300
WATCHER_FRAGMENT_TEMPLATES = {"frame": "battles/_frame.html", "log": "battles/_log_lines.html"}
# How long a process waits for another to render a version's watcher fragments.
WATCHER_MAKING_SECONDS = 1


@lru_cache(maxsize=8)
def _template_digest(name: str) -> str:
    return hashlib.sha256(get_template(name).template.source.encode()).hexdigest()[:12]  # type: ignore[attr-defined]


def watcher_fragment_key(*, fragment: str, battle_id: uuid.UUID | str, step: int, head: int) -> str:
    """The cache key of a watcher's `fragment` ("frame" at `step`, "log" after `step`)."""
    digest = _template_digest(WATCHER_FRAGMENT_TEMPLATES[fragment])
    return (
        f"battles:page:{WATCHER_FRAGMENT_FORMAT}:{ENGINE_VERSION}:{digest}:{battle_id}:"
        f"watcher:{fragment}:{step}:{head}"
    )


def _for_watchers(
    access: BattleAccess, fragment: str, step: int, rendering: Callable[[], HttpResponse]
) -> HttpResponse:
    """`rendering()`'s answer; for a watcher, the bytes every watcher is given at this step
    and head (`watcher_fragment`), the same that the watchers' streams carry."""
    if access.role != "watcher":
        return rendering()
    return HttpResponse(watcher_fragment(access, fragment, step))


def _watcher_render(access: BattleAccess, fragment: str, step: int) -> bytes:
    """A watcher's `fragment` rendered without a request: a watcher's frame and log lines
    hold nothing of who asks (no play panel, no CSRF token, no name), so the template
    needs no context processor, and a stream (which has no page request) renders the
    very bytes a fetch would."""
    state = battle_state_at(battle=access.battle, version=access.head, head=access.head)
    viewer = Viewer("watcher", frozenset(), state.over)
    if fragment == "frame":
        shown = (
            state if step == access.head else battle_state_at(battle=access.battle, version=step)
        )
        context = {"f": _frame(access.battle, shown, viewer, access.head), "battle": access.battle}
    else:
        context = _log_context(access.battle, state, viewer, step)
    return render_to_string(WATCHER_FRAGMENT_TEMPLATES[fragment], context).encode()


def watcher_fragment(access: BattleAccess, fragment: str, step: int) -> bytes:
    """A watcher's `fragment` ("frame" at `step`, "log" after `step`) at `access.head`:
    the one another watcher (or a watchers' stream, battles/streams.py) was given at this
    head when there is one. The cache down costs the rendering, not the answer."""
    key = watcher_fragment_key(
        fragment=fragment, battle_id=access.battle.pk, step=step, head=access.head
    )
    try:
        kept = cache.get(key)
    except Exception:  # the cache unreachable: render the fragment here
        kept = None
    if isinstance(kept, bytes):
        return kept
    content = _watcher_render(access, fragment, step)
    # Only what autocommit reads rendered: inside a transaction the events read could
    # still be rolled back (as selectors keeps its states).
    if connection.get_autocommit():
        # The cache unreachable: the next watcher renders the fragment again.
        with contextlib.suppress(Exception):
            cache.set(key, content, WATCHER_FRAGMENT_SECONDS)
    return content


def watcher_fragments(*, battle: Battle, after: int, head: int) -> tuple[bytes, bytes] | None:
    """The frame at `head` and the log lines after `after`, as every watcher is given them
    while the stream's head is `head` (what `?at=<head>` (htmx) and `log?after=<after>`
    answer a watcher then): what a watchers' stream pushes (battles/streams.py). From the
    site's cache in one round trip when both are there; else rendered and kept. None when
    the stream has no version `head` (an announcement this read cannot see: the page then
    fetches, as it did before the stream carried fragments)."""
    keys = [
        watcher_fragment_key(fragment="frame", battle_id=battle.pk, step=head, head=head),
        watcher_fragment_key(fragment="log", battle_id=battle.pk, step=after, head=head),
    ]
    try:
        kept = cache.get_many(keys)
    except Exception:  # the cache unreachable: render them here
        kept = {}
    if all(isinstance(kept.get(k), bytes) for k in keys):
        return kept[keys[0]], kept[keys[1]]
    if not 0 <= after < head or battle_head_version(battle=battle) < head:
        return None
    # Every web process hears of a version at about the same moment, and each would render
    # it (~20 ms of CPU) for its own watchers: the first to take the mark renders, the
    # others read its answer from the cache (Redis, shared) within a second, else render.
    if connection.get_autocommit():
        try:
            first = cache.add(f"{keys[0]}:{after}:making", 1, WATCHER_MAKING_SECONDS)
        except Exception:  # the cache unreachable: render here
            first = True
        deadline = time.monotonic() + WATCHER_MAKING_SECONDS
        while not first and time.monotonic() < deadline:
            time.sleep(0.02)
            with contextlib.suppress(Exception):
                kept = cache.get_many(keys)
            if all(isinstance(kept.get(k), bytes) for k in keys):
                return kept[keys[0]], kept[keys[1]]
    access = BattleAccess(battle, "watcher", head)
    return watcher_fragment(access, "frame", head), watcher_fragment(access, "log", after)


def _timeline(battle: Battle, head: BattleState, viewer: Viewer) -> replay.Timeline:
    """The whole battle as the viewer's log, markers and chart series (battles/replay.py)."""
    events = battle_events(battle=battle, limit=head.version)
    return replay.timeline(
        ((e.version, e.type, e.payload, BATTLE_EVENTS.decode(e)) for e in events),
        viewer.seats,
        full=viewer.full,
        adjustment_types=ADJUSTMENTS,
    )


@require_GET
@login_required
def battle_replay_page(request: HttpRequest, battle_id: uuid.UUID) -> HttpResponse:
    access = _access(request, battle_id)
    raw = request.GET.get("at")
    if request.htmx and raw is not None and _is_step(raw, access.head):  # type: ignore[attr-defined]
        # Another step's frame, or the new head's for a page that follows the battle: for
        # a watcher, the one every watcher is given at this step and head.
        at = int(raw)
        response = _for_watchers(access, "frame", at, lambda: _frame_fragment(request, access, at))
        # The frame and the whole page share a URL: caches must keep them apart.
        patch_vary_headers(response, ["HX-Request"])
        return response
    battle, head, viewer = _battle_for(request, access)
    if raw is None:
        # A finished battle is reviewed from the start; a running one opens at its latest step.
        at = 1 if head.over else head.version
    elif not _is_step(raw, head.version):
        return _bad_step(request, battle, head.version, raw)
    else:
        at = int(raw)
    state = head if at == head.version else battle_state_at(battle=battle, version=at)
    frame = _frame(battle, state, viewer, head.version)
    if request.htmx:  # type: ignore[attr-defined]
        response = render(request, "battles/_frame.html", {"f": frame, "battle": battle})
        patch_vary_headers(response, ["HX-Request"])
        return response
    line = _timeline(battle, head, viewer)
    context = {
        "battle": battle,
        "f": frame,
        "head": head.version,
        "over": head.over,
        "role": viewer.role,
        "timeline": line,
        "marker_kinds": [(k, s, label) for k, (s, label) in replay.MARKERS.items()],
        "markers": replay.grouped_markers(line.markers, head.version),
        "charts": _charts(line, head),
        # From the stream's head, not the list's row (a task updates that after the end).
        "status_word": "over"
        if head.over
        else "setting up"
        if head.phase == "setup"
        else "running",
    }
    response = render(request, "battles/replay.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
@login_required
def battle_log_after(request: HttpRequest, battle_id: uuid.UUID) -> HttpResponse:
    """The log lines after version `after` (an htmx fragment): what a page that follows a
    running battle appends when new events arrive, or when it comes back online.

    It reads the events after `after` and the head state (kept, or the nearest snapshot
    and the events after it), never the whole battle: a line's sentence needs only the
    event's payload as this viewer may see it (R-ADD-28) and the names of the setup's
    caskets, pilots and cards, which every state holds alike.
    """
    access = _access(request, battle_id)
    raw = request.GET.get("after", "")
    if not (raw.isascii() and raw.isdigit()) or int(raw) > access.head:
        return _bad_step(request, access.battle, access.head, raw)
    after = int(raw)
    return _for_watchers(access, "log", after, lambda: _log_lines(request, access, after))


def _log_lines(request: HttpRequest, access: BattleAccess, after: int) -> HttpResponse:
    battle, head, viewer = _battle_for(request, access)
    context = _log_context(battle, head, viewer, after)
    return render(request, "battles/_log_lines.html", context)


def _log_context(battle: Battle, head: BattleState, viewer: Viewer, after: int) -> dict[str, Any]:
    names = replay.Names.of(head)
    lines = [
        replay.log_line(
            e.version,
            e.type,
            public_payload(e.type, e.payload, viewer.seats, full=viewer.full),
            names,
            ADJUSTMENTS,
        )
        for e in battle_events(battle=battle, after=after, limit=head.version - after)
    ]
    return {"lines": lines, "head": head.version}


def _frame_fragment(request: HttpRequest, access: BattleAccess, at: int) -> HttpResponse:
    """The frame at step `at` (1..head), alone: what htmx swaps in."""
    battle, head, viewer = _battle_for(request, access)
    state = head if at == head.version else battle_state_at(battle=battle, version=at)
    frame = _frame(battle, state, viewer, head.version)
    return render(request, "battles/_frame.html", {"f": frame, "battle": battle})


# --- the frame: everything that changes with the step ------------------------------------------


def _frame(battle: Battle, state: BattleState, viewer: Viewer, head: int) -> dict[str, Any]:
    at = state.version
    view = state_view(state, viewer.seats, full=viewer.full)
    names = replay.Names.of(state)
    after = max(0, at - ATTACK_WINDOW)
    window = battle_events(battle=battle, after=after, limit=at - after)
    shown = [
        (e.version, e.type, public_payload(e.type, e.payload, viewer.seats, full=viewer.full))
        for e in window
    ]
    current = shown[-1]
    cells = board_svg.hex_cells(
        ((h.q, h.r) for h in state.board.cells),
        {(h.q, h.r): kind.name for h, kind in state.board.terrain.items()},
        {(h.q, h.r): level for h, level in state.board.levels.items()},
        # Terrain: card-made terrain is labelled on its hex (R-ADD-160/161)
        {(p.q, p.r): _placed_words(p) for p in state.placed_terrain},
    )
    attack = _attack(shown, names, state)
    sides = play_panel.side_names(state)
    play = _play(battle, state, viewer, head)
    return {
        "at": at,
        "head": head,
        # The table (board, status bar, hand, prompt on one screen) while the battle runs
        # and this is its latest step; any earlier step, or a finished battle, is a replay.
        "mode": "table" if at == head and not state.over else "replay",
        "sides": sides,
        "winner_name": sides[state.winner]["name"] if state.winner in sides else None,
        "status": _status(state, view, names, sides, play),
        "result": _result(battle, state, sides) if at == head and state.over else None,
        "state": view,
        "current": {
            "version": current[0],
            "type": current[1],
            "sentence": replay.describe(current[1], current[2], names),
            "adjustment": current[1] in ADJUSTMENTS,
        },
        "attack": attack,
        "board": {
            "cells": cells,
            "cells_svg": board_svg.cells_markup(cells),
            "tokens": board_svg.tokens(view["seats"], {k: v["name"] for k, v in sides.items()}),
            "units": board_svg.unit_tokens(view["units"], view["seats"]),  # R-ADD-400
            "view_box": board_svg.view_box(cells),
            "legend": _legend(state, cells),
            "overlays": _overlays(state),
            "event": _event_drawing(
                current[1], current[2], state, attack, _move_start(battle, current)
            ),
        },
        "panels": _panels(state, view, names, sides),
        "steps": {
            "first": 1,
            "prev": max(1, at - 1),
            "next": min(head, at + 1),
            "last": head,
        },
        "prompts": [
            {**p, "casket": names.casket(p["seat"]), "kind_text": p["kind"].replace("_", " ")}
            for p in view.get("prompts", [])
        ],
        "play": play,
    }


def _status(
    state: BattleState,
    view: Mapping[str, Any],
    names: replay.Names,
    sides: Mapping[str, Mapping[str, Any]],
    play: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The table's status bar: whose turn it is, what the battle waits for, and the acting
    casket's SP, Heat and HP; `mine` when this viewer is the one it waits for."""
    mine = bool(play and play["can_act"])
    if state.over:
        winner = (
            sides[state.winner]["win"]
            if state.winner is not None and state.winner in sides
            else "a draw"
        )
        headline = f"Battle over: {winner}"
        focus = None
    elif state.prompts:
        p = state.prompts[0]
        who = names.casket(p.seat)
        headline = f"Your answer, {who}" if mine else f"Waiting for {who}'s answer"
        focus = p.seat
    elif state.active is not None:
        who = names.casket(state.active)
        headline = f"Your turn: {who}" if mine else f"{who}'s turn"
        focus = state.active
    else:
        headline, focus = "Between turns", None
    if play and play["focus"] is not None and mine:
        focus = play["focus"]
    seat = view["seats"][focus] if focus is not None else None
    doing = play_panel.waiting_for(state, names)
    if mine and not state.prompts and state.active is not None:
        doing = (
            "Select your casket to move or turn it, or a card in your hand to play it; "
            "End the turn when done (R-TRN-5)."
        )
    return {
        "mine": mine,
        "headline": headline,
        "doing": doing,
        "focus": seat,
        "over": state.over,
        "word": "over" if state.over else "running" if state.phase != "setup" else "setting up",
    }


def _wound_words(wounds: Sequence[str]) -> str:
    """A pilot's face-up wounds in words (R-PLT-2): the wound deck's cards by kind.

    >>> _wound_words(("minor-4", "severe-2")), _wound_words(())
    ('2 wounds: minor wound no. 4, severe wound no. 2', 'no wounds')
    """
    if not wounds:
        return "no wounds"
    named = [wound_name(w) for w in wounds]
    return f"{len(wounds)} wound{'s' * (len(wounds) != 1)}: {', '.join(named)}"


def _result(
    battle: Battle, state: BattleState, sides: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """The end of the battle: who won and how (R-TRN-8), the rounds, each pilot's fate, and
    where to go next (the replay, the campaign mission the outcome goes to)."""
    winner = (
        sides[state.winner]["win"]
        if state.winner is not None and state.winner in sides
        else "A draw"
    )
    fates = []
    for c in state.seats:
        casket = "defeated" if c.defeated else "withdrew" if c.withdrawn else "still standing"
        pilot = "dead" if c.pilot_dead else "alive"
        wounds = _wound_words(c.wounds)
        fates.append(
            {
                "pilot": c.pilot,
                "casket": c.name,
                "side": sides[c.side]["name"],
                "text": f"{c.name} {casket}; {c.pilot} {pilot}, {wounds}",
            }
        )
    campaign = battle_setup(battle=battle).get("campaign")
    mission = (
        reverse(
            "mission-page",
            kwargs={"campaign_id": campaign["campaign_id"], "mission_id": campaign["mission_id"]},
        )
        if campaign
        else None
    )
    return {
        "headline": winner[:1].upper() + winner[1:],
        "how": state.result or "",
        "rounds": state.round,
        "fates": fates,
        "mission": mission,
    }


def _play(battle: Battle, state: BattleState, viewer: Viewer, head: int) -> dict[str, Any] | None:
    """The play panel at the latest step of a running battle, for its GM and players."""
    if state.over or viewer.role not in ("gm", "player") or state.version != head:
        return None
    latest = battle_latest_command(battle=battle)
    return play_panel.panel(
        state, viewer.seats, gm=viewer.role == "gm", latest_command=latest[0] if latest else None
    )


def _move_start(
    battle: Battle, current: tuple[int, str, Mapping[str, Any]]
) -> tuple[int, int] | None:
    """Where the casket of a move event stood before it (the state one step earlier)."""
    version, type_, payload = current
    if type_ != "CasketMoved" or version < 2:
        return None
    at = battle_state_at(battle=battle, version=version - 1).seats[payload["seat"]].at
    return at.q, at.r


def _placed_words(p: PlacedTerrain) -> str:
    """The words drawn on a hex of card-made terrain: its kind and when it goes (R-ADD-161)."""
    kind = p.kind.replace("_", " ")
    if p.hp:  # R-ADD-382: the hit points left on the hex
        return f"{kind}, {p.hp} HP"
    if p.until_round:
        return f"{kind}, to round {p.until_round}"
    if p.turns:
        return f"{kind}, {count(p.turns, 'turn')}"
    return kind


def _attack(
    shown: Sequence[tuple[int, str, Mapping[str, Any]]], names: replay.Names, state: BattleState
) -> dict[str, Any] | None:
    """The attack the current step belongs to: from its declaration up to its end."""
    start = None
    for i in range(len(shown) - 1, -1, -1):
        version, type_, payload = shown[i]
        if type_ == "AttackEnded" and i != len(shown) - 1:
            return None  # an attack ended before this step; none is being resolved
        if type_ == "AttackDeclared":
            start = i
            break
    if start is None:
        return None
    declared = shown[start][2]
    th = declared.get("to_hit") or {}
    out: dict[str, Any] = {
        "version": shown[start][0],
        "attacker": names.casket(declared["attacker"]),
        "target": names.casket(declared["target"]),
        "attacker_seat": declared["attacker"],
        "target_seat": declared["target"],
        "card": names.card(declared["card"]),
        "target_number": declared["target_number"],
        "modifiers": th.get("modifiers", []),
        "odds": th.get("odds") or {},
        "distance": th.get("distance"),
        "rows": replay.odds_rows(declared["target_number"], th.get("dice")),
        "rolled": None,
        "defence": None,
        "outcome": None,
    }
    for version, type_, payload in shown[start + 1 :]:
        if type_ == "AttackRolled":
            out["rolled"] = {
                "version": version,
                "sentence": replay.describe(type_, payload, names),
                "grade": payload["grade"],
                "total": payload["total"],
            }
        elif type_ == "DefenceRolled":
            out["defence"] = replay.describe(type_, payload, names)
        elif type_ == "AttackEnded":
            out["outcome"] = payload["outcome"]
    return out


def _legend(state: BattleState, cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return board_svg.legend(state.board.kinds, cells)


def _overlays(state: BattleState) -> list[dict[str, Any]]:
    """Per casket: its firing arc (R-ARC-3) and its line of sight to each enemy with cover
    (R-LOS-1..4, R-COV-1..3), computed by the engine, drawn when the casket is selected."""
    out = []
    standing = [c for c in state.seats if c.in_battle]
    for c in standing:
        arc = [
            board_svg.hex_points(h.q, h.r)
            for h in sorted(state.board.cells)
            if h != c.at and in_firing_arc(c.at, c.facing, h)
        ]
        lines = []
        for e in standing:
            if e.side == c.side:
                continue
            others = [o.at for o in standing if o.seat not in (c.seat, e.seat)]
            los = line_of_sight(state.board, c.at, e.at, others)
            x1, y1 = board_svg.centre(c.at.q, c.at.r)
            x2, y2 = board_svg.centre(e.at.q, e.at.r)
            if los.clear:
                cover = "no cover" if los.cover == "none" else f"{los.cover} cover"
                hexes = f"{los.distance} hex{'es' if los.distance != 1 else ''}"
                text = f"sight to {e.name}: clear, {cover}, {hexes}"
            else:
                b = los.blocked_by
                where = f" at {b.q},{b.r}" if b is not None else ""
                text = f"sight to {e.name}: blocked{where}"
            lines.append(
                {
                    "x1": round(x1, 1),
                    "y1": round(y1, 1),
                    "x2": round(x2, 1),
                    "y2": round(y2, 1),
                    "mx": round((x1 + x2) / 2, 1),
                    "my": round((y1 + y2) / 2, 1),
                    "clear": los.clear,
                    "text": text,
                    "rule": "R-COV-1" if los.clear else "R-LOS-2",
                }
            )
        out.append({"seat": c.seat, "name": c.name, "arc": arc, "lines": lines})
    return out


def _event_drawing(
    type_: str,
    p: Mapping[str, Any],
    state: BattleState,
    attack: dict[str, Any] | None,
    start: tuple[int, int] | None = None,
) -> dict[str, Any] | None:
    """What the current event draws on the board: a move's path, an attack's line, a turn."""
    if type_ == "CasketMoved":
        # The path leaves out the start hex (R-MOV-3); `start` is where the casket stood.
        hexes = ([start] if start else []) + [tuple(h) for h in p["path"]]
        points = " ".join("{:.1f},{:.1f}".format(*board_svg.centre(q, r)) for q, r in hexes)
        end = p["path"][-1]
        return {"kind": "move", "points": points, "label": f"moved to {end[0]},{end[1]}"}
    if type_ == "CasketRotated":
        c = state.seats[p["seat"]]
        x, y = board_svg.centre(c.at.q, c.at.r)
        facing = DIRECTION_NAMES.get(p["facing"], "?")
        return {
            "kind": "rotate",
            "x": round(x, 1),
            "y": round(y - 26, 1),
            "label": f"turned to {facing}",
        }
    if attack is not None:
        a = state.seats[attack["attacker_seat"]]
        d = state.seats[attack["target_seat"]]
        x1, y1 = board_svg.centre(a.at.q, a.at.r)
        x2, y2 = board_svg.centre(d.at.q, d.at.r)
        result = attack["outcome"] or (attack["rolled"] or {}).get("grade") or "declared"
        return {
            "kind": "attack",
            "x1": round(x1, 1),
            "y1": round(y1, 1),
            "x2": round(x2, 1),
            "y2": round(y2, 1),
            "mx": round((x1 + x2) / 2, 1),
            "my": round((y1 + y2) / 2 - 8, 1),
            "label": f"{attack['card'][2]}: {attack['target_number']}+ → {result}",
        }
    return None


def _panels(
    state: BattleState,
    view: Mapping[str, Any],
    names: replay.Names,
    side_names: Mapping[str, Mapping[str, Any]],
) -> list[dict[str, Any]]:
    threshold = int(state.ruleset.option("component_threshold"))
    sides = list(dict.fromkeys(c.side for c in state.seats))
    out = []
    for c, v in zip(state.seats, view["seats"], strict=True):
        hand = v.get("hand")
        out.append(
            {
                "v": v,
                "hand": None if hand is None else [names.card(i) for i in hand],
                "discard": [names.card(i) for i in c.discard],
                "damage_pile": [names.card(i) for i in c.damage_pile],
                "components": [
                    {
                        "name": replay.COMPONENT_NAMES[k],
                        "damage": c.component_damage[i],
                        "threshold": threshold,
                        "destroyed": k in c.destroyed,
                    }
                    for i, k in enumerate(COMPONENTS)
                ],
                "strain_heat": STRAIN_HEAT,
                "status": "defeated"
                if c.defeated
                else "withdrawn"
                if c.withdrawn
                else ("to act" if state.active == c.seat else "in battle"),
                "facing_name": DIRECTION_NAMES.get(c.facing, "?"),
                "side_index": sides.index(c.side),
                "side_name": side_names[c.side]["name"],
                "wounds": _wound_words(c.wounds),
            }
        )
    return out


# --- the charts: HP, Heat and component damage per casket over the rounds ------------------------


def _charts(line: replay.Timeline, head: BattleState) -> list[dict[str, Any]]:
    charts = []
    for key, title in (("hp", "HP"), ("heat", "Heat"), ("component_damage", "Component damage")):
        series: list[dict[str, Any]] = []
        for c in head.seats:
            points = line.series.get(c.seat, [])
            series.append(
                {
                    "seat": c.seat,
                    "name": c.name,
                    "points": [
                        {"label": p["label"], "version": p["version"], "value": p[key]}
                        for p in points
                    ],
                }
            )
        labels = [p["label"] for p in (series[0]["points"] if series else [])]
        charts.append({"key": key, "title": title, "labels": labels, "series": series})
    return charts


# --- the rulings every page links to ------------------------------------------------------------

ADDENDA_PATH = Path(settings.BASE_DIR) / "docs" / "RULINGS-ADDENDA.md"
_ADDENDUM = re.compile(r"^- \*\*(R-[A-Z]+-\d+)\s*(.*)$")
_SECTION = re.compile(r"^##+\s+(.*)$")
# A heading's trailing note of where a section came from ("(issue 17, …)") is history,
# not a name a reader looks for.
_HEADING_NOTE = re.compile(r"\s*\((?:issue|issues)\b[^)]*\)\s*$")

# The chapters of RULINGS.md, by the prefix their IDs share, in the document's order.
RULING_CHAPTERS = (
    ("R-BRD", "Board"),
    ("R-RNG", "Range"),
    ("R-LOS", "Line of sight"),
    ("R-COV", "Cover"),
    ("R-ARC", "Facing and arcs"),
    ("R-ELV", "Elevation"),
    ("R-HIT", "To-hit"),
    ("R-DMG", "Damage and defence"),
    ("R-REA", "Reactive cards"),
    ("R-TRN", "Turn structure"),
    ("R-PLT", "Pilots and the campaign"),
    ("R-VAR", "Variants (options, off by default)"),
)


# A ruling's text as the page shows it: plain words, and the API's own names (commands,
# error codes, option keys) quoted as code, so a reader sees which words are to be typed.
Segments = tuple[tuple[str, bool], ...]
_CODE_SPAN = re.compile(r"`([^`]*)`")
_API_NAME = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def _segments(text: str) -> Segments:
    """The text split into (words, is_code) parts at its `backtick` spans.

    >>> _segments("option `round_limit` ends it")
    (('option ', False), ('round_limit', True), (' ends it', False))
    """
    parts = _CODE_SPAN.split(text)
    return tuple((part, i % 2 == 1) for i, part in enumerate(parts) if part)


@dataclass(frozen=True)
class RulingSection:
    """One chapter of the rulings page: its anchor, its title and its (ID, text) rows."""

    anchor: str
    title: str
    rulings: tuple[tuple[str, Segments], ...]


@lru_cache(maxsize=1)
def _addenda_sections() -> tuple[RulingSection, ...]:
    """The project's own rulings (docs/RULINGS-ADDENDA.md) as (ID, text), under the
    file's own section headings, in file order."""
    sections: list[tuple[str, list[tuple[str, list[str]]]]] = []
    current: list[tuple[str, list[str]]] | None = None
    for line in ADDENDA_PATH.read_text(encoding="utf-8").splitlines():
        heading = _SECTION.match(line)
        m = _ADDENDUM.match(line)
        if heading:
            current = []
            sections.append((_HEADING_NOTE.sub("", heading.group(1)).strip(), current))
        elif m:
            if current is None:
                current = []
                sections.append(("Addenda", current))
            current.append((m.group(1), [m.group(2)]))
        elif current and line.startswith("  ") and line.strip():
            current[-1][1].append(line.strip())
        elif current and not line.strip():
            current.append(("", []))  # a blank line ends an entry
    out = []
    for n, (title, rows) in enumerate(sections):
        entries = tuple(
            (rid, _segments(" ".join(words).replace("**", ""))) for rid, words in rows if rid
        )
        if entries:
            out.append(RulingSection(f"addenda-{n}", title, entries))
    return tuple(out)


def _title_segments(title: str) -> Segments:
    """A RULINGS.md title as the engine carries it: the option keys it names are code.

    >>> _title_segments("Option range_model: half_max")
    (('Option ', False), ('range_model', True), (': ', False), ('half_max', True))
    """
    return _segments(_API_NAME.sub(lambda m: f"`{m.group(0)}`", title))


def _ruling_sections() -> tuple[RulingSection, ...]:
    """RULINGS.md's rulings (as the engine carries their titles), chapter by chapter."""
    ordered = sorted(RULINGS.items(), key=lambda kv: _ruling_key(kv[0]))
    out = []
    for prefix, title in RULING_CHAPTERS:
        rows = tuple(
            (rid, _title_segments(text)) for rid, text in ordered if rid.startswith(prefix + "-")
        )
        if rows:
            out.append(RulingSection(prefix.lower(), title, rows))
    known = {prefix for prefix, _ in RULING_CHAPTERS}
    rest = tuple(
        (rid, _title_segments(text)) for rid, text in ordered if rid.rpartition("-")[0] not in known
    )
    if rest:
        out.append(RulingSection("other", "Other rulings", rest))
    return tuple(out)


def _option_glossary() -> tuple[dict[str, Any], ...]:
    """Every ruleset option in words: what it means, its ruling and each value it takes
    (the glossary campaign and battle pages link to, `/rules/#option-<name>`)."""
    out = []
    for name, spec in RULESETS[DEFAULT_VERSION].options.items():
        first = option_in_words(name, spec.default)
        values = [option_in_words(name, v).value for v in spec.allowed]
        if spec.minimum is not None:
            values.append(f"after round N (N of at least {spec.minimum})")
        out.append(
            {
                "name": name,
                "label": first.label,
                "description": first.description,
                "rule": first.rule,
                "values": values,
                "default": first.value,
            }
        )
    return tuple(out)


@require_GET
def rulings_page(request: HttpRequest) -> HttpResponse:
    """Every ruling ID the pages cite, with its title (RULINGS.md, as the engine carries it)
    or its text (the project's addenda), in chapters with a table of contents and a filter
    that narrows them as the reader types; each has an anchor, `/rules/#R-RNG-1`."""
    return render(
        request,
        "battles/rulings.html",
        {
            "rulings": _ruling_sections(),
            "addenda": _addenda_sections(),
            "options": _option_glossary(),
        },
    )


def _ruling_key(rid: str) -> tuple[str, int]:
    prefix, _, number = rid.rpartition("-")
    return prefix, int(number) if number.isdigit() else 0
