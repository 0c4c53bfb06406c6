"""The mission wizard: the GM plans a mission's battle (board, deployments, dice, prompt
policy), checked by the engine as it changes, and starts it (R-PLT-5)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render

from battles.engine.board import parse_board
from battles.engine.errors import InvalidInput
from battles.engine.hexes import DIRECTION_NAMES
from battles.engine.ruleset import parse_ruleset

from .. import access, board_drawing, domain, selectors, services
from ..between.decide import deployment_notes
from .common import (
    GET_POST,
    REFUSALS,
    FormError,
    campaign_of,
    whole,
)

CUSTOM_BOARD = "custom"
# The form field naming the side the server's bot drives, by one of its pilots ("" for
# nobody, R-ADD-335).
BOT_SIDE = "bot-side"
MAX_BOARD_TEXT = 200_000


def _wizard_rows(
    state: domain.CampaignState, board: selectors.LibraryBoard | None, data: Mapping[str, str]
) -> list[dict[str, Any]]:
    """One row per pilot: deployable or not (with the reason), the builds of their player,
    and the form's values (or suggestions from the board's deployment hexes)."""
    builds_of: dict[str, list[domain.BuildState]] = {}
    for b in sorted(state.builds.values(), key=lambda b: b.current.name):
        builds_of.setdefault(b.player, []).append(b)
    rows = []
    slot = 0
    used: set[str] = set()
    for p in sorted(
        state.pilots.values(), key=lambda p: (p.status != domain.ALIVE, p.player, p.name)
    ):
        reason = (
            "dead: all 10 wounds face up (R-PLT-1)"
            if p.status == domain.DEAD
            else "retired (R-ADD-31)"
            if p.status == domain.RETIRED
            else ""
        )
        # The pilot's own builds first, then their player's builds of no pilot, then the
        # player's other pilots' builds (R-ADD-220).
        builds = sorted(
            builds_of.get(p.player, []),
            key=lambda b: (b.pilot_id != p.id, b.pilot_id != ""),
        )
        row: dict[str, Any] = {"pilot": p, "reason": reason, "builds": builds}
        # pc-1: what the battle does not apply itself, for the GM (R-ADD-234)
        row["notes"] = deployment_notes(state, p.id)
        if data:
            row.update(
                deploy=data.get(f"deploy-{p.id}") == "on",
                build=data.get(f"build-{p.id}", ""),
                side=data.get(f"side-{p.id}", ""),
                q=data.get(f"q-{p.id}", ""),
                r=data.get(f"r-{p.id}", ""),
                facing=data.get(f"facing-{p.id}", ""),
            )
        else:
            # Pre-tick a pilot only onto a build no other pilot was given: a build drives
            # one casket per mission, so the wizard opens with nothing refused.
            # A destroyed casket waits for its retrofit (R-ADD-352): never pre-ticked.
            free = next(
                (
                    b
                    for b in builds
                    if b.id not in used and b.pilot_id in ("", p.id) and not b.destroyed
                ),
                None,
            )
            deploy = not reason and free is not None
            suggestion = (
                board.deploy[slot % len(board.deploy)]
                if deploy and board and board.deploy
                else None
            )
            row.update(
                deploy=deploy,
                build=free.id if free else (builds[0].id if builds else ""),
                side=p.player,
                q=str(suggestion[0]) if suggestion else "",
                r=str(suggestion[1]) if suggestion else "",
                facing=str(suggestion[2]) if suggestion else "1",
            )
            if free is not None and deploy:
                slot += 1
                used.add(free.id)
        rows.append(row)
    return rows


def _side(row: Mapping[str, Any]) -> str:
    """The row's side as the battle gets it: as typed, or the pilot's player."""
    return str(row["side"]).strip() or str(row["pilot"].player)


def _wizard_seats(
    rows: list[dict[str, Any]], bot_side: str = ""
) -> tuple[list[dict[str, Any]], list[str]]:
    """The seats of the mission from the checked rows, as mission_start takes them, and the
    pilot name of each seat (to name refused seats). `bot_side` is a pilot's id: every
    seat on that pilot's side is the bot's (`"bot": true`, R-ADD-210, R-ADD-335). The form
    names a pilot rather than a side so that its choices hold while sides are typed."""
    seats: list[dict[str, Any]] = []
    names: list[str] = []
    marked = next(
        (r for r in rows if bot_side and str(r["pilot"].id) == bot_side and r["deploy"]), None
    )
    if bot_side and marked is None:
        raise InvalidInput(BOT_SIDE, "choose the side of a deployed pilot, or nobody", "R-ADD-335")
    for row in rows:
        if not row["deploy"]:
            continue
        i = len(seats)
        pilot = row["pilot"]
        side = _side(row)
        seats.append(
            {
                "pilot": pilot.id,
                "build": row["build"],
                "side": side,
                **({"bot": True} if marked is not None and side == _side(marked) else {}),
                "at": [
                    whole(row["q"], f"seats[{i}].at (q of {pilot.name})", "R-BRD-1"),
                    whole(row["r"], f"seats[{i}].at (r of {pilot.name})", "R-BRD-1"),
                ],
                "facing": whole(row["facing"], f"seats[{i}].facing ({pilot.name})", "R-BRD-2"),
            }
        )
        names.append(pilot.name)
    return seats, names


def _seat_named(errors: list[FormError], names: list[str]) -> list[FormError]:
    """`seats[i]…` fields followed by the pilot's name; a seat's `bot` is the form's
    bot side field (R-ADD-212 refuses it with table dice)."""
    out = []
    for e in errors:
        field = e.field or ""
        if field.startswith("seats[") and "]" in field and "(" not in field:
            index = field[6 : field.index("]")]
            if index.isdigit() and int(index) < len(names):
                name = names[int(index)]
                field = f"{BOT_SIDE} ({name})" if field.endswith("].bot") else f"{field} ({name})"
        out.append(FormError(field or None, e.message, e.rule, e.code))
    return out


def _wizard_board(data: Mapping[str, str], library: list[selectors.LibraryBoard]) -> object:
    choice = data.get("board", "")
    if choice == CUSTOM_BOARD:
        text = data.get("board_document", "")
        if len(text) > MAX_BOARD_TEXT:
            raise InvalidInput("board_document", "is too long for a board document", "R-BRD-1")
        try:
            return json.loads(text)
        except ValueError as exc:
            raise InvalidInput(
                "board_document", f"is not JSON: {exc.args[0][:80]}", "R-BRD-1"
            ) from None
    found = next((b for b in library if b.slug == choice), None)
    if found is None:
        raise InvalidInput("board", "choose a board from the library, or paste a board document")
    return found.document


def _wizard_dice(data: Mapping[str, str]) -> dict[str, Any]:
    dice: dict[str, Any] = {"mode": data.get("dice_mode", "digital")}
    seed_raw = data.get("seed", "").strip()
    if seed_raw:
        dice["seed"] = whole(seed_raw, "seed", "R-TRN-1")
    return dice


def _wizard_drawing(
    data: Mapping[str, str],
    board: selectors.LibraryBoard | None,
    rows: list[dict[str, Any]],
) -> dict[str, Any] | None:
    """The chosen board drawn with every deployed pilot where the form puts them (seat
    number, initial, facing line); None when the board document does not parse (the check
    then says why)."""
    document: object = board.document if board is not None else None
    if data.get("board") == CUSTOM_BOARD:
        try:
            document = json.loads(data.get("board_document", "")[:MAX_BOARD_TEXT])
        except ValueError:
            return None
    if document is None:
        return None
    try:
        parsed = parse_board(document)
    except InvalidInput:
        return None
    marks: list[Any] = []
    for row in rows:
        if not row["deploy"] or row["reason"]:
            continue
        try:
            q = whole(row["q"], "q", "R-BRD-1")
            r = whole(row["r"], "r", "R-BRD-1")
        except InvalidInput:
            continue
        facing = int(row["facing"]) if row["facing"] in {"1", "2", "3", "4", "5", "6"} else None
        marks.append(board_drawing.seat_mark(len(marks), row["pilot"].name, q, r, facing))
    return board_drawing.drawing(parsed, marks)


def _wizard_check(
    mission: Any,
    user: Any,
    data: Mapping[str, str],
    library: list[selectors.LibraryBoard],
    rows: list[dict[str, Any]],
) -> tuple[list[FormError], list[dict[str, Any]]]:
    """The deployment as the engine judges it, nothing written: the refusals `mission_start`
    would give (each with its field, named by pilot, and rule), or the seats as the engine
    normalised them."""
    names: list[str] = []
    try:
        seats, names = _wizard_seats(rows, data.get(BOT_SIDE, "").strip())
        setup = services.mission_start_check(
            mission=mission,
            actor=user,
            board=_wizard_board(data, library),
            seats=seats,
            dice=_wizard_dice(data),
            policy=data.get("policy", "prompt"),
        )
    except REFUSALS as exc:
        return _seat_named(FormError.of(exc), names), []
    placed = [
        {
            "seat": i,
            "pilot": names[i],
            "side": s["side"],
            "at": f"{s['at'][0]},{s['at'][1]}",
            "facing": DIRECTION_NAMES[s["facing"]],
            "bot": s.get("bot", False),
        }
        for i, s in enumerate(setup["seats"])
    ]
    return [], placed


@GET_POST
def mission_wizard_page(
    request: HttpRequest, campaign_id: uuid.UUID, mission_id: uuid.UUID
) -> HttpResponse:
    """The GM plans a mission's battle: board, deployments (fields, or a click on the drawn
    board), the side the server's bot drives if any (R-ADD-335), dice, prompt policy; the
    campaign fixes the ruleset (R-PLT-5). Every change is
    checked by the engine at once (htmx asks with `action=check`; without a script the
    "Check deployment" button does); starting opens the battle's replay page."""
    campaign, role = campaign_of(request, campaign_id)
    access.gm_only(role)
    mission = selectors.mission_in(campaign=campaign, mission_id=mission_id)
    if mission is None:
        raise Http404("no such mission in this campaign")
    state = selectors.campaign_state(campaign=campaign)
    library = selectors.board_library_for(campaign=campaign)
    data: Mapping[str, str] = request.POST if request.method == "POST" else {}
    chosen = data.get("board") or request.GET.get("board") or library[0].slug
    board = next((b for b in library if b.slug == chosen), None)
    rows = _wizard_rows(state, board, data)
    bot_side = data.get(BOT_SIDE, "").strip()
    errors: list[FormError] = []
    action = data.get("action", "start")
    if request.method == "POST" and action == "start":
        names: list[str] = []
        try:
            seats, names = _wizard_seats(rows, bot_side)
            battle = services.mission_start(
                mission=mission,
                actor=request.user,  # type: ignore[arg-type]
                board=_wizard_board(data, library),
                seats=seats,
                dice=_wizard_dice(data),
                policy=data.get("policy", "prompt"),
                name=data.get("battle_name", "").strip() or None,
            )
        except REFUSALS as exc:
            errors = _seat_named(FormError.of(exc), names)
        else:
            return HttpResponseRedirect(f"/battles/{battle.pk}/replay/")
    check_data = data or {"board": chosen}
    problems, placed = _wizard_check(mission, request.user, check_data, library, rows)
    deploy = {
        "drawing": _wizard_drawing(check_data, board, rows),
        "problems": problems,
        "placed": placed,
    }
    if request.htmx:  # type: ignore[attr-defined]
        response = render(request, "campaigns/_wizard_deploy.html", {"deploy": deploy})
        response["Vary"] = "HX-Request"
        return response
    earlier = next(
        (m for m in state.missions if m.number < mission.number and m.status != "completed"),
        None,
    )
    context = {
        "campaign": campaign,
        "state": state,
        "mission": mission,
        "earlier": earlier,
        "library": library,
        "chosen": chosen,
        "board": board,
        "rows": rows,
        "rules": parse_ruleset(state.rules, "rules"),
        "directions": DIRECTION_NAMES,
        "form": data,
        "errors": errors,
        "custom": CUSTOM_BOARD,
        "deploy": deploy,
        "bot_side": bot_side,
        "bot_field": BOT_SIDE,
    }
    response = render(request, "campaigns/wizard.html", context, status=400 if errors else 200)
    response["Vary"] = "HX-Request"
    return response
