"""Check digits against the published samples (domain reference, section 7)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui.domain.check_digits import (
    fedex_express_valid,
    fedex_ground_valid,
    gs1_mod10,
    gs1_valid,
    luhn_check_digit,
    luhn_valid,
    mod7_check,
    mod11_check,
    ups_tracking_valid,
    usps_impb_valid,
)

payloads = st.text(alphabet="0123456789", min_size=1, max_size=30)


def test_gs1_vics_bol_sample() -> None:
    assert gs1_mod10("0614141123456791") == 3
    assert gs1_valid("06141411234567913")
    assert not gs1_valid("06141411234567914")


def test_luhn_known_numbers() -> None:
    assert luhn_check_digit("7992739871") == 3
    assert luhn_valid("79927398713")
    assert not luhn_valid("79927398710")
    assert not luhn_valid("7992-7398713")


def test_mod7_and_mod11() -> None:
    assert mod7_check("12345678") == 12345678 % 7
    assert mod11_check("000011") == "0"  # 11 % 11 == 0
    assert mod11_check("000001") == "X"  # 11 - 1 == 10 -> X
    assert mod11_check("000002") == "9"


def test_parcel_samples() -> None:
    assert ups_tracking_valid("1Z999AA10123456784")
    assert not ups_tracking_valid("1Z999AA10123456785")
    assert fedex_express_valid("986578788855")
    assert not fedex_express_valid("986578788856")
    assert fedex_ground_valid("568283610012000")
    assert not fedex_ground_valid("568283610012001")
    assert usps_impb_valid("9400111201080805483016")
    assert not usps_impb_valid("9400111201080805483017")


@pytest.mark.parametrize("bad", ["", "12a", " 12", "١٢"])
def test_non_digit_payloads_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="digits"):
        gs1_mod10(bad)


@given(payloads)
def test_appending_the_check_digit_validates(payload: str) -> None:
    assert gs1_valid(payload + str(gs1_mod10(payload)))
    assert luhn_valid(payload + str(luhn_check_digit(payload)))
    assert 0 <= mod7_check(payload) <= 6
    assert mod11_check(payload) in set("0123456789X")


@given(payloads, st.integers(0, 29), st.integers(1, 9))
def test_a_single_wrong_digit_is_caught(payload: str, position: int, delta: int) -> None:
    number = payload + str(gs1_mod10(payload))
    index = position % len(number)
    changed = number[:index] + str((int(number[index]) + delta) % 10) + number[index + 1 :]
    assert not gs1_valid(changed)
    luhn_number = payload + str(luhn_check_digit(payload))
    changed = (
        luhn_number[:index] + str((int(luhn_number[index]) + delta) % 10) + luhn_number[index + 1 :]
    )
    assert not luhn_valid(changed)
