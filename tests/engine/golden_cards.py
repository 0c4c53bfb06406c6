"""The stored form of every catalogued and derived card, dumped once as a golden fixture.

`python -m tests.engine.golden_cards` rewrites `tests/engine/data/cards_golden.json` from the
code as it stands; `test_cards_golden.py` re-derives the same dump and compares, so a change
to how an effect or a card writes itself (its `as_dict`, the form events and stored decks
hold) cannot pass unnoticed.

The dump holds the effects of `VOCABULARY` written back; for every entry of the effect catalogue (`card_catalogue/*.json`), the
`as_dict()` of each of its effects; for every card derived from the real card database
(when the file is present), the `as_dict()` of each of its effects and the SHA-256 of its
whole `as_dict()` (the card's printed text stays out of the repository: only its hash is
kept).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from battles.engine.carddata.card_catalogue import catalogue
from battles.engine.carddata.carddb import read_database
from battles.engine.cards import effect_from_dict

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "data" / "cards_golden.json"
DATABASE = REPO.parent / "shared" / "data" / "penance-card-database-v5.15b.json"


# The effects no catalogued card uses, and the written-when-default fields no catalogued card
# sets to another value: every effect kind and every field's non-default form is in the dump.
VOCABULARY = (
    {"kind": "roll_suffering", "n": 2},
    {"kind": "transform", "form": "tank"},
    {"kind": "limit", "per": "round", "n": 2},
    {"kind": "damage_aura", "amount": 1, "within": 2},
    {"kind": "recover_named", "cards": ["a-card", "b-card"], "n": 2},
    {"kind": "advantage", "n": 2},
    {"kind": "guard", "within": 2},
)


def _json(doc: object) -> str:
    return json.dumps(doc, ensure_ascii=False, sort_keys=False, separators=(",", ":"))


def catalogue_dump() -> dict[str, Any]:
    """Every catalogue entry's effects as they write themselves, keyed "section/id"."""
    return {
        f"{section}/{card_id}": [e.as_dict() for e in entry.effects]
        for (section, card_id), entry in sorted(catalogue().items())
        if entry.effects is not None
    }


def vocabulary_dump() -> list[Any]:
    """`VOCABULARY` read and written back."""
    return [effect_from_dict(d, f"vocabulary[{i}]").as_dict() for i, d in enumerate(VOCABULARY)]


def database_dump(path: Path = DATABASE) -> dict[str, Any] | None:
    """Every card derived from the database: its effects and its whole form's hash."""
    if not path.exists():
        return None
    read = read_database(json.loads(path.read_text(encoding="utf-8")))
    out: dict[str, Any] = {}
    for card_id in sorted(read.cards):
        stored = read.cards[card_id].card.as_dict()
        out[card_id] = {
            "effects": stored["effects"],
            "sha256": hashlib.sha256(_json(stored).encode("utf-8")).hexdigest(),
        }
    return out


def main() -> None:
    database = database_dump()
    if database is None:
        raise SystemExit(f"{DATABASE} is absent: the golden dump needs the real database")
    doc = {"catalogue": catalogue_dump(), "vocabulary": vocabulary_dump(), "database": database}
    # One line per card, so a change to the form shows as the cards it touches.
    parts = []
    for name, part in doc.items():
        if isinstance(part, dict):
            rows = ",\n".join(f"  {_json(key)}: {_json(value)}" for key, value in part.items())
            parts.append(f" {_json(name)}: {{\n{rows}\n }}")
        else:
            rows = ",\n".join(f"  {_json(value)}" for value in part)
            parts.append(f" {_json(name)}: [\n{rows}\n ]")
    text = "{\n" + ",\n".join(parts) + "\n}\n"
    assert json.loads(text) == doc
    tmp = GOLDEN.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(GOLDEN)


if __name__ == "__main__":
    main()
