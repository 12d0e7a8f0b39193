"""A message about one widget, for the widgets' own messages."""

from __future__ import annotations

from typing import Generic, TypeVar

from textual.message import Message
from textual.widget import Widget

W = TypeVar("W", bound=Widget)


class WidgetMessage(Message, Generic[W]):
    """A message about `widget`; `control` is it, so `@on(..., "#selector")` matches it."""

    def __init__(self, widget: W) -> None:
        super().__init__()
        self._widget = widget

    @property
    def control(self) -> W:
        return self._widget
