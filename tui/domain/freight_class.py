"""The 18 NMFC freight classes and the 2025 density scale that implies one."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

# tui/sandbox/classes.py keeps its own copy of these tables on purpose (the sandbox is an
# independent model of the service): a change here is a change there.

FREIGHT_CLASSES: tuple[Decimal, ...] = tuple(
    Decimal(text)
    for text in (
        "50", "55", "60", "65", "70", "77.5", "85", "92.5", "100",
        "110", "125", "150", "175", "200", "250", "300", "400", "500",
    )
)  # fmt: skip

#: The 2025 13-step density scale (NMFC Docket 2025-1): (lowest pcf, class), lower bound inclusive.
DENSITY_SCALE_2025: tuple[tuple[Decimal, Decimal], ...] = tuple(
    (Decimal(floor), Decimal(freight_class))
    for floor, freight_class in (
        ("50", "50"), ("35", "55"), ("30", "60"), ("22.5", "65"), ("15", "70"),
        ("12", "85"), ("10", "92.5"), ("8", "100"), ("6", "125"), ("4", "175"),
        ("2", "250"), ("1", "300"), ("0", "400"),
    )
)  # fmt: skip


def format_class(freight_class: Decimal) -> str:
    """Show a class the way shippers write it: `70`, `77.5`."""
    normalized = freight_class.normalize()
    return f"{normalized:f}"


VALID_CLASSES_TEXT = ", ".join(format_class(c) for c in FREIGHT_CLASSES)


def parse_freight_class(value: str | int | Decimal) -> Decimal:
    """Return the NMFC class `value` names, or raise ValueError with a message for the user."""
    if isinstance(value, Decimal):
        return _known_class(value)
    text = str(value).strip()
    if not text or not all(c.isdigit() or c == "." for c in text) or not text.isascii():
        raise ValueError(f"class must be one of {VALID_CLASSES_TEXT}")
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"class must be one of {VALID_CLASSES_TEXT}") from None
    return _known_class(number)


def _known_class(number: Decimal) -> Decimal:
    if number.is_finite():
        for freight_class in FREIGHT_CLASSES:
            if number == freight_class:
                return freight_class
    raise ValueError(f"class must be one of {VALID_CLASSES_TEXT}")


def class_for_density(pcf: Decimal) -> Decimal:
    """The class the 2025 density scale gives `pcf` pounds per cubic foot (never negative input)."""
    if pcf < 0:
        raise ValueError("density cannot be negative")
    for floor, freight_class in DENSITY_SCALE_2025:
        if pcf >= floor:
            return freight_class
    raise AssertionError("unreachable: the scale starts at 0")  # pragma: no cover
