"""The columns of the shipments list, and how a listing row is written in each."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING

from tui.domain.modes import mode_key
from tui.domain.money import HOME_CURRENCY, currency_of, format_amount
from tui.listing.status import LIFECYCLE, status_label, status_style
from tui.listing.table_column import Column

if TYPE_CHECKING:
    from tui.listing.rows import ShipmentRow

WIDE = 110
"""From this many columns on, the list shows every column."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_STATUS_ORDER = {name: position for position, name in enumerate((*LIFECYCLE, "canceled"))}


def reference(shipment: ShipmentRow) -> str:
    """PRO when the server sent one, else the shipment id."""
    return shipment.pro_number or shipment.id


def total(shipment: ShipmentRow) -> tuple[bool, str, Decimal]:
    """Sort key of the total: USD first, then by currency, then by amount (no amount: last).

    Amounts are compared only within one currency.
    """
    if shipment.total is None or not shipment.total.is_finite():
        return (True, "~", Decimal(0))
    code = currency_of(shipment.currency)
    return (code != HOME_CURRENCY, code, shipment.total)


def money(amount: Decimal | None, currency: str | None = None) -> str:
    """`1,234.50`, with the currency's code when it is not USD (`1,234.50 CAD`)."""
    if amount is None or not amount.is_finite():
        return ""
    return format_amount(amount, currency)


def carrier_code(shipment: ShipmentRow) -> str:
    return shipment.scac or ""


def carrier_name(shipment: ShipmentRow) -> str:
    return shipment.carrier_label


def created(shipment: ShipmentRow, *, wide: bool) -> str:
    if shipment.created_date is None:
        return ""
    # In the viewer's local time: the service's are UTC.
    return shipment.created_date.astimezone().strftime("%m-%d %H:%M" if wide else "%m-%d")


def mode_label(mode: str | None, *, wide: bool) -> str:
    """The mode word; `truckload` is `TL` where room is short."""
    if not mode:
        return ""
    return "TL" if mode_key(mode) == "truckload" and not wide else mode


def pickup(shipment: ShipmentRow) -> str:
    return shipment.pickup_date.strftime("%m-%d") if shipment.pickup_date is not None else ""


def _created_key(shipment: ShipmentRow) -> datetime:
    return shipment.created_date or _EPOCH


def _pickup_key(shipment: ShipmentRow) -> date | None:
    return shipment.pickup_date


def _place(
    name: str, title: str, city_state: Callable[[ShipmentRow], str], *, wide: bool
) -> Column[ShipmentRow]:
    """The From or To column: a place's city and state, as wide as the terminal allows."""
    return Column(
        name, title, city_state, min_width=8, max_width=15 if wide else 11, priority=70, flex=True
    )


def shipment_columns(
    *, width: int, rows_sample: Sequence[ShipmentRow] = ()
) -> list[Column[ShipmentRow]]:
    """Columns for a terminal `width` wide: PRO and mode only when the server sends them."""
    wide = width >= WIDE
    has_pro = any(row.pro_number for row in rows_sample)
    has_mode = any(row.mode for row in rows_sample)
    columns: list[Column[ShipmentRow]] = [
        Column(
            "reference",
            "PRO" if has_pro else "Id",
            reference,
            min_width=10,
            max_width=18 if wide else 16,
            priority=100,
        ),
        Column(
            "created",
            "Created" if wide else "Date",
            lambda row: created(row, wide=wide),
            sort_key=_created_key,
            width=11 if wide else 5,
            priority=60,
        ),
    ]
    if wide:
        columns.append(
            Column("pickup", "Pickup", pickup, sort_key=_pickup_key, width=6, priority=20)
        )
    columns.append(
        Column(
            "status",
            "Status",
            lambda row: status_label(row.status),
            sort_key=lambda row: _STATUS_ORDER.get(row.status, len(_STATUS_ORDER)),
            style=lambda row: status_style(row.status),
            width=12,  # "◑ picked-up" plus a space before the next column
            priority=90,
        )
    )
    if has_mode:
        columns.append(
            Column(
                "mode",
                "Mode",
                lambda row: mode_label(row.mode, wide=wide),
                sort_key=lambda row: row.mode or "",
                width=9 if wide else 6,
                priority=30,
            )
        )
    columns += [
        _place("origin", "From", lambda row: row.origin.city_state, wide=wide),
        _place("destination", "To", lambda row: row.destination.city_state, wide=wide),
    ]
    if wide:
        columns.append(
            Column("carrier", "Carrier", carrier_name, min_width=8, max_width=14, priority=40)
        )
    else:
        columns.append(Column("carrier", "SCAC", carrier_code, width=4, priority=10))
    columns.append(
        Column(
            "total",
            "Total",
            lambda row: money(row.total, row.currency),
            sort_key=total,
            # Sized from the rows: `1,234.50 CAD` widens it, so the code is never cut off.
            min_width=10 if wide else 9,
            max_width=16,
            justify="right",
            priority=80,
        )
    )
    return columns
