"""`freight serve`: loopback unless told otherwise, and the app working in a real browser.

The browser test starts `freight serve --demo` as a user would and drives it in headless
Chromium (Debian's, through playwright): the page loads from the server alone, the quote
screen is drawn, keys reach the app, and a shipment's documents saved on the server arrive in
the browser as downloads. What the app draws is read from the page's websocket (the terminal
itself is a canvas).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tui.web.serve import app_command, is_loopback, page_urls

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
_ESCAPES = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b."
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _home(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, TEXTUAL_ANIMATIONS="none")
    env.pop("NO_COLOR", None)
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[name] = str(tmp_path / name.lower())
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    return env


def _serve(tmp_path: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tui", "serve", *args],
        env=_home(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _wait_for_port(port: int, process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"freight serve exited: {process.communicate()[1].decode()}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"freight serve did not listen on {port}")


def _stop(process: subprocess.Popen[bytes]) -> tuple[str, str]:
    process.terminate()
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
    return out.decode(errors="replace"), err.decode(errors="replace")


# -- without a browser -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.1.2.3", True), ("::1", True), ("[::1]", True),
     ("localhost", True), ("0.0.0.0", False), ("::", False), ("192.168.1.20", False),
     ("warehouse.example", False)],
)  # fmt: skip
def test_only_loopback_counts_as_this_machine(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_each_page_runs_this_freight_with_the_same_target() -> None:
    from argparse import Namespace

    command = app_command(
        Namespace(demo=False, profile="acme; rm -rf ~", base_url="https://x.test", debug=True)
    )
    assert command.startswith(f"{sys.executable} -m tui --profile ")
    assert "'acme; rm -rf ~'" in command  # one argument, never shell
    assert command.endswith("--base-url https://x.test --debug")
    assert app_command(Namespace(demo=True, profile=None, base_url=None, debug=False)).endswith(
        "-m tui --demo"
    )


def test_the_page_connects_back_where_the_browser_reached_it() -> None:
    assert page_urls("http://localhost:9000") == {
        "websocket": "ws://localhost:9000/ws",
        "static": "http://localhost:9000/static/",
    }
    assert page_urls("https://freight.example.com/")["websocket"] == (
        "wss://freight.example.com/ws"
    )


def test_a_host_beyond_loopback_needs_allow_remote(tmp_path: Path) -> None:
    refused = subprocess.run(
        [sys.executable, "-m", "tui", "serve", "--demo", "--host", "0.0.0.0"],
        env=_home(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2
    assert "--allow-remote" in refused.stderr
    assert "this machine's credentials" in refused.stderr


def test_allow_remote_serves_and_says_who_can_reach_it(tmp_path: Path) -> None:
    pytest.importorskip("textual_serve")
    port = _free_port()
    process = _serve(tmp_path, "--demo", "--host", "0.0.0.0", "--port", str(port), "--allow-remote")
    try:
        _wait_for_port(port, process)
    finally:
        _, err = _stop(process)
    words = " ".join(err.split())
    assert f"listening on 0.0.0.0:{port}, beyond this machine" in words
    assert "Anyone who reaches that port works in Freight with this machine's credentials" in words
    assert "SSH tunnel" in words


# -- in a browser ----------------------------------------------------------------------------


class Page:
    """The browser page: what the app drew (from the websocket), requests, downloads."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.received: list[bytes] = []
        self.requests: list[str] = []
        self.downloads: list[Any] = []
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("download", lambda download: self.downloads.append(download))
        page.on("websocket", self._socket)

    def _socket(self, websocket: Any) -> None:
        websocket.on("framereceived", self._frame)

    def _frame(self, payload: bytes | str) -> None:
        self.received.append(payload if isinstance(payload, bytes) else payload.encode())

    def mark(self) -> int:
        """Where the app's output stands now (to read only what comes after)."""
        return len(self.received)

    def drawn(self, since: int = 0) -> str:
        """The text the app sent since ``since``, escape sequences taken out."""
        raw = b"".join(self.received[since:])
        return _ESCAPES.sub(b"", raw).decode("utf-8", errors="replace")

    def wait_for(self, condition: Callable[[], bool], what: str, seconds: float = 180) -> None:
        deadline = time.monotonic() + seconds
        while not condition():
            if time.monotonic() > deadline:
                self.page.screenshot(path=str(Path(os.environ.get("TMPDIR", "/tmp")) / "s.png"))
                raise AssertionError(f"timed out waiting for {what}")
            self.page.wait_for_timeout(100)

    def wait_for_text(self, text: str, since: int = 0, seconds: float = 180) -> None:
        self.wait_for(lambda: text in self.drawn(since), repr(text), seconds)

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(key)
            self.page.wait_for_timeout(90)  # a person's pace: never a scanner's burst


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """`freight serve --demo` on a free loopback port, in a home of its own."""
    port = _free_port()
    process = _serve(tmp_path, "--demo", "--port", str(port))
    try:
        _wait_for_port(port, process)
        yield port, tmp_path
    finally:
        _stop(process)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_app_works_in_a_browser_and_documents_arrive_as_downloads(
    served: tuple[int, Path],
) -> None:
    from playwright.sync_api import sync_playwright

    port, home = served
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS
        )
        try:
            context = browser.new_context(
                accept_downloads=True, viewport={"width": 1000, "height": 640}
            )
            page = Page(context.new_page())
            page.page.goto(f"http://127.0.0.1:{port}/")
            # The quote screen is drawn: the header, the lane's fields and the items grid.
            for text in ("Freight", "DEMO", "From", "Items", "Pickup"):
                page.wait_for_text(text)
            hosts = {urlsplit(url).netloc for url in page.requests}
            assert hosts == {f"127.0.0.1:{port}"}, page.requests  # nothing from elsewhere
            assert any(url.endswith(".ttf") for url in page.requests)  # the font: from here
            # Keys reach the app: the destination ZIP typed arrives in its field.
            page.page.focus(".xterm-helper-textarea")
            since = page.mark()
            page.keys(*"30303")
            page.wait_for_text("30303", since)
            # F4: the shipments; Enter opens the newest; S saves every document.
            since = page.mark()
            page.keys("F4")
            # the first page has arrived (the title says how many are loaded), so Enter has a row
            page.wait_for_text(" loaded", since)
            page.wait_for_text("newest first", since)
            since = page.mark()
            page.keys("Enter")
            page.wait_for_text("Bill of lading", since)
            since = page.mark()
            page.keys("S")
            page.wait_for(lambda: len(page.downloads) >= 2, "the documents as downloads")
            page.wait_for_text("Saved", since)
            names = [download.suggested_filename for download in page.downloads]
            bol = next(d for d in page.downloads if "lading" in d.suggested_filename.lower())
            saved = Path(bol.path())
            assert saved.read_bytes()[:4] == b"%PDF", names
            on_server = list(home.rglob(bol.suggested_filename))
            assert on_server, f"{names} not kept on the server under {home}"
            assert on_server[0].read_bytes() == saved.read_bytes()
        finally:
            browser.close()
