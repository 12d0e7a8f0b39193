"""In a real terminal (tmux, 80x24): keys typed ahead of a Tab land in the field left by it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.keys_flow import APP, app_env, field
from tests.e2e.tmux import TmuxTerminal, tmux_available

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(not tmux_available(), reason="tmux is not installed"),
]


def _field(screen: str, label: str) -> str:
    """What the first line starting with `label` shows after it."""
    for line in screen.splitlines():
        match = re.match(rf"\s*{label}\s+(.*)$", line)
        if match:
            return match.group(1)
    raise AssertionError(f"no {label!r} line on screen:\n{screen}")


def _to_booking_form(term: TmuxTerminal) -> None:
    term.wait_for("Items", timeout=30)
    term.wait_for("DEMO")
    term.type("30303")
    term.send("Tab", "Tab", "Tab")
    for index, value in enumerate(("2", "pallet", "800", "48", "40", "48", "", "Machine parts")):
        if value:
            term.type(value)
        if index < 7:
            term.send("Tab")
    term.wait_for("15.00")
    term.send("C-r")
    term.wait_for("cheapest", timeout=40)
    term.send("Enter")
    term.wait_for("Schedule pickup")


def test_booking_form_keeps_keys_typed_ahead_of_tab_in_their_fields(tmp_path: Path) -> None:
    with TmuxTerminal([*APP, "--demo"], env=app_env(tmp_path)) as term:
        _to_booking_form(term)
        # One send-keys call: the keys reach the app back to back, like a paste or a scanner.
        term.send("AAAA", "Tab", "BBBB", "Tab", "CCCC", "Tab", "DDDD")
        screen = term.wait_for("DDDD", timeout=10)
        assert _field(screen, "Company").startswith("AAAA "), screen
        assert _field(screen, "Address").startswith("BBBB "), screen
        assert _field(screen, "Contact").startswith("CCCC "), screen
        assert _field(screen, "Phone").startswith("DDDD "), screen


def test_sign_in_form_keeps_keys_typed_ahead_of_tab_in_their_fields(tmp_path: Path) -> None:
    with TmuxTerminal(APP, env=app_env(tmp_path)) as term:
        term.wait_for("Sign in to the shipping service", timeout=30)
        term.wait_for("Keyring:")
        # Focus starts in the empty Base URL; two Tabs pass the Environment dropdown.
        term.send("http://127.0.0.1:9", "Tab", "Tab", "client-42", "Tab", "s3cret")
        screen = term.wait_for("••••••", timeout=10)
        assert _field(screen, "Base URL") == "http://127.0.0.1:9", screen
        assert _field(screen, "Environment").startswith("Sandbox"), screen
        assert _field(screen, "Client ID") == "client-42", screen
        assert _field(screen, "Secret") == "••••••", screen


def test_item_details_dialog_keeps_keys_typed_ahead_of_tab_in_their_fields(
    tmp_path: Path,
) -> None:
    with TmuxTerminal([*APP, "--demo"], env=app_env(tmp_path)) as term:
        term.wait_for("Items", timeout=30)
        term.wait_for("DEMO")
        term.type("30303")
        term.send("Tab", "Tab", "Tab")
        term.wait_for("Description")
        term.send("C-o")
        term.wait_for("Row 1 details")
        # NMFC, past Stackable and Hazardous material, then the UN number, back to back.
        term.send("144920", "Tab", "Tab", "Tab", "UN1263", "Tab", "3")
        term.wait_for("UN1263", timeout=10)
        screen = term.wait_settled("Hazard class")
        assert field(screen, "NMFC item") == "144920", screen
        assert field(screen, "UN number") == "UN1263", screen
        assert field(screen, "Hazard class") == "3", screen
