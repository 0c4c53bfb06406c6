"""The server's bot: plays the seats a setup gives to `"bot": true` (R-ADD-210..214).

The bot is a user of its own (username `bot`, no password, inactive: nobody signs in
as it), seated in BattleSeat like any player, so its commands go through the same
command path as everyone's (`battle_command_execute`): the same checks, the same
events, `actor: "bot"` in their metadata.

After every commit that moves a battle with a bot seat, one task (`battles.bot_turn`,
battles.tasks) is sent with the battle's id and the version it reached. The task plays
the bot's action at that version if the battle waits on the bot, and nothing otherwise:

- a task for a version the battle has moved past (late, or sent twice and the first one
  played) finds the head elsewhere and does nothing (R-ADD-215);
- the command id is `bot-<version>`, and the choice depends only on the state, so two
  copies of one task racing record one command: the second is a duplicate or meets a
  concurrency conflict, and adds nothing.

With REDIS_URL the task goes to the Celery worker; in the embedded default (no Redis)
Celery runs it eagerly, in the process that committed. There, a bot's own command
commits inside the task that played it, so its next turn is queued and played when the
task returns, in a loop rather than by recursion: a battle of bots alone plays to its end
without growing the stack.
"""

from __future__ import annotations

import random
import threading
from collections import deque
from typing import Any

from django.conf import settings
from django.db import transaction

from battles.engine.battle import BattleState
from battles.engine.battle.autoplay import choose_ranked
from battles.engine.battle.legal import legal_actions
from battles.engine.battle.setup import BOT_PLAYER
from battles.models import Battle, BattleSeat
from battles.selectors import battle_head_version, battle_state_at
from battles.services import battle_command_execute, bot_user
from penance_site.celery import app as celery_app
from penance_site.eventstore.store import ConcurrencyError


def _bot_seats(battle_id: str) -> frozenset[int]:
    return frozenset(
        BattleSeat.objects.filter(battle_id=battle_id, player__username=BOT_PLAYER).values_list(
            "seat", flat=True
        )
    )


def bot_command_body(state: BattleState, seats: frozenset[int]) -> dict[str, Any] | None:
    """The bot's command now, or None when the battle does not wait on one of its seats.

    The engine's autoplayer chooses (battles/engine/battle/autoplay.py), among the bot
    seats' legal actions only, with a random source seeded by the version, so the same
    state always gets the same command. In a stalemate (R-ADD-40) the bot waits: ending
    the battle is the GM's call (R-TRN-9)."""
    if state.over or not seats:
        return None
    actions = list(legal_actions(state, seats))
    if not actions:
        return None
    body = choose_ranked(state, actions, random.Random(state.version))
    return None if body["type"] == "end_battle" else body


@transaction.atomic
def bot_turn_play(*, battle_id: str, version: int) -> int | None:
    """Play the bot's action in the battle at `version`, if the battle is still at that
    version and waits on a bot seat; the new version, or None when nothing was played."""
    battle = Battle.objects.filter(pk=battle_id).first()
    if battle is None or battle_head_version(battle=battle) != version:
        return None  # a late or repeated task: the battle moved on (R-ADD-215)
    seats = _bot_seats(battle_id)
    state = battle_state_at(battle=battle, version=version)
    body = bot_command_body(state, seats)
    if body is None:
        return None
    try:
        with transaction.atomic():
            result = battle_command_execute(
                battle=battle,
                actor=bot_user(),
                command_id=f"bot-{version}",
                expected_version=version,
                body=body,
            )
    except ConcurrencyError:
        return None  # someone else's command got there first
    return None if result.duplicate else result.version


# --- sending the task -----------------------------------------------------------------------------

_local = threading.local()


# The bot's task (battles/tasks.py registers it under this name). Sent by name from Celery's
# registry: the task calls this module, so this module importing the task module would
# close an import circle (as campaigns.services.OUTCOME_TASK).
BOT_TASK = "battles.bot_turn"


def _send(battle_id: str, version: int) -> None:
    bot_turn = celery_app.tasks[BOT_TASK]
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        bot_turn.delay(battle_id, version)
        return
    queue: deque[tuple[str, int]] | None = getattr(_local, "queue", None)
    if queue is not None:  # inside an eager bot task: played when it returns
        queue.append((battle_id, version))
        return
    _local.queue = queue = deque([(battle_id, version)])
    try:
        while queue:
            bot_turn.apply(args=queue.popleft())  # in this process, now
    finally:
        _local.queue = None


def bot_turn_schedule(*, battle_id: str, version: int) -> None:
    """After the current transaction commits, send the bot task for the battle at
    `version` when the battle has a bot seat (one indexed query; nothing otherwise)."""

    def after_commit() -> None:
        if _bot_seats(battle_id):
            _send(battle_id, version)

    # Robust: the command that triggered the bot has committed; a failure of the bot's turn
    # is logged and must not turn that command's answer into an error.
    transaction.on_commit(after_commit, robust=True)
