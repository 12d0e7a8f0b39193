"""The filters bar of the shipments list: status, mode, pickup dates and free text."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Select

from tui.api.models import ShipmentQuery
from tui.domain.shipments import MODES
from tui.domain.shipments import SHIPMENT_STATUSES as STATUSES
from tui.listing.dates import SHORTCUTS, matching_shortcut, parse_date, shortcut_range
from tui.widgets import WidgetMessage
from tui.widgets.plain import Label
from tui.widgets.steady_input import SteadyInput
from tui.widgets.typeahead import TypeaheadFocus


@dataclass(frozen=True)
class ShipmentFilters:
    """What the user asked to see; empty fields mean "any"."""

    text: str = ""
    status: str = ""
    mode: str = ""
    pickup_from: date | None = None
    pickup_to: date | None = None

    def to_query(self) -> ShipmentQuery:
        """The search to send (validated by the client's model)."""

        return ShipmentQuery(
            text=self.text or None,
            status=self.status or None,
            mode=self.mode or None,
            pickup_date_from=self.pickup_from,
            pickup_date_to=self.pickup_to,
        )

    def describe(self) -> str:
        """A short summary for titles and file names."""
        parts = [p for p in (self.status, self.mode) if p]
        if self.pickup_from or self.pickup_to:
            parts.append(f"pickup {self.pickup_from or '…'}–{self.pickup_to or '…'}")
        if self.text:
            parts.append(f'"{self.text}"')
        return " · ".join(parts)


class ShipmentFiltersBar(TypeaheadFocus):
    """Two compact lines of filters; posts `FiltersChanged` as each change is made (the
    screen keeps the searches in order: see `ShipmentsScreen`)."""

    HELP: ClassVar[str | None] = """\
## Filters

**Status** and **Mode** narrow the list at once. **Pickup** picks a range (today, this week,
this month, last 7 days) or type dates as `YYYY-MM-DD` in *from* and *to*. **Search** matches
PRO, tracking, BOL, reference, quote id, company, city and postal code; the list updates as
you type (the text is asked for at once; typed on while a search is on its way, the latest
text is asked for when it answers). Enter on a scanned number opens that shipment.
"""

    DEFAULT_CSS = """
    ShipmentFiltersBar {
        height: 2;
        width: 1fr;
        & Horizontal { height: 1; width: 1fr; }
        & Label { padding: 0 1 0 1; }
        & #status-filter { width: 14; }
        & #mode-filter { width: 12; }
        & #pickup-shortcut { width: 17; }
        & .date-input { width: 12; }
        & #search-input { width: 1fr; }
        & #filters-error { width: 1fr; color: $text-error; padding: 0 1; }
        & Input.-invalid { color: $text-error; }
    }
    """

    @dataclass
    class FiltersChanged(WidgetMessage["ShipmentFiltersBar"]):
        """The filters differ from the last ones posted."""

        filters: ShipmentFilters

    @dataclass
    class SearchSubmitted(WidgetMessage["ShipmentFiltersBar"]):
        """Enter was pressed in the search field."""

        text: str

    def __init__(self, today: Callable[[], date], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._today = today
        self._posted = ShipmentFilters()
        self._setting_shortcut = False

    def compose(self) -> ComposeResult:
        with Horizontal():
            for name, values, tooltip in (
                ("status", STATUSES, "Only shipments in this status"),
                ("mode", MODES, "Only LTL, parcel or truckload"),
            ):
                yield Label(name.title())
                yield Select(
                    [(value, value) for value in values],
                    prompt="any",
                    id=f"{name}-filter",
                    compact=True,
                    tooltip=tooltip,
                )
            yield Label("Search")
            yield SteadyInput(  # 1fr wide: a key lays nothing out
                placeholder="PRO, tracking, BOL, city… ( / )",
                id="search-input",
                classes="accepts-scans",  # tui.key_filter.SCAN_FIELD_CLASS: scans when empty
                compact=True,
                tooltip="Free text; a scanned number + Enter opens the shipment",
            )
        with Horizontal():
            yield Label("Pickup")
            yield Select(
                [(label, value) for value, label in SHORTCUTS],
                allow_blank=False,
                value="any",
                id="pickup-shortcut",
                compact=True,
                tooltip="A pickup date range",
            )
            for end, tooltip in (("from", "First pickup date"), ("to", "Last pickup date")):
                yield Label(end)
                yield Input(
                    placeholder="YYYY-MM-DD",
                    id=f"pickup-{end}",
                    classes="date-input",
                    compact=True,
                    max_length=10,
                    tooltip=f"{tooltip}, YYYY-MM-DD",
                )
            yield Label("", id="filters-error")

    # ---------------------------------------------------------------- reading

    @property
    def filters(self) -> ShipmentFilters:
        """The filters as typed now (invalid dates count as empty)."""
        status = self.query_one("#status-filter", Select).value
        mode = self.query_one("#mode-filter", Select).value
        return ShipmentFilters(
            text=self.query_one("#search-input", Input).value.strip(),
            status=status if isinstance(status, str) else "",
            mode=mode if isinstance(mode, str) else "",
            pickup_from=self._date_or_none("#pickup-from"),
            pickup_to=self._date_or_none("#pickup-to"),
        )

    @property
    def posted(self) -> ShipmentFilters:
        """The filters last announced with `FiltersChanged`."""
        return self._posted

    def _date_or_none(self, selector: str) -> date | None:
        try:
            return parse_date(self.query_one(selector, Input).value)
        except ValueError:
            return None

    def _date_errors(self) -> list[str]:
        errors = []
        values: dict[str, date | None] = {}
        for selector, name in (("#pickup-from", "from"), ("#pickup-to", "to")):
            field = self.query_one(selector, Input)
            try:
                values[name] = parse_date(field.value)
                field.remove_class("-invalid")
            except ValueError as error:
                values[name] = None
                field.add_class("-invalid")
                errors.append(f"{name}: {error}")
        start, end = values["from"], values["to"]
        if start and end and end < start:
            self.query_one("#pickup-to", Input).add_class("-invalid")
            errors.append("to: must not be before from")
        return errors

    # ---------------------------------------------------------------- writing

    def set_search(self, text: str) -> None:
        """Replace the free text and announce it at once."""
        self.query_one("#search-input", Input).value = text
        self.post_now()

    def focus_search(self) -> None:
        """Focus the search field now, so keys typed right after `/` land in it."""
        self.screen.set_focus(self.query_one("#search-input", Input))

    def type_in_search(self, text: str) -> None:
        """Type `text` into the search field, focusing it first when it is not."""
        search = self.query_one("#search-input", Input)
        if self.screen.focused is not search:
            self.focus_search()
        # After the field's own focus handling (which selects what it holds), in key order.
        search.call_later(search.insert_text_at_cursor, text)

    def post_now(self) -> None:
        """Announce the filters now (if valid and changed)."""
        errors = self._date_errors()
        said = self.query_one("#filters-error", Label)
        if str(said.content) != (error_text := "  ".join(errors)):
            said.update(error_text)  # (an update lays the screen out again: not at every key)
        if errors:
            return
        filters = self.filters
        if filters != self._posted:
            self._posted = filters
            self.post_message(self.FiltersChanged(self, filters))

    @on(Select.Changed, "#status-filter, #mode-filter")
    @on(Input.Changed, "#search-input")
    @on(Input.Submitted, ".date-input")
    def _field_changed(self, event: Select.Changed | Input.Changed | Input.Submitted) -> None:
        event.stop()
        self.post_now()

    @on(Select.Changed, "#pickup-shortcut")
    def _shortcut_changed(self, event: Select.Changed) -> None:
        event.stop()
        if self._setting_shortcut or not isinstance(event.value, str) or event.value == "custom":
            return
        start, end = shortcut_range(event.value, self._today())
        with self.prevent(Input.Changed):
            self.query_one("#pickup-from", Input).value = start.isoformat() if start else ""
            self.query_one("#pickup-to", Input).value = end.isoformat() if end else ""
        self.post_now()

    @on(Input.Changed, ".date-input")
    def _date_changed(self, event: Input.Changed) -> None:
        event.stop()
        shortcut = matching_shortcut(
            self._date_or_none("#pickup-from"), self._date_or_none("#pickup-to"), self._today()
        )
        select = self.query_one("#pickup-shortcut", Select)
        if select.value != shortcut:
            self._setting_shortcut = True
            with self.prevent(Select.Changed):
                select.value = shortcut
            self._setting_shortcut = False
        if len(event.value) in (0, 10):
            self.post_now()

    @on(Input.Blurred, ".date-input")
    def _date_left(self, event: Input.Blurred) -> None:
        self.post_now()

    @on(Input.Submitted, "#search-input")
    def _search_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_now()
        self.post_message(self.SearchSubmitted(self, event.value.strip()))
