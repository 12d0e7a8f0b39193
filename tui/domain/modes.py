"""Transport modes compared the way a person reads them: `LTL`, `ltl` and `Ltl` are one mode."""

from __future__ import annotations

_SAME = {
    "less than truckload": "ltl",
    "ftl": "truckload",
    "tl": "truckload",
    "full truckload": "truckload",
    "small parcel": "parcel",
}


def mode_key(mode: str | None) -> str:
    """The mode in one spelling (`LTL` -> `ltl`, `FTL` -> `truckload`); empty when unknown."""
    text = " ".join((mode or "").replace("_", " ").replace("-", " ").lower().split())
    return _SAME.get(text, text)


def same_mode(one: str | None, other: str | None) -> bool:
    """Whether two spellings name the same mode (case, hyphens and known aliases aside)."""
    return mode_key(one) == mode_key(other)
