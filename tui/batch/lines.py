"""One row into one line of freight: count, handling unit, weight, sizes, class, NMFC,
description and hazmat, each read and checked; what is wrong is an error of the order."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal
from typing import Final, TypeVar

from tui.batch import values
from tui.batch.fields import ColumnMapping, DimUnit, WeightUnit
from tui.batch.records import Cells, HazardFields, Line, OrderRows
from tui.batch.words import known_package, package_in, packed_items
from tui.domain.density import density_pcf
from tui.domain.freight_class import class_for_density, parse_freight_class
from tui.domain.hazmat import (
    parse_hazard_class,
    parse_packing_group,
    parse_un_number,
    shipping_name_problem,
)

TEXT_LIMIT: Final = 200
"""Characters of one text the service takes (a description, a company…)."""
_Unit = TypeVar("_Unit", WeightUnit, DimUnit)
_ITEM_WEIGHT: Final = re.compile(
    r"(?P<number>\d+(?:[.,]\d+)?)\s*(?P<unit>lbs?|kgs?|g|oz)\b", re.IGNORECASE
)


def _row_unit(
    build: OrderRows, cells: Cells, name: str, default: _Unit, parse: Callable[[str], _Unit]
) -> _Unit | None:
    """The unit of a row's column ``name`` (else of the order's first row, else ``default``);
    None, an error of the order noted, when it cannot be read."""
    text = cells.get(name).strip() or build.rows[0].get(name).strip()
    if not text:
        return default
    try:
        return parse(text)
    except ValueError as exc:
        build.error(cells, name, text, str(exc))
        return None


class LineReader:
    """Reads the lines of a file's orders, with its mapping and its decimal separator."""

    def __init__(self, mapping: ColumnMapping, *, decimal_comma: bool) -> None:
        self.mapping = mapping
        self.comma = decimal_comma

    def items(self, build: OrderRows, cells: Cells) -> list[Cells]:
        """The row once per item of its ``items`` cell (``Pallet x1; Crate x2``: a line of one
        pallet and one of two crates), else the row itself. The row's weight, when it is the
        row's total and the items do not give their own, is shared by their units."""
        text = cells.get("items").strip()
        if not text:
            return [cells]
        entries = packed_items(text)
        own = [_ITEM_WEIGHT.search(name) for _, name in entries]
        units = sum(count for count, _ in entries)
        share: tuple[Decimal, str] | None = None
        if len(entries) > 1 and self.mapping.weight_per == "line" and not all(own):
            written = cells.get("weight").strip()
            try:
                total, unit = values.parse_weight(written, self._unit(cells, build))
                share = total / units, unit
            except ValueError:
                share = None  # the row's weight is refused as the first item is read
            else:
                build.note(
                    f"row {cells.row.number}: the weight {written} shared by the "
                    f"{units} units of its items"
                )
        out: list[Cells] = []
        for (count, name), weight in zip(entries, own, strict=True):
            found = known_package(name) or package_in(name)
            changes = {"quantity": str(count), "description": name}
            if found is not None:
                changes["package"] = found
            if weight is not None:
                number = values.parse_number(weight["number"], decimal_comma="," in weight[0])
                if self.mapping.weight_per == "line":
                    number *= count
                changes["weight"] = f"{number} {weight['unit']}"
            elif share is not None:
                changes["weight"] = f"{share[0] * count} {share[1]}"
            out.append(replace(cells, overrides={**cells.overrides, **changes}))
        return out

    def unit_of(self, build: OrderRows, cells: Cells) -> WeightUnit:
        """The unit the row's weight was read in (written in the cell, else the row's)."""
        unit = self._unit(cells, build)
        try:
            return values.parse_weight(cells.get("weight"), unit)[1]
        except ValueError:
            return unit

    def _unit(self, cells: Cells, build: OrderRows) -> WeightUnit:
        text = cells.get("weight_unit").strip() or build.rows[0].get("weight_unit").strip()
        try:
            return values.weight_unit(text) if text else self.mapping.weight_unit
        except ValueError:
            return self.mapping.weight_unit

    def line(self, build: OrderRows, cells: Cells) -> Line | None:
        """The row's line of freight; None (and errors on ``build``) when a value is wrong."""
        errors_before = len(build.errors)
        quantity: int | None = None
        try:
            quantity = values.parse_quantity(cells.get("quantity"), decimal_comma=self.comma)
        except ValueError as exc:
            build.error(cells, "quantity", cells.get("quantity").strip(), str(exc))
        package = self._package(build, cells)
        weight = self._weight(build, cells)
        sizes = self._sizes(build, cells)
        per_unit: Decimal | None = None
        if weight is not None and quantity is not None:
            per_unit = weight
            if self.mapping.weight_per == "line":
                per_unit = weight / quantity
            per_unit = values.plain(per_unit)
        freight_class = self._class(build, cells, per_unit, sizes)
        text = cells.get("nmfc").strip()
        nmfc: str | None = None
        if text:
            from tui.domain.hazmat import parse_nmfc

            try:
                nmfc = parse_nmfc(values.strip_marks(text))
            except ValueError as exc:
                build.error(cells, "nmfc", text, reason(exc))
        description = " ".join(cells.get("description").split())[:TEXT_LIMIT]
        hazard = self._hazmat(build, cells)
        if len(build.errors) > errors_before:
            return None
        if quantity is None or per_unit is None or sizes is None or freight_class is None:
            return None  # each has an error above; kept for the type checker
        return Line(
            quantity=quantity,
            package=package,
            weight=per_unit,
            length=sizes[0],
            width=sizes[1],
            height=sizes[2],
            freight_class=freight_class,
            nmfc=nmfc,
            description=description,
            hazard=hazard,
        )

    def _package(self, build: OrderRows, cells: Cells) -> str:
        """The line's handling unit: the package cell (a unit, or a name with the unit in it:
        ``Pump housing (crate)``), else the unit named in the description."""
        written = values.strip_marks(cells.get("package"))
        found = known_package(written) if written else None
        if found is not None:
            return found
        name = " ".join(cells.get("description").split())
        found = package_in(written) if written else package_in(name)
        if found is not None:
            build.note(f"{found} read from the item's name {(written or name)[:60]!r}")
            return found
        if written:
            from tui.domain.locations import parse_package

            return parse_package(written)
        build.error(
            cells,
            "package",
            "",
            "is blank: every line needs its handling unit (pallet, crate, box…), in a column "
            "or in the item's name; --set package=pallet if they all are",
        )
        return ""

    def _weight(self, build: OrderRows, cells: Cells) -> Decimal | None:
        text = cells.get("weight").strip()
        unit = _row_unit(build, cells, "weight_unit", self.mapping.weight_unit, values.weight_unit)
        if unit is None:
            return None
        if not text:
            build.error(cells, "weight", "", "is blank: every line needs its weight")
            return None
        try:
            number, unit = values.parse_weight(text, unit, decimal_comma=self.comma)
        except ValueError as exc:
            build.error(cells, "weight", text, str(exc))
            return None
        return values.pounds(number, unit)

    def _sizes(self, build: OrderRows, cells: Cells) -> tuple[Decimal, Decimal, Decimal] | None:
        unit = _row_unit(build, cells, "dim_unit", self.mapping.dim_unit, values.dim_unit)
        if unit is None:
            return None
        texts = {name: cells.get(name).strip() for name in ("length", "width", "height")}
        if all(texts.values()):
            sizes: list[Decimal] = []
            for name, text in texts.items():
                try:
                    number = values.parse_number(text, decimal_comma=self.comma)
                except ValueError as exc:
                    build.error(cells, name, text, str(exc))
                    continue
                if number <= 0:
                    build.error(cells, name, text, "must be more than 0")
                    continue
                sizes.append(values.inches(number, unit))
            if len(sizes) != 3:
                return None
            return sizes[0], sizes[1], sizes[2]
        for name in ("dims", "notes", "description"):
            text = cells.get(name)
            if not text.strip():
                continue
            found = values.find_dims(text, unit, decimal_comma=self.comma)
            if found is not None:
                length, width, height, written = found
                if min(length, width, height) <= 0:
                    build.error(cells, name, text.strip(), "has a size of 0")
                    return None
                return (
                    values.inches(length, written),
                    values.inches(width, written),
                    values.inches(height, written),
                )
            if name == "dims":
                build.error(
                    cells, name, text.strip(), "is not a size like 48x40x48 or 120x100x120 cm"
                )
                return None
        missing = next((name for name, text in texts.items() if not text), "height")
        mapped = any(self.mapping.column_of(n) for n in ("length", "width", "height"))
        where = missing if mapped or not self.mapping.column_of("dims") else "dims"
        build.error(
            cells,
            where,
            "",
            "is blank: every line needs its length, width and height "
            "(or a size like 48x40x48 in the notes)",
        )
        return None

    def _class(
        self,
        build: OrderRows,
        cells: Cells,
        weight: Decimal | None,
        sizes: tuple[Decimal, Decimal, Decimal] | None,
    ) -> Decimal | None:
        """The class the file gives, else the one the line's density implies."""

        text = cells.get("class").strip()
        if text:
            try:
                number = values.parse_number(text, decimal_comma=self.comma)
                return parse_freight_class(number)
            except ValueError:
                build.error(
                    cells, "class", text, "is not a freight class (50, 55 … 92.5, 100 … 500)"
                )
            return None
        if weight is None or sizes is None:
            return None

        return class_for_density(density_pcf(weight, *sizes))

    def _hazmat(self, build: OrderRows, cells: Cells) -> HazardFields | None:

        un = values.strip_marks(cells.get("hazmat_un"))
        hazard_class = values.strip_marks(cells.get("hazard_class"))
        group = values.strip_marks(cells.get("packing_group"))
        if not (un or hazard_class or group):
            return None
        if un.lower() in ("n", "no", "0", "false", "-"):
            return None
        un_number = ""
        if not un:
            build.error(
                cells, "hazmat_un", "", "is blank, but the line has hazmat data: give its UN number"
            )
        else:
            try:
                un_number = parse_un_number(un)
            except ValueError as exc:
                build.error(cells, "hazmat_un", un, reason(exc))
        class_read = ""
        if not hazard_class:
            build.error(
                cells,
                "hazard_class",
                "",
                f"is blank: hazardous freight ({un or 'hazmat'}) needs its hazard class",
            )
        else:
            try:
                class_read = parse_hazard_class(hazard_class)
            except ValueError as exc:
                build.error(cells, "hazard_class", hazard_class, reason(exc))
        packing_group: str | None = None
        try:
            packing_group = parse_packing_group(group)
        except ValueError as exc:
            build.error(cells, "packing_group", group, reason(exc))

        problem = shipping_name_problem(un_number or un, cells.get("description"))
        if problem is not None:
            build.error(cells, "description", "", problem)
        return HazardFields(
            hazmat_id=un_number, hazard_class=class_read, packing_group=packing_group
        )


def reason(error: ValueError) -> str:
    """A domain parser's message without its field-name prefix (``UN number: …``)."""
    text = str(error)
    head, sep, rest = text.partition(": ")
    return rest if sep and len(head) < 20 else text
