"""`POST /battles/practice/`: a battle against the server's bot, from the battles page.

The signed-in user runs the battle (its GM) and plays seat 0 with the first demo deck;
the bot plays seat 1 with the second (R-ADD-210), with sealed digital dice (R-ADD-45),
the only dice a bot can roll (R-ADD-212). The page then opens the new battle.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from battles.engine.demo import demo_setup
from battles.services import battle_create


def practice_setup(username: str) -> dict[str, Any]:
    """The demo battle with `username` in seat 0 and the bot in seat 1; dice sealed.

    >>> s = practice_setup("ann")
    >>> [seat.get("player") for seat in s["seats"]], s["seats"][1]["bot"], s["dice"]["mode"]
    (['ann', None], True, 'digital')
    """
    setup = demo_setup(seed=None, players=(username, username))
    human, bot = setup["seats"]
    bot = {k: v for k, v in bot.items() if k != "player"} | {"bot": True}
    return {**setup, "name": f"{username} against the bot", "seats": [human, bot]}


@require_POST
@login_required
def battle_practice_page(request: HttpRequest) -> HttpResponse:
    username = request.user.get_username()
    battle = battle_create(gm=request.user, setup=practice_setup(username))  # type: ignore[arg-type]
    return redirect("battle-replay", battle.id)
