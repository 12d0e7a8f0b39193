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
