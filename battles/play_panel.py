"""The play screen's panel (issue 13): what the viewer may do now, as buttons whose
`data-command` is the exact command body the engine listed (`legal_actions`), with words for
people. Nothing here decides legality: a body is offered only because `decide` accepted it;
a card that is not offered says why, in the engine's words where the engine gives them.

No Django: `battles/pages.py` feeds it the state, the viewer's seats and the last command.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from battles import board_svg
from battles.engine.arcs import rotation_cost
from battles.engine.battle import BattleState, LegalAction, legal_actions
from battles.engine.battle.decide import PROMPT_RULES, attack_answer
from battles.engine.battle.state import card_id
from battles.engine.cards import (
    DiscardForEffect,
    LookAtHandEffect,
    SpendTaintEffect,
    TakeDamageEffect,
)
from battles.engine.dice import ATTACK_FACES, DEFENCE_DICE
from battles.engine.hexes import DIRECTION_NAMES, Hex
from battles.replay import COMPONENT_NAMES, Names, card_label

PROMPT_WORDS = {
    "mulligan": "keep the opening hand or take a mulligan (R-TRN-1)",
    "reactive": "answer an attack with a reactive card or let it through (R-REA-1)",
    "take_damage": "choose the cards to lose to damage (R-DMG-6)",
    "discard_down": "discard down to the hand size (R-TRN-7)",
    "discard": "choose the cards one of their cards discards (R-ADD-62)",
    "arrange": "put the top cards of their deck back in any order (R-ADD-157)",
    "ultimatum": "take the damage now or skip their next turn (R-ADD-159)",
    "save": "discard cards to resist, or skip their next turn (R-ADD-342)",
    "bargain": "give up hand cards to lessen the hit, or decline (R-ADD-159)",
    "siphon": "pay the defender's price to miss, or decline (R-ADD-159)",
    "duel": "accept the Honor Duel, or refuse it and bear Coward's Mark (R-ADD-174)",
    "reroll": "roll one of the attack dice again, or keep the roll (R-ADD-282)",
    "defence_reroll": "force blocking defence dice to be rolled again, or let the roll stand"
    " (R-ADD-412)",
    "hand_pick": "choose the cards an enemy discards from the hand looked at (R-ADD-385)",
    "form": "choose Assault, Tank or Scout Form (R-ADD-362)",
    "ally_destroyed": "answer an ally's destruction with a card, or none (R-ADD-283)",
    "low_deck": "answer the deck's fall to a few cards with a card, or none (R-ADD-370)",
    "lethal_damage": "answer damage that would defeat the casket with a card, or none (R-ADD-371)",
    "temporal_loop": "choose the enemy who takes the damage stored in the loop (R-ADD-422)",
}


def cost_words(cost: int | None) -> str:
    """A card's SP cost in words; a card without one (a Damage card, R-TRN-6) says so.

    >>> cost_words(2), cost_words(0), cost_words(None)
    ('2 SP', '0 SP', 'no SP cost')
    """
    return "no SP cost" if cost is None else f"{cost} SP"


def side_names(state: BattleState) -> dict[str, dict[str, Any]]:
    """Each side's name for people: the side the setup chose, unless it is only a player's
    username (a campaign's default), then the faction its caskets share, else its pilots.
    `plural` gives the verb its agreement: "the penitents win", "Mora's side wins".

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.decide import create
    >>> from battles.engine.battle.evolve import replay
    >>> from dataclasses import replace
    >>> s = replay(create("b", demo_setup(seed=1, players=("ann", "bob"))))
    >>> names = side_names(s)
    >>> names["penitents"]["name"], names["penitents"]["plural"]
    ('the penitents', True)
    >>> names["bastion"]["win"]
    'the bastion wins'
    >>> s = replay(create("b", demo_setup(seed=1, players=("ann", "bob"))))
    >>> s = replace(s, seats=tuple(replace(c, side=c.player) for c in s.seats))
    >>> side_names(s)["bob"]["win"] == f"{s.seats[1].pilot}'s side wins"
    True
    """
    out: dict[str, dict[str, Any]] = {}
    players = {c.player for c in state.seats}
    for side in dict.fromkeys(c.side for c in state.seats):
        seats = [c for c in state.seats if c.side == side]
        factions = {c.faction for c in seats}
        if side not in players:
            words = side.replace("_", " ").replace("-", " ")
            name, plural = f"the {words}", words.endswith("s")
        elif len(factions) == 1 and None not in factions:
            faction = str(next(iter(factions))).replace("-", " ").replace("_", " ")
            name, plural = f"the {faction.title()} side", False
        else:
            pilots = [c.pilot for c in seats]
            who = " and ".join([", ".join(pilots[:-1]), pilots[-1]] if len(pilots) > 1 else pilots)
            name, plural = (f"{who}'s side", False) if len(pilots) == 1 else (who, True)
        out[side] = {"name": name, "plural": plural, "win": f"{name} win{'' if plural else 's'}"}
    return out


def _dump(body: Mapping[str, Any]) -> str:
    return json.dumps(body, separators=(",", ":"), sort_keys=True)


def _names(names: Names, instances: Sequence[str]) -> str:
    return ", ".join(card_label(names.cards, i)["name"] for i in instances) or "nothing"


def _pay_words(body: Mapping[str, Any]) -> str:
    pay = body.get("pay")
    if not pay:
        return ""
    n = len(pay.get("hand", [])) + int(pay.get("deck", 0))
    return f" + overspend: {n} card{'s' * (n != 1)} from the deck's top (R-TRN-3)"


def _end(body: Mapping[str, Any]) -> str:
    """Where a body's path ends (issue 17, move)."""
    q, r = body["path"][-1]
    return f"{q},{r}"


def _spend_words(body: Mapping[str, Any], state: BattleState) -> str:
    """The token spend (R-ADD-61), Taint spend (R-ADD-145) or optional discard (R-ADD-152)
    a card offers, when the body takes it."""
    if not body.get("spend"):
        return ""
    effects = state.card(body["card"]).effects if "card" in body else ()
    if any(isinstance(e, SpendTaintEffect) for e in effects):
        whose = "the target's" if body.get("taint_from") == "target" else "the pilot's"
        return f" + spend {whose} Taint (R-ADD-145)"
    paid = [e for e in effects if isinstance(e, DiscardForEffect)]
    if paid:
        n = paid[0].n
        return f" + discard {n} card{'s' * (n != 1)} for its bonus (R-ADD-152)"
    return " + spend its tokens (R-ADD-61)"


def label(body: Mapping[str, Any], state: BattleState, names: Names) -> str:
    """A legal command body in words.

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.decide import create
    >>> from battles.engine.battle.evolve import replay
    >>> s = replay(create("b", demo_setup(seed=1)))
    >>> label({"type": "keep_hand", "seat": 0}, s, Names.of(s))
    'Keep this hand'
    """
    kind = body["type"]
    seat = body.get("seat", 0)
    c = state.seats[seat]
    match kind:
        case "keep_hand":
            return "Keep this hand"
        case "mulligan":
            return "Mulligan: shuffle the hand back and draw a new one"
        case "no_reactive":
            return "Play no reactive card"
        case "play_reactive" if body.get("dice"):  # R-ADD-412: a forced defence reroll
            defended = state.attack.defence_faces if state.attack is not None else ()
            table = DEFENCE_DICE[str(state.ruleset.option("defense_die"))]
            named = " and ".join(
                f"die {k} ({table[defended[k - 1] - 1].name})" if k <= len(defended) else f"die {k}"
                for k in body["dice"]
            )
            played = _names(names, [body["card"]])
            return f"Play {played}: the enemy's Taint forces {named} to be rolled again (R-ADD-412)"
        case "play_reactive":
            # R-ADD-107: the dodge the card makes once the attack has ended.
            dodge = f" (then moving to {_end(body)})" if body.get("path") else ""
            return f"Play {_names(names, [body['card']])}{dodge}" + _spend_words(body, state)
        case "take_damage":
            hand = body.get("hand", [])
            deck = body.get("deck", 0)
            parts = []
            if hand:
                parts.append(f"{_names(names, hand)} from the hand")
            if deck:
                parts.append(f"{deck} from the deck's top")
            return "Lose " + " and ".join(parts)
        case "discard_down":
            return f"Discard {_names(names, body['cards'])}"
        case "choose":
            reroll = state.attack.reroll if state.attack is not None else None
            if reroll is not None and body["option"].startswith("die_"):
                k = int(body["option"].removeprefix("die_"))
                face = ATTACK_FACES[reroll.faces[k - 1]].name
                return f"Roll die {k} ({face}) again (R-ADD-282)"
            if body["option"].startswith("seat_"):  # R-ADD-422
                target = names.casket(int(body["option"].removeprefix("seat_")))
                return f"Send the stored damage to {target} (R-ADD-422)"
            if body["option"] == "pick":
                looked = state.card(c.looked_at_source).effects
                if any(isinstance(e, LookAtHandEffect) and e.steal for e in looked):
                    return f"Take {_names(names, body['cards'])} into your hand (R-ADD-386)"
                return f"Make the enemy discard {_names(names, body['cards'])} (R-ADD-385)"
            if body["option"] == "decline" and any(
                p.seat == seat and p.kind == "hand_pick" for p in state.prompts
            ):
                return "Take no card and spend nothing (R-ADD-386)"
            return {
                "keep": "Keep the roll (R-ADD-282)",
                "assault": "Take Assault Form (R-ADD-362)",
                "tank": "Take Tank Form (R-ADD-362)",
                "scout": "Take Scout Form (R-ADD-362)",
                "skip_turn": "Skip your next turn (R-ADD-159)",
                "damage": "Take the damage now (R-ADD-159)",
                "decline": "Decline the bargain (R-ADD-159)",
                "pay": "Pay the tokens asked: the attack misses (R-ADD-159)",
            }.get(
                body["option"],
                f"Discard {_names(names, body.get('cards', []))} to lessen the hit (R-ADD-159)",
            )
        case "attack_terrain":  # R-ADD-382
            card = card_label(names.cards, body["card"])
            q, r = body["at"]
            placed = state.placed_at(Hex(q, r))
            what = placed.kind.replace("_", " ") if placed is not None else "terrain"
            return f"{card['name']} at the {what} on {q},{r} (R-ADD-382)" + _pay_words(body)
        case "arrange":
            return f"Put back on the deck, top first: {_names(names, body['cards'])} (R-ADD-157)"
        case "pass":
            return "End the turn"
        case "withdraw":
            return "Withdraw from the battle (R-TRN-9)"
        case "vent":
            return "Vent Heat (2 SP)" + _pay_words(body)
        case "rotate":
            cost = rotation_cost(c.facing, body["facing"], not c.free_rotation_used)
            sp = "free" if cost == 0 else f"{cost} SP"
            return f"Face {DIRECTION_NAMES[body['facing']]} ({sp})" + _pay_words(body)
        case "move":
            end = body["path"][-1]
            n = len(body["path"])  # the path leaves out the start hex (R-MOV-3)
            free = " (the move a card granted, no SP, R-ADD-69)" if body.get("free") else ""
            return f"Move {n} hex{'es' * (n != 1)} to {end[0]},{end[1]}{free}" + _pay_words(body)
        case "attack":
            card = card_label(names.cards, body["card"])
            target = names.casket(body["target"])
            also = "".join(f", then {names.casket(x)}" for x in body.get("also", ()))
            # R-ADD-104: the card's move before its attack.
            first = f" (moving to {_end(body)} first)" if body.get("path") else ""
            words = f"{card['name']} at {target}{first}{also}"
            return words + _spend_words(body, state) + _pay_words(body)
        case "play_card":
            card = card_label(names.cards, body["card"])
            extra = []
            if "path" in body:
                end = body["path"][-1]
                # R-ADD-400: a summoning card's one hex is where its unit appears.
                verb = (
                    "moving it to"  # R-ADD-409: the ordered unit's move
                    if "unit" in body
                    else "summoning on"
                    if _summons(state.card(body["card"]).effects)
                    else "moving to"
                )
                extra.append(f"{verb} {end[0]},{end[1]}")
            if "facing" in body:
                extra.append(f"facing {DIRECTION_NAMES[body['facing']]}")
            if "discard" in body:
                lost = _names(names, body["discard"])
                # R-ADD-431: the hand cards the card's own damage takes, the rest from the deck
                own_damage = any(
                    isinstance(e, TakeDamageEffect) for e in state.card(body["card"]).effects
                )
                extra.append(
                    f"losing {lost} to its damage (R-ADD-431)"
                    if own_damage
                    else f"discarding {lost}"
                )
            if "unit" in body:  # R-ADD-409
                extra.append(
                    f"ordering unit {body['unit']} {_unit_name(state, body['unit'])}".rstrip()
                )
            if "target" in body:
                extra.append(f"on {names.casket(body['target'])}")
            if "tokens" in body:  # R-ADD-389: X of a cost of X tokens
                x_cost = state.card(body["card"]).token_cost
                pool = x_cost.pool.replace("_", " ") if x_cost is not None else "token"
                n = body["tokens"]
                extra.append(f"paying X = {n} {pool} token{'s' * (n != 1)}")
            for moved in body.get("ally_paths", []):  # R-ADD-126
                end = moved["path"][-1]
                extra.append(f"moving {names.casket(moved['seat'])} to {end[0]},{end[1]}")
            more = f" ({', '.join(extra)})" if extra else ""
            return (
                f"Play {card['name']} — {cost_words(card['cost'])}{more}"
                + _spend_words(body, state)
                + _pay_words(body)
            )
        case "unit_move":  # summoned units (R-ADD-401)
            end = body["path"][-1]
            return f"Move unit {body['unit']} {_unit_name(state, body['unit'])}to {end[0]},{end[1]}"
        case "unit_attack":
            return (
                f"Unit {body['unit']} {_unit_name(state, body['unit'])}attacks "
                f"{names.casket(body['target'])} (R-ADD-401)"
            )
        case "strike_unit":  # R-ADD-404
            card = card_label(names.cards, body["card"])
            words = f"{card['name']} at unit {body['unit']} {_unit_name(state, body['unit'])}"
            return words.rstrip() + " (R-ADD-404)" + _pay_words(body)
    return str(kind).replace("_", " ").capitalize()


def _summons(effects: Iterable[Any]) -> bool:
    """Whether the effects, or those inside them, summon a unit (R-ADD-400)."""
    return any(
        getattr(e, "kind", "") == "summon" or _summons(getattr(e, "then", ())) for e in effects
    )


def _unit_name(state: BattleState, unit_id: str) -> str:
    """The unit's printed name in brackets and a space, or nothing if it is gone."""
    u = state.unit(unit_id)
    return f"({u.name}) " if u is not None else ""


def waiting_for(state: BattleState, names: Names) -> str:
    """Whom and what the battle waits for, in words (an empty list of actions says this)."""
    if state.over:
        return "The battle is over."
    if state.prompts:
        return "; ".join(
            f"{names.casket(p.seat)} (seat {p.seat}) must "
            f"{PROMPT_WORDS.get(p.kind, p.kind.replace('_', ' '))}"
            for p in state.prompts
        )
    if state.active is not None:
        return f"{names.casket(state.active)} (seat {state.active}) is taking its turn (R-TRN-2)."
    return "The battle is between turns."


def _unplayable(state: BattleState, seat: int, instance: str, offered: Collection[str]) -> str:
    """Why a card in hand is not offered now."""
    c = state.seats[seat]
    card = state.card(instance)
    if card.kind == "reactive":
        return "reactive: played when this casket is attacked (R-REA-1)"
    if state.prompts or state.active != seat:
        return "not this casket's turn"
    if card.sp_cost > c.overspend_room:
        return (
            f"costs {card.sp_cost} SP; {max(0, c.sp_left)} left, overspend room "
            f"{c.overspend_room} (R-TRN-3)"
        )
    if card.attack is not None:
        reasons = []
        for d in state.seats:
            if d.side != c.side and d.in_battle:
                answer = attack_answer(state, seat, card, d.seat)
                if not answer.possible and answer.refusal is not None:
                    r = answer.refusal
                    reasons.append(f"{d.name}: {r.message} ({r.rule})")
        return "; ".join(reasons) or "no enemy can be attacked with it"
    if instance not in offered:
        return "the engine accepts no way to play it now"
    return ""


def panel(
    state: BattleState, seats: frozenset[int], *, gm: bool, latest_command: str | None
) -> dict[str, Any]:
    """The play panel for a viewer holding `seats` (the GM: every seat).

    Every legal body is listed once in the page's lists (the prompt, the turn's buttons and
    the disclosure of every action), and again where it is played on the table: a move
    on its hex, a turn around the token, an attack on its target, a card in the hand.
    """
    names = Names.of(state)
    actions: list[LegalAction] = list(legal_actions(state, None if gm else seats, every_move=True))
    groups: dict[str, list[dict[str, Any]]] = {}
    moves = []
    turn_actions = []
    attacks: dict[tuple[str, int], list[dict[str, Any]]] = {}
    plays: dict[str, list[dict[str, Any]]] = {}
    rotations: list[dict[str, Any]] = []
    offered_cards: set[str] = set()
    for a in actions:
        body = a.body
        seat = body.get("seat", 0)
        if "card" in body:
            offered_cards.add(body["card"])
        item = {
            "label": label(body, state, names),
            "command": _dump(body),
            "seat": seat,
            "type": body["type"],
            "to_hit": a.preview,
            # The cards an overspend takes (R-TRN-3), as the engine counted them.
            "overspend": a.overspend,
        }
        if body["type"] == "withdraw" and gm and seat not in seats:
            # The GM accepting the withdrawal of a seat they do not play gives a reason.
            item["ask_reason"] = True
        if body["type"] == "move":
            end = body["path"][-1]
            # A move a card granted costs no SP (R-ADD-69).
            item["cost"] = 0 if body.get("free") else a.sp_cost
            item["dest"] = f"{end[0]},{end[1]}"
            item["hex_points"] = board_svg.hex_points(end[0], end[1])
            x, y = board_svg.centre(end[0], end[1])
            item["x"], item["y"] = round(x, 1), round(y + 5, 1)  # the cost, written in the hex
            at = state.seats[seat].at
            item["points"] = " ".join(
                "{:.1f},{:.1f}".format(*board_svg.centre(q, r))
                for q, r in [(at.q, at.r), *body["path"]]
            )
            moves.append(item)
            continue
        if body["type"] in ("pass", "vent", "withdraw"):
            turn_actions.append(item)
            continue
        if body["type"] == "rotate":
            rotations.append({**item, **_around(state, seat, body["facing"])})
        elif body["type"] == "attack":
            attacks.setdefault((body["card"], body["target"]), []).append(item)
        elif body["type"] == "play_card":
            plays.setdefault(body["card"], []).append(item)
        group = {
            "keep_hand": "Opening hand",
            "mulligan": "Opening hand",
            "no_reactive": "Reactive window",
            "play_reactive": "Reactive window",
            "take_damage": "Damage",
            "arrange": "Deck",
            "choose": "Damage",
            "discard_down": "Discard down",
            "attack": "Attacks",
            "attack_terrain": "Attacks",
            "play_card": "Cards",
            "rotate": "Turn to face",
            "unit_move": "Units",
            "unit_attack": "Units",
            "strike_unit": "Units",
        }.get(body["type"], "Other")
        groups.setdefault(group, []).append(item)
    focus = _focus_seat(state, seats, gm)
    hands = []
    for seat in sorted(seats if not gm else {c.seat for c in state.seats}):
        c = state.seats[seat]
        cards = []
        for instance in c.hand:
            info = card_label(names.cards, instance)
            d = state.cards.get(card_id(instance))
            reason = (
                ""
                if instance in offered_cards
                else _unplayable(state, seat, instance, offered_cards)
            )
            targets = [
                {
                    "seat": target,
                    "name": names.casket(target),
                    "variants": variants,
                    **_target_at(state, target),
                }
                for (card, target), variants in attacks.items()
                if card == instance
            ]
            cards.append(
                {
                    **info,
                    "instance": instance,
                    "reason": reason,
                    "cost_words": cost_words(info["cost"]),
                    "range": d.range.text if d is not None and d.range is not None else "",
                    "damage": d.damage if d is not None else None,
                    "targets": targets,
                    "plays": plays.get(instance, []),
                }
            )
        # An overspend may be paid with hand cards instead of the deck's top (R-TRN-3):
        # the page lets the player tick them wherever an offered action overspends.
        pays = any(a.overspend and a.body.get("seat") == seat for a in actions)
        hands.append({"seat": seat, "casket": c.name, "cards": cards, "pays": pays})
    # Which cards to lose or discard is the prompted player's choice (R-DMG-6, R-TRN-7):
    # beside the engine's suggested answers, a form to pick them from the hand.
    choices = []
    for p in state.prompts:
        # A card's "discard N of your choice" (R-ADD-62) is answered as a discard down.
        # A pick from an enemy's hand looked at (R-ADD-385, R-ADD-386) ticks that hand.
        if p.kind not in ("take_damage", "discard_down", "discard", "hand_pick"):
            continue
        if not (gm or p.seat in seats):
            continue
        c = state.seats[p.seat]
        take = p.kind == "take_damage"
        answer: dict[str, Any] = {"type": "take_damage" if take else "discard_down", "seat": p.seat}
        pool, whose, steal = c.hand, c.name, False
        if p.kind == "hand_pick":  # the enemy's cards: it discards them, or they are taken
            answer = {"type": "choose", "seat": p.seat, "option": "pick"}
            enemy = state.seats[c.looked_at_hand]
            pool, whose = enemy.hand, enemy.name
            looked = state.card(c.looked_at_source).effects
            steal = any(isinstance(e, LookAtHandEffect) and e.steal for e in looked)
        choices.append(
            {
                "seat": p.seat,
                "casket": whose,
                "steal": steal,
                "amount": p.amount,
                "take": take,
                "rule": p.rule or PROMPT_RULES[p.kind],
                "command": _dump(answer),
                "field": "hand" if take else "cards",
                "cards": [
                    {"instance": i, "name": card_label(names.cards, i)["name"]} for i in pool
                ],
                "deck": len(c.deck),
            }
        )
    prompt_names = ("Opening hand", "Reactive window", "Damage", "Discard down", "Deck")
    reach = [
        {
            "seat": seat,
            "moves": _one_per_hex(m for m in moves if m["seat"] == seat),
            "variants": _by_dest(m for m in moves if m["seat"] == seat),
        }
        for seat in sorted({m["seat"] for m in moves})
    ]
    return {
        "version": state.version,
        # A prompt's answers come first and the page shows them as a dialog (issue 13).
        "prompt_groups": [(g, groups[g]) for g in prompt_names if g in groups],
        "prompt_text": waiting_for(state, names) if state.prompts else "",
        "prompt_choices": choices,
        "groups": [(g, a) for g, a in groups.items() if g not in prompt_names],
        "turn_actions": turn_actions,
        "moves": moves,
        # The board shows a casket's reachable hexes once its token is selected (issue 13).
        "reach": reach,
        "rotations": rotations,
        "hands": hands,
        "hand": next((h for h in hands if h["seat"] == focus), hands[0] if hands else None),
        "focus": focus,
        "waiting": waiting_for(state, names),
        "can_act": bool(actions),
        # Table dice: the table rolls and draws by hand; the page asks for the faces and the
        # cards drawn with each command, and the engine checks them (R-HIT-4, R-TRN-6).
        "table": state.dice_mode == "table",
        "card_ids": sorted(state.cards),
        "gm": _gm_controls(state, names, latest_command) if gm else None,
    }


def _focus_seat(state: BattleState, seats: frozenset[int], gm: bool) -> int | None:
    """The casket whose hand the table shows: the one the battle waits for, when this
    viewer plays it (the GM: any), else the viewer's first."""
    mine = {c.seat for c in state.seats} if gm else set(seats)
    waiting = [p.seat for p in state.prompts] or (
        [state.active] if state.active is not None else []
    )
    for seat in waiting:
        if seat in mine:
            return seat
    return min(seats) if seats else (min(mine) if mine else None)


def _around(state: BattleState, seat: int, facing: int) -> dict[str, Any]:
    """Where a turn's control sits: on the neighbouring hex in that direction (R-BRD-2)."""
    c = state.seats[seat]
    x, y = board_svg.centre(c.at.q, c.at.r)
    angle = math.radians(board_svg.FACING_DEGREES[facing])
    step = board_svg.SIZE * math.sqrt(3)
    return {
        "facing_name": DIRECTION_NAMES[facing],
        "x": round(x + step * math.cos(angle), 1),
        "y": round(y + step * math.sin(angle), 1),
        "tip_x": round(x + step * 0.55 * math.cos(angle), 1),
        "tip_y": round(y + step * 0.55 * math.sin(angle), 1),
    }


def _target_at(state: BattleState, seat: int) -> dict[str, Any]:
    c = state.seats[seat]
    x, y = board_svg.centre(c.at.q, c.at.r)
    return {"x": round(x, 1), "y": round(y, 1)}


def _by_dest(moves: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every move body per destination hex: the board's hex offers each (a granted move,
    a paid one, one overspending), to confirm."""
    out: dict[str, list[dict[str, Any]]] = {}
    for m in moves:
        out.setdefault(m["dest"], []).append(m)
    return [{"dest": dest, "moves": ms} for dest, ms in out.items()]


def _one_per_hex(moves: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The board's reachable hexes: the first (cheapest, a granted move first) per hex."""
    seen: dict[str, dict[str, Any]] = {}
    for m in moves:
        seen.setdefault(m["dest"], m)
    return list(seen.values())


def _gm_controls(state: BattleState, names: Names, latest_command: str | None) -> dict[str, Any]:
    return {
        "seats": [
            {
                "seat": c.seat,
                "name": c.name,
                "heat": c.heat,
                "taint": c.taint,
                "returnable": [
                    {"instance": i, "name": card_label(names.cards, i)["name"], "zone": zone}
                    for zone in ("discard", "damage_pile")
                    for i in getattr(c, zone)
                ],
            }
            for c in state.seats
        ],
        "components": list(COMPONENT_NAMES.items()),
        "directions": sorted(DIRECTION_NAMES.items()),
        "sides": [
            {"key": side, "win": names["win"][:1].upper() + names["win"][1:]}
            for side, names in sorted(side_names(state).items())
        ],
        "latest_command": latest_command,
    }
