"""Reusable widgets of the Freight UI, one per module; here, the message about one widget
that the widgets' own messages are made from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from textual.message import Message
from textual.widget import Widget

W = TypeVar("W", bound=Widget)


@dataclass
class WidgetMessage(Message, Generic[W]):
    """A message about `widget`; `control` is it, so `@on(..., "#selector")` matches it.

    A subclass is a dataclass too when it carries more (its fields follow `widget`)."""

    widget: W

    @property
    def control(self) -> W:
        return self.widget
