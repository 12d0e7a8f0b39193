"""A listed shipment as the list holds it: one slotted record, no raw JSON, shared strings.

A pydantic `Shipment` with its raw JSON costs about 8 KB; this record under 1 KB, which keeps
100,000 loaded rows affordable. `to_shipment()` rebuilds the model when a row is opened.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from tui.api.models import Address, CarrierRef, Cost, Shipment


def _shared(text: str | None) -> str | None:
    """Intern short repeated words (cities, states, statuses, carriers) so rows share them."""
    return sys.intern(text) if text is not None and len(text) <= 40 else text


@dataclass(frozen=True, slots=True)
class Place:
    """An address block reduced to what the list, the CSV and the detail header use."""

    company: str | None
    address: str | None
    city: str | None
    state: str | None
    postal_code: str | None

    @classmethod
    def of(cls, address: Address) -> Place:
        return cls(
            _shared(address.company),
            address.address,
            _shared(address.city),
            _shared(address.state),
            _shared(address.postal_code),
        )

    @property
    def city_state(self) -> str:
        """`Chicago IL`."""
        return " ".join(part for part in (self.city, self.state) if part)


@dataclass(frozen=True, slots=True)
class ShipmentRow:
    """One listing entry of the search results."""

    id: str
    created_date: datetime | None
    status: str
    origin: Place
    destination: Place
    carrier_name: str | None
    scac: str | None
    total: Decimal | None
    currency: str | None
    pro_number: str | None
    mode: str | None
    service_type: str | None
    tracking_number: str | None
    bol_number: str | None
    reference: str | None
    quote_id: str | None
    pickup_date: date | None

    @classmethod
    def of(cls, shipment: Shipment) -> ShipmentRow:
        carrier, cost = shipment.carrier, shipment.cost
        return cls(
            id=shipment.id,
            created_date=shipment.created_date,
            status=_shared(shipment.status) or "",
            origin=Place.of(shipment.origin),
            destination=Place.of(shipment.destination),
            carrier_name=_shared(carrier.name) if carrier else None,
            scac=_shared(carrier.scac) if carrier else None,
            total=cost.total if cost else None,
            currency=_shared(cost.currency) if cost else None,
            pro_number=shipment.pro_number,
            mode=_shared(shipment.mode),
            service_type=_shared(shipment.service_type),
            tracking_number=shipment.tracking_number,
            bol_number=shipment.bol_number,
            reference=shipment.reference,
            quote_id=shipment.quote_id,
            pickup_date=shipment.pickup_date,
        )

    @property
    def carrier_label(self) -> str:
        return self.carrier_name or self.scac or ""

    def to_shipment(self) -> Shipment:
        """The listing model again (for the detail screen: carrier and cost come from here)."""

        def address(place: Place) -> Address:
            return Address(
                company=place.company,
                address=place.address,
                city=place.city,
                state=place.state,
                postal_code=place.postal_code,
            )

        carrier = None
        if self.carrier_name or self.scac:
            carrier = CarrierRef(name=self.carrier_name, scac=self.scac)
        cost = Cost(total=self.total, currency=self.currency) if self.total is not None else None
        return Shipment(
            id=self.id,
            created_date=self.created_date,
            status=self.status,
            origin=address(self.origin),
            destination=address(self.destination),
            carrier=carrier,
            cost=cost,
            pro_number=self.pro_number,
            mode=self.mode,
            service_type=self.service_type,
            tracking_number=self.tracking_number,
            bol_number=self.bol_number,
            reference=self.reference,
            quote_id=self.quote_id,
            pickup_date=self.pickup_date,
        )
