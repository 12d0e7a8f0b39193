"""One machine-readable vocabulary: the named fields of every JSON, JSON Lines and CSV record.

A record is a flat object of named fields, the same names wherever the same thing appears
(``freight shipments``, ``shipment``, ``track``, ``rates``, ``batch``, the app's exports):

- the service's camelCase name where the service has one (``proNumber``, ``bolNumber``,
  ``createdDate``, ``serviceType``, ``days``, ``carrierCode``, ``quoteId``, ``rateId``,
  ``pickupConfirmation``, ``originPostalCode``, ``destCompany`` …);
- Freight's own names, camelCase too, for what it adds (``carrier`` is the carrier's name,
  ``scac`` its code, ``total`` and ``currency`` side by side);
- money as a decimal string with its currency beside it (``"total": "1234.50"``,
  ``"currency": "USD"``): exact, never a float, never added across currencies;
- dates as ``YYYY-MM-DD``, date-times as ISO 8601 with their offset; ``null`` when unknown.

A :class:`FieldSet` names the fields of one kind of record, reads them from an object and
selects some of them by name (``--json id,proNumber``). No import of the rest of Freight, so
any room can describe its records with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Generic, TypeVar

T = TypeVar("T")

__all__ = ["Field", "FieldSet", "UnknownFieldsError", "day", "moment", "money"]


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
        """The fields named (``"id,proNumber"`` or a list), in the order asked, each once;
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
        return {f.name: f.get(item) for f in (self.default if fields is None else fields)}

    def describe(self) -> list[tuple[str, str]]:
        """(name, help) of every field, in order."""
        return [(f.name, f.help) for f in self.fields]
