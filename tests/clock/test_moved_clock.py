"""The moved clock of tests/clock/run.py: every process of a run is on the one clock."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from tests.clock.run import SCENARIOS, environment


@pytest.mark.skipif(
    bool(os.environ.get("FREIGHT_TEST_CLOCK")), reason="needs the real clock to measure against"
)
def test_a_process_that_asks_the_time_late_is_not_behind_the_run() -> None:
    # a station reads the clock only after its imports; it must still agree with the others
    name = "year-end-utc14"
    moment, zone = SCENARIOS[name]
    env = environment(name)
    late_reader = "import time; time.sleep(1.5); print(repr(time.time()))"
    run = subprocess.run(
        [sys.executable, "-c", late_reader], env=env, capture_output=True, text=True, timeout=60
    )
    real_end = time.time()
    assert run.returncode == 0, run.stderr
    started = datetime.fromisoformat(moment).replace(tzinfo=ZoneInfo(zone))
    anchor = float(env["FREIGHT_TEST_CLOCK_ANCHOR"])
    expected = (started + timedelta(seconds=real_end - anchor)).timestamp()
    seen = float(run.stdout)
    assert expected - 1.0 < seen <= expected + 0.01  # not 1.5 s behind
