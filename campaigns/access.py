"""Who may see and change what in a campaign (R-ADD-31), one check for the API and the pages.

Anonymous users never get this far (the API answers 401, the pages send them to log in).
The GM and the campaign's players read everything in it; anyone else gets 404 for a
private campaign (they may not learn it exists) and 403 for a public one. The GM makes
every change; a player creates and revises their own builds. The card catalogue is
changed by staff only.

The refusals are Django's `Http404` and `PermissionDenied`: the pages render them as the
404 and 403 pages, and DRF's exception handler turns them into its `NotFound` and
`PermissionDenied` with the same message (penance_site/api.py gives them the refusal shape).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404

from . import selectors
from .models import Campaign

GM = "gm"


def campaign_for(*, campaign_id: uuid.UUID, user: Any) -> tuple[Campaign, str]:
    """The campaign and the user's role in it (`gm` or `player`): 404 when there is none
    or it is private and not theirs, 403 when it is public and not theirs (R-ADD-31)."""
    found = selectors.campaign_get_for(campaign_id=campaign_id, user=user)
    if found is None:
        raise Http404("no such campaign")
    campaign, role = found
    if role is None:
        raise PermissionDenied("you are not the GM or a player of this campaign")
    return campaign, role


def gm_only(role: str, what: str = "may do this") -> None:
    """403 unless the user is the campaign's GM; `what` says what only the GM does."""
    if role != GM:
        raise PermissionDenied(f"only the campaign's GM {what} (R-ADD-31)")


def may_edit_build(*, role: str, owner: str, user: Any) -> bool:
    """The GM edits every build; a player only their own (R-ADD-31)."""
    return role == GM or owner == user.get_username()


def build_editor_only(*, role: str, owner: str, user: Any) -> None:
    """403 unless the user may revise a build of `owner` (R-ADD-31)."""
    if not may_edit_build(role=role, owner=owner, user=user):
        raise PermissionDenied("players revise only their own builds (R-ADD-31)")


def staff_only(user: Any) -> None:
    """403 unless the user is staff: the card catalogue is the site's, not a campaign's."""
    if not user.is_staff:
        raise PermissionDenied("only staff change the card catalogue")
