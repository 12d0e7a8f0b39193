"""The fictional SANDBOX carriers (domain.md section 10) and their personalities."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

SOUTH = frozenset(["TX", "OK", "LA", "AR", "MS", "AL", "TN", "GA", "FL", "SC"])
WEST = frozenset(["WA", "OR", "ID", "MT", "CA", "NV", "UT", "AZ"])
LAKES = frozenset(["IL", "IN", "MI", "OH", "WI", "MN", "IA", "MO", "KY"])
NORTHEAST = frozenset(
    ["ME", "NH", "VT", "MA", "RI", "CT", "NY", "NJ", "PA", "DE", "MD", "DC", "VA"]
)


@dataclass(frozen=True)
class Carrier:
    """A carrier and the numbers that drive its prices and behaviour."""

    code: str
    name: str
    mode: str  # primary mode: ltl, parcel or truckload
    region: frozenset[str] | None  # None: the 48 contiguous states
    region_name: str = ""
    tariff_level: Decimal = Decimal("1.00")
    discount: Decimal = Decimal("0.70")
    amc: Decimal = Decimal("110")
    transit_adjust: int = 0
    fsc_offset: Decimal = Decimal("0")
    accessorial_factor: Decimal = Decimal("1.00")
    liftgate_factor: Decimal = Decimal("1.00")
    on_time: float = 0.93
    """The share delivered within the quoted transit days (the rest a day or two late)."""
    price_noise: float = 0.0
    chaos: bool = False
    cross_border: bool = False  # serves US-Canada lanes

    def serves(self, state: str) -> bool:
        """Whether the carrier has its own service in ``state``."""
        return self.region is None or state in self.region


CARRIERS: tuple[Carrier, ...] = (
    Carrier(
        "HGFL", "Harrowgate Freight Lines", "ltl", None,
        tariff_level=Decimal("0.85"), discount=Decimal("0.78"), amc=Decimal("95"),
        transit_adjust=1, fsc_offset=Decimal("-0.02"), accessorial_factor=Decimal("0.90"),
        on_time=0.80,
    ),
    Carrier(
        "BCXP", "Bluecrest Express", "ltl", None,
        tariff_level=Decimal("1.20"), discount=Decimal("0.70"), amc=Decimal("150"),
        transit_adjust=-1, fsc_offset=Decimal("0.03"), accessorial_factor=Decimal("1.10"),
        on_time=0.90, cross_border=True,
    ),
    Carrier(
        "MGGC", "Magnolia Gulf Carriers", "ltl", SOUTH, "the Gulf and Southeast states",
        tariff_level=Decimal("0.88"), discount=Decimal("0.76"), amc=Decimal("90"),
        fsc_offset=Decimal("-0.01"), on_time=0.85,
    ),
    Carrier(
        "CSFW", "Cascade Summit Freightways", "ltl", WEST, "the Western states",
        tariff_level=Decimal("1.00"), discount=Decimal("0.72"), amc=Decimal("115"),
        liftgate_factor=Decimal("0.70"), on_time=0.87,
    ),
    Carrier(
        "LKIF", "Lakeshore Interstate Freight", "ltl", LAKES, "the Great Lakes and Midwest",
        tariff_level=Decimal("0.95"), discount=Decimal("0.73"), amc=Decimal("105"),
        on_time=0.88,
    ),
    Carrier(
        "KAML", "Keystone Atlantic Motor Lines", "ltl", NORTHEAST, "the Northeast and Mid-Atlantic",
        tariff_level=Decimal("1.02"), discount=Decimal("0.71"), amc=Decimal("125"),
        accessorial_factor=Decimal("1.25"), fsc_offset=Decimal("0.01"), on_time=0.89,
    ),
    Carrier(
        "WRNP", "Wrenfield Parcel", "parcel", None,
        discount=Decimal("0.30"), on_time=0.86,
    ),
    Carrier(
        "TGTL", "Tallgrass Truckload", "truckload", None,
        amc=Decimal("450"), price_noise=0.03, on_time=0.88,
    ),
    Carrier(
        "RGFB", "Ridgeline Freight Brokerage", "truckload", None,
        amc=Decimal("400"), price_noise=0.10, on_time=0.82, cross_border=True,
    ),
    Carrier(
        "QWDL", "Quirkwood Logistics", "ltl", None,
        tariff_level=Decimal("0.80"), discount=Decimal("0.75"), amc=Decimal("85"),
        transit_adjust=1, on_time=0.70, chaos=True,
    ),
)  # fmt: skip

BY_CODE: dict[str, Carrier] = {carrier.code: carrier for carrier in CARRIERS}


def active_carriers(chaos: bool) -> tuple[Carrier, ...]:
    """Return the carriers that quote (QWDL only when chaos is on)."""
    return tuple(c for c in CARRIERS if chaos or not c.chaos)
