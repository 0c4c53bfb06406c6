"""The campaign domain is pure: decide refuses, evolve folds, records round-trip."""

from __future__ import annotations

import pytest

from battles.engine.errors import RuleViolation
from campaigns import domain as d
from campaigns.codec import CAMPAIGN_EVENTS
from penance_site.eventstore.codec import DecodeError

RULES = {"version": "2.0", "options": {}}


def started() -> d.CampaignState:
    s = d.replay([d.CampaignCreated("c1", "Ash", "gm", True, RULES)])
    for e in (
        d.PlayerJoined("ann"),
        d.PilotEnlisted("p1", "ann", "Sister Ash", "church", 0),
        d.BuildRevised("b1", 1, "ann", "Pyre", "scout", "left", "church", (("jab", 1, 30),), ()),
        d.MissionPlanned("m1", 1, "Causeway"),
        d.MissionStarted("m1", "battle-1", ((0, "p1", "b1", 1),)),
    ):
        s = d.evolve(s, e)
    return s


def outcome(**seat: object) -> d.ApplyOutcome:
    fields = {
        "seat": 0,
        "wounds": (),
        "pilot_dead": False,
        "damage_taken": 0,
        "component_damage": (),
    } | seat
    return d.ApplyOutcome("battle-1", "church", 5, (d.SeatOutcome(**fields),), False, False)


def test_every_event_round_trips_through_its_record() -> None:
    events = [
        d.CampaignCreated("c1", "Ash", "gm", True, RULES),
        d.BuildRevised("b1", 1, "ann", "Pyre", "scout", "left", "", (("jab", 1, 30),), ("rope",)),
        d.MissionStarted("m1", "battle-1", ((0, "p1", "b1", 1),)),
        d.ComponentDamageCarried("b1", (("legs", 2),), "m1"),
        d.TaintChanged("p1", 2, 2, "why", ""),
    ]
    for e in events:
        assert CAMPAIGN_EVENTS.decode_record(*CAMPAIGN_EVENTS.to_record(e)) == e


def test_unknown_event_type_is_refused() -> None:
    with pytest.raises(DecodeError) as err:
        CAMPAIGN_EVENTS.decode_record("PilotAscended", 1, {})
    assert err.value.field == "type"


def test_new_severe_and_trauma_wounds_are_kept_minor_ones_are_not() -> None:
    s = started()
    events = d.decide(s, outcome(wounds=("minor-2", "severe-1", "trauma-2")), actor_is_gm=True)
    kept = [(e.wound, e.kind) for e in events if isinstance(e, d.PilotWounded)]
    assert kept == [("severe-1", "severe"), ("trauma-2", "trauma")]
    assert isinstance(events[-1], d.MissionCompleted)


def test_carried_wounds_are_not_kept_twice() -> None:
    s = d.evolve(started(), d.PilotWounded("p1", "severe-1", "severe", "m0", "battle-0"))
    events = d.decide(s, outcome(wounds=("severe-1", "severe-2")), actor_is_gm=True)
    assert [e.wound for e in events if isinstance(e, d.PilotWounded)] == ["severe-2"]


def test_outcome_of_a_completed_mission_decides_nothing() -> None:
    s = d.replay(d.decide(started(), outcome(), actor_is_gm=True), started())
    assert s.mission("m1").status == "completed"
    assert d.decide(s, outcome(pilot_dead=True), actor_is_gm=True) == []


def test_card_taint_reaches_the_pilot_once_with_the_outcome() -> None:
    """R-ADD-275: the Taint the battle's cards applied is handed to the pilot with the
    outcome, after the exploitation Taint, never below 0, and once only (R-PLT-5)."""
    events = d.decide(started(), outcome(card_taint=2), actor_is_gm=True)
    changed = [e for e in events if isinstance(e, d.TaintChanged)]
    assert [(e.delta, e.taint, e.mission_id) for e in changed] == [(2, 2, "m1")]
    assert "R-ADD-275" in changed[0].reason
    s = d.replay(events, started())
    assert s.pilots["p1"].taint == 2
    assert d.decide(s, outcome(card_taint=2), actor_is_gm=True) == []  # exactly once
    # With the exploitation Taint of 6 damage (2), a purge of 3 leaves 0, not -1.
    both = d.ApplyOutcome(
        "battle-1", "church", 5, outcome(damage_taken=6, card_taint=-3).seats, True, False
    )
    changed = [e for e in d.decide(started(), both, actor_is_gm=True)
               if isinstance(e, d.TaintChanged)]  # fmt: skip
    assert [(e.delta, e.taint) for e in changed] == [(2, 2), (-2, 0)]
    assert not [e for e in d.decide(started(), outcome(), actor_is_gm=True)
                if isinstance(e, d.TaintChanged)]  # fmt: skip


def test_dead_pilot_cannot_start_a_mission() -> None:
    s = d.replay(d.decide(started(), outcome(pilot_dead=True), actor_is_gm=True), started())
    s = d.evolve(s, d.MissionPlanned("m2", 2, "Again"))
    with pytest.raises(RuleViolation) as err:
        d.decide(s, d.StartMission("m2", "battle-2", ((0, "p1", "b1", 1),)), actor_is_gm=True)
    assert (err.value.code, err.value.rule) == ("pilot_dead", "R-PLT-1")


def test_players_give_no_gm_commands() -> None:
    with pytest.raises(RuleViolation) as err:
        d.decide(started(), d.AdjustTaint("p1", 1, "why"), actor_is_gm=False)
    assert err.value.code == "gm_only"


def test_taint_never_goes_below_zero() -> None:
    with pytest.raises(RuleViolation) as err:
        d.decide(started(), d.AdjustTaint("p1", -1, "purge"), actor_is_gm=True)
    assert (err.value.code, err.value.rule) == ("taint_out_of_range", "R-PLT-4")


def test_trauma_cannot_be_treated_during_a_mission() -> None:
    s = d.evolve(started(), d.PilotWounded("p1", "trauma-1", "trauma", "m0", "battle-0"))
    with pytest.raises(RuleViolation) as err:
        d.decide(s, d.TreatTrauma("p1", "trauma-1", "rest"), actor_is_gm=True)
    assert err.value.code == "between_missions"


def test_component_damage_is_kept_only_with_the_option() -> None:
    damaged = outcome(component_damage=(("legs", 2), ("head", 0)))
    assert not any(
        isinstance(e, d.ComponentDamageCarried)
        for e in d.decide(started(), damaged, actor_is_gm=True)
    )
    with_option = d.ApplyOutcome("battle-1", "church", 5, damaged.seats, False, True)
    carried = [
        e
        for e in d.decide(started(), with_option, actor_is_gm=True)
        if isinstance(e, d.ComponentDamageCarried)
    ]
    assert carried == [d.ComponentDamageCarried("b1", (("legs", 2),), "m1")]
