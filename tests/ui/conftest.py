"""UI fixtures: a session on the real sandbox (ASGI transport) for Pilot tests."""

from __future__ import annotations

import httpx
import pytest

from tui.demo import DEMO_TOKEN
from tui.session import Session


@pytest.fixture
def ui_session(sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str) -> Session:
    """A DEMO session whose client talks to a fresh sandbox through httpx's ASGI transport."""
    return Session.for_testing(sandbox_base_url, DEMO_TOKEN, transport=sandbox_transport)
