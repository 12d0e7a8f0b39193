"""Changes after a booking, over a ``FreightClient``: cancel a shipment; ask for, move or
cancel its pickup. Each is sent once; a refusal is a ``ChangeRefusedError``.

A cancel the service refuses because the shipment is already canceled is a success
(``CancelResult.already``): whether it was is read from the shipment's detail, so it holds
whatever the service's error says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.api.errors import ApiError, ChangeRefusedError, NotFoundError
from tui.api.models.changes import CancelResult, PickupChange, PickupResult

if TYPE_CHECKING:
    from tui.api.client import FreightClient

__all__ = ["ShipmentChanges"]

_REFUSED = (409, 410, 412, 422, 423)
"""Statuses a service refuses a change with (400: a field error, kept as such)."""


class ShipmentChanges:
    """Cancel and pickup changes of one client's shipments."""

    def __init__(self, client: FreightClient) -> None:
        self.client = client

    async def cancel(self, shipment_id: str) -> CancelResult:
        """Cancel the shipment; ``already`` when it was canceled before."""
        try:
            data = await self.client.change("cancel", shipment_id)
        except ApiError as exc:
            if exc.status not in _REFUSED or isinstance(exc, NotFoundError):
                raise
            detail = await self.client.get_shipment(shipment_id)
            if detail.status == "canceled":
                return CancelResult(shipment_id=shipment_id, status="canceled", already=True)
            raise ChangeRefusedError.from_error(exc, "cancel") from None
        result = CancelResult.model_validate(data)
        return result.model_copy(update={"shipment_id": result.shipment_id or shipment_id})

    async def request_pickup(self, shipment_id: str, pickup: PickupChange) -> PickupResult:
        """Ask for a pickup where the shipment has none."""
        return await self._pickup("pickup_request", shipment_id, pickup, "ask for a pickup")

    async def change_pickup(self, shipment_id: str, pickup: PickupChange) -> PickupResult:
        """Move the shipment's pickup to another day or window."""
        return await self._pickup("pickup_change", shipment_id, pickup, "move the pickup")

    async def cancel_pickup(self, shipment_id: str) -> PickupResult:
        """Cancel the shipment's pickup (the shipment stays booked)."""
        return await self._pickup("pickup_cancel", shipment_id, None, "cancel the pickup")

    async def _pickup(
        self, which: str, shipment_id: str, pickup: PickupChange | None, what: str
    ) -> PickupResult:
        body = pickup.wire_body(self.client.options.wire) if pickup is not None else None
        try:
            data = await self.client.change(which, shipment_id, body)
        except ApiError as exc:
            refused = exc.status in _REFUSED or (
                isinstance(exc, NotFoundError) and "pickup" in (exc.name or "").lower()
            )
            if not refused:
                raise
            raise ChangeRefusedError.from_error(exc, what) from None
        result = PickupResult.model_validate(data)
        update: dict[str, object] = {"shipment_id": result.shipment_id or shipment_id}
        if pickup is not None and result.pickup_date is None:
            update["pickup_date"] = pickup.pickup_date
        return result.model_copy(update=update)
