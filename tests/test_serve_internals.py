"""Every part of textual-serve that `tui.web.serve_internals` (the fence) reaches still exists
and still does what Freight relies on; an upgrade that changes one fails here (the version
check first, when the minor changes: recheck, then move `CHECKED_ON` and the range in
pyproject.toml together). Then the server's session cap, under opens at the same moment."""

from __future__ import annotations

import asyncio
import inspect
import os
import re
import sys
import tomllib
from collections.abc import AsyncIterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from textual_serve.app_service import AppService

from tests.web.serving import free_port
from tui.web import serve_internals as internals
from tui.web.guard import Gate
from tui.web.serve import TEMPLATES, FreightServer
from tui.web.tether import PARENT_ENV, tie_to_server

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
# An app that reads its input until the server closes it, writing nothing.
QUIET_APP = [sys.executable, "-c", "import sys; sys.stdin.buffer.read()"]


def test_textual_serve_is_the_minor_the_internals_were_checked_on() -> None:
    installed = ".".join(version("textual-serve").split(".")[:2])
    assert installed == internals.CHECKED_ON, (
        f"textual-serve {version('textual-serve')}: recheck tui/web/serve_internals.py on it"
    )
    web = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]["web"]
    (serve_range,) = [d for d in web if re.match(r"textual-serve\b", d)]
    major, minor = (int(part) for part in internals.CHECKED_ON.split("."))
    assert serve_range == f"textual-serve>={major}.{minor},<{major}.{minor + 1}", serve_range


def test_the_methods_overridden_are_textual_serve_s_own_with_the_same_signature() -> None:
    session = internals.session_class()
    for name in ("_open_app_process", "stop"):
        theirs = inspect.signature(getattr(AppService, name))
        ours = inspect.signature(getattr(session, name))
        assert list(theirs.parameters) == list(ours.parameters), name
        assert [p.default for p in theirs.parameters.values()] == [
            p.default for p in ours.parameters.values()
        ], name
    # `start` opens the process through the method overridden, then runs it.
    assert "self._open_app_process(" in inspect.getsource(AppService.start)
    # `run` reads the process the override leaves, `send_bytes` the stdin it leaves.
    assert "self._process" in inspect.getsource(AppService.run)
    assert "self.stdin" in inspect.getsource(AppService.send_bytes)
    assert "self._stdin" in inspect.getsource(AppService.__dict__["stdin"].fget)


async def _service() -> Any:
    async def write(_: object) -> None:
        return None

    async def close() -> None:
        return None

    return internals.session_class()(
        "",
        write_bytes=write,
        write_str=write,
        close=close,
        download_manager=internals.download_manager(),
    )


async def test_the_fields_read_are_made_by_textual_serve_and_the_environment_is_inherited(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FREIGHT_PROBE_INHERITED", "from the server")
    service = await _service()
    for name in ("_process", "_task", "_stdin"):
        assert getattr(service, name) is None, name
    assert hasattr(service._download_manager, "cancel_app_downloads")
    environment = service._build_environment(width=81, height=25)
    assert environment["COLUMNS"] == "81"
    assert environment["ROWS"] == "25"
    assert environment["TEXTUAL_DRIVER"] == "textual.drivers.web_driver:WebDriver"
    # docs/security.md: a served app inherits the server's whole environment.
    assert environment["FREIGHT_PROBE_INHERITED"] == "from the server"


async def test_an_app_starts_without_a_shell_in_its_own_session_knowing_its_server() -> None:
    service = await _service()
    service.argv = [
        sys.executable,
        "-c",
        "import os, sys; print(os.getsid(0), os.environ['FREIGHT_PROBE'], "
        f"os.environ['{PARENT_ENV}'], flush=True); sys.stdin.buffer.read()",
    ]
    service.extra_env = {"FREIGHT_PROBE": "added"}
    process = await service._open_app_process(80, 24)
    assert service.process is process
    try:
        line = await asyncio.wait_for(process.stdout.readline(), 60)
        sid, added, parent = line.decode().split()
        assert int(sid) == process.pid  # a session of its own: the server's Ctrl-C is not its
        assert added == "added"
        assert int(parent) == os.getpid()
    finally:
        process.stdin.close()
        await process.wait()


def test_the_page_s_files_are_in_textual_serve_s_folder() -> None:
    folder = internals.static_folder()
    page = (TEMPLATES / "app_index.html").read_text()
    used = re.findall(r"\{\{ static_url \}\}([\w/.-]+)", page)
    assert used
    for name in used:
        assert (folder / name).is_file(), name


def test_an_app_not_started_by_the_server_is_not_tied_to_it() -> None:
    tie_to_server({})  # nothing to do: it returns
    tie_to_server({PARENT_ENV: str(os.getppid())})  # its parent: tied, and it goes on


# -- the session cap, under opens at the same moment ------------------------------------------


@pytest.fixture
async def capped(tmp_path: Path) -> AsyncIterator[tuple[FreightServer, TestServer, Gate]]:
    port = free_port()
    gate = Gate(token="t" * 32, bound_host="127.0.0.1", port=port)
    server = FreightServer(
        QUIET_APP, gate, host="127.0.0.1", port=port, max_sessions=2, folder=tmp_path
    )
    test_server = TestServer(server.make_app(), host="127.0.0.1", port=port)
    await test_server.start_server()
    try:
        yield server, test_server, gate
    finally:
        await server._stop_sessions()
        await test_server.close()


async def test_opens_at_the_same_moment_never_pass_the_session_cap(
    capped: tuple[FreightServer, TestServer, Gate], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, test_server, gate = capped
    handshake = web.WebSocketResponse.prepare
    page = server._page
    everyone = asyncio.Event()
    decided = [0]  # opens refused, or in their handshake

    def one_more() -> None:
        decided[0] += 1
        if decided[0] == 8:
            everyone.set()

    def full_page(name: str, context: dict[str, Any], status: int = 200) -> web.Response:
        if name == "full.html":
            one_more()
        return page(name, context, status)

    async def slow_handshake(self: web.WebSocketResponse, request: web.BaseRequest) -> Any:
        # A handshake that takes a moment (TLS, a slow network): each waits until all eight
        # opens are refused or in their handshake, so every open has met the cap's check
        # before any has finished.
        one_more()
        await everyone.wait()
        return await handshake(self, request)

    monkeypatch.setattr(server, "_page", full_page)
    monkeypatch.setattr(web.WebSocketResponse, "prepare", slow_handshake)
    base = f"http://127.0.0.1:{test_server.port}"
    headers = {"Cookie": f"{gate.cookie_name}={gate.cookie_secret}", "Origin": base}
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as http:

        async def open_one() -> aiohttp.ClientWebSocketResponse | int:
            try:
                return await http.ws_connect(base + "/ws", headers=headers)
            except aiohttp.WSServerHandshakeError as error:
                return error.status

        opened = await asyncio.gather(*(open_one() for _ in range(8)))
        sockets = [s for s in opened if not isinstance(s, int)]
        assert len(sockets) == 2, opened
        assert sorted(s for s in opened if isinstance(s, int)) == [503] * 6
        assert len(server.sessions) == 2
        for socket in sockets:
            await socket.close()
