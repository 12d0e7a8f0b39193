"""Rate request (outgoing) and the quote with its rates (incoming)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Annotated, Any, Self

from pydantic import (
    AfterValidator,
    AliasChoices,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from tui.api.models.base import (
    AwareDatetime,
    IncomingModel,
    LenientInt,
    OutgoingModel,
    RawModel,
    WireDecimal,
)
from tui.api.models.ends import EndFields, PostalCode, Text, check_postal_code
from tui.api.models.lenient import (
    norm_currency,
    norm_mode,
    norm_status,
    readable,
    readable_number,
    records,
)
from tui.api.models.values import Country, Kind, Package, wire_format
from tui.domain.freight_class import FREIGHT_CLASSES
from tui.domain.locations import LOCATION_TYPES as _LOCATION_NAMES
from tui.domain.locations import LocationType

__all__ = [
    "FREIGHT_CLASSES",
    "LOCATION_TYPES",
    "MAX_ITEMS",
    "Charge",
    "Hazard",
    "Quote",
    "Rate",
    "RateItem",
    "RateRequest",
]

LOCATION_TYPES: tuple[str, ...] = tuple(_LOCATION_NAMES)
"""Freight's identifiers of the 13 location types (what requests accept, among other spellings)."""

MAX_ITEMS = 40


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


def _accessorial(value: str) -> str:
    """``Liftgate-Delivery`` -> ``liftgate delivery`` (the service's spelling of charges)."""
    words = " ".join(value.replace("-", " ").replace("_", " ").lower().split())
    if not words:
        raise ValueError("must name an accessorial, e.g. liftgate delivery")
    return words


def _optional_postal_code(value: str | None) -> str | None:
    return check_postal_code(value) if value else None


PositiveDecimal = Annotated[WireDecimal, AfterValidator(_positive)]
FreightClass = Annotated[WireDecimal | None, AfterValidator(_freight_class)]
Accessorial = Annotated[str, Field(max_length=60), AfterValidator(_accessorial)]


class Hazard(OutgoingModel):
    """Hazmat data of an item: UN number, hazard class, packing group."""

    hazmat_id: Text = None
    """UN or NA number, e.g. UN1203."""
    hazard_class: Text = None
    """Hazard class, e.g. 3 or 2.1."""
    packing_group: Text = None
    """Packing group I, II or III."""


class RateItem(OutgoingModel):
    """One line of freight: per-unit weight (lb) and dimensions (in), and how many units."""

    weight: PositiveDecimal
    length: PositiveDecimal
    width: PositiveDecimal
    height: PositiveDecimal
    quantity: int = Field(ge=1, le=100_000, validation_alias=AliasChoices("quantity", "pieces"))
    """Handling units; sent under each name of ``WireFormat.item_count`` (``quantity`` and
    ``pieces`` by default); read from ``quantity``, or ``pieces`` when that is all there is."""
    package: Package
    freight_class: FreightClass = None
    description: str | None = Field(default=None, max_length=200)
    nmfc: Text = None
    """NMFC item number, e.g. 116030 or 116030-03."""
    stackable: bool | None = None
    hazardous: bool | None = None
    hazard: Hazard | None = None

    @model_validator(mode="before")
    @classmethod
    def _both_counts(cls, data: Any) -> Any:
        """A body that names the count both ways (as Freight sends it) is read once."""
        if isinstance(data, dict) and "pieces" in data and data.get("quantity") is not None:
            if str(data["pieces"]).strip() != str(data["quantity"]).strip():
                raise ValueError("quantity and pieces give two different counts")
            data = {key: value for key, value in data.items() if key != "pieces"}
        return data

    @field_validator("quantity", mode="before")
    @classmethod
    def _quantity_text(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value

    @model_serializer(mode="wrap")
    def _count_name(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        names = wire_format(info).item_count
        if isinstance(names, str):  # a WireFormat built by hand with one name
            names = (names,)
        if info.mode_is_json() and info.by_alias and names != ("quantity",) and "quantity" in data:
            out: dict[str, Any] = {}
            for key, value in data.items():
                if key == "quantity":
                    out.update(dict.fromkeys(names, value))
                else:
                    out[key] = value
            data = out
        return data


class RateRequest(EndFields):
    """POST /rates body: ZIPs, location types and items, and what else real clients send."""

    origin_postal_code: PostalCode
    dest_postal_code: PostalCode
    items: list[RateItem] = Field(min_length=1, max_length=MAX_ITEMS)
    origin_type: Kind = LocationType.BUSINESS_DOCK
    dest_type: Kind = LocationType.BUSINESS_DOCK
    pickup_date: date | None = None
    """Sent as ``pickupDate`` (YYYY-MM-DD)."""
    charges: list[Accessorial] | None = None
    """Accessorial names, e.g. ``liftgate delivery``, ``arrival schedule``."""
    bill_postal_code: Annotated[str | None, AfterValidator(_optional_postal_code)] = None
    """Postal code of the party billed."""
    bill_country: Country = None


class Charge(IncomingModel):
    """One line of a rate's breakdown; discounts are negative; in the rate's currency."""

    name: str = ""
    amount: Decimal = Decimal(0)
    description: str | None = None
    currency: str | None = None


def _zero_if_null(value: Any) -> Any:
    return Decimal(0) if value is None or value == "" else value


_TOTAL_KEYS = ("total", "totalCost", "totalCharge", "amount", "price")


class Rate(IncomingModel):
    """One carrier offer in a quote. ``is_ok`` says whether it can be booked.

    Mode and status are read in lower case and the currency in upper case, so they compare
    whatever case the server wrote; the currency is USD unless the rate says otherwise.
    """

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
    currency: str = "USD"
    expires_at: AwareDatetime | None = None

    @model_validator(mode="before")
    @classmethod
    def _shapes(cls, data: Any) -> Any:
        """A carrier object gives name and code; a total object gives amount and currency."""
        if not isinstance(data, dict):
            return data
        out = dict(data)
        if out.get("id") is None and out.get("rateId") is not None:
            out["id"] = readable(out["rateId"])
        carrier = out.get("carrier")
        if isinstance(carrier, dict):
            out["carrier"] = readable(carrier) or readable(carrier.get("scac")) or ""
            code = carrier.get("scac") or carrier.get("code")
            if out.get("carrierCode") is None and isinstance(code, str):
                out["carrierCode"] = code
        if out.get("total") is None:
            found = next((out[k] for k in _TOTAL_KEYS if out.get(k) is not None), None)
            out["total"] = readable_number(found)
        total = out.get("total")
        if isinstance(total, dict):
            currency = total.get("currency") or total.get("currencyCode")
            if out.get("currency") is None and isinstance(currency, str):
                out["currency"] = currency
            out["total"] = readable_number(total)
        return out

    @field_validator("total", mode="before")
    @classmethod
    def _total(cls, value: Any) -> Any:
        return _zero_if_null(value)

    @field_validator("charges", mode="before")
    @classmethod
    def _charges(cls, value: Any) -> Any:
        return records(value)

    @field_validator("currency", mode="before")
    @classmethod
    def _currency(cls, value: Any) -> Any:
        return "USD" if value is None or value == "" else value

    @model_validator(mode="after")
    def _normalise(self) -> Self:
        self.status = norm_status(self.status)
        if self.mode is not None:
            self.mode = norm_mode(self.mode)
        self.currency = norm_currency(self.currency)
        for charge in self.charges:
            charge.currency = norm_currency(charge.currency) if charge.currency else self.currency
        return self

    @property
    def is_ok(self) -> bool:
        """True when the rate can be booked: status ``ok`` and a positive total."""
        return self.status == "ok" and self.total > 0


class Quote(RawModel):
    """The answer to a rate request: the quote id and one rate per carrier offer."""

    id: str
    rates: list[Rate] = Field(default_factory=list)
    created_date: AwareDatetime | None = None
    expires_at: AwareDatetime | None = None
    origin_postal_code: str | None = None
    dest_postal_code: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _quote_id(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("id") is None:
            found = readable(data.get("quoteId") or data.get("quote_id"))
            if found is not None:
                return {**data, "id": found}
        return data

    @field_validator("rates", mode="before")
    @classmethod
    def _rates(cls, value: Any) -> Any:
        return records(value)

    def rate(self, rate_id: str) -> Rate | None:
        """The rate with this id, or None."""
        return next((r for r in self.rates if r.id == rate_id), None)
