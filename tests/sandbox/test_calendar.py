"""The sandbox's carrier calendar: public holidays at the origin (US federal, Canadian national
and provincial) and the carriers' own closures move a pickup, with a message that says why."""

from __future__ import annotations

from datetime import UTC, date, datetime

import httpx
import pytest

from tests.sandbox.conftest import Clock, rate_body
from tui.sandbox import calendar


@pytest.mark.parametrize(
    ("day", "region", "reason"),
    [
        (date(2026, 11, 26), "US", "Thanksgiving Day"),
        (date(2026, 11, 27), "US", "the day after Thanksgiving"),
        (date(2026, 12, 24), "US", "Christmas Eve"),
        (date(2027, 7, 5), "US", "Independence Day (observed)"),
        (date(2026, 7, 1), "CA-ON", "Canada Day"),
        (date(2026, 12, 28), "CA-ON", "Boxing Day (observed)"),
        (date(2026, 11, 28), "US", "a Saturday"),
    ],
)
def test_closed_days(day: date, region: str, reason: str) -> None:
    assert calendar.closed_reason(day, region) == reason


def test_open_days() -> None:
    assert calendar.is_business_day(date(2026, 7, 1))  # Canada Day in the US
    assert calendar.is_business_day(date(2026, 11, 26), "CA-QC")  # US Thanksgiving in Quebec
    assert calendar.add_business_days(date(2026, 11, 25), 1) == date(2026, 11, 30)


async def test_a_thanksgiving_pickup_moves_to_the_next_business_day_with_a_message(
    clocked_client: httpx.AsyncClient, clock: Clock
) -> None:
    clock.current = datetime(2026, 11, 25, 15, 0, tzinfo=UTC)
    body = {**rate_body(), "pickupDate": "2026-11-26"}
    quote = (await clocked_client.post("/rates", json=body)).json()
    assert quote["pickupDate"] == "2026-11-30"
    assert quote["pickupDateMessage"] == (
        "2026-11-26 is Thanksgiving Day: pickup moved to the next business day, 2026-11-30"
    )
    blank = (await clocked_client.post("/rates", json=rate_body())).json()
    assert blank["pickupDate"] == "2026-11-30"  # the default skips the holidays too


async def test_a_canadian_origin_keeps_its_own_holidays(
    clocked_client: httpx.AsyncClient, clock: Clock
) -> None:
    clock.current = datetime(2026, 6, 29, 15, 0, tzinfo=UTC)
    body = {
        **rate_body(),
        "originPostalCode": "M5V 2T6",
        "originCountry": "CAN",
        "pickupDate": "2026-07-01",
    }
    quote = (await clocked_client.post("/rates", json=body)).json()
    assert quote["pickupDate"] == "2026-07-02"
    assert "Canada Day" in quote["pickupDateMessage"]
