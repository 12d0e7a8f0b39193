"""The app's key filter: alt keys never type, and scanner bursts are told apart from typing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.app import App

from tui.widgets.typeahead import move_focus

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.timer import Timer

SCAN_GAP = 0.030
"""Seconds: keys closer together than this (by arrival) belong to one burst."""
SCAN_MIN_LENGTH = 4
"""Characters a burst needs before its Enter makes it a scan."""
SCAN_MAX_LENGTH = 64
"""A burst this long without Enter is typing (or a paste), not a scan."""
REPEAT_LENGTH = 4
"""A burst that starts with one character this many times is a key held down, not a scan."""
RELEASE_MARGIN = 0.010
"""Seconds after the gap before held keys are handed on (timer slack)."""

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
    return len(code) >= SCAN_MIN_LENGTH and any(character.isdigit() for character in code)


class KeyFilter(App[None]):
    """The app's key filter. Alt keys lose their character, so one that nothing binds types
    nothing (a field would insert the "1" of alt+1). On screens that open shipments
    (`OPENS_SCANS = True`), a burst of code characters arriving faster than a person types
    and ending in Enter is a scan.

    A code character is held until the next key shows what it is part of. Keys that join the
    burst are held too; Enter after at least `SCAN_MIN_LENGTH` of them, one a digit, hands
    the code to `open_scanned` and nothing else sees the keys. Anything else (a pause longer than
    `SCAN_GAP`, a slower key, another key) replays the held keys in order through the app's
    usual key path, so priority bindings (Tab moving focus as it arrives) run for each as if
    it had just arrived, and every key lands where it would have without the hold.
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
        self._waiting_input: list[events.Key | events.Paste] = []
        """Keys and pastes that arrived while a screen was still putting itself together."""
        self._handing_on = False

    def action_typeahead_focus(self, step: int) -> None:
        """Tab (1) or shift+tab (-1) on arrival: see `tui.widgets.typeahead`."""
        move_focus(self.screen, step)

    def open_scanned(self, code: str) -> None:
        """Open the shipment whose PRO, tracking number, BOL or id was scanned."""
        raise NotImplementedError

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
        waiting = self._waiting_input
        self._handing_on = True
        try:
            while waiting and not self._input_holds:
                await self.on_event(waiting.pop(0))
        finally:
            self._handing_on = False

    async def on_event(self, event: events.Event) -> None:
        if (
            isinstance(event, events.Key | events.Paste)
            and not event.is_forwarded
            and (self._input_holds or self._waiting_input)
            and not self._handing_on
        ):
            self._waiting_input.append(event)
            return
        if isinstance(event, events.Key) and not event.is_forwarded:
            event = without_character(event) if event.key.startswith("alt+") else event
            if await self._filter_key(event):
                return
        elif (
            self._held
            and isinstance(event, events.InputEvent | events.Paste)
            and not event.is_forwarded
        ):
            await self.release_held_keys()  # a click or paste comes after the keys before it
        await super().on_event(event)

    async def _filter_key(self, event: events.Key) -> bool:
        """Hold `event`, or take it as a scan's end (True); else let it through (False)."""
        held = self._held
        if held:
            fast = event.time - held[-1].time < SCAN_GAP
            if fast and is_code_character(event) and len(held) < SCAN_MAX_LENGTH:
                held.append(event)
                if self._is_repeat(held):
                    self._repeating = (event.character or "", event.time)
                    await self.release_held_keys()
                    return True
                self._arm_release()
                return True
            code = "".join(key.character or "" for key in held)
            if fast and event.key == "enter" and is_scanned_code(code):
                self._drop_held()
                self.open_scanned(code)
                return True
            await self.release_held_keys()
        return self._start_hold(event)

    def _start_hold(self, event: events.Key) -> bool:
        if not is_code_character(event) or not getattr(self.screen, "OPENS_SCANS", False):
            return False
        repeating = self._repeating
        if repeating is not None:
            character, last = repeating
            if event.character == character and event.time - last < SCAN_GAP:
                self._repeating = (character, event.time)
                return False  # still held down: straight through
            self._repeating = None
        self._held.append(event)
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
            SCAN_GAP + RELEASE_MARGIN, lambda: self._release_later(last)
        )

    def _release_later(self, last: events.Key) -> None:
        # Behind the keys already queued: one that arrived in time still joins the burst.
        self.call_later(self._release_if_last, last)

    async def _release_if_last(self, last: events.Key) -> None:
        if self._held and self._held[-1] is last:
            await self.release_held_keys()

    def _drop_held(self) -> None:
        self._held = []
        if self._release_timer is not None:
            self._release_timer.stop()
            self._release_timer = None

    async def release_held_keys(self) -> None:
        """Hand the held keys on, in order, as if each had just arrived."""
        keys = self._held
        self._drop_held()
        self.keys_released += len(keys)
        for key in keys:
            await super().on_event(key)
