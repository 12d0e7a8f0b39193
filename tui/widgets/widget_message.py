"""A message about one widget, named as its `control` so `@on(Message, "#id")` finds it."""

from __future__ import annotations

from typing import Generic, TypeVar

from textual.message import Message
from textual.widget import Widget

AboutT = TypeVar("AboutT", bound=Widget)


class WidgetMessage(Message, Generic[AboutT]):
    """Posted by (or for) the widget `control`; subclasses add what else they carry."""

    def __init__(self, control: AboutT) -> None:
        super().__init__()
        self._control = control

    @property
    def control(self) -> AboutT:
        """The widget the message is about."""
        return self._control
