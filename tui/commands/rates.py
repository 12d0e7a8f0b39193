"""``freight rates``: a rate request from flags or a JSON file, every carrier's offer out."""

from __future__ import annotations

import argparse
import json
import re
import sys
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TextIO

from tui.api.errors import RequestValidationError
from tui.api.models import RateRequest
from tui.commands.connect import open_client
from tui.commands.exits import OK, UsageError
from tui.commands.fields import RATE_FIELDS, QuotedRate, output_of, write_records
from tui.commands.text import money, table
from tui.domain.postal import is_canadian
from tui.domain.safe_text import decode_text, plain

if TYPE_CHECKING:
    from tui.api.models import Quote, Rate

_ITEM = re.compile(
    r"^\s*(?P<qty>\d+)\s*[x*]\s*(?P<package>[a-z-]+)\s*,"
    r"\s*(?P<weight>\d+(?:\.\d+)?)\s*(?:lbs?)?\s*,"
    r"\s*(?P<dims>\d+(?:\.\d+)?\s*x\s*\d+(?:\.\d+)?\s*x\s*\d+(?:\.\d+)?)\s*(?:in)?"
    r"(?:\s*,\s*(?:class\s*)?(?P<cls>\d+(?:\.\d+)?))?\s*$",
    re.IGNORECASE,
)


def parse_item(text: str, number: int) -> dict[str, Any]:
    """One ``--item`` as a rate request item; a UsageError says which one and why."""
    match = _ITEM.match(text)
    if match is None:
        raise UsageError(
            f"--item {number} ({text!r}): write it as QTYxPACKAGE,WEIGHT,LxWxH[,CLASS], "
            'e.g. "2xpallet,800lb,48x40x48,85"'
        )
    length, width, height = (Decimal(d.strip()) for d in match["dims"].lower().split("x"))
    item: dict[str, Any] = {
        "quantity": int(match["qty"]),
        "package": match["package"].lower(),
        "weight": Decimal(match["weight"]),
        "length": length,
        "width": width,
        "height": height,
    }
    if match["cls"]:
        item["freightClass"] = Decimal(match["cls"])
    return item


MAX_REQUEST_BYTES = 1024 * 1024
"""The largest ``--request`` file read (a rate request is a few KB; /dev/zero is endless)."""
MAX_REQUEST_DEPTH = 32
"""The deepest nesting of objects and arrays a ``--request`` body may have (a rate request
has four levels)."""


def _read_request(source: str) -> dict[str, Any]:
    """The JSON object of a ``--request`` file (or ``-``: stdin), in any common encoding."""

    shown = plain(source)
    try:
        if source == "-":
            stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
            data = (
                stream.read(MAX_REQUEST_BYTES + 1)
                if stream is not None
                else sys.stdin.read(MAX_REQUEST_BYTES + 1).encode("utf-8", "surrogateescape")
            )
        else:
            with open(source, "rb") as file:
                data = file.read(MAX_REQUEST_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"--request: cannot read {shown}: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL in the file name
        raise UsageError(f"--request: cannot read {shown}: {exc}") from None
    if len(data) > MAX_REQUEST_BYTES:
        raise UsageError(
            f"--request: {shown} is larger than {MAX_REQUEST_BYTES // 1024} KiB; a rate request "
            "is a small JSON object"
        )
    text, _ = decode_text(data)
    try:
        body = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        raise UsageError(f"--request: not JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise UsageError(f"--request: nested deeper than {MAX_REQUEST_DEPTH} levels") from None
    if _depth(body) > MAX_REQUEST_DEPTH:
        raise UsageError(f"--request: nested deeper than {MAX_REQUEST_DEPTH} levels")
    if not isinstance(body, dict):
        raise UsageError("--request: must hold one JSON object (the rate request body)")
    return body


def _depth(value: Any) -> int:
    """How deeply objects and arrays nest in a JSON value (a scalar: 0), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            level += 1
            deepest = max(deepest, level)
            if deepest > MAX_REQUEST_DEPTH:
                return deepest
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level) for child in children)
    return deepest


def request_of(args: argparse.Namespace) -> RateRequest:
    """The rate request from ``--request`` or from the flags (never both)."""
    return request_and_body(args)[0]


def request_and_body(args: argparse.Namespace) -> tuple[RateRequest, dict[str, Any] | None]:
    """The rate request from ``--request`` or from the flags (never both); with ``--request``,
    also the file's JSON object, to send as the caller wrote it (checked as the request)."""

    flags = [args.origin, args.destination, args.origin_type, args.dest_type, args.item]
    if args.request is not None:
        if any(f is not None for f in flags):
            raise UsageError("--request cannot be combined with --from, --to, --*-type or --item")
        raw = _read_request(args.request)
        return RateRequest.build(raw), raw
    missing = [
        flag
        for flag, value in (
            ("--from", args.origin),
            ("--to", args.destination),
            ("--item", args.item),
        )
        if not value
    ]
    if missing:
        raise UsageError(f"missing {', '.join(missing)} (or give --request FILE)")
    body: dict[str, Any] = {
        "originPostalCode": args.origin,
        "destPostalCode": args.destination,
        "items": [parse_item(text, n) for n, text in enumerate(args.item, start=1)],
    }
    # A Canadian end says its country, as the Quote screen's request does (US is the default).
    for value, field in ((args.origin, "originCountry"), (args.destination, "destCountry")):
        if is_canadian(value):
            body[field] = "CA"
    if args.origin_type:
        body["originType"] = args.origin_type
    if args.dest_type:
        body["destType"] = args.dest_type
    try:
        return RateRequest.build(body), None
    except RequestValidationError as exc:
        raise UsageError(_flag_messages(exc.fields)) from None


_FLAGS = {"originPostalCode": "--from", "destPostalCode": "--to"}
_ITEM_FIELD = re.compile(r"^items\[(\d+)\]\.?(.*)$")


def _flag_messages(fields: dict[str, str]) -> str:
    """Field errors of a request built from flags, named by the flag the user typed."""
    parts = []
    for path, message in fields.items():
        item = _ITEM_FIELD.match(path)
        if item:
            where = f"--item {int(item[1]) + 1}" + (f" {item[2]}" if item[2] else "")
        else:
            where = _FLAGS.get(path, path or "request")
        parts.append(f"{where}: {message}")
    return "; ".join(parts)


def ordered(quote: Quote) -> list[Rate]:
    """Rates that can be booked, cheapest first; the others after, by carrier."""
    usable = sorted(
        (r for r in quote.rates if r.status == "ok"), key=lambda r: (r.total, r.carrier)
    )
    others = sorted((r for r in quote.rates if r.status != "ok"), key=lambda r: r.carrier)
    return usable + others


def print_quote(quote: Quote, out: TextIO) -> None:
    """A line on the quote, then one row per rate (the spec's totals are in USD)."""
    expires = f", bookable until {quote.expires_at.isoformat()}" if quote.expires_at else ""
    lane = " → ".join(p for p in (quote.origin_postal_code, quote.dest_postal_code) if p)
    print(plain(f"Quote {quote.id}{' ' + lane if lane else ''}{expires}"), file=out)
    rows = []
    for rate in ordered(quote):
        ok = rate.status == "ok"
        rows.append(
            [
                rate.carrier,
                rate.carrier_code or "",
                rate.service_type or "",
                rate.mode or "",
                str(rate.days) if rate.days is not None and ok else "",
                money(rate.total, rate.currency or "USD") if ok else "",
                rate.id if ok else f"{rate.status}: {rate.message or ''}".rstrip(": "),
            ]
        )
    table(("CARRIER", "SCAC", "SERVICE", "MODE", "DAYS", "TOTAL", "RATE ID / WHY NOT"), rows, out)


async def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Ask for rates and print them (JSON: one record per rate, in the table's order)."""

    output = output_of(args, RATE_FIELDS, args.format)
    request, body = request_and_body(args)
    async with open_client(args) as client:
        quote = await client.get_rates(request, body=body)
    if output.format == "table":
        print_quote(quote, out)
    else:
        records = (RATE_FIELDS.record(QuotedRate(quote, r), output.fields) for r in ordered(quote))
        write_records(records, output.format, out)
    return OK
