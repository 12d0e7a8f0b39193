"""When to retry and how long to wait: jittered exponential back-off and ``Retry-After``."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from tui.api.options import RetryPolicy

__all__ = ["backoff_delay", "parse_retry_after"]


def backoff_delay(
    policy: RetryPolicy, retry: int, rng: Callable[[], float] = random.random
) -> float:
    """Seconds to wait before retry number ``retry`` (0-based): full jitter, capped."""
    ceiling = min(policy.backoff_cap, policy.backoff_base * (2**retry))
    return float(ceiling * rng())


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date); None if unusable."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or datetime.now(UTC))).total_seconds()
    if seconds != seconds or seconds in (float("inf"), float("-inf")):
        return None
    return max(0.0, seconds)
