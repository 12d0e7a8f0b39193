"""``freight serve``: each browser tab that opens the page gets its own Freight app, run here.

textual-serve (the ``web`` extra, reached only through ``tui.web.serve_internals``, its
fence) gives the page's terminal (its ``textual.js``) and the pieces that run one app over
pipes (``AppService``) and hand its files to the browser (``DownloadManager``); this module
is the web server around them. The
app runs on this machine, as this user: its credentials (keyring, environment), its printers
(``lp``), its files. So only its owner may drive it: every request passes ``guard.Gate``
(the token printed at start, good once, for a cookie; the Host; the Origin), the page may
load nothing from elsewhere (its CSP), at most ``--max-sessions`` apps run at once (a tab
reloaded at the limit gets its place back), each app ends with the
server (``kill -9`` included: the kernel signals it, ``tui.web.tether``), and a stop takes
at most ~2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import functools
import json
import os
import shlex
import signal
import ssl
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

import jinja2
from aiohttp import BodyPartReader, WSCloseCode, WSMsgType, web

from tui.batch.view import ORDER_FILE_SUFFIXES
from tui.config.paths import data_dir
from tui.web import serve_internals
from tui.web.guard import (
    SECURITY_HEADERS,
    SPENT,
    Gate,
    clamp_size,
    is_loopback,
    is_wildcard,
    new_token,
)
from tui.workspace import WORKSPACE_ENV, download_name

__all__ = ["app_argv", "app_command", "is_loopback", "main", "page_urls"]

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
"""Freight's pages: the terminal (textual-serve's, without a web font from another host),
the session limit's page and the refusal."""
STATIC = HERE / "static"
"""Freight's own script for the page (downloads, the font, the upload)."""

DEFAULT_MAX_SESSIONS = 4
MAX_UPLOAD = 16 * 1024 * 1024
"""The largest order file the page may bring in."""
RELOAD_SECONDS = 10.0
"""At the session limit, how long a page or websocket waits for a tab's app that is ending
(``STOP_SECONDS``, then the kill) before the limit's page is shown."""
MAX_UPLOAD_NAME = 100
"""The longest name an uploaded file may have (as documents' names: docs/security.md)."""
MAX_SAME_NAME = 1000
"""How many uploads may share one name (``day.csv``, ``day-2.csv``… ``day-1000.csv``)."""

REMOTE_WARNING = (
    "freight serve: listening on {where}, beyond this machine. Anyone who reaches that port "
    "and has the address below (its token) works in Freight with this machine's credentials "
    "(profile {profile}): sees its shipments, books and prints. Prefer an SSH tunnel "
    "(ssh -L {port}:localhost:{port} this-host, then serve on 127.0.0.1)."
)


def app_argv(args: argparse.Namespace) -> list[str]:
    """The command each browser session runs: this Python's Freight, with the same target."""
    parts = [sys.executable, "-m", "tui"]
    if getattr(args, "demo", False):
        parts.append("--demo")
    if getattr(args, "profile", None):
        parts += ["--profile", args.profile]
    if getattr(args, "base_url", None):
        parts += ["--base-url", args.base_url]
    if getattr(args, "debug", False):
        parts.append("--debug")
    return parts


def app_command(args: argparse.Namespace) -> str:
    """:func:`app_argv` as one line (shown at start); each part one argument, never shell."""
    return shlex.join(app_argv(args))


def page_urls(public_url: str) -> dict[str, str]:
    """The page's websocket and static-file URLs under ``public_url`` (``http://host:port``)."""
    base = public_url.rstrip("/")
    scheme, rest = base.split(":", 1)
    socket = ("wss:" if scheme == "https" else "ws:") + rest + "/ws"
    return {"websocket": socket, "static": base + "/static/"}


def refusal_to_start(args: argparse.Namespace) -> str | None:
    """Why these options cannot be served, or None."""
    if not 0 < args.port < 65536:
        return f"--port {args.port}: must be 1 to 65535"
    public_url: str | None = getattr(args, "public_url", None)
    if public_url and urlsplit(public_url).scheme not in ("http", "https"):
        return f"--public-url {public_url}: must start with https:// (or http:// on loopback)"
    certfile, keyfile = getattr(args, "certfile", None), getattr(args, "keyfile", None)
    if bool(certfile) != bool(keyfile):
        return "--certfile and --keyfile go together"
    if getattr(args, "max_sessions", DEFAULT_MAX_SESSIONS) < 1:
        return "--max-sessions: at least 1"
    if is_loopback(args.host):
        return None
    if not args.allow_remote:
        return (
            f"--host {args.host} can be reached from other machines, and anyone who reaches "
            "the port works with this machine's credentials. Add --allow-remote (with TLS) to "
            "serve it anyway, or keep 127.0.0.1 and use an SSH tunnel."
        )
    behind_https = (public_url or "").startswith("https://")
    if not certfile and not behind_https:
        return (
            "--allow-remote needs TLS: --certfile and --keyfile, or an https:// --public-url "
            "(a proxy that terminates TLS); the token would otherwise cross the network in "
            "clear."
        )
    if is_wildcard(args.host) and not public_url:
        return (
            f"--host {args.host} listens on every address: say the one browsers use with "
            "--public-url https://NAME:PORT (other names are refused)."
        )
    return None


def main(args: argparse.Namespace, err: TextIO | None = None, out: TextIO | None = None) -> int:
    """Serve until Ctrl-C; 2 when the options are refused or the extra is missing."""
    err = sys.stderr if err is None else err
    out = sys.stdout if out is None else out
    refused = refusal_to_start(args)
    if refused:
        print(f"freight serve: {refused}", file=err)
        return 2
    try:
        import aiohttp  # noqa: F401
        import textual_serve  # noqa: F401
    except ImportError:
        print(
            "freight serve: the web extra is not installed: pip install 'freight-tui[web]'",
            file=err,
        )
        return 2
    ssl_context: ssl.SSLContext | None = None
    if getattr(args, "certfile", None):
        ssl_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        try:
            ssl_context.load_cert_chain(args.certfile, args.keyfile)
        except (OSError, ssl.SSLError) as error:
            print(f"freight serve: the certificate could not be read: {error}", file=err)
            return 2
    folder = workspace_folder(getattr(args, "folder", None))
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as error:
        print(f"freight serve: --folder {folder}: {error.strerror or error}", file=err)
        return 2
    public_url = getattr(args, "public_url", None)
    gate = Gate(
        token=new_token(),
        bound_host=args.host,
        public_url=public_url,
        secure=ssl_context is not None or (public_url or "").startswith("https:"),
        port=args.port,
    )
    if not is_loopback(args.host):
        profile = "demo" if args.demo else (args.profile or "the default")
        where = f"{args.host}:{args.port}"
        print(REMOTE_WARNING.format(where=where, profile=profile, port=args.port), file=err)
    server = FreightServer(
        app_argv(args),
        gate,
        host=args.host,
        port=args.port,
        ssl_context=ssl_context,
        max_sessions=getattr(args, "max_sessions", DEFAULT_MAX_SESSIONS),
        folder=folder,
        out=out,
    )
    try:
        asyncio.run(server.run())
    except OSError as error:
        print(f"freight serve: cannot listen on {args.host}:{args.port}: {error}", file=err)
        return 2
    return 0


def workspace_folder(given: str | None) -> Path:
    """The one folder served sessions read and write: ``--folder``, else ``workspace`` in
    Freight's data folder."""
    if given:
        return Path(given).expanduser().resolve()

    return data_dir() / "workspace"


class FreightServer:
    """The web server: the guarded page, its websocket, downloads and static files."""

    def __init__(
        self,
        argv: list[str],
        gate: Gate,
        *,
        host: str,
        port: int,
        ssl_context: ssl.SSLContext | None = None,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        folder: Path,
        out: TextIO | None = None,
    ) -> None:
        self.folder = folder

        self.argv = argv
        self.gate = gate
        self.host = host
        self.port = port
        self.ssl_context = ssl_context
        self.max_sessions = max_sessions
        self.out = sys.stdout if out is None else out
        self.sessions: set[Any] = set()
        self.closing = 0
        """Sessions whose page has gone (a reload's old page), their app still ending."""
        self.freed = asyncio.Condition()
        self.endings: set[asyncio.Task[None]] = set()
        self.sockets: set[web.WebSocketResponse] = set()
        self.downloads = serve_internals.download_manager()
        self.session_class = serve_internals.session_class()
        self.stopping = False

    # -- the address ----------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """Where browsers open the page (``--public-url``, else the bound address)."""
        if self.gate.public_url:
            return self.gate.public_url.rstrip("/")
        scheme = "https" if self.ssl_context is not None else "http"
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{scheme}://{host}:{self.port}"

    @property
    def open_url(self) -> str:
        """The address to open, with this start's token (traded for a cookie on first load,
        then spent)."""
        return f"{self.base_url}/?token={self.gate.token}"

    # -- the application ------------------------------------------------------------------

    def make_app(self) -> web.Application:

        app = web.Application(middlewares=[self._guard], client_max_size=16 * 1024 * 1024)
        textual_static = serve_internals.static_folder()
        app.add_routes(
            [
                web.get("/", self.handle_index),
                web.get("/ws", self.handle_websocket),
                web.get("/download/{key}", self.handle_download),
                web.post("/upload", self.handle_upload),
                web.static("/static", textual_static, show_index=False, follow_symlinks=False),
                web.static("/freight", STATIC, show_index=False, follow_symlinks=False),
            ]
        )
        app.on_shutdown.append(self._on_shutdown)
        return app

    @property
    def _guard(self) -> Any:

        gate = self.gate

        @web.middleware
        async def guard(
            request: web.Request,
            handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
        ) -> web.StreamResponse:
            websocket = request.headers.get("Upgrade", "").lower() == "websocket"
            reason = gate.refusal(
                host=request.headers.get("Host"),
                scheme=request.scheme,
                origin=request.headers.get("Origin"),
                fetch_site=request.headers.get("Sec-Fetch-Site"),
                token=request.query.get("token"),
                cookie=request.cookies.get(gate.cookie_name),
                websocket=websocket,
                changes=request.method not in ("GET", "HEAD"),
            )
            if reason is not None:
                response: web.StreamResponse = self._page(
                    "refused.html", {"reason": reason}, status=403
                )
            else:
                try:
                    response = await handler(request)
                except web.HTTPException as error:  # raised, as aiohttp wants; with our headers
                    error.headers.update(SECURITY_HEADERS)
                    raise
            if not response.prepared:
                response.headers.update(SECURITY_HEADERS)
            return response

        return guard

    def _page(self, name: str, context: dict[str, Any], status: int = 200) -> web.Response:

        html = _templates().get_template(name).render(**context)
        return web.Response(text=html, status=status, content_type="text/html")

    # -- the page -------------------------------------------------------------------------

    async def handle_index(self, request: web.Request) -> web.StreamResponse:

        if "token" in request.query:  # trade the token for the cookie, drop it from the bar
            response = web.Response(status=303, headers={"Location": "./"})
            if self.gate.trade(request.query["token"]):
                response.set_cookie(
                    self.gate.cookie_name,
                    self.gate.cookie_secret,
                    httponly=True,
                    samesite="Strict",
                    secure=self.gate.secure,
                    path="/",
                )
            elif not self.gate.cookie_matches(request.cookies.get(self.gate.cookie_name)):
                return self._page("refused.html", {"reason": SPENT}, status=403)  # raced
            return response
        if not await self._room():
            return self._page("full.html", {"limit": self.max_sessions}, status=503)
        try:
            font_size = int(request.query.get("fontsize", "16"))
        except ValueError:
            font_size = 16
        urls = page_urls(self.gate.public_url) if self.gate.public_url else None
        return self._page(
            "app_index.html",
            {
                "font_size": max(6, min(font_size, 48)),
                # Built from --public-url, or left to the page (its own address): the Host a
                # request carried is never written into the page.
                "app_websocket_url": urls["websocket"] if urls else "",
                "static_url": urls["static"] if urls else "/static/",
                "freight_url": (self.base_url + "/freight/") if urls else "/freight/",
                "name": "Freight",
            },
        )

    # -- one tab's app --------------------------------------------------------------------

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:

        if self.stopping or not await self._room() or self.stopping:
            return self._page("full.html", {"limit": self.max_sessions}, status=503)
        width, height = clamp_size(
            request.query.get("width", "80"), request.query.get("height", "24")
        )
        # timeout: how long a close waits for the page's answer (a stop must not wait 10 s).
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=1024 * 1024, timeout=0.5)
        session = self.session_class(
            "",
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.downloads,
        )
        session.argv = self.argv
        session.extra_env = {
            "FREIGHT_SERVE_SESSION": session.app_service_id,
            WORKSPACE_ENV: str(self.folder),
        }
        # The slot is taken before the first await: opens at the same moment see each other's,
        # and no more than max_sessions pass the check above.
        self.sessions.add(session)
        try:
            await websocket.prepare(request)
        except BaseException:
            self.sessions.discard(session)
            raise
        self.sockets.add(websocket)
        try:
            await session.start(width, height)
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                await self._from_page(session, websocket, message.data)
        except (asyncio.CancelledError, ConnectionResetError):
            pass
        finally:
            self.sockets.discard(websocket)
            # The page has gone: its app ends in a task of its own, which the handler's
            # cancellation (aiohttp's, once the connection is lost) cannot cut short; the
            # slot stays taken until the app has ended.
            self.closing += 1
            ending = asyncio.create_task(self._end(session))
            self.endings.add(ending)
            ending.add_done_callback(self.endings.discard)
            await asyncio.shield(ending)
            await websocket.close()
        return websocket

    async def _end(self, session: Any) -> None:
        """Stop one tab's app, then free its slot (and wake whoever waits for one)."""
        try:
            await session.stop()
        finally:
            self.closing -= 1
            self.sessions.discard(session)
            async with self.freed:
                self.freed.notify_all()

    async def _room(self) -> bool:
        """Whether one more session may start now. At the limit, while a tab's app is still
        ending (a reload: its old page has gone), wait for it (at most RELOAD_SECONDS), so
        the reloaded tab gets its place back. No await between this and taking the slot."""
        if len(self.sessions) < self.max_sessions or not self.closing:
            return len(self.sessions) < self.max_sessions
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(RELOAD_SECONDS), self.freed:
                await self.freed.wait_for(
                    lambda: len(self.sessions) < self.max_sessions or not self.closing
                )
        return len(self.sessions) < self.max_sessions

    async def _from_page(self, session: Any, websocket: web.WebSocketResponse, text: str) -> None:
        """One message from the page: keys, a size (capped), focus, a ping."""
        try:
            envelope = json.loads(text)
        except ValueError:
            return
        if not isinstance(envelope, list) or not envelope:
            return
        kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
        if kind == "stdin" and isinstance(data, str):
            await session.send_bytes(data.encode("utf-8"))
        elif kind == "resize" and isinstance(data, dict):
            await session.set_terminal_size(*clamp_size(data.get("width"), data.get("height")))
        elif kind == "ping":
            await websocket.send_json(["pong", str(data)[:64]])
        elif kind == "blur":
            await session.blur()
        elif kind == "focus":
            await session.focus()

    # -- downloads ------------------------------------------------------------------------

    async def handle_download(self, request: web.Request) -> web.StreamResponse:

        key = request.match_info["key"]
        try:
            meta = await self.downloads.get_download_metadata(key)
        except KeyError:
            raise web.HTTPNotFound(text="This download has been taken or has ended.") from None
        response = web.StreamResponse()
        response.headers.update(SECURITY_HEADERS)
        content_type = meta.mime_type or "application/octet-stream"
        if meta.encoding:
            content_type += f"; charset={meta.encoding}"
        response.headers["Content-Type"] = content_type
        # Always an attachment: a file shown inline would be a page of this origin.
        response.headers["Content-Disposition"] = f'attachment; filename="{_safe(meta.file_name)}"'
        await response.prepare(request)
        async for chunk in self.downloads.download(key):
            await response.write(chunk)
        await response.write_eof()
        return response

    # -- an order file brought in -------------------------------------------------------

    async def handle_upload(self, request: web.Request) -> web.StreamResponse:
        """An order file from the browser (the page's button or a drop), written into the
        workspace under a name of its own: never over a file, never a dotfile."""

        reader = await request.multipart()
        part = await reader.next()
        if not isinstance(part, BodyPartReader) or not part.filename:
            raise web.HTTPBadRequest(text="No file was sent.")
        name = download_name(Path(part.filename).name)
        if len(name) > MAX_UPLOAD_NAME:
            raise web.HTTPBadRequest(
                text=f"{name[:40]}…: a file name here is at most {MAX_UPLOAD_NAME} "
                "characters; rename the file and upload it again."
            )
        if not name.lower().endswith(ORDER_FILE_SUFFIXES):
            raise web.HTTPBadRequest(text=f"{name}: an order file is .csv, .tsv or .xlsx.")
        data = bytearray()
        while chunk := await part.read_chunk():
            data += chunk
            if len(data) > MAX_UPLOAD:
                raise web.HTTPRequestEntityTooLarge(max_size=MAX_UPLOAD, actual_size=len(data))
        try:
            saved = await asyncio.to_thread(write_new_file, self.folder, name, bytes(data))
        except OSError as error:
            raise web.HTTPConflict(
                text=f"{name} could not be saved in {self.folder}: {error.strerror or error}."
            ) from None
        return web.json_response({"name": saved, "folder": str(self.folder)})

    # -- start and stop -------------------------------------------------------------------

    async def run(self) -> None:

        runner = web.AppRunner(self.make_app(), access_log=None, shutdown_timeout=0.25)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port, ssl_context=self.ssl_context)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(signum, stop.set)
        try:
            await site.start()
            print(
                f"freight serve: running {shlex.join(self.argv)}\n"
                "Open this address (it works once, in one browser: its token becomes a "
                "cookie there; keep it to yourself):\n"
                f"    {self.open_url}\n"
                "Press Ctrl-C to stop.",
                file=self.out,
                flush=True,
            )
            await stop.wait()
        finally:
            await self._stop_sessions()
            await runner.cleanup()

    async def _on_shutdown(self, _app: web.Application) -> None:
        await self._stop_sessions()

    async def _stop_sessions(self) -> None:
        """Every app quits at once (killed after STOP_SECONDS); every page is told."""

        self.stopping = True
        await asyncio.gather(
            *(session.stop() for session in list(self.sessions)),
            *list(self.endings),
            *(
                socket.close(code=WSCloseCode.GOING_AWAY, message=b"freight serve stopped")
                for socket in list(self.sockets)
            ),
            return_exceptions=True,
        )


def write_new_file(folder: Path, name: str, data: bytes) -> str:
    """Write ``data`` as a new file directly in ``folder``: ``name``, or ``stem-2.csv``,
    ``stem-3.csv``… when it is taken (by a file, a link, or an upload of the same name at the
    same moment); never through a link, the folder's own included. Returns the name used.
    Raises OSError (the folder is missing or a link, no free name, the disk...)."""
    stem, suffix = os.path.splitext(name)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    directory = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        for number in range(1, MAX_SAME_NAME + 1):
            candidate = name if number == 1 else f"{stem}-{number}{suffix}"
            try:
                handle = os.open(candidate, flags, 0o666, dir_fd=directory)
            except FileExistsError:
                continue
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            return candidate
    finally:
        os.close(directory)
    raise FileExistsError(errno.EEXIST, f"{MAX_SAME_NAME} files of that name already")


def _safe(name: str) -> str:
    """A download's name for its header: letters, digits, ``.``, ``-``, ``_``."""
    cleaned = "".join(c if c.isascii() and (c.isalnum() or c in ".-_") else "_" for c in name)
    return cleaned.strip(".") or "download"


@functools.cache
def _templates() -> Any:

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, auto_reload=False
    )
