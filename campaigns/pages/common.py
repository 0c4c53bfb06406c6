"""What every campaign page shares: the allowed methods (with the NUL-character refusal and
the sign-in every page but the invitation link wants), the campaign and the user's role
(access.py, R-ADD-31), the refusal shown on a page (`FormError`), redirects after a POST,
and whole-number form fields."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from battles.engine.errors import InvalidInput, RuleViolation

from .. import access, services
from ..models import Campaign


def _no_nul(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Refuse form and query values holding a NUL character (PostgreSQL stores no NUL in
    text) with a 400 naming the field, before the view reads them."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        for data in (request.GET, request.POST):
            for key, values in data.lists():
                if "\x00" in key or any("\x00" in v for v in values):
                    error = FormError(key.replace("\x00", ""), "must not contain NUL characters")
                    context = {"errors": [error]}
                    return render(request, "campaigns/refused.html", context, status=400)
        return view(request, *args, **kwargs)

    return wrapped


def _methods(
    *methods: str, login: bool = True
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        guarded = login_required(view) if login else view
        return require_http_methods(list(methods))(_no_nul(guarded))

    return decorate


# Every campaign page wants a signed-in user (anyone else is sent to log in, R-ADD-31),
# but the invitation link, where a visitor signs up and joins.
GET_POST = _methods("GET", "HEAD", "POST")
GET_ONLY = _methods("GET", "HEAD")
POST_ONLY = _methods("POST")
GET_POST_ANYONE = _methods("GET", "HEAD", "POST", login=False)

# --- access and errors ---------------------------------------------------------------------------


def campaign_of(request: HttpRequest, campaign_id: uuid.UUID) -> tuple[Campaign, str]:
    """The campaign and the user's role: 404 for a private campaign they are not part of,
    403 for a public one (access.campaign_for, R-ADD-31)."""
    return access.campaign_for(campaign_id=campaign_id, user=request.user)


def gm_campaign_of(request: HttpRequest, campaign_id: uuid.UUID) -> Campaign:
    """The campaign, as `campaign_of` answers it, for its GM only: 403 for its players
    (access.gm_only, R-ADD-31)."""
    campaign, role = campaign_of(request, campaign_id)
    access.gm_only(role)
    return campaign


@dataclass(frozen=True)
class FormError:
    """A refusal shown on a page: the field (or None for the whole form), the message and
    the ruling behind it."""

    field: str | None
    message: str
    rule: str | None = None
    code: str | None = None

    @classmethod
    def of(cls, exc: Exception) -> list[FormError]:
        # A deck's every violation, or a deck list's every bad line (R-ADD-221).
        extra = getattr(exc, "extra_errors", None)
        if isinstance(exc, services.DeckRejected) or (isinstance(exc, InvalidInput) and extra):
            return [cls(e["field"], e["message"], e["rule"], e.get("code")) for e in extra or ()]
        if isinstance(exc, InvalidInput):
            return [cls(exc.field, exc.message, exc.rule)]
        if isinstance(exc, RuleViolation):
            return [cls(None, exc.message, exc.rule, exc.code)]
        raise TypeError(exc)


REFUSALS = (InvalidInput, RuleViolation)


def refused_form(
    request: HttpRequest, template: str, context: dict[str, Any], exc: Exception, action: str
) -> HttpResponse:
    """A page's form refused (400): the page again with the refusal, the form that failed
    and the values sent, so the form shows them."""
    context = {**context, "errors": FormError.of(exc), "failed_action": action}
    return render(request, template, {**context, "form": request.POST}, status=400)


def redirect_to(name: str, *args: object, anchor: str = "") -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse(name, args=args) + (f"#{anchor}" if anchor else ""))


def int_field(data: Mapping[str, str], name: str, rule: str | None = None) -> int:
    raw = (data.get(name) or "").strip()
    try:
        return int(raw)
    except ValueError:
        raise InvalidInput(name, f"must be a whole number, not {raw[:20]!r}", rule) from None


def whole(raw: str, field: str, rule: str) -> int:
    raw = raw.strip()
    sign = raw[:1] == "-"
    digits = raw[1:] if sign else raw
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 6:
        raise InvalidInput(field, f"must be a whole number, not {raw[:20]!r}", rule)
    return -int(digits) if sign else int(digits)
