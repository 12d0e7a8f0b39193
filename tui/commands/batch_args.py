"""Argument parsers of ``freight batch`` (argparse only, so ``--help`` stays fast)."""

from __future__ import annotations

import argparse
from typing import Any

from tui.commands.exits import HELP as EXIT_HELP
from tui.commands.parser import add_json_flag

BATCH_EXITS = (
    "exit status:\n"
    "  0 every order done (rated; booked for book)\n"
    "  1 partly done: an order is invalid, failed, unknown, not rated or has no rate\n"
    "  2 usage error (flags, a file that cannot be read, a column the file lacks)\n"
    "  4 not signed in or not allowed; 5 the service could not be reached; 130 interrupted"
)
FORMATS = ("table", "json", "jsonl", "csv")


def add_batch_commands(sub: Any, add_target_flags: Any) -> None:
    """``freight batch fields|sample|rate|status|book``."""
    batch = sub.add_parser(
        "batch",
        help="rate, choose and book a whole file of orders (CSV, TSV, .xlsx)",
        description=(
            "Work through an order export: read it, map its columns, check every row, rate "
            "every order, choose by rule, book, and write a results file. The batch's state "
            "is kept as it goes: run the same command again to resume."
        ),
        epilog=BATCH_EXITS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = batch.add_subparsers(dest="batch_command", metavar="ACTION", required=True)
    actions.add_parser(
        "fields",
        help="list the fields a column can be mapped to",
        description="The fields of an order line, for --map and --set.",
    )
    sample = actions.add_parser(
        "sample",
        help="write the demo's sample order file",
        description="Print the demo's sample order file (or write it to --out) to try with "
        "freight --demo batch rate.",
    )
    sample.add_argument("--out", metavar="FILE", help="write it to FILE instead of stdout")

    rate = _action(
        actions,
        add_target_flags,
        "rate",
        "rate every order of FILE and choose one rate each by rule",
        "Rate the orders not rated yet (and those that failed), choose each one's rate by the "
        "rule, and print the batch.\n"
        "  freight --demo batch rate orders.csv\n"
        "  freight batch rate export.csv --map weight='Gross Wt' --set package=pallet \\\n"
        "      --rule cheapest-within-3 --exclude HGFL --out results.csv",
    )
    _reading(rate)
    _rules(rate)
    rate.add_argument(
        "--concurrency",
        type=int,
        metavar="N",
        help="requests in flight at once (default 8)",
    )
    rate.add_argument(
        "--requests-per-second",
        dest="rps",
        type=float,
        metavar="R",
        help="the pace of requests, all of the batch together (default 20; a 429 slows it)",
    )
    rate.add_argument(
        "--rerate",
        action="store_true",
        help="rate again the orders already rated (not the booked ones)",
    )
    _output(rate)

    status = _action(
        actions,
        add_target_flags,
        "status",
        "show where each order of FILE stands (no request is sent)",
        "Read FILE again and show each order's state as saved: rated, booked, invalid…\n"
        "  freight batch status orders.csv --format jsonl",
    )
    _reading(status)
    _output(status)
    status.add_argument(
        "--watch",
        nargs="?",
        const=2.0,
        type=float,
        metavar="SECONDS",
        help="then show each station's progress every SECONDS (default 2) until no order is "
        "left to book (Ctrl-C stops)",
    )

    book = _action(
        actions,
        add_target_flags,
        "book",
        "book the rated orders of FILE not booked yet",
        "Book every rated order of FILE not booked yet (the rate each one was given), each "
        "under its own reference, and save its BOL and labels. A batch cut short goes on: a "
        "booking sent with no answer is searched for, never sent again. A production profile "
        "asks to type the count of orders and the total per currency first.\n"
        "  freight --demo batch book orders.csv --documents ~/bols --print",
    )
    _reading(book)
    book.add_argument(
        "--yes",
        action="store_true",
        help="book without asking (a production profile needs it when standard input is not "
        "a terminal)",
    )
    book.add_argument(
        "--documents",
        metavar="DIR",
        help="save every BOL and label into DIR/batch-<file name>, named by order "
        "(default: the data dir's documents folder)",
    )
    book.add_argument(
        "--print",
        dest="print_documents",
        action="store_true",
        help="print the batch's paperwork: its PDFs as one lp job, its ZPL labels as another",
    )
    book.add_argument(
        "--concurrency", type=int, metavar="N", help="bookings in flight at once (default 4)"
    )
    book.add_argument(
        "--requests-per-second",
        dest="rps",
        type=float,
        metavar="R",
        help="the pace of requests (default 20; a 429 slows it)",
    )
    _output(book)


def _action(
    actions: Any, add_target_flags: Any, name: str, help_text: str, description: str
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = actions.add_parser(
        name,
        help=help_text,
        description=description,
        epilog=BATCH_EXITS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_target_flags(parser)
    parser.add_argument("file", metavar="FILE", help="the order file (.csv, .tsv, .txt, .xlsx)")
    return parser


def _reading(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--map",
        action="append",
        default=[],
        metavar="FIELD=COLUMN",
        help="the column a field is in (FIELD= unmaps it); see freight batch fields",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="a value every row takes, e.g. --set package=pallet --set weight_unit=kg",
    )
    parser.add_argument(
        "--weight-per",
        choices=("unit", "line"),
        help="weights are per handling unit or the line's total (default: as the header "
        "says, else line)",
    )
    parser.add_argument(
        "--mapping",
        metavar="NAME",
        help="use (and update) the column mapping saved under NAME; by default the one saved "
        "for these headers is used, and the mapping is saved under the file's name",
    )
    parser.add_argument(
        "--encoding", metavar="NAME", help="the file's encoding (default: detected)"
    )
    parser.add_argument(
        "--delimiter",
        choices=(",", ";", "tab", "|"),
        help="the file's delimiter (default: sniffed)",
    )


def _rules(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rule",
        metavar="RULE",
        help="cheapest (default), fastest, or cheapest-within-N (N transit days)",
    )
    parser.add_argument(
        "--prefer",
        action="append",
        default=[],
        metavar="CARRIER",
        help="a carrier (SCAC or name) chosen first when it has a rate that fits; repeat",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="CARRIER",
        help="a carrier (SCAC or name) never chosen; repeat",
    )
    parser.add_argument(
        "--max-total",
        metavar="AMOUNT",
        help="no rate above this total per order (e.g. 1500, or 1500 USD)",
    )


def _batch_fields() -> Any:
    from tui.batch.report import BATCH_FIELDS

    return BATCH_FIELDS


def _output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=FORMATS,
        help="output: table (default), json, jsonl or csv, one record per order (json with --json)",
    )
    add_json_flag(parser, _batch_fields)
    parser.add_argument(
        "--out",
        metavar="RESULTS",
        help="also write the results file: the input's rows and columns plus each order's "
        "status, carrier, total, PRO, BOL… (the input's delimiter and encoding)",
    )


__all__ = ["BATCH_EXITS", "EXIT_HELP", "add_batch_commands"]
