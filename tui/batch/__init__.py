"""Batches of orders from an order export: read, map, check, rate, choose, book, write results.

No Textual here (an import contract says so): the CLI (``freight batch``) and the Batch screen
use the same engine. Money stays a Decimal in its own currency and is never summed across
currencies.
"""

from pathlib import Path as _Path

SAMPLE = "demo-orders.csv"
"""The demo's sample order file, beside the engine (``tui/batch/samples``)."""


def sample_path() -> _Path:
    """Where the demo's sample order file is installed."""
    return _Path(__file__).parent / "samples" / SAMPLE
