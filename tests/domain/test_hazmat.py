"""Hazmat fields of an item: UN number, hazard class with divisions, packing group, NMFC item."""

from __future__ import annotations

import pytest

from tui.domain.hazmat import (
    hazmat_line,
    parse_hazard_class,
    parse_nmfc,
    parse_packing_group,
    parse_un_number,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("UN1203", "UN1203"), ("un 1203", "UN1203"), ("1203", "UN1203"), ("NA1993", "NA1993")],
)
def test_un_numbers_in_any_spelling(text: str, expected: str) -> None:
    assert parse_un_number(text) == expected


@pytest.mark.parametrize("text", ["UN123", "UN12034", "XX1203", "UN0000", "paint"])
def test_a_wrong_un_number_says_what_is_expected(text: str) -> None:
    with pytest.raises(ValueError, match=r"UN number: UN and 4 digits, like UN1203"):
        parse_un_number(text)


def test_a_missing_un_number_is_required() -> None:
    with pytest.raises(ValueError, match="required for hazardous freight"):
        parse_un_number(" ")


@pytest.mark.parametrize("text", ["3", "2.1", "2.3", "6.1", "1.4G", "1.4g", "9", "5.2"])
def test_hazard_classes_and_divisions(text: str) -> None:
    assert parse_hazard_class(text) == text.upper()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0", "1 to 9"),
        ("10", "1 to 9"),
        ("2.4", "class 2 divisions are 2.1, 2.2, 2.3"),
        ("3.1", "class 3 has no divisions"),
        ("3G", "only class 1"),
        ("", "required for hazardous freight"),
    ],
)
def test_wrong_hazard_classes(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_hazard_class(text)


def test_packing_groups() -> None:
    assert parse_packing_group("ii") == "II"
    assert parse_packing_group("PG III") == "III"
    assert parse_packing_group("1") == "I"
    assert parse_packing_group("") is None
    with pytest.raises(ValueError, match="packing group: I, II or III"):
        parse_packing_group("IV")


def test_nmfc_items() -> None:
    assert parse_nmfc("156600") == "156600"
    assert parse_nmfc("156600-3") == "156600-03"
    assert parse_nmfc("") is None
    with pytest.raises(ValueError, match="NMFC item"):
        parse_nmfc("1566000")


def test_the_line_the_bol_prints() -> None:
    assert hazmat_line("UN1203", "3", "II") == "HM UN1203 · 3 · PG II"
    assert hazmat_line("UN1075", "2.1", None) == "HM UN1075 · 2.1"
