"""A batch's orders as records of the one vocabulary (``tui.vocabulary``): what ``freight
batch`` writes as JSON, JSON Lines and CSV, one record per order.

The default record has exactly these keys: ``order``, ``status``, ``errors``, ``carrier``,
``serviceType``, ``transitDays``, ``total``, ``currency``, ``pickupDate``, ``proNumber``,
``bolNumber``, ``trackingNumbers``, ``pickupConfirmation``, ``bookingReference``. ``--json``
selects others too: ``scac``, ``mode``, ``quoteId``, ``rateId``, ``chosenBy``, ``shipmentId``,
and what the file said (``rows``, ``destination``, ``pieces``, ``totalWeight``, ``notes``).
Every name is the glossary's (``tui.vocabulary.GLOSSARY``). Money is a decimal string beside its
currency; unknown values are null.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from tui.batch.model import OUTPUT_STATUS, Order, OrderState, RateOption, RowError
from tui.vocabulary import Field, FieldSet, money, pounds

RECORD_KEYS: Final = (
    "order", "status", "errors", "carrier", "serviceType", "transitDays", "total", "currency",
    "pickupDate", "proNumber", "bolNumber", "trackingNumbers", "pickupConfirmation",
    "bookingReference",
)  # fmt: skip


@dataclass(frozen=True)
class BatchOrder:
    """One order of a batch: as the file says it (None when no longer in it) and its state."""

    order: Order | None
    state: OrderState


def _status(item: BatchOrder) -> str:

    return OUTPUT_STATUS[item.state.status]


def _errors(item: BatchOrder) -> list[dict[str, Any]]:
    errors = item.state.errors or (item.order.errors if item.order is not None else ())
    out = [error.to_json() for error in errors]
    if item.state.owes_paperwork:  # booked, and its BOL or labels not all saved
        reason = f"paperwork missing: {item.state.paperwork_missing}"
        out.append({"row": None, "column": None, "value": None, "reason": reason})
    return out


def _chosen(get: Callable[[RateOption], Any]) -> Callable[[BatchOrder], Any]:
    """A value of the chosen rate (null when none is chosen)."""

    def read(item: BatchOrder) -> Any:
        choice = item.state.choice
        return get(choice) if choice is not None else None

    return read


def _text(get: Callable[[OrderState], str]) -> Callable[[BatchOrder], str | None]:
    return lambda item: get(item.state) or None


BATCH_FIELDS: FieldSet[BatchOrder] = FieldSet(
    "order",
    [
        Field("order", "the order number (the file's order column)", lambda i: i.state.key),
        Field("status", "invalid, pending, rated, no-rate, failed, booked or unknown", _status),
        Field("errors", "what is wrong: [{row, column, value, reason}] (row and column of the "
              "file when the file is wrong)", _errors),
        Field("carrier", "the chosen rate's carrier", _chosen(lambda r: r.carrier or None)),
        Field("serviceType", "the chosen rate's service level",
              _chosen(lambda r: r.service or None)),
        Field("transitDays", "the chosen rate's transit days", _chosen(lambda r: r.days)),
        Field("total", 'the chosen rate\'s total, a decimal string ("1234.50")',
              _chosen(lambda r: money(r.total)), verbatim=True),
        Field("currency", "the currency of total", _chosen(lambda r: r.currency or None)),
        Field("pickupDate", "the pickup day asked for (YYYY-MM-DD)",
              _text(lambda s: s.pickup_date)),
        Field("proNumber", "the carrier's PRO, once booked", _text(lambda s: s.pro_number)),
        Field("bolNumber", "the bill of lading number, once booked", _text(lambda s: s.bol_number)),
        Field("trackingNumbers", "parcel tracking numbers, once booked",
              lambda i: list(i.state.tracking_numbers)),
        Field("pickupConfirmation", "the pickup's confirmation number, once booked",
              _text(lambda s: s.pickup_confirmation)),
        Field("bookingReference", "the booking's own reference (FRT…), searched for after an "
              "unknown outcome", _text(lambda s: s.reference)),
        Field("scac", "the chosen rate's carrier's SCAC code",
              _chosen(lambda r: r.carrier_code or None)),
        Field("mode", "the chosen rate's mode: ltl, parcel or truckload",
              _chosen(lambda r: r.mode or None)),
        Field("quoteId", "the quote the order's rates came from", _text(lambda s: s.quote_id)),
        Field("rateId", "the chosen rate's id", _text(lambda s: s.chosen)),
        Field("chosenBy", "rule or hand", _text(lambda s: s.chosen_by)),
        Field("shipmentId", "the booked shipment's id", _text(lambda s: s.shipment_id)),
        Field("rows", "the file's rows of the order",
              lambda i: list(i.order.rows) if i.order is not None else []),
        Field("destination", "city, state and ZIP it goes to",
              lambda i: (i.order.dest_text or None) if i.order is not None else None),
        Field("pieces", "handling units", lambda i: i.order.pieces if i.order else None),
        Field("totalWeight", "the order's total pounds, a number",
              lambda i: pounds(i.order.weight_lb) if i.order and i.order.valid else None,
              verbatim=True),
        Field("notes", "what was read otherwise than written (a ship date moved…)",
              lambda i: list(i.state.notes)),
        Field("paperworkMissing", "why a booked order's BOL or labels are not all saved "
              "(null: none missing); batch paperwork fetches them",
              lambda i: i.state.paperwork_missing or None if i.state.owes_paperwork else None),
        Field("paperworkFiles", "the paperwork files saved, in the batch's documents folder",
              lambda i: list(i.state.documents)),
    ],
    default=RECORD_KEYS,
)  # fmt: skip
"""The fields of one order of a batch (``freight batch``: one record per order)."""


def order_record(order: Order | None, state: OrderState) -> dict[str, Any]:
    """One order in the default record (exactly ``RECORD_KEYS``)."""
    return BATCH_FIELDS.record(BatchOrder(order, state))


def flat(record: dict[str, Any]) -> dict[str, Any]:
    """A record for a CSV row: errors as their messages, lists joined by spaces."""

    out: dict[str, Any] = {}
    for key, value in record.items():
        if key == "errors":
            found = [RowError.from_json(e) for e in value]
            value = "; ".join(e.message for e in found if e is not None)
        elif isinstance(value, list):
            value = " ".join(str(v) for v in value)
        out[key] = value
    return out
