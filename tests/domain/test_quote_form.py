"""The quote form as typed: errors in form order, blank rows, implied class, drafts."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from tui.domain.accessorials import Accessorial
from tui.domain.quote_form import (
    ItemDraft,
    QuoteDraft,
    complete_package,
)

PALLET = ItemDraft("2", "pallet", "800", "48", "40", "48", "", "Machine parts")


def test_a_complete_form_has_no_errors_and_adds_up() -> None:
    draft = QuoteDraft(origin_zip="60601", dest_zip="30303", items=(PALLET, ItemDraft()))
    assert draft.errors() == []
    totals = draft.totals()
    assert totals.handling_units == 2
    assert totals.total_weight == Decimal(1600)
    assert PALLET.implied_class() == Decimal(70)
    assert PALLET.effective_class() == Decimal(70)
    assert draft.incomplete_rows() == 0
    unfinished = QuoteDraft(items=(PALLET, ItemDraft(weight="100"), ItemDraft()))
    assert unfinished.incomplete_rows() == 1
    assert unfinished.totals() == totals


def test_errors_come_in_the_order_the_form_shows_them() -> None:
    bad_row = ItemDraft("0", "pal", "abc", "48", "", "48", "75", "")
    draft = QuoteDraft(origin_zip="6060", dest_zip="", items=(PALLET, bad_row))
    fields = [error.field for error in draft.errors()]
    assert fields == [
        "origin_zip",
        "dest_zip",
        "items.1.quantity",
        "items.1.weight",
        "items.1.width",
        "items.1.freight_class",
    ]
    labels = [error.label for error in draft.errors()]
    assert labels[:3] == ["from", "to", "row 2"]
    assert draft.errors()[3].message.startswith("weight (lb per unit) must be a number")


def test_blank_rows_are_skipped_but_a_form_needs_one_item() -> None:
    draft = QuoteDraft(origin_zip="60601", dest_zip="30303", items=(ItemDraft(), ItemDraft()))
    errors = draft.errors()
    assert [(e.field, e.message) for e in errors] == [
        ("items.0.weight", "describe at least one item")
    ]


def test_a_typed_class_overrides_the_implied_one() -> None:
    item = ItemDraft("1", "crate", "350", "40", "30", "36", "100", "")
    assert item.density_pcf() == Decimal(14)
    assert item.implied_class() == Decimal(85)
    assert item.class_override() == Decimal(100)
    assert item.effective_class() == Decimal(100)


def test_package_prefixes_complete_when_unique() -> None:
    assert complete_package("Pal") == "pallet"
    assert complete_package("cr") == "crate"
    assert complete_package("c") is None  # crate, carton, coil, cylinder
    assert complete_package("box") == "box"
    assert complete_package("") is None
    assert ItemDraft(package="b").field_error("package") is not None


def test_draft_round_trips_and_keeps_invalid_text() -> None:
    draft = QuoteDraft(
        mode="ltl",
        origin_zip="6060x",
        origin_type="residential",
        dest_zip="30303",
        dest_type="trade-show",
        items=(PALLET, ItemDraft(weight="12,5")),
    )
    assert QuoteDraft.from_dict(draft.to_dict()) == draft


def test_odd_saved_drafts_fall_back_without_losing_text() -> None:
    restored = QuoteDraft.from_dict(
        {"mode": "boat", "origin_type": "moon", "dest_zip": 30303, "items": [{"weight": "5"}, 7]}
    )
    assert restored.mode == "all"
    assert restored.origin_type == "business-dock"
    assert restored.dest_zip == ""
    assert restored.items == (ItemDraft(weight="5"),)
    assert QuoteDraft.from_dict({}).items == (ItemDraft(),)


field_text = st.text(alphabet="0123456789.,-abc x", max_size=8)


@given(st.tuples(*[field_text] * 8))
def test_any_typed_row_round_trips_and_reports_errors_only_for_its_fields(
    values: tuple[str, ...],
) -> None:
    quantity, package, weight, length, width, height, freight_class, description = values
    item = ItemDraft(quantity, package, weight, length, width, height, freight_class, description)
    draft = QuoteDraft(origin_zip="60601", dest_zip="30303", items=(item,))
    assert QuoteDraft.from_dict(draft.to_dict()) == draft
    for error in draft.errors():
        assert error.field.startswith("items.0.")
        assert error.message
    if not draft.errors():
        assert item.line() is not None
        assert item.effective_class() is not None


HAZMAT = ItemDraft(
    "1", "drum", "400", "24", "24", "36", "", "Paint", hazardous=True,
    hazmat_id="UN1263", hazard_class="3", packing_group="II",
)  # fmt: skip


def test_hazardous_freight_needs_a_valid_un_number_and_an_emergency_contact() -> None:
    today = date(2026, 11, 23)
    draft = QuoteDraft(
        origin_zip="60601", dest_zip="30303", items=(replace(HAZMAT, hazmat_id="12"),)
    )
    fields = {error.field: error.message for error in draft.errors(today=today)}
    assert fields == {
        "items.0.hazmat_id": "UN number: UN and 4 digits, like UN1203",
        "emergency_name": "hazardous freight needs a 24-hour emergency contact",
        "emergency_phone": "hazardous freight needs an emergency phone",
    }
    fixed = replace(
        draft, items=(HAZMAT,), emergency_name="CHEMTREC", emergency_phone="800-424-9300"
    )
    assert fixed.errors(today=today) == []
    # Not hazardous: the UN number typed earlier is kept but not checked
    plain = replace(draft, items=(replace(HAZMAT, hazardous=False, hazmat_id="12"),))
    assert plain.errors(today=today) == []


def test_pickup_date_and_unknown_zip_errors() -> None:
    draft = QuoteDraft(origin_zip="60601", dest_zip="99999", items=(PALLET,), pickup_date="sat")
    errors = draft.errors(today=date(2026, 11, 23), unknown_zip=lambda code: code == "99999")
    assert [(e.field, e.label) for e in errors] == [
        ("dest_zip", "to"),
        ("pickup_date", "pickup date"),
    ]
    assert errors[0].message == "99999 is not a US ZIP code"


def test_a_draft_keeps_every_new_field_and_old_drafts_still_load() -> None:
    item = replace(HAZMAT, nmfc="156600", stackable=False)
    chosen = (Accessorial.LIFTGATE_DELIVERY, Accessorial.DELIVERY_APPOINTMENT)
    draft = QuoteDraft(
        origin_zip="60601", dest_zip="30303", items=(item,), pickup_date="fri",
        accessorials=chosen, po_number="PO-1", shipper_reference="S-9",
        emergency_name="CHEMTREC", emergency_phone="800-424-9300",
    )  # fmt: skip
    assert QuoteDraft.from_dict(draft.to_dict()) == draft
    old = {"version": 1, "origin_zip": "60601", "items": [{"weight": "5", "description": "x"}]}
    loaded = QuoteDraft.from_dict(old)
    assert loaded.items[0].stackable
    assert not loaded.items[0].hazardous
    assert loaded.accessorials == ()
    assert loaded.pickup_date == ""
    odd = QuoteDraft.from_dict({"accessorials": ["delivery appointment", "teleport", 3]})
    assert odd.accessorials == (Accessorial.DELIVERY_APPOINTMENT,)


def test_hazardous_freight_needs_its_proper_shipping_name() -> None:
    """A UN number with a blank description was quoted and booked, and the BOL read ``Drum
    freight``: the description is the proper shipping name, and is required."""
    draft = QuoteDraft(
        origin_zip="60601",
        dest_zip="30303",
        items=(replace(HAZMAT, description=" "),),
        emergency_name="CHEMTREC",
        emergency_phone="800-424-9300",
    )
    fields = {error.field: error.message for error in draft.errors(today=date(2026, 11, 23))}
    assert fields == {
        "items.0.description": "UN1263 needs its proper shipping name as the description "
        "(e.g. Paint, flammable); the BOL must name hazardous freight"
    }
