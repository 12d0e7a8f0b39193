"""Argument parsers of ``freight batch`` (argparse only, so ``--help`` stays fast)."""

from __future__ import annotations

import argparse
from typing import Any

from tui.batch.report import BATCH_FIELDS
from tui.commands.exits import HELP as EXIT_HELP
from tui.commands.parser import add_command, add_json_flag, add_json_switch

BATCH_EXITS = (
    "exit status:\n"
    "  0 every order done: rated; for book, booked and its paperwork saved; for\n"
    "    paperwork, no booked order's paperwork missing; for settle, settled\n"
    "  1 partly done: an order invalid, failed, unknown, not rated or without a\n"
    "    rate, or a booked order's paperwork missing; settle: not confirmed, or\n"
    "    the PRO not among the shipments the search lists\n"
    "  2 usage error (flags, a file that cannot be read, a column the file lacks;\n"
    "    settle: the order not unknown, or no terminal to confirm on, no --yes)\n"
    "  4 not signed in or not allowed; 5 the service could not be reached, or a\n"
    "    429 asked to wait longer than [limits] max_retry_after; 130 interrupted"
)
FORMATS = ("table", "json", "jsonl", "csv")


def add_batch_commands(sub: Any, add_target_flags: Any) -> None:
    """``freight batch fields|columns|sample|rate|status|book|paperwork|settle``."""
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
    fields = actions.add_parser(
        "fields",
        help="list the fields a column can be mapped to",
        description="The fields of an order line, for --map and --set.",
    )
    add_json_switch(fields)
    columns = _action(
        actions,
        add_target_flags,
        "columns",
        "show which column of FILE fills each field (nothing is saved or sent)",
        "Read FILE and show the mapping a run would use: the one named (--mapping), else the "
        "one saved for these headers, else the one guessed from them, with --map and --set "
        "applied. Nothing is saved.\n"
        "  freight batch columns export.csv --map package='Lineitem name' --json",
    )
    _reading(columns)
    columns.add_argument("--json", action="store_true", help="write the mapping as JSON")
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
        help="then show each station's progress until no order is left to book (Ctrl-C "
        "stops): as it changes on PostgreSQL, and every SECONDS (default 2)",
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
    _booking(book)

    paperwork = _action(
        actions,
        add_target_flags,
        "paperwork",
        "fetch the BOL and labels booked orders of FILE still owe",
        "Fetch and save the paperwork (BOL, labels) of FILE's booked orders that is not all "
        "saved yet: a document host that was down, a run stopped after booking. Books "
        "nothing (batch book fetches it too).\n"
        "  freight batch paperwork orders.csv --documents ~/bols",
    )
    _reading(paperwork)
    _booking(paperwork)

    settle = _action(
        actions,
        add_target_flags,
        "settle",
        "say what became of an order whose booking's outcome is unknown",
        "Settle ORDER of FILE, whose booking was sent with no answer known (status\n"
        "unknown), as the Batch screen's keys do. The service is searched first.\n"
        "--booked PRO: the shipment with that PRO is its booking (one the search lists\n"
        "as possibly it: it shows the booking's reference, or was created on its lane\n"
        "after it was sent). --not-booked: none is; the next batch book books it again\n"
        "under a new reference (if it was made after all, a second shipment). Asks to\n"
        "confirm; --yes for scripts. --unfound --not-booked (no ORDER): every unknown\n"
        "order no search finds a shipment for, after one confirmation.\n"
        "  freight batch settle orders.csv A17 --booked 7301224\n"
        "  freight batch settle orders.csv A17 --not-booked --yes\n"
        "  freight batch settle orders.csv --unfound --not-booked",
    )
    settle.add_argument(
        "order",
        metavar="ORDER",
        nargs="?",
        help="the order number (the file's order column); none with --unfound",
    )
    settle.add_argument(
        "--unfound",
        action="store_true",
        help="with --not-booked: every unknown order no search finds, one confirmation",
    )
    _reading(settle)
    how = settle.add_mutually_exclusive_group(required=True)
    how.add_argument("--booked", metavar="PRO", help="the shipment with this PRO is its booking")
    how.add_argument(
        "--not-booked",
        dest="not_booked",
        action="store_true",
        help="no shipment is its booking: book it again (next batch book)",
    )
    settle.add_argument("--yes", action="store_true", help="settle without asking (scripts, cron)")
    _output(settle)

    cancel = _action(
        actions,
        add_target_flags,
        "cancel",
        "cancel the booked shipments of FILE's orders (all booked ones, or ORDER…)",
        "Cancel the shipment each booked ORDER of FILE was booked as (every booked order\n"
        "when none is named), once each, before its pickup. The orders stay booked: book\n"
        "one again only when you mean to. Asks to confirm on production; --yes for scripts.\n"
        "  freight batch cancel orders.csv A17 A18 --yes",
    )
    cancel.add_argument("orders", metavar="ORDER", nargs="*", help="order numbers (default: all)")
    _reading(cancel)
    cancel.add_argument("--yes", action="store_true", help="cancel without asking (scripts)")


def _booking(book: argparse.ArgumentParser) -> None:
    """The flags of a run that books or fetches paperwork."""
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
    parser = add_command(actions, name, help_text, description, BATCH_EXITS, add_target_flags)
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
        help="use the column mapping saved under NAME, or start a new one under NAME from the "
        "guess; by default the one saved for these headers is used, else the guess",
    )
    parser.add_argument(
        "--save-mapping",
        dest="save_mapping",
        action="store_true",
        help="keep this run's mapping (with its --map, --set and --weight-per) under its name "
        "(--mapping, else the file's), for the next file with these headers; without it "
        "they apply to this run only",
    )
    parser.add_argument(
        "--not-hazardous",
        dest="not_hazardous",
        nargs="+",
        action="extend",
        default=[],
        metavar="ORDER",
        help="these orders are not hazardous though a line's words look it (paint, lithium, "
        "UN1263…); without it such an order is set aside. Kept with the batch: the next run "
        "of the file does not ask again unless those lines changed",
    )
    parser.add_argument(
        "--encoding", metavar="NAME", help="the file's encoding (default: detected)"
    )
    parser.add_argument(
        "--sheet",
        metavar="NAME",
        help="the workbook's sheet to read (default: the first with an order file's header)",
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
        "status, carrier, total (on its first row), PRO, BOL… (the input's delimiter and "
        "encoding; RESULTS.xlsx: an Excel workbook)",
    )


__all__ = ["BATCH_EXITS", "EXIT_HELP", "add_batch_commands"]
