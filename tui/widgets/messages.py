"""A message about one widget, for the widgets' own messages."""

from __future__ import annotations

from typing import Generic, TypeVar

from textual.message import Message
from textual.widget import Widget

W = TypeVar("W", bound=Widget)


class WidgetMessage(Message, Generic[W]):
    """A message about `widget`; `control` is it, so `@on(..., "#selector")` matches it."""

    def __init__(self, widget: W) -> None:
        self._widget = widget
        super().__init__()

    @property
    def control(self) -> W:
        """The widget the message is about."""
        return self._widget
