"""The replay written for people: each event as a sentence of parts, a log grouped by round
and turn, the scrub bar's key moments and the per-casket series the charts draw.

Presentation only: every number here was decided by the engine and stored in an event
(to-hit lines, dice, odds) or is read off the engine's state (HP, Heat, component damage).
Payloads come through `public_payload` first, so a viewer's log never names a card they may
not see (R-ADD-28). No Django: the pages module feeds it recorded events.

A sentence is a tuple of parts: ("text", s), ("card", instance, name, cost, text),
("die", face, label),
("rule", ruling id), ("hex", "q,r"). `plain` joins them for tests and text alternatives.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from battles.engine.battle import BattleState, evolve, public_payload
from battles.engine.battle.state import card_id
from battles.engine.cards import SP_ALL, CardDef
from battles.engine.dice import ATTACK_FACES, GRADES, DicePool, grade_distribution
from battles.engine.hexes import DIRECTION_NAMES

Part = tuple[Any, ...]
Sentence = tuple[Part, ...]

# Scrub-bar markers: kind -> (symbol, label). Each has a symbol and a word, not only a colour.
MARKERS: Mapping[str, tuple[str, str]] = {
    "round": ("R", "round starts"),
    "attack": ("⚔", "attacks"),
    "hit": ("✸", "hits"),
    "destroyed": ("⚙", "destroyed components"),
    "wound": ("✚", "wounds"),
    "defeat": ("☠", "defeats"),
}
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
        parts.append(t(f"{hidden} hidden card{'s' if hidden != 1 else ''}"))
    if not instances:
        parts.append(t("no cards"))
    return parts


def _rule(rule: str | None) -> list[Part]:
    return [t(" ("), ("rule", rule), t(")")] if rule else []


def _reason_rule(reason: str | None, rule: str | None) -> list[Part]:
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


def describe(type_: str, p: Mapping[str, Any], names: Names) -> Sentence:
    """One event as a sentence; `p` is the payload as the viewer may see it.

    >>> from battles.engine.cards import CardDef
    >>> n = Names({0: "Penitent Scout", 1: "Bastion Heavy"}, {0: "Ophelia"}, {})
    >>> plain(describe("CasketRotated", {"seat": 1, "facing": 2, "cost": 0, "free_used": True}, n))
    'Bastion Heavy turns to face NE (free turn, R-ARC-5)'
    >>> plain(describe("CardsDrawn", {"seat": 0, "cards": [None, None], "reason": "refresh",
    ...                               "rule": "R-TRN-6"}, n))
    'Penitent Scout draws 2 hidden cards (refresh, R-TRN-6)'
    """
    seat = p.get("seat")
    who = names.casket(seat)
    match type_:
        case "BattleCreated":
            setup = p.get("setup", {})
            board = setup.get("board", {}).get("name") or "an unnamed board"
            version = setup.get("rules", {}).get("version", "?")
            dice = setup.get("dice", {}).get("mode", "digital")
            n = len(setup.get("seats", []))
            return (
                t(f"The battle is set up on {board}: {n} caskets, ruleset {version}, {dice} dice"),
            )
        case "DeckShuffled":
            n = p["cards"] if p.get("order") is None else len(p["order"])
            return (t(f"{who}'s deck of {n} cards is shuffled ({p.get('reason', '')})"),)
        case "WoundDeckShuffled":
            up = p.get("face_up") or []
            carried = f", carried face up: {', '.join(up)}" if up else ""
            return (t(f"{names.pilot(seat)}'s wound deck is shuffled{carried}"), *_rule("R-PLT-1"))
        case "CardsDrawn":
            cards = p["cards"]
            if cards and all(c is None for c in cards):
                return (
                    t(f"{who} draws {len(cards)} hidden card{'s' * (len(cards) != 1)}"),
                    *_reason_rule(p.get("reason"), p.get("rule")),
                )
            return (
                t(f"{who} draws "),
                *_cards(cards, names),
                *_reason_rule(p.get("reason"), p.get("rule")),
            )
        case "HandKept":
            return (t(f"{who} keeps the opening hand"), *_rule("R-TRN-1"))
        case "MulliganTaken":
            return (
                t(f"{who} takes a mulligan: {len(p['returned'])} cards back into the deck"),
                *_rule("R-TRN-1"),
            )
        case "RoundStarted":
            return (t(f"Round {p['round']} begins"),)
        case "InitiativeRolled":
            parts: list[Part] = [t("Initiative: ")]
            for i, throw in enumerate(p["throws"]):
                if i:
                    parts.append(t("; tie, again: "))
                for j, (s, face) in enumerate(throw):
                    parts += [t(("" if j == 0 else ", ") + f"{names.casket(s)} "), *_d6([face])]
            order = ", ".join(names.casket(s) for s in p["order"])
            return (*parts, t(f" → order: {order}"), *_rule("R-TRN-2"))
        case "TurnStarted":
            return (t(f"{who}'s turn"),)
        case "SpRestored":
            lines = ", ".join(
                f"{label} {_signed(v) if i else v}" for i, (label, v, _) in enumerate(p["lines"])
            )
            return (t(f"{who} has {p['sp_max']} SP ({lines})"), *_rule("R-TRN-3"))
        case "StrainChecked":
            if p.get("roll") is None:
                return (
                    t(f"{who} checks strain at {p['heat']} Heat: no roll needed"),
                    *_rule("R-TRN-4"),
                )
            outcome = str(p.get("outcome", "")).replace("_", " ")
            return (
                t(f"{who} checks strain at {p['heat']} Heat: rolled "),
                *_d6([p["roll"]]),
                t(f" + {p['heat']} = {p['total']}: {outcome}"),
                *_rule("R-TRN-4"),
            )
        case "SpDrained":
            return (t(f"{who} loses {p['amount']} SP"), *_rule(p.get("rule")))
        case "TurnEnded":
            return (t(f"{who} ends the turn"),)
        case "RoundEnded":
            return (t(f"Round {p['round']} ends"),)
        case "BattleWon":
            won = f"The {p['side']} win" if p.get("side") else "A draw"
            return (t(f"{won}: {p['reason']}"), *_rule(p.get("rule")))
        case "CasketMoved":
            path = p["path"]
            by = [t(" with "), names.card(p["by_card"])] if p.get("by_card") else []
            return (
                # The path leaves out the start hex (R-MOV-3): its length is hexes moved.
                t(f"{who} moves {len(path)} hex{'es' * (len(path) != 1)} to "),
                _hex(path[-1]),
                t(f" for {p['cost']} SP"),
                *by,
            )
        case "CasketRotated":
            free = "free turn" if p.get("free_used") else f"{p['cost']} SP"
            facing = DIRECTION_NAMES.get(p["facing"], str(p["facing"]))
            return (t(f"{who} turns to face {facing} ({free}, "), ("rule", "R-ARC-5"), t(")"))
        case "HeatVented":
            return (t(f"{who} vents {p['removed']} Heat for {p['cost']} SP"),)
        case "CardPlayed":
            manual = " — refereed by hand" if p.get("manual") else ""
            return (t(f"{who} plays "), names.card(p["card"]), t(f" ({p['cost']} SP){manual}"))
        case "CardResolved":
            return (names.card(p["card"]), t(f" goes to {who}'s discard pile"))
        case "OverspendPaid":
            lost = [*p.get("from_hand", []), *p.get("from_deck", [])]
            return (
                t(f"{who} overspends {p['sp']} SP, paying with "),
                *_cards(lost, names),
                *_rule("R-TRN-3"),
            )
        case "HeatChanged":
            verb = "gains" if p["amount"] >= 0 else "loses"
            return (
                t(f"{who} {verb} {abs(p['amount'])} Heat, now {p['heat']}"),
                *_reason_rule(p.get("reason"), p.get("rule")),
            )
        case "CardsDiscarded":
            lost = [*p.get("from_hand", []), *p.get("from_deck", [])]
            return (
                t(f"{who} discards "),
                *_cards(lost, names),
                *_reason_rule(p.get("reason"), p.get("rule")),
            )
        case "CardsRecovered":
            return (
                t(f"{who} takes back "),
                *_cards(p["cards"], names),
                t(f" ({p.get('reason', '')})"),
            )
        case "DeckReshuffled":
            n = p["cards"] if p.get("order") is None else len(p["order"])
            return (
                t(f"{who}'s discard pile becomes a deck of {n} cards with a Damage card"),
                *_rule("R-TRN-6"),
            )
        case "BuffGained":
            gains = [
                f"{k.replace('_', ' ')} {_signed(p[k])}"
                for k in ("damage", "to_hit", "ignore_defence", "damage_this_turn")
                if p.get(k)
            ]
            return (t(f"{who} gains {', '.join(gains) or 'nothing'} ({p.get('source', '')})"),)
        case "StatusApplied":
            return (t(f"{who} is {p['status']} ({p.get('source', '')})"),)
        case "TokensChanged":
            pool = p["pool"].replace("_", " ")
            verb = "gains" if p["amount"] >= 0 else "spends"
            return (
                t(f"{who} {verb} {abs(p['amount'])} {pool} token(s), now {p['total']}"),
                *_reason_rule(p.get("source"), "R-ADD-61"),
            )
        case "TaintChanged":
            verb = "gains" if p["amount"] >= 0 else "loses"
            return (
                t(f"{who} {verb} {abs(p['amount'])} Taint, now {p['taint']}"),
                *_reason_rule(p.get("source"), "R-ADD-66"),
            )
        case "DefenceRaised":
            return (
                t(f"{who} gains +{p['amount']} Defense until its next turn"),
                *_reason_rule(p.get("source"), "R-ADD-64"),
            )
        case "ZoneCreated":
            return (
                t(f"{who}'s "),
                names.card(p["card"]),
                t(" makes a zone around "),
                _hex(p["at"]),
                t(" until the end of the round"),
                *_rule("R-ADD-129"),
            )
        case "DuelChallenged":
            return (
                t(f"{who} challenges {names.casket(p['target'])} to an Honor Duel"),
                *_reason_rule(p.get("source"), "R-ADD-174"),
            )
        case "DuelAnswered":
            if p["accepted"]:
                what = f"accepts {names.casket(p['challenger'])}'s Honor Duel"
            else:
                what = (
                    f"refuses {names.casket(p['challenger'])}'s Honor Duel and bears Coward's "
                    f"Mark (+{p['mark_damage']} damage from Crucible attacks)"
                )
            return (t(f"{who} {what}"), *_rule("R-ADD-174"))
        case "ReactivesBarred":
            return (
                t(f"{who} cannot play reactive cards this turn"),
                *_reason_rule(p.get("source"), "R-ADD-174"),
            )
        case "FormTaken":
            return (
                t(f"{who} takes {p['form'].capitalize()} Form until the end of the round"),
                *_reason_rule(p.get("source"), "R-ADD-170"),
            )
        case "TerrainEntered":  # terrain
            return (
                t(f"{who} enters "),
                t(f"{names.casket(p['maker'])}'s {str(p['kind']).replace('_', ' ')} at "),
                _hex(p["at"]),
                t(" ("),
                names.card(p["card"]),
                t(f"): {p['damage']} damage"),
                *_rule("R-ADD-165"),
            )
        case "TerrainCreated":  # terrain
            if p.get("until_round"):
                lasts = f" until the end of round {p['until_round']}"
            elif p.get("turns"):
                lasts = f" for {p['turns']} of its turns"
            else:
                lasts = " for the rest of the battle"
            hexes: list[Part] = []
            for i, at in enumerate(p["hexes"]):
                hexes += [t(", ")] if i else []
                hexes.append(_hex(at))
            return (
                t(f"{who}'s "),
                names.card(p["card"]),
                t(f" makes {str(p['kind']).replace('_', ' ')} terrain at "),
                *hexes,
                t(lasts),
                *_rule("R-ADD-161"),
            )
        case "AttackWarded":
            return (
                t(f"{who}'s "),
                names.card(p["card"]),
                t(f" negates the damage of this attack on {names.casket(p['target'])}"),
                *_rule("R-ADD-128"),
            )
        case "AllyMoved":
            return (
                t(f"{who} is moved {len(p['path'])} hex(es) to "),
                _hex(p["path"][-1]),
                t(f" by {names.casket(p['by'])}'s card"),
                *_reason_rule(p.get("source"), "R-ADD-126"),
            )
        case "DamageDeflected":
            return (
                t(f"{who} deflects {p['amount']} damage back to {names.casket(p['attacker'])}"),
                *_rule("R-ADD-125"),
            )
        case "DamageCardsRemoved":
            return (
                t(f"{who} removes "),
                *_cards(p["cards"], names),
                t(" from its discard pile, out of the game"),
                *_reason_rule(p.get("source"), "R-ADD-124"),
            )
        case "DefenceLent":
            until = (
                "the end of the round"
                if p["until"] == -1
                else f"{names.casket(p['until'])}'s next turn"
            )
            return (
                t(f"{who} gains +{p['amount']} Defense until {until}"),
                *_reason_rule(p.get("source"), "R-ADD-123"),
            )
        case "ThornsRaised":  # triggers
            whom = "the next attacker" if p["until"] == "next_attack" else "each attacker"
            if p.get("melee_only"):
                whom = "each melee attacker"
            until = "" if p["until"] == "next_attack" else " until its next turn"
            return (
                t(f"{who}: {whom} takes {p['damage']} damage after the attack{until}"),
                *_reason_rule(p.get("source"), "R-ADD-130"),
            )
        case "LastingBonusGained":
            return (
                t(
                    f"{who} deals +{p['damage']} damage with every attack for the rest of the "
                    f"battle, +{p['total']} in all"
                ),
                *_reason_rule(p.get("source"), "R-ADD-131"),
            )
        case "SpBoosted":
            what = "SP maximum" if p.get("maximum") else "SP"
            return (
                t(f"{who} gains {p['amount']} {what} this turn"),
                *_reason_rule(p.get("source"), "R-ADD-135"),
            )
        case "TurnBuffGained":
            parts = [f"{_signed(p['damage'])} damage"] if p["damage"] else []
            if p["to_hit"]:
                parts.append(f"{_signed(p['to_hit'])} on the target number")
            if p["ignore_defence"]:
                parts.append(f"ignores {p['ignore_defence']} Defense")
            return (
                t(f"{who}'s next attack this turn: {', '.join(parts)}"),
                *_reason_rule(p.get("source"), "R-ADD-139"),
            )
        case "ComponentDamagePrevented":
            return (
                t(f"{who} ignores {p['amount']} Component Damage to its {p['component']}"),
                *_reason_rule(p.get("source"), "R-ADD-136"),
            )
        case "CounterRaised":
            return (
                t(f"{who}'s counter-damage rises by {p['amount']}"),
                *_reason_rule(p.get("source"), "R-ADD-130"),
            )
        case "SelfDamageDue":
            return (
                t(f"{who} will take {p['amount']} damage once this attack has ended"),
                *_reason_rule(p.get("source"), "R-ADD-130"),
            )
        case "BonusHeld":
            return (
                t(f"{who} holds its next-attack bonus from {p['source']} until an attack"),
                *_rule("R-ADD-139"),
            )
        case "DamageReduced":
            return (
                t(f"{who} takes {p['amount']} damage less"),
                *_reason_rule(p.get("source"), "R-ADD-136"),
            )
        case "SeedsPlanted":
            return (
                t(f"{p['amount']} Thornvine seed(s) planted in "),
                _hex(p["at"]),
                t(f", {p['total']} there"),
                *_reason_rule(p.get("source"), "R-ADD-66"),
            )
        case "SeedsDetonated":
            seeds = sum(h[2] for h in p["hexes"])
            return (
                t(f"{seeds} Thornvine seed(s) in {len(p['hexes'])} hex(es) detonate"),
                *_reason_rule(p.get("source"), "R-ADD-66"),
            )
        case "SpPenaltyImposed":
            less = "no SP" if p["amount"] >= SP_ALL else f"{p['amount']} SP less"  # R-ADD-119
            return (
                t(f"{who} will have {less} next turn"),
                *_reason_rule(p.get("source"), "R-ADD-65"),
            )
        case "EnemyMarked":
            return (
                t(f"{who} marks {names.casket(p['target'])}"),
                *_reason_rule(p.get("source"), "R-ADD-148"),
            )
        case "DamageScheduled":
            return (
                t(f"{who} will take {p['amount']} damage at the start of their next turn"),
                *_reason_rule(p.get("source"), "R-ADD-73"),
            )
        case "Rooted":
            return (
                t(f"{who} cannot move through their next {p['turns']} turn(s)"),
                *_reason_rule(p.get("source"), "R-ADD-111"),
            )
        case "BleedApplied":
            return (
                t(f"{who} gains {p['amount']} Bleed counter(s), now {p['total']}"),
                *_reason_rule(p.get("source"), "R-ADD-110"),
            )
        case "BleedTicked":
            return (
                t(f"{who} bleeds: 1 damage, {p['total']} Bleed counter(s) left"),
                *_rule("R-ADD-110"),
            )
        case "OngoingDamageScheduled":
            return (
                t(
                    f"{who} will take {p['amount']} damage at the start of each of their "
                    f"next {p['turns']} turns"
                ),
                *_reason_rule(p.get("source"), "R-ADD-112"),
            )
        case "MoveCostRaised":
            return (
                t(f"{who}'s moves cost +{p['amount']} SP a hex next turn"),
                *_reason_rule(p.get("source"), "R-ADD-113"),
            )
        case "DrawPenaltyImposed":
            return (
                t(f"{who} will draw {p['n']} card(s) fewer next turn"),
                *_reason_rule(p.get("source"), "R-ADD-114"),
            )
        case "AttacksForgone":
            return (
                t(f"{who} cannot attack until their next turn"),
                *_reason_rule(p.get("source"), "R-ADD-115"),
            )
        case "DefenceLowered":
            return (
                t(f"{who} has -{p['amount']} Defense until the end of their next turn"),
                *_reason_rule(p.get("source"), "R-ADD-119"),
            )
        case "SpendArmed":
            return (
                t(f"{who}'s spend also buys what {p.get('source', '')} does on a hit"),
                *_rule("R-ADD-116"),
            )
        case "CasketPushed":
            path = p["path"]
            if not path:
                return (
                    t(f"{who} holds its ground"),
                    *_reason_rule(p.get("source"), p.get("rule", "R-ADD-100")),
                )
            return (
                t(f"{who} is forced {len(path)} hex{'es' * (len(path) != 1)} to "),
                _hex(path[-1]),
                *_reason_rule(p.get("source"), p.get("rule", "R-ADD-100")),
            )
        case "CasketTeleported":
            return (
                t(f"{who} teleports {p['hexes']} hex(es) to "),
                _hex(p["at"]),
                *_reason_rule(p.get("source"), "R-ADD-102"),
            )
        case "RotationGranted":  # combos
            return (
                t(f"{who} may rotate 60° once more at no SP this turn"),
                *_reason_rule(p.get("source"), "R-ADD-189"),
            )
        case "MoveGranted":
            return (
                t(f"{who} may move up to {p['hexes']} hex(es) at no SP this turn"),
                *_reason_rule(p.get("source"), "R-ADD-69"),
            )
        # --- buffs ---
        case "AttackEnhanced":
            kind = "attack" if p["attacks"] == "any" else f"{p['attacks']} attack"
            scope = f"every {kind} this turn is" if p.get("every") else f"next {kind} is"
            return (
                t(f"{who}'s {scope} enhanced"),
                *_reason_rule(p.get("source"), "R-ADD-90"),
            )
        case "EnhancementsSpent":
            n = len(p["indices"])
            return (t(f"{who}'s attack spends {n} enhancement(s)"), *_rule("R-ADD-90"))
        case "WardRaised":
            until = str(p["until"]).replace("_", " ")
            return (
                t(f"{who} is warded against {p['against']} damage until {until}"),
                *_reason_rule(p.get("source"), "R-ADD-93"),
            )
        case "WardUsed":
            change = (
                "" if p.get("before") is None else f": {p['before']} damage becomes {p['after']}"
            )
            return (
                t(f"{who}'s ward acts{change}"),
                *_reason_rule(p.get("source"), "R-ADD-94" if change else "R-ADD-93"),
            )
        case "DefenceBuffsIgnored":
            attacker = names.casket(p["attacker"])
            return (t(f"{attacker}'s attack ignores Defense buffs"), *_rule("R-ADD-92"))
        case "SpGained":
            return (
                t(f"{who} gains {p['amount']} SP this turn"),
                *_reason_rule(p.get("source"), "R-ADD-95"),
            )
        case "UntargetableGained":
            which = "attacks" if p["against"] == "all" else "ranged attacks"
            until = " or until it attacks" if p.get("until_attack") else ""
            return (
                t(f"{who} cannot be targeted by {which} until its next turn{until}"),
                *_reason_rule(p.get("source"), "R-ADD-155"),
            )
        case "HandRevealed":
            return (
                t(f"{who} looks at {names.casket(p['target'])}'s hand: "),
                *_cards(p["cards"], names),
                *_reason_rule(p.get("source"), "R-ADD-156"),
            )
        case "TargetBonusGained":
            return (
                t(f"{who}'s next attack on {names.casket(p['target'])} gets +{p['damage']} damage"),
                *_reason_rule(p.get("source"), "R-ADD-156"),
            )
        case "CardsLookedAt":
            return (
                t(f"{who} looks at the top of their deck: "),
                *_cards(p["cards"], names),
                *_reason_rule(p.get("source"), "R-ADD-157"),
            )
        case "DeckArranged":
            return (
                t(f"{who} puts them back, top first: "),
                *_cards(p["order"], names),
                *_rule("R-ADD-157"),
            )
        case "WreckScavenged":
            return (
                t(f"{who} scavenges the wreck of {names.casket(p['wreck'])}, removed from play"),
                *_reason_rule(p.get("source"), "R-ADD-158"),
            )
        case "UltimatumAnswered":
            chose = "skip their next turn" if p["option"] == "skip_turn" else "take the damage now"
            return (t(f"{who} chooses to {chose}"), *_rule("R-ADD-159"))
        case "HitDamageBargained":
            return (
                t(f"{who} gives up cards to make the hit {p['damage']} damage"),
                *_reason_rule(p.get("source"), "R-ADD-159"),
            )
        case "HitBargainedAway":
            return (
                t(f"{who} pays the price: the attack misses"),
                *_reason_rule(p.get("source"), "R-ADD-159"),
            )
        case "TurnSkipped":
            return (t(f"{who} skips this turn"), *_rule("R-ADD-159"))
        case "UntargetableEnded":
            return (
                t(f"{who} attacks and can be targeted again"),
                *_reason_rule(p.get("source"), "R-ADD-155"),
            )
        case "EffectRolled":
            return (
                t(f"{who} rolls for {p.get('source', '')}: "),
                *_d6(p["faces"]),
                t(f" = {p['total']}"),
                *_rule(p.get("rule", "R-ADD-67")),
            )
        case "DamageAuraRaised":
            return (
                t(
                    f"Until its next turn, each enemy within {p['within']} hex(es) of {who} "
                    f"takes {p['amount']} damage as its turn starts"
                ),
                *_reason_rule(p.get("source"), "R-ADD-88"),
            )
        case "AttacksQueued":
            targets = ", ".join(names.casket(a[0]) for a in p["attacks"])
            return (
                t(f"{names.casket(p['attacker'])}'s "),
                names.card(p["card"]),
                t(f" attacks again after this attack: {targets}"),
                *_rule(p.get("rule")),
            )
        case "FollowUpTaken":
            if p["made"]:
                return (
                    t(f"{names.casket(p['attacker'])}'s "),
                    names.card(p["card"]),
                    t(f" attacks {names.casket(p['target'])} again"),
                    *_rule(p.get("rule")),
                )
            return (
                t(f"{names.casket(p['attacker'])}'s "),
                names.card(p["card"]),
                t(f" does not attack {names.casket(p['target'])}: {p['reason']}"),
                *_rule(p.get("rule")),
            )
        case "CardsShuffledIn":
            return (
                t(f"{who} shuffles "),
                *_cards(p["cards"], names),
                t(" from the discard pile into the deck"),
                *_reason_rule(p.get("reason"), "R-ADD-62"),
            )
        case "SufferingRolled":
            return (t(f"{who} rolls the suffering die: "), *_d6(p["faces"]))
        case "AttackDeclared":
            return _attack_declared(p, names)
        case "AttackRolled":
            outcome = p["grade"] + (f", {p['damage']} damage" if p.get("damage") else "")
            return (
                t("Rolled "),
                *_attack_dice(p["faces"]),
                t(f" = {p['total']}: {outcome}"),
                *_rule("R-HIT-4"),
            )
        case "WeaponJammed":
            return (
                t(f"{who}'s weapon jams: discards "),
                *_cards(p["discarded"], names),
                t(f", Heat now {p['heat']}"),
                *_rule("R-DMG-1"),
            )
        case "ReactivePlayed":
            return (
                t(f"{who} answers with "),
                names.card(p["card"]),
                t(f", reducing the damage by {p['reduction']}"),
                *_rule("R-REA-1"),
            )
        case "ReactiveDeclined":
            return (t(f"{who} plays no reactive card"), *_rule("R-REA-1"))
        case "AttackCovered":
            cut = f", reducing it by {p['reduction']}" if p.get("reduction") else ""
            return (
                t(f"{who} takes {names.casket(p['target'])}'s damage with "),
                names.card(p["card"]),
                t(cut),
                *_rule("R-ADD-122"),
            )
        case "DefenceRolled":
            extra = [
                f"{p['heat']} Heat" * bool(p.get("heat")),
                "pierced" * bool(p.get("pierce")),
                f"{p['component_damage']} component damage" * bool(p.get("component_damage")),
            ]
            extras = "".join(f", {e}" for e in extra if e)
            return (
                t(f"{who} rolls defence "),
                *_d6(p["faces"]),
                t(f": {p['blocks']} blocked, {p['final_damage']} damage{extras}"),
                *_rule("R-DMG-2"),
            )
        case "AttackEnded":
            return (
                t(f"{names.casket(p['attacker'])}'s attack with "),
                names.card(p["card"]),
                t(f" ends: {p['outcome']}"),
            )
        case "PromptOpened":
            amount = f" {p['amount']}" if p.get("amount") else ""
            kind = str(p["kind"]).replace("_", " ")
            return (
                t(f"Waiting for {who}: {kind}{amount}"),
                *_reason_rule(p.get("reason"), p.get("rule")),
            )
        case "PromptClosed":
            return (t(f"{who} answered: {str(p['kind']).replace('_', ' ')}"),)
        case "DamageTaken":
            lost = [*p.get("from_hand", []), *p.get("from_deck", [])]
            comp = (
                f" (hits the {COMPONENT_NAMES.get(p['component'], p['component'])})"
                if p.get("component")
                else ""
            )
            return (
                t(f"{who} loses {len(lost)} card{'s' * (len(lost) != 1)} to damage{comp}: "),
                *_cards(lost, names),
                *_rule("R-DMG-6"),
            )
        case "ComponentDamaged":
            comp = COMPONENT_NAMES.get(p["component"], p["component"])
            return (
                t(f"{who}'s {comp} takes {p['amount']} damage, {p['total']} in all"),
                *_reason_rule(p.get("reason"), p.get("rule")),
            )
        case "ComponentDestroyed":
            comp = COMPONENT_NAMES.get(p["component"], p["component"])
            lost = (
                [t(", discarding "), *_cards(p["discarded"], names)] if p.get("discarded") else []
            )
            return (t(f"{who}'s {comp} is destroyed"), *lost, *_rule(p.get("rule")))
        case "WoundFlipped":
            return (
                t(f"{names.pilot(seat)} suffers the wound {p['wound']}"),
                *_reason_rule(p.get("reason"), p.get("rule")),
            )
        case "SurvivalRolled":
            return (
                t(f"{names.pilot(seat)} rolls for survival: "),
                *_d6([p["face"]]),
                t(f", {p['wounds']} wound{'s' * (p['wounds'] != 1)}"),
                *_rule("R-PLT-3"),
            )
        case "PilotKilled":
            return (t(f"{names.pilot(seat)} dies"), *_rule(p.get("rule")))
        case "CasketDefeated":
            return (t(f"{who} is defeated: {p['reason']}"), *_rule(p.get("rule")))
        case "CasketWithdrew":
            return (t(f"{who} withdraws from the battle"), *_rule(p.get("rule")))
        case "BattleEnded":
            won = f"the {p['side']} win" if p.get("side") else "a draw"
            return (t(f"GM ends the battle: {won} — {p['reason']}"), *_rule(p.get("rule")))
        case "TaintAdjusted":
            return (
                t(f"GM sets {names.pilot(seat)}'s Taint to {p['taint']} — {p['reason']}"),
                *_rule("R-PLT-4"),
            )
        case "TaintOverloaded":
            return (
                t(f"{names.pilot(seat)}'s Taint reaches {p['taint']}: rolled "),
                *_d6([p["face"]]),
                t(f", {p['wounds']} wounds"),
                *_rule("R-PLT-3"),
            )
        case "HeatAdjusted":
            return (t(f"GM sets {who}'s Heat to {p['heat']} — {p['reason']}"),)
        case "ComponentDamageAdjusted":
            comp = COMPONENT_NAMES.get(p["component"], p["component"])
            gone = ", destroyed" if p.get("destroyed") else ""
            return (
                t(
                    f"GM gives {who}'s {comp} {_signed(p['amount'])} damage, {p['total']} in "
                    f"all{gone} — {p['reason']}"
                ),
            )
        case "CasketRelocated":
            facing = DIRECTION_NAMES.get(p["facing"], str(p["facing"]))
            return (t(f"GM moves {who} to "), _hex(p["at"]), t(f" facing {facing} — {p['reason']}"))
        case "CardReturned":
            return (
                t("GM returns "),
                names.card(p["card"]),
                t(f" to {who}'s hand from the {p['from_zone']} — {p['reason']}"),
            )
        case "DiceSecretRevealed":
            return (
                t(
                    "The dice secret is revealed: every roll and shuffle can now be re-derived "
                    "and checked against the commitment made at the start"
                ),
                *_rule("R-ADD-45"),
            )
        case "CommandReverted":
            return (t(f"GM reverts events {p['from_version']}–{p['to_version']} — {p['reason']}"),)
    raise KeyError(f"no sentence for event type {type_!r}")


def _attack_declared(p: Mapping[str, Any], names: Names) -> Sentence:
    th = p.get("to_hit") or {}
    distance = th.get("distance")
    at = f" at {distance} hex{'es' * (distance != 1)}" if distance is not None else ""
    comp = COMPONENT_NAMES.get(p["component"], p["component"])
    parts: list[Part] = [
        t(f"{names.casket(p['attacker'])} attacks {names.casket(p['target'])} with "),
        names.card(p["card"]),
        t(
            f"{at} ({th.get('side_name', 'side ' + str(p['side']))} side, {comp}): "
            f"needs {p['target_number']}+ ("
        ),
    ]
    for i, m in enumerate(th.get("modifiers", [])):
        value = m["value"] if m.get("key") == "base" else _signed(m["value"])
        parts += [t(("" if i == 0 else ", ") + f"{m['label']} {value} "), ("rule", m["rule"])]
    parts.append(t(")"))
    hit = (th.get("odds") or {}).get("hit")
    if hit:
        parts.append(t(f", {hit} to hit"))
    return tuple(parts)


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


# --- the timeline of a whole battle ------------------------------------------------------------


@dataclass
class LogLine:
    version: int
    type: str
    sentence: Sentence
    adjustment: bool
    markers: tuple[str, ...]


@dataclass
class Turn:
    seat: int | None
    casket: str
    lines: list[LogLine] = field(default_factory=list)


@dataclass
class Round:
    number: int
    turns: list[Turn] = field(default_factory=list)


@dataclass
class Timeline:
    rounds: list[Round]
    markers: list[dict[str, Any]]
    # Per seat: [{"label", "version", "hp", "heat", "component_damage"}, ...] at every round's
    # start and at the last event: the charts' points.
    series: dict[int, list[dict[str, Any]]]
    turn_starts: list[int]  # versions of TurnStarted, for Shift+arrow stepping
    head: int


def _markers(type_: str, p: Mapping[str, Any]) -> tuple[str, ...]:
    if type_ == "RoundStarted":
        return ("round",)
    if type_ == "AttackDeclared":
        return ("attack",)
    if type_ == "AttackRolled" and p["grade"] not in ("miss", "catastrophic"):
        return ("hit",)
    if type_ == "ComponentDestroyed":
        return ("destroyed",)
    if type_ in ("WoundFlipped", "SurvivalRolled") and (type_ == "WoundFlipped" or p["wounds"]):
        return ("wound",)
    if type_ == "CasketDefeated":
        return ("defeat",)
    return ()


def _point(state: BattleState, label: str) -> dict[int, dict[str, Any]]:
    return {
        c.seat: {
            "label": label,
            "version": state.version,
            "hp": c.hp,
            "heat": c.heat,
            "component_damage": c.total_component_damage,
        }
        for c in state.seats
    }


def log_line(
    version: int,
    type_: str,
    shown: Mapping[str, Any],
    names: Names,
    adjustment_types: frozenset[str],
) -> LogLine:
    """One event's line of the log, from its payload as the viewer may see it."""
    kinds = _markers(type_, shown)
    return LogLine(version, type_, describe(type_, shown, names), type_ in adjustment_types, kinds)


def timeline(
    events: Iterable[tuple[int, str, Mapping[str, Any], Any]],
    seats: frozenset[int],
    *,
    full: bool,
    adjustment_types: frozenset[str],
) -> Timeline:
    """Fold `events` ((version, type, stored payload, decoded event) in order) once into the log,
    the markers and the chart series, as a viewer holding `seats` may see them."""
    state: BattleState | None = None
    names: Names | None = None
    rounds: list[Round] = [Round(0)]
    markers: list[dict[str, Any]] = []
    series: dict[int, list[dict[str, Any]]] = {}
    turn_starts: list[int] = []
    version = 0
    for version, type_, payload, event in events:
        state = evolve(state, event)
        if names is None:
            names = Names.of(state)
        shown = public_payload(type_, payload, seats, full=full)
        if type_ == "RoundStarted":
            rounds.append(Round(shown["round"]))
            for seat, point in _point(state, f"round {shown['round']}").items():
                series.setdefault(seat, []).append(point)
        current = rounds[-1]
        if type_ == "TurnStarted":
            turn_starts.append(version)
            current.turns.append(Turn(shown["seat"], names.casket(shown["seat"])))
        elif not current.turns:
            current.turns.append(Turn(None, ""))
        line = log_line(version, type_, shown, names, adjustment_types)
        current.turns[-1].lines.append(line)
        kinds, sentence = line.markers, line.sentence
        for kind in kinds:
            markers.append(
                {
                    "version": version,
                    "kind": kind,
                    "symbol": MARKERS[kind][0],
                    "title": f"{version}: {plain(sentence)}",
                }
            )
    if state is not None:
        label = "end" if state.over else "now"
        for seat, point in _point(state, label).items():
            series.setdefault(seat, []).append(point)
    return Timeline([r for r in rounds if r.turns], markers, series, turn_starts, version)


def odds_rows(target_number: int, dice: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The exact chance of each grade of an attack (the engine's grade_distribution), as rows
    for the odds chart and its table.

    >>> [(r["grade"], r["chance"]) for r in odds_rows(7, None)][:2]
    [('catastrophic', '1/36'), ('miss', '25/36')]
    """
    pool = DicePool(dice["count"], dice["keep"]) if dice else DicePool(2, "all")
    dist = grade_distribution(target_number, pool)
    return [
        {"grade": g, "chance": _fraction(dist[g]), "percent": round(float(dist[g]) * 100, 1)}
        for g in GRADES
    ]


def _fraction(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}" if f else "0"


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
