"""`freight serve`: loopback unless told otherwise, and the app working in a real browser.

The browser test starts `freight serve --demo` as a user would and drives it in headless
Chromium (Debian's, through playwright): the page loads from the server alone, the quote
screen is drawn, keys reach the app, and a shipment's documents saved on the server arrive in
the browser as downloads. What the app draws is read from the page's websocket (the terminal
itself is a canvas).
"""

from __future__ import annotations

import http.server
import os
import re
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import pytest

from tests.web.serving import (
    app_processes,
    free_port,
    home,
    serve,
    stop,
    token_url,
    wait_until,
)
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
        env=home(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2
    assert "--allow-remote" in refused.stderr
    assert "this machine's credentials" in refused.stderr


def test_allow_remote_refuses_to_start_without_tls(tmp_path: Path) -> None:
    for extra in ([], ["--public-url", "http://freight.example:8000"]):
        refused = subprocess.run(
            [sys.executable, "-m", "tui", "serve", "--demo", "--host", "0.0.0.0",
             "--allow-remote", *extra],
            env=home(tmp_path), capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert refused.returncode == 2, refused.stderr
        assert "--allow-remote needs TLS" in " ".join(refused.stderr.split())


def test_allow_remote_behind_an_https_proxy_serves_and_says_who_can_reach_it(
    tmp_path: Path,
) -> None:
    port = free_port()
    process = serve(
        tmp_path, "--demo", "--host", "0.0.0.0", "--port", str(port), "--allow-remote",
        "--public-url", f"https://freight.example:{port}",
    )  # fmt: skip
    try:
        url = token_url(process)
    finally:
        _, err = stop(process)
    assert url.startswith(f"https://freight.example:{port}/?token=")
    words = " ".join(err.split())
    assert f"listening on 0.0.0.0:{port}, beyond this machine" in words
    assert "works in Freight with this machine's credentials" in words


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


class Served(NamedTuple):
    port: int
    url: str
    """The address it printed, with its token."""
    home: Path
    process: subprocess.Popen[bytes]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """`freight serve --demo` on a free loopback port, in a home of its own."""
    port = free_port()
    process = serve(tmp_path, "--demo", "--port", str(port))
    try:
        yield Served(port, token_url(process), tmp_path, process)
    finally:
        stop(process)


def _chromium(playwright: Any) -> Any:
    """Debian's Chromium with its popup blocker ON, as people browse (playwright turns it off
    by default, and then a download opened as a popup always gets through)."""
    return playwright.chromium.launch(
        executable_path="/usr/bin/chromium",
        args=CHROMIUM_FLAGS,
        ignore_default_args=["--disable-popup-blocking"],
    )


def _terminal_fits(page: Any) -> bool:
    """The terminal's last row is inside the window (rows measured in the loaded font)."""
    return bool(
        page.evaluate(
            "() => { const s = document.querySelector('.xterm-screen');"
            " return !!s && s.getBoundingClientRect().height > 100 &&"
            " s.getBoundingClientRect().bottom <= window.innerHeight + 1; }"
        )
    )


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_app_works_in_a_browser_and_documents_arrive_as_one_zip(served: Served) -> None:
    from playwright.sync_api import sync_playwright

    port = served.port
    with sync_playwright() as playwright:
        browser = _chromium(playwright)
        try:
            context = browser.new_context(
                accept_downloads=True, viewport={"width": 1000, "height": 640}
            )
            page = Page(context.new_page())
            page.page.goto(served.url)
            # The token became a cookie, and the address bar no longer shows it.
            assert "token" not in page.page.url
            [cookie] = context.cookies()
            assert cookie["httpOnly"]
            assert cookie["sameSite"] == "Strict"
            # The quote screen is drawn: the header, the lane's fields and the items grid.
            for text in ("Freight", "DEMO", "From", "Items", "Pickup"):
                page.wait_for_text(text)
            hosts = {urlsplit(url).netloc for url in page.requests}
            assert hosts == {f"127.0.0.1:{port}"}, page.requests  # nothing from elsewhere
            assert any(url.endswith(".ttf") for url in page.requests)  # the font: from here
            # Measured once the font had loaded: every row is on screen, before and after
            # the window changes size.
            page.wait_for(lambda: _terminal_fits(page.page), "the terminal inside the window")
            page.page.set_viewport_size({"width": 900, "height": 500})
            page.wait_for(lambda: _terminal_fits(page.page), "the terminal after a resize")
            # An order file brought in with the page's button lands in the workspace folder.
            orders = served.home / "from-this-computer.csv"
            orders.write_text("zip,weight\n30303,120\n", encoding="utf-8")
            page.page.set_input_files("#freight-upload", str(orders))
            page.page.wait_for_function(
                "() => document.getElementById('freight-note').textContent.includes('Uploaded')"
            )
            assert list(served.home.rglob("workspace/from-this-computer.csv"))
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
            # One key, one download: every document in one zip, through the popup blocker;
            # the app says what the browser was given.
            page.wait_for(lambda: bool(page.downloads), "the documents as a download")
            page.wait_for_text("browser was given", since)
            [download] = page.downloads
            assert download.suggested_filename.endswith(".zip")
            with zipfile.ZipFile(download.path()) as archive:
                names = archive.namelist()
                assert len(names) >= 2, names
                bol = next(n for n in names if "lading" in n.lower() or "bol" in n.lower())
                sent = archive.read(bol)
            assert sent[:4] == b"%PDF", names
            on_server = list(served.home.rglob(f"workspace/documents/*/{bol}"))
            assert on_server, f"{names} not kept on the server under {served.home}"
            assert on_server[0].read_bytes() == sent
            assert f"({len(names)} files)" in page.drawn(since)
        finally:
            browser.close()


HOSTILE_PAGE = """<!DOCTYPE html><html><body><pre id="out"></pre><script>
const target = "TARGET";
const out = document.getElementById("out");
const done = [];
function note(what) { done.push(what); out.textContent = done.join("\\n"); }
const socket = new WebSocket(target.replace("http", "ws") + "/ws?width=80&height=24");
socket.onopen = () => note("ws: open");
socket.onclose = () => note("ws: closed");
for (const path of ["/", "/download/anything", "/static/js/textual.js", "/freight/page.js"]) {
  fetch(target + path, {mode: "no-cors", credentials: "include"})
    .then(() => note("fetched " + path), () => note("failed " + path));
}
</script></body></html>"""


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_pages_from_another_origin_or_a_file_cannot_drive_the_app(
    served: Served, tmp_path: Path
) -> None:
    """The owner's browser holds the cookie; a page on another local port (same site, so the
    browser sends the cookie) and a file:// page try the websocket and every endpoint."""
    from playwright.sync_api import sync_playwright

    target = f"http://127.0.0.1:{served.port}"
    page_html = HOSTILE_PAGE.replace("TARGET", target).encode()
    hostile = tmp_path / "hostile.html"
    hostile.write_bytes(page_html)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page_html)

        def log_message(self, *args: Any) -> None:
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    with sync_playwright() as playwright:
        browser = _chromium(playwright)
        try:
            context = browser.new_context()
            owner = context.new_page()
            owner.goto(served.url)  # the owner's cookie is now in this browser
            assert context.cookies()
            owner.close()
            wait_until(lambda: not app_processes(served.process.pid), "the owner's app to end")
            for address in (f"http://127.0.0.1:{other.server_port}/", hostile.as_uri()):
                page = context.new_page()
                statuses: dict[str, int] = {}

                def seen(response: Any, statuses: dict[str, int] = statuses) -> None:
                    if response.url.startswith(target):
                        statuses[urlsplit(response.url).path] = response.status

                page.on("response", seen)
                page.goto(address)
                page.wait_for_function(
                    "() => document.getElementById('out').textContent.split('\\n').length >= 5",
                    timeout=60_000,
                )
                report = page.inner_text("#out")
                assert "ws: open" not in report, (address, report)
                assert "ws: closed" in report, (address, report)
                for path in ("/", "/download/anything", "/static/js/textual.js"):
                    assert statuses.get(path) == 403, (address, statuses)
                assert not app_processes(served.process.pid), address  # no app was started
                page.close()
        finally:
            browser.close()
            other.shutdown()


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_tab_reloaded_at_the_session_limit_keeps_its_place(tmp_path: Path) -> None:
    """One session allowed, one tab open: a reload (the old page still open when the new one
    is asked for) gets Freight again, not the limit's page for good; the printed address,
    opened again, is refused."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    process = serve(tmp_path, "--demo", "--port", str(port), "--max-sessions", "1")
    try:
        url = token_url(process)
        with sync_playwright() as playwright:
            browser = _chromium(playwright)
            try:
                context = browser.new_context(viewport={"width": 1000, "height": 640})
                page = Page(context.new_page())
                page.page.goto(url)
                page.wait_for_text("Items")
                apps = app_processes(process.pid)
                assert len(apps) == 1
                since = page.mark()
                page.page.reload()
                page.wait_for_text("Items", since)
                assert "Freight" in page.page.title()
                page.wait_for(
                    lambda: len(app_processes(process.pid) - apps) == 1, "the reload's app"
                )
                # The address printed, from this browser's history in another browser
                # (no cookie): refused, saying why.
                other = browser.new_context()
                stranger = other.new_page()
                response = stranger.goto(url)
                assert response is not None
                assert response.status == 403
                assert "opened once already" in stranger.content()
                other.close()
            finally:
                browser.close()
    finally:
        stop(process)
