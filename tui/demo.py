"""The demo: a profile with sample addresses, backed by a sandbox started in the background."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.config.paths import data_dir
from tui.config.plain import DEMO_PROFILE, plain_scanner, plain_settings, read_config_text
from tui.demo_profile import demo_origin, demo_profile
from tui.session import OriginSketch, Session, SessionSketch

if TYPE_CHECKING:
    from tui.config.settings import AppConfig, Profile

__all__ = ["DEMO_TOKEN", "DemoSandbox", "build_demo_session", "demo_profile", "start_demo"]

DEMO_TOKEN = "demo.demo-secret"


def build_demo_session() -> Session:
    """The demo session: a local sandbox that starts in the background after the first frame.

    The first frame is built from a sketch of the profile; the typed profile and config follow
    after it (`Session.settle`). A config file that is not TOML stops the start here.
    """

    directory = data_dir()
    config_text = read_config_text()

    def build() -> tuple[Profile, AppConfig]:
        from tui.config.settings import typed_config

        return demo_profile(data_dir=directory), typed_config(config_text)

    theme, keymap = plain_settings(config_text)
    found = demo_origin(directory)
    origin = OriginSketch(*found) if found is not None else None
    sketch = SessionSketch(DEMO_PROFILE, origin, build, theme, keymap, plain_scanner(config_text))
    sandbox = DemoSandbox(directory / "demo-sandbox.sqlite3")
    session = Session(
        environment="DEMO",
        profile=sketch,
        config=None,
        data_dir=directory,
        connect=sandbox.connect,
        config_path=config_text.file,
    )
    sandbox.pause = session.step_aside
    session.closers.append(sandbox.stop)
    session.after_first_frame.append(sandbox.start)
    return session


def start_demo(session: Session) -> None:
    """Make ``session`` the demo on a local sandbox (stopped when the session closes)."""
    sandbox = DemoSandbox(session.data_dir / "demo-sandbox.sqlite3")
    sandbox.pause = session.step_aside
    session.closers.append(sandbox.stop)
    sandbox.start()
    session.switch_profile(demo_profile(data_dir=session.data_dir), "DEMO", sandbox.connect)


class DemoSandbox:
    """Starts the local sandbox in a daemon thread and hands out its URL when it is up."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self._running: Any = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self.pause: Callable[[], None] | None = None
        """Called between the start's steps in its thread: an app's keys go first."""

    def start(self) -> None:
        """Begin starting the sandbox; returns at once."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="demo-sandbox", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            if self.pause is not None:
                self.pause()
            from tui.sandbox import SandboxConfig, start_in_thread

            if self.pause is not None:
                self.pause()
            self.db_path.parent.mkdir(parents=True, exist_ok=True)
            self._running = start_in_thread(SandboxConfig(db_path=self.db_path, pause=self.pause))
        except BaseException as error:  # reported to the first caller of connect()
            self._error = error
        finally:
            self._ready.set()

    async def connect(self) -> tuple[str, str]:
        """Wait for the sandbox and return its base URL and the demo token."""
        self.start()
        while not self._ready.is_set():  # noqa: ASYNC110 - a thread sets it
            await asyncio.sleep(0.02)
        if self._error is not None:
            from tui.api.errors import TransportError

            raise TransportError(f"The local sandbox could not start: {self._error}")
        return str(self._running.base_url), DEMO_TOKEN

    def stop(self) -> None:
        """Stop the sandbox if it was started."""
        if self._running is not None:
            self._running.stop()
            self._running = None
