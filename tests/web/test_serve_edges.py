"""`freight serve` at its edges, in this process over real connections: the printed token
works once, uploads that collide, meet a link or carry a huge name get a 4xx (never a 500),
and a tab reloaded at the session limit gets its place back."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, NamedTuple

import aiohttp
import pytest
from aiohttp import BodyPartReader
from aiohttp.test_utils import TestServer

from tests.web.serving import free_port
from tui.web.guard import Gate
from tui.web.serve import FreightServer

# An app that says it is ready (textual-serve's prelude, then one packet of data) and never
# quits by itself, so its stop takes STOP_SECONDS and a kill (as a busy app's may).
READY_APP = [
    sys.executable,
    "-c",
    "import sys, time; sys.stdout.buffer.write(b'__GANGLION__\\nD' + (5).to_bytes(4, 'big')"
    " + b'ready'); sys.stdout.flush(); time.sleep(600)",
]


class Running(NamedTuple):
    server: FreightServer
    gate: Gate
    base: str
    folder: Path

    @property
    def page(self) -> dict[str, str]:
        """What the page's own requests carry: the cookie and its origin."""
        cookie = f"{self.gate.cookie_name}={self.gate.cookie_secret}"
        return {"Cookie": cookie, "Origin": self.base}


async def _running(folder: Path, max_sessions: int = 2) -> tuple[Running, TestServer]:
    port = free_port()
    gate = Gate(token="t" * 32, bound_host="127.0.0.1", port=port)
    server = FreightServer(
        READY_APP, gate, host="127.0.0.1", port=port, max_sessions=max_sessions, folder=folder
    )
    test_server = TestServer(server.make_app(), host="127.0.0.1", port=port)
    await test_server.start_server()
    return Running(server, gate, f"http://127.0.0.1:{port}", folder), test_server


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[Running]:
    folder = tmp_path / "workspace"
    folder.mkdir()
    started, test_server = await _running(folder)
    try:
        yield started
    finally:
        await started.server._stop_sessions()
        await test_server.close()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    # No cookie jar: each request carries exactly the headers the test gives it.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:
        yield session


# -- the printed token --------------------------------------------------------------------------


async def test_the_printed_address_opens_freight_once(
    running: Running, http: aiohttp.ClientSession
) -> None:
    opening = f"{running.base}/?token={running.gate.token}"
    async with http.get(opening, allow_redirects=False) as response:
        assert response.status == 303
        assert f"={running.gate.cookie_secret};" in response.headers["Set-Cookie"]
    assert running.gate.cookie_secret != running.gate.token
    assert running.gate.token not in repr(running.gate)  # no secret in a repr
    assert running.gate.cookie_secret not in repr(running.gate)
    # From a browser's history (no cookie): refused, saying why.
    async with http.get(opening, allow_redirects=False) as response:
        assert response.status == 403
        assert "opened once already" in await response.text()
    for path in ("/", "/ws", "/download/x", "/freight/page.js"):
        async with http.get(f"{running.base}{path}?token={running.gate.token}") as response:
            assert response.status == 403, path
    page = {"Cookie": f"{running.gate.cookie_name}={running.gate.cookie_secret}"}
    async with http.get(running.base + "/", headers=page) as response:
        assert response.status == 200


# -- uploads -------------------------------------------------------------------------------------


def _form(name: str, data: bytes = b"zip,weight\n30303,120\n") -> aiohttp.FormData:
    sent = aiohttp.FormData()
    sent.add_field("file", data, filename=name, content_type="text/csv")
    return sent


async def _upload(http: aiohttp.ClientSession, running: Running, name: str) -> tuple[int, str]:
    async with http.post(running.base + "/upload", data=_form(name), headers=running.page) as r:
        return r.status, await r.text()


async def test_uploads_of_one_name_at_the_same_moment_each_get_a_name(
    running: Running, http: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = 6
    read = BodyPartReader.read_chunk
    arrived = [0]
    everyone = asyncio.Event()

    async def read_then_wait(self: BodyPartReader, size: int = 8192) -> bytes:
        # Each upload, once read whole, waits until all are: every one then names its file
        # at the same moment.
        chunk = await read(self, size)
        if not chunk:
            arrived[0] += 1
            if arrived[0] == count:
                everyone.set()
            await everyone.wait()
        return chunk

    monkeypatch.setattr(BodyPartReader, "read_chunk", read_then_wait)
    answers = await asyncio.gather(*(_upload(http, running, "day.csv") for _ in range(count)))
    assert [status for status, _ in answers] == [200] * count, answers
    names = sorted(p.name for p in running.folder.iterdir())
    assert names == sorted(["day.csv", *(f"day-{n}.csv" for n in range(2, count + 1))])


async def test_a_link_planted_in_the_folder_is_never_followed(
    running: Running, http: aiohttp.ClientSession, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.csv"  # not there yet: a dangling link
    (running.folder / "day.csv").symlink_to(outside)
    status, text = await _upload(http, running, "day.csv")
    assert status == 200, text
    assert not outside.exists()
    assert (running.folder / "day-2.csv").read_bytes().startswith(b"zip,")
    # The folder itself swapped for a link: a clear refusal, nothing written there.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    moved = tmp_path / "moved"
    running.folder.rename(moved)
    running.folder.symlink_to(elsewhere)
    status, text = await _upload(http, running, "orders.csv")
    assert status == 409, text
    assert "could not be saved" in text
    assert not list(elsewhere.iterdir())


async def test_a_300_character_name_gets_a_clear_400(
    running: Running, http: aiohttp.ClientSession
) -> None:
    status, text = await _upload(http, running, "o" * 296 + ".csv")
    assert status == 400, text
    assert "at most 100 characters" in text
    assert not list(running.folder.iterdir())
    status, _ = await _upload(http, running, "o" * 96 + ".csv")  # 100: fine
    assert status == 200


# -- a reload at the session limit ---------------------------------------------------------


async def _open(http: aiohttp.ClientSession, running: Running) -> Any:
    """A tab's websocket, once its app has started (said it is ready)."""
    socket = await http.ws_connect(running.base + "/ws", headers=running.page)
    message = await socket.receive(timeout=60)
    assert message.type == aiohttp.WSMsgType.BINARY, message
    assert message.data == b"ready"
    return socket


async def _leave(running: Running, socket: Any) -> None:
    """A page going away: its websocket closed; returns once the server has seen it go (its
    app still ending)."""
    await socket.close()
    async with asyncio.timeout(60):
        while running.server.sockets:  # noqa: ASYNC110 (the server's state; no event for it)
            await asyncio.sleep(0.01)


async def test_a_tab_reloaded_at_the_limit_keeps_its_place(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    started, test_server = await _running(tmp_path, max_sessions=1)
    try:
        socket = await _open(http, started)
        async with http.get(started.base + "/", headers=started.page) as response:
            assert response.status == 503  # another tab: the limit's page, which retries
            page = await response.text()
        assert 'http-equiv="refresh"' in page
        assert "All 1 Freight sessions are in use" in page
        # The reload (its first answer was the limit's page, the old page still open): the
        # old page goes, its app takes a moment to end, and the page's retry opens Freight
        # once that app has ended (the limit stays exact).
        [old] = started.server.sessions
        await _leave(started, socket)
        async with http.get(started.base + "/", headers=started.page) as response:
            assert response.status == 200, await response.text()
        assert old.process.returncode is not None
        again = await _open(http, started)
        assert len(started.server.sessions) == 1
        # The websocket alone, straight after its page went, waits for its place too.
        await _leave(started, again)
        again = await _open(http, started)
        await again.close()
    finally:
        await started.server._stop_sessions()
        await test_server.close()
