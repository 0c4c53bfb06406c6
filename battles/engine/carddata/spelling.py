"""How the game's card database names its sections (R-ADD-53) and spells its ranges (R-RNG-2).

Their own module so that the effect catalogue, which is keyed by the sections and reads the
ranges, and the derivation, which goes through the catalogue, both import them without
importing each other.
"""

from __future__ import annotations

import re

from ..errors import InvalidInput
from ..tohit import WeaponRange, parse_range

# The factions of the database: one list section each.
FACTIONS = (
    "church",
    "dwarves",
    "ossuarium",
    "elves",
    "nomads",
    "crucible",
    "emergent",
    "exchange",
    "vestige-bloodlines",
    "wyrd-conclave",
)
UNIVERSAL = "universal"
# Sections whose entries are objects holding lists of cards, one per sub-section.
NESTED_CARD_SECTIONS = ("tactics", "v3_optional")
ITEMS_SECTION = "equipment_items"
UNITS_SECTION = "support_units"
EQUIPMENT_SECTION = "equipment"
# The database's spellings of R-RNG-2 ranges, each mapped to the engine's spelling.
# Anything qualified further (area, cone, leap, radius, AoE, two ranges) is not one
# attack at one target, so it is not parsed.
_DB_RANGES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"melee(?: \((?:1 hex|range 1)\))?|adjacent|1 hex \(adjacent only\)", re.I),
        "Melee",
    ),
    (re.compile(r"self", re.I), "Self"),
    (re.compile(r"(?:range )?(\d{1,2})(?: hex(?:es)?)?", re.I), r"\1"),
    (re.compile(r"ranged \(?(\d{1,2})-(\d{1,2})(?: hexes)?\)?", re.I), r"\1-\2"),
    (re.compile(r"ranged (\d{1,2})", re.I), r"\1"),
)


def database_range(text: object) -> WeaponRange | None:
    """A database range in R-RNG-2 terms, or None when it is not one plain range.

    >>> database_range("Melee (Range 1)"), database_range("4 hexes"), database_range("N/A")
    (WeaponRange(text='Melee', low=1, high=1), WeaponRange(text='4', low=1, high=4), None)
    >>> database_range("Ranged 2-5").text, database_range("3 hexes (line)")
    ('2-5', None)
    """
    if not isinstance(text, str):
        return None
    for pattern, spelling in _DB_RANGES:
        match = pattern.fullmatch(text.strip())
        if match:
            try:
                return parse_range(match.expand(spelling))
            except InvalidInput:
                return None
    return None
