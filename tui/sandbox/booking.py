"""POST /book and /book/parcel: turn a quoted rate into a shipment, exactly once."""

from __future__ import annotations

import json
import random
import sqlite3
from decimal import Decimal
from typing import Any

from tui.sandbox import identifiers, lifecycle
from tui.sandbox.config import SandboxConfig
from tui.sandbox.db import INSERT_SHIPMENT, Database
from tui.sandbox.errors import ApiError
from tui.sandbox.geo import lookup
from tui.sandbox.rating.carriers import BY_CODE
from tui.sandbox.seed import SERIAL_STARTS, shipment_id
from tui.sandbox.store import documents, epoch_ms, from_ms, labels, next_serial, search_text


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
    }
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
    items = [
        {
            "weight": float(item["weight"]),
            "length": float(item["length"]),
            "width": float(item["width"]),
            "height": float(item["height"]),
            "quantity": item["quantity"],
            "description": f"{item['package'].capitalize()} freight",
            "package": item["package"],
            "hazardous": False,
            "nmfc": "",
            "freightClass": float(item["freightClass"]),
        }
        for item in request["items"]
    ]
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
    planned = lifecycle.plan(
        created_ms / 1000,
        mode,
        int(rate["days"] or 1),
        origin.lon,
        dest.lon,
        rng,
        speed=config.clock_speed,
        falloff=code == "RGFB" and rng.random() < 0.2,
        late=rng.random() > BY_CODE[code].on_time,
    )
    status, next_at = lifecycle.status_at(planned.timeline, int(now.timestamp()))
    contacts: dict[str, dict[str, str]] = {"origin": {}, "destination": {}}
    for prefix, side in (("origin", "origin"), ("dest", "destination")):
        for key in (
            "ContactName",
            "ContactPhone",
            "ContactEmail",
            "DockHoursOpen",
            "DockHoursClose",
        ):
            value = fields.get(prefix + key)
            if value:
                contacts[side][key[0].lower() + key[1:]] = value
    o_company = fields.get("originCompany") or ""
    d_company = fields.get("destCompany") or ""
    reference = fields.get("reference")
    cursor = conn.execute(
        INSERT_SHIPMENT,
        (
            None, sid, account, created_ms, status, next_at, mode, code, rate["carrier"],
            rate["serviceType"], int(Decimal(rate["total"]) * 100), pro, bol,
            tracking_all[0] if tracking_all else None, json.dumps(tracking_all), reference,
            quote_id, rate["id"], pickup_conf, planned.pickup_at, planned.delivered_at,
            planned.to_json(),
            o_company, fields.get("originAddress") or "", "", origin.city, origin.state,
            origin.code,
            d_company, fields.get("destAddress") or "", "", dest.city, dest.state, dest.code,
            json.dumps(items), json.dumps(contacts),
        ),
    )  # fmt: skip
    seq = int(cursor.lastrowid or 0)
    conn.execute(
        "INSERT INTO shipment_text (rowid, body) VALUES (?, ?)",
        (
            seq,
            search_text(
                [pro, *tracking_all[:3], reference, bol, quote_id, sid, o_company, d_company,
                 origin.city, dest.city, origin.code, dest.code]
            ),
        ),
    )  # fmt: skip
    return seq
