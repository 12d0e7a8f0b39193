"""The address book and saved column mappings live in the store, on both engines: what one
station (a process of its own) saves, another sees; two stations saving at once lose nothing;
the files they were kept in come in once and are never written again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.store.conftest import OpenStore
from tui.batch.fields import guess_mapping
from tui.batch.mappings import FILE_NAME as MAPPINGS_FILE
from tui.batch.mappings import MappingStore
from tui.config.settings import Location, Profile
from tui.store.named import address_book, save_address

ROOT = Path(__file__).resolve().parents[2]
ORDERS = "Order,Gross Wt,Pkg,Zip,Dest Zip,L,W,H\nSO-1,500,pallet,60607,30303,48,40,48\n"


def station(url: str, data_dir: Path, *args: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "tests.store.named_station", url, str(data_dir), *args]
    return subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def finished(process: subprocess.Popen[str]) -> str:
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    return out


def freight(home: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``freight ARGS`` as its own process, a station whose config and data are in ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FREIGHT_", "XDG_"))}
    for name, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data")):
        env[name] = str(home / sub)
    env["FREIGHT_STORE_URL"] = url
    return subprocess.run(
        [sys.executable, "-m", "tui", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_a_mapping_made_at_one_station_is_used_at_another(store_url: str, tmp_path: Path) -> None:
    first = tmp_path / "pack1"
    # SQLite is one machine's store: the stations share its data dir; PostgreSQL: their own.
    second = first if not store_url else tmp_path / "pack2"
    for home in (first, second):
        home.mkdir(exist_ok=True)
        (home / "orders.csv").write_text(ORDERS, encoding="utf-8")
    made = freight(
        first, store_url, "batch", "status", str(first / "orders.csv"), "--demo",
        "--mapping", "erp export", "--map", "weight=Gross Wt", "--map", "length=L",
        "--save-mapping",
    )  # fmt: skip
    assert "mapping 'erp export'" in made.stdout, made.stderr
    shown = freight(second, store_url, "batch", "columns", str(second / "orders.csv"), "--demo")
    assert shown.returncode == 0, shown.stderr
    seen = freight(
        second, store_url, "batch", "columns", str(second / "orders.csv"), "--demo", "--json"
    )
    record = json.loads(seen.stdout)
    assert record["mapping"] == "erp export"
    columns = {c["field"]: c["column"] for c in record["columns"]}
    assert columns["weight"] == "Gross Wt"
    assert columns["length"] == "L"
    for home in (first, second):  # the old file is not written any more
        assert not (home / "data" / "freight-tui" / MAPPINGS_FILE).exists()


def test_two_stations_saving_at_once_lose_nothing(store_url: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    start = f"{time.time() + 2.0:.3f}"  # both past their start-up, then at once
    stations = [station(store_url, data, "add", prefix, "25", start) for prefix in ("A", "B")]
    assert [finished(p).strip() for p in stations] == ["ok", "ok"]
    book = finished(station(store_url, data, "book")).splitlines()
    companies = {line.split("|")[0] for line in book}
    assert {f"{p}-{n}" for p in "AB" for n in range(25)} <= companies
    shared = [line for line in book if line.split("|")[1] == "30303" and line.startswith("|")]
    assert len(shared) == 1  # one entry of that name: the last write, whole
    from tui.store import open_store

    store = open_store(data, store_url)
    try:
        (entry,) = [e for e in address_book(store, data, _profile()) if e.label == "Shared dock"]
        assert entry.phone in ("A", "B")
        assert entry.contact_name == entry.phone  # never one station's phone, another's name
        names = MappingStore(store, data).names("demo")
        assert {f"{p}-{n}" for p in "AB" for n in range(25)} <= set(names)
    finally:
        store.close()


def _profile(book: list[Location] | None = None) -> Profile:
    return Profile(
        name="demo",
        base_url="https://freight.example",
        environment="sandbox",
        address_book=book or [],
    )


def test_the_old_address_book_and_mappings_come_in_once(connect: OpenStore, tmp_path: Path) -> None:
    data = tmp_path / "station"
    data.mkdir()
    saved = {"v": 1, "profiles": {"demo": {"wms": guess_mapping(["Order", "Weight"]).to_json()}}}
    (data / MAPPINGS_FILE).write_text(json.dumps(saved), encoding="utf-8")
    old = Location(label="Main DC", company="Acme", postal_code="60607")
    profile = _profile([old])
    store = connect()
    assert address_book(store, data, profile) == [old]
    assert MappingStore(store, data).names("demo") == ["wms"]
    # Deleted at another station: the files, still there, do not bring them back.
    with store.engine.write() as tx:
        tx.run("DELETE FROM address_book")
        tx.run("DELETE FROM mappings")
    again = connect()
    assert address_book(again, data, profile) == []
    assert MappingStore(again, data).names("demo") == []
    # What is saved now goes to the store only.
    before = (data / MAPPINGS_FILE).read_text(encoding="utf-8")
    MappingStore(again, data).save("demo", "new", guess_mapping(["Order"]))
    entry = Location(company="Peach Retail", postal_code="30303")
    save_address(again, "demo", entry)
    assert address_book(store, data, profile) == [entry]
    assert (data / MAPPINGS_FILE).read_text(encoding="utf-8") == before


def test_a_saved_entry_replaces_itself_and_keeps_the_order(
    connect: OpenStore, tmp_path: Path
) -> None:
    store = connect()
    first = Location(company="Acme", postal_code="60607")
    second = Location(company="Acme", postal_code="30303")  # the same company's other dock
    save_address(store, "demo", first)
    save_address(store, "demo", second)
    changed = first.model_copy(update={"label": "Chicago", "phone": "312-555-0100"})
    save_address(store, "demo", changed, [first])
    book = address_book(store, tmp_path, _profile())
    assert book == [second, changed]
