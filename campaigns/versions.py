"""Errata and versions (R-ADD-223): what differs between two versions of a card, every
build version and starter deck that holds the card (with the version each pinned), and
moving a build or a starter deck on to the cards' current versions, checked again."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F

from battles.engine.errors import InvalidInput

from . import services
from .catalogue import CARD_FIELDS, card_version_content
from .models import Campaign, Card, CardVersion, CasketBuild, DeckEntry, StarterDeck
from .selectors import campaign_state
from .starters import starter_deck_save, starter_deck_text


def card_version_diff(*, old: CardVersion, new: CardVersion) -> list[tuple[str, Any, Any]]:
    """(field, in `old`, in `new`) for every field of the card's content that differs."""
    a, b = card_version_content(old), card_version_content(new)
    return [(name, a[name], b[name]) for name in CARD_FIELDS if a[name] != b[name]]


def card_uses(*, card: Card) -> dict[str, list[dict[str, Any]]]:
    """Every build version and starter deck holding `card`, with the version each pinned
    and whether it is behind the card's current version."""
    builds = []
    entries = (
        DeckEntry.objects.filter(card_version__card=card)
        .select_related("card_version", "build_version__build__campaign", "build_version__build")
        .order_by("build_version__build__campaign__name", "build_version__build__name")
    )
    for entry in entries:
        build = entry.build_version.build
        builds.append(
            {
                "campaign": build.campaign,
                "build": build,
                "build_version": entry.build_version.version,
                "current_build_version": entry.build_version.version == build.current_version,
                "pinned": entry.card_version.version,
                "count": entry.count,
                "behind": entry.card_version.version != card.current_version,
            }
        )
    starters = [
        {
            "starter": s,
            "pinned": int(v),
            "count": int(n),
            "behind": int(v) != card.current_version,
        }
        for s in StarterDeck.objects.all()
        for c, v, n in s.deck
        if c == card.pk
    ]
    return {"builds": builds, "starters": starters}


def stale_cards(*, deck: tuple[tuple[str, int, int], ...]) -> list[tuple[str, int, int, str]]:
    """The deck's cards pinned behind their current version: (card, pinned, current, name)."""
    current = {
        cv.card_id: cv
        for cv in CardVersion.objects.filter(
            card_id__in=[c for c, _, _ in deck], version=F("card__current_version")
        )
    }
    return [
        (card, version, current[card].version, current[card].name)
        for card, version, _ in deck
        if card in current and current[card].version != version
    ]


@transaction.atomic
def build_cards_update(
    *, campaign: Campaign, actor: User, build_id: str
) -> tuple[CasketBuild, int]:
    """The build's next version: the same casket and counts, every card at its current
    version, checked again like any revision (R-ADD-223). Refused (DeckRejected, nothing
    saved) when the new versions make the deck illegal, or when nothing is behind."""
    state = campaign_state(campaign=campaign)
    build = state.build(build_id)
    current = build.current
    if not stale_cards(deck=current.deck):
        raise InvalidInput("deck", "every card is at its current version already", "R-ADD-223")
    return services.build_revise(
        campaign=campaign,
        actor=actor,
        build_id=build_id,
        name=current.name,
        casket_class=current.casket_class,
        shield=current.shield,
        faction=current.faction,
        deck=[{"card": c, "count": n} for c, _, n in current.deck],
        equipment=list(current.equipment),
    )


def starter_cards_update(*, starter: StarterDeck) -> StarterDeck:
    """The starter deck saved again from its deck list: every card at its current version,
    checked again (DeckListRejected names what the new versions break)."""
    return starter_deck_save(text=starter_deck_text(starter), starter=starter, notes=starter.notes)
