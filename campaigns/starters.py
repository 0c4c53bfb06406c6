"""Starter decks (R-ADD-222): decks staff keep per faction and class, written as deck lists
(R-ADD-221) and checked like any build, that a player copies into a new build in one step.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from battles.engine.battle.state import SP_MAXIMUM
from battles.engine.carddata.decks import SLOTS_BY_CLASS, Loadout, build_casket_deck, random_loadout
from battles.engine.demo import DEMO_DECKS
from battles.engine.errors import InvalidInput
from battles.engine.ruleset import Ruleset

from . import domain, services
from .catalogue import (
    card_rows_for,
    casket_problems,
    construction_available,
    construction_read,
    deck_problems,
    item_names,
)
from .decklists import DeckListRejected, decklist_resolve, decklist_text, problems_by_line
from .models import Campaign, CardVersion, CasketBuild, StarterDeck


def starter_version(starter: StarterDeck) -> domain.BuildVersionState:
    """The starter deck as a build version (for its deck list and its sheet)."""
    return domain.BuildVersionState(
        1,
        starter.name,
        starter.casket_class,
        starter.shield,
        starter.faction,
        tuple((str(c), int(v), int(n)) for c, v, n in starter.deck),
        tuple(starter.equipment),
        starter.construction,
    )


def starter_deck_text(starter: StarterDeck) -> str:
    return decklist_text(version=starter_version(starter))


def starter_decks() -> QuerySet[StarterDeck]:
    return StarterDeck.objects.all()


@transaction.atomic
def starter_deck_save(
    *, text: object, starter: StarterDeck | None = None, notes: str = ""
) -> StarterDeck:
    """Create or change a starter deck from a deck list. The deck is checked as a build's
    is (under ruleset 2.1's 30 cards, R-TRN-1): every bad line or construction problem is
    named with its line and ruling (DeckListRejected), and nothing is saved."""
    parsed, items, cards = decklist_resolve(text)
    name = parsed.name[1].strip()
    problems: list[dict[str, Any]] = []
    if not name:
        problems.append(
            {"field": "line 1", "message": "a starter deck needs “Name:”", "rule": "R-ADD-222"}
        )
    if parsed.casket_class[1] not in SP_MAXIMUM:
        problems.append(
            {
                "field": "casket_class",
                "message": f"“Class:” must be one of {', '.join(SP_MAXIMUM)}",
                "rule": "R-TRN-3",
            }
        )
    clash = StarterDeck.objects.filter(name=name)
    if starter is not None:
        clash = clash.exclude(pk=starter.pk)
    if name and clash.exists():
        problems.append(
            {"field": "name", "message": f"a starter deck is named {name!r}", "rule": "R-ADD-222"}
        )
    rows = card_rows_for((c, n, None) for c, n, _ in cards)
    construction = ""
    if construction_available():
        construction = domain.CONSTRUCTION_BY_EQUIPMENT
        found = casket_problems(
            faction=parsed.faction[1],
            casket_class=parsed.casket_class[1],
            items=items,
            rows=rows,
            ruleset=Ruleset(),
        )
    else:
        found = deck_problems(rows, Ruleset())
    problems.extend(
        {"field": services.deck_field(p), "message": p.message, "rule": p.rule, "code": p.code}
        for p in found
    )
    if problems:
        raise DeckListRejected(problems_by_line(problems, parsed, cards))
    values = {
        "name": name,
        "faction": parsed.faction[1],
        "casket_class": parsed.casket_class[1],
        "shield": parsed.shield[1] or "left",
        "equipment": items,
        "deck": [[cv.card_id, cv.version, n] for cv, n in rows],
        "construction": construction,
        "notes": notes,
        "updated_at": timezone.now(),
    }
    if starter is None:
        return StarterDeck.objects.create(**values)
    for key, value in values.items():
        setattr(starter, key, value)
    starter.save()
    return starter


def build_from_starter(
    *,
    campaign: Campaign,
    actor: User,
    starter: StarterDeck,
    name: str = "",
    pilot: str | None = None,
) -> tuple[CasketBuild, int]:
    """A new build, a copy of the starter deck (its items and its cards' pinned versions),
    checked again as any build is (R-ADD-222)."""
    return services.build_revise(
        campaign=campaign,
        actor=actor,
        build_id=None,
        name=name or starter.name,
        casket_class=starter.casket_class,
        shield=starter.shield,
        faction=starter.faction,
        deck=[{"card": c, "version": v, "count": n} for c, v, n in starter.deck],
        equipment=list(starter.equipment),
        pilot=pilot,
    )


# --- the demo's starter decks --------------------------------------------------------------------

# (faction, class, shield) of the demo's starter decks built from the card database; the
# first two are the demo campaign's caskets.
DEMO_STARTERS = (
    ("church", "scout", "left"),
    ("church", "heavy", "right"),
    ("dwarves", "assault", "left"),
    ("elves", "fortress", "right"),
)
# With the demo card set alone: its two decks (the older rule, R-ADD-15).
DEMO_SET_STARTERS = (("penitent-scout", "scout", "left"), ("bastion-heavy", "heavy", "right"))


def starter_name(faction: str, casket_class: str) -> str:
    return f"{faction.replace('-', ' ').title()} {casket_class} starter"


def _lines(rows: list[tuple[str, int]]) -> list[str]:
    names = dict(
        CardVersion.objects.filter(card_id__in=[c for c, _ in rows]).values_list("card_id", "name")
    )
    return [f"{n} {names[c]} [{c}]" for c, n in rows]


def _database_starter_text(faction: str, casket_class: str, shield: str) -> str:
    """A legal deck list for a casket of `faction` and `casket_class`: items drawn by the
    engine's `random_loadout` (seeded, so the demo is the same every time) in the class's
    slots, the deck by `build_casket_deck` (R-ADD-52)."""
    read = construction_read(faction=faction)
    rng = random.Random(f"{faction}-{casket_class}")
    for _ in range(20):
        drawn = random_loadout(read, faction, rng)
        room = SLOTS_BY_CLASS[casket_class]["accessory"]
        kept = [i for i in drawn.items if read.items[i].slot != "accessory"]
        kept += [i for i in drawn.items if read.items[i].slot == "accessory"][:room]
        loadout = Loadout(faction, casket_class, tuple(kept))
        try:
            rows = build_casket_deck(
                construction_read(faction=faction, items=loadout.items), loadout, Ruleset()
            )
        except InvalidInput:
            continue
        items = item_names(loadout.items)
        return "\n".join(
            [
                f"Name: {starter_name(faction, casket_class)}",
                f"Faction: {faction}",
                f"Class: {casket_class}",
                f"Shield: {shield}",
                *(f"Item: {items[i]}" for i in loadout.items),
                *_lines(rows),
            ]
        )
    raise InvalidInput("faction", f"no legal {faction} {casket_class} deck found", "R-ADD-52")


def _demo_set_starter_text(deck: str, casket_class: str, shield: str) -> str:
    """A demo-set deck as a church starter's deck list."""
    return "\n".join(
        [
            f"Name: {deck.replace('-', ' ').title()} starter",
            "Faction: church",
            f"Class: {casket_class}",
            f"Shield: {shield}",
            *_lines(list(DEMO_DECKS[deck])),
        ]
    )


def starter_decks_load_demo() -> list[StarterDeck]:
    """The demo's starter decks (idempotent: one already there is kept): from the card
    database where it is imported, else the demo set's two decks."""
    made = []
    # (name, its deck list made when needed: the database's search is only run for missing ones)
    specs: list[tuple[str, Callable[[], str]]]
    if construction_available():
        specs = [
            (starter_name(f, c), partial(_database_starter_text, f, c, s))
            for f, c, s in DEMO_STARTERS
        ]
    else:
        specs = [
            (
                f"{deck.replace('-', ' ').title()} starter",
                partial(_demo_set_starter_text, deck, c, s),
            )
            for deck, c, s in DEMO_SET_STARTERS
        ]
    for name, text in specs:
        starter = StarterDeck.objects.filter(name=name).first()
        if starter is None:
            try:
                starter = starter_deck_save(text=text(), notes="Loaded by the demo.")
            except InvalidInput:
                continue  # a database without enough of this faction's cards: no starter
        made.append(starter)
    return made
