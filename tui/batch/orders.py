"""Rows into orders: grouped by the order column, order fields filled from each order's first
row, every value read and checked. A wrong row is reported with its row number, column, value
and reason, and its whole order is set aside; the other orders go on."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Final, TypeVar, cast

from tui.batch import shipdates, values
from tui.batch.addresses import is_block, parse_block
from tui.batch.fields import ORDER_FIELDS, ColumnMapping
from tui.batch.lines import LineReader
from tui.batch.model import Flags, HazardLook, Order, RowError
from tui.batch.plausible import plausible_weights
from tui.batch.records import Cells, Destination, Line, OrderRows
from tui.batch.request import field_error, rate_request
from tui.batch.source import Row, Sheet, header_key
from tui.batch.words import hazard_word, tag_accessorials
from tui.domain.freight_class import format_class
from tui.domain.locations import LocationType, parse_location_type
from tui.domain.pickup_dates import region_of
from tui.domain.postal import canadian, same_postal_code
from tui.forms import zip_places

if TYPE_CHECKING:
    from tui.config.settings import Location, Profile

__all__ = ["MAX_LINES", "Context", "context_for", "field_error", "read_orders", "zip_states"]

_T = TypeVar("_T")

MAX_LINES: Final = 40
"""Lines of freight one rate request carries (the client's limit)."""
_LOCATION_WORDS: Final = {
    "home": "residential", "residence": "residential", "house": "residential",
    "commercial dock": "business-dock", "dock": "business-dock", "loading dock": "business-dock",
    "no dock": "business-no-dock", "commercial no dock": "business-no-dock",
    "limited": "limited-access", "construction": "construction", "jobsite": "construction",
    "job site": "construction", "tradeshow": "trade-show",
}  # fmt: skip

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
    not_hazardous: frozenset[str] = frozenset()
    """Orders the user says (this run) are not hazardous, though a line's words look it."""
    said_not_hazardous: Mapping[str, str] = field(default_factory=dict)
    """Orders the user said before were not hazardous: order -> the digest of the lines they
    said it of (``HazardLook.lines``); the word holds while those lines stay as they were."""


def read_orders(sheet: Sheet, mapping: ColumnMapping, context: Context) -> list[Order]:
    """Every order of the sheet, in the order they first appear; invalid ones carry errors."""
    index = _column_index(sheet, mapping)
    # Grouped as the file's own rows (a reference each); an order's cells are looked at only
    # while it is read, so a big file is not held a second time as cells.
    groups: dict[str, list[Row]] = {}
    orphans: list[Order] = []
    previous: list[Row] | None = None
    has_order_column = "order" in index or "order" in mapping.constants
    for row in sheet.rows:
        cells = Cells(row, sheet, mapping, index)
        key = values.strip_marks(cells.get("order")) if has_order_column else f"row {row.number}"
        if not key:
            if previous is None:
                orphans.append(
                    Order.of(
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
            rows = previous
        else:
            rows = groups.setdefault(key, [])
        rows.append(row)
        previous = rows
    day_first = shipdates.day_first(
        (row.cells[index["ship_date"]] for row in sheet.rows if "ship_date" in index),
        european=sheet.decimal_comma,
    )
    reader = _OrderReader(sheet, mapping, context, day_first)
    orders = [
        reader.order(_order_rows(key, rows, sheet, mapping, index)) for key, rows in groups.items()
    ]
    groups.clear()
    orders.extend(orphans)
    orders.sort(key=lambda order: order.rows[0])
    return orders


def _order_rows(
    key: str, rows: Sequence[Row], sheet: Sheet, mapping: ColumnMapping, index: Mapping[str, int]
) -> OrderRows:
    """The rows of one order as cells, a row that repeats another cell for cell an error."""
    build = OrderRows(key)
    for row in rows:
        cells = Cells(row, sheet, mapping, index)
        twin = next((c for c in build.rows if c.values == cells.values), None)
        if twin is not None:
            build.error(
                cells,
                "order",
                values.strip_marks(cells.get("order")),
                f"repeats row {twin.row.number} cell for cell (exported twice?): delete one, "
                "or write one row with the quantity of both",
            )
        build.rows.append(cells)
    return build


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
        self._seen: dict[object, object] = {}

    def _once(self, value: _T) -> _T:
        """``value``, or the equal one an earlier order holds (destinations, dates, classes
        and flags repeat across a file: each is kept once)."""
        kept = self._seen.setdefault((type(value), value), value)
        return cast(_T, kept)

    # -- the order's own fields -----------------------------------------------------------

    def order(self, build: OrderRows) -> Order:
        first = build.rows[0]
        fields = self._order_fields(build)
        origin = self._origin(build, first, fields.get("origin_zip", ""))
        line_reader = LineReader(self.mapping, decimal_comma=self.comma)
        line_cells = [item for cells in build.rows for item in line_reader.items(build, cells)]
        lines: list[Line | None] = [line_reader.line(build, cells) for cells in line_cells]
        if len(lines) > MAX_LINES:
            build.error(
                line_cells[MAX_LINES], "order", build.key, f"has more than {MAX_LINES} lines"
            )
        tagged = self._tags(build)
        dest = self._destination(build, first, fields, tagged)
        wanted = self._ship_date(build, first, fields.get("ship_date", ""))
        today = self.context.today
        if origin is not None and self.context.today_at is not None:
            today = self.context.today_at(origin.postal_code)

        region = region_of(origin.postal_code) if origin is not None else "US"
        pickup, moved = shipdates.pickup_day(wanted, today, region)
        if moved:
            build.notes.append(moved)
        closure = shipdates.closure_note(pickup, region)
        if closure:
            build.notes.append(closure)
        looks = self._hazard_hints(build, line_cells)
        hazardous = any(line is not None and line.hazardous for line in lines)
        plausible_weights(build, line_cells, lines, lambda c: line_reader.unit_of(build, c))
        flags = self._flags(build, hazardous, dest.kind if dest else "", tagged)
        if hazardous and not (self.context.emergency_name and self.context.emergency_phone):
            cells = next(
                c
                for c, line in zip(line_cells, lines, strict=True)
                if line is not None and line.hazardous
            )
            build.error(
                cells,
                "hazmat_un",
                "",
                "hazardous freight needs a 24-hour emergency contact: set emergency_name and "
                f"emergency_phone in profile {self.context.profile or '(this one)'}",
            )
        rows = tuple(cells.row.number for cells in build.rows)
        origin_label = origin.label or origin.company or origin.postal_code if origin else ""
        po = fields.get("po", "")
        items = [line for line in lines if line is not None]
        if build.errors or origin is None or dest is None or len(items) < len(lines):
            errors = tuple(build.errors)
            request = None
        else:
            emergency = (self.context.emergency_name, self.context.emergency_phone)
            request, problems = rate_request(
                build, origin, dest, items, flags, pickup, fields, emergency
            )
            errors = tuple(problems)
        if request is None or dest is None:
            return Order.of(
                key=build.key,
                rows=rows,
                errors=errors,
                notes=tuple(build.notes),
                pickup_date=self._once(pickup),
                origin_label=origin_label,
                po=po,
                looks_hazardous=looks,
            )
        weight = sum((Decimal(item.quantity) * item.weight for item in items), Decimal(0))
        classes = sorted({item.freight_class for item in items}, key=Decimal)
        return Order.of(
            key=build.key,
            rows=rows,
            notes=tuple(build.notes) if build.notes else (),
            request=request,
            pickup_date=self._once(pickup),
            origin_label=origin_label,
            dest_text=self._once(dest.text),
            pieces=sum(item.quantity for item in items),
            weight_lb=self._once(values.plain(weight)),  # (plain: one spelling a value)
            classes=self._once(" ".join(_class_text(c) for c in classes)),
            flags=self._once(flags),
            po=po,
            looks_hazardous=looks,
        )

    def _hazard_hints(self, build: OrderRows, line_cells: Sequence[Cells]) -> HazardLook | None:
        """Lines whose description looks hazardous but gives no UN number set their order
        aside, unless the user said the order is not hazardous (``--not-hazardous``, or the
        Batch screen's ``h``; said before of the same lines): then a note says so."""
        found: list[tuple[Cells, str, str]] = []
        for cells in line_cells:
            description = " ".join(cells.get("description").split())
            word = hazard_word(description)
            if word is not None and not values.strip_marks(cells.get("hazmat_un")):
                found.append((cells, description, word))
        if not found:
            return None
        words = ", ".join(dict.fromkeys(w for _, _, word in found for w in word.split(", ")))
        lines = hazard_lines([description for _, description, _ in found])
        looks = HazardLook(words, lines, tuple(cells.row.number for cells, _, _ in found))
        context = self.context
        said = build.key in context.not_hazardous
        said = said or context.said_not_hazardous.get(build.key) == looks.lines
        for cells, description, word in found:
            if said:
                build.note(
                    f"row {cells.row.number}: {description[:50]!r} looks hazardous ({word}); "
                    "booked as not hazardous, as you said"
                )
                continue
            build.error(
                cells,
                "description",
                description[:50],
                f"looks hazardous ({word}) but has no UN number: give hazmat_un, hazard_class "
                "and packing_group (and a proper shipping name as the description), or say it "
                f"is not hazardous (--not-hazardous {build.key}, or h on the Batch screen)",
            )
        return looks

    def _tags(self, build: OrderRows) -> list[str]:
        """The accessorials the order's tags ask for (a note says which were applied)."""
        found: list[str] = []
        for cells in build.rows:
            for name in tag_accessorials(cells.get("tags")):
                if name not in found:
                    found.append(name)
        if found:
            build.note("from the tags: " + ", ".join(found))
        return found

    def _order_fields(self, build: OrderRows) -> dict[str, str]:
        """Each order field from the first row; later rows fill nothing and must agree."""
        first = build.rows[0]
        out: dict[str, str] = {}
        for name in ORDER_FIELDS:
            if name in ("liftgate", "appointment", "inside"):
                continue
            out[name] = first.get(name).strip()
        block = out.get("dest_address", "")
        if is_block(block):
            try:
                parts = parse_block(block)
            except ValueError as exc:
                build.error(first, "dest_address", block.replace("\n", " / ")[:80], str(exc))
                return out
            for name, value in parts.fields().items():
                if name == "dest_address" or not out.get(name):
                    out[name] = value
        return out

    def _consistent(self, build: OrderRows, name: str, read: Callable[[str], str]) -> None:
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

    def _origin(self, build: OrderRows, first: Cells, text: str) -> Location | None:
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
        self, build: OrderRows, first: Cells, fields: Mapping[str, str], tagged: Sequence[str]
    ) -> Destination | None:
        zip_code: str | None = None
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
                read = read_zip(zip_text)
                written = values.strip_marks(zip_text)
                if written.isdigit() and written != read[: len(written)]:
                    build.notes.append(f"ZIP {written} read as {read} ({state})")
                zip_code = read
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
            if zip_code is not None and found != zip_code:
                build.error(
                    cells,
                    "dest_zip",
                    value,
                    f"differs from the order's first row (row {first.row.number}: {zip_text})",
                )
        for name in ("dest_company", "dest_address", "dest_city", "dest_state"):
            self._consistent(build, name, lambda v: " ".join(v.split()).casefold())
        kind_text = fields.get("dest_location", "")
        if not kind_text.strip():
            kinds = [t for t in tagged if t in ("residential", "limited-access")]
            kind_text = kinds[0] if kinds else ""
        try:
            kind = _location(kind_text)
        except ValueError as exc:
            build.error(first, "dest_location", kind_text, str(exc))
            ok = False
            kind = "business-dock"
        self._consistent(build, "dest_location", _location)
        if not ok or zip_code is None:
            return None
        return Destination(
            zip=zip_code,
            country=country,
            kind=kind,
            company=fields.get("dest_company", ""),
            address=fields.get("dest_address", ""),
            city=fields.get("dest_city", ""),
            state=state,
        )

    def _ship_date(self, build: OrderRows, first: Cells, text: str) -> date | None:
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

    def _flags(self, build: OrderRows, hazardous: bool, kind: str, tagged: Sequence[str]) -> Flags:
        found: dict[str, bool] = {
            "hazmat": hazardous,
            "residential": kind == "residential",
            "limited_access": kind in _LIMITED_ACCESS,
        }
        for name in ("liftgate", "appointment", "inside"):
            value = name in tagged
            for cells in build.rows:
                text = cells.get(name)
                try:
                    value = values.parse_flag(text) or value
                except ValueError as exc:
                    build.error(cells, name, text.strip(), str(exc))
            found[name] = value
        return Flags(**found)


def hazard_lines(descriptions: Sequence[str]) -> str:
    """A digest of the descriptions of an order's lines that look hazardous, in file order
    (spacing and case aside): what the user's word that it is not hazardous was given for."""
    text = "\n".join(" ".join(d.split()).casefold() for d in descriptions)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _class_text(value: Decimal) -> str:

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
    """The address-book entry a file's origin names: by ZIP (leading zeros restored) or
    Canadian postal code (any case or spacing), else by label, company or city."""

    value = values.strip_marks(text)
    wanted = value.split("-")[0]
    if wanted.isdigit():
        wanted = wanted.rjust(5, "0")
        for place in book:
            if place.postal_code.split("-")[0] == wanted:
                return place
        return None
    postal = canadian(value)
    if postal is not None:
        for place in book:
            if same_postal_code(place.postal_code, postal):
                return place
    key = header_key(value)
    for attribute in ("label", "company", "city"):
        for place in book:
            if header_key(getattr(place, attribute)) == key:
                return place
    return None


def zip_states() -> values.ZipState:
    """The state of a ZIP from the offline ZIP data (read on first use, which takes a second)."""

    def state(zip5: str) -> str | None:

        zip_places.load()
        found = zip_places.place(zip5)
        return found.state if found is not None else None

    return state


def context_for(
    profile: Profile,
    today: date,
    now: datetime | None = None,
    book: Sequence[Location] | None = None,
) -> Context:
    """The context of a profile (``tui.config.settings.Profile``): its address book (``book``,
    as the store holds it; else the profile's own), default origin and emergency contact, and
    the offline ZIP data. With ``now``, each origin's today is the date at its ZIP then."""
    book = tuple(profile.address_book if book is None else book)
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

        zip_places.load()
        return zip_places.today_at(zip_code, now)

    return today
