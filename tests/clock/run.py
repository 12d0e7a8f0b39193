"""Run the test suite with every process's wall clock moved (and the local zone set).

    python tests/clock/run.py saturday               # the whole suite, -n 2
    python tests/clock/run.py year-end-utc14 tests/domain -q   # or any pytest arguments
    python tests/clock/run.py all                    # every scenario, one after the other

Each scenario puts tests/clock on PYTHONPATH, where its sitecustomize.py starts time-machine
in every Python process the suite starts (pytest's workers, the app under tmux, the commands
run as subprocesses), all on one moved clock that ticks from the moment given.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

SCENARIOS: dict[str, tuple[str, str]] = {
    # name: (local moment, IANA zone)
    "saturday": ("2026-11-28T10:00:00", "America/Chicago"),
    "holiday-eve": ("2026-12-24T16:30:00", "America/New_York"),
    "year-end-utc14": ("2026-12-31T23:30:00", "Pacific/Kiritimati"),
    "observed-holiday": ("2027-07-05T09:00:00", "America/Los_Angeles"),
    # the run crosses midnight into the new year part-way (a test that read the date before
    # midnight and the app after it)
    "midnight-utc14": ("2026-12-31T23:58:30", "Pacific/Kiritimati"),
}
DEFAULT_ARGS = ["-n", "2", "-q", "-p", "no:cacheprovider"]


def environment(name: str) -> dict[str, str]:
    """The environment of a moved run: the clock, the zone, and this folder on PYTHONPATH."""
    moment, zone = SCENARIOS[name]
    path = os.pathsep.join(p for p in (str(HERE), os.environ.get("PYTHONPATH", "")) if p)
    return {
        **os.environ,
        "PYTHONPATH": path,
        "FREIGHT_TEST_CLOCK": moment,
        "FREIGHT_TEST_ZONE": zone,
        "FREIGHT_TEST_CLOCK_ANCHOR": repr(time.time()),
        "TZ": zone,
        # time-machine's own pytest plugin would be imported a second time (already started)
        "PYTEST_ADDOPTS": " ".join((os.environ.get("PYTEST_ADDOPTS", ""), "-p no:time_machine")),
    }


def run(name: str, pytest_args: list[str]) -> int:
    moment, zone = SCENARIOS[name]
    print(f"== {name}: {moment} {zone}", flush=True)
    command = [sys.executable, "-m", "pytest", *(pytest_args or DEFAULT_ARGS)]
    return subprocess.call(command, cwd=ROOT, env=environment(name))


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in (*SCENARIOS, "all"):
        print(__doc__, file=sys.stderr)
        print("scenarios: " + ", ".join(SCENARIOS) + ", all", file=sys.stderr)
        return 2
    names = list(SCENARIOS) if argv[0] == "all" else [argv[0]]
    results = {name: run(name, argv[1:]) for name in names}
    for name, status in results.items():
        print(f"{name}: {'passed' if status == 0 else f'FAILED (exit {status})'}")
    return max(results.values())


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
