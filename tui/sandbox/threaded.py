"""Run the sandbox on a real loopback port in a background thread, with a stop handle."""

from __future__ import annotations

import socket
import threading
from types import TracebackType

import uvicorn

from tui.sandbox.app import SandboxApp, create_app
from tui.sandbox.config import DEMO_TOKEN, SandboxConfig

START_TIMEOUT_S = 30.0


class RunningSandbox:
    """A sandbox served by uvicorn in a thread: ``base_url``, ``token``, ``stop()``."""

    def __init__(self, server: uvicorn.Server, thread: threading.Thread, app: SandboxApp,
                 base_url: str) -> None:  # fmt: skip
        self._server = server
        self._thread = thread
        self.app = app
        self.base_url = base_url
        self.token = DEMO_TOKEN

    def __repr__(self) -> str:
        return f"RunningSandbox(base_url={self.base_url!r})"

    @property
    def running(self) -> bool:
        """Whether the server thread is still serving."""
        return self._thread.is_alive()

    def stop(self, timeout: float = 10.0) -> None:
        """Ask uvicorn to exit, join the thread, close the database."""
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout)
        self.app.close()

    def __enter__(self) -> RunningSandbox:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def bind(host: str, port: int) -> socket.socket:
    """Bind a listening TCP socket (port 0 picks a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # Naming IPPROTO_TCP lets asyncio set TCP_NODELAY on accepted connections; without it
    # every small response waits on Nagle's algorithm (about 40 ms on loopback).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def url_of(sock: socket.socket) -> str:
    """The base URL a bound socket serves."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def server_for(app: SandboxApp, sock: socket.socket) -> uvicorn.Server:
    """A quiet uvicorn server for ``app``."""
    config = uvicorn.Config(
        app, lifespan="off", log_level="warning", access_log=False, timeout_graceful_shutdown=3
    )
    return uvicorn.Server(config)


def start_in_thread(
    config: SandboxConfig, host: str = "127.0.0.1", port: int = 0
) -> RunningSandbox:
    """Create the app, bind, serve in a daemon thread, and wait until it accepts requests."""
    app = create_app(config)
    sock = bind(host, port)
    server = server_for(app, sock)
    failure: list[BaseException] = []

    def serve() -> None:
        try:
            server.run(sockets=[sock])
        except BaseException as exc:  # pragma: no cover - reported below
            failure.append(exc)
        finally:
            sock.close()

    thread = threading.Thread(target=serve, name="freight-sandbox", daemon=True)
    thread.start()
    waited = 0.0
    while not server.started and thread.is_alive() and waited < START_TIMEOUT_S:
        thread.join(0.01)
        waited += 0.01
    if not server.started:
        server.should_exit = True
        app.close()
        raise RuntimeError(f"the sandbox did not start: {failure[0] if failure else 'timeout'}")
    return RunningSandbox(server, thread, app, url_of(sock))
