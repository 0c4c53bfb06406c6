"""The API's one parser: JSON, size-limited, with nesting and text checked.

Its own module: DRF imports DEFAULT_PARSER_CLASSES while rest_framework.views loads, so
this must not import views (penance_site/api.py does).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError, ValidationError
from rest_framework.parsers import JSONParser

MAX_JSON_DEPTH = 32  # the deepest real document (a setup) nests 5 levels


class RequestTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"


def _bad_text(text: str) -> str | None:
    if "\x00" in text:
        return "contains a NUL character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "contains a lone surrogate (not valid Unicode text)"
    return None


def check_json_document(data: Any) -> None:
    """Walk a parsed body without recursion: too deep a nesting, or a string no database
    stores (NUL; a lone surrogate, which JSON's \\ud800 escapes let through), is a 400
    naming the field, before any serializer or service sees it."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise ValidationError({path or "body": [f"nested deeper than {MAX_JSON_DEPTH} levels"]})
        if isinstance(value, str):
            problem = _bad_text(value)
            if problem:
                raise ValidationError({path or "body": [problem]})
        elif isinstance(value, Mapping):
            for key, item in value.items():
                child = f"{path}.{key}" if path else str(key)
                problem = _bad_text(key)
                if problem:
                    raise ValidationError({path or "body": [f"a key {problem}"]})
                stack.append((item, child, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))


class LimitedJSONParser(JSONParser):
    """JSON with a size limit (413, DATA_UPLOAD_MAX_MEMORY_SIZE: DRF reads the body as a
    stream, which Django's own check never sees) and the checks of `check_json_document`
    (deep nesting would otherwise be a RecursionError, a 500)."""

    def parse(
        self, stream: IO[bytes], media_type: str | None = None, parser_context: Any = None
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise RequestTooLarge(f"the request body is over the limit of {limit} bytes")
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(raw.decode(encoding))
        except (ValueError, RecursionError) as exc:
            message = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            raise ParseError(f"JSON parse error - {message}") from None
        check_json_document(data)
        return data
