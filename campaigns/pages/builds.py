"""A campaign's casket builds: the list, one build with its versions, and the difference
between two versions."""

from __future__ import annotations

import uuid
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from battles.engine.errors import InvalidInput

from .. import access, catalogue, domain, selectors
from ..models import StarterDeck
from ..starters import build_from_starter
from ..versions import build_cards_update, stale_cards
from .common import (
    GET_ONLY,
    POST_ONLY,
    REFUSALS,
    FormError,
    campaign_of,
    redirect_to,
)


def build_of(state: domain.CampaignState, build_id: uuid.UUID) -> domain.BuildState:
    build = state.builds.get(str(build_id))
    if build is None:
        raise Http404("no such build in this campaign")
    return build


@GET_ONLY
def build_list_page(request: HttpRequest, campaign_id: uuid.UUID) -> HttpResponse:
    campaign, role = campaign_of(request, campaign_id)
    state = selectors.campaign_state(campaign=campaign)
    builds = _rows(request, state, role)
    context = _list_context(request, campaign, state, role, builds)
    return render(request, "campaigns/builds.html", context)


def _list_context(
    request: HttpRequest,
    campaign: Any,
    state: domain.CampaignState,
    role: str,
    builds: list[dict[str, Any]],
) -> dict[str, Any]:
    user = request.user.get_username()
    return {
        "campaign": campaign,
        "state": state,
        "role": role,
        "builds": builds,
        "starters": list(StarterDeck.objects.all()),
        # A player starts builds for their own living pilots (R-ADD-220).
        "my_pilots": [
            p for p in state.pilots.values() if p.player == user and p.status == domain.ALIVE
        ],
    }


@POST_ONLY
def build_from_starter_page(request: HttpRequest, campaign_id: uuid.UUID) -> HttpResponse:
    """A new build copied from a starter deck in one step (R-ADD-222), for one of the
    player's pilots; refused (400, nothing saved) with every problem named."""
    campaign, role = campaign_of(request, campaign_id)
    chosen = request.POST.get("starter", "")
    starter = StarterDeck.objects.filter(pk=int(chosen)).first() if chosen.isdigit() else None
    try:
        if starter is None:
            raise InvalidInput("starter", "choose one of the starter decks", "R-ADD-222")
        build, version = build_from_starter(
            campaign=campaign,
            actor=request.user,  # type: ignore[arg-type]
            starter=starter,
            name=request.POST.get("name", "").strip(),
            pilot=request.POST.get("pilot") or None,
        )
    except REFUSALS as exc:
        state = selectors.campaign_state(campaign=campaign)
        context = _list_context(request, campaign, state, role, _rows(request, state, role))
        context["errors"] = FormError.of(exc)
        return render(request, "campaigns/builds.html", context, status=400)
    return redirect_to("build-page", campaign.id, build.id, anchor=f"v{version}")


def _rows(request: HttpRequest, state: domain.CampaignState, role: str) -> list[dict[str, Any]]:
    return [
        {
            "build": b,
            "current": b.current,
            "cards": sum(n for _, _, n in b.current.deck),
            "editable": access.may_edit_build(role=role, owner=b.player, user=request.user),
            "pilot": state.pilots.get(b.pilot_id),
        }
        for b in sorted(state.builds.values(), key=lambda b: (b.player, b.current.name))
    ]


@GET_ONLY
def build_page(request: HttpRequest, campaign_id: uuid.UUID, build_id: uuid.UUID) -> HttpResponse:
    campaign, role = campaign_of(request, campaign_id)
    state = selectors.campaign_state(campaign=campaign)
    build = build_of(state, build_id)
    current = build.current
    cards = selectors.deck_card_versions(deck=current.deck)
    used = {
        (bid, v): m for m in state.missions for _, _, bid, v in m.deployments if bid == build.id
    }
    context: dict[str, Any] = {
        "campaign": campaign,
        "state": state,
        "role": role,
        "build": build,
        "current": current,
        "deck": [
            {"card": c, "version": v, "count": n, "cv": cards.get((c, v))}
            for c, v, n in current.deck
        ],
        "total": sum(n for _, _, n in current.deck),
        "versions": [
            {
                "v": v,
                "cards": sum(n for _, _, n in v.deck),
                "mission": used.get((build.id, v.version)),
            }
            for v in reversed(build.versions)
        ],
        "editable": access.may_edit_build(role=role, owner=build.player, user=request.user),
        "damage": domain.components_dict(build.component_damage),
        "pilot": state.pilots.get(build.pilot_id),
        "items": _item_names(current),
        "kind_words": catalogue.KIND_WORDS,
        "construction": catalogue.construction_available(),
        "stale": stale_cards(deck=current.deck),
    }
    for row in context["deck"]:
        cv = row["cv"]
        row["kind"] = catalogue.KIND_WORDS.get(cv.kind, cv.kind) if cv else "unknown"
    return render(request, "campaigns/build.html", context)


@POST_ONLY
def build_cards_update_page(
    request: HttpRequest, campaign_id: uuid.UUID, build_id: uuid.UUID
) -> HttpResponse:
    """The build's next version with every card at its current version, checked again
    (R-ADD-223); its owner or the GM. Refused (400, nothing saved) with every problem."""
    campaign, role = campaign_of(request, campaign_id)
    state = selectors.campaign_state(campaign=campaign)
    build = build_of(state, build_id)
    access.build_editor_only(role=role, owner=build.player, user=request.user)
    try:
        _, version = build_cards_update(
            campaign=campaign,
            actor=request.user,  # type: ignore[arg-type]
            build_id=build.id,
        )
    except REFUSALS as exc:
        context = {"errors": FormError.of(exc), "campaign": campaign, "back_build": build}
        return render(request, "campaigns/refused.html", context, status=400)
    return redirect_to("build-page", campaign.id, build.id, anchor=f"v{version}")


@GET_ONLY
def build_sheet_page(
    request: HttpRequest, campaign_id: uuid.UUID, build_id: uuid.UUID
) -> HttpResponse:
    """The build's current deck on one printable A4 page (R-ADD-221): the casket, its items
    and every card with its cost, range, damage and text."""
    campaign, _ = campaign_of(request, campaign_id)
    state = selectors.campaign_state(campaign=campaign)
    build = build_of(state, build_id)
    current = build.current
    cards = selectors.deck_card_versions(deck=current.deck)
    rows = []
    for card, version, count in current.deck:
        cv = cards.get((card, version))
        rows.append(
            {
                "count": count,
                "cv": cv,
                "card": card,
                "kind": catalogue.KIND_WORDS.get(cv.kind, cv.kind) if cv else "unknown",
            }
        )
    context = {
        "campaign": campaign,
        "state": state,
        "build": build,
        "current": current,
        "pilot": state.pilots.get(build.pilot_id),
        "items": _item_names(current),
        "rows": rows,
        "total": sum(n for _, _, n in current.deck),
    }
    return render(request, "campaigns/deck_sheet.html", context)


def _item_names(version: domain.BuildVersionState) -> list[str]:
    """The build's equipment in words: an item's name under R-ADD-52, the text as written
    under the older rule."""
    names = catalogue.item_names(version.equipment)
    return [names.get(e, e).title() if e in names else e for e in version.equipment]


def _version_number(raw: str | None, build: domain.BuildState, name: str) -> int:
    if (
        raw is None
        or not (raw.isascii() and raw.isdigit())
        or not 1 <= int(raw) <= len(build.versions)
    ):
        raise InvalidInput(name, f"must be a version of this build, 1 to {len(build.versions)}")
    return int(raw)


@GET_ONLY
def build_diff_page(
    request: HttpRequest, campaign_id: uuid.UUID, build_id: uuid.UUID
) -> HttpResponse:
    campaign, _ = campaign_of(request, campaign_id)
    state = selectors.campaign_state(campaign=campaign)
    build = build_of(state, build_id)
    context: dict[str, Any] = {"campaign": campaign, "state": state, "build": build}
    try:
        a = _version_number(request.GET.get("a"), build, "a")
        b = _version_number(request.GET.get("b"), build, "b")
    except InvalidInput as exc:
        return render(
            request,
            "campaigns/build_diff.html",
            {**context, "errors": FormError.of(exc)},
            status=400,
        )
    old, new = build.versions[a - 1], build.versions[b - 1]
    diff = selectors.build_versions_diff(old=old, new=new)
    names = {
        card: cv.name
        for (card, _), cv in selectors.deck_card_versions(deck=[*old.deck, *new.deck]).items()
    }
    for row in diff["cards"]:
        row["name"] = names.get(row["card"], row["card"])
    return render(
        request, "campaigns/build_diff.html", {**context, "a": old, "b": new, "diff": diff}
    )
