"""Site pages that belong to no app: the home page and the health check."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"redis": bool(settings.REDIS_URL)})


@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """Liveness and the database round trip; 503 when the database does not answer."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # the point is to report any failure, not crash
        return JsonResponse({"ok": False, "database": str(exc)}, status=503)
    return JsonResponse({"ok": True, "database": connection.vendor})
