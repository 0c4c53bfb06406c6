"""Where two groups of issue 17's effect vocabulary meet: each test plays cards of two
groups together, the way a merge of their rules could get wrong."""

from __future__ import annotations

import dataclasses

import pytest

from battles.engine.battle.events import BuffGained, CardsDiscarded, PromptOpened
from battles.engine.cards import LimitEffect, TokenCostEffect
from battles.engine.errors import RuleViolation

from .battle_builder import FILLER, Battle
from .test_card_catalogue import attack, battle, built, play
from .test_card_catalogue_allies import _covering, _hit_seat_2, built_reactive
from .test_card_catalogue_area import field, hits, line, reach, strike
from .test_card_catalogue_terrain import end_turn


def _with_seat(b: Battle, seat: int, **changes: object) -> None:
    seats = list(b.state.seats)
    seats[seat] = dataclasses.replace(seats[seat], **changes)  # type: ignore[arg-type]
    b.state = dataclasses.replace(b.state, seats=tuple(seats))


@pytest.mark.parametrize(("ally_forge", "target_forge", "offered"), [(1, 0, True), (0, 1, False)])
def test_an_ally_s_cover_card_with_a_token_cost_is_offered_by_the_ally_s_tokens(
    ally_forge: int, target_forge: int, offered: bool
) -> None:
    """R-ADD-122 with R-ADD-133: the ally who covers pays the printed token cost, so the
    window opens by its pool, not the attacked casket's."""
    card = built_reactive("equipment", "interpose")
    card = dataclasses.replace(card, effects=(*card.effects, TokenCostEffect("forge", 1)))
    b = _covering(card, 1)
    _with_seat(b, 0, tokens=(("forge", ally_forge),) if ally_forge else ())
    _with_seat(b, 2, tokens=(("forge", target_forge),) if target_forge else ())
    if offered:
        _hit_seat_2(b)
        assert [(p.seat, p.kind, p.rule) for p in b.state.prompts] == [(0, "reactive", "R-ADD-122")]
    else:
        with pytest.raises(RuleViolation) as err:  # no cover prompt: the roll wants its faces
            _hit_seat_2(b)
        assert (err.value.code, err.value.rule) == ("wrong_dice_count", "R-DMG-2")


def test_a_cover_card_s_use_limit_counts_its_plays() -> None:
    """R-ADD-63 with R-ADD-122: a "once per round" cover is recorded as played."""
    card = built_reactive("equipment", "interpose")
    card = dataclasses.replace(card, effects=(*card.effects, LimitEffect("round", 1)))
    b = _covering(card, 1)
    dmg = _hit_seat_2(b)
    b.do({"type": "play_reactive", "seat": 0, "card": "interpose#1", "faces": [4] * dmg})
    assert "round:interpose" in b.seat(0).limited_plays


def test_a_paid_discard_fires_whenever_you_discard_passives() -> None:
    """R-ADD-152 with R-ADD-139: Crusader's Wrath's optional discard is a discard, so
    Penance Rune's "+1 accuracy on your next attack" follows it."""
    rune, wrath = built("church", "penance-rune"), built("church", "crusaders-wrath")
    b = battle(wrath)
    _with_seat(b, 0, in_play=(*b.seat(0).in_play, "penance-rune#1"))
    b.state = dataclasses.replace(b.state, cards={**b.state.cards, "penance-rune": rune})
    events = attack(b, wrath, spend=True, discard=[f"{FILLER}#1"])
    assert [e.rule for e in events if isinstance(e, CardsDiscarded)] == ["R-ADD-152"]
    assert any(isinstance(e, BuffGained) and e.source == "penance-rune" for e in events)


def test_terrain_damage_is_reduced_by_standing_passives() -> None:
    """R-ADD-165 with R-ADD-136: a mine's 6 damage to a casket with Dwarven Bulwark in play
    ("reduce all damage you take by 1") is 5."""
    cid = "runic-charges-runic-mine"
    card, bulwark = built("equipment_items", cid), built("dwarves", "dwarven-bulwark")
    b = battle(card, gap=3)
    play(b, cid, path=[[0, 2]])
    end_turn(b, 0)
    _with_seat(b, 1, in_play=(*b.seat(1).in_play, "dwarven-bulwark#1"))
    b.state = dataclasses.replace(b.state, cards={**b.state.cards, "dwarven-bulwark": bulwark})
    events = b.do({"type": "move", "seat": 1, "path": [[0, 1], [0, 2]]})
    assert [e.amount for e in events if isinstance(e, PromptOpened)] == [5]


def test_a_further_attack_cannot_name_an_untargetable_casket() -> None:
    """R-ADD-80 with R-ADD-155: "no attack may name it as its target", `also` included."""
    card = built("equipment_items", "inferno-staff-flame-burst")
    b = field(card, line(reach(card))[:2])
    _with_seat(b, 2, untargetable="all")
    with pytest.raises(RuleViolation) as err:
        strike(b, card, 1, hits(3, 3), also=[2])
    assert (err.value.code, err.value.rule) == ("untargetable", "R-ADD-155")
    assert "also: seat 2" in err.value.message
