"""The effect catalogue: what the real card database's cards do, written by hand from
each card's text and shipped as data (R-ADD-57).

One JSON file per database section (`universal.json`, `equipment.json`, the faction
sections). Each entry names a card by `id` and records the printed `text`, `cost` and
`range` it was written from, with `sha256`, their hash (`text_hash`). An entry either
gives the card's `effects` in the project's effect vocabulary (battles/engine/cards/effects/),
and optionally its `kind` where the database's keywords say too little, or says why the
card stays `manual`: its text promises something the vocabulary cannot express.

`lookup` matches a database entry: only an entry whose text, cost and range hash to the
recorded `sha256` is used, so a card whose text changed in a later database version
falls back to manual with that reason until someone reviews it again. Nothing here
reads meaning into free text at run time.

>>> text_hash("Draw 2 cards.", 1, "Self")
'da1aa3ca396c9956'
>>> found, note = lookup("universal", "souls-recall", "Draw 2 cards.", 1, "Self")
>>> found.effects, note
((DrawEffect(n=2),), None)
>>> lookup("universal", "souls-recall", "Draw 3 cards.", 1, "Self")[1]
'the catalogue entry was written for another text, cost or range (hash da1aa3ca396c9956, now 3ae7303d5e6431a1): manual until reviewed again (R-ADD-57)'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

from ...cards import (
    CARD_KINDS,
    AttackEffect,
    CardDef,
    Effect,
    HeatEffect,
    effect_from_dict,
)
from ...errors import InvalidInput
from ..spelling import EQUIPMENT_SECTION, FACTIONS, ITEMS_SECTION, UNIVERSAL, database_range

HERE = Path(__file__).resolve().parent
# One catalogue file per section of the database that holds deck cards (carddb's names).
# The optional v3 cards are read sub-section by sub-section (`v3_optional.<name>`, R-ADD-53).
SECTIONS = (
    UNIVERSAL,
    EQUIPMENT_SECTION,
    ITEMS_SECTION,
    *FACTIONS,
    "v3_optional.taint_exploitation",
    "v3_optional.grit_related",
)


def text_hash(text: object, cost: object, range_: object) -> str:
    """The hash an entry is keyed by: the printed effect text, cost and range (R-ADD-57)."""
    doc = json.dumps([text, cost, range_], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(doc.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """One reviewed card: its effects, or the reason it stays manual."""

    section: str
    id: str
    text: str
    cost: object
    range: object
    sha256: str
    effects: tuple[Effect, ...] | None
    manual: str | None
    kind: str | None = None
    # What the text leaves to the campaign (tokens that persist across missions), as data
    # a campaign can act on later; the battle does not (R-ADD-61).
    campaign: str | None = None

    @property
    def automated(self) -> bool:
        return self.effects is not None

    def card(
        self,
        *,
        name: str,
        kind: str,
        sp_cost: int,
        keywords: tuple[str, ...] = (),
        shield: bool = False,
    ) -> CardDef:
        """The automated card: printed range and damage are its first attack's, its Heat
        the sum of its heat effects (R-ADD-14)."""
        assert self.effects is not None
        attack = next((e for e in self.effects if isinstance(e, AttackEffect)), None)
        # A card without an attack keeps its printed range: a card acting on an enemy
        # checks it (R-ADD-65).
        return CardDef(
            id=self.id,
            name=name,
            kind=self.kind or kind,
            sp_cost=sp_cost,
            range=attack.range if attack else database_range(self.range),
            damage=attack.damage if attack else None,
            heat=sum(e.amount for e in self.effects if isinstance(e, HeatEffect)),
            keywords=keywords,
            text=self.text,
            shield=shield,
            effects=self.effects,
            automated=True,
        )


def _entry(section: str, i: int, doc: object) -> CatalogueEntry:
    path = f"{section}[{i}]"
    if not isinstance(doc, Mapping):
        raise InvalidInput(path, "must be an object")
    allowed = {"id", "text", "cost", "range", "sha256", "effects", "manual", "kind", "campaign"}
    unknown = sorted(str(k) for k in doc if k not in allowed)
    if unknown:
        raise InvalidInput(f"{path}.{unknown[0]}", f"unknown field; allowed: {sorted(allowed)}")
    for key in ("id", "text", "sha256"):
        if not isinstance(doc.get(key), str):
            raise InvalidInput(f"{path}.{key}", "must be a string")
    if doc["sha256"] != text_hash(doc["text"], doc.get("cost"), doc.get("range")):
        raise InvalidInput(f"{path}.sha256", "is not the hash of the entry's text, cost and range")
    if ("effects" in doc) == ("manual" in doc):
        raise InvalidInput(path, "give either effects or the reason it stays manual")
    effects: tuple[Effect, ...] | None = None
    if "effects" in doc:
        raw = doc["effects"]
        if not isinstance(raw, list) or not raw:
            raise InvalidInput(f"{path}.effects", "must be a non-empty list of effects")
        effects = tuple(effect_from_dict(e, f"{path}.effects[{j}]") for j, e in enumerate(raw))
    manual = doc.get("manual")
    if manual is not None and (not isinstance(manual, str) or not manual.strip()):
        raise InvalidInput(f"{path}.manual", "must be the reason, a non-empty string")
    campaign = doc.get("campaign")
    if campaign is not None and (not isinstance(campaign, str) or not campaign.strip()):
        raise InvalidInput(f"{path}.campaign", "must be a non-empty string")
    kind = doc.get("kind")
    if kind is not None and kind not in CARD_KINDS:
        raise InvalidInput(f"{path}.kind", f"{kind!r} is not one of: {', '.join(CARD_KINDS)}")
    return CatalogueEntry(
        section, doc["id"], doc["text"], doc.get("cost"), doc.get("range"), doc["sha256"],
        effects, manual, kind, campaign,
    )  # fmt: skip


@lru_cache(maxsize=1)
def catalogue() -> Mapping[tuple[str, str], CatalogueEntry]:
    """Every entry of the shipped files, keyed by (section, card id); validated on load."""
    out: dict[tuple[str, str], CatalogueEntry] = {}
    for section in SECTIONS:
        path = HERE / f"{section}.json"
        if not path.exists():
            continue
        docs = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(docs, list):
            raise InvalidInput(section, "a catalogue file is a list of entries")
        for i, doc in enumerate(docs):
            entry = _entry(section, i, doc)
            if (section, entry.id) in out:
                raise InvalidInput(f"{section}[{i}].id", f"{entry.id!r} is catalogued twice")
            out[(section, entry.id)] = entry
    return MappingProxyType(out)


def lookup(
    section: str, card_id: str, text: object, cost: object, range_: object
) -> tuple[CatalogueEntry | None, str | None]:
    """The entry for a database card and a note: (entry, None) when it matches; (None, why)
    when the card is catalogued manual or its text changed; (None, None) when not catalogued."""
    entry = catalogue().get((section, card_id))
    if entry is None:
        return None, None
    now = text_hash(text, cost, range_)
    if now != entry.sha256:
        return None, (
            f"the catalogue entry was written for another text, cost or range (hash "
            f"{entry.sha256}, now {now}): manual until reviewed again (R-ADD-57)"
        )
    if entry.manual is not None:
        return None, entry.manual
    return entry, None
