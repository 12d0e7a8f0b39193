"""Barcode scans told apart from typing, key by key: by the scanner's prefix when one is
configured, else by a burst's pace and content. Plain Python: no UI toolkit, no screen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Literal, Protocol, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable

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
REPEAT_LENGTH = 4
"""A burst that starts with one character this many times is a key held down, not a scan."""
RELEASE_MARGIN = 0.010
"""Seconds after the gap before held keys are handed on (timer slack)."""
CONTINUE_GAP = 1.0
"""Seconds after the last key of a burst let go as text within which the next code keys go
on with that text: a scan split by one late key (a busy machine), whose tail is no scan of
its own and no keys with bindings, however fast its keys come (read at once after a stall)."""

MODIFIERS = ("alt+", "ctrl+", "super+", "meta+", "hyper+")
CODE_PUNCTUATION = "-_"
"""Besides letters and digits, what PROs (`123-456789-0`) and ids (`shp_…`) are made of."""


class KeyPress(Protocol):
    """What the reader looks at in a key: its name, its character, when it arrived."""

    key: str
    character: str | None
    time: float


class Stoppable(Protocol):
    """A timer the reader armed: stopped when it is no longer wanted."""

    def stop(self) -> None: ...


K = TypeVar("K", bound=KeyPress)
Verdict = Literal["through", "taken", "behind"]
"""What happens to a key fed to the reader: "through": it goes on now, as it is; "taken":
the reader keeps it (held, part of a scan, or dropped with the text it closed); "behind":
the held keys were let go (`release`) and this key goes on right behind them."""
TextWent = Literal["typed", "taken", "dropped"]
"""Where a burst that is no scan went as text: "typed": its keys go on to the focused text
field; "taken": the screen took the text (the list's search); "dropped": nowhere."""


def is_code_character(event: KeyPress) -> bool:
    """A key that may be part of a scanned code: a letter, digit, dash or underscore typed
    with no modifier (`/`, a space or `.` is typing: no code has them)."""
    character = event.character
    return (
        character is not None
        and len(character) == 1
        and (character.isalnum() or character in CODE_PUNCTUATION)
        and not event.key.startswith(MODIFIERS)
    )


def is_scanned_code(code: str) -> bool:
    """Long enough, and with a digit: every PRO, tracking number, BOL and id has one, while a
    word typed fast (`Chicago` and Enter, pasted by a terminal) is a search."""
    return SCAN_MIN_LENGTH <= len(code) <= SCAN_MAX_LENGTH and any(
        character.isdigit() for character in code
    )


def is_repeat(held: list[K]) -> bool:
    """One character `REPEAT_LENGTH` times from the burst's start (codes have runs of zeros
    inside): a key held down."""
    return len(held) == REPEAT_LENGTH and len({key.character for key in held}) == 1


@dataclass(eq=False, kw_only=True)
class ScanReader(Generic[K]):
    """Reads keys as they arrive and tells scans from typing.

    **By the prefix.** With `scanner()` giving a prefix, the prefix key starts a scan: the
    characters after it, up to the suffix (Enter or Tab), are the code for `open_scanned`.
    Esc or a key no code has gives the scan up; so does `CAPTURE_IDLE` without a key. No
    other key is held: scans are known by their content, not their pace.

    **By the pace** (no prefix). Where `takes_scans()`, a code character is held until the
    next key shows what it is part of; code characters within `BURST_GAP` of each other are
    one burst, held too. Enter (or Tab) after at least `SCAN_MIN_LENGTH` of them, one a
    digit, every gap under `SCAN_GAP`, is a scan. A burst that is no scan goes to `as_text`,
    never as keys with bindings, unless `as_text` says its keys are typed into a text field;
    a lone held key (a person's) or a key held down (`REPEAT_LENGTH` alike) is let go as the
    keys they are. Code keys within `CONTINUE_GAP` of a burst let go as text go on with it:
    their burst is text too, however fast (a scan split by a late key: the tail is no scan
    of its own), and an Enter right behind a dropped text is dropped with it. Held keys
    are let go through `release`; when a burst has gone quiet (`BURST_GAP`) the reader calls
    `due(last)`, and the caller, once the keys queued before then are read, calls
    `let_go_if_last(last)`.
    """

    scanner: Callable[[], ScannerKeys | None]
    """The scanner's prefix and suffix keys; None when no prefix is configured."""
    takes_scans: Callable[[], bool]
    """Whether a burst may be a scan where the focus is now."""
    set_timer: Callable[[float, Callable[[], object]], Stoppable]
    open_scanned: Callable[[str], None]
    as_text: Callable[[str], TextWent]
    release: Callable[[list[K]], None]
    due: Callable[[K], object]
    typed_at_once: Callable[[], Callable[[], None] | None] = lambda: None
    """Where a burst's keys are text whatever it turns out to be (the empty search field): a
    function that takes them back out (the field as it was before the burst), and the keys
    go on at once, unheld; a scan takes them back before `open_scanned`. None: held."""
    released: int = field(default=0, init=False)
    """How many held keys were let go so far (tests wait for them)."""
    _held: list[K] = field(default_factory=list, init=False)
    _release_timer: Stoppable | None = field(default=None, init=False)
    _repeating: tuple[str, float] | None = field(default=None, init=False)
    """A key held down: its character and when it last arrived (passes without a hold)."""
    _burst_fast: bool = field(default=True, init=False)
    """Whether every gap of the held burst so far was a scanner's (under `SCAN_GAP`)."""
    _burst_continues: bool = field(default=False, init=False)
    """Whether the held burst goes on with the text let go before it (never a scan)."""
    _text: tuple[TextWent, float] | None = field(default=None, init=False)
    """The last burst let go as text: where it went, when its last key arrived (None: the
    keys since were no part of it)."""
    _capture: list[str] | None = field(default=None, init=False)
    """The characters of a scan begun by the prefix, until its suffix (None: no scan)."""
    _capture_timer: Stoppable | None = field(default=None, init=False)
    _take_back: Callable[[], None] | None = field(default=None, init=False)
    """The burst's keys went on as they came (`typed_at_once`): how to take them back."""

    @property
    def scanning(self) -> bool:
        """True between a scanner prefix and its suffix."""
        return self._capture is not None

    @property
    def holding(self) -> bool:
        """True while keys wait for the burst they may belong to be decided."""
        return bool(self._held)

    @property
    def held_text(self) -> str:
        """The characters of the keys held now (what a burst let go as text would type)."""
        return "".join(key.character or "" for key in self._held)

    @property
    def held_is_no_scan(self) -> bool:
        """Whether the keys held now can no longer be a scan (they will go on as text or as
        the keys they are): a gap no scanner leaves, or they go on with the text before."""
        return bool(self._held) and (not self._burst_fast or self._burst_continues)

    def feed(self, event: K) -> Verdict:
        """Hold `event`, or take it as a scan's end, or let the held keys go with it behind
        them; else let it through."""
        if self._capture is not None:
            return self._capture_key(event)
        scanner = self.scanner()
        if scanner is not None:
            if event.key != scanner.prefix:
                return "through"  # scans are known by their prefix: nothing else is held
            self._capture = []
            self._arm_capture()
            return "taken"
        held = self._held
        if not held:
            return self._start_hold(event)
        gap = event.time - held[-1].time
        if gap < BURST_GAP and is_code_character(event) and len(held) < SCAN_MAX_LENGTH:
            self._burst_fast = self._burst_fast and gap < SCAN_GAP
            held.append(event)
            typed = self._take_back is not None
            if is_repeat(held):
                self._repeating = (event.character or "", event.time)
                self.let_go()
                return "through" if typed else "taken"
            self._arm_release()
            return "through" if typed else "taken"
        code = "".join(key.character or "" for key in held)
        ends = gap < BURST_GAP and event.key in SCAN_ENDS
        fast = self._burst_fast and gap < SCAN_GAP and not self._burst_continues
        if ends and fast and is_scanned_code(code):
            take_back = self._take_back
            self._drop_held()
            if take_back is not None:
                take_back()  # (a scan never leaves its code in the field)
            self.open_scanned(code)
            return "taken"
        return "behind" if self.let_go(ends_burst=ends) else "taken"

    def let_go(self, *, ends_burst: bool = False) -> bool:
        """Let the held keys go (known not to be a scan) through `release`: a burst of two
        or more only as text (`as_text`). False when `ends_burst` (the Enter or Tab that
        closed the burst) should go with its text, which was dropped."""
        keys, continues = self._held, self._burst_continues
        self.released += len(keys)
        if self._take_back is not None:  # they went on as they came
            keys, continues = [], False
        self._drop_held()
        goes_on = True
        if keys:
            self._text = None
        if (len(keys) > 1 or continues) and keys and not is_repeat(keys[:REPEAT_LENGTH]):
            went = self.as_text("".join(key.character or "" for key in keys))
            if not ends_burst:  # (an Enter or Tab behind it ends the text)
                self._text = (went, keys[-1].time)
            if went != "typed":
                keys = []
            goes_on = not (went == "dropped" and ends_burst)
        self.release(keys)
        return goes_on

    def let_go_if_last(self, last: K) -> bool:
        """Let the held keys go if `last` is still the last of them (True): no key joined the
        burst since it went quiet."""
        if self._held and self._held[-1] is last:
            self.let_go()
            return True
        return False

    def _capture_key(self, event: K) -> Verdict:
        """A key of a scan begun by the prefix: the suffix ends it, Esc or a key no code has
        (ctrl+…, an arrow) gives it up; characters are the code."""
        capture = self._capture
        assert capture is not None
        scanner = self.scanner()
        if event.key == (scanner.suffix if scanner is not None else "enter"):
            self._end_capture()
            if capture:
                self.open_scanned("".join(capture))
            return "taken"
        character = event.character
        if (
            character is not None
            and len(character) == 1
            and character.isprintable()
            and not event.key.startswith(MODIFIERS)
            and len(capture) < SCAN_MAX_LENGTH
        ):
            capture.append(character)
            self._arm_capture()
            return "taken"
        self._end_capture()
        # Esc only gives up the scan; another key goes on.
        return "taken" if event.key == "escape" else "through"

    def _arm_capture(self) -> None:
        if self._capture_timer is not None:
            self._capture_timer.stop()
        self._capture_timer = self.set_timer(CAPTURE_IDLE, self._end_capture)

    def _end_capture(self) -> None:
        self._capture = None
        if self._capture_timer is not None:
            self._capture_timer.stop()
            self._capture_timer = None

    def _start_hold(self, event: K) -> Verdict:
        text = self._text
        if text is not None and event.time - text[1] >= CONTINUE_GAP:
            text = self._text = None
        if not is_code_character(event):
            self._text = None
            dropped = text is not None and text[0] == "dropped"
            # The Enter of a text that was dropped (a split scan's) goes with it.
            return "taken" if dropped and event.key in SCAN_ENDS else "through"
        if not self.takes_scans():
            return "through"  # (typed on: the text, if any, goes on)
        repeating = self._repeating
        if repeating is not None:
            character, last = repeating
            if event.character == character and event.time - last < BURST_GAP:
                self._repeating = (character, event.time)
                return "through"  # still held down: straight through
            self._repeating = None
        self._held.append(event)
        self._burst_fast = True
        self._burst_continues = text is not None
        self._text = None
        self._take_back = None if self._burst_continues else self.typed_at_once()
        self._arm_release()
        return "taken" if self._take_back is None else "through"

    def _arm_release(self) -> None:
        if self._release_timer is not None:
            self._release_timer.stop()
        last = self._held[-1]
        self._release_timer = self.set_timer(BURST_GAP + RELEASE_MARGIN, lambda: self.due(last))

    def _drop_held(self) -> None:
        self._held = []
        self._burst_continues = False
        self._take_back = None
        if self._release_timer is not None:
            self._release_timer.stop()
            self._release_timer = None
