"""A battle played through the command service by the greedy autoplayer, for page tests:
legal commands only, every event recorded as a real table's would be."""

from __future__ import annotations

from itertools import islice

from django.contrib.auth.models import User

from battles.engine.battle.autoplay import greedy_commands
from battles.engine.demo import demo_setup
from battles.models import Battle
from battles.selectors import battle_state_at
from battles.services import battle_command_execute, battle_create

USERS = ("gm", "player", "outsider")


def users(tag: str = "") -> dict[str, User]:
    """gm (the GM, who also sits at seat 0), player (seat 1) and an outsider; `tag` makes
    fresh names for tests whose writes commit (browser tests)."""
    return {name: User.objects.get_or_create(username=name + tag)[0] for name in USERS}


def played_battle(
    *,
    seed: int = 1,
    commands: int = 40,
    name: str = "Test battle",
    tag: str = "",
    policy: str | None = None,
) -> Battle:
    """Seed 1 under ruleset 2.1 ends after about 320 events; 40 commands leave it running
    with attacks, hits and damage in its log. `policy` "prompt" asks the players each
    prompt the demo's "auto" answers for them."""
    gm = users(tag)["gm"]
    setup = demo_setup(seed=seed, players=("gm" + tag, "player" + tag))
    setup["name"] = name
    if policy is not None:
        setup["policy"] = policy
    battle = battle_create(gm=gm, setup=setup)
    state = battle_state_at(battle=battle)
    for i, (body, _events, after) in enumerate(islice(greedy_commands(state, seed=seed), commands)):
        battle_command_execute(
            battle=battle,
            actor=gm,
            command_id=f"test-{battle.id}-{i}",
            expected_version=state.version,
            body=body,
        )
        state = after
    return Battle.objects.get(pk=battle.pk)
