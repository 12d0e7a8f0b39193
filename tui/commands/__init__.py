"""Non-interactive commands (``freight shipments``, ``rates``, ``track`` …): no Textual here.

Each command's module is exported lazily (``tui.late``): ``tui.commands.run`` imports this
package and names the one command it runs (``commands.shipments.run(...)``), so
``freight --help`` and each command load only what they use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.late import exports

if TYPE_CHECKING:
    from tui.commands import args as args
    from tui.commands import batch as batch
    from tui.commands import changes as changes
    from tui.commands import completion as completion
    from tui.commands import day as day
    from tui.commands import detail as detail
    from tui.commands import exits as exits
    from tui.commands import fields as fields
    from tui.commands import parser as parser
    from tui.commands import rates as rates
    from tui.commands import report as report
    from tui.commands import shipments as shipments
    from tui.commands import store as store
    from tui.commands import track as track

_WHERE = {
    "args": "tui.commands.args",  # the full parser: not on the app's way to its first frame
    "batch": "tui.commands.batch",
    "changes": "tui.commands.changes",
    "completion": "tui.commands.completion",
    "day": "tui.commands.day",
    "detail": "tui.commands.detail",
    "exits": "tui.commands.exits",
    "fields": "tui.commands.fields",
    "parser": "tui.commands.parser",  # argparse and gettext: not for the app's first frame
    "rates": "tui.commands.rates",
    "report": "tui.commands.report",
    "shipments": "tui.commands.shipments",
    "store": "tui.commands.store",
    "track": "tui.commands.track",
}

__all__ = [
    "args",
    "batch",
    "changes",
    "completion",
    "day",
    "detail",
    "exits",
    "fields",
    "parser",
    "rates",
    "report",
    "shipments",
    "store",
    "track",
]

__getattr__, __dir__ = exports(__name__, _WHERE)
