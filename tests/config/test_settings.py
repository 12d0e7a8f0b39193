"""The config file: typed, round-trips, and its errors point at file, key and line."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from tui.config import paths
from tui.config.settings import (
    PLACEHOLDER_BASE_URL,
    AppConfig,
    ConfigError,
    ItemTemplate,
    Location,
    PrinterSettings,
    Profile,
    load_config,
    save_config,
)

ACME = "profiles.acme"
BOOK = "profiles.acme.address_book"
GOOD = """\
default_profile = "acme"
credential_store = "keyring"

[profiles.acme]
base_url = "https://api.acme.example"
environment = "production"
booking_aliases = { proNumber = ["pro", "PRO"] }

[profiles.acme.search_params]
search = "q"

[profiles.acme.default_origin]
company = "Acme Widgets"
address = "1 Dock Rd"
city = "Chicago"
state = "IL"
postal_code = "60601"
contact_name = "Pat"
phone = "312-555-0100"
email = "pat@acme.example"
dock_open = "07:30"
dock_close = "16:00"

[[profiles.acme.address_book]]
label = "West DC"
company = "Acme West"
city = "Reno"
state = "NV"
postal_code = "89501"
location_type = "distribution-center"

[[profiles.acme.address_book]]
label = "Home"
postal_code = "10001"
location_type = "residential"

[[profiles.acme.item_templates]]
name = "Std pallet"
weight = 450.5
length = 48
width = 40
height = 50
freight_class = 77.5

[printers]
label_printer = "zebra"
label_format = "zpl"
"""


def _write(tmp_path: Path, text: str) -> Path:
    file = tmp_path / "config.toml"
    file.write_text(text, encoding="utf-8")
    return file


def test_missing_file_gives_a_sandbox_profile_to_configure(tmp_path: Path) -> None:
    config = load_config(tmp_path / "absent.toml")
    assert config.default_profile == "sandbox"
    assert config.profiles["sandbox"].environment == "sandbox"
    assert config.profiles["sandbox"].base_url == PLACEHOLDER_BASE_URL
    assert config.credential_store == "auto"


def test_full_file_is_read_with_types(tmp_path: Path) -> None:
    config = load_config(_write(tmp_path, GOOD))
    acme = config.profiles["acme"]
    assert acme.name == "acme"
    assert acme.canonical_url == "https://api.acme.example"
    assert acme.search_params["search"] == "q"
    assert acme.search_params["continuationToken"] == "continuationToken"
    assert acme.booking_aliases == {"proNumber": ["pro", "PRO"]}
    assert acme.default_origin is not None
    assert acme.default_origin.dock_open == "07:30"
    assert acme.default_origin.location_type == "business-dock"
    assert [a.label for a in acme.address_book] == ["West DC", "Home"]
    assert acme.item_templates[0].weight == Decimal("450.5")
    assert acme.item_templates[0].freight_class == Decimal("77.5")
    assert config.printers.label_printer == "zebra"


def test_save_then_load_preserves_everything(tmp_path: Path) -> None:
    config = load_config(_write(tmp_path, GOOD))
    out = tmp_path / "sub" / "again.toml"
    save_config(config, out)
    assert load_config(out) == config
    assert "name =" not in out.read_text().split("[profiles.acme]")[1].split("\n[")[0]


def test_save_writes_to_config_path_by_default_and_replaces_atomically() -> None:
    config = AppConfig(
        default_profile="p",
        profiles={
            "p": Profile(
                name="p",
                base_url="http://localhost:9000",
                environment="sandbox",
                address_book=[Location(label="x", postal_code="60601", dock_open="08:00")],
                item_templates=[
                    ItemTemplate(name="box", weight=Decimal(10), length=1, width=2, height=3)
                ],
            )
        },
        printers=PrinterSettings(label_format="pdf"),
    )
    written = save_config(config)
    assert written == paths.config_file()
    assert load_config() == config
    assert [p.name for p in written.parent.iterdir()] == ["config.toml"]


def _error(tmp_path: Path, text: str) -> ConfigError:
    file = _write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(file)
    assert str(file) in str(caught.value)
    return caught.value


def test_unknown_key_names_file_key_and_line(tmp_path: Path) -> None:
    error = _error(tmp_path, GOOD.replace('label = "Home"', 'label = "Home"\ncitty = "NYC"'))
    assert error.key == "profiles.acme.address_book[1].citty"
    assert error.line == GOOD.splitlines().index('label = "Home"') + 2
    assert "unknown key" in str(error)
    assert f"line {error.line}" in str(error)


def test_bad_value_names_key_and_line(tmp_path: Path) -> None:
    error = _error(tmp_path, GOOD.replace('dock_close = "16:00"', 'dock_close = "4pm"'))
    assert error.key == "profiles.acme.default_origin.dock_close"
    assert error.line == GOOD.splitlines().index('dock_close = "16:00"') + 1
    assert "HH:MM" in error.message


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('environment = "production"', 'environment = "prod"', "profiles.acme.environment"),
        ("freight_class = 77.5", "freight_class = 42", f"{ACME}.item_templates[0].freight_class"),
        ('location_type = "residential"', 'location_type = "x"', f"{BOOK}[1].location_type"),
        ('base_url = "https://api.acme.example"', 'base_url = "ftp://x"', "profiles.acme.base_url"),
        ('search = "q"', 'serch = "q"', "profiles.acme.search_params.serch"),
        ('label_format = "zpl"', 'label_format = "epl"', "printers.label_format"),
        ('credential_store = "keyring"', 'credential_store = "vault"', "credential_store"),
    ],
)  # fmt: skip
def test_each_bad_value_points_at_its_key(tmp_path: Path, old: str, new: str, key: str) -> None:
    assert old in GOOD
    error = _error(tmp_path, GOOD.replace(old, new))
    assert error.key == key
    assert error.line == GOOD.splitlines().index(old) + 1


def test_missing_required_key_points_at_its_table(tmp_path: Path) -> None:
    error = _error(tmp_path, GOOD.replace('environment = "production"\n', ""))
    assert error.key == "profiles.acme.environment"
    assert error.line == GOOD.splitlines().index("[profiles.acme]") + 1
    assert "missing" in error.message


def test_unknown_default_profile_is_named(tmp_path: Path) -> None:
    error = _error(tmp_path, GOOD.replace('default_profile = "acme"', 'default_profile = "nope"'))
    assert "'nope'" in error.message
    assert "acme" in error.message


DEMO = '[profiles.demo]\nbase_url = "http://x"\nenvironment = "sandbox"\n'


def test_demo_is_a_reserved_profile_name(tmp_path: Path) -> None:
    error = _error(tmp_path, GOOD.replace("[profiles.acme]", DEMO + "[profiles.acme]"))
    assert "reserved" in error.message


def test_broken_toml_names_the_file_and_line(tmp_path: Path) -> None:
    error = _error(tmp_path, 'default_profile = "acme\n')
    assert "line 1" in str(error)
    assert "not valid TOML" in str(error)


def test_the_documented_example_config_is_valid(tmp_path: Path) -> None:
    page = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
    example = page.read_text(encoding="utf-8").split("```toml\n", 1)[1].split("```", 1)[0]
    config = load_config(_write(tmp_path, example))
    acme = config.profiles["acme"]
    assert acme.environment == "production"
    assert acme.search_params["search"] == "q"
    assert acme.item_templates[0].freight_class == Decimal(85)
