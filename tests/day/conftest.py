"""The day's fixtures: the booking engine's (a sandbox on a Wednesday, a client, a ledger)."""

from tests.booking.conftest import client, counting, engine, ledger, sandbox_config

__all__ = ["client", "counting", "engine", "ledger", "sandbox_config"]
