"""Bursts that are no scan, and scans known by the scanner's prefix (tui.key_filter): a burst
too slow for a scan goes on only as text, never as a binding; with a prefix, a scan is a scan
wherever the focus is, however slowly its keys arrive."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType

from tests.ui.screen import wait_for
from tests.ui.test_key_filter import KEY_NAMES, Filtered, Form, burst, focus, settled
from tui.config.plain import ScannerKeys

PREFIX = "ctrl+right_square_bracket"
SLOW = 0.035
"""A scanner's keys on a busy machine: too far apart for a scan (SCAN_GAP), too close for a
person's keys (BURST_GAP)."""


class Listing(Form):
    """The form with a list's single-key bindings: `s` sorts, `p` prints."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "mark('sort')"),
        Binding("p", "mark('print')"),
    ]

    def action_mark(self, what: str) -> None:
        app = self.app
        assert isinstance(app, Bound)
        app.marked.append(what)

    def take_burst_text(self, text: str) -> bool:
        app = self.app
        assert isinstance(app, Bound)
        if not app.takes_text:
            return False
        app.taken.append(text)
        return True

    def burst_held(self, text: str) -> None:
        app = self.app
        assert isinstance(app, Bound)
        app.held.append(text)


class Bound(Filtered):
    SCREEN = Listing

    def __init__(
        self,
        scanner: ScannerKeys | None = None,
        *,
        takes_text: bool = False,
        opens_scans: bool = True,
    ) -> None:
        super().__init__(opens_scans)
        self.marked: list[str] = []
        self.taken: list[str] = []
        self.held: list[str] = []
        """What the held keys would type, as the screen was told while they were held."""
        self.takes_text = takes_text
        self.scanner = scanner

    def scanner_keys(self) -> ScannerKeys | None:
        return self.scanner


def keys(*names: str) -> list[str]:
    return [name for item in names for name in ([item] if item in KEY_NAMES else list(item))]


async def test_a_burst_too_slow_for_a_scan_runs_no_binding_and_is_dropped_off_text() -> None:
    app = Bound()
    async with app.run_test() as pilot:
        await focus(pilot, "#list")
        burst(app, keys("shp_0042sp", "⏎"), gap=SLOW)  # a scan with its keys 35 ms apart
        await settled(pilot)
        assert app.scanned == []
        assert app.marked == []  # neither the `s` nor the `p` ran
        assert app.submitted == []
        assert app.screen.focused is app.screen.query_one("#list")


async def test_a_burst_off_a_text_field_goes_to_the_screen_s_search() -> None:
    app = Bound(takes_text=True)
    async with app.run_test() as pilot:
        await focus(pilot, "#list")
        burst(app, keys("shp_0042"), gap=SLOW)
        await settled(pilot)
        assert app.taken == ["shp_0042"]
        assert app.marked == []


async def test_a_slow_burst_in_the_empty_search_is_typed_as_it_came() -> None:
    app = Bound()
    async with app.run_test() as pilot:
        search = await focus(pilot, "#search")
        burst(app, keys("shp_0042", "⏎"), gap=SLOW)
        await settled(pilot)
        assert search.value == "shp_0042"
        assert app.submitted == [("search", "shp_0042")]  # its Enter too: the search's
        assert app.scanned == []
        assert app.marked == []


async def test_a_person_s_keys_still_run_their_bindings() -> None:
    app = Bound()
    async with app.run_test() as pilot:
        await focus(pilot, "#list")
        burst(app, ["s"])
        await settled(pilot)
        assert app.marked == ["sort"]
        burst(app, ["s", "p"], gap=0.3, start=2000.0)  # a person's pace
        await settled(pilot)
        assert app.marked == ["sort", "sort", "print"]


async def test_with_a_prefix_a_scan_is_known_in_a_text_field_however_slow() -> None:
    app = Bound(ScannerKeys(PREFIX, "enter"))
    async with app.run_test() as pilot:
        field = await focus(pilot, "#text")
        burst(app, keys("⌁", "SO-1234/5", "⏎"), gap=0.3)  # a person's pace, even
        await settled(pilot)
        assert app.scanned == ["SO-1234/5"]
        assert field.value == ""
        assert app.submitted == []


async def test_with_a_prefix_a_scan_opens_on_a_screen_that_takes_no_scans() -> None:
    app = Bound(ScannerKeys(PREFIX, "tab"), opens_scans=False)
    async with app.run_test() as pilot:
        await focus(pilot, "#list")
        burst(app, keys("⌁", "shp_0042sp", "⇥"), gap=SLOW)
        await settled(pilot)
        assert app.scanned == ["shp_0042sp"]
        assert app.marked == []


async def test_with_a_prefix_fast_keys_without_it_are_keys() -> None:
    app = Bound(ScannerKeys(PREFIX, "enter"))
    async with app.run_test() as pilot:
        search = await focus(pilot, "#search")
        burst(app, keys("1234567890", "⏎"))  # a scanner's pace, but no prefix: typed
        await settled(pilot)
        assert app.scanned == []
        assert search.value == "1234567890"
        assert app.submitted == [("search", "1234567890")]


async def test_esc_or_another_key_gives_up_a_scan_begun_by_the_prefix() -> None:
    app = Bound(ScannerKeys(PREFIX, "enter"))
    async with app.run_test() as pilot:
        field = await focus(pilot, "#text")
        burst(app, keys("⌁", "ab", "⎋", "cd"))
        await settled(pilot)
        assert field.value == "cd"
        burst(app, keys("⌁", "ef"), start=2000.0)
        app.post_message(events.Key("backspace", "\x7f"))  # no code has it: typing again
        await settled(pilot)
        assert not app.scanning
        assert app.scanned == []
        assert field.value == "c"


async def test_a_burst_in_the_empty_search_goes_in_at_once_unheld() -> None:
    app = Bound(takes_text=True)
    async with app.run_test() as pilot:
        search = await focus(pilot, "#search")
        burst(app, keys("Chicago"), gap=SLOW * 2)  # typed fast: too slow for a scan
        await wait_for(pilot, lambda: search.value == "Chicago", what="the text typed")
        # Typed as the keys came, while the reader still watches the burst: text in a text
        # field whatever it turns out to be (the search asked as it goes, no hold).
        assert app.holding_keys
        await settled(pilot)
        assert search.value == "Chicago"
        assert app.held == []
        assert app.taken == []
        assert app.scanned == []


async def test_a_scan_in_the_empty_search_is_taken_back_out_of_it_and_opened() -> None:
    app = Bound(takes_text=True)
    async with app.run_test() as pilot:
        search = await focus(pilot, "#search")
        typed: list[str] = []

        def seen(value: str) -> None:
            typed.append(value)

        search.watch(search, "value", seen, init=False)
        burst(app, keys("shp_0042", "⏎"))  # a scanner's pace
        await settled(pilot)
        assert app.scanned == ["shp_0042"]
        assert "shp_0042" in typed, "typed in at once"
        assert search.value == "", "a scan never leaves its code in the search"
        assert app.submitted == []
        assert app.held == []
        assert app.taken == []
