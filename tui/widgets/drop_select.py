"""A drop-down whose list of options is mounted after the first frame that shows it."""

from __future__ import annotations

import asyncio
from typing import Generic

from textual.app import ComposeResult
from textual.css.query import NoMatches
from textual.widgets import Select
from textual.widgets._select import NoSelection, SelectCurrent, SelectOverlay, SelectType


class DropSelect(Select[SelectType], Generic[SelectType]):
    """A `Select` that shows its value at once and mounts its list of options (an option
    list, hidden until the drop-down opens) right after its first frame, or when
    `complete()` is awaited, whichever comes first.

    The hidden lists were a sixth of the widgets styled before the quote screen's first
    frame. Until the list is in, the drop-down shows and takes its value and does not open
    (a screen using it holds keys until it is complete: see `Host.hold_input`).
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        self._list: SelectOverlay | None = None
        self._list_in = asyncio.Event()  # before Select's own set-up, which runs the watchers
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def compose(self) -> ComposeResult:
        yield SelectCurrent(self.prompt)

    def on_mount(self) -> None:
        self.call_after_refresh(self.complete)

    @property
    def completed(self) -> bool:
        """True once the list of options is mounted (the drop-down can open)."""
        return self._list_in.is_set()

    async def complete(self) -> None:
        """Mount the list of options, once; return when it is in."""
        if self._list is not None:
            await self._list_in.wait()
            return
        overlay = SelectOverlay(type_to_search=self._type_to_search)
        overlay.compact = self.compact
        self._list = overlay
        await self.mount(overlay)
        self._list_in.set()
        super()._setup_options_renderables()
        for index, (_prompt, value) in enumerate(self._options):
            if value == self.value:
                overlay.highlighted = index
                break

    # Textual's Select reaches for its list on mount, on every value, prompt and open; until
    # the list is in, only what shows is updated.

    def _setup_options_renderables(self) -> None:
        if self.completed:
            super()._setup_options_renderables()

    def _watch_value(self, value: SelectType | NoSelection) -> None:
        if self.completed:
            super()._watch_value(value)
            return
        self._value = value
        try:
            current = self.query_one(SelectCurrent)
        except NoMatches:
            return
        if value == self.NULL:
            current.update(self.NULL)
        else:
            for prompt, option_value in self._options:
                if option_value == value:
                    current.update(prompt)
                    break
        self.post_message(self.Changed(self, value))

    def _watch_expanded(self, expanded: bool) -> None:
        if self.completed:
            super()._watch_expanded(expanded)
        elif expanded:
            self.set_reactive(Select.expanded, False)

    def _watch_prompt(self, prompt: str) -> None:
        if self.completed:
            super()._watch_prompt(prompt)
        elif self.is_mounted:
            self.query_one(SelectCurrent).placeholder = prompt

    def action_show_overlay(self) -> None:
        if self.completed:
            super().action_show_overlay()
