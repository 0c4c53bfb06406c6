"""Battle engine scenarios around the rules: dice modes, prompt policies, GM commands,
reverts, refusals, event records and their upcasting.

docs/BATTLES.md ("Randomness", "prompts", "GM adjustments", "Persistence"), R-ADD-18
(table dice and reported cards), R-ADD-24 (GM adjustments and reverts).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any

import pytest

from battles.codec import BATTLE_EVENTS
from battles.engine.battle import decide, parse_command, replay
from battles.engine.battle import events as ev
from battles.engine.battle.randomness import TableDice
from battles.engine.battle.upcast import UPCASTERS, register
from battles.engine.errors import InvalidInput, RuleViolation
from penance_site.eventstore.codec import DecodeError

from .battle_builder import FILLER, Battle, deck, one, seat, setup, start, types

ROWS = deck(blade=6, gun=2, pistol=2, ward=2, insight=2, scourge=1, stoke=1)


def duel(policy: str = "prompt", attacker: list[str] | None = None,
         defender: list[str] | None = None) -> Battle:  # fmt: skip
    """Seat 0's turn at a table, seat 1 adjacent in front of it."""
    doc = setup(
        seats=[seat(0, at=(0, 0), facing=1, rows=ROWS), seat(1, at=(0, -1), facing=4, rows=ROWS)],
        policy=policy,
    )
    hands = [attacker or ["blade", *[FILLER] * 5], defender or ["ward", *[FILLER] * 5]]
    return start(doc, hands=hands)


def gm(b: Battle, body: Mapping[str, Any]) -> list[ev.Event]:
    return b.do({**body, "reason": "scenario"})


# --- table and digital dice (R-ADD-18) ---------------------------------------------------------


def test_a_digital_battle_refuses_reported_faces() -> None:
    """R-ADD-18: a digital battle rolls its own dice."""
    b = Battle.create(setup(mode="digital", seed=1))
    err = b.refuse({"type": "keep_hand", "seat": 0, "faces": [6]})
    assert (err.code, err.rule) == ("table_mode_only", "R-ADD-18")


def test_a_digital_battle_refuses_reported_cards() -> None:
    """R-ADD-18: a digital battle draws its own cards."""
    b = Battle.create(setup(mode="digital", seed=1))
    err = b.refuse({"type": "keep_hand", "seat": 0, "drawn": [FILLER] * 6})
    assert (err.code, err.rule) == ("table_mode_only", "R-ADD-18")


def test_a_table_battle_refuses_a_reported_card_that_is_not_in_the_pile() -> None:
    """R-ADD-18: a reported card must be in the pile it is taken from."""
    b = Battle.create(setup())
    err = b.refuse({"type": "keep_hand", "seat": 0, "drawn": ["pistol", *[FILLER] * 5]})
    assert (err.code, err.rule) == ("card_not_in_deck", "R-TRN-1")


def test_a_reported_card_already_taken_is_not_in_the_pile_any_more() -> None:
    """R-ADD-18: every card instance is in exactly one zone."""
    b = Battle.create(setup(seats=[seat(0, at=(0, 0), facing=1, rows=deck(blade=1)),
                                   seat(1, at=(0, -1), facing=4)]))  # fmt: skip
    err = b.refuse({"type": "keep_hand", "seat": 0, "drawn": ["blade", "blade", *[FILLER] * 4]})
    assert err.code == "card_not_in_deck"


def test_a_reported_card_id_never_matches_another_card_whose_id_it_begins() -> None:
    """R-ADD-18: "gun" names a Gun, not a Gun Rack."""
    rows = [{"card": "gun-rack", "count": 2}, {"card": FILLER, "count": 28}]
    doc = setup(seats=[seat(0, at=(0, 0), facing=1, rows=rows), seat(1, at=(0, -1), facing=4)])
    b = Battle.create(doc)
    err = b.refuse({"type": "keep_hand", "seat": 0, "drawn": ["gun", *[FILLER] * 5]})
    assert err.code == "card_not_in_deck"
    b.do({"type": "keep_hand", "seat": 0, "drawn": ["gun-rack", *[FILLER] * 5]})
    assert b.seat(0).hand[0] == "gun-rack#1"


def test_too_few_faces_are_refused_naming_the_roll() -> None:
    """R-ADD-18, R-HIT-4: the attack roll needs two faces."""
    err = duel().refuse({"type": "attack", "seat": 0, "card": "blade", "target": 1,
                         "component": "legs", "faces": [3]})  # fmt: skip
    assert (err.code, err.rule) == ("wrong_dice_count", "R-HIT-4")


def test_faces_the_command_did_not_roll_are_refused() -> None:
    """R-ADD-18: a table command uses every face it reports."""
    b = duel()
    err = b.refuse({"type": "rotate", "seat": 0, "facing": 2, "faces": [3]})
    assert (err.code, err.rule) == ("unused_dice_reported", "R-ADD-18")
    err = b.refuse({"type": "attack", "seat": 0, "card": "blade", "target": 1,
                    "component": "legs", "faces": [1, 1, 1]})  # fmt: skip
    assert err.code == "unused_dice_reported"


def test_cards_the_command_did_not_draw_are_refused() -> None:
    """R-ADD-18: a table command uses every card it reports."""
    err = duel().refuse({"type": "rotate", "seat": 0, "facing": 2, "drawn": [FILLER]})
    assert (err.code, err.rule) == ("unused_cards_reported", "R-ADD-18")


def test_a_draw_at_a_table_needs_the_reported_card() -> None:
    """R-ADD-18, R-TRN-6: the table knows which card it drew."""
    b = duel()
    b.do({"type": "play_card", "seat": 0, "card": FILLER})
    err = b.refuse({"type": "pass", "seat": 0})
    assert (err.code, err.rule) == ("cards_not_reported", "R-TRN-6")


def test_a_die_face_outside_1_to_6_is_invalid_input() -> None:
    """R-HIT-4: die faces are 1..6; the body is refused before any rule is asked."""
    with pytest.raises(InvalidInput) as info:
        parse_command({"type": "pass", "seat": 0, "faces": [7]})
    assert info.value.field == "faces[0]"


def test_a_seeded_digital_battle_replays_identically() -> None:
    """docs/BATTLES.md Randomness: a seeded battle is the same battle whoever replays it."""
    doc = setup(mode="digital", seed=42, policy="auto")
    first, second = Battle.create(doc), Battle.create(doc)
    assert first.events == second.events
    active = first.state.active
    body = {"type": "rotate", "seat": active, "facing": 3}
    assert first.do(body) == second.do(body)
    assert first.state == second.state


# --- prompt policies ---------------------------------------------------------------------------


def test_auto_policy_keeps_every_hand_and_starts_the_first_round() -> None:
    """Policy auto (docs/BATTLES.md prompts): hands kept, round 1 starts at creation."""
    b = Battle.create(setup(mode="digital", seed=5, policy="auto"))
    assert types(b.events).count("HandKept") == 2 and "PromptOpened" not in types(b.events)
    assert b.state.phase == "action" and b.state.prompts == ()


def _auto_digital() -> Battle:
    """A digital auto battle whose dice the test supplies: decks stay in their listed order."""
    doc = setup(
        seats=[
            seat(0, at=(0, 0), facing=1, rows=deck(blade=3, insight=27)),
            seat(1, at=(0, -1), facing=4, rows=deck(ward=30)),
        ],
        mode="digital",
        policy="auto",
    )
    return Battle.create(doc, dice=TableDice([6, 1]))


def test_auto_policy_declines_the_reactive_and_takes_damage_from_the_deck() -> None:
    """Policy auto: no reactive card, damage discarded from the top of the deck (R-DMG-6)."""
    b = _auto_digital()
    new = b.do({"type": "attack", "seat": 0, "card": "blade", "target": 1, "component": "legs"},
               dice=TableDice([3, 3, 4, 4, 4]))  # fmt: skip
    assert types(new) == [
        "CardPlayed",
        "AttackDeclared",
        "AttackRolled",
        "ReactiveDeclined",
        "DefenceRolled",
        "DamageTaken",
        "AttackEnded",
    ]
    assert one(new, ev.DamageTaken).from_deck == ("ward#7", "ward#8", "ward#9")
    assert "ward#7" in b.seat(1).discard
    assert b.seat(1).hand == tuple(f"ward#{n}" for n in range(1, 7))


def test_auto_policy_discards_the_newest_cards_down_to_six() -> None:
    """Policy auto, R-TRN-7: discard down to 6."""
    b = _auto_digital()
    b.do({"type": "play_card", "seat": 0, "card": "insight"})
    assert b.seat(0).hand[-2:] == ("insight#4", "insight#5")
    new = b.do({"type": "pass", "seat": 0})
    discarded = one(new, ev.CardsDiscarded)
    assert (discarded.from_hand, discarded.rule) == (("insight#5",), "R-TRN-7")


def test_auto_policy_at_a_table_waits_for_the_reported_hands() -> None:
    """R-TRN-1, R-ADD-18: only the table knows its opening hands, even under policy auto."""
    b = Battle.create(setup(policy="auto"))
    assert [(p.seat, p.kind) for p in b.state.prompts] == [(0, "mulligan"), (1, "mulligan")]


def test_auto_policy_at_a_table_answers_the_reactive_prompt_itself() -> None:
    """Policy auto at a table: the attack command carries the defence faces and deck cards."""
    b = duel(policy="auto")
    new = b.do({"type": "attack", "seat": 0, "card": "blade", "target": 1, "component": "legs",
                "faces": [3, 3, 4, 4, 4], "drawn": ["blade", FILLER, FILLER]})  # fmt: skip
    assert "ReactiveDeclined" in types(new) and "PromptOpened" not in types(new)
    assert one(new, ev.ComponentDamaged).total == 1


def test_only_the_prompted_seat_answers_a_prompt() -> None:
    """docs/BATTLES.md prompts: a prompt names the seat that must answer."""
    b = duel()
    b.do({"type": "attack", "seat": 0, "card": "blade", "target": 1, "component": "legs",
          "faces": [3, 3]})  # fmt: skip
    err = b.refuse({"type": "no_reactive", "seat": 0, "faces": [4, 4, 4]})
    assert (err.code, err.rule) == ("no_such_prompt", "R-REA-1")


# --- GM adjustments (R-ADD-24) -----------------------------------------------------------------


def test_adjust_heat_sets_any_seats_heat() -> None:
    """R-ADD-24: the GM sets Heat, with a reason, at any time."""
    b = duel()
    adjusted = one(gm(b, {"type": "adjust_heat", "seat": 1, "heat": 7}), ev.HeatAdjusted)
    assert (adjusted.seat, adjusted.heat, adjusted.reason) == (1, 7, "scenario")
    assert b.seat(1).heat == 7


def test_adjust_component_damage_destroys_at_the_threshold() -> None:
    """R-ADD-24, R-DMG-7: damage adjusted to 3 destroys the component."""
    b = duel()
    body = {"type": "adjust_component_damage", "seat": 1, "component": "head", "amount": 3}
    adjusted = one(gm(b, body), ev.ComponentDamageAdjusted)
    assert (adjusted.total, adjusted.destroyed) == (3, True)
    assert b.seat(1).destroyed == ("head",)


def test_adjust_component_damage_below_the_threshold_repairs_the_component() -> None:
    """R-ADD-24: an adjustment corrects a mistake both ways."""
    b = duel()
    gm(b, {"type": "adjust_component_damage", "seat": 1, "component": "head", "amount": 3})
    gm(b, {"type": "adjust_component_damage", "seat": 1, "component": "head", "amount": -1})
    assert (b.seat(1).damage_of("head"), b.seat(1).destroyed) == (2, ())


def test_relocate_moves_and_turns_a_casket() -> None:
    """R-ADD-24: the GM puts a casket where the table says it is."""
    b = duel()
    relocated = one(gm(b, {"type": "relocate", "seat": 1, "at": [2, -2], "facing": 5}),
                    ev.CasketRelocated)  # fmt: skip
    assert (relocated.at, relocated.facing) == ((2, -2), 5)
    assert (b.seat(1).at.q, b.seat(1).at.r, b.seat(1).facing) == (2, -2, 5)


def test_return_card_takes_a_card_back_from_the_discard_pile() -> None:
    """R-ADD-24: a card wrongly discarded goes back to the hand."""
    b = duel()
    b.do({"type": "play_card", "seat": 0, "card": FILLER})
    returned = one(gm(b, {"type": "return_card", "seat": 0, "card": "chaff#1"}), ev.CardReturned)
    assert returned.from_zone == "discard"
    assert "chaff#1" in b.seat(0).hand and "chaff#1" not in b.seat(0).discard


_PLAY_TYPES = [c for c in ev.EVENT_TYPES.values() if c.__name__ not in {
    "HeatAdjusted", "ComponentDamageAdjusted", "CasketRelocated", "CardReturned",
    "CommandReverted", "BattleEnded", "TaintAdjusted"}]  # fmt: skip


@pytest.mark.parametrize(
    "body",
    [
        {"type": "adjust_heat", "seat": 1, "heat": 2},
        {"type": "adjust_component_damage", "seat": 1, "component": "legs", "amount": 1},
        {"type": "relocate", "seat": 1, "at": [1, -1], "facing": 4},
        {"type": "return_card", "seat": 0, "card": "chaff#1"},
        {"type": "end_battle", "side": None},
    ],
    ids=lambda body: body["type"],
)
def test_gm_adjustments_emit_events_marked_as_adjustments(body: dict[str, Any]) -> None:
    """docs/BATTLES.md GM adjustments: events with adjustment true and a reason."""
    b = duel()
    b.do({"type": "play_card", "seat": 0, "card": FILLER})
    new = gm(b, body)
    assert len(new) == 1 and type(new[0]).ADJUSTMENT and new[0].reason == "scenario"  # type: ignore[attr-defined]


@pytest.mark.parametrize("cls", _PLAY_TYPES, ids=lambda c: c.__name__)
def test_events_of_play_are_not_adjustments(cls: type[ev.Event]) -> None:
    """docs/BATTLES.md: an audit tells GM adjustments from play."""
    assert cls.ADJUSTMENT is False


def test_a_gm_command_needs_a_reason() -> None:
    """R-ADD-24: every adjustment says why."""
    with pytest.raises(InvalidInput) as info:
        parse_command({"type": "adjust_heat", "seat": 0, "heat": 2})
    assert info.value.field == "reason"


# --- reverts (R-ADD-24) ------------------------------------------------------------------------


def _reverted(b: Battle) -> list[ev.Event]:
    before = b.before
    assert before is not None
    command = parse_command({"type": "revert", "command_id": "cmd-1", "reason": "misclick"})
    new = decide(b.state, command, before=before)
    for event in new:
        b.state = replay([event], b.state)
    b.events.extend(new)
    return new


def test_revert_restores_the_state_before_the_latest_command() -> None:
    """R-ADD-24: a revert appends a compensating event; the state is the one before."""
    b = duel()
    before = b.state
    b.do({"type": "move", "seat": 0, "path": [[0, 1]]})
    version = b.state.version
    reverted = one(_reverted(b), ev.CommandReverted)
    assert (reverted.command_id, reverted.from_version, reverted.to_version) == (
        "cmd-1",
        before.version,
        version,
    )
    assert b.state.version == version + 1
    assert replace(b.state, version=before.version) == before


def test_revert_of_an_attack_withdraws_its_open_prompt() -> None:
    """R-ADD-24: even mid-attack the folded state equals the state before the command."""
    b = duel()
    before = b.state
    b.do({"type": "attack", "seat": 0, "card": "blade", "target": 1, "component": "legs",
          "faces": [3, 3]})  # fmt: skip
    assert b.state.prompts
    _reverted(b)
    assert replace(b.state, version=before.version) == before
    assert b.state.prompts == () and b.state.attack is None and "blade#1" in b.seat(0).hand


def test_a_reverted_battle_still_replays_from_its_whole_log() -> None:
    """R-ADD-24: the reverted events stay in the log; a replay gives the same state."""
    b = duel()
    b.do({"type": "rotate", "seat": 0, "facing": 2})
    _reverted(b)
    assert "CasketRotated" in types(b.events)
    assert replay(b.events) == b.state


def test_revert_without_the_state_before_is_refused() -> None:
    """R-ADD-24: only the latest command can be reverted, and the service supplies its state."""
    b = duel()
    err = b.refuse({"type": "revert", "command_id": "cmd-1", "reason": "misclick"})
    assert (err.code, err.rule) == ("revert_unavailable", "R-ADD-24")


# --- refusals ----------------------------------------------------------------------------------


REFUSALS: list[tuple[str, dict[str, Any], str, str]] = [
    ("seat that does not exist", {"type": "pass", "seat": 5}, "no_such_seat", "R-TRN-1"),
    ("attack on itself", {"type": "attack", "seat": 0, "card": "blade", "target": 0}, "bad_target", "R-ARC-1"),
    ("attack with a card not in hand", {"type": "attack", "seat": 0, "card": "gun", "target": 1}, "card_not_in_hand", "R-TRN-5"),
    ("attack with a card that makes none", {"type": "attack", "seat": 0, "card": "insight", "target": 1}, "not_an_attack", "R-ADD-14"),
    ("attack card played as a card", {"type": "play_card", "seat": 0, "card": "blade"}, "use_attack", "R-HIT-1"),
    ("reactive card in its own turn", {"type": "play_card", "seat": 0, "card": "ward"}, "reactive_in_own_turn", "R-REA-1"),
    ("rotation to the same facing", {"type": "rotate", "seat": 0, "facing": 1}, "no_rotation", "R-ARC-5"),
    ("move back to the start", {"type": "move", "seat": 0, "path": [[0, 1], [0, 0]]}, "returns_to_start", "R-MOV-3"),
    ("move that jumps", {"type": "move", "seat": 0, "path": [[0, 2]]}, "not_adjacent", "R-MOV-3"),
    ("move off the board", {"type": "move", "seat": 0, "path": [[0, 1], [0, 2], [0, 3], [0, 4]]}, "off_board", "R-MOV-2"),
    ("damage answer without a prompt", {"type": "take_damage", "seat": 1, "hand": [], "deck": 1}, "no_such_prompt", "R-DMG-6"),
    ("discard down without a prompt", {"type": "discard_down", "seat": 0, "cards": ["ward"]}, "no_such_prompt", "R-TRN-7"),
    ("reactive without a prompt", {"type": "play_reactive", "seat": 1, "card": "ward"}, "no_such_prompt", "R-REA-1"),
    ("mulligan after setup", {"type": "mulligan", "seat": 0}, "no_such_prompt", "R-TRN-1"),
    ("relocation onto a casket", {"type": "relocate", "seat": 0, "at": [0, -1], "facing": 1, "reason": "x"}, "occupied", "R-MOV-2"),
    ("relocation into a wall", {"type": "relocate", "seat": 0, "at": [9, 9], "facing": 1, "reason": "x"}, "bad_hex", "R-BRD-3"),
    ("return of a card not discarded", {"type": "return_card", "seat": 0, "card": "ward#1", "reason": "x"}, "card_not_in_discard", "R-ADD-24"),
    ("overspend paid with a card not in hand", {"type": "move", "seat": 0, "path": [[0, 1]], "pay": {"hand": ["gun"]}}, "overspend_payment", "R-TRN-3"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "code", "rule"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_a_refused_command_raises_a_rule_violation_with_code_and_rule(
    body: dict[str, Any], code: str, rule: str
) -> None:
    """docs/BATTLES.md: decide validates and raises RuleViolation with code, message, rule."""
    b = duel(attacker=["blade", "pistol", "insight", "ward", FILLER, FILLER])
    err = b.refuse(body)
    assert isinstance(err, RuleViolation) and err.message
    assert (err.code, err.rule) == (code, rule)


def test_an_attack_out_of_the_cards_range_is_refused_before_anything_is_spent() -> None:
    """R-RNG-2, R-HIT-3: a target outside the card's range cannot be attacked."""
    b = duel()
    gm(b, {"type": "relocate", "seat": 1, "at": [0, -2], "facing": 4})
    err = b.refuse({"type": "attack", "seat": 0, "card": "blade", "target": 1, "faces": [1, 3, 3]})
    assert (err.code, err.rule) == ("out_of_range", "R-RNG-2")
    assert b.seat(0).sp_spent == 0 and "blade#1" in b.seat(0).hand


def test_an_attack_on_an_ally_is_refused() -> None:
    """R-TRN-8: sides fight sides; an ally is no target."""
    doc = setup(seats=[seat(0, at=(0, 0), facing=1, side="red"), seat(1, at=(0, -1), facing=4, side="red"),
                       seat(2, at=(2, -2), facing=4, side="blue")])  # fmt: skip
    b = start(
        doc, hands=[["blade", *[FILLER] * 5], [FILLER] * 6, [FILLER] * 6], initiative=(6, 1, 1)
    )
    err = b.refuse({"type": "attack", "seat": 0, "card": "blade", "target": 1, "faces": [1, 3, 3]})
    assert (err.code, err.rule) == ("not_an_enemy", "R-TRN-8")


# --- records and upcasting ---------------------------------------------------------------------


def _long_battle() -> Battle:
    """A battle through many event types: cards, attack, reactive, damage, strain, GM."""
    b = duel(attacker=["blade", "insight", "scourge", "stoke", FILLER, FILLER])
    for body in (
        {"type": "play_card", "seat": 0, "card": "insight", "drawn": ["gun", FILLER]},
        {"type": "play_card", "seat": 0, "card": "scourge", "faces": [4], "drawn": [FILLER]},
        {"type": "play_card", "seat": 0, "card": "stoke"},
        {"type": "rotate", "seat": 0, "facing": 2},
        {"type": "attack", "seat": 0, "card": "blade", "target": 1, "component": "legs",
         "faces": [4, 4]},
        {"type": "play_reactive", "seat": 1, "card": "ward", "faces": [1, 6, 4, 4, 4, 4]},
        {"type": "take_damage", "seat": 1, "hand": [FILLER], "deck": 3,
         "drawn": ["blade", "gun", FILLER]},
        {"type": "adjust_heat", "seat": 1, "heat": 9, "reason": "scenario"},
        {"type": "pass", "seat": 0, "faces": [2], "drawn": [FILLER, FILLER]},
        {"type": "take_damage", "seat": 1, "hand": [FILLER, FILLER], "deck": 0},
        {"type": "move", "seat": 1, "path": [[1, -2]]},
        {"type": "vent", "seat": 1},
        {"type": "relocate", "seat": 0, "at": [-1, 1], "facing": 2, "reason": "scenario"},
        {"type": "adjust_component_damage", "seat": 0, "component": "head", "amount": 3,
         "reason": "scenario"},
        {"type": "return_card", "seat": 1, "card": "chaff#1", "reason": "scenario"},
        {"type": "pass", "seat": 1, "drawn": [FILLER] * 3, "faces": [1, 6, 2]},
    ):  # fmt: skip
        b.do(body)
    return b


def test_every_event_round_trips_through_its_json_record() -> None:
    """docs/BATTLES.md Persistence: events are stored as (type, schema_version, JSON)."""
    b = _long_battle()
    assert len(set(types(b.events))) >= 30
    for event in b.events:
        type_, version, payload = BATTLE_EVENTS.to_record(event)
        stored = json.loads(json.dumps(payload))
        assert BATTLE_EVENTS.decode_record(type_, version, stored) == event


def test_a_battle_replays_from_its_records_to_the_same_state() -> None:
    """docs/BATTLES.md: replay(all events) == live state, through the event store's records."""
    b = _long_battle()
    records = [json.loads(json.dumps(BATTLE_EVENTS.to_record(e))) for e in b.events]
    assert replay(BATTLE_EVENTS.decode_record(t, v, p) for t, v, p in records) == b.state


@pytest.fixture
def schema_v2(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Bump event classes to schema version 2 for one test; registered upcasters go after."""
    registered: list[tuple[str, int]] = []

    def bump(type_: str) -> None:
        monkeypatch.setattr(ev.EVENT_TYPES[type_], "SCHEMA_VERSION", 2)
        registered.append((type_, 1))

    yield bump
    for key in registered:
        UPCASTERS.pop(key, None)


def _as_version_1(b: Battle, type_: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> list[tuple[str, int, dict[str, Any]]]:  # fmt: skip
    """The battle's records as a version-1 store held them: `type_` payloads in the old shape."""
    out = []
    for event in b.events:
        t, _, payload = BATTLE_EVENTS.to_record(event)
        out.append((t, 1, change(payload) if t == type_ else payload))
    return out


def test_an_upcaster_renames_a_field_of_a_version_1_event(schema_v2: Callable[[str], None]) -> None:
    """docs/BATTLES.md upcast.py: (type, version) → payload of the current version."""
    b = _long_battle()
    schema_v2("HeatChanged")

    @register("HeatChanged", 1)
    def _why_became_reason(payload: Mapping[str, Any]) -> Mapping[str, Any]:
        old = dict(payload)
        old["reason"] = old.pop("why")
        return old

    def old_shape(p: dict[str, Any]) -> dict[str, Any]:
        p = dict(p)
        p["why"] = p.pop("reason")
        return p

    records = _as_version_1(b, "HeatChanged", old_shape)
    assert any(t == "HeatChanged" and "why" in p for t, _, p in records)
    assert replay(BATTLE_EVENTS.decode_record(*r) for r in records) == b.state


def test_an_upcaster_adds_a_field_missing_from_version_1(schema_v2: Callable[[str], None]) -> None:
    """upcast.py: a field added in version 2 gets its value for version-1 records."""
    b = _long_battle()
    schema_v2("DeckShuffled")

    @register("DeckShuffled", 1)
    def _add_known(payload: Mapping[str, Any]) -> Mapping[str, Any]:
        return {**payload, "known": False}

    records = _as_version_1(
        b, "DeckShuffled", lambda p: {k: v for k, v in p.items() if k != "known"}
    )
    assert replay(BATTLE_EVENTS.decode_record(*r) for r in records) == b.state


def test_a_version_1_record_without_its_upcaster_is_refused(
    schema_v2: Callable[[str], None],
) -> None:
    """upcast.py: a missing step in the chain is an error, never a silent guess."""
    schema_v2("TurnEnded")
    with pytest.raises(DecodeError) as info:
        BATTLE_EVENTS.decode_record("TurnEnded", 1, {"seat": 0})
    assert info.value.field == "schema_version"


def test_an_upcaster_cannot_be_registered_twice(schema_v2: Callable[[str], None]) -> None:
    """upcast.py: one upcaster per (type, version)."""
    schema_v2("TurnEnded")
    register("TurnEnded", 1)(dict)
    with pytest.raises(ValueError, match="already registered"):
        register("TurnEnded", 1)(dict)


def test_a_record_from_a_future_schema_version_is_refused() -> None:
    """upcast.py: a stored version above the current one cannot be read."""
    with pytest.raises(DecodeError) as info:
        BATTLE_EVENTS.decode_record("TurnEnded", 2, {"seat": 0})
    assert info.value.field == "schema_version"


def test_the_upcaster_registry_is_empty_after_the_tests_that_fill_it() -> None:
    """The fixture cleans up: no test-only upcaster leaks into the engine."""
    assert not any(key[0] in {"HeatChanged", "DeckShuffled", "TurnEnded"} for key in UPCASTERS)
    assert ev.HeatChanged.SCHEMA_VERSION == 1
