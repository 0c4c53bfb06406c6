"""Equipment from the settlement's storage, destroyed caskets and their retrofit, scars the
battle setup applies (pc-1 rules, R-ADD-350…353): the pure rules, each boundary on both
sides, each refusal naming its field or code and its rule."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from battles.engine.errors import InvalidInput, RuleViolation
from campaigns import domain
from campaigns.between import decide as bd
from campaigns.between import ledger as lg
from campaigns.between import storage as st
from campaigns.between.dice import EnteredRoller
from campaigns.between.scar_effects import ScarEffects, battle_scar_effects, scar_note

from .between_world import play_mission, world

ITEMS = ("mace", "tower-shield", "charm")


def revise(equipment: Sequence[str], build_id: str = "ba") -> domain.ReviseBuild:
    return domain.ReviseBuild(
        build_id, "ann", "A", "scout", "left", "church", (), tuple(equipment), "R-ADD-52", "a1"
    )


def stored(state: domain.CampaignState, *items: str) -> domain.CampaignState:
    return domain.replay([lg.ItemStored(i, i.title(), "test") for i in items], state)


def carrying(state: domain.CampaignState, equipment: Sequence[str]) -> domain.CampaignState:
    """Ann's casket `ba` as a version carrying `equipment` (folded, not decided)."""
    version = len(state.builds["ba"].versions) + 1
    event = domain.BuildRevised(
        "ba", version, "ann", "A", "scout", "left", "church", (), tuple(equipment), "R-ADD-52"
    )
    return domain.replay([event], state)


def revised(state: domain.CampaignState, equipment: Sequence[str]) -> list[domain.Event]:
    """What the service records for a revision: the decided event and the storage moves."""
    command = revise(equipment)
    events = domain.decide(state, command, actor_is_gm=False)
    return events + st.equipment_moves(state, command, {})


# --- equipment from storage (R-ADD-350) -------------------------------------------------------------


def test_before_the_first_mission_a_casket_is_outfitted_freely() -> None:
    state = world()
    fresh = domain.replay(
        [e for e in _creation_events()]  # players, pilots and caskets; no mission yet
    )
    assert st.outfitted_freely(fresh) and not st.outfitted_freely(state)
    events = revised(fresh, ITEMS)
    assert [e.type for e in events] == ["BuildRevised"]
    assert domain.replay(events, fresh).settlement.storage == ()


def _creation_events() -> list[domain.Event]:
    return [
        domain.CampaignCreated("c1", "Ash", "gm", True, {}),
        lg.CampaignRulesPinned("pc-1", ()),
        domain.PlayerJoined("ann"),
        domain.PilotEnlisted("a1", "ann", "Sister Ash", "church", 0),
        domain.BuildRevised("ba", 1, "ann", "A", "scout", "left", "church", (), ()),
    ]


def test_a_revision_carries_only_what_storage_holds_one_item_short_is_refused() -> None:
    short = stored(world(), "mace", "tower-shield")
    with pytest.raises(InvalidInput) as refused:
        domain.decide(short, revise(ITEMS), actor_is_gm=False)
    assert (refused.value.field, refused.value.rule) == ("equipment", "R-ADD-350")
    assert "charm" in refused.value.message and "mace" not in refused.value.message.split(":")[0]
    enough = stored(short, "charm")
    events = revised(enough, ITEMS)
    assert [e.type for e in events] == ["BuildRevised", "ItemTaken", "ItemTaken", "ItemTaken"]
    after = domain.replay(events, enough)
    assert after.settlement.storage == ()
    assert after.builds["ba"].current.equipment == ITEMS


def test_two_of_one_item_need_two_in_storage() -> None:
    one = stored(world(), "charm")
    with pytest.raises(InvalidInput) as refused:
        domain.decide(one, revise(("charm", "charm")), actor_is_gm=False)
    assert refused.value.rule == "R-ADD-350"
    assert len(revised(stored(one, "charm"), ("charm", "charm"))) == 3


def test_what_the_casket_carries_stays_assigned_and_a_swap_goes_through_storage() -> None:
    state = stored(carrying(world(), ("mace", "charm")), "greatsword")
    # keeping its items needs nothing from storage, and moves nothing
    assert [e.type for e in revised(state, ("mace", "charm"))] == ["BuildRevised"]
    events = revised(state, ("greatsword", "charm"))
    assert [(e.type, e.item) for e in events[1:]] == [  # type: ignore[attr-defined]
        ("ItemReturned", "mace"),
        ("ItemTaken", "greatsword"),
    ]
    after = domain.replay(events, state)
    assert [item for item, _ in after.settlement.storage] == ["mace"]
    # what another casket carries is not storage's: Ben's casket cannot take Ann's charm
    bens = domain.ReviseBuild(
        "bb", "ben", "B", "scout", "left", "elves", (), ("charm",), "R-ADD-52"
    )
    with pytest.raises(InvalidInput) as refused:
        domain.decide(after, bens, actor_is_gm=False)
    assert refused.value.rule == "R-ADD-350"


def test_a_demo_set_build_carries_words_not_items() -> None:
    # the demo set has no items (R-ADD-220): its builds' equipment is text, never storage's
    command = domain.ReviseBuild("ba", "ann", "A", "scout", "left", "church", (), ("plating",))
    state = world()
    assert [e.type for e in domain.decide(state, command, actor_is_gm=False)] == ["BuildRevised"]
    assert st.equipment_moves(state, command, {}) == []


def test_plt1_campaigns_build_as_before() -> None:
    events = [e for e in _creation_events() if not isinstance(e, lg.CampaignRulesPinned)]
    state = play_mission(
        domain.replay([*events, domain.PlayerJoined("ben"), *_ben()]), pilots=("a1", "b1")
    )
    assert state.settlement is None
    assert [e.type for e in revised(state, ITEMS)] == ["BuildRevised"]


def _ben() -> list[domain.Event]:
    return [
        domain.PilotEnlisted("b1", "ben", "Bran", "elves", 0),
        domain.BuildRevised("bb", 1, "ben", "B", "scout", "left", "elves", (), ()),
    ]


# --- a destroyed casket (R-ADD-352) -------------------------------------------------------------------


def _outcome(state: domain.CampaignState, *, defeated: bool) -> list[domain.Event]:
    number = len(state.missions) + 1
    planned = domain.replay(
        [
            domain.MissionPlanned(f"m{number}", number, "Next"),
            domain.MissionStarted(f"m{number}", f"battle-{number}", ((0, "a1", "ba", 1),)),
        ],
        state,
    )
    seat = domain.SeatOutcome(0, (), False, 0, (), defeated=defeated)
    command = domain.ApplyOutcome(f"battle-{number}", "bastion", 4, (seat,), False, False)
    return domain.decide(planned, command, actor_is_gm=True)


def test_a_defeated_casket_is_destroyed_under_pc1_only() -> None:
    state = _at_actions()
    kept = [e.type for e in _outcome(state, defeated=False)]
    assert "CasketDestroyed" not in kept
    destroyed = [e for e in _outcome(state, defeated=True) if e.type == "CasketDestroyed"]
    assert [(e.build_id, e.rule) for e in destroyed] == [("ba", "R-ADD-352")]  # type: ignore[attr-defined]
    plt = domain.replay(
        [e for e in _creation_events() if not isinstance(e, lg.CampaignRulesPinned)]
    )
    assert "CasketDestroyed" not in [e.type for e in _outcome(plt, defeated=True)]


def test_a_destroyed_casket_does_not_deploy() -> None:
    state = _destroyed()
    assert state.builds["ba"].destroyed
    planned = domain.replay([domain.MissionPlanned("m9", 9, "Later")], _closed(state))
    command = domain.StartMission("m9", "battle-9", ((0, "a1", "ba", 1), (1, "b1", "bb", 1)))
    with pytest.raises(RuleViolation) as refused:
        domain.decide(planned, command, actor_is_gm=True)
    assert (refused.value.code, refused.value.rule) == ("casket_destroyed", "R-ADD-352")
    assert "seats[0]" in refused.value.message


def _closed(state: domain.CampaignState) -> domain.CampaignState:
    return domain.replay(
        [
            *(lg.PhaseStepDone("m1", s) for s in bd.STEPS[bd.STEPS.index("actions") :]),
            lg.PhaseClosed("m1", "00"),
        ],
        state,
    )


def _at_actions(
    *, credits: int = 0, scrap: int = 0, buildings: Sequence[str] = ()
) -> domain.CampaignState:
    """Mission 1 played, its phase open at the actions step, the buildings standing."""
    events: list[domain.Event] = [
        lg.PhaseOpened("m1", "phase-1", "0" * 64),
        *(lg.PhaseStepDone("m1", s) for s in bd.STEPS[: bd.STEPS.index("actions")]),
        *(lg.ConstructionStarted(b, 0, 0, 0) for b in buildings),
    ]
    if credits:
        events.append(lg.SettlementChanged("credits", credits, credits, "test", "R-ADD-242"))
    if scrap:
        events.append(lg.SettlementChanged("scrap", scrap, scrap, "test", "R-ADD-238"))
    return domain.replay(events, world())


def _destroyed(**kw: object) -> domain.CampaignState:
    state = _at_actions(**kw)  # type: ignore[arg-type]
    return domain.replay([domain.CasketDestroyed("ba", "m1", "battle-1", "R-ADD-352")], state)


def rebuild(state: domain.CampaignState, player: str = "ann") -> list[domain.Event]:
    return st.decide(state, st.RebuildCasket("m1", player=player, build_id="ba"), actor_is_gm=True)


def test_the_retrofit_rebuilds_at_200_credits_and_3_scrap() -> None:
    state = _destroyed(credits=200, scrap=3, buildings=("workshop",))
    events = rebuild(state)
    assert [e.type for e in events] == [
        "CasketRebuilt",
        "SettlementChanged",
        "SettlementChanged",
        "ActionTaken",
    ]
    after = domain.replay(events, state)
    assert not after.builds["ba"].destroyed
    assert (after.settlement.credits, after.settlement.scrap) == (0, 0)
    assert after.settlement.phase("m1").actions[-1].action == "retrofit"
    with pytest.raises(RuleViolation) as again:
        rebuild(after)
    assert (again.value.code, again.value.rule) == ("casket_not_destroyed", "R-ADD-352")


@pytest.mark.parametrize(
    ("credits", "scrap", "short"), [(199, 3, "200 Credits (it has 199)"), (200, 2, "3 Scrap")]
)
def test_the_retrofit_one_short_is_refused_naming_the_resource(
    credits: int, scrap: int, short: str
) -> None:
    state = _destroyed(credits=credits, scrap=scrap, buildings=("workshop",))
    with pytest.raises(RuleViolation) as refused:
        rebuild(state)
    assert (refused.value.code, refused.value.rule) == ("unaffordable", "R-ADD-352")
    assert short in refused.value.message


def test_the_retrofit_needs_the_workshop_its_owner_and_an_action_left() -> None:
    with pytest.raises(RuleViolation) as no_workshop:
        rebuild(_destroyed(credits=500, scrap=9, buildings=("forge",)))
    assert (no_workshop.value.code, no_workshop.value.rule) == ("building_missing", "R-ADD-243")
    state = _destroyed(credits=500, scrap=9, buildings=("workshop",))
    with pytest.raises(InvalidInput) as not_his:
        rebuild(state, player="ben")
    assert (not_his.value.field, not_his.value.rule) == ("build", "R-ADD-352")
    rested = state
    for _ in range(2):
        rested, _ = _take(rested, bd.TakeAction("m1", player="ann", action="rest", pilot_id="a1"))
    with pytest.raises(RuleViolation) as spent:
        rebuild(rested)
    assert spent.value.code == "no_actions_left"
    with pytest.raises(RuleViolation) as gm:
        st.decide(state, st.RebuildCasket("m1", player="ann", build_id="ba"), actor_is_gm=False)
    assert gm.value.code == "gm_only"


def _take(
    state: domain.CampaignState, command: bd.BetweenCommand
) -> tuple[domain.CampaignState, list[domain.Event]]:
    events = bd.decide(state, command, actor_is_gm=True, roller=EnteredRoller([]))
    return domain.replay(events, state), events


def test_storage_actions_wait_for_the_actions_step() -> None:
    state = domain.replay([lg.PhaseOpened("m1", "phase-1", "0" * 64)], world())
    with pytest.raises(RuleViolation) as early:
        st.decide(state, st.CraftEquipment("m1", player="ann", item="mace"), actor_is_gm=True)
    assert (early.value.code, early.value.rule) == ("step_out_of_order", "R-ADD-249")


# --- crafting at the Forge (R-ADD-351) ----------------------------------------------------------------


def craft(state: domain.CampaignState, *, credits: int = 0, scrap: int = 2) -> list[domain.Event]:
    command = st.CraftEquipment(
        "m1", player="ann", item="mace", name="Mace", credits=credits, scrap=scrap
    )
    return st.decide(state, command, actor_is_gm=True)


def test_crafting_stores_the_item_at_its_crafting_cost_and_one_short_is_refused() -> None:
    state = _at_actions(scrap=2, buildings=("forge",))
    after = domain.replay(craft(state), state)
    assert after.settlement.storage == (("mace", "Mace"),)
    assert after.settlement.scrap == 0
    with pytest.raises(RuleViolation) as short:
        craft(_at_actions(scrap=1, buildings=("forge",)))
    assert (short.value.code, short.value.rule) == ("unaffordable", "R-ADD-351")
    assert "2 Scrap (it has 1)" in short.value.message
    with pytest.raises(RuleViolation) as credits:
        craft(_at_actions(credits=49, buildings=("forge",)), credits=50, scrap=0)
    assert "50 Credits (it has 49)" in credits.value.message
    with pytest.raises(RuleViolation) as no_forge:
        craft(_at_actions(scrap=9))
    assert no_forge.value.code == "building_missing"


def test_crafting_costs_read_as_the_card_database_writes_them() -> None:
    assert st.craft_cost("6 Scrap") == (0, 6)
    assert st.craft_cost("45") == (45, 0)
    with pytest.raises(InvalidInput) as none:
        st.craft_cost("a favour")
    assert (none.value.field, none.value.rule) == ("item", "R-ADD-351")


# --- the ledger replays ---------------------------------------------------------------------------


def test_the_ledger_folds_the_same_at_once_and_event_by_event() -> None:
    start = _destroyed(credits=300, scrap=9, buildings=("workshop", "forge"))
    events: list[domain.Event] = []
    state = start
    for step in (
        lambda s: craft(s),
        lambda s: rebuild(s),
    ):
        new = step(state)
        events += new
        state = domain.replay(new, state)
    moves = revised(state, ("mace",))
    events += moves
    state = domain.replay(moves, state)
    assert domain.replay(events, start) == state
    assert state.settlement.storage == ()
    assert state.builds["ba"].current.equipment == ("mace",)


# --- scars the battle setup applies (R-ADD-353) --------------------------------------------------------


def scarred(*scars: str) -> domain.CampaignState:
    events = [lg.ScarTaken("a1", s, "scars.physical", True, "test") for s in scars]
    return domain.replay(events, world())


def test_scars_with_an_sp_or_taint_effect_apply_to_the_setup_the_rest_are_notes() -> None:
    assert battle_scar_effects(scarred("Iron Jaw", "Skull Fracture"), "a1") == ScarEffects()
    assert battle_scar_effects(scarred("Vow of Silence"), "a1") == ScarEffects(1, 0)
    assert battle_scar_effects(scarred("crystalline-growth", "Soulbound"), "a1") == ScarEffects(
        2, 1
    )
    notes = bd.deployment_notes(scarred("Endurance Conditioning", "Iron Jaw"), "a1")
    assert any("+1 SP applied to the battle setup (R-ADD-353)" in n for n in notes)
    assert any("Strain" in n and "(R-ADD-236)" in n for n in notes)
    assert "scar: Iron Jaw, as its scar table says (R-ADD-236)" in notes
    assert scar_note("pc-1", "Overclock Protocol").startswith("scar: Overclock Protocol: +2 SP")


def test_plt1_pilots_scars_change_no_setup() -> None:
    events = [e for e in _creation_events() if not isinstance(e, lg.CampaignRulesPinned)]
    state = domain.replay([*events, domain.ScarGained("a1", "Vow of Silence", "GM")])
    assert battle_scar_effects(state, "a1") == ScarEffects()
