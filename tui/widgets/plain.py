"""Static and Label that show their text as it is: markup only when the code asks for it.

Server, file and user text (a PRO, a column header, an error) often has square brackets in
it: read as markup, `[/]` ends the app with a MarkupError and `[@click=app.quit]x` is a link
that quits it. So the project's text widgets parse nothing unless built with
``markup=True`` — and then their text is a literal of the code, never data
(tests/test_plain_by_default.py keeps it so). Styled text is a `Text` or `Content`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import widgets

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.visual import VisualType
    from textual.widgets.option_list import Option

__all__ = ["Label", "OptionList", "Static", "show_status"]


class Static(widgets.Static):
    """A `textual.widgets.Static` whose strings are plain text unless ``markup=True``
    (the other arguments are `textual.widgets.Static`'s)."""

    def __init__(self, content: VisualType = "", *, markup: bool = False, **kwargs: Any) -> None:
        super().__init__(content, markup=markup, **kwargs)


class Label(widgets.Label):
    """A `textual.widgets.Label` whose strings are plain text unless ``markup=True``
    (the other arguments, `variant` among them, are `textual.widgets.Label`'s)."""

    def __init__(self, content: VisualType = "", *, markup: bool = False, **kwargs: Any) -> None:
        super().__init__(content, markup=markup, **kwargs)


class OptionList(widgets.OptionList):
    """A `textual.widgets.OptionList` whose string prompts are plain text unless
    ``markup=True`` (prompts are often names: addresses, templates, columns)."""

    def __init__(
        self, *content: Option | VisualType | None, markup: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*content, markup=markup, **kwargs)


def show_status(node: DOMNode, selector: str, content: VisualType, *, error: bool = False) -> None:
    """Put ``content`` in the status line (a Static or Label) at ``selector`` under ``node``,
    in the error colour (class ``-error``) when ``error``."""
    status = node.query_one(selector, widgets.Static)
    status.update(content)
    status.set_class(error, "-error")
