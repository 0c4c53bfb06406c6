"""`decide(state, command, dice) -> events`: the rules of a battle turn.

`decide` validates a command (a `RuleViolation` with code, message and ruling
names any refusal, and nothing is decided) and is the only place randomness is
drawn: every die face, shuffle and wound flip lands in an event, so `evolve`
replays without dice. Phases that need nobody's decision (Refresh, Draw, End,
the next turn, the next round) run inside the command that leads into them, up
to the next point where a player must act or answer a prompt.

The working state advances event by event through `evolve`, so each rule reads
the state exactly as the events so far left it.

The rules live in one module per concept, each importing only those listed before it
(no import circle, tests/test_architecture.py):

- `tx`: the transaction every rule writes its events through;
- `targeting`: what an attack is judged by (reach, auras, the to-hit answer, wards, facing);
- `conditions`: what a card's condition asks, marks, allies and enemies in reach;
- `effects` (`__init__`, `base`): one effect resolved by its class's resolver, found in the
  table the transaction carries (the resolvers call the rules, so the rules never import them);
- `passives`: cards in play that act on their own (triggers, zones, a destruction);
- `harm`: damage taken, components, wounds, Heat, Taint, defeat;
- `piles`: cards drawn, recovered and discarded;
- `costs`: what an action costs and spends (paths, limits, SP, tokens, Taint);
- `resolution`: the reactive window, the defence roll, damage inflicted and its prompt,
  terrain entered and the end of an attack, the rules that call each other in a circle;
- `play` (a card played), `moves` (moves and terrain a card makes), `attacking` (the attack
  command), `reactions` (reactive cards), `prompts` (prompts answered), `flow` (rounds and
  turns), `gm` (corrections), `units` (summoned units), `actions` (the action command);
- `effects.<family>` and `effects.table`: the resolvers, which may call any rule above;
- `entry`: create, deal, decide, giving each transaction the resolver table.
"""

from .entry import Decision, create, deal, decide, decided, dice_for, reveal
from .prompts import PROMPT_COMMANDS, PROMPT_RULES
from .targeting import _facing_for, attack_answer, attack_cost

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
