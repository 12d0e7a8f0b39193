"""Which of the quote form's errors are shown: those of fields the user has touched, or all
of them once rates were asked for. A wrong detail (or emergency contact), kept in a dialog,
is marked on its row's description in the grid."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tui.domain.quote_form import DETAIL_FIELDS, EMERGENCY_FIELDS, FieldError


class FieldMarks:
    """The fields the user has touched (`origin_zip`, `items.2.weight`, `items.0.details`)."""

    def __init__(self, touched: Iterable[str] = ()) -> None:
        self.touched: set[str] = set(touched)
        self.show_all = False
        """Every error shows, touched or not (after ctrl+r found some)."""

    def reset(self, filled: Iterable[str]) -> None:
        """A form loaded afresh: what holds text counts as touched; errors show as touched."""
        self.touched = set(filled)
        self.show_all = False

    def touch(self, field: str) -> bool:
        """Mark `field` touched; True when it was not yet (its error may now show)."""
        if field in self.touched:
            return False
        self.touched.add(field)
        return True

    def rows_moved(self, filled: Iterable[str]) -> None:
        """Rows were added or removed: the grid's marks follow what holds text now."""
        ends = {name for name in self.touched if not name.startswith("items.")}
        self.touched = ends | {name for name in filled if name.startswith("items.")}

    def was_touched(self, field: str) -> bool:
        if field in self.touched:
            return True
        # A detail's or the contact's error shows once the dialog was used on its row.
        if field in EMERGENCY_FIELDS:
            return any(name.endswith(".details") for name in self.touched)
        parts = field.split(".")
        return (
            len(parts) == 3
            and parts[2] in DETAIL_FIELDS
            and (f"items.{parts[1]}.details" in self.touched)
        )

    def shown(self, errors: Sequence[FieldError]) -> set[str]:
        """The fields whose errors show now."""
        return {e.field for e in errors if self.show_all or self.was_touched(e.field)}

    @staticmethod
    def detail_marks(errors: Sequence[FieldError], shown: set[str], hazardous_row: int) -> set[str]:
        """The descriptions that stand, on the grid, for a shown error kept in a dialog; the
        emergency contact's is on `hazardous_row`."""
        rows = {
            int(e.field.split(".")[1])
            for e in errors
            if e.in_details and e.field in shown and e.field.startswith("items.")
        }
        if any(e.field in EMERGENCY_FIELDS and e.field in shown for e in errors):
            rows.add(hazardous_row)
        return {f"items.{index}.description" for index in rows}
