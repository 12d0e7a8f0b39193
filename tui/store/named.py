"""A profile's named records in the store, shared by every station that uses it: the address
book (``address_book``), saved column mappings (``mappings``) and rules (``rules``).

One row per (profile, name): the last write of a name wins whole, and two stations adding
different names at once both keep theirs. The files they were kept in before (the config's
address books, ``batch-mappings.json``) come in once per store on first use (``import_once``)
and are never written again.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from tui.atomic import write_atomically
from tui.config.settings import Location
from tui.store.core import Store
from tui.store.engine import StoreError

if TYPE_CHECKING:
    from tui.config.settings import Profile

MARKS_FILE: Final = "store-imports.json"
"""In the data dir: which of its files each store has taken in already (by the store's name)."""
_DONE: set[tuple[str, str, str]] = set()
"""(store, data dir, what) this process has imported or found imported."""
ORDER_KEY: Final = "_order"
"""Kept beside an address book entry's fields: the entries' order (imported ones first, in
their file order; then by the time each was saved)."""


def address_key(label: str, company: str, postal_code: str) -> str:
    """An address book entry's name in the store: its label (else its company) and ZIP, so
    one company's two docks are two entries, and one dock saved again replaces itself."""
    postal = "".join(postal_code.split()).upper()
    return f"{(label or company).strip()} ({postal})"


def key_of(entry: Location) -> str:
    """The store's name of one entry."""
    return address_key(entry.label, entry.company, entry.postal_code)


def import_once(store: Store, data_dir: Path, what: str, take_in: Callable[[], object]) -> None:
    """Run ``take_in`` (an import that keeps what the store holds) unless this data dir's
    ``what`` went into this store already; then remember that it did. A store this process
    made (new, or lost and made again) takes it in again, once."""
    key = (store.where, str(data_dir), what)
    if key in _DONE:
        return
    path = data_dir / MARKS_FILE
    try:
        marks = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        marks = {}
    if not isinstance(marks, dict):
        marks = {}
    done = marks.get(store.where)
    done = [str(x) for x in done] if isinstance(done, list) else []
    if what not in done or store.fresh:
        take_in()
    _DONE.add(key)
    if what in done:
        return
    marks[store.where] = sorted({*done, what})

    with suppress(OSError):  # not remembered: the next use imports again, adding nothing
        write_atomically(path, json.dumps(marks, indent=1, ensure_ascii=False))


def import_addresses(store: Store, profile: str, entries: Sequence[Mapping[str, Any]]) -> int:
    """Add a profile's address book entries (plain data, in their order) the store does not
    hold by name; how many were added."""
    added = 0
    for index, entry in enumerate(entries):
        name = address_key(
            str(entry.get("label") or ""),
            str(entry.get("company") or ""),
            str(entry.get("postal_code") or ""),
        )
        if name.startswith(" ("):
            continue  # no label, no company: nothing to name it by
        data = {**entry, ORDER_KEY: index}
        if store.add_named("address_book", profile, name, data):
            added += 1
    return added


def address_book(store: Store, data_dir: Path, profile: Profile) -> list[Location]:
    """The profile's address book in the store (its config's entries taken in first, once),
    in the order they were saved. An entry that does not read is an error, never skipped."""

    def take_in() -> None:
        import_addresses(
            store, profile.name, [e.model_dump(mode="json") for e in profile.address_book]
        )

    import_once(store, data_dir, f"address_book:{profile.name}", take_in)
    kept: list[tuple[float, str, Location]] = []
    for name, data in store.named("address_book", profile.name).items():
        order = data.pop(ORDER_KEY, 0)
        try:
            entry = Location.model_validate(data)
        except ValueError as error:
            raise StoreError(
                f"the store {store.where} holds the address book entry {name!r} of "
                f"{profile.name!r} unreadable ({str(error).splitlines()[0]}); save it again, "
                "or set that record right by hand"
            ) from None
        kept.append((float(order) if isinstance(order, (int, float)) else 0.0, name, entry))
    return [entry for _, _, entry in sorted(kept, key=lambda k: (k[0], k[1]))]


def save_address(
    store: Store, profile: str, entry: Location, replacing: Sequence[Location] = ()
) -> None:
    """Keep ``entry`` in the profile's address book, in place of ``replacing`` (entries it
    stands for), in one transaction."""
    data = {**entry.model_dump(mode="json"), ORDER_KEY: time.time()}
    drop = [key_of(old) for old in replacing]
    store.put_named("address_book", profile, key_of(entry), data, drop=drop)
