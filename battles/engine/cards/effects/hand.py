"""Hand: draws, discards, recoveries, and what a card does to a deck or a hand."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal

from ...errors import InvalidInput
from .base import WRITTEN, StoredEffect, bounded, check_bool, check_choice, check_inner, check_int
from .bounds import AFTER_KINDS, MAX_CARDS, MAX_TOKENS, SLUG_RE, TOKEN_POOLS

if TYPE_CHECKING:
    from . import Effect

DISCARD_SOURCES = ("hand", "deck", "choice")


@dataclass(frozen=True, slots=True)
class DrawEffect(StoredEffect):
    """Draw `n` cards, one at a time as R-TRN-6 draws; `n` "x": as many as the tokens
    paid for the card's cost of X tokens ("Draw X cards (where X = Credits spent)",
    R-ADD-389).

    >>> DrawEffect(2).as_dict()
    {'kind': 'draw', 'n': 2}
    >>> DrawEffect("x").as_dict()
    {'kind': 'draw', 'n': 'x'}
    """

    kind: ClassVar[str] = "draw"
    n: int | Literal["x"]

    def __post_init__(self) -> None:
        if self.n != "x":
            check_int(self.n, "draw.n", 1, MAX_CARDS, "R-TRN-6")


@dataclass(frozen=True, slots=True)
class DiscardEffect(StoredEffect):
    """Discard `n` cards from the hand, the top of the deck, or the player's choice of split.

    >>> DiscardEffect(1, "deck").as_dict()
    {'kind': 'discard', 'n': 1, 'source': 'deck'}
    """

    kind: ClassVar[str] = "discard"
    n: int
    source: Literal["hand", "deck", "choice"]

    def __post_init__(self) -> None:
        check_int(self.n, "discard.n", 1, MAX_CARDS)
        check_choice(self.source, "discard.source", DISCARD_SOURCES)


@dataclass(frozen=True, slots=True)
class RecoverEffect(StoredEffect):
    """Take the `n` most recently discarded cards from the discard pile back into the
    hand, as many as there are (R-ADD-62).

    >>> RecoverEffect(2).as_dict()
    {'kind': 'recover', 'n': 2}
    """

    kind: ClassVar[str] = "recover"
    n: int = field(metadata=bounded(1, MAX_CARDS, "R-ADD-62"))


@dataclass(frozen=True, slots=True)
class RecoverDamagedEffect(StoredEffect):
    """ "Recover 5 cards from your Damage Graveyard to discard pile": the `n` cards most
    recently lost to damage leave the damage pile for the discard pile, newest first, as
    many as it holds (R-ADD-440: the rules' Damage Graveyard is ruleset 2.1's damage pile,
    R-DMG-8; under 2.0 there is none and nothing moves).

    >>> RecoverDamagedEffect(5).as_dict()
    {'kind': 'recover_damaged', 'n': 5}
    """

    kind: ClassVar[str] = "recover_damaged"
    n: int = field(metadata=bounded(1, MAX_CARDS, "R-ADD-440"))


@dataclass(frozen=True, slots=True)
class RestoreHpEffect(StoredEffect):
    """ "Prevent it and set HP to 5 cards", "recover to 3 HP", once lethal damage is
    prevented: a casket whose hit points (deck and discard pile, R-DMG-9) are fewer than
    `n` takes the cards most recently lost to damage out of its damage pile (the Damage
    Graveyard, R-ADD-440) into the discard pile, newest first, until it has `n` or the
    pile is empty; one with `n` or more keeps what it has (R-ADD-441).

    >>> RestoreHpEffect(5).as_dict()
    {'kind': 'restore_hp', 'n': 5}
    """

    kind: ClassVar[str] = "restore_hp"
    n: int = field(metadata=bounded(1, MAX_CARDS, "R-ADD-441"))


@dataclass(frozen=True, slots=True)
class ShuffleInEffect(StoredEffect):
    """Put the `n` most recently discarded cards, or "all", back into the deck and shuffle
    it (R-ADD-62); no Damage card is added, this is not R-TRN-6's reshuffle.

    >>> ShuffleInEffect("all").as_dict()
    {'kind': 'shuffle_in', 'n': 'all'}
    """

    kind: ClassVar[str] = "shuffle_in"
    n: int | Literal["all"]

    def __post_init__(self) -> None:
        if self.n != "all":
            check_int(self.n, "shuffle_in.n", 1, MAX_CARDS, "R-ADD-62")


@dataclass(frozen=True, slots=True)
class DiscardChosenEffect(StoredEffect):
    """ "Then discard N cards of your choice": after the card's other effects (a draw), the
    player is asked (prompt `discard`) which `n` cards of the hand to discard (R-ADD-62).
    It is the card's last effect.

    >>> DiscardChosenEffect(1).as_dict()
    {'kind': 'discard_chosen', 'n': 1}
    """

    kind: ClassVar[str] = "discard_chosen"
    n: int = field(metadata=bounded(1, MAX_CARDS, "R-ADD-62"))


@dataclass(frozen=True, slots=True)
class DiscardHandEffect(StoredEffect):
    """Discard the whole hand (the card itself is already in play) (R-ADD-14).

    >>> DiscardHandEffect().as_dict()
    {'kind': 'discard_hand'}
    """

    kind: ClassVar[str] = "discard_hand"


@dataclass(frozen=True, slots=True)
class RemoveFromGameEffect(StoredEffect):
    """ "Remove this card from game after use": once the card has resolved (its attack or
    the attack it answered has ended), it goes to the seat's removed cards, not the discard
    pile (R-ADD-70).

    >>> RemoveFromGameEffect().as_dict()
    {'kind': 'remove_from_game'}
    """

    kind: ClassVar[str] = "remove_from_game"


TARGET_DISCARD_PICKS = ("random", "target")

TARGET_DISCARD_KINDS = ("any", "weapon", "shield")


@dataclass(frozen=True, slots=True)
class TargetDiscardsEffect(StoredEffect):
    """ "Target discards 1 random (weapon) card", "destroy 1 Shield card in target's hand",
    "target discards 1 card": after a hit the target loses `n` cards from its hand, of
    kind `of` (a weapon: a Primary Weapon card; a shield card), picked at random or by the
    target itself (a prompt); `lost` ("destroy"): lost as damage is (R-DMG-8), not
    discarded (R-ADD-117).

    >>> TargetDiscardsEffect(1, "random", "shield", lost=True).as_dict()
    {'kind': 'target_discards', 'n': 1, 'pick': 'random', 'of': 'shield', 'lost': True}
    >>> TargetDiscardsEffect(1, "target", "weapon")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: target_discards.of: a target picks among all its cards (R-ADD-117)
    """

    kind: ClassVar[str] = "target_discards"
    n: int
    pick: str = field(default="random", metadata=WRITTEN)
    of: str = field(default="any", metadata=WRITTEN)
    lost: bool = False

    def __post_init__(self) -> None:
        check_int(self.n, "target_discards.n", 1, 6, "R-ADD-117")
        check_choice(self.pick, "target_discards.pick", TARGET_DISCARD_PICKS)
        check_choice(self.of, "target_discards.of", TARGET_DISCARD_KINDS)
        check_bool(self.lost, "target_discards.lost")
        if self.pick == "target" and (self.of != "any" or self.lost):
            raise InvalidInput(
                "target_discards.of", "a target picks among all its cards", "R-ADD-117"
            )


@dataclass(frozen=True, slots=True)
class DiscardForEffect(StoredEffect):
    """ "Discard 1 card to deal +2 damage": an optional cost the player pays by sending
    `spend: true` (as for tokens, R-ADD-61): `n` cards are discarded, those the command
    names in `discard` from the hand and the rest from the top of the deck, and `then`
    runs; on an attack card before the attack is declared, so its bonus is this
    attack's (R-ADD-152).

    >>> from battles.engine.cards import AttackBonusEffect
    >>> DiscardForEffect(1, (AttackBonusEffect(2),)).as_dict()
    {'kind': 'discard_for', 'n': 1, 'then': [{'kind': 'attack_bonus', 'damage': 2, 'to_hit': 0}]}
    >>> DiscardForEffect(0, (AttackBonusEffect(2),))
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: discard_for.n: must be an integer from 1 to 30, got 0 (R-ADD-152)
    """

    kind: ClassVar[str] = "discard_for"
    n: int
    then: tuple[Effect, ...]

    def __post_init__(self) -> None:
        check_int(self.n, "discard_for.n", 1, MAX_CARDS, "R-ADD-152")
        check_inner(self.then, "discard_for.then", ("attack_bonus", *AFTER_KINDS))


@dataclass(frozen=True, slots=True)
class RecoverNamedEffect(StoredEffect):
    """ "Recover 1 discarded Hand Axe card from discard pile": the `n` most recently
    discarded cards whose card id is one of `cards` go back to the hand, newest first, as
    many as the pile holds (R-ADD-62, R-ADD-153).

    >>> RecoverNamedEffect(("hand-axe-throw", "hand-axe-chop")).as_dict()
    {'kind': 'recover_named', 'cards': ['hand-axe-throw', 'hand-axe-chop'], 'n': 1}
    >>> RecoverNamedEffect(("Hand Axe",))
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: recover_named.cards[0]: 'Hand Axe' is not a card id (R-ADD-153)
    """

    kind: ClassVar[str] = "recover_named"
    cards: tuple[str, ...]
    n: int = field(default=1, metadata=WRITTEN)

    def __post_init__(self) -> None:
        if not isinstance(self.cards, tuple) or not self.cards:
            raise InvalidInput("recover_named.cards", "must name at least one card id", "R-ADD-153")
        for i, name in enumerate(self.cards):
            if not isinstance(name, str) or not SLUG_RE.fullmatch(name):
                raise InvalidInput(
                    f"recover_named.cards[{i}]", f"{name!r} is not a card id", "R-ADD-153"
                )
        check_int(self.n, "recover_named.n", 1, MAX_CARDS, "R-ADD-62")


@dataclass(frozen=True, slots=True)
class LookAtHandEffect(StoredEffect):
    """ "Look at target enemy's hand": the command's `target`, an enemy within the card's
    printed range (any enemy in the battle when it prints none, R-ADD-385), shows its hand
    to the player; the cards are recorded in the event, seen by that player, the target's
    and the GM (R-ADD-28, R-ADD-156). Then the player may pick cards of that hand (prompt
    `hand_pick`, the card's last effect): "choose 1 card to discard", `discard` of them the
    target discards (R-ADD-385); "spend 2 Credit tokens to steal 1 card from their hand and
    add it to yours", `steal` of them go to the player's hand for `price` tokens of `pool`,
    which the player may decline to spend (R-ADD-386).

    >>> LookAtHandEffect().as_dict()
    {'kind': 'look_at_hand'}
    >>> LookAtHandEffect(discard=1).as_dict()
    {'kind': 'look_at_hand', 'discard': 1}
    >>> LookAtHandEffect(steal=1, pool="credit", price=2).as_dict()
    {'kind': 'look_at_hand', 'steal': 1, 'pool': 'credit', 'price': 2}
    >>> LookAtHandEffect(discard=1, steal=1)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: look_at_hand.steal: a pick either discards or steals (R-ADD-386)
    """

    kind: ClassVar[str] = "look_at_hand"
    discard: int = 0
    steal: int = 0
    pool: str = ""
    price: int = 0

    def __post_init__(self) -> None:
        check_int(self.discard, "look_at_hand.discard", 0, 6, "R-ADD-385")
        check_int(self.steal, "look_at_hand.steal", 0, 6, "R-ADD-386")
        check_int(self.price, "look_at_hand.price", 0, MAX_TOKENS, "R-ADD-61")
        if self.discard and self.steal:
            raise InvalidInput(
                "look_at_hand.steal", "a pick either discards or steals", "R-ADD-386"
            )
        if self.price or self.pool:
            check_choice(self.pool, "look_at_hand.pool", TOKEN_POOLS)
            if not self.steal or not self.price:
                raise InvalidInput(
                    "look_at_hand.price", "a price is paid for a steal, in tokens", "R-ADD-386"
                )


@dataclass(frozen=True, slots=True)
class ArrangeTopEffect(StoredEffect):
    """ "Look at top N cards of your deck, arrange them in any order": the player sees the
    top `n` cards (an event only that seat and the GM see) and is asked (prompt `arrange`)
    for their new order; it is the card's last effect. A table arranges its own deck,
    whose order the engine never knows (R-ADD-18, R-ADD-157). `then` runs once the order
    is given, with the answer's `spend` ("Spend 1 Credit token to draw 1 additional card").

    >>> from battles.engine.cards import SpendTokensEffect
    >>> ArrangeTopEffect(3).as_dict()
    {'kind': 'arrange_top', 'n': 3}
    >>> ArrangeTopEffect(3, (SpendTokensEffect("credit", 1, (DrawEffect(1),)),)).as_dict()["then"]
    [{'kind': 'spend_tokens', 'pool': 'credit', 'n': 1, 'then': [{'kind': 'draw', 'n': 1}]}]
    """

    kind: ClassVar[str] = "arrange_top"
    n: int
    then: tuple[Effect, ...] = ()

    def __post_init__(self) -> None:
        check_int(self.n, "arrange_top.n", 2, MAX_CARDS, "R-ADD-157")
        if self.then:
            check_inner(self.then, "arrange_top.then", ("spend_tokens", *AFTER_KINDS))
