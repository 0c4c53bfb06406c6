"""The campaign pages' URLs, server-rendered: campaigns.pages, one module per screen."""

from django.urls import path

from .pages import (
    boards,
    builds,
    campaign,
    deck_builder,
    mission,
    people,
    pilot,
    settlement,
    wizard,
)

CAMPAIGN = "campaigns/<uuid:campaign_id>"

urlpatterns = [
    path("campaigns/", campaign.campaign_list_page, name="campaign-list"),
    path(f"{CAMPAIGN}/", campaign.campaign_page, name="campaign-page"),
    path(f"{CAMPAIGN}/do/<slug:action>", campaign.campaign_action, name="campaign-action"),
    path(f"{CAMPAIGN}/pilots/<uuid:pilot_id>/", pilot.pilot_sheet_page, name="pilot-sheet"),
    path(
        f"{CAMPAIGN}/pilots/<uuid:pilot_id>/adjust/<slug:kind>",
        pilot.pilot_adjust,
        name="pilot-adjust",
    ),
    path(f"{CAMPAIGN}/builds/", builds.build_list_page, name="build-list"),
    path(f"{CAMPAIGN}/builds/new/", deck_builder.deck_builder_page, name="build-new"),
    path(
        f"{CAMPAIGN}/builds/from-starter/",
        builds.build_from_starter_page,
        name="build-from-starter",
    ),
    path(f"{CAMPAIGN}/builds/<uuid:build_id>/", builds.build_page, name="build-page"),
    path(
        f"{CAMPAIGN}/builds/<uuid:build_id>/edit/",
        deck_builder.deck_builder_page,
        name="build-edit",
    ),
    path(f"{CAMPAIGN}/builds/<uuid:build_id>/diff/", builds.build_diff_page, name="build-diff"),
    path(f"{CAMPAIGN}/builds/<uuid:build_id>/sheet/", builds.build_sheet_page, name="build-sheet"),
    path(
        f"{CAMPAIGN}/builds/<uuid:build_id>/update-cards/",
        builds.build_cards_update_page,
        name="build-update-cards",
    ),
    path(f"{CAMPAIGN}/missions/<uuid:mission_id>/", mission.mission_page, name="mission-page"),
    path(
        f"{CAMPAIGN}/missions/<uuid:mission_id>/start/",
        wizard.mission_wizard_page,
        name="mission-wizard",
    ),
    path("join/<str:token>/", people.join_page, name="campaign-join"),
    path("accounts/profile/", people.profile_page, name="profile"),
]

urlpatterns += [
    path(f"{CAMPAIGN}/boards/", boards.board_list_page, name="board-list"),
    path(f"{CAMPAIGN}/boards/<uuid:board_id>/", boards.board_editor_page, name="board-editor"),
    path(f"{CAMPAIGN}/boards/<uuid:board_id>/paint", boards.board_paint, name="board-paint"),
    path(f"{CAMPAIGN}/boards/<uuid:board_id>/delete", boards.board_delete, name="board-delete"),
]

# --- the settlement between missions (pc-1 rules, R-ADD-230) ---
urlpatterns += [
    path(f"{CAMPAIGN}/settlement/", settlement.settlement_page, name="settlement-page"),
    path(
        f"{CAMPAIGN}/settlement/do/<slug:command>",
        settlement.settlement_command,
        name="settlement-command",
    ),
]
