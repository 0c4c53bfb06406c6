"""Throttles that fail open: the cache (Redis) being down is not an outage.

A throttle that cannot read or write its counters lets the request through and logs a
warning; refusing every request, or answering 500, would turn a cache outage into a
site outage for an endpoint that needs no cache to answer.

An anonymous client is counted by the one client address of penance_site/client.py
(R-ADD-200), not by DRF's own reading of X-Forwarded-For, which believes whatever the
client writes there unless NUM_PROXIES is set.
"""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from penance_site.client import client_address

logger = logging.getLogger(__name__)


class FailOpenMixin:
    def allow_request(self, request: Request, view: APIView) -> bool:
        try:
            allowed: bool = super().allow_request(request, view)  # type: ignore[misc]
        except Exception as exc:  # any cache failure (ConnectionError, timeout, ...)
            logger.warning("throttle %s skipped, cache unavailable: %s", type(self).__name__, exc)
            return True
        return allowed

    def get_ident(self, request: Request) -> str:
        return client_address(request._request)

    def wait(self) -> Any:
        try:
            return super().wait()  # type: ignore[misc]
        except Exception:  # pragma: no cover - wait() only reads the counters fetched above
            return None


class FailOpenAnonRateThrottle(FailOpenMixin, AnonRateThrottle):
    pass


class FailOpenUserRateThrottle(FailOpenMixin, UserRateThrottle):
    pass
