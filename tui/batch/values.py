"""Cell values read as a person reads them: numbers with spreadsheet marks, sizes in text,
units, yes/no flags, ZIP codes that lost their leading zero. Each reader raises ValueError
with the reason (the caller adds row, column and value)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Final, TypeVar

from tui.batch.fields import DimUnit, WeightUnit

ZipState = Callable[[str], "str | None"]
"""The state of a 5-digit ZIP, or None when the ZIP is unknown."""

LB_PER_KG: Final = Decimal("2.20462262185")
LB_IN: Final[dict[str, Decimal]] = {
    "lb": Decimal(1),
    "kg": LB_PER_KG,
    "g": LB_PER_KG / 1000,
    "oz": Decimal(1) / 16,
    "t": LB_PER_KG * 1000,
}
"""Pounds in one of each weight unit (``t`` is the metric tonne)."""
CM_PER_IN: Final = Decimal("2.54")
MM_PER_IN: Final = Decimal("25.4")
HUNDREDTH: Final = Decimal("0.01")
_U = TypeVar("_U", bound=str)

_TRUE: Final = frozenset(
    {"y", "yes", "x", "1", "true", "t", "on", "✓", "✔", "ja", "j", "oui", "o", "si", "sí", "s"}
)
_FALSE: Final = frozenset({"", "n", "no", "0", "false", "f", "off", "-", "nein", "non"})


def strip_marks(text: str) -> str:
    """A cell without a spreadsheet's text mark (a leading apostrophe) and outer spaces."""
    value = text.strip()
    if value.startswith(("'", "’")):
        value = value[1:].strip()
    return value


_GROUPED_POINT = re.compile(r"^\d{1,3}(,\d{3})+(\.\d+)?$")
_GROUPED_COMMA = re.compile(r"^\d{1,3}(\.\d{3})+(,\d+)?$")
_PLAIN_POINT = re.compile(r"^(\d+(\.\d*)?|\.\d+)$")
_PLAIN_COMMA = re.compile(r"^(\d+(,\d*)?|,\d+)$")


def parse_number(text: str, *, decimal_comma: bool = False) -> Decimal:
    """A number as a spreadsheet shows it: ``1,250``, ``1 250``, ``1'250``, ``'1250``, and with
    ``decimal_comma`` ``1.250,5`` or ``12,5``. Negative numbers are read (the caller refuses
    them with its own reason)."""
    value = strip_marks(text)
    negative = value.startswith(("-", "−"))
    if negative:
        value = value[1:].strip()
    value = re.sub(r"(?<=\d)[ \u00a0\u202f'\u2019](?=\d{3}(\D|$))", "", value)
    if not value:
        raise ValueError("is blank")
    if decimal_comma:
        if _GROUPED_COMMA.match(value):
            value = value.replace(".", "")
        elif not _PLAIN_COMMA.match(value):
            raise ValueError("is not a number")
        value = value.replace(",", ".")
    else:
        if _GROUPED_POINT.match(value):
            value = value.replace(",", "")
        elif not _PLAIN_POINT.match(value):
            raise ValueError("is not a number")
    try:
        number = Decimal(value)
    except InvalidOperation:
        raise ValueError("is not a number") from None
    return -number if negative else number


_WEIGHT_WITH_UNIT = re.compile(
    r"^(?P<number>.*?\d\.?)\s*(?P<unit>lbs?|pounds?|#|kgs?|kilos?|kilograms?|g|grams?|"
    r"grammes?|oz|ounces?|t|tonnes?)\.?$",
    re.IGNORECASE,
)


def parse_weight(
    text: str, unit: WeightUnit, *, decimal_comma: bool = False
) -> tuple[Decimal, WeightUnit]:
    """A weight more than 0 and the unit it is in (a unit written in the cell wins)."""
    value = strip_marks(text)
    found = _WEIGHT_WITH_UNIT.match(value)
    if found:
        value = found["number"]
        unit = weight_unit(found["unit"])
    number = parse_number(value, decimal_comma=decimal_comma)
    if number <= 0:
        raise ValueError("must be more than 0")
    return number, unit


def plain(number: Decimal) -> Decimal:
    """To the hundredth, without trailing zeros or an exponent (``450``, ``361.67``)."""
    rounded = number.quantize(HUNDREDTH, rounding=ROUND_HALF_UP)
    if rounded == rounded.to_integral_value():
        return rounded.quantize(Decimal(1))
    return rounded.normalize()


def pounds(weight: Decimal, unit: WeightUnit) -> Decimal:
    """A weight in pounds, to the hundredth."""
    if unit != "lb":
        weight = weight * LB_IN[unit]
    return plain(weight)


def inches(size: Decimal, unit: DimUnit) -> Decimal:
    """A size in inches, to the hundredth."""
    if unit == "cm":
        size = size / CM_PER_IN
    elif unit == "mm":
        size = size / MM_PER_IN
    return plain(size)


_WEIGHT_UNITS: Final[dict[WeightUnit, tuple[str, ...]]] = {
    "lb": ("lb", "lbs", "pound", "pounds", "#"),
    "kg": ("kg", "kgs", "kilo", "kilos", "kilogram", "kilograms", "kilogramm"),
    "g": ("g", "gr", "gram", "grams", "gramm", "gramme", "grammes"),
    "oz": ("oz", "ounce", "ounces"),
    "t": ("t", "tonne", "tonnes", "metric ton", "metric tons"),
}
_DIM_UNITS: Final[dict[DimUnit, tuple[str, ...]]] = {
    "in": ("in", "inch", "inches", '"', "zoll"),
    "cm": ("cm", "centimeter", "centimeters", "centimetre", "centimetres"),
    "mm": ("mm", "millimeter", "millimeters", "millimetre", "millimetres"),
}


def _unit(text: str, names: Mapping[_U, tuple[str, ...]], unknown: str) -> _U:
    """The unit whose ``names`` hold a unit cell's word (any case, a final dot dropped)."""
    value = strip_marks(text).lower().rstrip(".")
    for unit, written in names.items():
        if value in written:
            return unit
    raise ValueError(unknown)


def weight_unit(text: str) -> WeightUnit:
    """``lb``, ``kg``, ``g``, ``oz`` or ``t`` (the metric tonne) from a unit cell (``lbs``,
    ``Kilos``, ``grams``, ``ounces``…)."""
    return _unit(text, _WEIGHT_UNITS, "is not a weight unit: lb, kg, g, oz or t")


def dim_unit(text: str) -> DimUnit:
    """``in``, ``cm`` or ``mm`` from a unit cell."""
    return _unit(text, _DIM_UNITS, "is not a size unit: in or cm")


_NUM = r"\d+(?:[.,]\d+)?"
_DIMS = re.compile(
    rf"(?P<l>{_NUM})\s*(?:in|cm|mm|\")?\s*[x×*]\s*(?P<w>{_NUM})\s*(?:in|cm|mm|\")?\s*[x×*]\s*"
    rf"(?P<h>{_NUM})\s*(?P<unit>in(?:ch(?:es)?)?\b|\"|cm\b|mm\b)?",
    re.IGNORECASE,
)


def find_dims(
    text: str, unit: DimUnit, *, decimal_comma: bool = False
) -> tuple[Decimal, Decimal, Decimal, DimUnit] | None:
    """Length, width, height and unit from ``48x40x48``, ``48 x 40 x 48 in``, ``120x100x120 cm``
    anywhere in a text (``dims: 40x30x36 in``); None when the text holds none."""
    found = _DIMS.search(text)
    if found is None:
        return None
    written = (found["unit"] or "").lower()
    if written.startswith("in") or written == '"':
        unit = "in"
    elif written in ("cm", "mm"):
        unit = "cm" if written == "cm" else "mm"
    sizes = []
    for key in ("l", "w", "h"):
        raw = found[key]
        if "," in raw and not decimal_comma and len(raw.split(",")[1]) == 3:
            raw = raw.replace(",", "")
        sizes.append(Decimal(raw.replace(",", ".")))
    return sizes[0], sizes[1], sizes[2], unit


def parse_flag(text: str) -> bool:
    """True for ``Y``, ``yes``, ``x``, ``1``, ``true`` (and ``ja``, ``oui``, ``sí``); False for
    blank, ``N``, ``no``, ``0``, ``false``."""
    value = strip_marks(text).lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError("is not yes or no (Y, yes, x, 1, true / N, no, 0, blank)")


def parse_quantity(text: str, *, decimal_comma: bool = False) -> int:
    """A whole number of handling units, 1 to 999 (blank: 1)."""
    if not strip_marks(text):
        return 1
    number = parse_number(text, decimal_comma=decimal_comma)
    if number != number.to_integral_value():
        raise ValueError("is not a whole number of units")
    if number < 1:
        raise ValueError("must be at least 1")
    if number > 999:
        raise ValueError("is more than 999 units")
    return int(number)


_ZIP = re.compile(r"^\d{5}(-\d{4})?$")
_SHORT_ZIP = re.compile(r"^(\d{3,4})(-\d{4})?$")
_CANADIAN = re.compile(r"^([A-Z]\d[A-Z])\s*-?\s*(\d[A-Z]\d)$")


def parse_zip(text: str, state: str | None, state_of: ZipState | None, country: str = "US") -> str:
    """A US ZIP (ZIP+4 kept) or a Canadian postal code.

    A spreadsheet that read a ZIP as a number drops its leading zeros (``6060`` for ``06060``):
    the zeros come back only when ``state_of`` says the padded ZIP is in ``state``.
    """
    value = strip_marks(text).upper()
    if not value:
        raise ValueError("is blank")
    if value.endswith(".0") and value[:-2].isdigit():
        value = value[:-2]  # a ZIP a spreadsheet stored as a number
    if _ZIP.match(value):
        return value
    canadian = _CANADIAN.match(value)
    if canadian:
        return f"{canadian[1]} {canadian[2]}"
    short = _SHORT_ZIP.match(value)
    if short and country == "US":
        padded = short[1].rjust(5, "0") + (short[2] or "")
        if not state:
            raise ValueError(f"is not a 5-digit ZIP; {padded}? (no state to check it against)")
        found = state_of(padded[:5]) if state_of is not None else None
        if found is not None and found.upper() == state.strip().upper():
            return padded
        where = f"in {found}, not {state.strip().upper()}" if found else "not a known ZIP"
        raise ValueError(f"is not a 5-digit ZIP (and {padded} is {where})")
    raise ValueError("is not a ZIP code (5 digits, or a Canadian code like H4P 2N2)")
