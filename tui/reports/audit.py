"""The freight-bill audit: each booked shipment billed above its booked price.

The booked price is the ledger's (the rate a booking kept: ``total`` and ``currency``); the
billed one is the service's listing's ``cost.total``, read a page of 100 at a time for the
period's pickup days (never a request per shipment). A shipment billed above its price is
listed with the difference and the likely cause, read from what the listing says changed: a
reweigh (weight), a reclass (class) or an accessorial added; "unexplained" when it says
nothing. Money is compared and summed per currency only (a bill in another currency than
the booking is counted apart, never compared). Canceled shipments are counted apart.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from tui.api.models import ShipmentQuery
from tui.reports.engine import booked_clauses
from tui.store.engine import Engine

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models import Shipment

CAUSES: Final = ("reweigh", "reclass", "accessorial", "unexplained")
PAGE: Final = 100
"""Listing entries asked for per page."""

_WORDS: Final = (
    ("reweigh", ("reweigh", "weight", "weigh")),
    ("reclass", ("reclass", "class")),
    ("accessorial", ("accessorial", "liftgate", "residential", "limited access", "inside")),
)
_FINDS: Final = tuple(
    (cause, re.compile("|".join(map(re.escape, words)))) for cause, words in _WORDS
)
"""Each cause with one search for any of its words (a listing of 100,000 asks it per entry)."""


_CLASSES: Final = re.compile(r"class\s+(\d+(?:\.\d+)?)\s*(?:->|→|to)\s*(\d+(?:\.\d+)?)", re.I)
"""A reclass's note: ``Reclassed: class 70 -> 85``."""


class Clue(NamedTuple):
    """What of the user's own data a bill points at, when its cause may be theirs: a reclass
    (the item ``subject`` moved from class ``before`` to ``after``) or an accessorial added
    at the consignee (``subject`` its company, ``postal_code`` its ZIP, ``after`` the
    accessorial). Read only for such bills (never on the hot path of the others)."""

    kind: str
    subject: str
    before: str = ""
    after: str = ""
    postal_code: str = ""


BookedPrice = tuple[str, str, str, str, str, str, int]
"""What the ledger kept of one booking, as the store's query reads it (a plain tuple: 100,000
are read at once): shipment id, PRO, order, pickup day, carrier, currency, cents."""


class Billed(NamedTuple):
    """What the listing says one shipment was billed."""

    shipment_id: str
    status: str
    currency: str
    cents: int | None
    cause: str = "unexplained"
    note: str = ""
    clue: Clue | None = None


class AuditLine(NamedTuple):
    """One shipment billed above its booked price (money kept as cents)."""

    shipment_id: str
    pro_number: str
    order: str
    carrier: str
    pickup_date: str
    currency: str
    booked_cents: int
    billed_cents: int
    cause: str
    note: str = ""
    clue: Clue | None = None

    @property
    def booked(self) -> Decimal:
        return Decimal(self.booked_cents) / 100

    @property
    def billed(self) -> Decimal:
        return Decimal(self.billed_cents) / 100

    @property
    def difference(self) -> Decimal:
        return Decimal(self.billed_cents - self.booked_cents) / 100


@dataclass(frozen=True)
class AuditReport:
    """The lines, their totals per carrier and per cause (each per currency), and counts."""

    lines: list[AuditLine]
    by_carrier: dict[tuple[str, str], tuple[int, Decimal]]
    by_cause: dict[tuple[str, str], tuple[int, Decimal]]
    checked: int
    """Booked shipments found in the listing with a bill in the booking's currency."""
    canceled: int
    not_listed: int
    other_currency: int
    booked: int = 0
    extra: dict[str, int] = field(default_factory=dict)


def booked_prices(
    engine: Engine,
    since: date | None = None,
    until: date | None = None,
    *,
    environment: str | None = None,
) -> dict[str, BookedPrice]:
    """The booked shipments whose pickup day is in ``since``..``until`` (both included), by
    shipment id.

    Read from the rate's plain columns the store keeps (``rate_carrier``, ``rate_currency``,
    ``rate_cents``: schema version 8), never from its JSON: a rate without a total (its
    cents null) is left out."""
    clauses, params = booked_clauses(
        "shipment_id IS NOT NULL", environment, "pickup_date", since, until, until_op="<="
    )
    rows = engine.read(
        "SELECT shipment_id, COALESCE(pro_number, ''), COALESCE(order_number, ''),"
        " COALESCE(pickup_date, ''), rate_carrier, rate_currency, rate_cents FROM bookings"
        f" WHERE {' AND '.join(clauses)} AND rate_cents IS NOT NULL",
        params,
    )
    return {row[0]: row for row in rows}


def _adjustments(raw: Mapping[str, Any]) -> list[dict[str, Any]]:
    found: list[Any] = []
    for key in ("adjustments", "billingAdjustments", "charges"):
        value = raw.get(key)
        if isinstance(value, list):
            found.extend(v for v in value if isinstance(v, dict))
    billing = raw.get("billing")
    if isinstance(billing, dict) and isinstance(billing.get("adjustments"), list):
        found.extend(v for v in billing["adjustments"] if isinstance(v, dict))
    return found


def cause_of(raw: Mapping[str, Any]) -> tuple[str, str]:
    """(cause, note) from what a listing entry says changed (``adjustments``, ``charges``
    or ``billing``, each a list of objects with a ``type``/``name`` and a ``note``)."""
    for entry in _adjustments(raw):
        said = " ".join(
            str(entry.get(k) or "") for k in ("type", "name", "reason", "accessorial")
        ).lower()
        for cause, find in _FINDS:
            if find.search(said):
                return cause, str(entry.get("note") or entry.get("description") or "")[:200]
    return "unexplained", ""


def billed_of(shipment: Shipment) -> Billed:
    """A listing entry as the audit reads it."""
    cost = shipment.cost
    cents = None
    if cost is not None and cost.total is not None:
        cents = int((cost.total * 100).to_integral_value())
    currency = ((cost.currency if cost is not None else None) or "USD").upper()
    cause, note = cause_of(shipment.raw) if shipment.raw else ("unexplained", "")
    clue = clue_of(shipment, cause, note) if cause in ("reclass", "accessorial") else None
    return Billed(shipment.id, shipment.status, currency, cents, cause, note, clue)


def clue_of(shipment: Shipment, cause: str, note: str) -> Clue | None:
    """The user's data a reclass or an added accessorial points at (None: nothing to name).

    A reclass names its item by the listing's items: the heaviest one listed in the class
    before (or with no class, when the note's class is the density's); an accessorial, the
    consignee the listing gives."""
    if cause == "accessorial":
        named = [str(a["accessorial"]) for a in _adjustments(shipment.raw) if a.get("accessorial")]
        added = named[0] if named else note.rsplit(":", 1)[-1].strip()
        place = shipment.destination
        if not added or not (place.company or place.postal_code):
            return None
        return Clue("accessorial", place.company or "", "", added.lower(), place.postal_code or "")
    classes = _CLASSES.search(note)
    items = shipment.raw.get("items")
    if classes is None or not isinstance(items, list):
        return None
    before, after = classes.groups()

    def weight(item: dict[str, Any]) -> float:
        try:
            return float(item.get("weight") or 0) * float(item.get("quantity") or 1)
        except (TypeError, ValueError):
            return 0.0

    def same(item: dict[str, Any]) -> bool:
        given = item.get("freightClass")
        return given in (None, "") or _decimal(str(given)) == _decimal(before)

    listed = [i for i in items if isinstance(i, dict) and same(i)]
    if not listed:
        return None
    item = max(listed, key=weight)
    return Clue("reclass", str(item.get("description") or ""), before, after)


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text).normalize()
    except InvalidOperation:
        return None


async def listed_bills(
    client: FreightClient, since: date | None, until: date | None
) -> AsyncIterator[Billed]:
    """Every listed shipment of the pickup days, a page of ``PAGE`` at a time."""

    query = ShipmentQuery.build(pickup_date_from=since, pickup_date_to=until)
    async for shipment in client.iter_shipments(query, limit=PAGE):
        yield billed_of(shipment)


def audit(prices: Mapping[str, BookedPrice], bills: Iterable[Billed]) -> AuditReport:
    """Compare each booked price with its bill.

    One pass over the bills makes each line billed above its price at once (no tuple kept
    between: 100,000 bills leave a third as many lines, each the only object made for it),
    then the lines are sorted (largest difference first) and totalled in integer cents."""
    lines: list[AuditLine] = []
    add = lines.append
    checked = canceled = other = 0
    remaining = dict(prices)  # each booking compared once: the first bill listed for it
    take = remaining.pop
    for sid, status, currency, cents, cause, note, clue in bills:
        price = take(sid, None)
        if price is None:
            continue
        if status == "canceled":
            canceled += 1
        elif cents is None or currency != price[5]:
            other += cents is not None
        else:
            checked += 1
            if cents > price[6]:
                add(AuditLine(sid, price[1], price[2], price[4], price[3], currency, price[6],
                              cents, cause, note, clue))  # fmt: skip
    lines.sort(key=_largest_first)
    return AuditReport(
        lines,
        _totals(lines, [line[3] for line in lines]),  # per carrier
        _totals(lines, [line[8] for line in lines]),  # per cause
        checked,
        canceled,
        len(remaining),
        other,
        booked=len(prices),
    )


def _largest_first(line: AuditLine) -> tuple[int, str]:
    return line[6] - line[7], line[0]


def _totals(lines: list[AuditLine], names: list[str]) -> dict[tuple[str, str], tuple[int, Decimal]]:
    """Per (name, currency), a name a line: the lines and their differences (cents summed,
    then one ``Decimal`` per group)."""
    counts: dict[tuple[str, str], int] = {}
    cents: dict[tuple[str, str], int] = {}
    for line, name in zip(lines, names, strict=True):
        key = name, line[5]
        counts[key] = counts.get(key, 0) + 1
        cents[key] = cents.get(key, 0) + line[7] - line[6]
    return {key: (counts[key], Decimal(cents[key]) / 100) for key in sorted(counts)}


CSV_COLUMNS: Final = (
    "shipmentId", "proNumber", "order", "carrier", "pickupDate", "currency", "bookedTotal",
    "billedTotal", "difference", "cause", "billNote",
)  # fmt: skip


def line_record(line: AuditLine) -> dict[str, str]:
    """One line as the CSV and JSON write it (money as exact text)."""
    return {
        "shipmentId": line.shipment_id, "proNumber": line.pro_number, "order": line.order,
        "carrier": line.carrier, "pickupDate": line.pickup_date, "currency": line.currency,
        "bookedTotal": f"{line.booked:.2f}", "billedTotal": f"{line.billed:.2f}",
        "difference": f"{line.difference:.2f}", "cause": line.cause, "billNote": line.note,
    }  # fmt: skip


def to_csv(report: AuditReport) -> str:
    """The lines as a CSV to dispute with (one row a shipment)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for line in report.lines:
        writer.writerow({k: _cell(v) for k, v in line_record(line).items()})
    return buffer.getvalue()


def _cell(value: str) -> str:
    """A cell a spreadsheet will not run as a formula."""
    return (
        "'" + value
        if value[:1] in ("=", "+", "-", "@", "\t", "\r") and not _number(value)
        else value
    )


def _number(value: str) -> bool:
    try:
        Decimal(value)
    except InvalidOperation:
        return False
    return True
