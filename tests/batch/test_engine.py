"""The batch engine on the real sandbox (and the independent server): rating every order,
429s, failures kept and retried, cancel, reloading a fixed file, the saved state, the
results file and the JSON records."""

from __future__ import annotations

import asyncio
import csv
import dataclasses
import io
import json
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.batch.conftest import MONDAY, WMS_EXPORT, demo_context, write
from tests.independent_server import TOKEN as INDIE_TOKEN
from tests.independent_server import IndependentServer
from tui.api.client import FreightClient
from tui.api.options import ClientOptions, RetryPolicy
from tui.batch.engine import Batch, source_id
from tui.batch.fields import guess_mapping
from tui.batch.model import OrderState
from tui.batch.orders import context_for
from tui.batch.pace import Pace
from tui.batch.rating import Progress
from tui.batch.report import RECORD_KEYS
from tui.batch.results import RESULT_NAMES, results_text, write_results
from tui.batch.rules import Rules
from tui.batch.source import read_file
from tui.batch.store import SharedBatchStore
from tui.demo_profile import demo_profile
from tui.sandbox import DEMO_TOKEN, SandboxConfig, create_app

NOON_MONDAY = datetime(2026, 11, 23, 17, 0, tzinfo=UTC)
ONE_TRY = ClientOptions(retry=RetryPolicy(rate_attempts=1))


class Counting(httpx.AsyncBaseTransport):
    """Passes requests to the sandbox app, counting them; ``fail`` answers some itself."""

    def __init__(
        self, inner: httpx.AsyncBaseTransport, fail: Callable[[dict[str, Any]], bool] | None = None
    ) -> None:
        self.inner = inner
        self.fail = fail
        self.rates = 0
        self.bodies: list[dict[str, Any]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(await request.aread() or b"{}")
        if request.url.path == "/rates":
            self.rates += 1
            self.bodies.append(body)
            if self.fail is not None and self.fail(body):
                return httpx.Response(503, json={"name": "UNAVAILABLE", "message": "carrier down"})
        return await self.inner.handle_async_request(request)


@pytest.fixture
def sandbox(sandbox_config: SandboxConfig) -> Any:
    app = create_app(dataclasses.replace(sandbox_config, now=lambda: NOON_MONDAY, shipments=5))
    yield app
    app.close()


def client_for(transport: httpx.AsyncBaseTransport, token: str = DEMO_TOKEN) -> FreightClient:
    return FreightClient("http://sandbox.test", token, transport=transport, options=ONE_TRY)


def open_batch(tmp_path: Path, path: Path, rules: Rules | None = None) -> Batch:
    sheet = read_file(path)
    store = SharedBatchStore.in_dir(tmp_path / "data")
    context = context_for(demo_profile(), MONDAY)
    return Batch.open(
        store, "demo", source_id(path), sheet, guess_mapping(sheet.headers), context, rules
    )


@pytest.fixture
def wms(tmp_path: Path) -> Path:
    copy = tmp_path / "wms-export.csv"
    copy.write_bytes(WMS_EXPORT.read_bytes())
    return copy


async def test_the_warehouse_export_rates_every_good_order_on_the_sandbox(
    tmp_path: Path, wms: Path, sandbox: Any
) -> None:
    batch = open_batch(tmp_path, wms)
    seen: list[Progress] = []
    transport = Counting(httpx.ASGITransport(app=sandbox))
    async with client_for(transport) as client:
        await batch.rate(client, pace=Pace(None), progress=seen.append)
    assert batch.counts() == {"rated": 113, "invalid": 7}
    assert transport.rates == 113
    assert seen[-1].done == seen[-1].total == 113
    assert seen[-1].failed == 0
    totals = batch.totals()
    assert list(totals) == ["USD"]
    assert totals["USD"] > 0
    rated = batch.state("SO-104201")
    choice = rated.choice
    assert choice is not None
    assert choice.total == min(r.total for r in rated.rates if r.ok)
    records = batch.records()
    assert all(tuple(r) == RECORD_KEYS for r in records)
    bad = next(r for r in records if r["order"] == "SO-104318")
    assert bad["status"] == "invalid"
    assert bad["errors"] == [
        {"row": 195, "column": "Class", "value": "73",
         "reason": "is not a freight class (50, 55 … 92.5, 100 … 500)"}
    ]  # fmt: skip
    good = next(r for r in records if r["order"] == "SO-104201")
    assert good["status"] == "rated"
    assert good["total"] == f"{choice.total:.2f}"
    assert good["pickupDate"] == "2026-11-30"
    assert good["errors"] == []


def fix_the_file(wms: Path) -> None:
    """Row 51 fixed, SO-104200's ship date changed, SO-104205 broken (no destination ZIP)."""
    text = wms.read_bytes().decode("utf-8-sig")
    text = text.replace(",-40,", ",400,")  # row 51 fixed
    text = text.replace(
        "SO-104200,11/25/2026,60607,Keystone Millwork",
        "SO-104200,11/30/2026,60607,Keystone Millwork",
    )
    text = text.replace(
        "SO-104205,11/30/2026,60607,Northwind Traders,3540",
        "SO-104205,11/30/2026,,Northwind Traders,3540",
    )
    text = text.replace(
        "SO-104205,11/30/2026,,Northwind Traders,3540 Industrial Pkwy,Houston,TX,77070",
        "SO-104205,11/30/2026,,Northwind Traders,3540 Industrial Pkwy,Houston,TX,",
    )
    wms.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))


async def test_reloading_the_fixed_file_keeps_what_was_rated_or_booked(
    tmp_path: Path, wms: Path, sandbox: Any
) -> None:
    batch = open_batch(tmp_path, wms)
    transport = Counting(httpx.ASGITransport(app=sandbox))
    async with client_for(transport) as client:
        await batch.rate(client, pace=Pace(None))
    quote_of = {key: state.quote_id for key, state in batch.states.items()}
    booked = batch.state("SO-104205").updated(
        status="booked", reference="FRT0000000001", pro_number="1234567890"
    )
    batch.save(booked)
    batch.store.close()
    fix_the_file(wms)

    again = open_batch(tmp_path, wms)
    assert again.state("SO-104229").status == "pending"  # fixed: rated next
    assert again.state("SO-104200").status == "pending"  # its ship date changed
    kept = again.state("SO-104205")  # booked, then broken in the file: the booking stands
    assert kept.status == "booked"
    assert kept.pro_number == "1234567890"
    assert any("booked" in note for note in kept.notes)
    assert again.state("SO-104201").quote_id == quote_of["SO-104201"]
    transport.rates = 0
    async with client_for(transport) as client:
        await again.rate(client, pace=Pace(None))
    assert transport.rates == 2
    assert again.counts() == {"rated": 113, "booked": 1, "invalid": 6}


async def test_429s_pause_the_whole_batch_and_every_order_is_rated(
    tmp_path: Path, sandbox_config: SandboxConfig
) -> None:
    lines = ["Order,Zip,Weight,Length,Width,Height,Unit Type"]
    lines += [f"B{n},30303,{500 + n},48,40,48,Pallet" for n in range(12)]
    path = write(tmp_path / "o.csv", "\n".join(lines) + "\n")
    config = dataclasses.replace(
        sandbox_config, now=lambda: NOON_MONDAY, rate_limit=8.0, rate_burst=2, shipments=5
    )
    app = create_app(config)
    try:
        batch = open_batch(tmp_path, path)
        pace = Pace(100.0)
        async with client_for(httpx.ASGITransport(app=app)) as client:
            await batch.rate(client, pace=pace, concurrency=4)
    finally:
        app.close()
    assert batch.counts() == {"rated": 12}
    assert pace.limited_count > 0
    assert pace.waited >= 1.0
    assert pace.rate is not None
    assert pace.rate < 100.0


async def test_a_failed_order_keeps_its_reason_and_is_rated_on_the_next_run(
    tmp_path: Path, sandbox: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tui.batch.rating

    monkeypatch.setattr(tui.batch.rating, "SERVER_BACKOFF_S", 0.0)
    text = (
        "Order,Zip,Weight,Length,Width,Height,Unit Type\n"
        "A1,30303,800,48,40,48,Pallet\nA2,75207,800,48,40,48,Pallet\n"
    )
    path = write(tmp_path / "o.csv", text)
    down = True
    transport = Counting(
        httpx.ASGITransport(app=sandbox),
        fail=lambda body: down and body["destPostalCode"] == "75207",
    )
    batch = open_batch(tmp_path, path)
    async with client_for(transport) as client:
        await batch.rate(client, pace=Pace(None))
        failed = batch.state("A2")
        assert failed.status == "failed"
        assert "carrier down" in failed.error_text
        assert batch.state("A1").status == "rated"
        down = False
        transport.rates = 0
        await batch.rate(client, pace=Pace(None))
    assert transport.rates == 1
    assert batch.counts() == {"rated": 2}


@pytest.mark.slow
async def test_a_rate_the_service_answers_5xx_is_asked_again(
    tmp_path: Path, sandbox: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rate request books nothing: a 503 (a carrier's blip) is asked again, not failed."""
    import tui.batch.rating

    monkeypatch.setattr(tui.batch.rating, "SERVER_BACKOFF_S", 0.0)
    text = (
        "Order,Zip,Weight,Length,Width,Height,Unit Type\n"
        "A1,30303,800,48,40,48,Pallet\nA2,75207,800,48,40,48,Pallet\n"
    )
    answered: set[str] = set()

    def once(body: dict[str, Any]) -> bool:  # each order's first request answered 503
        first = body["destPostalCode"] not in answered
        answered.add(body["destPostalCode"])
        return first

    transport = Counting(httpx.ASGITransport(app=sandbox), fail=once)
    batch = open_batch(tmp_path, write(tmp_path / "o.csv", text))
    async with client_for(transport) as client:
        await batch.rate(client, pace=Pace(None))
    assert batch.counts() == {"rated": 2}
    assert transport.rates == 4


async def test_a_refusal_of_the_orders_data_points_at_its_row(tmp_path: Path, sandbox: Any) -> None:
    text = "Order,Zip,Weight,Length,Width,Height,Unit Type\nA1,99999,800,48,40,48,Pallet\n"
    batch = open_batch(tmp_path, write(tmp_path / "o.csv", text))
    async with client_for(httpx.ASGITransport(app=sandbox)) as client:
        await batch.rate(client, pace=Pace(None))
    state = batch.state("A1")
    assert state.status == "invalid"
    assert state.errors[0].row == 2
    assert state.errors[0].column == "Zip"


async def test_cancel_keeps_the_orders_already_rated(tmp_path: Path, sandbox: Any) -> None:
    lines = ["Order,Zip,Weight,Length,Width,Height,Unit Type"]
    lines += [f"C{n},30303,{500 + n},48,40,48,Pallet" for n in range(30)]
    path = write(tmp_path / "o.csv", "\n".join(lines) + "\n")
    batch = open_batch(tmp_path, path)
    five = asyncio.Event()

    def progress(p: Progress) -> None:
        if p.done >= 5:
            five.set()

    async with client_for(httpx.ASGITransport(app=sandbox)) as client:
        run = asyncio.create_task(
            batch.rate(client, pace=Pace(20.0), concurrency=2, progress=progress)
        )
        await five.wait()
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run
    done = batch.counts()["rated"]
    assert 5 <= done < 30
    batch.store.close()
    again = open_batch(tmp_path, path)
    assert again.counts() == {"rated": done, "pending": 30 - done}


async def test_other_currencies_are_kept_apart(tmp_path: Path) -> None:
    server = IndependentServer()
    text = "Order,Zip,Weight,Length,Width,Height,Unit Type\nA1,30303,800,48,40,48,Pallet\n"
    batch = open_batch(tmp_path, write(tmp_path / "o.csv", text))
    async with client_for(httpx.ASGITransport(app=server.app()), INDIE_TOKEN) as client:
        await batch.rate(client, pace=Pace(None))
    state = batch.state("A1")
    assert {r.currency for r in state.rates if r.ok} == {"CAD", "USD"}
    assert state.choice is not None
    assert state.choice.currency == "USD"
    assert batch.totals() == {"USD": state.choice.total}
    batch.pick("A1", next(r.id for r in state.rates if r.currency == "CAD"))
    assert batch.totals() == {"CAD": state.rates[0].total}
    batch.apply_rules(Rules(kind="fastest"))
    assert batch.state("A1").chosen_by == "hand"  # a hand's choice stays


async def test_the_results_file_is_written_as_the_input_was(tmp_path: Path, sandbox: Any) -> None:
    text = (
        "Auftrag;PLZ;Gewicht (kg);Länge (cm);Breite (cm);Höhe (cm);Verpackung;Klasse\n"
        "A-1;30303;362,5;120;100;120;Palette;\n"
        "A-2;30303;100;120;100;120;Palette;73\n"
    )
    path = write(tmp_path / "export.csv", text, encoding="cp1252", newline="\r\n")
    batch = open_batch(tmp_path, path)
    async with client_for(httpx.ASGITransport(app=sandbox)) as client:
        await batch.rate(client, pace=Pace(None))
    out = tmp_path / "results.csv"
    write_results(out, batch.sheet, batch.orders, batch.states)
    raw = out.read_bytes()
    assert b"\r\n" in raw
    assert not raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("cp1252"), newline=""), delimiter=";"))
    assert rows[0] == [*batch.sheet.headers, *RESULT_NAMES]
    assert rows[0][3] == "Länge (cm)"
    first = dict(zip(rows[0], rows[1], strict=True))
    choice = batch.state("A-1").choice
    assert choice is not None, batch.state("A-1")
    assert first["Status"] == "rated"
    assert first["Carrier"] == choice.carrier
    assert first["Total"] == f"{choice.total:.2f}".replace(".", ",")
    assert first["Gewicht (kg)"] == "362,5"
    assert first["Pickup Date"] == "2026-11-24"
    second = dict(zip(rows[0], rows[2], strict=True))
    assert second["Status"] == "invalid"
    assert second["Error"] == "row 3, Klasse: 73 is not a freight class (50, 55 … 92.5, 100 … 500)"


def test_the_wms_results_keep_the_bom_and_crlf(tmp_path: Path, wms: Path) -> None:
    batch = open_batch(tmp_path, wms)
    out = tmp_path / "r.csv"
    write_results(out, batch.sheet, batch.orders, batch.states)
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert raw.count(b"\r\n") == 198
    text = results_text(batch.sheet, batch.orders, batch.states)
    row = next(csv.reader(io.StringIO(text.splitlines()[23])))
    assert row[-13] == "invalid"
    assert row[-1].startswith("row 24, Zip:")
    sibling = next(csv.reader(io.StringIO(text.splitlines()[24])))
    assert (
        sibling[-1]
        == "order set aside: row 24, Zip: is blank on the order's first row (row 25 has 50650)"
    )


def test_the_store_keeps_states_across_processes_and_shares_a_batch_by_claims(
    tmp_path: Path,
) -> None:
    store = SharedBatchStore.in_dir(tmp_path)
    info = store.open("demo", "/orders/a.csv")
    assert store.open("demo", "/orders/a.csv").id == info.id
    store.save(info.id, [OrderState("A1", status="booked", reference="FRT1")])
    store.save(info.id, [OrderState(k, status="rated") for k in ("A2", "A3")])
    other = store.open("demo", "/orders/b.csv")
    assert [b.id for b in store.booked_elsewhere("demo", "A1", other.id)] == [info.id]
    assert store.booked_elsewhere("acme", "A1", other.id) == []
    # Two stations on one batch: each order is held by one; a booked one by none.
    second = SharedBatchStore(store.store, station="pack-2", holder=f"elsewhere:{os.getpid()}")
    assert store.claim(info.id, ["A1", "A2"]) == ["A2"]
    assert second.claim(info.id, ["A1", "A2", "A3"]) == ["A3"]
    assert store.stations(info.id)[second.station] == {"rated": 1}
    store.release(info.id)
    assert second.claim(info.id, ["A2"]) == ["A2"]
    again = SharedBatchStore.in_dir(tmp_path)
    assert again.orders(info.id)["A1"].reference == "FRT1"
    assert again.batches("demo")[0].counts or again.batches("demo")[1].counts


def test_progress_tells_the_time_left() -> None:
    assert Progress(10, 40, 0, 5.0).text == "Rated 10 of 40 · 0:15 left"
    assert Progress(40, 40, 2, 20.0).text == "Rated 40 of 40 · 2 failed"
    assert Progress(0, 40, 0, 0.0).remaining is None
    assert demo_context().today == MONDAY
