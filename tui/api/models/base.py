"""Base model configs and field types shared by every wire model."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Annotated, Any, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
)
from pydantic.alias_generators import to_camel

from tui.api.errors import RequestValidationError
from tui.api.models.lenient import validate_leniently

__all__ = [
    "AwareDatetime",
    "IncomingModel",
    "LenientDate",
    "LenientInt",
    "OutgoingModel",
    "RawModel",
    "WireDecimal",
]


def _assume_utc(value: datetime) -> datetime:
    """A naive datetime from a server is taken as UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _date_part(value: Any) -> Any:
    """Accept a date-time where a date is expected (the date as written, in its own offset)."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, str) and len(value) > 10 and value[4:5] == "-" and value[10] in "T ":
        return value[:10]
    return value


def _whole_number(value: Any) -> Any:
    """Accept ``2``, ``"2"``, ``2.0`` and round up a fractional count of days (``2.5`` -> 3)."""
    if isinstance(value, int | None):
        return value
    if isinstance(value, str):
        value = value.strip()
        if value == "":
            return None
    try:
        number = Decimal(str(value))
    except ArithmeticError:
        return value
    if not number.is_finite():
        return value
    return int(number.to_integral_value(rounding="ROUND_CEILING"))


def _json_number(value: Decimal) -> int | float:
    """Serialize a Decimal as a JSON number: an int when whole, else the float of the same digits.

    Exact for up to 15 significant digits (outgoing values are bounded to 12).
    """
    return int(value) if value == value.to_integral_value() else float(value)


AwareDatetime = Annotated[datetime, AfterValidator(_assume_utc)]
LenientDate = Annotated[date, BeforeValidator(_date_part)]
LenientInt = Annotated[int, BeforeValidator(_whole_number)]
WireDecimal = Annotated[Decimal, PlainSerializer(_json_number, when_used="json")]


class IncomingModel(BaseModel):
    """Lenient: camelCase or snake_case keys, unknown fields kept, numbers as strings accepted,
    and a value of the wrong type in an optional field falls back instead of failing."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="allow",
        coerce_numbers_to_str=True,
        ser_json_inf_nan="constants",
    )

    @classmethod
    def model_validate(cls, obj: Any, *args: Any, **kwargs: Any) -> Self:
        """Validate ``obj``, repairing values of unexpected types (see ``validate_leniently``)."""

        strict = super().model_validate
        return validate_leniently(lambda data: strict(data, *args, **kwargs), obj)


class RawModel(IncomingModel):
    """An incoming top-level record that keeps the JSON it was read from in ``raw``."""

    raw: dict[str, Any] = Field(default_factory=dict, exclude=True, repr=False)

    @classmethod
    def model_validate(cls, obj: Any, *args: Any, **kwargs: Any) -> Self:
        """Validate leniently and keep ``obj`` (as sent, before any repair) in ``raw``."""
        model = super().model_validate(obj, *args, **kwargs)
        model.__dict__["raw"] = obj if isinstance(obj, dict) else {}
        return model


class OutgoingModel(BaseModel):
    """Strict: validated field by field before sending; serialized with wire names."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        str_strip_whitespace=True,
    )

    def wire_json(self, wire: Any = None) -> bytes:
        """The JSON body to send: wire names and spellings of ``wire`` (a ``WireFormat``;
        default: the real service's), no nulls, numbers as JSON numbers."""
        context = {"wire": wire} if wire is not None else None
        return self.model_dump_json(by_alias=True, exclude_none=True, context=context).encode()

    def wire_dict(self, wire: Any = None) -> dict[str, Any]:
        """The body as a dict of JSON-ready values (for display or logs)."""
        context = {"wire": wire} if wire is not None else None
        return self.model_dump(mode="json", by_alias=True, exclude_none=True, context=context)

    @classmethod
    def build(cls, data: Any = None, /, **fields: Any) -> Self:
        """Validate ``data`` (a mapping) or keyword fields; raise ``RequestValidationError``."""

        try:
            return cls.model_validate(data if data is not None else fields)
        except ValidationError as exc:
            raise RequestValidationError.from_pydantic(exc) from None
