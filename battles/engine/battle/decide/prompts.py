"""Prompts answered by command (mulligan, take damage, discard, arrange, choose), the siphon,
the Honor Duel challenge, and a target's discards (R-ADD-117); opening a prompt is
`resolution`'s."""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import (
    CardDef,
    DamageBargainEffect,
    GainTokensEffect,
    OfferMissEffect,
    TargetDiscardsEffect,
)
from ...errors import RuleViolation
from ...los import line_of_sight
from .. import events as ev
from ..commands import (
    Arrange,
    Choose,
    Command,
    DiscardDown,
    KeepHand,
    Mulligan,
    NoReactive,
    PlayReactive,
    TakeDamage,
)
from ..state import (
    HAND_SIZE,
    CasketState,
    card_id,
)
from . import conditions, costs, harm, passives, piles, reactions, resolution
from .tx import _Tx

PROMPT_COMMANDS = {
    "mulligan": (KeepHand, Mulligan),
    "reactive": (PlayReactive, NoReactive),
    "take_damage": (TakeDamage,),
    "discard_down": (DiscardDown,),
    "discard": (DiscardDown,),  # a card's "discard N of your choice" (R-ADD-62)
    "arrange": (Arrange,),  # "look at the top N cards, arrange them" (R-ADD-157)
    "ultimatum": (Choose,),  # "target enemy must choose" (R-ADD-159)
    "save": (Choose,),  # "skips their next turn (save: discard 2 cards to resist)" (R-ADD-342)
    "bargain": (Choose,),  # "enemy may discard 2 cards to reduce damage to 2" (R-ADD-159)
    "siphon": (Choose,),  # a reactive card's "miss this attack, give me 2 tokens" (R-ADD-159)
    "duel": (Choose,),  # "challenge 1 visible enemy to Honor Duel" (R-ADD-174)
    "reroll": (Choose,),  # "reroll 1 attack die": which, or none (R-ADD-282)
    # "force target to reroll up to 2 successful Defense Dice": which, or none (R-ADD-412)
    "defence_reroll": (PlayReactive, NoReactive),
    "hand_pick": (Choose,),  # "look at target's hand, choose 1 card to discard" (R-ADD-385)
    "form": (Choose,),  # "transform into one of three forms … Choose:" (R-ADD-362)
    "ally_destroyed": (
        PlayReactive,
        NoReactive,
    ),  # "when an allied Casket … is destroyed" (R-ADD-283)
    "low_deck": (
        PlayReactive,
        NoReactive,
    ),  # "play when your deck reaches 5 cards or fewer" (R-ADD-370)
    "lethal_damage": (
        PlayReactive,
        NoReactive,
    ),  # "when you would take lethal damage" (R-ADD-371)
    "temporal_loop": (Choose,),  # "choose 1 enemy within 6 hexes" (R-ADD-422)
}
# Every command that answers a prompt rather than acts (`entry` hands them to `_answer`).
PROMPT_ANSWERS: tuple[type[Command], ...] = tuple(
    dict.fromkeys(t for types in PROMPT_COMMANDS.values() for t in types)
)
# The ruling behind each prompt, cited when an answer comes without its prompt.
PROMPT_RULES = {
    "mulligan": "R-TRN-1",
    "reactive": "R-REA-1",
    "take_damage": "R-DMG-6",
    "discard_down": "R-TRN-7",
    "discard": "R-ADD-62",
    "arrange": "R-ADD-157",
    "ultimatum": "R-ADD-159",
    "save": "R-ADD-342",
    "bargain": "R-ADD-159",
    "siphon": "R-ADD-159",
    "duel": "R-ADD-174",
    "reroll": "R-ADD-282",
    "defence_reroll": "R-ADD-412",
    "hand_pick": "R-ADD-385",
    "form": "R-ADD-362",
    "ally_destroyed": "R-ADD-283",
    "low_deck": "R-ADD-370",
    "lethal_damage": "R-ADD-371",
    "temporal_loop": "R-ADD-422",
}


def _answer(tx: _Tx, command: Command) -> None:
    kinds = [k for k, types in PROMPT_COMMANDS.items() if isinstance(command, types)]
    prompt = next((p for p in tx.state.prompts if p.seat == command.seat and p.kind in kinds), None)
    if prompt is None:
        waiting = ", ".join(f"seat {p.seat}: {p.kind}" for p in tx.state.prompts) or "nothing"
        raise RuleViolation(
            "no_such_prompt",
            f"seat {command.seat} has no open {'/'.join(kinds)} prompt; the battle waits for "
            f"{waiting}",
            PROMPT_RULES[kinds[0]],
        )
    seat = command.seat
    if isinstance(command, KeepHand):
        if tx.table:
            piles._deal_table_hand(tx, seat)
        tx.emit(ev.HandKept(seat))
        tx.emit(ev.PromptClosed(seat, "mulligan"))
    elif isinstance(command, Mulligan):
        if tx.table:
            # The physical hand went back and was reshuffled; only the new hand is known.
            tx.emit(ev.MulliganTaken(seat, ()))
            piles._deal_table_hand(tx, seat)
        else:
            tx.emit(ev.MulliganTaken(seat, tx.seat(seat).hand))
            order, known = tx.shuffle(tx.seat(seat).deck, "the mulligan")
            tx.emit(ev.DeckShuffled(seat, order, known, "mulligan"))
            cards = tx.take(tx.seat(seat).deck, HAND_SIZE, "the new hand", "R-TRN-1")
            tx.emit(ev.CardsDrawn(seat, cards, "mulligan", "R-TRN-1"))
        tx.emit(ev.PromptClosed(seat, "mulligan"))
    elif isinstance(command, PlayReactive | NoReactive) and prompt.kind == "ally_destroyed":
        reactions._ally_destroyed(tx, command)
    elif isinstance(command, PlayReactive | NoReactive) and prompt.kind == "low_deck":
        reactions._low_deck(tx, command)
    elif isinstance(command, PlayReactive | NoReactive) and prompt.kind == "defence_reroll":
        tx.emit(ev.PromptClosed(seat, "defence_reroll"))
        resolution._defence_rerolled(tx, command)  # R-ADD-412
    elif isinstance(command, PlayReactive | NoReactive) and prompt.kind == "lethal_damage":
        reactions._lethal(tx, command, prompt.amount, prompt.component)
    elif isinstance(command, PlayReactive):
        reactions._play_reactive(tx, command)
    elif isinstance(command, NoReactive):
        tx.emit(ev.PromptClosed(seat, "reactive"))
        resolution._reactive_declined(tx, seat)
    elif isinstance(command, TakeDamage):
        c = tx.seat(seat)
        if len(command.hand) + command.deck != prompt.amount:
            raise RuleViolation(
                "wrong_damage_split",
                f"seat {seat} must discard exactly {prompt.amount} card(s) for damage; "
                f"{len(command.hand)} from hand + {command.deck} from the deck is "
                f"{len(command.hand) + command.deck}",
                "R-DMG-6",
            )
        hand = piles._hand_cards(c, command.hand, "hand", "R-DMG-6")
        tx.emit(ev.PromptClosed(seat, "take_damage"))
        harm._take_damage(tx, seat, hand, command.deck, prompt.component)
        resolution._after_damage(tx)
    elif isinstance(command, DiscardDown):
        rule = PROMPT_RULES[prompt.kind]
        if len(command.cards) != prompt.amount:
            purpose = (
                f"to get down to {HAND_SIZE}" if prompt.kind == "discard_down" else prompt.reason
            )
            raise RuleViolation(
                "wrong_discard_count", f"discard exactly {prompt.amount} card(s) {purpose}", rule
            )
        cards = piles._hand_cards(tx.seat(seat), command.cards, "cards", rule)
        why = "discard down" if prompt.kind == "discard_down" else "chosen"
        tx.emit(ev.CardsDiscarded(seat, cards, (), why, rule))
        tx.emit(ev.PromptClosed(seat, prompt.kind))
        if prompt.kind == "discard":  # R-ADD-139: a card's "discard N of your choice"
            passives._triggers(tx, seat, "cards_discarded")
    elif isinstance(command, Choose):
        _choose(tx, command, prompt.kind, prompt.amount)
    elif isinstance(command, Arrange):
        order = _arrangement(tx.seat(seat), prompt.amount, command.cards)
        tx.emit(ev.PromptClosed(seat, "arrange"))
        resolution._arranged(tx, seat, order, command.spend)


def _arrangement(c: CasketState, n: int, names: Sequence[str]) -> tuple[str, ...]:
    """R-ADD-157: the top `n` cards of the deck in the order `names` gives (instance or
    card ids), each exactly once."""
    top = list(c.deck[:n])
    out: list[str] = []
    for name in names:
        match = next((x for x in top if x == name or card_id(x) == name), None)
        if match is None:
            raise RuleViolation(
                "not_looked_at",
                f"cards: {name!r} is not one of the {n} card(s) looked at (or is named twice)",
                "R-ADD-157",
            )
        top.remove(match)
        out.append(match)
    if top:
        raise RuleViolation(
            "wrong_arrange_count", f"put back all {n} card(s) looked at, in order", "R-ADD-157"
        )
    return tuple(out)


def _choose(tx: _Tx, command: Choose, kind: str, amount: int) -> None:
    """R-ADD-159: an ultimatum's or a damage bargain's answer; each takes its own options."""
    seat = command.seat
    options = {
        "ultimatum": ("damage", "skip_turn"),
        "save": ("discard", "skip_turn"),  # R-ADD-342
        "bargain": ("discard", "decline"),
        "siphon": ("pay", "decline"),
        "duel": ("accept", "refuse"),  # R-ADD-174
        # R-ADD-282: keep the roll, or roll die number k (from 1) again
        "reroll": ("keep", *(f"die_{k}" for k in range(1, amount + 1))),
        "form": ("assault", "tank", "scout"),  # R-ADD-362
        # R-ADD-422: the enemy within reach who takes the stored damage
        "temporal_loop": tuple(f"seat_{x}" for x in tx.state.loop_targets(seat)),
        # R-ADD-385: the cards of the hand looked at; a steal's price may be declined
        "hand_pick": ("pick", "decline")
        if kind == "hand_pick" and piles._priced(tx, seat)
        else ("pick",),
    }[kind]
    if command.option not in options:
        raise RuleViolation(
            "wrong_option",
            f"the {kind} prompt's options are {', '.join(options)}",
            PROMPT_RULES[kind]
            if kind in ("reroll", "hand_pick", "form", "save", "temporal_loop")
            else "R-ADD-159",
        )
    if command.cards and command.option not in ("discard", "pick"):
        raise RuleViolation("unused_argument", "only 'discard' and 'pick' name cards", "R-ADD-159")
    if kind == "hand_pick":
        piles._hand_pick(tx, seat, command.option, command.cards, amount)
        return
    if kind == "temporal_loop":
        tx.emit(ev.PromptClosed(seat, kind))
        resolution._loop_target(tx, seat, int(command.option.removeprefix("seat_")))
        return
    if kind == "form":
        tx.emit(ev.PromptClosed(seat, kind))
        resolution._form_chosen(tx, seat, command.option)
        return
    if kind == "save":
        tx.emit(ev.PromptClosed(seat, kind))
        resolution._save(tx, seat, command.option, command.cards, amount)
        return
    if kind == "ultimatum":
        tx.emit(ev.PromptClosed(seat, kind))
        resolution._ultimatum(tx, seat, command.option, amount)
        return
    if kind == "siphon":
        _siphon(tx, seat, command.option == "pay")
        return
    if kind == "duel":
        resolution._duel_answer(tx, seat, command.option == "accept")
        return
    if kind == "reroll":
        tx.emit(ev.PromptClosed(seat, kind))
        die = None if command.option == "keep" else int(command.option.removeprefix("die_"))
        resolution._reroll(tx, seat, die)
        return
    if command.option == "discard":
        if len(command.cards) != amount:
            raise RuleViolation(
                "wrong_discard_count", f"give up exactly {amount} hand card(s)", "R-ADD-159"
            )
        a = tx.state.attack
        assert a is not None
        card = tx.state.card(a.card)
        bargain = next(e for e in card.effects if isinstance(e, DamageBargainEffect))
        cards = piles._hand_cards(tx.seat(seat), command.cards, "cards", "R-ADD-159")
        tx.emit(ev.CardsDiscarded(seat, cards, (), f"{card.name}: bargain", "R-ADD-159"))
        tx.emit(ev.HitDamageBargained(seat, bargain.damage, card.id))
    tx.emit(ev.PromptClosed(seat, kind))
    resolution._reactive_window(tx)


def _siphon(tx: _Tx, seat: int, pay: bool) -> None:
    """R-ADD-159: the attacker pays the reactive card's price to its defender and the hit
    becomes a miss, or refuses and the defence dice are rolled."""
    a = tx.state.attack
    assert a is not None and a.reactive is not None
    reactive = tx.state.card(a.reactive)
    offer = next(e for e in reactive.effects if isinstance(e, OfferMissEffect))
    tx.emit(ev.PromptClosed(seat, "siphon"))
    if not pay:
        resolution._roll_defence(tx)
        return
    have = tx.seat(seat).tokens_of(offer.pool)
    if have < offer.n:  # pragma: no cover - the prompt opens only with the tokens
        raise RuleViolation("not_enough_tokens", f"seat {seat} holds {have}", "R-ADD-61")
    tx.emit(ev.TokensChanged(seat, offer.pool, -offer.n, have - offer.n, reactive.id))
    costs._gain_tokens(tx, a.target, GainTokensEffect(offer.pool, offer.n), reactive.id)
    tx.emit(ev.HitBargainedAway(seat, reactive.id))
    resolution._end_attack(tx, "miss")


def _challenge(tx: _Tx, seat: int, card: CardDef, target: int | None) -> None:
    """R-ADD-174: a visible enemy within the card's range, neither in a duel nor asked to
    one, is challenged and asked for its answer."""
    enemy = conditions._enemy_in_range(tx, seat, card, target)
    c, t = tx.seat(seat), tx.seat(enemy)
    others = [x.at for x in tx.state.seats if x.seat not in (seat, enemy) and x.in_battle]
    if not line_of_sight(tx.state.board, c.at, t.at, others).clear:
        raise RuleViolation(
            "no_line_of_sight", f"{card.name} challenges a visible enemy", "R-ADD-174"
        )
    for x in (c, t):
        if (
            x.duel_with is not None and tx.seat(x.duel_with).in_battle
        ) or x.challenged_by is not None:
            raise RuleViolation(
                "in_duel", f"seat {x.seat} is already in an Honor Duel", "R-ADD-174"
            )
    tx.emit(ev.DuelChallenged(seat, enemy, card.id))
    reason = f"{card.name}: accept the Honor Duel, or refuse and bear Coward's Mark (choose)"
    resolution._open_prompt(tx, enemy, "duel", 0, None, "R-ADD-174", reason)


def _target_discards(tx: _Tx, seat: int, card: CardDef, effect: TargetDiscardsEffect) -> None:
    """R-ADD-117: the target loses cards from its hand, at random among those of the kind
    the text names (every pick in the events), or of its own choice (a prompt)."""
    t = tx.seat(seat)
    if not t.in_battle:
        return
    if effect.pick == "target":
        n = min(effect.n, len(t.hand))
        if n:
            reason = f"{card.name}: discard {n} card(s) of your choice (R-ADD-117)"
            resolution._open_prompt(tx, seat, "discard", n, None, "R-ADD-117", reason)
        return

    def fits(x: CardDef) -> bool:
        # "weapon card": a Primary Weapon card (R-DMG-6, R-ADD-52); a shield card (R-REA-2)
        return {"weapon": x.kind == "primary_weapon", "shield": x.shield}.get(effect.of, True)

    pool = [x for x in t.hand if fits(tx.state.card(x))]
    n = min(effect.n, len(pool))
    if not n:
        return
    purpose = f"{card.name}: the target's random card(s)"
    order, _ = tx.shuffle(pool, purpose)
    picked = tx.take(order, n, purpose, "R-ADD-117")
    if effect.lost:  # "destroy": lost as damage is, no component (R-DMG-8)
        harm._take_damage(tx, seat, picked, 0, None)
    else:
        tx.emit(ev.CardsDiscarded(seat, picked, (), card.name, "R-ADD-117"))
