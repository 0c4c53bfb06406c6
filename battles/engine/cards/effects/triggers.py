"""Triggers: effects that wait for a condition, an event or a window, and the limits and
costs on playing a card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal

from ...errors import InvalidInput
from .base import WRITTEN, StoredEffect, bounded, check_bool, check_choice, check_inner, check_int
from .bounds import AFTER_KINDS, MAX_CARDS, MAX_HEXES, MAX_TOKENS, SLUG_RE, TOKEN_POOLS
from .condition import Condition

if TYPE_CHECKING:
    from . import Effect


@dataclass(frozen=True, slots=True)
class WhenEffect(StoredEffect):
    """Run `then` only when `condition` holds as the card resolves (R-ADD-59): "If you
    have 3+ Metamorph tokens, draw 3 cards instead" is a draw of 2 and, when, 1 more.

    >>> from battles.engine.cards import DrawEffect
    >>> WhenEffect(Condition("standing_in", terrain="lava"), (DrawEffect(1),)).as_dict()
    {'kind': 'when', 'condition': {'test': 'standing_in', 'terrain': 'lava'}, 'then': [{'kind': 'draw', 'n': 1}]}
    """

    kind: ClassVar[str] = "when"
    condition: Condition
    then: tuple[Effect, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.condition, Condition):
            raise InvalidInput("when.condition", "must be a condition", "R-ADD-59")
        # buffs vocabulary: "+1 damage to all attacks for each enemy within 6" (R-ADD-96);
        # move: "if …, knockback" (R-ADD-100); triggers: R-ADD-134; forms: "… reduce by 2.
        # If in Metamorph form, reduce by 3" (R-ADD-170); combos: "…, gain +1 SP" (R-ADD-188);
        # "If in Metamorph form, deal 3 damage instead" to the attacker (R-ADD-362).
        kinds = (
            *(*AFTER_KINDS, "reduce_incoming", "enhance_next_attack", "push"),
            *("sp_boost", "grant_move", "ward", "gain_sp", "counter"),
        )
        check_inner(self.then, "when.then", kinds)


@dataclass(frozen=True, slots=True)
class WindowEffect(StoredEffect):
    """A reactive card's window narrower than "targeted by an attack": "Play when attacked
    in melee" answers only an attack made with a Melee card (R-RNG-2, R-ADD-58).

    >>> WindowEffect("melee").as_dict()
    {'kind': 'window', 'attack': 'melee'}
    """

    kind: ClassVar[str] = "window"
    attack: Literal["melee"]

    def __post_init__(self) -> None:
        check_choice(self.attack, "window.attack", ("melee",))


@dataclass(frozen=True, slots=True)
class LimitEffect(StoredEffect):
    """ "Once per turn / round / mission": the card may be played `n` times per period;
    a battle is the mission's fight, so "mission" is the battle (R-ADD-63).

    >>> LimitEffect("round").as_dict()
    {'kind': 'limit', 'per': 'round', 'n': 1}
    """

    kind: ClassVar[str] = "limit"
    per: Literal["turn", "round", "battle"]
    n: int = field(default=1, metadata=WRITTEN)

    def __post_init__(self) -> None:
        check_choice(self.per, "limit.per", ("turn", "round", "battle"))
        check_int(self.n, "limit.n", 1, 10, "R-ADD-63")


TRIGGERS = (
    *("start_of_turn", "end_of_turn", "casket_destroyed", "component_damaged", "attack"),
    # battle states vocabulary (R-ADD-147) and triggers: "at the start / end of each round"
    # (R-ADD-137), "reduce all damage you take by N" (R-ADD-136), "whenever you discard
    # cards" (R-ADD-139).
    *("start_of_round", "end_of_round", "damage_taken", "cards_discarded"),
    # "the first Component Damage you take each round is ignored" (R-ADD-136)
    "first_component_damage_each_round",
    # "when you use Blood Offering or other self-harm Church cards": the owner plays one of
    # the trigger's `cards` in its own turn, as a card or an attack (R-ADD-361)
    "card_played",
    # "first 3 damage each turn negated": the `reduce_incoming` amount is a budget of each
    # turn, whoever's, spent on the damage the owner takes (R-ADD-376)
    "first_damage_each_turn",
    # "When you would take fatal damage, negate it, gain 4 Heat": played in the owner's
    # turn, the card waits in play; damage R-ADD-371 calls lethal is negated whole, `then`
    # runs and the card leaves play (R-ADD-391)
    "lethal_damage",
)


@dataclass(frozen=True, slots=True)
class ForTurnsEffect(StoredEffect):
    """ "For 2 turns: …": the card stays in play, its passives firing and its standing
    rules holding, until `turns` of the owner's own turns have ended, the one it is played
    in first; then it leaves play for the discard pile, or for the removed cards when its
    text removes it from the game (R-ADD-70, R-ADD-375).

    >>> ForTurnsEffect(2).as_dict()
    {'kind': 'for_turns', 'turns': 2}
    >>> ForTurnsEffect(0)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: for_turns.turns: must be an integer from 1 to 5, got 0 (R-ADD-375)
    """

    kind: ClassVar[str] = "for_turns"
    turns: int = field(metadata=bounded(1, 5, "R-ADD-375"))


@dataclass(frozen=True, slots=True)
class TriggerEffect(StoredEffect):
    """A passive: the card stays in play once played and runs `then` each time its
    trigger fires for the owner (R-ADD-68): at the start or the end of the owner's turn,
    when a casket within `within` hexes is destroyed (`enemy_only`: an enemy's;
    `ally_only`: one of the owner's side; `by_owner`: one the owner's own attack destroyed;
    `within` 0: at any distance, R-ADD-131), or per point of Component Damage the owner
    takes. On "attack", `then` holds attack bonuses only: each attack the owner declares
    gets those whose condition holds ("Passive: you deal +2 damage to enemies with …",
    R-ADD-74). On "card_played", each time the owner plays one of `cards` in its own turn,
    as a card or an attack (R-ADD-361). On "first_damage_each_turn", its reduction takes
    off the first damage the owner takes in each turn, up to its amount a turn (R-ADD-376).
    On "lethal_damage", damage that would defeat the owner whatever its split (R-ADD-371)
    is negated whole, `then` runs, and the card leaves play (R-ADD-391).

    >>> from battles.engine.cards import DrawEffect, GainTokensEffect
    >>> TriggerEffect("start_of_turn", (GainTokensEffect("bargain", 1, cap=10),)).as_dict()
    {'kind': 'trigger', 'on': 'start_of_turn', 'then': [{'kind': 'gain_tokens', 'pool': 'bargain', 'n': 1, 'cap': 10}]}
    >>> TriggerEffect("casket_destroyed", (DrawEffect(2),), enemy_only=True, by_owner=True).as_dict()
    {'kind': 'trigger', 'on': 'casket_destroyed', 'then': [{'kind': 'draw', 'n': 2}], 'enemy_only': True, 'by_owner': True}
    >>> TriggerEffect("casket_destroyed", (DrawEffect(2),), enemy_only=True, ally_only=True)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: trigger.ally_only: a casket is an enemy's or an ally's, not both (R-ADD-131)
    """

    kind: ClassVar[str] = "trigger"
    on: str
    then: tuple[Effect, ...]
    within: int = 0
    enemy_only: bool = False
    # triggers vocabulary (R-ADD-131): "when an allied Casket … is destroyed", "when you
    # destroy an enemy Casket", "if you dealt the killing blow".
    ally_only: bool = False
    by_owner: bool = False
    # "Your next attack deals +3 damage" without "this bonus stacks": held once (R-ADD-139).
    stacks: bool = True
    # On "card_played": the card ids whose play fires it (R-ADD-361).
    cards: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_choice(self.on, "trigger.on", TRIGGERS)
        if self.on == "attack":  # R-ADD-74: bonuses to each of the owner's attacks
            check_inner(self.then, "trigger.then", ("attack_bonus",))
        elif self.on in (
            "damage_taken",
            "first_component_damage_each_round",
            "first_damage_each_turn",
        ):
            # R-ADD-136: a reduction of each damage, or of a round's first Component Damage
            check_inner(self.then, "trigger.then", ("reduce_incoming",))
        else:
            # R-ADD-138: "gain +3 Defense until end of your next turn" (`defence`).
            kinds: tuple[str, ...] = (
                *AFTER_KINDS,
                "buff_next_attack",
                "seed_area",
                "lasting_bonus",
                "when",
                "sp_boost",
                "defence",
                "grit_modifier",
            )
            if self.on == "lethal_damage":
                # R-ADD-391's saves; R-ADD-441: "if you have 5+ Soul Shards, automatically
                # spend 5 Shards to recover to 3 HP": a required spend is the save's price.
                kinds = (*kinds, "restore_hp", "spend_tokens")
            check_inner(self.then, "trigger.then", kinds)
        check_bool(self.enemy_only, "trigger.enemy_only")
        check_bool(self.ally_only, "trigger.ally_only")
        check_bool(self.by_owner, "trigger.by_owner")
        check_bool(self.stacks, "trigger.stacks")
        if not self.stacks and any(e.kind != "buff_next_attack" for e in self.then):
            raise InvalidInput(
                "trigger.stacks", "only a next-attack bonus is held once (false)", "R-ADD-139"
            )
        if self.on == "casket_destroyed":
            # R-ADD-131: 0 is "at any distance" ("each time an allied Casket is destroyed").
            check_int(self.within, "trigger.within", 0, MAX_HEXES, "R-RNG-3")
            if self.enemy_only and self.ally_only:
                raise InvalidInput(
                    "trigger.ally_only",
                    "a casket is an enemy's or an ally's, not both",
                    "R-ADD-131",
                )
            # R-ADD-442: "when enemy is destroyed", no distance printed: every enemy's
            if self.within == 0 and not (self.ally_only or self.by_owner or self.enemy_only):
                raise InvalidInput(
                    "trigger.within",
                    "any distance (0) only for an ally's or an enemy's destruction or the "
                    "owner's own kill",
                    "R-ADD-131",
                )
        elif self.within or self.enemy_only or self.ally_only or self.by_owner:
            raise InvalidInput("trigger.within", "only casket_destroyed counts hexes", "R-ADD-68")
        if not isinstance(self.cards, tuple):
            raise InvalidInput("trigger.cards", "must be a list of card ids", "R-ADD-361")
        if (self.on == "card_played") != bool(self.cards):
            raise InvalidInput(
                "trigger.cards", "names the cards card_played watches, and only then", "R-ADD-361"
            )
        for i, name in enumerate(self.cards):
            if not isinstance(name, str) or not SLUG_RE.fullmatch(name):
                raise InvalidInput(f"trigger.cards[{i}]", f"{name!r} is not a card id", "R-ADD-361")


@dataclass(frozen=True, slots=True)
class TokenCostEffect(StoredEffect):
    """A printed cost in tokens ("1 Forge token", "3 Credit tokens"): the card costs 0 SP
    and playing it needs and spends `n` tokens of `pool`, as it is played (R-ADD-133).

    >>> TokenCostEffect("forge", 1).as_dict()
    {'kind': 'token_cost', 'pool': 'forge', 'n': 1}
    >>> TokenCostEffect("credit", "x", most=5).as_dict()
    {'kind': 'token_cost', 'pool': 'credit', 'n': 'x', 'most': 5}
    >>> TokenCostEffect("gold", 1)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: token_cost.pool: 'gold' is not one of: forge, credit, biomass, soul_shard, bargain, metamorph, rune, scrap
    """

    kind: ClassVar[str] = "token_cost"
    pool: str
    n: int | Literal["x"]
    # "X Credit tokens" ("Draw X cards (where X = Credits spent, max 5)"): `n` "x", the
    # number the player chooses as the card is played (the command's `tokens`), 1 to
    # `most` (R-ADD-389).
    most: int = 0

    def __post_init__(self) -> None:
        check_choice(self.pool, "token_cost.pool", TOKEN_POOLS)
        if self.n == "x":
            check_int(self.most, "token_cost.most", 1, MAX_TOKENS, "R-ADD-389")
        else:
            check_int(self.n, "token_cost.n", 1, MAX_TOKENS, "R-ADD-133")
            if self.most:
                raise InvalidInput("token_cost.most", "only for a cost of X tokens", "R-ADD-389")

    @property
    def least(self) -> int:
        """The fewest tokens playing the card needs: X is at least 1 (R-ADD-389).

        >>> TokenCostEffect("credit", "x", most=5).least, TokenCostEffect("forge", 2).least
        (1, 2)
        """
        return 1 if self.n == "x" else self.n


@dataclass(frozen=True, slots=True)
class UnlessSpentEffect(StoredEffect):
    """ "Gain 1 Credit. OR: Spend 3 Credits to deal 7 damage instead": `then` runs only when
    the command does not spend the card's tokens (`spend` false), so the spend replaces
    it (R-ADD-151). The card must have a spend_tokens effect.

    >>> from battles.engine.cards import GainTokensEffect
    >>> UnlessSpentEffect((GainTokensEffect("credit", 1),)).as_dict()
    {'kind': 'unless_spent', 'then': [{'kind': 'gain_tokens', 'pool': 'credit', 'n': 1}]}
    >>> UnlessSpentEffect(())
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: unless_spent.then: must be a non-empty tuple of effects
    """

    kind: ClassVar[str] = "unless_spent"
    then: tuple[Effect, ...]

    def __post_init__(self) -> None:
        check_inner(self.then, "unless_spent.then", AFTER_KINDS)


@dataclass(frozen=True, slots=True)
class AllyDestroyedWindowEffect(StoredEffect):
    """A reactive card's window that is no attack: "When an allied Casket within 3 hexes
    is destroyed (deck reaches 0), immediately …": it answers only the defeat of an ally
    within `within` hexes by the loss of its cards (R-DMG-6, R-DMG-9, R-TRN-6), played
    from the hand at once, whoever's turn it is; its other effects are what it does then.
    It never answers an attack (R-REA-1, R-ADD-283).

    >>> AllyDestroyedWindowEffect(3).as_dict()
    {'kind': 'ally_destroyed_window', 'within': 3}
    """

    kind: ClassVar[str] = "ally_destroyed_window"
    within: int = field(metadata=bounded(1, MAX_HEXES, "R-ADD-283"))


@dataclass(frozen=True, slots=True)
class LowDeckWindowEffect(StoredEffect):
    """A reactive card's window that is no attack: "Play when your deck reaches 5 cards or
    fewer": it answers only its holder's own deck going from more than `at_most` cards to
    `at_most` or fewer (by damage, discards or draws alike), played from the hand at
    0 SP once what brought the deck down has resolved, whoever's turn it is; its other
    effects are what it does then. It never answers an attack (R-REA-1, R-ADD-370).

    >>> LowDeckWindowEffect(5).as_dict()
    {'kind': 'low_deck_window', 'at_most': 5}
    """

    kind: ClassVar[str] = "low_deck_window"
    at_most: int = field(metadata=bounded(1, MAX_CARDS, "R-ADD-370"))


@dataclass(frozen=True, slots=True)
class LethalWindowEffect(StoredEffect):
    """A reactive card's window that is no attack: "When you would take lethal damage …,
    prevent up to 5 damage": it answers only damage its holder is about to take that
    defeats the casket whatever split of it between hand and deck the holder chose
    (R-DMG-6; under 2.1 deck and discard pile emptied, R-DMG-9), played from the hand at
    0 SP before the split is asked for, whoever's turn it is; `prevent` damage of it is
    taken off and the rest is taken as usual. It never answers an attack's to-hit
    (R-REA-1, R-ADD-371). `prevent` "all": the casket does something "instead" of dying, or
    the text says "prevent it", so all of the damage is taken off (Price Paid, R-ADD-420;
    Emergency Transfusion and Phylactery, R-ADD-441).

    >>> LethalWindowEffect(5).as_dict()
    {'kind': 'lethal_window', 'prevent': 5}
    >>> LethalWindowEffect("all").as_dict()
    {'kind': 'lethal_window', 'prevent': 'all'}
    >>> LethalWindowEffect("all").cut(12)
    12
    >>> LethalWindowEffect(0)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: lethal_window.prevent: must be an integer from 1 to 30, got 0 (R-ADD-371)
    """

    kind: ClassVar[str] = "lethal_window"
    prevent: int | Literal["all"]

    def __post_init__(self) -> None:
        if self.prevent != "all":
            check_int(self.prevent, "lethal_window.prevent", 1, MAX_CARDS, "R-ADD-371")

    def cut(self, amount: int) -> int:
        """How much of `amount` lethal damage the card takes off."""
        return amount if self.prevent == "all" else min(amount, self.prevent)
