"""Carry every rest_framework.authtoken key over to ApiToken (issue 14): its SHA-256 only,
named "API token", with its creation time, so a client holding a key keeps working. The
old rows are deleted: the API no longer reads them (accounts/tokens.py). Going back
cannot restore keys from their digests, so the reverse step does nothing."""

import hashlib

from django.db import migrations


def forward(apps, schema_editor):  # type: ignore[no-untyped-def]
    Token = apps.get_model("authtoken", "Token")
    ApiToken = apps.get_model("accounts", "ApiToken")
    for old in Token.objects.all():
        ApiToken.objects.create(
            user_id=old.user_id,
            name="API token",
            digest=hashlib.sha256(old.key.encode("utf-8")).hexdigest(),
            prefix=old.key[:6],
            created_at=old.created,
        )
    Token.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_api_tokens"),
        ("authtoken", "0004_alter_tokenproxy_options"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
