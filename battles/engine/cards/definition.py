"""A card as the engine plays it (`CardDef`), its stored form, and the blank Damage card."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from ..errors import InvalidInput
from ..tohit import MAX_DAMAGE, WeaponRange, parse_range
from .effects import EFFECT_TYPES, Effect, effect_from_dict, triggers
from .effects.allies import CoverEffect, GuardEffect, ZoneEffect
from .effects.attacks import (
    AfterAttackEffect,
    AreaAttackEffect,
    AttackBonusEffect,
    AttackEffect,
    AttackRulesEffect,
    DestroyOnCriticalEffect,
    FollowUpEffect,
    ForceDefenceRerollEffect,
    IgnoreCoverEffect,
    OfferMissEffect,
)
from .effects.base import WRITTEN, Stored, StoredEffect, check_choice, check_int, rebased
from .effects.bounds import MAX_HEAT, SLUG_RE
from .effects.conditions import (
    CARD_CLASSES,
    CLASS_NOTE,
    BleedFactorEffect,
    ChooseFormEffect,
    GritRerollEffect,
    UltimatumEffect,
)
from .effects.defence import (
    AfterDefenceEffect,
    CounterEffect,
    ReduceIncomingEffect,
    RiposteEffect,
    UnflankableEffect,
)
from .effects.hand import (
    ArrangeTopEffect,
    DiscardChosenEffect,
    DiscardEffect,
    DiscardForEffect,
    DrawEffect,
    RemoveFromGameEffect,
)
from .effects.movement import FreePassageEffect
from .effects.resources import (
    DamageBargainEffect,
    GiveHeatEffect,
    HeatCapacityEffect,
    HeatEffect,
    SelfDamageEffect,
    SpendTaintEffect,
    SpendTokensEffect,
    TaintAuraEffect,
    TaintCounterEffect,
    TaintEffect,
)

# "behaviour": a support unit's behaviour card (its AI draws them), never a casket deck's (R-ADD-52).
CARD_KINDS = (
    "primary_weapon",
    "secondary",
    "universal",
    "reactive",
    "damage",
    "other",
    "behaviour",
)

# The effects that ask someone a question once the card resolves: each must be the card's
# last effect (the effect, whom it asks, the rule).
_ASKED_LAST: tuple[tuple[type[StoredEffect], str, str], ...] = (
    (DiscardChosenEffect, "the player", "R-ADD-62"),
    (ArrangeTopEffect, "the player", "R-ADD-157"),
    (UltimatumEffect, "the enemy", "R-ADD-159"),
    (ChooseFormEffect, "the player", "R-ADD-362"),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class CardDef(Stored):
    """One card as the engine plays it.

    `range`, `damage` and `heat` are the printed values; the engine runs only `effects`.
    When the card has an attack effect, `range` and `damage` are those of its first attack.
    `automated` says the effects express everything the text says; a manual card keeps
    its text for the players to resolve the rest. Its stored form (`as_dict`, the project's
    JSON card format that `card_from_dict` reads back) writes every field, defaults too.

    >>> DAMAGE_CARD.as_dict()["kind"], DAMAGE_CARD.as_dict()["effects"]
    ('damage', [])
    >>> card = CardDef(id="plain-cut", name="Plain Cut", kind="primary_weapon", sp_cost=2,
    ...                range=parse_range("Melee"), damage=4, text="Deal 4 damage.",
    ...                effects=(AttackEffect(parse_range("Melee"), 4),), automated=True)
    >>> card.manual, card_from_dict(card.as_dict()) == card
    (False, True)
    >>> CardDef(id="Bad Id", name="x", kind="other", sp_cost=0, automated=True)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: card.id: 'Bad Id' is not a slug (lowercase letters, digits and single hyphens)
    """

    id: str
    name: str
    kind: str
    sp_cost: int
    range: WeaponRange | None = field(default=None, metadata=WRITTEN)
    damage: int | None = field(default=None, metadata=WRITTEN)
    heat: int = field(default=0, metadata=WRITTEN)
    keywords: tuple[str, ...] = field(default=(), metadata=WRITTEN)
    text: str = field(default="", metadata=WRITTEN)
    shield: bool = field(default=False, metadata=WRITTEN)
    effects: tuple[Effect, ...] = field(default=(), metadata=WRITTEN)
    automated: bool

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not SLUG_RE.fullmatch(self.id):
            raise InvalidInput(
                "card.id",
                f"{self.id!r} is not a slug (lowercase letters, digits and single hyphens)",
            )
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidInput("card.name", "must be a non-empty string")
        check_choice(self.kind, "card.kind", CARD_KINDS)
        check_int(self.sp_cost, "card.sp_cost", 0, 99, "R-TRN-5")
        if self.range is not None and not isinstance(self.range, WeaponRange):
            raise InvalidInput("card.range", "must be a range or null", "R-RNG-2")
        if self.damage is not None:
            check_int(self.damage, "card.damage", 0, MAX_DAMAGE, "R-DMG-1")
        check_int(self.heat, "card.heat", -MAX_HEAT, MAX_HEAT)
        if not isinstance(self.keywords, tuple) or not all(
            isinstance(k, str) and k for k in self.keywords
        ):
            raise InvalidInput("card.keywords", "must be a tuple of non-empty strings")
        if not isinstance(self.text, str):
            raise InvalidInput("card.text", "must be a string")
        for name in ("shield", "automated"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidInput(f"card.{name}", "must be true or false")
        if not isinstance(self.effects, tuple):
            raise InvalidInput("card.effects", "must be a tuple of effects")
        for i, effect in enumerate(self.effects):
            if not isinstance(effect, tuple(EFFECT_TYPES.values())):
                raise InvalidInput(f"card.effects[{i}]", "must be an effect")
            for asks, whom, rule in _ASKED_LAST:
                if isinstance(effect, asks) and i != len(self.effects) - 1:
                    raise InvalidInput(
                        f"card.effects[{i}]",
                        f"{asks.kind} asks {whom} once the card resolves: make it the last",
                        rule,
                    )
            with_then = (
                SpendTokensEffect
                | triggers.WhenEffect
                | SpendTaintEffect
                | triggers.UnlessSpentEffect
                | DiscardForEffect
            )
            inner = effect.then if isinstance(effect, with_then) else (effect,)
            reactive_only = (
                *(ReduceIncomingEffect, triggers.WindowEffect, CounterEffect),
                *(TaintCounterEffect, RiposteEffect),  # triggers vocabulary
                AfterDefenceEffect,  # buffs vocabulary
                GiveHeatEffect,  # battle states vocabulary
                OfferMissEffect,  # optional costs vocabulary
            )
            if isinstance(effect, GiveHeatEffect) and effect.to != "attacker":
                raise InvalidInput(
                    f"card.effects[{i}].to",
                    "Heat for the attack's target waits for the hit: put it in after_attack",
                    "R-ADD-143",
                )
            # R-ADD-294: Heat an enemy's Taint buys is that enemy's, given as the card resolves.
            enemy_spend = isinstance(effect, SpendTaintEffect) and effect.whose == "enemy"
            # R-ADD-412: a forced defence reroll is the attacker's reactive answer, paid so.
            forced = isinstance(effect, SpendTaintEffect) and any(
                isinstance(e, ForceDefenceRerollEffect) for e in effect.then
            )
            if (
                enemy_spend
                and not (forced and self.kind == "reactive")
                and (
                    self.kind == "reactive"
                    or any(isinstance(e, AttackEffect) for e in self.effects)
                )
            ):
                raise InvalidInput(
                    f"card.effects[{i}].whose",
                    "an enemy's Taint is spent by a card played on its own, in the owner's turn",
                    "R-ADD-294",
                )
            if (
                self.kind != "reactive"
                and not enemy_spend
                and any(isinstance(e, reactive_only) for e in inner)
            ):
                raise InvalidInput(
                    f"card.effects[{i}]",
                    f"{effect.kind} answers an attack: only a reactive card may have it",
                    "R-REA-1",
                )
            attack_only = (
                any(
                    isinstance(
                        e,
                        AttackBonusEffect
                        | AfterAttackEffect
                        | IgnoreCoverEffect
                        | FollowUpEffect
                        | AttackRulesEffect
                        | DamageBargainEffect
                        | DestroyOnCriticalEffect  # triggers vocabulary
                        | SelfDamageEffect,
                    )
                    or (isinstance(e, AreaAttackEffect) and e.around != "wreck")
                    for e in inner
                )
                or (isinstance(effect, SpendTokensEffect) and effect.damage_per_token)
                # R-ADD-145: the target's Taint and damage per Taint need an attack
                or (
                    isinstance(effect, SpendTaintEffect)
                    and (effect.damage_per_taint > 0 or effect.whose == "either")
                )
                or (isinstance(effect, TaintEffect) and effect.target == "target")
            )
            if attack_only and not any(isinstance(e, AttackEffect) for e in self.effects):
                raise InvalidInput(
                    f"card.effects[{i}]",
                    "an attack bonus needs the card's own attack effect",
                    "R-ADD-59",
                )
        self._check_optional_costs()
        self._check_consistency()

    def _check_optional_costs(self) -> None:
        """`spend: true` buys one optional cost, tokens or cards (R-ADD-61, R-ADD-152), and
        "OR" alternatives replace a token spend (R-ADD-151)."""
        spends = [i for i, e in enumerate(self.effects) if isinstance(e, SpendTokensEffect)]
        for i, effect in enumerate(self.effects):
            if isinstance(effect, triggers.UnlessSpentEffect) and not spends:
                raise InvalidInput(
                    f"card.effects[{i}]",
                    "unless_spent runs when the card's tokens are not spent: the card needs "
                    "a spend_tokens effect",
                    "R-ADD-151",
                )
            if isinstance(effect, DiscardForEffect) and (
                spends
                or any(isinstance(e, DiscardForEffect) for e in self.effects[:i])
                or any(isinstance(e, DiscardEffect) and e.source != "deck" for e in self.effects)
            ):
                raise InvalidInput(
                    f"card.effects[{i}]",
                    "discard_for is the card's one optional cost ('spend') and the only "
                    "effect naming cards in 'discard'",
                    "R-ADD-152",
                )

    def _check_x_tokens(self) -> None:
        """R-ADD-389: a cost of X tokens is chosen in a `play_card` command (`tokens`), so
        only a card played so has it, and "draw X" only at the top of such a card."""
        x_cost = any(isinstance(e, triggers.TokenCostEffect) and e.n == "x" for e in self.effects)
        if x_cost and (self.kind == "reactive" or self.attack is not None):
            raise InvalidInput(
                "card.effects",
                "a cost of X tokens is chosen in play_card: not on a reactive or attack card",
                "R-ADD-389",
            )

        def nested(effects: tuple[Effect, ...]) -> Iterator[Effect]:
            for e in effects:
                yield from nested(getattr(e, "then", ()))
                yield e

        top = [e for e in self.effects if isinstance(e, DrawEffect) and e.n == "x"]
        inner = [e for e in nested(self.effects) if isinstance(e, DrawEffect) and e.n == "x"]
        if inner and (not x_cost or len(inner) != len(top)):
            raise InvalidInput(
                "card.effects",
                "draw X counts the tokens paid for the card's cost of X tokens: the card "
                "needs that cost, and the draw is one of its own effects",
                "R-ADD-389",
            )

    def _check_consistency(self) -> None:
        # R-ADD-80: what waits for a kill, or is Armor-Piercing, is said of all the card's
        # further attacks at once (AttacksQueued), so such a card has only that one.
        further = [e for e in self.effects if isinstance(e, FollowUpEffect | AreaAttackEffect)]
        special = [
            e
            for e in further
            if (isinstance(e, FollowUpEffect) and e.on == "kill")
            or (isinstance(e, AreaAttackEffect) and e.ignore_defence)
        ]
        if special and len(further) > 1:
            raise InvalidInput(
                "card.effects",
                "a further attack on a kill, or an Armor-Piercing area, must be the card's "
                "only further attack",
                "R-ADD-80",
            )
        attacks = [e for e in self.effects if isinstance(e, AttackEffect)]
        if attacks and (self.range, self.damage) != (attacks[0].range, attacks[0].damage):
            raise InvalidInput(
                "card.range",
                "range and damage must be those of the card's first attack effect",
                "R-RNG-2",
            )
        heat = sum(e.amount for e in self.effects if isinstance(e, HeatEffect))
        if self.automated and heat != self.heat:
            raise InvalidInput(
                "card.heat",
                f"an automated card's heat ({self.heat}) must equal its heat effects ({heat})",
            )
        if not self.automated and not self.text.strip():
            raise InvalidInput("card.text", "a manual card needs its text for the players")
        if self.kind == "damage" and (self.sp_cost, self.effects) != (0, ()):
            raise InvalidInput("card.kind", "a Damage card costs 0 SP and does nothing", "R-TRN-6")
        self._check_x_tokens()
        timed = [e for e in self.effects if isinstance(e, triggers.ForTurnsEffect)]
        if timed and (len(timed) > 1 or self.kind == "reactive" or self.attack is not None):
            # R-ADD-375: its turns are counted from its owner's turn it is played in
            raise InvalidInput(
                "card.effects",
                "for_turns is said once, of a card played with play_card in its owner's turn",
                "R-ADD-375",
            )

    @property
    def limit(self) -> triggers.LimitEffect | None:
        """The card's use limit, if its text has one (R-ADD-63)."""
        return next((e for e in self.effects if isinstance(e, triggers.LimitEffect)), None)

    @property
    def pledge(self) -> bool:
        """A cover played in its player's turn ("You may cover adjacent ally"): it waits in
        play for the attack it takes, until that player's next turn (R-ADD-122)."""
        return self.kind != "reactive" and any(isinstance(e, CoverEffect) for e in self.effects)

    @property
    def leaves_game(self) -> bool:
        """Resolved, the card goes to the removed cards, not the discard pile (R-ADD-70)."""
        return any(isinstance(e, RemoveFromGameEffect) for e in self.effects)

    @property
    def token_cost(self) -> triggers.TokenCostEffect | None:
        """The card's printed cost in tokens, if any: it costs 0 SP (R-ADD-133)."""
        return next((e for e in self.effects if isinstance(e, triggers.TokenCostEffect)), None)

    @property
    def for_turns(self) -> int:
        """How many of its owner's turns the card stays in play ("For 2 turns: …"), the one
        it is played in first; 0 when its text sets no such duration (R-ADD-375)."""
        return next((e.turns for e in self.effects if isinstance(e, triggers.ForTurnsEffect)), 0)

    @property
    def classes(self) -> tuple[str, ...]:
        """The classes of cards a card may forbid that this card is (R-ADD-340): "defense"
        for a reactive card (R-ADD-174) or one printed a Defense type, "movement" for one
        printed a Movement type (the import's keyword notes).

        >>> DAMAGE_CARD.classes
        ()
        """
        reactive = ("defense",) if self.kind == "reactive" else ()
        noted = tuple(x for x in CARD_CLASSES if CLASS_NOTE + x in self.keywords)
        return tuple(dict.fromkeys((*reactive, *noted)))

    @property
    def passive(self) -> bool:
        """Played, the card stays in play and its triggers fire (R-ADD-68), or it waits
        there for the attack it wards off (R-ADD-128), or its zone lasts (R-ADD-129); a
        standing rule (`unflankable`, `heat_capacity`, `free_passage`, R-ADD-136;
        `bleed_factor`, R-ADD-280; `taint_aura`, R-ADD-296; `grit_reroll`, R-ADD-411) too; and a card lasting "for N
        turns" until those turns have ended (R-ADD-375)."""
        stays = triggers.TriggerEffect | triggers.ForTurnsEffect | GuardEffect | ZoneEffect
        standing = (
            UnflankableEffect
            | HeatCapacityEffect
            | FreePassageEffect
            | BleedFactorEffect
            | TaintAuraEffect
            | GritRerollEffect  # R-ADD-411
        )
        return self.pledge or any(isinstance(e, stays | standing) for e in self.effects)

    @property
    def manual(self) -> bool:
        """The card's text says more than its effects: the players resolve the rest."""
        return not self.automated

    @property
    def attack(self) -> AttackEffect | None:
        """The card's first attack effect, if any.

        >>> DAMAGE_CARD.attack is None
        True
        """
        return next((e for e in self.effects if isinstance(e, AttackEffect)), None)


# R-TRN-6: added to the deck at each reshuffle; 0 SP, does nothing.
DAMAGE_CARD = CardDef(
    id="damage",
    name="Damage",
    kind="damage",
    sp_cost=0,
    text="A blank card added at each reshuffle; it may be played for 0 SP and does nothing.",
    automated=True,
)

_CARD_FIELDS = tuple(f.name for f in dataclasses.fields(CardDef))

_REQUIRED_CARD_FIELDS = ("id", "name", "kind", "sp_cost", "automated")


def card_from_dict(doc: object, path: str = "card") -> CardDef:
    """Parse a card in the project's JSON format; every bad or unknown field names its path.

    Required: id, name, kind, sp_cost, automated. The rest default to no range, no
    damage, 0 Heat, no keywords, no text, not a shield card, no effects.

    >>> card_from_dict({"id": "vent", "name": "Vent", "kind": "other", "sp_cost": 1,
    ...                 "heat": -2, "effects": [{"kind": "heat", "amount": -2}],
    ...                 "automated": True}).effects
    (HeatEffect(amount=-2),)
    >>> card_from_dict({"id": "vent", "name": "Vent", "kind": "other", "sp_cost": 1,
    ...                 "automated": True, "colour": "red"}, "cards[3]")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: cards[3].colour: unknown field(s) colour; allowed: id, name, kind, sp_cost, range, damage, heat, keywords, text, shield, effects, automated
    """
    if not isinstance(doc, Mapping):
        raise InvalidInput(path, "must be an object")
    unknown = [str(k) for k in doc if k not in _CARD_FIELDS]
    if unknown:
        raise InvalidInput(
            f"{path}.{unknown[0]}",
            f"unknown field(s) {', '.join(unknown)}; allowed: {', '.join(_CARD_FIELDS)}",
        )
    for key in _REQUIRED_CARD_FIELDS:
        if key not in doc:
            raise InvalidInput(f"{path}.{key}", "required")
    values = dict(doc)
    if values.get("range") is not None:
        values["range"] = parse_range(values["range"], f"{path}.range")
    if "keywords" in values:
        keywords = values["keywords"]
        if not isinstance(keywords, list | tuple):
            raise InvalidInput(f"{path}.keywords", "must be a list of strings")
        values["keywords"] = tuple(keywords)
    if "effects" in values:
        effects = values["effects"]
        if not isinstance(effects, list | tuple):
            raise InvalidInput(f"{path}.effects", "must be a list of effects")
        values["effects"] = tuple(
            effect_from_dict(e, f"{path}.effects[{i}]") for i, e in enumerate(effects)
        )
    with rebased(path, "card"):
        return CardDef(**values)
