"""``freight sandbox``: serve the sandbox in the foreground until Ctrl-C."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tui.sandbox.app import create_app
from tui.sandbox.config import DEMO_TOKEN, SandboxConfig, default_db_path
from tui.sandbox.threaded import bind, server_for, url_of


def config_from_args(args: argparse.Namespace) -> SandboxConfig:
    """Build the config from the parsed ``freight sandbox`` flags."""
    db = getattr(args, "db", None)
    return SandboxConfig(
        db_path=Path(db).expanduser() if db else default_db_path(),
        shipments=int(getattr(args, "shipments", 500)),
        seed=int(getattr(args, "seed", 7)),
        clock_speed=float(getattr(args, "clock_speed", 60.0)),
        rate_limit=float(getattr(args, "rate_limit", 20.0)),
    )


def main(args: argparse.Namespace) -> int:
    """Serve until interrupted; return the exit status."""

    host = getattr(args, "host", "127.0.0.1") or "127.0.0.1"
    port = int(getattr(args, "port", 8750))
    config = config_from_args(args)
    try:
        sock = bind(host, port)
    except OSError as exc:
        print(f"freight sandbox: cannot listen on {host}:{port}: {exc.strerror}", file=sys.stderr)
        return 1
    fresh = config.db_path is not None and not config.db_path.exists()
    if fresh:
        print(f"Seeding {config.shipments} shipments into {config.db_path} ...", flush=True)

    app = create_app(config)
    server = server_for(app, sock)
    print(f"Freight sandbox serving at {url_of(sock)}", flush=True)
    print(f"Demo token: {DEMO_TOKEN}   (client ID 'demo', secret 'demo-secret')", flush=True)
    print(f"Database: {config.db_path}", flush=True)
    print("Press Ctrl-C to stop.", flush=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        app.close()
    print("Sandbox stopped.", flush=True)
    return 0
