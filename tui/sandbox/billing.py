"""The real bill: some days after pickup, a share of LTL shipments is billed above its quote.

Each LTL shipment draws once, from its own seed (its id), whether and why its bill changes:
a reweigh (an item weighs more than declared: the detail's item weight changes), a reclass
(the inspector puts an item in a higher class: the detail's ``freightClass`` changes) or an
accessorial the booking did not ask for (liftgate, residential or limited-access delivery).
About a third of LTL bills change, as freight-audit firms report: 14 % reweighed, 10 %
reclassed, 8 % an accessorial added. The bill lands ``BILL_DELAY_DAYS`` after the scheduled
pickup (on the sandbox's clock) and only once the shipment is picked up; a canceled shipment
is never billed. Parcel and truckload bills stay as quoted.
"""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from tui.sandbox import lifecycle

BILL_DELAY_DAYS = 3
"""Days after the scheduled pickup that the carrier's bill arrives."""

SHARES = (("reweigh", 0.14), ("reclass", 0.10), ("accessorial", 0.08))
"""Each cause and the share of LTL bills it changes."""

CLASSES = (50, 55, 60, 65, 70, 77.5, 85, 92.5, 100, 110, 125, 150, 175, 200, 250, 300, 400, 500)

ACCESSORIALS = (
    ("liftgate delivery", 9500, 16500),
    ("residential delivery", 11000, 19000),
    ("limited access delivery", 9500, 17500),
)
"""Accessorials a carrier adds at delivery, with the range of their charge in cents."""


@dataclass(frozen=True)
class Adjustment:
    """How a bill differs from the quote."""

    cause: str
    cents: int
    note: str
    items: list[dict[str, Any]]
    """The items as billed (weights or classes changed)."""
    accessorial: str | None = None


def _draw(row: sqlite3.Row) -> Adjustment | None:
    rng = random.Random(f"{row['id']}:bill")
    draw = rng.random()
    cause = None
    edge = 0.0
    for name, share in SHARES:
        edge += share
        if draw < edge:
            cause = name
            break
    if cause is None:
        return None
    items = json.loads(row["items"])
    total = int(row["total_cents"])
    if not items:
        return None
    index = max(range(len(items)), key=lambda i: float(items[i]["weight"]) * items[i]["quantity"])
    item = dict(items[index])
    if cause == "reweigh":
        before = float(item["weight"])
        after = round(before * (1 + rng.uniform(0.08, 0.35)) / 5) * 5 or before + 5
        item["weight"] = after
        pounds = sum(float(i["weight"]) * i["quantity"] for i in items) or 1.0
        share = (after - before) * item["quantity"] / pounds
        cents = max(1500, round(total * share * rng.uniform(0.75, 0.95)))
        note = f"Reweighed: {items[index]['description']} {before:g} -> {after:g} lb a unit"
    elif cause == "reclass":
        before_class = float(item.get("freightClass") or 70)
        higher = [c for c in CLASSES if c > before_class] or [before_class]
        after_class = higher[min(len(higher) - 1, rng.choice((0, 0, 1)))]
        item["freightClass"] = int(after_class) if after_class == int(after_class) else after_class
        cents = max(2000, round(total * rng.uniform(0.08, 0.22)))
        note = f"Reclassed: class {before_class:g} -> {after_class:g}"
    else:
        name, low, high = rng.choice(ACCESSORIALS)
        cents = rng.randrange(low, high, 5)
        return Adjustment("accessorial", cents, f"Added at delivery: {name}", items, name)
    billed = [*items[:index], item, *items[index + 1 :]]
    return Adjustment(cause, cents, note, billed)


def adjustment(row: sqlite3.Row, now_s: int) -> Adjustment | None:
    """The adjustment of this shipment's bill as of ``now_s`` (None: billed as quoted, or not
    billed yet)."""
    if row["mode"] != "ltl" or row["pickup_at"] is None:
        return None
    if now_s < int(row["pickup_at"]) + BILL_DELAY_DAYS * lifecycle.DAY:
        return None
    status, _ = lifecycle.status_at(lifecycle.load_timeline(row["timeline"]), now_s)
    if status not in ("picked-up", "delivered"):
        return None
    return _draw(row)


def billed_cents(row: sqlite3.Row, found: Adjustment | None) -> int:
    """The shipment's total as billed, in cents."""
    return int(row["total_cents"]) + (found.cents if found else 0)


def adjustments_json(row: sqlite3.Row, found: Adjustment | None) -> list[dict[str, Any]]:
    """The bill's adjustments as the listing and the detail show them (empty: as quoted)."""
    if found is None:
        return []
    amount = (Decimal(found.cents) / 100).quantize(Decimal("0.01"))
    entry: dict[str, Any] = {"type": found.cause, "amount": amount, "note": found.note}
    if found.accessorial:
        entry["accessorial"] = found.accessorial
    return [entry]
