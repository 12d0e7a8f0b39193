"""Argument parsers of the scripting commands (argparse only, so ``--help`` stays fast)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tui.commands.batch_args import add_batch_commands
from tui.commands.dates import SHORTCUTS
from tui.commands.day import add_day_command
from tui.commands.exits import HELP as EXIT_HELP
from tui.commands.parser import CommandParser as CommandParser  # (the cli builds it)
from tui.commands.parser import add_command, add_json_flag
from tui.domain.locations import LocationType
from tui.domain.shipments import MODES
from tui.domain.shipments import SHIPMENT_STATUSES as STATUSES

if TYPE_CHECKING:
    from tui.vocabulary import FieldSet

LOCATION_TYPES = tuple(LocationType)
"""The 13 location types, as the command line spells them (the domain's identifiers)."""

ITEM_HELP = (
    'one handling-unit line, "QTYxPACKAGE,WEIGHT,LxWxH[,CLASS]", e.g. '
    '"2xpallet,800lb,48x40x48,85": quantity, package label, pounds per unit, inches, '
    "optional NMFC class (else implied by density); repeat for more lines"
)


def _fields_of(command: str) -> Callable[[], FieldSet[Any]]:
    def load() -> FieldSet[Any]:
        from tui.commands.fields import fieldset_of

        return fieldset_of(command)

    return load


def add_target_flags(parser: argparse.ArgumentParser) -> None:
    """``--profile``, ``--base-url``, ``--demo`` and ``--debug`` after the command name too."""
    parser.add_argument(
        "--profile", dest="sub_profile", metavar="NAME", help="profile to use (default: config's)"
    )
    parser.add_argument(
        "--base-url", dest="sub_base_url", metavar="URL", help="service base URL for this run"
    )
    parser.add_argument(
        "--demo",
        dest="sub_demo",
        action="store_true",
        default=None,
        help="use the local demo sandbox (no account needed)",
    )
    parser.add_argument(
        "--debug",
        dest="sub_debug",
        action="store_true",
        default=None,
        help="log every request to stderr (secrets redacted)",
    )


def _command(sub: Any, name: str, help_text: str, description: str) -> argparse.ArgumentParser:
    return add_command(sub, name, help_text, description, EXIT_HELP, add_target_flags)


def _format(parser: argparse.ArgumentParser, choices: tuple[str, ...], command: str) -> None:
    """``--format`` (default: the table, or JSON with ``--json``) and ``--json``."""
    parser.add_argument(
        "--format",
        choices=choices,
        help=f"output format: {', '.join(choices)} (default table; json with --json)",
    )
    add_json_flag(parser, _fields_of(command))


def add_commands(sub: Any) -> None:
    """Add ``shipments``, ``shipment``, ``rates``, ``track`` and ``completion``."""
    shipments = _command(
        sub,
        "shipments",
        "list shipments (all pages) as a table, JSON, JSON Lines or CSV",
        "List the account's shipments, newest first, every page of the filter.\n"
        "  freight shipments --pickup today --output pickups.csv\n"
        "  freight shipments --status delivered --json shipmentId,proNumber,total",
    )
    shipments.add_argument("--status", choices=STATUSES, help="only shipments in this status")
    shipments.add_argument("--mode", choices=MODES, help="only this transport mode")
    shipments.add_argument(
        "--pickup", choices=SHORTCUTS, help="pickup date range (weeks run Monday to Sunday)"
    )
    shipments.add_argument(
        "--from",
        dest="date_from",
        metavar="DATE",
        help="pickup on or after DATE (YYYY-MM-DD, today, yesterday, tomorrow)",
    )
    shipments.add_argument(
        "--to", dest="date_to", metavar="DATE", help="pickup on or before DATE (as --from)"
    )
    shipments.add_argument(
        "--search",
        "-s",
        metavar="TEXT",
        help="free text: PRO, tracking number, BOL, reference, quote id, company, city, ZIP",
    )
    shipments.add_argument(
        "--limit", type=int, metavar="N", help="stop after N shipments (default: all)"
    )
    _format(shipments, ("table", "json", "jsonl", "csv"), "shipments")
    shipments.add_argument(
        "--output",
        metavar="FILE",
        help="write to FILE instead of stdout, replaced only when complete; the format "
        "follows its extension (.csv, .json, .jsonl; .xlsx an Excel workbook) unless --format "
        "is given",
    )
    shipments.add_argument(
        "--bom",
        action=argparse.BooleanOptionalAction,
        help="CSV with the UTF-8 byte-order mark Excel needs (default: in a file written "
        "with --output, not on stdout)",
    )

    shipment = _command(
        sub,
        "shipment",
        "show one shipment (and save its documents)",
        "Show a shipment by id: status, addresses, items, tracking, events, documents.\n"
        "  freight shipment shp_123 --documents ~/bol",
    )
    shipment.add_argument(
        "shipment_id", metavar="ID", nargs="?", help="shipment id (see freight shipments)"
    )
    _format(shipment, ("table", "json", "jsonl"), "shipment")
    shipment.add_argument(
        "--documents",
        metavar="DIR",
        help="also save the shipment's documents (BOL, labels) into DIR (created)",
    )

    rates = _command(
        sub,
        "rates",
        "get every carrier's rate for a lane and items",
        "Ask the service for rates, from flags or a JSON rate request.\n"
        '  freight rates --from 60607 --to 30303 --item "2xpallet,800lb,48x40x48"\n'
        "  freight rates --request quote.json --format json",
    )
    rates.add_argument("--from", dest="origin", metavar="ZIP", help="origin ZIP code")
    rates.add_argument("--to", dest="destination", metavar="ZIP", help="destination ZIP code")
    rates.add_argument(
        "--origin-type",
        choices=LOCATION_TYPES,
        help="origin location type (default business-dock)",
    )
    rates.add_argument(
        "--dest-type",
        choices=LOCATION_TYPES,
        help="destination location type (default business-dock)",
    )
    rates.add_argument("--item", action="append", metavar="ITEM", help=ITEM_HELP)
    rates.add_argument(
        "--request",
        metavar="FILE",
        help="JSON rate request body (originPostalCode, destPostalCode, items …); - for stdin",
    )
    _format(rates, ("table", "json", "jsonl"), "rates")

    track = _command(
        sub,
        "track",
        "find a shipment by PRO, BOL, tracking number or id; print its status and events",
        "Find the shipment whose PRO, BOL, tracking number or id is exactly the one given.\n"
        "  for pro in $(cat pros.txt); do freight track $pro --format json; done",
    )
    track.add_argument(
        "number", metavar="NUMBER", nargs="?", help="PRO, BOL, tracking number or shipment id"
    )
    _format(track, ("table", "json", "jsonl"), "track")

    add_batch_commands(sub, add_target_flags)

    add_day_command(sub, add_target_flags)

    from tui.commands.changes import add_change_commands

    add_change_commands(sub, add_target_flags)

    from tui.commands.store import add_store_command

    add_store_command(sub)

    from tui.commands.report import add_report_command

    add_report_command(sub)

    completion = sub.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh or fish)",
        description=(
            "Print a completion script for the shell. bash: "
            "`freight completion bash > ~/.local/share/bash-completion/completions/freight`; "
            "zsh: `freight completion zsh > ~/.zfunc/_freight` (with ~/.zfunc in fpath); "
            "fish: `freight completion fish > ~/.config/fish/completions/freight.fish`."
        ),
    )
    completion.add_argument("shell", choices=("bash", "zsh", "fish"), help="the shell")
