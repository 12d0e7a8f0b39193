"""One machine-readable vocabulary: the named fields of every JSON, JSON Lines and CSV record.

A record is a flat object of named fields, the same names wherever the same thing appears
(``freight shipments``, ``shipment``, ``track``, ``rates``, ``batch``, the app's exports):

- one name per thing, every name in :data:`GLOSSARY` (a test runs every command's JSON and
  checks each key, nested ones included, against it): ``shipmentId`` (never ``id``), ``scac``
  (never ``carrierCode``), ``serviceType`` (never ``service``), ``transitDays`` (never
  ``days``), ``trackingNumbers`` (always a list), ``customerReference`` (the shipper's own) and
  ``bookingReference`` (Freight's ``FRT…``), never a bare ``reference``;
- the service's camelCase name where that is unambiguous (``proNumber``, ``bolNumber``,
  ``createdDate``, ``quoteId``, ``rateId``, ``pickupConfirmation``, ``originPostalCode``,
  ``destCompany`` …); Freight's own names, camelCase too, for what it adds (``carrier`` is the
  carrier's name, ``total`` and ``currency`` side by side);
- money as a decimal string with its currency beside it (``"total": "1234.50"``,
  ``"currency": "USD"``): exact, never a float, never added across currencies;
- dates as ``YYYY-MM-DD``, date-times as ISO 8601 with their offset; ``null`` when unknown,
  never ``""`` (:meth:`FieldSet.record` turns empty text into ``null``, nested values too).

A :class:`FieldSet` names the fields of one kind of record, reads them from an object and
selects some of them by name (``--json shipmentId,proNumber``). No import of the rest of Freight, so
any room can describe its records with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Generic, TypeVar

T = TypeVar("T")

__all__ = [
    "GLOSSARY",
    "Field",
    "FieldSet",
    "UnknownFieldsError",
    "day",
    "dict_fields",
    "known",
    "moment",
    "money",
    "pounds",
]


GLOSSARY: dict[str, str] = {
    # -- a shipment (freight shipments, shipment, track; the app's export)
    "shipmentId": "the shipment's id at the service",
    "proNumber": "the carrier's PRO number",
    "bolNumber": "the bill of lading number",
    "trackingNumbers": "tracking numbers, a list (empty when none)",
    "pickupConfirmation": "the pickup's confirmation number",
    "customerReference": "the shipper's own reference on the shipment (a PO, an order number)",
    "bookingReference": "Freight's own reference of a booking (FRT…), its key in the ledger",
    "createdDate": "when it was booked (ISO 8601 with its offset)",
    "status": "where the record's subject stands: a shipment's, rate's, order's or event's status",
    "mode": "ltl, parcel or truckload",
    "serviceType": "the carrier's service level",
    "pickupDate": "the pickup day (YYYY-MM-DD)",
    "carrier": "the carrier's name",
    "scac": "the carrier's SCAC code",
    "total": 'the total cost, an exact decimal string ("1234.50") in currency',
    "currency": "the currency of the amounts beside it (USD, CAD…)",
    "quoteId": "the quote's id",
    "rateId": "the rate's id",
    "transitDays": "transit days (a whole number)",
    **{
        f"{end}{part}": f"{words} {text}"
        for end, words in (("origin", "origin"), ("dest", "destination"))
        for part, text in (
            ("Company", "company"),
            ("Address", "street address"),
            ("Address2", "second address line"),
            ("City", "city"),
            ("State", "state or province"),
            ("PostalCode", "ZIP or postal code"),
            ("Country", "country"),
            ("ContactName", "contact's name"),
            ("ContactPhone", "contact's phone"),
            ("ContactEmail", "contact's email"),
        )
    },
    "tracking": "the service's tracking summary: status, trackingNumbers, pickupTime, deliveryTime",
    "pickupTime": "when it was picked up (ISO 8601)",
    "deliveryTime": "when it was, or is expected to be, delivered (ISO 8601)",
    "items": "the freight, a list of: quantity, package, weight, length, width, height, "
    "freightClass, nmfc, description, hazardous",
    "quantity": "how many handling units of the item",
    "package": "the handling unit (pallet, crate, box…)",
    "weight": "pounds per handling unit",
    "length": "inches",
    "width": "inches",
    "height": "inches",
    "freightClass": "the NMFC freight class (50 … 500)",
    "nmfc": "the NMFC item number",
    "description": "what it is, in words (the commodity, the event)",
    "hazardous": "true when hazardous materials",
    "events": "tracking events, oldest first: time, status, location, description",
    "time": "when it happened (ISO 8601)",
    "location": "where it happened",
    "documents": "documents: type, name, format, url",
    "type": "the document's kind (bol, label…)",
    "name": "a name as the service gives it (a document's, a charge's)",
    "format": "the file format (pdf, zpl…)",
    "url": "where to fetch it",
    # -- a rate (freight rates)
    "message": "why a rate cannot be booked",
    "charges": "the breakdown: name, amount, currency",
    "amount": 'an exact decimal string ("12.50") in currency',
    "expiresAt": "bookable until (ISO 8601)",
    # -- an order of a batch (freight batch rate, status, book)
    "order": "the order number (the file's order column)",
    "errors": "what is wrong: a list of row, column, value, reason",
    "row": "the file's row number",
    "column": "the file's column header",
    "value": "the value the file held",
    "reason": "what is wrong with it",
    "chosenBy": "rule or hand",
    "rows": "the file's row numbers of the order",
    "destination": "city, state and ZIP it goes to, in words",
    "pieces": "handling units of the order",
    "totalWeight": "total pounds (an order's, a shipment's, a report row's), a number",
    "notes": "what was read otherwise than written (a ship date moved…)",
    # -- freight day: the day's pickups per carrier
    "pickupWindow": "the origin dock's hours for the pickup (open-close)",
    "flags": "what needs a hand, a list: pickup_not_confirmed, paperwork_missing, "
    "outcome_unknown, pickup_moved, canceled (on a day already closed)",
    "lateAddition": "true when booked after the day was closed",
    "station": "the station (host and terminal, or FREIGHT_STATION) that booked it",
    # -- freight batch fields --json
    "field": "an order field's name (for --map and --set)",
    "paperworkMissing": "why a booked order's BOL or labels are not all saved (null: all saved)",
    "paperworkFiles": "the order's paperwork files saved, in the batch's documents folder",
    # -- freight batch columns: the mapping a run would use
    "file": "the order file read (its path)",
    "headerRow": "the file's row that holds the column headers (1 = the first)",
    "mapping": "the name of the column mapping used",
    "columns": "which column fills each field: a list of {field, column}",
    "constants": "fields set to one value for every order: a list of {field, value}",
    "weightPer": "whether a weight column is per unit or per line (unit, line)",
    "weightUnit": "the weights' unit (lb, kg)",
    "dimUnit": "the sizes' unit (in, cm)",
    "unusedColumns": "the file's columns no field reads",
    "level": "order (read from an order's first row) or line (from every row)",
    "help": "what it holds, in words",
    # -- freight config path --json
    "configFile": "the config file's path",
    "dataDir": "the data folder's path",
    "logFile": "the log file's path",
    # -- freight auth status --json (never the secret)
    "profile": "the profile's name",
    "profileSource": "where the profile's name came from (flag, environment, config…)",
    "demo": "true for the built-in demo (a local sandbox, no credentials)",
    "baseUrl": "the service's base URL",
    "environment": "production, sandbox or custom",
    "credentialStore": "where credentials are saved (keyring or file)",
    "credentialSource": "where the credentials were found (environment, keyring, file, session)",
    "clientId": "the client ID (never the secret)",
    "savedAt": "when the credentials were saved (ISO 8601)",
    "keyring": "the keyring's status",
    "problems": "what is wrong, in words (a list)",
    # -- reports (freight report spend|lanes|carriers)
    "lane": "origin > destination ZIPs of a booking",
    "week": "the ISO year and week the bookings were sent (2026-W50; weeks start on Monday,"
    " week 1 holds the year's first Thursday)",
    "shipments": "how many booked shipments",
    "costPerCwt": "total / (pounds / 100), an exact decimal string in currency",
    "savings": (
        "against the cheapest other offer in the same currency when booked "
        "(negative: a dearer rate was chosen)"
    ),
    "share": "of all bookings in the period, a decimal fraction (0.25)",
    "quotedTransitDays": "the booked rates' transit days, averaged",
    "actualTransitDays": "delivery date minus pickup date, averaged over those delivered",
    "delivered": "how many have a known delivery date",
    "onTime": "the share of those delivered within the quoted days (null: none delivered)",
    # -- freight report audit
    "billedAbove": "the shipments billed above their booked price (a list)",
    "checked": "how many booked shipments had a bill compared, in the booking's currency",
    "canceled": "how many booked shipments are canceled (counted apart)",
    "canceledTotal": (
        "what the canceled shipments were booked at, never billed and left out of the spend"
        " (an exact decimal string in currency)"
    ),
    "notListed": "how many booked shipments the listing did not show",
    "otherCurrency": "how many were billed in another currency than booked (never compared)",
    "bookedTotal": "the booked price, an exact decimal string in currency",
    "billedTotal": "the billed total (the listing's cost.total), an exact decimal string",
    "difference": "billed minus booked, an exact decimal string in currency",
    "cause": "the likely cause: reweigh, reclass, accessorial or unexplained",
    "billNote": "what the bill says changed, in words",
    "suggestedUpdate": (
        "the saved item template or address book entry that may be the cause, and the change"
        " to make (old → new); null: none"
    ),
    "byCarrier": "totals per carrier and currency (a list)",
    "byCause": "totals per cause and currency (a list)",
}
"""Every key of every command's JSON, JSON Lines and CSV records, nested ones included, with
what it means: one name per thing. A new key is added here first (docs/glossary.md lists them)."""


def known(value: Any) -> Any:
    """``value`` with empty text as None (unknown is ``null``, never ``""``), in dicts and lists
    too."""
    if isinstance(value, str):
        return value if value.strip() else None
    if isinstance(value, dict):
        return {key: known(item) for key, item in value.items()}
    if isinstance(value, list):
        return [known(item) for item in value]
    return value


def money(amount: Decimal | None) -> str | None:
    """An amount as an exact decimal string, at least to the cent (``"1234.50"``); None when
    unknown or not a number."""
    if amount is None or not amount.is_finite():
        return None
    try:
        cents = amount.quantize(Decimal("0.01"))
    except ArithmeticError:  # more digits than the context holds: write it as it is
        return format(amount, "f")
    return f"{cents:f}" if cents == amount else format(amount.normalize(), "f")


def pounds(value: Decimal | None) -> int | float | None:
    """A weight in pounds as a JSON number (whole pounds an integer): weights are numbers in
    every record, never text; None when unknown or not a number."""
    if value is None or not value.is_finite():
        return None
    return int(value) if value == value.to_integral_value() else float(value)


def day(value: date | None) -> str | None:
    """A date as ``YYYY-MM-DD`` (a date-time gives its own date)."""
    if isinstance(value, datetime):
        value = value.date()
    return value.isoformat() if value is not None else None


def moment(value: datetime | None) -> str | None:
    """A date-time as ISO 8601 with its offset."""
    return value.isoformat() if value is not None else None


@dataclass(frozen=True)
class Field(Generic[T]):
    """One named field: its name in every record, a line of help, and how to read it.

    ``verbatim``: the value is Freight's own writing of an exact number (money), put in a CSV
    cell as it is (a credit ``-5.00`` stays a number, never taken for a formula)."""

    name: str
    help: str
    get: Callable[[T], Any]
    verbatim: bool = False


class UnknownFieldsError(ValueError):
    """Names asked for that the record does not have."""

    def __init__(self, unknown: Sequence[str], known: Sequence[str]) -> None:
        self.unknown = tuple(unknown)
        self.known = tuple(known)
        plural = "s" if len(self.unknown) > 1 else ""
        super().__init__(
            f"unknown field{plural} {', '.join(self.unknown)}; the fields are: {', '.join(known)}"
        )


class FieldSet(Generic[T]):
    """The fields of one kind of record, in their order; ``default`` is the set written when
    none is asked for (all of them unless given)."""

    def __init__(
        self, noun: str, fields: Iterable[Field[T]], default: Iterable[str] | None = None
    ) -> None:
        self.noun = noun
        self.fields: tuple[Field[T], ...] = tuple(fields)
        self._by_name = {f.name: f for f in self.fields}
        if len(self._by_name) != len(self.fields):
            raise ValueError(f"{noun}: a field name is used twice")
        self.default = self.fields if default is None else self.select(list(default))

    @property
    def names(self) -> tuple[str, ...]:
        """Every field's name, in order."""
        return tuple(f.name for f in self.fields)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> Field[T]:
        return self._by_name[name]

    def select(self, wanted: str | Sequence[str] | None) -> tuple[Field[T], ...]:
        """The fields named (``"shipmentId,proNumber"`` or a list), in the order asked, each once;
        the default set for None or nothing. Raises :class:`UnknownFieldsError`."""
        if wanted is None:
            return self.default
        names = wanted.split(",") if isinstance(wanted, str) else list(wanted)
        names = [n.strip() for n in names if n.strip()]
        if not names:
            return self.default
        unknown = [n for n in names if n not in self._by_name]
        if unknown:
            raise UnknownFieldsError(unknown, self.names)
        return tuple(self._by_name[n] for n in dict.fromkeys(names))

    def record(self, item: T, fields: Sequence[Field[T]] | None = None) -> dict[str, Any]:
        """``item`` as a record of ``fields`` (the default set when None)."""
        chosen = self.default if fields is None else fields
        return {f.name: known(f.get(item)) for f in chosen}

    def describe(self) -> list[tuple[str, str]]:
        """(name, help) of every field, in order."""
        return [(f.name, f.help) for f in self.fields]


def dict_fields(noun: str, names: Iterable[str]) -> FieldSet[dict[str, Any]]:
    """The fields of a record built as a dict (``auth status``, ``config path``), each with
    the glossary's words: ``select`` and ``record`` work as for any other record."""

    def reader(name: str) -> Callable[[dict[str, Any]], Any]:
        return lambda record: record.get(name)

    return FieldSet(noun, [Field(name, GLOSSARY[name], reader(name)) for name in names])
