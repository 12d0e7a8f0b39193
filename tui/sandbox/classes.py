"""NMFC freight classes, cube, density and the 2025 13-step density scale (the service's own)."""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation

# A deliberate copy of tui/domain/freight_class.py (the classes and the density scale): the
# sandbox is an independent model of the service and imports nothing from the rest of tui, so
# that a mistake in the client's table shows as a disagreement in the tests instead of being
# agreed to by construction. Change both when NMFC changes the scale.

FREIGHT_CLASSES: tuple[Decimal, ...] = tuple(
    Decimal(text)
    for text in (
        "50", "55", "60", "65", "70", "77.5", "85", "92.5", "100",
        "110", "125", "150", "175", "200", "250", "300", "400", "500",
    )
)  # fmt: skip

#: NMFC Docket 2025-1 density scale: (lowest pcf, class), lower bound inclusive
DENSITY_SCALE: tuple[tuple[Decimal, Decimal], ...] = tuple(
    (Decimal(floor), Decimal(freight_class))
    for floor, freight_class in (
        ("50", "50"), ("35", "55"), ("30", "60"), ("22.5", "65"), ("15", "70"),
        ("12", "85"), ("10", "92.5"), ("8", "100"), ("6", "125"), ("4", "175"),
        ("2", "250"), ("1", "300"), ("0", "400"),
    )
)  # fmt: skip

CLASSES_TEXT = ", ".join(f"{c.normalize():f}" for c in FREIGHT_CLASSES)
CUBIC_INCHES_PER_FOOT = Decimal(1728)


def parse_class(text: str) -> Decimal:
    """The NMFC class ``text`` names, or ValueError saying which classes exist."""
    try:
        number = Decimal(text.strip())
    except InvalidOperation:
        raise ValueError(f"must be one of {CLASSES_TEXT}") from None
    for freight_class in FREIGHT_CLASSES:
        if number.is_finite() and number == freight_class:
            return freight_class
    raise ValueError(f"must be one of {CLASSES_TEXT}")


def unit_cube_ft3(length: Decimal, width: Decimal, height: Decimal) -> Decimal:
    """Cubic feet of one unit, each dimension rounded up to a whole inch first."""
    inches = math.ceil(length) * math.ceil(width) * math.ceil(height)
    return Decimal(inches) / CUBIC_INCHES_PER_FOOT


def class_for_density(weight: Decimal, length: Decimal, width: Decimal, height: Decimal) -> Decimal:
    """The class the 2025 scale gives one unit of ``weight`` lb and these inches."""
    pcf = weight / unit_cube_ft3(length, width, height)
    for floor, freight_class in DENSITY_SCALE:
        if pcf >= floor:
            return freight_class
    return DENSITY_SCALE[-1][1]
