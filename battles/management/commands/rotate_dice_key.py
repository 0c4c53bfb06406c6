"""`manage.py rotate_dice_key`: every stored dice secret re-encrypted under the first key
of PENANCE_DICE_KEY (penance_site/dice_keys.py, R-ADD-206).

Rotation: put the new key first in PENANCE_DICE_KEY, keep the old one after it
(`new,old`), restart, run this command, then drop the old key. A secret no key opens
stops the command, naming the battle, with nothing written.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from battles.models import BattleDiceSecret
from penance_site.dice_keys import DiceSecretUnreadable, require_dice_keys, rotate_secret


class Command(BaseCommand):
    help = "Re-encrypt every battle's dice secret under the first key of PENANCE_DICE_KEY."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        require_dice_keys()
        count = 0
        for row in BattleDiceSecret.objects.select_for_update().order_by("battle_id"):
            try:
                row.secret = rotate_secret(bytes(row.secret))
            except DiceSecretUnreadable as exc:
                raise CommandError(f"battle {row.battle_id}: {exc}; nothing was changed") from None
            row.save(update_fields=["secret"])
            count += 1
        self.stdout.write(f"{count} dice secret{'s' if count != 1 else ''} re-encrypted")
