"""A view-only admin mixin for rows that services write (battles, campaigns).

Those rows are read models or membership records kept in step with event streams;
an admin form that edited them would bypass the events, so the admin only shows them.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


class ReadOnly:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(ReadOnly, admin.TabularInline):  # type: ignore[type-arg]
    """A view-only table of a row's children, with no empty rows to fill in."""

    extra = 0
