"""`decide(state, command, dice) -> events`: the rules of a battle turn.

`decide` validates a command (a `RuleViolation` with code, message and ruling
names any refusal, and nothing is decided) and is the only place randomness is
drawn: every die face, shuffle and wound flip lands in an event, so `evolve`
replays without dice. Phases that need nobody's decision (Refresh, Draw, End,
the next turn, the next round) run inside the command that leads into them, up
to the next point where a player must act or answer a prompt.

The working state advances event by event through `evolve`, so each rule reads
the state exactly as the events so far left it.

The rules live in one module per concept: `entry` (create, deal, decide), `flow` (rounds
and turns), `prompts` (prompts and their answers), `play` (actions and cards played),
`attacking` and `hits` (an attack, from its declaration to its end), `reactions`
(reactive cards and covers), `harm` (damage, wounds, defeat), `piles` (cards drawn,
discarded and recovered), `moves` (moves and terrain a card makes), `conditions` (what a
card's condition asks), `gm` (corrections) and `effects` (one resolver per effect class).
"""

from .attacking import attack_cost
from .entry import Decision, create, deal, decide, decided, dice_for, reveal
from .hits import _facing_for, attack_answer
from .prompts import PROMPT_COMMANDS, PROMPT_RULES

__all__ = [
    "PROMPT_COMMANDS",
    "PROMPT_RULES",
    "Decision",
    "_facing_for",
    "attack_answer",
    "attack_cost",
    "create",
    "deal",
    "decide",
    "decided",
    "dice_for",
    "reveal",
]
