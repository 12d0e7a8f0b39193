"""The demo's profile: a dock in Chicago, a few consignees and templates, plus the edits kept."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.domain.locations import parse_location_type
from tui.drafts import write_atomically

if TYPE_CHECKING:
    from tui.config.settings import Profile

DEMO_EDITS_FILE = "demo-profile.json"
"""In the data dir: the demo profile's address book, templates and origin as edited
("demo" is a reserved name in the config file, so the demo's edits are kept here)."""


DEMO_ORIGIN: dict[str, str] = {
    "label": "Acme dock",
    "company": "Acme Dock Co",
    "address": "1200 W Lake St",
    "city": "Chicago",
    "state": "IL",
    "postal_code": "60607",
    "contact_name": "Pat Doyle",
    "phone": "312-555-0142",
    "email": "shipping@acme-dock.example",
    "dock_open": "08:00",
    "dock_close": "16:00",
    "location_type": "business-dock",
}
"""The demo's dock, as shipped: its default origin and first address-book entry."""


def demo_origin(data_dir: Path) -> tuple[str, str, tuple[str, ...]] | None:
    """The demo's default origin as ZIP code, location type and usual accessorials, read from
    the saved edits without building the typed profile (the first frame shows it): the
    shipped dock unless the edits name another one, or none."""

    edits = load_demo_edits(data_dir)
    origin = edits.get("default_origin", DEMO_ORIGIN)
    if origin is None:
        return None
    if isinstance(origin, dict) and isinstance(origin.get("postal_code"), str):
        names = origin.get("accessorials", [])
        try:
            kind = parse_location_type(origin.get("location_type", "business-dock"))
        except ValueError:
            kind = None
        if kind is not None and isinstance(names, list):
            return origin["postal_code"], str(kind), tuple(str(name) for name in names)
    return DEMO_ORIGIN["postal_code"], DEMO_ORIGIN["location_type"], ()


def demo_profile(base_url: str = "http://127.0.0.1:8750", data_dir: Path | None = None) -> Profile:
    """A profile with docks in Chicago and Atlanta, a few consignees and item templates.

    With ``data_dir``, the edits made in earlier demo runs (saved addresses, templates) apply.
    """
    from tui.config.settings import ItemTemplate, Location, Profile

    origin = Location.model_validate(DEMO_ORIGIN)
    book = [
        origin,
        Location(
            label="Peach Retail",
            company="Peach Retail",
            address="88 Peachtree St NE",
            city="Atlanta",
            state="GA",
            postal_code="30303",
            contact_name="Sam Lee",
            phone="404-555-0199",
            email="receiving@peach-retail.example",
            dock_open="07:00",
            dock_close="15:30",
            location_type="business-no-dock",
        ),
        Location(
            label="Lone Star DC",
            company="Lone Star Distribution",
            address="2400 Irving Blvd",
            city="Dallas",
            state="TX",
            postal_code="75207",
            contact_name="Alex Ruiz",
            phone="214-555-0110",
            email="dock@lonestar-dc.example",
            dock_open="06:00",
            dock_close="14:00",
            location_type="business-dock",
        ),
        Location(
            label="J. Rivera (home)",
            company="Jordan Rivera",
            address="17 Maple Ave",
            city="Oak Park",
            state="IL",
            postal_code="60302",
            contact_name="Jordan Rivera",
            phone="708-555-0123",
            email="jrivera@example.com",
            location_type="residential",
        ),
        Location(
            label="Acme Atlanta",
            company="Acme Dock Co",
            address="4500 Fulton Industrial Blvd SW",
            city="Atlanta",
            state="GA",
            postal_code="30336",
            contact_name="Dana Brooks",
            phone="404-555-0156",
            email="atlanta@acme-dock.example",
            dock_open="07:00",
            dock_close="15:00",
            location_type="business-dock",
        ),
    ]
    templates = [
        ItemTemplate(
            name="Std pallet machine parts",
            quantity=1,
            package="pallet",
            weight=Decimal("800"),
            length=Decimal("48"),
            width=Decimal("40"),
            height=Decimal("48"),
            freight_class=None,
            description="Machine parts",
        ),
        ItemTemplate(
            name="Parcel carton",
            quantity=1,
            package="box",
            weight=Decimal("18"),
            length=Decimal("16"),
            width=Decimal("12"),
            height=Decimal("10"),
            freight_class=None,
            description="Spare parts",
        ),
    ]
    profile = Profile(
        name="demo",
        base_url=base_url,
        environment="sandbox",
        default_origin=origin,
        address_book=book,
        item_templates=templates,
        emergency_name="Acme Safety Desk",
        emergency_phone="312-555-0177",
    )
    edits = load_demo_edits(data_dir) if data_dir is not None else {}
    if edits:
        try:
            return Profile.model_validate({**profile.model_dump(), **edits})
        except ValueError:  # an unreadable edits file: the demo as shipped
            return profile
    return profile


def load_demo_edits(data_dir: Path) -> dict[str, Any]:
    """The demo profile's saved edits (address book, templates, origin); {} when none."""
    try:
        text = (data_dir / DEMO_EDITS_FILE).read_text(encoding="utf-8")
    except (OSError, ValueError):
        return {}

    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def save_demo_edits(data_dir: Path, profile: Profile) -> None:
    """Keep the demo profile's editable parts in the data dir ("demo" is reserved in the config)."""

    edits = profile.model_dump_json(
        include={"default_origin", "address_book", "item_templates"}, indent=1
    )
    write_atomically(data_dir / DEMO_EDITS_FILE, edits)
