"""GET /shipments: filters, free text (FTS5), newest first, keyset continuation tokens."""

from __future__ import annotations

import base64
import binascii
import json
import re
import sqlite3
import unicodedata
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from tui.sandbox.errors import FieldErrors
from tui.sandbox.store import extra_search_values, search_text

#: shipment columns indexed for free text (with up to three parcel tracking numbers)
TEXT_COLUMNS = ("pro", "tracking", "reference", "bol", "quote_id", "id", "o_company",
                "d_company", "o_city", "d_city", "o_zip", "d_zip")  # fmt: skip

STATUSES = ("pending", "awarded", "confirmed", "picked-up", "delivered", "canceled")
MODES = ("ltl", "parcel", "truckload")
DEFAULT_LIMIT = 50
MAX_LIMIT = 200
#: pickups of the seeded history are at most this long after creation, which bounds a
#: pickup-date search; a booking for a later day raises the bound (``note_pickup_lead``)
MAX_PICKUP_LEAD = timedelta(days=21)
_LEAD_KEY = "pickup_lead_s"
_WORD = re.compile(r"[0-9A-Za-z]+")
MAX_TERMS = 8
PREFIX_INDEX_MAX = 8  # FTS5 prefix indexes cover prefixes of 1..8 characters (see db.py)
#: above this many matches a word is "common"; below it a filter is "rare"
PLAN_PROBE = 2000


@dataclass(frozen=True)
class Query:
    """A parsed search."""

    terms: tuple[str, ...]
    status: str | None
    mode: str | None
    pickup_from: date | None
    pickup_to: date | None
    after_seq: int | None
    limit: int
    matches_nothing: bool = False


def _date(value: str | None, field: str, errors: FieldErrors) -> date | None:
    if value is None or value == "":
        return None
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            raise ValueError
        return date.fromisoformat(value)
    except ValueError:
        errors.add(field, "must be a date YYYY-MM-DD")
        return None


def encode_token(seq: int) -> str:
    """Opaque continuation token for 'shipments older than ``seq``'."""
    raw = json.dumps({"v": 1, "before": seq}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_token(token: str) -> int:
    """Inverse of :func:`encode_token`; raises ValueError when not one of ours."""
    try:
        padded = token + "=" * (-len(token) % 4)
        data = json.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
    except (ValueError, binascii.Error, UnicodeEncodeError) as exc:
        raise ValueError("not a continuation token") from exc
    if not isinstance(data, dict) or data.get("v") != 1:
        raise ValueError("not a continuation token")
    before = data.get("before")
    if not isinstance(before, int) or isinstance(before, bool) or before < 0:
        raise ValueError("not a continuation token")
    return before


def parse_query(params: dict[str, str]) -> Query:
    """Validate the query parameters (400 VALIDATION_ERROR naming each bad one)."""
    errors = FieldErrors()
    # older clients ask by pro, bol and ref: they search the same words as free text
    text = " ".join(params.get(key, "") or "" for key in ("search", "pro", "bol", "ref")).strip()
    terms = tuple(dict.fromkeys(w.lower() for w in _WORD.findall(text)))[:MAX_TERMS]
    status = params.get("status") or None
    if status is not None and status not in STATUSES:
        errors.add("status", "must be one of " + ", ".join(STATUSES))
    mode = params.get("mode") or None
    if mode is not None and mode not in MODES:
        errors.add("mode", "must be one of " + ", ".join(MODES))
    pickup_from = _date(params.get("pickupDateFrom"), "pickupDateFrom", errors)
    pickup_to = _date(params.get("pickupDateTo"), "pickupDateTo", errors)
    on_day = _date(params.get("pickupDate"), "pickupDate", errors)  # older clients: one day
    if on_day is not None:
        pickup_from, pickup_to = (
            max(filter(None, (pickup_from, on_day))),
            min(filter(None, (pickup_to, on_day))),
        )
    if pickup_from and pickup_to and pickup_to < pickup_from:
        errors.add("pickupDateTo", "must not be before pickupDateFrom")
    after: int | None = None
    token = params.get("continuationToken")
    if token:
        try:
            after = decode_token(token)
        except ValueError:
            errors.add("continuationToken", "is not a token this service gave out")
    limit = DEFAULT_LIMIT
    raw_limit = params.get("limit")
    if raw_limit:
        if not raw_limit.isdigit() or not 1 <= int(raw_limit) <= MAX_LIMIT:
            errors.add("limit", f"must be a whole number from 1 to {MAX_LIMIT}")
        else:
            limit = int(raw_limit)
    errors.raise_if_any()
    nothing = bool(text.strip()) and not terms  # only punctuation: matches nothing
    return Query(terms, status, mode, pickup_from, pickup_to, after, limit, nothing)


def _day_start(day: date) -> int:
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp())


def _text_is_common(conn: sqlite3.Connection, query: Query) -> bool:
    sql = (
        "SELECT count(*) FROM (SELECT rowid FROM shipment_text WHERE shipment_text MATCH ? LIMIT ?)"
    )
    return int(conn.execute(sql, (fts_query(query.terms), PLAN_PROBE)).fetchone()[0]) >= PLAN_PROBE


def _filter_is_rare(
    conn: sqlite3.Connection, query: Query, where: list[str], args: list[Any]
) -> bool:
    if not (query.status or query.mode):
        return False
    sql = (
        "SELECT count(*) FROM (SELECT 1 FROM shipments s WHERE " + " AND ".join(where) + " LIMIT ?)"
    )
    return int(conn.execute(sql, [*args, PLAN_PROBE]).fetchone()[0]) < PLAN_PROBE


def _words(row: sqlite3.Row) -> list[str]:
    values = [row[c] for c in TEXT_COLUMNS] + json.loads(row["tracking_all"] or "[]")[:3]
    values += [str(item.get("description") or "") for item in json.loads(row["items"])]
    values += extra_search_values(json.loads(row["details"] or "{}"))
    text = search_text(values)
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return _WORD.findall(plain)


def _scan_filtered(
    conn: sqlite3.Connection, query: Query, where: list[str], args: list[Any]
) -> tuple[list[sqlite3.Row], int | None]:
    """Few rows pass the filters but the words are common: check the words row by row."""
    terms = [
        t[:PREFIX_INDEX_MAX] if len(t) > PREFIX_INDEX_MAX and t.isalpha() else t
        for t in query.terms
    ]
    sql = "SELECT s.* FROM shipments s WHERE " + " AND ".join(where) + " ORDER BY s.seq DESC"
    found: list[sqlite3.Row] = []
    for row in conn.execute(sql, args):
        words = _words(row)
        if all(any(w.startswith(t) for w in words) for t in terms):
            found.append(row)
            if len(found) > query.limit:
                page = found[: query.limit]
                return page, int(page[-1]["seq"])
    return found, None


def fts_query(terms: tuple[str, ...]) -> str:
    """FTS5 query: every term as a prefix. Long words are cut to the longest prefix index
    (8) so the query never merges large doclists; digits stay whole (identifiers)."""
    parts = []
    for term in terms:
        if len(term) > PREFIX_INDEX_MAX and term.isalpha():
            term = term[:PREFIX_INDEX_MAX]
        parts.append(f'"{term}"*')
    return " AND ".join(parts)


def note_pickup_lead(conn: sqlite3.Connection, seconds: int) -> None:
    """Remember a pickup scheduled ``seconds`` after its shipment was created (when it is the
    longest yet), so pickup-date searches look back far enough (inside the caller's
    transaction)."""
    if seconds > _pickup_lead(conn):
        conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (_LEAD_KEY, str(seconds))
        )


def _pickup_lead(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (_LEAD_KEY,)).fetchone()
    known = int(MAX_PICKUP_LEAD.total_seconds())
    return max(known, int(row[0])) if row is not None and str(row[0]).isdigit() else known


def _first_seq_from(conn: sqlite3.Connection, created_ms: int) -> int:
    """The seq of the first shipment created at or after ``created_ms`` (or past the end)."""
    row = conn.execute(
        "SELECT seq FROM shipments WHERE created >= ? ORDER BY created LIMIT 1", (created_ms,)
    ).fetchone()
    if row is not None:
        return int(row[0])
    last = conn.execute("SELECT max(seq) FROM shipments").fetchone()
    return int(last[0] or 0) + 1


def run(conn: sqlite3.Connection, query: Query) -> tuple[list[sqlite3.Row], int | None]:
    """Return one page of rows (newest first) and the seq to continue before, if more."""
    if query.matches_nothing:
        return [], None
    where: list[str] = []
    args: list[Any] = []
    if query.after_seq is not None:
        where.append("s.seq < ?")
        args.append(query.after_seq)
    if query.status:
        where.append("s.status = ?")
        args.append(query.status)
    if query.mode:
        where.append("s.mode = ?")
        args.append(query.mode)
    # Pickups follow creation by at most MAX_PICKUP_LEAD, and seq grows with createdDate, so
    # a pickup-date range maps to a seq range that bounds the scan.
    if query.pickup_from or query.pickup_to:
        where.append("s.status != 'canceled'")  # a canceled shipment has no pickup date
    if query.pickup_from:
        start = _day_start(query.pickup_from)
        where.append("s.pickup_at >= ?")
        args.append(start)
        lead_ms = int((start - _pickup_lead(conn)) * 1000)
        where.append("s.seq >= ?")
        args.append(_first_seq_from(conn, lead_ms))
    if query.pickup_to:
        end = _day_start(query.pickup_to + timedelta(days=1))
        where.append("s.pickup_at < ?")
        args.append(end)
        where.append("s.seq < ?")
        args.append(_first_seq_from(conn, end * 1000))
    if query.terms and _text_is_common(conn, query) and _filter_is_rare(conn, query, where, args):
        return _scan_filtered(conn, query, where, args)
    if query.terms:
        match = fts_query(query.terms)
        sql = (
            "SELECT s.* FROM shipment_text f CROSS JOIN shipments s ON s.seq = f.rowid "
            "WHERE shipment_text MATCH ?"
            + "".join(" AND " + w.replace("s.seq", "f.rowid", 1) for w in where)
            + " ORDER BY f.rowid DESC LIMIT ?"
        )
        args = [match, *args]
    else:
        sql = (
            "SELECT s.* FROM shipments s"
            + (" WHERE " + " AND ".join(where) if where else "")
            + " ORDER BY s.seq DESC LIMIT ?"
        )
    args.append(query.limit + 1)
    rows = conn.execute(sql, args).fetchall()
    if len(rows) > query.limit:
        rows = rows[: query.limit]
        return rows, int(rows[-1]["seq"])
    return rows, None
