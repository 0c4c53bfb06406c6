"""API-wide error shape: every 4xx names the field and, where one applies, the rule."""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import resolve
from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from battles.engine.errors import InvalidInput, RuleViolation
from penance_site.accounts.tokens import HashedTokenAuthentication
from penance_site.eventstore.store import CommandIdReused, ConcurrencyError
from penance_site.parsers import LimitedJSONParser


# The error shapes every endpoint answers with, for the OpenAPI schema.
class ErrorItem(serializers.Serializer[Any]):
    field = serializers.CharField(allow_null=True)
    message = serializers.CharField()
    rule = serializers.CharField(allow_null=True)


class ErrorsOutput(serializers.Serializer[Any]):
    # A declared field named like Serializer.errors: DRF's metaclass moves declared fields
    # out of the class namespace, so the property is untouched at run time; the stubs
    # cannot see that.
    errors = ErrorItem(many=True)  # type: ignore[assignment]


class RefusalOutput(serializers.Serializer[Any]):
    code = serializers.CharField()
    message = serializers.CharField()
    rule = serializers.CharField(allow_null=True)


class ConflictOutput(serializers.Serializer[Any]):
    code = serializers.ChoiceField(choices=("stale_version", "command_id_reused"))
    message = serializers.CharField()
    current_version = serializers.IntegerField(required=False)


def request_example(name: str, value: Any) -> OpenApiExample:
    """An example of a request body for the schema (an answer's example is written out)."""
    return OpenApiExample(name, value=value, request_only=True)


class SignedInView(APIView):
    """The base of the battle, campaign and card endpoints: JSON in, a signed-in user."""

    # Token first: its WWW-Authenticate header turns an anonymous request into a 401.
    authentication_classes = (HashedTokenAuthentication, SessionAuthentication)
    permission_classes = (IsAuthenticated,)
    parser_classes = (LimitedJSONParser,)


def validated(serializer_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    """`data` (a body or a query string) as `serializer_class` reads it; otherwise a 400
    that names each field (exception_handler below)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def invalid_input_response(exc: InvalidInput) -> Response:
    # Some refusals carry every violation at once (a deck, campaigns.services.DeckRejected).
    errors = getattr(exc, "extra_errors", None) or [
        {"field": exc.field, "message": exc.message, "rule": exc.rule}
    ]
    return Response({"errors": errors}, status=status.HTTP_400_BAD_REQUEST)


def _flatten(detail: Any, prefix: str = "") -> list[dict[str, Any]]:
    if isinstance(detail, dict):
        out: list[dict[str, Any]] = []
        for key, value in detail.items():
            if isinstance(key, int):  # ListField reports items by index
                path = f"{prefix}[{key}]"
            elif key == "non_field_errors":
                path = prefix
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            out.extend(_flatten(value, path))
        return out
    if isinstance(detail, list):
        if all(not isinstance(d, dict | list) for d in detail):
            return [{"field": prefix or None, "message": str(d), "rule": None} for d in detail]
        out = []
        for i, value in enumerate(detail):
            out.extend(_flatten(value, f"{prefix}[{i}]"))
        return out
    return [{"field": prefix or None, "message": str(detail), "rule": None}]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF exception handler: engine errors become 400/422 with field and rule, the event
    store's refusals 409 (the client reads the stream again and retries)."""
    if isinstance(exc, ConcurrencyError):
        return Response(
            {"code": "stale_version", "message": str(exc), "current_version": exc.actual},
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, CommandIdReused):
        return Response(
            {"code": "command_id_reused", "message": str(exc)}, status=status.HTTP_409_CONFLICT
        )
    if isinstance(exc, InvalidInput):
        return invalid_input_response(exc)
    if isinstance(exc, RuleViolation):
        return Response(
            {"code": exc.code, "message": exc.message, "rule": exc.rule},
            status=status.HTTP_422_UNPROCESSABLE_ENTITY,
        )
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, ValidationError):
        response.data = {"errors": _flatten(exc.detail)}
    elif response is not None and isinstance(exc, ParseError):
        response.data = {"errors": [{"field": None, "message": str(exc.detail), "rule": None}]}
    elif response is not None and isinstance(response.data, dict) and "detail" in response.data:
        # 401, 403 (CSRF included), 404, 405, 406, 413, 415, 429: the refusal shape. Django's
        # Http404 and PermissionDenied arrive here too, turned into DRF's by its handler.
        detail = response.data["detail"]
        code = getattr(detail, "code", None) or "error"
        response.data = refusal(str(code), str(detail), rule=_rule_in(detail))
    return response


_RULE = re.compile(r"\bR-[A-Z]{2,4}-\d+\b")


def _rule_in(text: object) -> str | None:
    match = _RULE.search(str(text))
    return match.group(0) if match else None


def refusal(code: str, message: str, *, rule: str | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "rule": rule}


# --- the same shape where Django, not DRF, answers under /api/ -----------------------------


def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any /api/ URL no endpoint matches (the last route of penance_site/urls.py). This
    route also stops APPEND_SLASH's redirect, so the answer names the URL with a slash."""
    message = f"no API endpoint at {request.path}; see /api/docs/"
    if not request.path.endswith("/"):
        match = resolve(request.path + "/")
        if match.func is not api_not_found:
            message = f"no API endpoint at {request.path}; did you mean {request.path}/ ?"
    return JsonResponse(refusal("not_found", message), status=404)


def csrf_failure(request: HttpRequest, reason: str = "") -> Any:
    """CSRF_FAILURE_VIEW: JSON under /api/, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            refusal("csrf_failed", f"CSRF check failed: {reason}; send the X-CSRFToken header"),
            status=403,
        )
    from django.views.csrf import csrf_failure as django_csrf_failure

    return django_csrf_failure(request, reason)


def server_error(request: HttpRequest) -> Any:
    """handler500: a bug, but an /api/ client still gets JSON it can parse."""
    if request.path.startswith("/api/"):
        body = refusal("server_error", "an unexpected error; it has been logged")
        return JsonResponse(body, status=500)
    from django.views.defaults import server_error as django_server_error

    return django_server_error(request)
