"""In a real terminal (tmux, 80x24): bursts of keys land exactly as typed, editing keys
included, at 0, 10, 30 and 50 ms between keys and across a 2 s stall (issue 28).

Each sweep types into every field of a screen in one run of keys (Tab between fields), each
field's text with a wrong key and Backspace in it; the fields then show exactly the text
meant. One app start for the Quote, the Book form, the shipments search and the batch rules
(the CI machine has two cores).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.keys_flow import APP, app_env, field, wait_for_demo, wait_until
from tests.e2e.tmux import TmuxTerminal, tmux_available

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(not tmux_available(), reason="tmux is not installed"),
]

GAPS = (0.0, 0.010, 0.030, 0.050)
"""Seconds between keys (0: all in one write, as after an SSH stall)."""
STALL = 2.0
"""A pause in the middle of a burst (the keys before it and after it each come at once)."""


def typed(text: str) -> list[str]:
    """tmux key names for `text`, where `⌫` is Backspace and `⇥` Tab."""
    names = {"⌫": "BSpace", "⇥": "Tab", " ": "Space"}
    return [names.get(character, character) for character in text]


def send(term: TmuxTerminal, keys: list[str], gap: float) -> None:
    """The keys `gap` apart, or all in one write; `STALL` marks a 2 s pause."""
    parts: list[list[str]] = [[]]
    for key in keys:
        if key == "STALL":
            parts.append([])
        else:
            parts[-1].append(key)
    for index, part in enumerate(parts):
        if index:
            time.sleep(STALL)
        if not gap:
            term.send(*part)
            continue
        for key in part:
            term.send(key)
            time.sleep(gap)


def sweeps() -> list[tuple[float, bool, str]]:
    """(gap, with a stall, a digit that makes each sweep's values its own)."""
    return [(gap, False, str(index + 1)) for index, gap in enumerate(GAPS)] + [(0.0, True, "5")]


def settled(term: TmuxTerminal, check: Callable[[str], bool], timeout: float = 30) -> str:
    return wait_until(term, check, timeout)


def row_one(screen: str) -> str:
    return next(line for line in screen.splitlines() if line.startswith("│ 1 "))


def quote_sweep(digit: str, stall: bool) -> list[str]:
    """From the To ZIP round the whole form back to it: To, the row's Qty, Lb, L, W, H and
    Description, Ref, PO, Pickup, From."""
    keys = ["C-u", *typed(f"30309⌫{digit}⇥⇥⇥")]
    keys += ["C-u", *typed(f"19⌫{digit}⇥⇥")]  # Qty; past Pkg
    keys += ["C-u", *typed(f"809⌫{digit}⇥")]  # Lb
    keys += ["C-u", *typed(f"49⌫{digit}⇥"), "C-u", *typed(f"41⌫{digit}⇥")]  # L, W
    keys += ["C-u", *typed(f"47⌫{digit}⇥⇥")]  # H; past Class
    keys += ["C-u", *typed("Mach"), *(["STALL"] if stall else []), *typed(f"x⌫ine{digit}⇥")]
    keys += ["C-u", *typed(f"Rex⌫f{digit}⇥")]
    keys += ["C-u", *typed(f"PO-7x⌫{digit}⇥")]
    keys += ["C-u", *typed(f"2026-12-09⌫{digit}⇥")]  # Pickup
    keys += ["C-u", *typed(f"60608⌫{digit}⇥⇥")]  # From, its type, back to To
    return keys


def quote_as_typed(digit: str) -> Callable[[str], bool]:
    def check(screen: str) -> bool:
        row = row_one(screen)
        return (
            field(screen, "From") == f"6060{digit}"
            and field(screen, "To") == f"3030{digit}"
            and re.search(rf"│ 1 1{digit} +pallet +80{digit} +4{digit} +×4{digit} +×4{digit} ", row)
            is not None
            and f" Machine{digit} " in row
            and field(screen, "Pickup") == f"2026-12-0{digit}"
            and field(screen, "PO") == f"PO-7{digit}"
            and field(screen, "Ref") == f"Ref{digit}"
        )

    return check


def searched(digit: str) -> Callable[[str], bool]:
    return lambda screen: field(screen, "Search") == f"Peoria{digit}"


def ruled(digit: str) -> Callable[[str], bool]:
    return lambda screen: field(screen, "Rule") == f"cheapest-within-{digit}"


def _line_field(screen: str, label: str) -> str:
    """What follows `label` on the first line starting with it (the Book form's fields)."""
    for line in screen.splitlines():
        match = re.match(rf"\s*{label}\s+(\S*)", line)
        if match:
            return match.group(1)
    raise AssertionError(f"no {label!r} line on screen:\n{screen}")


def test_bursts_land_exactly_as_typed_in_every_field(tmp_path: Path) -> None:
    with TmuxTerminal([*APP, "--demo"], env=app_env(tmp_path), cwd=tmp_path) as term:
        wait_for_demo(term)
        # Quote: focus starts in the To ZIP (From comes from the demo's profile).
        for gap, stall, digit in sweeps():
            send(term, quote_sweep(digit, stall), gap)
            try:
                settled(term, quote_as_typed(digit))
            except AssertionError as error:
                raise AssertionError(f"quote, gap {gap}, stall {stall}: {error}") from None

        # The Book form: Company, Address, Contact, Phone of the shipper. The pickup date
        # cleared first (the next business day, whatever day the test runs): from the To ZIP
        # back past From's type and From to Pickup, the form's last field.
        term.send("BTab", "BTab", "BTab", "C-u")
        wait_until(term, lambda s: field(s, "Pickup") != "2026-12-05" and "Ready:" in s)
        term.send("C-r")
        term.wait_for("cheapest", timeout=60)
        term.send("Enter")
        term.wait_for("Schedule pickup")
        time.sleep(0.5)
        for gap, stall, digit in sweeps():
            keys = ["C-u", *typed(f"ACMx⌫E{digit}⇥"), "C-u", *typed(f"1 Maix⌫n{digit}⇥")]
            keys += ["C-u", *typed("Sam"), *(["STALL"] if stall else []), *typed(f"x⌫{digit}⇥")]
            keys += ["C-u", *typed(f"312-5559⌫{digit}"), "BTab", "BTab", "BTab"]
            send(term, keys, gap)

            def booked(screen: str, digit: str = digit) -> bool:
                return (
                    _line_field(screen, "Company") == f"ACME{digit}"
                    and _line_field(screen, "Address") == "1"
                    and f"1 Main{digit}" in screen
                    and _line_field(screen, "Contact") == f"Sam{digit}"
                    and _line_field(screen, "Phone") == f"312-555{digit}"
                )

            try:
                settled(term, booked)
            except AssertionError as error:
                raise AssertionError(f"book, gap {gap}, stall {stall}: {error}") from None

        # The shipments search (it takes scans while empty: these bursts are typing).
        term.type("\x1b3")
        term.wait_for("newest first", timeout=30)
        term.send("/")
        time.sleep(0.5)
        for gap, stall, digit in sweeps():
            keys = ["C-u", *typed("Pe"), *(["STALL"] if stall else []), *typed(f"x⌫oria{digit}")]
            send(term, keys, gap)
            try:
                settled(term, searched(digit))
            except AssertionError as error:
                raise AssertionError(f"search, gap {gap}, stall {stall}: {error}") from None

        # The batch rules: the demo's sample, its columns as guessed, then `c`.
        term.type("\x1b4")
        term.wait_for("Enter opens them", timeout=30)
        term.send("Enter")
        term.wait_for("Columns of demo-orders.csv", timeout=30)
        term.send("C-s")
        term.wait_for("10 orders · 8 pending", timeout=30)
        for gap, stall, digit in sweeps():
            term.send("c")
            term.wait_for("Choose each order's rate by")
            time.sleep(0.3)
            keys = ["C-u", *typed("cheapest-wi"), *(["STALL"] if stall else [])]
            keys += [*typed(f"thx⌫in-{digit}"), "Enter"]  # Enter: on to Prefer
            send(term, keys, gap)
            try:
                settled(term, ruled(digit))
            except AssertionError as error:
                raise AssertionError(f"rules, gap {gap}, stall {stall}: {error}") from None
            term.send("Escape")  # keep the rules as they were
            wait_until(term, lambda s: "Choose each order's rate by" not in s)
