"""How much of the card database the engine runs by itself (R-ADD-57): the coverage report.

Per faction: the cards a deck of that faction may hold (the universal cards, its own cards
and the cards of the items it may carry, R-ADD-52), how many of them are fully automated
and how many manual; then every manual card with the reason it is manual, and every
entry that did not load with its reason. `coverage_markdown` writes it for docs/CARDS.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import AttackEffect, CardDef
from .carddb import COST_NOTE, FACTIONS, RANGE_NOTE, DatabaseRead


@dataclass(frozen=True, slots=True)
class FactionCoverage:
    faction: str
    deck_cards: int
    automated: int

    @property
    def manual(self) -> int:
        return self.deck_cards - self.automated


def deck_card_ids(read: DatabaseRead, faction: str) -> set[str]:
    """Every loaded card a casket deck of `faction` may hold (R-ADD-52).

    >>> from battles.engine.carddata.carddb import read_database
    >>> card = {"name": "Step", "cost": 1, "effect": "Move 1."}
    >>> read = read_database({"universal": [dict(card, id="step")],
    ...                       "church": [dict(card, id="pray")], "elves": [dict(card, id="leaf")]})
    >>> sorted(deck_card_ids(read, "church"))
    ['pray', 'step']
    """
    ids = set(read.universal) | set(read.faction_pools.get(faction, ()))
    for item in read.items.values():
        if item.allowed_to(faction):
            ids.update(card_id for card_id, _ in item.cards)
    return ids


def faction_coverage(read: DatabaseRead) -> list[FactionCoverage]:
    """One row per faction of the database, in the database's order.

    >>> from battles.engine.carddata.carddb import read_database
    >>> jab = {"id": "jab", "name": "Jab", "type": "Attack", "cost": 1, "range": "Melee",
    ...        "damage": 2, "effect": "Deal 2 damage."}
    >>> faction_coverage(read_database({"church": [jab, {"id": "pray", "name": "Pray",
    ...                                 "cost": 1, "effect": "Pray."}]}))
    [FactionCoverage(faction='church', deck_cards=2, automated=1)]
    """
    rows = []
    for faction in FACTIONS:
        if faction not in read.faction_pools:
            continue
        ids = deck_card_ids(read, faction)
        automated = sum(read.counted(i) for i in ids)
        rows.append(FactionCoverage(faction, len(ids), automated))
    return rows


def _quote(text: str, limit: int = 90) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def manual_reason(card: CardDef, note: str | None = None) -> str:
    """Why a loaded card is manual: the effect catalogue's `note` where its reviewer wrote
    one (R-ADD-57), else from the card's own fields (what its effects leave to the players).

    >>> from battles.engine.tohit import parse_range
    >>> manual_reason(CardDef(id="x", name="X", kind="other", sp_cost=1, text="Draw 1 card",
    ...                       automated=False))
    'no effect of the vocabulary expresses its text: "Draw 1 card"'
    >>> manual_reason(CardDef(id="x", name="X", kind="other", sp_cost=1, text="Draw 1 card",
    ...                       automated=False), "draws for an ally")
    'catalogue: draws for an ally: "Draw 1 card"'
    """
    if card.automated:
        return ""
    if note:
        return f'catalogue: {note}: "{_quote(card.text)}"'
    if card.kind == "behaviour":
        return "a support unit's behaviour card: the players run the unit from its text"
    printed = [k for k in card.keywords if k.startswith((COST_NOTE, RANGE_NOTE))]
    if printed:
        return f'printed {"; ".join(printed)} (R-ADD-54): "{_quote(card.text)}"'
    attack = card.attack
    if isinstance(attack, AttackEffect):
        return f'its text says more than its attack ({attack.damage} damage): "{_quote(card.text)}"'
    if (
        card.range is not None
        and card.range.low >= 1
        and card.damage is None
        and "deal" in card.text.lower()
    ):
        return f'its printed damage is not one number: "{_quote(card.text)}"'
    if card.effects:
        kinds = ", ".join(type(e).kind for e in card.effects)
        return f'its text says more than its effects ({kinds}): "{_quote(card.text)}"'
    return f'no effect of the vocabulary expresses its text: "{_quote(card.text)}"'


def _why(read: DatabaseRead, card: CardDef) -> str:
    if card.automated and card.id in read.pending:  # R-ADD-275
        return (
            f"automated in the battle, not counted: {read.pending[card.id]} is not carried "
            f'to the campaign yet (R-ADD-275): "{_quote(card.text)}"'
        )
    return manual_reason(card, read.notes.get(card.id))


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def coverage_markdown(read: DatabaseRead, *, source: str) -> str:
    """The coverage tables for docs/CARDS.md, in Markdown.

    >>> from battles.engine.carddata.carddb import read_database
    >>> table = coverage_markdown(read_database({"church": [{"id": "pray", "name": "Pray",
    ...                           "cost": 1, "effect": "Pray."}]}), source="db.json")
    >>> "| church | 1 | 0 | 1 |" in table, '| `pray` | church #0 |' in table
    (True, True)
    """
    lines: list[str] = []
    rows = faction_coverage(read)
    total = len(read.cards)
    automated = read.automated
    deck_kinds = [c for c in read.cards.values() if c.card.kind != "behaviour"]
    lines += [
        f"Database `{source}`: {total} cards loaded ({len(deck_kinds)} deck cards, "
        f"{total - len(deck_kinds)} behaviour cards), {automated} fully automated, "
        f"{total - automated} manual; "
        f"{sum(1 for r in read.reported if r.source.index >= 0)} entries reported "
        f"(not loaded, or another occurrence of a loaded id); "
        f"{len(read.items)} equipment items, {len(read.units)} support units.",
        "",
        "| faction | loaded deck cards | fully automated | manual |",
        "|---|---|---|---|",
    ]
    lines += [f"| {r.faction} | {r.deck_cards} | {r.automated} | {r.manual} |" for r in rows]
    behaviours: dict[str, int] = {}
    for c in read.cards.values():
        if c.card.kind == "behaviour":
            behaviours[c.faction] = behaviours.get(c.faction, 0) + 1
    lines += [
        "",
        "Support units' behaviour cards (all manual: the players run the units): "
        + ", ".join(f"{f} {n}" for f, n in sorted(behaviours.items()))
        + ".",
        "",
        "### Every manual card and why",
        "",
        "| card | source | reason |",
        "|---|---|---|",
    ]
    lines += [
        f"| `{c.card.id}` | {_escape(str(c.source))} | {_escape(_why(read, c.card))} |"
        for c in read.cards.values()
        if not read.counted(c.card.id) and c.card.kind != "behaviour"
    ]
    lines += [
        "",
        "### Every entry not loaded, and why",
        "",
        "| entry | reason |",
        "|---|---|",
    ]
    for r in read.reported:
        where = f"{r.source.section} (whole section)" if r.source.index < 0 else str(r.source)
        name = f" {_escape(r.name)}" if r.name else ""
        lines.append(f"| {_escape(where)}{name} | {_escape(r.reason)} |")
    return "\n".join(lines) + "\n"
