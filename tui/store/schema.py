"""The store's tables, the same on SQLite and PostgreSQL but for a few words (``Dialect``).

Versioned: ``schema_version`` holds the version the tables are at; ``MIGRATIONS[n]`` takes them
from version n to n + 1. Times are ISO 8601 text with their offset (aware, comparable as text
in UTC); JSON is text. No ORM: plain SQL, ``?`` for parameters (the engine converts them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Dialect:
    """What differs between the engines' SQL."""

    name: str
    serial: str
    """A table's own integer id, made by the database."""
    skip_locked: str
    """The tail of a SELECT that takes rows no other transaction holds (empty on SQLite,
    whose writes are one at a time anyway)."""


SQLITE: Final = Dialect("sqlite", "INTEGER PRIMARY KEY", "")
POSTGRES: Final = Dialect("postgresql", "BIGSERIAL PRIMARY KEY", " FOR UPDATE SKIP LOCKED")


def _version_1(d: Dialect) -> list[str]:
    return [
        f"""CREATE TABLE batches (
            id {d.serial},
            profile TEXT NOT NULL,
            source TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            settings TEXT NOT NULL DEFAULT '{{}}',
            UNIQUE (profile, source)
        )""",
        """CREATE TABLE orders (
            batch_id BIGINT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            status TEXT NOT NULL,
            state TEXT NOT NULL,
            updated TEXT NOT NULL,
            position BIGINT NOT NULL DEFAULT 0,
            station TEXT,
            holder TEXT,
            lease_until TEXT,
            PRIMARY KEY (batch_id, key)
        )""",
        "CREATE INDEX orders_by_key ON orders (key, status)",
        """CREATE TABLE bookings (
            reference TEXT PRIMARY KEY,
            account TEXT NOT NULL,
            environment TEXT NOT NULL,
            order_number TEXT,
            batch_id BIGINT,
            station TEXT NOT NULL,
            profile TEXT NOT NULL,
            quote_id TEXT NOT NULL,
            rate_id TEXT NOT NULL,
            sent_at TEXT NOT NULL,
            updated TEXT NOT NULL,
            outcome TEXT NOT NULL
                CHECK (outcome IN ('sent', 'booked', 'unknown', 'failed')),
            shipment_id TEXT,
            pro_number TEXT,
            bol_number TEXT,
            note TEXT,
            pickup_date TEXT,
            pickup_note TEXT,
            search_for TEXT,
            lane TEXT,
            rate TEXT,
            offers TEXT,
            weights TEXT,
            UNIQUE (account, environment, order_number)
        )""",
        "CREATE INDEX bookings_by_rate ON bookings (profile, quote_id, rate_id)",
        """CREATE TABLE paperwork (
            reference TEXT NOT NULL REFERENCES bookings (reference) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            path TEXT,
            saved_at TEXT,
            last_error TEXT,
            PRIMARY KEY (reference, kind)
        )""",
        # A profile's named things (address book entries, mappings, rules): one table each.
        *(
            f"""CREATE TABLE {table} (
            profile TEXT NOT NULL,
            name TEXT NOT NULL,
            data TEXT NOT NULL,
            PRIMARY KEY (profile, name)
        )"""
            for table in ("address_book", "mappings", "rules")
        ),
    ]


def _version_2(d: Dialect) -> list[str]:
    """The shared pace: per (account, environment) the starts handed out lately (a JSON list of
    epoch seconds) and the end of a pause a 429 asked for (epoch seconds; 0: none)."""
    return [
        """CREATE TABLE pace (
            account TEXT NOT NULL,
            environment TEXT NOT NULL,
            starts TEXT NOT NULL DEFAULT '[]',
            paused_until DOUBLE PRECISION NOT NULL DEFAULT 0,
            PRIMARY KEY (account, environment)
        )""",
    ]


def _version_3(d: Dialect) -> list[str]:
    # A day's close (freight day close): who closed which pickup day, when, what was printed.
    return [
        f"""CREATE TABLE day_closes (
            id {d.serial},
            day TEXT NOT NULL,
            environment TEXT NOT NULL,
            station TEXT NOT NULL,
            closed_at TEXT NOT NULL,
            printed TEXT NOT NULL DEFAULT '[]'
        )""",
        "CREATE INDEX day_closes_by_day ON day_closes (day, environment)",
    ]


def _version_4(d: Dialect) -> list[str]:
    """What tracking said of a booked shipment (``tui.reports.deliveries``): the day it was
    delivered (``YYYY-MM-DD``, local where it was delivered), its actual transit in business
    days (the pickup day not counted, as quoted transit days are), and when tracking was last
    asked (so a shipment never delivered does not hold the others up)."""
    return [
        "ALTER TABLE bookings ADD COLUMN delivered_on TEXT",
        "ALTER TABLE bookings ADD COLUMN transit_days INTEGER",
        "ALTER TABLE bookings ADD COLUMN tracked_at TEXT",
    ]


def _version_5(d: Dialect) -> list[str]:
    """The day's reads (``freight day``, the Day screen's ←/→) find a pickup day's bookings and
    a listed shipment's booking by index, not by reading every booking. And the demo's
    bookings are kept under one environment, ``demo``, whether the app or a command made
    them (a command once wrote ``sandbox``): the ``demo`` account is the demo's alone."""
    return [
        "CREATE INDEX bookings_by_pickup ON bookings (environment, account, pickup_date)",
        "CREATE INDEX bookings_by_shipment ON bookings (shipment_id)",
        "UPDATE bookings SET environment = 'demo' WHERE account = 'demo'"
        " AND environment = 'sandbox' AND NOT EXISTS (SELECT 1 FROM bookings AS b"
        " WHERE b.account = 'demo' AND b.environment = 'demo'"
        " AND b.order_number = bookings.order_number)",
    ]


def _version_6(d: Dialect) -> list[str]:
    """What the store knows of its own history, kept in the store itself (not in a process):
    when it was created (or made again), migrated, imported into or restored, and by which
    station. ``freight store status`` shows it; a store made after bookings went out is why
    every order with no ledger row is looked up on the service before it is sent."""
    return [
        f"""CREATE TABLE store_history (
            id {d.serial},
            event TEXT NOT NULL,
            at TEXT NOT NULL,
            station TEXT NOT NULL,
            detail TEXT NOT NULL DEFAULT ''
        )""",
    ]


def _version_7(d: Dialect) -> list[str]:
    """Changes after a booking (``tui.store.changes``): each cancel or pickup change recorded
    before it is sent and settled when its answer comes. At most one live cancel of a
    shipment per account and environment (a cancel sent twice cancels once)."""
    return [
        f"""CREATE TABLE IF NOT EXISTS shipment_changes (
            id {d.serial},
            account TEXT NOT NULL,
            environment TEXT NOT NULL,
            shipment_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            request TEXT NOT NULL DEFAULT '{{}}',
            station TEXT NOT NULL,
            sent_at TEXT NOT NULL,
            updated TEXT NOT NULL,
            outcome TEXT NOT NULL
                CHECK (outcome IN ('sent', 'done', 'refused', 'unknown', 'failed')),
            note TEXT
        )""",
        "CREATE INDEX IF NOT EXISTS shipment_changes_by_shipment"
        " ON shipment_changes (account, environment, shipment_id)",
        "CREATE UNIQUE INDEX IF NOT EXISTS shipment_changes_one_cancel"
        " ON shipment_changes (account, environment, shipment_id)"
        " WHERE kind = 'cancel' AND outcome IN ('sent', 'done', 'unknown')",
    ]


_RATE_KEPT: Final = ("rate_carrier", "rate_currency", "rate_cents")


def _version_8(d: Dialect) -> list[str]:
    """The booked rate's carrier, currency (upper case, ``USD`` when it names none) and total
    in cents (null: no total), kept as plain columns beside the rate's JSON, which the audit
    reads for every booking of a period (100,000 of them: parsing each rate's JSON three
    times was half its time). The store keeps them itself from ``rate``, whoever writes it
    (the ledger, an import, a test): a trigger on each insert and change of the rate. A rate
    that is not JSON keeps none of them, and its booking stays recorded."""
    added = [f"ALTER TABLE bookings ADD COLUMN {name} {kind}" for name, kind in
             zip(_RATE_KEPT, ("TEXT", "TEXT", "BIGINT"), strict=True)]  # fmt: skip
    if d.name == "postgresql":
        return [
            *added,
            """CREATE OR REPLACE FUNCTION bookings_rate_kept() RETURNS trigger
            LANGUAGE plpgsql AS $kept$
            DECLARE
                rj jsonb;
            BEGIN
                NEW.rate_carrier := NULL;
                NEW.rate_currency := NULL;
                NEW.rate_cents := NULL;
                IF NEW.rate IS NOT NULL THEN
                    BEGIN
                        rj := CAST(NEW.rate AS jsonb);
                        NEW.rate_carrier := COALESCE(rj ->> 'carrier', '');
                        NEW.rate_currency := UPPER(COALESCE(rj ->> 'currency', 'USD'));
                        NEW.rate_cents :=
                            CAST(ROUND(CAST(rj ->> 'total' AS NUMERIC) * 100) AS BIGINT);
                    EXCEPTION WHEN data_exception THEN
                        NULL;  -- not JSON, or a total that is no number: none kept
                    END;
                END IF;
                RETURN NEW;
            END
            $kept$""",
            "CREATE TRIGGER bookings_rate_kept BEFORE INSERT OR UPDATE OF rate ON bookings"
            " FOR EACH ROW EXECUTE FUNCTION bookings_rate_kept()",
            "UPDATE bookings SET rate = rate WHERE rate IS NOT NULL",
        ]
    kept = (
        "UPDATE bookings SET"
        " rate_carrier = CASE WHEN json_valid(NEW.rate)"
        " THEN COALESCE(json_extract(NEW.rate, '$.carrier'), '') END,"
        " rate_currency = CASE WHEN json_valid(NEW.rate)"
        " THEN UPPER(COALESCE(json_extract(NEW.rate, '$.currency'), 'USD')) END,"
        " rate_cents = CASE WHEN json_valid(NEW.rate)"
        " THEN CAST(ROUND(json_extract(NEW.rate, '$.total') * 100) AS INTEGER) END"
        " WHERE rowid = NEW.rowid;"
    )
    return [
        *added,
        f"CREATE TRIGGER bookings_rate_kept AFTER INSERT ON bookings"
        f" WHEN NEW.rate IS NOT NULL BEGIN {kept} END",
        f"CREATE TRIGGER bookings_rate_changed AFTER UPDATE OF rate ON bookings BEGIN {kept} END",
        "UPDATE bookings SET rate = rate WHERE rate IS NOT NULL",
    ]


def _version_9(d: Dialect) -> list[str]:
    """A close may be one carrier's (its driver came and took its manifest): ``carrier`` is
    the carrier's name as the day groups it; NULL closes the whole day, as every close
    before this version did."""
    return ["ALTER TABLE day_closes ADD COLUMN carrier TEXT"]


MIGRATIONS: Final = (
    _version_1, _version_2, _version_3, _version_4, _version_5, _version_6, _version_7,
    _version_8, _version_9,
)  # fmt: skip
"""``MIGRATIONS[n](dialect)``: the statements from version n to n + 1."""

VERSION: Final = len(MIGRATIONS)
"""The schema version this Freight writes."""
