"""In a real terminal (tmux): alt+1/2/3 and the help keys, as tmux sends them, on every screen.

tmux sends alt+digit as ESC then the digit; Textual used to read that as `¡ ™ £`. Each step
switches screens with a text field focused and checks the field kept exactly what was typed.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.e2e.keys_flow import (
    APP,
    app_env,
    field,
    fill_quote,
    list_focused,
    press_escape,
    wait_for_demo,
    wait_until,
)
from tests.e2e.tmux import TmuxTerminal, tmux_available

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(not tmux_available(), reason="tmux is not installed"),
]

SHIPMENTS = "newest first"
"""On the shipments list only (its table's subtitle)."""


def help_closed(screen: str) -> bool:
    """No part of the help dialog is on screen (its title or its border's `Esc close`)."""
    return "Help ·" not in screen and "Esc close" not in screen


def alt(term: TmuxTerminal, key: str, *, as_escape: bool) -> None:
    """alt+key the two ways a terminal says it: tmux's M- key, or ESC and the key typed."""
    if as_escape:
        term.type("\x1b" + key)
    else:
        term.send(f"M-{key}")


def on_quote(term: TmuxTerminal) -> str:
    return term.wait_for("Items", timeout=15)


def on_shipments(term: TmuxTerminal) -> str:
    return term.wait_for(SHIPMENTS, timeout=30)


def filter_line(screen: str) -> str:
    """The rates screen's filter field: the line under the header."""
    return screen.splitlines()[1].strip()


def no_stray_characters(screen: str) -> None:
    for character in "¡™£¢∞§¶•ªº":
        assert character not in screen, screen


@pytest.mark.parametrize("term_type", ["xterm-256color", "vt100"])
def test_alt_digits_and_help_keys_switch_screens_and_never_type(
    tmp_path: Path, term_type: str
) -> None:
    with TmuxTerminal([*APP, "--demo"], env=app_env(tmp_path, term_type)) as term:
        wait_for_demo(term)
        # Quote, destination ZIP focused.
        term.type("30303")
        term.wait_for("30303")
        alt(term, "3", as_escape=False)
        screen = on_shipments(term)
        no_stray_characters(screen)
        # Shipments, search field focused.
        term.send("/")
        term.type("Chic")
        term.wait_for('"Chic"', timeout=20)
        alt(term, "1", as_escape=True)
        screen = on_quote(term)
        assert field(screen, "To") == "30303", screen
        alt(term, "3", as_escape=True)
        screen = on_shipments(term)
        assert field(screen, "Search") == "Chic", screen
        alt(term, "h", as_escape=False)  # help, where F1 does not reach
        term.wait_for("Help ·")
        term.send("Escape")
        screen = wait_until(term, help_closed)
        assert field(screen, "Search") == "Chic", screen
        term.send("C-_")  # the other help key
        term.wait_for("Help ·")
        term.send("Escape")
        wait_until(term, help_closed)
        alt(term, "2", as_escape=False)  # no rates yet: says so, stays
        term.wait_for("No rates yet")
        alt(term, "1", as_escape=False)
        screen = on_quote(term)
        assert field(screen, "To") == "30303", screen

        # Rates, carrier filter focused.
        fill_quote(term)
        term.send("C-r")
        term.wait_for("cheapest", timeout=40)
        term.send("/")
        time.sleep(0.5)  # (keys typed ahead of `/` on the rates are not this test's matter)
        term.type("e")
        screen = wait_until(term, lambda s: filter_line(s) == "e")
        alt(term, "3", as_escape=True)  # the quote mode keeps its screens meanwhile
        screen = on_shipments(term)
        no_stray_characters(screen)
        alt(term, "2", as_escape=True)
        screen = term.wait_for("cheapest", timeout=15)
        assert filter_line(screen) == "e", screen

        # Book, Company focused.
        press_escape(term, lambda s: filter_line(s) != "e")  # close the filter
        term.send("Enter")  # book the highlighted rate
        term.wait_for("Schedule pickup")
        term.type("ACME")
        screen = term.wait_for("ACME")
        company = field(screen, "Company")
        assert company.startswith("ACME"), screen
        alt(term, "h", as_escape=False)
        term.wait_for("Help ·")
        alt(term, "h", as_escape=True)  # the help key again closes it
        screen = wait_until(term, help_closed)
        assert field(screen, "Company") == company, screen
        alt(term, "3", as_escape=True)
        screen = on_shipments(term)
        assert field(screen, "Search") == "Chic", screen
        alt(term, "2", as_escape=False)
        term.wait_for("cheapest", timeout=15)

        # Result, folder field focused.
        term.send("Enter")
        term.wait_for("Schedule pickup")
        term.send("C-s")
        term.wait_for("Confirm booking", timeout=10)
        term.send("Enter")
        term.wait_for("Pickup conf", timeout=30)
        term.send("f")  # focused, the field shows its end (the shipment's own folder)
        screen = wait_until(term, lambda s: "/documents/shp_" in field(s, "Folder"))
        folder = field(screen, "Folder")
        alt(term, "h", as_escape=True)
        term.wait_for("Help ·")
        term.send("Escape")
        screen = wait_until(term, help_closed)
        assert field(screen, "Folder") == folder, screen
        alt(term, "3", as_escape=False)
        screen = on_shipments(term)
        no_stray_characters(screen)

        # Detail: open a shipment from the list.
        press_escape(term, lambda s: "Search PRO, tracking" in s)  # clears the search
        press_escape(term, list_focused)  # to the list
        term.wait_for("loaded", timeout=20)
        term.send("Enter")
        term.wait_for("Tracking", timeout=20)
        alt(term, "2", as_escape=True)
        term.wait_for("cheapest", timeout=15)
        alt(term, "3", as_escape=False)
        screen = on_shipments(term)  # back on the list (the detail was left)
        no_stray_characters(screen)


def test_sign_in_help_keys_keep_what_was_typed(tmp_path: Path) -> None:
    with TmuxTerminal(APP, env=app_env(tmp_path, "vt100")) as term:
        term.wait_for("Sign in to the shipping service", timeout=30)
        term.wait_for("Keyring:")
        term.type("http://127.0.0.1:9")
        alt(term, "h", as_escape=True)
        term.wait_for("Help ·")
        term.send("Escape")
        screen = wait_until(term, help_closed)
        term.send("C-_")
        term.wait_for("Help ·")
        term.send("Escape")
        screen = wait_until(term, help_closed)
        assert field(screen, "Base URL") == "http://127.0.0.1:9", screen


def test_esc_in_the_shipment_search_clears_it_and_returns_to_the_list(tmp_path: Path) -> None:
    """80x24: `/`, a word, Esc: the search is cleared and the list has focus, so the next `e`
    opens the export instead of typing an "e" into the search."""
    with TmuxTerminal([*APP, "--demo"], env=app_env(tmp_path)) as term:
        wait_for_demo(term)
        term.send("F4")
        wait_until(term, lambda screen: SHIPMENTS in screen and list_focused(screen), 30)
        term.send("/")
        term.type("Chicago")
        term.wait_for("Search Chicago")
        searched = term.wait_for('· "Chicago"', timeout=20)
        assert not list_focused(searched)  # the search field has focus
        screen = press_escape(term, list_focused)
        assert "Search Chicago" not in screen
        term.send("e")
        exported = term.wait_for("Save to", timeout=10)
        assert "Search e" not in exported


def test_a_restored_quote_draft_says_so_in_the_terminal(tmp_path: Path) -> None:
    """80x24: the demo comes back with the quote as it was left, and says so."""
    drafts = tmp_path / "data" / "freight-tui" / "drafts" / "demo"
    drafts.mkdir(parents=True)
    (drafts / "quote.json").write_text('{"origin_zip": "60607", "dest_zip": "30303"}')
    with TmuxTerminal([*APP, "--demo"], env=app_env(tmp_path)) as term:
        # The notice shows for 8 s and the city may come later on a busy machine: each is
        # waited for on its own, never both on one screen.
        notice = wait_until(term, lambda s: "Restored the quote" in s)
        assert "Quote draft" in notice
        wait_until(term, lambda s: "Atlanta" in s)
