"""A fault-injecting httpx transport: answers from a script, records every request."""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

Handler = Callable[[httpx.Request], httpx.Response | Awaitable[httpx.Response]]
Step = httpx.Response | BaseException | Handler


class FaultTransport(httpx.AsyncBaseTransport):
    """Answers each request with the next scripted step (a response, an exception to raise, or a
    handler); when the script runs out, forwards to ``fallback`` or fails the test."""

    def __init__(self, *steps: Step, fallback: httpx.AsyncBaseTransport | None = None) -> None:
        self.steps: list[Step] = list(steps)
        self.fallback = fallback
        self.requests: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()
        self.requests.append(request)
        if not self.steps:
            if self.fallback is None:
                raise AssertionError(f"unexpected request {request.method} {request.url}")
            return await self.fallback.handle_async_request(request)
        step = self.steps.pop(0)
        if isinstance(step, BaseException):
            raise step
        if isinstance(step, httpx.Response):
            return step
        result = step(request)
        if inspect.isawaitable(result):
            return await result
        return result

    def paths(self) -> list[str]:
        return [f"{r.method} {r.url.raw_path.decode()}" for r in self.requests]


def reply(status: int = 200, body: Any = None, **headers: str) -> httpx.Response:
    """A JSON response (``body`` may be any JSON value)."""
    hdrs = {"content-type": "application/json", "x-request-id": "req-1"}
    hdrs.update({k.replace("_", "-"): v for k, v in headers.items()})
    return httpx.Response(status, content=json.dumps(body).encode(), headers=hdrs)


def raw(status: int, content: bytes, content_type: str = "text/html") -> httpx.Response:
    """A response with this exact body."""
    return httpx.Response(status, content=content, headers={"content-type": content_type})


def forward_then(inner: httpx.AsyncBaseTransport, exc: BaseException) -> Handler:
    """Let the real server handle the request, then lose the answer by raising ``exc``."""

    async def handler(request: httpx.Request) -> httpx.Response:
        response = await inner.handle_async_request(request)
        await response.aread()
        raise exc

    return handler


PAGE_ITEM = {"id": "s_1", "createdDate": "2026-11-01T10:00:00Z", "status": "pending"}
