"""One pace per account, shared by every station through the store: real processes against
the real sandbox (which notes each authorised request's arrival), on SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.sandbox_fixtures import most_allowed, most_in_a_second
from tui.batch.pace import Pace
from tui.sandbox.threaded import RunningSandbox
from tui.store import open_store
from tui.store.pace import StorePace

ROOT = Path(__file__).resolve().parents[2]


def stations(
    count: int, url: str, data_dir: Path, sandbox: RunningSandbox, each: int
) -> list[subprocess.Popen[str]]:
    command = [sys.executable, "-m", "tests.store.pace_station", url, str(data_dir)]
    return [
        subprocess.Popen(
            [*command, sandbox.base_url, sandbox.token, str(each)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(count)
    ]


def finished(processes: list[subprocess.Popen[str]]) -> list[str]:
    outputs = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        outputs.append(out.strip())
    return outputs


def test_three_stations_together_stay_under_the_accounts_limit(
    tmp_path: Path, store_url: str, limited_sandbox: RunningSandbox
) -> None:
    open_store(tmp_path, store_url).close()  # made once, before the stations race to it
    limited_sandbox.app.request_times.clear()
    outputs = finished(stations(3, store_url, tmp_path, limited_sandbox, 30))
    times = list(limited_sandbox.app.request_times)
    assert all(out.startswith("429s=0 ") for out in outputs), outputs  # what a user sees
    assert len(times) == 90  # arrivals, on the service's clock
    assert most_in_a_second(times) <= most_allowed(20)


async def test_a_429_seen_by_one_station_pauses_the_others(
    tmp_path: Path, store_url: str, limited_sandbox: RunningSandbox
) -> None:
    store = open_store(tmp_path, store_url)
    here = Pace(20, shared=StorePace(store, "acme", limited_sandbox.base_url, 20))
    limited_sandbox.app.request_times.clear()
    paused_at = time.monotonic()
    # this station got a 429 with Retry-After: 10 (long beside a loaded machine's start-up of
    # the other station's process, so that one still has a wait to show)
    here.limited(10.0)
    store.close()
    outputs = finished(stations(1, store_url, tmp_path, limited_sandbox, 5))
    times = list(limited_sandbox.app.request_times)
    assert len(times) == 5
    assert min(times) >= paused_at + 9.9  # the other station waited for the pause's end
    assert outputs[0].startswith("429s=0 ")
    assert float(outputs[0].split("waited=")[1]) > 1.0  # and showed it as its wait


def test_the_profiles_budget_is_the_pace_of_a_batch_run(
    live_sandbox: RunningSandbox, isolated_home: Path, tmp_path: Path
) -> None:
    from tests.commands.test_batch import CONFIG, _command_env, orders_file

    config = isolated_home / "config" / "freight-tui" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    limits = "\n[profiles.sandbox.limits]\nrequests_per_second = 5\n"
    config.write_text(CONFIG.format(url=live_sandbox.base_url) + limits, encoding="utf-8")
    lines = ["Order,Zip,Weight,Length,Width,Height,Unit Type"]
    lines += [f"P{n:02d},30303,{400 + n},48,40,48,Pallet" for n in range(12)]
    path = orders_file(tmp_path, "\n".join(lines) + "\n")
    live_sandbox.app.request_times.clear()
    run = subprocess.run(
        [sys.executable, "-m", "tui", "batch", "rate", str(path)],
        env=_command_env(live_sandbox, isolated_home),
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    times = list(live_sandbox.app.request_times)
    assert len(times) >= 12
    assert most_in_a_second(times) <= most_allowed(5)  # the profile's 5/s, not the default 20
