"""POST /book and /book/parcel: turn a quoted rate into a shipment, exactly once."""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from tui.sandbox import identifiers, lifecycle
from tui.sandbox.config import SandboxConfig
from tui.sandbox.db import INSERT_SHIPMENT, Database
from tui.sandbox.errors import ApiError, FieldErrors
from tui.sandbox.geo import Zip, lookup
from tui.sandbox.rating.carriers import BY_CODE
from tui.sandbox.search import note_pickup_lead
from tui.sandbox.seed import SERIAL_STARTS, shipment_id
from tui.sandbox.store import (
    REFERENCE_KEYS,
    documents,
    epoch_ms,
    extra_search_values,
    from_ms,
    labels,
    next_serial,
    search_text,
)
from tui.sandbox.validation import pickup_day

#: address-block keys stored in their own columns (the rest of a block goes to ``contacts``)
COLUMN_KEYS = ("company", "address", "address2", "city", "state")


def _already_booked(conn: sqlite3.Connection, quote_id: str, rate_id: str) -> ApiError | None:
    row = conn.execute(
        "SELECT id FROM shipments WHERE quote_id = ? AND rate_id = ?", (quote_id, rate_id)
    ).fetchone()
    if row is None:
        return None
    return ApiError(
        409,
        "ALREADY_BOOKED",
        f"Quote {quote_id} rate {rate_id} was already booked as shipment {row[0]}.",
        extra={"shipmentId": row[0]},
    )


def book(
    db: Database,
    config: SandboxConfig,
    account: str,
    fields: dict[str, Any],
    *,
    parcel: bool,
    base_url: str,
) -> dict[str, Any]:
    """Book the quote's rate; raise 404/409/410/422 as the README says."""
    quote_id, rate_id = fields["id"], fields["rateId"]
    now = config.current_time()
    with db.lock() as conn:
        quote = conn.execute("SELECT * FROM quotes WHERE id = ?", (quote_id,)).fetchone()
        if quote is None:
            raise ApiError(404, "QUOTE_NOT_FOUND", f"No quote {quote_id}.")
        rates = {r["id"]: r for r in json.loads(quote["rates"])}
        rate = rates.get(rate_id)
        if rate is None:
            raise ApiError(404, "RATE_NOT_FOUND", f"Quote {quote_id} has no rate {rate_id}.")
        conflict = _already_booked(conn, quote_id, rate_id)
        if conflict is not None:
            raise conflict
        if epoch_ms(now) > min(int(rate["expiresAt"]), int(quote["expires"])):
            raise ApiError(
                410, "QUOTE_EXPIRED", f"Quote {quote_id} expired; ask for new rates and book again."
            )
        if rate["status"] != "ok":
            raise ApiError(
                422, "RATE_NOT_BOOKABLE", f"Rate {rate_id} is {rate['status']}: {rate['message']}"
            )
        if parcel != (rate["mode"] == "parcel"):
            where = "/book/parcel" if rate["mode"] == "parcel" else "/book"
            raise ApiError(
                422,
                "RATE_NOT_BOOKABLE",
                f"Rate {rate_id} is a {rate['mode']} rate: book it with POST {where}.",
            )
        request = json.loads(quote["request"])
        try:
            with db.transaction() as tx:
                row = _insert(tx, config, account, quote_id, rate, request, fields, now)
        except sqlite3.IntegrityError:
            conflict = _already_booked(conn, quote_id, rate_id)
            if conflict is not None:
                raise conflict from None
            raise
        stored = conn.execute("SELECT * FROM shipments WHERE seq = ?", (row,)).fetchone()
    details = json.loads(stored["details"])
    common = {
        "shipmentId": stored["id"],
        "status": stored["status"],
        "mode": stored["mode"],
        "carrier": stored["carrier_name"],
        "carrierCode": stored["carrier_code"],
        "serviceType": stored["service_type"],
        "total": Decimal(rate["total"]),
        "quoteId": quote_id,
        "rateId": rate_id,
        "createdDate": from_ms(stored["created"]),
        "pickupDate": details.get("pickupDate"),
    }
    if details.get("pickupDateMessage"):
        common["pickupDateMessage"] = details["pickupDateMessage"]
    if parcel:
        return {
            "shipmentId": stored["id"],
            "trackingNumbers": json.loads(stored["tracking_all"]),
            "labels": labels(stored, base_url),
            **common,
        }
    return {
        "shipmentId": stored["id"],
        "proNumber": stored["pro"],
        "bolNumber": stored["bol"],
        "pickupConfirmation": stored["pickup_conf"],
        "documents": documents(stored, base_url),
        **common,
    }


def _insert(
    conn: sqlite3.Connection,
    config: SandboxConfig,
    account: str,
    quote_id: str,
    rate: dict[str, Any],
    request: dict[str, Any],
    fields: dict[str, Any],
    now: Any,
) -> int:
    origin = lookup(request["originPostalCode"])
    dest = lookup(request["destPostalCode"])
    assert origin is not None
    assert dest is not None
    code = rate["carrierCode"]
    mode = rate["mode"]
    last = conn.execute("SELECT created FROM shipments ORDER BY seq DESC LIMIT 1").fetchone()
    created_ms = max(epoch_ms(now), (int(last[0]) + 1) if last else 0)
    serial = next_serial(conn, "shipment", 1)
    sid = shipment_id(serial)
    rng = random.Random(f"{sid}:{config.seed}")
    items = [_item(item) for item in request["items"]]
    details, blocks = _merge(request, fields, origin, dest, now)
    pro = pickup_conf = bol = None
    tracking_all: list[str] = []
    if mode == "parcel":
        for _ in range(sum(int(item["quantity"]) for item in items)):
            tracking_all.append(
                identifiers.parcel_tracking(next_serial(conn, "parcel", SERIAL_STARTS["parcel"]))
            )
    else:
        pro = identifiers.pro_number(code, next_serial(conn, code, SERIAL_STARTS[code]))
        tracking_all = [pro]
        bol = identifiers.bol_number(next_serial(conn, "bol", SERIAL_STARTS["bol"]))
        if fields.get("schedulePickup") and not (code == "QWDL" and rng.random() < 0.5):
            pickup_conf = identifiers.pickup_confirmation(
                origin.city, next_serial(conn, "pickup", SERIAL_STARTS["pickup"])
            )
    late = rng.random() > BY_CODE[code].on_time
    late_days, early = lifecycle.spread(f"{sid}:{config.seed}", late)
    planned = lifecycle.plan(
        created_ms / 1000,
        mode,
        int(rate["days"] or 1),
        origin.lon,
        dest.lon,
        rng,
        speed=config.clock_speed,
        falloff=code == "RGFB" and rng.random() < 0.2,
        late=late,
        late_days=late_days,
        early=early,
        pickup_day=date.fromisoformat(details["pickupDate"]) if details["pickupDate"] else None,
        holidays=True,
    )
    status, next_at = lifecycle.status_at(planned.timeline, int(now.timestamp()))
    o_block, d_block = blocks["origin"], blocks["destination"]
    o_company, d_company = o_block.get("company", ""), d_block.get("company", "")
    references = details["references"]
    reference = next((references[key] for key in REFERENCE_KEYS if references.get(key)), None)
    contacts = {
        side: {k: v for k, v in block.items() if k not in COLUMN_KEYS}
        for side, block in blocks.items()
    }
    cursor = conn.execute(
        INSERT_SHIPMENT,
        (
            None, sid, account, created_ms, status, next_at, mode, code, rate["carrier"],
            rate["serviceType"], int(Decimal(rate["total"]) * 100), pro, bol,
            tracking_all[0] if tracking_all else None, json.dumps(tracking_all), reference,
            quote_id, rate["id"], pickup_conf, planned.pickup_at, planned.delivered_at,
            planned.to_json(),
            o_company, o_block.get("address", ""), o_block.get("address2", ""),
            o_block.get("city", origin.city), o_block.get("state", origin.state), origin.code,
            d_company, d_block.get("address", ""), d_block.get("address2", ""),
            d_block.get("city", dest.city), d_block.get("state", dest.state), dest.code,
            json.dumps(items), json.dumps(contacts), json.dumps(details),
        ),
    )  # fmt: skip
    seq = int(cursor.lastrowid or 0)
    conn.execute(
        "INSERT INTO shipment_text (rowid, body) VALUES (?, ?)",
        (
            seq,
            search_text(
                [pro, *tracking_all[:3], reference, bol, quote_id, sid, o_company, d_company,
                 o_block.get("city", origin.city), d_block.get("city", dest.city), origin.code,
                 dest.code, *(str(i["description"]) for i in items),
                 *extra_search_values(details)]
            ),
        ),
    )  # fmt: skip
    note_pickup_lead(conn, planned.pickup_at - created_ms // 1000)
    return seq


def _item(item: dict[str, Any]) -> dict[str, Any]:
    """A quoted line as the shipment detail shows it (the spec's fields first)."""
    package = str(item["package"])
    return {
        "weight": float(item["weight"]),
        "length": float(item["length"]),
        "width": float(item["width"]),
        "height": float(item["height"]),
        "quantity": item["quantity"],
        "description": item.get("description") or f"{package.capitalize()} freight",
        "package": package,
        "hazardous": bool(item.get("hazardous")),
        "nmfc": item.get("nmfc") or "",
        "freightClass": float(item["freightClass"]),
        "stackable": item.get("stackable"),
        "hazard": item.get("hazard"),
        "packageSize": item.get("packageSize"),
    }


def _merge(
    request: dict[str, Any], fields: dict[str, Any], origin: Zip, dest: Zip, now: datetime
) -> tuple[dict[str, Any], dict[str, dict[str, str]]]:
    """The quote's details overlaid with the booking's: (details, address blocks by side)."""
    sent = fields.get("details", {})
    blocks: dict[str, dict[str, str]] = {}
    for side, place, kind in (
        ("origin", origin, request.get("originType")),
        ("destination", dest, request.get("destType")),
    ):
        block = {**request.get(side, {}), **sent.get(side, {})}
        block["country"] = place.country
        if kind:
            block["locationType"] = kind
        blocks[side] = block
    references = {**request.get("references", {}), **sent.get("references", {})}
    for side, prefix in (("origin", "origin"), ("destination", "dest")):
        if blocks[side].get("referenceNumber"):
            references[f"{prefix}ReferenceNumber"] = blocks[side]["referenceNumber"]
    pickup = request.get("pickupDate")
    note = request.get("pickupDateMessage")
    if fields.get("pickupDate") is not None:
        errors = FieldErrors()
        day, note = pickup_day(fields["pickupDate"].isoformat(), origin, now, errors)
        errors.raise_if_any()
        pickup = day.isoformat() if day else pickup
    details = {
        "pickupDate": pickup,
        "pickupDateMessage": note,
        "accessorials": request.get("accessorials", []),
        "references": references,
        "emergency": {**request.get("emergency", {}), **sent.get("emergency", {})},
        "originType": request.get("originType"),
        "destType": request.get("destType"),
        "bill": {**request.get("bill", {}), **sent.get("bill", {})},
    }
    return details, blocks
