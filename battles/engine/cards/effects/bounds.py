"""The bounds of the effect vocabulary: the small limits a value is checked against, the
token pools and what a conditional or after-the-attack effect may do.
"""

import re

STATUS_TARGETS = ("self", "target")


# Small bounds: they catch typos ("40" for "4") without restricting any real card.
MAX_HEXES = 20


MAX_HEAT = 20


MAX_CARDS = 30


MAX_TO_HIT = 10


SLUG_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


# Named token pools a casket keeps during a battle (R-ADD-61): the factions' resources.
# "scrap": the Scavenger's Toolkit's battle tokens (R-ADD-442), not the settlement's Scrap.
TOKEN_POOLS = ("forge", "credit", "biomass", "soul_shard", "bargain", "metamorph", "rune", "scrap")


MAX_TOKENS = 99


# What a conditional or after-the-attack effect may do: the casket's own resources, and
# Taint; never an attack, a move or a choice the command makes.
AFTER_KINDS = (
    *("gain_tokens", "recover", "draw", "heat", "taint", "hinder", "sp_penalty", "plant_seeds"),
    "damage_next_turn",
    # lasting damage vocabulary: lasting effects on the attack's target (R-ADD-110 to R-ADD-114)
    *("root", "bleed", "ongoing_damage", "move_cost", "draw_penalty", "target_discards"),
    "lasting_curse",  # R-ADD-421
    "damage_until_discards",  # R-ADD-443
    "lower_defence",
    # summoned units: a unit on the nearest free hex, no choice of the command's (R-ADD-406);
    # a bonus to the own units within range, none chosen (R-ADD-408)
    "summon",
    "unit_boost",
)
