from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "penance_site.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Every login (the site's form, the admin's, the API's token) goes through
        # django.contrib.auth.authenticate; its signals count failures and clear them.
        from . import services

        services.connect_signals()
