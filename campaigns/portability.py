"""A campaign you can take with you: one JSON document (format `penance-campaign/1`) with
the campaign's events, its battles' events (each with its digest), its builds, its boards
and the card versions its builds use; and its import on another site (R-ADD-207).

The import checks everything before it writes anything, in one transaction: the
document's own digest (a SHA-256 over all of it but that field, so that a change to a
board or a card, which no event chain covers, is caught too), the campaign stream's
digest chain, each battle's chain and replay (battles.services.battle_import), that its
users exist here, and that the cards it uses are either absent here or the same. A
refusal is an InvalidInput naming the field that failed; nothing is written.

The ids stay those of the exported campaign (its events name its pilots, builds,
missions and battles, and the digests cover the events), so a campaign is imported once
per site.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction

from battles.engine.errors import InvalidInput
from battles.selectors import STREAM_TYPE as BATTLE_STREAM
from battles.selectors import battle_export, export_event

# The battle import's own checks of an exported stream, for the campaign's stream too.
from battles.services import (
    _append_groups,
    _check_chain,
    _command_groups,
    _doc_event,
    battle_import,
)
from penance_site.eventstore.records import RecordedEvent, format_timestamp
from penance_site.eventstore.store import StreamRef, stream_version

from . import catalogue, domain
from .codec import CAMPAIGN_EVENTS, STREAM_TYPE
from .models import BuildVersion, Campaign, CampaignBoard, Card, CardVersion
from .selectors import campaign_events
from .services import _project

FORMAT = "penance-campaign/1"
TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"  # eventstore.format_timestamp
MAX_EVENTS = 100_000
# The card fields an export carries: the catalogue's content fields, which an import
# compares, and the provenance.
CARD_FIELDS = (*catalogue.CARD_FIELDS, "source")


def document_digest(document: Mapping[str, Any]) -> str:
    """SHA-256 of the document without its `digest`, as canonical JSON (sorted keys).

    >>> document_digest({"format": "x", "digest": "ignored"}) == document_digest({"format": "x"})
    True
    """
    body = {k: v for k, v in document.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- export --------------------------------------------------------------------------------------


def campaign_export(*, campaign: Campaign) -> dict[str, Any]:
    """The whole campaign as one document (see the module's doc)."""
    events = campaign_events(campaign=campaign)
    started = campaign.missions.select_related("battle").order_by("number")
    battles = [
        {"id": str(m.battle.id), **battle_export(battle=m.battle)}
        for m in sorted(started, key=lambda m: str(m.battle_id))
        if m.battle is not None
    ]
    versions = BuildVersion.objects.filter(build__campaign=campaign)
    builds = [
        {
            "id": str(v.build_id),
            "player": v.build.player.get_username(),
            "name": v.build.name,
            "version": v.version,
            "casket_class": v.casket_class,
            "shield": v.shield,
            "faction": v.faction,
            "equipment": v.equipment,
            "deck": [
                {
                    "card": d.card_version.card_id,
                    "version": d.card_version.version,
                    "count": d.count,
                }
                for d in v.deck_entries.select_related("card_version").order_by("position")
            ],
        }
        for v in versions.select_related("build__player").order_by("build_id", "version")
    ]
    used = CardVersion.objects.filter(
        deck_entries__build_version__build__campaign=campaign
    ).distinct()
    cards = [
        {"card": c.card_id, "version": c.version, **{f: getattr(c, f) for f in CARD_FIELDS}}
        for c in used.order_by("card_id", "version")
    ]
    boards = [
        {
            "id": str(b.id),
            "name": b.name,
            "document": b.document,
            "created_by": b.created_by.get_username(),
            "created_at": format_timestamp(b.created_at),
            "updated_at": format_timestamp(b.updated_at),
        }
        for b in campaign.boards.select_related("created_by").order_by("created_at", "id")
    ]
    document: dict[str, Any] = {
        "format": FORMAT,
        "campaign": {
            "id": str(campaign.id),
            "name": campaign.name,
            "gm": campaign.gm.get_username(),
            "private": campaign.private,
            "created_at": format_timestamp(campaign.created_at),
        },
        "events": [export_event(e) for e in events],
        "battles": battles,
        "builds": builds,
        "boards": boards,
        "cards": cards,
    }
    document["digest"] = document_digest(document)
    return document


# --- import --------------------------------------------------------------------------------------


def _need(document: Mapping[str, Any], key: str, kind: type, label: str) -> Any:
    value = document.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise InvalidInput(key, f"is required: {label}")
    return value


def _moment(value: object, field: str) -> datetime:
    try:
        return datetime.strptime(str(value), TIMESTAMP_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        raise InvalidInput(
            field, "must be a UTC timestamp like 2026-01-31T12:00:00.000000Z"
        ) from None


def _events(raw: list[Any]) -> list[RecordedEvent]:
    """A stream's events from the document, shapes and digest chain checked as a battle's
    import checks them (battles.services); faults name the event."""
    events = [_doc_event(i, e) for i, e in enumerate(raw)]
    _check_chain(events)
    return events


def _decoded(events: Sequence[RecordedEvent]) -> list[domain.Event]:
    decoded = []
    for i, e in enumerate(events):
        try:
            decoded.append(CAMPAIGN_EVENTS.decode_record(e.type, e.schema_version, e.payload))
        except Exception as exc:  # a DecodeError, or a payload of the wrong shape
            raise InvalidInput(f"events[{i}].payload", f"is not a {e.type} event: {exc}") from None
    return decoded


def _user(username: object, field: str) -> User:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise InvalidInput(field, f"no user {username!r} on this site: create the account first")
    return user


def _cards(raw: list[Any]) -> list[tuple[Mapping[str, Any], bool]]:
    """Each exported card version, and whether it must be created here; a card version
    this site has with other content is refused, naming it."""
    out = []
    for i, c in enumerate(raw):
        if not isinstance(c, Mapping) or not isinstance(c.get("card"), str):
            raise InvalidInput(f"cards[{i}]", "must be a card version as an export writes it")
        version = c.get("version")
        if not isinstance(version, int):
            raise InvalidInput(f"cards[{i}].version", "must be a whole number")
        here = CardVersion.objects.filter(card_id=c["card"], version=version).first()
        if here is None:
            out.append((c, True))
            continue
        for field in catalogue.CARD_FIELDS:
            if getattr(here, field) != c.get(field):
                raise InvalidInput(
                    f"cards[{i}].{field}",
                    f"card {c['card']} version {c.get('version')} differs from this site's",
                )
        out.append((c, False))
    return out


@transaction.atomic
def campaign_import(*, document: Mapping[str, Any]) -> Campaign:
    """The exported campaign, on this site: checked whole first, then written in one
    transaction (see the module's doc). Raises InvalidInput naming what failed."""
    if not isinstance(document, Mapping):
        raise InvalidInput("document", f"must be a {FORMAT} export document")
    if document.get("format") != FORMAT:
        raise InvalidInput("format", f"must be {FORMAT!r}, got {document.get('format')!r}")
    raw_events = _need(document, "events", list, "the campaign's events")
    if not 1 <= len(raw_events) <= MAX_EVENTS:
        raise InvalidInput("events", f"must hold 1 to {MAX_EVENTS} events")
    events = _events(raw_events)
    battles = _need(document, "battles", list, "the campaign's battles")
    for i, b in enumerate(battles):
        # Each battle's chain before the document's digest, to name the changed event.
        raw = b.get("events") if isinstance(b, Mapping) else None
        if not isinstance(raw, list):
            raise InvalidInput(f"battles[{i}].events", "is required: the battle's events")
        try:
            _events(raw)
        except InvalidInput as exc:
            raise InvalidInput(f"battles[{i}].{exc.field}", exc.message, exc.rule) from None
    if document.get("digest") != document_digest(document):
        raise InvalidInput(
            "digest",
            "does not match the document: it was changed after export (its campaign, "
            "battles, builds, boards or cards)",
        )
    info = _need(document, "campaign", dict, "the campaign's id, name and GM")
    try:
        campaign_id = uuid.UUID(str(info.get("id")))
    except ValueError:
        raise InvalidInput("campaign.id", "must be a UUID") from None
    if Campaign.objects.filter(id=campaign_id).exists():
        raise InvalidInput("campaign.id", "this campaign is already on this site")
    gm = _user(info.get("gm"), "campaign.gm")
    decoded = _decoded(events)
    state = domain.replay(decoded)
    for username in state.players:
        _user(username, "campaign.players")
    started = {m.battle_id for m in state.missions if m.battle_id}
    ids = [str(b.get("id")) if isinstance(b, Mapping) else None for b in battles]
    if set(ids) != started:
        raise InvalidInput(
            "battles", "must hold exactly the battles the campaign's missions started"
        )
    if any(stream_version(StreamRef(BATTLE_STREAM, i)) for i in started):
        raise InvalidInput("battles", "a battle of this campaign is already on this site")
    cards = _cards(_need(document, "cards", list, "the card versions the builds use"))
    boards = _need(document, "boards", list, "the campaign's boards")
    creators = [
        _user(b.get("created_by") if isinstance(b, Mapping) else None, f"boards[{i}].created_by")
        for i, b in enumerate(boards)
    ]

    # Checked; now written. Anything refused below still rolls the whole import back.
    for c, create in cards:
        if create:
            card, made = Card.objects.get_or_create(
                id=c["card"], defaults={"current_version": c["version"]}
            )
            if not made and card.current_version < c["version"]:
                card.current_version = c["version"]
                card.save(update_fields=["current_version"])
            CardVersion.objects.create(
                card=card, version=c["version"], **{f: c.get(f) for f in CARD_FIELDS}
            )
    for i, b in enumerate(battles):
        try:
            battle_import(gm=gm, document=b, battle_id=uuid.UUID(b["id"]))
        except InvalidInput as exc:
            raise InvalidInput(f"battles[{i}].{exc.field}", exc.message, exc.rule) from None
    campaign = Campaign.objects.create(
        id=campaign_id,
        name=str(info.get("name", ""))[:120],
        gm=gm,
        private=bool(info.get("private", True)),
        created_at=_moment(info.get("created_at"), "campaign.created_at"),
    )
    _append_groups(StreamRef(STREAM_TYPE, str(campaign.id)), _command_groups(events))
    _project(campaign, state, decoded)
    for (i, b), creator in zip(enumerate(boards), creators, strict=True):
        CampaignBoard.objects.create(
            id=uuid.UUID(str(b.get("id"))),
            campaign=campaign,
            name=str(b.get("name", ""))[:200],
            document=b.get("document"),
            created_by=creator,
            created_at=_moment(b.get("created_at"), f"boards[{i}].created_at"),
            updated_at=_moment(b.get("updated_at"), f"boards[{i}].updated_at"),
        )
    return campaign
