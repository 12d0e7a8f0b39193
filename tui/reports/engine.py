"""Spend per carrier, lane or week from the ledger's booked rows, summed in SQL.

The ledger's ``rate`` column holds the booked rate as JSON (``carrier``, ``total`` as exact
decimal text, ``currency``, ``transitDays``, ``rateId``), ``offers`` the offers it was chosen
from (a list of the same) and ``weights`` the pounds (``pounds``). Money is summed as integer
cents per currency, never across currencies; a cost per cwt is total / (pounds / 100).
SQLite's JSON functions are used (the store's default engine).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Final, Literal

from tui.store.engine import Engine

By = Literal["carrier", "lane", "week"]

_CENTS: Final = "CAST(ROUND((rate ->> '$.total') * 100) AS INTEGER)"
_KEYS: Final[dict[str, str]] = {
    "carrier": "json_extract(rate, '$.carrier')",
    "lane": "COALESCE(json_extract(lane, '$.origin'), '?') || ' > '"
    " || COALESCE(json_extract(lane, '$.destination'), '?')",
    "week": "strftime('%Y-W%W', substr(sent_at, 1, 19))",
}
_OTHERS: Final = (
    "(SELECT MIN(CAST(ROUND(json_extract(o.value, '$.total') * 100) AS INTEGER))"
    " FROM json_each(bookings.offers) AS o"
    " WHERE json_extract(o.value, '$.currency') = json_extract(bookings.rate, '$.currency')"
    " AND json_extract(o.value, '$.rateId') IS NOT json_extract(bookings.rate, '$.rateId'))"
)
_NEXT: Final = (
    "CASE WHEN json_type(rate, '$.nextTotal') IS NOT NULL"
    " THEN CAST(ROUND((rate ->> '$.nextTotal') * 100) AS INTEGER)"
    f" ELSE {_OTHERS} END"
)
"""The cheapest other offer in the booked rate's currency, in cents: as the booking kept it
(``nextTotal``, null when there was none), else found in the offers kept."""


@dataclass(frozen=True)
class SpendRow:
    """One group's spend in one currency."""

    key: str
    currency: str
    shipments: int
    pounds: Decimal
    total: Decimal
    savings: Decimal
    """Against the cheapest other offer in the same currency at booking time (negative when
    a dearer rate was chosen); bookings with no other offer add nothing."""

    @property
    def cost_per_cwt(self) -> Decimal | None:
        if not self.pounds:
            return None
        return (self.total / (self.pounds / 100)).quantize(Decimal("0.01"), ROUND_HALF_EVEN)


@dataclass(frozen=True)
class CarrierRow:
    """One carrier's scorecard."""

    carrier: str
    shipments: int
    share: Decimal
    """Of all bookings in the period, as a fraction to four places."""
    quoted_transit_days: Decimal | None
    actual_transit_days: Decimal | None
    delivered: int
    """Bookings whose delivery date is known (the actual days and on-time share use these)."""
    on_time: Decimal | None


def _where(
    since: datetime | None, until: datetime | None, environment: str | None = None
) -> tuple[str, list[str]]:
    clauses = ["outcome = 'booked'", "rate IS NOT NULL"]
    params: list[str] = []
    if environment is not None:  # a sandbox's test bookings are no production spend
        clauses.append("environment = ?")
        params.append(environment)
    if since is not None:
        clauses.append("sent_at >= ?")
        params.append(since.isoformat())
    if until is not None:
        clauses.append("sent_at < ?")
        params.append(until.isoformat())
    return " AND ".join(clauses), params


def spend(
    engine: Engine,
    by: By,
    since: datetime | None = None,
    until: datetime | None = None,
    *,
    environment: str | None = None,
) -> list[SpendRow]:
    """Spend per ``by`` and currency, largest groups first within a currency (of the
    bookings in ``environment``, the ledger's name for it; None: every one)."""
    where, params = _where(since, until, environment)
    key = _KEYS[by]
    rows = engine.read(
        "SELECT k, cur, COUNT(*), COALESCE(SUM(lb), 0), SUM(cents), COALESCE(SUM(next - cents), 0)"
        f" FROM (SELECT {key} AS k, rate ->> '$.currency' AS cur,"
        f" CAST(weights ->> '$.pounds' AS REAL) AS lb, {_CENTS} AS cents, {_NEXT} AS next"
        f" FROM bookings WHERE {where} LIMIT -1) GROUP BY k, cur ORDER BY cur, k",
        params,
    )
    return [
        SpendRow(
            str(k),
            str(cur),
            int(n),
            Decimal(str(pounds)).normalize(),
            Decimal(int(cents)) / 100,
            Decimal(int(saved)) / 100,
        )
        for k, cur, n, pounds, cents, saved in rows
    ]


def carriers(
    engine: Engine,
    since: datetime | None = None,
    until: datetime | None = None,
    *,
    environment: str | None = None,
) -> list[CarrierRow]:
    """Per carrier: shipments, share of bookings, transit quoted vs actual, on-time share
    (of the bookings in ``environment``; None: every one)."""
    where, params = _where(since, until, environment)
    actual = "julianday(json_extract(rate, '$.deliveredOn')) - julianday(pickup_date)"
    rows = engine.read(
        "SELECT json_extract(rate, '$.carrier') AS c, COUNT(*),"
        " AVG(json_extract(rate, '$.transitDays')),"
        f" AVG({actual}), COUNT({actual}),"
        f" SUM(CASE WHEN {actual} <= json_extract(rate, '$.transitDays') THEN 1 ELSE 0 END)"
        f" FROM bookings WHERE {where} GROUP BY c ORDER BY COUNT(*) DESC, c",
        params,
    )
    everyone = sum(int(r[1]) for r in rows)
    four = Decimal("0.0001")
    tenth = Decimal("0.1")
    out = []
    for c, n, quoted, act, delivered, on_time in rows:
        out.append(
            CarrierRow(
                str(c),
                int(n),
                (Decimal(int(n)) / everyone).quantize(four),
                Decimal(str(quoted)).quantize(tenth) if quoted is not None else None,
                Decimal(str(act)).quantize(tenth) if act is not None else None,
                int(delivered),
                (Decimal(int(on_time or 0)) / int(delivered)).quantize(four) if delivered else None,
            )
        )
    return out
