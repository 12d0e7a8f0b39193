"""A shipment record's accessorials read leniently: names, named objects or one text; under
the keys a server may use; the location type for residential and limited-access ends; never
the linehaul or fuel; an unknown name shown as plain text."""

from __future__ import annotations

from typing import Any

import pytest

from tui.api.models import ShipmentDetail
from tui.listing.accessorials import accessorials_of
from tui.listing.detail_text import accessorials_text


def shown(record: dict[str, Any]) -> str:
    return str(accessorials_text(ShipmentDetail.model_validate({"id": "shp_1", **record})))


def test_the_sandbox_s_shape_names_and_location_types() -> None:
    record = {
        "accessorials": ["arrival schedule", "liftgate delivery"],
        "originType": "business dock",
        "destType": "residential",
        "destination": {"city": "Atlanta", "locationType": "residential"},
    }
    assert shown(record) == (
        "Accessorials  Residential delivery · Delivery appointment · Liftgate at delivery"
    )


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ({"accessorials": "Liftgate, inside delivery ,APPT"},
         ["Liftgate at delivery", "Inside delivery", "Delivery appointment"]),
        ({"accessorialServices": [{"code": "LGDL"}, {"name": "Sort & segregate"}, 7, None]},
         ["Liftgate at delivery", "Sort and segregate"]),
        ({"charges": [{"name": "linehaul", "amount": 200}, {"name": "Fuel surcharge"},
                      {"name": "liftgate-delivery", "amount": 95}, "arrival notice"]},
         ["Liftgate at delivery", "Notify before delivery"]),
        ({"origin": {"locationType": "Limited-Access"},
          "destination": {"type": "business no dock"}},
         ["Limited access pickup", "No dock delivery"]),
        ({"destType": "igloo", "accessorials": ["residential delivery"]},
         ["igloo delivery", "Residential delivery"]),
        ({"destType": "Residential", "accessorials": ["residential delivery"]},
         ["Residential delivery"]),
        ({"accessorials": {"liftgate": True}, "charges": 12, "originType": None}, []),
    ],
)  # fmt: skip
def test_read_leniently(record: dict[str, Any], expected: list[str]) -> None:
    assert accessorials_of(record) == expected


def test_server_text_stays_plain_and_none_is_said() -> None:
    text = shown({"accessorials": ["[b]white glove[/b]\x1b[2J\x07"]})
    assert "[b]White glove[/b]" in text.replace("[b]w", "[b]W")
    assert "\x1b" not in text
    assert "\x07" not in text
    assert shown({}) == "Accessorials  none listed"
