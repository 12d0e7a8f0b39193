"""POST /rates: rate a request with every carrier and store the quote with its expiry."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from tui.sandbox.calendar import add_business_days
from tui.sandbox.config import SandboxConfig
from tui.sandbox.db import Database
from tui.sandbox.identifiers import random_id
from tui.sandbox.rating.carriers import active_carriers
from tui.sandbox.rating.engine import rate_all
from tui.sandbox.rating.model import RateRequest, RateResult, stable_hash
from tui.sandbox.store import epoch_ms


def _rate_json(
    result: RateResult, rate_id: str, expires: datetime | None, request: RateRequest
) -> dict[str, Any]:
    ok = result.status == "ok"
    pickup = request.pickup_date
    delivery = None
    if ok and pickup is not None and result.days is not None:
        delivery = add_business_days(pickup, result.days).isoformat()
    return {
        "id": rate_id,
        "status": result.status,
        "mode": result.mode,
        "total": result.total if ok else Decimal("0.00"),
        "currency": "USD",
        "days": result.days,
        "carrier": result.carrier_name,
        "carrierCode": result.carrier_code,
        "serviceType": result.service_type,
        "charges": [
            {"name": c.name, "amount": c.amount, "description": c.description}
            for c in result.charges
        ]
        if ok
        else [],
        "message": result.message,
        "expiresAt": expires,
        "pickupDate": pickup.isoformat() if pickup else None,
        "deliveryDate": delivery,
    }


def request_json(request: RateRequest) -> dict[str, Any]:
    """What is stored of the request so a booking can rebuild the shipment."""
    return {
        "originPostalCode": request.origin.code,
        "destPostalCode": request.dest.code,
        "originType": request.origin_type,
        "destType": request.dest_type,
        "items": [
            {
                "weight": str(i.weight),
                "length": str(i.length),
                "width": str(i.width),
                "height": str(i.height),
                "quantity": i.quantity,
                "freightClass": str(i.rated_class),
                "package": i.package,
                "packageSize": i.package_size,
                "description": i.description,
                "nmfc": i.nmfc,
                "stackable": i.stackable,
                "hazardous": i.hazardous,
                "hazard": i.hazard,
            }
            for i in request.items
        ],
        "accessorials": list(request.accessorials),
        "pickupDate": request.pickup_date.isoformat() if request.pickup_date else None,
        "pickupDateMessage": request.pickup_note,
        **request.details,
    }


def create_quote(
    db: Database, config: SandboxConfig, account: str, request: RateRequest
) -> dict[str, Any]:
    """Rate ``request``, store the quote, and return its JSON."""
    now = config.current_time()
    day = now.date().isoformat()
    results = rate_all(request, active_carriers(config.chaos), config.diesel_price, day)
    quote_expires = now + config.quote_ttl
    canonical = request.canonical()
    rates = []
    for result in results:
        rate_id = "r_" + stable_hash(canonical, day, result.carrier_code, result.service_type)
        expires = quote_expires
        if result.ttl_hours is not None:
            expires = min(quote_expires, now + config.truckload_quote_ttl)
        if result.carrier_code == "QWDL":
            expires = now + timedelta(minutes=2)  # the chaos carrier's quotes go stale fast
        rates.append(_rate_json(result, rate_id, expires, request))
    quote = {
        "id": random_id("q_", 16),
        "createdDate": now,
        "expiresAt": quote_expires,
        "originPostalCode": request.origin.code,
        "destPostalCode": request.dest.code,
        "pickupDate": request.pickup_date.isoformat() if request.pickup_date else None,
        "rates": rates,
    }
    if request.pickup_note:
        quote["pickupDateMessage"] = request.pickup_note
    stored_rates = [
        {
            **rate,
            "total": str(rate["total"]),
            "expiresAt": epoch_ms(rate["expiresAt"]),
            "charges": [{**c, "amount": str(c["amount"])} for c in rate["charges"]],
        }
        for rate in rates
    ]
    with db.lock() as conn:
        conn.execute(
            "INSERT INTO quotes (id, account, created, expires, request, rates) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                quote["id"],
                account,
                epoch_ms(now),
                epoch_ms(quote_expires),
                json.dumps(request_json(request)),
                json.dumps(stored_rates),
            ),
        )
    return quote
