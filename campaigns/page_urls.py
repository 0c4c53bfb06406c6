"""The campaign pages (issue 14), server-rendered: campaigns.pages."""

from django.urls import path

from . import pages

CAMPAIGN = "campaigns/<uuid:campaign_id>"

urlpatterns = [
    path("campaigns/", pages.campaign_list_page, name="campaign-list"),
    path(f"{CAMPAIGN}/", pages.campaign_page, name="campaign-page"),
    path(f"{CAMPAIGN}/do/<slug:action>", pages.campaign_action, name="campaign-action"),
    path(f"{CAMPAIGN}/pilots/<uuid:pilot_id>/", pages.pilot_sheet_page, name="pilot-sheet"),
    path(
        f"{CAMPAIGN}/pilots/<uuid:pilot_id>/adjust/<slug:kind>",
        pages.pilot_adjust,
        name="pilot-adjust",
    ),
]
