"""A store taken back to an older schema version, as an older Freight left it."""

from __future__ import annotations

from tui.store.engine import Transaction


def before_version_9(tx: Transaction) -> None:
    """Undo version 9 (a close's carrier)."""
    tx.run("ALTER TABLE day_closes DROP COLUMN carrier")


def before_version_8(tx: Transaction, dialect: str) -> None:
    """Undo versions 9 and 8 (the rate's plain columns and the triggers that keep them)."""
    before_version_9(tx)
    if dialect == "postgresql":
        tx.run("DROP TRIGGER bookings_rate_kept ON bookings")
        tx.run("DROP FUNCTION bookings_rate_kept()")
    else:
        tx.run("DROP TRIGGER bookings_rate_kept")
        tx.run("DROP TRIGGER bookings_rate_changed")
    for column in ("rate_carrier", "rate_currency", "rate_cents"):
        tx.run(f"ALTER TABLE bookings DROP COLUMN {column}")
