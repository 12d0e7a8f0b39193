"""``freight report audit``: shipments billed above their booked price, from the listing.

Reads the booked prices from the store and the billed amounts from the service's listing (a
page of 100 shipments per request, for the pickup days of ``--since``/``--until``).
"""

from __future__ import annotations

import argparse
import json
from datetime import date
from typing import TYPE_CHECKING, Any, Final, TextIO

from tui.commands.batch import profile_of
from tui.commands.connect import ledger_account, open_client
from tui.commands.dates import parse_day
from tui.commands.exits import UsageError
from tui.config.paths import data_dir
from tui.domain.safe_text import plain
from tui.reports.audit import audit, booked_prices, line_record, listed_bills, to_csv
from tui.reports.audit_fixes import Fix, fixes_of
from tui.store import open_store
from tui.store.named import address_book

if TYPE_CHECKING:
    from tui.reports.audit import AuditLine, AuditReport
    from tui.store import Store


async def run(args: argparse.Namespace, out: TextIO, err: TextIO, today: date) -> int:
    """Run the audit; print it as a table, a CSV to dispute with, or JSON."""

    since = parse_day("--since", args.since, today) if args.since else None
    until = parse_day("--until", args.until, today) if args.until else None
    _, environment = ledger_account(args)
    store = open_store(data_dir())
    try:
        prices = booked_prices(store.engine, since, until, environment=environment)
        bills = []
        if prices:
            async with open_client(args) as client:
                bills = [bill async for bill in listed_bills(client, since, until)]
        report = audit(prices, bills)
        fixes = suggested(report, args, store)
    finally:
        store.close()
    if args.format == "csv":
        out.write(to_csv(report))
    elif args.format == "json":
        json.dump(as_json(report, fixes), out, indent=2)
        out.write("\n")
    else:
        write_table(report, out, fixes)
    return 0


def suggested(report: AuditReport, args: argparse.Namespace, store: Store) -> dict[str, Fix]:
    """Per shipment id, the item template or address book entry its bill suggests changing
    (the profile's; the book read only when a line points at an address)."""
    clued = [line for line in report.lines if line.clue is not None]
    if not clued:
        return {}
    try:  # the hint is no reason for the audit to fail
        profile = profile_of(args)
        entries = []
        if any(line.clue is not None and line.clue.kind == "accessorial" for line in clued):
            entries = address_book(store, data_dir(), profile)
    except (UsageError, OSError):
        return {}
    return fixes_of(clued, profile.item_templates, entries)


def as_json(report: AuditReport, fixes: dict[str, Fix] | None = None) -> dict[str, Any]:
    """The report in the glossary's names (money as exact decimal strings); a line whose
    cause may be the user's data says which and how (``suggestedUpdate``)."""
    fixes = fixes or {}

    def record(line: AuditLine) -> dict[str, Any]:
        fix = fixes.get(line.shipment_id)
        return {**line_record(line), "suggestedUpdate": _said(fix) if fix else None}

    def totals(table: dict[tuple[str, str], tuple[int, Any]], name: str) -> list[dict[str, Any]]:
        return [
            {name: key, "currency": cur, "shipments": n, "difference": f"{total:.2f}"}
            for (key, cur), (n, total) in table.items()
        ]

    return {
        "shipments": report.booked,
        "checked": report.checked,
        "canceled": report.canceled,
        "notListed": report.not_listed,
        "otherCurrency": report.other_currency,
        "billedAbove": [record(line) for line in report.lines],
        "byCarrier": totals(report.by_carrier, "carrier"),
        "byCause": totals(report.by_cause, "cause"),
    }


def _rows(rows: list[list[str]], out: TextIO, right: set[int]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = (
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        print("  ".join(cells).rstrip(), file=out)


def _said(fix: Fix) -> str:
    return f"{fix.what}: {fix.change}"


HOW: Final = "update it on the Reports screen: alt+6, 5 Audit, select the line, u"


def write_table(report: AuditReport, out: TextIO, fixes: dict[str, Fix] | None = None) -> None:
    """The lines (80 columns), then the totals per carrier and per cause, then the lines
    whose cause may be the user's own data (marked ``*``) and how to set that right."""
    fixes = fixes or {}
    share = f" ({len(report.lines) / report.checked:.0%})" if report.checked else ""
    print(
        f"{report.checked} booked shipments checked against their bill: "
        f"{len(report.lines)} billed above the booking{share}; {report.canceled} canceled, "
        f"{report.not_listed} not listed, {report.other_currency} billed in another currency",
        file=out,
    )
    if not report.lines:
        return
    print("", file=out)
    rows = [["PRO / shipment", "carrier", "cur", "booked", "billed", "diff", "cause"]]
    for line in report.lines:
        rows.append(
            [
                plain(line.pro_number or line.shipment_id, limit=14),
                plain(line.carrier, limit=16),
                line.currency,
                f"{line.booked:,.2f}",
                f"{line.billed:,.2f}",
                f"{line.difference:,.2f}",
                line.cause + (" *" if line.shipment_id in fixes else ""),
            ]
        )
    _rows(rows, out, {3, 4, 5})
    for title, table in (("carrier", report.by_carrier), ("cause", report.by_cause)):
        print("", file=out)
        lines = [[title, "cur", "ships", "difference"]]
        for (key, cur), (n, total) in table.items():
            lines.append([plain(key, limit=30), cur, str(n), f"{total:,.2f}"])
        _rows(lines, out, {2, 3})
    if fixes:
        print(f"\n* your own data may be why ({HOW}):", file=out)
    for line in report.lines:
        if (fix := fixes.get(line.shipment_id)) is not None:
            shipment = plain(line.pro_number or line.shipment_id, limit=14)
            print(f"  {shipment} {line.cause}: {plain(_said(fix))}", file=out)
