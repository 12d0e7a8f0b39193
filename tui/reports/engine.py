"""Spend per carrier, lane or week from the ledger's booked rows, summed in SQL, on SQLite
and on PostgreSQL alike.

The ledger's ``rate`` column holds the booked rate as JSON (``carrier``, ``total`` as exact
decimal text, ``currency``, ``transitDays``, ``rateId``, ``nextTotal``), ``offers`` the offers
it was chosen from (a list of the same) and ``weights`` the pounds (``pounds``);
``delivered_on`` and ``transit_days`` what tracking said (``tui.reports.deliveries``). Money
is summed as integer cents per currency, never across currencies; a cost per cwt is total /
(pounds / 100). The JSON is text in both engines: SQLite reads it with its JSON functions,
PostgreSQL casts it to ``jsonb``. (No ``?`` or ``%`` in the PostgreSQL text: the engine
turns ``?`` into its parameters.)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Final, Literal

from tui.store.engine import Engine

By = Literal["carrier", "lane", "week"]


@dataclass(frozen=True)
class _Sql:
    """The report's expressions in one engine's words."""

    keys: dict[str, str]
    currency: str
    pounds: str
    cents: str
    next_cents: str
    """The cheapest other offer in the booked rate's currency, in cents: as the booking kept
    it (``nextTotal``, null when there was none), else found in the offers kept."""
    quoted: str
    carrier: str
    source: str
    """The booked rows (``{where}``: the period's conditions), as the expressions name
    them: PostgreSQL parses each JSON column once a row, in a subquery of its own."""
    tail: str
    """What the spend's inner query ends with (SQLite: keep it from being flattened)."""


_THURSDAY: Final = "date(substr(sent_at, 1, 19), '-3 days', 'weekday 4')"
"""The Thursday of the ISO week a booking was sent in (SQLite): its year is the week's year and
its day of the year gives the week's number (ISO 8601: weeks start on Monday, week 1 holds the
year's first Thursday; 2026-12-07 is 2026-W50, 2027-01-01 is 2026-W53)."""

_SQLITE: Final = _Sql(
    keys={
        "carrier": "json_extract(rate, '$.carrier')",
        "lane": "COALESCE(json_extract(lane, '$.origin'), '?') || ' > '"
        " || COALESCE(json_extract(lane, '$.destination'), '?')",
        "week": f"strftime('%Y', {_THURSDAY}) || '-W'"
        f" || printf('%02d', (CAST(strftime('%j', {_THURSDAY}) AS INTEGER) - 1) / 7 + 1)",
    },
    currency="json_extract(rate, '$.currency')",
    pounds="CAST(json_extract(weights, '$.pounds') AS REAL)",
    cents="CAST(ROUND(json_extract(rate, '$.total') * 100) AS INTEGER)",
    next_cents=(
        "CASE WHEN json_type(rate, '$.nextTotal') IS NOT NULL"
        " THEN CAST(ROUND(json_extract(rate, '$.nextTotal') * 100) AS INTEGER)"
        " ELSE (SELECT MIN(CAST(ROUND(json_extract(o.value, '$.total') * 100) AS INTEGER))"
        " FROM json_each(bookings.offers) AS o"
        " WHERE json_extract(o.value, '$.currency') = json_extract(bookings.rate, '$.currency')"
        " AND json_extract(o.value, '$.rateId') IS NOT json_extract(bookings.rate, '$.rateId'))"
        " END"
    ),
    quoted="json_extract(rate, '$.transitDays')",
    carrier="json_extract(rate, '$.carrier')",
    source="bookings WHERE {where}",
    tail=" LIMIT -1",
)

_DAY: Final = "sent_day"
"""The UTC day a booking was sent (in the source). Its week is the ISO week (``IYYY``, ``IW``)."""
_POSTGRES: Final = _Sql(
    keys={
        "carrier": "rj ->> 'carrier'",
        "lane": "COALESCE(lj ->> 'origin', chr(63)) || ' > ' || COALESCE(lj ->> 'destination',"
        " chr(63))",
        "week": f"to_char({_DAY}, 'IYYY') || '-W' || to_char({_DAY}, 'IW')",
    },
    currency="rj ->> 'currency'",
    pounds="CAST(wj ->> 'pounds' AS NUMERIC)",
    cents="CAST(ROUND(CAST(rj ->> 'total' AS NUMERIC) * 100) AS BIGINT)",
    next_cents=(
        "CASE WHEN (rj -> 'nextTotal') IS NOT NULL"
        " THEN CAST(ROUND(CAST(rj ->> 'nextTotal' AS NUMERIC) * 100) AS BIGINT)"
        " ELSE (SELECT MIN(CAST(ROUND(CAST(o.value ->> 'total' AS NUMERIC) * 100) AS BIGINT))"
        " FROM jsonb_array_elements(CAST(bookings.offers AS jsonb)) AS o(value)"
        " WHERE o.value ->> 'currency' = bookings.rj ->> 'currency'"
        " AND (o.value ->> 'rateId') IS DISTINCT FROM (bookings.rj ->> 'rateId'))"
        " END"
    ),
    quoted="CAST(rj ->> 'transitDays' AS NUMERIC)",
    carrier="rj ->> 'carrier'",
    source="(SELECT CAST(substr(sent_at, 1, 10) AS date) AS sent_day, offers, transit_days,"
    " CAST(rate AS jsonb) AS rj,"
    " CAST(weights AS jsonb) AS wj, CAST(lane AS jsonb) AS lj"
    " FROM bookings WHERE {where} OFFSET 0) AS bookings",
    tail="",
)


def _sql(engine: Engine) -> _Sql:
    return _POSTGRES if engine.dialect.name == "postgresql" else _SQLITE


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


_CANCELED: Final = (
    "EXISTS (SELECT 1 FROM shipment_changes AS c WHERE c.account = bookings.account"
    " AND c.environment = bookings.environment AND c.shipment_id = bookings.shipment_id"
    " AND c.kind = 'cancel' AND c.outcome = 'done')"
)
"""A booking whose shipment was canceled (``tui.store.changes``): no spend, counted apart."""
_NOT_CANCELED: Final = f"NOT {_CANCELED}"


Within = tuple[datetime | None, datetime | None]
"""From, and before: the moments a booking was sent in (None: no bound)."""


@dataclass(frozen=True)
class CanceledRow:
    """One group's canceled shipments in one currency: booked, never billed."""

    key: str
    currency: str
    shipments: int
    total: Decimal


def booked_clauses(
    condition: str,
    environment: str | None,
    column: str,
    since: date | None,
    until: date | None,
    *,
    until_op: Literal["<", "<="],
) -> tuple[list[str], list[str]]:
    """The WHERE clauses, and their parameters, of the booked bookings with a rate that meet
    ``condition``, in ``environment`` (None: every one), whose ``column`` is from ``since`` on
    and before (``<``) or up to (``<=``) ``until``."""
    clauses = ["outcome = 'booked'", "rate IS NOT NULL", condition]
    params: list[str] = []
    if environment is not None:  # a sandbox's test bookings are no production spend
        clauses.append("environment = ?")
        params.append(environment)
    if since is not None:
        clauses.append(f"{column} >= ?")
        params.append(since.isoformat())
    if until is not None:
        clauses.append(f"{column} {until_op} ?")
        params.append(until.isoformat())
    return clauses, params


def _where(
    since: datetime | None,
    until: datetime | None,
    environment: str | None = None,
    condition: str = _NOT_CANCELED,
) -> tuple[str, list[str]]:
    clauses, params = booked_clauses(condition, environment, "sent_at", since, until, until_op="<")
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
    sql = _sql(engine)
    rows = engine.read(
        "SELECT k, cur, COUNT(*), COALESCE(SUM(lb), 0), SUM(cents), COALESCE(SUM(next - cents), 0)"
        f" FROM (SELECT {sql.keys[by]} AS k, {sql.currency} AS cur, {sql.pounds} AS lb,"
        f" {sql.cents} AS cents, {sql.next_cents} AS next"
        f" FROM {sql.source.format(where=where)}{sql.tail}) AS booked"
        " GROUP BY k, cur",
        params,
    )
    rows.sort(key=lambda r: (str(r[1]), str(r[0])))
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


def canceled(
    engine: Engine, by: By, within: Within = (None, None), *, environment: str | None = None
) -> list[CanceledRow]:
    """The canceled shipments the spend leaves out, per ``by`` and currency, sent ``within``
    (from, before): how many, and what they were booked at (never billed)."""
    sql = _sql(engine)
    where, params = _where(*within, environment, _CANCELED)
    rows = engine.read(
        f"SELECT k, cur, COUNT(*), SUM(cents) FROM (SELECT {sql.keys[by]} AS k,"
        f" {sql.currency} AS cur, {sql.cents} AS cents"
        f" FROM {sql.source.format(where=where)}{sql.tail}) AS booked GROUP BY k, cur",
        params,
    )
    rows.sort(key=lambda r: (str(r[1]), str(r[0])))
    return [
        CanceledRow(str(k), str(cur), int(n), Decimal(int(cents or 0)) / 100)
        for k, cur, n, cents in rows
    ]


def canceled_totals(rows: list[CanceledRow]) -> dict[str, tuple[int, Decimal]]:
    """How many canceled shipments, and their booked total, per currency (in order)."""
    out: dict[str, tuple[int, Decimal]] = {}
    for row in rows:
        n, total = out.get(row.currency, (0, Decimal(0)))
        out[row.currency] = (n + row.shipments, total + row.total)
    return out


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
    sql = _sql(engine)
    rows = engine.read(
        f"SELECT {sql.carrier} AS c, COUNT(*), AVG({sql.quoted}), AVG(transit_days),"
        f" COUNT(transit_days), SUM(CASE WHEN transit_days <= {sql.quoted} THEN 1 ELSE 0 END)"
        f" FROM {sql.source.format(where=where)} GROUP BY {sql.carrier}",
        params,
    )
    rows.sort(key=lambda r: (-int(r[1]), str(r[0])))
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
