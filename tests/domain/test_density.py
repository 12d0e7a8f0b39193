"""Density and totals: whole-inch dims, weight per handling unit."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui.domain.density import (
    ItemLine,
    billable_inches,
    density_pcf,
    summarize,
    unit_cube_ft3,
)
from tui.domain.freight_class import class_for_density

D = Decimal
dims = st.decimals(min_value=D("0.1"), max_value=D(120), places=2)
weights = st.decimals(min_value=D("0.1"), max_value=D(5000), places=2)


def test_the_pallet_example_from_the_reference() -> None:
    assert unit_cube_ft3(D(48), D(40), D(48)) == D(92160) / D(1728)
    assert density_pcf(D(800), D(48), D(40), D(48)) == D(15)
    assert class_for_density(density_pcf(D(800), D(48), D(40), D(48))) == D(70)


@pytest.mark.parametrize(
    ("measured", "billed"), [("47.1", 48), ("48", 48), ("0.2", 1), ("48.0001", 49)]
)
def test_dimensions_round_up_to_the_whole_inch(measured: str, billed: int) -> None:
    assert billable_inches(D(measured)) == billed


def test_rounded_dims_change_the_cube() -> None:
    assert unit_cube_ft3(D("47.2"), D("39.5"), D("47.9")) == unit_cube_ft3(D(48), D(40), D(48))


@pytest.mark.parametrize("bad", ["0", "-1"])
def test_zero_or_negative_dimension_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="greater than 0"):
        unit_cube_ft3(D(bad), D(40), D(48))


def test_summary_multiplies_quantity_by_unit_weight() -> None:
    lines = [
        ItemLine(quantity=2, weight=D(800), length=D(48), width=D(40), height=D(48)),
        ItemLine(quantity=1, weight=D(350), length=D(40), width=D(30), height=D(36)),
    ]
    totals = summarize(lines)
    assert totals.handling_units == 3
    assert totals.total_weight == D(1950)
    assert round(totals.total_cube_ft3, 1) == D("131.7")
    assert totals.average_density_pcf is not None
    assert round(totals.average_density_pcf, 2) == D("14.81")


def test_empty_summary_has_no_density() -> None:
    totals = summarize([])
    assert totals.handling_units == 0
    assert totals.total_weight == 0
    assert totals.average_density_pcf is None


@given(st.integers(1, 50), weights, dims, dims, dims)
def test_line_density_does_not_depend_on_quantity(
    quantity: int, weight: Decimal, length: Decimal, width: Decimal, height: Decimal
) -> None:
    line = ItemLine(quantity, weight, length, width, height)
    one = ItemLine(1, weight, length, width, height)
    assert line.density_pcf == one.density_pcf
    assert line.line_weight == quantity * weight


@given(st.lists(st.tuples(st.integers(1, 20), weights, dims, dims, dims), min_size=1, max_size=8))
def test_average_density_lies_between_the_lines(
    rows: list[tuple[int, Decimal, Decimal, Decimal, Decimal]],
) -> None:
    lines = [ItemLine(*row) for row in rows]
    totals = summarize(lines)
    average = totals.average_density_pcf
    assert average is not None
    tolerance = D("1e-20")
    assert min(line.density_pcf for line in lines) - tolerance <= average
    assert average <= max(line.density_pcf for line in lines) + tolerance
    assert totals.handling_units == sum(line.quantity for line in lines)


@given(weights, dims, dims, dims, st.decimals(min_value=D("0.01"), max_value=D(1), places=2))
def test_a_bigger_box_is_never_denser(
    weight: Decimal, length: Decimal, width: Decimal, height: Decimal, extra: Decimal
) -> None:
    assert density_pcf(weight, length + extra, width, height) <= density_pcf(
        weight, length, width, height
    )
