"""The Batch review's rows as compact columns: a filter's rows as a byte each, and the counts
and totals of the rows it lets through, the same as counted row by row."""

from __future__ import annotations

from decimal import Decimal

from tui.batch.review_index import ReviewIndex
from tui.batch.view import ReviewRow, counts_text, totals_text


def row_of(key: str, status: str, total: str | None = None, currency: str = "USD") -> ReviewRow:
    amount = Decimal(total) if total is not None else None
    return ReviewRow(
        key=key,
        position=0,
        status=status,
        destination="Dallas, TX",
        pieces=1,
        weight=Decimal(500),
        classes="70",
        flags="",
        carrier="",
        carrier_code="",
        service="",
        days=None,
        total=amount,
        currency=currency if amount is not None else "",
        pro="",
        problem="",
        paperwork_missing=status == "booked" and key.endswith("!"),
        haystack=f"{key} {status} dallas".casefold(),
        weight_order=500.0,
        total_order=float(amount) if amount is not None else 0.0,
        status_text=status,
        where="Dallas, TX",
        scac="",
    )


ROWS = [
    row_of("A1", "rated", "100.25"),
    row_of("A2", "rated", "50.10", "CAD"),
    row_of("B1", "booked", "20.00"),
    row_of("B2!", "booked", "5.5"),
    row_of("C1", "pending"),
    row_of("C2", "invalid"),
    row_of("C3", "no-rate", "9.99"),  # a total not chosen: not added
]


def test_a_filter_is_a_byte_per_row_holding_every_word() -> None:
    index = ReviewIndex()
    index.replace(ROWS)
    assert index.mask([]) is None
    assert list(index.mask(["b"]) or b"") == [0, 0, 1, 1, 0, 0, 0]
    assert list(index.mask(["1", "rated"]) or b"") == [1, 0, 0, 0, 0, 0, 0]
    assert list(index.mask(["dallas"]) or b"") == [1] * 7


def test_counts_and_totals_are_those_of_the_rows_shown_counted_one_by_one() -> None:
    index = ReviewIndex()
    index.replace(ROWS)
    for words in ([], ["b"], ["rated"], ["a2"], ["c"], ["nothing"]):
        mask = index.mask(words)
        shown = [row for number, row in enumerate(ROWS) if mask is None or mask[number]]
        assert index.counts_text(mask) == counts_text(shown)
        assert index.totals_text(mask) == totals_text(shown)
    assert index.totals(None) == {"USD": Decimal("125.75"), "CAD": Decimal("50.10")}


def test_a_changed_row_moves_its_total_and_fractions_of_a_cent_still_add_up() -> None:
    index = ReviewIndex()
    index.replace(ROWS)
    assert index.update(row_of("C1", "rated", "0.005")) is False  # changed, where it was
    assert index.update(row_of("A2", "rated", "1.00")) is False  # CAD to USD
    assert index.update(row_of("D1", "rated", "1", "EUR")) is True  # new: last
    assert index.get("C1") is not None
    assert len(index) == 8
    rows = [index.get(row.key) or row for row in ROWS] + [row_of("D1", "rated", "1", "EUR")]
    assert index.totals(None) == {
        "USD": Decimal("126.755"),
        "EUR": Decimal("1"),
    }
    assert index.totals_text(None) == totals_text(rows)
    index.update(row_of("C1", "pending"))
    assert index.totals(None)["USD"] == Decimal("126.75")
    assert index.counts_text(None) == counts_text(index.rows)  # kept as rows changed
    assert index.totals_text(None) == totals_text(index.rows)
    assert (
        index.counts_text(None)
        == "8 orders · 2 booked (1 paperwork missing) · 3 rated · 1 no-rate · 1 pending · 1 invalid"
    )


def test_a_filter_seen_a_moment_ago_is_kept_and_follows_changed_and_new_rows() -> None:
    index = ReviewIndex()
    index.replace(ROWS)
    rated = index.mask(["rated"])
    assert rated is not None
    assert index.mask(["rated"]) is rated  # typed back to: no pass over the rows
    index.mask(["b"])
    index.update(row_of("C1", "rated", "3.00"))  # now matches
    index.update(row_of("A1", "booked", "100.25"))  # no longer does
    index.update(row_of("E1", "rated", "1.00"))  # new, matching
    assert index.mask(["rated"]) is rated
    assert list(rated) == [0, 1, 0, 0, 1, 0, 0, 1]
    for words in (["rated"], ["b"], ["booked", "a"]):  # counted as one by one, after changes
        mask = index.mask(words)
        assert mask is not None
        shown = [row for number, row in enumerate(index.rows) if mask[number]]
        assert [row.matches(words) for row in index.rows] == [bool(b) for b in mask]
        assert index.counts_text(mask) == counts_text(shown)
        assert index.totals_text(mask) == totals_text(shown)
    for number in range(12):  # only the last few are kept
        index.mask([f"w{number}"])
    assert index.mask(["rated"]) is not rated
