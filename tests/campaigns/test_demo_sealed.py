"""The demo's battle in progress rolls sealed dice (R-ADD-45): its setup carries only the
secret's commitment, the secret is stored encrypted (R-ADD-206), and no page or API
answer of the running battle shows the secret."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle, BattleDiceSecret
from battles.selectors import battle_stream
from campaigns.management.commands.load_demo import SEALED, Command
from penance_site.dice_keys import open_secret
from penance_site.eventstore.store import iter_stream

pytestmark = pytest.mark.django_db


def test_the_demo_battle_in_progress_is_sealed_and_played_through_the_service() -> None:
    user_model = get_user_model()
    gm = user_model.objects.create_user(username="gm")
    user_model.objects.create_user(username="player")
    (name,) = SEALED
    Command()._demo_battle(gm, name, 4, "prompt", 12)
    battle = Battle.objects.get(name=name, gm=gm)
    events = list(iter_stream(battle_stream(battle=battle)))
    dice = events[0].payload["setup"]["dice"]
    assert dice["seed"] is None and not dice["seed_public"] and len(dice["commitment"]) == 64
    assert len(events) > 12  # the commands were recorded
    secret = open_secret(BattleDiceSecret.objects.get(battle=battle).secret)
    assert not any(secret.hex() in str(e.payload) for e in events)
