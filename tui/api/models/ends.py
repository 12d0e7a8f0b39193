"""The fields of each end (origin, destination) that rate and booking requests may carry."""

from __future__ import annotations

import re
from datetime import time
from typing import Annotated

from pydantic import AfterValidator, Field, ValidationInfo, field_validator

from tui.api.models.base import OutgoingModel
from tui.api.models.values import Country, DockTime

__all__ = ["Email", "EndFields", "Phone", "PostalCode", "Text", "check_postal_code"]

_ZIP = re.compile(r"^\d{5}(-\d{4})?$")
_CANADIAN = re.compile(r"^([A-Z]\d[A-Z]) ?(\d[A-Z]\d)$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def check_postal_code(value: str) -> str:
    """A US ZIP (``30301``, ``30301-1234``) or a Canadian postal code (``H4P 2N2``)."""
    if _ZIP.match(value):
        return value
    canadian = _CANADIAN.match(value.upper())
    if canadian:
        return f"{canadian.group(1)} {canadian.group(2)}"
    raise ValueError("must be a 5-digit ZIP code like 30301 (or a Canadian one like H4P 2N2)")


def _phone(value: str | None) -> str | None:
    if value is None or value == "":
        return None
    digits = sum(ch.isdigit() for ch in value)
    if digits < 7 or digits > 15 or not re.fullmatch(r"[\d\s().+\-xX#ext]*", value):
        raise ValueError("must be a phone number like 404-555-0100")
    return value


def _email(value: str | None) -> str | None:
    if value is None or value == "":
        return None
    if not _EMAIL.match(value):
        raise ValueError("must be an email address like name@example.com")
    return value


def _blank_none(value: str | None) -> str | None:
    return value or None


PostalCode = Annotated[str, AfterValidator(check_postal_code)]
Text = Annotated[str | None, Field(default=None, max_length=200), AfterValidator(_blank_none)]
Phone = Annotated[str | None, Field(max_length=40), AfterValidator(_phone)]
Email = Annotated[str | None, Field(max_length=200), AfterValidator(_email)]
OptionalPostalCode = Annotated[str | None, AfterValidator(_blank_none)]


class EndFields(OutgoingModel):
    """Address, contact, reference, instructions and dock hours of both ends, all optional."""

    origin_company: Text = None
    origin_address: Text = None
    origin_address2: Text = None
    origin_city: Text = None
    origin_state: Text = None
    origin_country: Country = None
    origin_contact_name: Text = None
    origin_contact_phone: Phone = None
    origin_contact_email: Email = None
    origin_reference_number: Text = None
    """Order or PO number at the origin."""
    origin_instructions: Text = None
    origin_dock_hours_open: DockTime = None
    origin_dock_hours_close: DockTime = None
    dest_company: Text = None
    dest_address: Text = None
    dest_address2: Text = None
    dest_city: Text = None
    dest_state: Text = None
    dest_country: Country = None
    dest_contact_name: Text = None
    dest_contact_phone: Phone = None
    dest_contact_email: Email = None
    dest_reference_number: Text = None
    """Order or PO number at the destination."""
    dest_instructions: Text = None
    dest_dock_hours_open: DockTime = None
    dest_dock_hours_close: DockTime = None
    emergency_name: Text = None
    """Emergency contact for hazardous freight."""
    emergency_phone: Phone = None

    @field_validator("origin_dock_hours_close", "dest_dock_hours_close")
    @classmethod
    def _close_after_open(cls, value: time | None, info: ValidationInfo) -> time | None:
        assert info.field_name is not None
        opening = info.data.get(info.field_name.replace("_close", "_open"))
        if value is not None and opening is not None and value <= opening:
            raise ValueError("must be later than the opening time")
        return value
