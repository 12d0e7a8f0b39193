"""`freight serve` answers only its owner: each check tried over real connections.

A server started as a user starts it (`freight serve --demo`), asked with raw HTTP and
websocket clients what a hostile page, a rebound DNS name or a stranger would send; then
what happens to the apps when sessions run out, when the server is stopped, and when it is
killed with `kill -9`.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from http.client import HTTPConnection
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urlsplit

import aiohttp  # the web extra, part of dev: missing in CI is a failure, not a skip
import pytest

from tests.web.serving import alive, app_processes, free_port, serve, stop, token_url, wait_until
from tui.web.guard import Gate, clamp_size, host_name


class Server(NamedTuple):
    port: int
    token: str
    """The printed one (spent once traded)."""
    process: subprocess.Popen[bytes]
    secret: str = ""
    """The cookie's, once the token was traded for it."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def cookie(self) -> dict[str, str]:
        return {"Cookie": f"freight_token_{self.port}={self.secret}"}

    @property
    def origin(self) -> dict[str, str]:
        return {"Origin": self.base}


def _start(tmp_path: Path, *args: str, trade: bool = True) -> Server:
    """A server started as a user starts it; ``trade``: its token traded for the cookie, as
    the browser's first load does."""
    port = free_port()
    process = serve(tmp_path, "--demo", "--port", str(port), *args)
    url = token_url(process)
    [token] = parse_qs(urlsplit(url).query)["token"]
    if not trade:
        return Server(port, token, process)
    connection = HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", f"/?token={token}", headers={"Host": f"127.0.0.1:{port}"})
        cookie = SimpleCookie(connection.getresponse().getheader("Set-Cookie", ""))
    finally:
        connection.close()
    return Server(port, token, process, cookie[f"freight_token_{port}"].value)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    started = _start(tmp_path)
    try:
        yield started
    finally:
        stop(started.process)


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    # No cookie jar: each request carries exactly the headers the test gives it.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
        yield session


async def _status(
    http: aiohttp.ClientSession, url: str, headers: dict[str, str] | None = None
) -> int:
    async with http.get(url, headers=headers or {}, allow_redirects=False) as response:
        return response.status


async def _socket_status(http: aiohttp.ClientSession, url: str, headers: dict[str, str]) -> int:
    """101 when the websocket opened (then closed at once), else the refusal's status."""
    try:
        socket = await http.ws_connect(url, headers=headers)
    except aiohttp.WSServerHandshakeError as error:
        return error.status
    await socket.close()
    return 101


# -- the rules, without a server --------------------------------------------------------------


def test_the_gate_reads_hosts_and_origins_exactly() -> None:
    gate = Gate(token="s3cret", bound_host="127.0.0.1", port=8000)
    assert gate.hosts == {"127.0.0.1", "localhost"}
    assert host_name("[::1]:8000") == "::1"
    assert host_name("LocalHost:9000") == "localhost"
    assert gate.host_allowed("localhost:9000")  # an SSH tunnel's port
    assert not gate.host_allowed("evil.example:8000")  # a rebound DNS name
    assert not gate.host_allowed("127.0.0.1.evil.example")
    assert not gate.host_allowed(None)
    ok = "http://127.0.0.1:8000"
    assert gate.origin_allowed(ok, "http", "127.0.0.1:8000")
    for origin in ("null", "file://", "http://127.0.0.1:8001", "https://127.0.0.1:8000", None):
        assert not gate.origin_allowed(origin, "http", "127.0.0.1:8000"), origin
    assert gate.token_matches("s3cret")
    assert not gate.token_matches("s3cre")
    assert not gate.token_matches("")
    proxied = Gate(token="t", bound_host="0.0.0.0", public_url="https://f.example", port=8000)
    assert proxied.hosts == {"f.example", "localhost"}
    assert proxied.origin_allowed("https://f.example", "http", "f.example")


def test_a_connection_cannot_ask_for_a_huge_terminal() -> None:
    assert clamp_size("100000", "100000") == (500, 200)
    assert clamp_size("-5", "abc") == (1, 24)
    assert clamp_size(120, 40) == (120, 40)


# -- a running server -------------------------------------------------------------------------


async def test_without_the_token_every_route_is_refused(
    server: Server, http: aiohttp.ClientSession
) -> None:
    for path in ("/", "/ws", "/download/anything", "/static/js/textual.js", "/freight/page.js"):
        assert await _status(http, server.base + path) == 403, path
        wrong = {"Cookie": f"freight_token_{server.port}={server.token[:-1]}x"}
        assert await _status(http, server.base + path, wrong) == 403, path
    assert await _socket_status(http, server.base + "/ws", server.origin) == 403


async def test_the_token_works_once_for_a_strict_httponly_cookie(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    started = _start(tmp_path, trade=False)
    try:
        await _the_token_works_once(started, http)
    finally:
        stop(started.process)


async def _the_token_works_once(untraded: Server, http: aiohttp.ClientSession) -> None:
    opening = f"{untraded.base}/?token={untraded.token}"
    async with http.get(opening, allow_redirects=False) as response:
        assert response.status == 303
        assert "token" not in response.headers["Location"]
        cookie = SimpleCookie(response.headers["Set-Cookie"])
    [morsel] = cookie.values()
    assert morsel.key == f"freight_token_{untraded.port}"
    assert morsel["httponly"]
    assert morsel["samesite"] == "Strict"
    server = untraded._replace(secret=morsel.value)
    assert server.secret != server.token  # the cookie's secret was never printed
    # The address printed (a browser's history, a screenshot) opens nothing any more, nor
    # does its token put in a cookie by hand; the browser that traded it goes on.
    async with http.get(opening, allow_redirects=False) as response:
        assert response.status == 403
        assert "opened once already" in await response.text()
    by_hand = {"Cookie": f"freight_token_{server.port}={server.token}"}
    assert await _status(http, server.base + "/", by_hand) == 403
    assert await _status(http, opening, server.cookie) == 303  # its own history: fine
    async with http.get(server.base + "/", headers=server.cookie) as response:
        assert response.status == 200
        page = await response.text()
        headers = response.headers
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert server.token not in page
    # No directory listing of the static files.
    assert await _status(http, server.base + "/static/", server.cookie) in (403, 404)
    assert await _status(http, server.base + "/static/js/", server.cookie) in (403, 404)


async def test_a_forged_host_is_refused_and_never_written_into_the_page(
    server: Server, http: aiohttp.ClientSession
) -> None:
    forged = {"Host": f"evil.example:{server.port}"}
    assert await _status(http, f"{server.base}/?token={server.token}", forged) == 403
    assert await _status(http, server.base + "/", {**server.cookie, **forged}) == 403
    socket = {**server.cookie, **forged, "Origin": f"http://evil.example:{server.port}"}
    assert await _socket_status(http, server.base + "/ws", socket) == 403
    tunnel = {**server.cookie, "Host": "localhost:9999"}  # an SSH tunnel's own port
    async with http.get(server.base + "/", headers=tunnel) as response:
        assert response.status == 200
        assert "9999" not in await response.text()


async def test_a_websocket_from_any_other_origin_is_refused(
    server: Server, http: aiohttp.ClientSession
) -> None:
    for origin in ("null", "file://", f"http://127.0.0.1:{server.port + 1}", "http://x.test"):
        headers = {**server.cookie, "Origin": origin}
        assert await _socket_status(http, server.base + "/ws", headers) == 403, origin
    other_site = {**server.cookie, "Sec-Fetch-Site": "same-site"}  # another port's page
    assert await _status(http, server.base + "/download/anything", other_site) == 403
    assert await _status(http, server.base + "/", other_site) == 403
    assert not app_processes(server.process.pid)


async def _open_session(http: aiohttp.ClientSession, server: Server) -> Any:
    """A websocket as the page opens it; returns once the app has drawn its screen."""
    socket = await http.ws_connect(
        server.base + "/ws?width=100000&height=100000", headers={**server.cookie, **server.origin}
    )
    drawn = b""
    deadline = time.monotonic() + 120
    while b"Freight" not in drawn:
        assert time.monotonic() < deadline, "the app did not draw"
        message = await socket.receive(timeout=120)
        if message.type == aiohttp.WSMsgType.BINARY:
            drawn += message.data
        elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            raise AssertionError("the app closed")
    return socket


@pytest.mark.slow
@pytest.mark.timeout(600)
async def test_sessions_are_limited_and_a_stop_ends_them_all(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    server = _start(tmp_path, "--max-sessions", "2")
    try:
        first = await _open_session(http, server)
        second = await _open_session(http, server)
        apps = app_processes(server.process.pid)
        assert len(apps) == 2
        # A third tab: a page that says why, and no third app.
        async with http.get(server.base + "/", headers=server.cookie) as response:
            assert response.status == 503
            assert "All 2 Freight sessions are in use" in await response.text()
        third = await _socket_status(http, server.base + "/ws", {**server.cookie, **server.origin})
        assert third == 503
        assert len(app_processes(server.process.pid)) == 2
        # The stop ends by itself (an app that does not quit is killed after STOP_SECONDS: about
        # 2 s on a quiet machine; how fast is no outcome of this test, a busy one is slower).
        server.process.send_signal(signal.SIGTERM)
        await asyncio.to_thread(server.process.wait, 120)
        assert not [pid for pid in apps if alive(pid)]
        await first.close()
        await second.close()
    finally:
        stop(server.process)


@pytest.mark.slow
@pytest.mark.timeout(600)
async def test_kill_9_of_the_server_leaves_no_app_running(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    server = _start(tmp_path)
    try:
        socket = await _open_session(http, server)
        apps = app_processes(server.process.pid)
        assert apps
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(30)
        await asyncio.to_thread(
            wait_until, lambda: not [pid for pid in apps if alive(pid)], "the apps to end", 30
        )
        await socket.close()
    finally:
        stop(server.process)


async def test_an_order_file_is_uploaded_into_the_folder_only_from_the_page(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    folder = tmp_path / "orders-folder"
    server = _start(tmp_path, "--folder", str(folder))
    url = server.base + "/upload"

    def form(name: str, data: bytes = b"zip,weight\n30303,120\n") -> aiohttp.FormData:
        sent = aiohttp.FormData()
        sent.add_field("file", data, filename=name, content_type="text/csv")
        return sent

    try:
        page = {**server.cookie, **server.origin}
        for name in ("day.csv", "day.csv", "../../.bashrc.csv"):
            async with http.post(url, data=form(name), headers=page) as response:
                assert response.status == 200, await response.text()
        names = sorted(p.name for p in folder.iterdir())
        assert names[-2:] == ["day-2.csv", "day.csv"]  # the second did not overwrite the first
        assert len(names) == 3
        assert names[0].endswith("bashrc.csv")
        assert not names[0].startswith(".")  # kept in the folder, and no dotfile
        assert not [n for n in os.listdir(tmp_path) if "bashrc" in n]
        async with http.post(url, data=form("run.sh"), headers=page) as response:
            assert response.status == 400  # not an order file
        # Another page (another origin, no Origin, no cookie) cannot put a file there.
        for headers in (
            server.cookie,
            {**server.cookie, "Origin": f"http://127.0.0.1:{server.port + 1}"},
            server.origin,
        ):
            async with http.post(url, data=form("x.csv"), headers=headers) as response:
                assert response.status == 403, headers
        assert not (folder / "x.csv").exists()
    finally:
        stop(server.process)
