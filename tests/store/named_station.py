"""One station of the shared address book and mappings tests, run as its own process:
``python -m tests.store.named_station STORE_URL DATA_DIR ACTION ...``.

- ``add PREFIX COUNT START``: at epoch second START, save COUNT address book entries and
  COUNT mappings named ``PREFIX-n``, and the entry ``Shared dock`` (phone and contact both
  ``PREFIX``) after each of its own, as fast as it can; prints ``ok``.
- ``save COMPANY ZIP``: save one address book entry of the demo profile.
- ``book``: print the demo profile's address book as the store holds it, one
  ``company|postal_code|phone`` a line (the config's entries taken in once, as the app does).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tui.batch.fields import guess_mapping
from tui.batch.mappings import MappingStore
from tui.config.settings import Location
from tui.demo_profile import demo_profile
from tui.store import open_store
from tui.store.named import address_book, save_address


def add(url: str, data_dir: Path, prefix: str, count: int, start: float) -> None:
    store = open_store(data_dir, url)
    mappings = MappingStore(store, data_dir)
    mapping = guess_mapping(["Order", "Weight", f"{prefix} column"])
    time.sleep(max(0.0, start - time.time()))
    for n in range(count):
        save_address(store, "demo", Location(company=f"{prefix}-{n}", postal_code="60607"))
        mappings.save("demo", f"{prefix}-{n}", mapping)
        shared = Location(label="Shared dock", postal_code="30303", phone=prefix)
        save_address(store, "demo", shared.model_copy(update={"contact_name": prefix}))
    store.close()
    print("ok")


def save(url: str, data_dir: Path, company: str, postal_code: str) -> None:
    store = open_store(data_dir, url)
    entry = Location(label=company, company=company, postal_code=postal_code, city="Dallas")
    save_address(store, "demo", entry)
    store.close()


def book(url: str, data_dir: Path) -> None:
    store = open_store(data_dir, url)
    for entry in address_book(store, data_dir, demo_profile(data_dir=data_dir)):
        print(f"{entry.company}|{entry.postal_code}|{entry.phone}")
    store.close()


if __name__ == "__main__":
    url, folder, action, *rest = sys.argv[1:]
    if action == "add":
        add(url, Path(folder), rest[0], int(rest[1]), float(rest[2]))
    elif action == "save":
        save(url, Path(folder), rest[0], rest[1])
    else:
        book(url, Path(folder))
