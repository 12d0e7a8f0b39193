"""The switch from sign-in to the demo: a local sandbox and the demo profile, no account."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.session import Session


def switch_to_demo(session: Session) -> None:
    """Make ``session`` the demo: start its sandbox (stopped when the session closes)."""
    from tui.demo import DemoSandbox, demo_profile

    sandbox = DemoSandbox(session.data_dir / "demo-sandbox.sqlite3")
    session.environment = "DEMO"
    session.profile = demo_profile()
    session.closers.append(sandbox.stop)
    sandbox.start()
    session.set_connection(sandbox.connect)
