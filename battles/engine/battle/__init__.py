"""A battle as an event stream: commands decided, events evolved (docs/BATTLES.md).

The public surface the Django side uses:

- `create(battle_id, setup, dice=None) -> events` and `parse_setup(doc)`;
- `parse_command(body) -> Command`, `command_body(command)`;
- `decide(state, command, dice=None, *, before=None) -> events`, `dice_for(state, command)`;
- `evolve(state, event)`, `replay(events, state=None)`;
- `to_record(event)`, `from_record(type, schema_version, payload)` (with upcasting);
- `state_to_dict(state)`, `state_from_dict(doc)` for snapshots;
- `legal_actions(state, seats)` for the acting or prompted seats;
- `public_payload(...)`, `state_view(...)` for what a viewer may see.
"""

from .commands import Command, command_body, parse_command
from .decide import create, decide, dice_for
from .events import Event, from_record, to_record
from .evolve import evolve, replay
from .legal import LegalAction, legal_actions
from .setup import parse_setup
from .snapshot import state_from_dict, state_to_dict
from .state import BattleState, CasketState, Prompt
from .view import public_payload, state_view

__all__ = [
    "BattleState",
    "CasketState",
    "Command",
    "Event",
    "LegalAction",
    "Prompt",
    "command_body",
    "create",
    "decide",
    "dice_for",
    "evolve",
    "from_record",
    "legal_actions",
    "parse_command",
    "parse_setup",
    "public_payload",
    "replay",
    "state_from_dict",
    "state_to_dict",
    "state_view",
    "to_record",
]
