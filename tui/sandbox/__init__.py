"""The sandbox: a faithful, stateful local emulator of the shipping service.

Use ``create_app(SandboxConfig(...))`` for an ASGI app (e.g. with ``httpx.ASGITransport``),
or ``start_in_thread(config)`` for a real HTTP server on a free loopback port.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.sandbox.config import DEMO_TOKEN, SandboxConfig, default_db_path

if TYPE_CHECKING:
    from tui.sandbox.app import SandboxApp
    from tui.sandbox.threaded import RunningSandbox

__all__ = [
    "DEMO_TOKEN",
    "RunningSandbox",
    "SandboxConfig",
    "create_app",
    "default_db_path",
    "start_in_thread",
]


def create_app(config: SandboxConfig) -> SandboxApp:
    """Open (and seed, if new) the database and return the ASGI app."""
    from tui.sandbox.app import create_app as _create_app

    return _create_app(config)


def start_in_thread(
    config: SandboxConfig, host: str = "127.0.0.1", port: int = 0
) -> RunningSandbox:
    """Serve the sandbox with uvicorn in a background thread; returns once it accepts."""
    from tui.sandbox.threaded import start_in_thread as _start

    return _start(config, host, port)


def __getattr__(name: str) -> object:
    if name == "RunningSandbox":
        from tui.sandbox.threaded import RunningSandbox

        return RunningSandbox
    raise AttributeError(name)
