"""The Batch screen's tables: the virtual table with Enter named for what it does there, and
its End key kept out of the footer (at 80 columns the footer is for the screen's own keys)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from tui.batch.view import MappingLine, ReviewRow
from tui.widgets.virtual_table import VirtualTable

_LAST = Binding("end,G", "move('last')", "Last", show=False, id="table.last", key_display="G",
                tooltip="Last row")  # fmt: skip


class BatchOrdersTable(VirtualTable[ReviewRow]):
    """The orders of a batch: Enter opens the highlighted order (its problems and rates)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "select",
            "Order",
            id="table.select",
            tooltip="The order: what is wrong with it, its rates to choose another",
        ),
        _LAST,
    ]


class BatchColumnsTable(VirtualTable[MappingLine]):
    """The fields of a mapping: Enter changes where the highlighted field comes from."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "select",
            "Change",
            id="table.select",
            tooltip="Another column for the field, a value for every row, or none",
        ),
        _LAST,
    ]
