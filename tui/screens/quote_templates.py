"""Insert a saved item template into the quote, or save the current row as one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input
from textual.widgets.option_list import Option

from tui.domain.safe_text import plain
from tui.forms.templates import template_line
from tui.screens.modal import FreightModal
from tui.widgets.plain import OptionList, Static

if TYPE_CHECKING:
    from tui.config.settings import ItemTemplate

SAVE_OPTION = "save"


@dataclass(frozen=True, slots=True)
class TemplateChoice:
    """Either insert template number `index`, or save the current row under `name`."""

    index: int | None = None
    name: str | None = None


class TemplatesScreen(FreightModal[TemplateChoice | None]):
    """The saved templates, and a last entry to save the current row (when it is complete)."""

    TITLE = "Templates"

    DEFAULT_CSS = """
    TemplatesScreen > Vertical {
        width: 90%;
        max-width: 90;
        height: auto;
        max-height: 80%;
        border: round $accent;
    }
    TemplatesScreen Static {
        padding: 0 1;
        color: $text-muted;
    }
    TemplatesScreen OptionList, TemplatesScreen OptionList:focus {
        height: auto;
        max-height: 16;
        border: none;
    }
    TemplatesScreen Input {
        display: none;
        margin: 0 1;
    }
    TemplatesScreen Input.-shown {
        display: block;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_none", "Cancel", id="templates.cancel", tooltip="Close"),
    ]

    def __init__(
        self, templates: Sequence[ItemTemplate], save_row: int | None, suggested_name: str = ""
    ) -> None:
        super().__init__()
        self.templates = list(templates)
        self.save_row = save_row
        self.suggested_name = suggested_name

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Item templates"
            hint = "enter: insert below the current row · esc cancel"
            if not self.templates:
                hint = "No templates yet. " + hint
            yield Static(hint, id="templates-hint")
            options = [
                Option(Text(plain(template_line(t))), id=str(i))
                for i, t in enumerate(self.templates)
            ]
            if self.save_row is not None:
                options.append(
                    Option(f"+ Save row {self.save_row + 1} as a template…", id=SAVE_OPTION)
                )
            yield OptionList(*options)
            yield Input(self.suggested_name, placeholder="template name", id="template-name")

    def action_dismiss_none(self) -> None:
        self.dismiss(None)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id == SAVE_OPTION:
            name_input = self.query_one("#template-name", Input)
            name_input.add_class("-shown")
            self.query_one("#templates-hint", Static).update(
                "name the template, enter saves (same name replaces it) · esc cancel"
            )
            name_input.focus()
            return
        self.dismiss(TemplateChoice(index=event.option_index))

    @on(Input.Submitted, "#template-name")
    def _named(self, event: Input.Submitted) -> None:
        event.stop()
        name = event.value.strip()
        if not name:
            self.query_one("#templates-hint", Static).update("a template needs a name")
            return
        self.dismiss(TemplateChoice(name=name))
