"""Which of the quote form's errors show: touched fields', a dialog's on its row, all after
ctrl+r; and the lines of text under the form."""

from __future__ import annotations

from tui.domain.accessorials import Accessorial, offered_liftgate
from tui.domain.locations import LocationType
from tui.domain.quote_form import FieldError, ItemDraft, QuoteDraft
from tui.forms.quote_lines import extras_line, form_message
from tui.forms.quote_marks import FieldMarks

ERRORS = [
    FieldError("origin_zip", "5 digits"),
    FieldError("items.1.weight", "a number"),
    FieldError("items.1.nmfc", "not an NMFC item"),
    FieldError("emergency_phone", "a phone number"),
]


def test_only_touched_fields_show_until_all_are_asked_for() -> None:
    marks = FieldMarks()
    assert marks.shown(ERRORS) == set()
    assert marks.touch("items.1.weight")
    assert not marks.touch("items.1.weight")
    assert marks.shown(ERRORS) == {"items.1.weight"}
    marks.show_all = True
    assert marks.shown(ERRORS) == {e.field for e in ERRORS}
    marks.reset({"origin_zip"})
    assert marks.shown(ERRORS) == {"origin_zip"}


def test_a_dialog_used_on_a_row_shows_its_details_and_the_contact() -> None:
    marks = FieldMarks({"items.1.details"})
    shown = marks.shown(ERRORS)
    assert shown == {"items.1.nmfc", "emergency_phone"}
    assert FieldMarks.detail_marks(ERRORS, shown, hazardous_row=3) == {
        "items.1.description",
        "items.3.description",
    }


def test_moved_rows_keep_the_ends_and_mark_what_holds_text() -> None:
    marks = FieldMarks({"origin_zip", "items.4.weight"})
    marks.rows_moved({"dest_zip", "items.0.weight"})
    assert marks.touched == {"origin_zip", "items.0.weight"}


def test_the_message_is_the_focused_error_else_the_first_with_a_count() -> None:
    draft = QuoteDraft(items=(ItemDraft(), ItemDraft()))
    shown = {"origin_zip", "items.1.weight"}
    first = form_message(draft, ERRORS, shown, None, None)
    assert first == ("from: 5 digits  (+1 more, ctrl+r)", True)
    here = form_message(draft, ERRORS, shown, "items.1.weight", 1)
    assert here.text.startswith("row 2: a number")
    assert form_message(draft, ERRORS, set(), None, None).text.startswith("ctrl+r get rates")
    assert form_message(draft, [], set(), None, None) == ("Ready: ctrl+r (F9) gets rates", False)


def test_extras_name_the_chosen_accessorials() -> None:
    assert extras_line(QuoteDraft()) == "Extras: none · ctrl+l to change"
    chosen = QuoteDraft(accessorials=(Accessorial.LIFTGATE_DELIVERY,))
    assert Accessorial.LIFTGATE_DELIVERY.short in extras_line(chosen)


def test_a_liftgate_is_offered_once_when_an_end_becomes_residential() -> None:
    seen = {"origin": LocationType.BUSINESS_DOCK, "dest": LocationType.BUSINESS_DOCK}
    residential = LocationType.RESIDENTIAL
    assert offered_liftgate(seen, "dest", residential, ()) == Accessorial.LIFTGATE_DELIVERY
    assert offered_liftgate(seen, "origin", residential, ()) == Accessorial.LIFTGATE_PICKUP
    chosen = (Accessorial.LIFTGATE_DELIVERY,)
    assert offered_liftgate(seen, "dest", residential, chosen) is None
    assert offered_liftgate({"dest": residential}, "dest", residential, ()) is None
    assert offered_liftgate(seen, "dest", LocationType.BUSINESS_DOCK, ()) is None
