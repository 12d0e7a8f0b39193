"""Templates carry hazmat data and addresses their usual accessorials, through the config file."""

from __future__ import annotations

import argparse
from dataclasses import replace

import pytest
from pydantic import ValidationError

from tui.config import paths
from tui.config.settings import ItemTemplate, Location, load_config
from tui.credentials.session import session_from_args
from tui.domain.quote_form import ItemDraft
from tui.forms.templates import item_from_template, save_template, template_line
from tui.session import Session

OLD = """\
default_profile = "acme"

[profiles.acme]
base_url = "https://api.acme.example"
environment = "sandbox"

[[profiles.acme.address_book]]
label = "Mrs Ortiz"  # the usual residential customer
postal_code = "90001"
location_type = "residential"

[[profiles.acme.item_templates]]
name = "Std pallet"
weight = 800
length = 48
width = 40
height = 48
"""

PAINT = ItemDraft(
    quantity="1", package="drum", weight="400", length="24", width="24", height="36",
    description="Paint", nmfc="149980-2", stackable=False, hazardous=True,
    hazmat_id="1263", hazard_class="3", packing_group="2",
)  # fmt: skip


def _session() -> Session:
    file = paths.config_file()
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(OLD, encoding="utf-8")
    return session_from_args(argparse.Namespace(profile="acme", base_url=None, demo=False))


def test_an_old_config_loads_with_the_new_fields_at_their_defaults() -> None:
    session = _session()
    profile = session.profile
    assert profile.address_book[0].accessorials == []
    template = profile.item_templates[0]
    assert (template.stackable, template.hazardous, template.nmfc) == (True, False, "")


def test_a_hazmat_template_is_saved_in_the_file_and_fills_a_row_again() -> None:
    session = _session()
    assert save_template(session, "Paint drum", PAINT) == "Saved template “Paint drum”."
    text = paths.config_file().read_text(encoding="utf-8")
    assert "# the usual residential customer" in text
    assert 'hazmat_id = "UN1263"' in text
    assert "stackable = false" in text
    saved = load_config(paths.config_file()).profiles["acme"].item_templates[1]
    row = item_from_template(saved)
    assert row == replace(PAINT, nmfc="149980-02", hazmat_id="UN1263", packing_group="II")
    assert template_line(saved).endswith("Paint · HM UN1263 3")
    # the old template was not rewritten with defaults
    assert text.count("stackable") == 1


def test_an_address_keeps_its_usual_accessorials_in_the_services_words() -> None:
    session = _session()
    home = session.profile.address_book[0].model_copy(
        update={"accessorials": ["liftgate delivery", "arrival schedule"]}
    )
    session.change_profile(address_book=[home])
    text = paths.config_file().read_text(encoding="utf-8")
    assert 'accessorials = ["liftgate delivery", "arrival schedule"]' in text
    assert "# the usual residential customer" in text
    loaded = Location(postal_code="90001", accessorials=["Delivery appointment", "liftgate"])
    assert loaded.accessorials == ["arrival schedule", "liftgate delivery"]


def test_wrong_values_are_refused_with_a_reason() -> None:
    with pytest.raises(ValidationError, match="unknown accessorial 'teleport'"):
        Location(postal_code="90001", accessorials=["teleport"])
    with pytest.raises(ValidationError, match="UN number"):
        ItemTemplate(name="x", weight=1, length=1, width=1, height=1, hazmat_id="12")
    with pytest.raises(ValidationError, match="needs hazmat_id and hazard_class"):
        ItemTemplate(name="x", weight=1, length=1, width=1, height=1, hazardous=True)
