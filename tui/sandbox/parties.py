"""Read both ends (address, contact, reference, instructions, dock hours), the shipment's
references, the hazmat emergency contact and billing fields."""

from __future__ import annotations

from typing import Any

from tui.sandbox import formats
from tui.sandbox.errors import FieldErrors
from tui.sandbox.fields import text

SIDES = (("origin", "origin"), ("dest", "destination"))
#: per-end text fields: wire suffix -> key in the address block (synonyms after the spec's)
END_TEXT = {
    "Company": "company", "Address": "address", "Address1": "address",
    "Address2": "address2", "City": "city", "State": "state",
    "ContactName": "contactName", "Contact": "contactName",
    "ContactPhone": "contactPhone", "Phone": "contactPhone",
    "ContactEmail": "contactEmail", "Email": "contactEmail",
    "ReferenceNumber": "referenceNumber", "Reference": "referenceNumber",
    "Instructions": "instructions", "SpecialInstructions": "instructions", "Notes": "instructions",
}  # fmt: skip
#: top-level references: wire name -> stored key
REFERENCES = {
    "reference": "reference", "referenceNumber": "reference", "shipperReference": "reference",
    "poNumber": "poNumber", "purchaseOrderNumber": "poNumber", "orderNumber": "poNumber",
}  # fmt: skip
EMERGENCY = {
    "emergencyName": "name", "emergencyContactName": "name",
    "emergencyPhone": "phone", "emergencyContactPhone": "phone",
}  # fmt: skip


def end_block(data: dict[str, Any], prefix: str, errors: FieldErrors) -> dict[str, str]:
    """The address, contact, reference and dock-hour fields of one end that were sent."""
    block: dict[str, str] = {}
    for suffix, key in END_TEXT.items():
        value = text(data.get(prefix + suffix), prefix + suffix, errors)
        if value and key not in block:
            block[key] = value
    email = block.get("contactEmail")
    if email and ("@" not in email or "." not in email.rsplit("@", 1)[-1]):
        errors.add(prefix + "ContactEmail", "must be an email address like name@example.com")
    for suffix, key in (("DockHoursOpen", "dockHoursOpen"), ("DockHoursClose", "dockHoursClose")):
        value = data.get(prefix + suffix)
        if value is None or value == "":
            continue
        parsed = formats.dock_time(value) if isinstance(value, str) else None
        if parsed is None:
            errors.add(prefix + suffix, f"must be {formats.HOURS_TEXT}")
        else:
            block[key] = parsed
    opens, closes = block.get("dockHoursOpen"), block.get("dockHoursClose")
    if opens and closes and closes <= opens:
        errors.add(prefix + "DockHoursClose", f"must be later than {prefix}DockHoursOpen")
    return block


def shared_details(data: dict[str, Any], errors: FieldErrors) -> dict[str, Any]:
    """Ends, references, emergency contact and billing fields, as sent (both endpoints)."""
    details: dict[str, Any] = {side: end_block(data, prefix, errors) for prefix, side in SIDES}
    references: dict[str, str] = {}
    for wire, key in REFERENCES.items():
        value = text(data.get(wire), wire, errors)
        if value and key not in references:
            references[key] = value
    emergency: dict[str, str] = {}
    for wire, key in EMERGENCY.items():
        value = text(data.get(wire), wire, errors)
        if value and key not in emergency:
            emergency[key] = value
    bill = {
        key: value
        for key, value in (
            ("postalCode", text(data.get("billPostalCode"), "billPostalCode", errors)),
            ("country", text(data.get("billCountry"), "billCountry", errors)),
        )
        if value
    }
    details.update(references=references, emergency=emergency, bill=bill)
    return details
