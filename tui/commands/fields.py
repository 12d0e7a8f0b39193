"""The commands' machine-readable records and ``--json FIELD,…`` (as in gh).

Every command's JSON, JSON Lines (and the shipments' CSV) are records of the one vocabulary of
:mod:`tui.vocabulary`: ``shipments`` writes :data:`tui.export.SHIPMENT_FIELDS`, ``shipment``
and ``track`` :data:`DETAIL_FIELDS`, ``rates`` :data:`RATE_FIELDS`. A command takes the flag
with :func:`tui.commands.args.add_json_flag`; at run time :func:`output_of` turns ``--format``
and ``--json`` into the format and the fields, and :func:`write_records` writes them. ``--json``
alone lists the fields (:func:`list_fields`); ``--help`` names them (:func:`fields_help`).
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from tui.commands.exits import OK, UsageError
from tui.export import SHIPMENT_FIELDS, json_text
from tui.listing.rows import Place, ShipmentRow
from tui.vocabulary import Field, FieldSet, UnknownFieldsError, moment, money

if TYPE_CHECKING:
    from tui.api.models import Address, Quote, Rate, ShipmentDetail

__all__ = [
    "DETAIL_FIELDS",
    "RATE_FIELDS",
    "TRACK_FIELDS",
    "Output",
    "QuotedRate",
    "fields_help",
    "fieldset_of",
    "list_fields",
    "output_of",
    "write_records",
]


# -- shipment detail (``freight shipment``, ``freight track``) ---------------------------------


def _listed(detail: ShipmentDetail) -> ShipmentRow:
    """The detail seen as a listed shipment, so the fields both have are read the same way."""

    carrier, cost, tracking = detail.carrier, detail.cost, detail.tracking
    return ShipmentRow(
        id=detail.id,
        created_date=detail.created_date,
        status=detail.status,
        origin=Place.of(detail.origin),
        destination=Place.of(detail.destination),
        carrier_name=carrier.name if carrier else None,
        scac=carrier.scac if carrier else None,
        total=cost.total if cost else None,
        currency=cost.currency if cost else None,
        pro_number=detail.pro_number,
        mode=detail.mode,
        service_type=detail.service_type,
        tracking_number=tracking.tracking_number if tracking else None,
        bol_number=detail.bol_number,
        reference=detail.reference,
        quote_id=detail.quote_id,
        pickup_date=detail.pickup_date,
    )


def _end_details(prefix: str, end: Callable[[ShipmentDetail], Address]) -> list[Field[Any]]:
    """Street, country and contact of one end (``originAddress`` … ``destContactEmail``)."""
    words = "origin" if prefix == "origin" else "destination"
    parts = (
        ("Address", "street address", "address"),
        ("Address2", "second address line", "address2"),
        ("Country", "country", "country"),
        ("ContactName", "contact's name", "contact_name"),
        ("ContactPhone", "contact's phone", "contact_phone"),
        ("ContactEmail", "contact's email", "contact_email"),
    )

    def get(attribute: str) -> Callable[[ShipmentDetail], Any]:
        return lambda detail: getattr(end(detail), attribute)

    return [Field(prefix + name, f"{words} {text}", get(attr)) for name, text, attr in parts]


def _items(detail: ShipmentDetail) -> list[dict[str, Any]]:
    return [
        {
            "quantity": item.quantity,
            "package": item.package,
            "weight": item.weight,
            "length": item.length,
            "width": item.width,
            "height": item.height,
            "freightClass": item.freight_class,
            "nmfc": item.nmfc,
            "description": item.description,
            "hazardous": item.hazardous,
        }
        for item in detail.items
    ]


def _events(detail: ShipmentDetail) -> list[dict[str, Any]]:
    ordered = sorted(detail.events, key=lambda e: (e.time is None, e.time))
    return [
        {
            "time": moment(e.time),
            "status": e.status,
            "location": e.location,
            "description": e.description,
        }
        for e in ordered
    ]


def _tracking(detail: ShipmentDetail) -> dict[str, Any] | None:
    tracking = detail.tracking
    if tracking is None:
        return None
    return {
        "status": tracking.status,
        "trackingNumbers": [tracking.tracking_number] if tracking.tracking_number else [],
        "pickupTime": moment(tracking.pickup_date),
        "deliveryTime": moment(tracking.delivery_date),
    }


def _documents(detail: ShipmentDetail) -> list[dict[str, Any]]:
    return [
        {"type": d.type, "name": d.name, "format": d.format, "url": d.url} for d in detail.documents
    ]


def _detail_fields() -> list[Field[Any]]:

    def listed(field: Field[Any]) -> Field[Any]:
        return Field(field.name, field.help, lambda d: field.get(_listed(d)), field.verbatim)

    common = [listed(f) for f in SHIPMENT_FIELDS.fields]
    at = {f.name: n for n, f in enumerate(common)}
    origin_end, dest_end = at["originPostalCode"] + 1, at["destPostalCode"] + 1
    return [
        *common[:origin_end],
        *_end_details("origin", lambda d: d.origin),
        *common[origin_end:dest_end],
        *_end_details("dest", lambda d: d.destination),
        *common[dest_end:],
        Field("rateId", "the rate it was booked from", lambda d: d.rate_id),
        Field("pickupConfirmation", "pickup confirmation number", lambda d: d.pickup_confirmation),
        Field(
            "tracking",
            "the service's tracking summary: status, trackingNumbers, pickupTime, deliveryTime",
            _tracking,
        ),
        Field(
            "items",
            "the freight: quantity, package, weight (lb per unit), length, width, height "
            "(in), freightClass, nmfc, description, hazardous",
            _items,
        ),
        Field("events", "tracking events, oldest first: time, status, location, description",
              _events),
        Field("documents", "documents: type, name, format, url", _documents),
    ]  # fmt: skip


DETAIL_FIELDS: FieldSet[ShipmentDetail] = FieldSet("shipment", _detail_fields())
"""The fields of one shipment read by id (``freight shipment``): a listed shipment's fields,
then addresses, contacts, tracking, items, events and documents."""

TRACK_FIELDS: FieldSet[ShipmentDetail] = FieldSet(
    "shipment",
    DETAIL_FIELDS.fields,
    default=(
        "shipmentId",
        "status",
        "proNumber",
        "bolNumber",
        "trackingNumbers",
        "carrier",
        "events",
    ),
)
"""``freight track``: the same fields as ``shipment``; by default the status and events."""


# -- rates -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class QuotedRate:
    """One rate of a quote (a record of ``freight rates`` carries its quote's id)."""

    quote: Quote
    rate: Rate


def _charges(quoted: QuotedRate) -> list[dict[str, Any]]:
    rate = quoted.rate
    return [
        {"name": c.name, "amount": money(c.amount), "currency": c.currency or rate.currency}
        for c in rate.charges
    ]


def _ok(get: Callable[[Rate], Any]) -> Callable[[QuotedRate], Any]:
    """A value that means something only for a rate that can be booked (else null)."""
    return lambda q: get(q.rate) if q.rate.is_ok else None


RATE_FIELDS: FieldSet[QuotedRate] = FieldSet(
    "rate",
    [
        Field("quoteId", "the quote's id (booking needs it)", lambda q: q.quote.id),
        Field("rateId", "the rate's id (booking needs it)", lambda q: q.rate.id),
        Field("status", "ok when it can be booked; else the service's word",
              lambda q: q.rate.status),
        Field("message", "why it cannot be booked (when not ok)", lambda q: q.rate.message),
        Field("carrier", "the carrier's name", lambda q: q.rate.carrier),
        Field("scac", "the carrier's SCAC code", lambda q: q.rate.carrier_code),
        Field("serviceType", "the carrier's service level", lambda q: q.rate.service_type),
        Field("mode", "ltl, parcel or truckload", lambda q: q.rate.mode),
        Field("transitDays", "estimated transit days", _ok(lambda r: r.days)),
        Field("total", 'total cost, a decimal string ("1234.50")', _ok(lambda r: money(r.total)),
              verbatim=True),
        Field("currency", "the currency of total and charges", lambda q: q.rate.currency),
        Field("charges", "the breakdown: name, amount (a decimal string), currency", _charges),
        Field("expiresAt", "bookable until (ISO 8601)",
              lambda q: moment(q.rate.expires_at or q.quote.expires_at)),
        Field("originPostalCode", "origin ZIP or postal code",
              lambda q: q.quote.origin_postal_code),
        Field("destPostalCode", "destination ZIP or postal code",
              lambda q: q.quote.dest_postal_code),
    ],
)  # fmt: skip
"""The fields of one carrier's rate (``freight rates``: one record per rate)."""


# -- which fields a command writes -----------------------------------------------------------


def fieldset_of(command: str) -> FieldSet[Any]:
    """The records a command writes (``shipments``, ``shipment``, ``track``, ``rates``)."""
    if command == "shipments":
        from tui.export import SHIPMENT_FIELDS

        return SHIPMENT_FIELDS
    found: dict[str, FieldSet[Any]] = {
        "shipment": DETAIL_FIELDS,
        "track": TRACK_FIELDS,
        "rates": RATE_FIELDS,
    }
    return found[command]


@dataclass(frozen=True)
class Output:
    """The format a command writes (``table``, ``json``, ``jsonl``, ``csv``) and its fields."""

    format: str
    fields: tuple[Field[Any], ...]


def output_of(args: argparse.Namespace, fieldset: FieldSet[Any], fmt: str | None) -> Output:
    """The format (``fmt``: the one asked for, None when not said) and the fields of ``--json``.

    ``--json FIELDS`` alone means JSON; with ``--format jsonl`` (or ``csv`` where a command
    writes it) it chooses that format's fields; with ``--format table`` it is a usage error.
    """
    wanted: str | None = getattr(args, "json", None)
    if wanted is not None and not any(name.strip() for name in wanted.split(",")):
        # (``--json`` alone lists the fields before this.) Blanks and commas name nothing:
        # refused rather than taken for every field. What was typed is quoted with its
        # control characters as escapes (``'\r'``), never sent to the terminal.
        from tui.domain.safe_text import visible

        shown = visible(wanted, keep_newlines=False)
        raise UsageError(
            f"--json '{shown}' names no field; the fields are: {', '.join(fieldset.names)}"
        )
    if wanted is not None:
        if fmt == "table":
            raise UsageError("--json writes JSON: leave out --format table (or say json, jsonl)")
        fmt = fmt or "json"
    try:
        chosen = fieldset.select(wanted)
    except UnknownFieldsError as error:
        raise UsageError(f"--json: {error}") from None
    return Output(fmt or "table", chosen)


def write_records(
    records: Iterable[dict[str, Any]], fmt: str, out: TextIO, *, one: bool = False
) -> None:
    """``json``: an array (or, with ``one``, the object alone when there is exactly one);
    ``jsonl``: one object a line. Decimals are written exactly."""

    listed = list(records)
    if fmt == "jsonl":
        for record in listed:
            print(json_text(record), file=out)
        return
    value: Any = listed[0] if one and len(listed) == 1 else listed
    print(json_text(value, indent=2), file=out)


def list_fields(fieldset: FieldSet[Any], out: TextIO) -> int:
    """``--json`` alone: each field's name and what it holds, one a line."""
    width = max(len(name) for name in fieldset.names) + 2
    for name, text in fieldset.describe():
        print(f"{name:<{width}}{text}", file=out)
    return OK


def fields_help(fieldset: FieldSet[Any], width: int = 78) -> str:
    """The paragraph of ``--help`` that names a command's JSON fields."""
    default = (
        ""
        if fieldset.default == fieldset.fields
        else " (default: " + ",".join(f.name for f in fieldset.default) + ")"
    )
    text = (
        f"JSON fields (--json FIELD,FIELD{default}; --json alone describes them): "
        + ", ".join(fieldset.names)
        + ". Money is a decimal string beside its currency."
    )
    return textwrap.fill(text, width)
