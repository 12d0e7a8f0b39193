"""A batch as the Batch screen shows it, without Textual: the review table's rows, the filter,
the counts and the totals per currency, the mapping review, and path completion."""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Final

from tui.batch.fields import FIELDS, ColumnMapping
from tui.batch.model import OUTPUT_STATUS, STATUSES, Order, OrderState, RateOption
from tui.batch.source import header_key
from tui.domain.money import format_money
from tui.domain.safe_text import plain

if TYPE_CHECKING:
    from tui.batch.engine import Batch
    from tui.batch.source import Sheet
    from tui.batch.store import BatchInfo, BatchStore

ORDER_FILE_SUFFIXES: Final = (".csv", ".tsv", ".txt", ".tab", ".xlsx", ".xlsm")
STATUS_ORDER: Final = ("booked", "rated", "no-rate", "pending", "failed", "unknown", "invalid")


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """One order in the review table (text from the file and the server already plain)."""

    key: str
    position: int
    status: str
    destination: str
    pieces: int | None
    weight: Decimal | None
    classes: str
    flags: str
    carrier: str
    carrier_code: str
    service: str
    days: int | None
    total: Decimal | None
    currency: str
    pro: str
    problem: str
    """The first problem (row and reason) or note, for the line under the table."""
    paperwork_missing: bool
    """Booked, and its BOL or labels not all saved (the next booking run fetches them)."""
    haystack: str
    """What the filter searches, lower case."""
    weight_order: float | None
    total_order: float
    """The weight and the total (0 for none) as the review sorts them: floats sort many
    times faster than Decimals and keep the order of amounts as shown (to the pound, the
    cent)."""
    status_text: str
    """The status as shown: ``booked!`` for one booked with its paperwork missing."""
    where: str
    """Where the order goes; for one set aside, why (its row and column to fix)."""
    scac: str
    """The carrier's code, or the start of its name when it has none."""

    def matches(self, words: Sequence[str]) -> bool:
        """Whether every word of a filter is in the row."""
        return all(word in self.haystack for word in words)


def review_row(order: Order | None, state: OrderState) -> ReviewRow:
    """An order's row."""

    choice = state.choice
    status = OUTPUT_STATUS[state.status]
    problem = state.errors[0].message if state.errors else ""
    if state.owes_paperwork:
        problem = f"booked, paperwork missing (b fetches it): {plain(state.paperwork_missing)}"
    if not problem and order is not None and order.errors:
        problem = order.errors[0].message
    if not problem and state.notes:
        problem = plain(state.notes[0])
    looks = _looks_hazardous(order, state)
    if looks:
        problem = f"{looks} · {problem}"
    # (a file's destinations repeat: each text kept once however many rows show it)
    destination = sys.intern(plain(order.dest_text, limit=40)) if order is not None else ""
    carrier = choice.carrier if choice else ""
    code = choice.carrier_code if choice else ""
    service = choice.service if choice else ""
    flags = order.flags.short() if order is not None else ""
    if looks:
        flags = f"{flags} HZ?".strip()  # looks hazardous: the user's word is wanted
    owes = "paperwork missing" if state.owes_paperwork else ""
    parts = (state.key, status, destination, carrier, code, service, flags, state.pro_number, owes)
    return ReviewRow(
        key=state.key,
        position=state.position or (order.rows[0] if order else 0),
        status=status,
        destination=destination,
        pieces=order.pieces if order is not None and order.valid else None,
        weight=order.weight_lb if order is not None and order.valid else None,
        classes=order.classes if order is not None else "",
        flags=flags,
        carrier=carrier,
        carrier_code=code,
        service=service,
        days=choice.days if choice else None,
        total=choice.total if choice else None,
        currency=choice.currency if choice else "",
        pro=plain(state.pro_number, limit=20),
        problem=problem,
        paperwork_missing=state.owes_paperwork,
        haystack=" ".join(plain(part) for part in parts if part).casefold(),
        weight_order=float(order.weight_lb) if order is not None and order.valid else None,
        total_order=float(choice.total) if choice else 0.0,
        status_text=status + ("!" if state.owes_paperwork else ""),
        where=problem if status == "invalid" and problem else destination,
        scac=code or plain(carrier, limit=4),
    )


def _looks_hazardous(order: Order | None, state: OrderState) -> str:
    """``looks hazardous (paint), row 3 · h if it is not`` for an order set aside because its
    lines look hazardous and the user has not said they are not; else empty."""
    looks = order.looks_hazardous if order is not None else None
    if looks is None or state.status != "invalid":
        return ""
    if not any(e.reason.startswith("looks hazardous (") for e in state.errors):
        return ""
    return f"looks hazardous ({plain(looks.words, limit=60)}), {looks.rows_text} · h if it is not"


def review_rows(batch: Batch) -> list[ReviewRow]:
    """Every order of the batch, in file order."""
    return [review_row(order, batch.state(order.key)) for order in batch.orders]


def filter_words(text: str) -> list[str]:
    """The words of a filter, lower case."""
    return text.casefold().split()


def counts_text(rows: Iterable[ReviewRow]) -> str:
    """``120 orders · 113 rated · 7 invalid``."""
    listed = list(rows)
    counts = Counter(row.status for row in listed)
    owing = sum(row.paperwork_missing for row in listed)
    return counts_line(len(listed), counts, owing)


def counts_line(orders: int, counts: Mapping[str, int], owing: int) -> str:
    """``120 orders · 113 rated (2 paperwork missing) · 7 invalid``: ``orders`` in all,
    ``counts`` per status, ``owing`` booked with their paperwork missing."""
    noun = "order" if orders == 1 else "orders"
    parts = [f"{orders} {noun}"]
    missing = f" ({owing} paperwork missing)" if owing else ""
    parts += [
        f"{counts[s]} {s}" + (missing if s == "booked" else "")
        for s in STATUS_ORDER
        if counts.get(s)
    ]
    return " · ".join(parts)


def totals(rows: Iterable[ReviewRow]) -> dict[str, Decimal]:
    """The chosen totals of rated and booked orders, per currency (never added across)."""
    out: dict[str, Decimal] = {}
    for row in rows:
        if row.total is not None and row.status in ("rated", "booked"):
            out[row.currency] = out.get(row.currency, Decimal(0)) + row.total
    return out


def totals_text(rows: Iterable[ReviewRow]) -> str:
    """``total 69,770.03 USD · 1,234.50 CAD`` ('' when nothing is rated)."""

    return totals_line(totals(rows))


def totals_line(found: Mapping[str, Decimal]) -> str:
    """``total 69,770.03 USD · 1,234.50 CAD`` from the totals per currency ('' for none)."""
    if not found:
        return ""
    return "total " + " · ".join(
        f"{format_money(amount)} {currency}" for currency, amount in sorted(found.items())
    )


def rate_line(rate: RateOption) -> str:
    """``HGFL Harrowgate Freight Lines · Economy · 7 days · 638.93 USD``."""

    parts = [f"{rate.carrier_code} {rate.carrier}".strip()]
    if rate.service:
        parts.append(rate.service)
    if rate.days is not None:
        parts.append(f"{rate.days} day" + ("" if rate.days == 1 else "s"))
    parts.append(f"{format_money(rate.total)} {rate.currency}")
    return " · ".join(parts)


@dataclass(frozen=True)
class MappingLine:
    """One field in the mapping review: where it comes from and the first row's value."""

    field: str
    level: str
    source: str
    """The column's header, ``= value`` for a constant, or ``—``."""
    sample: str


def mapping_lines(mapping: ColumnMapping, sheet: Sheet) -> list[MappingLine]:
    """Every field, mapped or not, with the first data row's value of its column."""
    first = sheet.rows[0].cells if sheet.rows else ()
    out = []
    for spec in FIELDS:
        sample = ""
        if spec.name in mapping.constants:
            source = "= " + plain(mapping.constants[spec.name], limit=30)
        elif spec.name in mapping.columns:
            header = mapping.columns[spec.name]
            source = plain(header, limit=30)
            index = sheet.column(header)
            if index is not None and index < len(first):
                sample = plain(first[index], limit=30)
        else:
            source = "—"
        out.append(MappingLine(spec.name, spec.level, source, sample))
    return out


def preview_text(orders: Sequence[Order]) -> tuple[str, bool]:
    """``120 orders: 113 ready · 7 set aside (first: row 24, Zip: …)``, and whether any order
    is set aside: what the orders read with a mapping look like, before any is rated."""
    bad = [order for order in orders if not order.valid]
    text = f"{len(orders)} orders: {len(orders) - len(bad)} ready"
    if bad:
        first = bad[0].errors[0].message if bad[0].errors else ""
        text += f" · {len(bad)} set aside" + (f" (first: {first})" if first else "")
    return text, bool(bad)


def unmapped_headers(mapping: ColumnMapping, sheet: Sheet) -> list[str]:
    """The file's columns no field reads."""

    used = {header_key(h) for h in mapping.columns.values()}
    return [h for h in sheet.headers if header_key(h) not in used]


def complete_path(text: str, cwd: Path | None = None) -> str | None:
    """``text`` completed as far as the folder's entries agree (a folder gets its ``/``); only
    folders and order files count. None when nothing completes it further."""
    candidates = path_choices(text, cwd)
    if not candidates:
        return None
    name = os.path.expanduser(text).rpartition(os.sep)[2]
    common = os.path.commonprefix(candidates)  # noqa: RUF071 - names, character by character
    if len(common) <= len(name):
        return None
    return text[: len(text) - len(name)] + common


def path_choices(text: str, cwd: Path | None = None) -> list[str]:
    """The folders (with their ``/``) and order files whose names start as the last part of
    ``text`` does, in name order (hidden ones only when it starts with a dot)."""
    if not text:
        return []
    expanded = os.path.expanduser(text)
    base = Path(cwd or Path.cwd())
    folder_text, _, name = expanded.rpartition(os.sep)
    folder = Path(folder_text or os.sep) if expanded.startswith(os.sep) or folder_text else base
    if folder_text and not expanded.startswith(os.sep):
        folder = base / folder_text
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    candidates: list[str] = []
    for entry in entries:
        if not entry.name.startswith(name) or (entry.name.startswith(".") and not name):
            continue
        try:
            is_dir = entry.is_dir()
        except OSError:
            continue
        if is_dir:
            candidates.append(entry.name + os.sep)
        elif entry.name.lower().endswith(ORDER_FILE_SUFFIXES):
            candidates.append(entry.name)
    return sorted(candidates, key=str.casefold)


def latest_unfinished(store: BatchStore, profile: str) -> BatchInfo | None:
    """The latest batch of the profile in ``store`` left unfinished, or None."""
    return next((info for info in store.batches(profile) if info.unfinished), None)


def unfinished_text(info: BatchInfo) -> str:
    """``wms-export.csv: 113 rated, 7 invalid``."""

    name = "pasted rows" if info.source.startswith("pasted:") else Path(info.source).name
    shown: Counter[str] = Counter()
    for status, number in info.counts.items():  # the words the table uses (no `booking`)
        word = OUTPUT_STATUS[status] if status in STATUSES else status
        shown[word] += number
    counts = ", ".join(f"{n} {s}" for s, n in sorted(shown.items()))
    return f"{plain(name, limit=40)}: {counts}"
