"""Bearer authentication that is sent only to the service's own origin."""

from __future__ import annotations

from collections.abc import Generator

import httpx

from tui.api.secret import Secret

__all__ = ["BearerAuth", "same_origin"]


def same_origin(a: httpx.URL, b: httpx.URL) -> bool:
    """True when scheme, host and port agree (the default port counts as given)."""
    return a.scheme == b.scheme and a.host == b.host and a.port == b.port


class BearerAuth(httpx.Auth):
    """Adds ``Authorization: Bearer <token>`` to requests for ``origin`` and to no other host."""

    def __init__(self, token: Secret, origin: httpx.URL) -> None:
        self._header = Secret("Bearer " + token.reveal())
        self._origin = origin

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        if same_origin(request.url, self._origin):
            request.headers["Authorization"] = self._header.reveal()
        else:
            request.headers.pop("Authorization", None)
        yield request

    def __repr__(self) -> str:
        return "BearerAuth('***')"
