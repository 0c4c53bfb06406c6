"""Campaign services: missions carry wounds, death, Taint and component damage forward."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from battles.engine.battle.state import WOUND_DECK
from battles.engine.demo import DEMO_DECKS
from battles.engine.errors import InvalidInput, RuleViolation
from battles.models import Battle
from battles.selectors import battle_state_at, battle_stream
from campaigns import services
from campaigns.models import BuildVersion, Deployment, Pilot
from campaigns.selectors import campaign_events, campaign_state, pilot_career
from penance_site.eventstore.store import read_stream
from tests.campaigns.builders import demo_campaign, finish, seats, start_mission

SEED = 9  # ann's pilot (seat 0) dies; bob's pilot (seat 1) keeps severe-3 (test_outcome.py)

# The seeded outcomes these tests rely on were played under ruleset 2.0.
RULES_2_0 = {"version": "2.0", "options": {}}


def all_events(*, battle: Battle) -> list:
    return read_stream(battle_stream(battle=battle))


def play_mission(dc, seed: int = SEED):
    mission, battle = start_mission(dc, seed=seed)
    finish(battle, dc.gm)
    return mission, battle


@pytest.mark.django_db
def test_severe_wound_of_mission_one_starts_mission_two_face_up() -> None:
    dc = demo_campaign()
    _, first = play_mission(dc)
    bob_pilot = dc.pilots[1]
    state = campaign_state(campaign=dc.campaign)
    assert state.pilots[str(bob_pilot.id)].carried_wounds == ("severe-3",)
    wound = state.pilots[str(bob_pilot.id)].wounds[0]
    assert (wound.kind, wound.battle_id) == ("severe", str(first.id))
    assert Pilot.objects.get(id=bob_pilot.id).permanent_wounds == 1

    # ann's first pilot died; she fields a new one.
    dc.pilots[0] = services.pilot_enlist(
        campaign=dc.campaign, actor=dc.gm, player=dc.ann.username, name="Sister Maud"
    )
    _, second = start_mission(dc, seed=SEED + 1, name="Mission two")
    setup = all_events(battle=second)[0].payload["setup"]
    assert setup["seats"][1]["pilot"]["carried_wounds"] == ["severe-3"]
    start = battle_state_at(battle=second)
    bob_seat = start.seats[1]
    assert bob_seat.wounds == ("severe-3",)  # R-PLT-2: face up, out of the wound deck
    assert "severe-3" not in bob_seat.wound_deck
    assert len(bob_seat.wound_deck) == len(WOUND_DECK) - 1


@pytest.mark.django_db
def test_pilot_whose_tenth_wound_flips_is_dead_and_cannot_be_deployed() -> None:
    # Seed 9 kills ann's pilot under ruleset 2.0, whose damage never runs a casket out of
    # cards; under 2.1 the battle ends by a defeat first (R-DMG-9).
    dc = demo_campaign(rules=RULES_2_0)
    _, battle = play_mission(dc)
    assert battle_state_at(battle=battle).seats[0].pilot_dead
    ann_pilot = dc.pilots[0]
    assert Pilot.objects.get(id=ann_pilot.id).status == "dead"
    died = [e for e in campaign_events(campaign=dc.campaign) if e.type == "PilotDied"]
    assert [e.payload["pilot_id"] for e in died] == [str(ann_pilot.id)]

    mission = services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="Too soon")
    version = campaign_state(campaign=dc.campaign).version
    battles = Battle.objects.count()
    with pytest.raises(RuleViolation) as err:
        services.mission_start(
            mission=mission,
            actor=dc.gm,
            board=all_events(battle=battle)[0].payload["setup"]["board"],
            seats=seats(dc),
        )
    assert (err.value.code, err.value.rule) == ("pilot_dead", "R-PLT-1")
    assert campaign_state(campaign=dc.campaign).version == version  # nothing written
    assert Battle.objects.count() == battles


@pytest.mark.django_db
def test_battle_pins_build_versions_and_revisions_make_new_ones() -> None:
    dc = demo_campaign()
    mission, _ = play_mission(dc)
    build = dc.builds[1]
    old = campaign_state(campaign=dc.campaign).builds[str(build.id)].current
    _, version = services.build_revise(
        campaign=dc.campaign,
        actor=dc.bob,
        build_id=str(build.id),
        name="Bastion Heavy Mk II",
        casket_class="heavy",
        shield="left",
        deck=[{"card": c, "version": v, "count": n} for c, v, n in old.deck],
    )
    assert version == 2
    pinned = Deployment.objects.get(mission=mission, seat=1).build_version
    assert (pinned.version, pinned.shield) == (1, "right")
    assert BuildVersion.objects.get(build=build, version=2).shield == "left"


@pytest.mark.django_db
def test_player_may_not_revise_another_players_build() -> None:
    dc = demo_campaign()
    with pytest.raises(PermissionDenied):
        services.build_revise(
            campaign=dc.campaign,
            actor=dc.ann,
            build_id=str(dc.builds[1].id),
            name="Mine now",
            casket_class="heavy",
            shield="left",
            deck=[{"card": "damage", "count": 30}],
        )


@pytest.mark.django_db
def test_illegal_deck_is_refused_with_every_problem() -> None:
    dc = demo_campaign()
    with pytest.raises(services.DeckRejected) as err:
        services.build_revise(
            campaign=dc.campaign,
            actor=dc.ann,
            build_id=None,
            name="Thin",
            casket_class="scout",
            shield="left",
            deck=[{"card": "pyre-lance", "count": 5}, {"card": "pyre-lance", "count": 5}],
        )
    codes = [e["code"] for e in err.value.extra_errors]
    assert "deck_size" in codes and "duplicate_card" in codes
    assert all(e["rule"] for e in err.value.extra_errors)


@pytest.mark.django_db
def test_unknown_card_in_deck_names_the_row() -> None:
    dc = demo_campaign()
    with pytest.raises(InvalidInput) as err:
        services.build_revise(
            campaign=dc.campaign,
            actor=dc.ann,
            build_id=None,
            name="Ghost",
            casket_class="scout",
            shield="left",
            deck=[{"card": "no-such-card", "count": 30}],
        )
    assert err.value.field == "deck[0].card"


@pytest.mark.django_db
def test_component_damage_carries_over_only_with_the_option() -> None:
    dc = demo_campaign(rules={"version": "2.0", "options": {"persistent_component_damage": True}})
    _, battle = play_mission(dc)
    end = battle_state_at(battle=battle)
    state = campaign_state(campaign=dc.campaign)
    bob_build = state.builds[str(dc.builds[1].id)]
    names = ("right_arm", "left_arm", "legs", "head", "chassis")
    # R-ADD-30: a destroyed component carries as destroyed, at the threshold (3).
    expected = {
        c: min(n, 3) for c, n in zip(names, end.seats[1].component_damage, strict=True) if n
    }
    assert expected, "seed 9 leaves bob's casket damaged"
    assert dict(bob_build.component_damage) == expected
    dc.pilots[0] = services.pilot_enlist(
        campaign=dc.campaign, actor=dc.gm, player=dc.ann.username, name="Sister Maud"
    )
    _, second = start_mission(dc, seed=SEED + 1)
    start = battle_state_at(battle=second).seats[1]
    assert {
        c: n
        for c, n in zip(
            ("right_arm", "left_arm", "legs", "head", "chassis"),
            start.component_damage,
            strict=True,
        )
        if n
    } == expected

    repaired = services.build_repair(
        campaign=dc.campaign, actor=dc.gm, build_id=str(dc.builds[1].id), reason="workshop"
    )
    assert repaired.component_damage == ()


@pytest.mark.django_db
def test_without_the_option_component_damage_is_not_carried() -> None:
    dc = demo_campaign()
    play_mission(dc)
    state = campaign_state(campaign=dc.campaign)
    assert all(b.component_damage == () for b in state.builds.values())
    assert not any(
        e.type == "ComponentDamageCarried" for e in campaign_events(campaign=dc.campaign)
    )


@pytest.mark.django_db
def test_taint_exploitation_gains_one_taint_per_three_damage_taken() -> None:
    dc = demo_campaign(rules={"version": "2.0", "options": {"taint_exploitation": True}})
    _, battle = play_mission(dc)
    taken = [0, 0]
    for e in all_events(battle=battle):
        if e.type == "DamageTaken":
            taken[e.payload["seat"]] += len(e.payload["from_hand"]) + len(e.payload["from_deck"])
    state = campaign_state(campaign=dc.campaign)
    for seat, pilot in enumerate(dc.pilots):
        assert state.pilots[str(pilot.id)].taint == taken[seat] // 3
    changes = [e for e in campaign_events(campaign=dc.campaign) if e.type == "TaintChanged"]
    assert changes and all("R-PLT-4" in e.payload["reason"] for e in changes)


@pytest.mark.django_db
def test_gm_taint_adjustment_needs_a_reason_and_stays_at_or_above_zero() -> None:
    dc = demo_campaign()
    pilot_id = str(dc.pilots[0].id)
    with pytest.raises(InvalidInput) as err:
        services.pilot_taint_adjust(
            campaign=dc.campaign, actor=dc.gm, pilot_id=pilot_id, delta=2, reason=" "
        )
    assert (err.value.field, err.value.rule) == ("reason", "R-PLT-4")
    with pytest.raises(RuleViolation) as below:
        services.pilot_taint_adjust(
            campaign=dc.campaign, actor=dc.gm, pilot_id=pilot_id, delta=-1, reason="purge"
        )
    assert below.value.code == "taint_out_of_range"
    pilot = services.pilot_taint_adjust(
        campaign=dc.campaign, actor=dc.gm, pilot_id=pilot_id, delta=3, reason="the Ossuary"
    )
    assert pilot.taint == 3
    last = campaign_events(campaign=dc.campaign)[-1]
    assert last.type == "TaintChanged" and last.metadata["actor"] == dc.gm.username
    assert Pilot.objects.get(id=pilot_id).taint == 3


@pytest.mark.django_db
def test_players_cannot_make_gm_adjustments() -> None:
    dc = demo_campaign()
    with pytest.raises(PermissionDenied):
        services.pilot_taint_adjust(
            campaign=dc.campaign, actor=dc.ann, pilot_id=str(dc.pilots[0].id), delta=1, reason="x"
        )


@pytest.mark.django_db
def test_trauma_is_treated_between_missions_and_severe_wounds_are_permanent() -> None:
    dc = demo_campaign(rules=RULES_2_0)
    play_mission(dc, seed=3)  # under 2.0 bob keeps trauma and severe
    pilot_id = str(dc.pilots[1].id)
    pilot = campaign_state(campaign=dc.campaign).pilots[pilot_id]
    trauma = next(w.wound for w in pilot.wounds if w.kind == "trauma")
    severe = next(w.wound for w in pilot.wounds if w.kind == "severe")
    with pytest.raises(RuleViolation) as err:
        services.pilot_trauma_treat(
            campaign=dc.campaign, actor=dc.gm, pilot_id=pilot_id, wound=severe, reason="rest"
        )
    assert (err.value.code, err.value.rule) == ("no_such_trauma", "R-PLT-1")
    after = services.pilot_trauma_treat(
        campaign=dc.campaign, actor=dc.gm, pilot_id=pilot_id, wound=trauma, reason="rest"
    )
    assert trauma not in after.carried_wounds and severe in after.carried_wounds


@pytest.mark.django_db
def test_career_lists_attacks_made_and_taken_across_battles() -> None:
    dc = demo_campaign()
    _, battle = play_mission(dc)
    bob = str(dc.pilots[1].id)
    career = pilot_career(campaign=dc.campaign, pilot_id=bob)
    declared = [e for e in all_events(battle=battle) if e.type == "AttackDeclared"]
    assert career["totals"]["attacks_made"] == sum(
        1 for e in declared if e.payload["attacker"] == 1
    )
    assert career["totals"]["attacks_taken"] == sum(1 for e in declared if e.payload["target"] == 1)
    assert career["totals"]["wounds_kept"] == 1
    types = {e["type"] for e in career["events"]}
    assert {"PilotEnlisted", "AttackDeclared", "WoundFlipped", "PilotWounded"} <= types
    positions = [e["position"] for e in career["events"]]
    assert positions == sorted(positions)


@pytest.mark.django_db
def test_missions_are_started_in_order() -> None:
    dc = demo_campaign()
    services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="First")
    second = services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="Second")
    with pytest.raises(RuleViolation) as err:
        services.mission_start(mission=second, actor=dc.gm, board={}, seats=seats(dc))
    assert err.value.code == "missions_in_order"


@pytest.mark.django_db
def test_a_withdrawn_pilot_is_recorded_as_withdrawn_not_defeated_r_trn_9() -> None:
    from django.test import TestCase

    from battles.services import battle_command_execute

    dc = demo_campaign()  # ruleset 2.1, the default
    _, battle = start_mission(dc, seed=SEED)
    state = battle_state_at(battle=battle)
    seat = state.active
    with TestCase.captureOnCommitCallbacks(execute=False):
        battle_command_execute(
            battle=battle,
            actor=dc.gm,
            command_id="withdraw",
            expected_version=state.version,
            body={"type": "withdraw", "seat": seat},
        )
    finish(battle, dc.gm)
    final = battle_state_at(battle=battle)
    assert final.over and final.seats[seat].withdrawn and not final.seats[seat].defeated
    pilot_id = str(dc.pilots[seat].id)
    events = [
        e for e in campaign_events(campaign=dc.campaign) if e.payload.get("pilot_id") == pilot_id
    ]
    assert "PilotWithdrew" in [e.type for e in events] and "PilotDied" not in [
        e.type for e in events
    ]
    pilot = campaign_state(campaign=dc.campaign).pilots[pilot_id]
    assert pilot.status == "alive" and len(pilot.withdrawn_from) == 1
    assert Pilot.objects.get(id=pilot_id).status == "alive"


@pytest.mark.django_db
def test_a_mission_battle_knows_each_build_s_faction_when_it_is_a_database_faction() -> None:
    """R-ADD-121: "allied Emergent units" read the casket's faction, so a mission's battle
    takes it from the deployed build; a build with no faction (or another word) names none."""
    dc = demo_campaign()
    church = dc.builds[0]
    services.build_revise(
        campaign=dc.campaign,
        actor=dc.ann,
        build_id=str(church.id),
        name="Penitent Scout",
        casket_class="scout",
        shield="left",
        faction="church",
        deck=[{"card": c, "count": n} for c, n in DEMO_DECKS["penitent-scout"]],
    )
    _, battle = start_mission(dc, seed=1)
    state = battle_state_at(battle=battle, version=1)
    assert [s.faction for s in state.seats] == ["church", None]
