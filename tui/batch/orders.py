"""Rows into orders: grouped by the order column, order fields filled from each order's first
row, every value read and checked. A wrong row is reported with its row number, column, value
and reason, and its whole order is set aside; the other orders go on."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from tui.batch import shipdates, values
from tui.batch.fields import ORDER_FIELDS, ColumnMapping, DimUnit, WeightUnit
from tui.batch.model import Flags, Order, RowError
from tui.batch.source import Row, Sheet, header_key

if TYPE_CHECKING:
    from tui.api.models import RateRequest
    from tui.config.settings import Location

MAX_LINES: Final = 40
"""Lines of freight one rate request carries (the client's limit)."""
_TEXT_LIMIT: Final = 200
_FIELD_LABELS: Final = {
    "order": "Order", "ship_date": "Ship date", "origin_zip": "Origin ZIP",
    "dest_company": "Company", "dest_address": "Address", "dest_city": "City",
    "dest_state": "State", "dest_zip": "ZIP", "dest_country": "Country",
    "dest_location": "Location type", "contact": "Contact", "phone": "Phone", "email": "Email",
    "quantity": "Quantity", "package": "Package", "weight": "Weight", "weight_unit": "Weight unit",
    "length": "Length", "width": "Width", "height": "Height", "dims": "Dimensions",
    "dim_unit": "Size unit", "class": "Class", "nmfc": "NMFC", "description": "Description",
    "hazmat_un": "UN number", "hazard_class": "Hazard class", "packing_group": "Packing group",
    "liftgate": "Liftgate", "appointment": "Appointment", "inside": "Inside delivery",
    "po": "PO", "notes": "Notes",
}  # fmt: skip
_LOCATION_WORDS: Final = {
    "home": "residential", "residence": "residential", "house": "residential",
    "commercial dock": "business-dock", "dock": "business-dock", "loading dock": "business-dock",
    "no dock": "business-no-dock", "commercial no dock": "business-no-dock",
    "limited": "limited-access", "construction": "construction", "jobsite": "construction",
    "job site": "construction", "tradeshow": "trade-show",
}  # fmt: skip


_PACKAGE_WORDS: Final = {
    "palette": "pallet", "paletten": "pallet", "palettes": "pallet", "palet": "pallet",
    "paleta": "pallet", "paletas": "pallet", "tarima": "pallet", "plt": "pallet",
    "kiste": "crate", "kisten": "crate", "caisse": "crate", "caisses": "crate",
    "cajón": "crate", "cajon": "crate", "crt": "crate", "karton": "carton", "kartons": "carton",
    "caja": "box", "cajas": "box", "colis": "box", "ctn": "carton", "fass": "drum",
    "fässer": "drum", "fût": "drum", "fut": "drum", "tambor": "drum", "bidon": "drum",
    "drm": "drum", "sack": "bag", "säcke": "bag", "sac": "bag", "saco": "bag",
    "rolle": "roll", "rouleau": "roll", "rollo": "roll", "bündel": "bundle", "bund": "bundle",
    "fardo": "bale", "skd": "skid",
}  # fmt: skip
"""Handling-unit names of other languages and X12 codes, as order systems write them."""
_LIMITED_ACCESS: Final = frozenset(
    {
        "limited-access", "construction", "farm", "military", "airport", "place-of-worship",
        "school", "mine", "pier", "trade-show",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Context:
    """What the orders are read against: the day, and the profile's places and contacts."""

    today: date
    """Today (ship dates before it move on), where no ``today_at`` says it for an origin."""
    today_at: Callable[[str], date] | None = None
    """Today at an origin's ZIP (the pickup day is the dock's)."""
    profile: str = ""
    address_book: tuple[Location, ...] = ()
    default_origin: Location | None = None
    emergency_name: str = ""
    emergency_phone: str = ""
    zip_state: values.ZipState | None = None
    """The state of a ZIP, to restore one a spreadsheet stripped of its leading zero."""


@dataclass
class _Cells:
    """One row's cells by field name, with the header each came from."""

    row: Row
    sheet: Sheet
    mapping: ColumnMapping
    index: Mapping[str, int]

    def get(self, name: str) -> str:
        if name in self.mapping.constants:
            return self.mapping.constants[name]
        column = self.index.get(name)
        return self.row.cells[column] if column is not None else ""

    def column(self, name: str) -> str:
        """The header of the field's column (or the field's name when set as a constant)."""
        header = self.mapping.column_of(name)
        return header if header is not None else _FIELD_LABELS.get(name, name)


@dataclass
class _Build:
    """The order being read: its rows and what they said."""

    key: str
    rows: list[_Cells] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def error(self, cells: _Cells, name: str, value: str, reason: str) -> None:
        self.errors.append(RowError(cells.row.number, cells.column(name), value or None, reason))


def read_orders(sheet: Sheet, mapping: ColumnMapping, context: Context) -> list[Order]:
    """Every order of the sheet, in the order they first appear; invalid ones carry errors."""
    index = _column_index(sheet, mapping)
    groups: dict[str, _Build] = {}
    orphans: list[Order] = []
    previous: _Build | None = None
    has_order_column = "order" in index or "order" in mapping.constants
    for row in sheet.rows:
        cells = _Cells(row, sheet, mapping, index)
        key = values.strip_marks(cells.get("order")) if has_order_column else f"row {row.number}"
        if not key:
            if previous is None:
                orphans.append(
                    Order(
                        key=f"row {row.number}",
                        rows=(row.number,),
                        errors=(
                            RowError(
                                row.number,
                                cells.column("order"),
                                None,
                                "is blank, and no order above it to belong to",
                            ),
                        ),
                    )
                )
                continue
            build = previous
        else:
            build = groups.setdefault(key, _Build(key))
        build.rows.append(cells)
        previous = build
    day_first = shipdates.day_first(
        (row.cells[index["ship_date"]] for row in sheet.rows if "ship_date" in index),
        european=sheet.decimal_comma,
    )
    reader = _OrderReader(sheet, mapping, context, day_first)
    orders = [reader.order(build) for build in groups.values()]
    orders.extend(orphans)
    orders.sort(key=lambda order: order.rows[0])
    return orders


def _column_index(sheet: Sheet, mapping: ColumnMapping) -> dict[str, int]:
    index: dict[str, int] = {}
    for name, header in mapping.columns.items():
        if name in mapping.constants:
            continue
        column = sheet.column(header)
        if column is not None:
            index[name] = column
    return index


class _OrderReader:
    def __init__(
        self, sheet: Sheet, mapping: ColumnMapping, context: Context, day_first: bool
    ) -> None:
        self.sheet = sheet
        self.mapping = mapping
        self.context = context
        self.day_first = day_first
        self.comma = sheet.decimal_comma

    # -- the order's own fields -----------------------------------------------------------

    def order(self, build: _Build) -> Order:
        first = build.rows[0]
        fields = self._order_fields(build)
        origin = self._origin(build, first, fields.get("origin_zip", ""))
        lines = [self._line(build, cells) for cells in build.rows]
        if len(lines) > MAX_LINES:
            build.error(
                build.rows[MAX_LINES], "order", build.key, f"has more than {MAX_LINES} lines"
            )
        dest = self._destination(build, first, fields)
        wanted = self._ship_date(build, first, fields.get("ship_date", ""))
        today = self.context.today
        if origin is not None and self.context.today_at is not None:
            today = self.context.today_at(origin.postal_code)
        from tui.domain.pickup_dates import region_of

        region = region_of(origin.postal_code) if origin is not None else "US"
        pickup, moved = shipdates.pickup_day(wanted, today, region)
        if moved:
            build.notes.append(moved)
        hazardous = any(line is not None and line.get("hazardous") for line in lines)
        flags = self._flags(build, hazardous, dest["kind"] if dest else "")
        if hazardous and not (self.context.emergency_name and self.context.emergency_phone):
            cells = next(
                c
                for c, line in zip(build.rows, lines, strict=False)
                if line and line.get("hazardous")
            )
            build.error(
                cells,
                "hazmat_un",
                "",
                "hazardous freight needs a 24-hour emergency contact: set emergency_name and "
                f"emergency_phone in profile {self.context.profile or '(this one)'}",
            )
        rows = tuple(cells.row.number for cells in build.rows)
        common: dict[str, Any] = {
            "key": build.key,
            "rows": rows,
            "notes": tuple(build.notes),
            "pickup_date": pickup,
            "origin_label": origin.label or origin.company or origin.postal_code if origin else "",
            "po": fields.get("po", ""),
        }
        if build.errors or origin is None or dest is None or any(line is None for line in lines):
            return Order(errors=tuple(build.errors), **common)
        items = [line for line in lines if line is not None]
        request, problems = self._request(build, origin, dest, items, flags, pickup, fields)
        if request is None:
            return Order(errors=tuple(problems), **common)
        weight = sum((Decimal(item["quantity"]) * item["weight"] for item in items), Decimal(0))
        classes = sorted({item["freight_class"] for item in items}, key=Decimal)
        dest_text = " ".join(
            part
            for part in (dest.get("dest_city", ""), dest.get("dest_state", ""), dest["zip"])
            if part
        )
        return Order(
            request=request,
            dest_text=dest_text,
            pieces=sum(item["quantity"] for item in items),
            weight_lb=values.plain(weight),
            classes=" ".join(_class_text(c) for c in classes),
            flags=flags,
            **common,
        )

    def _order_fields(self, build: _Build) -> dict[str, str]:
        """Each order field from the first row; later rows fill nothing and must agree."""
        first = build.rows[0]
        out: dict[str, str] = {}
        for name in ORDER_FIELDS:
            if name in ("liftgate", "appointment", "inside"):
                continue
            out[name] = first.get(name).strip()
        return out

    def _consistent(self, build: _Build, name: str, read: Callable[[str], str]) -> None:
        """A later row that names another value for an order field than its first row."""
        first = build.rows[0]
        first_value = first.get(name).strip()
        try:
            expected = read(first_value) if first_value else ""
        except ValueError:
            return
        for cells in build.rows[1:]:
            value = cells.get(name).strip()
            if not value or value == first_value:
                continue
            try:
                found = read(value)
            except ValueError as exc:
                build.error(cells, name, value, str(exc))
                continue
            if found != expected and expected:
                build.error(
                    cells,
                    name,
                    value,
                    f"differs from the order's first row (row {first.row.number}: {first_value})",
                )

    def _origin(self, build: _Build, first: _Cells, text: str) -> Location | None:
        book = self.context.address_book
        if not text:
            for cells in build.rows[1:]:
                if cells.get("origin_zip").strip():
                    build.error(
                        first,
                        "origin_zip",
                        "",
                        "is blank on the order's first row (later rows name "
                        f"{cells.get('origin_zip').strip()})",
                    )
                    return None
            if self.context.default_origin is not None:
                return self.context.default_origin
            build.error(
                first,
                "origin_zip",
                "",
                f"is blank and profile {self.context.profile} has no default origin",
            )
            return None
        found = _find_place(book, text)
        if found is None:
            build.error(
                first,
                "origin_zip",
                text,
                f"is not in the address book of profile {self.context.profile}: add the "
                "warehouse there (or --set origin_zip=ZIP)",
            )
            return None

        def same(value: str) -> str:
            place = _find_place(book, value)
            if place is None:
                raise ValueError(f"is not in the address book of profile {self.context.profile}")
            return place.postal_code

        self._consistent(build, "origin_zip", same)
        return found

    def _destination(
        self, build: _Build, first: _Cells, fields: Mapping[str, str]
    ) -> dict[str, Any] | None:
        out: dict[str, Any] = {}
        ok = True
        country_text = fields.get("dest_country", "")
        try:
            country = _country(country_text)
        except ValueError as exc:
            build.error(first, "dest_country", country_text, str(exc))
            country, ok = "US", False
        self._consistent(build, "dest_country", _country)
        state = fields.get("dest_state", "").strip().upper()
        zip_text = fields.get("dest_zip", "")

        def read_zip(value: str, state: str = state) -> str:
            return values.parse_zip(value, state, self.context.zip_state, country)

        if not zip_text:
            later = next((c for c in build.rows[1:] if c.get("dest_zip").strip()), None)
            reason = "is blank on the order's first row" + (
                f" (row {later.row.number} has {later.get('dest_zip').strip()})" if later else ""
            )
            build.error(first, "dest_zip", "", reason)
            ok = False
        else:
            try:
                zip_code = read_zip(zip_text)
                written = values.strip_marks(zip_text)
                if written.isdigit() and written != zip_code[: len(written)]:
                    build.notes.append(f"ZIP {written} read as {zip_code} ({state})")
                out["zip"] = zip_code
            except ValueError as exc:
                build.error(first, "dest_zip", zip_text, str(exc))
                ok = False
        for cells in build.rows[1:]:
            row_state = cells.get("dest_state").strip().upper() or state
            value = cells.get("dest_zip").strip()
            if not value or value == zip_text:
                continue
            try:
                found = read_zip(value, row_state)
            except ValueError as exc:
                build.error(cells, "dest_zip", value, str(exc))
                continue
            if "zip" in out and found != out["zip"]:
                build.error(
                    cells,
                    "dest_zip",
                    value,
                    f"differs from the order's first row (row {first.row.number}: {zip_text})",
                )
        for name in ("dest_company", "dest_address", "dest_city", "dest_state"):
            self._consistent(build, name, lambda v: " ".join(v.split()).casefold())
        kind_text = fields.get("dest_location", "")
        try:
            kind = _location(kind_text)
        except ValueError as exc:
            build.error(first, "dest_location", kind_text, str(exc))
            ok = False
            kind = "business-dock"
        self._consistent(build, "dest_location", _location)
        if not ok or "zip" not in out:
            return None
        out.update(
            {
                "country": country,
                "kind": kind,
                "dest_company": fields.get("dest_company", ""),
                "dest_address": fields.get("dest_address", ""),
                "dest_city": fields.get("dest_city", ""),
                "dest_state": state,
            }
        )
        return out

    def _ship_date(self, build: _Build, first: _Cells, text: str) -> date | None:
        if not text:
            return None

        def read(value: str) -> str:
            return shipdates.parse_ship_date(value, day_first=self.day_first).isoformat()

        try:
            day = shipdates.parse_ship_date(text, day_first=self.day_first)
        except ValueError as exc:
            build.error(first, "ship_date", text, str(exc))
            return None
        self._consistent(build, "ship_date", read)
        return day

    def _flags(self, build: _Build, hazardous: bool, kind: str) -> Flags:
        found: dict[str, bool] = {
            "hazmat": hazardous,
            "residential": kind == "residential",
            "limited_access": kind in _LIMITED_ACCESS,
        }
        for name in ("liftgate", "appointment", "inside"):
            value = False
            for cells in build.rows:
                text = cells.get(name)
                try:
                    value = values.parse_flag(text) or value
                except ValueError as exc:
                    build.error(cells, name, text.strip(), str(exc))
            found[name] = value
        return Flags(**found)

    # -- lines ----------------------------------------------------------------------------

    def _line(self, build: _Build, cells: _Cells) -> dict[str, Any] | None:
        errors_before = len(build.errors)
        line: dict[str, Any] = {}
        try:
            line["quantity"] = values.parse_quantity(
                cells.get("quantity"), decimal_comma=self.comma
            )
        except ValueError as exc:
            build.error(cells, "quantity", cells.get("quantity").strip(), str(exc))
        package = values.strip_marks(cells.get("package"))
        if not package:
            build.error(
                cells,
                "package",
                "",
                "is blank: every line needs its handling unit (pallet, crate, box…); "
                "--set package=pallet if they all are",
            )
        else:
            from tui.domain.locations import parse_package

            line["package"] = _PACKAGE_WORDS.get(package.casefold(), None) or parse_package(package)
        weight = self._weight(build, cells)
        sizes = self._sizes(build, cells)
        if weight is not None and "quantity" in line:
            per_unit = weight
            if self.mapping.weight_per == "line":
                per_unit = weight / line["quantity"]
            line["weight"] = values.plain(per_unit)
        if sizes is not None:
            line["length"], line["width"], line["height"] = sizes
        self._class(build, cells, line)
        text = cells.get("nmfc").strip()
        if text:
            from tui.domain.hazmat import parse_nmfc

            try:
                line["nmfc"] = parse_nmfc(values.strip_marks(text))
            except ValueError as exc:
                build.error(cells, "nmfc", text, _reason(exc))
        description = " ".join(cells.get("description").split())
        if description:
            line["description"] = description[:_TEXT_LIMIT]
        self._hazmat(build, cells, line)
        if len(build.errors) > errors_before:
            return None
        return line

    def _weight(self, build: _Build, cells: _Cells) -> Decimal | None:
        text = cells.get("weight").strip()
        unit: WeightUnit = self.mapping.weight_unit
        unit_text = cells.get("weight_unit").strip() or build.rows[0].get("weight_unit").strip()
        if unit_text:
            try:
                unit = values.weight_unit(unit_text)
            except ValueError as exc:
                build.error(cells, "weight_unit", unit_text, str(exc))
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

    def _sizes(self, build: _Build, cells: _Cells) -> tuple[Decimal, Decimal, Decimal] | None:
        unit: DimUnit = self.mapping.dim_unit
        unit_text = cells.get("dim_unit").strip() or build.rows[0].get("dim_unit").strip()
        if unit_text:
            try:
                unit = values.dim_unit(unit_text)
            except ValueError as exc:
                build.error(cells, "dim_unit", unit_text, str(exc))
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

    def _class(self, build: _Build, cells: _Cells, line: dict[str, Any]) -> None:
        from tui.domain.freight_class import class_for_density, parse_freight_class

        text = cells.get("class").strip()
        if text:
            try:
                number = values.parse_number(text, decimal_comma=self.comma)
                line["freight_class"] = parse_freight_class(number)
            except ValueError:
                build.error(
                    cells, "class", text, "is not a freight class (50, 55 … 92.5, 100 … 500)"
                )
            return
        if all(k in line for k in ("weight", "length", "width", "height")):
            from tui.domain.density import density_pcf

            pcf = density_pcf(line["weight"], line["length"], line["width"], line["height"])
            line["freight_class"] = class_for_density(pcf)

    def _hazmat(self, build: _Build, cells: _Cells, line: dict[str, Any]) -> None:
        from tui.domain.hazmat import parse_hazard_class, parse_packing_group, parse_un_number

        un = values.strip_marks(cells.get("hazmat_un"))
        hazard_class = values.strip_marks(cells.get("hazard_class"))
        group = values.strip_marks(cells.get("packing_group"))
        if not (un or hazard_class or group):
            return
        if un.lower() in ("n", "no", "0", "false", "-"):
            return
        hazard: dict[str, str | None] = {}
        if not un:
            build.error(
                cells, "hazmat_un", "", "is blank, but the line has hazmat data: give its UN number"
            )
        else:
            try:
                hazard["hazmat_id"] = parse_un_number(un)
            except ValueError as exc:
                build.error(cells, "hazmat_un", un, _reason(exc))
        if not hazard_class:
            build.error(
                cells,
                "hazard_class",
                "",
                f"is blank: hazardous freight ({un or 'hazmat'}) needs its hazard class",
            )
        else:
            try:
                hazard["hazard_class"] = parse_hazard_class(hazard_class)
            except ValueError as exc:
                build.error(cells, "hazard_class", hazard_class, _reason(exc))
        try:
            hazard["packing_group"] = parse_packing_group(group)
        except ValueError as exc:
            build.error(cells, "packing_group", group, _reason(exc))
        line["hazardous"] = True
        line["hazard"] = hazard

    # -- the request ----------------------------------------------------------------------

    def _request(
        self,
        build: _Build,
        origin: Location,
        dest: Mapping[str, Any],
        items: Sequence[Mapping[str, Any]],
        flags: Flags,
        pickup: date,
        fields: Mapping[str, str],
    ) -> tuple[RateRequest | None, list[RowError]]:
        from tui.api.errors import RequestValidationError
        from tui.api.models import RateRequest
        from tui.domain.accessorials import Accessorial, parse_accessorial

        charges: list[str] = []
        for accessorial in origin.accessorials:
            found = parse_accessorial(accessorial)
            if found is not None and found.end == "pickup":
                charges.append(str(found))
        for wanted, accessorial in (
            (flags.liftgate, Accessorial.LIFTGATE_DELIVERY),
            (flags.appointment, Accessorial.DELIVERY_APPOINTMENT),
            (flags.inside, Accessorial.INSIDE_DELIVERY),
        ):
            if wanted:
                charges.append(str(accessorial))
        hazardous = any(item.get("hazardous") for item in items)
        body: dict[str, Any] = {
            "origin_postal_code": origin.postal_code,
            "origin_type": str(origin.location_type),
            "origin_company": origin.company or None,
            "origin_address": origin.address or None,
            "origin_address2": origin.address2 or None,
            "origin_city": origin.city or None,
            "origin_state": origin.state or None,
            "origin_country": origin.country or None,
            "origin_contact_name": origin.contact_name or None,
            "origin_contact_phone": origin.phone or None,
            "origin_contact_email": origin.email or None,
            "origin_dock_hours_open": origin.dock_open,
            "origin_dock_hours_close": origin.dock_close,
            "origin_reference_number": build.key[:_TEXT_LIMIT],
            "dest_postal_code": dest["zip"],
            "dest_type": dest["kind"],
            "dest_country": dest["country"],
            "dest_company": _text(dest["dest_company"]),
            "dest_address": _text(dest["dest_address"]),
            "dest_city": _text(dest["dest_city"]),
            "dest_state": _text(dest["dest_state"]),
            "dest_contact_name": _text(fields.get("contact", "")),
            "dest_contact_phone": _text(fields.get("phone", "")),
            "dest_contact_email": _text(fields.get("email", "")),
            "dest_reference_number": _text(values.strip_marks(fields.get("po", ""))),
            "dest_instructions": _text(fields.get("notes", "")),
            "items": [dict(item) for item in items],
            "pickup_date": pickup,
            "charges": charges or None,
        }
        if hazardous:
            body["emergency_name"] = self.context.emergency_name
            body["emergency_phone"] = self.context.emergency_phone
        try:
            return RateRequest.build(body), []
        except RequestValidationError as exc:
            return None, [
                _field_error(build, path, message) for path, message in exc.fields.items()
            ]


_WIRE_FIELDS: Final = {
    "destCompany": "dest_company", "destAddress": "dest_address", "destCity": "dest_city",
    "destState": "dest_state", "destPostalCode": "dest_zip", "destCountry": "dest_country",
    "destType": "dest_location", "destContactName": "contact", "destContactPhone": "phone",
    "destContactEmail": "email", "destReferenceNumber": "po", "destInstructions": "notes",
    "originPostalCode": "origin_zip", "pickupDate": "ship_date", "quantity": "quantity",
    "pieces": "quantity", "package": "package", "weight": "weight", "length": "length",
    "width": "width", "height": "height", "freightClass": "class", "nmfc": "nmfc",
    "description": "description", "hazmatId": "hazmat_un", "hazardClass": "hazard_class",
    "packingGroup": "packing_group",
}  # fmt: skip


def field_error(
    order_rows: Sequence[int], mapping: ColumnMapping, path: str, message: str
) -> RowError:
    """A field error of a request (ours or the service's) as the row and column it came from."""
    import re

    line = re.match(r"^items\[(\d+)\]\.?(.*)$", path)
    row = order_rows[0] if order_rows else None
    name = path
    if line:
        number = int(line[1])
        if number < len(order_rows):
            row = order_rows[number]
        name = line[2].split(".")[-1] if line[2] else "items"
    field_name = _WIRE_FIELDS.get(name)
    column: str | None
    if field_name is not None:
        column = mapping.column_of(field_name) or _FIELD_LABELS.get(field_name, field_name)
    else:
        column = path or None
    return RowError(row, column, None, message)


def _field_error(build: _Build, path: str, message: str) -> RowError:
    rows = [cells.row.number for cells in build.rows]
    mapping = build.rows[0].mapping
    return field_error(rows, mapping, path, message)


def _text(value: str) -> str | None:
    text = " ".join(value.split())
    return text[:_TEXT_LIMIT] or None


def _reason(error: ValueError) -> str:
    """A domain parser's message without its field-name prefix (``UN number: …``)."""
    text = str(error)
    head, sep, rest = text.partition(": ")
    return rest if sep and len(head) < 20 else text


def _class_text(value: Decimal) -> str:
    from tui.domain.freight_class import format_class

    return format_class(value)


def _country(text: str) -> str:
    value = values.strip_marks(text).upper().replace(".", "")
    if not value:
        return "US"
    if value in ("US", "USA", "UNITED STATES", "UNITED STATES OF AMERICA", "ETATS UNIS"):
        return "US"
    if value in ("CA", "CAN", "CANADA"):
        return "CA"
    raise ValueError("is not a country the service serves (US or CA)")


def _location(text: str) -> str:
    from tui.domain.locations import LocationType, parse_location_type

    value = " ".join(values.strip_marks(text).lower().replace("-", " ").split())
    if not value:
        return str(LocationType.BUSINESS_DOCK)
    if value in _LOCATION_WORDS:
        return _LOCATION_WORDS[value]
    try:
        return str(parse_location_type(value))
    except ValueError:
        known = ", ".join(t.words for t in LocationType)
        raise ValueError(f"is not a location type ({known})") from None


def _find_place(book: Sequence[Location], text: str) -> Location | None:
    """The address-book entry a file's origin names: by ZIP (leading zeros restored), else by
    label, company or city."""
    value = values.strip_marks(text)
    wanted = value.split("-")[0]
    if wanted.isdigit():
        wanted = wanted.rjust(5, "0")
        for place in book:
            if place.postal_code.split("-")[0] == wanted:
                return place
        return None
    key = header_key(value)
    for attribute in ("label", "company", "city"):
        for place in book:
            if header_key(getattr(place, attribute)) == key:
                return place
    return None


def zip_states() -> values.ZipState:
    """The state of a ZIP from the offline ZIP data (read on first use, which takes a second)."""

    def state(zip5: str) -> str | None:
        from tui.forms import zip_places

        zip_places.load()
        found = zip_places.place(zip5)
        return found.state if found is not None else None

    return state


def context_for(profile: Any, today: date, now: datetime | None = None) -> Context:
    """The context of a profile (``tui.config.settings.Profile``): its address book, default
    origin and emergency contact, and the offline ZIP data. With ``now``, each origin's today
    is the date at its ZIP then."""
    book = tuple(profile.address_book)
    origin = profile.default_origin
    if origin is not None and all(p.postal_code != origin.postal_code for p in book):
        book = (origin, *book)
    return Context(
        today=today,
        profile=profile.name,
        address_book=book,
        default_origin=origin,
        emergency_name=profile.emergency_name,
        emergency_phone=profile.emergency_phone,
        zip_state=zip_states(),
        today_at=_today_at(now) if now is not None else None,
    )


def _today_at(now: datetime) -> Callable[[str], date]:
    def today(zip_code: str) -> date:
        from tui.forms import zip_places

        zip_places.load()
        return zip_places.today_at(zip_code, now)

    return today
