"""The campaigns admin (staff only): the card catalogue, its import, decks, builds, pilots,
campaigns and the outcome outbox.

Cards are edited here through `catalogue.card_save`, so a version a battle used is never
changed (an edit makes the next version). Everything on the campaign side is read-only:
a campaign changes only through the events of campaigns.services, and these rows are
projections of its stream.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F, Field, OuterRef, QuerySet, Subquery, Sum
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.text import capfirst

from battles.engine.carddata.decks import DeckProblem
from battles.engine.cards import CARD_KINDS
from battles.engine.errors import InvalidInput
from battles.engine.ruleset import Ruleset
from penance_site.admin_readonly import (  # services write these rows, never a form
    ReadOnly,
    ReadOnlyInline,
)

from .catalogue import (
    CARD_FIELDS,
    MAX_COPIES,
    OUTCOMES,
    ImportReport,
    card_content_clean,
    card_save,
    card_version_content,
    cards_export_rows,
    cards_import,
    deck_problems,
)
from .models import (
    BuildVersion,
    Campaign,
    CampaignPlayer,
    Card,
    CardVersion,
    CasketBuild,
    DeckEntry,
    Deployment,
    EquipmentItem,
    Mission,
    OutcomeOutbox,
    Pilot,
    StarterDeck,
    SupportUnit,
)
from .starters import starter_deck_save, starter_deck_text
from .versions import card_uses, card_version_diff, starter_cards_update

# The ruleset a deck is judged by in the admin's validity column (R-ADD-15: ruleset 2.0).
DECK_RULESET = Ruleset()
MAX_UPLOAD_BYTES = 10 * 1024 * 1024  # the real database is about 0.5 MB


# --- CSV and JSON export -------------------------------------------------------------------------


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    # A text cell a spreadsheet would run as a formula is quoted (OWASP CSV injection).
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def csv_response(rows: Sequence[dict[str, Any]], filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    if rows:
        writer = csv.DictWriter(response, fieldnames=list(rows[0]))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _csv_cell(v) for k, v in row.items()})
    return response


def json_response(rows: Sequence[dict[str, Any]], filename: str) -> HttpResponse:
    response = JsonResponse(list(rows), safe=False, json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{filename}.json"'
    return response


def export_actions(
    rows: Callable[[QuerySet[Any]], list[dict[str, Any]]], filename: str
) -> tuple[Callable[..., HttpResponse], Callable[..., HttpResponse]]:
    """The CSV and JSON export actions of one admin, writing `rows(selected)`."""

    @admin.action(description="Export selected as CSV")
    def export_csv(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse:
        return csv_response(rows(queryset), filename)

    @admin.action(description="Export selected as JSON")
    def export_json(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse:
        return json_response(rows(queryset), filename)

    return export_csv, export_json


def pilot_rows(queryset: QuerySet[Pilot]) -> list[dict[str, Any]]:
    return [
        {
            "id": str(p.id),
            "campaign": str(p.campaign_id),
            "campaign_name": p.campaign.name,
            "player": p.player.get_username(),
            "name": p.name,
            "faction": p.faction,
            "status": p.status,
            "taint": p.taint,
            "permanent_wounds": p.permanent_wounds,
            "trauma": p.trauma,
        }
        for p in queryset.select_related("campaign", "player").order_by("campaign", "name")
    ]


def build_version_rows(queryset: QuerySet[BuildVersion]) -> list[dict[str, Any]]:
    versions = queryset.select_related("build__player").prefetch_related(
        "deck_entries__card_version"
    )
    out = []
    for bv in versions.order_by("build_id", "version"):
        problems = build_version_problems(bv)
        out.append(
            {
                "build": str(bv.build_id),
                "campaign": str(bv.build.campaign_id),
                "player": bv.build.player.get_username(),
                "name": bv.build.name,
                "version": bv.version,
                "casket_class": bv.casket_class,
                "shield": bv.shield,
                "faction": bv.faction,
                "equipment": bv.equipment,
                "deck": [
                    {
                        "card": e.card_version.card_id,
                        "version": e.card_version.version,
                        "count": e.count,
                    }
                    for e in bv.deck_entries.all()
                ],
                "deck_valid": not problems,
                "deck_problems": [p.message for p in problems],
            }
        )
    return out


def casket_build_rows(queryset: QuerySet[CasketBuild]) -> list[dict[str, Any]]:
    """A build's current version, as `build_version_rows` gives it."""
    return build_version_rows(
        BuildVersion.objects.filter(
            build__in=queryset.values("pk"), version=F("build__current_version")
        )
    )


# --- decks ---------------------------------------------------------------------------------------


def build_version_problems(build_version: BuildVersion) -> list[DeckProblem]:
    """The deck's problems under ruleset 2.0 (R-ADD-15, R-ADD-29); uses prefetched rows."""
    rows = [(e.card_version, e.count) for e in build_version.deck_entries.all()]
    try:
        return deck_problems(rows, DECK_RULESET)
    except InvalidInput as err:  # a stored version the engine no longer reads
        return [DeckProblem("unreadable_card", str(err), err.rule or "R-ADD-15")]


# --- read-only admins ----------------------------------------------------------------------------


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    """The admin of rows that services or the card import write: shown, never edited."""


class LinkedInline(ReadOnlyInline):
    """A read-only table of a row's children showing `fields`, each row linking to the
    child's own admin page."""

    fields: ClassVar[tuple[str, ...]] = ()
    show_change_link = True

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return self.fields  # every field shown is read-only: services write these rows


# --- cards ---------------------------------------------------------------------------------------


class CardVersionInline(LinkedInline):
    model = CardVersion
    fields = ("version", "name", "kind", "sp_cost", "range", "damage", "automated", "source")
    ordering = ("-version",)


def _current(field: str) -> Subquery:
    return Subquery(
        CardVersion.objects.filter(card=OuterRef("pk"), version=OuterRef("current_version")).values(
            field
        )[:1]
    )


class CurrentKindFilter(admin.SimpleListFilter):
    title = "kind"
    parameter_name = "kind"

    def lookups(self, request: HttpRequest, model_admin: Any) -> Iterable[tuple[str, str]]:
        return [(k, k) for k in CARD_KINDS]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        return queryset.filter(current_kind=value) if value else queryset


class CurrentFactionFilter(admin.SimpleListFilter):
    title = "faction"
    parameter_name = "faction"

    def lookups(self, request: HttpRequest, model_admin: Any) -> Iterable[tuple[str, str]]:
        factions = (
            CardVersion.objects.filter(version=F("card__current_version"))
            .order_by("faction")
            .values_list("faction", flat=True)
            .distinct()
        )
        return [(f or "-", f or "(none)") for f in factions]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if value is None:
            return queryset
        return queryset.filter(current_faction="" if value == "-" else value)


class TwoWayFilter(admin.SimpleListFilter):
    """A filter of two choices: the first keeps the rows whose `field` lookup is true, the
    second those whose lookup is false; any other value keeps every row."""

    field: str
    options: tuple[tuple[str, str], tuple[str, str]]  # (value, label): true, then false

    def lookups(self, request: HttpRequest, model_admin: Any) -> Iterable[tuple[str, str]]:
        return list(self.options)

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        (true, _), (false, _) = self.options
        value = self.value()
        if value not in (true, false):
            return queryset
        return queryset.filter(**{self.field: value == true})


class CurrentAutomatedFilter(TwoWayFilter):
    title = "automated"
    parameter_name = "automated"
    field = "current_automated"
    options = (("yes", "automated"), ("no", "manual"))


class CardForm(forms.ModelForm):  # type: ignore[type-arg]
    """A card's content; saving goes through `card_save` (a new version if a battle used it)."""

    name = forms.CharField(max_length=120)
    faction = forms.CharField(max_length=60, required=False)
    card_type = forms.CharField(max_length=60, required=False, help_text="the database's type")
    kind = forms.ChoiceField(choices=[(k, k) for k in CARD_KINDS])
    sp_cost = forms.IntegerField(min_value=0, max_value=99)
    range = forms.CharField(
        max_length=20, required=False, help_text="Melee, Self, N or A-B (R-RNG-2); empty: none"
    )
    damage = forms.IntegerField(required=False)
    heat = forms.IntegerField(initial=0)
    keywords = forms.CharField(required=False, help_text="comma-separated")
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), required=False)
    shield = forms.BooleanField(required=False)
    effects = forms.JSONField(
        initial=list,
        required=False,
        help_text='a list of effects, e.g. [{"kind": "attack", "range": "Melee", "damage": 4}]; '
        "empty with automated off is a manual card (R-ADD-14)",
    )
    automated = forms.BooleanField(required=False)
    copies_per_deck = forms.IntegerField(
        min_value=1, max_value=MAX_COPIES, required=False, help_text="R-ADD-29; empty: no cap"
    )
    source = forms.CharField(max_length=200, required=False, initial="admin")

    class Meta:
        model = Card
        fields = ("id",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.content: dict[str, Any] = {}
        if self.instance.pk:
            self.fields["id"].disabled = True
            current = CardVersion.objects.filter(
                card=self.instance, version=self.instance.current_version
            ).first()
            if current is not None:
                initial = card_version_content(current)
                initial["keywords"] = ", ".join(initial["keywords"])
                initial["source"] = current.source
                self.initial.update(initial)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        fields = {name: data.get(name) for name in CARD_FIELDS}
        keywords = [k.strip() for k in (data.get("keywords") or "").split(",")]
        fields["keywords"] = [k for k in keywords if k]
        fields["effects"] = data.get("effects") or []
        fields["heat"] = data.get("heat") or 0
        for name in ("faction", "card_type", "range", "text"):
            fields[name] = data.get(name) or ""
        card_id = self.instance.pk or data.get("id")
        try:
            self.content = card_content_clean(card_id=card_id, fields=fields)
        except InvalidInput as err:
            name = err.field.split("[", 1)[0].split(".", 1)[0]
            message = f"{err.field}: {err.message}" + (f" ({err.rule})" if err.rule else "")
            self.add_error(name if name in self.fields else None, message)
        return data


def _card_field_label(name: str) -> str:
    """A card version field's label, as the card's change form writes it (`SP cost`)."""
    field = CardVersion._meta.get_field(name)
    assert isinstance(field, Field), name  # the card's content is plain columns
    return str(capfirst(field.verbose_name))


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = CardForm
    change_list_template = "admin/campaigns/card/change_list.html"
    list_display = (
        "id",
        "current_name",
        "current_kind",
        "current_faction",
        "current_sp_cost",
        "current_automated",
        "current_version",
        "versions_link",
        "updated_at",
    )

    @admin.display(description="versions and uses")
    def versions_link(self, obj: Card) -> str:
        url = reverse("admin:campaigns_card_versions", args=[obj.pk])
        return format_html('<a href="{}">differences, builds</a>', url)

    list_filter = (CurrentKindFilter, CurrentFactionFilter, CurrentAutomatedFilter)
    search_fields = ("id", "versions__name", "versions__keywords")
    readonly_fields = ("current_version", "created_at", "updated_at")
    inlines = (CardVersionInline,)
    actions = export_actions(cards_export_rows, "cards")
    fieldsets = (
        (None, {"fields": ("id", "current_version", "created_at", "updated_at")}),
        (
            "Content of the current version (saving makes a new version if a battle used it)",
            {"fields": (*CARD_FIELDS, "source")},
        ),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Card]:
        cards: QuerySet[Card] = (
            super()
            .get_queryset(request)
            .annotate(
                current_name=_current("name"),
                current_kind=_current("kind"),
                current_faction=_current("faction"),
                current_sp_cost=_current("sp_cost"),
                current_automated=_current("automated"),
            )
        )
        return cards

    @admin.display(description="name", ordering="current_name")
    def current_name(self, obj: Any) -> str:
        return str(obj.current_name or "")

    @admin.display(description="kind", ordering="current_kind")
    def current_kind(self, obj: Any) -> str:
        return str(obj.current_kind or "")

    @admin.display(description="faction", ordering="current_faction")
    def current_faction(self, obj: Any) -> str:
        return str(obj.current_faction or "")

    @admin.display(description="SP", ordering="current_sp_cost")
    def current_sp_cost(self, obj: Any) -> Any:
        return obj.current_sp_cost

    @admin.display(description="automated", boolean=True, ordering="current_automated")
    def current_automated(self, obj: Any) -> bool:
        return bool(obj.current_automated)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # versions are history; decks and battles point at them

    def save_model(self, request: HttpRequest, obj: Card, form: Any, change: bool) -> None:
        card_id = obj.pk
        source = form.cleaned_data.get("source") or f"admin ({request.user.get_username()})"
        # Staff's errata are a new version, never an overwrite: builds and starter decks
        # keep the version they pinned until they move on (R-ADD-223).
        version, outcome = card_save(
            card_id=card_id,
            fields=form.content,
            source=source,
            actor=request.user,
            new_version=change,
        )
        saved = Card.objects.get(pk=card_id)
        obj.current_version, obj.created_at, obj.updated_at = (
            saved.current_version,
            saved.created_at,
            saved.updated_at,
        )
        obj._state.adding = False
        obj._state.db = saved._state.db
        messages.info(
            request, f"{card_id}: {outcome.replace('_', ' ')} (version {version.version})"
        )
        if outcome != "unchanged":
            versions_url = reverse("admin:campaigns_card_versions", args=[card_id])
            messages.info(
                request,
                format_html(
                    'See <a href="{}">what changed and every build it touches</a>.', versions_url
                ),
            )

    # -- the import page --

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.import_view)
        versions = self.admin_site.admin_view(self.versions_view)
        return [
            path("import/", view, name="campaigns_card_import"),
            path("<path:object_id>/versions/", versions, name="campaigns_card_versions"),
            *super().get_urls(),
        ]

    def versions_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Two versions of a card side by side, field by field, and every build and starter
        deck that holds the card with the version it pinned (R-ADD-223)."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        card = Card.objects.filter(pk=object_id).first()
        if card is None:
            raise Http404("no such card")
        versions = list(CardVersion.objects.filter(card=card).order_by("version"))
        numbers = [v.version for v in versions]

        def pick(name: str, default: int) -> CardVersion:
            raw = request.GET.get(name, "")
            number = int(raw) if raw.isascii() and raw.isdigit() else default
            return next((v for v in versions if v.version == number), versions[-1])

        old = pick("a", numbers[-2] if len(numbers) > 1 else numbers[-1])
        new = pick("b", numbers[-1])
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"Versions of {new.name}",
            "card": card,
            "versions": versions,
            "old": old,
            "new": new,
            "diff": [
                (name, _card_field_label(name), before, after)
                for name, before, after in card_version_diff(old=old, new=new)
            ],
            "uses": card_uses(card=card),
            "changelist_url": reverse("admin:campaigns_card_changelist"),
        }
        return TemplateResponse(request, "admin/campaigns/card/versions.html", context)

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not (self.has_add_permission(request) and self.has_change_permission(request)):
            raise PermissionDenied
        report: ImportReport | None = None
        dry_run = False
        if request.method == "POST":
            form = CardImportForm(request.POST, request.FILES)
            if form.is_valid():
                dry_run = form.cleaned_data["dry_run"]
                report = self._run_import(request, form, dry_run)
        else:
            form = CardImportForm()
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Import card database",
            "form": form,
            "report": report,
            # A Counter answers 0 for the template's `.items` lookup: hand over plain rows.
            "outcomes": [(o, report.outcomes[o]) for o in OUTCOMES] if report else [],
            "sections": list(report.sections.items()) if report else [],
            "dry_run": dry_run,
            "changelist_url": reverse("admin:campaigns_card_changelist"),
        }
        return TemplateResponse(request, "admin/campaigns/card/import.html", context)

    def _run_import(
        self, request: HttpRequest, form: CardImportForm, dry_run: bool
    ) -> ImportReport | None:
        upload = form.cleaned_data["file"]
        try:
            with transaction.atomic():
                report = cards_import(document=form.document, source=upload.name[:200])
                if dry_run:
                    transaction.set_rollback(True)
        except InvalidInput as err:
            form.add_error("file", str(err))
            return None
        messages.success(
            request, ("Dry run: nothing written. " if dry_run else "") + report.banner()
        )
        return report


class CardImportForm(forms.Form):
    file = forms.FileField(help_text="a card database JSON file in the game's format")
    dry_run = forms.BooleanField(required=False, help_text="report only; write nothing")

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(f"larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB")
        try:
            self.document = json.loads(upload.read().decode("utf-8-sig"))
        except UnicodeDecodeError:
            raise forms.ValidationError("not UTF-8 text, so not a JSON card database") from None
        except json.JSONDecodeError as err:
            raise forms.ValidationError(
                f"not JSON (line {err.lineno}, column {err.colno}: {err.msg})"
            ) from None
        return upload


@admin.register(CardVersion)
class CardVersionAdmin(ReadOnlyAdmin):
    list_display = (
        "card",
        "version",
        "name",
        "kind",
        "faction",
        "sp_cost",
        "automated",
        "copies_per_deck",
        "source",
    )
    list_filter = ("kind", "faction", "automated", "source")
    search_fields = ("card__id", "name", "keywords", "text")
    list_select_related = ("card",)
    actions = export_actions(cards_export_rows, "card-versions")


# --- builds and decks ----------------------------------------------------------------------------


class DeckEntryInline(ReadOnlyInline):
    model = DeckEntry
    fields = ("position", "card_version", "count", "copies_per_deck")
    readonly_fields = fields

    @admin.display(description="copies per deck (R-ADD-29)")
    def copies_per_deck(self, obj: DeckEntry) -> Any:
        return obj.card_version.copies_per_deck

    def get_queryset(self, request: HttpRequest) -> QuerySet[DeckEntry]:
        return super().get_queryset(request).select_related("card_version")


@admin.register(BuildVersion)
class BuildVersionAdmin(ReadOnlyAdmin):
    list_display = (
        "build",
        "version",
        "casket_class",
        "shield",
        "faction",
        "deck_size",
        "deck_valid",
        "created_at",
    )
    list_filter = ("casket_class", "shield", "faction")
    search_fields = ("build__name", "build__player__username")
    readonly_fields = ("deck_problems_list",)
    inlines = (DeckEntryInline,)
    actions = export_actions(build_version_rows, "build-versions")

    def get_queryset(self, request: HttpRequest) -> QuerySet[BuildVersion]:
        versions: QuerySet[BuildVersion] = (
            super()
            .get_queryset(request)
            .select_related("build")
            .prefetch_related("deck_entries__card_version__card")
            .annotate(deck_cards=Sum("deck_entries__count"))
        )
        return versions

    @admin.display(description="cards", ordering="deck_cards")
    def deck_size(self, obj: Any) -> int:
        return int(obj.deck_cards or 0)

    @admin.display(description="deck valid", boolean=True)
    def deck_valid(self, obj: BuildVersion) -> bool:
        return not build_version_problems(obj)

    @admin.display(description="deck problems (ruleset 2.0)")
    def deck_problems_list(self, obj: BuildVersion) -> str:
        problems = build_version_problems(obj)
        if not problems:
            return "none: the deck is legal"
        items = format_html_join("\n", "<li>{} ({})</li>", ((p.message, p.rule) for p in problems))
        return format_html("<ul>{}</ul>", items)


class BuildVersionInline(LinkedInline):
    model = BuildVersion
    fields = ("version", "casket_class", "shield", "faction", "created_at")


@admin.register(CasketBuild)
class CasketBuildAdmin(ReadOnlyAdmin):
    list_display = ("name", "campaign", "player", "current_version")
    list_filter = ("campaign",)
    search_fields = ("name", "player__username", "campaign__name")
    list_select_related = ("campaign", "player")
    inlines = (BuildVersionInline,)
    actions = export_actions(casket_build_rows, "builds")


# --- the card database's equipment items and support units (issue 17) --------------------------


@admin.register(EquipmentItem)
class EquipmentItemAdmin(ReadOnlyAdmin):
    """Written by the card import only (R-ADD-52, R-ADD-53); its cards are in the catalogue."""

    list_display = ("name", "slot", "two_handed", "category", "weight", "factions", "source")
    list_filter = ("slot", "category", "two_handed")
    search_fields = ("id", "name")


@admin.register(SupportUnit)
class SupportUnitAdmin(ReadOnlyAdmin):
    """Written by the card import only; its behaviour cards are catalogue cards of kind
    `behaviour`."""

    list_display = ("name", "faction", "hp", "movement", "defense", "equipment_slots", "source")
    list_filter = ("faction",)
    search_fields = ("id", "name", "theme")


# --- pilots, campaigns, missions, outbox ---------------------------------------------------------


@admin.register(Pilot)
class PilotAdmin(ReadOnlyAdmin):
    list_display = (
        "name",
        "campaign",
        "player",
        "faction",
        "status",
        "taint",
        "permanent_wounds",
        "trauma",
    )
    list_filter = ("status", "faction")
    search_fields = ("name", "player__username")
    list_select_related = ("campaign", "player")
    actions = export_actions(pilot_rows, "pilots")


class CampaignPlayerInline(ReadOnlyInline):
    model = CampaignPlayer


class MissionInline(LinkedInline):
    model = Mission
    fields = ("number", "name", "status", "battle", "winner")


@admin.register(Campaign)
class CampaignAdmin(ReadOnlyAdmin):
    list_display = ("name", "gm", "private", "version", "created_at")
    list_filter = ("private",)
    search_fields = ("name", "gm__username", "players__user__username")
    list_select_related = ("gm",)
    inlines = (CampaignPlayerInline, MissionInline)


class DeploymentInline(ReadOnlyInline):
    model = Deployment


@admin.register(Mission)
class MissionAdmin(ReadOnlyAdmin):
    list_display = ("campaign", "number", "name", "status", "battle", "winner")
    list_filter = ("status",)
    search_fields = ("name", "campaign__name")
    list_select_related = ("campaign", "battle")
    inlines = (DeploymentInline,)


class OutboxStateFilter(TwoWayFilter):
    title = "state"
    parameter_name = "state"
    field = "applied_at__isnull"
    options = (("pending", "pending"), ("applied", "applied"))


@admin.register(OutcomeOutbox)
class OutcomeOutboxAdmin(ReadOnlyAdmin):
    list_display = (
        "battle",
        "mission",
        "created_at",
        "sent_at",
        "attempts",
        "applied_at",
        "last_error",
    )
    list_filter = (OutboxStateFilter,)
    list_select_related = ("battle", "mission")


# --- starter decks (R-ADD-222) -------------------------------------------------------------------


class StarterDeckForm(forms.ModelForm):  # type: ignore[type-arg]
    """A starter deck as a deck list (R-ADD-221), checked as a build is; saving goes through
    `starter_deck_save`, which names every bad line with its number and ruling."""

    decklist = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 24, "cols": 60}),
        help_text="Name:, Faction:, Class:, Shield:, one Item: per item, then one "
        "“3 Litany Carbine” per card (R-ADD-221)",
    )

    class Meta:
        model = StarterDeck
        fields = ("notes",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["decklist"] = starter_deck_text(self.instance)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            with transaction.atomic():
                self.saved = starter_deck_save(
                    text=data.get("decklist", ""),
                    starter=StarterDeck.objects.get(pk=self.instance.pk)
                    if self.instance.pk
                    else None,
                    notes=data.get("notes", ""),
                )
                transaction.set_rollback(True)  # saved for real in save_model
        except InvalidInput as err:
            errors = getattr(err, "extra_errors", None) or [
                {"field": err.field, "message": err.message, "rule": err.rule}
            ]
            for e in errors:
                rule = f" ({e['rule']})" if e.get("rule") else ""
                self.add_error("decklist", f"{e['field']}: {e['message']}{rule}")
        return data


@admin.register(StarterDeck)
class StarterDeckAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = StarterDeckForm
    list_display = ("name", "faction", "casket_class", "rule", "cards", "updated_at")
    list_filter = ("faction", "casket_class")
    search_fields = ("name",)
    actions = ["move_to_current_versions"]

    @admin.action(description="Move to the cards' current versions (checked again)")
    def move_to_current_versions(
        self, request: HttpRequest, queryset: QuerySet[StarterDeck]
    ) -> None:
        for starter in queryset:
            try:
                with transaction.atomic():
                    starter_cards_update(starter=starter)
            except InvalidInput as err:
                errors = getattr(err, "extra_errors", None) or [
                    {"field": err.field, "message": err.message, "rule": err.rule}
                ]
                text = "; ".join(f"{e['field']}: {e['message']} ({e['rule']})" for e in errors)
                messages.error(request, f"{starter.name}: not moved: {text}")
            else:
                messages.success(request, f"{starter.name}: every card at its current version")

    @admin.display(description="built under")
    def rule(self, obj: StarterDeck) -> str:
        return "equipment (R-ADD-52)" if obj.construction else "the older rule (R-ADD-15)"

    @admin.display(description="cards")
    def cards(self, obj: StarterDeck) -> int:
        return sum(int(n) for _, _, n in obj.deck)

    def save_model(self, request: HttpRequest, obj: StarterDeck, form: Any, change: bool) -> None:
        saved = starter_deck_save(
            text=form.cleaned_data["decklist"],
            starter=StarterDeck.objects.get(pk=obj.pk) if change else None,
            notes=form.cleaned_data.get("notes", ""),
        )
        for field in StarterDeck._meta.concrete_fields:
            setattr(obj, field.attname, getattr(saved, field.attname))
        obj._state.adding = False
