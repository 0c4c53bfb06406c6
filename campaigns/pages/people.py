"""People: invitation links (join, or sign up and join, R-ADD-31) and the signed-in
user's profile (campaigns, password, API tokens)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from penance_site.accounts import tokens
from penance_site.users import signed_in

from .. import selectors, services
from .common import (
    GET_POST,
    GET_POST_ANYONE,
    FormError,
    redirect_to,
)


@GET_POST_ANYONE
def join_page(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation link: a signed-in user joins with one button; anyone else signs up here
    (username and password, no email) and joins at once (R-ADD-31)."""
    campaign = services.campaign_of_invite(token=token)
    if campaign is None:
        error = FormError("invite", "this invitation link is not valid or has expired")
        return render(request, "campaigns/join.html", {"errors": [error]}, status=400)
    form: UserCreationForm[User] = UserCreationForm(
        request.POST if request.method == "POST" else None
    )
    if request.method == "POST":
        if request.user.is_authenticated:
            services.campaign_invite_accept(token=token, user=signed_in(request.user))
            return redirect_to("campaign-page", campaign.id)
        if form.is_valid():
            with transaction.atomic():
                user = form.save()
                services.campaign_invite_accept(token=token, user=user)
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            return redirect_to("campaign-page", campaign.id)
        errors = [
            FormError("password" if field == "__all__" else field, str(message))
            for field, messages in form.errors.items()
            for message in messages
        ]
        context = {"campaign": campaign, "form": form, "errors": errors, "token": token}
        return render(request, "campaigns/join.html", context, status=400)
    role = selectors.campaign_role(campaign=campaign, user=request.user)
    context = {"campaign": campaign, "form": form, "role": role, "token": token}
    return render(request, "campaigns/join.html", context)


@GET_POST
def profile_page(request: HttpRequest) -> HttpResponse:
    """The signed-in user's own page: their campaigns, password change, and their API
    tokens: as many as they like, each named, each revoked on its own. A new token's key
    is shown once, right after it is made (only its digest is stored)."""
    if request.method == "POST":
        action = request.POST.get("action")
        user: Any = request.user
        error = None
        if action == "create_token":
            try:
                token, key = tokens.api_token_create(user=user, name=request.POST.get("name", ""))
            except tokens.TokenRefused as exc:
                error = FormError(exc.field, exc.message)
            else:
                request.session["new_token"] = {"id": token.pk, "key": key}
        elif action == "revoke_token":
            raw = request.POST.get("token", "")
            if not (raw.isascii() and raw.isdigit()) or not tokens.api_token_revoke(
                user=user, token_id=int(raw)
            ):
                error = FormError("token", "you hold no token with this id")
        else:
            error = FormError("action", "must be create_token or revoke_token")
        if error is not None:
            context = _profile_context(request, [error])
            context["form"] = request.POST
            return render(request, "campaigns/profile.html", context, status=400)
        return redirect_to("profile", anchor="tokens")
    context = _profile_context(request, [])
    context["new_token"] = request.session.pop("new_token", None)
    return render(request, "campaigns/profile.html", context)


def _profile_context(request: HttpRequest, errors: list[FormError]) -> dict[str, Any]:
    return {
        "errors": errors,
        "tokens": tokens.api_tokens_of(user=request.user),  # type: ignore[arg-type]
        "max_tokens": tokens.MAX_TOKENS,
        "campaigns": selectors.campaign_list_for(user=request.user).select_related("gm"),
    }
