"""The settlement phase's pure rules (campaigns/between, R-ADD-230…251): every threshold
on both sides of its boundary, every refusal naming its rule."""

from __future__ import annotations

import dataclasses
import json

import pytest

from battles.engine.errors import InvalidInput, RuleViolation
from campaigns import domain
from campaigns.between import decide as bd
from campaigns.between import ledger as lg
from campaigns.between.dice import EnteredRoller, SealedRoller, commitment, derive_faces
from campaigns.between.rulebook import RULES_DIR, VERSIONS, parse_campaign_rules, rulebook
from campaigns.codec import CAMPAIGN_EVENTS

from .between_world import SECRET, open_phase, play_mission, run, world

# --- the ruleset as data -------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(rulebook("pc-1").tables))
def test_every_table_covers_its_die_without_gaps(key: str) -> None:
    table = rulebook("pc-1").table(key)
    lows = [e.low for e in table.entries]
    assert lows == sorted(lows)
    for a, b in zip(table.entries, table.entries[1:], strict=False):
        assert b.low == a.high + 1, f"{key}: {a.id} ends {a.high}, {b.id} starts {b.low}"
    assert table.entries[0].low <= 1
    assert table.entries[-1].high >= table.die
    for face in range(1, table.die + 1):
        assert (
            table.lookup(face).low <= face <= table.lookup(face).high
            or face > table.entries[-1].high
        )


def test_versions_are_files_and_plt1_has_no_settlement_phase() -> None:
    assert {p.name for p in RULES_DIR.iterdir() if p.is_dir()} == set(VERSIONS)
    assert not rulebook("plt-1").settlement_phase
    assert rulebook("pc-1").settlement_phase
    for name in ("settlement.json", "tables.json", "loot.json", "scars.json", "ruleset.json"):
        json.loads((RULES_DIR / "pc-1" / name).read_text())


def test_an_unknown_building_or_action_is_refused_naming_its_field_and_the_known_ids() -> None:
    book = rulebook("pc-1")
    assert book.building("forge")["id"] == "forge"
    with pytest.raises(InvalidInput) as e:
        book.building("castle")
    assert e.value.field == "building" and "no building 'castle'" in e.value.message
    assert "forge" in e.value.message.split("buildings: ")[1]
    with pytest.raises(InvalidInput) as e:
        book.action("juggle")
    assert e.value.field == "action" and "no settlement action 'juggle'" in e.value.message
    assert "build" in e.value.message.split("actions: ")[1].split(", ")


def test_modules_switch_per_campaign() -> None:
    assert parse_campaign_rules({"modules": ["flesh_bargains", "xp_skills"]}) == (
        "pc-1",
        ("flesh_bargains", "xp_skills"),
    )
    assert parse_campaign_rules({"version": "plt-1"}) == ("plt-1", ())
    with pytest.raises(InvalidInput, match=r"campaign_rules\.modules"):
        parse_campaign_rules({"version": "plt-1", "modules": ["xp_skills"]})


def test_a_plt1_campaign_has_no_settlement_phase() -> None:
    s = domain.replay([domain.CampaignCreated("c", "A", "gm", True, {})])
    assert s.settlement is None
    s = domain.replay(
        [
            domain.PlayerJoined("ann"),
            domain.MissionPlanned("m1", 1, "One"),
            domain.MissionStarted("m1", "b", ()),
            domain.MissionCompleted("m1", "b", "", 1),
        ],
        s,
    )
    with pytest.raises(RuleViolation) as e:
        bd.decide(s, bd.OpenPhase("m1", commitment(SECRET)), actor_is_gm=True)
    assert e.value.code == "no_settlement_phase" and e.value.rule == "R-ADD-230"


# --- dice ------------------------------------------------------------------------------------------


def test_a_face_outside_its_die_is_refused_naming_the_die() -> None:
    s = open_phase(world())
    s, _ = run(s, bd.ResolveCasualties("m1"), [])
    s, _ = run(s, bd.ResolveRewards("m1", success=True), [])
    with pytest.raises(RuleViolation) as e:
        run(s, bd.RollSalvage("m1"), [7])
    assert e.value.code == "roll_outside_die" and "d6" in str(e.value)
    with pytest.raises(RuleViolation, match="d6 shows 1 to 6, not 0"):
        run(s, bd.RollSalvage("m1"), [0])
    with pytest.raises(InvalidInput, match="faces"):
        run(s, bd.RollSalvage("m1"), [])
    s, events = run(s, bd.RollSalvage("m1"), [6, 2])
    roll = events[0]
    assert isinstance(roll, lg.RollMade)
    assert (roll.table, roll.die, roll.faces, roll.source) == ("salvage", 6, (6,), "table")


def test_sealed_rolls_derive_again_from_the_revealed_secret_and_tampering_is_found() -> None:
    s = open_phase(world())
    s, _ = run(s, bd.ResolveCasualties("m1"))
    s, _ = run(s, bd.ResolveRewards("m1", success=True, enemies=(("minion", 3),)))
    s, _ = run(s, bd.RollSalvage("m1"))
    assert bd.check_rolls(s) == []  # the phase is open: nothing revealed, nothing to check
    s = finish_phase(s, "m1")
    assert bd.check_rolls(s) == []
    rolls = s.settlement.rolls
    assert all(
        r.faces == derive_faces(SECRET, r.scope, r.index, r.die, len(r.faces)) for r in rolls
    )
    first = rolls[0]
    forged = dataclasses.replace(first, faces=(first.faces[0] % first.die + 1,))
    tampered = dataclasses.replace(
        s, settlement=dataclasses.replace(s.settlement, rolls=(forged, *rolls[1:]))
    )
    assert bd.check_rolls(tampered)[0].startswith("phase-1 roll 0")


def test_an_override_keeps_the_dice_and_needs_a_reason() -> None:
    s = advance(open_phase(world()), "m1", until="event")
    with pytest.raises(InvalidInput, match="reason"):
        run(s, bd.RollEvent("m1", override=("festival", " ")), [30])
    s, events = run(s, bd.RollEvent("m1", override=("quiet-days", "table vote")), [70])
    roll = events[0]
    assert isinstance(roll, lg.RollMade)
    assert (roll.rolled, roll.outcome, roll.override_reason) == (
        "festival",
        "quiet-days",
        "table vote",
    )


# --- the phase runs once, in order --------------------------------------------------------------


def test_steps_run_in_order_and_once() -> None:
    s = world()
    with pytest.raises(RuleViolation) as e:
        run(s, bd.RollSalvage("m1"), [3])
    assert e.value.code == "phase_not_open"
    s = open_phase(s)
    with pytest.raises(RuleViolation) as e:
        open_phase(s)
    assert e.value.code == "phase_open"
    with pytest.raises(RuleViolation) as e:
        run(s, bd.RollSalvage("m1"), [3])
    assert e.value.code == "step_out_of_order" and "return.casualties" in str(e.value)
    s, _ = run(s, bd.ResolveCasualties("m1"), [])
    with pytest.raises(RuleViolation) as e:
        run(s, bd.ResolveCasualties("m1"), [])
    assert e.value.code == "step_done" and e.value.rule == "R-ADD-249"
    s = finish_phase(s, "m1")
    with pytest.raises(RuleViolation) as e:
        run(s, bd.RollEvent("m1"), [3])
    assert e.value.code == "phase_done"
    with pytest.raises(RuleViolation) as e:
        open_phase(s)
    assert e.value.code == "phase_done"


def test_a_phase_needs_the_mission_completed_and_a_gm() -> None:
    s = world()
    s = domain.replay([domain.MissionPlanned("m2", 2, "Two")], s)
    with pytest.raises(RuleViolation) as e:
        run(s, bd.OpenPhase("m2", commitment(SECRET)))
    assert e.value.code == "mission_not_completed"
    with pytest.raises(RuleViolation) as e:
        run(s, bd.OpenPhase("m1", commitment(SECRET)), gm=False)
    assert e.value.code == "gm_only"


def test_the_next_mission_waits_for_the_phase() -> None:
    s = world()
    s = domain.replay([domain.MissionPlanned("m2", 2, "Two")], s)
    start = domain.StartMission("m2", "battle-2", ((0, "a1", "ba", 1),))
    with pytest.raises(RuleViolation) as e:
        domain.decide(s, start, actor_is_gm=True)
    assert e.value.code == "settlement_phase_due"
    s = finish_phase(open_phase(s), "m1", next_mission="m2")
    assert domain.decide(s, start, actor_is_gm=True)


# --- return: casualties, rewards, salvage, pilots ---------------------------------------------------


def test_a_death_rolls_its_consequence_and_lowers_morale() -> None:
    s = open_phase(world(dead=True))
    before = s.settlement
    s, _events = run(s, bd.ResolveCasualties("m1"), [2])
    assert s.settlement.morale == before.morale - 1
    assert s.settlement.population == before.population - 1  # grief on 1-2
    assert s.settlement.pilot("a1").morale == before.pilot("a1").morale - 2  # death, grief
    s2, events = run(open_phase(world(dead=True)), bd.ResolveCasualties("m1"), [3, 2, 3])
    # equipment lost on 3: 2d6x10 = 50 Credits of value, recorded; the treasury keeps its
    # Credits, as the codex's example does (R-ADD-237)
    assert s2.settlement.credits == 0
    assert [e.total for e in events if isinstance(e, lg.RollMade)] == [3, 5]
    s3, _ = run(open_phase(world(dead=True)), bd.ResolveCasualties("m1"), [5])
    assert s3.settlement.stability == 1
    assert s3.settlement.pilot("a1").grit_check_bonus == 1


def test_a_memorial_costs_50_credits() -> None:
    s = open_phase(world(dead=True))
    with pytest.raises(RuleViolation) as e:
        run(s, bd.ResolveCasualties("m1", memorial=True), [5])
    assert e.value.code == "unaffordable" and "50 Credits" in str(e.value)
    with pytest.raises(RuleViolation) as e:
        run(open_phase(world()), bd.ResolveCasualties("m1", memorial=True), [])
    assert e.value.code == "no_casualties"


@pytest.mark.parametrize(("face", "drops"), [(10, True), (11, False)])
def test_a_minion_drops_loot_on_10_or_less(face: int, drops: bool) -> None:
    s = advance(open_phase(world()), "m1", until="return.rewards")
    faces = [face, 1, 1] if drops else [face]  # the d100, common loot 1, its 1d3 Scrap
    s, _ = run(s, bd.ResolveRewards("m1", success=True, enemies=(("minion", 1),)), faces)
    assert (s.settlement.scrap > 0 or bool(s.settlement.storage)) is drops


def test_rewards_follow_the_roll_on_chain_and_a_loss_costs_morale() -> None:
    s = advance(open_phase(world()), "m1", until="return.rewards")
    # common 20 -> uncommon 20 -> rare 12 -> legendary 1
    s2, _ = run(s, bd.ResolveRewards("m1", success=False, objectives=("primary",)), [20, 20, 12, 1])
    assert s2.settlement.storage == (("theslars-locket", "Theslar's Locket"),)
    assert s2.settlement.credits == 100
    assert s2.settlement.morale == s.settlement.morale - 2
    with pytest.raises(InvalidInput, match="objectives"):
        run(s, bd.ResolveRewards("m1", objectives=("tertiary",)), [])
    with pytest.raises(InvalidInput, match=r"enemies\.dragon"):
        run(s, bd.ResolveRewards("m1", enemies=(("dragon", 1),)), [])


@pytest.mark.parametrize(
    ("face", "scrap", "credit_dice"),
    [(3, 1, 0), (4, 2, 1), (6, 2, 1)],
)
def test_salvage_bands(face: int, scrap: int, credit_dice: int) -> None:
    s = advance(open_phase(world()), "m1", until="return.salvage")
    s, _ = run(s, bd.RollSalvage("m1"), [face] + [1] * credit_dice)
    assert s.settlement.scrap == scrap
    assert s.settlement.credits == 10 * credit_dice


def test_salvage_past_the_table_takes_the_top_row() -> None:
    table = rulebook("pc-1").table("salvage")
    assert table.lookup(9).id == "salvage-3"
    assert table.lookup(10).id == "salvage-5"


@pytest.mark.parametrize(("taint", "saves"), [(9, 0), (10, 1)])
def test_a_corruption_save_at_10_taint(taint: int, saves: int) -> None:
    s = advance(open_phase(world(taint=taint)), "m1", until="return.pilots")
    _s2, events = run(s, bd.ResolvePilots("m1"), [1] * saves)
    assert sum(isinstance(e, lg.RollMade) and e.table == "corruption-save" for e in events) == saves


@pytest.mark.parametrize(("face", "corrupted"), [(1, True), (2, False)])
def test_grit_adds_to_the_corruption_save(face: int, corrupted: bool) -> None:
    # Sister Ash: church (+1 Grit) and a severe wound survived (Grit 1): Grit 2; 2 + 2 = 4 saves
    s = advance(open_phase(world(taint=10, wounds=("severe-1",))), "m1", until="return.pilots")
    s, _ = run(s, bd.ResolvePilots("m1"), [face])
    assert (s.pilots["a1"].status == domain.RETIRED) is corrupted


@pytest.mark.parametrize(("missions", "due"), [(2, 0), (3, 1), (5, 1), (6, 2)])
def test_a_scar_every_3_completed_missions(missions: int, due: int) -> None:
    s = world()
    for _ in range(missions - 1):
        s = play_mission(s)
    assert bd.scars_due(s, "a1") == due


def test_scars_roll_choose_on_20_and_retire_at_the_fifth() -> None:
    s = world()
    for _ in range(14):
        s = play_mission(s)  # 15 completed missions: 5 scars due
    assert bd.scars_due(s, "a1") == 5
    mid = s.missions[-1].id
    s = advance(open_phase(s, mid), mid, until="return.pilots")
    # a1 and b1 each roll their first due scar; a1 rolls 20: the player's choice
    with pytest.raises(InvalidInput, match=r"scar_choices\.a1"):
        run(s, bd.ResolvePilots(mid), [20, 1])
    s2, _events = run(
        s,
        bd.ResolvePilots(
            mid, scar_tables=(("a1", "trauma"),), scar_choices=(("a1", "survivors-guilt"),)
        ),
        [20, 1],
    )
    assert s2.pilots["a1"].scars == ("Survivor's Guilt",)
    assert s2.pilots["b1"].scars == ("Shattered Leg",)
    with pytest.raises(InvalidInput, match="scar table"):
        run(s, bd.ResolvePilots(mid, scar_tables=(("a1", "cosmic"),)), [1, 1])
    # four more scars (given by the GM) and the scheduled one makes five: retired
    extra = [lg.ScarTaken("a1", f"scar {i}", "scars.physical", False, "test") for i in range(4)]
    s3 = domain.replay(extra, s)
    s3, _ = run(s3, bd.ResolvePilots(mid), [2, 2])
    assert len(s3.pilots["a1"].scars) == 5 and s3.pilots["a1"].status == domain.RETIRED
    with pytest.raises(RuleViolation) as e:
        domain.decide(s3, domain.AddScar("a1", "sixth", "test"), actor_is_gm=True)
    assert e.value.code == "scar_limit"


# --- Grit ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("missions", "grit"), [(4, 0), (5, 1), (9, 1), (10, 2), (19, 2), (20, 3), (25, 3)]
)
def test_grit_from_missions_survived(missions: int, grit: int) -> None:
    s = world()
    for _ in range(missions - 1):
        s = play_mission(s, pilots=("b1",))
    # Bran (elves, no start bonus) flew every mission
    assert bd.grit(s, "b1").value == grit
    assert bd.grit(s, "b1").check_modifier == -1  # elves: -1 on every Grit check


@pytest.mark.parametrize(("severe", "grit"), [(0, 1), (1, 2), (2, 2), (3, 3)])
def test_grit_from_severe_wounds_and_the_church_start(severe: int, grit: int) -> None:
    wounds = [f"severe-{i + 1}" for i in range(severe)]
    s = world(wounds=wounds)
    assert bd.grit(s, "a1").value == grit  # church starts at +1, capped at 3


def test_grit_a_card_gave_for_good_reaches_the_campaign_once() -> None:
    """R-ADD-411: Iron Will Training's "gain +1 Grit permanently" comes with the battle's
    outcome (`grit_gained`), once, and the pilot's Grit counts it within the maximum."""
    s = world()
    s = domain.replay(
        [
            domain.MissionPlanned("m2", 2, "Mission 2"),
            domain.MissionStarted("m2", "battle-2", ((0, "a1", "ba", 1), (1, "b1", "bb", 1))),
        ],
        s,
    )
    assert bd.grit(s, "b1").value == 0
    seats = (
        domain.SeatOutcome(0, (), False, 0, ()),
        domain.SeatOutcome(1, (), False, 0, (), grit_gained=1),
    )
    apply = domain.ApplyOutcome("battle-2", "players", 3, seats, False, False)
    events = domain.decide(s, apply, actor_is_gm=True)
    assert [e for e in events if isinstance(e, domain.GritGained)] == [
        domain.GritGained("b1", 1, "m2")
    ]
    after = domain.replay(events, s)
    assert (bd.grit(after, "b1").value, bd.grit(after, "a1").value) == (1, 1)
    assert domain.decide(after, apply, actor_is_gm=True) == []  # exactly once (R-PLT-5)
    record = CAMPAIGN_EVENTS.to_record(domain.GritGained("b1", 1, "m2"))
    assert CAMPAIGN_EVENTS.decode_record(*record) == domain.GritGained("b1", 1, "m2")
    # The maximum still holds: a Grit 3 pilot stays at 3.
    top = domain.replay([domain.GritGained("a1", 3, "m2")], after)
    assert bd.grit(top, "a1").value == 3


def test_grit_ladder_severe_boundaries() -> None:
    rules = rulebook("pc-1").rules["grit"]
    assert [bd._band(rules["severe"], n) for n in range(6)] == [0, 1, 1, 2, 2, 3]
    assert [bd._band(rules["missions"], n) for n in (4, 5, 9, 10, 19, 20)] == [0, 1, 1, 2, 2, 3]


def test_grit_check_bands() -> None:
    table = rulebook("pc-1").table("grit.check")
    assert [table.lookup(t).id for t in (3, 4, 5, 6, 7, 8)] == [
        "full-wound",
        "tough-it-out",
        "tough-it-out",
        "shrug-it-off",
        "shrug-it-off",
        "iron-will",
    ]


def test_a_gm_grit_override_needs_a_reason_and_can_be_lifted() -> None:
    s = world()
    with pytest.raises(InvalidInput, match="reason"):
        run(s, bd.OverrideGrit("m1", pilot_id="b1", grit=3, reason=""))
    with pytest.raises(InvalidInput, match="grit"):
        run(s, bd.OverrideGrit("m1", pilot_id="b1", grit=4, reason="x"))
    s, _ = run(s, bd.OverrideGrit("m1", pilot_id="b1", grit=3, reason="saved the town"))
    assert (bd.grit(s, "b1").value, bd.grit(s, "b1").recorded) == (3, 0)
    s, _ = run(s, bd.OverrideGrit("m1", pilot_id="b1", grit=-1, reason="back to the record"))
    assert bd.grit(s, "b1").value == 0


# --- income, upkeep, debt ----------------------------------------------------------------------------


def _with(s: domain.CampaignState, **changes: object) -> domain.CampaignState:
    return dataclasses.replace(s, settlement=dataclasses.replace(s.settlement, **changes))


@pytest.mark.parametrize(("population", "upkeep"), [(19, 10 + 5 + 20), (20, 10 + 10 + 20)])
def test_upkeep_per_full_10_population(population: int, upkeep: int) -> None:
    s = advance(open_phase(world()), "m1", until="income")
    s = _with(s, population=population, credits=100)
    s, _ = run(s, bd.CollectIncome("m1"))
    assert s.settlement.credits == 100 - upkeep


@pytest.mark.parametrize(("credits", "instability"), [(35, 0), (34, 1), (-15, 1), (-16, 2)])
def test_debt_raises_instability_per_50_credits(credits: int, instability: int) -> None:
    # upkeep 10 + 5 + 2 pilots x 10 = 35: 35 -> 0 (none), 34 -> -1 (1), -15 -> -50 (1), -16 -> -51 (2)
    s = advance(open_phase(world()), "m1", until="income")
    s = _with(s, credits=credits, population=10)
    s, _ = run(s, bd.CollectIncome("m1"))
    assert s.settlement.instability == instability


def test_the_bank_holds_500_credits() -> None:
    s = advance(open_phase(world()), "m1", until="return.rewards")
    s = _with(s, credits=450)
    s2, _events = run(s, bd.ResolveRewards("m1", success=True, objectives=("secondary",)), [])
    assert s2.settlement.credits == 500
    s = _with(s, credits=400)
    s3, _ = run(s, bd.ResolveRewards("m1", success=True, objectives=("secondary",)), [])
    assert s3.settlement.credits == 450


def test_buildings_count_down_and_earn() -> None:
    s = advance(open_phase(world()), "m1", until="income")
    s = _with(
        s,
        credits=100,
        buildings=(lg.BuildingState("market", 0), lg.BuildingState("workshop", 1)),
    )
    s, _ = run(s, bd.CollectIncome("m1"))
    # the workshop stands this phase and earns; market 20, workshop 10 + 1 Scrap; upkeep 35
    assert s.settlement.standing("workshop")
    assert (s.settlement.credits, s.settlement.scrap) == (100 + 20 + 10 - 35, 1 + 1)  # salvage 1


# --- the event ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "event"),
    [
        (5, "catastrophe"),
        (6, "harsh-winter"),
        (40, "quiet-days"),
        (41, "traveling-merchant"),
        (99, "engine-pulse"),
        (100, "secret-revealed"),
    ],
)
def test_event_bands(face: int, event: str) -> None:
    assert rulebook("pc-1").table("events").lookup(face).id == event


def test_harsh_winter_charges_upkeep_again_and_may_cost_population() -> None:
    s = advance(open_phase(world()), "m1", until="event")
    credits = s.settlement.credits
    s2, _ = run(s, bd.RollEvent("m1"), [10, 2, 4])
    assert s2.settlement.credits == credits - 35
    assert s2.settlement.population == s.settlement.population - 4
    s3, _ = run(s, bd.RollEvent("m1"), [10, 3])
    assert s3.settlement.population == s.settlement.population


def test_engine_pulse_taints_those_who_fail_the_willpower_save() -> None:
    s = advance(open_phase(world()), "m1", until="event")
    instability = s.settlement.instability
    # Sister Ash (Grit 1): 3 + 1 = 4 saves; Bran (Grit 0): 3 fails
    s, _ = run(s, bd.RollEvent("m1"), [98, 3, 3])
    assert (s.pilots["a1"].taint, s.pilots["b1"].taint) == (0, 1)
    assert s.settlement.instability == instability + 1


def test_sickness_injures_a_random_pilot() -> None:
    s = advance(open_phase(world()), "m1", until="event")
    s, _ = run(s, bd.RollEvent("m1"), [20, 1, 2])
    assert s.settlement.pilot("b1").injuries == ("plague-survivor",)


# --- actions ----------------------------------------------------------------------------------------


def test_two_actions_per_player() -> None:
    s = advance(open_phase(world()), "m1", until="actions")
    s, _ = run(s, bd.TakeAction("m1", player="ann", action="rest", pilot_id="a1"))
    s, _ = run(s, bd.TakeAction("m1", player="ann", action="socialize", pilot_id="a1"))
    with pytest.raises(RuleViolation) as e:
        run(s, bd.TakeAction("m1", player="ann", action="rest", pilot_id="a1"))
    assert e.value.code == "no_actions_left" and "ann" in str(e.value)
    s, _ = run(s, bd.TakeAction("m1", player="ben", action="rest", pilot_id="b1"))
    assert s.settlement.pilot("a1").morale == 7


def test_an_unaffordable_action_is_refused() -> None:
    s = advance(open_phase(world()), "m1", until="actions")
    s = _with(s, credits=49)
    with pytest.raises(RuleViolation) as e:
        run(s, bd.TakeAction("m1", player="ann", action="train", pilot_id="a1", detail="attack"))
    assert e.value.code == "unaffordable" and "50 Credits" in str(e.value)
    s = _with(s, credits=50)
    s, _ = run(s, bd.TakeAction("m1", player="ann", action="train", pilot_id="a1", detail="attack"))
    assert s.settlement.credits == 0
    assert dict(s.settlement.pilot("a1").skills) == {"attack": 1}


def test_building_needs_prerequisite_tier_slot_and_resources() -> None:
    s = advance(open_phase(world()), "m1", until="actions")
    s = _with(s, credits=500, scrap=20, population=19)
    build = bd.TakeAction("m1", player="ann", action="build", detail="arsenal")
    with pytest.raises(RuleViolation) as e:
        run(s, build)
    assert e.value.code == "building_tier" and "population 20" in str(e.value)
    s = _with(s, population=20)
    with pytest.raises(RuleViolation) as e:
        run(s, build)
    assert e.value.code == "building_prerequisite" and "The Forge" in str(e.value)
    full = _with(
        s,
        population=19,
        buildings=tuple(lg.BuildingState(b, 0) for b in ("forge", "market", "shrine")),
    )
    with pytest.raises(RuleViolation) as e:
        run(full, bd.TakeAction("m1", player="ann", action="build", detail="barracks"))
    assert e.value.code == "no_building_slot"
    roomy = _with(full, population=20)
    roomy, _ = run(roomy, bd.TakeAction("m1", player="ann", action="build", detail="barracks"))
    assert roomy.settlement.standing("barracks")  # immediate
    assert (roomy.settlement.credits, roomy.settlement.scrap) == (450, 18)
    poor = _with(s, scrap=2, buildings=(lg.BuildingState("forge", 0),))
    with pytest.raises(RuleViolation) as e:
        run(poor, build)
    assert e.value.code == "unaffordable"
    s = _with(s, buildings=(lg.BuildingState("forge", 0),))
    s, _ = run(s, build)
    assert not s.settlement.standing("arsenal")
    assert s.settlement.buildings[-1] == lg.BuildingState("arsenal", 1)


def test_actions_need_their_building() -> None:
    s = advance(open_phase(world(wounds=("severe-1",))), "m1", until="actions")
    s = _with(s, credits=500)
    with pytest.raises(RuleViolation) as e:
        run(
            s,
            bd.TakeAction("m1", player="ann", action="surgery", pilot_id="a1", detail="severe-1"),
            [4],
        )
    assert e.value.code == "building_missing" and "The Apothecary" in str(e.value)


@pytest.mark.parametrize(("face", "change"), [(3, "permanent"), (4, "healed")])
def test_surgery_heals_a_severe_wound_on_4(face: int, change: str) -> None:
    s = advance(open_phase(world(wounds=("severe-1",))), "m1", until="actions")
    s = _with(s, credits=100, buildings=(lg.BuildingState("apothecary", 0),))
    s, events = run(
        s,
        bd.TakeAction("m1", player="ann", action="surgery", pilot_id="a1", detail="severe-1"),
        [face],
    )
    assert s.settlement.credits == 0
    assert [e.change for e in events if isinstance(e, lg.InjuryChanged)] == [change]
    assert (s.pilots["a1"].carried_wounds == ()) is (change == "healed")
    assert bd.grit(s, "a1").severe == 1  # survived either way


def test_treatment_makes_a_severe_wound_minor_then_it_may_heal() -> None:
    s = advance(open_phase(world(wounds=("severe-1",))), "m1", until="actions")
    s = _with(s, credits=30, buildings=(lg.BuildingState("apothecary", 0),))
    s, _ = run(
        s, bd.TakeAction("m1", player="ann", action="treat", pilot_id="a1", detail="severe-1")
    )
    assert s.pilots["a1"].carried_wounds == ()
    assert s.settlement.pilot("a1").injuries == ("severe-1",)
    s, _ = run(s, bd.FinishActions("m1"))
    s, _ = run(s, bd.PilotCare("m1"), [3])
    assert s.settlement.pilot("a1").injuries == ("severe-1",)


@pytest.mark.parametrize(("face", "healed"), [(3, False), (4, True)])
def test_minor_injuries_heal_on_4(face: int, healed: bool) -> None:
    s = world()
    s, _ = run(s, bd.OpenPhase("m1", commitment(SECRET), minor_wounds=(("a1", "minor-2"),)))
    assert s.settlement.pilot("a1").injuries == ("minor-2",)
    s = advance(s, "m1", until="care")
    s, _ = run(s, bd.PilotCare("m1"), [face])
    assert (s.settlement.pilot("a1").injuries == ()) is healed


def test_a_sidelined_pilot_sits_out_the_next_mission() -> None:
    s = world()
    s, _ = run(s, bd.SidelinePilot("m1", pilot_id="a1", reason="plague"))
    s = finish_phase(open_phase(s), "m1", next_mission="m2")
    with pytest.raises(RuleViolation) as e:
        domain.decide(s, domain.StartMission("m2", "b2", ((0, "a1", "ba", 1),)), actor_is_gm=True)
    assert e.value.code == "pilot_out" and "plague" in str(e.value)
    assert domain.decide(
        s, domain.StartMission("m2", "b2", ((0, "b1", "bb", 1),)), actor_is_gm=True
    )


@pytest.mark.parametrize(("morale", "refused"), [(-1, True), (0, False)])
def test_a_pilot_below_0_morale_refuses_to_deploy(morale: int, refused: bool) -> None:
    s = finish_phase(open_phase(world()), "m1", next_mission="m2")
    s = _with(s, pilots={"a1": lg.PilotRecord(morale=morale)})
    start = domain.StartMission("m2", "b2", ((0, "a1", "ba", 1),))
    if refused:
        with pytest.raises(RuleViolation) as e:
            domain.decide(s, start, actor_is_gm=True)
        assert e.value.code == "pilot_morale_broken"
    else:
        assert domain.decide(s, start, actor_is_gm=True)


@pytest.mark.parametrize(("pilots", "refused"), [(3, False), (4, True)])
def test_the_roster_holds_4_pilots(pilots: int, refused: bool) -> None:
    s = world()
    extra = [domain.PilotEnlisted(f"x{i}", "ann", f"X{i}", "church", 0) for i in range(pilots - 2)]
    s = domain.replay(extra, s)
    enlist = domain.EnlistPilot("new", "ann", "New", "church", 0)
    if refused:
        with pytest.raises(RuleViolation) as e:
            domain.decide(s, enlist, actor_is_gm=True)
        assert e.value.code == "roster_full"
        s = _with(s, buildings=(lg.BuildingState("barracks", 0),))
    assert domain.decide(s, enlist, actor_is_gm=True)


# --- helpers ------------------------------------------------------------------------------------------


def advance(s: domain.CampaignState, mid: str, *, until: str) -> domain.CampaignState:
    """Play the phase's steps before `until` with no casualties, no rewards, low rolls."""
    steps = {
        "return.casualties": (bd.ResolveCasualties(mid), []),
        "return.rewards": (bd.ResolveRewards(mid, success=True), []),
        "return.salvage": (bd.RollSalvage(mid), [1]),
        "return.pilots": (bd.ResolvePilots(mid), None),
        "income": (bd.CollectIncome(mid), []),
        "event": (bd.RollEvent(mid), [30]),
        "actions": (bd.FinishActions(mid), []),
        "care": (bd.PilotCare(mid), None),
    }
    for step in bd.STEPS:
        if step == until or step == "select":
            return s
        command, faces = steps[step]
        s, _ = run(s, command, faces)
    return s


def finish_phase(
    s: domain.CampaignState, mid: str, *, next_mission: str = "next"
) -> domain.CampaignState:
    done = set(s.settlement.phase(mid).steps)
    s = _rest(s, mid, [step for step in bd.STEPS if step not in done])
    s, _ = run(
        s, bd.SelectMission(mid, next_mission_id=next_mission, name="Next", secret=SECRET.hex())
    )
    return s


def _rest(s: domain.CampaignState, mid: str, remaining: list[str]) -> domain.CampaignState:
    for step in remaining:
        if step == "select":
            break
        command = {
            "return.casualties": bd.ResolveCasualties(mid),
            "return.rewards": bd.ResolveRewards(mid, success=True),
            "return.salvage": bd.RollSalvage(mid),
            "return.pilots": bd.ResolvePilots(mid),
            "income": bd.CollectIncome(mid),
            "event": bd.RollEvent(mid),
            "actions": bd.FinishActions(mid),
            "care": bd.PilotCare(mid),
        }[step]
        s, _ = run(s, command)
    return s


def test_sealed_and_entered_rolls_share_one_numbering() -> None:
    s = open_phase(world())
    s, _ = run(s, bd.ResolveCasualties("m1"))
    s, _ = run(s, bd.ResolveRewards("m1", success=True, enemies=(("minion", 2),)), [50, 60])
    s, _ = run(s, bd.RollSalvage("m1"))
    rolls = s.settlement.rolls
    assert [r.index for r in rolls] == list(range(len(rolls)))
    assert [r.source for r in rolls[:3]] == ["table", "table", "sealed"]
    assert rolls[2].faces == derive_faces(SECRET, "phase-1", 2, 6, 1)
    assert EnteredRoller([1]).made == 0 and SealedRoller(SECRET, "x", 0).made == 0


def test_free_trauma_treatment_is_plt1s_only() -> None:
    s = world(wounds=("trauma-1",))
    with pytest.raises(RuleViolation) as e:
        domain.decide(s, domain.TreatTrauma("a1", "trauma-1", "rest"), actor_is_gm=True)
    assert e.value.code == "trauma_surgery" and e.value.rule == "R-ADD-239"


@pytest.mark.parametrize(("face", "healed"), [(3, False), (4, True)])
def test_trauma_surgery_costs_200_and_heals_on_4(face: int, healed: bool) -> None:
    s = advance(open_phase(world(wounds=("trauma-1",))), "m1", until="actions")
    s = _with(s, credits=199, buildings=(lg.BuildingState("apothecary", 0),))
    surgery = bd.TakeAction(
        "m1", player="ann", action="trauma-surgery", pilot_id="a1", detail="trauma-1"
    )
    with pytest.raises(RuleViolation) as e:
        run(s, surgery, [face])
    assert e.value.code == "unaffordable" and "200 Credits" in str(e.value)
    s = _with(s, credits=200)
    s, _ = run(s, surgery, [face])
    assert s.settlement.credits == 0
    assert (s.pilots["a1"].carried_wounds == ()) is healed


def test_missions_offered_from_the_generation_tables_once_then_chosen() -> None:
    s = advance(open_phase(world()), "m1", until="select")
    with pytest.raises(InvalidInput, match="count"):
        run(s, bd.OfferMissions("m1", count=4))
    # offer 1: d6 5 hard, d12 9 bandits, d6 6 boss and 2 elites, d6 6 modifier, d6 4 ambush
    # offer 2: d6 2 easy, d12 12 anomalous, d6 1 ten swarm, d6 5 no modifier
    s, _ = run(s, bd.OfferMissions("m1", count=2), [5, 9, 6, 6, 4, 2, 12, 1, 5])
    offers = s.settlement.phase("m1").offers
    assert offers == (
        ("offer-1", "Hard: Bandits / Raiders", "1 Boss and 2 Elites; Ambush"),
        ("offer-2", "Easy: Anomalous Entity", "10 Swarm"),
    )
    with pytest.raises(RuleViolation) as e:
        run(s, bd.OfferMissions("m1", count=2), [1] * 9)
    assert e.value.code == "missions_offered"
    with pytest.raises(InvalidInput, match="offer"):
        run(s, bd.SelectMission("m1", next_mission_id="m2", offer="offer-9", secret=SECRET.hex()))
    s, _ = run(
        s, bd.SelectMission("m1", next_mission_id="m2", offer="offer-1", secret=SECRET.hex())
    )
    assert s.missions[-1].name == "Hard: Bandits / Raiders"


@pytest.mark.parametrize(
    ("face", "difficulty"), [(2, "easy"), (3, "medium"), (4, "medium"), (5, "hard"), (6, "deadly")]
)
def test_mission_difficulty_bands(face: int, difficulty: str) -> None:
    assert rulebook("pc-1").table("missions.difficulty").lookup(face).id == difficulty


def test_a_recruit_rolled_on_the_pilot_generation_tables() -> None:
    s = open_phase(world())
    # background 4, trait 20 (Chosen: two more, 1 and 10), motivation 1, quirk 100, look 2
    s, events = run(s, bd.GeneratePilot("m1"), [4, 20, 1, 10, 1, 100, 2])
    rows = s.settlement.phase("m1").recruits[0]
    assert rows == (
        ("background", "Blacksmith"),
        ("trait", "Chosen"),
        ("trait", "Steady Hands"),
        ("trait", "Survivor"),
        ("motivation", "Redemption"),
        ("quirk", "Quirk 100 (the game's quirk table)"),
        ("appearance", "Missing Eye"),
    )
    assert next(e.table for e in events if isinstance(e, lg.RollMade)) == "pilots.background"
    s, _ = run(s, bd.GeneratePilot("m1", complex_trait=True), [1, 20, 1, 1, 1])
    assert s.settlement.phase("m1").recruits[1][1] == ("complex-trait", "The Sacrifice")
    with pytest.raises(RuleViolation) as e:
        run(world(), bd.GeneratePilot("m1"), [1] * 5)
    assert e.value.code == "phase_not_open"


def test_taint_stops_at_10_under_pc1() -> None:
    s = advance(open_phase(world(taint=13)), "m1", until="return.pilots")
    s2, _ = run(s, bd.ResolvePilots("m1"), [4])  # saved
    assert s2.pilots["a1"].taint == 10
    s3 = world(taint=9)
    assert domain.decide(s3, domain.AdjustTaint("a1", 1, "void"), actor_is_gm=True)
    with pytest.raises(RuleViolation) as e:
        domain.decide(s3, domain.AdjustTaint("a1", 2, "void"), actor_is_gm=True)
    assert e.value.code == "taint_cap" and e.value.rule == "R-ADD-240"


def test_a_mission_planned_before_the_phase_closes_is_the_next_one() -> None:
    s = domain.replay([domain.MissionPlanned("m2", 2, "Two")], world())
    s = finish_phase(open_phase(s), "m1", next_mission="m3")
    assert [m.id for m in s.missions] == ["m1", "m2"]
    s2 = advance(open_phase(world()), "m1", until="select")
    with pytest.raises(InvalidInput, match="name"):
        run(s2, bd.SelectMission("m1", next_mission_id="m2", name=" ", secret=SECRET.hex()))
