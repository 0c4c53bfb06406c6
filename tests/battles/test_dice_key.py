"""The dice secrets encrypted at rest under PENANCE_DICE_KEY (penance_site/dice_keys.py,
R-ADD-206): what the database holds does not give the dice away; a site without the key
does not start; old rows are encrypted by the migration; keys rotate."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from cryptography.fernet import Fernet
from django.apps import apps
from django.core.management import CommandError, call_command
from django.test import override_settings

from battles.engine.battle.randomness import dice_commitment
from battles.engine.demo import demo_setup
from battles.models import BattleDiceSecret
from battles.selectors import battle_stream
from battles.services import battle_create
from penance_site.dice_keys import DiceSecretUnreadable, open_secret
from penance_site.eventstore.store import iter_stream
from tests.battles.played import users
from tests.test_settings import _start

pytestmark = pytest.mark.django_db
OLD, NEW = Fernet.generate_key().decode(), Fernet.generate_key().decode()
migration = importlib.import_module("battles.migrations.0006_dice_secret_encrypted")


def sealed() -> Any:
    people = users("-dk")
    setup = demo_setup(seed=None, players=(people["gm"].username, people["player"].username))
    return battle_create(gm=people["gm"], setup=setup)


def test_the_database_holds_the_secret_encrypted() -> None:
    battle = sealed()
    stored = bytes(BattleDiceSecret.objects.get(battle=battle).secret)
    secret = open_secret(stored)
    assert len(secret) == 32 and secret not in stored and secret.hex().encode() not in stored
    created = next(iter_stream(battle_stream(battle=battle)))
    assert created.payload["setup"]["dice"]["commitment"] == dice_commitment(secret)


def test_the_migration_encrypts_rows_written_before_and_back() -> None:
    battle = sealed()
    row = BattleDiceSecret.objects.get(battle=battle)
    raw = open_secret(row.secret)
    BattleDiceSecret.objects.filter(pk=row.pk).update(secret=raw)  # as stored before
    migration.encrypt(apps, None)
    stored = bytes(BattleDiceSecret.objects.get(pk=row.pk).secret)
    assert stored != raw and open_secret(stored) == raw
    migration.encrypt(apps, None)  # twice changes nothing more
    assert open_secret(BattleDiceSecret.objects.get(pk=row.pk).secret) == raw
    migration.decrypt(apps, None)
    assert bytes(BattleDiceSecret.objects.get(pk=row.pk).secret) == raw


def test_a_key_rotates_and_a_dropped_key_is_named() -> None:
    with override_settings(PENANCE_DICE_KEYS=(OLD,)):
        battle = sealed()
        secret = open_secret(BattleDiceSecret.objects.get(battle=battle).secret)
    with override_settings(PENANCE_DICE_KEYS=(NEW,)), pytest.raises(DiceSecretUnreadable):
        open_secret(BattleDiceSecret.objects.get(battle=battle).secret)
    with override_settings(PENANCE_DICE_KEYS=(NEW, OLD)):
        call_command("rotate_dice_key")
    with override_settings(PENANCE_DICE_KEYS=(NEW,)):
        assert open_secret(BattleDiceSecret.objects.get(battle=battle).secret) == secret
        # A secret under a key no longer held stops the rotation, nothing written.
        with override_settings(PENANCE_DICE_KEYS=(OLD,)):
            sealed_under_old = sealed()
        before = {r.pk: bytes(r.secret) for r in BattleDiceSecret.objects.all()}
        with pytest.raises(CommandError, match=str(sealed_under_old.pk)):
            call_command("rotate_dice_key")
        assert {r.pk: bytes(r.secret) for r in BattleDiceSecret.objects.all()} == before


@pytest.mark.parametrize("command", ["check", "wsgi"])
def test_without_a_key_and_debug_off_the_site_does_not_start(command: str) -> None:
    if command == "check":
        code = "from django.core.management import call_command; call_command('check')"
    else:
        code = "import penance_site.wsgi"
    result = _start({"PENANCE_DICE_KEY": ""}, f"exec({code!r})")
    assert result.returncode != 0
    assert "PENANCE_DICE_KEY is not set" in result.stderr


def test_a_malformed_key_fails_naming_the_variable_and_debug_has_a_default() -> None:
    bad = _start({"PENANCE_DICE_KEY": f"{NEW},not-a-key"})
    assert bad.returncode != 0 and "PENANCE_DICE_KEY: entry 2" in bad.stderr
    dev = _start({"PENANCE_DICE_KEY": "", "DJANGO_DEBUG": "1"}, "len(settings.PENANCE_DICE_KEYS)")
    assert dev.returncode == 0 and dev.stdout.strip() == "1", dev.stderr
    good = _start({"PENANCE_DICE_KEY": f"{NEW}, {OLD}"}, "len(settings.PENANCE_DICE_KEYS)")
    assert good.returncode == 0 and good.stdout.strip() == "2", good.stderr
