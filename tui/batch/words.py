"""What an order file says in words rather than in its own columns, as storefront exports
write it: the handling unit in an item's name (``Pump housing (crate)``), accessorials in a tags
column (``residential, liftgate``), and a description that looks hazardous."""

from __future__ import annotations

import re
from typing import Final

from tui.domain.locations import PACKAGE_TYPES, parse_package

_PACKAGE_WORDS: Final = {
    "palette": "pallet", "paletten": "pallet", "palettes": "pallet", "palet": "pallet",
    "paleta": "pallet", "paletas": "pallet", "tarima": "pallet", "plt": "pallet",
    "kiste": "crate", "kisten": "crate", "caisse": "crate", "caisses": "crate",
    "cajón": "crate", "cajon": "crate", "crt": "crate", "karton": "carton", "kartons": "carton",
    "caja": "box", "cajas": "box", "colis": "box", "ctn": "carton", "fass": "drum",
    "fässer": "drum", "fût": "drum", "fut": "drum", "tambor": "drum", "bidon": "drum",
    "drm": "drum", "sack": "bag", "säcke": "bag", "sac": "bag", "saco": "bag",
    "rolle": "roll", "rouleau": "roll", "rollo": "roll", "bündel": "bundle", "bund": "bundle",
    "fardo": "bale", "skd": "skid",
}  # fmt: skip
"""Handling-unit names of other languages and X12 codes, as order systems write them."""


def known_package(text: str) -> str | None:
    """The package key a cell names (``Pallets``, ``Kiste``, ``PLT``), or None."""

    value = text.strip()
    found = _PACKAGE_WORDS.get(value.casefold()) or parse_package(value).lower()
    return found if found in PACKAGE_TYPES else None


_IN_PARENS: Final = re.compile(r"[(\[]([^()\[\]]{1,40})[)\]]")
_WORD: Final = re.compile(r"[^\W\d_]+")

_ANYWHERE: Final = frozenset(
    {"pallet", "skid", "crate", "drum", "carton", "bundle", "pail", "gaylord", "box"}
)
"""Units found anywhere in a name; the others (roll, bag, tube…) only in parentheses, as
they are common words of product names."""

TAG_WORDS: Final[dict[str, str]] = {
    "residential": "residential", "residence": "residential", "home delivery": "residential",
    "residential delivery": "residential",
    "liftgate": "liftgate", "lift gate": "liftgate", "liftgate delivery": "liftgate",
    "liftgate required": "liftgate", "tail lift": "liftgate", "tailgate": "liftgate",
    "inside delivery": "inside", "inside": "inside", "white glove": "inside",
    "appointment": "appointment", "appt": "appointment", "delivery appointment": "appointment",
    "call before delivery": "appointment", "call ahead": "appointment",
    "notify before delivery": "appointment",
    "limited access": "limited-access", "limited access delivery": "limited-access",
}  # fmt: skip
"""A tag's words (case, hyphens and underscores aside) and the accessorial they ask for."""

_HAZARD: Final = re.compile(
    r"\b(flammable|inflammable|combustible|corrosive|lithium|batter(?:y|ies)|paints?|"
    r"aerosols?|acids?|explosives?|propane|butane|gasoline|petrol|kerosene|solvents?|"
    r"toxic|poison(?:ous)?|oxidi[sz](?:er|ing)|compressed gas|pesticides?|bleach|"
    r"hazmat|dangerous goods|fireworks|ammunition|fuel|thinner|lacquer|resin|"
    r"(?:un|na)\s?\d{4})\b",
    re.IGNORECASE,
)


def package_in(text: str) -> str | None:
    """The handling unit a text names: a known unit in parentheses first (``(crate)``), else
    the last of pallet, skid, crate, drum, carton, bundle, pail, gaylord or box in it."""
    for inside in reversed(_IN_PARENS.findall(text)):
        found = known_package(inside)
        if found is not None:
            return found
    for word in reversed(_WORD.findall(text)):
        found = known_package(word)
        if found is not None and found in _ANYWHERE:
            return found
    return None


def tag_accessorials(text: str) -> list[str]:
    """The accessorials a tags cell asks for (``residential``, ``liftgate``, ``inside``,
    ``appointment``, ``limited-access``), in the order written; other tags are left alone."""
    found: list[str] = []
    for tag in re.split(r"[,;|/\n]", text):
        key = " ".join(tag.replace("-", " ").replace("_", " ").lower().split())
        name = TAG_WORDS.get(key)
        if name is not None and name not in found:
            found.append(name)
    return found


def hazard_word(description: str) -> str | None:
    """The words that make a description look hazardous (``paint, flammable``), or None."""
    found = dict.fromkeys(word.lower() for word in _HAZARD.findall(description))
    return ", ".join(found) or None


_ITEM_COUNT: Final = (
    re.compile(r"^(?P<name>.+?)\s*(?:[x×*]|qty:?)\s*(?P<count>\d{1,3})\)?$", re.IGNORECASE),
    re.compile(r"^(?P<count>\d{1,3})\s*[x×*]\s+(?P<name>.+)$", re.IGNORECASE),
    re.compile(r"^(?P<name>.+?)\s*[(:]\s*(?P<count>\d{1,3})\s*\)?$"),
)


def packed_items(text: str) -> list[tuple[int, str]]:
    """The items of a cell that holds several, each with its count, as storefronts export
    them: ``Pallet x1; Crate x2``, ``Pallet × 1 | 2 x Crate``, ``Drum (3)``. An item without
    a count is one. Items are parted by ``;``, ``|`` or a line break."""
    out: list[tuple[int, str]] = []
    for part in re.split(r"[;|\n]", text):
        item = " ".join(part.split())
        if not item:
            continue
        for pattern in _ITEM_COUNT:
            found = pattern.match(item)
            if found is not None:
                out.append((int(found["count"]), found["name"].strip(" -–,")))
                break
        else:
            out.append((1, item))
    return out
