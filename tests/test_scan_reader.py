"""The scan reader on its own (tui.scan_reader): keys with set arrival times and a fake timer,
no app and no sleeps; what it hands on is recorded."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from tui.config.plain import ScannerKeys
from tui.scan_reader import (
    BURST_GAP,
    CAPTURE_IDLE,
    CONTINUE_GAP,
    REPEAT_LENGTH,
    SCAN_GAP,
    ScanReader,
    TextWent,
    Verdict,
)

PREFIX = "ctrl+right_square_bracket"
NAMES = {"⏎": ("enter", "\r"), "⇥": ("tab", "\t"), "⎋": ("escape", "\x1b"), "⌁": (PREFIX, "\x1d")}


@dataclass(eq=False)
class Key:
    key: str
    character: str | None
    time: float


@dataclass
class Timer:
    due: float
    callback: Callable[[], object]
    stopped: bool = False

    def stop(self) -> None:
        self.stopped = True


@dataclass
class Station:
    """A reader with a fake clock, and what it handed on."""

    prefix: str | None = None
    takes_scans: bool = True
    text_goes: TextWent = "dropped"
    now: float = 1000.0
    timers: list[Timer] = field(default_factory=list)
    scanned: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    released: list[list[str]] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.reader: ScanReader[Key] = ScanReader(
            scanner=lambda: ScannerKeys(self.prefix) if self.prefix else None,
            takes_scans=lambda: self.takes_scans,
            set_timer=self.set_timer,
            open_scanned=self.scanned.append,
            as_text=self.as_text,
            release=lambda keys: self.released.append([key.key for key in keys]),
            due=lambda last: self.reader.let_go_if_last(last),
        )

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Timer:
        timer = Timer(self.now + delay, callback)
        self.timers.append(timer)
        return timer

    def as_text(self, text: str) -> TextWent:
        self.texts.append(text)
        return self.text_goes

    def type(self, keys: str | list[str], gap: float) -> None:
        """Feed `keys`, each `gap` seconds after the last, firing timers due meanwhile."""
        for name in keys:
            key, character = NAMES.get(name, (name, name))
            self.verdicts.append(self.reader.feed(Key(key, character, self.now)))
            self.wait(gap)

    def wait(self, seconds: float) -> None:
        self.now += seconds
        for timer in list(self.timers):
            if not timer.stopped and timer.due <= self.now:
                timer.stopped = True
                timer.callback()


def test_a_scanner_s_burst_and_enter_is_a_scan_and_nothing_else() -> None:
    station = Station()
    station.type("PRO12345⏎", gap=SCAN_GAP / 3)
    assert station.scanned == ["PRO12345"]
    assert station.released == []
    assert station.texts == []
    assert set(station.verdicts) == {"taken"}
    station.wait(BURST_GAP * 2)
    assert not station.reader.holding
    assert station.released == []


def test_a_burst_too_slow_for_a_scan_goes_only_as_text_with_its_enter() -> None:
    station = Station()
    station.type("12345⏎", gap=0.035)
    assert station.scanned == []
    assert station.texts == ["12345"]
    assert station.released == [[]]  # no key goes on: no binding runs
    assert station.verdicts[-1] == "taken"  # the text was dropped: its Enter too
    typed = Station(text_goes="typed")
    typed.type("12345⏎", gap=0.035)
    assert typed.released == [list("12345")]
    assert typed.verdicts[-1] == "behind"  # the Enter goes on after the typed keys


@pytest.mark.parametrize("tail", ["a79z45qg6⏎", "6⏎", "⏎"])
def test_the_tail_of_a_scan_split_by_a_late_key_is_the_text_s_never_a_scan(tail: str) -> None:
    """After one key 0.3 s late the rest comes at once (the app read nothing meanwhile): as
    fast as a scan, but the tail of the text let go before it, so it goes where that went
    (dropped here, with its Enter), never as a scan of its own or as the keys they are."""
    station = Station()
    station.type("shp_1nb", gap=0.035)
    station.wait(0.300 - 0.035)  # the head went quiet: let go as text
    assert station.texts == ["shp_1nb"]
    station.type(tail, gap=SCAN_GAP / 30)
    assert station.scanned == []
    assert station.texts == ["shp_1nb", *([tail[:-1]] if tail[:-1] else [])]
    assert all(keys == [] for keys in station.released)  # no key went on: no binding ran
    assert station.verdicts[-1] == "taken"  # the Enter went with the text


def test_a_scan_well_after_a_text_is_a_scan() -> None:
    station = Station()
    station.type("shp_1nb", gap=0.035)
    station.wait(CONTINUE_GAP)
    station.type("PRO12345⏎", gap=SCAN_GAP / 3)
    assert station.scanned == ["PRO12345"]


def test_a_person_s_lone_key_goes_on_as_the_key_it_is_once_the_gap_has_passed() -> None:
    station = Station()
    station.type("s", gap=BURST_GAP / 2)
    assert station.reader.holding
    assert station.released == []
    station.wait(BURST_GAP)
    assert station.released == [["s"]]
    assert station.texts == []
    assert station.reader.released == 1


def test_a_key_held_down_goes_on_as_keys_and_then_straight_through() -> None:
    station = Station()
    station.type("j" * (REPEAT_LENGTH + 2), gap=SCAN_GAP / 3)
    assert station.released == [["j"] * REPEAT_LENGTH]
    assert station.verdicts[REPEAT_LENGTH:] == ["through", "through"]
    assert station.texts == []


def test_off_a_place_that_takes_scans_keys_go_through() -> None:
    station = Station(takes_scans=False)
    station.type("12345⏎", gap=SCAN_GAP / 3)
    assert set(station.verdicts) == {"through"}
    assert station.scanned == []
    assert station.timers == []


@pytest.mark.parametrize("gap", [SCAN_GAP / 3, 0.5])
def test_with_a_prefix_a_scan_is_known_by_its_content_at_any_pace(gap: float) -> None:
    station = Station(prefix=PREFIX, takes_scans=False)
    station.type(["⌁", *"AB-123", "⏎"], gap=gap)
    assert station.scanned == ["AB-123"]
    assert set(station.verdicts) == {"taken"}
    station.type("12345⏎", gap=SCAN_GAP / 3)  # fast keys without the prefix are keys
    assert station.verdicts[-6:] == ["through"] * 6
    assert station.scanned == ["AB-123"]


def test_a_scan_begun_by_the_prefix_is_given_up_by_esc_another_key_or_time() -> None:
    station = Station(prefix=PREFIX)
    station.type(["⌁", "1", "⎋", "2"], gap=0.01)
    assert station.verdicts == ["taken", "taken", "taken", "through"]
    station.type(["⌁", "1", "up"], gap=0.01)
    assert station.verdicts[-1] == "through"
    assert not station.reader.scanning
    station.type(["⌁", "1"], gap=0.01)
    station.wait(CAPTURE_IDLE)
    assert not station.reader.scanning
    assert station.scanned == []


def test_the_reader_loads_no_ui_toolkit() -> None:
    probe = "import sys, tui.scan_reader; sys.exit('textual' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", probe], check=False).returncode == 0
