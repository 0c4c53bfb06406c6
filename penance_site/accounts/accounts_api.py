"""API sign-in for clients that are not browsers: a token for username and password, and
logout. Failed attempts count toward the lockout (accounts/services.py)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, logout
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from penance_site.api import ErrorsOutput, RefusalOutput, refusal, validated
from penance_site.api_fields import StrictSerializer

from .models import ApiToken
from .services import client_address, login_lockout
from .tokens import MAX_TOKENS, HashedTokenAuthentication, api_token_sign_in


class TokenInput(StrictSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)


class RevokedTokenOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField()
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)


class TokenOutput(serializers.Serializer[Any]):
    token = serializers.CharField()
    revoked = RevokedTokenOutput(many=True, help_text="tokens revoked to stay within the limit")
    message = serializers.CharField(required=False)


class TokenView(APIView):
    authentication_classes = ()  # credentials in the body; no session, so no CSRF
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="auth_token",
        summary="A token for username and password (send it as `Authorization: Token …`)",
        request=TokenInput,
        responses={
            200: TokenOutput,
            400: OpenApiResponse(ErrorsOutput, "missing fields, or wrong username or password"),
            429: OpenApiResponse(
                RefusalOutput,
                "locked out (this username from this address, or this address) or slowed "
                "down (this username) after repeated failures; Retry-After says how long",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = validated(TokenInput, request.data)
        username = data["username"]
        lockout = login_lockout(username=username, address=client_address(request._request))
        if lockout is not None:
            # The same answer whether or not the username exists (R-ADD-202).
            return Response(
                refusal("locked_out", lockout.message),
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(lockout.retry_after)},
            )
        user = authenticate(request._request, username=username, password=data["password"])
        if user is None or not user.is_active:
            error = {"field": "password", "message": "wrong username or password", "rule": None}
            return Response({"errors": [error]}, status=status.HTTP_400_BAD_REQUEST)
        # Each sign-in makes a token of its own (only digests are kept, so an earlier key
        # cannot be handed out again); API logout deletes it, the profile page lists it.
        signed = api_token_sign_in(user=user)
        body: dict[str, Any] = {"token": signed.key, "revoked": signed.revoked}
        if signed.revoked:
            names = ", ".join(f"{t['name']} ({t['prefix']}…)" for t in signed.revoked)
            body["message"] = (
                f"at most {MAX_TOKENS} API tokens per user: revoked to make room (never used "
                f"first, then used longest ago): {names}"
            )
        return Response(body)


class LogoutView(APIView):
    authentication_classes = (HashedTokenAuthentication, SessionAuthentication)
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        operation_id="auth_logout",
        summary="Sign out: deletes the token used, or ends the session",
        request=None,
        responses={204: None, 401: OpenApiResponse(RefusalOutput, "not signed in")},
    )
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, ApiToken):
            request.auth.delete()
        else:
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)
