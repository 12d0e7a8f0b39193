"""What a batch still owes, on the live sandbox: paperwork that a document host that is down
(or a kill -9 between booking and saving) left unsaved is shown, exits 1 and is fetched by the
next run; ``batch settle`` for an order whose booking was lost on the way; the pace keeps 20
requests in any second at the server, documents included."""

from __future__ import annotations

import json
import random
import signal
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.commands.conftest import Runner
from tests.commands.test_batch import _command_env, _stored, configured, orders_file
from tests.sandbox_fixtures import most_allowed, most_in_a_second
from tui.sandbox import DEMO_TOKEN
from tui.sandbox.ratelimit import RateLimiter
from tui.sandbox.threaded import RunningSandbox

pytestmark = pytest.mark.usefixtures(configured.__name__)


def _dead_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def _file(tmp_path: Path, count: int, prefix: str = "K", name: str = "orders.csv") -> Path:
    lines = ["Order,Zip,Weight,Length,Width,Height,Unit Type"]
    lines += [f"{prefix}{n:02d},30303,{400 + n},48,40,48,Pallet" for n in range(count)]
    return orders_file(tmp_path, "\n".join(lines) + "\n", name)


def test_a_document_host_that_is_down_leaves_paperwork_owed_until_fetched(
    freight: Runner, live_sandbox: RunningSandbox, tmp_path: Path
) -> None:
    path = _file(tmp_path, 2)
    assert freight("batch", "rate", str(path)).status == 0
    port = _dead_port()
    live_sandbox.app.document_url = f"http://localhost:{port}"
    docs = tmp_path / "paperwork"
    results = tmp_path / "results.csv"
    down = freight(
        "batch", "book", str(path), "--documents", str(docs), "--out", str(results),
        "--format", "json",
    )  # fmt: skip
    assert down.status == 1, down.err
    records = json.loads(down.out)
    assert [r["status"] for r in records] == ["booked", "booked"]
    for record in records:
        reasons = [e["reason"] for e in record["errors"]]
        assert reasons == [f"paperwork missing: the document host localhost:{port} could not be "
                           "reached"]  # fmt: skip
    assert "2 booked orders still owe paperwork" in down.err
    api_port = live_sandbox.base_url.rsplit(":", 1)[1]
    assert api_port not in json.dumps(records)  # the host that failed, not the API's
    table = freight("batch", "status", str(path))
    assert "booked, paperwork missing: the document host localhost" in table.out
    assert "2 booked (2 with paperwork missing)" in table.out
    written = results.read_text(encoding="utf-8").splitlines()
    assert all(",booked," in line and "paperwork missing" in line for line in written[1:])

    live_sandbox.app.document_url = None  # the host is back
    fetched = freight("batch", "paperwork", str(path), "--documents", str(docs))
    assert fetched.status == 0, fetched.err
    saved = sorted(p.name for p in (docs / "batch-orders").iterdir())
    assert saved == [f"K0{n}-{kind}" for n in range(2) for kind in
                     ("bol.pdf", "label.pdf", "label.zpl")]  # fmt: skip
    again = freight("batch", "book", str(path), "--documents", str(docs))
    assert again.status == 0
    assert "nothing to book" in again.err
    assert sorted(p.name for p in (docs / "batch-orders").iterdir()) == saved  # none twice


@pytest.mark.slow
def test_kill_9_between_booking_and_paperwork_then_resume_owes_nothing(
    live_sandbox: RunningSandbox, isolated_home: Path, tmp_path: Path
) -> None:
    path = _file(tmp_path, 12)
    env = _command_env(live_sandbox, isolated_home)
    base = [sys.executable, "-m", "tui", "batch"]
    docs = tmp_path / "paperwork"
    rated = subprocess.run([*base, "rate", str(path)], env=env, capture_output=True, timeout=300)
    assert rated.returncode == 0, rated.stderr
    moment = random.Random(26).randint(1, 4)  # booked orders before the kill
    live_sandbox.app.hold_documents = True
    book = [*base, "book", str(path), "--documents", str(docs), "--concurrency", "4"]
    process = subprocess.Popen(
        book, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    data_home = isolated_home / "data"
    deadline = time.monotonic() + 120
    owing: dict[str, str] = {}
    while time.monotonic() < deadline and len(owing) < moment:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        time.sleep(0.05)
        owing = _stored(data_home, "booked", "paperwork_missing")
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert len(owing) >= moment
    assert all(owing.values())  # booked, and recorded as owing its paperwork
    live_sandbox.app.hold_documents = False
    finished = subprocess.run(
        [*base, "book", str(path), "--documents", str(docs), "--format", "json"],
        env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert finished.returncode == 0, finished.stderr + finished.stdout
    records = json.loads(finished.stdout)
    assert [r["status"] for r in records] == ["booked"] * 12
    assert _stored(data_home, "booked", "paperwork_missing") == {f"K{n:02d}": "" for n in range(12)}
    saved = {p.name for p in (docs / "batch-orders").iterdir()}
    for n in range(12):  # 0 booked orders without their BOL and labels
        assert {f"K{n:02d}-bol.pdf", f"K{n:02d}-label.pdf", f"K{n:02d}-label.zpl"} <= saved


def _lose_one_booking(
    live_sandbox: RunningSandbox, env: dict[str, str], path: Path, data_home: Path
) -> None:
    """Run ``batch book`` until its first booking is sent and lost on the way, then kill -9."""
    before = live_sandbox.app.bookings_lost
    live_sandbox.app.lose_bookings = True
    book = [sys.executable, "-m", "tui", "batch", "book", str(path), "--concurrency", "1"]
    process = subprocess.Popen(
        book, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and live_sandbox.app.bookings_lost == before:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    live_sandbox.app.lose_bookings = False
    assert live_sandbox.app.bookings_lost == before + 1
    assert len(_stored(data_home, "booking", "reference")) == 1


def test_settle_an_unknown_order_from_the_command_line(
    freight: Runner,
    live_sandbox: RunningSandbox,
    isolated_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = _file(tmp_path, 3)
    data_home = isolated_home / "data"
    env = _command_env(live_sandbox, isolated_home)
    assert freight("batch", "rate", str(path)).status == 0
    _lose_one_booking(live_sandbox, env, path, data_home)
    status = json.loads(freight("batch", "status", str(path), "--format", "json").out)
    assert [r["status"] for r in status] == ["unknown", "rated", "rated"]
    lost = status[0]["bookingReference"]

    scripted = freight("batch", "settle", str(path), "K00", "--not-booked")
    assert scripted.status == 2
    assert "no terminal to confirm on: add --yes" in scripted.err
    wrong = freight("batch", "settle", str(path), "K01", "--not-booked", "--yes")
    assert wrong.status == 2
    assert "K01 is rated, not unknown" in wrong.err
    unproven = freight("batch", "settle", str(path), "K00", "--booked", "PRO-NOPE", "--yes")
    assert unproven.status == 1
    assert "not settled" in unproven.err

    # a shipment on the order's lane, created after its booking was sent: a candidate
    other = _file(tmp_path, 1, prefix="X", name="other.csv")
    assert freight("batch", "rate", str(other)).status == 0
    made = json.loads(freight("batch", "book", str(other), "--format", "json").out)
    pro = made[0]["proNumber"]
    import tui.commands.batch_settle

    monkeypatch.setattr(tui.commands.batch_settle, "stdin_is_terminal", lambda: True)
    declined = freight("batch", "settle", str(path), "K00", "--booked", pro, stdin="no\n")
    assert declined.status == 1
    assert "Type yes to confirm" in declined.err
    said = freight("batch", "settle", str(path), "K00", "--booked", pro, stdin="yes\n")
    assert said.status == 0, said.err
    status = json.loads(freight("batch", "status", str(path), "--format", "json").out)
    assert status[0]["status"] == "booked"
    assert status[0]["proNumber"] == pro

    _lose_one_booking(live_sandbox, env, path, data_home)  # K01's booking is lost now
    again = freight("batch", "settle", str(path), "K01", "--not-booked", "--yes")
    assert again.status == 0, again.err
    assert "the next batch book books it" in again.err
    booked = freight("batch", "book", str(path), "--format", "json", "--documents",
                     str(tmp_path / "docs"))  # fmt: skip
    assert booked.status == 0, booked.err
    records = json.loads(booked.out)
    assert [r["status"] for r in records] == ["booked"] * 3
    assert records[0]["proNumber"] == pro  # settled as that shipment: not booked again
    assert records[1]["bookingReference"] != lost

    import asyncio

    from tui.api.client import FreightClient
    from tui.api.models import ShipmentQuery

    async def shipments_of(reference: str) -> int:
        async with FreightClient(live_sandbox.base_url, DEMO_TOKEN) as client:
            page = await client.search_shipments(ShipmentQuery(text=reference))
            return len(page.shipments)

    assert asyncio.run(shipments_of(lost)) == 0  # the lost booking made nothing
    assert [asyncio.run(shipments_of(r["bookingReference"])) for r in records[1:]] == [1, 1]


@pytest.mark.slow
def test_a_batch_at_concurrency_16_keeps_to_its_accounts_limit(
    limited_sandbox: RunningSandbox, isolated_home: Path, tmp_path: Path
) -> None:
    path = _file(tmp_path, 24)
    env = _command_env(limited_sandbox, isolated_home)
    base = [sys.executable, "-m", "tui", "batch"]
    for action in (["rate"], ["book", "--documents", str(tmp_path / "docs")]):
        run = subprocess.run(
            [*base, *action, str(path), "--concurrency", "16"],
            env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
    assert limited_sandbox.app.limited_answers == 0  # no 429: what a user would see
    arrivals = list(limited_sandbox.app.request_times)
    assert len(arrivals) >= 24 + 24 + 72  # rates, bookings, three documents each
    # on the service's clock, where a busy machine may bunch a few late requests together
    assert most_in_a_second(arrivals) <= most_allowed(20)


def test_a_retry_after_beyond_the_cap_stops_the_run_with_the_reason(
    freight: Runner, live_sandbox: RunningSandbox, tmp_path: Path
) -> None:
    path = _file(tmp_path, 3)
    live_sandbox.app.limiter = RateLimiter(0.00001, 2)  # the third request: Retry-After 100000
    started = time.monotonic()
    stopped = freight("batch", "rate", str(path), "--concurrency", "1", "--format", "json")
    assert time.monotonic() - started < 30  # not held for hours with no output
    assert stopped.status == 5
    assert "the service asked to wait 27 h 47 min" in stopped.err
    assert "Retry-After: 100000" in stopped.err
    assert "longer than the 5 min Freight waits" in stopped.err
    assert [r["status"] for r in json.loads(stopped.out)] == ["rated", "rated", "pending"]


@pytest.mark.slow
def test_a_long_429_pause_is_said_with_its_end_time(
    freight: Runner, live_sandbox: RunningSandbox, tmp_path: Path
) -> None:
    path = _file(tmp_path, 2)
    live_sandbox.app.limiter = RateLimiter(0.1, 1)  # the second request: Retry-After 10
    before = datetime.now(UTC)
    rated = freight("batch", "rate", str(path), "--concurrency", "1")
    assert rated.status == 0, rated.err
    said = [line for line in rated.err.splitlines() if "waiting until" in line]
    assert len(said) == 1
    until = datetime.strptime(said[0].split("waiting until ")[1][:8], "%H:%M:%S").time()
    expected = (before + timedelta(seconds=10)).astimezone()
    assert abs(
        datetime.combine(expected.date(), until) - expected.replace(tzinfo=None)
    ) < timedelta(seconds=3)
    assert "(the service said 429: too many requests)" in said[0]
