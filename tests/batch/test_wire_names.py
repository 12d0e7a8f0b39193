"""A request field refused (by Freight's own check or the service) is told as the file's column:
the wire names come from the request models, so a model whose alias changes is caught here."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from pydantic import BaseModel

from tui.api import models
from tui.api.errors import RequestValidationError
from tui.batch.fields import FIELD_NAMES, ColumnMapping
from tui.batch.orders import read_orders
from tui.batch.request import MODEL_FIELDS, field_error, wire_names
from tui.batch.source import parse_text

from .conftest import demo_context

MAPPING = ColumnMapping(columns={name: f"Col {name}" for name in FIELD_NAMES})
ITEM: dict[str, Any] = {
    "weight": 100, "length": 48, "width": 40, "height": 40, "quantity": 1, "package": "pallet",
}  # fmt: skip


def _body(model_name: str, attribute: str) -> dict[str, Any]:
    """A valid request but for one field of ``model_name``, given a value of no type it takes."""
    wrong = {"not": "a value"}
    item = dict(ITEM)
    body: dict[str, Any] = {
        "origin_postal_code": "60607", "dest_postal_code": "30303", "items": [item],
    }  # fmt: skip
    if model_name == "RateRequest":
        body[attribute] = wrong
    elif model_name == "RateItem":
        item[attribute] = wrong
    else:
        item["hazardous"] = True
        item["hazard"] = {attribute: wrong}
    return body


CASES = [
    (model_name, attribute, field_name)
    for model_name, names in MODEL_FIELDS.items()
    for attribute, field_name in names.items()
]


@pytest.mark.parametrize(("model_name", "attribute", "field_name"), CASES)
def test_a_refused_request_field_is_told_as_its_column(
    model_name: str, attribute: str, field_name: str
) -> None:
    assert field_name in FIELD_NAMES
    with pytest.raises(RequestValidationError) as caught:
        models.RateRequest.build(_body(model_name, attribute))
    [(path, message)] = caught.value.fields.items()
    error = field_error((7, 8), MAPPING, path, message)
    assert error.column == f"Col {field_name}", path
    assert error.row == 7


@pytest.mark.parametrize(("model_name", "attribute", "field_name"), CASES)
def test_the_service_naming_a_field_by_its_wire_name_is_told_as_its_column(
    model_name: str, attribute: str, field_name: str
) -> None:
    model: type[BaseModel] = getattr(models, model_name)
    sent_as = model.model_fields[attribute].serialization_alias
    assert sent_as is not None
    assert sent_as in wire_names(model, attribute)
    path = sent_as if model_name == "RateRequest" else f"items[1].{sent_as}"
    error = field_error((7, 8), MAPPING, path, "is refused")
    assert error.column == f"Col {field_name}"
    assert error.row == (7 if model_name == "RateRequest" else 8)


def test_the_count_is_told_as_its_column_under_either_wire_name() -> None:
    for name in ("quantity", "pieces"):
        assert field_error((3,), MAPPING, f"items[0].{name}", "x").column == "Col quantity"


def test_a_phone_the_request_refuses_is_the_rows_phone_column() -> None:
    text = (
        "Order,Ship date,Origin ZIP,ZIP,State,Phone,Package,Weight,Length,Width,Height,Class\n"
        "A1,2026-11-24,60607,30303,GA,call me,pallet,500,48,40,40,70\n"
    )
    sheet = parse_text(text)
    mapping = ColumnMapping(
        columns={
            "order": "Order",
            "ship_date": "Ship date",
            "origin_zip": "Origin ZIP",
            "dest_zip": "ZIP",
            "dest_state": "State",
            "phone": "Phone",
            "package": "Package",
            "weight": "Weight",
            "length": "Length",
            "width": "Width",
            "height": "Height",
            "class": "Class",
        }
    )
    [order] = read_orders(sheet, mapping, demo_context(date(2026, 11, 23)))
    assert not order.valid
    [error] = order.errors
    assert (error.row, error.column) == (2, "Phone")
