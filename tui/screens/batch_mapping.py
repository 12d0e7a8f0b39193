"""The mapping review: which column fills each field, with the first row's value beside it;
a field is changed to another column, a value for every row, or nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input
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
from tui.batch.mappings import name_problem
from tui.batch.view import MappingLine, mapping_lines, unmapped_headers
from tui.domain.safe_text import plain
from tui.listing.table_column import Column
from tui.screens.modal import FreightModal
from tui.widgets.batch_tables import BatchColumnsTable
from tui.widgets.footer import FreightFooter
from tui.widgets.plain import OptionList, Static
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

    TITLE = "Column mapping"

    HELP: ClassVar[str | None] = """\
## Columns

Each field and the column it is read from, with the value of the file's first row; the
line above says how many orders read right with it and the first problem.
**Enter** changes the highlighted field: another column, a value for every row, or none.
`w` weights per unit or per line, `u` pounds or kilograms, `d` inches or centimetres.
`n` names the mapping. **ctrl+s** uses it and keeps it: it is saved for this profile under
its name and used again, without this review, for files with the same headers. `o` uses it
for this file only (nothing is saved: the next file is guessed afresh). **Esc** cancels.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "use", "Use & keep", id="mapping.use",
                tooltip="Use this mapping and keep it for files with these headers"),
        Binding("o", "use_once", "Use once", id="mapping.use_once",
                tooltip="Use this mapping for this file only (not saved)"),
        Binding("escape", "cancel", "Cancel", id="mapping.cancel", tooltip="Leave it as it was"),
        Binding("w", "weight_per", "Per unit/line", id="mapping.weight_per",
                tooltip="Weights are per handling unit or the line's total"),
        Binding("u", "weight_unit", "lb/kg", id="mapping.weight_unit",
                tooltip="Weights in pounds or kilograms"),
        Binding("d", "dim_unit", "in/cm", id="mapping.dim_unit",
                tooltip="Sizes in inches or centimetres"),
        Binding("n", "name", "Name", show=False, id="mapping.name",
                tooltip="Name the mapping (saved under it)"),
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
    BatchMappingScreen #mapping-preview {
        height: 1;
        padding: 0 1;
        color: $text-muted;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    BatchMappingScreen #mapping-preview.-problem { color: $text-warning; }
    BatchMappingScreen #mapping-name { display: none; }
    BatchMappingScreen #mapping-name.-open { display: block; }
    BatchMappingScreen #mapping-units { height: 1; color: $text-muted; padding: 0 1; }
    BatchMappingScreen #mapping-choice { display: none; height: auto; max-height: 12; }
    BatchMappingScreen #mapping-choice.-open { display: block; }
    BatchMappingScreen #mapping-value { display: none; }
    BatchMappingScreen #mapping-value.-open { display: block; }
    """

    def __init__(
        self,
        mapping: ColumnMapping,
        sheet: Sheet,
        preview: Callable[[ColumnMapping], tuple[str, bool]] | None = None,
    ) -> None:
        """``preview``: what the orders read with a mapping look like (run in a thread)."""
        super().__init__()
        self.mapping = mapping
        self.sheet = sheet
        self.preview = preview
        self._editing: str | None = None
        self._previewed: ColumnMapping | None = None
        self.keep = True
        """Whether the mapping used is to be saved (ctrl+s) or is for this file only (o)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="mapping-box"):
            yield Static("", id="mapping-preview", markup=False)
            yield BatchColumnsTable(_columns(), lambda m: m.field, id="mapping-table")
            yield Static("", id="mapping-units", markup=False)  # file headers
            yield OptionList(id="mapping-choice")
            yield Input(id="mapping-value", compact=True, placeholder="the value of every row")
            yield Input(id="mapping-name", compact=True, placeholder="the mapping's name")
            yield FreightFooter(compact=True)

    @property
    def table(self) -> VirtualTable[MappingLine]:
        return cast("VirtualTable[MappingLine]", self.query_one("#mapping-table", VirtualTable))

    def on_mount(self) -> None:
        self._refresh()
        self.table.focus()

    def _refresh(self) -> None:
        name = "pasted rows" if self.sheet.kind == "text" else Path(self.sheet.source).name
        title = f"Columns of {plain(name, limit=40)}"
        if self.mapping.name:
            title += f" · saved as “{plain(self.mapping.name, limit=30)}” (n)"
        self.query_one("#mapping-box").border_title = Content(title)  # file text: never markup
        self._preview()
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
            options.append(Option(Content(label), id=f"column:{header}"))  # never markup
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

    def _preview(self) -> None:
        """Read the orders with the mapping as it is now, in a thread; say how they read."""
        if self.preview is None or self._previewed == self.mapping:
            return
        mapping = self._previewed = self.mapping
        preview = self.preview

        async def read() -> None:

            text, problem = await asyncio.to_thread(preview, mapping)
            if mapping == self.mapping:  # not one changed since
                line = self.query_one("#mapping-preview", Static)
                line.update(text)
                line.set_class(problem, "-problem")

        self.query_one("#mapping-preview", Static).update("reading the orders…")
        self.run_worker(read(), group="mapping-preview", exclusive=True, exit_on_error=False)

    def action_name(self) -> None:
        """Type the name the mapping is saved under."""
        field = self.query_one("#mapping-name", Input)
        field.value = self.mapping.name
        field.add_class("-open")
        field.focus()

    @on(Input.Submitted, "#mapping-name")
    def _named(self, message: Input.Submitted) -> None:

        name = message.value.strip()
        if problem := name_problem(name):
            self.notify(problem, severity="warning", timeout=6)
            return
        message.input.remove_class("-open")
        self.mapping = replace(self.mapping, name=name)
        self._refresh()
        self.table.focus()

    def action_use(self) -> None:
        self.keep = True
        self.dismiss(self.mapping)

    def action_use_once(self) -> None:
        """Use the mapping for this file only: nothing is saved."""
        self.keep = False
        self.dismiss(self.mapping)

    def action_cancel(self) -> None:
        choice = self.query_one("#mapping-choice", OptionList)
        value = self.query_one("#mapping-value", Input)
        name = self.query_one("#mapping-name", Input)
        if any(part.has_class("-open") for part in (choice, value, name)):
            for part in (choice, value, name):
                part.remove_class("-open")
            self._editing = None
            self.table.focus()
            return
        self.dismiss(None)
