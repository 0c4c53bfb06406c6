from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "penance_site.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Every login (the site's form, the admin's, the API's token) goes through
        # django.contrib.auth.authenticate; its signals count failures and clear them.
        from django.core import checks

        from penance_site.dice_keys import dice_key_check

        from . import services

        services.connect_signals()
        # No dice key with DEBUG off: manage.py refuses to run (penance_site/dice_keys.py).
        checks.register(dice_key_check, checks.Tags.security)
