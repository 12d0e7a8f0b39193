"""The list's pure parts: columns with and without PRO/mode, dates, scanned codes, paging title."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from tui.api.models import Shipment
from tui.listing.columns import shipment_columns
from tui.listing.dates import matching_shortcut, parse_date, shortcut_range
from tui.listing.paging import Paging
from tui.listing.rows import ShipmentRow
from tui.listing.scan import find_by_code, looks_like_code


def listing(**extra: Any) -> ShipmentRow:
    return ShipmentRow.of(
        Shipment.model_validate(
            {
                "id": "shp_abc",
                "status": "confirmed",
                "origin": {"city": "Chicago", "state": "IL"},
                "destination": {"city": "Atlanta", "state": "GA"},
                "carrier": {"name": "Lakeshore Interstate", "scac": "LKIF"},
                "cost": {"total": "329.09", "currency": "USD"},
                **extra,
            }
        )
    )


def test_columns_show_pro_and_mode_only_when_the_server_sends_them() -> None:
    bare = shipment_columns(width=80, rows_sample=[listing()])
    assert [c.key for c in bare][:2] == ["reference", "created"]
    assert bare[0].label == "Id"
    assert "mode" not in [c.key for c in bare]
    assert bare[0].text(listing()) == "shp_abc"
    rich = shipment_columns(width=80, rows_sample=[listing(proNumber="4415-227893-5", mode="ltl")])
    assert rich[0].label == "PRO"
    assert "mode" in [c.key for c in rich]
    assert rich[0].text(listing(proNumber="4415-227893-5")) == "4415-227893-5"


def test_status_cells_carry_a_word_and_a_colour() -> None:
    status = next(c for c in shipment_columns(width=120) if c.key == "status")
    row = listing()
    assert status.text(row) == "◑ confirmed"
    assert status.style is not None
    assert status.style(row)


def test_date_shortcuts_and_typed_dates() -> None:
    thursday = date(2026, 11, 19)
    assert shortcut_range("today", thursday) == (thursday, thursday)
    assert shortcut_range("this-week", thursday) == (date(2026, 11, 16), date(2026, 11, 22))
    assert shortcut_range("this-month", thursday) == (date(2026, 11, 1), date(2026, 11, 30))
    assert shortcut_range("last-7-days", thursday) == (date(2026, 11, 13), thursday)
    assert matching_shortcut(date(2026, 11, 16), date(2026, 11, 22), thursday) == "this-week"
    assert matching_shortcut(date(2026, 11, 2), None, thursday) == "custom"
    assert matching_shortcut(None, None, thursday) == "any"
    assert parse_date(" 2026-02-28 ") == date(2026, 2, 28)
    assert parse_date("") is None
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        parse_date("28/02/2026")
    with pytest.raises(ValueError, match="not a calendar date"):
        parse_date("2026-02-30")


def test_scanned_codes_match_loosely() -> None:
    rows = [listing(proNumber="4415-227893-5"), listing(bolNumber="04123")]
    assert find_by_code(rows, "4415 2278935") is rows[0]
    assert find_by_code(rows, "04123") is rows[1]
    assert find_by_code(rows, "4415") is None
    assert looks_like_code("WN1000700001")
    assert not looks_like_code("Chicago")
    assert not looks_like_code("123 456")


def test_paging_drops_old_generations_and_titles_the_count() -> None:
    paging = Paging()
    old = paging.restart()
    paging.requested()
    assert paging.title(0, "") == "Shipments · searching…"
    new = paging.restart()
    assert not paging.current(old)
    assert paging.current(new)
    paging.loaded("t2")
    assert paging.title(150, "delivered") == "Shipments · 150 loaded, more… · delivered"
    paging.requested()
    paging.failed_at("t2")
    assert paging.title(150, "") == "Shipments · 150 loaded · error"
    assert not paging.can_load_more
    paging.requested()
    paging.loaded(None)
    assert paging.title(2000, "") == "Shipments · 2,000 shipments, all loaded"
    assert paging.title(0, "") == "Shipments · no shipments match"


def test_a_row_turns_back_into_the_listing_model() -> None:
    row = listing(proNumber="4415-227893-5", mode="ltl", pickupDate="2026-11-22")
    shipment = row.to_shipment()
    assert shipment.id == "shp_abc"
    assert shipment.carrier is not None
    assert shipment.carrier.scac == "LKIF"
    assert shipment.cost is not None
    assert str(shipment.cost.total) == "329.09"
    assert shipment.pickup_date == date(2026, 11, 22)
    assert ShipmentRow.of(shipment) == row


def test_a_search_asked_while_one_is_in_flight_waits_for_its_answer() -> None:
    paging = Paging()
    assert paging.ask_first(in_flight=False)
    paging.requested(None, first=True)
    assert not paging.ask_first(in_flight=True)  # typed on: one in flight, one waiting
    assert not paging.ask_first(in_flight=True)  # still one waiting, for the latest text
    assert paging.answered()  # the answer is dropped; the waiting search is asked now
    paging.requested(None, first=True)
    assert not paging.answered()
    paging.loaded("t2")
    paging.requested("t2", first=False)
    assert paging.ask_first(in_flight=True)  # a next page in flight does not hold a search
    paging.requested("t3", first=False)
    paging.failed_asked()
    assert paging.failed_token == "t3"


def test_the_subtitle_says_the_order_and_the_auto_refresh() -> None:
    assert Paging.subtitle(None, False, None) == "newest first"
    assert Paging.subtitle("Status", True, 30.0) == "sorted by Status ▼ · auto-refresh 30 s"
