"""The records' field names (``freight shipments``, the app's export) are the service's own
camelCase names where it has one: each is checked against the models' wire aliases, so a model
whose alias changes fails here instead of the records drifting from the wire."""

from __future__ import annotations

from pydantic import BaseModel

from tui.api.models import RateRequest, Shipment
from tui.export import SHIPMENT_FIELDS
from tui.listing.rows import ShipmentRow

FREIGHTS_OWN = frozenset(
    {"carrier", "scac", "total", "currency", "shipmentId", "trackingNumbers", "customerReference",
     "bookingReference", "order"}
)  # fmt: skip
"""Names Freight gives what it adds, or gives a wire field so that one thing has one name
across every command (the glossary: ``id`` is ``shipmentId``, ``trackingNumber`` a list
``trackingNumbers``, the shipment's ``reference`` the ``customerReference`` unless it is
Freight's own ``bookingReference``; ``order`` is the batch's, from the store)."""


def wire_aliases(model: type[BaseModel]) -> set[str]:
    return {
        info.serialization_alias or info.alias or name for name, info in model.model_fields.items()
    }


def test_every_shipment_record_name_is_a_wire_name_of_the_models() -> None:
    known = wire_aliases(Shipment) | wire_aliases(RateRequest)
    drifted = [name for name in SHIPMENT_FIELDS.names if name not in known | FREIGHTS_OWN]
    assert drifted == []


def test_the_service_named_fields_read_the_model_field_of_that_wire_name() -> None:
    by_alias = {
        info.serialization_alias or info.alias: name for name, info in Shipment.model_fields.items()
    }
    for record_name in ("proNumber", "bolNumber", "serviceType", "quoteId"):
        attribute = by_alias[record_name]
        shipment = Shipment.model_validate({"id": "S-1", attribute: f"value of {attribute}"})
        row = ShipmentRow.of(shipment)
        record = SHIPMENT_FIELDS.record(row, SHIPMENT_FIELDS.select(record_name))
        assert record == {record_name: f"value of {attribute}"}
