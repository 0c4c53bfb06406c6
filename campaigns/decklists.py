"""Decks as text (R-ADD-221): a build's deck list ("3 Litany Carbine" per line, its items
and faction named) out, and a deck list in, into a new build or a build's next version.

A deck list reads, one entry a line (blank lines and `#` comments skipped):

    Name: Pyre
    Faction: church
    Class: scout
    Shield: left
    Item: Mace
    3 Prayer of Ash
    1 Sweep [universal-sweep]

A card line is a count and a card's name (a trailing `[card id]` picks one of several
cards of that name; the export writes it only then). Importing checks every line before
anything is written: every unknown, ambiguous or malformed line is named by its number and
the ruling, and so is every construction problem (R-ADD-52) of a line's card or item.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from django.contrib.auth.models import User
from django.db.models import F

from battles.engine.carddata.spelling import UNIVERSAL
from battles.engine.errors import InvalidInput

from . import domain, services
from .catalogue import item_names
from .models import Campaign, CardVersion, CasketBuild, ConstructionPool, EquipmentItem

RULE: Final = "R-ADD-221"
HEADER: Final = "# Penance Tracker deck list (R-ADD-221)"
MAX_LINES: Final = 200
_CARD_LINE = re.compile(r"^(\d{1,2})\s*[x×]?\s+(.+?)(?:\s*\[([a-z0-9-]+)\])?$", re.IGNORECASE)
_KEYS: Final = ("name", "faction", "class", "shield", "item")


@dataclass
class DeckListLine:
    number: int
    count: int
    name: str
    card_id: str = ""


@dataclass
class ParsedDeckList:
    """A deck list's values, each with the line it came from (0: not given)."""

    name: tuple[int, str] = (0, "")
    faction: tuple[int, str] = (0, "")
    casket_class: tuple[int, str] = (0, "")
    shield: tuple[int, str] = (0, "")
    items: list[tuple[int, str]] = field(default_factory=list)
    cards: list[DeckListLine] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)


def line_error(
    number: int, message: str, rule: str | None = RULE, code: str = ""
) -> dict[str, Any]:
    return {"field": f"line {number}", "message": message, "rule": rule, "code": code or "decklist"}


def decklist_parse(text: str) -> ParsedDeckList:
    """The deck list's headers, items and card lines; malformed lines in `errors`.

    >>> p = decklist_parse("Faction: church\\nItem: Mace\\n3 Prayer of Ash\\n1 Sweep [u-sweep]\\nthree")
    >>> p.faction, p.items, [(c.number, c.count, c.name, c.card_id) for c in p.cards]
    ((1, 'church'), [(2, 'Mace')], [(3, 3, 'Prayer of Ash', ''), (4, 1, 'Sweep', 'u-sweep')])
    >>> p.errors[0]["field"], p.errors[0]["rule"]
    ('line 5', 'R-ADD-221')
    """
    parsed = ParsedDeckList()
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        parsed.errors.append(
            line_error(MAX_LINES + 1, f"a deck list has at most {MAX_LINES} lines")
        )
        return parsed
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if sep and key in _KEYS:
            value = value.strip()
            if not value:
                parsed.errors.append(line_error(number, f"“{key.capitalize()}:” needs a value"))
            elif key == "item":
                parsed.items.append((number, value))
            else:
                setattr(parsed, "casket_class" if key == "class" else key, (number, value))
            continue
        match = _CARD_LINE.match(line)
        if match is None:
            parsed.errors.append(
                line_error(
                    number,
                    f"“{line[:60]}” is neither a card line (a count and a card's name, "
                    "“3 Litany Carbine”) nor Name:, Faction:, Class:, Shield: or Item:",
                )
            )
            continue
        count = int(match.group(1))
        if not 1 <= count <= 30:
            parsed.errors.append(
                line_error(number, f"{count} copies: a line holds 1 to 30 (R-TRN-1)", "R-TRN-1")
            )
            continue
        parsed.cards.append(
            DeckListLine(number, count, match.group(2).strip(), (match.group(3) or "").lower())
        )
    return parsed


# --- export --------------------------------------------------------------------------------------


def _ambiguous_names(names: Sequence[str]) -> set[str]:
    lowered = {n.lower() for n in names}
    seen: dict[str, int] = {}
    for name in CardVersion.objects.filter(version=F("card__current_version")).values_list(
        "name", flat=True
    ):
        if name.lower() in lowered:
            seen[name.lower()] = seen.get(name.lower(), 0) + 1
    return {n for n, k in seen.items() if k > 1}


def decklist_text(*, version: domain.BuildVersionState) -> str:
    """The build version's deck list (R-ADD-221): its name, faction, class, shield and
    items, then a line per card, in the deck's order."""
    cards = {
        (cv.card_id, cv.version): cv
        for cv in CardVersion.objects.filter(card_id__in=[c for c, _, _ in version.deck])
    }
    names = [cards[(c, v)].name if (c, v) in cards else c for c, v, _ in version.deck]
    ambiguous = _ambiguous_names(names)
    items = item_names(version.equipment)
    lines = [
        HEADER,
        f"Name: {version.name}",
        *([f"Faction: {version.faction}"] if version.faction else []),
        f"Class: {version.casket_class}",
        f"Shield: {version.shield}",
    ]
    for item in version.equipment:
        if item in items:
            lines.append(f"Item: {items[item].title()}")
        else:  # the older rule's free text (R-ADD-220): not an item of the catalogue
            lines.append(f"# equipment (older rule): {item}")
    total = 0
    for (card, _, count), name in zip(version.deck, names, strict=True):
        suffix = f" [{card}]" if name.lower() in ambiguous else ""
        lines.append(f"{count} {name}{suffix}")
        total += count
    lines.append(f"# {total} cards")
    return "\n".join(lines) + "\n"


# --- import --------------------------------------------------------------------------------------


class DeckListRejected(InvalidInput):
    """A deck list with bad lines: one error per line, each naming the line and the rule."""

    def __init__(self, errors: Sequence[Mapping[str, Any]]) -> None:
        first = errors[0]
        super().__init__(first["field"], first["message"], first["rule"])
        self.extra_errors = [dict(e) for e in errors]


def _resolve_items(parsed: ParsedDeckList) -> tuple[list[str], list[dict[str, Any]]]:
    by_name = {i.name.lower(): i.pk for i in EquipmentItem.objects.all()}
    ids, errors = [], []
    for number, name in parsed.items:
        item = by_name.get(name.lower()) or (
            name.lower() if name.lower() in by_name.values() else None
        )
        if item is None:
            errors.append(
                line_error(
                    number, f"no equipment item “{name}” in the catalogue", RULE, "unknown_item"
                )
            )
        else:
            ids.append(item)
    return ids, errors


def _allowed_cards(faction: str, items: Sequence[str]) -> set[str]:
    pools = ConstructionPool.objects.filter(name__in=[UNIVERSAL, faction])
    allowed = {c for p in pools for c in p.cards}
    for item in EquipmentItem.objects.filter(pk__in=list(items)):
        allowed.update(c for c, _ in item.cards)
    return allowed


def _resolve_cards(
    parsed: ParsedDeckList, allowed: set[str]
) -> tuple[list[tuple[str, int, int]], list[dict[str, Any]]]:
    """(card id, count, line) per card; a card on several lines adds up (first line kept)."""
    wanted = {c.name.lower() for c in parsed.cards}
    by_name: dict[str, list[str]] = {}
    for card_id, name in CardVersion.objects.filter(version=F("card__current_version")).values_list(
        "card_id", "name"
    ):
        if name.lower() in wanted:
            by_name.setdefault(name.lower(), []).append(card_id)
    ids = set(
        CardVersion.objects.filter(
            card_id__in=[c.card_id for c in parsed.cards if c.card_id]
        ).values_list("card_id", flat=True)
    )
    rows: dict[str, list[int]] = {}
    errors = []
    for line in parsed.cards:
        if line.card_id:
            if line.card_id not in ids:
                errors.append(
                    line_error(
                        line.number,
                        f"no card “{line.card_id}” in the catalogue",
                        RULE,
                        "unknown_card",
                    )
                )
                continue
            chosen = line.card_id
        else:
            found = by_name.get(line.name.lower(), [])
            if len(found) > 1:
                found = [c for c in found if c in allowed] or found
            if not found:
                errors.append(
                    line_error(
                        line.number,
                        f"no card named “{line.name}” in the catalogue",
                        RULE,
                        "unknown_card",
                    )
                )
                continue
            if len(found) > 1:
                errors.append(
                    line_error(
                        line.number,
                        f"{len(found)} cards are named “{line.name}”: add the one meant in "
                        f"brackets ({', '.join(f'[{c}]' for c in found)})",
                        RULE,
                        "ambiguous_card",
                    )
                )
                continue
            chosen = found[0]
        if chosen in rows:
            rows[chosen][0] += line.count
        else:
            rows[chosen] = [line.count, line.number]
    return [(c, n, number) for c, (n, number) in rows.items()], errors


def _line_of(field: str, parsed: ParsedDeckList, card_lines: Sequence[int]) -> str:
    """The deck list line a build_revise refusal is about (its `deck[i]`, `equipment`…)."""
    if field.startswith("deck[") and "]" in field:
        index = field[5 : field.index("]")]
        if index.isdigit() and int(index) < len(card_lines):
            return f"line {card_lines[int(index)]}"
    where = {
        "faction": parsed.faction[0],
        "casket_class": parsed.casket_class[0],
        "shield": parsed.shield[0],
        "name": parsed.name[0],
    }.get(field.split(".", 1)[0].split("[", 1)[0])
    if where:
        return f"line {where}"
    if field == "equipment" and parsed.items:
        return f"lines {', '.join(str(n) for n, _ in parsed.items)}"
    return "deck list" if field in ("deck", "") else field


def decklist_resolve(
    text: object,
) -> tuple[ParsedDeckList, list[str], list[tuple[str, int, int]]]:
    """The deck list read: its values, its item ids and its (card id, count, line) rows.

    Raises DeckListRejected naming every malformed, unknown or ambiguous line."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("text", "paste a deck list: one “3 Litany Carbine” per line", RULE)
    parsed = decklist_parse(text)
    items, item_errors = _resolve_items(parsed)
    cards, card_errors = _resolve_cards(parsed, _allowed_cards(parsed.faction[1], items))
    errors = [*parsed.errors, *item_errors, *card_errors]
    if not parsed.cards and not errors:
        errors.append(line_error(0, "the deck list names no card", "R-TRN-1"))
    if errors:
        raise DeckListRejected(sorted(errors, key=_line_number))
    return parsed, items, cards


def problems_by_line(
    errors: Sequence[Mapping[str, Any]],
    parsed: ParsedDeckList,
    cards: Sequence[tuple[str, int, int]],
) -> list[dict[str, Any]]:
    """Deck refusals (`deck[i]`, `equipment`, `faction`…) named by the deck list's lines."""
    lines = [number for _, _, number in cards]
    return [{**e, "field": _line_of(str(e["field"] or ""), parsed, lines)} for e in errors]


def build_decklist_import(
    *,
    campaign: Campaign,
    actor: User,
    text: object,
    build_id: str | None = None,
    name: str = "",
    pilot: str | None = None,
    player: str | None = None,
) -> tuple[CasketBuild, int]:
    """A new build (`build_id` None) or a build's next version from a deck list; nothing is
    written unless every line is good and the deck is legal (DeckListRejected names each
    bad line, with its number and ruling)."""
    parsed, items, cards = decklist_resolve(text)
    try:
        return services.build_revise(
            campaign=campaign,
            actor=actor,
            build_id=build_id,
            name=parsed.name[1] or name,
            casket_class=parsed.casket_class[1] or "scout",
            shield=parsed.shield[1] or "left",
            faction=parsed.faction[1],
            deck=[{"card": c, "count": n} for c, n, _ in cards],
            equipment=items,
            player=player,
            pilot=pilot,
        )
    except services.DeckRejected as exc:
        raise DeckListRejected(problems_by_line(exc.extra_errors, parsed, cards)) from None
    except InvalidInput as exc:
        one = {"field": exc.field, "message": exc.message, "rule": exc.rule, "code": "decklist"}
        raise DeckListRejected(problems_by_line([one], parsed, cards)) from None


def _line_number(error: Mapping[str, Any]) -> int:
    digits = "".join(ch for ch in str(error["field"]).split(",")[0] if ch.isdigit())
    return int(digits) if digits else 0
