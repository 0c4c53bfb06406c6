"""A small pc-1 campaign folded from events, for the settlement phase's pure tests."""

from __future__ import annotations

from collections.abc import Sequence

from campaigns import domain
from campaigns.between import decide as bd
from campaigns.between import ledger as lg
from campaigns.between.dice import EnteredRoller, SealedRoller, commitment

SECRET = bytes(range(32))


def world(
    *, wounds: Sequence[str] = (), taint: int = 0, dead: bool = False
) -> domain.CampaignState:
    """Ann (pilot a1, church) and Ben (pilot b1, elves) played mission 1; Ann kept `wounds`."""
    events: list[domain.Event] = [
        domain.CampaignCreated("c1", "Ash", "gm", True, {}),
        lg.CampaignRulesPinned("pc-1", ()),
        domain.PlayerJoined("ann"),
        domain.PlayerJoined("ben"),
        domain.PilotEnlisted("a1", "ann", "Sister Ash", "church", 0),
        domain.PilotEnlisted("b1", "ben", "Bran", "elves", 0),
        domain.BuildRevised("ba", 1, "ann", "A", "scout", "left", "church", (), ()),
        domain.BuildRevised("bb", 1, "ben", "B", "scout", "left", "elves", (), ()),
    ]
    state = domain.replay(events)
    return play_mission(state, wounds=wounds, taint=taint, dead=dead)


def play_mission(
    state: domain.CampaignState,
    *,
    wounds: Sequence[str] = (),
    taint: int = 0,
    dead: bool = False,
    pilots: Sequence[str] = ("a1", "b1"),
) -> domain.CampaignState:
    number = len(state.missions) + 1
    mid = f"m{number}"
    builds = {"a1": "ba", "b1": "bb"}
    events: list[domain.Event] = []
    if not any(m.id == mid for m in state.missions):
        events.append(domain.MissionPlanned(mid, number, f"Mission {number}"))
    events.append(
        domain.MissionStarted(
            mid, f"battle-{number}", tuple((i, p, builds[p], 1) for i, p in enumerate(pilots))
        )
    )
    for wound in wounds:
        events.append(domain.PilotWounded("a1", wound, domain.wound_kind(wound), mid, "b"))
    if taint:
        a1 = state.pilots["a1"]
        events.append(domain.TaintChanged("a1", taint, a1.taint + taint, "test", mid))
    if dead:
        events.append(domain.PilotDied("b1", mid, f"battle-{number}", "R-PLT-1"))
    events.append(domain.MissionCompleted(mid, f"battle-{number}", "players", 3))
    return domain.replay(events, state)


def run(
    state: domain.CampaignState,
    command: bd.BetweenCommand,
    faces: Sequence[int] | None = None,
    *,
    gm: bool = True,
) -> tuple[domain.CampaignState, list[domain.Event]]:
    """Decide with entered faces (or the sealed dice of SECRET) and fold the events."""
    ledger: lg.Ledger = state.settlement
    phase = ledger.phase(command.mission_id)
    scope = phase.scope if phase else "phase-0"
    roller = (
        EnteredRoller(list(faces))
        if faces is not None
        else SealedRoller(SECRET, scope, ledger.rolls_in(scope))
    )
    events = bd.decide(state, command, actor_is_gm=gm, roller=roller)
    if faces is not None:
        assert roller.unused == 0, f"{roller.unused} faces left over"  # type: ignore[union-attr]
    return domain.replay(events, state), events


def open_phase(state: domain.CampaignState, mission_id: str = "m1") -> domain.CampaignState:
    state, _ = run(state, bd.OpenPhase(mission_id, commitment(SECRET)))
    return state
