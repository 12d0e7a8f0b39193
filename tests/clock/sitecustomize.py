"""Moves this Python process's wall clock, for the suite's moved-clock runs (tests/clock/run.py).

On PYTHONPATH, Python imports this module at start-up in every process the suite starts: the
pytest workers, the app under tmux, the commands run as subprocesses. With
``FREIGHT_TEST_CLOCK`` (an ISO date-time, e.g. ``2026-12-31T23:30:00+14:00``) it starts
time-machine there (time, datetime and the local zone move; monotonic clocks do not).
``FREIGHT_TEST_CLOCK_ANCHOR`` (the real epoch seconds the run began) keeps every process on
the one moved clock: each is as far past the moved moment as the run is past its start, so a
process started ten minutes into the run is ten minutes past it too. ``FREIGHT_TEST_ZONE`` (an
IANA name) is the local zone. (libfaketime would do it from outside, but it hangs Python's
threads.)
"""

from __future__ import annotations

import os

_WHEN = os.environ.get("FREIGHT_TEST_CLOCK")

if _WHEN:
    import datetime as _dt
    import time as _time
    from zoneinfo import ZoneInfo as _ZoneInfo

    import time_machine as _time_machine

    _zone = os.environ.get("FREIGHT_TEST_ZONE")
    _moved = _dt.datetime.fromisoformat(_WHEN)
    if _moved.tzinfo is None:
        _moved = _moved.replace(tzinfo=_ZoneInfo(_zone) if _zone else _dt.UTC)
    elif _zone:
        _moved = _moved.astimezone(_ZoneInfo(_zone))
    _anchor = float(os.environ.get("FREIGHT_TEST_CLOCK_ANCHOR") or _time.time())
    _moved += _dt.timedelta(seconds=max(0.0, _time.time() - _anchor))
    _TRAVELLER = _time_machine.travel(_moved, tick=True)
    _TRAVELLER.start()
    # time-machine starts a ticking clock at its first reading, not at start(): read it now, or
    # the process lags by however long it takes to first ask the time (imports, under load up
    # to seconds), and processes that share times (stations pacing one account through the
    # store) disagree about "now"
    _time.time_ns()
