"""Booking requests (outgoing) and booking confirmations (incoming, read by alias lists)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Annotated, Any

from pydantic import AfterValidator, Field, ValidationInfo, field_validator, model_validator
from pydantic.alias_generators import to_camel

from tui.api.models.base import AwareDatetime, IncomingModel, OutgoingModel, RawModel

__all__ = [
    "DEFAULT_BOOKING_ALIASES",
    "DEFAULT_PARCEL_ALIASES",
    "Booking",
    "BookingRequest",
    "Document",
    "ParcelBooking",
    "ParcelBookingRequest",
]

DEFAULT_BOOKING_ALIASES: Mapping[str, tuple[str, ...]] = {
    "shipment_id": ("shipmentId", "shipment_id", "id", "shipment.id"),
    "pro_number": (
        "proNumber",
        "pro_number",
        "pro",
        "proNo",
        "PRO",
        "carrierProNumber",
        "shipment.proNumber",
    ),
    "bol_number": ("bolNumber", "bol_number", "bol", "bolNo", "BOL", "billOfLading"),
    "pickup_confirmation": (
        "pickupConfirmation",
        "pickup_confirmation",
        "pickupNumber",
        "pickupConfirmationNumber",
        "confirmationNumber",
        "pickup.confirmationNumber",
        "pickup.number",
    ),
    "documents": ("documents", "docs", "files"),
}
"""Where a booking response may carry each value: first present wins (dotted = nested)."""

DEFAULT_PARCEL_ALIASES: Mapping[str, tuple[str, ...]] = {
    "shipment_id": ("shipmentId", "shipment_id", "id", "shipment.id"),
    "tracking_numbers": (
        "trackingNumbers",
        "tracking_numbers",
        "trackingNumber",
        "tracking_number",
        "trackingNos",
        "tracking",
    ),
    "labels": ("labels", "label", "documents", "labelUrls"),
}
"""Where a parcel booking response may carry each value: first present wins."""

_HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def _hhmm(value: str | None) -> str | None:
    if value is None or value == "":
        return None
    if len(value) == 4 and value[1] == ":":
        value = "0" + value
    if not _HHMM.match(value):
        raise ValueError("must be a 24-hour time like 08:00 or 16:30")
    return value


def _phone(value: str | None) -> str | None:
    if value is None or value == "":
        return None
    digits = sum(ch.isdigit() for ch in value)
    if digits < 7 or digits > 15 or not re.fullmatch(r"[\d\s().+\-xX#ext]*", value):
        raise ValueError("must be a phone number like 404-555-0100")
    return value


def _email(value: str | None) -> str | None:
    if value is None or value == "":
        return None
    if not _EMAIL.match(value):
        raise ValueError("must be an email address like name@example.com")
    return value


def _nonblank(value: str) -> str:
    if not value:
        raise ValueError("is required")
    return value


Required = Annotated[str, Field(max_length=200), AfterValidator(_nonblank)]
Optional = Annotated[str | None, Field(default=None, max_length=200)]
DockTime = Annotated[str | None, AfterValidator(_hhmm)]
Phone = Annotated[str | None, Field(max_length=40), AfterValidator(_phone)]
Email = Annotated[str | None, Field(max_length=200), AfterValidator(_email)]


def _after_open(value: str | None, info: ValidationInfo) -> str | None:
    opening = info.data.get("origin_dock_hours_open")
    if value is not None and opening is not None and value <= opening:
        raise ValueError("must be later than the opening time")
    return value


class BookingRequest(OutgoingModel):
    """POST /book body (LTL and truckload). Company and address at both ends are required."""

    quote_id: Required = Field(alias="id")
    rate_id: Required
    schedule_pickup: bool = False
    origin_company: Required
    origin_address: Required
    origin_contact_name: Optional = None
    origin_contact_phone: Phone = None
    origin_dock_hours_open: DockTime = None
    origin_dock_hours_close: DockTime = None
    dest_company: Required
    dest_address: Required
    dest_contact_name: Optional = None
    dest_contact_phone: Phone = None
    reference: Optional = None
    """Shipper's reference (PO, order number); sent only when given."""

    @field_validator("origin_dock_hours_close")
    @classmethod
    def _close_after_open(cls, value: str | None, info: ValidationInfo) -> str | None:
        return _after_open(value, info)


class ParcelBookingRequest(OutgoingModel):
    """POST /book/parcel body. Only the quote and rate ids are required."""

    quote_id: Required = Field(alias="id")
    rate_id: Required
    origin_company: Optional = None
    origin_address: Optional = None
    origin_contact_name: Optional = None
    origin_contact_phone: Phone = None
    origin_contact_email: Email = None
    dest_company: Optional = None
    dest_address: Optional = None
    dest_contact_name: Optional = None
    dest_contact_phone: Phone = None
    dest_contact_email: Email = None
    reference: Optional = None
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


def _resolve(
    data: Any, info: ValidationInfo, key: str, defaults: Mapping[str, tuple[str, ...]]
) -> Any:
    if not isinstance(data, Mapping):
        return data
    aliases: Mapping[str, Sequence[str]] = defaults
    if info.context and key in info.context:
        aliases = {**defaults, **info.context[key]}
    out = dict(data)
    out.setdefault("raw", data)
    for field, names in aliases.items():
        out.pop(field, None)
        out[to_camel(field)] = pick(data, names)
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
    quote_id: str | None = None
    rate_id: str | None = None
    created_date: AwareDatetime | None = None


class Booking(_BookedShipment):
    """A booked LTL or truckload shipment: PRO, BOL, pickup confirmation, documents."""

    pro_number: str | None = None
    bol_number: str | None = None
    pickup_confirmation: str | None = None
    documents: list[Document] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _aliases(cls, data: Any, info: ValidationInfo) -> Any:
        return _resolve(data, info, "booking_aliases", DEFAULT_BOOKING_ALIASES)

    @field_validator("documents", mode="before")
    @classmethod
    def _documents(cls, value: Any) -> Any:
        return _listify(value)

    @field_validator("pickup_confirmation", "pro_number", "bol_number", mode="before")
    @classmethod
    def _number_inside(cls, value: Any) -> Any:
        if isinstance(value, Mapping):
            return pick(value, ("number", "confirmationNumber", "id", "value"))
        return value


class ParcelBooking(_BookedShipment):
    """A booked parcel shipment: tracking numbers and labels."""

    tracking_numbers: list[str] = Field(default_factory=list)
    labels: list[Document] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _aliases(cls, data: Any, info: ValidationInfo) -> Any:
        return _resolve(data, info, "parcel_aliases", DEFAULT_PARCEL_ALIASES)

    @field_validator("tracking_numbers", mode="before")
    @classmethod
    def _tracking(cls, value: Any) -> Any:
        out = []
        for entry in _listify(value):
            if isinstance(entry, Mapping):
                entry = pick(entry, ("trackingNumber", "number", "id"))
            if entry is not None and entry != "":
                out.append(str(entry))
        return out

    @field_validator("labels", mode="before")
    @classmethod
    def _labels(cls, value: Any) -> Any:
        return _listify(value)
