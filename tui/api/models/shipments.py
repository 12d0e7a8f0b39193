"""Shipment search query (outgoing), listings, pages and details (incoming)."""

from __future__ import annotations

from datetime import UTC, date, datetime, tzinfo
from datetime import time as dt_time
from decimal import Decimal
from typing import Any, Self
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AliasChoices,
    Field,
    ModelWrapValidatorHandler,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from tui.api.models.base import (
    AwareDatetime,
    IncomingModel,
    LenientDate,
    OutgoingModel,
    RawModel,
)
from tui.api.models.booking import Document
from tui.api.models.lenient import (
    norm_currency,
    norm_mode,
    norm_status,
    readable,
    records,
    validate_leniently,
)
from tui.api.models.values import parse_dock_time
from tui.domain.shipments import MODES, SHIPMENT_STATUSES

__all__ = [
    "MODES",
    "SHIPMENT_STATUSES",
    "Address",
    "CarrierRef",
    "Cost",
    "Shipment",
    "ShipmentDetail",
    "ShipmentItem",
    "ShipmentPage",
    "ShipmentQuery",
    "Tracking",
    "TrackingEvent",
    "event_moment",
    "newest_first",
]


_TOTAL = AliasChoices("total", "amount")
_PRO = AliasChoices("proNumber", "pro_number", "pro", "proNo", "PRO")
_BOL = AliasChoices("bolNumber", "bol_number", "bol", "bolNo", "BOL")


def _empty_list(value: Any) -> Any:
    return [] if value is None else value


def _documents(value: Any) -> Any:
    """Documents: objects, or bare URLs as text."""
    if isinstance(value, list):
        return [entry for entry in value if isinstance(entry, dict | str)]
    return _empty_list(value)


class Address(IncomingModel):
    """An address block, every field optional (contact and dock hours when a server sends them)."""

    company: str | None = None
    address: str | None = None
    address2: str | None = None
    city: str | None = None
    state: str | None = None
    postal_code: str | None = None
    country: str | None = None
    contact_name: str | None = None
    contact_phone: str | None = None
    contact_email: str | None = None
    dock_hours_open: str | None = None
    dock_hours_close: str | None = None

    def one_line(self) -> str:
        """``Company, City, ST 12345`` with whatever parts are known."""
        place = " ".join(p for p in (self.state, self.postal_code) if p)
        parts = [p for p in (self.company, self.city, place) if p]
        return ", ".join(parts)


class CarrierRef(IncomingModel):
    """The carrier of a shipment."""

    name: str | None = None
    scac: str | None = None


class Cost(IncomingModel):
    """The cost of a shipment, in ``currency`` (USD unless the server says otherwise).

    The later interface's selected quote writes ``amount`` where this reads ``total``.
    """

    total: Decimal | None = Field(default=None, validation_alias=_TOTAL)
    currency: str | None = None


def _address(value: Any) -> Any:
    return {} if value is None else value


def _carrier(value: Any) -> Any:
    return {"name": value} if isinstance(value, str) else value


def _cost(value: Any) -> Any:
    if isinstance(value, int | float | Decimal | str) and not isinstance(value, bool):
        return {"total": value}
    return value


def _lenient_entry(data: Any) -> Any:
    """A listing entry with the odd shapes a server may send made regular (slow path only)."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    for key in ("origin", "destination"):
        if key in out and out[key] is None:
            out[key] = {}
    out["carrier"] = _carrier(out.get("carrier"))
    out["cost"] = _cost(out.get("cost"))
    if "status" in out and out["status"] is None:
        out["status"] = ""
    return out


def _one_entry(entry: Any) -> Shipment | None:
    """One listing entry read leniently; None when it cannot be read (no id)."""
    try:
        return Shipment.model_validate(entry)
    except ValidationError:
        return None


def _finish(model: Shipment, entry: Any) -> None:
    """Attach the entry as ``raw``, take a date-time without offset as UTC, and normalise
    status, mode and currency (so they compare whatever case the server wrote)."""
    fields = model.__dict__
    if isinstance(entry, dict):
        fields["raw"] = entry
    created = fields["created_date"]
    if created is not None and created.tzinfo is None:
        fields["created_date"] = created.replace(tzinfo=UTC)
    status = fields["status"]
    if status and status not in _STATUSES:
        fields["status"] = norm_status(status)
    mode = fields["mode"]
    if mode and mode not in _MODES:
        fields["mode"] = norm_mode(mode)
    cost = fields["cost"]
    if cost is not None and cost.__dict__["currency"] not in _CURRENCIES:
        _currency(cost)


_STATUSES = frozenset(SHIPMENT_STATUSES)
_MODES = frozenset(MODES)
_CURRENCIES = frozenset(("USD", "CAD"))


def _currency(cost: Cost) -> None:
    currency = cost.currency
    cost.__dict__["currency"] = "USD" if not currency else norm_currency(currency)


class Shipment(IncomingModel):
    """A shipment as listed by a search; ``raw`` is the entry as the server sent it.

    Pages of these are the hot path, so the model has no per-entry Python validators: odd shapes
    (a null address, a carrier as text, a cost as a number, a null status) are made regular only
    when a first validation fails, and ``raw`` and the UTC rule are applied after validation, by
    ``ShipmentPage`` for a page and by ``Shipment.model_validate`` for one entry.
    """

    id: str
    created_date: datetime | None = None
    status: str = ""
    origin: Address = Field(default_factory=Address)
    destination: Address = Field(default_factory=Address)
    carrier: CarrierRef | None = None
    cost: Cost | None = None
    pro_number: str | None = Field(default=None, validation_alias=_PRO)
    mode: str | None = None
    service_type: str | None = None
    tracking_number: str | None = None
    bol_number: str | None = Field(default=None, validation_alias=_BOL)
    reference: str | None = None
    quote_id: str | None = None
    pickup_date: LenientDate | None = None
    raw: dict[str, Any] = Field(default_factory=dict, exclude=True, repr=False)

    @classmethod
    def model_validate(cls, obj: Any, *args: Any, **kwargs: Any) -> Self:
        """Validate one listing entry with the same leniency as a page."""
        strict = super(IncomingModel, cls).model_validate
        try:
            model = strict(obj, *args, **kwargs)
        except ValidationError:
            model = validate_leniently(lambda d: strict(d, *args, **kwargs), _lenient_entry(obj))
        _finish(model, obj)
        return model


class ShipmentItem(IncomingModel):
    """One line of freight in a shipment detail."""

    weight: Decimal | None = None
    length: Decimal | None = None
    width: Decimal | None = None
    height: Decimal | None = None
    quantity: int | None = None
    description: str | None = None
    package: str | None = None
    hazardous: bool | None = None
    nmfc: str | None = None
    freight_class: Decimal | None = None

    @model_validator(mode="before")
    @classmethod
    def _pieces(cls, data: Any) -> Any:
        """Real clients write the count of handling units as ``pieces``."""
        if isinstance(data, dict) and data.get("quantity") is None and "pieces" in data:
            return {**data, "quantity": data["pieces"]}
        return data


class Tracking(IncomingModel):
    """Tracking summary of a shipment."""

    status: str | None = None
    tracking_number: str | None = None
    pickup_date: AwareDatetime | None = None
    delivery_date: AwareDatetime | None = None


class TrackingEvent(IncomingModel):
    """One event in a shipment's history; ``time`` is aware whichever way the server wrote it.

    ``time`` comes from ``time`` itself, else from ``eventDate`` + ``eventTime`` when an offset or
    time zone is given, else from ``createdDate``, else from ``eventDate`` + ``eventTime`` taken
    as UTC (like every date-time without offset).
    """

    time: AwareDatetime | None = None
    status: str | None = None
    description: str | None = None
    location: str | None = None
    summary: str | None = None
    event_type: str | None = None
    event_date: LenientDate | None = None
    event_time: str | None = None
    created_date: AwareDatetime | None = None
    time_zone: str | None = None
    offset: str | None = None

    @field_validator("location", mode="before")
    @classmethod
    def _location(cls, value: Any) -> Any:
        if isinstance(value, dict):
            city, state = value.get("city"), value.get("state")
            return ", ".join(str(p) for p in (city, state) if p) or None
        return value

    @model_validator(mode="after")
    def _when(self) -> Self:
        if self.time is None:
            self.time = event_moment(self)
        if self.description is None:
            self.description = self.summary
        if self.summary is None:
            self.summary = self.description
        if self.status is None and self.event_type is not None:
            self.status = self.event_type
        return self


def event_zone(event: TrackingEvent) -> tzinfo | None:
    """The offset or IANA zone the event gives, or None."""
    if event.offset:
        try:
            return datetime.strptime(event.offset.replace("UTC", "").strip(), "%z").tzinfo
        except ValueError:
            pass
    if event.time_zone:
        try:
            return ZoneInfo(event.time_zone.strip())
        except (ValueError, ZoneInfoNotFoundError):
            return None
    return None


def event_moment(event: TrackingEvent) -> datetime | None:
    """The aware date-time of an event from its separate date, time and zone fields."""
    local: datetime | None = None
    if event.event_date is not None:
        clock = _clock(event.event_time)
        local = datetime.combine(event.event_date, clock or dt_time(0))
        if clock is not None and clock.tzinfo is not None:
            return local
    zone = event_zone(event)
    if local is not None and zone is not None:
        return local.replace(tzinfo=zone)
    if event.created_date is not None:
        return event.created_date
    return None if local is None else local.replace(tzinfo=UTC)


def _clock(text: str | None) -> dt_time | None:
    """``14:30``, ``14:30:00``, ``14:30-05:00`` or ``2:30 PM``; None if unreadable."""
    if not text:
        return None
    try:
        return dt_time.fromisoformat(text.strip())
    except ValueError:
        pass
    try:
        parsed = parse_dock_time(text)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dt_time) else None


def newest_first(events: list[TrackingEvent]) -> list[TrackingEvent]:
    """Events sorted newest first; events without a time last, in the order given."""
    floor = datetime.min.replace(tzinfo=UTC)
    return sorted(events, key=lambda e: e.time or floor, reverse=True)


class ShipmentDetail(RawModel):
    """A shipment as read by id."""

    id: str
    created_date: AwareDatetime | None = None
    status: str = ""
    origin: Address = Field(default_factory=Address)
    destination: Address = Field(default_factory=Address)
    items: list[ShipmentItem] = Field(default_factory=list)
    tracking: Tracking | None = None
    documents: list[Document] = Field(default_factory=list)
    pro_number: str | None = Field(default=None, validation_alias=_PRO)
    bol_number: str | None = Field(default=None, validation_alias=_BOL)
    mode: str | None = None
    service_type: str | None = None
    pickup_date: LenientDate | None = None
    pickup_date_message: str | None = None
    """What the service said about the pickup day (e.g. moved off a holiday), when it did."""
    pickup_confirmation: str | None = None
    quote_id: str | None = None
    rate_id: str | None = None
    reference: str | None = None
    events: list[TrackingEvent] = Field(default_factory=list)
    carrier: CarrierRef | None = None
    cost: Cost | None = None

    _addr = field_validator("origin", "destination", mode="before")(_address)
    _carr = field_validator("carrier", mode="before")(_carrier)
    _cst = field_validator("cost", mode="before")(_cost)
    _lists = field_validator("items", "events", mode="before")(records)
    _docs = field_validator("documents", mode="before")(_documents)

    @model_validator(mode="before")
    @classmethod
    def _event_list(cls, data: Any) -> Any:
        """Events may come as ``trackingEvents`` or inside ``tracking``."""
        if not isinstance(data, dict) or data.get("events") is not None:
            return data
        tracking = data.get("tracking")
        found = data.get("trackingEvents")
        if found is None and isinstance(tracking, dict):
            found = tracking.get("events")
        return {**data, "events": found} if isinstance(found, list) else data

    @field_validator("status", mode="before")
    @classmethod
    def _status(cls, value: Any) -> Any:
        return "" if value is None else value

    @field_validator("pickup_date_message", mode="before")
    @classmethod
    def _pickup_message(cls, value: Any) -> str | None:
        return readable(value) if not isinstance(value, bool) else None

    @model_validator(mode="after")
    def _normalise(self) -> Self:
        if self.status:
            self.status = norm_status(self.status)
        if self.mode:
            self.mode = norm_mode(self.mode)
        if self.cost is not None:
            _currency(self.cost)
        return self


class ShipmentPage(RawModel):
    """One page of a search; ``continuation_token`` is None on the last page."""

    shipments: list[Shipment] = Field(default_factory=list)
    continuation_token: str | None = None

    _lists = field_validator("shipments", mode="before")(_empty_list)

    @model_validator(mode="wrap")
    @classmethod
    def _listing(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        entries = data.get("shipments") if isinstance(data, dict) else None
        try:
            page = handler(data)
        except ValidationError:
            if not isinstance(entries, list):
                raise
            page = handler({**data, "shipments": []})
            page.__dict__["shipments"] = [
                shipment for shipment in map(_one_entry, entries) if shipment is not None
            ]
            return page
        if isinstance(entries, list) and len(entries) == len(page.shipments):
            for model, entry in zip(page.shipments, entries, strict=True):
                _finish(model, entry)
        return page

    @field_validator("continuation_token", mode="before")
    @classmethod
    def _token(cls, value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            return None
        return value


class ShipmentQuery(OutgoingModel):
    """Search filters, all optional; status and mode must be known values."""

    text: str | None = Field(default=None, max_length=200)
    status: str | None = None
    mode: str | None = None
    pickup_date_from: date | None = None
    pickup_date_to: date | None = None

    @field_validator("text", "status", "mode", mode="after")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value or None

    @field_validator("status", mode="after")
    @classmethod
    def _status_case(cls, value: str | None) -> str | None:
        return norm_status(value) if value else value

    @field_validator("mode", mode="after")
    @classmethod
    def _mode_case(cls, value: str | None) -> str | None:
        return norm_mode(value) if value else value

    @field_validator("status")
    @classmethod
    def _known_status(cls, value: str | None) -> str | None:
        if value is not None and value not in SHIPMENT_STATUSES:
            raise ValueError("must be one of " + ", ".join(SHIPMENT_STATUSES))
        return value

    @field_validator("mode")
    @classmethod
    def _known_mode(cls, value: str | None) -> str | None:
        if value is not None and value not in MODES:
            raise ValueError("must be one of " + ", ".join(MODES))
        return value

    @field_validator("pickup_date_to")
    @classmethod
    def _range(cls, value: date | None, info: ValidationInfo) -> date | None:
        start = info.data.get("pickup_date_from")
        if value is not None and start is not None and value < start:
            raise ValueError("must not be before the start date")
        return value
