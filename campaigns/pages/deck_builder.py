"""The deck builder: a new build or the next version of one, the catalogue filtered, the
deck checked with every problem's rule (R-TRN-1, R-ADD-15, R-ADD-29)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from battles.engine.arcs import SHIELDS
from battles.engine.battle.state import SP_MAXIMUM
from battles.engine.cards import CARD_KINDS
from battles.engine.errors import InvalidInput
from battles.engine.ruleset import parse_ruleset

from .. import access, catalogue, domain, selectors, services
from ..models import Campaign
from .builds import build_of
from .common import (
    GET_POST,
    REFUSALS,
    FormError,
    campaign_of,
    redirect_to,
)

MAX_COUNT = 30  # a casket deck holds 30 cards (R-TRN-1, R-ADD-15)


@dataclass
class DeckDraft:
    """The deck builder's form: the build's fields and the deck being built, in card order."""

    name: str
    casket_class: str
    shield: str
    faction: str
    equipment: list[str]
    player: str
    counts: dict[str, int]  # card id -> copies
    versions: dict[str, int]  # card id -> pinned card version (kept from the build)

    @classmethod
    def of_version(cls, build: domain.BuildState) -> DeckDraft:
        v = build.current
        return cls(
            v.name,
            v.casket_class,
            v.shield,
            v.faction,
            list(v.equipment),
            build.player,
            {c: n for c, _, n in v.deck},
            {c: cv for c, cv, _ in v.deck},
        )

    @classmethod
    def of_form(cls, data: Mapping[str, str]) -> DeckDraft:
        counts: dict[str, int] = {}
        for key, raw in data.items():
            if not key.startswith("count-"):
                continue
            raw = raw.strip()
            if not raw:
                continue
            if not (raw.isascii() and raw.isdigit()) or int(raw) > MAX_COUNT:
                raise InvalidInput(
                    key, f"must be a whole number of copies, 0 to {MAX_COUNT}", "R-TRN-1"
                )
            if int(raw):
                counts[key.removeprefix("count-")] = int(raw)
        versions: dict[str, int] = {}
        for key, raw in data.items():
            card = key.removeprefix("version-")
            if key.startswith("version-") and card in counts:
                if not (raw.isascii() and raw.isdigit()):
                    raise InvalidInput(key, "must be a card version number")
                versions[card] = int(raw)
        equipment = [
            line.strip() for line in data.get("equipment", "").splitlines() if line.strip()
        ]
        return cls(
            data.get("name", ""),
            data.get("casket_class", ""),
            data.get("shield", ""),
            data.get("faction", ""),
            equipment,
            data.get("player", ""),
            dict(sorted(counts.items())),
            versions,
        )

    def deck(self) -> list[dict[str, Any]]:
        return [
            {"card": card, "version": self.versions.get(card), "count": count}
            for card, count in self.counts.items()
        ]


def _deck_check(draft: DeckDraft, state: domain.CampaignState) -> tuple[list[FormError], list[Any]]:
    """The deck's problems with their rule IDs, through the catalogue's validate-deck service
    (R-ADD-15, R-ADD-29, the ruleset's deck rules), and the card versions of its rows."""
    if not draft.counts:
        return [FormError("deck", "add cards: a casket deck has 30 cards", "R-TRN-1")], []
    rows = catalogue.card_rows_for(
        (card, count, draft.versions.get(card)) for card, count in draft.counts.items()
    )
    problems = catalogue.deck_problems(rows, parse_ruleset(state.rules, "rules"))
    errors = [
        FormError(
            "deck" if p.index is None else f"deck: {rows[p.index][0].name}",
            p.message,
            p.rule,
            p.code,
        )
        for p in problems
    ]
    return errors, rows


def _builder_context(
    campaign: Campaign,
    role: str,
    state: domain.CampaignState,
    build: domain.BuildState | None,
    draft: DeckDraft,
    data: Mapping[str, str],
) -> dict[str, Any]:
    q = (data.get("q") or "").strip()[:100]
    kind = data.get("kind") or None
    faction = data.get("card_faction") or None
    shown = catalogue.card_versions_current(
        q=q or None,
        kind=kind if kind in CARD_KINDS else None,
        faction=faction,
    )
    shown_ids = {cv.card_id for cv in shown}
    deck_rows = (
        catalogue.card_rows_for(
            (card, count, draft.versions.get(card)) for card, count in draft.counts.items()
        )
        if draft.counts
        else []
    )
    factions = sorted(
        {f for f in catalogue.card_versions_current().values_list("faction", flat=True) if f}
    )
    return {
        "campaign": campaign,
        "state": state,
        "role": role,
        "is_gm": role == "gm",
        "build": build,
        "draft": draft,
        "equipment_text": "\n".join(draft.equipment),
        "catalogue": [
            {
                "cv": cv,
                "count": draft.counts.get(cv.card_id, 0),
                "pinned": draft.versions.get(cv.card_id),
            }
            for cv in shown
        ],
        "hidden": [
            {"card": cv.card_id, "count": n, "version": draft.versions.get(cv.card_id)}
            for cv, n in deck_rows
            if cv.card_id not in shown_ids
        ],
        "deck_rows": [{"cv": cv, "count": n} for cv, n in deck_rows],
        "total": sum(draft.counts.values()),
        "filters": {"q": q, "kind": kind or "", "card_faction": faction or ""},
        "kinds": CARD_KINDS,
        "factions": factions,
        "classes": list(SP_MAXIMUM),
        "shields": SHIELDS,
        "players": state.players,
        "rules": parse_ruleset(state.rules, "rules"),
    }


@GET_POST
@login_required
def deck_builder_page(
    request: HttpRequest, campaign_id: uuid.UUID, build_id: uuid.UUID | None = None
) -> HttpResponse:
    """A new build (no build id) or the next version of one. Buttons: filter the catalogue,
    check the deck (every problem with its rule), save as a new build version (PRG).

    With htmx the page checks the deck as counts change (`action=check` answers only the
    deck's status, `_deck_status.html`) and filters the catalogue as the search is typed
    (`action=filter`, the page's `#catalogue` is swapped); a refused save lists the same
    problems as the check."""
    campaign, role = campaign_of(request, campaign_id)
    state = selectors.campaign_state(campaign=campaign)
    build = build_of(state, build_id) if build_id is not None else None
    if build is not None:
        access.build_editor_only(role=role, owner=build.player, user=request.user)
    errors: list[FormError] = []
    checked: list[FormError] | None = None
    status = 200
    action = request.POST.get("action", "check") if request.method == "POST" else ""
    if request.method == "POST":
        try:
            draft = DeckDraft.of_form(request.POST)
        except InvalidInput as exc:
            draft = DeckDraft.of_version(build) if build else _empty_draft(request, role)
            errors, status = FormError.of(exc), 400
        else:
            unknown = _unknown_cards(draft)
            if unknown:
                errors, status = _named_rows(unknown, draft), 400
                for e in unknown:
                    draft.counts.pop(_row_card(e, draft), None)
            elif action == "save":
                try:
                    saved, version = services.build_revise(
                        campaign=campaign,
                        actor=request.user,  # type: ignore[arg-type]
                        build_id=build.id if build else None,
                        name=draft.name,
                        casket_class=draft.casket_class,
                        shield=draft.shield,
                        faction=draft.faction,
                        deck=draft.deck(),
                        equipment=draft.equipment,
                        player=draft.player if role == "gm" and build is None else None,
                    )
                except REFUSALS as exc:
                    errors, status = _named_rows(FormError.of(exc), draft), 400
                else:
                    return redirect_to("build-page", campaign.id, saved.id, anchor=f"v{version}")
            elif action == "check":
                try:
                    checked, _ = _deck_check(draft, state)
                except InvalidInput as exc:
                    errors, status = FormError.of(exc), 400
        data: Mapping[str, str] = request.POST
    else:
        draft = DeckDraft.of_version(build) if build else _empty_draft(request, role)
        data = request.GET
    if request.htmx and action == "check":  # type: ignore[attr-defined]
        # The live check: the deck's status only (no catalogue); a refused field is one
        # more problem.
        rows = (
            catalogue.card_rows_for((c, n, draft.versions.get(c)) for c, n in draft.counts.items())
            if draft.counts
            else []
        )
        status_context = {
            "deck_rows": [{"cv": cv, "count": n} for cv, n in rows],
            "total": sum(draft.counts.values()),
            "checked": [*errors, *(checked or [])],
        }
        response = render(request, "campaigns/_deck_status.html", status_context)
    else:
        context = _builder_context(campaign, role, state, build, draft, data)
        context.update({"errors": errors, "checked": checked})
        response = render(request, "campaigns/deck_builder.html", context, status=status)
    response["Vary"] = "HX-Request"
    return response


def _unknown_cards(draft: DeckDraft) -> list[FormError]:
    """A refusal per deck row whose card (or pinned version) the catalogue does not hold."""
    try:  # one look-up for the whole deck; row by row only to name every unknown one
        catalogue.card_rows_for((c, n, draft.versions.get(c)) for c, n in draft.counts.items())
    except InvalidInput:
        pass
    else:
        return []
    errors = []
    for card, count in draft.counts.items():
        try:
            catalogue.card_rows_for([(card, count, draft.versions.get(card))])
        except InvalidInput as exc:
            index = list(draft.counts).index(card)
            field = exc.field.replace("deck[0]", f"deck[{index}]", 1)
            errors.append(FormError(field, exc.message, exc.rule))
    return errors


def _row_card(error: FormError, draft: DeckDraft) -> str:
    field = error.field or ""
    index = field[5 : field.index("]")] if field.startswith("deck[") else ""
    return list(draft.counts)[int(index)] if index.isdigit() else ""


def _named_rows(errors: list[FormError], draft: DeckDraft) -> list[FormError]:
    """`deck[i]` fields named by their card's name, as the check names them (a card the
    catalogue does not hold by its id)."""
    cards = list(draft.counts)
    names = dict(zip(cards, cards, strict=True))
    try:
        rows = catalogue.card_rows_for(
            (c, n, draft.versions.get(c)) for c, n in draft.counts.items()
        )
    except InvalidInput:
        rows = []  # an unknown card: every row keeps its id
    names.update((cv.card_id, cv.name) for cv, _ in rows)
    out = []
    for e in errors:
        field = e.field or ""
        if field.startswith("deck[") and "]" in field:
            index = field[5 : field.index("]")]
            if index.isdigit() and int(index) < len(cards):
                field = f"deck: {names[cards[int(index)]]}{field[field.index(']') + 1 :]}"
        out.append(FormError(field or None, e.message, e.rule, e.code))
    return out


def _empty_draft(request: HttpRequest, role: str) -> DeckDraft:
    player = "" if role == "gm" else request.user.get_username()
    return DeckDraft("", "scout", "left", "", [], player, {}, {})
