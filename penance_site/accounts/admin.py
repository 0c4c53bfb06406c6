"""Staff see every API token (name, owner, first characters, when made and last used) and
may revoke one (delete); keys are never shown or made here: a token's owner makes it on
their profile page, where its key is shown once (accounts/tokens.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from rest_framework.authtoken.models import TokenProxy

from .models import ApiToken

# rest_framework.authtoken's single tokens are no longer read (migration accounts 0003
# carried them over): its admin page would only mislead.
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "user", "prefix", "created_at", "last_used_at")
    list_filter = ("created_at",)
    search_fields = ("name", "user__username", "prefix")
    readonly_fields = ("user", "name", "prefix", "created_at", "last_used_at")
    exclude = ("digest",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
