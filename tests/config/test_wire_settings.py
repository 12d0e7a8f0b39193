"""A profile's [wire] table: read from the file, errors at their key, mapped to client options."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.config.settings import ConfigError, load_config
from tui.domain.locations import LocationType
from tui.session import client_options_for

CONFIG = """\
default_profile = "acme"

[profiles.acme]
base_url = "https://api.acme.example"
environment = "production"
booking_aliases = { proNumber = ["pro"] }

[profiles.acme.search_params]
search = "q"

[profiles.acme.wire]
time_format = "24h"
item_count = "quantity"
location_types = { "Business Dock" = "COMMERCIAL" }
package_labels = { Pallets = "PLT" }
search_params = { limit = "pageSize" }
booking_aliases = { bolNumber = ["billOfLadingNo"] }
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_wire_table_reaches_the_clients_wire_format(tmp_path: Path) -> None:
    profile = load_config(_write(tmp_path, CONFIG)).profiles["acme"]
    wire = client_options_for(profile).wire
    assert wire.location(LocationType.BUSINESS_DOCK) == "COMMERCIAL"
    assert wire.location(LocationType.PIER) == "pier"
    assert wire.time_format == "24h"
    assert wire.item_count == ("quantity",)
    assert wire.package("pallet") == "PLT"
    assert wire.package("box") == "Boxes"
    assert (wire.shipment_params.text, wire.shipment_params.page_size) == ("q", "pageSize")
    assert wire.booking_aliases["pro_number"][0] == "pro"
    assert wire.booking_aliases["bol_number"][0] == "billOfLadingNo"


def test_a_profile_without_wire_speaks_the_real_vocabulary(tmp_path: Path) -> None:
    text = CONFIG.split("[profiles.acme.wire]")[0]
    wire = client_options_for(load_config(_write(tmp_path, text)).profiles["acme"]).wire
    assert wire.location(LocationType.BUSINESS_NO_DOCK) == "business no dock"
    assert (wire.time_format, wire.item_count, wire.package("pallet")) == (
        "12h",
        ("quantity", "pieces"),
        "Pallets",
    )


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('time_format = "24h"', 'time_format = "13h"', "profiles.acme.wire.time_format"),
        ('"Business Dock" = ', '"moon base" = ', "profiles.acme.wire.location_types"),
        ('limit = "pageSize"', 'size = "pageSize"', "profiles.acme.wire.search_params"),
    ],
)
def test_a_bad_wire_value_is_named_at_its_key(tmp_path: Path, old: str, new: str, key: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(_write(tmp_path, CONFIG.replace(old, new)))
    assert info.value.key is not None
    assert info.value.key.startswith(key)
