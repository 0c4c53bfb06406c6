"""A battle as an event stream: commands decided, events evolved (docs/BATTLES.md).

The public surface the Django side uses:

- `create(battle_id, setup, dice=None) -> events` and `parse_setup(doc)`;
- `parse_command(body) -> Command`, `command_body(command)`;
- `decide(state, command, dice=None, *, before=None) -> events`, `dice_for(state, command)`;
- `evolve(state, event)`, `replay(events, state=None)`;
- `EVENT_TYPES` and `UPCASTERS`, which battles/codec.py registers with the event store's codec;
- `state_to_dict(state)`, `state_from_dict(doc)` for snapshots;
- `legal_actions(state, seats)` for the acting or prompted seats;
- `public_payload(...)`, `state_view(...)` for what a viewer may see.
"""

from .commands import Command, command_body, parse_command
from .decide import create, decide, dice_for
from .events import EVENT_TYPES, Event
from .evolve import evolve, replay
from .legal import LegalAction, legal_actions
from .outcome import BattleOutcome, SeatOutcome, battle_outcome, ends_battle
from .setup import parse_setup
from .snapshot import state_from_dict, state_to_dict
from .stalemate import stalemate
from .state import BattleState, CasketState, Prompt
from .upcast import UPCASTERS
from .view import public_payload, state_view

__all__ = [
    "EVENT_TYPES",
    "UPCASTERS",
    "BattleOutcome",
    "BattleState",
    "CasketState",
    "Command",
    "Event",
    "LegalAction",
    "Prompt",
    "SeatOutcome",
    "battle_outcome",
    "command_body",
    "create",
    "decide",
    "dice_for",
    "ends_battle",
    "evolve",
    "legal_actions",
    "parse_command",
    "parse_setup",
    "public_payload",
    "replay",
    "stalemate",
    "state_from_dict",
    "state_to_dict",
    "state_view",
]
