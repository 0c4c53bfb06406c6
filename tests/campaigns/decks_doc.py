"""A small card database for deck construction tests (R-ADD-52, R-ADD-220): two universal
cards, a church section, an elves card and five equipment items, one per kind of slot."""

from __future__ import annotations

from typing import Any


def _card(name: str, *, cost: int = 1, count: int = 3, damage: int | None = None) -> dict[str, Any]:
    card: dict[str, Any] = {
        "id": name.lower().replace(" ", "-"),
        "name": name,
        "type": "Attack" if damage else "movement",
        "cost": cost,
        "range": "Melee" if damage else "Self",
        "effect": f"Deal {damage} damage." if damage else "Move up to 2 hexes.",
        "cardCount": count,
    }
    if damage:
        card["damage"] = damage
    return card


def _item(name: str, faction: str, category: str, cards: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "faction": faction,
        "category": category,
        "weight": extra.pop("weight", "Light"),
        "craftingCost": "2 Scrap",
        "cards": [
            {
                "name": c,
                "cost": 1,
                "type": "Attack",
                "range": "Melee",
                "damage": 3,
                "effect": "Deal 3 damage.",
            }
            for c in cards
        ],
        **extra,
    }


DECKS_DOCUMENT: dict[str, Any] = {
    "_meta": {"version": "decks-test"},
    "universal": [_card("Lunge", count=2), _card("Brace", count=2)],
    "church": [_card(f"Prayer {n}", count=3, damage=n % 4 + 1) for n in range(1, 9)],
    "elves": [_card("Leaf Step", count=3)],
    "equipment_items": [
        _item("MACE", "church", "Weapon", ["Smash", "Crush"]),
        _item("GREATSWORD", "universal", "Weapon", ["Cleave", "Sweep"], weight="Heavy (2-handed)"),
        _item("TOWER SHIELD", "universal", "Defense", ["Shove"]),
        _item("CHARM", "universal", "Accessory", ["Ward"]),
        _item("LONGBOW", "elves only", "Weapon", ["Volley"], weight="Light (2-handed)"),
    ],
}

# A legal church scout: the mace and the tower shield (3 cards), the charm (1), the
# universal cards once each (2), and 24 church cards.
LEGAL_ITEMS = ["mace", "tower-shield", "charm"]
LEGAL_DECK = [
    ("lunge", 1),
    ("brace", 1),
    ("mace-smash", 1),
    ("mace-crush", 1),
    ("tower-shield-shove", 1),
    ("charm-ward", 1),
    *((f"prayer-{n}", 3) for n in range(1, 9)),
]


def pyre_build(made: Any) -> Any:
    """Ann's legal church scout "Pyre" in the demo campaign `made` (R-ADD-52)."""
    from campaigns import services

    build, _ = services.build_revise(
        campaign=made.campaign,
        actor=made.ann,
        build_id=None,
        name="Pyre",
        casket_class="scout",
        shield="left",
        faction="church",
        deck=[{"card": c, "count": n} for c, n in LEGAL_DECK],
        equipment=LEGAL_ITEMS,
        pilot=str(made.pilots[0].id),
    )
    return build


def staff_client(user_model: Any) -> Any:
    """A test client signed in as a new superuser."""
    from django.test import Client

    client = Client()
    client.force_login(user_model.objects.create_superuser(username="root", password="x" * 12))
    return client
