"""API errors as raised by handlers and rendered as the service's JSON error body."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error response: HTTP status, upper-case ``name``, human ``message``."""

    def __init__(
        self,
        status: int,
        name: str,
        message: str,
        *,
        fields: list[dict[str, str]] | None = None,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.name = name
        self.message = message
        self.fields = fields
        self.extra = extra or {}
        self.headers = headers or {}

    def body(self, request_id: str) -> dict[str, Any]:
        """Return the JSON body ``{name, requestId, message}`` plus extras."""
        body: dict[str, Any] = {"name": self.name, "requestId": request_id, "message": self.message}
        if self.fields is not None:
            body["fields"] = self.fields
        body.update(self.extra)
        return body


class FieldErrors:
    """Collects validation problems by field path; raises one 400 with all of them."""

    def __init__(self) -> None:
        self.items: list[dict[str, str]] = []

    def add(self, field: str, message: str) -> None:
        """Record that ``field`` (like ``items[2].weight``) is wrong, and why."""
        self.items.append({"field": field, "message": message})

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        """Raise VALIDATION_ERROR naming the first field in the message, if any were added."""
        if self.items:
            first = self.items[0]
            more = f" (and {len(self.items) - 1} more)" if len(self.items) > 1 else ""
            raise ApiError(
                400,
                "VALIDATION_ERROR",
                f"{first['field']}: {first['message']}{more}",
                fields=list(self.items),
            )


def not_found(name: str, message: str) -> ApiError:
    """Return a 404 with the given error name."""
    return ApiError(404, name, message)
