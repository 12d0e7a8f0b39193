"""``freight shipments``: every page of a filter as a table, CSV, JSON or JSON Lines."""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import AsyncIterator
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

from tui.api.models import ShipmentQuery
from tui.atomic import write_atomically
from tui.commands.booked import joined
from tui.commands.connect import open_client
from tui.commands.dates import pickup_range
from tui.commands.exits import OK, UsageError
from tui.commands.fields import fieldset_of, output_of
from tui.commands.text import Progress, money, table
from tui.domain.safe_text import plain
from tui.export import shipment_record, shipments_workbook

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models import Shipment
    from tui.export import ExportFormat

COLUMNS = ("PRO", "STATUS", "MODE", "PICKUP", "FROM", "TO", "CARRIER", "TOTAL", "ID")


def query_of(args: argparse.Namespace, today: date) -> ShipmentQuery:
    """The search filters the flags ask for (a bad combination is a UsageError)."""

    start, end = pickup_range(args.pickup, args.date_from, args.date_to, today)
    if args.limit is not None and args.limit < 1:
        raise UsageError("--limit: must be 1 or more")
    return ShipmentQuery.build(
        text=args.search, status=args.status, mode=args.mode,
        pickup_date_from=start, pickup_date_to=end,
    )  # fmt: skip


async def limited(
    client: FreightClient, query: ShipmentQuery, limit: int | None
) -> AsyncIterator[Shipment]:
    """The shipments of every page, stopping after ``limit`` (a small limit, a small page)."""
    default = client.options.page_size
    page_size = limit if limit is not None and (not default or limit < default) else None
    count = 0
    async for shipment in client.iter_shipments(query, limit=page_size):
        yield shipment
        count += 1
        if limit is not None and count >= limit:
            return


def _place(city: str | None, state: str | None) -> str:
    return " ".join(p for p in (city, state) if p)


def row_of(shipment: Shipment) -> list[str]:
    """One table row."""
    carrier, cost = shipment.carrier, shipment.cost
    return [
        shipment.pro_number or "",
        shipment.status,
        shipment.mode or "",
        shipment.pickup_date.isoformat() if shipment.pickup_date else "",
        _place(shipment.origin.city, shipment.origin.state),
        _place(shipment.destination.city, shipment.destination.state),
        (carrier.name or carrier.scac or "") if carrier else "",
        money(cost.total, cost.currency) if cost else "",
        shipment.id,
    ]


def totals_line(shipments: list[Shipment]) -> str:
    """``12 shipments; total 1,234.50 USD + 99.00 CAD``: one sum per currency, never mixed."""
    sums: dict[str, Decimal] = {}
    for shipment in shipments:
        cost = shipment.cost
        if cost is not None and cost.total is not None and cost.total.is_finite():
            key = cost.currency or ""
            sums[key] = sums.get(key, Decimal(0)) + cost.total
    noun = "shipment" if len(shipments) == 1 else "shipments"
    line = f"{len(shipments)} {noun}"
    if sums:
        parts = [money(total, code or None) for code, total in sorted(sums.items())]
        line += "; total " + " + ".join(parts)
    return line


def format_of(args: argparse.Namespace) -> ExportFormat | None:
    """``--format``, else the ``--output`` file's extension, else JSON with ``--json``; None
    for the table."""
    if args.format is not None:
        return None if args.format == "table" else cast("ExportFormat", args.format)
    if args.output is None:
        return "json" if args.json is not None else None
    suffix = Path(args.output).suffix.lower().lstrip(".")
    if suffix not in ("csv", "json", "jsonl"):
        raise UsageError(f"--output: say --format csv, json or jsonl for {args.output!r}")
    return cast("ExportFormat", suffix)


async def run(args: argparse.Namespace, out: TextIO, err: TextIO, today: date) -> int:
    """List the shipments in the format asked for, on stdout or into ``--output``.

    A CSV file written with ``--output`` starts with the byte-order mark Excel needs; CSV on
    stdout (a pipe, most often) does not, unless ``--bom`` says so."""

    query = query_of(args, today)
    if (
        args.output is not None
        and args.format is None
        and _path(args.output).suffix.lower() == ".xlsx"
    ):
        return await _workbook(args, query, err)
    fmt = format_of(args)
    if args.output is not None and fmt is None:
        raise UsageError("--output: the table is for the terminal; use csv, json or jsonl")
    fields = output_of(args, fieldset_of("shipments"), fmt or "table").fields
    bom = args.bom if args.bom is not None else args.output is not None
    path = None if args.output is None else _writable(_path(args.output))
    progress = Progress(err)
    async with open_client(args) as client:
        rows = limited(client, query, args.limit)
        records = joined(args, rows)  # each record with its booking in the store
        if path is not None and fmt is not None:
            from tui.export import export_shipments

            try:
                result = await export_shipments(
                    records, path, fmt, bom=bom, progress=progress, fields=fields
                )
            except OSError as exc:  # no permission, a full disk, a folder in the way
                raise UsageError(f"--output: cannot write {path}: {_reason(exc)}") from None
            finally:
                progress.done()
            print(f"Wrote {result.count} shipments to {plain(result.path)}", file=err)
            return OK
        try:
            if fmt is None:
                listed: list[Shipment] = []
                async for shipment in rows:
                    listed.append(shipment)
                    progress(len(listed))
                progress.done()
                table(COLUMNS, [row_of(s) for s in listed], out)
                print(plain(totals_line(listed)), file=out)  # currencies are the server's
                return OK
            from tui.export import stream_shipments

            target = _utf8(out)
            try:
                await stream_shipments(
                    records, target, fmt, bom=bom, progress=progress, fields=fields
                )
            finally:
                target.flush()
                if target is not out and isinstance(target, io.TextIOWrapper):
                    target.detach()  # leave sys.stdout open
        finally:
            progress.done()
    return OK


async def _workbook(args: argparse.Namespace, query: ShipmentQuery, err: TextIO) -> int:
    """``--output FILE.xlsx``: an Excel workbook of the shipments, written when complete
    (text cells in text format, so long numbers keep their leading zeros)."""

    fields = output_of(args, fieldset_of("shipments"), "csv").fields
    progress = Progress(err)
    records: list[dict[str, Any]] = []
    async with open_client(args) as client:
        try:
            async for shipment in joined(args, limited(client, query, args.limit)):
                records.append(shipment_record(shipment, fields))
                progress(len(records))
        finally:
            progress.done()
    path = _path(args.output)
    try:
        write_atomically(path, shipments_workbook(records, fields))
    except OSError as exc:
        raise UsageError(f"--output: cannot write {path}: {exc.strerror or exc}") from None
    print(f"Wrote {len(records)} shipments to {plain(path)}", file=err)
    return OK


def _path(text: str) -> Path:
    return Path(text).expanduser()


def _writable(path: Path) -> Path:
    """``path`` if its folder exists: a missing folder is named, never created (a typo in a
    folder name would otherwise put the file somewhere nobody looks)."""
    folder = path.parent
    if not folder.exists():
        raise UsageError(f"--output: there is no folder {folder}")
    if not folder.is_dir():
        raise UsageError(f"--output: {folder} is not a folder")
    if path.is_dir():
        raise UsageError(f"--output: {path} is a folder; name a file in it")
    return path


def _reason(error: OSError) -> str:
    return plain(error.strerror or error)


def _utf8(out: TextIO) -> TextIO:
    """``out`` written as UTF-8 whatever the locale says (CSV and JSON files are UTF-8)."""
    if out is sys.stdout and hasattr(out, "buffer"):
        out.flush()
        return io.TextIOWrapper(out.buffer, encoding="utf-8", newline="", write_through=True)
    return out
