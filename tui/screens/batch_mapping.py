"""The mapping review: which column fills each field, with the first row's value beside it;
a field is changed to another column, a value for every row, or nothing."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from tui.batch.fields import (
    SPECS,
    ColumnMapping,
    DimUnit,
    MappingError,
    WeightPer,
    WeightUnit,
    with_overrides,
)
from tui.batch.view import MappingLine, mapping_lines, unmapped_headers
from tui.domain.safe_text import plain
from tui.listing.table_column import Column
from tui.screens.modal import FreightModal
from tui.widgets.footer import FreightFooter
from tui.widgets.virtual_table import VirtualTable

if TYPE_CHECKING:
    from tui.batch.source import Sheet

_NONE = "\x00none"
_VALUE = "\x00value"


def _columns() -> list[Column[MappingLine]]:
    return [
        Column("field", "Field", lambda m: m.field, width=15),
        Column("source", "Column", lambda m: m.source, min_width=10, max_width=30, flex=True),
        Column("sample", "First row", lambda m: m.sample, min_width=8, max_width=30, flex=True),
    ]


class BatchMappingScreen(FreightModal[ColumnMapping | None]):
    """Review and change a file's mapping; ctrl+s uses it, Esc leaves it as it was."""

    HELP: ClassVar[str | None] = """\
## Columns

Each field and the column it is read from, with the value of the file's first row.
**Enter** changes the highlighted field: another column, a value for every row, or none.
`w` weights per unit or per line, `u` pounds or kilograms, `d` inches or centimetres.
**ctrl+s** uses the mapping (it is saved for files with these headers); **Esc** cancels.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "use", "Use it", id="mapping.use", tooltip="Use this mapping"),
        Binding("escape", "cancel", "Cancel", id="mapping.cancel", tooltip="Leave it as it was"),
        Binding("w", "weight_per", "Per unit/line", id="mapping.weight_per",
                tooltip="Weights are per handling unit or the line's total"),
        Binding("u", "weight_unit", "lb/kg", id="mapping.weight_unit",
                tooltip="Weights in pounds or kilograms"),
        Binding("d", "dim_unit", "in/cm", id="mapping.dim_unit",
                tooltip="Sizes in inches or centimetres"),
    ]  # fmt: skip

    DEFAULT_CSS = """
    BatchMappingScreen > Vertical {
        width: 78;
        max-width: 100%;
        height: 22;
        max-height: 100%;
        border: round $primary;
        border-title-color: $text;
    }
    BatchMappingScreen #mapping-table { height: 1fr; }
    BatchMappingScreen #mapping-units { height: 1; color: $text-muted; padding: 0 1; }
    BatchMappingScreen #mapping-choice { display: none; height: auto; max-height: 12; }
    BatchMappingScreen #mapping-choice.-open { display: block; }
    BatchMappingScreen #mapping-value { display: none; }
    BatchMappingScreen #mapping-value.-open { display: block; }
    """

    def __init__(self, mapping: ColumnMapping, sheet: Sheet) -> None:
        super().__init__()
        self.mapping = mapping
        self.sheet = sheet
        self._editing: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            name = "pasted rows" if self.sheet.kind == "text" else Path(self.sheet.source).name
            box.border_title = f"Columns of {plain(name, limit=50)}"
            yield VirtualTable[MappingLine](_columns(), lambda m: m.field, id="mapping-table")
            yield Static("", id="mapping-units")
            yield OptionList(id="mapping-choice")
            yield Input(id="mapping-value", compact=True, placeholder="the value of every row")
            yield FreightFooter(compact=True)

    @property
    def table(self) -> VirtualTable[MappingLine]:
        return cast("VirtualTable[MappingLine]", self.query_one("#mapping-table", VirtualTable))

    def on_mount(self) -> None:
        self._refresh()
        self.table.focus()

    def _refresh(self) -> None:
        self.table.append_rows(mapping_lines(self.mapping, self.sheet))
        left = unmapped_headers(self.mapping, self.sheet)
        unused = f" · not read: {', '.join(plain(h, limit=20) for h in left)}" if left else ""
        self.query_one("#mapping-units", Static).update(f"{self.mapping.units_text()}{unused}")

    @on(VirtualTable.RowSelected, "#mapping-table")
    def _field_chosen(self, message: VirtualTable.RowSelected) -> None:
        line = cast("MappingLine", message.row)
        self._editing = line.field
        choice = self.query_one("#mapping-choice", OptionList)
        choice.clear_options()
        first = self.sheet.rows[0].cells if self.sheet.rows else ()
        options: list[Option] = [Option(f"(none: {line.field} is not in the file)", id=_NONE)]
        for index, header in enumerate(self.sheet.headers):
            sample = plain(first[index], limit=24) if index < len(first) else ""
            label = f"{plain(header, limit=30)}  ({sample})" if sample else plain(header, limit=30)
            options.append(Option(label, id=f"column:{header}"))
        options.append(Option("a value for every row…", id=_VALUE))
        choice.add_options(options)
        choice.add_class("-open")
        choice.border_title = f"{line.field}: {SPECS[line.field].help}"
        choice.highlighted = 0
        choice.focus()

    @on(OptionList.OptionSelected, "#mapping-choice")
    def _column_chosen(self, message: OptionList.OptionSelected) -> None:
        field = self._editing
        choice = self.query_one("#mapping-choice", OptionList)
        choice.remove_class("-open")
        if field is None:
            return
        option = message.option.id or ""
        if option == _VALUE:
            value = self.query_one("#mapping-value", Input)
            value.value = self.mapping.constants.get(field, "")
            value.add_class("-open")
            value.focus()
            return
        header = "" if option == _NONE else option.removeprefix("column:")
        self._change(field, columns={field: header})

    @on(Input.Submitted, "#mapping-value")
    def _value_given(self, message: Input.Submitted) -> None:
        message.input.remove_class("-open")
        if self._editing is not None:
            self._change(self._editing, constants={self._editing: message.value.strip()})

    def _change(
        self,
        field: str,
        *,
        columns: dict[str, str] | None = None,
        constants: dict[str, str] | None = None,
    ) -> None:
        try:
            self.mapping = with_overrides(
                self.mapping, self.sheet.headers, columns=columns, constants=constants
            )
        except MappingError as error:
            self.notify(str(error), severity="warning", timeout=6)
        self._editing = None
        self._refresh()
        self.table.move_cursor_to_key(field)
        self.table.focus()

    def action_weight_per(self) -> None:
        per: WeightPer = "unit" if self.mapping.weight_per == "line" else "line"
        self.mapping = replace(self.mapping, weight_per=per)
        self._refresh()

    def action_weight_unit(self) -> None:
        unit: WeightUnit = "kg" if self.mapping.weight_unit == "lb" else "lb"
        self.mapping = replace(self.mapping, weight_unit=unit)
        self._refresh()

    def action_dim_unit(self) -> None:
        units: dict[str, DimUnit] = {"in": "cm", "cm": "mm", "mm": "in"}
        self.mapping = replace(self.mapping, dim_unit=units[self.mapping.dim_unit])
        self._refresh()

    def action_use(self) -> None:
        self.dismiss(self.mapping)

    def action_cancel(self) -> None:
        choice = self.query_one("#mapping-choice", OptionList)
        value = self.query_one("#mapping-value", Input)
        if choice.has_class("-open") or value.has_class("-open"):
            choice.remove_class("-open")
            value.remove_class("-open")
            self._editing = None
            self.table.focus()
            return
        self.dismiss(None)
