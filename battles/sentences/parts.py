"""Each battle event as a sentence for people, registered by event class.

A sentence is a tuple of parts: ("text", s), ("card", instance, name, cost, text),
("die", face, label), ("rule", ruling id), ("hex", "q,r"). `plain` joins them for tests
and text alternatives. Payloads come through `public_payload` first, so a sentence never
names a card its viewer may not see (R-ADD-28). A sentence that is only payload fields in
fixed words is declared with `said`; one that decides between wordings is a function. No Django.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from battles.engine.battle import BattleState
from battles.engine.battle.events import Event
from battles.engine.battle.state import card_id
from battles.engine.cards import CardDef
from battles.engine.dice import ATTACK_FACES

Part = tuple[Any, ...]
Sentence = tuple[Part, ...]

# Scrub-bar markers: kind -> (symbol, label). Each has a symbol and a word, not only a colour.
COMPONENT_NAMES: Mapping[str, str] = {
    "right_arm": "right arm",
    "left_arm": "left arm",
    "legs": "legs",
    "head": "head",
    "chassis": "chassis",
}


@dataclass(frozen=True)
class Names:
    """What the sentences need from the battle's setup: casket and pilot names, the cards."""

    caskets: Mapping[int, str]
    pilots: Mapping[int, str]
    cards: Mapping[str, CardDef]

    @classmethod
    def of(cls, state: BattleState) -> Names:
        return cls(
            {c.seat: c.name for c in state.seats},
            {c.seat: c.pilot for c in state.seats},
            state.cards,
        )

    def casket(self, seat: Any) -> str:
        return self.caskets.get(seat, f"seat {seat}")

    def pilot(self, seat: Any) -> str:
        return self.pilots.get(seat, f"the pilot of seat {seat}")

    def card(self, instance: str) -> Part:
        """("card", instance, name, SP cost or None, text): what a card reference shows."""
        label = card_label(self.cards, instance)
        return ("card", instance, label["name"], label["cost"], label["text"])


def t(text: str) -> Part:
    return ("text", text)


def wound_name(wound: str) -> str:
    """A card of the pilot wound deck in words (R-PLT-1): its kind and number.

    >>> wound_name("severe-3"), wound_name("trauma")
    ('severe wound no. 3', 'trauma')
    """
    kind, _, number = wound.partition("-")
    return f"{kind} wound no. {number}" if number.isdigit() else wound.replace("-", " ")


def count(n: int, one: str, many: str | None = None) -> str:
    """`n` and its noun, singular for one and plural otherwise (`many`, or `one` + "s").
    Mass nouns (damage, Heat, SP, Taint) take no count: write them as they are.

    >>> count(1, "hex", "hexes"), count(2, "hex", "hexes"), count(0, "card")
    ('1 hex', '2 hexes', '0 cards')
    >>> count(1, "Bleed counter"), count(3, "soul shard token")
    ('1 Bleed counter', '3 soul shard tokens')
    """
    return f"{n} {one if abs(n) == 1 else many or one + 's'}"


# Free text an event carries from the engine (a prompt's reason, a to-hit modifier's label)
# was written "discard 1 card(s)", "moved 1 hexes"; stored events keep those words forever.
_MARKED = re.compile(r"(?<![\w.,])(\d+) ((?:[\w-]+ )?)(\w+)\((e?s)\)")
_ONE_HEXES = re.compile(r"(?<![\w.,])1 hexes\b")


def agreed(text: str) -> str:
    """`text` (words a payload carries) with each marked count agreeing with its noun.

    >>> agreed("discard 1 card(s) of your choice"), agreed("list 2 hand card(s)")
    ('discard 1 card of your choice', 'list 2 hand cards')
    >>> agreed("Target moved 1 hexes"), agreed("Target moved 3 hexes")
    ('Target moved 1 hex', 'Target moved 3 hexes')
    """
    text = _MARKED.sub(lambda m: count(int(m[1]), m[2] + m[3], m[2] + m[3] + m[4]), text)
    return _ONE_HEXES.sub("1 hex", text)


def side_words(name: str) -> str:
    """A side's name with "side" after it, unless the name already says it.

    >>> side_words("front"), side_words("weapon side"), side_words("side 4")
    ('front side', 'weapon side', 'side 4')
    """
    return name if "side" in name.split() else f"{name} side"


def _cards(instances: Sequence[str | None], names: Names) -> list[Part]:
    """Named cards, or a count of hidden ones (a viewer's own view, R-ADD-28)."""
    hidden = sum(1 for c in instances if c is None)
    shown = [c for c in instances if c is not None]
    parts: list[Part] = []
    for i, c in enumerate(shown):
        if i:
            parts.append(t(", "))
        parts.append(names.card(c))
    if hidden:
        if shown:
            parts.append(t(" and "))
        parts.append(t(count(hidden, "hidden card")))
    if not instances:
        parts.append(t("no cards"))
    return parts


def _rule(rule: str | None) -> list[Part]:
    return [t(" ("), ("rule", rule), t(")")] if rule else []


def _reason_rule(reason: str | None, rule: str | None) -> list[Part]:
    reason = agreed(reason) if reason else reason
    if reason and rule:
        return [t(f" ({reason}, "), ("rule", rule), t(")")]
    if reason:
        return [t(f" ({reason})")]
    return _rule(rule)


def _attack_dice(faces: Sequence[int]) -> list[Part]:
    return [("die", f, f"{ATTACK_FACES[f].name}, worth {ATTACK_FACES[f].value}") for f in faces]


def _d6(faces: Sequence[int]) -> list[Part]:
    return [("die", f, f"d6 showing {f}") for f in faces]


def _hex(at: Sequence[int]) -> Part:
    return ("hex", f"{at[0]},{at[1]}")


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


Writer = Callable[[Mapping[str, Any], Names], Sentence]
# Each event class's sentence, registered by `sentence` below; complete (checked at import).
SENTENCES: dict[type[Event], Writer] = {}


def sentence(cls: type[Event]) -> Callable[[Writer], Writer]:
    """Register the sentence for the events of `cls`."""

    def register(writer: Writer) -> Writer:
        assert cls not in SENTENCES, f"two sentences for {cls.__name__}"
        SENTENCES[cls] = writer
        return writer

    return register


# A piece of a sentence `said` writes: its parts, from the payload and the names.
Piece = Callable[[Mapping[str, Any], Names], list[Part]]


class _PayloadWords(string.Formatter):
    """Fills a sentence's text from a payload: `{who}` and `{pilot}` name the event's seat,
    `{field}` is the payload's field as an f-string would write it, and after a colon a word
    says how to write it: `casket` (the casket of the seat it holds), `component` (a
    component's name), `words` (a key with spaces for underscores), `signed`, `agreed`
    (free text with its counts agreeing), `count:ONE/MANY` (the number with its noun),
    `len:ONE/MANY` (the length of the list with its noun; MANY is optional for both),
    `sign:GAIN/LOSS` (the word for the number's sign) and `abs`."""

    def __init__(self, p: Mapping[str, Any], names: Names) -> None:
        self.p, self.names = p, names

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        if key in kwargs:
            return kwargs[str(key)](self.p)
        if key == "who":
            return self.names.casket(self.p.get("seat"))
        if key == "pilot":
            return self.names.pilot(self.p.get("seat"))
        return self.p[str(key)]

    def format_field(self, value: Any, format_spec: str) -> Any:
        how, _, nouns = format_spec.partition(":")
        one, _, many = nouns.partition("/")
        match how:
            case "casket":
                return self.names.casket(value)
            case "component":
                return format(COMPONENT_NAMES.get(value, value))
            case "words":
                return str(value).replace("_", " ")
            case "signed":
                return _signed(value)
            case "agreed":
                return agreed(value)
            case "sign":  # the first word for a gain (or none), the second for a loss
                return one if value >= 0 else many
            case "abs":
                return format(abs(value))
            case "count":
                return count(value, one, many or None)
            case "len":
                return count(len(value), one, many or None)
        return super().format_field(value, format_spec)


def card(key: str = "card") -> Piece:
    """The card the payload's `key` holds."""
    return lambda p, names: [names.card(p[key])]


def cards(key: str) -> Piece:
    """The cards the payload's `key` lists (hidden ones counted, R-ADD-28)."""
    return lambda p, names: _cards(p[key], names)


def lost() -> Piece:
    """The cards the payload takes from the hand, then from the deck."""
    return lambda p, names: _cards([*p.get("from_hand", []), *p.get("from_deck", [])], names)


def hex_at(key: str) -> Piece:
    """The hex the payload's `key` holds."""
    return lambda p, names: [_hex(p[key])]


def d6(key: str) -> Piece:
    """The d6 the payload's `key` holds (a face, or a list of faces)."""
    return lambda p, names: _d6(p[key] if isinstance(p[key], (list, tuple)) else [p[key]])


def path_end(key: str = "path") -> Piece:
    """The last hex of the path the payload's `key` holds: where a move ends."""
    return lambda p, names: [_hex(p[key][-1])]


def rule(ruling: str | None = None, *, default: str | None = None) -> Piece:
    """The ruling in brackets: `ruling`, else the payload's own `rule` (else `default`)."""
    return lambda p, names: _rule(ruling or p.get("rule", default))


def reason(key: str, ruling: str | None = None, *, default: str | None = None) -> Piece:
    """The payload's reason (its field `key`) and the ruling, as `rule` finds it."""
    return lambda p, names: _reason_rule(p.get(key), ruling or p.get("rule", default))


def source(ruling: str | None = None, *, default: str | None = None) -> Piece:
    """The card or effect the payload names as its source, and the ruling behind it."""
    return reason("source", ruling, default=default)


def said(
    cls: type[Event], *pieces: str | Piece, **worded: Callable[[Mapping[str, Any]], Any]
) -> None:
    """Register, for the events of `cls`, the sentence made of `pieces` in order: each text
    one text part filled from the payload (`_PayloadWords`), each `Piece` its parts. A text's
    `{name}` is `worded[name]` of the payload where `worded` has it: words chosen by a value."""

    def writer(p: Mapping[str, Any], names: Names) -> Sentence:
        words = _PayloadWords(p, names)
        parts: list[Part] = []
        for piece in pieces:
            parts += (
                [t(words.vformat(piece, (), worded))] if isinstance(piece, str) else piece(p, names)
            )
        return tuple(parts)

    sentence(cls)(writer)


def plain(sentence: Sentence) -> str:
    """The sentence as text (for tests, titles and text alternatives)."""
    out = []
    for part in sentence:
        match part[0]:
            case "text" | "rule" | "hex":
                out.append(str(part[1]))
            case "card":
                out.append(part[2])
            case "die":
                out.append(f"[{part[1]}]")
    return "".join(out)


def card_label(cards: Mapping[str, CardDef], instance: str) -> dict[str, Any]:
    """A card instance as the page shows it: its name, and cost and text for the tooltip."""
    d = cards.get(card_id(instance))
    if d is None:  # the Damage cards added at reshuffles (R-TRN-6) have no definition
        return {
            "name": "Damage card" if instance.startswith("damage#") else instance,
            "cost": None,
            "text": "A Damage card: it does nothing but take a place in the deck."
            if instance.startswith("damage#")
            else "",
        }
    return {"name": d.name, "cost": d.sp_cost, "text": d.text, "kind": d.kind}
