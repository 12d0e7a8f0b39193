"""A store taken back to an older schema version, as an older Freight left it."""

from __future__ import annotations

from tui.store.engine import Transaction


def before_version_8(tx: Transaction, dialect: str) -> None:
    """Undo version 8 (the rate's plain columns and the triggers that keep them)."""
    if dialect == "postgresql":
        tx.run("DROP TRIGGER bookings_rate_kept ON bookings")
        tx.run("DROP FUNCTION bookings_rate_kept()")
    else:
        tx.run("DROP TRIGGER bookings_rate_kept")
        tx.run("DROP TRIGGER bookings_rate_changed")
    for column in ("rate_carrier", "rate_currency", "rate_cents"):
        tx.run(f"ALTER TABLE bookings DROP COLUMN {column}")
