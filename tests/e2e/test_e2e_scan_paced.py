"""In a real terminal (tmux): a scan's keys each in its own write, 35 ms apart, as a scanner
slowed by a busy machine or a network delivers them (too far apart to be told from typing by
their pace).

With the scanner's prefix configured the scan opens its shipment, from the list, a detail and
the quote form alike. Without it the keys are no scan, and they end up as text (in the list's
search, whose Enter then opens the shipment) or as nothing (on a detail): no single-key
binding runs (`s` sorts the list and saves a document on a detail, `p` prints, `e` exports).
Shipment ids are used for that: `shp_` holds `s` and `p`.
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import pytest

from tests.e2e.keys_flow import (
    APP,
    app_env,
    detail_loaded,
    press_escape,
    wait_for_demo,
    wait_until,
    with_scanner_prefix,
)
from tests.e2e.tmux import TmuxTerminal, tmux_available

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(not tmux_available(), reason="tmux is not installed"),
]

GAP = 0.035
"""Seconds between the writes of a scan's keys."""
LATE = 0.300
"""Seconds one key of a scan comes late, past the reader's burst gap (0.12 s)."""
LATE_AT = (2, 4, 7, 11, -1, 0)
"""Where the late key is in a code's keys: the first key after the gap (-1: the code's last
character, 0: its Enter)."""


def paced_scan(
    term: TmuxTerminal,
    code: str,
    *,
    prefix: bool,
    late_at: int | None = None,
    stall: bool = False,
    first_two_at_once: bool = False,
) -> None:
    """The code and Enter, each key its own write `GAP` apart; GS (ctrl+]) first with `prefix`.
    `late_at`: the key there (see `LATE_AT`) comes `LATE` after the key before it; `stall`:
    the rest come at once with it (read at once by an app that stalled).
    `first_two_at_once`: the code's first two keys in one write, the rest `GAP` apart."""
    together = 2 if first_two_at_once else 1
    keys = [*(["C-]"] if prefix else []), code[:together], *code[together:], "Enter"]
    late = (0, 0.0)
    if late_at is not None:
        at = late_at % (len(code) + 1) if late_at < 0 else late_at or len(code)
        late = (at + int(prefix) - (together - 1), LATE - GAP)
    term.type_paced(keys, GAP, late, stall=stall)


def shipment_ids(term: TmuxTerminal) -> list[str]:
    """The list's first page, whole, and the shipment ids on it."""
    listing = wait_until(
        term, lambda screen: "loaded, more" in screen and len(ids_on(screen)) >= 2, 30
    )
    return ids_on(listing)


def ids_on(screen: str) -> list[str]:
    return re.findall(r"[│┃][ ▸](shp_\S+)\s+\d\d-\d\d ", screen)


def detail_of(term: TmuxTerminal, code: str) -> str:
    """Wait until the detail of `code` is open and loaded."""
    wait_until(term, lambda screen: code in screen.splitlines()[1], 20)
    return wait_until(term, detail_loaded)


def list_as_it_was(screen: str) -> bool:
    """The list, sorted as it was (`s` not run), its search empty."""
    return "newest first" in screen and "Search PRO, tracking, BOL" in screen


def nothing_saved(tmp_path: Path) -> bool:
    """No document saved or printed under the data dir (`s` and `p` on a detail)."""
    data = tmp_path / "data"
    return not any(path.suffix in (".pdf", ".zpl") for path in data.rglob("*"))


def test_with_a_prefix_a_paced_scan_opens_its_shipment_from_anywhere(tmp_path: Path) -> None:
    with_scanner_prefix(tmp_path)
    with TmuxTerminal([*APP, "--demo"], env=app_env(tmp_path)) as term:
        wait_for_demo(term)
        term.send("F4")
        first, second = shipment_ids(term)[:2]

        paced_scan(term, first, prefix=True)  # from the list
        detail_of(term, first)
        paced_scan(term, second, prefix=True)  # from a detail
        detail_of(term, second)

        term.send("F2")  # the quote form, its ZIP field focused: a text field
        term.wait_for("Items")
        paced_scan(term, first, prefix=True)
        detail_of(term, first)
        press_escape(term, list_as_it_was)
        assert nothing_saved(tmp_path)


def test_without_a_prefix_a_paced_scan_is_text_or_nothing_and_runs_no_key(
    tmp_path: Path,
) -> None:
    # Without a prefix the first key alone is a person's until the second comes (the limit
    # docs/keys.md states: a loaded machine that holds the second key back past the burst gap
    # runs the first as the key it is). So the second key comes with the first; from there on
    # each key is its own write, 35 ms apart, and a late one splits nothing.
    scan = partial(paced_scan, prefix=False, first_two_at_once=True)
    with TmuxTerminal([*APP, "--demo"], env=app_env(tmp_path)) as term:
        wait_for_demo(term)
        term.send("F4")
        first, second = shipment_ids(term)[:2]

        # On the list: typed into the search, whose Enter opens the shipment it names.
        scan(term, first)
        detail_of(term, first)
        # Back on the list the search is cleared, the sort as it was: the next code is not
        # appended to this one.
        press_escape(term, list_as_it_was)

        # On a detail (no text field): nothing at all, no document saved or printed. Keys
        # are handled one at a time, in order: once F1 after it shows the detail's help,
        # every key of the scan was handled.
        scan(term, first)
        detail_of(term, first)
        scan(term, second)
        term.send("F1")
        term.wait_for("Scanning another PRO")
        under = press_escape(term, lambda screen: "Scanning another PRO" not in screen)
        assert first in under.splitlines()[1], under  # still the first shipment's detail
        assert nothing_saved(tmp_path)
        press_escape(term, list_as_it_was)


@pytest.mark.parametrize("split", ["none", "late", "stalled"])
@pytest.mark.parametrize("prefix", [False, True], ids=["no-prefix", "prefix"])
def test_a_paced_scan_split_by_a_late_key_opens_its_shipment(
    tmp_path: Path, prefix: bool, split: str
) -> None:
    """One key `LATE` where the others are `GAP` apart splits a scan with no prefix into two
    bursts: every character still reaches the search, in order, and its Enter opens the
    shipment; no key of it runs the list's bindings (the sort is as it was). "stalled": the
    keys from the late one on come at once, as an app that stalled for the gap reads them,
    as fast as a scanner's (the tail, `a79z45qg6`, is no scan of its own); "none": no key
    late."""
    if prefix:
        with_scanner_prefix(tmp_path)
    with TmuxTerminal([*APP, "--demo"], env=app_env(tmp_path)) as term:
        wait_for_demo(term)
        term.send("F4")
        codes = shipment_ids(term)
        for index, late_at in enumerate(LATE_AT):
            code = codes[index % len(codes)]
            late = None if split == "none" else late_at
            paced_scan(
                term,
                code,
                prefix=prefix,
                late_at=late,
                stall=split == "stalled",
                first_two_at_once=not prefix,  # (no prefix: the first key's limit, above)
            )
            detail_of(term, code)
            press_escape(term, list_as_it_was)
        assert nothing_saved(tmp_path)
