"""Writes of the settlement phase between missions (pc-1 rules, R-ADD-230…251).

Each service locks the campaign, folds its stream, asks `campaigns.between.decide`
for the events of one step, and appends them with the campaign's other events
(`services._record`, which also brings the read-model rows in step).

Dice (R-ADD-248): a step rolls the server's sealed dice unless the GM entered the
faces of physical dice. A phase's secret is derived from the site's secret key,
the campaign and the phase (HMAC-SHA256), so it needs no table and nobody without
the key can know it; the phase's first event records its SHA-256 and its last one
the secret itself, after which `between.decide.check_rolls` derives every sealed
roll again. (Changing the site's secret key while a phase is open makes its
commitment unverifiable: closing it then fails loudly rather than revealing another
secret.)

A command id makes a step idempotent: a command id the stream already holds returns
the events it recorded and decides nothing again, so a reloaded form or a retried
request never rolls twice (R-ADD-248).
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from collections.abc import Sequence

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction

from battles.engine.errors import InvalidInput
from battles.selectors import battle_outcome_of
from penance_site.eventstore.store import command_events

from . import domain
from .between import decide as between
from .between import ledger as lg
from .between import storage
from .between.dice import EnteredRoller, Roller, SealedRoller, commitment
from .between.modules import ModuleCommand, decide_module
from .codec import CAMPAIGN_EVENTS
from .models import Campaign, EquipmentItem, Mission
from .selectors import campaign_role, campaign_state, campaign_stream
from .services import _locked, _record

MAX_FACES = 200


def phase_secret(*, campaign: Campaign, mission_number: int) -> bytes:
    """The settlement phase's dice secret: HMAC-SHA256 of the site's key over the
    campaign and the phase; 32 bytes."""
    label = f"penance-campaign-dice/1|{campaign.id}|phase-{mission_number}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), label, hashlib.sha256).digest()


def _faces(faces: object) -> list[object] | None:
    if faces is None:
        return None
    if not isinstance(faces, list) or len(faces) > MAX_FACES:
        raise InvalidInput("faces", f"a list of at most {MAX_FACES} dice faces, in roll order")
    return list(faces)


def _battle_pilots(
    mission: domain.MissionState,
) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """From the mission's battle: the minor wounds face up when it ended, per pilot, and
    the severe ones a Grit check eased (pc-1 keeps them as injuries, R-ADD-239,
    R-ADD-305); and the pilots who rolled a Grit check (R-ADD-305)."""
    row = Mission.objects.select_related("battle").get(id=mission.id)
    if row.battle is None:
        return (), ()
    outcome = battle_outcome_of(battle=row.battle)
    pilots = {seat: pilot for seat, pilot, _, _ in mission.deployments}
    seats = [seat for seat in outcome.seats if seat.seat in pilots]
    minor = tuple(
        (pilots[seat.seat], wound)
        for seat in seats
        for wound in seat.wounds
        if domain.wound_kind(wound) == "minor" or wound in seat.eased_wounds
    )
    return minor, tuple(pilots[seat.seat] for seat in seats if seat.grit_checks)


def _priced(command: storage.StorageAction) -> storage.StorageAction:
    """A crafting with the item's name and cost from the card catalogue (R-ADD-351)."""
    if not isinstance(command, storage.CraftEquipment):
        return command
    item = EquipmentItem.objects.filter(pk=command.item).first()
    if item is None:
        raise InvalidInput(
            "item", f"no equipment item {command.item!r} in the card catalogue", storage.CRAFT_RULE
        )
    credits, scrap = storage.craft_cost(item.crafting_cost)
    return storage.CraftEquipment(
        command.mission_id,
        player=command.player,
        item=item.pk,
        name=item.name.title(),
        credits=credits,
        scrap=scrap,
    )


@transaction.atomic
def settlement_step(
    *,
    campaign: Campaign,
    actor: User,
    command: between.BetweenCommand,
    faces: Sequence[object] | None = None,
    command_id: str | None = None,
) -> tuple[domain.CampaignState, list[domain.Event], bool]:
    """Play one step of the settlement phase (or open it, or a GM's Grit or sideline
    ruling); returns the new state, the step's events and whether the command id had
    been recorded before (then nothing was decided again)."""
    campaign = _locked(campaign)
    if campaign_role(campaign=campaign, user=actor) != "gm":
        raise PermissionDenied("only the campaign's GM plays the settlement phase (R-ADD-31)")
    if command_id is not None:
        if not isinstance(command_id, str) or not 1 <= len(command_id) <= 100:
            raise InvalidInput("command_id", "1 to 100 characters")
        command_id = f"settlement-{command_id}"
        done = command_events(campaign_stream(campaign=campaign), command_id)
        if done:
            return (
                campaign_state(campaign=campaign),
                [CAMPAIGN_EVENTS.decode(e) for e in done],
                True,
            )
    state = campaign_state(campaign=campaign)
    mission = state.mission(command.mission_id)
    entered = _faces(list(faces) if faces is not None else None)
    secret = phase_secret(campaign=campaign, mission_number=mission.number)
    if isinstance(command, between.OpenPhase):
        minor, checked = _battle_pilots(mission)
        command = between.OpenPhase(mission.id, commitment(secret), minor, checked)
    elif isinstance(command, between.SelectMission):
        command = between.SelectMission(
            mission.id,
            next_mission_id=command.next_mission_id or str(uuid.uuid4()),
            name=command.name,
            secret=secret.hex(),
            offer=command.offer,
        )
    roller: Roller | None = None
    ledger: lg.Ledger | None = state.settlement
    if ledger is not None:
        phase = ledger.phase(mission.id)
        scope = phase.scope if phase is not None else f"phase-{mission.number}"
        if entered is not None:
            roller = EnteredRoller(entered)
        else:
            roller = SealedRoller(secret, scope, ledger.rolls_in(scope))
    if isinstance(command, ModuleCommand):
        events = decide_module(state, command, actor_is_gm=True, roller=roller)
    elif isinstance(command, storage.StorageAction):
        events = storage.decide(state, _priced(command), actor_is_gm=True)
    else:
        events = between.decide(state, command, actor_is_gm=True, roller=roller)
    if isinstance(roller, EnteredRoller) and roller.unused:
        raise InvalidInput(
            "faces",
            f"{roller.unused} of the {len(entered or [])} faces entered were not rolled by this "
            "step; enter exactly the dice it rolls",
            "R-ADD-248",
        )
    return _record(campaign, actor, state, command, events, command_id)


def settlement_dice_check(*, campaign: Campaign) -> list[str]:
    """Every sealed roll of the campaign's closed phases derived again (R-ADD-248)."""
    state = campaign_state(campaign=campaign)
    if state.settlement is None:
        return []
    return between.check_rolls(state)
