"""The campaign pages (issue 14), server-rendered: campaigns.pages."""

from django.urls import path

from . import board_pages, pages

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
    path(f"{CAMPAIGN}/builds/", pages.build_list_page, name="build-list"),
    path(f"{CAMPAIGN}/builds/new/", pages.deck_builder_page, name="build-new"),
    path(f"{CAMPAIGN}/builds/<uuid:build_id>/", pages.build_page, name="build-page"),
    path(f"{CAMPAIGN}/builds/<uuid:build_id>/edit/", pages.deck_builder_page, name="build-edit"),
    path(f"{CAMPAIGN}/builds/<uuid:build_id>/diff/", pages.build_diff_page, name="build-diff"),
    path(f"{CAMPAIGN}/missions/<uuid:mission_id>/", pages.mission_page, name="mission-page"),
    path(
        f"{CAMPAIGN}/missions/<uuid:mission_id>/start/",
        pages.mission_wizard_page,
        name="mission-wizard",
    ),
    path("join/<str:token>/", pages.join_page, name="campaign-join"),
    path("accounts/profile/", pages.profile_page, name="profile"),
]

urlpatterns += [
    path(f"{CAMPAIGN}/boards/", board_pages.board_list_page, name="board-list"),
    path(f"{CAMPAIGN}/boards/<uuid:board_id>/", board_pages.board_editor_page, name="board-editor"),
    path(f"{CAMPAIGN}/boards/<uuid:board_id>/paint", board_pages.board_paint, name="board-paint"),
    path(
        f"{CAMPAIGN}/boards/<uuid:board_id>/delete", board_pages.board_delete, name="board-delete"
    ),
]
