"""Booking requests (outgoing) and booking confirmations (incoming, read by alias lists)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Any, ClassVar, Self

from pydantic import AfterValidator, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

from tui.api.models.base import AwareDatetime, IncomingModel, RawModel
from tui.api.models.ends import EndFields, Text
from tui.api.models.lenient import norm_currency, norm_mode, norm_status, readable
from tui.api.wire import DEFAULT_BOOKING_ALIASES, DEFAULT_PARCEL_ALIASES

__all__ = [
    "DEFAULT_BOOKING_ALIASES",
    "DEFAULT_PARCEL_ALIASES",
    "Booking",
    "BookingRequest",
    "Document",
    "ParcelBooking",
    "ParcelBookingRequest",
]


def _nonblank(value: str) -> str:
    if not value:
        raise ValueError("is required")
    return value


Required = Annotated[str, Field(max_length=200), AfterValidator(_nonblank)]


class BookingRequest(EndFields):
    """POST /book body (LTL and truckload); only the quote and rate ids are required."""

    quote_id: Required = Field(alias="id")
    rate_id: Required
    schedule_pickup: bool = False
    pickup_date: date | None = None
    """Sent as ``pickupDate`` (YYYY-MM-DD)."""
    reference: Text = None
    """Shipper's reference (PO, order number); sent only when given."""


class ParcelBookingRequest(EndFields):
    """POST /book/parcel body; only the quote and rate ids are required."""

    quote_id: Required = Field(alias="id")
    rate_id: Required
    pickup_date: date | None = None
    reference: Text = None
    """Shipper's reference (PO, order number); sent only when given."""


class Document(IncomingModel):
    """A document (BOL, label) served at ``url`` with the same bearer token."""

    url: str
    type: str | None = None
    name: str | None = None
    format: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"url": data}
        if isinstance(data, dict) and "url" not in data:
            for key in ("href", "link", "uri", "downloadUrl"):
                if key in data:
                    return {**data, "url": data[key]}
        return data


def pick(data: Mapping[str, Any], aliases: Sequence[str]) -> Any:
    """The value under the first alias present and not null (dotted aliases look inside)."""
    for alias in aliases:
        if alias in data:
            value = data[alias]
        elif "." in alias:
            value = data
            for part in alias.split("."):
                if not isinstance(value, Mapping) or part not in value:
                    value = None
                    break
                value = value[part]
        else:
            continue
        if value is not None and value != "":
            return value
    return None


_IDENTIFIERS = ("shipment_id", "pro_number", "bol_number", "pickup_confirmation", "tracking_number")
_SHIPMENT_PATH = re.compile(r"/shipments/([^/?#]+)")


def _resolve(data: Any, context: Any, key: str, defaults: Mapping[str, tuple[str, ...]]) -> Any:
    """The answer with each known field under its own name, taken from its first alias found."""
    if not isinstance(data, Mapping):
        return data
    aliases: Mapping[str, Sequence[str]] = defaults
    if isinstance(context, Mapping) and key in context:
        aliases = {**defaults, **context[key]}
    out = {k: v for k, v in data.items() if k != "raw"}
    for field, names in aliases.items():
        out.pop(field, None)
        value = pick(data, names)
        if field in _IDENTIFIERS:
            if isinstance(value, Mapping):
                value = pick(value, ("number", "confirmationNumber", "id", "value"))
            value = readable(value) if not isinstance(value, list) else readable(value[:1])
        out[to_camel(field)] = value
    link = readable(out.get("shipmentLink"))
    if out.get("shipmentId") is None and link:
        found = _SHIPMENT_PATH.search(link)
        if found:
            out["shipmentId"] = found.group(1)
    return out


def _listify(value: Any) -> Any:
    if value is None:
        return []
    if isinstance(value, str | int | Mapping):
        return [value]
    return value


class _BookedShipment(RawModel):
    """What every booking response may say of the shipment it created."""

    shipment_id: str | None = None
    status: str | None = None
    mode: str | None = None
    carrier: str | None = None
    carrier_code: str | None = None
    service_type: str | None = None
    total: Decimal | None = None
    currency: str = "USD"
    quote_id: str | None = None
    rate_id: str | None = None
    created_date: AwareDatetime | None = None
    pickup_date: date | None = None
    """The pickup day the service gave (it may have moved the day asked for)."""
    pickup_date_message: str | None = None
    """What the service said about the pickup day (`… is Thanksgiving Day: pickup moved …`)."""
    shipment_link: str | None = None
    """A link to the shipment, when the answer gives one (the id is read from it)."""

    _aliases_key: ClassVar[str] = "booking_aliases"
    _aliases_default: ClassVar[Mapping[str, tuple[str, ...]]] = DEFAULT_BOOKING_ALIASES

    @classmethod
    def model_validate(cls, obj: Any, *args: Any, **kwargs: Any) -> Self:
        """Read the fields from their aliases (``context`` may add some), then validate."""
        context = kwargs.get("context")
        resolved = _resolve(obj, context, cls._aliases_key, cls._aliases_default)
        model = super().model_validate(resolved, *args, **kwargs)
        model.__dict__["raw"] = obj if isinstance(obj, dict) else {}
        return model

    @model_validator(mode="before")
    @classmethod
    def _carrier(cls, data: Any) -> Any:
        carrier = data.get("carrier") if isinstance(data, dict) else None
        if isinstance(carrier, Mapping):
            out = dict(data)
            out["carrier"] = readable(carrier) or readable(carrier.get("scac"))
            if out.get("carrierCode") is None and isinstance(carrier.get("scac"), str):
                out["carrierCode"] = carrier["scac"]
            return out
        return data

    @field_validator("currency", mode="before")
    @classmethod
    def _currency(cls, value: Any) -> Any:
        return "USD" if value is None or value == "" else value

    @field_validator("pickup_date", mode="before")
    @classmethod
    def _pickup_date(cls, value: Any) -> date | None:
        """A date, a date-time (its date as written) or nothing: an odd value is no date."""
        if isinstance(value, datetime):
            return value.date()
        if isinstance(value, date):
            return value
        text = readable(value) if not isinstance(value, bool) else None
        if not text:
            return None
        try:
            return date.fromisoformat(text.strip()[:10])
        except ValueError:
            return None

    @field_validator("pickup_date_message", mode="before")
    @classmethod
    def _pickup_message(cls, value: Any) -> str | None:
        return readable(value) if not isinstance(value, bool) else None

    @model_validator(mode="after")
    def _normalise(self) -> Self:
        if self.status is not None:
            self.status = norm_status(self.status)
        if self.mode is not None:
            self.mode = norm_mode(self.mode)
        self.currency = norm_currency(self.currency)
        return self


class Booking(_BookedShipment):
    """A booked LTL or truckload shipment: PRO, BOL, pickup confirmation, documents."""

    pro_number: str | None = None
    bol_number: str | None = None
    pickup_confirmation: str | None = None
    tracking_number: str | None = None
    documents: list[Document] = Field(default_factory=list)

    @field_validator("documents", mode="before")
    @classmethod
    def _documents(cls, value: Any) -> Any:
        return _listify(value)

    @property
    def identifiers(self) -> dict[str, str]:
        """The numbers the answer gave to find the shipment by (shipment id, PRO, BOL…)."""
        found = {name: getattr(self, name) for name in _IDENTIFIERS}
        return {name: value for name, value in found.items() if value}


class ParcelBooking(_BookedShipment):
    """A booked parcel shipment: tracking numbers and labels."""

    tracking_numbers: list[str] = Field(default_factory=list)
    labels: list[Document] = Field(default_factory=list)

    _aliases_key: ClassVar[str] = "parcel_aliases"
    _aliases_default: ClassVar[Mapping[str, tuple[str, ...]]] = DEFAULT_PARCEL_ALIASES

    @field_validator("tracking_numbers", mode="before")
    @classmethod
    def _tracking(cls, value: Any) -> Any:
        out = []
        for entry in _listify(value):
            if isinstance(entry, Mapping):
                entry = pick(entry, ("trackingNumber", "number", "id"))
            text = readable(entry)
            if text:
                out.append(text)
        return out

    @field_validator("labels", mode="before")
    @classmethod
    def _labels(cls, value: Any) -> Any:
        return _listify(value)

    @property
    def identifiers(self) -> dict[str, str]:
        """The numbers the answer gave to find the shipment by (shipment id, tracking)."""
        found = {"shipment_id": self.shipment_id}
        if self.tracking_numbers:
            found["tracking_number"] = self.tracking_numbers[0]
        return {name: value for name, value in found.items() if value}
