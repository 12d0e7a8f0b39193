"""The session owns the profile: each change is written through, comments in the file survive."""

from __future__ import annotations

import argparse
from decimal import Decimal
from pathlib import Path

from tui.config import paths
from tui.config.settings import (
    ItemTemplate,
    Location,
    Profile,
    load_config,
    save_config,
)
from tui.credentials.session import session_from_args
from tui.demo import demo_profile
from tui.domain.quote_form import ItemDraft
from tui.forms.templates import save_template
from tui.session import Session

COMMENTED = """\
# Freight settings, written by hand.
default_profile = "acme"  # the everyday account

[profiles.acme]
# The real service; ask ops before changing it.
base_url = "https://api.acme.example"
environment = "production"

[[profiles.acme.address_book]]
label = "West DC"  # the Reno one
company = "Acme West"
postal_code = "89501"

# Printers in the shipping office.
[printers]
label_printer = "zebra"  # 4x6 thermal
"""

COMMENTS = (
    "# Freight settings, written by hand.",
    "# the everyday account",
    "# The real service; ask ops before changing it.",
    "# Printers in the shipping office.",
    "# 4x6 thermal",
)

DRUM = ItemDraft(
    quantity="1",
    package="drum",
    weight="450",
    length="23",
    width="23",
    height="35",
    freight_class="60",
    description="Resin drum",
)


def _config_file() -> Path:
    file = paths.config_file()
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(COMMENTED, encoding="utf-8")
    return file


def _session(base_url: str | None = None) -> Session:
    return session_from_args(argparse.Namespace(profile="acme", base_url=base_url, demo=False))


def _keeps_comments(file: Path) -> None:
    text = file.read_text(encoding="utf-8")
    for comment in COMMENTS:
        assert comment in text, f"{comment!r} was dropped:\n{text}"
    assert text.index("[profiles.acme]") < text.index("[printers]"), "the order changed"


def test_saving_a_template_keeps_the_comments_and_adds_the_template() -> None:
    file = _config_file()
    session = _session()
    message = save_template(session, "Resin drum", DRUM)
    assert message == "Saved template “Resin drum”."
    _keeps_comments(file)
    template = load_config(file).profiles["acme"].item_templates[0]
    assert (template.name, template.weight, template.freight_class) == (
        "Resin drum",
        Decimal(450),
        Decimal(60),
    )


def test_saving_an_address_keeps_the_comments_and_the_other_entries() -> None:
    file = _config_file()
    session = _session()
    entry = Location(label="Annex", company="Lone Star Annex", postal_code="75207")
    session.change_profile(address_book=[*session.profile.address_book, entry])
    _keeps_comments(file)
    book = load_config(file).profiles["acme"].address_book
    assert [e.label for e in book] == ["West DC", "Annex"]


def test_signing_in_to_a_new_profile_keeps_the_comments() -> None:
    file = _config_file()
    session = _session()
    fresh = Profile(name="east", base_url="https://east.example", environment="sandbox")

    async def connect() -> tuple[str, str]:
        return "https://east.example", "id.secret"

    session.switch_profile(fresh, "SANDBOX", connect, save=True)
    _keeps_comments(file)
    config = load_config(file)
    assert set(config.profiles) == {"acme", "east"}
    assert session.environment == "SANDBOX"
    assert session.profile_name == "east"


def test_the_login_command_save_keeps_the_comments() -> None:
    """`freight login` writes through save_config: the same merge keeps the user's text."""
    file = _config_file()
    config = load_config(file)
    acme = config.profiles["acme"].model_copy(update={"base_url": "https://api2.acme.example"})
    save_config(config.with_profile(acme))
    _keeps_comments(file)
    assert 'base_url = "https://api2.acme.example"' in file.read_text(encoding="utf-8")


def test_a_template_saved_under_base_url_reaches_the_config_without_that_url() -> None:
    """--base-url makes the run's profile a copy; the template still lands in the config."""
    file = _config_file()
    session = _session(base_url="https://staging.acme.example")
    assert session.profile.canonical_url == "https://staging.acme.example"
    save_template(session, "Resin drum", DRUM)
    acme = load_config(file).profiles["acme"]
    assert [t.name for t in acme.item_templates] == ["Resin drum"]
    assert acme.base_url == "https://api.acme.example", "the run's URL is not written over"
    assert [t.name for t in session.profile.item_templates] == ["Resin drum"]


def test_a_template_saved_in_the_demo_is_there_in_the_next_demo(tmp_path: Path) -> None:
    session = Session.for_testing("http://127.0.0.1:1", "demo.demo-secret", data_dir=tmp_path)
    assert session.is_demo
    before = [t.name for t in session.profile.item_templates]
    save_template(session, "Resin drum", DRUM)
    again = demo_profile(data_dir=tmp_path)
    assert [t.name for t in again.item_templates] == [*before, "Resin drum"]
    assert not paths.config_file().exists(), "the demo never writes the config file"


def test_an_address_saved_in_the_demo_survives_a_new_profile_object(tmp_path: Path) -> None:
    session = Session.for_testing("http://127.0.0.1:1", "demo.demo-secret", data_dir=tmp_path)
    shared = session.profile.address_book
    entry = Location(label="Annex", company="Lone Star Annex", postal_code="75207")
    session.change_profile(address_book=[*shared, entry])
    assert entry not in shared, "the old profile's list is not changed behind its back"
    assert entry in session.profile.address_book
    assert entry in demo_profile(data_dir=tmp_path).address_book


def test_listeners_hear_of_each_change(tmp_path: Path) -> None:
    session = Session.for_testing("http://127.0.0.1:1", "demo.demo-secret", data_dir=tmp_path)
    heard: list[str] = []
    session.profile_listeners.append(lambda: heard.append(session.profile_name))
    template = ItemTemplate(name="Box", weight=Decimal(10), length=1, width=2, height=3)
    session.change_profile(item_templates=[template])
    assert heard == ["demo"]


def test_drafts_are_kept_per_profile(tmp_path: Path) -> None:
    demo = Session.for_testing("http://127.0.0.1:1", "demo.demo-secret", data_dir=tmp_path)
    demo.drafts.save("quote", {"dest_zip": "30303"})
    other = Session.for_testing("http://127.0.0.1:1", "x.y", data_dir=tmp_path)
    other.switch_profile(
        Profile(name="acme", base_url="https://api.acme.example", environment="production"),
        "PRODUCTION",
        None,
    )
    assert other.drafts.load("quote") is None, "the demo's draft is not shown in acme"
    assert demo.drafts.load("quote") == {"dest_zip": "30303"}
