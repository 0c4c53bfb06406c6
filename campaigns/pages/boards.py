"""The board editor: a campaign's GM draws boards for the mission wizard.

A board is created from a shape (a hexagon of a radius, or a rectangle), then painted hex by
hex with a terrain kind and a level (a click or Enter on the drawn hex, or the q, r fields).
Every paint is saved at once as a FORMATS.md board document through `campaigns.services`
(`board_paint`, which the engine's board parser checks; a refusal names the parser's field
and rule). The editor previews the line of sight between two hexes with the engine's
`line_of_sight` (R-LOS-1..4) and its cover (R-COV-1..3).

Access: the campaign's GM only (players 403, outsiders 404 for a private campaign, as every
campaign page, R-ADD-31).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from battles.engine.board import MAX_LEVEL, Board, parse_board
from battles.engine.errors import InvalidInput
from battles.engine.hexes import Hex
from battles.engine.los import line_of_sight

from .. import board_drawing, selectors, services
from ..models import Campaign, CampaignBoard
from .common import (
    GET_ONLY,
    GET_POST,
    POST_ONLY,
    REFUSALS,
    FormError,
    gm_campaign_of,
    redirect_to,
    whole,
)


def _board_of(campaign: Campaign, board_id: uuid.UUID) -> CampaignBoard:
    board = selectors.campaign_board_in(campaign=campaign, board_id=board_id)
    if board is None:
        raise Http404("no such board in this campaign")
    return board


def _shape(data: Mapping[str, str]) -> dict[str, Any]:
    kind = data.get("kind", "hexagon")
    if kind == "hexagon":
        return {
            "kind": kind,
            "radius": whole(data.get("radius", ""), "board.shape.radius", "R-BRD-1"),
        }
    if kind == "rectangle":
        return {
            "kind": kind,
            "width": whole(data.get("width", ""), "board.shape.width", "R-BRD-1"),
            "height": whole(data.get("height", ""), "board.shape.height", "R-BRD-1"),
        }
    raise InvalidInput("board.shape.kind", "must be 'hexagon' or 'rectangle'", "R-BRD-1")


@GET_POST
def board_list_page(request: HttpRequest, campaign_id: uuid.UUID) -> HttpResponse:
    """The campaign's drawn boards, and the form that starts a new one (PRG to its editor)."""
    campaign = gm_campaign_of(request, campaign_id)
    errors: list[FormError] = []
    if request.method == "POST":
        try:
            board = services.board_create(
                campaign=campaign,
                actor=request.user,  # type: ignore[arg-type]
                name=request.POST.get("name", ""),
                shape=_shape(request.POST),
            )
        except REFUSALS as exc:
            errors = FormError.of(exc)
        else:
            return redirect_to("board-editor", campaign.id, board.id)
    context = {
        "campaign": campaign,
        "boards": selectors.campaign_boards(campaign=campaign),
        "errors": errors,
        "form": request.POST if errors else {},
        "max_radius": services.EDITOR_MAX_RADIUS,
        "max_side": services.EDITOR_MAX_SIDE,
    }
    return render(request, "campaigns/boards.html", context, status=400 if errors else 200)


def _hex_param(data: Mapping[str, str], prefix: str) -> tuple[int, int] | None:
    """The hex of `<prefix>_q`, `<prefix>_r` when both are given; InvalidInput otherwise."""
    q, r = data.get(f"{prefix}_q", "").strip(), data.get(f"{prefix}_r", "").strip()
    if not q and not r:
        return None
    return (whole(q, f"{prefix}_q", "R-BRD-1"), whole(r, f"{prefix}_r", "R-BRD-1"))


def _los(board: Board, data: Mapping[str, str]) -> dict[str, Any] | None:
    """The engine's line of sight between the two chosen hexes, in words with its rulings."""
    a, b = _hex_param(data, "from"), _hex_param(data, "to")
    if a is None or b is None:
        return None
    for name, h in (("from", a), ("to", b)):
        if Hex(*h) not in board:
            raise InvalidInput(f"{name}_q", f"hex {h[0]},{h[1]} is not on the board", "R-BRD-1")
    result = line_of_sight(board, Hex(*a), Hex(*b))
    sources = [
        {
            "at": f"{s.at.q},{s.at.r}",
            "what": s.terrain.replace("_", " ") if s.terrain else s.kind,
            "cover": s.cover,
            "rule": s.rule,
        }
        for s in result.cover_sources
    ]
    blocked = result.blocked_by
    return {
        "from": f"{a[0]},{a[1]}",
        "to": f"{b[0]},{b[1]}",
        "a": a,
        "b": b,
        "clear": result.clear,
        "distance": result.distance,
        "blocked_by": f"{blocked.q},{blocked.r}" if blocked is not None else "",
        "blocked_terrain": board.terrain_at(blocked).name.replace("_", " ") if blocked else "",
        "divided": result.divided,
        "cover": result.cover,
        "sources": sources,
        "elevation": result.cover_ignored_by_elevation,
    }


def _editor_context(
    campaign: Campaign, board: CampaignBoard, data: Mapping[str, str], errors: list[FormError]
) -> dict[str, Any]:
    parsed = parse_board(board.document, "board")
    los = None
    try:
        los = _los(parsed, data)
    except InvalidInput as exc:
        errors = [*errors, *FormError.of(exc)]
    marks = []
    line = None
    if los is not None:
        marks = [
            board_drawing.Mark(
                los["a"][0], los["a"][1], "A", "line of sight from here (A)", kind="los"
            ),
            board_drawing.Mark(
                los["b"][0], los["b"][1], "B", "line of sight to here (B)", kind="los"
            ),
        ]
        line = (los["a"], los["b"], los["clear"])
    kinds = sorted(parsed.kinds, key=lambda n: (n != "clear", n))
    return {
        "campaign": campaign,
        "board": board,
        "drawing": board_drawing.drawing(parsed, marks, line),
        "los": los,
        "errors": errors,
        "kinds": [
            {
                "name": k,
                "words": k.replace("_", " "),
                "traits": board_drawing.kind_traits(parsed.kinds[k]),
            }
            for k in kinds
        ],
        "levels": range(MAX_LEVEL + 1),
        "form": data,
        "document": json.dumps(board.document, indent=1),
        "hexes": len(parsed.cells),
    }


def _editor(
    request: HttpRequest,
    campaign: Campaign,
    board: CampaignBoard,
    data: Mapping[str, str],
    errors: list[FormError],
    status: int | None = None,
) -> HttpResponse:
    """The editor, or its board area for htmx; `status` None: 400 when the line-of-sight
    fields were refused (they name the field), else 200."""
    context = _editor_context(campaign, board, data, errors)
    if status is None:
        status = 400 if context["errors"] else 200
    if request.htmx:  # type: ignore[attr-defined]
        context["area_errors"], context["errors"] = context["errors"], []
    template = "campaigns/_board_area.html" if request.htmx else "campaigns/board_editor.html"  # type: ignore[attr-defined]
    response = render(request, template, context, status=status)
    response["Vary"] = "HX-Request"
    return response


@GET_ONLY
def board_editor_page(
    request: HttpRequest, campaign_id: uuid.UUID, board_id: uuid.UUID
) -> HttpResponse:
    """The board drawn, the paint form, the line-of-sight preview (`from_q`, `from_r`,
    `to_q`, `to_r`; htmx answers the board area only)."""
    campaign = gm_campaign_of(request, campaign_id)
    board = _board_of(campaign, board_id)
    errors: list[FormError] = []
    return _editor(request, campaign, board, request.GET, errors)


@POST_ONLY
def board_paint(request: HttpRequest, campaign_id: uuid.UUID, board_id: uuid.UUID) -> HttpResponse:
    """Paint one hex (q, r) with `terrain` and `level`; saved at once (PRG to the editor, or
    the board area for htmx). A refusal names the field and rule and saves nothing."""
    campaign = gm_campaign_of(request, campaign_id)
    board = _board_of(campaign, board_id)
    data = request.POST
    try:
        cell = (whole(data.get("q", ""), "q", "R-BRD-1"), whole(data.get("r", ""), "r", "R-BRD-1"))
        level = whole(data.get("level", "0"), "level", "R-BRD-4")
        board = services.board_paint(
            board=board,
            actor=request.user,  # type: ignore[arg-type]
            cells=[cell],
            terrain=data.get("terrain", "clear"),
            level=level,
        )
    except REFUSALS as exc:
        return _editor(request, campaign, board, data, FormError.of(exc), status=400)
    if request.htmx:  # type: ignore[attr-defined]
        return _editor(request, campaign, board, data, [], status=200)
    return redirect_to("board-editor", campaign.id, board.id, anchor="paint")


@POST_ONLY
def board_delete(request: HttpRequest, campaign_id: uuid.UUID, board_id: uuid.UUID) -> HttpResponse:
    campaign = gm_campaign_of(request, campaign_id)
    board = _board_of(campaign, board_id)
    services.board_delete(board=board, actor=request.user)  # type: ignore[arg-type]
    return redirect_to("board-list", campaign.id)
