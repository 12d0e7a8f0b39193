"""Command line: parse arguments and hand off to the app or a sub-command.

Imports stay lazy so ``freight --help`` and the first frame of the app load little.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

from tui import __version__, commands

if TYPE_CHECKING:
    import argparse

EXIT_HELP = (
    "Commands exit 0 when done, 1 partly done, 2 usage error, 3 not found, 4 not signed in "
    "or not allowed, 5 service failure, 70 unexpected error (a bug), 130 interrupted."
)
PRECEDENCE = (
    "Settings are taken, highest first, from: command-line flags, environment variables "
    "(FREIGHT_PROFILE, FREIGHT_BASE_URL, FREIGHT_API_TOKEN or FREIGHT_CLIENT_ID with "
    "FREIGHT_CLIENT_SECRET, FREIGHT_CREDENTIAL_STORE), then the config file "
    "(FREIGHT_CONFIG names another one; see `freight config path`). FREIGHT_LOG_LEVEL sets "
    "the log file's level."
)


def build_parser() -> argparse.ArgumentParser:
    """Return the parser for ``freight`` and all its sub-commands."""

    add_json_switch = commands.parser.add_json_switch
    parser = commands.parser.CommandParser(
        prog="freight",
        description=(
            "Freight: describe freight, compare every carrier's rate, book, print the "
            "paperwork, and track shipments, from the keyboard."
        ),
        epilog=PRECEDENCE + " " + EXIT_HELP,
    )
    parser.add_argument("--version", action="version", version=f"freight {__version__}")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="open the app on a local sandbox service with demo data (no account needed)",
    )
    parser.add_argument("--profile", metavar="NAME", help="profile to use (default: the config's)")
    parser.add_argument("--base-url", metavar="URL", help="service base URL for this run")
    parser.add_argument(
        "--debug",
        action="store_true",
        help="log at DEBUG (the app: to the log file; commands: also to stderr); "
        "FREIGHT_LOG_LEVEL=DEBUG|INFO|WARNING|ERROR sets the log file's level",
    )
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

    serve = sub.add_parser(
        "serve",
        help="open the app in a web browser (needs the web extra)",
        description=(
            "Serve Freight to web browsers: each page opened runs the app on this machine, "
            "with this machine's credentials and printers; documents saved there also "
            "download to the browser. Open the address it prints: its token is the key, "
            "kept in a cookie after the first load; other pages, hosts and origins are "
            "refused. Binds to loopback (127.0.0.1) unless --allow-remote (which needs TLS); "
            "from another machine use an SSH tunnel: ssh -L 8000:localhost:8000 this-host, "
            "then open http://localhost:8000. Needs: pip install 'freight-tui[web]'."
        ),
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default 127.0.0.1, loopback)"
    )
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host that other machines reach; needs TLS (--certfile/--keyfile or "
        "an https:// --public-url), and the token is still required",
    )
    serve.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use when a proxy serves the page, e.g. "
        "https://freight.example.com (other host names are refused)",
    )
    serve.add_argument(
        "--folder",
        metavar="DIR",
        help="the one folder the browser's sessions read and write (documents, exports, "
        "order files, results; default: workspace in Freight's data folder)",
    )
    serve.add_argument("--certfile", metavar="PEM", help="serve over TLS with this certificate")
    serve.add_argument("--keyfile", metavar="PEM", help="the certificate's private key")
    serve.add_argument(
        "--max-sessions",
        type=int,
        default=4,
        metavar="N",
        help="at most N tabs run Freight at once (default 4); each is an app process",
    )
    commands.args.add_target_flags(serve)

    add_login(sub, "login", "save a profile's client ID and secret (same as auth login)")
    add_logout(sub, "logout", "forget a profile's saved credentials (same as auth logout)")

    auth = sub.add_parser(
        "auth",
        help="sign in, sign out, and see where credentials come from",
        description="Credential commands, as in gh: login, logout, status.",
    )
    auth_sub = auth.add_subparsers(dest="auth_command", metavar="ACTION", required=True)
    add_login(auth_sub, "login", "save a profile's client ID and secret")
    add_logout(auth_sub, "logout", "forget a profile's saved credentials")
    status = auth_sub.add_parser(
        "status", help="where the credentials come from (never the secret)"
    )
    _profile_flag(status)
    status.add_argument(
        "--demo",
        dest="sub_demo",
        action="store_true",
        default=None,
        help="the built-in demo's status (a local sandbox; no credentials)",
    )
    add_json_switch(status)

    config = sub.add_parser("config", help="configuration commands")
    config_sub = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    add_json_switch(config_sub.add_parser("path", help="print where config, data and logs live"))

    commands.args.add_commands(sub)
    return parser


def _profile_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile", dest="sub_profile", metavar="NAME", help="profile (default: the config's)"
    )


def add_login(sub: Any, name: str, help_text: str) -> None:
    """``login`` (top level, or under ``auth``)."""
    login = sub.add_parser(
        name,
        help=help_text,
        description=(
            "Ask for the client ID, then the secret (hidden), check them with one API call, "
            "and save them in the OS keyring. Reads one line each from standard input when "
            "it is not a terminal. " + PRECEDENCE
        ),
    )
    _profile_flag(login)
    login.add_argument(
        "--base-url", dest="sub_base_url", metavar="URL", help="the service's base URL"
    )
    login.add_argument(
        "--environment",
        choices=("sandbox", "production"),
        help="what the profile is, shown in the header (a new profile: production unless "
        "it is named sandbox; an existing one keeps its own unless given)",
    )
    login.add_argument(
        "--insecure-storage",
        action="store_true",
        help="save in a plain file (mode 0600) when no keyring is usable",
    )


def add_logout(sub: Any, name: str, help_text: str) -> None:
    """``logout`` (top level, or under ``auth``)."""
    logout = sub.add_parser(name, help=help_text, description=help_text.capitalize() + ".")
    _profile_flag(logout)


APP_FLAGS = ("--demo", "--debug")
APP_OPTIONS = ("--profile", "--base-url")


def app_arguments(argv: Sequence[str]) -> argparse.Namespace | None:
    """The app's flags (``--demo``, ``--debug``, ``--profile NAME``, ``--base-url URL``) as
    the full parser reads them, when `argv` holds nothing else; else None.

    The app's first frame waits for the arguments: building the parser of every command
    (forty-odd) took a twentieth of the time to it.
    """
    # What parse_args would give, read the same way (attributes, getattr, vars) without
    # importing argparse (and gettext): a millisecond before the first frame.
    args = cast(
        "argparse.Namespace",
        SimpleNamespace(command=None, demo=False, profile=None, base_url=None, debug=False),
    )
    rest = list(argv)
    while rest:
        arg = rest.pop(0)
        name, equals, value = arg.partition("=")
        if arg in APP_FLAGS:
            setattr(args, arg[2:], True)
        elif name in APP_OPTIONS and equals:
            setattr(args, name[2:].replace("-", "_"), value)
        elif arg in APP_OPTIONS and rest and not rest[0].startswith("-"):
            setattr(args, arg[2:].replace("-", "_"), rest.pop(0))
        else:
            return None
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``freight`` command; returns the exit status.

    A command never ends in a traceback: what no command expected is exit 70, said in one
    line, the details in the log file.
    """
    fast = app_arguments(sys.argv[1:] if argv is None else argv)
    if fast is not None:
        return _dispatch(None, fast)  # the app has its own net
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command in (None, "sandbox"):
        return _dispatch(parser, args)  # the app and the server have their own nets
    try:
        return _dispatch(parser, args)
    except Exception as error:
        return commands.exits.report_bug(error, sys.stderr)


def _dispatch(parser: argparse.ArgumentParser | None, args: argparse.Namespace) -> int:
    """Run what ``args`` asks for (`parser`: the full one, None when only the app's flags
    were given)."""
    # Sub-command flags win over the top-level ones of the same name.
    for name in ("profile", "base_url", "demo", "debug"):
        sub_value = getattr(args, f"sub_{name}", None)
        if sub_value is not None:
            setattr(args, name, sub_value)
    if getattr(args, "json", None) == "":
        return commands.fields.list_fields(args.json_fieldset(), sys.stdout)
    if args.command == "sandbox":
        from tui.sandbox.serve import main as sandbox_main

        return sandbox_main(args)
    if args.command == "serve":
        from tui.web.serve import main as serve_main

        return serve_main(args)
    if args.command == "completion":
        sys.stdout.write(commands.completion.script(args.shell, parser or build_parser()))
        return 0
    if args.command in (
        "shipments",
        "shipment",
        "rates",
        "track",
        "batch",
        "store",
        "report",
        "day",
        "pickup",
        "cancel",
    ):
        from tui.commands.run import main as command_main  # the scripting commands' loop

        return command_main(args)
    if args.command in ("login", "logout", "auth", "config"):
        from tui.credentials.commands import main as credentials_main

        return credentials_main(args)
    if not _on_a_terminal():
        sys.stderr.write(no_terminal_text(parser or build_parser()))
        return 2
    from tui.launch import run_app

    return run_app(args)


def _on_a_terminal() -> bool:
    """Both standard input and output are a terminal (the app draws on one and reads keys),
    or a web page stands for one: ``freight serve`` runs each page's app over pipes with
    Textual's web driver (textual-serve names it in ``TEXTUAL_DRIVER``)."""
    if "web_driver" in os.environ.get("TEXTUAL_DRIVER", ""):
        return True
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # closed or replaced by something without isatty
        return False


def no_terminal_text(parser: argparse.ArgumentParser) -> str:
    """What to run instead of the app when there is no terminal (cron, nohup, a pipe)."""
    help_lines = parser.format_help().splitlines()
    start = next((i for i, line in enumerate(help_lines) if line.strip() == "COMMAND"), None)
    commands: list[str] = []
    if start is not None:
        for line in help_lines[start + 1 :]:
            if not line.strip():
                break
            commands.append(line)
    lines = [
        "freight: the app needs a terminal, and standard input or output is not one "
        "(a pipe, a file, cron or nohup).",
        "Run it in a terminal, or use one of the commands:",
        *commands,
        "See `freight --help`, and `freight COMMAND --help` for each.",
    ]
    return "\n".join(lines) + "\n"
