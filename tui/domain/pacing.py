"""How fast Freight sends an account's requests: one rule for every pace (a batch run's own in
``tui.batch.pace``, and the one every station shares through the store in
``tui.store.pace``).

The service counts an account's requests per second as they arrive. A request leaves a little
after its turn (a busy machine, a connection being set up, another process), so two paced
exactly at the limit can arrive closer than they left, and the service counts one too many.
Rather than a window tuned to a machine, Freight paces to a share of the limit: evenly spaced
at ``SHARE`` of it, with a second between the first and the last of any ``limit`` requests.
The tenth left over is the room a late request arrives in.
"""

from __future__ import annotations

from typing import Final

WINDOW: Final = 1.0
"""The service's window: no more than the account's limit start within any second."""
SHARE: Final = 0.9
"""The share of the limit requests are spaced at (20/s: 18/s, one every 1/18 s)."""


def paced_rate(limit: float) -> float:
    """Requests per second to space requests at, for an account's limit of ``limit``."""
    return limit * SHARE
