"""Several stations booking at once, as real ``freight batch book`` processes on the live
sandbox, on both stores (SQLite in a shared data dir, and PostgreSQL): two copies of one
export, four processes on one batch, one of them killed. Counted against the sandbox's own
shipments: no order booked twice, none lost."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.commands.conftest import Runner
from tests.commands.test_batch import _command_env, configured, orders_file
from tui.sandbox import DEMO_TOKEN
from tui.sandbox.threaded import RunningSandbox

pytestmark = pytest.mark.slow
BASE = [sys.executable, "-m", "tui", "batch"]
__all__ = ["configured"]  # the sandbox profile's config, a fixture


def _orders(prefix: str, count: int) -> str:
    lines = ["Order,Zip,Weight,Length,Width,Height,Unit Type"]
    lines += [f"{prefix}{n:03d},30303,{400 + n},48,40,48,Pallet" for n in range(count)]
    return "\n".join(lines) + "\n"


def _env(live_sandbox: RunningSandbox, home: Path, url: str, station: str) -> dict[str, str]:
    return {
        **_command_env(live_sandbox, home),
        "FREIGHT_STORE_URL": url,
        "FREIGHT_STATION": station,
    }


def _start(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*BASE, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _shipments(live_sandbox: RunningSandbox, references: list[str]) -> tuple[int, list[int]]:
    """All the shipments the sandbox holds, and how many carry each reference."""
    from tui.api.client import FreightClient
    from tui.api.models import ShipmentQuery

    async def count() -> tuple[int, list[int]]:
        async with FreightClient(live_sandbox.base_url, DEMO_TOKEN) as client:
            total, token = 0, None
            while True:
                page = await client.search_shipments(None, token, limit=100)
                total += len(page.shipments)
                token = page.continuation_token
                if token is None or not page.shipments:
                    break
            each = []
            for reference in references:
                found = await client.search_shipments(ShipmentQuery(text=reference))
                each.append(len(found.shipments))
        return total, each

    return asyncio.run(count())


def _rate(path: Path, env: dict[str, str]) -> None:
    rated = subprocess.run([*BASE, "rate", str(path)], env=env, capture_output=True, timeout=300)
    assert rated.returncode == 0, rated.stderr


def _records(process: subprocess.Popen[str]) -> tuple[int, list[dict[str, str]], str]:
    out, err = process.communicate(timeout=300)
    return process.returncode, json.loads(out) if out.strip() else [], err


def test_two_copies_of_one_export_booked_at_once_book_each_order_once(
    live_sandbox: RunningSandbox,
    configured: Path,
    isolated_home: Path,
    tmp_path: Path,
    store_url: str,
) -> None:
    count = 16
    text = _orders(f"TW{random.Random(1).randrange(10**6):06d}-", count)
    first = orders_file(tmp_path, text, "orders.csv")
    second = orders_file(tmp_path, text, "orders (1).csv")
    envs = [_env(live_sandbox, isolated_home, store_url, f"pack-{n}") for n in (1, 2)]
    _rate(first, envs[0])
    _rate(second, envs[1])
    before, _ = _shipments(live_sandbox, [])
    flags = ["--format", "json", "--requests-per-second", "5", "--concurrency", "2"]
    processes = [
        _start(["book", str(first), *flags], envs[0]),
        _start(["book", str(second), *flags], envs[1]),
    ]
    results = [_records(p) for p in processes]
    for status, records, err in results:
        assert status == 0, err
        assert [r["status"] for r in records] == ["booked"] * count
    # Both files name the same booking of each order: its reference and PRO.
    assert [(r["bookingReference"], r["proNumber"]) for r in results[0][1]] == [
        (r["bookingReference"], r["proNumber"]) for r in results[1][1]
    ]
    after, each = _shipments(live_sandbox, [r["bookingReference"] for r in results[0][1]])
    assert after - before == count  # no order twice, none lost
    assert each == [1] * count


def test_four_stations_on_one_batch_one_killed_then_resumed_book_each_order_once(
    live_sandbox: RunningSandbox,
    configured: Path,
    isolated_home: Path,
    tmp_path: Path,
    store_url: str,
) -> None:
    count = 40
    chance = random.Random(26)
    path = orders_file(tmp_path, _orders(f"ST{chance.randrange(10**6):06d}-", count))
    envs = [_env(live_sandbox, isolated_home, store_url, f"pack-{n}") for n in range(4)]
    _rate(path, envs[0])
    before, _ = _shipments(live_sandbox, [])
    flags = ["--format", "json", "--requests-per-second", "4", "--concurrency", "2"]
    processes = [_start(["book", str(path), *flags], env) for env in envs]
    victim = chance.randrange(4)
    time.sleep(chance.uniform(1.0, 3.0))
    processes[victim].send_signal(signal.SIGKILL)
    processes[victim].wait()
    for n, process in enumerate(processes):
        if n != victim:
            status, _, err = _records(process)
            assert status in (0, 1), err
    resumed = subprocess.run(
        [*BASE, "book", str(path), "--format", "json"],
        env=envs[victim],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr
    records = json.loads(resumed.stdout)
    assert [r["status"] for r in records] == ["booked"] * count
    after, each = _shipments(live_sandbox, [r["bookingReference"] for r in records])
    assert after - before == count  # no order twice, none lost
    assert each == [1] * count
    shown = subprocess.run(
        [*BASE, "status", str(path)], env=envs[0], capture_output=True, text=True, timeout=60
    )
    assert shown.returncode == 0, shown.stderr
    section = shown.stdout[shown.stdout.index("Stations:") :].split("\n\n")[0]
    listed = section.splitlines()[1:]
    assert {line.split()[0] for line in listed} <= {f"pack-{n}" for n in range(4)}
    assert sum(int(line.split()[1]) for line in listed if "booked" in line) == count


def test_a_damaged_store_ends_the_command_with_what_to_do_not_a_bug(
    freight: Runner, configured: Path, isolated_home: Path, tmp_path: Path
) -> None:
    path = orders_file(tmp_path, _orders("DMG-", 2))
    store = isolated_home / "data" / "freight-tui" / "freight.sqlite3"
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_bytes(b"not a database at all " * 200)
    result = freight("batch", "status", str(path))
    assert result.status == 6, result.err
    assert str(store) in result.err
    assert "the file is damaged" in result.err
    assert "restore it from a backup" in result.err
    assert "bug" not in result.err


def test_status_watch_follows_the_stations_until_every_order_is_booked(
    live_sandbox: RunningSandbox,
    configured: Path,
    isolated_home: Path,
    tmp_path: Path,
    store_url: str,
) -> None:
    count = 12
    path = orders_file(tmp_path, _orders(f"WA{random.Random(3).randrange(10**6):06d}-", count))
    env = _env(live_sandbox, isolated_home, store_url, "pack-9")
    _rate(path, env)
    booking = _start(["book", str(path), "--requests-per-second", "2"], env)
    watching = subprocess.run(
        [*BASE, "status", str(path), "--watch", "0.3"],
        env={**env, "FREIGHT_STATION": "office"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    booking.communicate(timeout=300)
    assert watching.returncode == 0, watching.stderr
    lines = [line for line in watching.stdout.splitlines() if line.endswith(" booked")]
    assert lines[-1].endswith(f"{count} of {count} booked")
    assert f"pack-9 {count} booked" in lines[-1]
    assert len(lines) > 1  # it followed the booking as it went


def test_status_watch_on_postgresql_shows_a_booking_as_it_is_committed(
    live_sandbox: RunningSandbox,
    configured: Path,
    isolated_home: Path,
    tmp_path: Path,
    postgres_url: str,
) -> None:
    count, period = 6, 60
    path = orders_file(tmp_path, _orders(f"WN{random.Random(5).randrange(10**6):06d}-", count))
    env = _env(live_sandbox, isolated_home, postgres_url, "pack-7")
    _rate(path, env)
    # The watcher reads the store every 60 s: only the store's notifications can show the
    # other station's bookings (in another process) before that.
    started = time.monotonic()
    watching = _start(
        ["status", str(path), "--watch", str(period)], {**env, "FREIGHT_STATION": "office"}
    )
    booking = _start(["book", str(path), "--requests-per-second", "4"], env)
    out, err = watching.communicate(timeout=300)
    took = time.monotonic() - started
    booking.communicate(timeout=300)
    assert watching.returncode == 0, err
    lines = [line for line in out.splitlines() if line.endswith(" booked")]
    assert lines[-1].endswith(f"{count} of {count} booked")
    assert f"pack-7 {count} booked" in lines[-1]
    assert len(lines) > 2  # it followed the booking as it went
    assert took < period  # without waiting for a poll
