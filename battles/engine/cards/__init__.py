"""Card definitions: the project's card format and its effect vocabulary.

A `CardDef` (`definition`) is what the engine plays. Its `effects` are a short list of
declarative steps the engine runs in order, from the vocabulary in `effects` (one module per
family). Anything a card's text says beyond them is left to the players: such a card is
*manual* (`automated` false) and the engine shows its text while still running the
structured part.

Reading the game's card database into `CardDef`s is `battles.engine.carddata`'s, which
imports this package and never the other way round.
"""

from __future__ import annotations

from . import effects
from .definition import CARD_KINDS, DAMAGE_CARD, CardDef, card_from_dict
from .effects import *  # noqa: F403 (every name `effects.__all__` lists: the vocabulary)
from .effects.attacks import ENHANCED_ATTACKS, FOLLOW_UP_TARGETS, SCHOOL_NOTE, SPELL_SCHOOLS
from .effects.bounds import (
    MAX_CARDS,
    MAX_HEAT,
    MAX_HEXES,
    MAX_TO_HIT,
    MAX_TOKENS,
    STATUS_TARGETS,
    TOKEN_POOLS,
)
from .effects.condition import CONDITIONS, FIRE_TERRAIN, FORMS, Condition, condition_from_dict
from .effects.conditions import CARD_CLASSES, CLASS_NOTE, MAX_BLEED, SP_ALL, STATUSES
from .effects.defence import DEFENCE_OUTCOMES, THORNS_UNTIL, WARD_AGAINST, WARD_UNTIL
from .effects.hand import DISCARD_SOURCES, TARGET_DISCARD_KINDS, TARGET_DISCARD_PICKS
from .effects.movement import MAX_ROOT_TURNS
from .effects.resources import GIVE_HEAT_TO, MAX_SUFFERING_DICE
from .effects.terrain import MAX_SEEDS, MAX_TERRAIN_HEXES, TERRAIN_AT, TERRAIN_UNTIL
from .effects.triggers import TRIGGERS

__all__ = [
    "CARD_CLASSES",
    "CARD_KINDS",
    "CLASS_NOTE",
    "CONDITIONS",
    "DAMAGE_CARD",
    "DEFENCE_OUTCOMES",
    "DISCARD_SOURCES",
    "ENHANCED_ATTACKS",
    "FIRE_TERRAIN",
    "FOLLOW_UP_TARGETS",
    "FORMS",
    "GIVE_HEAT_TO",
    "MAX_BLEED",
    "MAX_CARDS",
    "MAX_HEAT",
    "MAX_HEXES",
    "MAX_ROOT_TURNS",
    "MAX_SEEDS",
    "MAX_SUFFERING_DICE",
    "MAX_TERRAIN_HEXES",
    "MAX_TOKENS",
    "MAX_TO_HIT",
    "SCHOOL_NOTE",
    "SPELL_SCHOOLS",
    "SP_ALL",
    "STATUSES",
    "STATUS_TARGETS",
    "TARGET_DISCARD_KINDS",
    "TARGET_DISCARD_PICKS",
    "TERRAIN_AT",
    "TERRAIN_UNTIL",
    "THORNS_UNTIL",
    "TOKEN_POOLS",
    "TRIGGERS",
    "WARD_AGAINST",
    "WARD_UNTIL",
    "CardDef",
    "Condition",
    "card_from_dict",
    "condition_from_dict",
]
__all__ += effects.__all__
