"""The one-line header: app name, profile, environment word, and what is in flight."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tui.domain.safe_text import plain
from tui.host import host_of
from tui.theming import env_style

if TYPE_CHECKING:
    from textual.app import RenderResult


def _key(keymap: dict[str, str], binding_id: str, default: str) -> str:
    """The first key of a binding as the config's [keymap] sets it."""
    keys = keymap.get(binding_id)
    return keys.split(",")[0] if keys else default


class FreightHeader(Widget):
    """Shows `Freight · profile · ENV` and the activity text on one line."""

    screen_title: reactive[str] = reactive("")
    """What the screen is about (e.g. the quote and lane of the rates); repaints on change."""

    DEFAULT_CSS = """
    FreightHeader {
        dock: top;
        height: 1;
        width: 100%;
        background: $panel;
        color: $text;
    }
    """

    def __init__(self, title: str = "") -> None:
        super().__init__()
        self.screen_title = title

    def on_mount(self) -> None:
        # What is in flight, and the profile or environment (after sign-in, or the demo).
        self.watch(self.app, "activity_text", self._changed, init=False)
        self.watch(self.app, "profile_revision", self._changed, init=False)

    def _changed(self, _value: object) -> None:
        self.refresh()

    def on_resize(self) -> None:
        self.refresh()

    def render(self) -> RenderResult:
        app = host_of(self)
        session = app.session
        env = session.environment
        left = Text.assemble(
            (" Freight", "bold"),
            " · ",
            plain(session.profile_name),
            " · ",
            (f" {env} ", env_style(self.app, env)),
        )
        if self.screen_title:
            left.append(f" · {self.screen_title}")
        width = self.size.width
        keymap = session.keymap
        help_key = _key(keymap, "app.help", "F1")
        if app.activity_text:
            right = Text(f"{app.activity_text} ", style="italic")
        elif width >= 110:
            keys = [
                f"{_key(keymap, f'app.{name}', default)} {name}"
                for name, default in (
                    ("quote", "F2"),
                    ("rates", "F3"),
                    ("shipments", "F4"),
                    ("batch", "F12"),
                    ("day", "alt+5"),
                    ("reports", "alt+6"),
                )
            ]
            right = Text(" · ".join([*keys, f"{help_key} help "]), style="dim")
            while keys and left.cell_len + 1 + right.cell_len > width:
                keys.pop()  # a long title: the last keys give way, help stays
                right = Text(" · ".join([*keys, f"{help_key} help "]), style="dim")
        else:
            right = Text(f"{help_key} help ", style="dim")
        gap = max(1, width - left.cell_len - right.cell_len)
        line = left + Text(" " * gap) + right
        line.truncate(width)
        return line
