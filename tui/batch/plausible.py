"""Weights no freight has: a handling unit or an order heavier (or lighter) than its mode
carries, set aside with the unit mistake that likely made it (``435,000 lb`` for a crate: grams
read as pounds?). Parcel orders (every unit a box, carton, bag, envelope or tube) and LTL orders
have their own bounds."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Final, Literal

from tui.batch.fields import WEIGHT_UNITS, WeightUnit
from tui.batch.records import Cells, Line, OrderRows
from tui.batch.values import LB_IN, plain

Mode = Literal["parcel", "ltl"]

PARCEL_UNITS: Final = frozenset({"box", "carton", "bag", "envelope", "tube"})
"""Handling units of an order a parcel carrier may take (any other makes it LTL)."""


@dataclass(frozen=True, slots=True)
class Bounds:
    """The weights (lb) a mode's freight plausibly has."""

    unit_min: Decimal
    unit_max: Decimal
    order_max: Decimal


BOUNDS: Final[dict[Mode, Bounds]] = {
    "parcel": Bounds(Decimal("0.05"), Decimal(2_000), Decimal(20_000)),
    "ltl": Bounds(Decimal(5), Decimal(10_000), Decimal(45_000)),
}
"""Boxes and cartons (parcel, or loose on LTL): from an envelope's ounce to a ton each, 20,000
lb an order. LTL: a handling unit from 5 lb (an empty pallet weighs more) to 10,000 lb, an
order up to a truck's 45,000 lb."""


def mode_of(lines: Sequence[Line]) -> Mode:
    """``parcel`` when every line's unit is a parcel's, else ``ltl``."""
    return "parcel" if lines and all(line.package in PARCEL_UNITS for line in lines) else "ltl"


def likely_units(weight: Decimal, read_as: WeightUnit, low: Decimal, high: Decimal) -> list[str]:
    """The units that, had the number been written in them, give a weight within bounds:
    smaller units than ``read_as`` for a weight too heavy, larger ones for one too light."""
    heavy = weight > high
    found: list[str] = []
    for unit in WEIGHT_UNITS:
        if unit == read_as or (LB_IN[unit] < LB_IN[read_as]) != heavy:
            continue
        other = weight * LB_IN[unit] / LB_IN[read_as]
        if low <= other <= high:
            found.append(_UNIT_WORDS[unit])
    return found


_UNIT_WORDS: Final = {
    "lb": "pounds",
    "kg": "kilograms",
    "g": "grams",
    "oz": "ounces",
    "t": "tonnes",
}


def plausible_weights(
    build: OrderRows,
    line_cells: Sequence[Cells],
    lines: Sequence[Line | None],
    unit_of: Callable[[Cells], WeightUnit],
) -> None:
    """An error on each line, and on the order, whose weight is out of its mode's bounds."""
    read = [(cells, line) for cells, line in zip(line_cells, lines, strict=True) if line]
    if not read:
        return
    mode = mode_of([line for _, line in read])
    bounds = BOUNDS[mode]
    for cells, line in read:
        if bounds.unit_min <= line.weight <= bounds.unit_max:
            continue
        heavy = line.weight > bounds.unit_max
        limit = bounds.unit_max if heavy else bounds.unit_min
        unit = unit_of(cells)
        likely = likely_units(line.weight, unit, bounds.unit_min, bounds.unit_max)
        build.error(
            cells,
            "weight",
            cells.get("weight").strip(),
            f"makes one {line.package} weigh {_lb(line.weight)}, "
            f"{'more' if heavy else 'less'} than any {mode_word(mode)} unit "
            f"({_lb(limit)}){_hint(likely, unit)}",
        )
    total = sum((line.quantity * line.weight for _, line in read), Decimal(0))
    if total > bounds.order_max and not build.errors:
        cells, _line = read[0]
        unit = unit_of(cells)
        likely = likely_units(total, unit, Decimal(0), bounds.order_max)
        build.error(
            cells,
            "weight",
            cells.get("weight").strip(),
            f"makes the order weigh {_lb(total)}, more than {_article(mode)} shipment "
            f"carries ({_lb(bounds.order_max)}){_hint(likely, unit)}",
        )


def mode_word(mode: Mode) -> str:
    """``parcel`` or ``LTL``."""
    return "parcel" if mode == "parcel" else "LTL"


def _article(mode: Mode) -> str:
    return "a parcel" if mode == "parcel" else "an LTL"


def _lb(weight: Decimal) -> str:
    return f"{plain(weight):,} lb"


def _hint(likely: Sequence[str], unit: WeightUnit) -> str:
    if not likely:
        return ": is the weight or its unit wrong?"
    return f": looks like {'/'.join(likely)} read as {_UNIT_WORDS[unit]}?"
