"""Every private name of Textual that Freight's tests and benchmarks use, in one place: the
test side's fence, as `tui/textual_internals.py` is the product's.

Tests read a screen as text, watch frames, wait for a screen, read notifications and feed
terminal input through these functions; none of it ships in the product. The names were
checked on Textual `tui.textual_internals.CHECKED_ON`, and `tests/test_textual_internals.py`
fails when an upgrade removes or changes one of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual._compositor import LayoutUpdate
    from textual.app import App
    from textual.message import Message
    from textual.notifications import Notification
    from textual.pilot import Pilot
    from textual.screen import Screen


def screen_render(screen: Screen[Any]) -> RenderableType | None:
    """The whole of `screen` as Textual would send it (a renderable): the only way to read a
    screen as text (`Screen._compositor`)."""
    return screen._compositor.render_update(full=True)


def layout_render(app: App[Any]) -> LayoutUpdate:
    """The whole of `app`'s screen, with the screens under a dialog, as lines of strips: the
    compositor's full update (`Screen._compositor`, `App._background_screens`,
    `textual._compositor.LayoutUpdate`)."""
    from textual._compositor import LayoutUpdate

    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    assert isinstance(update, LayoutUpdate)
    return update


def watch_frames(app: App[Any], callback: Callable[[Screen[Any]], None]) -> None:
    """Call `callback` with the screen each time `app` sends a frame, right after it is sent
    (headless too, where nothing is written); frames a batch update holds back
    (`App._batch_count`) are not sent. Wraps `App._display`, the one place frames go."""
    display = app._display

    def display_and_tell(screen: Screen[Any], renderable: Any) -> None:
        held = app._batch_count
        display(screen, renderable)
        if renderable is not None and not held:
            callback(screen)

    app._display = display_and_tell  # type: ignore[method-assign]


def after_every_frame(callback: Callable[[], None]) -> Callable[[], None]:
    """Call `callback` after every screen of every app in this process refreshes its part of
    the terminal (`Screen._compositor_refresh`): for benchmarks that time the last paint.
    Returns the function that stops it."""
    from textual.screen import Screen

    refresh = Screen._compositor_refresh

    def refresh_and_tell(self: Screen[Any]) -> None:
        refresh(self)
        callback()

    Screen._compositor_refresh = refresh_and_tell  # type: ignore[method-assign]

    def stop() -> None:
        Screen._compositor_refresh = refresh  # type: ignore[method-assign]

    return stop


def after_every_message(callback: Callable[[], None]) -> Callable[[], None]:
    """Call `callback` after every message any widget or app handles
    (`MessagePump._dispatch_message`): for benchmarks that wait for work that paints nothing.
    Returns the function that stops it."""
    from textual.message_pump import MessagePump

    dispatch = MessagePump._dispatch_message

    async def dispatch_and_tell(self: MessagePump, message: Message) -> None:
        await dispatch(self, message)
        callback()

    MessagePump._dispatch_message = dispatch_and_tell  # type: ignore[method-assign]

    def stop() -> None:
        MessagePump._dispatch_message = dispatch  # type: ignore[method-assign]

    return stop


async def wait_for_screen(pilot: Pilot[Any]) -> None:
    """Wait until the screen and its widgets have handled what is queued for them, as
    `Pilot.press` does after each key (`Pilot._wait_for_screen`)."""
    await pilot._wait_for_screen()


def notifications(app: App[Any]) -> list[Notification]:
    """The notifications `app` shows now (`App._notifications`)."""
    return list(app._notifications)


def parse_terminal_input(data: str) -> list[object]:
    """The events Textual's input parser makes of `data` as a terminal sends it
    (`textual._xterm_parser.XTermParser`)."""
    from textual._xterm_parser import XTermParser

    return list(XTermParser().feed(data))


def send_as_terminal(app: App[Any], message: Message) -> None:
    """Hand `message` to `app` the way its driver hands on what the terminal sent
    (`App._driver`): from a benchmark's thread, like real input."""
    driver = app._driver
    assert driver is not None, "the app is not running"
    driver.send_message(message)


def ansi_to_rgb(app: App[Any]) -> tuple[bool, object] | None:
    """Whether `app` turns the ANSI colours it draws into RGB, and by which palette (Rich's
    `TerminalTheme`): its `ANSIToTruecolor` filter (`App._filters`,
    `ANSIToTruecolor._terminal_theme`); None without one."""
    from textual.filter import ANSIToTruecolor

    for line_filter in app._filters:
        if isinstance(line_filter, ANSIToTruecolor):
            return line_filter.enabled, line_filter._terminal_theme
    return None
