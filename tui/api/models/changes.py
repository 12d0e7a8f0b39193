"""Changes after a booking: a pickup asked for or moved, and what the service answers."""

from __future__ import annotations

from datetime import date, time
from typing import Any

from pydantic import AliasChoices, AliasPath, BaseModel, ConfigDict, Field, model_validator

from tui.api.models.base import IncomingModel, LenientDate

__all__ = ["CancelResult", "PickupChange", "PickupResult"]


class PickupChange(BaseModel):
    """A pickup to ask for or to move to: the day and the window the freight is ready in."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pickup_date: date
    ready: time = time(8, 0)
    close: time = time(16, 0)

    @model_validator(mode="after")
    def _window(self) -> PickupChange:
        if self.close <= self.ready:
            raise ValueError("the close time must be after the ready time")
        return self

    def wire_body(self, wire: Any) -> dict[str, str]:
        """The body in ``wire``'s names and time spelling."""
        names = wire.changes
        return {
            names.pickup_date: self.pickup_date.isoformat(),
            names.ready_time: wire.time(self.ready),
            names.close_time: wire.time(self.close),
        }


class CancelResult(IncomingModel):
    """A shipment canceled (``already``: it was canceled before this request)."""

    shipment_id: str = ""
    status: str = "canceled"
    already: bool = False


class PickupResult(IncomingModel):
    """A pickup scheduled, moved or canceled, as the service answered."""

    shipment_id: str = ""
    status: str = ""
    pickup_confirmation: str | None = Field(
        default=None,
        validation_alias=AliasChoices(
            "pickupConfirmation", "pickup_confirmation", "confirmationNumber",
            AliasPath("pickup", "number"), AliasPath("pickup", "confirmationNumber"),
        ),
    )  # fmt: skip
    pickup_date: LenientDate | None = Field(
        default=None,
        validation_alias=AliasChoices(
            "pickupDate", "pickup_date", AliasPath("pickup", "date"),
            AliasPath("pickup", "pickupDate"),
        ),
    )  # fmt: skip
    ready_time: str | None = None
    close_time: str | None = None
