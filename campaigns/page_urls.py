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
MISSION = f"{CAMPAIGN}/missions/<uuid:mission_id>"
PILOT = f"{CAMPAIGN}/pilots/<uuid:pilot_id>"
BUILD = f"{CAMPAIGN}/builds/<uuid:build_id>"
BOARD = f"{CAMPAIGN}/boards/<uuid:board_id>"

urlpatterns = [
    path("campaigns/", campaign.campaign_list_page, name="campaign-list"),
    path(f"{CAMPAIGN}/", campaign.campaign_page, name="campaign-page"),
    path(f"{CAMPAIGN}/do/<slug:action>", campaign.campaign_action, name="campaign-action"),
    path(f"{PILOT}/", pilot.pilot_sheet_page, name="pilot-sheet"),
    path(f"{PILOT}/adjust/<slug:kind>", pilot.pilot_adjust, name="pilot-adjust"),
    path(f"{CAMPAIGN}/builds/", builds.build_list_page, name="build-list"),
    path(f"{CAMPAIGN}/builds/new/", deck_builder.deck_builder_page, name="build-new"),
    path(
        f"{CAMPAIGN}/builds/from-starter/",
        builds.build_from_starter_page,
        name="build-from-starter",
    ),
    path(f"{BUILD}/", builds.build_page, name="build-page"),
    path(f"{BUILD}/edit/", deck_builder.deck_builder_page, name="build-edit"),
    path(f"{BUILD}/diff/", builds.build_diff_page, name="build-diff"),
    path(f"{BUILD}/sheet/", builds.build_sheet_page, name="build-sheet"),
    path(f"{BUILD}/update-cards/", builds.build_cards_update_page, name="build-update-cards"),
    path(f"{MISSION}/", mission.mission_page, name="mission-page"),
    path(f"{MISSION}/start/", wizard.mission_wizard_page, name="mission-wizard"),
    path("join/<str:token>/", people.join_page, name="campaign-join"),
    path("accounts/profile/", people.profile_page, name="profile"),
]

urlpatterns += [
    path(f"{CAMPAIGN}/boards/", boards.board_list_page, name="board-list"),
    path(f"{BOARD}/", boards.board_editor_page, name="board-editor"),
    path(f"{BOARD}/paint", boards.board_paint, name="board-paint"),
    path(f"{BOARD}/delete", boards.board_delete, name="board-delete"),
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
