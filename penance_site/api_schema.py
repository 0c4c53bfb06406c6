"""How one API's endpoints are written into the OpenAPI schema: the API's tag and the errors
its reads and its writes answer with are said once, so each endpoint names only what is its
own (operation id, summary, body, answer)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from drf_spectacular.utils import OpenApiExample, extend_schema

_View = TypeVar("_View", bound=Callable[..., Any])
Errors = Mapping[int, Any]


@dataclass(frozen=True)
class EndpointSchemas:
    """`extend_schema` for the endpoints of one API. `errors` replaces the API's own error
    answers where one endpoint answers with others."""

    tags: list[str]
    read_errors: Errors
    write_errors: Errors

    def read(
        self,
        operation_id: str,
        summary: str,
        answer: Any,
        *,
        description: str | None = None,
        parameters: Sequence[Any] | None = None,
        status: int | tuple[int, str] = 200,
        errors: Errors | None = None,
    ) -> Callable[[_View], _View]:
        """A GET answering `status` (200, or with a media type) with `answer`."""
        errors = self.read_errors if errors is None else errors
        return self._operation(
            operation_id, summary, description, {status: answer, **errors}, parameters=parameters
        )

    def write(
        self,
        operation_id: str,
        summary: str,
        request: Any,
        answer: Any,
        *,
        description: str | None = None,
        examples: Sequence[OpenApiExample] | None = None,
        status: int = 201,
        errors: Errors | None = None,
    ) -> Callable[[_View], _View]:
        """A POST or PUT of `request`, answering `status` (201 unless said) with `answer`."""
        errors = self.write_errors if errors is None else errors
        return self._operation(
            operation_id,
            summary,
            description,
            {status: answer, **errors},
            request=request,
            examples=examples,
        )

    def _operation(
        self,
        operation_id: str,
        summary: str,
        description: str | None,
        responses: Mapping[Any, Any],
        **more: Any,
    ) -> Callable[[_View], _View]:
        return extend_schema(
            operation_id=operation_id,
            summary=summary,
            description=description,
            responses=responses,
            tags=self.tags,
            **more,
        )
