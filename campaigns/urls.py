"""The campaigns API under /api/ (campaigns.api), and the card catalogue (campaigns.cards_api)."""

from django.urls import path

from . import api, cards_api

CAMPAIGN = "campaigns/<uuid:campaign_id>"

urlpatterns = [
    path("campaigns/", api.CampaignListView.as_view(), name="campaigns"),
    path(f"{CAMPAIGN}/", api.CampaignDetailView.as_view(), name="campaigns-detail"),
    path(f"{CAMPAIGN}/events", api.CampaignEventsView.as_view(), name="campaigns-events"),
    path(f"{CAMPAIGN}/players", api.CampaignPlayersView.as_view(), name="campaigns-players"),
    path(f"{CAMPAIGN}/missions", api.MissionListView.as_view(), name="campaigns-missions"),
    path(
        f"{CAMPAIGN}/missions/<uuid:mission_id>/",
        api.MissionDetailView.as_view(),
        name="campaigns-missions-detail",
    ),
    path(
        f"{CAMPAIGN}/missions/<uuid:mission_id>/start",
        api.MissionStartView.as_view(),
        name="campaigns-missions-start",
    ),
    path(f"{CAMPAIGN}/pilots", api.PilotListView.as_view(), name="campaigns-pilots"),
    path(
        f"{CAMPAIGN}/pilots/<uuid:pilot_id>/",
        api.PilotDetailView.as_view(),
        name="campaigns-pilots-detail",
    ),
    path(
        f"{CAMPAIGN}/pilots/<uuid:pilot_id>/career",
        api.PilotCareerView.as_view(),
        name="campaigns-pilots-career",
    ),
    path(
        f"{CAMPAIGN}/pilots/<uuid:pilot_id>/adjustments",
        api.PilotAdjustmentsView.as_view(),
        name="campaigns-pilots-adjustments",
    ),
    path(f"{CAMPAIGN}/builds", api.BuildListView.as_view(), name="campaigns-builds"),
    path(
        f"{CAMPAIGN}/builds/<uuid:build_id>/",
        api.BuildDetailView.as_view(),
        name="campaigns-builds-detail",
    ),
    path(
        f"{CAMPAIGN}/builds/<uuid:build_id>/revisions",
        api.BuildRevisionsView.as_view(),
        name="campaigns-builds-revisions",
    ),
    path(
        f"{CAMPAIGN}/builds/<uuid:build_id>/versions/<int:version>/",
        api.BuildVersionView.as_view(),
        name="campaigns-builds-version",
    ),
    path(
        f"{CAMPAIGN}/builds/<uuid:build_id>/repair",
        api.BuildRepairView.as_view(),
        name="campaigns-builds-repair",
    ),
    *cards_api.urlpatterns,
]
