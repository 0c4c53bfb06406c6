"""Equipment from the settlement's storage and destroyed caskets rebuilt (pc-1 rules).

Under pc-1 the items a casket carries come from the settlement's storage (R-ADD-350):
a revision takes each item the casket did not carry out of storage (`ItemTaken`) and
returns each item it no longer carries (`ItemReturned`); what the casket carries stays
assigned to it. Before the campaign's first mission starts every casket is outfitted
freely (the pilots' starting caskets). The Forge crafts an item of the card database
into storage at its crafting cost (`CraftEquipment`, R-ADD-351). A casket defeated in a
mission's battle is destroyed (`domain.CasketDestroyed`) and cannot deploy until the
Workshop's Emergency Retrofit rebuilds it for 200 Credits and 3 Scrap (`RebuildCasket`,
R-ADD-352). Both are settlement actions: a player's two per phase (R-ADD-243).

Pure like the rest of `campaigns.between`: `domain.evolve` folds these events through
the handlers registered at the bottom, and `decide` refuses.

>>> from campaigns.domain import CampaignCreated, replay
>>> from campaigns.between.ledger import CampaignRulesPinned, ItemStored
>>> s = replay([CampaignCreated("c1", "Ash", "gm", True, {}), CampaignRulesPinned("pc-1", ()),
...             ItemStored("dagger", "Dagger", "crafted"), ItemTaken("dagger", "b1", "revision")])
>>> s.settlement.storage
()
>>> craft_cost("4 Scrap"), craft_cost("2 scrap")
((0, 4), (0, 2))
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from battles.engine.errors import InvalidInput, RuleViolation

from .. import domain
from ..domain import CampaignState, Event
from . import decide as between
from . import ledger as lg
from .rulebook import RULES_DIR, rulebook

STORAGE_RULE = "R-ADD-350"
CRAFT_RULE = "R-ADD-351"
REBUILD_RULE = "R-ADD-352"


@functools.cache
def storage_rules(version: str) -> Mapping[str, Any]:
    """campaigns/rules/<version>/storage.json: crafting, the retrofit, scar effects."""
    doc: Mapping[str, Any] = json.loads(
        (RULES_DIR / version / "storage.json").read_text(encoding="utf-8")
    )
    return doc


# --- events ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ItemTaken(Event):
    """An item leaves storage for the casket `build_id` (R-ADD-350)."""

    item: str
    build_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class ItemReturned(Event):
    """An item the casket `build_id` no longer carries goes back to storage (R-ADD-350)."""

    item: str
    name: str
    build_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class CasketRebuilt(Event):
    """A destroyed casket rebuilt by the Workshop's Emergency Retrofit (R-ADD-352); the
    cost is recorded by the `SettlementChanged` events beside it."""

    build_id: str
    mission_id: str
    player: str
    credits: int
    scrap: int


EVENT_TYPES = domain.event_types(ItemTaken, ItemReturned, CasketRebuilt)


def _taken(s: CampaignState, e: ItemTaken) -> CampaignState:
    storage = list(s.settlement.storage)
    index = next(i for i, (item, _) in enumerate(storage) if item == e.item)
    del storage[index]
    return dataclasses.replace(
        s, settlement=dataclasses.replace(s.settlement, storage=tuple(storage))
    )


def _returned(s: CampaignState, e: ItemReturned) -> CampaignState:
    storage = (*s.settlement.storage, (e.item, e.name))
    return dataclasses.replace(s, settlement=dataclasses.replace(s.settlement, storage=storage))


def _rebuilt(s: CampaignState, e: CasketRebuilt) -> CampaignState:
    return domain._build(s, dataclasses.replace(s.builds[e.build_id], destroyed=False))


HANDLERS: Mapping[type[Event], Callable[[CampaignState, Any], CampaignState]] = {
    ItemTaken: _taken,
    ItemReturned: _returned,
    CasketRebuilt: _rebuilt,
}


# --- equipment from storage -------------------------------------------------------------------------


def outfitted_freely(state: CampaignState) -> bool:
    """Before the campaign's first mission starts a casket is outfitted freely: the
    pilots' starting caskets, class and equipment chosen (R-ADD-350)."""
    return all(m.status == "planned" for m in state.missions)


def storage_counts(state: CampaignState) -> Counter[str]:
    """The items storage holds, by item id."""
    ledger: lg.Ledger = state.settlement
    return Counter(item for item, _ in ledger.storage)


def _carried(state: CampaignState, build_id: str) -> Counter[str]:
    old = state.builds.get(build_id)
    return Counter(old.current.equipment) if old is not None else Counter()


def from_storage(state: CampaignState, construction: str) -> bool:
    """Whether a revision's items come from storage: under pc-1, after the first mission
    started, for a casket built from equipment items (R-ADD-52); the demo set's builds
    carry no items, only words (R-ADD-220)."""
    return (
        state.settlement is not None
        and construction == domain.CONSTRUCTION_BY_EQUIPMENT
        and not outfitted_freely(state)
    )


def missing_items(state: CampaignState, build_id: str, equipment: Sequence[str]) -> list[str]:
    """The items a revision would carry beyond what the casket carries and storage holds
    (each as often as it is short); empty when storage covers them or under plt-1."""
    if state.settlement is None or outfitted_freely(state):
        return []
    short = Counter(equipment) - _carried(state, build_id) - storage_counts(state)
    return sorted(short.elements())


def equipment_moves(
    state: CampaignState, command: domain.ReviseBuild, names: Mapping[str, str]
) -> list[Event]:
    """The storage events of a revision (checked before): each item the casket no longer
    carries goes back to storage, each new one comes out (R-ADD-350). None unless its
    items come from storage (`from_storage`)."""
    if not from_storage(state, command.construction):
        return []
    build_id, equipment = command.build_id, command.equipment
    carried, wanted = _carried(state, build_id), Counter(equipment)
    why = "a casket's revision (R-ADD-350)"
    events: list[Event] = [
        ItemReturned(item, names.get(item, item), build_id, why)
        for item in sorted((carried - wanted).elements())
    ]
    events += [ItemTaken(item, build_id, why) for item in sorted((wanted - carried).elements())]
    return events


def _check(state: CampaignState, command: domain.Command) -> None:
    if state.settlement is None:
        return
    if isinstance(command, domain.ReviseBuild):
        if not from_storage(state, command.construction):
            return
        missing = missing_items(state, command.build_id, command.equipment)
        if missing:
            ledger: lg.Ledger = state.settlement
            names = dict(reversed(ledger.storage))
            held = storage_counts(state)
            offer = ", ".join(f"{names[i]} x{n}" for i, n in sorted(held.items())) or "nothing"
            raise InvalidInput(
                "equipment",
                f"the settlement's storage does not hold {', '.join(missing)}: a casket "
                f"carries what it carried and what storage holds (storage: {offer}); craft "
                "it at the Forge first",
                STORAGE_RULE,
            )
    elif isinstance(command, domain.StartMission):
        for i, (_, _, build_id, _) in enumerate(command.deployments):
            build = state.builds.get(build_id)
            if build is not None and build.destroyed:
                raise RuleViolation(
                    "casket_destroyed",
                    f"seats[{i}]: {build.current.name} was destroyed in battle; the "
                    "Workshop's Emergency Retrofit rebuilds it (200 Credits and 3 Scrap)",
                    REBUILD_RULE,
                )


# --- the settlement actions -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StorageAction(between.BetweenCommand):
    """A settlement action of this module: one of the player's two (R-ADD-243)."""

    STEP: ClassVar[str] = "actions"
    player: str = ""


@dataclass(frozen=True, slots=True)
class CraftEquipment(StorageAction):
    """Craft an item of the card database into storage at its crafting cost (the service
    reads the item's name and cost from the catalogue, R-ADD-351)."""

    item: str = ""
    name: str = ""
    credits: int = 0
    scrap: int = 0


@dataclass(frozen=True, slots=True)
class RebuildCasket(StorageAction):
    """The Workshop's Emergency Retrofit: rebuild one destroyed casket (R-ADD-352)."""

    build_id: str = ""


_COST = re.compile(r"^\s*(\d+)\s*(scrap|credits)?\s*$", re.IGNORECASE)


def craft_cost(crafting_cost: str) -> tuple[int, int]:
    """(Credits, Scrap) of an item's crafting cost as the card database writes it: "4
    Scrap", or a bare number of Credits (R-ADD-351).

    >>> craft_cost("50"), craft_cost("30 Credits")
    ((50, 0), (30, 0))
    >>> craft_cost("")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: item: the card database gives this item no crafting cost; it cannot be crafted (R-ADD-351)
    """
    m = _COST.match(crafting_cost)
    if m is None:
        raise InvalidInput(
            "item",
            "the card database gives this item no crafting cost; it cannot be crafted",
            CRAFT_RULE,
        )
    amount = int(m.group(1))
    return (0, amount) if (m.group(2) or "").lower() == "scrap" else (amount, 0)


def _afford(ledger: lg.Ledger, what: str, credits: int, scrap: int, rule: str) -> None:
    """Refuse a cost the settlement cannot pay, naming the resource it is short of."""
    short = [
        f"{need} {word} (it has {have})"
        for need, have, word in (
            (credits, ledger.credits, "Credits"),
            (scrap, ledger.scrap, "Scrap"),
        )
        if need > have
    ]
    if short:
        raise RuleViolation(
            "unaffordable",
            f"{what} costs {credits} Credits and {scrap} Scrap; the settlement is short: "
            f"it needs {' and '.join(short)}",
            rule,
        )


def decide(state: CampaignState, command: StorageAction, *, actor_is_gm: bool) -> list[Event]:
    """The events of a crafting or a retrofit, a settlement action at the actions step;
    refusals raise RuleViolation or InvalidInput and change nothing."""
    ledger = between.settlement_of(
        state, command, gm_only=not actor_is_gm, lacks="settlement phase or storage"
    )
    mission = state.mission(command.mission_id)
    phase = ledger.phase(mission.id)
    if phase is None or phase.closed:
        raise RuleViolation(
            "phase_not_open",
            f"the settlement phase after mission {mission.number} is not open",
            "R-ADD-249",
        )
    between.at_step(phase, command.STEP)
    if command.player not in state.players:
        raise InvalidInput(
            "player", f"{command.player!r} is not a player of this campaign", "R-ADD-243"
        )
    per = int(rulebook(ledger.version).settlement["actions_per_player"])
    if sum(1 for a in phase.actions if a.player == command.player) >= per:
        raise RuleViolation(
            "no_actions_left",
            f"{command.player} has taken {per} settlement actions this phase",
            "R-ADD-243",
        )
    rules = storage_rules(ledger.version)
    action = rules["retrofit" if isinstance(command, RebuildCasket) else "craft"]
    building = str(action["building"])
    if not ledger.standing(building):
        name = rulebook(ledger.version).building(building)["name"]
        raise RuleViolation(
            "building_missing", f"{action['name']} needs {name} standing", "R-ADD-243"
        )
    why = f"{action['name']} ({command.player})"
    events: list[Event] = []
    if isinstance(command, CraftEquipment):
        credits, scrap = command.credits, command.scrap
        _afford(ledger, f"crafting {command.name}", credits, scrap, CRAFT_RULE)
        events.append(lg.ItemStored(command.item, command.name, why))
        detail, rule = command.item, CRAFT_RULE
    elif isinstance(command, RebuildCasket):
        build = state.build(command.build_id)
        if build.player != command.player:
            raise InvalidInput(
                "build",
                f"{build.current.name} is {build.player}'s casket; its player rebuilds it",
                REBUILD_RULE,
            )
        if not build.destroyed:
            raise RuleViolation(
                "casket_not_destroyed",
                f"{build.current.name} was not destroyed; the retrofit rebuilds a destroyed casket",
                REBUILD_RULE,
            )
        credits, scrap = int(action["credits"]), int(action["scrap"])
        _afford(ledger, f"rebuilding {build.current.name}", credits, scrap, REBUILD_RULE)
        events.append(CasketRebuilt(build.id, mission.id, command.player, credits, scrap))
        detail, rule = build.id, REBUILD_RULE
    else:
        raise TypeError(f"storage.decide does not know {type(command).__name__}")
    for resource, amount, have in (
        ("credits", credits, ledger.credits),
        ("scrap", scrap, ledger.scrap),
    ):
        if amount:
            events.append(lg.SettlementChanged(resource, -amount, have - amount, why, rule))
    events.append(
        lg.ActionTaken(mission.id, command.player, str(action["id"]), "", detail, credits, scrap)
    )
    return events


domain.register_between(HANDLERS, _check)
