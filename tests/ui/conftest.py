"""UI fixtures: a session on the real sandbox (ASGI transport); the 2,000-shipment sandbox."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.ui.test_shipments_support import seeded_sandbox
from tui.demo import DEMO_TOKEN
from tui.sandbox.app import SandboxApp
from tui.session import Session


@pytest.fixture(autouse=True)
def true_colour_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal with true colour, as snapshots are drawn: the status and header colours are
    the theme's there (a 16-colour terminal gets the ANSI ones; a test asks for it)."""
    monkeypatch.setenv("COLORTERM", "truecolor")


@pytest.fixture
def ui_session(sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str) -> Session:
    """A DEMO session whose client talks to a fresh sandbox through httpx's ASGI transport."""
    return Session.for_testing(sandbox_base_url, DEMO_TOKEN, transport=sandbox_transport)


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[SandboxApp]:
    """A sandbox on a private copy of the 2,000-shipment database (the shipments tests)."""
    app = seeded_sandbox(tmp_path)
    yield app
    app.close()
