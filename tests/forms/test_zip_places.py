"""The ZIP table: written once by a child process from the `zipcodes` data, then read in
plain Python; the places are the package's own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tui.forms import zip_places


@pytest.fixture
def unloaded() -> Iterator[None]:
    zip_places.use_index(None)
    yield
    zip_places.use_index(None)


@pytest.mark.slow
@pytest.mark.usefixtures("unloaded")
def test_the_table_is_written_once_and_gives_the_package_s_places() -> None:
    path = zip_places.table_path()
    assert not path.exists()
    zip_places.load()
    assert path.is_file()
    assert zip_places.place("60607-1234") == zip_places.ZipPlace("Chicago", "IL", "America/Chicago")
    assert zip_places.is_unknown("99999")
    written = path.stat().st_mtime_ns
    zip_places.use_index(None)
    zip_places.load()  # from the table, not written again
    assert path.stat().st_mtime_ns == written
    assert zip_places.read_table(path) == zip_places._from_package()


@pytest.mark.usefixtures("unloaded")
def test_a_table_that_cannot_be_read_falls_back_to_the_package() -> None:
    path = zip_places.table_path()
    path.parent.mkdir(parents=True)
    path.write_text("not a table\n", encoding="utf-8")
    zip_places.load()
    found = zip_places.place("30303")
    assert found is not None
    assert found.name == "Atlanta, GA"
