"""Freight classes: parsing what people type and the 2025 density scale."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui.domain.freight_class import (
    FREIGHT_CLASSES,
    class_for_density,
    format_class,
    parse_freight_class,
)


def test_there_are_eighteen_classes_in_order() -> None:
    assert len(FREIGHT_CLASSES) == 18
    assert list(FREIGHT_CLASSES) == sorted(FREIGHT_CLASSES)
    assert Decimal("77.5") in FREIGHT_CLASSES
    assert Decimal("92.5") in FREIGHT_CLASSES


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("70", "70"), (" 77.5 ", "77.5"), ("77.50", "77.5"), (500, "500"), (Decimal("92.5"), "92.5")],
)
def test_parse_accepts_the_ways_people_write_a_class(
    typed: str | int | Decimal, expected: str
) -> None:
    assert format_class(parse_freight_class(typed)) == expected


@pytest.mark.parametrize("typed", ["", "75", "abc", "1e2", "-70", "NaN", "7 0", "70.0.0"])
def test_parse_rejects_other_values_naming_the_valid_ones(typed: str) -> None:
    with pytest.raises(ValueError, match=r"class must be one of 50, 55, .*77\.5.* 500"):
        parse_freight_class(typed)


@pytest.mark.parametrize(
    ("pcf", "expected"),
    [
        ("0", "400"),
        ("0.99", "400"),
        ("1", "300"),
        ("2", "250"),
        ("3.99", "250"),
        ("4", "175"),
        ("6", "125"),
        ("8", "100"),
        ("9.99", "100"),
        ("10", "92.5"),
        ("11.99", "92.5"),
        ("12", "85"),
        ("14.99", "85"),
        ("15", "70"),
        ("22.5", "65"),
        ("30", "60"),
        ("35", "55"),
        ("49.99", "55"),
        ("50", "50"),
        ("900", "50"),
    ],
)
def test_density_scale_2025_lower_bound_inclusive(pcf: str, expected: str) -> None:
    assert class_for_density(Decimal(pcf)) == Decimal(expected)


def test_negative_density_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        class_for_density(Decimal("-1"))


@given(st.decimals(min_value=0, max_value=10_000, allow_nan=False, allow_infinity=False))
def test_implied_class_is_a_real_class_no_longer_output_classes_excluded(pcf: Decimal) -> None:
    freight_class = class_for_density(pcf)
    assert freight_class in FREIGHT_CLASSES
    assert freight_class not in {Decimal(c) for c in ("77.5", "110", "150", "200", "500")}


@given(
    st.decimals(min_value=0, max_value=1000, allow_nan=False, allow_infinity=False, places=3),
    st.decimals(min_value=0, max_value=1000, allow_nan=False, allow_infinity=False, places=3),
)
def test_denser_freight_never_gets_a_higher_class(a: Decimal, b: Decimal) -> None:
    low, high = sorted((a, b))
    assert class_for_density(high) <= class_for_density(low)


@given(st.sampled_from(FREIGHT_CLASSES))
def test_every_class_round_trips_through_its_text(freight_class: Decimal) -> None:
    assert parse_freight_class(format_class(freight_class)) == freight_class
