"""The demo: a profile with sample addresses, backed by a sandbox started in the background."""

from __future__ import annotations

import asyncio
import threading
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.config.settings import Profile

DEMO_TOKEN = "demo.demo-secret"


def demo_profile(base_url: str = "http://127.0.0.1:8750") -> Profile:
    """A profile with a dock in Chicago, a few consignees and item templates."""
    from tui.config.settings import ItemTemplate, Location, Profile

    origin = Location(
        label="Acme dock",
        company="Acme Dock Co",
        address="1200 W Lake St",
        city="Chicago",
        state="IL",
        postal_code="60607",
        contact_name="Pat Doyle",
        phone="312-555-0142",
        email="shipping@acme-dock.example",
        dock_open="08:00",
        dock_close="16:00",
        location_type="business-dock",
    )
    book = [
        origin,
        Location(
            label="Peach Retail",
            company="Peach Retail",
            address="88 Peachtree St NE",
            city="Atlanta",
            state="GA",
            postal_code="30303",
            contact_name="Sam Lee",
            phone="404-555-0199",
            email="receiving@peach-retail.example",
            dock_open="07:00",
            dock_close="15:30",
            location_type="business-no-dock",
        ),
        Location(
            label="Lone Star DC",
            company="Lone Star Distribution",
            address="2400 Irving Blvd",
            city="Dallas",
            state="TX",
            postal_code="75207",
            contact_name="Alex Ruiz",
            phone="214-555-0110",
            email="dock@lonestar-dc.example",
            dock_open="06:00",
            dock_close="14:00",
            location_type="distribution-center",
        ),
        Location(
            label="J. Rivera (home)",
            company="Jordan Rivera",
            address="17 Maple Ave",
            city="Oak Park",
            state="IL",
            postal_code="60302",
            contact_name="Jordan Rivera",
            phone="708-555-0123",
            email="jrivera@example.com",
            location_type="residential",
        ),
    ]
    templates = [
        ItemTemplate(
            name="Std pallet machine parts",
            quantity=1,
            package="pallet",
            weight=Decimal("800"),
            length=Decimal("48"),
            width=Decimal("40"),
            height=Decimal("48"),
            freight_class=None,
            description="Machine parts",
        ),
        ItemTemplate(
            name="Parcel carton",
            quantity=1,
            package="box",
            weight=Decimal("18"),
            length=Decimal("16"),
            width=Decimal("12"),
            height=Decimal("10"),
            freight_class=None,
            description="Spare parts",
        ),
    ]
    return Profile(
        name="demo",
        base_url=base_url,
        environment="sandbox",
        default_origin=origin,
        address_book=book,
        item_templates=templates,
    )


class DemoSandbox:
    """Starts the local sandbox in a daemon thread and hands out its URL when it is up."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self._running: Any = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Begin starting the sandbox; returns at once."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="demo-sandbox", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            from tui.sandbox import SandboxConfig, start_in_thread

            self.db_path.parent.mkdir(parents=True, exist_ok=True)
            self._running = start_in_thread(SandboxConfig(db_path=self.db_path))
        except BaseException as error:  # reported to the first caller of connect()
            self._error = error
        finally:
            self._ready.set()

    async def connect(self) -> tuple[str, str]:
        """Wait for the sandbox and return its base URL and the demo token."""
        self.start()
        while not self._ready.is_set():  # noqa: ASYNC110 - a thread sets it
            await asyncio.sleep(0.02)
        if self._error is not None:
            from tui.api.errors import TransportError

            raise TransportError(f"The local sandbox could not start: {self._error}")
        return str(self._running.base_url), DEMO_TOKEN

    def stop(self) -> None:
        """Stop the sandbox if it was started."""
        if self._running is not None:
            self._running.stop()
            self._running = None
