"""The state of one battle: what a fold of its events yields (docs/BATTLES.md).

Everything here is immutable. Cards in play are *instances* named `<card id>#<n>`
(`faithful-thrust#2`), so the same card twice in a deck stays two things that can
each be in exactly one zone. Damage cards added at reshuffles are `damage#<n>`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from ..board import Board
from ..cards import (
    DAMAGE_CARD,
    CardDef,
    Effect,
    LastingCurseEffect,
    SpendTokensEffect,
    TemporalLoopEffect,
)
from ..cards.effects.defence import WardTerms
from ..dice import COMPONENTS
from ..hexes import Hex
from ..ruleset import Ruleset

HAND_SIZE = 6  # R-TRN-6, R-TRN-7
TAINT_OVERLOAD = 10  # R-PLT-3, R-PLT-4
STRAIN_HEAT = 5  # R-TRN-4: the strain roll starts at 5 Heat
WOUND_DECK: tuple[str, ...] = (  # R-PLT-1: 5 minor, 3 severe, 2 trauma
    "minor-1",
    "minor-2",
    "minor-3",
    "minor-4",
    "minor-5",
    "severe-1",
    "severe-2",
    "severe-3",
    "trauma-1",
    "trauma-2",
)
# R-PLT-2: only severe and trauma wounds outlast a mission.
CARRIED_WOUNDS = frozenset(w for w in WOUND_DECK if not w.startswith("minor-"))

# R-ADD-306: token pools a card says persist across missions, and their maximum: Bargain
# Struck (wyrd-conclave), "Bargain tokens persist across missions (you owe the Fae).
# Maximum 10 Bargain tokens." The outcome hands each pilot's count of these pools over to
# the campaign, and the next battle's setup starts the pilot with them (`pilot.tokens`).
PERSISTENT_TOKENS: Mapping[str, int] = MappingProxyType({"bargain": 10})
SP_MAXIMUM: Mapping[str, int] = {"scout": 6, "assault": 5, "heavy": 4, "fortress": 3}  # R-TRN-3

T = TypeVar("T")

SETUP = "setup"
ACTION = "action"
END = "end"
OVER = "over"


def with_changes(obj: T, **changes: Any) -> T:
    """A copy of a frozen state dataclass with some fields changed.

    `dataclasses.replace` re-runs `__init__` with per-field checks; replay calls this
    for every event, so it copies the instance dictionary instead (evolve never
    validates). The state classes keep a `__dict__` (no slots) for this reason.

    >>> with_changes(Prompt(0, "reactive"), seat=1)
    Prompt(seat=1, kind='reactive', amount=0, component=None, rule='', reason='')
    """
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__, **changes)
    return new


def card_id(instance: str) -> str:
    """The card an instance is a copy of.

    >>> card_id("faithful-thrust#2")
    'faithful-thrust'
    """
    return instance.split("#", 1)[0]


@dataclass(frozen=True)
class Prompt:
    """A decision the battle waits for from `seat` (or the GM on its behalf).

    Kinds: `mulligan` (keep_hand / mulligan, R-TRN-1), `reactive` (play_reactive /
    no_reactive, R-REA-1), `take_damage` (discard `amount` cards split between hand
    and deck, R-DMG-6), `discard_down` (discard `amount` cards from hand, R-TRN-7),
    `discard` (a card's "discard N of your choice", answered like discard_down, R-ADD-62).
    """

    seat: int
    kind: str
    amount: int = 0
    component: str | None = None
    rule: str = ""
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "amount": self.amount,
            "component": self.component,
            "rule": self.rule,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class PlacedTerrain:
    """Terrain a card made on hex (q, r) (R-ADD-160): `kind` until the end of round
    `until_round`, or until `turns` more of `seat`'s turns have ended; neither: for the
    rest of the battle.

    >>> PlacedTerrain(1, 0, "smoke", 0, "smoke-bomb#1", until_round=2).lasts
    'until the end of round 2'
    """

    q: int
    r: int
    kind: str
    seat: int
    card: str
    until_round: int = 0
    turns: int = 0
    damage: int = 0  # to the maker's enemies entering it (R-ADD-165)
    hp: int = 0  # hit points left, lost to attacks on the hex; 0: none (R-ADD-382)

    @property
    def lasts(self) -> str:
        if self.until_round:
            return f"until the end of round {self.until_round}"
        if self.turns:
            return f"for {self.turns} more turn(s) of seat {self.seat}"
        return "for the rest of the battle"


@dataclass(frozen=True)
class RerollOffer:
    """The attack roll its attacker may still change, one die again (R-ADD-282)."""

    faces: tuple[int, ...]
    keep: str  # the pool's kept dice (R-HIT-6)
    target_number: int
    left: int
    source: str  # the card that offers it

    def as_dict(self) -> dict[str, Any]:
        return {
            "faces": list(self.faces),
            "keep": self.keep,
            "target_number": self.target_number,
            "left": self.left,
            "source": self.source,
        }


@dataclass(frozen=True)
class AttackInProgress:
    """The attack being resolved, from its declaration to its end (R-HIT-*, R-DMG-*, R-REA-*)."""

    attacker: int
    target: int
    card: str
    component: str
    target_number: int
    side: int
    damage_by_grade: tuple[tuple[str, int], ...]
    defence_modifier: int
    reactive_allowed: bool
    shield_allowed: bool
    grade: str | None = None
    damage: int = 0
    reactive: str | None = None
    reduction: int = 0
    final_damage: int | None = None
    pierced: bool = False  # a PIERCE face voided the reactive card (R-DMG-4)
    # Buffs and wards: the attack ignores Defense buffs, a reactive card's too (R-ADD-92)
    defence_buffs_ignored: bool = False
    # Forced movement: the defender's dodge its reactive card declared, made as the attack
    # ends (R-ADD-107).
    reactive_path: tuple[tuple[int, int], ...] = ()
    # Allies: the ally that takes the damage instead, its card and that card's
    # reduction, and the allies that declined to cover (R-ADD-122).
    covered_by: int | None = None
    cover_card: str | None = None
    cover_reduction: int = 0
    cover_declined: tuple[int, ...] = ()
    # Damage the reactive card took off and the attacker takes as the attack ends (R-ADD-125).
    deflected: int = 0
    # The ward in play that negates this attack's damage, as "<seat>:<card>" (R-ADD-128).
    warded_by: str | None = None
    extra_counter: int = 0  # counter-damage the reactive card bought with Taint (R-ADD-130)
    self_damage: int = 0  # the attacker's own card's damage to it, at the end (R-ADD-130)
    # Combinations: the enhancing cards whose hit effects wait for this attack (R-ADD-180).
    enhanced_by: tuple[str, ...] = ()
    # Combinations: one of the card's further attacks (R-ADD-80, R-ADD-187).
    further: bool = False
    # The reactive card prevented Component Damage of this attack, once (R-ADD-281).
    component_prevented: bool = False
    # The roll its attacker may roll a die of again, while the prompt is open (R-ADD-282).
    reroll: RerollOffer | None = None
    # The defence roll waiting for the attacker's forced reroll, or none (R-ADD-412).
    defence_faces: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "target": self.target,
            "card": self.card,
            "component": self.component,
            "target_number": self.target_number,
            "side": self.side,
            "damage_by_grade": dict(self.damage_by_grade),
            "defence_modifier": self.defence_modifier,
            "reactive_allowed": self.reactive_allowed,
            "shield_allowed": self.shield_allowed,
            "grade": self.grade,
            "damage": self.damage,
            "reactive": self.reactive,
            "reduction": self.reduction,
            "final_damage": self.final_damage,
            "pierced": self.pierced,
            "defence_buffs_ignored": self.defence_buffs_ignored,
            **(
                {"reactive_path": [list(h) for h in self.reactive_path]}
                if self.reactive_path
                else {}
            ),
            "covered_by": self.covered_by,
            "cover_card": self.cover_card,
            "cover_reduction": self.cover_reduction,
            "cover_declined": list(self.cover_declined),
            "deflected": self.deflected,
            "warded_by": self.warded_by,
            "extra_counter": self.extra_counter,
            "self_damage": self.self_damage,
            "enhanced_by": list(self.enhanced_by),
            "further": self.further,
            **({"component_prevented": True} if self.component_prevented else {}),
            **({"reroll": self.reroll.as_dict()} if self.reroll is not None else {}),
            **({"defence_faces": list(self.defence_faces)} if self.defence_faces else {}),
        }


@dataclass(frozen=True)
class Enhancement:
    """A card's enhancement waiting for its owner's next attack of the kind `attacks`
    (Buffs and wards; R-ADD-90, R-ADD-91, R-ADD-92)."""

    source: str
    attacks: str  # "any" or "ranged"
    damage: int = 0
    to_hit: int = 0
    ignore_defence: int = 0  # blocks cancelled; "all" is stored as MAX_DAMAGE (R-ADD-60)
    ignore_cover: bool = False
    ignore_range: bool = False
    cannot_miss: bool = False
    ignore_defence_buffs: bool = False
    this_turn: bool = False
    every: bool = False  # every such attack this turn, none spends it (R-ADD-96)
    sp_cost: int = 0  # the attack costs this much more (less: negative) SP (R-ADD-99)
    reach: int = 0  # the attack reaches this many hexes further (R-ADD-90)
    vs_bleeding: bool = False  # its damage only on a target with Bleed (R-ADD-173)
    this_round: bool = False  # it lapses as the round ends (R-ADD-370)


@dataclass(frozen=True)
class Ward(WardTerms):
    """A card's protection of its casket until it lapses or its uses are spent (buffs and
    wards; R-ADD-93, R-ADD-94). `uses` 0: every attack or damage it acts on."""

    source: str
    until: str
    against: str
    defence: int = 0
    to_hit: int = 0
    damage: int = 0
    reduce: int = 0
    cap: int | None = None
    at_least: int = 0
    uses: int = 0
    recover: int = 0
    immobile: bool = False  # no move action while it lasts (R-ADD-93)
    # A form's "−1 movement": SP more per hex moved; "ignore terrain": 1 SP a hex (R-ADD-362)
    move_cost: int = 0
    ignore_terrain: bool = False


@dataclass(frozen=True)
class CasketState:
    """One seat's casket, its cards and its pilot."""

    seat: int
    player: str
    side: str
    name: str
    casket_class: str
    shield: str
    pilot: str
    pilot_sp_modifier: int
    at: Hex
    facing: int
    heat: int = 0
    taint: int = 0  # the pilot's Taint, from the campaign (R-PLT-4, R-ADD-44)
    sp_max: int = 0  # this turn's maximum after chassis, pilot and strain (R-TRN-3/4)
    sp_spent: int = 0
    moved: int = 0  # hexes this turn (R-HIT-2)
    moved_last_turn: int = 0
    free_rotation_used: bool = False  # R-ARC-5
    acted: bool = False  # R-TRN-5: a turn without actions removes 1 Heat
    deck: tuple[str, ...] = ()  # top first
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    in_play: tuple[str, ...] = ()
    # Cards in play lasting "for N turns": (instance, own turn ends still to come, this
    # one included) (R-ADD-375).
    timed: tuple[tuple[str, int], ...] = ()
    # The damage each "first N damage each turn negated" passive took off in this turn,
    # whoever's: (instance, amount) (R-ADD-376).
    turn_negated: tuple[tuple[str, int], ...] = ()
    damage_pile: tuple[str, ...] = ()  # ruleset 2.1: lost to damage, face up, for good (R-DMG-8)
    damage_cards: int = 0
    wound_deck: tuple[str, ...] = ()  # top first
    wounds: tuple[str, ...] = ()  # face up, carried ones first (R-PLT-2)
    component_damage: tuple[int, ...] = (0, 0, 0, 0, 0)  # in COMPONENTS order
    destroyed: tuple[str, ...] = ()
    buff_damage: int = 0  # next attack (BuffNextAttack, suffering die)
    buff_to_hit: int = 0
    buff_ignore_defence: int = 0
    jam_penalty: int = 0  # R-DMG-1: −2 damage to the next attack after a catastrophic failure
    jam_this_turn: bool = False  # the jam came this turn, so the penalty lasts into the next
    damage_this_turn: int = 0  # suffering die ZEALOT'S FURY
    statuses: tuple[str, ...] = ()
    # Named token pools, (pool, count) in the order first gained; no zero counts (R-ADD-61).
    tokens: tuple[tuple[str, int], ...] = ()
    # +Defense from cards until the start of the casket's next turn (R-DMG-3, R-ADD-64).
    defence_bonus: int = 0
    # A move a card granted for later this turn, at no SP, and the card (R-ADD-69).
    free_move: int = 0
    free_move_source: str | None = None
    # Plays of cards with a use limit, as "<period>:<card id>", reset with the period (R-ADD-63).
    limited_plays: tuple[str, ...] = ()
    sp_penalty: int = 0  # SP an enemy's card takes off this casket's next turn (R-ADD-65)
    # Damage an enemy's card scheduled for the start of this casket's next turn (R-ADD-73)
    damage_next_turn: int = 0
    immobilised_by: int | None = None  # the enemy seat that set `immobilised` (R-ADD-43)
    hand_decided: bool = False  # R-TRN-1 mulligan taken or hand kept
    defeated: bool = False
    withdrawn: bool = False  # left the board at the start of its turn, not defeated (R-TRN-9)
    pilot_dead: bool = False
    # Lasting effects: lasting effects an enemy's card put on this casket.
    rooted_turns: int = 0  # own turns still to spend immobilised, this one included (R-ADD-111)
    bleed: int = 0  # Bleed counters: 1 damage and 1 counter off at each turn's start (R-ADD-110)
    # Damage at the start of each of the next turns, the next one first (R-ADD-112)
    ongoing_damage: tuple[int, ...] = ()
    # Damage at the start of each turn until so many cards are discarded: (damage, cards
    # still to discard) for each card's hit (R-ADD-443)
    damage_until_discards: tuple[tuple[int, int], ...] = ()
    move_cost_next_turn: int = 0  # +SP per hex moved in the next turn (R-ADD-113)
    move_cost: int = 0  # ... and in this one
    draw_penalty: int = 0  # cards fewer at the next Draw phase (R-ADD-114)
    # Lasting curses on the casket, as (the seat that laid it, its card id) (R-ADD-421).
    curses: tuple[tuple[int, str], ...] = ()
    # Temporal Loop (R-ADD-422): the card waiting this turn for the next damage to store,
    # and the damage stored, with its card, until the next turn's start releases it.
    loop_armed: str = ""
    loop_stored: int = 0
    loop_source: str = ""
    no_attacks: bool = False  # "cannot attack until next turn" (R-ADD-115)
    # The attack card whose token spend bought effects that wait for its outcome (R-ADD-116)
    armed_spend: str | None = None
    defence_malus: int = 0  # "−N Defense until end of their next turn" (R-ADD-119)
    # Area attacks: damage each enemy within `damage_aura_within` hexes takes as its turn
    # starts, until this casket's next turn (R-ADD-88).
    damage_aura: int = 0
    damage_aura_within: int = 0
    # Buffs and wards: enhancements of the next attack(s) (R-ADD-90) and wards (R-ADD-93).
    enhancements: tuple[Enhancement, ...] = ()
    wards: tuple[Ward, ...] = ()
    # Forced movement: a split grant (R-ADD-109): 0 none or unused, 1 its move before an
    # attack is made (the rest waits for an attack), 2 an attack came (one move left).
    free_move_split: bool = False
    free_move_stage: int = 0
    # Card conditions (R-ADD-144): what card conditions read of the round and the turn.
    damaged_round: int = 0  # the last round in which the casket took damage (0: never)
    defeated_round: int = 0  # the round in which it was defeated (0: not defeated)
    discarded_this_turn: bool = False  # it discarded cards in its own turn, this turn
    kills: tuple[int, ...] = ()  # the seats its attacks defeated, in order
    # The enemy its card marked and that card, until another mark replaces it (R-ADD-148).
    marked: int | None = None
    mark_source: str | None = None
    # Card effects: no attack may target the casket ("all"), or none made with a card that
    # is not Melee ("ranged"), until its next turn; `_until_attack`: or until it attacks
    # (R-ADD-155). "" when it may be targeted.
    untargetable: str = ""
    untargetable_until_attack: bool = False
    # (target seat, damage, source): "your next attack vs that target +N damage" (R-ADD-156)
    bonus_against: tuple[tuple[int, int, str], ...] = ()
    # (target seat, advantage, source): "Advantage on your next attack against that enemy"
    # (R-HIT-6, R-ADD-295)
    advantage_against: tuple[tuple[int, int, str], ...] = ()
    # A defeated casket's wreck was scavenged and removed from play (R-ADD-158).
    wreck_removed: bool = False
    # The card whose looked-at cards await their order (prompt `arrange`, R-ADD-157).
    arranging: str = ""
    # The enemy whose hand the casket last looked at, and the card that looked: a card's
    # "choose 1 card to discard" picks from that hand (prompt `hand_pick`, R-ADD-385).
    looked_at_hand: int = -1
    looked_at_source: str = ""
    skip_next_turn: bool = False  # an ultimatum answered "skip_turn" (R-ADD-159)
    # Allies: the faction the setup names, when it names one; cards that count
    # "allied Emergent units" count only caskets known to be of it (R-ADD-121).
    faction: str | None = None
    # The Vestige casket's primary bloodline the setup names, when it names one: "if all
    # adjacent allies are also Fenmar bloodline" counts only caskets known to be (R-ADD-380).
    bloodline: str | None = None
    # +Defense an ally's card gave, as (until, amount): it lapses when seat `until`'s next
    # turn starts, or with the round when `until` is -1 (R-ADD-123).
    lent_defence: tuple[tuple[int, int], ...] = ()
    # Forms and duels: the form Metamorphic Adaptation gave, held in round `form_round`
    # only: it lapses as that round ends (R-ADD-170).
    form: str = ""
    form_round: int = 0
    # The card whose forms await the choice (prompt `form`, R-ADD-362).
    form_offer: str = ""
    # The card that put the casket in Chrysalis state, until it emerges (R-ADD-366).
    chrysalis: str = ""
    # Forms and duels (R-ADD-174): an Honor Duel. `challenged_by`: a challenge awaiting
    # this casket's answer; `duel_with` the enemy it duels and `duel_challenger` the seat
    # whose next turn ends the duel; `duel_source` the challenger's card (its kill reward).
    challenged_by: int | None = None
    duel_with: int | None = None
    duel_challenger: int | None = None
    duel_source: str | None = None
    # Coward's Mark: Crucible attacks on it deal this much more; `coward_of` who marked it.
    cowards_mark: int = 0
    coward_of: int | None = None
    # No reactive card until the end of this seat's turn ("cannot use defense cards").
    reactives_barred_by: int | None = None
    # Card classes ("defense", "movement") it may not play until its own turn ends (R-ADD-340).
    forbidden_classes: tuple[str, ...] = ()
    # SP more for every card played in its next turn, and in this one (R-ADD-341).
    card_cost_next_turn: int = 0
    card_cost: int = 0
    # Its next turns, the next first: locked (0 SP, no action but passing) or not; and
    # whether this turn is locked (R-ADD-343).
    sp_locks: tuple[bool, ...] = ()
    sp_locked: bool = False
    # The Grit check (ruleset option grit_checks, R-ADD-305): the pilot's campaign Grit
    # and modifier on every check, a bonus on the first check only (R-ADD-237), the checks
    # rolled, and the severe wounds that count as minor this mission.
    grit: int = 0
    grit_modifier: int = 0
    grit_bonus: int = 0
    grit_checks: int = 0
    # "+1 to your next Grit Check this mission" gained in the battle (R-ADD-361)
    grit_next: int = 0
    eased_wounds: tuple[str, ...] = ()
    # R-ADD-411: the passives whose once-a-battle Grit reroll is used, and the Grit the
    # pilot gained for the campaign ("gain +1 Grit permanently")
    grit_rerolled: tuple[str, ...] = ()
    grit_gained: int = 0

    @property
    def card_defence(self) -> int:
        """Automatic blocks from cards against every attack on the casket (R-ADD-64, R-ADD-123)."""
        return self.defence_bonus + sum(n for _, n in self.lent_defence)

    @property
    def ward_move_cost(self) -> int:
        """SP more per hex moved while a form's "−1 movement" lasts (R-ADD-362)."""
        return sum(w.move_cost for w in self.wards)

    @property
    def ignores_terrain(self) -> bool:
        """A form's "ignore terrain": its moves pay 1 SP a hex whatever the terrain (R-ADD-362)."""
        return any(w.ignore_terrain for w in self.wards)

    # Triggers. Thorns: damage every attacker (`thorns`), every melee attacker
    # (`thorns_melee`) takes after its attack until the casket's next turn, and the next
    # attacker only (`thorns_once`) (R-ADD-130).
    thorns: int = 0
    thorns_melee: int = 0
    thorns_once: int = 0
    # +damage on every attack for the rest of the battle, stacked (R-ADD-131).
    lasting_damage: int = 0
    attacked: bool = False  # declared an attack this turn (R-ADD-134)
    sp_gained: int = 0  # "gain N SP" this turn: more SP, not a higher maximum (R-ADD-135)
    # The part of the next-attack buffs that lapses unspent when the turn ends (R-ADD-139).
    turn_buff_damage: int = 0
    turn_buff_to_hit: int = 0
    turn_buff_ignore: int = 0
    destroyed_enemy: bool = False  # its attack destroyed an enemy casket this turn (R-ADD-131)
    # Passives in play whose next-attack bonus, not stacking, is held unspent (R-ADD-139).
    held_bonuses: tuple[str, ...] = ()

    @property
    def sp_left(self) -> int:
        """SP still free of charge this turn; below 0 while overspending (R-TRN-3); SP a
        card gained count as free SP (R-ADD-135)."""
        return self.sp_max + self.sp_gained - self.sp_spent

    @property
    def overspend_room(self) -> int:
        """SP still spendable this turn, overspend included: up to twice the maximum (R-TRN-3)."""
        return max(0, self.sp_limit - self.sp_spent)

    @property
    def sp_limit(self) -> int:
        """The most SP the turn may spend: twice the maximum (R-TRN-3), plus SP gained from
        cards, which are not doubled (R-ADD-135)."""
        return 2 * self.sp_max + self.sp_gained

    def overspend_cards(self, cost: int) -> int:
        """Cards a cost of `cost` SP takes now: one per SP beyond the maximum (R-TRN-3)."""
        free = self.sp_max + self.sp_gained
        return max(0, self.sp_spent + cost - free) - max(0, self.sp_spent - free)

    @property
    def in_battle(self) -> bool:
        """Still taking part: neither defeated nor withdrawn (R-TRN-8, R-TRN-9)."""
        return not (self.defeated or self.withdrawn)

    @property
    def hp(self) -> int:
        """Cards in deck and discard pile: the casket's HP (R-DMG-9, R-TRN-9 round_limit)."""
        return len(self.deck) + len(self.discard)

    def tokens_of(self, pool: str) -> int:
        """Tokens of one pool the casket holds (R-ADD-61).

        >>> CasketState(0, "p", "a", "c", "scout", "left", "x", 0, Hex(0, 0), 1,
        ...             tokens=(("forge", 2),)).tokens_of("forge")
        2
        """
        return dict(self.tokens).get(pool, 0)

    def holds_required_spends(self, card: CardDef) -> bool:
        """The tokens of every spend `card` does nothing without (R-ADD-61), "all" needing
        1: a window offers Price Paid only to a holder of Bargain tokens ("If you have 0
        tokens, you die normally", R-ADD-420)."""
        return all(
            self.tokens_of(e.pool) >= (1 if e.n == "all" else e.n)
            for e in card.effects
            if isinstance(e, SpendTokensEffect) and e.required
        )

    def damage_of(self, component: str) -> int:
        return self.component_damage[COMPONENTS.index(component)]

    @property
    def total_component_damage(self) -> int:
        return sum(self.component_damage)

    def zones(self) -> dict[str, tuple[str, ...]]:
        return {
            "deck": self.deck,
            "hand": self.hand,
            "discard": self.discard,
            "damage_pile": self.damage_pile,
            "in_play": self.in_play,
            "removed": self.removed,
        }


@dataclass(frozen=True)
class FollowUp:
    """An attack a card still owes after the one being resolved (R-ADD-80, R-ADD-81): by
    `attacker` with the card instance `card` at `target`, reaching `range` for `damage`;
    `after_kill` names the seat whose defeat it waits for (R-ADD-80), or None."""

    attacker: int
    card: str
    target: int
    range: str
    damage: int
    component: str | None = None
    after_kill: int | None = None
    ignore_defence: bool = False  # "Armor-Piercing": every block cancelled (R-ADD-60)

    def as_dict(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "card": self.card,
            "target": self.target,
            "range": self.range,
            "damage": self.damage,
            "component": self.component,
            "after_kill": self.after_kill,
            "ignore_defence": self.ignore_defence,
        }


@dataclass(frozen=True)
class Unit:
    """A unit a card summoned (R-ADD-400): its own HP as a counter, not a deck; it acts
    in its owner's turns, one move of up to `movement` hexes and one melee attack of
    `damage` each (R-ADD-401), and it is gone at 0 HP or when the battle ends (R-ADD-402).

    >>> Unit("u1", 0, "Mercenary", 1, 0, 8, 3, 3).at
    Hex(q=1, r=0)
    """

    id: str
    owner: int
    name: str
    q: int
    r: int
    hp: int
    movement: int
    damage: int
    defence: int = 0
    source: str = ""  # the card instance that summoned it
    moved: bool = False  # its move of this turn made
    attacked: bool = False  # its attack of this turn made
    # A card's "+2 damage and +2 Defense until end of round" on it, to the end of round
    # `bonus_until_round` (R-ADD-408).
    bonus_damage: int = 0
    bonus_defence: int = 0
    bonus_until_round: int = 0

    @property
    def at(self) -> Hex:
        return Hex(self.q, self.r)

    @property
    def attack_damage(self) -> int:
        """Its melee damage with a card's bonus (R-ADD-401, R-ADD-408)."""
        return self.damage + self.bonus_damage

    @property
    def total_defence(self) -> int:
        """Its Defense with a card's bonus (R-ADD-404, R-ADD-408)."""
        return self.defence + self.bonus_defence


@dataclass(frozen=True)
class BattleState:
    """A whole battle at one version (the number of events folded into it)."""

    battle_id: str
    ruleset: Ruleset
    board: Board
    dice_mode: str  # "digital" or "table"
    seed: int | None
    policy: str  # "prompt" or "auto"
    cards: Mapping[str, CardDef]
    seats: tuple[CasketState, ...]
    setup: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    phase: str = SETUP
    round: int = 0
    order: tuple[int, ...] = ()
    turn: int = 0  # index into `order`
    prompts: tuple[Prompt, ...] = ()
    attack: AttackInProgress | None = None
    winner: str | None = None
    result: str | None = None  # why the battle ended
    # The dice secret is in the log (DiceSecretRevealed): the dice are public (R-ADD-45).
    dice_revealed: bool = False
    # Thornvine seeds on the board as (q, r, count), no zero counts (R-ADD-66).
    seeds: tuple[tuple[int, int, int], ...] = ()
    # Allies: zones until the round ends, as (owner seat, card instance, q, r)
    # of the hex they are centred on (R-ADD-129).
    zones: tuple[tuple[int, str, int, int], ...] = ()
    version: int = 0
    # Area attacks: the attacks the card being played still makes, in order (R-ADD-80).
    follow_ups: tuple[FollowUp, ...] = ()
    # Terrain made in battle: the terrain cards made, oldest first (R-ADD-160). `board` is the
    # setup's board with them applied (so every reader of terrain sees them);
    # `setup_board` keeps the setup's own while any are placed.
    placed_terrain: tuple[PlacedTerrain, ...] = ()
    setup_board: Board | None = field(default=None, repr=False, compare=False)
    # Summoned units on the board, oldest first, and how many were ever summoned (their ids
    # are "u1", "u2", ...: an id is never reused) (R-ADD-400).
    units: tuple[Unit, ...] = ()
    units_summoned: int = 0

    @property
    def active(self) -> int | None:
        """The seat whose turn it is, or None outside the rounds."""
        if self.phase in (ACTION, END) and self.turn < len(self.order):
            return self.order[self.turn]
        return None

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def dice_commitment(self) -> str | None:
        """The SHA-256 of the battle's dice secret, when its dice are sealed (R-ADD-45)."""
        commitment = self.setup.get("dice", {}).get("commitment") if self.setup else None
        return commitment if isinstance(commitment, str) else None

    def ally_hexes(self, c: CasketState) -> list[Hex]:
        """Where the undefeated allies of `c` and their side's units stand: passable, not a
        place to stop (R-MOV-2, R-ADD-403)."""
        return [
            *(x.at for x in self.seats if x.side == c.side and x.seat != c.seat and x.in_battle),
            *(u.at for u in self.units if self.seats[u.owner].side == c.side),
        ]

    def blocking_hexes(self, c: CasketState) -> list[Hex]:
        """Where the enemies of `c` stand, caskets and units: a move never enters them
        (R-MOV-2, R-ADD-403)."""
        return [
            *self.enemy_hexes(c),
            *(u.at for u in self.units if self.seats[u.owner].side != c.side),
        ]

    def unit_hexes(self) -> list[Hex]:
        """Where the summoned units stand: no casket ends a move, push or teleport there
        (R-ADD-403)."""
        return [u.at for u in self.units]

    def unit(self, unit_id: str) -> Unit | None:
        """The unit on the board with this id, if any (R-ADD-400)."""
        return next((u for u in self.units if u.id == unit_id), None)

    def unit_at(self, h: Hex) -> Unit | None:
        """The unit standing on hex `h`, if any (R-ADD-400)."""
        return next((u for u in self.units if (u.q, u.r) == (h.q, h.r)), None)

    def enemy_hexes(self, c: CasketState) -> list[Hex]:
        """Where the undefeated enemies of `c` stand: never passable (R-MOV-2)."""
        return [x.at for x in self.seats if x.side != c.side and x.in_battle]

    def seat(self, n: int) -> CasketState:
        return self.seats[n]

    def placed_at(self, h: Hex) -> PlacedTerrain | None:
        """The card-made terrain on hex `h`, the latest on top (R-ADD-160), if any."""
        return next((p for p in reversed(self.placed_terrain) if (p.q, p.r) == (h.q, h.r)), None)

    def barred_for(self, c: CasketState) -> list[Hex]:
        """R-ADD-163: the sanctuary hexes `c` may not enter (an enemy's), but the one it is in."""
        return [
            Hex(p.q, p.r)
            for p in self.placed_terrain
            if p.kind == "sanctuary"
            and self.seats[p.seat].side != c.side
            and self.placed_at(Hex(p.q, p.r)) is p
            and Hex(p.q, p.r) != c.at
        ]

    def ground_of(self, c: CasketState) -> tuple[str, str] | None:
        """R-ADD-163: the side-bound terrain `c` stands in, as (kind, "ally" or "enemy") of
        its maker; the maker's own casket is neither (R-ADD-74: allies are the others)."""
        p = self.placed_at(c.at)
        if p is None or p.kind not in ("holy", "distortion", "sanctuary") or p.seat == c.seat:
            return None
        return p.kind, "ally" if self.seats[p.seat].side == c.side else "enemy"

    def loop_targets(self, seat: int) -> list[int]:
        """R-ADD-422: the enemies in the battle within reach of the casket's stored damage."""
        c = self.seats[seat]
        if not c.loop_stored:
            return []
        effects = self.cards[c.loop_source].effects
        within = next((e.within for e in effects if isinstance(e, TemporalLoopEffect)), 0)
        return [
            x.seat
            for x in self.seats
            if x.side != c.side and x.in_battle and x.at.distance(c.at) <= within
        ]

    def curse(self, source: str) -> LastingCurseEffect | None:
        """The lasting curse card `source` lays (R-ADD-421), at its top or after its attack."""

        def nested(effects: tuple[Effect, ...]) -> Iterator[Effect]:
            for e in effects:
                yield e
                yield from nested(getattr(e, "then", ()))

        found = [e for e in nested(self.cards[source].effects) if isinstance(e, LastingCurseEffect)]
        return found[0] if found else None

    def card(self, instance: str) -> CardDef:
        cid = card_id(instance)
        # R-TRN-6: Damage cards come from reshuffles, never from the setup's card list.
        return DAMAGE_CARD if cid == DAMAGE_CARD.id else self.cards[cid]
