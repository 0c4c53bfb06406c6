"""Where browsers report Content-Security-Policy violations (the policy's report-uri).

A violation is a bug in a page (an inline style left behind, a script from elsewhere)
or someone injecting content: either way worth a warning in the log. The endpoint is
open to anyone, so it is cheap to abuse: CSRF-exempt (browsers send no token), a body
over PENANCE_CSP_REPORT_MAX_BYTES is refused unread, and past
PENANCE_CSP_REPORTS_PER_MINUTE reports from one client address (penance_site/client.py)
nothing more is logged for the rest of that minute (R-ADD-201).
"""

from __future__ import annotations

import json
import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from .client import client_address

logger = logging.getLogger("penance_site.csp")

# The report fields worth a log line, as the two report formats name them.
FIELDS = (
    ("document-uri", "documentURL"),
    ("violated-directive", "effectiveDirective"),
    ("blocked-uri", "blockedURL"),
    ("source-file", "sourceFile"),
    ("line-number", "lineNumber"),
)


def _over_limit(address: str) -> bool:
    key = f"csp-report:{address}:{int(time.time() // 60)}"
    try:
        cache.add(key, 0, timeout=120)
        count = cache.incr(key)
    except Exception:  # the cache down: log anyway, the size limit still holds
        return False
    return count > settings.PENANCE_CSP_REPORTS_PER_MINUTE


def _summary(body: bytes) -> dict[str, object]:
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return {"unreadable": body[:200].decode("utf-8", "replace")}
    # report-uri sends {"csp-report": {...}}; the Reporting API sends [{"body": {...}}].
    if isinstance(data, dict) and isinstance(data.get("csp-report"), dict):
        report = data["csp-report"]
    elif isinstance(data, list) and data and isinstance(data[0], dict):
        report = data[0].get("body") if isinstance(data[0].get("body"), dict) else {}
    else:
        report = {}
    summary: dict[str, object] = {}
    for old, new in FIELDS:
        value = report.get(old, report.get(new))
        if value is not None:
            summary[old] = str(value)[:300]
    return summary or {"unrecognised": str(data)[:200]}


@csrf_exempt
@require_POST
def csp_report(request: HttpRequest) -> HttpResponse:
    limit = settings.PENANCE_CSP_REPORT_MAX_BYTES
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > limit:
        return HttpResponse(status=413)
    body = request.read(limit + 1)
    if len(body) > limit:
        return HttpResponse(status=413)
    address = client_address(request)
    if _over_limit(address):
        response = HttpResponse(status=429)
        response["Retry-After"] = "60"
        return response
    logger.warning("CSP violation from %s: %s", address, _summary(body))
    return HttpResponse(status=204)
