"""Refusals are not incidents: a 403 or 404 is logged at INFO, without a traceback.

Django logs every 4xx on `django.request` at WARNING, and for a raised Http404 or
PermissionDenied with the exception's traceback: an outsider probing campaign ids, or a
browser asking for /favicon.ico, filled the warning log with tracebacks of code that
worked as meant. Other 4xx (400, 405, 413, 429) stay warnings: they may be a client bug
worth seeing.
"""

from __future__ import annotations

import logging

QUIET = frozenset({403, 404})


class QuietRefusals(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) not in QUIET:
            return True
        record.levelno, record.levelname = logging.INFO, "INFO"
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        # The record was made at WARNING: drop it where INFO is not wanted.
        return logging.getLogger(record.name).isEnabledFor(logging.INFO)
