"""The service's words: location types, package labels, accessorial names, countries.

Every value is read case-insensitively with hyphens, underscores and runs of spaces treated as
one space, so ``business dock``, ``Business-Dock`` and ``BUSINESS_DOCK`` are one type.
"""

from __future__ import annotations

import re

#: the 13 location types real clients send, plus the older ``distribution center``
LOCATION_TYPES: tuple[str, ...] = (
    "business dock", "business no dock", "residential", "limited access", "trade show",
    "construction", "farm", "military", "airport", "place of worship", "school", "mine", "pier",
)  # fmt: skip
LEGACY_LOCATION_TYPES: tuple[str, ...] = ("distribution center",)
#: location types that carriers bill as limited-access pickup or delivery
LIMITED_ACCESS: frozenset[str] = frozenset(
    ["limited access", "construction", "farm", "military", "airport", "place of worship",
     "school", "mine", "pier"]
)  # fmt: skip
DEFAULT_LOCATION = "business dock"
_LOCATION_SYNONYMS = {
    "business with dock": "business dock",
    "business without dock": "business no dock",
    "business nodock": "business no dock",
    "residence": "residential",
    "tradeshow": "trade show",
    "church": "place of worship",
    "construction site": "construction",
    "military base": "military",
    "dc": "distribution center",
}

PACKAGES: tuple[str, ...] = (
    "pallet", "skid", "crate", "box", "carton", "case", "drum", "pail", "bundle", "roll", "reel",
    "coil", "tote", "bag", "bale", "cylinder", "tube", "loose", "gaylord", "envelope",
)  # fmt: skip
_PACKAGE_SYNONYMS = {
    "piece": "loose",
    "pieces": "loose",
    "pcs": "loose",
    "pc": "loose",
    "barrel": "drum",
    "bucket": "pail",
    "sack": "bag",
    "ibc": "tote",
    "plt": "pallet",
    "skd": "skid",
    "ctn": "carton",
    "crt": "crate",
}
_SIZE = re.compile(r"^(?P<name>[a-z][a-z ]*?)[ ]*(?P<size>\d+(?: ?x ?\d+){1,2})?$")

#: accessorial names (as real clients send them in ``charges``) -> charge line name
ACCESSORIALS: dict[str, str] = {
    "liftgate pickup": "liftgate-pickup",
    "liftgate delivery": "liftgate-delivery",
    "inside delivery": "inside-delivery",
    "arrival notice": "notify-before-delivery",
    "arrival schedule": "appointment",
    "sort and segregate": "sort-and-segregate",
    "protect from freezing": "protect-from-freezing",
    "hazmat": "hazmat",
}
_ACCESSORIAL_SYNONYMS = {
    "liftgate": "liftgate delivery",
    "lift gate delivery": "liftgate delivery",
    "lift gate pickup": "liftgate pickup",
    "liftgate origin": "liftgate pickup",
    "liftgate destination": "liftgate delivery",
    "lgpu": "liftgate pickup",
    "lgdl": "liftgate delivery",
    "inside": "inside delivery",
    "indl": "inside delivery",
    "notify": "arrival notice",
    "notify before delivery": "arrival notice",
    "notification": "arrival notice",
    "call before delivery": "arrival notice",
    "delivery notification": "arrival notice",
    "appointment": "arrival schedule",
    "delivery appointment": "arrival schedule",
    "appt": "arrival schedule",
    "schedule appointment": "arrival schedule",
    "sort segregate": "sort and segregate",
    "sort": "sort and segregate",
    "protect from freeze": "protect from freezing",
    "freeze protection": "protect from freezing",
    "pfz": "protect from freezing",
    "hazardous": "hazmat",
    "hazardous materials": "hazmat",
}
LOCATION_NOT_CHARGE = ("residential", "limited access", "trade show")

COUNTRIES: dict[str, str] = {
    "us": "US", "usa": "US", "united states": "US",
    "ca": "CA", "can": "CA", "canada": "CA",
}  # fmt: skip
COUNTRY_CODES = "US, USA, CA, CAN"


def words(value: str) -> str:
    """Lower case, ``-``/``_``/``&`` and runs of spaces folded to single spaces."""
    text = value.strip().lower().replace("&", " and ")
    return " ".join(re.sub(r"[-_/]", " ", text).split())


def location_type(value: str) -> str | None:
    """The canonical location type ``value`` names, or None."""
    text = words(value)
    text = _LOCATION_SYNONYMS.get(text, text)
    if text in LOCATION_TYPES or text in LEGACY_LOCATION_TYPES:
        return text
    return None


def package(value: str) -> tuple[str, str | None] | None:
    """(canonical package, size like ``48x40`` or None) for a label like ``Pallets_48x40``."""
    match = _SIZE.match(words(value))
    if match is None:
        return None
    name, size = match.group("name").strip(), match.group("size")
    for candidate in (name, name[:-2] if name.endswith("es") else "", name[:-1]):
        found = _PACKAGE_SYNONYMS.get(candidate, candidate)
        if found in PACKAGES:
            return found, size.replace(" ", "") if size else None
    return None


def accessorial(value: str) -> str | None:
    """The canonical accessorial name ``value`` names, or None."""
    text = words(value)
    text = _ACCESSORIAL_SYNONYMS.get(text, text)
    return text if text in ACCESSORIALS else None


def country(value: str) -> str | None:
    """``US`` or ``CA`` for any accepted spelling, else None."""
    return COUNTRIES.get(words(value))
