"""Command line: parse arguments and hand off to the app or a sub-command.

Imports stay lazy so ``freight --help`` and the first frame of the app load little.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tui import __version__

PRECEDENCE = (
    "Settings are taken, highest first, from: command-line flags, environment variables "
    "(FREIGHT_PROFILE, FREIGHT_BASE_URL, FREIGHT_API_TOKEN or FREIGHT_CLIENT_ID with "
    "FREIGHT_CLIENT_SECRET, FREIGHT_CREDENTIAL_STORE), then the config file "
    "(see `freight config path`)."
)


def build_parser() -> argparse.ArgumentParser:
    """Return the parser for ``freight`` and all its sub-commands."""
    parser = argparse.ArgumentParser(
        prog="freight",
        description=(
            "Freight: describe freight, compare every carrier's rate, book, print the "
            "paperwork, and track shipments, from the keyboard."
        ),
        epilog=PRECEDENCE,
    )
    parser.add_argument("--version", action="version", version=f"freight {__version__}")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="open the app on a local sandbox service with demo data (no account needed)",
    )
    parser.add_argument("--profile", metavar="NAME", help="profile to use (default: the config's)")
    parser.add_argument("--base-url", metavar="URL", help="service base URL for this run")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sandbox = sub.add_parser(
        "sandbox",
        help="run the local sandbox service until Ctrl-C",
        description="Serve the sandbox emulator of the shipping service over HTTP.",
    )
    sandbox.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    sandbox.add_argument("--port", type=int, default=8750, help="port (default 8750)")
    sandbox.add_argument("--db", metavar="PATH", help="SQLite file (default: in the data dir)")
    sandbox.add_argument(
        "--shipments", type=int, default=500, metavar="N", help="shipments to seed a new database"
    )
    sandbox.add_argument("--seed", type=int, default=7, metavar="S", help="random seed")
    sandbox.add_argument(
        "--clock-speed",
        type=float,
        default=60.0,
        metavar="X",
        help="simulated clock speed for shipment lifecycles (default 60: a minute per second)",
    )
    sandbox.add_argument(
        "--rate-limit",
        type=float,
        default=20.0,
        metavar="R",
        help="requests per second per token before 429 (default 20)",
    )

    login = sub.add_parser(
        "login",
        help="save a profile's client ID and secret",
        description=(
            "Ask for the client ID, then the secret (hidden), check them with one API call, "
            "and save them in the OS keyring. Reads one line each from standard input when "
            "it is not a terminal. " + PRECEDENCE
        ),
    )
    login.add_argument("--profile", dest="sub_profile", metavar="NAME")
    login.add_argument("--base-url", dest="sub_base_url", metavar="URL")
    login.add_argument(
        "--insecure-storage",
        action="store_true",
        help="save in a plain file (mode 0600) when no keyring is usable",
    )

    logout = sub.add_parser("logout", help="forget a profile's saved credentials")
    logout.add_argument("--profile", dest="sub_profile", metavar="NAME")

    auth = sub.add_parser("auth", help="credential commands")
    auth_sub = auth.add_subparsers(dest="auth_command", metavar="ACTION", required=True)
    status = auth_sub.add_parser(
        "status", help="where the credentials come from (never the secret)"
    )
    status.add_argument("--profile", dest="sub_profile", metavar="NAME")

    config = sub.add_parser("config", help="configuration commands")
    config_sub = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    config_sub.add_parser("path", help="print where config, data and logs live")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``freight`` command; returns the exit status."""
    args = build_parser().parse_args(argv)
    # Sub-command flags win over the top-level ones of the same name.
    for name in ("profile", "base_url"):
        sub_value = getattr(args, f"sub_{name}", None)
        if sub_value is not None:
            setattr(args, name, sub_value)
    if args.command == "sandbox":
        from tui.sandbox.serve import main as sandbox_main

        return sandbox_main(args)
    if args.command in ("login", "logout", "auth", "config"):
        from tui.credentials.commands import main as credentials_main

        return credentials_main(args)
    from tui.launch import run_app

    return run_app(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
