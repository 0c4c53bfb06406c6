"""A battle as an event stream: commands decided, events evolved (docs/BATTLES.md).

The public surface the Django side uses:

- `create(battle_id, setup, dice=None) -> events` and `parse_setup(doc)`;
- `parse_command(body) -> Command`, `command_body(command)`;
- `decide(state, command, dice=None, *, before=None) -> events`,
  `dice_for(state, command, secret=None)`;
- sealed dice (R-ADD-45): `new_dice_secret()`, `dice_commitment(secret)`, `reveal(state, secret)`
  and `check_dice(commands)`;
- `evolve(state, event)`, `replay(events, state=None)`;
- `EVENT_TYPES` and `UPCASTERS`, which battles/codec.py registers with the event store's codec;
- `state_to_dict(state)`, `state_from_dict(doc)` for snapshots;
- `legal_actions(state, seats)` for the acting or prompted seats;
- `public_payload(...)`, `state_view(...)` for what a viewer may see.
"""

from .commands import Command, command_body, parse_command
from .decide import create, decide, dice_for, reveal
from .events import EVENT_TYPES, Event
from .evolve import evolve, replay
from .fairness import DiceCheck, RecordedCommand, check_dice
from .legal import LegalAction, legal_actions
from .outcome import BattleOutcome, SeatOutcome, battle_outcome, ends_battle
from .randomness import dice_commitment, new_dice_secret
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
    "DiceCheck",
    "Event",
    "LegalAction",
    "Prompt",
    "RecordedCommand",
    "SeatOutcome",
    "battle_outcome",
    "check_dice",
    "command_body",
    "create",
    "decide",
    "dice_commitment",
    "dice_for",
    "ends_battle",
    "evolve",
    "legal_actions",
    "new_dice_secret",
    "parse_command",
    "parse_setup",
    "public_payload",
    "replay",
    "reveal",
    "stalemate",
    "state_from_dict",
    "state_to_dict",
    "state_view",
]
