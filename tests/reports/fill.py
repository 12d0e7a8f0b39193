"""Booked rows written straight into a store's ledger table, for the reports' tests and bench."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal

from tui.reports.deliveries import transit_days
from tui.store import Store


@dataclass(frozen=True)
class Booked:
    reference: str
    carrier: str
    total: str
    currency: str
    pounds: int
    sent_at: datetime
    offers: Sequence[tuple[str, str]] = ()
    """Other offers at booking time: (total, currency)."""
    transit_days: int = 3
    pickup: str | None = None
    delivered: str | None = None
    """The delivery day tracking gave (kept with its business days since ``pickup``)."""
    lane: tuple[str, str] = ("60601", "30301")
    next_total_kept: bool = True
    """Whether the rate keeps the cheapest other offer (as bookings do); else it is found in
    the offers."""


def row(b: Booked, environment: str = "sandbox") -> tuple[object, ...]:
    rate: dict[str, object] = {
        "carrier": b.carrier,
        "total": b.total,
        "currency": b.currency,
        "transitDays": b.transit_days,
        "rateId": "booked",
    }
    same = [Decimal(t) for t, c in b.offers if c == b.currency]
    if b.next_total_kept:
        rate["nextTotal"] = str(min(same)) if same else None
    offers = [rate] + [
        {"carrier": "OTHER", "total": t, "currency": c, "rateId": f"o{n}"}
        for n, (t, c) in enumerate(b.offers)
    ]
    when = b.sent_at.astimezone(UTC).isoformat()  # as the store keeps it: UTC
    transit = None
    if b.delivered is not None and b.pickup is not None:
        transit = transit_days(date.fromisoformat(b.pickup), date.fromisoformat(b.delivered))
    return (
        b.reference, "acct", environment, "st", "acct", "q", "booked", when, when, "booked",
        b.pickup, json.dumps({"origin": b.lane[0], "destination": b.lane[1]}),
        json.dumps(rate), json.dumps(offers), json.dumps({"pounds": b.pounds}),
        b.delivered, transit,
    )  # fmt: skip


def fill(store: Store, bookings: Sequence[Booked], environment: str = "sandbox") -> None:
    """``bookings`` in the store's ledger, in ``environment`` (the ledger's name for it)."""
    with store.engine.write() as tx:
        tx.many(
            "INSERT INTO bookings (reference, account, environment, station, profile, quote_id,"
            " rate_id, sent_at, updated, outcome, pickup_date, lane, rate, offers, weights,"
            " delivered_on, transit_days)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [row(b, environment) for b in bookings],
        )


SAMPLE_CARRIERS = ("Harrowgate Freight Lines", "Bluecrest Express", "Magnolia Gulf Carriers")
SAMPLE_LANES = (("60601", "30303"), ("60601", "75201"), ("43215", "30303"), ("60601", "M5V 2T6"))


def sample_bookings(first: datetime, days: int = 28, prefix: str = "FRT") -> list[Booked]:
    """A few weeks of a desk's bookings from ``first``: one or two a weekday over three
    carriers and four lanes, the lane to Toronto in CAD, most delivered (some late)."""
    from datetime import timedelta

    out: list[Booked] = []
    for n in range(days):
        sent = first + timedelta(days=n, hours=n % 5)
        if sent.weekday() >= 5:
            continue
        for _ in range(1 + n % 2):
            i = len(out)
            carrier = SAMPLE_CARRIERS[i % 5 % 3]
            lane = SAMPLE_LANES[i % 4]
            currency = "CAD" if lane[1] == "M5V 2T6" else "USD"
            cents = 18_000 + (i * 4_733) % 61_000
            transit = 2 + (i % 3)
            pickup = (sent + timedelta(days=1)).date()
            late = 1 if i % 5 == 0 else 0
            out.append(
                Booked(
                    f"{prefix}{i:05d}",
                    carrier,
                    f"{cents / 100:.2f}",
                    currency,
                    400 + (i * 137) % 3_600,
                    sent,
                    [(f"{(cents + 1_250 + (i * 311) % 9_000) / 100:.2f}", currency)],
                    transit,
                    pickup.isoformat(),
                    (pickup + timedelta(days=transit + late)).isoformat() if i % 4 else None,
                    lane,
                )
            )
    return out


def cancel(store: Store, references: Sequence[str], environment: str = "sandbox") -> None:
    """The bookings ``references`` canceled, as ``freight cancel`` leaves them: each given its
    shipment id (its reference) and a cancel done in ``shipment_changes``."""
    when = "2026-01-01T00:00:00+00:00"
    with store.engine.write() as tx:
        for reference in references:
            tx.run(
                "UPDATE bookings SET shipment_id = ? WHERE reference = ?", [reference, reference]
            )
        tx.many(
            "INSERT INTO shipment_changes (account, environment, shipment_id, kind, station,"
            " sent_at, updated, outcome) VALUES ('acct', ?, ?, 'cancel', 'st', ?, ?, 'done')",
            [(environment, reference, when, when) for reference in references],
        )
