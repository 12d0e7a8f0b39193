"""The command line's parser and its ``--json`` flag: what ``args`` and ``batch_args`` both
build on (one way down, so neither imports the other back)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tui.domain.safe_text import plain_lines

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from tui.vocabulary import FieldSet


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose ``--help`` ends with the command's JSON fields, which are read
    only when help is asked for (building the parser stays cheap: the app builds it too)."""

    json_fields: Callable[[], FieldSet[Any]] | None = None

    def format_help(self) -> str:
        if self.json_fields is not None:
            from tui.commands.fields import fields_help

            fields, self.json_fields = self.json_fields(), None
            self.epilog = fields_help(fields) + ("\n\n" + self.epilog if self.epilog else "")
        return super().format_help()

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # Usage errors quote what was typed: a control character or an undecodable byte of
        # argv is shown as an escape, never sent to the terminal (nor a UnicodeEncodeError).

        super()._print_message(plain_lines(message), file)


def add_json_flag(parser: argparse.ArgumentParser, fields: Callable[[], FieldSet[Any]]) -> None:
    """``--json [FIELD,FIELD]`` on ``parser``: with names, JSON of only those fields (gh-style);
    alone, the list of fields. ``fields`` returns the command's :class:`FieldSet` (imported
    late); ``--help`` names them. At run time see :func:`tui.commands.fields.output_of`."""
    parser.add_argument(
        "--json",
        nargs="?",
        const="",
        metavar="FIELDS",
        help="write JSON of only these comma-separated fields (e.g. shipmentId,proNumber,status); "
        "alone: list the fields",
    )
    parser.set_defaults(json_fieldset=fields)
    if isinstance(parser, CommandParser):
        parser.json_fields = fields


def add_json_switch(parser: argparse.ArgumentParser) -> None:
    """``--json [FIELD,FIELD]`` on a command that states a few facts (``auth status``,
    ``config path``, ``batch fields``): alone, JSON of every fact; with names, of those.
    (``args.json_out``: None without the flag, ``""`` alone.)"""
    parser.add_argument(
        "--json",
        dest="json_out",
        nargs="?",
        const="",
        metavar="FIELDS",
        help="write JSON (of only these comma-separated fields)",
    )


__all__ = ["CommandParser", "add_json_flag", "add_json_switch"]


def add_command(
    sub: Any,
    name: str,
    help_text: str,
    description: str,
    epilog: str,
    add_target_flags: Callable[[argparse.ArgumentParser], None],
) -> argparse.ArgumentParser:
    """A subcommand ``name`` whose description keeps its line breaks (its examples), with the
    exit codes as its epilog and the flags that say which profile it acts for."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name,
        help=help_text,
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_target_flags(parser)
    return parser
