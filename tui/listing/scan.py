"""Keys typed on the list (a barcode scanner, or a person) gathered into a code to look up."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.listing.rows import ShipmentRow

SCAN_GAP_SECONDS = 1.0
"""Keys further apart than this start a new code."""


class ScanBuffer:
    """Printable keys typed outside the search field, until Enter."""

    def __init__(
        self, gap: float = SCAN_GAP_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._gap = gap
        self._clock = clock
        self._text = ""
        self._last = 0.0

    @property
    def text(self) -> str:
        """What was typed so far ("" once the gap has passed)."""
        if self._text and self._clock() - self._last > self._gap:
            self._text = ""
        return self._text

    @property
    def active(self) -> bool:
        return bool(self.text)

    def feed(self, character: str) -> None:
        self._text = self.text + character
        self._last = self._clock()

    def backspace(self) -> None:
        self._text = self.text[:-1]
        self._last = self._clock()

    def take(self) -> str:
        """The code typed, and an empty buffer."""
        code, self._text = self.text.strip(), ""
        return code

    def clear(self) -> None:
        self._text = ""


def normalize_code(text: str) -> str:
    """Compare codes without case, spaces or dashes (`4415-227893-5` = `4415 2278935`)."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def looks_like_code(text: str) -> bool:
    """A PRO, tracking number or BOL: one word of 5+ characters with a digit in it."""
    text = text.strip()
    return len(text) >= 5 and " " not in text and any(ch.isdigit() for ch in text)


def find_by_code(shipments: Iterable[ShipmentRow], code: str) -> ShipmentRow | None:
    """The shipment whose PRO, tracking number, BOL or id is exactly `code`."""
    wanted = normalize_code(code)
    if not wanted:
        return None
    for shipment in shipments:
        for value in (
            shipment.pro_number,
            shipment.tracking_number,
            shipment.bol_number,
            shipment.id,
        ):
            if value and normalize_code(value) == wanted:
                return shipment
    return None
