"""Fixtures that start the real sandbox (registered as a pytest plugin by tests/conftest.py).

How to use them (all talk to the real sandbox of ``tui.sandbox``; nothing is mocked):

* ``sandbox_config`` -- a ``SandboxConfig`` for a fresh SQLite file in the test's tmp dir,
  seeded with 200 shipments, with a rate limit high enough never to trip by accident.
  Override fields with ``dataclasses.replace(sandbox_config, rate_limit=2, rate_burst=2)``
  before asking for ``sandbox_app`` (or call ``create_app`` yourself).
* ``sandbox_app`` -- the ASGI app built from ``sandbox_config``.
* ``sandbox_transport`` -- an ``httpx.ASGITransport`` for that app; pair it with
  ``sandbox_base_url`` (``http://sandbox.test``)::

      async with httpx.AsyncClient(
          transport=sandbox_transport,
          base_url=sandbox_base_url,
          headers={"Authorization": f"Bearer {DEMO_TOKEN}"},
      ) as client:
          quote = (await client.post("/rates", json=...)).json()

  Document URLs in responses start with ``sandbox_base_url`` and are served by the same app.
* ``sandbox_auth_headers`` -- ``{"Authorization": "Bearer demo.demo-secret"}``.
* ``live_sandbox`` -- a real uvicorn server on a free loopback port in a background thread
  (``RunningSandbox``: ``.base_url`` like ``http://127.0.0.1:54321``, ``.token``, ``.stop()``);
  stopped after the test. Use it for real sockets (timeouts, other threads, subprocesses).
* ``seeded_db_2000`` -- session-scoped path of a database seeded once with 2,000 shipments.
  Never open that file for writing; copy it: ``copy_seeded_db(tmp_path)`` returns a private copy
  (``SandboxConfig(db_path=copy_seeded_db(tmp_path))`` then finds it seeded and starts at once).
"""

from __future__ import annotations

import atexit
import bisect
import dataclasses
import math
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tui.api import Booking, BookingRequest, FreightClient, Rate, RateRequest
from tui.domain.pacing import paced_rate
from tui.sandbox import DEMO_TOKEN, SandboxConfig, create_app, start_in_thread
from tui.sandbox.app import SandboxApp
from tui.sandbox.threaded import RunningSandbox

SANDBOX_BASE_URL = "http://sandbox.test"
FIXTURE_SHIPMENTS = 200
SEEDED_SHIPMENTS = 2000

_seeded_lock = threading.Lock()
_seeded_path: Path | None = None


def seeded_db_path() -> Path:
    """Path of the shared database with 2,000 seeded shipments (built once per process)."""
    global _seeded_path
    with _seeded_lock:
        if _seeded_path is None:
            folder = Path(tempfile.mkdtemp(prefix="freight-seeded-"))
            atexit.register(shutil.rmtree, folder, True)
            path = folder / "sandbox.sqlite3"
            app = create_app(SandboxConfig(db_path=path, shipments=SEEDED_SHIPMENTS))
            app.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            app.close()
            _seeded_path = path
        return _seeded_path


def copy_seeded_db(tmp_path: Path) -> Path:
    """Copy the 2,000-shipment database into ``tmp_path`` and return the copy's path."""
    target = Path(tmp_path) / "sandbox.sqlite3"
    shutil.copyfile(seeded_db_path(), target)
    return target


@pytest.fixture
def sandbox_config(tmp_path: Path) -> SandboxConfig:
    """Fresh temp-file database, 200 shipments, a rate limit that does not trip by accident."""
    return SandboxConfig(
        db_path=tmp_path / "sandbox" / "sandbox.sqlite3",
        shipments=FIXTURE_SHIPMENTS,
        rate_limit=10_000.0,
        rate_burst=10_000,
    )


@pytest.fixture
def sandbox_app(sandbox_config: SandboxConfig) -> Iterator[SandboxApp]:
    """The ASGI app of ``sandbox_config`` (database closed after the test)."""
    app = create_app(sandbox_config)
    yield app
    app.close()


@pytest.fixture
def sandbox_transport(sandbox_app: SandboxApp) -> httpx.ASGITransport:
    """An httpx transport that calls ``sandbox_app`` in-process."""
    return httpx.ASGITransport(app=sandbox_app)


@pytest.fixture
def sandbox_base_url() -> str:
    """Base URL to use with ``sandbox_transport``."""
    return SANDBOX_BASE_URL


@pytest.fixture
def sandbox_auth_headers() -> dict[str, str]:
    """The demo account's Authorization header."""
    return {"Authorization": f"Bearer {DEMO_TOKEN}"}


@pytest.fixture
def live_sandbox(sandbox_config: SandboxConfig) -> Iterator[RunningSandbox]:
    """A real uvicorn server for ``sandbox_config`` on a free loopback port."""
    running = start_in_thread(sandbox_config)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def seeded_db_2000() -> Path:
    """Path of the shared 2,000-shipment database: copy it (``copy_seeded_db``), never write."""
    return seeded_db_path()


async def book_ltl_with_pickup(client: FreightClient) -> tuple[Booking, Rate]:
    """A fresh LTL booking with a pickup, Atlanta to New York, made through ``client``: what
    the pickup and cancel tests change."""
    quote = await client.get_rates(
        RateRequest.model_validate(
            {"origin_postal_code": "30318", "dest_postal_code": "10001",
             "items": [{"weight": 500, "length": 48, "width": 40, "height": 48,
                        "quantity": 2, "package": "pallet", "freight_class": "77.5"}]}
        )
    )  # fmt: skip
    rate = next(r for r in quote.rates if r.is_ok and r.mode == "ltl")
    booked = await client.book(
        BookingRequest(quote_id=quote.id, rate_id=rate.id, schedule_pickup=True)
    )
    assert isinstance(booked, Booking)
    assert booked.shipment_id
    return booked, rate


@pytest.fixture
def limited_sandbox(sandbox_config: SandboxConfig) -> Iterator[RunningSandbox]:
    """The sandbox allowing the demo account 20 requests/s with no burst beyond it."""
    running = start_in_thread(dataclasses.replace(sandbox_config, rate_limit=20, rate_burst=20))
    try:
        yield running
    finally:
        running.stop()


STALL = 0.15
"""Seconds a busy machine may hold a station's requests past their slots: they arrive late,
beside the next ones, and the service counts them in the same second."""


def most_allowed(limit: int) -> int:
    """The most requests the service may see within a second, for an account's ``limit``:
    the limit, and the requests of one ``STALL`` at the pace (20/s: 23). A 429 is what the user
    would see, and there must be none: the pace's share of the limit leaves the room."""
    return limit + math.ceil(paced_rate(limit) * STALL)


def most_in_a_second(times: list[float]) -> int:
    ordered = sorted(times)
    return max(bisect.bisect_left(ordered, t + 1.0) - i for i, t in enumerate(ordered))
