"""The API's body limit, checked before anything reads the body.

Django itself answers an oversized body with its HTML 400 page (RequestDataTooBig), from
wherever the body is first read; an API client gets a 413 in the refusal shape, naming
the limit. penance_site.parsers.LimitedJSONParser checks again while reading, for
bodies whose Content-Length is absent or understated.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse


def too_large_response(limit: int) -> JsonResponse:
    message = f"the request body is over the limit of {limit} bytes"
    body = {"code": "request_too_large", "message": message, "rule": None}
    return JsonResponse(body, status=413)


class ApiBodyLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if request.path.startswith("/api/") and limit is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > limit:
                return too_large_response(limit)
        return self.get_response(request)
