"""The optional modules of pc-1, pure: XP and skills (R-ADD-315, R-ADD-316), Flesh
Bargains (R-ADD-317…319), faction relationships (R-ADD-320, R-ADD-321)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from battles.engine.errors import InvalidInput, RuleViolation
from campaigns import codec, domain  # noqa: F401  (the codec imports every module's events)
from campaigns.between import bargains, relationships, skills, soulstone, travel
from campaigns.between import decide as bd
from campaigns.between import ledger as lg
from campaigns.between.dice import EnteredRoller, SealedRoller
from campaigns.between.modules import ModuleCommand, decide_module

from .between_world import SECRET, open_phase, play_mission, world
from .test_between_domain import advance


def with_modules(s: domain.CampaignState, *modules: str) -> domain.CampaignState:
    return dataclasses.replace(s, settlement=dataclasses.replace(s.settlement, modules=modules))


def _with(s: domain.CampaignState, **changes: object) -> domain.CampaignState:
    return dataclasses.replace(s, settlement=dataclasses.replace(s.settlement, **changes))


def mrun(
    s: domain.CampaignState, command: bd.BetweenCommand, faces: Sequence[int] = ()
) -> tuple[domain.CampaignState, list[domain.Event]]:
    """Decide a module command (or a step) with entered faces, all of them used."""
    roller = EnteredRoller(list(faces))
    if isinstance(command, ModuleCommand):
        events = decide_module(s, command, actor_is_gm=True, roller=roller)
    else:
        events = bd.decide(s, command, actor_is_gm=True, roller=roller)
    assert roller.unused == 0, f"{roller.unused} faces left over"
    return domain.replay(events, s), events


def rolls(events: Sequence[domain.Event]) -> list[lg.RollMade]:
    return [e for e in events if isinstance(e, lg.RollMade)]


# --- XP and skills ------------------------------------------------------------------------------


def xp_world(*modules: str) -> domain.CampaignState:
    return open_phase(with_modules(world(), *(modules or ("xp_skills",))))


def test_xp_is_refused_when_the_module_is_off() -> None:
    s = open_phase(world())
    with pytest.raises(RuleViolation) as e:
        mrun(s, skills.AwardXP("m1", pilot_id="a1", result="victory"))
    assert e.value.code == "module_off" and "the XP and skills module" in str(e.value)
    assert e.value.rule == "R-ADD-315"


def test_xp_for_a_result_and_its_bonuses_once_per_mission() -> None:
    s = xp_world()
    s, events = mrun(
        s, skills.AwardXP("m1", pilot_id="a1", result="partial", bonuses=("boss-defeated",))
    )
    assert skills.pilot_skills(s.settlement, "a1").xp == 100
    assert not rolls(events)  # 100 XP is short of the first skill at 200
    with pytest.raises(RuleViolation) as e:
        mrun(s, skills.AwardXP("m1", pilot_id="a1", result="victory"))
    assert e.value.code == "xp_awarded"
    with pytest.raises(InvalidInput) as bad:
        mrun(s, skills.AwardXP("m1", pilot_id="b1", result="triumph"))
    assert bad.value.field == "result" and "victory" in str(bad.value)
    with pytest.raises(InvalidInput) as twice:
        mrun(
            s,
            skills.AwardXP(
                "m1", pilot_id="b1", result="defeat", bonuses=("three-caskets", "three-caskets")
            ),
        )
    assert twice.value.field == "bonuses"


def test_xp_needs_a_living_pilot_who_flew_the_mission() -> None:
    s = world()
    s = play_mission(s, pilots=("a1",))  # mission 2: only Ann
    s = with_modules(s, "xp_skills")
    s = open_phase(s, "m2")
    with pytest.raises(RuleViolation) as e:
        mrun(s, skills.AwardXP("m2", pilot_id="b1", result="victory"))
    assert e.value.code == "pilot_not_in_mission" and "Bran" in str(e.value)
    dead = open_phase(with_modules(world(dead=True), "xp_skills"))
    with pytest.raises(RuleViolation) as e:
        mrun(dead, skills.AwardXP("m1", pilot_id="b1", result="victory"))
    assert e.value.code == "pilot_unavailable"


def _at(s: domain.CampaignState, pilot_id: str, xp: int) -> domain.CampaignState:
    return domain.replay([skills.XPGained(pilot_id, "", xp, xp, "test")], s)


@pytest.mark.parametrize(("before", "unlocks"), [(99, False), (100, True)])
def test_the_first_skill_at_200_xp_rolled_on_1d6(before: int, unlocks: bool) -> None:
    s = _at(xp_world(), "a1", before)
    faces = [3] if unlocks else []
    s, events = mrun(s, skills.AwardXP("m1", pilot_id="a1", result="victory"), faces)
    record = skills.pilot_skills(s.settlement, "a1")
    assert record.xp == before + 100
    if unlocks:
        (roll,) = rolls(events)
        assert (roll.table, roll.die, roll.faces, roll.outcome, roll.table_version) == (
            "skills.tier-1",
            6,
            (3,),
            "combat-awareness",
            "pc-1",
        )
        assert [(k.tier, k.name) for k in record.skills] == [(1, "Combat Awareness")]
    else:
        assert record.skills == ()


def test_a_skill_already_held_is_rolled_again() -> None:
    s = xp_world()
    # a skill held from outside the ladder (tier 0), as a bargain or a legacy may give one
    s = domain.replay([skills.SkillUnlocked("a1", 0, "headhunter", "Headhunter", "x", "given")], s)
    s = _at(s, "a1", 400)
    # Tier 1 at 200 (a 2), then Tier 2 at 500: a 1 is Headhunter, held, so the d20 rolls again
    s, events = mrun(s, skills.AwardXP("m1", pilot_id="a1", result="victory"), [2, 1, 9])
    assert [r.outcome for r in rolls(events)] == ["scrap-scrounger", "headhunter", "ace-pilot"]
    assert {k.id for k in skills.pilot_skills(s.settlement, "a1").skills} == {
        "headhunter",
        "scrap-scrounger",
        "ace-pilot",
    }


@pytest.mark.parametrize(("face", "chooses"), [(16, False), (17, True)])
def test_tier_2_on_17_or_more_is_the_players_choice(face: int, chooses: bool) -> None:
    s = _at(xp_world(), "a1", 100)
    s = domain.replay(
        [skills.SkillUnlocked("a1", 1, "steady-hands", "Steady Hands", "x", "rolled")], s
    )
    s = _at(s, "a1", 400)
    award = skills.AwardXP("m1", pilot_id="a1", result="victory")
    if chooses:
        with pytest.raises(InvalidInput) as e:
            mrun(s, award, [face])
        assert e.value.field == "choice" and "same dice" in str(e.value)
        award = dataclasses.replace(award, choice="battlemaster")
    s, events = mrun(s, award, [face])
    (tier2,) = [k for k in skills.pilot_skills(s.settlement, "a1").skills if k.tier == 2]
    assert tier2.id == ("battlemaster" if chooses else "killing-blow")
    assert rolls(events)[0].outcome == ("players-choice" if chooses else "killing-blow")


@pytest.mark.parametrize(("before", "signature"), [(899, False), (900, True)])
def test_the_faction_signature_at_1000_xp(before: int, signature: bool) -> None:
    s = xp_world()
    held = [
        skills.SkillUnlocked("a1", 1, "steady-hands", "Steady Hands", "x", "rolled"),
        skills.SkillUnlocked("a1", 2, "headhunter", "Headhunter", "x", "rolled"),
    ]
    s = _at(domain.replay(held, s), "a1", before)
    s, events = mrun(s, skills.AwardXP("m1", pilot_id="a1", result="victory"))
    names = [k.name for k in skills.pilot_skills(s.settlement, "a1").skills]
    assert ("Martyrdom" in names) is signature  # Sister Ash is the Church's
    assert not rolls(events)
    assert skills.next_rung(s, "a1") == (None if signature else 1000)


def test_skill_training_is_a_settlement_action_of_the_module() -> None:
    s = advance(xp_world(), "m1", until="actions")
    s = _with(s, credits=75)
    train = bd.TakeAction("m1", player="ann", action="xp-training", pilot_id="a1")
    with pytest.raises(RuleViolation) as e:
        mrun(with_modules(s), train)
    assert e.value.code == "module_off"
    poor = _with(s, credits=74)
    with pytest.raises(RuleViolation) as e:
        mrun(poor, train)
    assert e.value.code == "unaffordable" and "75 Credits" in str(e.value)
    s = _at(s, "a1", 100)
    s, _ = mrun(s, train, [6])
    assert s.settlement.credits == 0
    record = skills.pilot_skills(s.settlement, "a1")
    assert (record.xp, [k.id for k in record.skills]) == (200, ["field-triage"])
    assert s.settlement.phase("m1").actions[-1].action == "xp-training"
    notes = bd.deployment_notes(s, "a1")
    assert any("Field Triage" in n for n in notes) and "XP 200 (R-ADD-315)" in notes


# --- Flesh Bargains ----------------------------------------------------------------------------


def veteran(
    missions: int, *, grit: int = 2, modules: tuple[str, ...] = ("flesh_bargains",)
) -> domain.CampaignState:
    """Sister Ash (church) after `missions` completed missions, the phase after the last
    one open; Grit set by the GM to `grit` so the count and the Grit vary apart."""
    s = world()
    for _ in range(missions - 1):
        s = play_mission(s)
    s = with_modules(s, *modules)
    s = domain.replay([lg.GritOverridden("a1", grit, "test")], s)
    return open_phase(s, f"m{missions}")


@pytest.mark.parametrize(
    ("missions", "grit", "offered"),
    [(4, 2, False), (5, 2, True), (6, 2, False), (5, 1, False), (10, 2, True), (20, 3, True)],
)
def test_a_bargain_is_offered_after_missions_5_10_15_20_at_grit_2(
    missions: int, grit: int, offered: bool
) -> None:
    s = veteran(missions, grit=grit)
    assert (bargains.offer(s, "a1") == missions) is offered
    answer = bargains.AnswerBargain(f"m{missions}", pilot_id="a1", bargain="")
    if offered:
        s, events = mrun(s, answer)
        assert events == [
            bargains.BargainAnswered("a1", f"m{missions}", missions, "", "", "", False)
        ]
        assert bargains.offer(s, "a1") is None  # answered once
    else:
        with pytest.raises(RuleViolation) as e:
            mrun(s, answer)
        assert e.value.code == "no_bargain_offer" and f"Grit {grit}" in str(e.value)


def test_a_bargain_is_refused_with_the_module_off() -> None:
    s = veteran(5, modules=())
    with pytest.raises(RuleViolation) as e:
        mrun(s, bargains.AnswerBargain("m5", pilot_id="a1", bargain="blessed-constitution"))
    assert e.value.code == "module_off" and "Flesh Bargains module" in str(e.value)


def test_an_accepted_bargain_pays_its_costs_and_stays() -> None:
    s = veteran(5)
    take = bargains.AnswerBargain("m5", pilot_id="a1", bargain="resurrection-pact")
    with pytest.raises(RuleViolation) as e:
        mrun(_with(s, scrap=4), take)
    assert e.value.code == "unaffordable" and "5 Scrap" in str(e.value)
    with pytest.raises(InvalidInput) as bad:
        mrun(_with(s, scrap=5), dataclasses.replace(take, bargain="carapace-grafting"))
    assert bad.value.field == "bargain" and "church" in str(bad.value)  # an Ossuarium bargain
    grit_before = bd.grit(s, "a1").recorded
    s, _ = mrun(_with(s, scrap=5, credits=-40), take)  # a Scrap bargain, whatever the debt
    assert s.settlement.scrap == 0
    assert s.settlement.pilot("a1").injuries == tuple(
        f"resurrection-pact-wound-{n}" for n in (1, 2, 3)
    )
    assert s.pilots["a1"].taint == 1
    assert bargains.pilot_bargains(s.settlement, "a1").taken[0][1] == "Resurrection Pact"
    assert bd.grit(s, "a1").recorded == grit_before + 1  # +1 Grit once a bargain is taken
    assert any("Resurrection Pact" in n for n in bd.deployment_notes(s, "a1"))


def test_the_surgery_of_step_5c_costs_80_credits_and_the_next_mission() -> None:
    s = _with(veteran(5), credits=80)
    s, _ = mrun(s, bargains.AnswerBargain("m5", pilot_id="a1", bargain="the-shortening"))
    assert s.settlement.credits == 0
    record = s.settlement.pilot("a1")
    assert record.out_for_mission == 6 and "The Shortening" in record.out_reason


# --- faction relationships ------------------------------------------------------------------------


def rel_world() -> domain.CampaignState:
    return open_phase(with_modules(world(), "faction_relationships"))


def test_relationships_start_neutral_and_move_by_their_cause() -> None:
    s = rel_world()
    assert {r["id"]: r["value"] for r in relationships.table(s)}["church"] == 0
    s, _ = mrun(s, relationships.ChangeRelationship("m1", faction="church", cause="broker-peace"))
    s, _ = mrun(s, relationships.ChangeRelationship("m1", faction="church", cause="kill-members"))
    row = next(r for r in relationships.table(s) if r["id"] == "church")
    assert (row["value"], row["standing"]) == (1, "Cordial")
    with pytest.raises(InvalidInput) as e:
        mrun(s, relationships.ChangeRelationship("m1", faction="church", cause="flattery"))
    assert e.value.field == "cause"
    with pytest.raises(InvalidInput) as e:
        mrun(s, relationships.ChangeRelationship("m1", faction="gnomes", cause="kill-members"))
    assert e.value.field == "faction"


def test_relationships_are_refused_with_the_module_off() -> None:
    with pytest.raises(RuleViolation) as e:
        mrun(
            open_phase(world()),
            relationships.ChangeRelationship("m1", faction="church", cause="kill-members"),
        )
    assert e.value.code == "module_off" and e.value.rule == "R-ADD-320"


@pytest.mark.parametrize(("value", "after"), [(-2, -3), (-3, -3)])
def test_a_relationship_stops_at_war(value: int, after: int) -> None:
    s = rel_world()
    s = domain.replay(
        [relationships.RelationshipChanged("ossuarium", "m1", value, value, "t", "t")], s
    )
    s, events = mrun(
        s, relationships.ChangeRelationship("m1", faction="ossuarium", cause="raid-territory")
    )
    assert relationships.relationships(s.settlement).value("ossuarium") == after
    assert events[0].delta == after - value  # type: ignore[attr-defined]


@pytest.mark.parametrize(("value", "refused"), [(2, False), (3, True)])
def test_a_donation_costs_100_credits_and_cannot_pass_allied(value: int, refused: bool) -> None:
    s = _with(rel_world(), credits=100)
    s = domain.replay(
        [relationships.RelationshipChanged("dwarves", "m1", value, value, "t", "t")], s
    )
    donate = relationships.ChangeRelationship("m1", faction="dwarves", cause="donate-credits")
    if refused:
        with pytest.raises(RuleViolation) as e:
            mrun(s, donate)
        assert e.value.code == "relationship_limit" and "+3" in str(e.value)
        return
    with pytest.raises(RuleViolation) as poor:
        mrun(_with(s, credits=99), donate)
    assert poor.value.code == "unaffordable"
    s, _ = mrun(s, donate)
    assert s.settlement.credits == 0
    assert relationships.relationships(s.settlement).value("dwarves") == 3


def test_a_factions_mission_counts_once_per_phase() -> None:
    s = rel_world()
    won = relationships.ChangeRelationship("m1", faction="elves", cause="faction-mission-won")
    s, _ = mrun(s, won)
    with pytest.raises(RuleViolation) as e:
        mrun(s, won)
    assert e.value.code == "relationship_mission_counted"
    s, _ = mrun(
        s, relationships.ChangeRelationship("m1", faction="church", cause="faction-mission-won")
    )


# --- Soulstone Energy ----------------------------------------------------------------------------


def energy_world() -> domain.CampaignState:
    return open_phase(with_modules(world(), "soulstone_energy"))


def test_a_mission_spends_a_caskets_energy_once() -> None:
    s = energy_world()
    assert soulstone.energy(s, "ba") == 80  # the codex's starting Energy
    spend = soulstone.SpendEnergy(
        "m1", build_id="ba", costs=("heavy", "overheating", "overheating", "critical-damage")
    )
    s, _ = mrun(s, spend)
    assert soulstone.energy(s, "ba") == 80 - 5 - 6 - 5  # the codex's example: 64
    with pytest.raises(RuleViolation) as e:
        mrun(s, spend)
    assert e.value.code == "energy_spent"
    with pytest.raises(InvalidInput) as twice:
        mrun(s, soulstone.SpendEnergy("m1", build_id="bb", costs=("heavy", "heavy")))
    assert twice.value.field == "costs[0]"
    with pytest.raises(RuleViolation) as stray:
        mrun(s, soulstone.SpendEnergy("m1", build_id="nope", costs=("standard",)))
    assert stray.value.code == "casket_not_in_mission"
    with pytest.raises(RuleViolation) as off:
        mrun(open_phase(world()), spend)
    assert off.value.code == "module_off"


@pytest.mark.parametrize(("overcharge", "ok"), [(9, False), (10, True), (15, True), (16, False)])
def test_an_overcharge_costs_10_to_15(overcharge: int, ok: bool) -> None:
    spend = soulstone.SpendEnergy("m1", build_id="ba", overcharge=overcharge)
    if ok:
        s, _ = mrun(energy_world(), spend)
        assert soulstone.energy(s, "ba") == 80 - overcharge
    else:
        with pytest.raises(InvalidInput) as e:
            mrun(energy_world(), spend)
        assert e.value.field == "overcharge"


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (100, "Full"),
        (99, "Healthy"),
        (60, "Healthy"),
        (59, "Depleted"),
        (20, "Depleted"),
        (19, "Critical"),
        (1, "Critical"),
        (0, "Empty"),
    ],
)
def test_energy_bands(value: int, name: str) -> None:
    assert soulstone.band("pc-1", value)["name"] == name


def _energy(s: domain.CampaignState, build: str, value: int) -> domain.CampaignState:
    return domain.replay([soulstone.EnergyChanged(build, "", value, value, "test")], s)


@pytest.mark.parametrize(("value", "refused"), [(0, True), (1, False)])
def test_a_casket_at_0_energy_cannot_deploy(value: int, refused: bool) -> None:
    s = energy_world()
    s = domain.replay([lg.PhaseClosed("m1", "00"), domain.MissionPlanned("m2", 2, "M2")], s)
    s = _energy(s, "ba", value)
    start = domain.StartMission("m2", "b2", ((0, "a1", "ba", 1),))
    if refused:
        with pytest.raises(RuleViolation) as e:
            domain.decide(s, start, actor_is_gm=True)
        assert e.value.code == "casket_empty"
    else:
        assert domain.decide(s, start, actor_is_gm=True)


def test_refining_a_shard_at_the_forge() -> None:
    s = advance(energy_world(), "m1", until="actions")
    s = _with(s, buildings=(lg.BuildingState("forge", 0),))
    s = _energy(s, "ba", 64)
    refine = bd.TakeAction(
        "m1", player="ann", action="refine-soulstone", pilot_id="a1", detail="soulstone-shard"
    )
    with pytest.raises(RuleViolation) as e:
        mrun(s, refine)
    assert e.value.code == "not_in_storage" and "T1 Shard" in str(e.value)
    s = _with(
        s, storage=(("soulstone-shard", "Soulstone Shard"), ("soulstone-shard", "Soulstone Shard"))
    )
    s, _ = mrun(s, refine)
    assert soulstone.energy(s, "ba") == 69 and s.pilots["a1"].taint == 1
    assert s.settlement.storage == (("soulstone-shard", "Soulstone Shard"),)
    assert any("Soulstone Energy 69/100, Healthy" in n for n in bd.deployment_notes(s, "a1"))


def test_a_core_replacement_restores_all_and_resets_taint_for_100_credits() -> None:
    s = advance(energy_world(), "m1", until="actions")
    s = _with(s, buildings=(lg.BuildingState("forge", 0),), storage=(("soulstone-core", "Core"),))
    s = _energy(s, "ba", 15)
    s = domain.replay([domain.TaintChanged("a1", 6, 6, "test", "m1")], s)
    refine = bd.TakeAction(
        "m1", player="ann", action="refine-soulstone", pilot_id="a1", detail="soulstone-core"
    )
    with pytest.raises(RuleViolation) as e:
        mrun(_with(s, credits=99), refine)
    assert e.value.code == "unaffordable"
    s, _ = mrun(_with(s, credits=100), refine)
    assert (soulstone.energy(s, "ba"), s.pilots["a1"].taint, s.settlement.credits) == (100, 0, 0)


# --- departure and arrival events ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "row"), [((3, 4), "34-merchant-visit"), ((4, 3), "43-settlement-festival")]
)
def test_a_departure_event_reads_2d6_as_two_digits(faces: tuple[int, int], row: str) -> None:
    s = open_phase(world())
    morale = s.settlement.morale
    extra = [2] if row.startswith("43") else []  # the festival's 1d6 Credits
    s, events = mrun(s, travel.RollTravelEvent("m1", kind="departure"), [*faces, *extra])
    (roll, *_) = rolls(events)
    assert (roll.table, roll.die, roll.faces, roll.total, roll.outcome) == (
        "travel.departure",
        6,
        faces,
        int(row[:2]),
        row,
    )
    assert travel.drawn(s)[0].row == row
    assert s.settlement.morale == morale + (1 if row.startswith("43") else 0)
    with pytest.raises(RuleViolation) as e:
        mrun(s, travel.RollTravelEvent("m1", kind="departure"), [1, 1])
    assert e.value.code == "travel_event_done"


def test_an_arrival_event_applies_what_the_ledger_counts() -> None:
    s = open_phase(world())
    s, _ = mrun(s, travel.RollTravelEvent("m1", kind="arrival"), [2, 4])  # 24 Taint Spread
    assert (s.pilots["a1"].taint, s.pilots["b1"].taint) == (1, 1)
    s, _ = mrun(s, travel.RollTravelEvent("m1", kind="departure"), [2, 4])  # 24 Scrap Windfall
    assert s.settlement.scrap == 3
    with pytest.raises(InvalidInput) as e:
        mrun(s, travel.RollTravelEvent("m1", kind="sideways"))
    assert e.value.field == "kind"


@pytest.mark.parametrize(("survivors", "refused"), [(0, True), (1, False)])
def test_an_arrival_needs_a_survivor(survivors: int, refused: bool) -> None:
    s = world()
    s = play_mission(s, pilots=("b1",), dead=survivors == 0)  # mission 2: Bran alone
    s = open_phase(s, "m2")
    arrival = travel.RollTravelEvent("m2", kind="arrival")
    if refused:
        with pytest.raises(RuleViolation) as e:
            mrun(s, arrival, [1, 4])
        assert e.value.code == "no_survivors"
    else:
        s, _ = mrun(s, arrival, [1, 4])
        assert travel.drawn(s)[0].name == "Nothing Special"


def test_a_travel_override_keeps_the_dice_and_needs_a_reason() -> None:
    s = open_phase(world())
    bad = travel.RollTravelEvent("m1", kind="departure", override=("16-nothing-special", " "))
    with pytest.raises(InvalidInput):
        mrun(s, bad, [6, 6])
    good = travel.RollTravelEvent(
        "m1", kind="departure", override=("16-nothing-special", "the table agreed")
    )
    s, events = mrun(s, good, [6, 6])
    (roll,) = rolls(events)
    assert (roll.outcome, roll.rolled, roll.override_reason) == (
        "16-nothing-special",
        "66-the-end-times",
        "the table agreed",
    )


def test_the_modules_sealed_rolls_derive_again_from_the_phase_secret() -> None:
    """A module's rolls are the phase's sealed dice like every step's (R-ADD-248)."""
    s = _at(xp_world(), "a1", 150)
    for command in (
        skills.AwardXP("m1", pilot_id="a1", result="partial"),
        travel.RollTravelEvent("m1", kind="departure"),
    ):
        ledger: lg.Ledger = s.settlement
        roller = SealedRoller(SECRET, "phase-1", ledger.rolls_in("phase-1"))
        s = domain.replay(decide_module(s, command, actor_is_gm=True, roller=roller), s)
    assert [r.table for r in s.settlement.rolls] == ["skills.tier-1", "travel.departure"]
    closed = domain.replay([lg.PhaseClosed("m1", SECRET.hex())], s)
    assert bd.check_rolls(closed) == []
    first = s.settlement.rolls[0]
    forged = dataclasses.replace(first, faces=(first.faces[0] % 6 + 1,))
    tampered = _with(closed, rolls=(forged, *s.settlement.rolls[1:]))
    assert bd.check_rolls(tampered) != []
