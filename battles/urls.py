from django.urls import path

from . import rules_api

urlpatterns = [
    path("rules/", rules_api.RulesIndexView.as_view(), name="rules-index"),
    path("rules/line-of-sight", rules_api.LineOfSightView.as_view(), name="rules-los"),
    path("rules/to-hit", rules_api.ToHitView.as_view(), name="rules-to-hit"),
    path("rules/visibility", rules_api.VisibilityView.as_view(), name="rules-visibility"),
    path("rules/reachable", rules_api.ReachableView.as_view(), name="rules-reachable"),
]
