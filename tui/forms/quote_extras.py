"""The quote's fields kept outside the grid's rows and inputs: the accessorials, the
emergency contact, and each end's location type as last seen (a change may offer a liftgate)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tui.domain.accessorials import Accessorial, offered_liftgate, parse_accessorials
from tui.domain.quote_form import QuoteDraft


class QuoteExtras:
    """The quote's accessorials, emergency contact and end types; `changed` is called when
    the user changed the accessorials or the contact (the form is checked and saved)."""

    def __init__(self, changed: Callable[[], None]) -> None:
        self.accessorials: tuple[Accessorial, ...] = ()
        self.emergency = ("", "")
        self.types: dict[str, str] = {}
        self._changed = changed

    def reset(self, draft: QuoteDraft) -> None:
        """Take the draft's values (a form loaded whole); nothing counts as changed."""
        self.accessorials = draft.accessorials
        self.emergency = (draft.emergency_name, draft.emergency_phone)
        self.types = {"origin": draft.origin_type, "dest": draft.dest_type}

    def choose(self, accessorials: tuple[Accessorial, ...]) -> None:
        """The accessorials as the user chose them."""
        if accessorials != self.accessorials:
            self.accessorials = accessorials
            self._changed()

    def add(self, usual: Iterable[Accessorial]) -> None:
        """Add an address's usual accessorials to those chosen."""
        self.accessorials = parse_accessorials([*self.accessorials, *usual])
        self._changed()

    def set_emergency(self, name: str, phone: str) -> None:
        """The emergency contact as the item details left it (the row changed with it)."""
        self.emergency = (name, phone)
        self._changed()

    def end_type(self, side: str, kind: str) -> Accessorial | None:
        """The `origin` or `dest` end is now of location type `kind`: the liftgate it turns on
        (once), else None. The caller checks the form again."""
        liftgate = offered_liftgate(self.types, side, kind, self.accessorials)
        self.types[side] = kind
        if liftgate is not None:
            self.accessorials = parse_accessorials([*self.accessorials, liftgate])
        return liftgate
