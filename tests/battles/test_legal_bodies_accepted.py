"""Every body `GET /api/battles/<id>/legal-actions` lists is accepted as it stands, or says
what it still needs (`needs`): the GM accepting the withdrawal of a seat they do not play
adds a `reason` (R-TRN-9, R-ADD-24). Checked through the API on autoplayed battles: each
listed body is sent in a savepoint that is rolled back, so the battle goes on unchanged."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client

from battles.engine.battle import LegalAction
from battles.engine.battle.autoplay import choose
from battles.engine.demo import demo_setup
from battles.models import Battle
from battles.selectors import battle_state_at
from tests.battles.api_calls import post, send, version

pytestmark = pytest.mark.django_db

COMMANDS = 48  # each battle's commands; every EVERY-th state has all its bodies sent
EVERY = 8


def _client(django_user_model: type[User], name: str) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_user(username=name))
    return client


def _sent(client: Client, bid: str, action: dict[str, Any]) -> Any:
    """The answer to `action`'s body (with what it needs), then rolled back."""
    body = dict(action["body"])
    if "reason" in action.get("needs", []):
        body["reason"] = "the player has to leave the table"
    with transaction.atomic():
        response = send(client, bid, body)
        transaction.set_rollback(True)
    return response


@pytest.mark.parametrize("seed", [3, 5])
def test_every_listed_body_is_accepted_or_names_what_it_needs(
    django_user_model: type[User], seed: int
) -> None:
    gm = _client(django_user_model, "gm")  # runs the battle, plays no seat
    for name in ("alice", "bob"):
        django_user_model.objects.create_user(username=name)
    created = post(gm, "/api/battles/", demo_setup(seed=seed, players=("alice", "bob")))
    assert created.status_code == 201, created.content
    bid = str(created.json()["id"])
    battle = Battle.objects.get(pk=bid)
    rng = random.Random(seed)
    checked = needing = 0
    for step in range(COMMANDS):
        answer = gm.get(f"/api/battles/{bid}/legal-actions").json()
        actions = answer["actions"]
        if not actions:
            break
        head = version(bid)
        if step % EVERY == 0:
            for action in actions:
                response = _sent(gm, bid, action)
                assert response.status_code == 201, (action, response.content)
                assert version(bid) == head  # rolled back
                checked += 1
                if action.get("needs"):
                    needing += 1
                    bare = send(gm, bid, action["body"])
                    assert bare.status_code == 400, bare.content
                    assert bare.json()["errors"][0]["field"] in action["needs"]
        state = battle_state_at(battle=battle)
        body = choose(state, [LegalAction(a["body"]) for a in actions], rng)
        if body["type"] == "end_battle":
            break
        assert send(gm, bid, body).status_code == 201
    assert checked > 50
    # The GM plays no seat: each turn's opening lists a withdrawal that needs a reason.
    assert needing >= 1
