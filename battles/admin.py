"""A read-only admin of battles: the rows name who plays; the event stream is the battle.

Nothing here writes: a battle changes only through its commands (battles/services.py).
"""

from __future__ import annotations

from django.contrib import admin

from penance_site.admin_readonly import ReadOnly, ReadOnlyInline

from .models import Battle, BattleSeat, BattleWatcher


class SeatInline(ReadOnlyInline):
    model = BattleSeat


class WatcherInline(ReadOnlyInline):
    model = BattleWatcher


@admin.register(Battle)
class BattleAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "gm", "status", "winner", "version", "created_at")
    list_filter = ("status", "dice_mode", "policy")
    search_fields = ("name", "gm__username", "seats__player__username")
    inlines = (SeatInline, WatcherInline)
