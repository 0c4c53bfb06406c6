"""`GET /api/campaigns/{id}/export`: the whole campaign as one JSON file, for its GM
(campaigns/portability.py, R-ADD-207). A player gets 403; anyone else 404 for a private
campaign and 403 for a public one, as every campaign endpoint answers (R-ADD-31)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from .campaigns_api import READ_ERRORS, TAGS, CampaignsView
from .portability import FORMAT, campaign_export


class CampaignExportView(CampaignsView):
    @extend_schema(
        operation_id="campaigns_export",
        summary="The whole campaign as one file (GM only), for manage.py import_campaign",
        description=(
            f"Format `{FORMAT}`: the campaign's events, its battles' events, each with its "
            "digest, its builds, boards and the card versions its builds use, and a digest "
            "of the whole document. Another site imports it with `manage.py import_campaign` "
            "or the admin's import page, which refuses a changed file (R-ADD-207)."
        ),
        responses={200: OpenApiResponse(description=f"a {FORMAT} document"), **READ_ERRORS},
        tags=TAGS,
    )
    def get(self, request: Request, campaign_id: UUID) -> Response:
        campaign, role = self.campaign(request, campaign_id)
        self.gm_only(role, "exports the campaign")
        document: dict[str, Any] = campaign_export(campaign=campaign)
        filename = f"campaign-{campaign.id}.json"
        return Response(
            document, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
        )
