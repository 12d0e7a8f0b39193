"""In a real terminal (tmux, 80x24): bursts of letters and digits typed into the items grid's
narrow fields (Pkg, Class, Qty) land exactly as typed and are seen whole (issue 28).

Class is five cells wide: `hello` typed into it was all there, but the field left showed
`ello` (the view stayed scrolled to the cursor past the end), as if the first key were lost.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.keys_flow import APP, app_env, wait_for_demo, wait_until
from tests.e2e.test_e2e_bursts import GAPS, row_one, send, typed
from tests.e2e.tmux import TmuxTerminal, tmux_available

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(not tmux_available(), reason="tmux is not installed"),
]


def grid_sweep(digit: str, stall: bool) -> list[str]:
    """From row 1's Qty: Qty, Pkg, past Lb, L, W, H to Class, then on to Description and
    back to Qty. Each field's text has a wrong key and Backspace in it."""
    keys = ["C-u", *typed(f"1x⌫{digit}⇥")]  # Qty
    keys += ["C-u", *typed(f"dr9⌫um{digit}⇥⇥⇥⇥⇥")]  # Pkg (not a package: kept, red)
    keys += ["C-u", *typed("he"), *(["STALL"] if stall else []), *typed(f"7⌫ll{digit}⇥")]
    keys += ["BTab"] * 7  # from Description back to Qty
    return keys


def grid_as_typed(digit: str) -> Callable[[str], bool]:
    pattern = rf"│ 1 1{digit} +drum{digit} +lb +L +×W +×H +hell{digit} "
    return lambda screen: re.search(pattern, row_one(screen)) is not None


def test_bursts_into_the_grid_s_narrow_fields_land_and_show_whole(tmp_path: Path) -> None:
    with TmuxTerminal([*APP, "--demo"], env=app_env(tmp_path), cwd=tmp_path) as term:
        wait_for_demo(term)
        term.send("Tab", "Tab", "Tab")  # from the To ZIP into row 1 (its inputs built)
        sweeps = [(gap, False, str(index + 1)) for index, gap in enumerate(GAPS)]
        for gap, stall, digit in [*sweeps, (0.0, True, "5")]:
            send(term, grid_sweep(digit, stall), gap)
            try:
                wait_until(term, grid_as_typed(digit), 30)
            except AssertionError as error:
                raise AssertionError(f"grid, gap {gap}, stall {stall}: {error}") from None
