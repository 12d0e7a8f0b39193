"""``freight serve``: each browser that opens the page gets its own Freight app, run here.

textual-serve (the ``web`` extra, imported only here) serves a page with a terminal and runs
``python -m tui`` for every connection; keys come from the browser, the screen goes back to
it. The app runs on this machine, as this user: its credentials (keyring, environment), its
printers (``lp``), its files. So the page is served on loopback unless ``--allow-remote``
says otherwise, and then Freight says who can reach it.
"""

from __future__ import annotations

import argparse
import ipaddress
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from textual_serve.server import Server

TEMPLATES = Path(__file__).parent / "templates"
"""Freight's page: textual-serve's terminal without its web font from another host."""

REMOTE_WARNING = (
    "freight serve: listening on {where}, beyond this machine. Anyone who reaches that port "
    "works in Freight with this machine's credentials (profile {profile}): sees its shipments, "
    "books and prints. Reach it through an SSH tunnel (ssh -L {port}:localhost:{port} this-host, "
    "then serve on 127.0.0.1) or a proxy that signs people in."
)


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def app_command(args: argparse.Namespace) -> str:
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
    return shlex.join(parts)


def main(args: argparse.Namespace, err: TextIO | None = None) -> int:
    """Serve until Ctrl-C; 2 when the host needs --allow-remote or the extra is missing."""
    err = sys.stderr if err is None else err
    where = f"{args.host}:{args.port}"
    remote = not is_loopback(args.host)
    if remote and not args.allow_remote:
        print(
            f"freight serve: --host {args.host} can be reached from other machines, and "
            "anyone who reaches the port works with this machine's credentials. Add "
            "--allow-remote to serve it anyway, or keep 127.0.0.1 and use an SSH tunnel.",
            file=err,
        )
        return 2
    if not 0 < args.port < 65536:
        print(f"freight serve: --port {args.port}: must be 1 to 65535", file=err)
        return 2
    try:
        from textual_serve.server import Server
    except ImportError:
        print(
            "freight serve: the web extra is not installed: pip install 'freight-tui[web]'",
            file=err,
        )
        return 2
    if remote:
        profile = "demo" if args.demo else (args.profile or "the default")
        print(REMOTE_WARNING.format(where=where, profile=profile, port=args.port), file=err)
    server = _server_class(Server)(
        app_command(args),
        host=args.host,
        port=args.port,
        title="Freight",
        public_url=args.public_url,
        templates_path=TEMPLATES,
    )
    server.serve()
    return 0


def page_urls(public_url: str) -> dict[str, str]:
    """The page's websocket and static-file URLs under ``public_url`` (``http://host:port``)."""
    base = public_url.rstrip("/")
    scheme, rest = base.split(":", 1)
    socket = ("wss:" if scheme == "https" else "ws:") + rest + "/ws"
    return {"websocket": socket, "static": base + "/static/"}


def _server_class(server: type[Server]) -> type[Server]:
    """textual-serve's server whose page names this server as the browser reached it (so an
    SSH tunnel on another port works), unless ``--public-url`` says otherwise."""
    import aiohttp_jinja2
    from aiohttp import web

    class FreightServer(server):  # type: ignore[valid-type,misc]
        def __init__(self, *args: Any, public_url: str | None = None, **kwargs: Any) -> None:
            super().__init__(*args, public_url=public_url, **kwargs)
            self.fixed_url = public_url

        @aiohttp_jinja2.template("app_index.html")
        async def handle_index(self, request: web.Request) -> dict[str, Any]:
            urls = page_urls(self.fixed_url or f"{request.scheme}://{request.host}")
            try:
                font_size = int(request.query.get("fontsize", "16"))
            except ValueError:
                font_size = 16
            return {
                "font_size": max(6, min(font_size, 48)),
                "app_websocket_url": urls["websocket"],
                "config": {"static": {"url": urls["static"]}},
                "application": {"name": self.title},
            }

    return FreightServer
