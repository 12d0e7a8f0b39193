"""Normalized rate requests and the rate results the carriers' models produce."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from tui.sandbox.classes import class_for_density, unit_cube_ft3
from tui.sandbox.geo import Zip

CENT = Decimal("0.01")


def money(value: Decimal | float | int) -> Decimal:
    """Round to cents, half up."""
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Item:
    """One request line: ``quantity`` units each ``weight`` lb and L x W x H inches."""

    weight: Decimal
    length: Decimal
    width: Decimal
    height: Decimal
    quantity: int
    freight_class: Decimal | None
    package: str
    description: str | None = None
    nmfc: str | None = None
    stackable: bool | None = None
    hazard: dict[str, str] | None = None  # hazmatId, hazardClass, packingGroup when hazardous
    package_size: str | None = None

    @property
    def hazardous(self) -> bool:
        """Whether the line is hazardous material."""
        return self.hazard is not None

    @property
    def line_weight(self) -> Decimal:
        """Weight of the whole line in pounds."""
        return self.weight * self.quantity

    @property
    def rated_class(self) -> Decimal:
        """The given class, or the class the 2025 density scale gives the unit."""
        if self.freight_class is not None:
            return self.freight_class
        return class_for_density(self.weight, self.length, self.width, self.billed_height)

    @property
    def billed_height(self) -> Decimal:
        """Height the density is taken at: a unit that cannot be stacked on takes the trailer
        space above it too (billed at least 48 in, or 96 in when taller than 48 in)."""
        if self.stackable is not False:
            return self.height
        return max(self.height, Decimal(48 if self.height <= 48 else 96))

    @property
    def line_cube(self) -> Decimal:
        """Cubic feet of the whole line."""
        return unit_cube_ft3(self.length, self.width, self.height) * self.quantity


@dataclass(frozen=True)
class RateRequest:
    """A validated rate request with its ZIPs looked up."""

    origin: Zip
    dest: Zip
    origin_type: str
    dest_type: str
    items: tuple[Item, ...]
    accessorials: tuple[str, ...] = ()  # canonical names (vocabulary.ACCESSORIALS), sorted
    pickup_date: date | None = None
    pickup_note: str | None = None
    #: what the request said that rating does not use (addresses, references, contacts)
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def hazardous(self) -> bool:
        """Whether any line is hazardous, or hazmat handling was asked for."""
        return "hazmat" in self.accessorials

    @property
    def total_weight(self) -> Decimal:
        """Sum of all line weights in pounds."""
        return sum((item.line_weight for item in self.items), Decimal(0))

    def lane_key(self) -> str:
        """Canonical text of the lane and location types (no weights)."""
        return f"{self.origin.code}>{self.dest.code}|{self.origin_type}>{self.dest_type}"

    def canonical(self) -> str:
        """Canonical text of the whole request (same request, same text)."""
        lines = ";".join(
            f"{i.weight.normalize()}x{i.quantity}@{i.length.normalize()}"
            f"x{i.width.normalize()}x{i.height.normalize()}"
            f"c{i.freight_class}p{i.package}{'h' if i.hazardous else ''}"
            f"{'n' if i.stackable is False else ''}"
            for i in self.items
        )
        extras = ",".join(self.accessorials)
        return f"{self.lane_key()}|{lines}|{extras}|{self.pickup_date or ''}"


def seeded_random(*parts: object) -> random.Random:
    """Return a Random seeded from a stable hash of ``parts``."""
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def stable_hash(*parts: object, length: int = 16) -> str:
    """Return a stable hex digest of ``parts``."""
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()[:length]


@dataclass(frozen=True)
class Charge:
    """One line of a rate's breakdown."""

    name: str
    amount: Decimal
    description: str | None = None


@dataclass
class RateResult:
    """What one carrier offers for one service level (or why it cannot)."""

    carrier_code: str
    carrier_name: str
    mode: str
    service_type: str
    status: str = "ok"
    days: int | None = None
    charges: list[Charge] = field(default_factory=list)
    message: str | None = None
    ttl_hours: int | None = None

    @property
    def total(self) -> Decimal:
        """Sum of the charges (already in cents)."""
        return sum((c.amount for c in self.charges), Decimal("0.00")).quantize(CENT)


def unavailable(
    carrier_code: str, carrier_name: str, mode: str, service: str, message: str
) -> RateResult:
    """Return a rate with status ``unavailable`` and the reason."""
    return RateResult(
        carrier_code, carrier_name, mode, service, status="unavailable", message=message
    )


def rating_day(day: date) -> str:
    """Text of the day that makes rates repeatable within a day."""
    return day.isoformat()
