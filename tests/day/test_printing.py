"""Printing the day through the fake lp: one job per kind, and what is not printed said."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.booking.conftest import booking_of, lane_of, ltl_rates, rate_request
from tests.fake_lp import install_fake_lp
from tui.api import FreightClient
from tui.booking import BookingEngine
from tui.config.settings import PrinterSettings
from tui.day import Day, build_day, pdf_merge
from tui.day.facts import service_facts
from tui.day.printing import print_day
from tui.ledger import BookingLedger


async def _day(client: FreightClient, engine: BookingEngine, ledger: BookingLedger) -> Day:
    """Two shipments booked for the request's pickup day."""
    quote, rates = await ltl_rates(client)
    for rate in rates[:2]:
        outcome = await engine.book(booking_of(quote, rate), lane=lane_of(rate_request(), rate))
        assert outcome.status == "booked"
    records = ledger.bookings()
    on = rate_request().pickup_date
    assert on is not None
    return build_day(on, records, await service_facts(client, on, records))


async def test_a_bol_the_merge_cannot_read_goes_as_one_job_of_its_files(
    client: FreightClient,
    engine: BookingEngine,
    ledger: BookingLedger,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lp = install_fake_lp(tmp_path / "bin", monkeypatch)
    day = await _day(client, engine, ledger)

    def cannot(files: object) -> bytes:
        raise pdf_merge.CannotMerge("a cross-reference stream")

    monkeypatch.setattr(pdf_merge, "merge_pdfs", cannot)
    done = await print_day(
        client, day, tmp_path / "documents", PrinterSettings(document_printer="office")
    )
    (call,) = lp.calls()  # one job: both BOLs, no labels (no label printer)
    files = call.argv[call.argv.index("--") + 1 :]
    assert len(files) == 2
    assert all(name.endswith(".pdf") for name in files)
    assert done.bols is None
    assert done.labels is not None
    assert done.labels.is_file()
    assert "labels saved, not printed (no ZPL label printer)" in done.said
    assert done.printed == [f"{Path(files[0]).name} (2 BOLs)"]
