"""Money in its currency: formats, the totals view's sums, the list's column, mode spellings."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from tui.domain.modes import mode_key, same_mode
from tui.domain.money import format_amount, format_price
from tui.listing.columns import money, shipment_columns
from tui.listing.rows import Place, ShipmentRow
from tui.screens.shipments_summary import render_summary, summarize

_NOWHERE = Place(None, None, None, None, None)


def row(sid: str, total: str | None, currency: str | None, carrier: str) -> ShipmentRow:
    return ShipmentRow(
        id=sid,
        created_date=datetime(2026, 11, 20, tzinfo=UTC),
        status="confirmed",
        origin=_NOWHERE,
        destination=_NOWHERE,
        carrier_name=carrier,
        scac=None,
        total=None if total is None else Decimal(total),
        currency=currency,
        pro_number=None,
        mode="ltl",
        service_type=None,
        tracking_number=None,
        bol_number=None,
        reference=None,
        quote_id=None,
        pickup_date=None,
    )


def test_usd_shows_a_dollar_sign_and_any_other_currency_its_code() -> None:
    assert format_price(Decimal("1216")) == "$1,216.00"
    assert format_price(Decimal("1234.5"), "usd") == "$1,234.50"
    assert format_price(Decimal("1234.5"), "cad") == "1,234.50 CAD"
    assert format_amount(Decimal("-462.305"), "USD") == "-462.31"
    assert format_amount(Decimal("0.1"), "EUR") == "0.10 EUR"
    assert money(Decimal("99"), "CAD") == "99.00 CAD"
    assert money(None, "CAD") == ""


def test_totals_are_summed_per_currency_and_never_across() -> None:
    summary = summarize(
        [
            row("a", "100.10", "USD", "Prairie Lines"),
            row("b", "1234.50", "cad", "Maple Leaf"),
            row("c", "0.20", None, "Prairie Lines"),  # no currency given: USD
            row("d", "10", "CAD", "Prairie Lines"),
            row("e", None, None, "Maple Leaf"),
        ]
    )
    assert [s.currency for s in summary.spend] == ["USD", "CAD"]
    assert summary.total_in("USD") == Decimal("100.30")
    assert summary.total_in("CAD") == Decimal("1244.50")
    assert summary.total_in("EUR") == Decimal(0)
    assert summary.spend[1].by_carrier == [
        ("Maple Leaf", Decimal("1234.50"), 1),
        ("Prairie Lines", Decimal("10"), 1),
    ]
    assert summary.unpriced == 1
    assert summary.count == 5
    drawn = render_summary(summary, 76).plain
    assert "Spend by carrier · USD   total 100.30\n" in drawn
    assert "Spend by carrier · CAD   total 1,244.50 CAD\n" in drawn
    assert "1,344.80" not in drawn  # the two currencies added: never
    assert "1 shipment with no amount" in drawn


def test_the_narrow_list_sizes_its_total_column_to_keep_the_code() -> None:
    (total,) = [c for c in shipment_columns(width=80) if c.key == "total"]
    assert total.width is None  # sized from the rows, up to its max
    assert total.max_width >= len("123,456.78 CAD")
    assert total.text(row("a", "123456.78", "CAD", "x")) == "123,456.78 CAD"
    # Sorted per currency: USD first, never a CAD amount between two USD ones.
    rows = [row("a", "50", "CAD", "x"), row("b", "70", "USD", "x"), row("c", "20", "USD", "x")]
    assert total.sort_key is not None
    assert [r.id for r in sorted(rows, key=total.sort_key)] == ["c", "b", "a"]


def test_modes_compare_in_any_case_and_known_aliases() -> None:
    assert same_mode("LTL", "ltl")
    assert same_mode("Ltl", "ltl")
    assert same_mode("FTL", "truckload")
    assert same_mode("Small-Parcel", "parcel")
    assert not same_mode("LTL", "truckload")
    assert mode_key(None) == ""
