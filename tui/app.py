"""The Freight app: modes, global keys, the header's state, and errors that concern all screens."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Iterable
from contextlib import suppress
from functools import partial
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from textual import events
from textual.app import App, ScreenStackError, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.reactive import reactive
from textual.screen import Screen
from textual.theme import Theme, ThemeProvider
from textual.worker import Worker, WorkerState

from tui import screens
from tui.api.errors import (
    AuthenticationError,
    FreightError,
    PermissionDeniedError,
    SubscriptionError,
)
from tui.config.paths import config_file
from tui.config.plain import DEFAULT_THEME, ConfigError
from tui.domain.safe_text import plain, plain_lines
from tui.key_filter import KeyFilter
from tui.listing.status import use_colours
from tui.navigation import Navigation
from tui.readable_known import readable_on
from tui.screens.quote import QuoteScreen
from tui.session import Session
from tui.textual_internals import ansi_sequence_keys, refresh_ansi_filter
from tui.theming import ansi_theme, has_16_colours, status_colours, theme_problem
from tui.workspace import one_download

if TYPE_CHECKING:
    from pathlib import Path

    from textual.notifications import SeverityLevel

    from tui.batch.store import BatchInfo
    from tui.config.plain import ScannerKeys
    from tui.host import Host, LastRates


def _quote_screen() -> Screen[Any]:
    return QuoteScreen()


def _shipments_screen() -> Screen[Any]:
    return screens.ShipmentsScreen()


def _batch_screen() -> Screen[Any]:
    return screens.BatchScreen()


def _day_screen() -> Screen[Any]:
    return screens.DayScreen()


def _reports_screen() -> Screen[Any]:
    return screens.ReportsScreen()


WEZTERM_OPTION_KEYS = {
    "\x1b1": "¡",
    "\x1b2": "™",
    "\x1b3": "£",
    "\x1b4": "¢",
    "\x1b5": "∞",
    "\x1b6": "§",
    "\x1b7": "¶",
    "\x1b8": "•",
    "\x1b9": "ª",
    "\x1b0": "º",
    "\x1b-": "–",
    "\x1b=": "≠",
}
"""ESC + a top-row key, which Textual reads as WezTerm-on-macOS's Option characters."""

ALT_KEYS_AT_ONCE = {
    **{f"\x1b{key}": f"alt+{key}" for key in "1234567890abcdefghijklmnopqrstuvwxyz"},
    "\x1b-": "alt+minus",
    "\x1b=": "alt+equals_sign",
}
"""ESC + key, as tmux, screen, xterm and vt100 send alt+key, read as that alt key at once
(no escape sequence starts with a digit or a lower-case letter)."""


class AltKey(NamedTuple):
    """An entry of Textual's sequence table: the parser reads only `.value`, the key name."""

    value: str


def read_alt_keys_at_once() -> None:
    """Read ESC + digit or lower-case letter as alt+digit (alt+h…), the way tmux, screen,
    xterm and vt100 mean it, as soon as the two characters arrive.

    Textual maps ESC 1 … ESC 0, ESC - and ESC = to `¡ ™ £ …` (what WezTerm on macOS sends
    for Option + the top row), so alt+1 in tmux would type `¡` into the focused field.
    Without an entry its parser waits 100 ms for more after ESC + key, and when keys follow
    sooner (a key typed right after, a paste) it gives up and types `^1`. So each of those
    sequences maps to its alt key, with no character: a field never types it. Only the
    WezTerm entries (or none) are replaced; calling it again changes nothing.
    """
    table = ansi_sequence_keys()
    for sequence, key in ALT_KEYS_AT_ONCE.items():
        if table.get(sequence) in (None, WEZTERM_OPTION_KEYS.get(sequence)):
            table[sequence] = (AltKey(key),)


class FreightApp(Navigation, KeyFilter):
    """Rate, book and track freight from the keyboard."""

    TITLE = "Freight"
    # The first screen's sheet is read with the app's: read when the screen first shows, it
    # would make Textual parse every sheet read so far once more.
    CSS_PATH = ["app.tcss", "screens/quote.tcss"]
    # The quote mode is not listed here: its screen is the default screen, and the mode is
    # added on mount (see `get_default_screen`).
    MODES = {
        "shipments": _shipments_screen,
        "batch": _batch_screen,
        "reports": _reports_screen,
        "day": _day_screen,
    }
    DEFAULT_MODE = "quote"
    # Priority: checked before the focused widget sees the key, so an alt+digit (a printable
    # key: its character is the digit) never types into a field.
    BINDINGS = [
        Binding(
            "f1,alt+h,ctrl+underscore",
            "help",
            "Help",
            id="app.help",
            tooltip="Help for the focused field (alt+h, ctrl+_)",
            priority=True,
        ),
        # F2-F4 are named in the header and help, not the footer: at 80 columns the footer
        # is for the keys of the screen at hand.
        Binding(
            "f2,alt+1",
            "go('quote')",
            "Quote",
            id="app.quote",
            tooltip="Describe freight (alt+1)",
            show=False,
            priority=True,
        ),
        Binding(
            "f3,alt+2",
            "go('rates')",
            "Rates",
            id="app.rates",
            tooltip="The rates of the last quote (alt+2)",
            show=False,
            priority=True,
        ),
        Binding(
            "f4,alt+3",
            "go('shipments')",
            "Shipments",
            id="app.shipments",
            tooltip="Find shipments (alt+3)",
            show=False,
            priority=True,
        ),
        Binding(
            "f12,alt+4",
            "go('batch')",
            "Batch",
            id="app.batch",
            tooltip="A file of orders at once (alt+4)",
            show=False,
            priority=True,
        ),
        Binding(
            "alt+5",
            "go('day')",
            "Day",
            id="app.day",
            tooltip="The pickup day per carrier: manifests, print, close (alt+5)",
            show=False,
            priority=True,
        ),
        Binding(
            "alt+6",  # every F-key a terminal keeps is taken (F9 gets the quote's rates)
            "go('reports')",
            "Reports",
            id="app.reports",
            tooltip="Spend and carriers from the bookings (alt+6)",
            show=False,
            priority=True,
        ),
        Binding(
            "ctrl+q",
            "quit",
            "Quit",
            id="app.quit",
            tooltip="Quit (asks while a booking is in flight)",
            show=False,
            priority=True,
        ),
    ]

    activity_text: reactive[str] = reactive("", init=False, repaint=False)
    booking_in_flight: reactive[bool] = reactive(False, init=False)
    profile_revision: reactive[int] = reactive(0, init=False, repaint=False)
    """Counts changes of the session's profile, environment or config (headers watch it)."""

    def __init__(self, session: Session) -> None:
        read_alt_keys_at_once()
        super().__init__()
        self.session = session
        self.keys_quiet = session.keys_quiet  # start-up threads step aside for keys
        self.last_rates: LastRates | None = None
        """The last rates shown (request, mode filter, quote), for F3 after leaving them."""
        session.profile_listeners.append(self._profile_changed)
        self.config_error: Exception | None = None
        """The config file's error found after the first frame (the app then exits with 2)."""
        self._activities: dict[str, str] = {}
        self._readable_themes: dict[str, Theme] = {}
        """Each theme used, its colours made readable on this terminal (see `get_theme`)."""
        self._css_variables: tuple[Theme, dict[str, str]] | None = None
        """The current theme's CSS variables, worked out once (see `get_css_variables`)."""
        self._start_with_theme(session.theme)
        use_colours(status_colours(self))
        # Textual made the style sheet's variables in its __init__, from the theme as it
        # ships (`get_theme` had no readable themes yet): from the readable one now, before
        # any sheet is read.
        self.stylesheet.set_variables(self.get_css_variables())
        if keymap := session.keymap:
            self.set_keymap(keymap)

    # -- start and stop -------------------------------------------------------------------

    def _start_with_theme(self, theme: str) -> None:
        """Take the config's theme (at 16 colours the default is an ANSI one) before any
        style sheet is read. Set as `App.theme` is usually set, Textual's watcher would parse
        every sheet a second time and restyle the app on the event loop's first turn, before
        the first frame: the reactive is set without it, and the dark and light classes and
        the ANSI colours' filter follow the theme here (the style sheet's variables follow in
        `__init__`)."""
        if theme_problem(theme) is not None:
            theme = "textual-dark"
        elif has_16_colours(self) and not self.no_color and theme == DEFAULT_THEME:
            theme = ansi_theme(os.environ)  # the default at 16 colours is an ANSI theme
        self.set_reactive(App.theme, theme)
        dark = self.current_theme.dark
        self.set_class(dark, "-dark-mode", update=False)
        self.set_class(not dark, "-light-mode", update=False)
        refresh_ansi_filter(self)

    def clear_selection(self) -> None:
        """Clear text selection; before the first screen is on the stack there is none.

        An Input built with a value clears the selection from its watcher; on Python 3.13 that
        runs while the first screen is composed, when Textual raises ScreenStackError (it only
        allows for NoScreen).
        """
        with suppress(ScreenStackError):
            super().clear_selection()

    def scanner_keys(self) -> ScannerKeys | None:
        """The config's ``[scanner]`` prefix and suffix (tui.key_filter)."""
        return self.session.scanner

    def get_default_screen(self) -> Screen[Any]:
        """The quote form, the first mode's screen.

        Started as a mode listed in `MODES`, Textual would parse every style sheet read so
        far a second time and restyle the app before the first frame (a listed mode's first
        screen always asks for a CSS refresh; about 10 ms of the first frame). As the default
        screen it is styled once; `on_mount` then adds the "quote" mode for this same
        screen, so `switch_mode("quote")` comes back to it.

        A listed mode's screen is mounted before the app reads its first key; the default
        screen is not awaited. So keys typed while it starts are held until it is mounted
        and its first field has focus, then handed on in order.
        """
        return QuoteScreen(when_mounted=self.hold_input())

    def on_mount(self) -> None:
        self.add_mode("quote", _quote_screen)  # its stack is already there: no second screen
        self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        """Start what the first frame did without: the demo's sandbox at once; the typed
        config and the client once their modules are loaded, off the event loop."""
        for start in self.session.after_first_frame:
            start()
        from tui.store.engine import NOTICES

        NOTICES.append(self._store_news)
        self.run_worker(self._load_modules, thread=True, group="modules", exit_on_error=False)

    def _load_modules(self) -> None:
        """Import, in a thread, what the typed config, the client and the first ctrl+r need
        (pydantic, httpx, the rates screen: a third of a second): on the event loop, keys
        typed meanwhile would show only once it was done."""
        step_aside = self.session.step_aside  # keys typed meanwhile go first, each time
        try:
            step_aside()
            import tui.api.client

            step_aside()
            import tui.config.settings

            step_aside()
            import tui.forms.quote_request

            step_aside()
            import tui.screens.rates  # noqa: F401

            step_aside()
        finally:  # an import that fails here fails again, where it is reported, in _settle
            if self.is_running:
                self.call_from_thread(self._settle)

    def _settle(self) -> None:
        """Build the typed config (ending the app on a config error), then connect."""
        try:
            self.session.settle()
        except ConfigError as error:
            self.config_error = error
            self.exit(return_code=2)
            return
        if self.session.has_connection:
            self._warm_up()
        else:
            self.show_sign_in()

    def _warm_up(self) -> None:
        self.run_worker(self._connect(), group="connect", exit_on_error=False)

    async def _connect(self) -> None:
        """After the first frame: start the client (and the demo sandbox, or read the keyring),
        so a missing credential shows now rather than at the first request."""
        if self.session.after_first_frame:  # the demo: its sandbox is starting
            self.set_activity("connect", "starting the local sandbox…")
        try:
            await asyncio.to_thread(self.session.step_aside)  # the client's TLS set-up after keys
            await self.session.client()
        except FreightError as error:
            self.handle_api_error(error)
        finally:
            self.set_activity("connect", None)

        await self._offer_unfinished_batch()
        try:  # the address book, so the Book screen is filled from it at once
            await asyncio.to_thread(self.session.address_book)
        except Exception:  # a damaged store is said where the address book is used
            return

    async def _offer_unfinished_batch(self) -> None:
        """A batch left unfinished (a crash, a dropped session): say so, and how to go on."""
        from tui.batch.store import SharedBatchStore
        from tui.batch.view import latest_unfinished, unfinished_text

        session = self.session

        def unfinished() -> BatchInfo | None:  # no store is made where there is none
            if not session.has_store():
                return None
            return latest_unfinished(SharedBatchStore(session.store(), owned=False), profile)

        profile = session.profile_name
        try:
            info = await asyncio.to_thread(unfinished)
        except Exception:  # a damaged store is the Batch screen's to report, not the start's
            return
        if info is not None:
            key = self.session.keymap.get("app.batch", "F12").split(",")[0]
            self.notify(
                f"Unfinished batch {unfinished_text(info)}. {key} (or alt+4) goes on.",
                title="Batch",
                timeout=10,
            )

    def _store_news(self, text: str) -> None:
        """The store reconnecting after a database restart, and back (told from any thread)."""
        try:
            self.call_from_thread(self.notify, text, title="Store", timeout=8, markup=False)
        except RuntimeError:  # told on the event loop itself
            self.notify(text, title="Store", timeout=8, markup=False)

    async def on_unmount(self) -> None:
        from tui.store.engine import NOTICES

        if self._store_news in NOTICES:
            NOTICES.remove(self._store_news)
        await self.session.aclose()

    # -- header state ---------------------------------------------------------------------

    def set_activity(self, key: str, text: str | None) -> None:
        """Show what is in flight in the header; None clears that entry."""
        if text is None:
            self._activities.pop(key, None)
        else:
            self._activities[key] = text
        self.activity_text = " · ".join(self._activities.values())

    def _profile_changed(self) -> None:
        self.profile_revision += 1

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """No blinking cursors: over SSH an idle screen should send nothing."""
        widget = event.widget
        if getattr(widget, "cursor_blink", False):
            widget.cursor_blink = False  # type: ignore[attr-defined]

    # -- help, palette, quit --------------------------------------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Ours (screens, the screen's own, help), then Textual's: Theme, Keys, Screenshot…"""
        keymap = self.session.keymap

        def key(binding_id: str, default: str) -> str:
            return keymap.get(binding_id, default).split(",")[0]

        yield SystemCommand(
            "Quote", f"Describe freight and get rates ({key('app.quote', 'F2')})", self.show_quote
        )
        yield SystemCommand(
            "Rates", f"The rates of the last quote ({key('app.rates', 'F3')})", self.show_rates
        )
        yield SystemCommand(
            "Shipments",
            f"Find, filter and track shipments ({key('app.shipments', 'F4')})",
            self.show_shipments,
        )
        yield SystemCommand(
            "Batch",
            f"A file of orders: rate, choose, book ({key('app.batch', 'F12')})",
            self.show_batch,
        )
        yield SystemCommand(
            "Day",
            f"The pickup day per carrier: manifests, print, close ({key('app.day', 'alt+5')})",
            self.show_day,
        )
        yield SystemCommand(
            "Reports",
            f"Spend per carrier, lane, week; carrier scorecards ({key('app.reports', 'alt+6')})",
            self.show_reports,
        )
        palette_commands = getattr(screen, "palette_commands", None)
        if callable(palette_commands):
            yield from palette_commands()
        yield SystemCommand(
            "Help",
            f"Keys and help for the focused field ({key('app.help', 'F1')})",
            self.action_help,
        )
        yield from super().get_system_commands(screen)  # its Quit is our action_quit

    # -- theme ----------------------------------------------------------------------------

    def get_theme(self, theme_name: str) -> Theme | None:
        """Textual's theme, its text colours made readable on this terminal (`tui.readable`):
        worked out once per theme, the first time the app uses it."""
        theme = super().get_theme(theme_name)
        themes: dict[str, Theme] | None = getattr(self, "_readable_themes", None)  # in __init__
        if theme is None or themes is None:
            return theme
        readable = themes.get(theme.name)
        if readable is None:
            system = self.console.color_system
            readable = themes[theme.name] = readable_on(theme, system, self.no_color)
        return readable

    def get_css_variables(self) -> dict[str, str]:
        """Textual's variables of the current theme, worked out once per theme: the style
        sheet, the statuses and the header's badge each ask for them before the first frame.

        Empty in Textual's `__init__`, which makes the style sheet before this app has its
        theme: `__init__` gives the sheet its variables once it has, before any sheet is read
        (Textual worked them out for its own theme first: 72,000 Python opcodes)."""
        if not hasattr(self, "_css_variables"):  # in Textual's __init__, before ours
            return {}
        theme = self.current_theme
        known = self._css_variables
        if known is not None and known[0] is theme:
            self.theme_variables = dict(known[1])
            return dict(known[1])
        variables = super().get_css_variables()
        self._css_variables = (theme, dict(variables))
        return variables

    def watch_theme(self, _name: str) -> None:
        """Statuses take the new theme's colours before the screen repaints."""
        use_colours(status_colours(self))

    def search_themes(self) -> None:
        """The palette's Theme command: the theme picked is used and saved to the config."""
        self.push_screen(
            CommandPalette(providers=[SavedThemeProvider], placeholder="Search for themes…")
        )

    def save_theme(self, name: str) -> None:
        """Use theme ``name`` and write it to the config file (for this run only if that fails)."""
        self.theme = name
        try:
            path = self.session.change_settings(theme=name)
        except OSError as error:
            self.notify(
                f"Theme {name} for this run: the config was not saved ({error.strerror or error})",
                severity="warning",
                timeout=8,
            )
        else:
            self.notify(f"Theme {name}, saved in {path}", timeout=4)

    async def action_quit(self) -> None:
        if not self.booking_in_flight:
            self.exit()
            return

        def decided(quit_anyway: bool | None) -> None:
            if quit_anyway:
                self.exit()

        self.push_screen(screens.ConfirmQuitScreen(), decided)

    def action_help_quit(self) -> None:
        """ctrl+c where nothing copies: say how to quit, in Freight's words and plain (Textual's
        own hint is markup, `Press [b]ctrl+q[/b] to quit the app`, shown as typed here)."""
        keys = [
            key
            for key, active in self.screen.active_bindings.items()
            if active.binding.action in ("quit", "app.quit")
        ]
        quit_keys = " or ".join(keys) or "ctrl+q"
        self.notify(f"To quit Freight, press {quit_keys}. ctrl+c copies selected text.")

    # -- notifications ----------------------------------------------------------------------

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notice is plain text: it often quotes the server (a carrier's reason, an
        error's message), so control characters are escaped and nothing is read as markup.
        """
        del markup  # no notice of ours uses markup; server text must never be parsed as it
        super().notify(
            plain_lines(message),
            title=plain(title),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    # -- files saved ----------------------------------------------------------------------

    @property
    def delivers_files(self) -> bool:
        """True in a browser (``freight serve``): files saved also go to the browser."""
        return self.is_web

    def file_saved(self, path: Path, *more: Path, mime_type: str | None = None) -> str:
        """Documents, a label, an export or batch results were written on this machine by
        one user action; returns what the browser was given ("" in a terminal).

        In a browser (``freight serve``) they also go to the browser as one download (one
        file, or one zip of several: a browser lets one download through per key press);
        in a terminal the files on disk are what the user gets, and nothing more happens.
        """
        if not self.is_web:
            return ""

        try:
            delivery = one_download([path, *more], mime_type)
            self.deliver_binary(
                delivery.payload, save_filename=delivery.name, mime_type=delivery.mime_type
            )
        except OSError as error:
            self.notify(
                f"{path.name} is saved here, but could not go to the browser: "
                f"{error.strerror or error}",
                severity="warning",
                timeout=8,
            )
            return ""
        return delivery.sentence

    # -- errors that concern every screen -------------------------------------------------

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The app's own workers (connecting) fall into the same net as the screens'."""
        if event.state == WorkerState.ERROR:
            self.worker_failed(event.worker)

    def worker_failed(self, worker: Worker[Any]) -> None:
        """A worker died of an error no handler caught: clear its activity, say so, log it."""
        error = worker.error
        self.set_activity(worker.group, None)
        logging.getLogger("tui.app").error(
            "worker %s (%s) failed: %r", worker.name, worker.group, error
        )
        if isinstance(error, Exception):
            message = self.handle_api_error(error)
        else:
            message = str(error) or "unknown error"
        self.notify(message, title="Something went wrong", severity="error", timeout=10)

    def handle_api_error(self, error: BaseException) -> str:
        """Act on errors every screen shares (401, 402, 403) and return a one-line message."""
        message = str(error) or error.__class__.__name__
        if isinstance(error, AuthenticationError):
            self.show_sign_in(message)
        elif isinstance(error, SubscriptionError):
            self.notify(message, title="Subscription inactive", severity="error", timeout=10)
        elif isinstance(error, PermissionDeniedError):
            self.notify(message, title="Not allowed", severity="warning", timeout=8)
        return message


class SavedThemeProvider(ThemeProvider):
    """Textual's theme list, where picking a theme also saves it to the config."""

    @property
    def commands(self) -> list[tuple[str, Callable[[], None]]]:
        app = self.app
        pick = app.save_theme if isinstance(app, FreightApp) else partial(setattr, app, "theme")
        themes = sorted(app.available_themes.values(), key=attrgetter("name"))
        return [(theme.name, partial(pick, theme.name)) for theme in themes]


if TYPE_CHECKING:
    _app_is_a_host: type[Host] = FreightApp  # mypy checks the app keeps the screens' promise


def check_settings(session: Session) -> None:
    """Refuse a config whose theme or ``[keymap]`` the app cannot use (ConfigError, with the
    file and line). Reads the session's sketch when it has one: no typed config needed."""
    file = session.config_path or config_file()
    if problem := theme_problem(session.theme):
        from tui.config.settings import config_error_at

        raise config_error_at(file, ["theme"], problem)
    if keymap := session.keymap:
        from tui.keymap import binding_places, keymap_problems

        problems = keymap_problems(keymap, binding_places([FreightApp]))
        if problems:
            from tui.config.settings import config_error_at

            first = problems[0]
            raise config_error_at(file, ["keymap", first.binding_id], first.message)


def make_app(session: Session) -> FreightApp:
    """Build the app: the one factory, used by the command line and by the tests.

    Raises ConfigError when the config's theme or keymap cannot be used.
    """
    check_settings(session)
    return FreightApp(session)
