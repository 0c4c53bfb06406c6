"""The deck builder: a new build or the next version of one, the catalogue filtered and
paged, the deck checked with every problem's rule.

With the card database in the catalogue a build is a pilot's casket (R-ADD-220): its
class, faction and the equipment items chosen slot by slot; the items' cards and the
universal cards follow the items, the player fills the faction part, and the deck is
checked by R-ADD-52 (battles/engine/decks.py). With the demo set alone the older rule
applies (R-TRN-1, R-ADD-15, R-ADD-29)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from battles.engine.arcs import SHIELDS
from battles.engine.battle.state import SP_MAXIMUM
from battles.engine.carddata.decks import SLOTS_BY_CLASS
from battles.engine.carddata.spelling import FACTIONS, UNIVERSAL
from battles.engine.cards import CARD_KINDS
from battles.engine.errors import InvalidInput
from battles.engine.ruleset import parse_ruleset

from .. import access, catalogue, decklists, domain, selectors, services
from ..between import storage
from ..models import Campaign, ConstructionPool, EquipmentItem
from .builds import build_of
from .common import (
    GET_POST,
    REFUSALS,
    FormError,
    campaign_of,
    redirect_to,
)

MAX_COUNT = 30  # a casket deck holds 30 cards (R-TRN-1, R-ADD-15)
PAGE_SIZE = 25  # catalogue rows per page: never the whole catalogue at once
# The most accessories a class carries (a fortress's 4, R-ADD-52): the builder offers as
# many accessory choices, and the check names a class's excess (`slots_exceeded`).
MAX_ACCESSORIES = max(s["accessory"] for s in SLOTS_BY_CLASS.values())
SHIELD_WORDS = {"left": "Left arm", "right": "Right arm", "none": "No shield"}  # R-ARC-2
ITEM_FIELDS = ("item-weapon", "item-offhand", *(f"item-accessory-{i}" for i in range(4)))


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
    pilot: str = ""  # the pilot whose casket this is (R-ADD-220)

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
            build.pilot_id,
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
        if any(key in data for key in ITEM_FIELDS):
            # Items chosen slot by slot (R-ADD-52): an empty choice carries nothing.
            equipment = [data[key].strip() for key in ITEM_FIELDS if data.get(key, "").strip()]
        else:
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
            data.get("pilot", ""),
        )

    def follow_items(self) -> None:
        """The cards follow the items (R-ADD-52 (a), (b)): each universal card and each
        carried item's cards at least as often as required, and the cards of items no
        longer carried out of the deck (unless the faction's own or universal)."""
        required = catalogue.item_cards_required(faction=self.faction, items=self.equipment)
        pools = ConstructionPool.objects.filter(name__in=[UNIVERSAL, self.faction])
        own = {c for p in pools for c in p.cards}
        brought = {c for i in EquipmentItem.objects.all() for c, _ in i.cards}
        for card in [c for c in self.counts if c in brought and c not in required]:
            if card not in own:
                del self.counts[card]
        for card, n in required.items():
            if self.counts.get(card, 0) < n:
                self.counts[card] = n
        self.counts = dict(sorted(self.counts.items()))

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
    ruleset = parse_ruleset(state.rules, "rules")
    if catalogue.construction_available():
        problems = catalogue.casket_problems(
            faction=draft.faction,
            casket_class=draft.casket_class,
            items=draft.equipment,
            rows=rows,
            ruleset=ruleset,
        )
    else:
        problems = catalogue.deck_problems(rows, ruleset)
    errors = [
        FormError(
            services.deck_field(p) if p.index is None else f"deck: {rows[p.index][0].name}",
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
    construction = catalogue.construction_available()
    q = (data.get("q") or "").strip()[:100]
    kind = data.get("kind") or ""
    kind = kind if kind in CARD_KINDS else ""
    faction_names = (*FACTIONS, UNIVERSAL)
    if "card_faction" in data:
        faction = data.get("card_faction") or ""
    else:  # first view: the casket's own faction's cards
        faction = draft.faction if construction else ""
    faction = faction if faction in faction_names else ""
    raw_cost = (data.get("cost") or "").strip()
    cost = int(raw_cost) if raw_cost.isascii() and raw_cost.isdigit() else None
    found = catalogue.card_versions_browse(faction=faction, kind=kind, cost=cost, q=q)
    page = Paginator(found, PAGE_SIZE).get_page(data.get("page") or 1)
    shown = list(page.object_list)
    shown_ids = {cv.card_id for cv in shown}
    deck_rows = (
        catalogue.card_rows_for(
            (card, count, draft.versions.get(card)) for card, count in draft.counts.items()
        )
        if draft.counts
        else []
    )
    items = list(EquipmentItem.objects.order_by("name")) if construction else []
    chosen = list(draft.equipment)
    weapon = [i for i in items if i.slot == "weapon"]
    offhand = [i for i in items if i.slot == "offhand"]
    accessory = [i for i in items if i.slot == "accessory"]

    def pick(options: list[EquipmentItem]) -> str:
        for item_id in chosen:
            if any(o.pk == item_id for o in options):
                chosen.remove(item_id)
                return item_id
        return ""

    item_slots = [
        {
            "field": "item-weapon",
            "label": catalogue.SLOT_WORDS["weapon"],
            "options": weapon,
            "value": pick(weapon),
        },
        {
            "field": "item-offhand",
            "label": catalogue.SLOT_WORDS["offhand"],
            "options": offhand,
            "value": pick(offhand),
        },
        *(
            {
                "field": f"item-accessory-{i}",
                "label": f"{catalogue.SLOT_WORDS['accessory']} {i + 1}",
                "options": accessory,
                "value": pick(accessory),
            }
            for i in range(MAX_ACCESSORIES)
        ),
    ]
    owner = draft.player or (build.player if build else "")
    return {
        "storage_offer": _storage_offer(state, build, items),
        "campaign": campaign,
        "state": state,
        "role": role,
        "is_gm": role == "gm",
        "build": build,
        "draft": draft,
        "equipment_text": "\n".join(draft.equipment),
        "construction": construction,
        "item_slots": item_slots,
        "slots_by_class": [(c, s["accessory"]) for c, s in SLOTS_BY_CLASS.items()],
        "pilots": [p for p in state.pilots.values() if p.player == owner and p.status == "alive"],
        "page": page,
        "catalogue": [
            {
                "cv": cv,
                "kind": catalogue.KIND_WORDS.get(cv.kind, cv.kind),
                "factions": cv.faction.replace("-", " ") if cv.faction else "universal",
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
        "filters": {
            "q": q,
            "kind": kind,
            "card_faction": faction,
            "cost": "" if cost is None else cost,
        },
        "kinds": [(k, catalogue.KIND_WORDS[k]) for k in CARD_KINDS],
        "factions": [(f, f.replace("-", " ").capitalize()) for f in faction_names],
        "classes": list(SP_MAXIMUM),
        "shields": [(s, SHIELD_WORDS.get(s, s)) for s in SHIELDS],
        "players": state.players,
        "rules": parse_ruleset(state.rules, "rules"),
    }


def _storage_offer(
    state: domain.CampaignState, build: domain.BuildState | None, items: list[EquipmentItem]
) -> dict[str, Any] | None:
    """Under pc-1, what the casket may carry (R-ADD-350): the items storage holds and the
    ones the casket carries; None under plt-1."""
    if state.settlement is None:
        return None
    names = {i.pk: i.name.title() for i in items}
    held = storage.storage_counts(state)
    return {
        "free": storage.outfitted_freely(state),
        "held": [
            {"name": names[item], "count": n} for item, n in sorted(held.items()) if item in names
        ],
        "carried": [names.get(i, i) for i in (build.current.equipment if build else ())],
    }


@GET_POST
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
    if action == "import":
        return _import_decklist(request, campaign, role, state, build)
    if request.method == "POST":
        try:
            draft = DeckDraft.of_form(request.POST)
        except InvalidInput as exc:
            draft = DeckDraft.of_version(build) if build else _empty_draft(request, role, state)
            errors, status = FormError.of(exc), 400
        else:
            # Whose casket: the build's owner, or the player making it (the GM names one).
            if build is not None:
                draft.player = build.player
            elif role != "gm":
                draft.player = request.user.get_username()
            if catalogue.construction_available():
                draft.follow_items()
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
                        pilot=draft.pilot or None,
                    )
                except REFUSALS as exc:
                    errors, status = _named_rows(FormError.of(exc), draft), 400
                else:
                    return redirect_to("build-page", campaign.id, saved.id, anchor=f"v{version}")
            elif action in ("check", "follow"):
                try:
                    checked, _ = _deck_check(draft, state)
                except InvalidInput as exc:
                    errors, status = FormError.of(exc), 400
        data: Mapping[str, str] = request.POST
    else:
        draft = DeckDraft.of_version(build) if build else _empty_draft(request, role, state)
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


def _empty_draft(request: HttpRequest, role: str, state: domain.CampaignState) -> DeckDraft:
    """A new build; `?pilot=<id>` makes it that pilot's casket, of the pilot's faction."""
    player = "" if role == "gm" else request.user.get_username()
    pilot = state.pilots.get(request.GET.get("pilot", ""))
    if pilot is not None and (role == "gm" or pilot.player == player):
        return DeckDraft("", "scout", "left", pilot.faction, [], pilot.player, {}, {}, pilot.id)
    return DeckDraft("", "scout", "left", "", [], player, {}, {})


def _import_decklist(
    request: HttpRequest,
    campaign: Campaign,
    role: str,
    state: domain.CampaignState,
    build: domain.BuildState | None,
) -> HttpResponse:
    """A deck list pasted into the builder (R-ADD-221): saved as a new build or the build's
    next version when every line is good and the deck legal; otherwise the builder again
    with every bad line named by its number and ruling, and nothing saved."""
    text = request.POST.get("decklist", "")
    pilot = request.POST.get("pilot") or (build.pilot_id if build else "") or None
    try:
        saved, version = decklists.build_decklist_import(
            campaign=campaign,
            actor=request.user,  # type: ignore[arg-type]
            text=text,
            build_id=build.id if build else None,
            name=request.POST.get("name", ""),
            pilot=pilot,
        )
    except REFUSALS as exc:
        draft = DeckDraft.of_version(build) if build else _empty_draft(request, role, state)
        context = _builder_context(campaign, role, state, build, draft, request.GET)
        context.update({"errors": FormError.of(exc), "checked": None, "decklist": text})
        return render(request, "campaigns/deck_builder.html", context, status=400)
    return redirect_to("build-page", campaign.id, saved.id, anchor=f"v{version}")
