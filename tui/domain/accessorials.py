"""Accessorial services a quote may ask for, grouped by the end they happen at."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Final, Literal

from tui.domain.locations import DEFAULT_LOCATION_TYPE, LocationType

End = Literal["pickup", "delivery", "shipment"]


class Accessorial(StrEnum):
    """An accessorial; the value is the real service's own name (as its clients send `charges`).

    Residential and limited-access pickup or delivery are not here: the location type says them.
    """

    LIFTGATE_PICKUP = "liftgate pickup"
    LIFTGATE_DELIVERY = "liftgate delivery"
    INSIDE_DELIVERY = "inside delivery"
    DELIVERY_APPOINTMENT = "arrival schedule"
    NOTIFY_BEFORE_DELIVERY = "arrival notice"
    PROTECT_FROM_FREEZING = "protect from freezing"
    SORT_AND_SEGREGATE = "sort and segregate"

    @property
    def label(self) -> str:
        """What the user reads: `Delivery appointment`."""
        return _LABELS[self]

    @property
    def short(self) -> str:
        """A short name for the summary line: `Appt`."""
        return _SHORT[self]

    @property
    def end(self) -> End:
        """Where it happens."""
        return _ENDS[self]

    @property
    def key(self) -> str:
        """The letter that toggles it in the accessorials dialog."""
        return _KEYS[self]


_LABELS: Final = {
    Accessorial.LIFTGATE_PICKUP: "Liftgate at pickup",
    Accessorial.LIFTGATE_DELIVERY: "Liftgate at delivery",
    Accessorial.INSIDE_DELIVERY: "Inside delivery",
    Accessorial.DELIVERY_APPOINTMENT: "Delivery appointment",
    Accessorial.NOTIFY_BEFORE_DELIVERY: "Notify before delivery",
    Accessorial.PROTECT_FROM_FREEZING: "Protect from freezing",
    Accessorial.SORT_AND_SEGREGATE: "Sort and segregate",
}
_SHORT: Final = {
    Accessorial.LIFTGATE_PICKUP: "Liftgate pickup",
    Accessorial.LIFTGATE_DELIVERY: "Liftgate delivery",
    Accessorial.INSIDE_DELIVERY: "Inside",
    Accessorial.DELIVERY_APPOINTMENT: "Appt",
    Accessorial.NOTIFY_BEFORE_DELIVERY: "Notify",
    Accessorial.PROTECT_FROM_FREEZING: "Freeze",
    Accessorial.SORT_AND_SEGREGATE: "Sort",
}
_ENDS: Final[dict[Accessorial, End]] = {
    Accessorial.LIFTGATE_PICKUP: "pickup",
    Accessorial.LIFTGATE_DELIVERY: "delivery",
    Accessorial.INSIDE_DELIVERY: "delivery",
    Accessorial.DELIVERY_APPOINTMENT: "delivery",
    Accessorial.NOTIFY_BEFORE_DELIVERY: "delivery",
    Accessorial.PROTECT_FROM_FREEZING: "shipment",
    Accessorial.SORT_AND_SEGREGATE: "shipment",
}
_KEYS: Final = {
    Accessorial.LIFTGATE_PICKUP: "p",
    Accessorial.LIFTGATE_DELIVERY: "l",
    Accessorial.INSIDE_DELIVERY: "i",
    Accessorial.DELIVERY_APPOINTMENT: "a",
    Accessorial.NOTIFY_BEFORE_DELIVERY: "n",
    Accessorial.PROTECT_FROM_FREEZING: "f",
    Accessorial.SORT_AND_SEGREGATE: "s",
}
_ALIASES: Final = {
    **{a.label.lower(): a for a in Accessorial},
    **{a.name.lower().replace("_", " "): a for a in Accessorial},
    "liftgate": Accessorial.LIFTGATE_DELIVERY,
    "appointment": Accessorial.DELIVERY_APPOINTMENT,
    "notify": Accessorial.NOTIFY_BEFORE_DELIVERY,
    "call before delivery": Accessorial.NOTIFY_BEFORE_DELIVERY,
}

#: Location types that carriers bill as limited access (plus residential): a liftgate is usual.
LIFTGATE_PLACES: Final = frozenset(
    {
        LocationType.RESIDENTIAL,
        LocationType.BUSINESS_NO_DOCK,
        LocationType.LIMITED_ACCESS,
        LocationType.CONSTRUCTION,
        LocationType.FARM,
        LocationType.MILITARY,
        LocationType.PLACE_OF_WORSHIP,
        LocationType.SCHOOL,
        LocationType.MINE,
    }
)


def parse_accessorial(text: str) -> Accessorial | None:
    """The accessorial `text` names (service name, label, `delivery-appointment`…), or None."""
    key = " ".join(text.strip().lower().replace("-", " ").replace("_", " ").split())
    try:
        return Accessorial(key)
    except ValueError:
        return _ALIASES.get(key)


def parse_accessorials(values: object) -> tuple[Accessorial, ...]:
    """The known accessorials in a list of names, in menu order, each once; others left out."""
    if not isinstance(values, list | tuple | set | frozenset):
        return ()
    found = {a for value in values if isinstance(value, str) and (a := parse_accessorial(value))}
    return tuple(a for a in Accessorial if a in found)


def liftgate_for(end: End, location_type: str) -> Accessorial | None:
    """The liftgate a place of this type usually needs at this end, or None."""
    if location_type not in LIFTGATE_PLACES:
        return None
    return Accessorial.LIFTGATE_PICKUP if end == "pickup" else Accessorial.LIFTGATE_DELIVERY


def offered_liftgate(
    seen: Mapping[str, str], side: str, location_type: str, chosen: Iterable[Accessorial]
) -> Accessorial | None:
    """The liftgate to add when the `origin` or `dest` end changes to `location_type` from
    the type `seen` there before; None when the type is the same, needs none, or it is
    already `chosen`."""
    if seen.get(side, DEFAULT_LOCATION_TYPE) == location_type:
        return None
    liftgate = liftgate_for("pickup" if side == "origin" else "delivery", location_type)
    if liftgate is None or liftgate in chosen:
        return None
    return liftgate


def missing_liftgates(
    origin_type: str, dest_type: str, chosen: Iterable[Accessorial]
) -> list[tuple[Accessorial, str]]:
    """The liftgates the ends' location types usually need but are not `chosen` (the user
    turned them off), each with the type of its end."""
    chosen = set(chosen)
    missing = []
    for end, kind in (("pickup", origin_type), ("delivery", dest_type)):
        liftgate = liftgate_for("pickup" if end == "pickup" else "delivery", kind)
        if liftgate is not None and liftgate not in chosen:
            missing.append((liftgate, kind))
    return missing
