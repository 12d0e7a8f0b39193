"""Settings of one sandbox instance (database, seed, clock, limits)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import platformdirs

DEMO_TOKEN = "demo.demo-secret"


@dataclass(frozen=True)
class SandboxConfig:
    """How a sandbox is set up; the defaults are those of ``freight sandbox``.

    ``db_path`` None keeps the database in memory (gone when the app is dropped).
    ``clock_speed`` is how many simulated seconds pass per real second for the lifecycle of
    shipments booked while it runs. ``rate_limit``/``rate_burst`` feed a token bucket per
    API token (``rate_limit`` 0 turns it off). ``quote_ttl`` is how long LTL and parcel rates
    can be booked, ``truckload_quote_ttl`` the same for truckload rates. ``diesel_price`` drives
    fuel surcharges. ``now`` replaces the wall clock (tests). ``chaos`` adds the QWDL carrier.
    ``document_url`` is the base URL the documents' links point at (another host that serves
    them, or one that is down); None: the sandbox itself (``SandboxApp.document_url`` changes
    it while the sandbox runs).
    """

    db_path: Path | None = None
    shipments: int = 500
    seed: int = 7
    clock_speed: float = 60.0
    rate_limit: float = 20.0
    rate_burst: int = 40
    quote_ttl: timedelta = timedelta(days=7)
    truckload_quote_ttl: timedelta = timedelta(hours=24)
    diesel_price: Decimal = Decimal("3.65")
    max_body_bytes: int = 1024 * 1024
    now: Callable[[], datetime] | None = None
    chaos: bool = False
    document_url: str | None = None
    pause: Callable[[], None] | None = None
    """Called between steps of the seeding (from its thread): the app's keys go first."""

    def current_time(self) -> datetime:
        """Return the current (possibly injected) time, timezone-aware in UTC."""
        value = self.now() if self.now is not None else datetime.now(UTC)
        if value.tzinfo is None:
            raise ValueError("SandboxConfig.now must return an aware datetime")
        return value.astimezone(UTC)


def default_db_path() -> Path:
    """Return where ``freight sandbox`` and ``freight --demo`` keep their database."""

    return Path(platformdirs.user_data_dir("freight-tui")) / "sandbox.sqlite3"
