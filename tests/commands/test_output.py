"""Plain output: progress only on a terminal, money with its currency, no Textual loaded."""

from __future__ import annotations

import io
import subprocess
import sys
from decimal import Decimal

from tui.api.models import Shipment
from tui.commands.shipments import totals_line
from tui.commands.text import Progress, money


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_on_a_terminal_only() -> None:
    terminal, pipe = _Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        progress = Progress(stream)
        progress(1)
        progress(2)  # within 0.1 s: not redrawn
        progress.done()
    assert terminal.getvalue() == "\rLoaded 1 shipments…\r\x1b[K"
    assert pipe.getvalue() == ""


def test_money_keeps_its_currency_and_totals_never_mix_currencies() -> None:
    assert money(Decimal("1234.5"), "USD") == "1,234.50 USD"
    assert money(Decimal("-0.005"), "CAD") == "-0.01 CAD"
    assert money(None, "USD") == ""

    def shipment(total: str, currency: str | None) -> Shipment:
        return Shipment.model_validate(
            {"id": f"shp_{total}_{currency}", "cost": {"total": total, "currency": currency}}
        )

    line = totals_line([shipment("10.10", "USD"), shipment("5.05", "CAD"), shipment("0.90", "USD")])
    assert line == "3 shipments; total 5.05 CAD + 11.00 USD"


def test_the_commands_load_no_textual() -> None:
    modules = ", ".join(
        f"tui.commands.{name}"
        for name in ("run", "shipments", "detail", "rates", "track", "completion", "connect")
    )
    code = f"import sys, {modules}, tui.export\nprint('textual' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "False"


def test_pickup_shortcuts_match_the_screen() -> None:
    from datetime import date

    from tui.commands.dates import SHORTCUTS, shortcut_range
    from tui.listing.dates import shortcut_range as screen_range

    for day in (date(2026, 11, 22), date(2024, 2, 29), date(2026, 12, 31)):
        for name in SHORTCUTS:
            assert shortcut_range(name, day) == screen_range(name, day)
