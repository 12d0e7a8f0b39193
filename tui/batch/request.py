"""An order's rate request from what its rows were read as, and a field error of a request
(Freight's own check or the service's) told as the row and column of the file it came from."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Final

from pydantic import AliasChoices, AliasPath

from tui.api import models
from tui.api.errors import RequestValidationError
from tui.api.models import RateRequest
from tui.batch import values
from tui.batch.fields import ColumnMapping
from tui.batch.lines import TEXT_LIMIT
from tui.batch.model import Flags, RowError
from tui.batch.records import FIELD_LABELS, Destination, Line, OrderRows
from tui.domain.accessorials import Accessorial, parse_accessorial
from tui.domain.postal import is_canadian

if TYPE_CHECKING:
    from pydantic import BaseModel

    from tui.config.settings import Location

MODEL_FIELDS: Final[Mapping[str, Mapping[str, str]]] = {
    "RateRequest": {
        "dest_company": "dest_company", "dest_address": "dest_address",
        "dest_city": "dest_city", "dest_state": "dest_state", "dest_postal_code": "dest_zip",
        "dest_country": "dest_country", "dest_type": "dest_location",
        "dest_contact_name": "contact", "dest_contact_phone": "phone",
        "dest_contact_email": "email", "dest_reference_number": "po",
        "dest_instructions": "notes", "origin_postal_code": "origin_zip",
        "pickup_date": "ship_date",
    },
    "RateItem": {
        "quantity": "quantity", "package": "package", "weight": "weight", "length": "length",
        "width": "width", "height": "height", "freight_class": "class", "nmfc": "nmfc",
        "description": "description",
    },
    "Hazard": {
        "hazmat_id": "hazmat_un", "hazard_class": "hazard_class",
        "packing_group": "packing_group",
    },
}  # fmt: skip
"""Each request model's field (by its Python name) that a field of the file fills."""


@functools.cache
def wire_fields() -> Mapping[str, str]:
    """The file's field of each name the wire gives a request field (``destPostalCode`` ->
    ``dest_zip``; ``quantity`` and ``pieces`` -> ``quantity``), from the models' own aliases."""

    found: dict[str, str] = {}
    for model_name, names in MODEL_FIELDS.items():
        model: type[BaseModel] = getattr(models, model_name)
        for attribute, field_name in names.items():
            for wire_name in wire_names(model, attribute):
                found.setdefault(wire_name, field_name)
    return found


def wire_names(model: type[BaseModel], attribute: str) -> tuple[str, ...]:
    """Every name the wire gives a model's field: the one it is sent as, and the ones it is
    read from (``RateItem.quantity``: ``quantity``, ``pieces``)."""

    info = model.model_fields[attribute]
    names = [info.serialization_alias or info.alias or attribute]
    accepted = info.validation_alias
    choices = accepted.choices if isinstance(accepted, AliasChoices) else [accepted]
    for choice in choices:
        if isinstance(choice, str):
            names.append(choice)
        elif isinstance(choice, AliasPath) and isinstance(choice.path[-1], str):
            names.append(choice.path[-1])
    return tuple(dict.fromkeys(names))


def rate_request(
    build: OrderRows,
    origin: Location,
    dest: Destination,
    lines: Sequence[Line],
    flags: Flags,
    pickup: date,
    fields: Mapping[str, str],
    emergency: tuple[str, str],
) -> tuple[RateRequest | None, list[RowError]]:
    """The order's rate request, or the errors of its rows that keep it from being one."""

    charges: list[str] = []
    for accessorial in origin.accessorials:
        found = parse_accessorial(accessorial)
        if found is not None and found.end == "pickup":
            charges.append(str(found))
    for wanted, accessorial in (
        (flags.liftgate, Accessorial.LIFTGATE_DELIVERY),
        (flags.appointment, Accessorial.DELIVERY_APPOINTMENT),
        (flags.inside, Accessorial.INSIDE_DELIVERY),
    ):
        if wanted:
            charges.append(str(accessorial))
    hazardous = any(line.hazardous for line in lines)
    emergency_name, emergency_phone = emergency if hazardous else (None, None)
    try:
        request = RateRequest.build(
            origin_postal_code=origin.postal_code,
            origin_type=str(origin.location_type),
            origin_company=origin.company or None,
            origin_address=origin.address or None,
            origin_address2=origin.address2 or None,
            origin_city=origin.city or None,
            origin_state=origin.state or None,
            # The code decides: a Canadian warehouse left at the default country is in Canada.
            origin_country="CA" if is_canadian(origin.postal_code) else origin.country or None,
            origin_contact_name=origin.contact_name or None,
            origin_contact_phone=origin.phone or None,
            origin_contact_email=origin.email or None,
            origin_dock_hours_open=origin.dock_open,
            origin_dock_hours_close=origin.dock_close,
            origin_reference_number=build.key[:TEXT_LIMIT],
            dest_postal_code=dest.zip,
            dest_type=dest.kind,
            dest_country=dest.country,
            dest_company=_text(dest.company),
            dest_address=_text(dest.address),
            dest_city=_text(dest.city),
            dest_state=_text(dest.state),
            dest_contact_name=_text(fields.get("contact", "")),
            dest_contact_phone=_text(fields.get("phone", "")),
            dest_contact_email=_text(fields.get("email", "")),
            dest_reference_number=_text(values.strip_marks(fields.get("po", ""))),
            dest_instructions=_text(fields.get("notes", "")),
            items=[line.item() for line in lines],
            pickup_date=pickup,
            charges=charges or None,
            emergency_name=emergency_name,
            emergency_phone=emergency_phone,
        )
    except RequestValidationError as exc:
        rows = [cells.row.number for cells in build.rows]
        mapping = build.rows[0].mapping
        return None, [field_error(rows, mapping, path, text) for path, text in exc.fields.items()]
    return request, []


def field_error(
    order_rows: Sequence[int], mapping: ColumnMapping, path: str, message: str
) -> RowError:
    """A field error of a request (ours or the service's) as the row and column it came from."""

    line = re.match(r"^items\[(\d+)\]\.?(.*)$", path)
    row = order_rows[0] if order_rows else None
    name = path
    if line:
        number = int(line[1])
        if number < len(order_rows):
            row = order_rows[number]
        name = line[2].split(".")[-1] if line[2] else "items"
    field_name = wire_fields().get(name)
    column: str | None
    if field_name is not None:
        column = mapping.column_of(field_name) or FIELD_LABELS.get(field_name, field_name)
    else:
        column = path or None
    return RowError(row, column, None, message)


def _text(value: str) -> str | None:
    text = " ".join(value.split())
    return text[:TEXT_LIMIT] or None
