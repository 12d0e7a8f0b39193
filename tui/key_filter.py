"""The app's key filter: alt keys never type, each key is handled before the next is handed
on, and scanner bursts are told apart from typing."""

from __future__ import annotations

import threading
from time import monotonic
from typing import TYPE_CHECKING, Literal

from textual import events
from textual.app import App
from textual.message import Message
from textual.widgets import Input

from tui.widgets.typeahead import move_focus

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.timer import Timer
    from textual.widget import Widget

    from tui.config.plain import ScannerKeys

SCAN_GAP = 0.030
"""Seconds: keys closer together than this (by arrival) are a scanner's."""
BURST_GAP = 0.120
"""Seconds: code characters closer together than this (by arrival) are one burst: faster
than a person presses keys that do things. A burst that is no scan is replayed only as
text into a text field, never as single-key bindings (a late scan's `s` must not sort)."""
CAPTURE_IDLE = 2.0
"""Seconds after the last key of a scan begun by the prefix before it is given up (the
prefix pressed by hand, or a scanner's suffix lost)."""
SCAN_MIN_LENGTH = 4
"""Characters a burst needs before its Enter makes it a scan."""
SCAN_MAX_LENGTH = 64
"""A burst this long without Enter is typing (or a paste), not a scan."""
SCAN_ENDS = ("enter", "tab")
"""The keys a scanner sends after the code (its suffix is set to one or the other)."""
SCAN_FIELD_CLASS = "accepts-scans"
"""A text field with this class takes scans while it is empty (the shipments search)."""
REPEAT_LENGTH = 4
"""A burst that starts with one character this many times is a key held down, not a scan."""
RELEASE_MARGIN = 0.010
"""Seconds after the gap before held keys are handed on (timer slack)."""
KEYS_QUIET_AFTER = 0.3
"""Seconds after the last key was acted on (and the screen drawn) before `keys_quiet` is set:
start-up work in the background waits meanwhile (see `Session.step_aside`)."""
KEY_HANDLED_CHECK = 0.25
"""Seconds between looks at a key not yet through: once the widget it was handed to is gone
(its `KeyHandled` lost with it), the next key goes on."""
KEY_HANDLED_LIMIT = 3.0
"""Seconds after which the next key goes on regardless (a handler stuck on a key)."""

_MODIFIERS = ("alt+", "ctrl+", "super+", "meta+", "hyper+")


CODE_PUNCTUATION = "-_"
"""Besides letters and digits, what PROs (`123-456789-0`) and ids (`shp_…`) are made of."""


def is_code_character(event: events.Key) -> bool:
    """A key that may be part of a scanned code: a letter, digit, dash or underscore typed
    with no modifier (`/`, a space or `.` is typing: no code has them)."""
    character = event.character
    return (
        character is not None
        and len(character) == 1
        and (character.isalnum() or character in CODE_PUNCTUATION)
        and not event.key.startswith(_MODIFIERS)
    )


def without_character(event: events.Key) -> events.Key:
    """The same key with no character: ESC + digit or letter (alt in tmux, screen, xterm)
    arrives as alt+1 with the character "1", which a focused field would type."""
    key = events.Key(event.key, None)
    key.time = event.time
    return key


def is_scanned_code(code: str) -> bool:
    """Long enough, and with a digit: every PRO, tracking number, BOL and id has one, while a
    word typed fast (`Chicago` and Enter, pasted by a terminal) is a search."""
    return SCAN_MIN_LENGTH <= len(code) <= SCAN_MAX_LENGTH and any(
        character.isdigit() for character in code
    )


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

    **Scans by their prefix.** With a scanner prefix configured (`scanner_keys`), the prefix
    key starts a scan wherever the focus is, on every screen: the characters after it, up to
    the suffix (Enter or Tab), are the code for `open_scanned`, and nothing else sees them.
    No other key is held then: scans are known by their content, not their pace.

    **Scans by their pace** (no prefix). On screens that open shipments (`OPENS_SCANS =
    True`), with focus on what takes scans (see `takes_scans`: the list, a drop-down, the
    empty search field; never a field being typed in), a code character is held until the
    next key shows what it is part of. Code characters arriving within `BURST_GAP` of each
    other are one burst, held too. Enter (or Tab) after at least `SCAN_MIN_LENGTH` of them,
    one a digit, every gap under `SCAN_GAP`, hands the code to `open_scanned`. A burst that
    is no scan (a scanner slowed by a busy machine) is replayed only as text: typed into the
    focused text field, given to the screen's `take_burst_text` (the list's search), or
    dropped, with the Enter or Tab that ended it: never single-key bindings (print, save,
    sort, export). A lone held key (a person's) is replayed as the key it is, bindings and
    all; a key held down (`REPEAT_LENGTH` alike) too. Replayed keys, then the key that ended
    the hold, go in order through the one-at-a-time path.
    """

    def __init__(self) -> None:
        super().__init__()
        self._held: list[events.Key] = []
        self._release_timer: Timer | None = None
        self._repeating: tuple[str, float] | None = None
        """A key held down: its character and when it last arrived (passes without a hold)."""
        self.keys_released = 0
        """How many held keys were handed on so far (tests wait for them)."""
        self._input_holds = 0
        self._waiting_input: list[tuple[events.Key | events.Paste, bool]] = []
        """Keys and pastes waiting their turn, each with whether it is known not to be part of
        a scan (a held key replayed)."""
        self._handing_on = False
        self._burst_fast = True
        """Whether every gap of the held burst so far was a scanner's (under `SCAN_GAP`)."""
        self._capture: list[str] | None = None
        """The characters of a scan begun by the prefix, until its suffix (None: no scan)."""
        self._capture_timer: Timer | None = None
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
        return self._capture is not None

    @property
    def holding_keys(self) -> bool:
        """True while keys wait for the burst they may belong to be decided."""
        return bool(self._held)

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
        if self._held or self._waiting_input or self._input_holds or self._in_flight:
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
            self._held
            and isinstance(event, events.InputEvent | events.Paste)
            and not event.is_forwarded
        ):
            # A click or paste comes after the keys before it.
            await self._replay_held(event if isinstance(event, events.Paste) else None)
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
        screen is there to take them, as they would have had it been there at once."""
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

    async def _filter_key(self, event: events.Key) -> bool:
        """Hold `event`, or take it as a scan's end, or replay it behind the held keys (True);
        else let it through (False)."""
        scanner = self.scanner_keys()
        if self._capture is not None:
            return self._capture_key(event, scanner)
        if scanner is not None:
            if event.key != scanner.prefix:
                return False  # scans are known by their prefix: nothing else is held
            self._capture = []
            self._arm_capture()
            return True
        held = self._held
        if held:
            gap = event.time - held[-1].time
            if gap < BURST_GAP and is_code_character(event) and len(held) < SCAN_MAX_LENGTH:
                self._burst_fast = self._burst_fast and gap < SCAN_GAP
                held.append(event)
                if self._is_repeat(held):
                    self._repeating = (event.character or "", event.time)
                    await self._replay_held()
                    return True
                self._arm_release()
                return True
            code = "".join(key.character or "" for key in held)
            ends = gap < BURST_GAP and event.key in SCAN_ENDS
            if ends and self._burst_fast and gap < SCAN_GAP and is_scanned_code(code):
                self._drop_held()
                self.open_scanned(code)
                return True
            await self._replay_held(event, ends_burst=ends)
            return True
        return self._start_hold(event)

    def _capture_key(self, event: events.Key, scanner: ScannerKeys | None) -> bool:
        """A key of a scan begun by the prefix: the suffix ends it, Esc or a key no code has
        (ctrl+…, an arrow) gives it up; characters are the code (True: taken)."""
        capture = self._capture
        assert capture is not None
        if event.key == (scanner.suffix if scanner is not None else "enter"):
            self._end_capture()
            if capture:
                self.open_scanned("".join(capture))
            return True
        character = event.character
        if (
            character is not None
            and len(character) == 1
            and character.isprintable()
            and not event.key.startswith(_MODIFIERS)
            and len(capture) < SCAN_MAX_LENGTH
        ):
            capture.append(character)
            self._arm_capture()
            return True
        self._end_capture()
        return event.key == "escape"  # Esc only gives up the scan; another key goes on

    def _arm_capture(self) -> None:
        if self._capture_timer is not None:
            self._capture_timer.stop()
        self._capture_timer = self.set_timer(CAPTURE_IDLE, self._end_capture)

    def _end_capture(self) -> None:
        self._capture = None
        if self._capture_timer is not None:
            self._capture_timer.stop()
            self._capture_timer = None

    def _start_hold(self, event: events.Key) -> bool:
        if not is_code_character(event) or not self.takes_scans():
            return False
        repeating = self._repeating
        if repeating is not None:
            character, last = repeating
            if event.character == character and event.time - last < BURST_GAP:
                self._repeating = (character, event.time)
                return False  # still held down: straight through
            self._repeating = None
        self._held.append(event)
        self._burst_fast = True
        self._arm_release()
        return True

    @staticmethod
    def _is_repeat(held: list[events.Key]) -> bool:
        # Only from the burst's start: codes have runs of zeros inside.
        return len(held) == REPEAT_LENGTH and len({key.character for key in held}) == 1

    def _arm_release(self) -> None:
        if self._release_timer is not None:
            self._release_timer.stop()
        last = self._held[-1]
        self._release_timer = self.set_timer(
            BURST_GAP + RELEASE_MARGIN, lambda: self._release_later(last)
        )

    def _release_later(self, last: events.Key) -> None:
        # Behind the keys already queued: one that arrived in time still joins the burst.
        self.call_later(self._release_if_last, last)

    async def _release_if_last(self, last: events.Key) -> None:
        if self._held and self._held[-1] is last and not self._waiting_input:
            await self._replay_held()

    def _drop_held(self) -> None:
        self._held = []
        if self._release_timer is not None:
            self._release_timer.stop()
            self._release_timer = None

    async def _replay_held(
        self, then: events.Key | events.Paste | None = None, *, ends_burst: bool = False
    ) -> None:
        """Hand the held keys on (known not to be a scan), then `then` (a key or paste still to
        be looked at), ahead of whatever else waits: one at a time, in order. A burst of two
        or more goes on only as text (`_burst_as_text`); `ends_burst`: `then` is the Enter or
        Tab that closed it, which goes where the text went."""
        keys = self._held
        self._drop_held()
        self.keys_released += len(keys)
        entries: list[tuple[events.Key | events.Paste, bool]] = [(key, True) for key in keys]
        if len(keys) > 1 and not self._is_repeat(keys[:REPEAT_LENGTH]):
            went = self._burst_as_text(keys)
            if went != "typed":
                entries = []
            if went == "dropped" and ends_burst:
                then = None  # its text dropped: the Enter that closed it too
        if then is not None:
            entries.append((then, False))
        self._waiting_input[:0] = entries
        if not self._input_holds:
            await self._hand_on_waiting_input()

    def _burst_as_text(self, keys: list[events.Key]) -> Literal["typed", "taken", "dropped"]:
        """A burst that is no scan, as text, never a binding: "typed" when its keys go on to
        the focused text field; "taken" when the screen's `take_burst_text` took the text (the
        list puts it in its search and focuses that); else "dropped"."""
        from textual.widgets import TextArea

        if isinstance(self.screen.focused, Input | TextArea):
            return "typed"
        take = getattr(self.screen, "take_burst_text", None)
        if callable(take) and take("".join(key.character or "" for key in keys)):
            return "taken"
        return "dropped"

    async def release_held_keys(self) -> None:
        """Hand the held keys on, in order, as if each had just arrived."""
        await self._replay_held()
