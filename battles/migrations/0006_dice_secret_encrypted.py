"""The dice secrets encrypted under PENANCE_DICE_KEY (penance_site/dice_keys.py, R-ADD-206).

Rows written before hold the 32 raw bytes; each is encrypted in place. Backwards, each
is decrypted again. Without a key (DEBUG off, PENANCE_DICE_KEY unset) the migration
stops, naming the variable, before writing anything.
"""

from typing import Any

from django.db import migrations, models

from penance_site.dice_keys import open_secret, require_dice_keys, seal_secret

RAW_BYTES = 32  # a secret not yet encrypted: a Fernet token is far longer


def encrypt(apps: Any, schema_editor: Any) -> None:
    rows = apps.get_model("battles", "BattleDiceSecret").objects.all()
    if not rows.exists():
        return
    require_dice_keys()
    for row in rows:
        if len(bytes(row.secret)) == RAW_BYTES:
            row.secret = seal_secret(bytes(row.secret))
            row.save(update_fields=["secret"])


def decrypt(apps: Any, schema_editor: Any) -> None:
    rows = apps.get_model("battles", "BattleDiceSecret").objects.all()
    if not rows.exists():
        return
    require_dice_keys()
    for row in rows:
        if len(bytes(row.secret)) != RAW_BYTES:
            row.secret = open_secret(bytes(row.secret))
            row.save(update_fields=["secret"])


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0005_battle_dice_secret"),
    ]

    operations = [
        migrations.AlterField(
            model_name="battledicesecret",
            name="secret",
            field=models.BinaryField(max_length=512),
        ),
        migrations.RunPython(encrypt, decrypt),
    ]
