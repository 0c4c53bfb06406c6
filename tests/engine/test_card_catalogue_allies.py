"""Scenarios for the catalogue entries that act on or for an ally, or count the allies near
a casket (issue 17, allies: R-ADD-120, R-ADD-121), played through decide/evolve like those
of test_card_catalogue.py, whose helpers they use. The battles here have more than two
seats: seat 0 ("pack") plays the card, seat 1 ("prey") stands adjacent to its north, and
the further seats are allies or enemies, each with the faction its setup names (or none).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from battles.engine.battle.events import (
    AllyMoved,
    AttackCovered,
    AttackDeclared,
    AttackRolled,
    AttackWarded,
    BuffGained,
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    CardsRecovered,
    CasketDefeated,
    CasketMoved,
    CasketWithdrew,
    DamageCardsRemoved,
    DamageDeflected,
    DeckReshuffled,
    DefenceLent,
    DefenceRaised,
    DefenceRolled,
    Event,
    RoundEnded,
    TaintChanged,
    TokensChanged,
    ZoneCreated,
)
from battles.engine.cards import CardDef, card_from_dict

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, start
from .test_card_catalogue import (
    AUTOMATED,
    ENTRIES,
    MAUL,
    Attack,
    arrange,
    attack,
    autoplayed,
    built,
    check_attack,
    declared,
    hit,
    run_scenario,
)

ALLIES_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}

ITEMS = "equipment_items"
EMERGENT, VESTIGE = "emergent", "vestige-bloodlines"
# Another seat: its hex, its side ("pack" is seat 0's), the faction its setup names.
Other = tuple[tuple[int, int], str, str | None]


def _field(
    card: CardDef,
    others: Sequence[Other] = (),
    *,
    first: int = 0,
    ally_hand: Sequence[str] = (),
) -> Battle:
    """Seat 0 (side "pack", at [0, 3] facing N) holds `card`; seat 1 (side "prey", at
    [0, 2] facing S) holds the test's Maul (Melee 2) and a Blade (Melee 3); `others` are
    seats 2.. facing SW (toward seat 1 from [1, 1]), holding `ally_hand` (which may name
    `card`). `first` (0 or 1) acts first."""
    extra = sorted({*ally_hand} - {card.id, "blade"})
    cards = [CARDS[FILLER], MAUL, CARDS["blade"], card.as_dict(), *(CARDS[c] for c in extra)]

    def casket_seat(n: int, at: tuple[int, int], facing: int, side: str, faction: str | None):
        s = seat(n, at=at, facing=facing, side=side)
        if faction is not None:
            s["casket"] = {**s["casket"], "faction": faction}
        return s

    seats = [
        {**casket_seat(0, (0, 3), 1, "pack", None), "deck": deck(**{card.id: 2})},
        {**casket_seat(1, (0, 2), 4, "prey", None), "deck": deck(**{"test-maul": 2, "blade": 1})},
        *(
            {
                **casket_seat(2 + i, at, 5, side, faction),
                "deck": deck(**dict.fromkeys(ally_hand, 1)),
            }
            for i, (at, side, faction) in enumerate(others)
        ),
    ]
    doc = {
        "name": "Allies", "board": {"name": "Allies", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"}, "policy": "prompt",
        "cards": cards, "seats": seats,
    }  # fmt: skip
    fill = [FILLER] * 6
    hands = [
        [card.id, *fill[:5]],
        ["test-maul", "blade", *fill[:4]],
        *([*ally_hand, *fill[: 6 - len(ally_hand)]] for _ in others),
    ]
    faces = [6, 1] if first == 0 else [1, 6]
    b = start(doc, hands, initiative=(*faces, *[1] * len(others)))
    assert b.state.active == first
    return b


def _play(b: Battle, cid: str, **extra: Any) -> list[Event]:
    return b.do({"type": "play_card", "seat": 0, "card": f"{cid}#1", **extra})


def _refused(b: Battle, cid: str, **extra: Any) -> tuple[str, str]:
    err = b.refuse({"type": "play_card", "seat": 0, "card": f"{cid}#1", **extra})
    return err.code, err.rule


# --- R-ADD-121: attacks that count allies ----------------------------------------------------


def _counted_attack(section: str, cid: str, cases: Sequence[tuple[Sequence[Other], int]]) -> None:
    """Each case: the other seats, and the hit damage the card's attack on seat 1 declares."""
    card = built(section, cid)
    for others, damage in cases:
        assert hit(declared(_field(card, others), card)) == damage, others


def _hive_claw(section: str, base: int) -> Callable[[], None]:
    def scenario() -> None:
        """ "Deal 5 (4) damage. If you have 2+ allied Emergent units within 3 hexes, deal 6
        (5) damage instead.": allies of the own side in the battle whose setup names the
        Emergent faction, within 3 hexes of the attacker (R-ADD-121)."""
        e = EMERGENT
        _counted_attack(
            section,
            "hive-claw",
            [
                ([((1, 3), "pack", e), ((-3, 3), "pack", e)], base + 1),  # 1 and 3 hexes
                ([((1, 3), "pack", e)], base),  # one is not two
                ([((1, 3), "pack", e), ((-4, 3), "pack", e)], base),  # 4 hexes away
                ([((1, 3), "pack", e), ((-1, 3), "pack", None)], base),  # no faction named
                ([((1, 3), "pack", e), ((-1, 3), "pack", "church")], base),  # another faction
                ([((1, 3), "pack", e), ((-1, 3), "prey", e)], base),  # an enemy is no ally
            ],
        )

    return scenario


def _swarm_rush(section: str, base: int) -> Callable[[], None]:
    def scenario() -> None:
        """ "Deal 5 (4) damage. +1 damage for each allied Emergent unit adjacent to target
        (max +3).": the target at [0, 2]; the attacker itself, adjacent too, is no ally of
        its own (R-ADD-121)."""
        e = EMERGENT
        near_target = [((1, 2), "pack", e), ((-1, 2), "pack", e), ((1, 1), "pack", e)]
        _counted_attack(
            section,
            "swarm-rush",
            [
                ([], base),
                (near_target[:1], base + 1),
                (near_target[:2], base + 2),
                (near_target, base + 3),
                ([*near_target, ((0, 1), "pack", e)], base + 3),  # max +3
                ([((0, 4), "pack", e)], base),  # adjacent to the attacker, not the target
                ([((1, 2), "pack", VESTIGE)], base),
            ],
        )

    return scenario


def _alphas_bite() -> None:
    """ "Deal 6 damage. If you have 2+ allied Vestige Caskets adjacent, deal 8 damage
    instead. Pack leader's fury.": adjacent is distance 1 from the attacker (R-ADD-121)."""
    v = VESTIGE
    _counted_attack(
        VESTIGE,
        "alphas-bite",
        [
            ([((1, 3), "pack", v), ((-1, 3), "pack", v)], 8),
            ([((1, 3), "pack", v), ((-2, 3), "pack", v)], 6),  # 2 hexes away
            ([((1, 3), "pack", v), ((-1, 3), "pack", EMERGENT)], 6),
        ],
    )


ALLIES_SCENARIOS.update({
    ("equipment", "hive-claw"): _hive_claw("equipment", 5),
    (ITEMS, "hive-claw"): _hive_claw(ITEMS, 4),
    ("equipment", "swarm-rush"): _swarm_rush("equipment", 5),
    (ITEMS, "swarm-rush"): _swarm_rush(ITEMS, 4),
    (VESTIGE, "alphas-bite"): _alphas_bite,
})  # fmt: skip


# --- R-ADD-121: reactive cards that count allies ---------------------------------------------


def _answered(section: str, cid: str, others: Sequence[Other]) -> DefenceRolled:
    """Seat 1 hits seat 0 with the Maul (2 damage, no blocks); seat 0 answers with the card
    (R-REA-1): the defence roll with the card's reduction."""
    b = _field(built(section, cid), others, first=1)
    b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
          "component": "chassis", "faces": [3, 2]})  # fmt: skip
    assert [p.kind for p in b.state.prompts] == ["reactive"]
    events = b.do({"type": "play_reactive", "seat": 0, "card": f"{cid}#1", "faces": [4, 4]})
    rolled: DefenceRolled = one(events, DefenceRolled)
    return rolled


def _pack_defense(section: str) -> Callable[[], None]:
    def scenario() -> None:
        """ "Play when targeted by attack. Reduce damage by 1 per adjacent ally Vestige
        Casket (max 3).": counted as the card is played (R-ADD-67, R-ADD-121)."""
        v = VESTIGE
        adjacent = [((1, 3), "pack", v), ((-1, 3), "pack", v), ((0, 4), "pack", v)]
        for others, reduction in (
            ([], 0),
            (adjacent[:1], 1),
            ([*adjacent[:1], ((-2, 3), "pack", v)], 1),  # 2 hexes away
            ([*adjacent[:2], ((-1, 4), "pack", EMERGENT)], 2),
            (adjacent, 3),
            ([*adjacent, ((-1, 4), "pack", v)], 3),  # max 3
        ):
            rolled = _answered(section, "pack-defense", others)
            assert rolled.reduction_applied == reduction, others
            assert rolled.final_damage == max(0, 2 - reduction)

    return scenario


def _hive_mind_shield_equipment() -> None:
    """ "Play when targeted by attack. Reduce damage by 1 per allied Emergent unit within 3
    hexes (max 4).\""""
    e = EMERGENT
    near = [((1, 3), "pack", e), ((-3, 3), "pack", e), ((0, 5), "pack", e), ((2, 3), "pack", e)]
    for others, reduction in (
        ([], 0),
        (near[:2], 2),
        ([*near[:2], ((0, 7), "pack", e)], 2),  # 4 hexes away
        (near, 4),
        ([*near, ((-1, 3), "pack", e)], 4),  # max 4
    ):
        rolled = _answered("equipment", "hive-mind-shield", others)
        assert rolled.reduction_applied == reduction, others
        assert rolled.final_damage == max(0, 2 - reduction)


def _hive_mind_shield_item() -> None:
    """ "Play when targeted by attack. Reduce damage by 2 (minimum 1). If allied Emergent
    units are within 3 hexes, reduce by 1 additional per ally (max 4 total).": the minimum
    holds for the whole reduction (R-ADD-58, R-ADD-121)."""
    e = EMERGENT
    near = [((1, 3), "pack", e), ((-3, 3), "pack", e), ((0, 5), "pack", e)]
    for others, reduction in (([], 2), (near[:1], 3), (near[:2], 4), (near, 4)):
        rolled = _answered(ITEMS, "hive-mind-shield", others)
        assert rolled.reduction_applied == reduction, others
        assert rolled.final_damage == 1  # 2 damage, never below 1


ALLIES_SCENARIOS.update({
    ("equipment", "pack-defense"): _pack_defense("equipment"),
    (ITEMS, "pack-defense"): _pack_defense(ITEMS),
    ("equipment", "hive-mind-shield"): _hive_mind_shield_equipment,
    (ITEMS, "hive-mind-shield"): _hive_mind_shield_item,
})  # fmt: skip


# --- R-ADD-120: cards that act on an ally ------------------------------------------------------


def _collective_consciousness() -> None:
    """ "Choose 1 allied Emergent Syndicate Casket within range. They immediately draw 2
    cards and gain 1 Metamorph token. Share knowledge through the hive." (6 hexes): the
    command's target, an Emergent ally within 6 hexes (R-ADD-120, R-ADD-121)."""
    cid = "collective-consciousness"
    card = built(EMERGENT, cid)
    others: list[Other] = [((0, 6), "pack", EMERGENT), ((1, 3), "pack", "church"),
                           ((0, -4), "pack", EMERGENT), ((-1, 3), "prey", EMERGENT)]  # fmt: skip
    b = _field(card, others)
    hand = len(b.seat(2).hand)
    events = _play(b, cid, target=2, drawn=[FILLER, FILLER])
    assert one(events, CardsDrawn).seat == 2 and len(b.seat(2).hand) == hand + 2
    assert one(events, TokensChanged) == TokensChanged(2, "metamorph", 1, 1, cid)
    assert len(b.seat(0).hand) == 5 and b.seat(0).tokens_of("metamorph") == 0
    refusals = {
        None: ("target_required", "R-ADD-120"),
        0: ("not_an_ally", "R-ADD-120"),  # not "self or"
        1: ("not_an_ally", "R-ADD-120"),  # the enemy
        3: ("not_of_faction", "R-ADD-121"),  # a Church ally
        4: ("out_of_range", "R-ADD-120"),  # 7 hexes away
        5: ("not_an_ally", "R-ADD-120"),  # an Emergent enemy
    }
    for target, refusal in refusals.items():
        extra = {} if target is None else {"target": target}
        assert _refused(_field(card, others), cid, drawn=[FILLER] * 2, **extra) == refusal


def _metamorph_serum() -> None:
    """ "Target gains 2 Metamorph tokens immediately. Can target self or adjacent Emergent
    Syndicate ally. Accelerate transformation." (R-ADD-120, R-ADD-121)"""
    cid = "metamorph-serum"
    card = built(EMERGENT, cid)
    others: list[Other] = [((1, 3), "pack", EMERGENT), ((-2, 3), "pack", EMERGENT)]
    b = _field(card, others)
    _play(b, cid, target=0)
    assert (b.seat(0).tokens_of("metamorph"), b.seat(2).tokens_of("metamorph")) == (2, 0)
    b = _field(card, others)
    _play(b, cid, target=2)
    assert (b.seat(0).tokens_of("metamorph"), b.seat(2).tokens_of("metamorph")) == (0, 2)
    assert _refused(_field(card, others), cid, target=3) == ("out_of_range", "R-ADD-120")


def _taint_of(b: Battle, n: int, taint: int) -> None:
    arrange(b, TaintChanged(n, taint, taint, "arranged"))


def _purify() -> None:
    """ "Remove 1 Taint from self or ally within 2 hexes\" (R-ADD-120, R-ADD-66)."""
    cid = "blessed-talisman-purify"
    card = built(ITEMS, cid)
    others: list[Other] = [((-2, 3), "pack", None), ((3, 3), "pack", None)]
    for target in (0, 2):
        b = _field(card, others)
        for n in (0, 2, 3):
            _taint_of(b, n, 2)
        assert one(_play(b, cid, target=target), TaintChanged).seat == target
        assert [b.seat(n).taint for n in (0, 2, 3)] == [1 if n == target else 2 for n in (0, 2, 3)]
    b = _field(card, others)
    _taint_of(b, 3, 2)
    assert _refused(b, cid, target=3) == ("out_of_range", "R-ADD-120")


def _discard_of(b: Battle, n: int, count: int) -> tuple[str, ...]:
    """Put `count` of seat `n`'s deck cards on its discard pile; the cards, oldest first."""
    cards = b.seat(n).deck[:count]
    arrange(b, CardsDiscarded(n, (), cards, "arranged", "R-ADD-14"))
    return cards


def _healing_light() -> None:
    """ "Ally within 3 hexes recovers 3 cards from discard pile": the ally's newest 3, into
    its hand; the player's own discard pile is untouched (R-ADD-62, R-ADD-120)."""
    cid = "codex-of-light-healing-light"
    card = built(ITEMS, cid)
    b = _field(card, [((-3, 3), "pack", None)])
    older = _discard_of(b, 2, 1)
    newest = _discard_of(b, 2, 3)
    mine = _discard_of(b, 0, 2)
    events = _play(b, cid, target=2)
    assert one(events, CardsRecovered).seat == 2
    assert set(newest) <= set(b.seat(2).hand) and b.seat(2).discard == older
    assert set(mine) <= set(b.seat(0).discard)
    far = _field(card, [((-4, 3), "pack", None)])
    assert _refused(far, cid, target=2) == ("out_of_range", "R-ADD-120")
    assert _refused(far, cid, target=0) == ("not_an_ally", "R-ADD-120")


def _blessing() -> None:
    """ "Ally within 3 hexes gains +2 damage on next attack, recover 1 card": the ally's
    next attack deals 2 more (R-ADD-27) and it recovers its newest discarded card
    (R-ADD-120)."""
    cid = "codex-of-light-blessing"
    card = built(ITEMS, cid)
    b = _field(card, [((1, 1), "pack", None)], ally_hand=["gun"])
    newest = _discard_of(b, 2, 2)[-1]
    events = _play(b, cid, target=2)
    assert one(events, BuffGained) == BuffGained(2, 2, 0, 0, 0, cid)
    assert one(events, CardsRecovered).cards == (newest,) and newest in b.seat(2).hand
    assert (
        _ally_gun_hit(b, drawn=[FILLER])
        == _ally_gun_hit(_field(card, [((1, 1), "pack", None)], ally_hand=["gun"])) + 2
    )


def _ally_gun_hit(b: Battle, **drawn: Any) -> int:
    """Seats 0 and 1 pass; seat 2 attacks seat 1 with the Gun: the declared hit damage."""
    b.do({"type": "pass", "seat": 0, **drawn})
    b.do({"type": "pass", "seat": 1})
    assert b.state.active == 2  # clockwise from seat 0 (R-TRN-2)
    events = b.do({"type": "attack", "seat": 2, "card": "gun#1", "target": 1,
                   "component": "chassis", "faces": [1, 1]})  # fmt: skip
    return hit(one(events, AttackDeclared))


def _mass_healing() -> None:
    """ "All allies within 3 hexes recover 2 cards from discard pile": each ally in reach,
    none named, never the player's own casket nor an enemy (R-ADD-120)."""
    cid = "divine-scepter-mass-healing"
    card = built(ITEMS, cid)
    others: list[Other] = [((1, 3), "pack", None), ((-3, 3), "pack", None),
                           ((-4, 3), "pack", None), ((-1, 3), "prey", None)]  # fmt: skip
    b = _field(card, others)
    piles = {n: _discard_of(b, n, 3) for n in (0, 2, 3, 4, 5)}
    events = _play(b, cid)
    assert [e.seat for e in of_type(events, CardsRecovered)] == [2, 3]
    for n in (2, 3):
        assert b.seat(n).discard == piles[n][:1]
    assert b.seat(0).discard == (*piles[0], f"{cid}#1")  # the card itself, once resolved
    for n in (4, 5):
        assert b.seat(n).discard == piles[n]
    alone = _field(card)
    assert not of_type(_play(alone, cid), CardsRecovered)  # nobody in reach: nothing
    assert _refused(_field(card, others), cid, target=2) == ("unused_argument", "R-ADD-14")


def _purification_splash() -> None:
    """ "Remove 2 Taint from self or ally within 2 hexes, heal 2 cards from discard. Remove
    this card from game after use.": both for the one chosen (R-ADD-120), then the card is
    removed (R-ADD-70)."""
    cid = "holy-water-vials-purification-splash"
    card = built(ITEMS, cid)
    for target in (0, 2):
        b = _field(card, [((0, 5), "pack", None)])
        for n in (0, 2):
            _taint_of(b, n, 3)
        discarded = {n: _discard_of(b, n, 2) for n in (0, 2)}
        events = _play(b, cid, target=target)
        assert one(events, TaintChanged).seat == target
        assert one(events, CardsRecovered).seat == target
        assert set(discarded[target]) <= set(b.seat(target).hand)
        assert [b.seat(n).taint for n in (0, 2)] == [1 if n == target else 3 for n in (0, 2)]
        assert f"{cid}#1" in b.seat(0).removed and f"{cid}#1" not in b.seat(0).discard


ALLIES_SCENARIOS.update({
    (EMERGENT, "collective-consciousness"): _collective_consciousness,
    (EMERGENT, "metamorph-serum"): _metamorph_serum,
    (ITEMS, "blessed-talisman-purify"): _purify,
    (ITEMS, "codex-of-light-healing-light"): _healing_light,
    (ITEMS, "codex-of-light-blessing"): _blessing,
    (ITEMS, "divine-scepter-mass-healing"): _mass_healing,
    (ITEMS, "holy-water-vials-purification-splash"): _purification_splash,
})  # fmt: skip


def test_the_autoplayer_plays_ally_cards_in_a_battle_of_four() -> None:
    """Legal actions name the ally a card acts on (R-ADD-120): a seeded digital battle of
    two sides of two Emergent caskets, decks of this file's cards, runs under the greedy
    player through legal actions only, ally cards included, and replays to the same state."""

    picks = [
        (EMERGENT, "collective-consciousness"),
        (EMERGENT, "metamorph-serum"),
        (ITEMS, "blessed-talisman-purify"),
        (ITEMS, "codex-of-light-healing-light"),
        (ITEMS, "codex-of-light-blessing"),
        (ITEMS, "divine-scepter-mass-healing"),
        ("equipment", "hive-claw"),
        ("equipment", "swarm-rush"),
        ("equipment", "hive-mind-shield"),
        ("equipment", "pack-defense"),
        (ITEMS, "world-tree-staff-nature-s-blessing"),
        (EMERGENT, "hivemind-beacon"),
        ("equipment", "swarm-dispersal"),
        ("equipment", "coordinated-assault"),
    ]
    cards = {cid: built(section, cid) for section, cid in picks}
    cards["martyr-shield"] = built("church", "martyr-shield")  # covers within 3 hexes
    rows = [{"card": cid, "count": 2} for cid in cards]
    for row in rows[: 30 - 2 * len(rows)]:  # R-TRN-1: 30 cards
        row["count"] += 1

    def member(n: int, at: tuple[int, int], facing: int, side: str) -> dict[str, Any]:
        s = seat(n, at=at, facing=facing, side=side)
        return {**s, "casket": {**s["casket"], "faction": EMERGENT}, "deck": rows}

    doc = {
        "name": "Hive against hive",
        "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 4}, "hexes": []},
        "rules": {"version": "2.1", "options": {}},
        "dice": {"mode": "digital", "seed": 5, "seed_public": True},
        "policy": "prompt",  # the greedy player answers the cover prompts too
        "cards": [c.as_dict() for c in cards.values()],
        "seats": [member(0, (0, 3), 1, "a"), member(1, (0, -3), 4, "b"),
                  member(2, (1, 2), 1, "a"), member(3, (-1, -2), 4, "b")],
    }  # fmt: skip
    events = autoplayed("hive-autoplay", doc, seed=2, commands=800)
    # The metamorph tokens an ally card gave a casket other than the one that played it.
    player = None
    given = 0
    for e in events:
        if isinstance(e, CardPlayed):
            player = e.seat
        elif isinstance(e, TokensChanged) and e.source in (
            "collective-consciousness",
            "metamorph-serum",
        ):
            given += e.seat != player
    assert given, "no ally card acted on an ally"
    assert of_type(events, DefenceLent) and of_type(events, AttackCovered)
    assert of_type(events, AllyMoved)


def test_a_setup_names_a_caskets_faction_or_leaves_it_out() -> None:
    """R-ADD-121: `casket.faction` is one of the database's factions, kept in the normalised
    setup and the casket's state; a setup without it normalises as before."""
    from battles.engine.battle.setup import parse_setup
    from battles.engine.errors import InvalidInput

    from .battle_builder import setup

    doc = setup()
    plain = parse_setup(doc)
    assert "faction" not in plain["seats"][0]["casket"]
    doc["seats"][0]["casket"]["faction"] = "emergent"
    assert parse_setup(doc)["seats"][0]["casket"]["faction"] == "emergent"
    b = Battle.create(doc)
    assert (b.seat(0).faction, b.seat(1).faction) == ("emergent", None)
    doc["seats"][1]["casket"]["faction"] = "Emergent Syndicate"
    with pytest.raises(InvalidInput) as err:
        parse_setup(doc)
    assert (err.value.field, err.value.rule) == ("seats[1].casket.faction", "R-ADD-121")


def test_every_faction_the_catalogue_names_is_a_database_faction() -> None:
    """cards.py checks a faction's spelling only (carddb imports it): a misspelt faction
    would count nobody, so the catalogue's are checked here (R-ADD-121)."""
    import json

    from battles.engine.carddata.carddb import FACTIONS

    named = set()
    for e in ENTRIES.values():

        def walk(x: object) -> None:
            if isinstance(x, dict):
                if "faction" in x:
                    named.add(x["faction"])
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)

        walk(json.loads(json.dumps([f.as_dict() for f in e.effects or ()])))
    assert named and named <= set(FACTIONS), named


# --- R-ADD-122: taking an ally's damage --------------------------------------------------------


def built_reactive(section: str, cid: str) -> CardDef:
    """`built` for a card whose only reactive effect is `cover`: the database's own entry
    makes it reactive (R-REA-1)."""
    card = built(section, cid)
    assert card.kind == "reactive", (section, cid)
    return card


def _covering(card: CardDef, reach: int, others: Sequence[Other] = ()) -> Battle:
    """Seat 2 (an ally, at [1, 2]) stands adjacent to seat 1, which acts first; seat 0, with
    `card`, is moved `reach` hexes from seat 2 (GM relocate, R-ADD-24)."""
    b = _field(card, [((1, 2), "pack", None), *others], first=1)
    b.do({"type": "relocate", "seat": 0, "at": [1 + reach, 2], "facing": 1, "reason": "arranged"})
    assert b.seat(0).at.distance(b.seat(2).at) == reach
    return b


def _hit_seat_2(b: Battle, weapon: str = "test-maul", faces: Sequence[int] = (3, 2)) -> int:
    """Seat 1, from [0, 2], hits seat 2 (at [1, 2], adjacent) in melee: the hit's damage
    (the weapon's, and the flank's, R-DMG-1)."""
    events = b.do({"type": "attack", "seat": 1, "card": f"{weapon}#1", "target": 2,
                   "component": "chassis", "faces": list(faces)})  # fmt: skip
    damage: int = one(events, AttackRolled).damage
    return damage


def _cover(
    section: str, cid: str, reach: int, *, weapon: str = "test-maul", reduce: int = 0, heat: int = 0
) -> None:
    """Seat 0 covers seat 2 when seat 1 hits it: seat 2 still rolls its defence (every die
    BLOOD: no block), and the damage it leaves, less the card's reduction, is seat 0's to
    discard, with no component (R-ADD-122)."""
    card = built_reactive(section, cid)
    b = _covering(card, reach)
    damage = _hit_seat_2(b, weapon)
    assert damage >= {"test-maul": 2, "blade": 3}[weapon]
    prompt = b.state.prompts[0]
    assert (prompt.seat, prompt.kind, prompt.rule) == (0, "reactive", "R-ADD-122")
    events = b.do({"type": "play_reactive", "seat": 0, "card": f"{cid}#1", "faces": [4] * damage})
    assert one(events, AttackCovered) == AttackCovered(0, 2, f"{cid}#1", reduce)
    assert one(events, DefenceRolled).seat == 2  # the attacked casket's own roll
    assert b.seat(0).heat == heat
    taken = damage - reduce
    prompt = b.state.prompts[0]
    assert (prompt.seat, prompt.kind, prompt.amount, prompt.component) == (
        0,
        "take_damage",
        taken,
        None,
    )
    assert "R-ADD-122" in prompt.reason
    b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": taken, "drawn": [FILLER] * taken})
    assert b.state.attack is None and f"{cid}#1" in b.seat(0).discard
    assert (len(b.seat(0).deck), len(b.seat(2).deck)) == (24 - taken, 24)
    # Declined, or one hex too far: seat 2, without a reactive card, takes its damage.
    declined = _covering(card, reach)
    _hit_seat_2(declined, weapon)
    declined.do({"type": "no_reactive", "seat": 0, "faces": [4] * damage})
    far = _covering(card, reach + 1)
    assert _hit_seat_2(far, weapon, (3, 2, *[4] * damage)) == damage
    for b in (declined, far):
        assert not of_type(b.events, AttackCovered)
        assert [(p.seat, p.kind, p.amount) for p in b.state.prompts] == [(2, "take_damage", damage)]
    # The card covers an ally only: attacked itself, seat 0 is offered no window for it.
    b = _field(card, first=1)
    b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
          "component": "chassis", "faces": [3, 2, 4, 4]})  # fmt: skip
    assert not of_type(b.events, AttackCovered) and not any(
        p.kind == "reactive" for p in b.state.prompts
    )


def _interpose() -> None:
    """ "Reactive: Take ally's damage." (Adjacent)"""
    _cover("equipment", "interpose", 1)


def _martyrdom_protocol() -> None:
    """ "When an ally within 2 hexes would take damage, redirect that damage to yourself
    instead. Gain 1 Heat.\""""
    _cover("church", "martyrdom-protocol", 2, heat=1)


def _martyr_shield() -> None:
    """ "When an ally within 3 hexes is attacked, redirect that attack to yourself. Reduce
    damage by 2. Ally protection.": after the hit, the damage is redirected (R-ADD-122)."""
    _cover("church", "martyr-shield", 3, weapon="blade", reduce=2)


ALLIES_SCENARIOS.update({
    ("equipment", "interpose"): _interpose,
    ("church", "martyrdom-protocol"): _martyrdom_protocol,
    ("church", "martyr-shield"): _martyr_shield,
})  # fmt: skip


def test_allies_are_asked_in_seat_order_and_the_attacked_casket_still_answers() -> None:
    """R-ADD-122: seat 0 declines, seat 3 covers and nobody else is asked; seat 2, attacked,
    then plays its own reactive card (R-REA-1 is each casket's), whose reduction comes off
    the damage seat 3 takes. A PIERCE face voids the covering card: seat 2 takes it."""
    card = built_reactive("equipment", "interpose")
    for pierce in (False, True):
        # Seat 3 at [2, 1] and seat 0 (moved) at [2, 2] are both adjacent to seat 2.
        b = _field(card, [((1, 2), "pack", None), ((2, 1), "pack", None)], first=1,
                   ally_hand=["interpose", "ward"])  # fmt: skip
        b.do({"type": "relocate", "seat": 0, "at": [2, 2], "facing": 1, "reason": "arranged"})
        damage = _hit_seat_2(b)
        assert [(p.seat, p.kind) for p in b.state.prompts] == [(0, "reactive")]
        b.do({"type": "no_reactive", "seat": 0})
        assert [(p.seat, p.kind) for p in b.state.prompts] == [(3, "reactive")]
        wrong = b.refuse({"type": "play_reactive", "seat": 3, "card": "ward#1"})
        assert (wrong.code, wrong.rule) == ("not_a_cover_card", "R-ADD-122")
        b.do({"type": "play_reactive", "seat": 3, "card": "interpose#1"})
        assert [(p.seat, p.kind) for p in b.state.prompts] == [(2, "reactive")]
        own = b.refuse({"type": "play_reactive", "seat": 2, "card": "interpose#1"})
        assert (own.code, own.rule) == ("cover_for_an_ally", "R-ADD-122")
        faces = [5 if pierce else 4] + [4] * (damage - 1)  # 5: PIERCE, 4: BLOOD
        b.do({"type": "play_reactive", "seat": 2, "card": "ward#1", "faces": faces})
        taker = 2 if pierce else 3
        amount = damage if pierce else damage - 1  # PIERCE voids the ward too (R-DMG-4)
        assert [(p.seat, p.kind, p.amount) for p in b.state.prompts] == [
            (taker, "take_damage", amount)
        ]
        b.do({"type": "take_damage", "seat": taker, "hand": [], "deck": amount,
              "drawn": [FILLER] * amount})  # fmt: skip
        assert b.state.attack is None
        assert "interpose#1" in b.seat(3).discard and "ward#1" in b.seat(2).discard


def test_policy_auto_declines_every_cover_and_the_attack_goes_on() -> None:
    """R-ADD-122 under policy auto (issue 4): nobody covers, the attacked casket takes it."""
    from battles.engine.battle import replay
    from battles.engine.battle.decide import create

    card = built_reactive("equipment", "interpose")
    doc: dict[str, Any] = {
        "name": "Auto", "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 4}, "hexes": []},
        "rules": {"version": "2.0", "options": {}},
        "dice": {"mode": "digital", "seed": 3, "seed_public": True}, "policy": "auto",
        "cards": [CARDS[FILLER], MAUL, card.as_dict()],
        "seats": [{**seat(0, at=(1, 1), facing=1, side="a"), "deck": deck(interpose=30)},
                  {**seat(1, at=(0, 0), facing=3, side="b"), "deck": deck(**{"test-maul": 30})},
                  {**seat(2, at=(1, 0), facing=1, side="a"), "deck": deck(interpose=30)}],
    }  # fmt: skip
    b = Battle(create("auto-cover", doc))
    while b.state.active != 1:
        b.do({"type": "pass", "seat": b.state.active})
    for _ in range(20):  # until a hit: the declines are automatic
        if b.state.active != 1 or b.seat(1).sp_left < 1:
            break
        b.do({"type": "attack", "seat": 1, "card": next(x for x in b.seat(1).hand if "maul" in x),
              "target": 2, "component": "chassis"})  # fmt: skip
    declined = [e.seat for e in b.events if type(e).__name__ == "ReactiveDeclined"]
    assert declined and set(declined) <= {0, 2} and not of_type(b.events, AttackCovered)
    assert replay(b.events) == b.state


def test_a_snapshot_mid_cover_reads_back_as_the_same_state() -> None:
    """The cover fields of the attack in progress survive a snapshot (R-ADD-122)."""
    from battles.engine.battle.snapshot import state_from_dict, state_to_dict

    card = built_reactive("equipment", "interpose")
    b = _field(card, [((1, 2), "pack", None), ((2, 1), "pack", None)], first=1,
               ally_hand=["interpose"])  # fmt: skip
    b.do({"type": "relocate", "seat": 0, "at": [2, 2], "facing": 1, "reason": "arranged"})
    _hit_seat_2(b)
    b.do({"type": "no_reactive", "seat": 0})
    b.do({"type": "play_reactive", "seat": 3, "card": "interpose#1", "faces": [4, 4, 4]})
    a = b.state.attack
    assert a is not None and (a.covered_by, a.cover_declined) == (3, (0,))
    assert state_from_dict(state_to_dict(b.state)) == b.state


# --- R-ADD-123: Defense given to an ally ----------------------------------------------------


def _asset_protection() -> None:
    """ "Target ally gains +2 Defense until your next turn. Costs 1 Credit." (Self or
    Adjacent): the ally's +2 lasts until the player's next turn starts, past the ally's
    own turn; on the player's own casket it is R-ADD-64's (R-ADD-123, R-ADD-61)."""
    cid = "asset-protection"
    card = built("equipment", cid)
    # Seat 2 adjacent to seat 0 and to seat 1 (the enemy), seat 3 two hexes from seat 0.
    others: list[Other] = [((-1, 3), "pack", None), ((-2, 3), "pack", None)]
    b = _field(card, others)
    assert _refused(b, cid, target=2) == ("spend_required", "R-ADD-61")
    arrange(b, TokensChanged(0, "credit", 1, 1, "arranged"))
    assert _refused(b, cid, target=3, spend=True) == ("out_of_range", "R-ADD-120")
    events = _play(b, cid, target=2, spend=True)
    assert one(events, DefenceLent) == DefenceLent(2, 2, 0, cid)
    assert b.seat(0).tokens_of("credit") == 0 and b.seat(2).card_defence == 2
    # Seat 0's turn ends, seat 1's (the enemy's) attack on seat 2 counts the 2 blocks...
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    events = b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 2,
                   "component": "chassis", "faces": [1, 1]})  # fmt: skip
    declared_ = one(events, AttackDeclared)
    assert declared_.defence_modifier == int(declared_.to_hit["defense_modifier"]) + 2
    b.do({"type": "pass", "seat": 1, "drawn": [FILLER]})
    assert b.state.active == 2 and b.seat(2).card_defence == 2  # ...past seat 2's turn start
    b.do({"type": "pass", "seat": 2})
    b.do({"type": "pass", "seat": 3, "faces": [1, 6, 1, 1]})  # round 2: seat 1 first
    assert (b.state.round, b.state.active, b.seat(2).card_defence) == (2, 1, 2)
    for n in (1, 2, 3):
        b.do({"type": "pass", "seat": n})
    assert b.state.active == 0 and b.seat(2).card_defence == 0  # gone with seat 0's turn
    own = _field(card, others)
    arrange(own, TokensChanged(0, "credit", 1, 1, "arranged"))
    assert one(_play(own, cid, target=0, spend=True), DefenceRaised).amount == 2


def _natures_blessing() -> None:
    """ "Ally within 3 hexes recovers 3 cards, gains +1 Defense until end of round": the
    ally's newest 3 discarded cards, and +1 Defense until the round ends (R-ADD-123)."""
    cid = "world-tree-staff-nature-s-blessing"
    card = built(ITEMS, cid)
    b = _field(card, [((-3, 3), "pack", None)])
    newest = _discard_of(b, 2, 3)
    events = _play(b, cid, target=2)
    assert one(events, CardsRecovered).cards == tuple(reversed(newest))
    assert one(events, DefenceLent) == DefenceLent(2, 1, -1, cid)
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    b.do({"type": "pass", "seat": 1})
    assert b.state.active == 2 and b.seat(2).card_defence == 1  # its own turn: still there
    b.do({"type": "pass", "seat": 2})
    hand = b.seat(2).hand  # 9 cards: down to 6, and the round ends (R-TRN-7)
    events = b.do({"type": "discard_down", "seat": 2, "cards": list(hand[:3]), "faces": [6, 1, 1]})
    assert of_type(events, RoundEnded) and b.seat(2).card_defence == 0
    assert _refused(_field(card, [((-4, 3), "pack", None)]), cid, target=2)[0] == "out_of_range"


ALLIES_SCENARIOS.update({
    ("equipment", "asset-protection"): _asset_protection,
    (ITEMS, "world-tree-staff-nature-s-blessing"): _natures_blessing,
})  # fmt: skip


# --- R-ADD-124: removing a Damage card --------------------------------------------------------


def _field_suture() -> None:
    """ "Remove 1 Damage card from target's discard pile from the game. Can target self or
    adjacent ally.": the newest Damage card of that pile leaves the game (R-ADD-124)."""
    cid = "field-suture"
    card = built("universal", cid)
    for target in (0, 2):
        b = _field(card, [((-1, 3), "pack", None)])
        n = target
        arrange(b, DeckReshuffled(n, ("damage#1", "damage#2"), "damage#2", True))
        older = b.seat(n).deck[:1]
        arrange(b, CardsDiscarded(n, (), ("damage#1",), "arranged", "R-ADD-14"))
        arrange(b, CardsDiscarded(n, (), older, "arranged", "R-ADD-14"))
        arrange(b, CardsDiscarded(n, (), ("damage#2",), "arranged", "R-ADD-14"))
        arrange(b, CardsDiscarded(n, (), b.seat(n).deck[:1], "arranged", "R-ADD-14"))
        hp = b.seat(n).hp
        events = _play(b, cid, target=target)
        assert one(events, DamageCardsRemoved) == DamageCardsRemoved(n, ("damage#2",), cid)
        assert "damage#2" in b.seat(n).removed and "damage#1" in b.seat(n).discard
        assert b.seat(n).hp == hp - 1 + (1 if n == 0 else 0)  # seat 0 discarded the suture
    clean = _field(card, [((-1, 3), "pack", None)])
    assert not of_type(_play(clean, cid, target=2), DamageCardsRemoved)  # none: nothing
    far = _field(card, [((-2, 3), "pack", None)])
    assert _refused(far, cid, target=2) == ("out_of_range", "R-ADD-120")


ALLIES_SCENARIOS.update({
    ("universal", "field-suture"): _field_suture,
})  # fmt: skip


# --- R-ADD-125: damage redirected to the attacker ------------------------------------------


def _deflect() -> None:
    """ "Reactive: Redirect 3 damage to attacker.": off the damage the defence roll leaves,
    at most what it leaves, and the attacker takes that once the attack has ended
    (R-ADD-125); a PIERCE face voids it (R-DMG-4)."""
    cid = "deflect"
    card = built_reactive("equipment", cid)
    # (weapon, defence faces, seat 0 takes, seat 1 takes): 1 SHIELD, 4 BLOOD, 5 PIERCE.
    for weapon, faces, kept, back in (
        ("test-maul", [4, 4], 0, 2),
        ("blade", [4, 4, 4], 0, 3),
        ("test-maul", [1, 4], 0, 1),
        ("test-maul", [5, 4], 2, 0),
    ):
        b = _field(card, first=1)
        events = b.do({"type": "attack", "seat": 1, "card": f"{weapon}#1", "target": 0,
                       "component": "chassis", "faces": [3, 2]})  # fmt: skip
        assert one(events, AttackRolled).damage == len(faces)
        events = b.do({"type": "play_reactive", "seat": 0, "card": f"{cid}#1", "faces": faces})
        assert [e.amount for e in of_type(events, DamageDeflected)] == ([back] if back else [])
        taking = [(p.seat, p.amount, p.component) for p in b.state.prompts]
        if back:  # seat 0 takes nothing; the attack ended, seat 1 discards what came back
            assert b.state.attack is None and taking == [(1, back, None)], taking
            assert "R-ADD-125" in b.state.prompts[0].reason
        else:
            assert taking == [(0, kept, "chassis")], taking


ALLIES_SCENARIOS.update({
    ("equipment", "deflect"): _deflect,
})  # fmt: skip


# --- R-ADD-126: moving an ally ----------------------------------------------------------------


def _hivemind_beacon() -> None:
    """ "Choose 1 allied Emergent Syndicate Casket within range. They immediately move up
    to 2 hexes toward you. Rally the collective." (6 hexes): the path is the command's,
    every step nearer seat 0 (R-ADD-126)."""
    cid = "hivemind-beacon"
    card = built(EMERGENT, cid)
    others: list[Other] = [((0, 8), "pack", EMERGENT), ((3, 3), "pack", "church")]
    b = _field(card, others)
    events = _play(b, cid, target=2, ally_paths=[{"seat": 2, "path": [[0, 7], [0, 6]]}])
    assert one(events, AllyMoved) == AllyMoved(2, ((0, 7), (0, 6)), 0, cid)
    assert b.seat(2).at == (0, 6) and b.seat(2).moved == 0 and b.seat(0).at == (0, 3)
    stays = _field(card, others)
    assert not of_type(_play(stays, cid, target=2), AllyMoved)  # "up to": it may stay
    refusals = [
        ({"target": 2, "ally_paths": [{"seat": 2, "path": [[1, 7]]}]}, "not_toward"),
        ({"target": 2, "ally_paths": [{"seat": 2, "path": [[0, 7], [0, 6], [0, 5]]}]},
         "path_too_long"),
        ({"target": 3, "ally_paths": [{"seat": 3, "path": [[2, 3]]}]}, "not_of_faction"),
        ({"target": 2, "ally_paths": [{"seat": 3, "path": [[2, 3]]}]}, "not_moved_by_card"),
        ({"ally_paths": [{"seat": 2, "path": [[0, 7]]}]}, "target_required"),
    ]  # fmt: skip
    for extra, code in refusals:
        assert _refused(_field(card, others), cid, **extra)[0] == code, extra
    far = _field(card, [((0, -4), "pack", EMERGENT)])  # 7 hexes away
    assert _refused(far, cid, target=2)[0] == "out_of_range"


def _swarm_dispersal(section: str) -> Callable[[], None]:
    def scenario() -> None:
        """ "Move up to 2 hexes. Allied Emergent units within 3 hexes may also move 1 hex
        (coordination)." / "… If allied Emergent units are within 3 hexes, they may also
        move 1 hex.": counted from where the player's own move ends (R-ADD-126)."""
        cid = "swarm-dispersal"
        card = built(section, cid)
        # Seat 2 is 3 hexes from [0, 3] but 4 from [-1, 4] after the move; seat 3 the
        # other way round; seat 4 is of another faction.
        others: list[Other] = [((3, 3), "pack", EMERGENT), ((-4, 4), "pack", EMERGENT),
                               ((-1, 2), "pack", VESTIGE)]  # fmt: skip
        b = _field(card, others)
        events = _play(b, cid, path=[[-1, 4]], ally_paths=[{"seat": 3, "path": [[-4, 3]]}])
        assert one(events, CasketMoved).path == ((-1, 4),)
        assert one(events, AllyMoved) == AllyMoved(3, ((-4, 3),), 0, cid)
        for moving, path in ((2, [[3, 2]]), (4, [[-2, 2]]), (3, [[-4, 3], [-3, 3]])):
            body = {"path": [[-1, 4]], "ally_paths": [{"seat": moving, "path": path}]}
            code = "path_too_long" if len(path) > 1 else "not_moved_by_card"
            assert _refused(_field(card, others), cid, **body)[0] == code
        # Any direction, and two allies at once.
        both = _field(card, [((1, 3), "pack", EMERGENT), ((-1, 3), "pack", EMERGENT)])
        moves = [{"seat": 2, "path": [[2, 3]]}, {"seat": 3, "path": [[-2, 3]]}]
        events = _play(both, cid, path=[[0, 4]], ally_paths=moves)
        assert [(e.seat, e.path) for e in of_type(events, AllyMoved)] == [
            (2, ((2, 3),)),
            (3, ((-2, 3),)),
        ]

    return scenario


ALLIES_SCENARIOS.update({
    (EMERGENT, "hivemind-beacon"): _hivemind_beacon,
    ("equipment", "swarm-dispersal"): _swarm_dispersal("equipment"),
    (ITEMS, "swarm-dispersal"): _swarm_dispersal(ITEMS),
})  # fmt: skip


@pytest.mark.parametrize(
    ("ally_paths", "field"),
    [
        ({"2": [[0, 1]]}, "ally_paths"),
        ([{"seat": 2}], "ally_paths[0]"),
        ([{"seat": 9, "path": [[0, 1]]}], "seat"),
        ([{"seat": 2, "path": []}], "ally_paths[0].path"),
        ([{"seat": 2, "path": [[0, 1]]}, {"seat": 2, "path": [[0, 2]]}], "ally_paths[1].seat"),
    ],
)
def test_ally_paths_errors_name_their_field(ally_paths: object, field: str) -> None:
    """R-ADD-126: the shape of `ally_paths` is checked as the command is parsed."""
    from battles.engine.battle import parse_command
    from battles.engine.errors import InvalidInput

    body = {"type": "play_card", "seat": 0, "card": "x#1", "ally_paths": ally_paths}
    with pytest.raises(InvalidInput) as err:
        parse_command(body)
    assert err.value.field == field


def test_ally_paths_round_trip_through_the_command_body() -> None:
    from battles.engine.battle import parse_command
    from battles.engine.battle.commands import command_body

    body = {"type": "play_card", "seat": 0, "card": "x#1",
            "ally_paths": [{"seat": 2, "path": [[0, 7], [0, 6]]}]}  # fmt: skip
    assert command_body(parse_command(body)) == body
    body = {"type": "attack", "seat": 0, "card": "x#1", "target": 1, "component": "head",
            "ally_paths": [{"seat": 2, "path": [[0, 7]]}]}  # fmt: skip
    assert command_body(parse_command(body)) == body


def _howl_of_remembrance() -> None:
    """ "All allied Vestige Caskets within 5 hexes immediately move up to 2 hexes toward
    you. **Bloodline Bonus:** Draw 1 card for each ally that moves (remembering ancestors'
    tactics). Rally the bloodlines.": a draw for each ally the command moves (R-ADD-126)."""
    cid = "howl-of-remembrance"
    card = built(VESTIGE, cid)
    others: list[Other] = [((4, 3), "pack", VESTIGE), ((-5, 3), "pack", VESTIGE),
                           ((-6, 3), "pack", VESTIGE), ((3, 3), "pack", EMERGENT)]  # fmt: skip
    b = _field(card, [o for o in others if o[2] == VESTIGE])
    moves = [{"seat": 2, "path": [[3, 3], [2, 3]]}, {"seat": 3, "path": [[-4, 3]]}]
    events = _play(b, cid, ally_paths=moves, drawn=[FILLER, FILLER])
    assert [(e.seat, e.path[-1]) for e in of_type(events, AllyMoved)] == [(2, (2, 3)), (3, (-4, 3))]
    assert len(one(events, CardsDrawn).cards) == 2 and len(b.seat(0).hand) == 7
    quiet = _field(card, others)
    assert not of_type(_play(quiet, cid), CardsDrawn)  # nobody moves: no draw
    for moving, path, code in (
        (4, [[-5, 3]], "not_moved_by_card"),  # 6 hexes away
        (5, [[2, 3]], "not_moved_by_card"),  # an Emergent ally
        (2, [[4, 2]], "not_toward"),
    ):
        body = {"ally_paths": [{"seat": moving, "path": path}], "drawn": [FILLER]}
        assert _refused(_field(card, others), cid, **body)[0] == code, moving


ALLIES_SCENARIOS.update({
    (VESTIGE, "howl-of-remembrance"): _howl_of_remembrance,
})  # fmt: skip


def _shield_wall() -> None:
    """ "Allies behind you gain +2 Defense until your next turn": the allies adjacent on
    the rear sides 3-5 of seat 0 (facing N: SE, S, SW), until seat 0's next turn
    (R-ADD-127, R-ADD-123)."""
    cid = "tower-shield-shield-wall"
    card = built(ITEMS, cid)
    others: list[Other] = [((1, 3), "pack", None), ((0, 4), "pack", None),  # SE, S
                           ((-1, 3), "pack", None), ((0, 5), "pack", None),  # NW, 2 hexes
                           ((-1, 4), "prey", None)]  # an enemy to the SW  # fmt: skip
    b = _field(card, others)
    events = _play(b, cid)
    assert of_type(events, DefenceLent) == [DefenceLent(2, 2, 0, cid), DefenceLent(3, 2, 0, cid)]
    assert [b.seat(n).card_defence for n in range(7)] == [0, 0, 2, 2, 0, 0, 0]
    turned = _field(card, others)
    turned.do({"type": "relocate", "seat": 0, "at": [0, 3], "facing": 4, "reason": "arranged"})
    assert [e.seat for e in of_type(_play(turned, cid), DefenceLent)] == [4]  # facing S: NW


ALLIES_SCENARIOS.update({
    (ITEMS, "tower-shield-shield-wall"): _shield_wall,
})  # fmt: skip


# --- R-ADD-128: negating the next attack -----------------------------------------------------


def _warded_battle(card: CardDef, at: tuple[int, int] = (0, 3)) -> Battle:
    """Seat 0 plays the card (it stays in play) from `at` and ends its turn; seat 1 acts."""
    b = _field(card, [((-1, 3), "pack", None)])
    b.do({"type": "relocate", "seat": 0, "at": list(at), "facing": 1, "reason": "arranged"})
    _play(b, card.id)
    assert f"{card.id}#1" in b.seat(0).in_play and f"{card.id}#1" not in b.seat(0).discard
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    assert b.state.active == 1
    return b


def _plain_hit(b: Battle, weapon: str, target: int) -> list[Event]:
    """Seat 1 hits `target` (grade hit, every defence die BLOOD: no block); a target that
    may answer is left at its reactive prompt."""
    from battles.engine.battle.decide import attack_answer

    damage = attack_answer(b.state, 1, b.state.card(weapon), target).damage_for("hit")
    events = b.do({"type": "attack", "seat": 1, "card": weapon, "target": target,
                   "component": "chassis", "faces": [3, 2, *[4] * damage]})  # fmt: skip
    assert one(events, AttackRolled).grade == "hit"
    return events


def test_a_guard_in_play_negates_the_next_attack_on_its_casket_or_an_ally() -> None:
    """The `guard` effect (R-ADD-128), written for Divine Intervention's "Negate all damage
    from next attack targeting you or ally within 2 hexes" and kept for a card played in
    its owner's turn (Divine Intervention itself is a reactive card, manual): the next
    attack on seat 0 or an ally within 2 hexes deals no damage, and spends the card."""
    cid = "test-guard"
    card = card_from_dict({"id": cid, "name": "Test Guard", "kind": "other", "sp_cost": 3,
                           "automated": True, "effects": [{"kind": "guard", "within": 2}]})  # fmt: skip
    for target in (2, 0):
        b = _warded_battle(card)
        events = _plain_hit(b, "test-maul#1", target)
        assert one(events, AttackWarded) == AttackWarded(0, f"{cid}#1", target)
        assert one(events, DefenceRolled).final_damage == 0 and not b.state.prompts
        assert b.state.attack is None and f"{cid}#1" in b.seat(0).discard
        # Spent: the next attack hits as usual.
        events = _plain_hit(b, "blade#1", target)
        assert not of_type(events, AttackWarded) and b.state.prompts[0].kind == "take_damage"
    # "Next" is literal: a miss spends it.
    b = _warded_battle(card)
    events = b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 2,
                   "component": "chassis", "faces": [1, 1]})  # fmt: skip
    assert of_type(events, AttackWarded) and f"{cid}#1" in b.seat(0).discard
    # An ally 3 hexes away is not covered.
    far = _warded_battle(card, at=(0, 5))
    events = far.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 2,
                     "component": "chassis", "faces": [6, 6]})  # fmt: skip
    assert not of_type(events, AttackWarded) and f"{cid}#1" in far.seat(0).in_play


def _coordinated_assault(section: str, damage: int) -> Callable[[], None]:
    def scenario() -> None:
        """ "Deal 7 damage. All allied Emergent units within 3 hexes may immediately move 1
        hex toward target." / "Deal 4 damage. If allied Emergent units are within 3 hexes,
        they may move 1 hex toward target.": the attack command carries the paths, each
        step nearer the target (R-ADD-126)."""
        cid = "coordinated-assault"
        card = built(section, cid)
        check_attack(section, cid, Attack(1, damage))
        # Seat 2 three hexes from seat 0, seat 3 four; seat 4 of another faction.
        others: list[Other] = [((3, 3), "pack", EMERGENT), ((4, 3), "pack", EMERGENT),
                               ((2, 2), "pack", VESTIGE)]  # fmt: skip
        b = _field(card, others)
        events = attack(b, card, ally_paths=[{"seat": 2, "path": [[2, 3]]}])
        assert hit(one(events, AttackDeclared)) == damage
        assert one(events, AllyMoved) == AllyMoved(2, ((2, 3),), 0, cid)
        assert b.state.attack is None  # the roll missed: the move stands all the same
        for moving, path, code in (
            (2, [[3, 4]], "not_toward"),  # from [3, 3] to [3, 4] is no nearer to [0, 2]
            (2, [[2, 3], [1, 3]], "path_too_long"),
            (3, [[3, 3]], "not_moved_by_card"),
            (4, [[1, 2]], "not_moved_by_card"),
        ):
            err = _field(card, others).refuse({
                "type": "attack", "seat": 0, "card": f"{cid}#1", "target": 1,
                "component": "chassis", "faces": [1, 1],
                "ally_paths": [{"seat": moving, "path": path}],
            })  # fmt: skip
            assert err.code == code, (moving, path)

    return scenario


ALLIES_SCENARIOS.update({
    ("equipment", "coordinated-assault"): _coordinated_assault("equipment", 7),
    (ITEMS, "coordinated-assault"): _coordinated_assault(ITEMS, 4),
})  # fmt: skip


# --- R-ADD-129: zones until the end of the round ---------------------------------------------


def _consecrated_ground() -> None:
    """ "Create a 3-hex radius healing zone centered on you until end of round. Allied
    Caskets in this zone recover 2 cards from discard pile at start of their turn.": the
    zone stays on seat 0's hex, heals allies within 3 hexes as their turns start, and ends
    with the round (R-ADD-129)."""
    cid = "consecrated-ground"
    card = built("church", cid)
    b = _field(card, [((3, 3), "pack", None), ((4, 3), "pack", None)])
    piles = {n: _discard_of(b, n, 3) for n in (0, 2, 3)}
    events = _play(b, cid)
    assert one(events, ZoneCreated) == ZoneCreated(0, f"{cid}#1", (0, 3))
    assert f"{cid}#1" in b.seat(0).in_play and not of_type(events, CardsRecovered)
    b.do({"type": "relocate", "seat": 0, "at": [-3, 3], "facing": 1, "reason": "arranged"})
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    started = b.do({"type": "pass", "seat": 1})  # seat 2's turn starts
    # 3 hexes from [0, 3], where the zone stays though seat 0 has moved off 6 hexes away.
    assert [e.seat for e in of_type(started, CardsRecovered)] == [2]
    assert b.seat(2).discard == piles[2][:1] and b.seat(0).discard == piles[0]
    hand = b.seat(2).hand
    b.do({"type": "pass", "seat": 2})
    events = b.do({"type": "discard_down", "seat": 2, "cards": list(hand[:2])})
    assert not of_type(events, CardsRecovered)  # seat 3, 4 hexes away: nothing
    events = b.do({"type": "pass", "seat": 3, "faces": [6, 1, 1, 1]})  # round 2: seat 0
    assert of_type(events, RoundEnded) and not b.state.zones
    assert f"{cid}#1" in b.seat(0).discard and f"{cid}#1" not in b.seat(0).in_play
    b.do({"type": "pass", "seat": 0})
    events = b.do({"type": "pass", "seat": 1})
    assert b.state.active == 2 and not of_type(events, CardsRecovered)


ALLIES_SCENARIOS.update({
    ("church", "consecrated-ground"): _consecrated_ground,
})  # fmt: skip


def _guardians_defiance() -> None:
    """ "+2 Defense until your next turn. You may cover adjacent ally (redirect 1 attack to
    yourself).": the card waits in play; the first hit on an adjacent ally before seat 0's
    next turn may be covered with it, once (R-ADD-122, R-ADD-64)."""
    cid = "guardians-defiance"
    card = built("universal", cid)
    b = _field(card, [((1, 2), "pack", None)])  # adjacent to seat 0 and to seat 1
    assert one(_play(b, cid), DefenceRaised).amount == 2
    assert f"{cid}#1" in b.seat(0).in_play
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    damage = _hit_seat_2(b)
    assert [(p.seat, p.kind, p.rule) for p in b.state.prompts] == [(0, "reactive", "R-ADD-122")]
    events = b.do({"type": "play_reactive", "seat": 0, "card": f"{cid}#1", "faces": [4] * damage})
    assert one(events, AttackCovered) == AttackCovered(0, 2, f"{cid}#1", 0)
    assert [(p.seat, p.kind, p.amount) for p in b.state.prompts] == [(0, "take_damage", damage)]
    b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": damage, "drawn": [FILLER] * damage})
    assert f"{cid}#1" in b.seat(0).discard and f"{cid}#1" not in b.seat(0).in_play
    # Once: the next hit on seat 2 asks nobody.
    _hit_seat_2(b, "blade", (3, 2, *[4] * (damage + 1)))
    assert [(p.seat, p.kind) for p in b.state.prompts] == [(2, "take_damage")]
    # Unused, it lapses as seat 0's next turn starts.
    idle = _field(card, [((1, 2), "pack", None)])
    _play(idle, cid)
    for n in (0, 1):
        idle.do({"type": "pass", "seat": n, **({"drawn": [FILLER]} if n == 0 else {})})
    assert f"{cid}#1" in idle.seat(0).in_play  # seat 2's turn: still waiting
    idle.do({"type": "pass", "seat": 2, "faces": [6, 1, 1]})
    assert idle.state.active == 0 and f"{cid}#1" in idle.seat(0).discard


ALLIES_SCENARIOS.update({
    ("universal", "guardians-defiance"): _guardians_defiance,
})  # fmt: skip


def test_defence_lent_lapses_when_its_giver_leaves_the_battle() -> None:
    """R-ADD-123: "until your next turn" of a casket defeated or withdrawn: it lapses then."""
    card = built("equipment", "asset-protection")
    for leaving in ("defeat", "withdraw"):
        b = _field(card, [((-1, 3), "pack", None)])
        arrange(b, TokensChanged(0, "credit", 1, 1, "arranged"))
        _play(b, "asset-protection", target=2, spend=True)
        assert b.seat(2).card_defence == 2
        gone = (
            CasketDefeated(0, "arranged", "R-TRN-8")
            if leaving == "defeat"
            else CasketWithdrew(0, "R-TRN-9")
        )
        arrange(b, gone)
        assert b.seat(2).card_defence == 0, leaving


def test_the_allies_events_round_trip_through_the_event_store_codec() -> None:
    """Each new event is stored as JSON and read back the same (tuples within tuples too)."""
    from battles.codec import BATTLE_EVENTS

    events = [
        AttackCovered(0, 2, "interpose#1", 0),
        DefenceLent(2, 2, 0, "asset-protection"),
        DamageCardsRemoved(2, ("damage#1",), "field-suture"),
        DamageDeflected(0, 1, 2),
        AllyMoved(2, ((0, 7), (0, 6)), 0, "hivemind-beacon"),
        AttackWarded(0, "divine-scepter-divine-intervention#1", 2),
        ZoneCreated(0, "consecrated-ground#1", (0, 3)),
    ]
    for e in events:
        assert BATTLE_EVENTS.decode_record(*BATTLE_EVENTS.to_record(e)) == e


@pytest.mark.parametrize("seed", range(3))
def test_random_decks_of_ally_cards_play_in_a_battle_of_four(seed: int) -> None:
    """Four caskets, two a side, of random factions, with random decks of this file's cards
    and other catalogued ones: the greedy player drives up to 600 commands through legal
    actions only, every one `decide` accepts, and the events replay to the same state."""
    import random

    from battles.engine.carddata.carddb import FACTIONS

    rng = random.Random(seed)
    mine = sorted(ALLIES_SCENARIOS)
    cards: dict[str, CardDef] = {}
    seats = []
    for n, (at, facing, side) in enumerate(
        (((0, 3), 1, "a"), ((0, -3), 4, "b"), ((1, 2), 1, "a"), ((-1, -2), 4, "b"))
    ):
        keys = rng.sample(mine, 8) + rng.sample(AUTOMATED, 4)
        row: dict[str, int] = {}
        for key in keys:
            card = built_reactive(*key) if key in COVER_KEYS else built(*key)
            if cards.setdefault(card.id, card) == card:  # one definition per id
                row[card.id] = 2
        for cid in list(row) * 3:  # R-TRN-1: 30 cards
            if sum(row.values()) == 30:
                break
            row[cid] += 1
        s = seat(n, at=at, facing=facing, side=side)
        s["casket"] = {**s["casket"], "faction": rng.choice([EMERGENT, VESTIGE, *FACTIONS[:2]])}
        seats.append({**s, "deck": [{"card": c, "count": k} for c, k in row.items()]})
    doc = {
        "name": "Allies mix",
        "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 4}, "hexes": []},
        "rules": {"version": rng.choice(["2.0", "2.1"]), "options": {}},
        "dice": {"mode": "digital", "seed": seed, "seed_public": True},
        "policy": "prompt",
        "cards": [c.as_dict() for c in cards.values()],
        "seats": seats,
    }
    autoplayed(f"allies-mix-{seed}", doc, seed=seed, commands=600)


# Catalogued cards whose only reactive effect is a cover or a deflection (see built_reactive).
COVER_KEYS = {("equipment", "interpose"), ("equipment", "deflect")}


# Last, so that every scenario above is in the dict when it is parametrized.
@pytest.mark.parametrize("key", sorted(ALLIES_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_ally_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, ALLIES_SCENARIOS[key])
