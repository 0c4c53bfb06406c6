"""Server-rendered pages: the battles list and the step-by-step replay of one battle.

The replay shows the state at any version (`?at=N`), folded from the event stream
exactly as the API's time travel does, with what this viewer may see (R-ADD-28).
"""

from __future__ import annotations

import uuid

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from battles import board_svg
from battles.engine.battle import public_payload, state_view
from battles.models import Battle
from battles.selectors import battle_events, battle_list_for, battle_state_at, battle_viewer

EVENTS_AROUND = 12


@require_GET
@login_required
def battle_list_page(request: HttpRequest) -> HttpResponse:
    battles = battle_list_for(user=request.user)  # type: ignore[arg-type]
    return render(request, "battles/list.html", {"battles": battles})


@require_GET
@login_required
def battle_replay_page(request: HttpRequest, battle_id: uuid.UUID) -> HttpResponse:
    battle = get_object_or_404(Battle, pk=battle_id)
    head = battle_state_at(battle=battle)
    viewer = battle_viewer(battle=battle, user=request.user, head=head)  # type: ignore[arg-type]
    if viewer.role is None:
        raise PermissionDenied("you are not part of this battle")
    raw = request.GET.get("at", str(head.version))
    # ASCII digits only: "²".isdigit() is true, and int("²") fails.
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= head.version:
        context = {"battle": battle, "parameter": "at", "head": head.version, "given": raw[:40]}
        return render(request, "battles/bad_step.html", context, status=400)
    at = int(raw)
    state = head if at == head.version else battle_state_at(battle=battle, version=at)
    view = state_view(state, viewer.seats, full=viewer.full)
    start = max(0, at - EVENTS_AROUND)
    events = [
        {
            "version": e.version,
            "type": e.type,
            "payload": public_payload(e.type, e.payload, viewer.seats, full=viewer.full),
            "current": e.version == at,
        }
        for e in battle_events(battle=battle, after=start, limit=2 * EVENTS_AROUND)
    ]
    board = state.board
    cells = board_svg.hex_cells(
        ((h.q, h.r) for h in board.cells),
        {(h.q, h.r): kind.name for h, kind in board.terrain.items()},
        {(h.q, h.r): level for h, level in board.levels.items()},
    )
    context = {
        "battle": battle,
        "board": {
            "cells": cells,
            "tokens": board_svg.tokens(view["seats"]),
            "view_box": board_svg.view_box(cells),
            "terrains": sorted({c["terrain"] for c in cells}),
        },
        "at": at,
        "head": head.version,
        "state": view,
        "events": events,
        "steps": {
            "first": 1,
            "back10": max(1, at - 10),
            "prev": max(1, at - 1),
            "next": min(head.version, at + 1),
            "fwd10": min(head.version, at + 10),
            "last": head.version,
        },
    }
    return render(request, "battles/replay.html", context)
