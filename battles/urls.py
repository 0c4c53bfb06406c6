from django.urls import path

from . import battles_api, rules_api, streams

urlpatterns = [
    path("rules/", rules_api.RulesIndexView.as_view(), name="rules-index"),
    path("rules/line-of-sight", rules_api.LineOfSightView.as_view(), name="rules-los"),
    path("rules/to-hit", rules_api.ToHitView.as_view(), name="rules-to-hit"),
    path("rules/visibility", rules_api.VisibilityView.as_view(), name="rules-visibility"),
    path("rules/reachable", rules_api.ReachableView.as_view(), name="rules-reachable"),
    path("battles/", battles_api.BattleListView.as_view(), name="battles"),
    path("battles/import", battles_api.BattleImportView.as_view(), name="battles-import"),
    path(
        "battles/<uuid:battle_id>/", battles_api.BattleDetailView.as_view(), name="battles-detail"
    ),
    path(
        "battles/<uuid:battle_id>/commands",
        battles_api.BattleCommandView.as_view(),
        name="battles-commands",
    ),
    path(
        "battles/<uuid:battle_id>/events",
        battles_api.BattleEventsView.as_view(),
        name="battles-events",
    ),
    path(
        "battles/<uuid:battle_id>/state",
        battles_api.BattleStateView.as_view(),
        name="battles-state",
    ),
    path(
        "battles/<uuid:battle_id>/legal-actions",
        battles_api.BattleLegalActionsView.as_view(),
        name="battles-legal-actions",
    ),
    path(
        "battles/<uuid:battle_id>/verify",
        battles_api.BattleVerifyView.as_view(),
        name="battles-verify",
    ),
    path(
        "battles/<uuid:battle_id>/setup",
        battles_api.BattleSetupView.as_view(),
        name="battles-setup",
    ),
    path(
        "battles/<uuid:battle_id>/export",
        battles_api.BattleExportView.as_view(),
        name="battles-export",
    ),
    path(
        "battles/<uuid:battle_id>/watchers",
        battles_api.BattleWatchersView.as_view(),
        name="battles-watchers",
    ),
]
urlpatterns += [
    path(
        "battles/<uuid:battle_id>/updates",
        battles_api.BattleUpdatesView.as_view(),
        name="battles-updates",
    ),
]
urlpatterns += [
    path("battles/<uuid:battle_id>/stream", streams.battle_stream, name="battles-stream"),
]
