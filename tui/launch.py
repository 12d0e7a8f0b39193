"""Start the TUI: build the session from flags, environment and config, then run the app."""

from __future__ import annotations

import argparse
import sys

from tui.session import Session


def build_session(args: argparse.Namespace) -> Session:
    """The session the flags, environment and config file ask for."""
    if args.demo:
        from tui.demo import build_demo_session

        return build_demo_session()
    from tui.credentials.session import session_from_args

    return session_from_args(args)


def setup_logging() -> None:
    """Log to a rotating file in the log dir; every record is scrubbed of secrets first."""
    import logging
    from logging.handlers import RotatingFileHandler

    from tui.config.paths import log_file
    from tui.credentials import redact

    redact.install()
    path = log_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)


def run_app(args: argparse.Namespace) -> int:
    """Run the TUI until the user quits; return the exit status."""
    from tui.config.settings import ConfigError

    setup_logging()

    try:
        session = build_session(args)
    except ConfigError as error:
        print(f"freight: {error}", file=sys.stderr)
        return 2
    from tui.app import make_app

    app = make_app(session)
    app.run()
    return app.return_code or 0
