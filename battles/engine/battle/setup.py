"""The setup document a battle is created from, and the state it starts in.

`parse_setup` validates a document (every fault names its field) and returns it
normalised: defaults filled in, the board and ruleset in their canonical form, so
the `BattleCreated` event that records it replays the same on any later engine.

Shape (docs/BATTLES.md): `name`, `board` (FORMATS.md), `rules`, `dice` (`mode`
digital or table, `seed`, `seed_public`, `commitment`: R-ADD-45), `policy` (prompt or auto), `cards` (card definitions in
the project's format), `seats` (player, side, casket {name, class, shield,
component_damage, faction, bloodline}, deck [{card, count}], pilot {name, carried_wounds, sp_modifier,
taint, grit, grit_modifier, grit_bonus, tokens},
at [q, r], facing).

`casket.component_damage` is the damage a casket carries from an earlier battle
(ruleset option `persistent_component_damage`, R-PLT-5): component name (R-ADD-7) to
0..`component_threshold` (R-DMG-7). It is normalised to every component in COMPONENTS
order and left out entirely when every value is 0, so setups written before it existed
normalise, and their recorded `BattleCreated` events replay, exactly as before. The
casket starts with that damage and with the components at the threshold destroyed;
their one-time effects happened in the earlier battle and neural feedback counts only
multiples of 5 crossed in this one (R-ADD-30).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from ..arcs import SHIELDS
from ..board import Board, parse_board
from ..carddata.carddb import FACTIONS
from ..carddata.decks import validate_deck
from ..cards import CardDef, card_from_dict
from ..cards.effects.condition import BLOODLINES, VESTIGE
from ..dice import COMPONENTS
from ..errors import InvalidInput
from ..hexes import Hex
from ..ruleset import Ruleset, parse_ruleset
from .state import (
    CARRIED_WOUNDS,
    PERSISTENT_TOKENS,
    SETUP,
    SP_MAXIMUM,
    BattleState,
    CasketState,
)

MAX_SEATS = 8
MAX_SEED = 2**63 - 1
DICE_MODES = ("digital", "table")
POLICIES = ("prompt", "auto")


def _mapping(doc: object, path: str, allowed: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(doc, Mapping):
        raise InvalidInput(path, f"must be an object with fields {', '.join(allowed)}")
    for key in doc:
        if key not in allowed:
            raise InvalidInput(f"{path}.{key}", f"unknown field; allowed: {', '.join(allowed)}")
    return doc


def _text(value: object, path: str, max_len: int = 120) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > max_len:
        raise InvalidInput(path, f"must be a non-empty string of at most {max_len} characters")
    return value.strip()


def _choice(value: object, path: str, allowed: tuple[str, ...], rule: str | None = None) -> str:
    if value not in allowed:
        raise InvalidInput(path, f"must be one of {', '.join(allowed)}, got {value!r}", rule)
    return str(value)


def _int(value: object, path: str, low: int, high: int, rule: str | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(path, f"must be an integer from {low} to {high}, got {value!r}", rule)
    return value


def _component_damage(raw: object, path: str, ruleset: Ruleset) -> dict[str, int] | None:
    """Carried component damage, every component in COMPONENTS order; None when all 0."""
    if not ruleset.option("persistent_component_damage"):
        raise InvalidInput(
            path,
            "component damage carries into a battle only under the ruleset option "
            "persistent_component_damage",
            "R-PLT-5",
        )
    if not isinstance(raw, Mapping):
        raise InvalidInput(
            path, f"must be an object of component ({', '.join(COMPONENTS)}) to damage", "R-ADD-7"
        )
    threshold = int(ruleset.option("component_threshold"))
    for key in raw:
        if key not in COMPONENTS:
            raise InvalidInput(
                f"{path}.{key}", f"unknown component; known: {', '.join(COMPONENTS)}", "R-ADD-7"
            )
    # Above the threshold would say nothing more: the component is destroyed either way.
    damage = {c: _int(raw.get(c, 0), f"{path}.{c}", 0, threshold, "R-DMG-7") for c in COMPONENTS}
    return damage if any(damage.values()) else None


# The name a bot's seat plays under (R-ADD-210): the seat's `player` in the normalised setup,
# and the actor of the commands the server sends for it.
BOT_PLAYER = "bot"


def _bot_seat(seat: Mapping[str, Any], path: str, dice_mode: str) -> bool:
    """Whether the seat is the server's bot (`"bot": true`), checked (R-ADD-210..213).

    >>> _bot_seat({"bot": True}, "seats[1]", "digital"), _bot_seat({}, "seats[0]", "digital")
    (True, False)
    >>> try:
    ...     _bot_seat({"bot": True, "player": "ann"}, "seats[1]", "digital")
    ... except InvalidInput as exc:
    ...     print(exc.field, exc.rule)
    seats[1].player R-ADD-210
    """
    bot = seat.get("bot", False)
    if not isinstance(bot, bool):
        raise InvalidInput(f"{path}.bot", "must be true or false", "R-ADD-211")
    if bot and "player" in seat:
        raise InvalidInput(
            f"{path}.player", "a bot's seat names no player: drop `player` or `bot`", "R-ADD-210"
        )
    if bot and dice_mode == "table":
        raise InvalidInput(
            f"{path}.bot",
            "a bot cannot roll physical dice or draw real cards: a battle with a bot "
            'uses digital dice ("dice": {"mode": "digital"})',
            "R-ADD-212",
        )
    return bot


def _human(player: object, field: str) -> str:
    """A human seat's player: any name but the bot's, which only `"bot": true` seats (R-ADD-214)."""
    name = _text(player, field, 150)
    if name == BOT_PLAYER:
        raise InvalidInput(
            field, f'{BOT_PLAYER!r} is the server\'s bot: give the seat "bot": true', "R-ADD-214"
        )
    return name


def parse_setup(doc: object) -> dict[str, Any]:
    """Validate a setup document and return it normalised (JSON values only).

    >>> from battles.engine.demo import demo_setup
    >>> parse_setup(demo_setup())["dice"]
    {'mode': 'digital', 'seed': 7, 'seed_public': True}
    >>> parse_setup({**demo_setup(), "seats": []})
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: seats: a battle needs 2 to 8 seats (R-TRN-1)
    """
    doc = _mapping(
        doc, "setup", ("name", "board", "rules", "dice", "policy", "cards", "seats", "campaign")
    )
    name = _text(doc.get("name", "Battle"), "name")
    if "board" not in doc:
        raise InvalidInput("board", "is required (a board document, FORMATS.md)")
    board = parse_board(doc["board"], "board")
    ruleset = parse_ruleset(doc.get("rules"), "rules")
    dice = _dice(doc.get("dice", {}))
    policy = _choice(doc.get("policy", "prompt"), "policy", POLICIES)

    raw_cards = doc.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise InvalidInput("cards", "must be a non-empty list of card definitions")
    cards: dict[str, CardDef] = {}
    for i, raw in enumerate(raw_cards):
        card = card_from_dict(raw, f"cards[{i}]")
        if card.id in cards:
            raise InvalidInput(f"cards[{i}].id", f"card {card.id!r} is defined twice")
        if card.kind == "damage":
            raise InvalidInput(
                f"cards[{i}].kind", "Damage cards enter decks only at reshuffles", "R-TRN-6"
            )
        cards[card.id] = card

    raw_seats = doc.get("seats")
    if not isinstance(raw_seats, list) or not 2 <= len(raw_seats) <= MAX_SEATS:
        raise InvalidInput("seats", f"a battle needs 2 to {MAX_SEATS} seats", "R-TRN-1")
    seats: list[dict[str, Any]] = []
    taken: dict[Hex, int] = {}
    for i, raw in enumerate(raw_seats):
        path = f"seats[{i}]"
        s = _mapping(
            raw, path, ("player", "bot", "side", "casket", "deck", "pilot", "at", "facing")
        )
        bot = _bot_seat(s, path, dice["mode"])
        for key in ("side", "casket", "deck", "at", "facing", *(() if bot else ("player",))):
            if key not in s:
                raise InvalidInput(f"{path}.{key}", "is required")
        casket = _mapping(
            s["casket"],
            f"{path}.casket",
            ("name", "class", "shield", "component_damage", "faction", "bloodline"),
        )
        casket_class = _choice(
            casket.get("class"), f"{path}.casket.class", tuple(SP_MAXIMUM), "R-TRN-3"
        )
        shield = _choice(casket.get("shield", "left"), f"{path}.casket.shield", SHIELDS, "R-ARC-2")
        carried_damage = (
            _component_damage(
                casket["component_damage"], f"{path}.casket.component_damage", ruleset
            )
            if "component_damage" in casket
            else None
        )
        pilot = _mapping(
            s.get("pilot", {}),
            f"{path}.pilot",
            ("name", "carried_wounds", "sp_modifier", "taint", "tokens", *GRIT_FIELDS),
        )
        carried = pilot.get("carried_wounds", [])
        if not isinstance(carried, list):
            raise InvalidInput(f"{path}.pilot.carried_wounds", "must be a list of wound ids")
        for j, wound in enumerate(carried):
            if wound not in CARRIED_WOUNDS:
                raise InvalidInput(
                    f"{path}.pilot.carried_wounds[{j}]",
                    f"{wound!r} is not a severe or trauma wound "
                    f"({', '.join(sorted(CARRIED_WOUNDS))}); only those carry over",
                    "R-PLT-2",
                )
        if len(set(carried)) != len(carried):
            raise InvalidInput(f"{path}.pilot.carried_wounds", "lists a wound twice", "R-PLT-2")
        at_raw = s["at"]
        if (
            not isinstance(at_raw, list)
            or len(at_raw) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in at_raw)
        ):
            raise InvalidInput(f"{path}.at", "must be a hex [q, r]", "R-BRD-1")
        at = Hex(at_raw[0], at_raw[1])
        if at not in board:
            raise InvalidInput(f"{path}.at", f"hex {at_raw} is not on the board", "R-BRD-1")
        if board.terrain_at(at).impassable:
            raise InvalidInput(
                f"{path}.at", f"hex {at_raw} is impassable terrain: no deploying there", "R-BRD-3"
            )
        if at in taken:
            raise InvalidInput(
                f"{path}.at", f"hex {at_raw} is already taken by seat {taken[at]}", "R-TRN-1"
            )
        taken[at] = i
        deck = s["deck"]
        if not isinstance(deck, list) or not deck:
            raise InvalidInput(f"{path}.deck", 'must be a list of {"card": id, "count": n}')
        rows: list[tuple[CardDef, int]] = []
        for j, row in enumerate(deck):
            r = _mapping(row, f"{path}.deck[{j}]", ("card", "count"))
            if r.get("card") not in cards:
                raise InvalidInput(
                    f"{path}.deck[{j}].card", f"card {r.get('card')!r} is not in the cards list"
                )
            rows.append((cards[r["card"]], _int(r.get("count"), f"{path}.deck[{j}].count", 1, 30)))
        problems = validate_deck(rows, ruleset)
        if problems:
            p = problems[0]
            where = f"{path}.deck" if p.index is None else f"{path}.deck[{p.index}]"
            raise InvalidInput(where, p.message, p.rule)
        casket_doc: dict[str, Any] = {
            "name": _text(casket.get("name", f"Casket {i + 1}"), f"{path}.casket.name"),
            "class": casket_class,
            "shield": shield,
        }
        # Only when non-zero: a setup without carried damage normalises byte-identically to
        # one written before the field existed, so stored BattleCreated events replay unchanged.
        if carried_damage is not None:
            casket_doc["component_damage"] = carried_damage
        # The casket's faction, when given (R-ADD-121); left out otherwise, as above.
        if "faction" in casket:
            casket_doc["faction"] = _choice(
                casket["faction"], f"{path}.casket.faction", FACTIONS, "R-ADD-121"
            )
        # The Vestige casket's primary bloodline, when given (R-ADD-380): only a casket whose
        # setup names the Vestige faction has one; left out otherwise, as above.
        if "bloodline" in casket:
            if casket_doc.get("faction") != VESTIGE:
                raise InvalidInput(
                    f"{path}.casket.bloodline",
                    f"only a {VESTIGE} casket has a bloodline: give casket.faction {VESTIGE!r} too",
                    "R-ADD-380",
                )
            casket_doc["bloodline"] = _choice(
                casket["bloodline"], f"{path}.casket.bloodline", BLOODLINES, "R-ADD-380"
            )
        seats.append(
            {
                "player": BOT_PLAYER if bot else _human(s["player"], f"{path}.player"),
                # Only on a bot's seat, so every other setup normalises as it did.
                **({"bot": True} if bot else {}),
                "side": _text(s["side"], f"{path}.side", 60),
                "casket": casket_doc,
                "deck": [{"card": c.id, "count": n} for c, n in rows],
                "pilot": {
                    "name": _text(pilot.get("name", f"Pilot {i + 1}"), f"{path}.pilot.name"),
                    "carried_wounds": list(carried),
                    "sp_modifier": _int(
                        pilot.get("sp_modifier", 0), f"{path}.pilot.sp_modifier", -3, 3, "R-TRN-3"
                    ),
                    # The pilot's campaign Taint (R-PLT-4, R-ADD-44); written only when
                    # given, so every earlier setup normalises as it did.
                    **(
                        {"taint": _int(pilot["taint"], f"{path}.pilot.taint", 0, 999, "R-PLT-4")}
                        if "taint" in pilot
                        else {}
                    ),
                    **_grit(pilot, f"{path}.pilot", ruleset),
                    **_tokens(pilot, f"{path}.pilot.tokens"),
                },
                "at": [at.q, at.r],
                "facing": _int(s["facing"], f"{path}.facing", 1, 6, "R-BRD-2"),
            }
        )
    if len({s["side"] for s in seats}) < 2:
        raise InvalidInput("seats", "every seat is on one side: a battle needs two", "R-TRN-8")
    used = {row["card"] for s in seats for row in s["deck"]}
    normalised: dict[str, Any] = {
        "name": name,
        "board": board.to_document(),
        "rules": ruleset.as_dict(),
        "dice": dice,
        "policy": policy,
        "cards": [c.as_dict() for c in cards.values() if c.id in used],
        "seats": seats,
    }
    # Only present for a campaign's mission, so every other setup stays as it was.
    if "campaign" in doc:
        normalised["campaign"] = _campaign(doc["campaign"])
    return normalised


# The pilot's Grit for the Grit check (R-ADD-305): the campaign's Grit 0..3 (R-ADD-233),
# the modifier on every check (a faction's, R-ADD-234) and a bonus on the first check
# only (the death consequence's "+1 to the next Grit check", R-ADD-237).
GRIT_FIELDS = ("grit", "grit_modifier", "grit_bonus")
_GRIT_BOUNDS = {"grit": (0, 3), "grit_modifier": (-3, 3), "grit_bonus": (0, 3)}


def _grit(pilot: Mapping[str, Any], path: str, ruleset: Ruleset) -> dict[str, int]:
    """The pilot's Grit fields, each written only when given, so every earlier setup
    normalises as it did; they count only under the ruleset option grit_checks.

    >>> from battles.engine.ruleset import Ruleset
    >>> _grit({"grit": 2}, "seats[0].pilot", Ruleset("2.1", {"grit_checks": True}))
    {'grit': 2}
    >>> try:
    ...     _grit({"grit": 2}, "seats[0].pilot", Ruleset("2.1"))
    ... except InvalidInput as exc:
    ...     print(exc.field, exc.rule)
    seats[0].pilot.grit R-ADD-305
    """
    out: dict[str, int] = {}
    for key in GRIT_FIELDS:
        if key not in pilot:
            continue
        if not ruleset.option("grit_checks"):
            raise InvalidInput(
                f"{path}.{key}",
                "a pilot's Grit counts only under the ruleset option grit_checks",
                "R-ADD-305",
            )
        low, high = _GRIT_BOUNDS[key]
        out[key] = _int(pilot[key], f"{path}.{key}", low, high, "R-ADD-305")
    return out


def _tokens(pilot: Mapping[str, Any], path: str) -> dict[str, dict[str, int]]:
    """The persistent tokens the pilot brings from earlier missions (R-ADD-306): pool to
    count, only pools a card says persist, each within its maximum; written only when a
    count is not 0, so every earlier setup normalises as it did.

    >>> _tokens({"tokens": {"bargain": 3}}, "seats[0].pilot.tokens")
    {'tokens': {'bargain': 3}}
    >>> try:
    ...     _tokens({"tokens": {"fury": 1}}, "seats[0].pilot.tokens")
    ... except InvalidInput as exc:
    ...     print(exc.field, exc.rule)
    seats[0].pilot.tokens.fury R-ADD-306
    """
    if "tokens" not in pilot:
        return {}
    raw = pilot["tokens"]
    if not isinstance(raw, Mapping):
        raise InvalidInput(path, "must be an object of token pool to count", "R-ADD-306")
    out: dict[str, int] = {}
    for pool, count in raw.items():
        if pool not in PERSISTENT_TOKENS:
            raise InvalidInput(
                f"{path}.{pool}",
                "only tokens a card says persist across missions carry into a battle "
                f"({', '.join(PERSISTENT_TOKENS)})",
                "R-ADD-306",
            )
        n = _int(count, f"{path}.{pool}", 0, PERSISTENT_TOKENS[pool], "R-ADD-306")
        if n:
            out[pool] = n
    return {"tokens": out} if out else {}


def _dice(doc: object) -> dict[str, Any]:
    """The dice document, normalised (R-ADD-18, R-ADD-45).

    - table: `{"mode": "table", "seed": null}`: physical dice, nothing to seal;
    - digital with an explicit seed: `seed_public` true, since whoever reads the setup can
      roll the same dice (demo, tests, a table that wants it);
    - digital without one: `seed_public` false and, when the battle was created by the
      site, `commitment`, the SHA-256 (64 hex digits) of the secret its dice derive from.
      The site sets the commitment; a setup posted with one (a rematch) gets a new one.
    """
    dice = _mapping(doc, "dice", ("mode", "seed", "seed_public", "commitment"))
    mode = _choice(dice.get("mode", "digital"), "dice.mode", DICE_MODES)
    seed = dice.get("seed")
    public = dice.get("seed_public")
    commitment = dice.get("commitment")
    if public is not None and not isinstance(public, bool):
        raise InvalidInput("dice.seed_public", f"must be true or false, got {public!r}")
    if mode == "table":
        for key in ("seed", "seed_public", "commitment"):
            if dice.get(key) is not None and dice.get(key) is not False:
                raise InvalidInput(f"dice.{key}", "a table battle rolls physical dice: no seed")
        return {"mode": mode, "seed": None}
    if seed is not None:
        seed = _int(seed, "dice.seed", 0, MAX_SEED)
        if public is False:
            raise InvalidInput(
                "dice.seed_public",
                "an explicit seed is public: whoever reads the setup can roll the same dice; "
                "leave the seed out for sealed dice",
                "R-ADD-45",
            )
        if commitment is not None:
            raise InvalidInput(
                "dice.commitment", "a battle with an explicit seed has no sealed secret", "R-ADD-45"
            )
        return {"mode": mode, "seed": seed, "seed_public": True}
    if public:
        raise InvalidInput(
            "dice.seed",
            "public dice need the seed itself: give one, or leave seed_public out for sealed dice",
            "R-ADD-45",
        )
    out: dict[str, Any] = {"mode": mode, "seed": None, "seed_public": False}
    if commitment is not None:
        if (
            not isinstance(commitment, str)
            or len(commitment) != 64
            or any(ch not in "0123456789abcdef" for ch in commitment)
        ):
            raise InvalidInput(
                "dice.commitment", "must be a SHA-256 in 64 lower-case hex digits", "R-ADD-45"
            )
        out["commitment"] = commitment
    return out


def _campaign(doc: object) -> dict[str, str]:
    """The campaign mission a battle is played for: its outcome is handed over when the
    battle ends, and the battle then takes no more commands (R-ADD-32)."""
    found = _mapping(doc, "campaign", ("campaign_id", "mission_id"))
    out = {}
    for key in ("campaign_id", "mission_id"):
        value = found.get(key)
        if not isinstance(value, str) or not 1 <= len(value) <= 64:
            raise InvalidInput(f"campaign.{key}", "is required: an id of 1 to 64 characters")
        out[key] = value
    return out


def initial_state(battle_id: str, setup: Mapping[str, Any]) -> BattleState:
    """The state a normalised setup starts in: decks in listed order, nothing dealt yet.

    Trusts `setup` (it comes from parse_setup via BattleCreated): replay never validates.
    """
    ruleset, board, cards = _static(json.dumps(setup, sort_keys=True, separators=(",", ":")))
    seats = []
    threshold = int(ruleset.option("component_threshold"))
    for i, s in enumerate(setup["seats"]):
        deck = tuple(f"{row['card']}#{n}" for row in s["deck"] for n in range(1, row["count"] + 1))
        # R-PLT-5: damage carried from an earlier battle. Components at the threshold start
        # destroyed without a ComponentDestroyed event: its one-time effects (discards) happened
        # in that battle, and the lasting ones follow from `destroyed` (R-DMG-7, R-ADD-30).
        carried = s["casket"].get("component_damage", {})
        damage = tuple(carried.get(c, 0) for c in COMPONENTS)
        destroyed = tuple(c for c, d in zip(COMPONENTS, damage, strict=True) if d >= threshold)
        seats.append(
            CasketState(
                seat=i,
                player=s["player"],
                side=s["side"],
                name=s["casket"]["name"],
                casket_class=s["casket"]["class"],
                shield=s["casket"]["shield"],
                pilot=s["pilot"]["name"],
                pilot_sp_modifier=s["pilot"]["sp_modifier"],
                taint=s["pilot"].get("taint", 0),
                grit=s["pilot"].get("grit", 0),
                grit_modifier=s["pilot"].get("grit_modifier", 0),
                grit_bonus=s["pilot"].get("grit_bonus", 0),
                # R-ADD-306: tokens a card says persist, brought from earlier missions.
                tokens=tuple(s["pilot"].get("tokens", {}).items()),
                at=Hex(*s["at"]),
                facing=s["facing"],
                deck=deck,
                component_damage=damage,
                destroyed=destroyed,
                faction=s["casket"].get("faction"),
                bloodline=s["casket"].get("bloodline"),
            )
        )
    return BattleState(
        battle_id=battle_id,
        ruleset=ruleset,
        board=board,
        dice_mode=setup["dice"]["mode"],
        seed=setup["dice"]["seed"],
        policy=setup["policy"],
        cards=cards,
        seats=tuple(seats),
        setup=setup,
        phase=SETUP,
    )


@lru_cache(maxsize=64)
def _static(setup_json: str) -> tuple[Ruleset, Board, Mapping[str, CardDef]]:
    """The immutable part of a setup, parsed once per distinct setup: every replay of a
    battle starts from the same BattleCreated, and the parse costs more than the fold."""
    setup = json.loads(setup_json)
    cards = MappingProxyType({c["id"]: card_from_dict(c) for c in setup["cards"]})
    return parse_ruleset(setup["rules"]), parse_board(setup["board"]), cards
