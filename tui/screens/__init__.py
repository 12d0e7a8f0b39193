"""Screens of the Freight UI, one per file.

The screens the app moves to after its first frame are exported lazily (``tui.late``): the app
and its navigation import this package at their top and name a screen when they open it, so
its module (and what it brings) loads then, not before the first frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.late import exports

if TYPE_CHECKING:
    from tui.screens.batch import BatchScreen
    from tui.screens.book import BookScreen
    from tui.screens.day import DayScreen
    from tui.screens.help import ConfirmQuitScreen, HelpScreen
    from tui.screens.rates import RatesScreen
    from tui.screens.reports import ReportsScreen
    from tui.screens.result import ResultScreen
    from tui.screens.shipment_detail import ShipmentDetailScreen
    from tui.screens.shipments import ShipmentsScreen
    from tui.screens.signin import SignInScreen

_WHERE = {
    "BatchScreen": "tui.screens.batch",
    "BookScreen": "tui.screens.book",
    "ConfirmQuitScreen": "tui.screens.help",
    "DayScreen": "tui.screens.day",
    "HelpScreen": "tui.screens.help",
    "RatesScreen": "tui.screens.rates",
    "ReportsScreen": "tui.screens.reports",
    "ResultScreen": "tui.screens.result",
    "ShipmentDetailScreen": "tui.screens.shipment_detail",
    "ShipmentsScreen": "tui.screens.shipments",
    "SignInScreen": "tui.screens.signin",
}

__all__ = [
    "BatchScreen",
    "BookScreen",
    "ConfirmQuitScreen",
    "DayScreen",
    "HelpScreen",
    "RatesScreen",
    "ReportsScreen",
    "ResultScreen",
    "ShipmentDetailScreen",
    "ShipmentsScreen",
    "SignInScreen",
]

__getattr__, __dir__ = exports(__name__, _WHERE)
