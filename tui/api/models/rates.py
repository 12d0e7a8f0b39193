"""Rate request (outgoing) and the quote with its rates (incoming)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Annotated, Any

from pydantic import AfterValidator, Field, field_validator

from tui.api.models.base import (
    AwareDatetime,
    IncomingModel,
    LenientInt,
    OutgoingModel,
    RawModel,
    WireDecimal,
)
from tui.domain.freight_class import FREIGHT_CLASSES
from tui.domain.locations import LOCATION_TYPES as _LOCATION_NAMES

__all__ = [
    "FREIGHT_CLASSES",
    "LOCATION_TYPES",
    "MAX_ITEMS",
    "Charge",
    "Quote",
    "Rate",
    "RateItem",
    "RateRequest",
]

LOCATION_TYPES: tuple[str, ...] = tuple(_LOCATION_NAMES)
"""Location type labels the sandbox knows (not enforced: a real server may know others)."""

MAX_ITEMS = 40
_ZIP = re.compile(r"^\d{5}(-\d{4})?$")


def _positive(value: Decimal) -> Decimal:
    if not value.is_finite() or value <= 0:
        raise ValueError("must be more than 0")
    if len(value.normalize().as_tuple().digits) > 12:
        raise ValueError("has too many digits")
    return value


def _freight_class(value: Decimal | None) -> Decimal | None:
    if value is None:
        return None
    if value not in FREIGHT_CLASSES:
        raise ValueError("must be an NMFC class: 50, 55, 60, 65, 70, 77.5, 85, 92.5, 100 … 500")
    return value.normalize() if value != value.to_integral_value() else Decimal(int(value))


def _zip(value: str) -> str:
    if not _ZIP.match(value):
        raise ValueError("must be a 5-digit ZIP code like 30301 (or 30301-1234)")
    return value


PositiveDecimal = Annotated[WireDecimal, AfterValidator(_positive)]
FreightClass = Annotated[WireDecimal | None, AfterValidator(_freight_class)]
PostalCode = Annotated[str, AfterValidator(_zip)]


class RateItem(OutgoingModel):
    """One line of freight: per-unit weight (lb) and dimensions (in), and how many units."""

    weight: PositiveDecimal
    length: PositiveDecimal
    width: PositiveDecimal
    height: PositiveDecimal
    quantity: int = Field(ge=1, le=100_000)
    package: str = Field(min_length=1, max_length=40)
    freight_class: FreightClass = None
    description: str | None = Field(default=None, max_length=200)

    @field_validator("quantity", mode="before")
    @classmethod
    def _quantity_text(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value


class RateRequest(OutgoingModel):
    """POST /rates body."""

    origin_postal_code: PostalCode
    dest_postal_code: PostalCode
    items: list[RateItem] = Field(min_length=1, max_length=MAX_ITEMS)
    origin_type: str = Field(default="business-dock", min_length=1)
    dest_type: str = Field(default="business-dock", min_length=1)


class Charge(IncomingModel):
    """One line of a rate's breakdown; discounts are negative."""

    name: str = ""
    amount: Decimal = Decimal(0)
    description: str | None = None


def _zero_if_null(value: Any) -> Any:
    return Decimal(0) if value is None or value == "" else value


class Rate(IncomingModel):
    """One carrier offer in a quote. ``is_ok`` says whether it can be booked."""

    id: str
    status: str = ""
    mode: str | None = None
    total: Decimal = Decimal(0)
    days: LenientInt | None = None
    carrier: str = ""
    carrier_code: str | None = None
    service_type: str | None = None
    charges: list[Charge] = Field(default_factory=list)
    message: str | None = None
    currency: str | None = None
    expires_at: AwareDatetime | None = None

    @field_validator("total", mode="before")
    @classmethod
    def _total(cls, value: Any) -> Any:
        return _zero_if_null(value)

    @field_validator("charges", mode="before")
    @classmethod
    def _charges(cls, value: Any) -> Any:
        return [] if value is None else value

    @property
    def is_ok(self) -> bool:
        """True when the rate can be booked: status ``ok`` and a positive total."""
        return self.status.lower() == "ok" and self.total > 0


class Quote(RawModel):
    """The answer to a rate request: the quote id and one rate per carrier offer."""

    id: str
    rates: list[Rate] = Field(default_factory=list)
    created_date: AwareDatetime | None = None
    expires_at: AwareDatetime | None = None
    origin_postal_code: str | None = None
    dest_postal_code: str | None = None

    @field_validator("rates", mode="before")
    @classmethod
    def _rates(cls, value: Any) -> Any:
        return [] if value is None else value

    def rate(self, rate_id: str) -> Rate | None:
        """The rate with this id, or None."""
        return next((r for r in self.rates if r.id == rate_id), None)
