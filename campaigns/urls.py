"""The campaigns API under /api/ (campaigns.campaigns_api), and the card catalogue (campaigns.cards_api)."""

from django.urls import path

from . import campaigns_api, cards_api, portability_api, settlement_api

CAMPAIGN = "campaigns/<uuid:campaign_id>"
MISSION = f"{CAMPAIGN}/missions/<uuid:mission_id>"
PILOT = f"{CAMPAIGN}/pilots/<uuid:pilot_id>"
BUILD = f"{CAMPAIGN}/builds/<uuid:build_id>"

urlpatterns = [
    path("campaigns/", campaigns_api.CampaignListView.as_view(), name="campaigns"),
    path(f"{CAMPAIGN}/", campaigns_api.CampaignDetailView.as_view(), name="campaigns-detail"),
    path(f"{CAMPAIGN}/events", campaigns_api.CampaignEventsView.as_view(), name="campaigns-events"),
    path(
        f"{CAMPAIGN}/export", portability_api.CampaignExportView.as_view(), name="campaigns-export"
    ),
    path(
        f"{CAMPAIGN}/players", campaigns_api.CampaignPlayersView.as_view(), name="campaigns-players"
    ),
    path(
        f"{CAMPAIGN}/missions", campaigns_api.MissionListView.as_view(), name="campaigns-missions"
    ),
    path(
        f"{MISSION}/", campaigns_api.MissionDetailView.as_view(), name="campaigns-missions-detail"
    ),
    path(
        f"{MISSION}/start",
        campaigns_api.MissionStartView.as_view(),
        name="campaigns-missions-start",
    ),
    path(f"{CAMPAIGN}/pilots", campaigns_api.PilotListView.as_view(), name="campaigns-pilots"),
    path(f"{PILOT}/", campaigns_api.PilotDetailView.as_view(), name="campaigns-pilots-detail"),
    path(
        f"{PILOT}/career", campaigns_api.PilotCareerView.as_view(), name="campaigns-pilots-career"
    ),
    path(
        f"{PILOT}/adjustments",
        campaigns_api.PilotAdjustmentsView.as_view(),
        name="campaigns-pilots-adjustments",
    ),
    path(f"{CAMPAIGN}/builds", campaigns_api.BuildListView.as_view(), name="campaigns-builds"),
    path(
        f"{CAMPAIGN}/builds/decklist",
        campaigns_api.DeckListImportView.as_view(),
        name="campaigns-builds-decklist-create",
    ),
    path(
        f"{BUILD}/decklist",
        campaigns_api.BuildDeckListView.as_view(),
        name="campaigns-builds-decklist",
    ),
    path(f"{BUILD}/", campaigns_api.BuildDetailView.as_view(), name="campaigns-builds-detail"),
    path(
        f"{BUILD}/revisions",
        campaigns_api.BuildRevisionsView.as_view(),
        name="campaigns-builds-revisions",
    ),
    path(
        f"{BUILD}/versions/<int:version>/",
        campaigns_api.BuildVersionView.as_view(),
        name="campaigns-builds-version",
    ),
    path(
        f"{BUILD}/repair", campaigns_api.BuildRepairView.as_view(), name="campaigns-builds-repair"
    ),
    *cards_api.urlpatterns,
    # --- the settlement between missions (pc-1 rules, R-ADD-230) ---
    path(
        f"{CAMPAIGN}/settlement",
        settlement_api.SettlementView.as_view(),
        name="campaigns-settlement",
    ),
    path(
        f"{CAMPAIGN}/settlement/commands",
        settlement_api.SettlementCommandsView.as_view(),
        name="campaigns-settlement-commands",
    ),
    path(
        f"{CAMPAIGN}/settlement/dice",
        settlement_api.SettlementDiceView.as_view(),
        name="campaigns-settlement-dice",
    ),
]
