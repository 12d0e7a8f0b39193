"""In a real terminal (tmux, 80x24) against the hostile server: what the server sends never
reaches the terminal as control — the pane's title stays, no clipboard buffer appears, the
screen is not wiped — and the documents land in their folder only."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.keys_flow import APP, app_env, wait_until
from tests.e2e.tmux import TmuxTerminal, tmux_available
from tests.hostile_server import NEVER_SHOWN, TOKEN, HostileServer

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(not tmux_available(), reason="tmux is not installed"),
]


def _untouched(term: TmuxTerminal, title: str) -> None:
    """Nothing the server sent acted on the terminal."""
    assert term.pane_title() == title
    assert term.tmux("list-buffers").strip() == ""  # no OSC 52 clipboard write got through
    screen = term.screen()
    assert screen.splitlines()[0].lstrip().startswith("Freight"), screen  # not wiped
    for word in NEVER_SHOWN:
        assert word not in screen, screen


def test_the_hostile_server_never_drives_the_terminal(tmp_path: Path) -> None:
    server = HostileServer()
    with server.serve() as base_url:
        config = tmp_path / "config" / "freight-tui" / "config.toml"
        config.parent.mkdir(parents=True)
        config.write_text(
            'default_profile = "hostile"\n'
            f'[profiles.hostile]\nbase_url = "{base_url}"\nenvironment = "sandbox"\n'
        )
        env = {**app_env(tmp_path), "FREIGHT_API_TOKEN": TOKEN}
        with TmuxTerminal(APP, env=env) as term:
            # Let escapes through where tmux can: a clipboard write would make a buffer.
            term.tmux("set-option", "-g", "set-clipboard", "on")
            term.tmux("set-option", "-g", "allow-passthrough", "on")
            term.wait_for("Items", timeout=30)
            title = term.pane_title()

            term.send("F4")
            listing = term.wait_settled("4415[x=22789", timeout=30)
            assert "Shipments" in listing
            _untouched(term, title)

            term.send("Enter")  # the first row: its PRO holds `[x=` and a title escape
            detail = wait_until(term, lambda screen: "From Origin Co" in screen, 30)
            assert "4415[x=227893" in detail
            assert "[@click=app.pwned()]" in detail  # markup shown as text
            _untouched(term, title)

            term.send("S")  # save every document
            wait_until(term, lambda screen: "Saved" in screen, 30)
            _untouched(term, title)
    folder = tmp_path / "data" / "freight-tui" / "documents" / "4415-x-227893"
    saved = sorted(p.name for p in folder.iterdir())
    assert len(saved) == 5
    outside = [
        p
        for p in tmp_path.rglob("*")
        if p.is_file() and folder not in p.parents and "documents" in p.parts
    ]
    assert outside == []
