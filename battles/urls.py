from django.urls import path
from rest_framework.views import APIView

from . import battles_api, rules_api, streams

BATTLE = "battles/<uuid:battle_id>"

# The API's endpoints, each a class-based view: its path, its view and the URL's name.
ENDPOINTS: tuple[tuple[str, type[APIView], str], ...] = (
    ("rules/", rules_api.RulesIndexView, "rules-index"),
    ("rules/line-of-sight", rules_api.LineOfSightView, "rules-los"),
    ("rules/to-hit", rules_api.ToHitView, "rules-to-hit"),
    ("rules/visibility", rules_api.VisibilityView, "rules-visibility"),
    ("rules/reachable", rules_api.ReachableView, "rules-reachable"),
    ("battles/", battles_api.BattleListView, "battles"),
    ("battles/import", battles_api.BattleImportView, "battles-import"),
    (f"{BATTLE}/", battles_api.BattleDetailView, "battles-detail"),
    (f"{BATTLE}/commands", battles_api.BattleCommandView, "battles-commands"),
    (f"{BATTLE}/events", battles_api.BattleEventsView, "battles-events"),
    (f"{BATTLE}/state", battles_api.BattleStateView, "battles-state"),
    (f"{BATTLE}/legal-actions", battles_api.BattleLegalActionsView, "battles-legal-actions"),
    (f"{BATTLE}/verify", battles_api.BattleVerifyView, "battles-verify"),
    (f"{BATTLE}/setup", battles_api.BattleSetupView, "battles-setup"),
    (f"{BATTLE}/export", battles_api.BattleExportView, "battles-export"),
    (f"{BATTLE}/watchers", battles_api.BattleWatchersView, "battles-watchers"),
    (f"{BATTLE}/updates", battles_api.BattleUpdatesView, "battles-updates"),
)

urlpatterns = [path(route, view.as_view(), name=name) for route, view, name in ENDPOINTS]
urlpatterns += [
    path(f"{BATTLE}/stream", streams.battle_stream, name="battles-stream"),
]
