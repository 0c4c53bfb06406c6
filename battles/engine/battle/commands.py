"""Battle commands: what a player or the GM asks for, in the imperative.

`parse_command` turns an API body into a command or raises `InvalidInput` naming
the field; it checks shapes only. Whether the rules allow the command is
`decide`'s question (a `RuleViolation`).

>>> parse_command({"type": "rotate", "seat": 0, "facing": 3})
Rotate(seat=0, faces=(), drawn=(), pay=None, facing=3)
>>> parse_command({"type": "rotate", "seat": 0, "facing": 7})
Traceback (most recent call last):
...
battles.engine.errors.InvalidInput: facing: must be a direction 1..6, got 7 (R-BRD-2)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..dice import COMPONENTS
from ..errors import InvalidInput
from ..hexes import Hex

MAX_PATH = 40
MAX_FACES = 200
MAX_REASON = 500
_UNIT_RE = re.compile(r"u[1-9][0-9]{0,3}")


@dataclass(frozen=True, slots=True)
class Pay:
    """Cards that pay SP beyond the maximum: ids from the hand, and a count from the deck top."""

    hand: tuple[str, ...] = ()
    deck: int = 0


@dataclass(frozen=True, slots=True)
class Command:
    """A command; its `NAME`, the body's `type`, is its class's name in snake case.

    >>> Rotate.NAME, AdjustComponentDamage.NAME
    ('rotate', 'adjust_component_damage')
    """

    NAME: ClassVar[str] = ""
    GM_ONLY: ClassVar[bool] = False
    seat: int
    # Table mode only: the die faces the table rolled and the card ids it drew, in order.
    faces: tuple[int, ...]
    drawn: tuple[str, ...]

    def __init_subclass__(cls) -> None:
        cls.NAME = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


@dataclass(frozen=True, slots=True)
class GmCommand(Command):
    """One of the GM's controls: only the battle's GM gives it, always with a `reason`
    the event it makes records (R-ADD-24)."""

    GM_ONLY: ClassVar[bool] = True
    reason: str = field(kw_only=True)


@dataclass(frozen=True, slots=True)
class KeepHand(Command):
    """Keep the opening hand: one answer to the `mulligan` prompt (R-TRN-1)."""


@dataclass(frozen=True, slots=True)
class Mulligan(Command):
    """Shuffle the opening hand back and draw a new one: the other answer to the `mulligan`
    prompt (R-TRN-1)."""


@dataclass(frozen=True, slots=True)
class Move(Command):
    pay: Pay | None
    path: tuple[Hex, ...]
    free: bool = False  # the move a card granted, at no SP (R-ADD-69)


@dataclass(frozen=True, slots=True)
class Rotate(Command):
    pay: Pay | None
    facing: int


@dataclass(frozen=True, slots=True)
class Vent(Command):
    pay: Pay | None


@dataclass(frozen=True, slots=True)
class PlayCard(Command):
    pay: Pay | None
    card: str
    target: int | None = None
    path: tuple[Hex, ...] = ()
    facing: int | None = None
    discard: tuple[str, ...] = ()
    spend: bool = False  # pay the card's "Spend N tokens" for its extra effect (R-ADD-61)
    # Allies: (seat, path) of each ally the card moves (R-ADD-126)
    ally_paths: tuple[tuple[int, tuple[Hex, ...]], ...] = ()
    # X, the tokens paid for a card printed with a cost of X tokens (R-ADD-389)
    tokens: int | None = None
    unit: str | None = None  # the own unit the card orders (R-ADD-409)


@dataclass(frozen=True, slots=True)
class Attack(Command):
    pay: Pay | None
    card: str
    target: int
    component: str | None = None
    spend: bool = False  # R-ADD-61
    # Area attacks: the targets of the card's further attacks, in order (R-ADD-80).
    also: tuple[int, ...] = ()
    # Forced movement: the move an attack card makes before its attack (R-ADD-104).
    path: tuple[Hex, ...] = ()
    # R-ADD-145: whose Taint a "yours or target's" spend takes; None: the own pilot's.
    taint_from: str | None = None
    # Hand cards the attack card's own discard takes ("Discard 1 card", R-ADD-152).
    discard: tuple[str, ...] = ()
    # Allies: (seat, path) of each ally the card moves (R-ADD-126)
    ally_paths: tuple[tuple[int, tuple[Hex, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class AttackTerrain(Command):
    """An attack card played against a hex of card-made terrain with hit points (R-ADD-382)."""

    pay: Pay | None
    card: str
    at: Hex


@dataclass(frozen=True, slots=True)
class Pass(Command):
    """End the seat's turn; its Draw and End phases follow (R-TRN-6, R-TRN-7)."""


@dataclass(frozen=True, slots=True)
class PlayReactive(Command):
    card: str
    spend: bool = False  # R-ADD-61
    # Forced movement: the dodge a reactive card makes after the attack (R-ADD-107).
    path: tuple[Hex, ...] = ()
    # The defence dice (numbered from 1) the attacker's card forces to be rolled again
    # (R-ADD-412).
    dice: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class NoReactive(Command):
    """Play no reactive card: the answer that declines a `reactive` prompt (R-REA-1), or
    another prompt a reactive card may answer."""


@dataclass(frozen=True, slots=True)
class TakeDamage(Command):
    hand: tuple[str, ...]
    deck: int


@dataclass(frozen=True, slots=True)
class DiscardDown(Command):
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AdjustHeat(GmCommand):
    heat: int


@dataclass(frozen=True, slots=True)
class AdjustTaint(GmCommand):
    taint: int


@dataclass(frozen=True, slots=True)
class AdjustComponentDamage(GmCommand):
    component: str
    amount: int


@dataclass(frozen=True, slots=True)
class Relocate(GmCommand):
    at: Hex
    facing: int


@dataclass(frozen=True, slots=True)
class ReturnCard(GmCommand):
    card: str


@dataclass(frozen=True, slots=True)
class Withdraw(Command):
    """Take the seat's casket out of the battle at the start of its turn (R-TRN-9)."""


@dataclass(frozen=True, slots=True)
class EndBattle(GmCommand):
    """The GM ends the battle with a winning side, or `side` null for a draw (R-TRN-9);
    `seat` is unused and 0."""

    side: str | None


@dataclass(frozen=True, slots=True)
class Revert(GmCommand):
    """Undo the battle's latest command by compensation (the service supplies the state
    before it); `seat` is unused and 0."""

    command_id: str


@dataclass(frozen=True, slots=True)
class Arrange(Command):
    """The answer to an `arrange` prompt: the cards looked at, in their new order, top
    first (R-ADD-157)."""

    cards: tuple[str, ...]
    spend: bool = False  # pay the spend of the card's `then` (R-ADD-61, R-ADD-157)


@dataclass(frozen=True, slots=True)
class UnitMove(Command):
    """Move the seat's unit `unit` along `path`, its move of the turn (R-ADD-401)."""

    unit: str
    path: tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class UnitAttack(Command):
    """The seat's unit `unit` makes its melee attack of the turn on seat `target` (R-ADD-401)."""

    unit: str
    target: int


@dataclass(frozen=True, slots=True)
class StrikeUnit(Command):
    """The seat's casket attacks an enemy's unit `unit` with the attack card `card` (R-ADD-404)."""

    pay: Pay | None
    card: str
    unit: str


# An ultimatum's options, and a damage bargain's (R-ADD-159).
# Forms and duels: an Honor Duel's answer, accept or refuse (R-ADD-174).
# A re-roll's: keep the roll, or roll die number k of a pool of up to 4 again (R-ADD-282).
# A pick from an enemy's hand looked at (R-ADD-385).
# A Metamorph form chosen (R-ADD-362).
CHOICES = (
    *("damage", "skip_turn", "discard", "decline", "pay", "accept", "refuse"),
    *("keep", "die_1", "die_2", "die_3", "die_4", "pick"),
    *("assault", "tank", "scout"),
    # The enemy who takes Temporal Loop's stored damage, by seat (R-ADD-422; at most 8 seats).
    *(f"seat_{n}" for n in range(8)),
)


@dataclass(frozen=True, slots=True)
class Choose(Command):
    """The answer to an `ultimatum` prompt: take the damage now, or skip the next turn
    (R-ADD-159)."""

    option: str
    # the hand cards a bargain's "discard" gives up, or those a "pick" names (R-ADD-385)
    cards: tuple[str, ...] = ()


COMMAND_TYPES: Mapping[str, type[Command]] = {
    cls.NAME: cls
    for cls in (
        KeepHand,
        Mulligan,
        Move,
        Rotate,
        Vent,
        PlayCard,
        Attack,
        AttackTerrain,
        Pass,
        PlayReactive,
        NoReactive,
        TakeDamage,
        DiscardDown,
        AdjustHeat,
        AdjustTaint,
        AdjustComponentDamage,
        Relocate,
        ReturnCard,
        Withdraw,
        EndBattle,
        Revert,
        Arrange,  # Card effects
        Choose,
        UnitMove,  # Summoned units
        UnitAttack,
        StrikeUnit,
    )
}

# The body fields each command accepts besides type, seat, faces and drawn.
_FIELDS: Mapping[str, tuple[str, ...]] = {
    "keep_hand": (),
    "mulligan": (),
    "move": ("path", "pay", "free"),
    "rotate": ("facing", "pay"),
    "vent": ("pay",),
    "play_card": (
        *("card", "target", "path", "facing", "discard", "pay", "spend", "ally_paths"),
        "tokens",
        "unit",
    ),
    "attack": (
        "card",
        "target",
        "component",
        "pay",
        "spend",
        "also",
        "path",
        "taint_from",
        "discard",
        "ally_paths",
    ),
    "attack_terrain": ("card", "at", "pay"),
    "pass": (),
    "play_reactive": ("card", "spend", "path", "dice"),
    "no_reactive": (),
    "take_damage": ("hand", "deck"),
    "discard_down": ("cards",),
    "adjust_heat": ("heat", "reason"),
    "adjust_taint": ("taint", "reason"),
    "adjust_component_damage": ("component", "amount", "reason"),
    "relocate": ("at", "facing", "reason"),
    "return_card": ("card", "reason"),
    "withdraw": (),
    "end_battle": ("side", "reason"),
    "revert": ("command_id", "reason"),
    "arrange": ("cards", "spend"),
    "choose": ("option", "cards"),
    "unit_move": ("unit", "path"),
    "unit_attack": ("unit", "target"),
    "strike_unit": ("card", "unit", "pay"),
}
_OPTIONAL = frozenset(
    {
        "pay",
        "target",
        "path",
        "facing",
        "discard",
        "component",
        "spend",
        "free",
        "also",
        "taint_from",
        "ally_paths",
        "tokens",
    }
)
# Fields optional in one command only: a bargain's `choose` names cards, an ultimatum's does
# not (R-ADD-159); `cards` stays required elsewhere.
_OPTIONAL_IN: Mapping[str, frozenset[str]] = {
    "choose": frozenset({"cards"}),
    "play_card": frozenset({"unit"}),  # R-ADD-409: only a card that orders a unit names one
    "play_reactive": frozenset({"dice"}),  # R-ADD-412: only a forced defence reroll names dice
}


def _optional(name: str, key: str) -> bool:
    return key in _OPTIONAL or key in _OPTIONAL_IN.get(name, frozenset())


def _int(body: Mapping[str, Any], key: str, low: int, high: int, rule: str | None = None) -> int:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(key, f"must be an integer from {low} to {high}, got {value!r}", rule)
    return value


def _str(body: Mapping[str, Any], key: str, max_len: int = 120) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > max_len:
        raise InvalidInput(key, f"must be a non-empty string of at most {max_len} characters")
    return value.strip()


def _strs(value: object, key: str, max_items: int = 60) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > max_items:
        raise InvalidInput(key, f"must be a list of at most {max_items} card ids")
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item or len(item) > 120:
            raise InvalidInput(f"{key}[{i}]", "must be a card id")
    return tuple(value)


def _dice_numbers(value: object) -> tuple[int, ...]:
    """The defence dice a forced reroll names, by number from 1 (R-ADD-412).

    >>> _dice_numbers([1, 3])
    (1, 3)
    >>> _dice_numbers([0])
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: dice: must be a list of 1 to 5 different die numbers from 1 to 200, got [0] (R-ADD-412)
    """
    ok = (
        isinstance(value, list)
        and 1 <= len(value) <= 5
        and all(type(x) is int and 1 <= x <= 200 for x in value)
        and len(set(value)) == len(value)
    )
    if not ok:
        raise InvalidInput(
            "dice",
            f"must be a list of 1 to 5 different die numbers from 1 to 200, got {value!r}",
            "R-ADD-412",
        )
    assert isinstance(value, list)
    return tuple(int(x) for x in value)


def _seats(value: object, key: str) -> tuple[int, ...]:
    """Seat numbers: the further targets of a card's attacks (R-ADD-80).

    >>> _seats([2, 1], "also")
    (2, 1)
    >>> _seats([8], "also")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: also[0]: must be a seat number from 0 to 7, got 8 (R-ADD-80)
    """
    if not isinstance(value, list) or len(value) > 7:
        raise InvalidInput(key, "must be a list of at most 7 seat numbers", "R-ADD-80")
    for i, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, int) or not 0 <= item <= 7:
            raise InvalidInput(
                f"{key}[{i}]", f"must be a seat number from 0 to 7, got {item!r}", "R-ADD-80"
            )
    return tuple(value)


def _hex(value: object, key: str) -> Hex:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or not all(-1000 <= v <= 1000 for v in value)
    ):
        raise InvalidInput(key, "must be a hex [q, r] of two integers", "R-BRD-1")
    return Hex(value[0], value[1])


def _path(value: object, key: str) -> tuple[Hex, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_PATH:
        raise InvalidInput(key, f"must be a list of 1 to {MAX_PATH} hexes [q, r]", "R-LOS-5")
    return tuple(_hex(v, f"{key}[{i}]") for i, v in enumerate(value))


def _ally_paths(value: object) -> tuple[tuple[int, tuple[Hex, ...]], ...]:
    """`[{"seat": n, "path": [[q, r], ...]}, ...]`: each ally a card moves (R-ADD-126).

    >>> _ally_paths([{"seat": 2, "path": [[1, 2]]}])
    ((2, (Hex(q=1, r=2),)),)
    """
    if not isinstance(value, list) or len(value) > 7:
        raise InvalidInput("ally_paths", 'must be a list of {"seat": n, "path": [[q, r], ...]}')
    out: list[tuple[int, tuple[Hex, ...]]] = []
    for i, item in enumerate(value):
        key = f"ally_paths[{i}]"
        if not isinstance(item, Mapping) or set(item) != {"seat", "path"}:
            raise InvalidInput(key, 'must be {"seat": n, "path": [[q, r], ...]}', "R-ADD-126")
        seat = _int(item, "seat", 0, 7)
        if any(seat == s for s, _ in out):
            raise InvalidInput(f"{key}.seat", f"seat {seat} is listed twice", "R-ADD-126")
        out.append((seat, _path(item["path"], f"{key}.path")))
    return tuple(out)


def _unit(body: Mapping[str, Any]) -> str:
    """A summoned unit's id, "u" and its number (R-ADD-400).

    >>> _unit({"unit": "u2"})
    'u2'
    >>> _unit({"unit": "2"})
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: unit: must be a unit id such as "u1", got '2' (R-ADD-400)
    """
    value = body.get("unit")
    if not isinstance(value, str) or not _UNIT_RE.fullmatch(value):
        raise InvalidInput("unit", f'must be a unit id such as "u1", got {value!r}', "R-ADD-400")
    return value


def _facing(body: Mapping[str, Any], key: str = "facing") -> int:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise InvalidInput(key, f"must be a direction 1..6, got {value!r}", "R-BRD-2")
    return value


def _pay(value: object) -> Pay:
    if not isinstance(value, Mapping):
        raise InvalidInput("pay", 'must be {"hand": [card ids], "deck": n}', "R-TRN-3")
    unknown = sorted(set(value) - {"hand", "deck"})
    if unknown:
        raise InvalidInput(f"pay.{unknown[0]}", "unknown field; allowed: hand, deck", "R-TRN-3")
    deck = value.get("deck", 0)
    if isinstance(deck, bool) or not isinstance(deck, int) or not 0 <= deck <= 60:
        raise InvalidInput("pay.deck", f"must be an integer from 0 to 60, got {deck!r}", "R-TRN-3")
    return Pay(_strs(value.get("hand", []), "pay.hand"), deck)


def parse_command(body: object) -> Command:
    """A command from its JSON body; every fault names its field."""
    if not isinstance(body, Mapping):
        raise InvalidInput("body", "must be a JSON object with a 'type'")
    name = body.get("type")
    if not isinstance(name, str) or name not in COMMAND_TYPES:
        raise InvalidInput("type", f"unknown command {name!r}; known: {', '.join(COMMAND_TYPES)}")
    allowed = {"type", "seat", "faces", "drawn", *_FIELDS[name]}
    unknown = sorted(str(k) for k in body if k not in allowed)
    if unknown:
        raise InvalidInput(
            unknown[0], f"unknown field of {name}; allowed: {', '.join(sorted(allowed))}"
        )
    for key in _FIELDS[name]:
        if not _optional(name, key) and key not in body:
            raise InvalidInput(key, f"required by {name}")
    cls = COMMAND_TYPES[name]
    seatless = name in ("revert", "end_battle")
    seat = 0 if seatless and "seat" not in body else _int(body, "seat", 0, 7)
    faces: tuple[int, ...] = ()
    if "faces" in body:
        raw = body["faces"]
        if not isinstance(raw, list) or len(raw) > MAX_FACES:
            raise InvalidInput("faces", f"must be a list of at most {MAX_FACES} die faces")
        for i, f in enumerate(raw):
            if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 6:
                raise InvalidInput(f"faces[{i}]", f"a die face is 1..6, got {f!r}", "R-HIT-4")
        faces = tuple(raw)
    drawn = _strs(body["drawn"], "drawn") if "drawn" in body else ()
    common: dict[str, Any] = {"seat": seat, "faces": faces, "drawn": drawn}
    if "pay" in _FIELDS[name]:
        common["pay"] = _pay(body["pay"]) if body.get("pay") is not None else None
    args: dict[str, Any] = {}
    if name == "move":
        args["path"] = _path(body["path"], "path")
    elif name == "rotate":
        args["facing"] = _facing(body)
    elif name in (
        "play_card",
        "attack",
        "play_reactive",
        "return_card",
        "attack_terrain",
        "strike_unit",
    ):
        args["card"] = _str(body, "card")
    if name == "attack_terrain":
        args["at"] = _hex(body.get("at"), "at")  # R-ADD-382
    if "unit" in _FIELDS[name] and (body.get("unit") is not None or name != "play_card"):
        args["unit"] = _unit(body)
    for flag, rule in (("spend", "R-ADD-61"), ("free", "R-ADD-69")):
        if flag in _FIELDS[name] and body.get(flag) is not None:
            value = body[flag]
            if not isinstance(value, bool):
                raise InvalidInput(flag, f"must be true or false, got {value!r}", rule)
            args[flag] = value
    if name in ("attack", "play_reactive") and body.get("path") is not None:
        args["path"] = _path(body["path"], "path")  # R-ADD-104, R-ADD-107
    if name == "play_reactive" and body.get("dice") is not None:
        args["dice"] = _dice_numbers(body["dice"])  # R-ADD-412
    if name == "play_card":
        if body.get("target") is not None:
            args["target"] = _int(body, "target", 0, 7)
        if body.get("path") is not None:
            args["path"] = _path(body["path"], "path")
        if body.get("facing") is not None:
            args["facing"] = _facing(body)
        if body.get("discard") is not None:
            args["discard"] = _strs(body["discard"], "discard")
        if body.get("ally_paths") is not None:
            args["ally_paths"] = _ally_paths(body["ally_paths"])
        if body.get("tokens") is not None:
            args["tokens"] = _int(body, "tokens", 1, 99, "R-ADD-389")
    elif name == "attack":
        args["target"] = _int(body, "target", 0, 7)
        if body.get("ally_paths") is not None:
            args["ally_paths"] = _ally_paths(body["ally_paths"])
        component = body.get("component")
        if component is not None and component not in COMPONENTS:
            raise InvalidInput(
                "component", f"must be one of {', '.join(COMPONENTS)} or null", "R-DMG-6"
            )
        args["component"] = component
        if body.get("also") is not None:
            args["also"] = _seats(body["also"], "also")
        taint_from = body.get("taint_from")
        if taint_from is not None and taint_from not in ("self", "target"):
            raise InvalidInput("taint_from", "must be 'self', 'target' or null", "R-ADD-145")
        args["taint_from"] = taint_from
        if body.get("discard") is not None:
            args["discard"] = _strs(body["discard"], "discard")
    elif name == "unit_move":
        args["path"] = _path(body["path"], "path")
    elif name == "unit_attack":
        args["target"] = _int(body, "target", 0, 7, "R-ADD-401")
    elif name == "take_damage":
        args["hand"] = _strs(body["hand"], "hand")
        args["deck"] = _int(body, "deck", 0, 200, "R-DMG-6")
    elif name in ("discard_down", "arrange"):
        args["cards"] = _strs(body["cards"], "cards")
    elif name == "choose":
        option = body.get("option")
        if option not in CHOICES:
            raise InvalidInput("option", f"must be one of {', '.join(CHOICES)}", "R-ADD-159")
        args["option"] = option
        if body.get("cards") is not None:
            args["cards"] = _strs(body["cards"], "cards")
    elif name == "adjust_heat":
        args["heat"] = _int(body, "heat", 0, 30)
    elif name == "adjust_taint":
        args["taint"] = _int(body, "taint", 0, 999, "R-PLT-4")
    elif name == "adjust_component_damage":
        component = body.get("component")
        if component not in COMPONENTS:
            raise InvalidInput("component", f"must be one of {', '.join(COMPONENTS)}", "R-DMG-7")
        args["component"] = component
        args["amount"] = _int(body, "amount", -20, 20, "R-DMG-7")
        if args["amount"] == 0:
            raise InvalidInput("amount", "must not be 0: an adjustment changes something")
    elif name == "relocate":
        args["at"] = _hex(body.get("at"), "at")
        args["facing"] = _facing(body)
    elif name == "revert":
        args["command_id"] = _str(body, "command_id", 100)
    elif name == "end_battle":
        side = body.get("side")
        if side is not None and (not isinstance(side, str) or not side.strip() or len(side) > 60):
            raise InvalidInput(
                "side", "must be the winning side's name, or null for a draw", "R-TRN-9"
            )
        args["side"] = side
    if cls.GM_ONLY:
        args["reason"] = _str(body, "reason", MAX_REASON)
    return cls(**common, **args)


def command_body(command: Command) -> dict[str, Any]:
    """The JSON body of a command (parse_command reads it back).

    >>> command_body(parse_command({"type": "move", "seat": 1, "path": [[0, 1]]}))
    {'type': 'move', 'seat': 1, 'path': [[0, 1]]}
    """
    body: dict[str, Any] = {"type": command.NAME, "seat": command.seat}
    for key in _FIELDS[command.NAME]:
        value = getattr(command, key, None)
        if _optional(command.NAME, key) and (value in (None, ()) or value is False):
            continue
        if key == "ally_paths" and isinstance(value, tuple):
            value = [{"seat": n, "path": [[h.q, h.r] for h in path]} for n, path in value]
        elif isinstance(value, Pay):
            value = {"hand": list(value.hand), "deck": value.deck}
        elif isinstance(value, Hex):
            value = [value.q, value.r]
        elif isinstance(value, tuple):
            value = [[v.q, v.r] if isinstance(v, Hex) else v for v in value]
        body[key] = value
    if command.faces:
        body["faces"] = list(command.faces)
    if command.drawn:
        body["drawn"] = list(command.drawn)
    return body
