"""The app's key filter: alt keys never type, each key is handled before the next is handed
on, and scanner bursts are told apart from typing."""

from __future__ import annotations

import threading
from time import monotonic
from typing import TYPE_CHECKING

from textual import events
from textual.app import App
from textual.message import Message
from textual.widgets import Input

from tui.scan_reader import ScanReader, TextWent
from tui.widgets.typeahead import move_focus

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.timer import Timer
    from textual.widget import Widget

    from tui.config.plain import ScannerKeys

SCAN_FIELD_CLASS = "accepts-scans"
"""A text field with this class takes scans while it is empty (the shipments search)."""
KEYS_QUIET_AFTER = 0.3
"""Seconds after the last key was acted on (and the screen drawn) before `keys_quiet` is set:
start-up work in the background waits meanwhile (see `Session.step_aside`)."""
KEY_HANDLED_CHECK = 0.25
"""Seconds between looks at a key not yet through: once the widget it was handed to is gone
(its `KeyHandled` lost with it), the next key goes on."""
KEY_HANDLED_LIMIT = 3.0
"""Seconds after which the next key goes on regardless (a handler stuck on a key)."""


def without_character(event: events.Key) -> events.Key:
    """The same key with no character: ESC + digit or letter (alt in tmux, screen, xterm)
    arrives as alt+1 with the character "1", which a focused field would type."""
    key = events.Key(event.key, None)
    key.time = event.time
    return key


class KeyHandled(Message):
    """Posted right behind a key to the widget the key was handed to. Messages bubble through
    the same queues in order, so when this reaches the app the key is through every widget
    that could handle it (or stopped by one)."""

    def __init__(self, key: events.Key) -> None:
        super().__init__()
        self.key = key


class KeyFilter(App[None]):
    """The app's key filter.

    **One key at a time.** Textual hands a key to the focused widget and goes on with the
    next at once; a key the widget does not take itself (Backspace, ctrl+u, Enter: the
    widget's bindings) comes back to the app and is run there, after the keys behind it
    were already typed. A burst (an SSH stall, tmux, a fast typist) then had `6060 8 ⌫ 7`
    become 60608. So each key handed to a widget holds the keys after it until it is
    through (`KeyHandled` reaches the app), and they go on in order, each to the widget
    focused when its turn comes.

    **Alt keys** lose their character, so one that nothing binds types nothing (a field
    would insert the "1" of alt+1).

    **Scans** are told from typing by a `ScanReader` (`tui.scan_reader`), which sees each
    key first: by the configured prefix (`scanner_keys`) wherever the focus is, else by a
    burst's pace where the focus takes scans (`takes_scans`: on a screen with `OPENS_SCANS
    = True`, the list, a drop-down, the empty search field; never a field being typed in).
    A scan goes to `open_scanned`; a burst that is no scan only as text: typed into the
    focused text field, given to the screen's `take_burst_text` (the list's search), or
    dropped (`_burst_as_text`), never as single-key bindings (print, save, sort, export).
    Keys the reader held and let go, then the key that ended the hold, go in order through
    the one-at-a-time path.
    """

    def __init__(self) -> None:
        super().__init__()
        self._scans: ScanReader[events.Key] = ScanReader(
            scanner=self.scanner_keys,
            takes_scans=self.takes_scans,
            set_timer=self.set_timer,
            open_scanned=self.open_scanned,
            as_text=self._burst_as_text,
            release=self._keys_let_go,
            due=lambda last: self.call_later(self._release_if_last, last),
            typed_at_once=self._typed_at_once,
        )
        self._let_go: list[tuple[events.Key | events.Paste, bool]] | None = None
        """Held keys the scan reader just let go, to be handed on (None: none)."""
        self._input_holds = 0
        self._waiting_input: list[tuple[events.Key | events.Paste, bool]] = []
        """Keys and pastes waiting their turn, each with whether it is known not to be part of
        a scan (a held key replayed)."""
        self._handing_on = False
        self.keys_quiet = threading.Event()
        """Set while no key waits to be acted on; cleared as one comes in (threads read it)."""
        self.keys_quiet.set()
        self._quiet_timer: Timer | None = None
        self._in_flight: events.Key | None = None
        self._in_flight_done: Callable[[], None] | None = None
        self._in_flight_timer: Timer | None = None

    def action_typeahead_focus(self, step: int) -> None:
        """Tab (1) or shift+tab (-1) on arrival: see `tui.widgets.typeahead`."""
        move_focus(self.screen, step)

    def open_scanned(self, code: str) -> None:
        """Open the shipment whose PRO, tracking number, BOL or id was scanned."""
        raise NotImplementedError

    def scanner_keys(self) -> ScannerKeys | None:
        """The scanner's prefix and suffix keys; None when no prefix is configured."""
        return None

    @property
    def scanning(self) -> bool:
        """True between a scanner prefix and its suffix."""
        return self._scans.scanning

    @property
    def holding_keys(self) -> bool:
        """True while keys wait for the burst they may belong to be decided."""
        return self._scans.holding

    @property
    def keys_released(self) -> int:
        """How many held keys were handed on so far (tests wait for them)."""
        return self._scans.released

    def hold_input(self) -> Callable[[], None]:
        """Keep keys and pastes waiting until the returned function is called (once any
        number of times), then hand them on in order, as if each had just arrived.

        A screen whose first frame is sent before all of it is mounted (the inputs of the
        item grid, the lists of its drop-downs) holds input until the rest is in: a key typed
        meanwhile lands where it would have had the whole screen been there at once.
        """
        self._input_holds += 1
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            self._input_holds -= 1
            if not self._input_holds:
                self.call_next(self._hand_on_waiting_input)

        return release

    @property
    def input_waiting(self) -> bool:
        """True while input is held for a screen still putting itself together."""
        return bool(self._input_holds or self._waiting_input)

    async def _hand_on_waiting_input(self) -> None:
        if self._handing_on:
            return  # the loop running further up the stack takes them
        waiting = self._waiting_input
        self._handing_on = True
        try:
            while waiting and not self._input_holds:
                event, decided = waiting.pop(0)
                await self._take(event, decided=decided)
        finally:
            self._handing_on = False

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key | events.Paste) and not event.is_forwarded:
            self._keys_busy()
            if self._input_holds or self._waiting_input:
                self._waiting_input.append((event, False))
                return
        await self._take(event, decided=False)

    def _keys_busy(self) -> None:
        """A key came in: `keys_quiet` is cleared until it (and any after it) was acted on."""
        self.keys_quiet.clear()
        if self._quiet_timer is not None:
            self._quiet_timer.stop()
        self._quiet_timer = self.set_timer(KEYS_QUIET_AFTER, self._quiet_when_through)

    def _quiet_when_through(self) -> None:
        if self._scans.holding or self._waiting_input or self._input_holds or self._in_flight:
            self._quiet_timer = self.set_timer(KEYS_QUIET_AFTER, self._quiet_when_through)
            return
        self._quiet_timer = None
        self.keys_quiet.set()

    async def _take(self, event: events.Event, *, decided: bool) -> None:
        """Handle `event` now: a key through the scan filter (unless `decided`) to the focus."""
        if isinstance(event, events.Key) and not event.is_forwarded:
            if not decided:
                event = without_character(event) if event.key.startswith("alt+") else event
                if await self._filter_key(event):
                    return
            await self._hand_key_on(event)
            return
        if (
            self._scans.holding
            and isinstance(event, events.InputEvent | events.Paste)
            and not event.is_forwarded
        ):
            # A click or paste comes after the keys before it.
            await self.release_held_keys(event if isinstance(event, events.Paste) else None)
            if isinstance(event, events.Paste):
                return
        await super().on_event(event)
        if event is self._in_flight:  # back at the app, its bindings run: through
            self._key_through(event)

    async def _hand_key_on(self, key: events.Key) -> None:
        """Priority bindings, else to the focused widget; the next key waits until it is through."""
        await super().on_event(key)
        if not key.is_forwarded:  # a priority binding took it, here and now
            self._when_screen_mounted(self.hold_input())
            return
        target = self.focused or self.screen
        self._in_flight = key
        self._in_flight_done = self.hold_input()
        if not target.post_message(KeyHandled(key)):
            self._key_through(key)
            return
        self._check_in_flight(key, target, monotonic() + KEY_HANDLED_LIMIT)

    def _check_in_flight(self, key: events.Key, target: Widget, limit: float) -> None:
        """Let the next key go once `key`'s widget is gone, or after `limit`; else look again."""
        if self._in_flight is not key:
            return
        if not target.is_attached or monotonic() > limit:
            self._key_through(key)
            return
        self._in_flight_timer = self.set_timer(
            KEY_HANDLED_CHECK, lambda: self._check_in_flight(key, target, limit)
        )

    def on_key_handled(self, message: KeyHandled) -> None:
        message.stop()
        self._key_through(message.key)

    def _key_through(self, key: events.Key) -> None:
        if self._in_flight is not key:
            return
        self._in_flight = None
        if self._in_flight_timer is not None:
            self._in_flight_timer.stop()
            self._in_flight_timer = None
        done, self._in_flight_done = self._in_flight_done, None
        if done is not None:
            self._when_screen_mounted(done)

    def _when_screen_mounted(self, release: Callable[[], None]) -> None:
        """Call `release` once the screen on top is mounted: a key that brought up a screen
        (F4 as the app starts, Enter opening a detail) holds the keys after it until that
        screen is there to take them, as they would have had it been there at once.
        With no screen left (the app ending: a closing widget's queue is drained, and the
        word that its key is through reaches the app after the last screen) at once."""
        if not self.screen_stack:
            release()
            return
        screen = self.screen
        if screen.is_mounted or not screen.call_later(release):
            release()

    def takes_scans(self) -> bool:
        """Whether a burst may be a scan here: on a screen that opens scans, with focus on
        anything but a text field, or on the empty field marked `SCAN_FIELD_CLASS` (the
        shipments search). A field being typed in (a date, a folder, the search with text
        in it) never takes one: a person's fast text + Enter is kept as typed."""
        screen = self.screen
        if not getattr(screen, "OPENS_SCANS", False):
            return False
        focused = screen.focused
        if isinstance(focused, Input):
            return focused.has_class(SCAN_FIELD_CLASS) and not focused.value
        from textual.widgets import TextArea

        return not isinstance(focused, TextArea)

    def _typed_at_once(self) -> Callable[[], None] | None:
        """In a text field that takes scans (the empty search) a burst is text whatever it
        turns out to be: its keys go in at once, unheld (the search asked as they come),
        and should it end as a scan its code is taken back out (the field as it was)."""
        focused = self.screen.focused
        if not isinstance(focused, Input):
            return None
        value, cursor = focused.value, focused.cursor_position

        def take_back() -> None:
            if focused.is_attached:
                focused.value = value
                focused.cursor_position = cursor

        return take_back

    async def _filter_key(self, event: events.Key) -> bool:
        """Hold `event`, or take it as a scan's end, or replay it behind the held keys (True);
        else let it through (False)."""
        scans = self._scans
        verdict = scans.feed(event)
        if verdict == "taken" and scans.holding:
            text = scans.held_text
            # One key alone is text only in the search (on the list it is a key: e exports,
            # s sorts); a scan asks for its first key at most.
            in_search = isinstance(self.screen.focused, Input)
            if (len(text) == 1 and in_search) or (len(text) > 1 and scans.held_is_no_scan):
                self._burst_held(text)
        if self._let_go is not None:
            await self._hand_on_let_go(event if verdict == "behind" else None)
        return verdict != "through"

    def _burst_held(self, text: str) -> None:
        """Tell the screen what the keys held so far would type when they are let go as
        text (its `burst_held`: the list asks for that search ahead, without showing it).
        Not while the burst may still be a scan: a scan asks for nothing ahead."""
        held = getattr(self.screen, "burst_held", None)
        if callable(held):
            held(text)

    def _keys_let_go(self, keys: list[events.Key]) -> None:
        """The scan reader let `keys` go: they are known not to be part of a scan."""
        self._let_go = [(key, True) for key in keys]

    async def _release_if_last(self, last: events.Key) -> None:
        # Behind the keys already queued: one that arrived in time still joins the burst.
        if not self._waiting_input and self._scans.let_go_if_last(last):
            await self._hand_on_let_go(None)

    async def _hand_on_let_go(self, then: events.Key | events.Paste | None) -> None:
        """Hand the keys the scan reader let go on, then `then` (a key or paste still to be
        looked at), ahead of whatever else waits: one at a time, in order."""
        entries = self._let_go or []
        self._let_go = None
        if then is not None:
            entries.append((then, False))
        self._waiting_input[:0] = entries
        if not self._input_holds:
            await self._hand_on_waiting_input()

    def _burst_as_text(self, text: str) -> TextWent:
        """A burst that is no scan, as text, never a binding: "typed" when its keys go on to
        the focused text field; "taken" when the screen's `take_burst_text` took the text (the
        list puts it in its search and focuses that); else "dropped"."""
        from textual.widgets import TextArea

        focused = self.screen.focused
        take = getattr(self.screen, "take_burst_text", None)
        if isinstance(focused, Input) and focused.has_class(SCAN_FIELD_CLASS) and callable(take):
            # The search it was held in takes it whole: one change, one search (not a key
            # at a time, a search each).
            return "taken" if take(text) else "typed"
        if isinstance(focused, Input | TextArea):
            return "typed"
        if callable(take) and take(text):
            return "taken"
        return "dropped"

    async def release_held_keys(self, then: events.Paste | None = None) -> None:
        """Hand the held keys on, in order, as if each had just arrived (then `then`)."""
        self._scans.let_go()
        await self._hand_on_let_go(None)
