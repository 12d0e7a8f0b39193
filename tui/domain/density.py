"""Cube and density of freight lines: dimensions billed in whole inches, weight per unit."""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import Decimal
from typing import NamedTuple

CUBIC_INCHES_PER_FOOT = Decimal(1728)


def billable_inches(x: Decimal) -> int:
    """Round a measured dimension up to the next whole inch, as carriers' dimensioners do."""
    if x <= 0:
        raise ValueError("a dimension must be greater than 0")
    return math.ceil(x)


def unit_cube_ft3(length: Decimal, width: Decimal, height: Decimal) -> Decimal:
    """Cubic feet of one handling unit, each dimension rounded up to whole inches first."""
    inches = billable_inches(length) * billable_inches(width) * billable_inches(height)
    return Decimal(inches) / CUBIC_INCHES_PER_FOOT


def density_pcf(
    weight_per_unit: Decimal, length: Decimal, width: Decimal, height: Decimal
) -> Decimal:
    """Pounds per cubic foot of one handling unit (the same for the whole line)."""
    if weight_per_unit <= 0:
        raise ValueError("weight must be greater than 0")
    inches = billable_inches(length) * billable_inches(width) * billable_inches(height)
    return weight_per_unit * CUBIC_INCHES_PER_FOOT / inches


class ItemLine(NamedTuple):
    """One freight line: `quantity` units of one size (in) and per-unit weight (lb)."""

    quantity: int
    weight: Decimal
    length: Decimal
    width: Decimal
    height: Decimal

    @property
    def line_weight(self) -> Decimal:
        """Weight of the whole line in pounds."""
        return self.quantity * self.weight

    @property
    def line_cube_ft3(self) -> Decimal:
        """Cube of the whole line in cubic feet."""
        return self.quantity * unit_cube_ft3(self.length, self.width, self.height)

    @property
    def density_pcf(self) -> Decimal:
        """Density of the line (equal to the density of one of its units)."""
        return density_pcf(self.weight, self.length, self.width, self.height)


class LineTotals(NamedTuple):
    """What a shipment adds up to: handling units, pounds, cubic feet and average density."""

    handling_units: int
    total_weight: Decimal
    total_cube_ft3: Decimal

    @property
    def average_density_pcf(self) -> Decimal | None:
        """Total weight over total cube (informational), or None when there is no cube."""
        if self.total_cube_ft3 <= 0:
            return None
        return self.total_weight / self.total_cube_ft3


def summarize(lines: Iterable[ItemLine]) -> LineTotals:
    """Add up the lines of a shipment."""
    units = 0
    weight = Decimal(0)
    cube = Decimal(0)
    for line in lines:
        units += line.quantity
        weight += line.line_weight
        cube += line.line_cube_ft3
    return LineTotals(handling_units=units, total_weight=weight, total_cube_ft3=cube)
