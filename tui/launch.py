"""Start the TUI: build the session from flags, environment and config, then run the app."""

from __future__ import annotations

import logging
import os
import sys
from typing import TYPE_CHECKING

from tui import logsetup
from tui.app import make_app
from tui.config.plain import ConfigError
from tui.session import Session

if TYPE_CHECKING:
    import argparse


def build_session(args: argparse.Namespace) -> Session:
    """The session the flags, environment and config file ask for."""
    if args.demo:
        from tui.demo import build_demo_session

        return build_demo_session()
    # Not at the top: it brings the keyring, pydantic and importlib.metadata, which the
    # demo's first frame does without (tests/ui/test_first_frame.py, the command's path).
    from tui.credentials.session import session_from_args

    return session_from_args(args)


def setup_logging(debug: bool = False) -> None:
    """Log to a rotating file in the log dir at the level of ``--debug`` or FREIGHT_LOG_LEVEL
    (default INFO); every record is scrubbed of secrets first. A bad level falls back to INFO
    with a warning in the log."""
    try:
        level = logsetup.level_from(debug, os.environ)
        problem = None
    except logsetup.LogLevelError as error:
        level, problem = logging.INFO, str(error)
    logsetup.setup(level)
    if problem:
        logging.getLogger("tui").warning("%s; logging at INFO", problem)


def run_app(args: argparse.Namespace) -> int:
    """Run the TUI until the user quits; return the exit status."""
    setup_logging(bool(getattr(args, "debug", False)))

    try:
        session = build_session(args)
        app = make_app(session)
    except ConfigError as error:
        print(f"freight: {error}", file=sys.stderr)
        return 2
    app.run()
    if app.config_error is not None:  # found after the first frame: said as at the start
        print(f"freight: {app.config_error}", file=sys.stderr)
        return 2
    return app.return_code or 0
