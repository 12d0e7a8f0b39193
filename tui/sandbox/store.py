"""Shipment records: status advance, row to JSON (listing and detail), serial counters."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from tui.sandbox import billing, lifecycle
from tui.sandbox.jsonout import iso

#: references kept with a booking, in the order the listing's ``reference`` prefers them
REFERENCE_KEYS = ("reference", "poNumber", "originReferenceNumber", "destReferenceNumber")

CURRENCY = "USD"


def epoch_ms(moment: datetime) -> int:
    """Milliseconds since the epoch."""
    return int(moment.timestamp() * 1000)


def from_ms(value: int) -> str:
    """ISO 8601 UTC with milliseconds and ``Z``."""
    moment = datetime.fromtimestamp(value / 1000, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def from_s(value: int | None) -> str | None:
    """ISO 8601 UTC (whole seconds) or None."""
    if value is None:
        return None
    return iso(datetime.fromtimestamp(value, UTC))


def next_serial(conn: sqlite3.Connection, name: str, start: int) -> int:
    """Return the next number of a counter kept in ``meta`` (inside a transaction)."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (f"serial:{name}",)).fetchone()
    value = int(row[0]) + 1 if row is not None else start
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (f"serial:{name}", str(value))
    )
    return value


def advance(conn: sqlite3.Connection, now_s: int) -> int:
    """Move every shipment whose next status change is due; return how many changed."""
    due = conn.execute(
        "SELECT seq, timeline FROM shipments WHERE next_at IS NOT NULL AND next_at <= ?",
        (now_s,),
    ).fetchall()
    if not due:
        return 0
    updates = []
    for row in due:
        status, next_at = lifecycle.status_at(lifecycle.load_timeline(row["timeline"]), now_s)
        updates.append((status, next_at, row["seq"]))
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany("UPDATE shipments SET status = ?, next_at = ? WHERE seq = ?", updates)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return len(updates)


def _address(row: sqlite3.Row, prefix: str) -> dict[str, Any]:
    return {
        "company": row[f"{prefix}_company"] or "",
        "address": row[f"{prefix}_address"] or "",
        "address2": row[f"{prefix}_address2"] or "",
        "city": row[f"{prefix}_city"] or "",
        "state": row[f"{prefix}_state"] or "",
        "postalCode": row[f"{prefix}_zip"] or "",
        "country": "CA" if (row[f"{prefix}_zip"] or "0")[0].isalpha() else "US",
    }


def _money(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def listing(row: sqlite3.Row, now_s: int) -> dict[str, Any]:
    """The search listing shape of a shipment (its cost as billed by ``now_s``)."""
    bill = billing.adjustment(row, now_s)
    return {
        "id": row["id"],
        "createdDate": from_ms(row["created"]),
        "status": row["status"],
        "destination": _address(row, "d"),
        "carrier": {"name": row["carrier_name"], "scac": row["carrier_code"]},
        "cost": {"total": _money(billing.billed_cents(row, bill)), "currency": CURRENCY},
        "adjustments": billing.adjustments_json(row, bill),
        "proNumber": row["pro"],
        "mode": row["mode"],
        "serviceType": row["service_type"],
        "trackingNumber": row["tracking"],
        "bolNumber": row["bol"],
        "reference": row["reference"],
        "quoteId": row["quote_id"],
        "pickupDate": _pickup_date(row, row["status"]),
        **_pickup(row),
        **_listed_extras(row),
    }


def _pickup_date(row: sqlite3.Row, status: str) -> str | None:
    """The scheduled pickup moment; None once the shipment or its pickup is canceled."""
    if status == "canceled" or _pickup(row).get("pickupCanceled"):
        return None
    return from_s(row["pickup_at"])


def _pickup(row: sqlite3.Row) -> dict[str, Any]:
    """The pickup window a change set, and whether the pickup was canceled."""
    details = json.loads(row["details"] or "{}")
    out: dict[str, Any] = {}
    if details.get("pickupWindow"):
        out["pickupWindow"] = details["pickupWindow"]
    if details.get("pickupCanceled"):
        out["pickupCanceled"] = True
    return out


def _listed_extras(row: sqlite3.Row) -> dict[str, Any]:
    """What a listing entry carries beyond the spec's fields, as the later API version's
    records do: the items, the origin's dock hours, the pickup's confirmation and note (a
    day's pickups read from its listing, with no request per shipment)."""
    origin = json.loads(row["contacts"]).get("origin", {})
    details = json.loads(row["details"] or "{}")
    hours = {key: origin[key] for key in ("dockHoursOpen", "dockHoursClose") if origin.get(key)}
    extras: dict[str, Any] = {
        "origin": {**_address(row, "o"), **hours},
        "items": json.loads(row["items"]),
        "pickupConfirmation": row["pickup_conf"],
    }
    if details.get("pickupDateMessage"):
        extras["pickupDateMessage"] = details["pickupDateMessage"]
    return extras


def documents(row: sqlite3.Row, base_url: str) -> list[dict[str, str]]:
    """Documents of a shipment with absolute URLs."""
    root = f"{base_url.rstrip('/')}/documents/{row['id']}"
    if row["mode"] == "parcel":
        return [
            {
                "type": "label",
                "name": "Shipping label",
                "format": "pdf",
                "url": f"{root}/label.pdf",
            },
            {
                "type": "label",
                "name": "Shipping label",
                "format": "zpl",
                "url": f"{root}/label.zpl",
            },
        ]
    return [
        {"type": "bol", "name": "Bill of lading", "format": "pdf", "url": f"{root}/bol.pdf"},
        {"type": "label", "name": "Freight labels", "format": "pdf", "url": f"{root}/label.pdf"},
        {"type": "label", "name": "Freight labels", "format": "zpl", "url": f"{root}/label.zpl"},
    ]


def labels(row: sqlite3.Row, base_url: str) -> list[dict[str, str]]:
    """Parcel labels ``[{format, url}]``."""
    return [
        {"format": d["format"], "url": d["url"]}
        for d in documents(row, base_url)
        if d["type"] == "label"
    ]


def happened_events(row: sqlite3.Row, now_s: int) -> tuple[str, list[lifecycle.Event]]:
    """The status at ``now_s`` and the events that have happened by then, oldest first."""
    timeline = lifecycle.load_timeline(row["timeline"])
    status, _ = lifecycle.status_at(timeline, now_s)
    # The events happen on the timeline's clock (compressed for a booking) and are told on
    # the sandbox's own, simulated one: on the days the shipment is scheduled for, as the
    # BOL and the tracking's pickupDate and deliveryDate are.
    moments = {name: moment for moment, name in timeline}
    happened = lifecycle.events(
        timeline,
        moments.get("picked-up", row["pickup_at"]),
        moments.get("delivered", row["delivered_at"]),
        now_s,
        carrier=row["carrier_name"],
        mode=row["mode"],
        origin=f"{row['o_city']}, {row['o_state']}",
        dest=f"{row['d_city']}, {row['d_state']}",
        pickup_conf=row["pickup_conf"],
        key=row["id"],
        chaos=row["carrier_code"] == "QWDL",
    )
    told = simulated(timeline, row["pickup_at"], row["delivered_at"])
    return status, [replace(event, time=told(event.time)) for event in happened]


def simulated(
    timeline: list[tuple[int, str]], pickup_at: int, delivered_at: int
) -> Callable[[int], int]:
    """A moment of the timeline -> the simulated moment it stands for (a booking's clock is
    compressed from its creation; the seeded history's is not). A shipment canceled before
    its pickup keeps the timeline's moments (no scheduled moment to scale them by)."""
    created = timeline[0][0]
    moments = {name: moment for moment, name in timeline}
    for name, scheduled in (("delivered", delivered_at), ("picked-up", pickup_at)):
        moment = moments.get(name)
        if moment is not None and moment > created:
            ratio = (scheduled - created) / (moment - created)
            return lambda t: created + round((t - created) * ratio)
    return lambda t: t


def _extras(row: sqlite3.Row) -> dict[str, Any]:
    """What a booking kept beyond the spec's fields (seeded shipments have none)."""
    details = json.loads(row["details"] or "{}")
    extras: dict[str, Any] = {
        "requestedPickupDate": details.get("pickupDate"),
        "accessorials": details.get("accessorials", []),
        "references": details.get("references", {}),
        "originType": details.get("originType"),
        "destType": details.get("destType"),
    }
    if details.get("pickupDateMessage"):
        extras["pickupDateMessage"] = details["pickupDateMessage"]
    if details.get("emergency"):
        extras["emergencyContact"] = details["emergency"]
    return extras


def extra_search_values(details: dict[str, Any]) -> list[str]:
    """References of a booking, for free-text search."""
    return [str(value) for value in (details.get("references") or {}).values() if value]


def detail(row: sqlite3.Row, base_url: str, now_s: int) -> dict[str, Any]:
    """The detail shape of a shipment, with events up to ``now_s``."""
    status, happened = happened_events(row, now_s)
    delivered = status == "delivered"
    contacts = json.loads(row["contacts"])
    bill = billing.adjustment(row, now_s)
    extras = _extras(row)
    tracking = lifecycle.tracking_status(status, happened)
    if _pickup(row).get("pickupCanceled") and status in ("awarded", "confirmed"):
        tracking = "booked"
    if bill is not None and bill.accessorial:
        extras["accessorials"] = [*extras["accessorials"], bill.accessorial]
    return {
        "id": row["id"],
        "createdDate": from_ms(row["created"]),
        "status": status,
        "origin": {**_address(row, "o"), **contacts.get("origin", {})},
        "destination": {**_address(row, "d"), **contacts.get("destination", {})},
        "items": bill.items if bill is not None else json.loads(row["items"]),
        "tracking": {
            "status": tracking,
            "trackingNumber": row["tracking"],
            "pickupDate": _pickup_date(row, status),
            "deliveryDate": from_s(row["delivered_at"]) if status != "canceled" else None,
            "estimated": not delivered,
        },
        "documents": documents(row, base_url),
        "proNumber": row["pro"],
        "bolNumber": row["bol"],
        "mode": row["mode"],
        "pickupConfirmation": row["pickup_conf"],
        "quoteId": row["quote_id"],
        "rateId": row["rate_id"],
        "reference": row["reference"],
        "trackingNumbers": json.loads(row["tracking_all"] or "[]"),
        "carrier": {"name": row["carrier_name"], "scac": row["carrier_code"]},
        "serviceType": row["service_type"],
        "cost": {"total": _money(billing.billed_cents(row, bill)), "currency": CURRENCY},
        "quotedTotal": _money(row["total_cents"]),
        "adjustments": billing.adjustments_json(row, bill),
        "pickupDate": _pickup_date(row, status),
        **_pickup(row),
        **extras,
        "events": [
            {
                "time": from_s(e.time),
                "status": e.status,
                "description": e.description,
                "location": e.location,
            }
            for e in reversed(happened)
        ],
    }


def search_text(values: list[str | None]) -> str:
    """Text indexed for free-text search (PROs also without dashes)."""
    words = []
    for value in values:
        if value:
            words.append(value)
            if "-" in value:
                words.append(value.replace("-", ""))
    return " ".join(words)
