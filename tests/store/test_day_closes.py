"""Schema version 9: a day's close may name a carrier (its driver came and took its
manifest); a close naming none closes the whole day, as every close before version 9 did."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from tests.store.older import before_version_9
from tui.store import Store, open_store
from tui.store.days import close_day, closes_of, last_close
from tui.store.moving import import_store
from tui.store.schema import VERSION

DAY = date(2026, 11, 24)


def _at(hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, 23, hour, minute, tzinfo=UTC)


def test_a_close_may_name_a_carrier_and_the_latest_of_each_is_kept(store: Store) -> None:
    close_day(store, DAY, "sandbox", "desk-1", ("bols.pdf",), _at(15))
    close_day(store, DAY, "sandbox", "pack-1", moment=_at(16), carrier="Alpha Lines")
    close_day(store, DAY, "sandbox", "pack-2", moment=_at(17), carrier="ALPHA LINES")
    close_day(store, DAY, "sandbox", "pack-1", moment=_at(14), carrier="Beta Freight")
    close_day(store, DAY, "production", "desk-9", moment=_at(18), carrier="Beta Freight")
    close_day(store, date(2026, 11, 25), "sandbox", "desk-1", moment=_at(18))

    closes = closes_of(store, DAY, "sandbox")
    assert closes.whole is not None
    assert (closes.whole.station, closes.whole.closed_at, closes.whole.carrier) == (
        "desk-1", _at(15), None,
    )  # fmt: skip
    assert closes.whole.printed == ("bols.pdf",)
    alpha = closes.of("alpha lines")  # the carrier's name, case left aside
    assert alpha is not None
    assert (alpha.station, alpha.closed_at, alpha.carrier) == ("pack-2", _at(17), "ALPHA LINES")
    beta = closes.of("Beta Freight")
    assert beta is not None
    assert (beta.station, beta.closed_at) == ("pack-1", _at(14))  # not production's
    assert closes.of("Gamma") is None
    # The whole day's close is the day's, however late a carrier was closed.
    whole = last_close(store, DAY, "sandbox")
    assert whole is not None
    assert whole.closed_at == _at(15)
    assert closes_of(store, date(2026, 11, 26), "sandbox").whole is None


def test_a_day_with_only_a_carrier_closed_is_not_closed_whole(store: Store) -> None:
    close_day(store, DAY, "sandbox", "pack-1", moment=_at(16), carrier="Alpha Lines")
    assert last_close(store, DAY, "sandbox") is None
    assert set(closes_of(store, DAY, "sandbox").times()) == {"alpha lines"}


def test_a_store_before_version_9_keeps_its_closes_as_whole_day_closes(
    tmp_path: Path, store_url: str
) -> None:
    older = open_store(tmp_path / "data", store_url)
    try:
        with older.engine.write() as tx:  # as Freight left it before version 9
            before_version_9(tx)
            tx.run(
                "INSERT INTO day_closes (day, environment, station, closed_at, printed)"
                " VALUES (?, 'sandbox', 'desk-1', ?, '[]')",
                (DAY.isoformat(), _at(15).isoformat()),
            )
            tx.run("UPDATE schema_version SET version = 8")
    finally:
        older.close()
    store = open_store(tmp_path / "data", store_url, migrate=True)  # freight store migrate
    try:
        assert store.version() == VERSION == 9
        closes = closes_of(store, DAY, "sandbox")
        assert closes.whole is not None
        assert (closes.whole.station, closes.whole.closed_at) == ("desk-1", _at(15))
        assert closes.carriers == {}
        close_day(store, DAY, "sandbox", "pack-1", moment=_at(16), carrier="Alpha Lines")
        assert closes_of(store, DAY, "sandbox").of("Alpha Lines") is not None
    finally:
        store.close()


def test_an_imported_store_keeps_its_carrier_closes_once(store: Store, tmp_path: Path) -> None:
    """A station's SQLite store moved into this one (``freight store import``): a carrier's
    close stays that carrier's, beside a whole-day close made at the same moment."""
    source = open_store(tmp_path / "source")
    try:
        close_day(source, DAY, "sandbox", "pack-1", moment=_at(16), carrier="Alpha Lines")
        close_day(source, DAY, "sandbox", "pack-1", moment=_at(16))
    finally:
        source.close()
    path = tmp_path / "source" / "freight.sqlite3"
    assert path.is_file()
    assert import_store(store, path, "desk-1").day_closes == 2
    assert import_store(store, path, "desk-1").day_closes == 0  # a second import adds nothing
    closes = closes_of(store, DAY, "sandbox")
    assert closes.whole is not None
    assert closes.whole.closed_at == _at(16)
    alpha = closes.of("Alpha Lines")
    assert alpha is not None
    assert (alpha.station, alpha.closed_at) == ("pack-1", _at(16))
