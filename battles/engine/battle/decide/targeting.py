"""What an attack is judged by before it is made: reach, auras and enhancements that apply,
the to-hit answer (R-HIT-1), wards in it (R-ADD-93), the facing it reads (R-ADD-136), and who
may attack whom in an Honor Duel (R-ADD-174)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ...arcs import candidate_sides
from ...cards import (
    SCHOOL_NOTE,
    SPELL_SCHOOLS,
    AdvantageEffect,
    AreaAttackEffect,
    AttackEffect,
    CardDef,
    Effect,
    EnhanceNextAttackEffect,
    UnflankableEffect,
)
from ...dice import (
    odds,
)
from ...errors import RuleViolation
from ...hexes import Hex
from ...tohit import (
    ATTACKER_STATUSES,
    MAX_REACHABLE_TARGET,
    TARGET_STATUSES,
    Attacker,
    Modifier,
    Target,
    ToHit,
    Weapon,
    WeaponRange,
    to_hit,
)
from ..state import (
    BattleState,
    CasketState,
    Ward,
)


def _ranged(card: CardDef) -> bool:
    """R-ADD-90: a ranged attack is one made with a card whose range is not Melee, the test
    of R-ARC-3's firing arc."""
    return card.attack is not None and not card.attack.range.melee


def card_cost(state: BattleState, seat: int, card: CardDef) -> int:
    """The SP `card` costs `seat` now: its printed cost, and what an enemy's card added to
    every card of this turn (R-ADD-341)."""
    return card.sp_cost + state.seats[seat].card_cost


def attack_cost(state: BattleState, seat: int, card: CardDef) -> int:
    """The SP an attack with `card` costs `seat` now: its cost (`card_cost`), less what the
    enhancements it would spend take off, never below 0 (R-ADD-99)."""
    waiting = state.seats[seat].enhancements
    reduced = sum(x.sp_cost for x in waiting if _enhances(x.attacks, card))
    return max(0, card_cost(state, seat, card) + reduced)


def _extra_reach(c: CasketState, card: CardDef) -> int:
    """R-ADD-90: the waiting enhancements' "+N range" for an attack with `card`."""
    return sum(x.reach for x in c.enhancements if _enhances(x.attacks, card))


def _reach(
    c: CasketState, card: CardDef, printed: WeaponRange, more: int | None = None
) -> WeaponRange:
    """R-ADD-90: the card's range, reaching `more` hexes further (the waiting enhancements')."""
    if more is None:
        more = _extra_reach(c, card)
    if not more:
        return printed
    return WeaponRange(f"{printed.low}-{printed.high + more}", printed.low, printed.high + more)


def _enhances(attacks: str, card: CardDef) -> bool:
    """Whether an enhancement for `attacks` ("any", "ranged", "melee", or a spell school,
    R-ADD-292) is for this attack."""
    if attacks in SPELL_SCHOOLS:
        return SCHOOL_NOTE + attacks in card.keywords
    return attacks == "any" or (attacks == "ranged") == _ranged(card)


def _carried(state: BattleState, source: str) -> tuple[Effect, ...]:
    """R-ADD-180: what the enhancing card `source` adds to the attack that spends it."""
    card = state.cards.get(source)
    if card is None:
        return ()
    return tuple(
        inner for e in card.effects if isinstance(e, EnhanceNextAttackEffect) for inner in e.then
    )


def _is_aura(card: CardDef) -> bool:
    return any(isinstance(e, AreaAttackEffect) and e.aura for e in card.effects)


def _aura(card: CardDef, answer: ToHit) -> ToHit:
    """R-RNG-3, R-ADD-85: an aura card's attacks ignore line of sight and the firing arc;
    every other refusal (range, R-HIT-3) stands."""
    if not _is_aura(card) or answer.possible or answer.refusal is None:
        return answer
    if answer.refusal.code not in ("out_of_arc", "no_line_of_sight"):
        return answer
    n = answer.target_number
    assert n is not None
    if n > MAX_REACHABLE_TARGET:
        refusal = RuleViolation(
            "impossible_target",
            f"Target number {n}+ cannot be reached: two DEATH BLOWs total 10",
            "R-HIT-3",
        )
        return replace(answer, refusal=refusal)
    return replace(answer, possible=True, refusal=None, odds=odds(n, answer.dice))


def _attack_lines(c: CasketState) -> tuple[list[Modifier], list[Modifier]]:
    """The casket's standing bonuses and penalties to its attack's to-hit and damage, each
    line where its value is not 0."""
    to_hit = [Modifier("card_buff", c.buff_to_hit, "Next-attack card bonus", "R-HIT-1")]
    damage = [
        Modifier("card_buff", c.buff_damage, "Next-attack card bonus", "R-DMG-1"),
        Modifier("this_turn", c.damage_this_turn, "Damage bonus this turn", "R-DMG-1"),
        Modifier("weapon_jammed", c.jam_penalty, "Catastrophic failure: next attack", "R-DMG-1"),
        Modifier("lasting", c.lasting_damage, "Lasting card bonus (stacks)", "R-ADD-131"),
    ]
    return [m for m in to_hit if m.value], [m for m in damage if m.value]


def attack_answer(
    state: BattleState,
    seat: int,
    card: CardDef,
    target: int,
    effect: AttackEffect | None = None,
    *,
    reach: int | None = None,
) -> ToHit:
    """The rules engine's to-hit answer for `seat` attacking `target` with `card` (R-HIT-1);
    `effect` is one of the card's further attacks (R-ADD-80), else its first. An aura
    card's attacks are not refused for line of sight or arc (R-ADD-85). `reach`: the hexes
    the card reaches further, by default those of the enhancements still waiting (an
    attack that has spent them gives its own, R-ADD-90)."""
    a = state.seats[seat]
    d = state.seats[target]
    effect = effect if effect is not None else card.attack
    assert effect is not None
    others = [c.at for c in state.seats if c.seat not in (seat, target) and c.in_battle]
    enemies = state.enemy_hexes(a)
    to_hit_lines, damage_lines = _attack_lines(a)
    if state.ground_of(a) == ("distortion", "enemy"):  # distortion (R-ADD-163)
        to_hit_lines.append(Modifier("distortion", 1, "Attacking from distortion", "R-ADD-163"))
    ward_to_hit, ward_damage = _ward_lines(d, card)
    to_hit_lines += ward_to_hit
    damage_lines += ward_damage
    answer = to_hit(
        state.board,
        Attacker(
            a.at,
            a.facing,
            a.moved,
            a.heat,
            frozenset(a.destroyed),
            frozenset(a.statuses) & set(ATTACKER_STATUSES),
        ),
        Target(
            d.at,
            _facing_for(state, d, a.at),
            d.shield,
            d.moved_last_turn,
            frozenset(d.statuses) & set(TARGET_STATUSES),
        ),
        Weapon(_reach(a, card, effect.range, reach), effect.damage, card.name),
        others=others,
        enemies=enemies,
        rules=state.ruleset,
        extra_to_hit=to_hit_lines,
        extra_damage=damage_lines,
        # R-ADD-176: "roll with Advantage" is the card's own attack's, not its further ones';
        # R-ADD-295: so is one kept for this target, which its declaration spends.
        advantage=sum(e.n for e in card.effects if isinstance(e, AdvantageEffect))
        + sum(n for t, n, _ in a.advantage_against if t == target)
        if effect is card.attack
        else 0,
    )
    return _aura(card, answer)


def _ward_matches(w: Ward, card: CardDef | None) -> bool:
    """R-ADD-93: whether a ward acts on an attack made with `card` (None: damage without an
    attack, which only a ward against "all" damage reduces)."""
    if w.against == "all":
        return True
    if card is None:
        return False
    if w.against == "ranged":
        return _ranged(card)
    if w.against == "melee":
        return not _ranged(card)
    return True


def _ward_lines(d: CasketState, card: CardDef) -> tuple[list[Modifier], list[Modifier]]:
    """R-ADD-93: the target's wards in an attacker's to-hit answer."""
    to_hit_lines: list[Modifier] = []
    damage_lines: list[Modifier] = []
    for w in d.wards:
        if _ward_matches(w, card):
            label = f"Target's ward: {w.source}"
            if w.to_hit:
                to_hit_lines.append(Modifier("ward", w.to_hit, label, "R-ADD-93"))
            if w.damage:
                damage_lines.append(Modifier("ward", w.damage, label, "R-ADD-93"))
    return to_hit_lines, damage_lines


def _facing_for(state: BattleState, d: CasketState, attacker_at: Hex) -> int:
    """The facing an attack on `d` is judged by: its own, or, with a card in play that says
    it cannot be flanked, one that puts the attacker in its front (R-ADD-136). On a sector
    boundary the other candidate side is the one that gives the defender no bonus either:
    its weapon side (R-ARC-1, R-ARC-2)."""
    if d.at == attacker_at or not any(
        isinstance(e, UnflankableEffect) for x in d.in_play for e in state.card(x).effects
    ):
        return d.facing
    # With facing 1 the candidate sides are the absolute directions themselves (R-ARC-1).
    directions = candidate_sides(d.at, 1, attacker_at)
    if len(directions) == 1:
        return directions[0]
    low, high = directions  # two neighbouring directions, sorted: (d, d+1) or (1, 6)
    first, second = (high, low) if (low, high) == (1, 6) else (low, high)
    # Facing `first` makes the sides (1, 2), facing `second` (6, 1); side 2 is the weapon
    # side of a left shield, side 6 that of a right shield (R-ARC-2).
    return second if d.shield == "right" else first


def _duel_refusal(c: CasketState, d: CasketState, seats: Sequence[CasketState]) -> str | None:
    """R-ADD-174: why `c` may not attack `d` while an Honor Duel holds (None: it may). A
    duel whose other casket has left the battle no longer binds."""
    if c.duel_with is not None and seats[c.duel_with].in_battle and c.duel_with != d.seat:
        return f"seat {c.seat} is in an Honor Duel: it may attack only seat {c.duel_with}"
    if d.duel_with is not None and seats[d.duel_with].in_battle and d.duel_with != c.seat:
        return f"seat {d.seat} is in an Honor Duel: only seat {d.duel_with} may attack it"
    return None


def _coward_bonus(c: CasketState, d: CasketState) -> int:
    """R-ADD-174: Coward's Mark, "all Crucible attacks against them deal +2": an attack by
    a casket whose setup names the Crucible (R-ADD-121) or by the challenger who marked it."""
    if d.cowards_mark and (c.faction == "crucible" or c.seat == d.coward_of):
        return d.cowards_mark
    return 0
