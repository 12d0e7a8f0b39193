"""Seed a new database with a realistic history of shipments, fast (bulk inserts)."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from datetime import datetime
from typing import Any

from tui.sandbox import identifiers, lifecycle, names
from tui.sandbox.db import INSERT_SHIPMENT, Database
from tui.sandbox.geo import haversine_miles
from tui.sandbox.places import PLACES, Place
from tui.sandbox.rating.carriers import BY_CODE, LAKES, NORTHEAST, SOUTH, WEST, Carrier
from tui.sandbox.rating.parcel import GROUND_DAYS, ZONE_PRICES
from tui.sandbox.store import search_text

HISTORY_DAYS = 180
PAUSE_EVERY = 50
"""Rows built between calls of the seeding's `pause` (a few milliseconds of work)."""
ID_MIX = 0x9E3779B97F4A7C15
ID_MIX2 = 0xC2B2AE3D27D4EB4F
ID_MASK = (1 << 60) - 1
QUOTE_MASK = (1 << 80) - 1
SERIAL_STARTS = {
    "HGFL": 41_000_000,
    "BCXP": 52_300_000,
    "MGGC": 312_400_000,
    "CSFW": 2_100_000,
    "LKIF": 17_700_000,
    "KAML": 30_050_000,
    "TGTL": 1_200_000,
    "RGFB": 40_000_000,
    "QWDL": 10_000_000,
    "bol": 20_250_000_000_000,
    "parcel": 7_000_000_000_000,
    "pickup": 4_100_000,
    "shipment": 0,
}
LTL_SERVICES = {"BCXP": ("Standard", "Guaranteed 5 PM"), "HGFL": ("Economy",)}


def shipment_id(serial: int) -> str:
    """Shipment id ``shp_`` + 12 base-32 characters, unique per serial."""
    return identifiers.id_from_int("shp_", (serial * ID_MIX + 0x5BD1E995) & ID_MASK)


def quote_id(serial: int) -> str:
    """A quote id for seeded history (its quote is not stored)."""
    value = ((serial * ID_MIX + 0x1B873593) * ID_MIX2) & QUOTE_MASK
    return identifiers.id_from_int("q_", value, 16)


def _company(rng: random.Random) -> str:
    return (
        f"{rng.choice(names.COMPANY_FIRST)} {rng.choice(names.COMPANY_CORE)} "
        f"{rng.choice(names.COMPANY_SUFFIX)}"
    )


def _street(rng: random.Random) -> str:
    return (
        f"{rng.randint(10, 9899)} {rng.choice(names.STREET_NAMES)} {rng.choice(names.STREET_TYPES)}"
    )


def _contact(rng: random.Random, place: Place) -> dict[str, str]:
    return {
        "contactName": f"{rng.choice(names.FIRST_NAMES)} {rng.choice(names.LAST_NAMES)}",
        "contactPhone": f"{place[6]}-555-01{rng.randint(0, 99):02d}",
    }


def _ltl_carrier(rng: random.Random, o: Place, d: Place) -> str:
    options = ["HGFL", "BCXP", "HGFL", "BCXP"]
    for code, region in (("MGGC", SOUTH), ("CSFW", WEST), ("LKIF", LAKES), ("KAML", NORTHEAST)):
        if o[2] in region and d[2] in region:
            options += [code, code, code]
    return rng.choice(options)


_BREAKS = ((20000, 0.27), (10000, 0.32), (5000, 0.42), (2000, 0.55), (1000, 0.68),
           (500, 0.84), (0, 1.0))  # fmt: skip


def _ltl_price(
    carrier: Carrier, service: str, weight: float, freight_class: float, miles: float,
    rng: random.Random,
) -> tuple[float, int]:  # fmt: skip
    """The LTL pipeline of the rating engine in floats (fast enough for a million rows)."""
    factor = next(f for low, f in _BREAKS if weight >= low)
    level = float(carrier.tariff_level) * (1.25 if service.startswith("Guaranteed") else 1.0)
    gross = weight / 100 * (60 + 0.1 * miles) * factor * (freight_class / 100) ** 0.85 * level
    net = max(gross * (1 - float(carrier.discount)), float(carrier.amc))
    fuel = 0.25 + 0.08 * 0.65 + float(carrier.fsc_offset)
    extras = 95 * float(carrier.accessorial_factor) if rng.random() < 0.3 else 0.0
    days = min(7, 1 + math.ceil(max(0.0, miles - 300) / 450)) + carrier.transit_adjust
    return net * (1 + fuel) + extras, max(1, days)


def _parcel_price(items: list[dict[str, Any]], service: str, miles: float) -> tuple[float, int]:
    """Wrenfield's price (zone by distance, billable weight, 30% off, fuel) in floats."""
    zone = next((z for z, top in ((2, 150), (3, 300), (4, 600), (5, 1000), (6, 1400),
                                  (7, 1800)) if miles / 1.18 <= top), 8)  # fmt: skip
    first, extra = (float(v) for v in ZONE_PRICES[zone])
    multiplier = {"Ground": 1.0, "2 Day": 2.1, "Overnight": 3.2}[service]
    price = 0.0
    for item in items:
        dims = item["length"] * item["width"] * item["height"]
        pounds = max(math.ceil(item["weight"]), math.ceil(dims / 139))
        price += (first + extra * (pounds - 1)) * multiplier * item["quantity"]
    days = {"Ground": GROUND_DAYS[zone], "2 Day": 2, "Overnight": 1}[service]
    return price * 0.7 * 1.18, days


def _creation_times(rng: random.Random, count: int, now: float) -> list[int]:
    """Milliseconds, strictly increasing; most spread over months, some very recent."""
    span = HISTORY_DAYS * 86400.0
    recent = min(count, max(12, count // 40))
    times = [now - rng.uniform(3 * 86400, span) for _ in range(count - recent)]
    times += [now - rng.uniform(0, 3 * 86400) for _ in range(max(0, recent - 4))]
    times += [now - rng.uniform(30, 120) for _ in range(min(4, recent))]
    times.sort()
    result: list[int] = []
    last = -1
    for moment in times:
        value = max(int(moment * 1000), last + 1)
        result.append(value)
        last = value
    return result


def seed(
    db: Database,
    count: int,
    seed_value: int,
    now: datetime,
    batch: int = 20000,
    *,
    pause: Callable[[], None] | None = None,
) -> None:
    """Insert ``count`` shipments created over the last months (only into an empty DB).
    ``pause`` is called every `PAUSE_EVERY` rows (a thread that lets an app's keys go first)."""
    rng = random.Random(seed_value)
    now_s = now.timestamp()
    created_all = _creation_times(rng, count, now_s)
    serials = dict(SERIAL_STARTS)
    rows: list[tuple[object, ...]] = []
    texts: list[tuple[int, str]] = []
    with db.transaction() as conn:  # a seeding cut short leaves rows behind: start over
        conn.execute("DELETE FROM shipments")
        conn.execute("INSERT INTO shipment_text (shipment_text) VALUES ('delete-all')")
    for index, created_ms in enumerate(created_all):
        rows.append(_row(rng, index + 1, count - index, created_ms, now_s, serials, texts))
        if pause is not None and index % PAUSE_EVERY == 0:
            pause()
        if len(rows) >= batch or index == count - 1:
            with db.transaction() as conn:
                conn.executemany(INSERT_SHIPMENT, rows)
                conn.executemany("INSERT INTO shipment_text (rowid, body) VALUES (?, ?)", texts)
            rows.clear()
            texts.clear()
    with db.transaction() as conn:
        for name, value in serials.items():
            db.set_meta(conn, f"serial:{name}", str(value))
        db.set_meta(conn, "seeded", str(count))
    with db.lock() as conn:
        conn.execute("PRAGMA analysis_limit = 1000")
        conn.execute("ANALYZE")


def _row(
    rng: random.Random,
    seq: int,
    rank: int,
    created_ms: int,
    now_s: float,
    serials: dict[str, int],
    texts: list[tuple[int, str]],
) -> tuple[object, ...]:
    o = rng.choice(PLACES)
    d = rng.choice(PLACES)
    while d[1] == o[1]:
        d = rng.choice(PLACES)
    contiguous = o[2] not in ("AK", "HI") and d[2] not in ("AK", "HI")
    roll = rng.random()
    mode = "parcel" if roll < 0.18 or not contiguous else "truckload" if roll < 0.30 else "ltl"
    miles = max(25.0, haversine_miles(o[3], o[4], d[3], d[4]) * 1.18)
    lines = rng.randint(1, 3) if mode != "parcel" else 1
    items = []
    weight = 0.0
    min_class = 500.0
    for _ in range(lines):
        desc, cls, nmfc, package, (lo, hi), (length, width, height) = rng.choice(names.COMMODITIES)
        if mode == "parcel":
            package, lo, hi = "box", 2, 60
            length, width, height = rng.choice(((12, 10, 8), (18, 12, 12), (24, 18, 16)))
        quantity = rng.randint(1, 4) if mode != "truckload" else rng.randint(10, 24)
        unit = rng.randint(lo, hi)
        weight += unit * quantity
        min_class = min(min_class, float(cls))
        items.append(
            {
                "weight": unit,
                "length": length,
                "width": width,
                "height": height,
                "quantity": quantity,
                "description": desc,
                "package": package,
                "hazardous": False,
                "nmfc": f"{nmfc}-0{rng.randint(1, 5)}",
                "freightClass": float(cls) if "." in cls else int(cls),
            }
        )
    if mode == "ltl" and weight > 15000:
        mode = "truckload"
    if mode == "ltl":
        code = _ltl_carrier(rng, o, d)
        service = rng.choice(LTL_SERVICES.get(code, ("Standard",)))
        total, transit = _ltl_price(BY_CODE[code], service, weight, min_class, miles, rng)
    elif mode == "parcel":
        code, service = "WRNP", rng.choice(("Ground", "Ground", "Ground", "2 Day", "Overnight"))
        total, transit = _parcel_price(items, service, miles)
    else:
        code = rng.choice(("TGTL", "RGFB"))
        service = rng.choice(("Dry Van", "Dry Van", "Reefer"))
        per_mile = 1.66 * (1.2 if service == "Reefer" else 1.0)
        premium = max(0.0, min(1.0, (800 - miles) / 700))
        linehaul = per_mile * (1 + premium) * miles * rng.uniform(0.92, 1.08)
        total = max(float(BY_CODE[code].amc), linehaul) + miles * 0.369
        transit = max(1, math.ceil(miles / 500))
    carrier = BY_CODE[code]
    cancel = rng.random() < 0.035
    falloff = code == "RGFB" and rng.random() < 0.15
    created_s = created_ms / 1000
    age = now_s - created_s
    award_delay = None
    if age < 4 * 3600 and rng.random() < 0.5:
        award_delay = rng.uniform(60, 6 * 3600)  # awaiting the carrier's acceptance
    if rank <= 4:  # the newest four, booked a minute or two ago: two pending, two awarded
        award_delay = 6 * 3600.0 if rank <= 2 else 10.0
        cancel = False
    late = rng.random() > carrier.on_time
    late_days, early = lifecycle.spread(f"{seq}:{created_ms}", late)
    planned = lifecycle.plan(
        created_s,
        mode,
        transit,
        o[4],
        d[4],
        rng,
        cancel=cancel,
        falloff=falloff,
        late=late,
        late_days=late_days,
        early=early,
        award_delay=award_delay,
    )
    status, next_at = lifecycle.status_at(planned.timeline, int(now_s))
    serial = serials["shipment"] = serials["shipment"] + 1
    pro = tracking = pickup_conf = None
    tracking_all: list[str] = []
    if mode == "parcel":
        for _ in range(sum(int(str(item["quantity"])) for item in items)):
            serials["parcel"] += rng.randint(1, 40)
            tracking_all.append(identifiers.parcel_tracking(serials["parcel"]))
        tracking = tracking_all[0]
    else:
        serials[code] += rng.randint(1, 9)
        pro = identifiers.pro_number(code, serials[code])
        tracking = pro
        tracking_all = [pro]
        if rng.random() < 0.85:
            serials["pickup"] += rng.randint(1, 50)
            pickup_conf = identifiers.pickup_confirmation(o[1], serials["pickup"])
    serials["bol"] += 1
    bol = identifiers.bol_number(serials["bol"]) if mode != "parcel" else None
    reference = rng.choice(names.REFERENCE_STYLES).format(rng.randint(1, 99999))
    o_company, d_company = _company(rng), _company(rng)
    o_street, d_street = _street(rng), _street(rng)
    o_unit = rng.choice(names.UNITS) if rng.random() < 0.3 else ""
    contacts = {"origin": _contact(rng, o), "destination": _contact(rng, d)}
    sid = shipment_id(serial)
    qid = quote_id(serial)
    texts.append(
        (
            seq,
            search_text(
                [pro, tracking, *tracking_all[1:3], reference, bol, qid, sid, o_company,
                 d_company, o[1], d[1], o[0], d[0], *(str(i["description"]) for i in items)]
            ),
        )
    )  # fmt: skip
    return (
        seq, sid, "demo", created_ms, status, next_at, mode, code, carrier.name, service,
        round(total * 100), pro, bol, tracking, json.dumps(tracking_all), reference, qid,
        identifiers.id_from_int("r_", rng.getrandbits(80), 16), pickup_conf,
        planned.pickup_at, planned.delivered_at, planned.to_json(),
        o_company, o_street, o_unit, o[1], o[2], o[0],
        d_company, d_street, "", d[1], d[2], d[0],
        json.dumps(items, separators=(",", ":")),
        json.dumps(contacts, separators=(",", ":")), None,
    )  # fmt: skip
