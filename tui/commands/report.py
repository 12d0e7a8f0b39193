"""``freight report spend|carriers|lanes``: the money and the carriers, from the ledger.

Money is per currency (one row per group and currency), never summed across currencies.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import textwrap
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any, Final, TextIO

from tui.api.errors import FreightError
from tui.batch.pace import Pace
from tui.commands.dates import parse_day
from tui.commands.exits import NotSignedInError, UsageError
from tui.config.paths import data_dir
from tui.domain.safe_text import plain
from tui.reports.engine import By, canceled, carriers, spend
from tui.store import open_store
from tui.store.pace import StorePace
from tui.vocabulary import money, pounds

REPORTS = ("spend", "carriers", "lanes", "audit")


def add_report_command(sub: Any) -> None:
    """Add ``report`` and its kinds."""
    report = sub.add_parser(
        "report",
        help="spend per carrier, lane or week; carrier scorecards (from the booking ledger)",
        description=(
            "Reports over the bookings in the store (every station's). Money is per currency, "
            "never summed across currencies; cost per cwt is total / (pounds / 100).\n"
            "  freight report spend --by week --since 2026-01-01\n"
            "  freight report carriers --format csv\n"
            "carriers first asks the service's tracking for the delivery dates of booked "
            "shipments picked up before today that lack one (at most 50 a run, at the "
            "account's pace) and keeps them in the store; --offline skips that. Actual transit "
            "days are business days from the pickup day (not counted) to the delivery day, "
            "as quoted transit days are."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    report.add_argument(
        "kind",
        choices=REPORTS,
        help="spend, carriers, lanes (spend by lane), or audit (billed above booked; its "
        "--since/--until are pickup days)",
    )
    report.add_argument("--since", metavar="D", help="bookings sent on or after D (YYYY-MM-DD)")
    report.add_argument("--until", metavar="D", help="bookings sent up to and including D")
    report.add_argument(
        "--by", choices=("week", "carrier", "lane"), help="spend grouped by (default carrier)"
    )
    report.add_argument(
        "--format", choices=("table", "csv", "json"), default="table", help="output format"
    )
    report.add_argument(
        "--offline",
        action="store_true",
        help="carriers: do not ask tracking for missing delivery dates (use those kept)",
    )


def _bounds(args: argparse.Namespace, today: date) -> tuple[datetime | None, datetime | None]:
    since = parse_day("--since", args.since, today) if args.since else None
    until = parse_day("--until", args.until, today) if args.until else None
    return (
        datetime.combine(since, time(), UTC) if since else None,
        datetime.combine(until + timedelta(days=1), time(), UTC) if until else None,
    )


def _ratio(value: Decimal | None) -> str | None:
    return format(value, "f") if value is not None else None


def records(args: argparse.Namespace, engine: Any, today: date) -> list[dict[str, Any]]:
    """The report's rows in the glossary's names (money as exact decimal strings)."""
    from tui.commands.connect import ledger_account

    since, until = _bounds(args, today)
    _, environment = ledger_account(args)  # the target's bookings: never sandbox and production
    if args.kind == "carriers":
        return [
            {
                "carrier": row.carrier,
                "shipments": row.shipments,
                "share": _ratio(row.share),
                "quotedTransitDays": _ratio(row.quoted_transit_days),
                "actualTransitDays": _ratio(row.actual_transit_days),
                "delivered": row.delivered,
                "onTime": _ratio(row.on_time),
            }
            for row in carriers(engine, since, until, environment=environment)
        ]
    by: By = "lane" if args.kind == "lanes" else (args.by or "carrier")
    gone = {
        (r.key, r.currency): r
        for r in canceled(engine, by, (since, until), environment=environment)
    }
    out: list[dict[str, Any]] = []
    for row in spend(engine, by, since, until, environment=environment):
        apart = gone.pop((row.key, row.currency), None)
        out.append(
            {
                by: row.key,
                "currency": row.currency,
                "shipments": row.shipments,
                "totalWeight": pounds(row.pounds),
                "total": money(row.total),
                "costPerCwt": money(row.cost_per_cwt),
                "savings": money(row.savings),
                "canceled": apart.shipments if apart else 0,
                "canceledTotal": money(apart.total if apart else Decimal(0)),
            }
        )
    for apart in gone.values():  # a group whose every shipment was canceled: no spend
        out.append(
            {
                by: apart.key, "currency": apart.currency, "shipments": 0, "totalWeight": 0,
                "total": money(Decimal(0)), "costPerCwt": None, "savings": money(Decimal(0)),
                "canceled": apart.shipments, "canceledTotal": money(apart.total),
            }
        )  # fmt: skip
    return out


SHORT_NAMES: Final[dict[str, str]] = {
    "currency": "cur",
    "shipments": "ships",
    "costPerCwt": "perCwt",
    "totalWeight": "lb",
    "quotedTransitDays": "quotedDays",
    "actualTransitDays": "actualDays",
}
"""Table headers shortened when the full names do not fit (CSV and JSON keep the full ones)."""

LEFT_OUT_FIRST: Final = ("totalWeight", "delivered", "savings", "shipments", "share")
"""Columns a narrow table leaves out, first to last (the group, the money and the days stay)."""

KEY_MIN: Final = 16
"""A carrier or lane name is cut (with …) down to this many characters before a column goes."""


def table_width(out: TextIO) -> int | None:
    """The columns a table may use: ``COLUMNS``, else the terminal's width when ``out`` is
    one, else None (a file or a pipe gets every column)."""
    given = os.environ.get("COLUMNS", "")
    if given.isdigit() and int(given) > 0:
        return int(given)
    try:
        return os.get_terminal_size(out.fileno()).columns if out.isatty() else None
    except (AttributeError, OSError, ValueError):
        return None


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)].rstrip() + "…"


def _layout(
    names: list[str], cells: list[list[str]], width: int | None
) -> tuple[list[str], list[str], int]:
    """The columns shown, their headers, and the width of the first (the group's name):
    every column when it fits; else short headers, the name cut, then columns left out."""
    full = {n: max(len(n), *(len(c[i]) for c in cells)) for i, n in enumerate(names)}

    def widths(shown: list[str], labels: list[str]) -> list[int]:
        data = {n: max(len(c[names.index(n)]) for c in cells) for n in shown}
        return [max(len(label), data[n]) for n, label in zip(shown, labels, strict=True)]

    if width is None or sum(full.values()) + 2 * (len(names) - 1) <= width:
        return names, names, full[names[0]]
    shown = list(names)
    left_out = [n for n in LEFT_OUT_FIRST if n in names[1:]]
    while True:
        labels = [SHORT_NAMES.get(n, n) for n in shown]
        sizes = widths(shown, labels)
        excess = sum(sizes) + 2 * (len(shown) - 1) - width
        key_room = sizes[0] - max(KEY_MIN, len(labels[0]))
        if excess <= max(0, key_room) or not left_out:
            return shown, labels, max(sizes[0] - max(0, excess), KEY_MIN, len(labels[0]))
        shown.remove(left_out.pop(0))


def write(rows: list[dict[str, Any]], form: str, out: TextIO, width: int | None = None) -> None:
    """The rows as a table, CSV or JSON; text from the store is written as it is (plain).

    A table fits ``width`` columns when given (headers shortened, the carrier or lane cut,
    then the least needed columns left out, said in a last line); CSV and JSON keep all.
    """
    if form == "json":
        json.dump(rows, out, indent=2)
        out.write("\n")
        return
    if not rows:
        if form == "table":
            print("no booked shipments with a recorded rate in that period", file=out)
        return
    names = list(rows[0])
    if form == "csv":
        sheet = csv.DictWriter(out, fieldnames=names, lineterminator="\n")
        sheet.writeheader()
        sheet.writerows(rows)
        return
    spent = [{k: v for k, v in r.items() if k not in APART} for r in rows if r.get("shipments", 1)]
    if spent:
        _table(spent, [n for n in names if n not in APART], out, width)
    else:
        print("no booked shipments with a recorded rate in that period", file=out)
    for line in canceled_lines(rows):
        print(line, file=out)


def _table(rows: list[dict[str, Any]], names: list[str], out: TextIO, width: int | None) -> None:
    cells = [[plain("" if row[n] is None else str(row[n])) for n in names] for row in rows]
    shown, labels, key_width = _layout(names, cells, width)
    columns = [names.index(n) for n in shown]
    lines = [labels, *([_cut(line[i], key_width) if i == 0 else line[i] for i in columns]
                       for line in cells)]  # fmt: skip
    widths = [max(len(line[i]) for line in lines) for i in range(len(shown))]
    numeric = [i > 0 and all(_is_number(line[i]) for line in lines[1:]) for i in range(len(shown))]
    for line in lines:
        padded = (
            c.rjust(w) if right else c.ljust(w)
            for c, w, right in zip(line, widths, numeric, strict=True)
        )
        print("  ".join(padded).rstrip(), file=out)
    if dropped := [n for n in names if n not in shown]:
        note = f"({', '.join(dropped)} left out at {width} columns; --format csv has all)"
        print(textwrap.fill(note, max(width or 0, 30)), file=out)


APART: Final = ("canceled", "canceledTotal")
"""A spend row's canceled shipments (left out of its spend): columns in CSV and JSON, a line
per currency under the table."""


def canceled_lines(rows: list[dict[str, Any]]) -> list[str]:
    """``Canceled: 2 shipments, 1,234.50 USD not billed`` per currency (none: no line)."""
    totals: dict[str, tuple[int, Decimal]] = {}
    for row in rows:
        if row.get("canceled"):
            n, total = totals.get(row["currency"], (0, Decimal(0)))
            totals[row["currency"]] = (n + row["canceled"], total + Decimal(row["canceledTotal"]))
    return [
        f"Canceled: {n:,} shipment{'' if n == 1 else 's'}, {total:,.2f} {currency} not billed"
        " (left out of the spend)"
        for currency, (n, total) in totals.items()
    ]


def _is_number(text: str) -> bool:
    return not text or text.lstrip("-").replace(".", "", 1).isdigit()


async def run(args: argparse.Namespace, out: TextIO, err: TextIO, today: date) -> int:
    """Run one ``freight report``; return the exit status."""

    if args.kind == "audit":
        from tui.commands import report_audit

        return await report_audit.run(args, out, err, today)
    store = open_store(data_dir())
    try:
        if args.kind == "carriers" and not args.offline:
            await _deliveries(args, store, err, today)
        write(records(args, store.engine, today), args.format, out, table_width(out))
    finally:
        store.close()
    return 0


async def _deliveries(args: argparse.Namespace, store: Any, err: TextIO, today: date) -> None:
    """Fetch the delivery dates the store lacks; a service that cannot be asked is told on
    stderr and the scorecard uses the dates kept."""
    from tui.batch.run import DEFAULT_RATE
    from tui.commands.batch import profile_of
    from tui.commands.connect import open_client
    from tui.reports.deliveries import due, fetch_deliveries

    try:
        profile = profile_of(args)
        if not due(store, today, 1, profile.name):
            return
        rate = profile.limits.requests_per_second or DEFAULT_RATE
        async with open_client(args) as client:
            shared = StorePace(store, profile.name, str(client.base_url), rate)
            pace = Pace(rate, shared=shared)
            run = await fetch_deliveries(store, client, today, pace=pace.turn, account=profile.name)
    except (FreightError, NotSignedInError, UsageError, OSError) as error:
        print(
            f"freight: delivery dates not fetched ({error}); the scorecard uses those kept "
            "(--offline skips asking)",
            file=err,
        )
        return
    if run.problem is not None:
        print(f"freight: delivery dates: tracking stopped: {run.problem}", file=err)
    if run.asked:
        print(
            f"freight: asked tracking of {run.asked} shipments: {run.delivered} delivered",
            file=err,
        )
