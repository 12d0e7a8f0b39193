"""Where an audited bill's cause may be the user's own data: the template or address book
entry to update, read from the listing's entry, and said by ``freight report audit``."""

from __future__ import annotations

import io
from collections.abc import Iterator
from decimal import Decimal

from tui.api.models import Shipment
from tui.commands.report_audit import HOW, as_json, write_table
from tui.config.settings import ItemTemplate, Location
from tui.domain.locations import LocationType
from tui.reports.audit import Billed, audit, billed_of
from tui.reports.audit_fixes import fix_of, fixes_of
from tui.vocabulary import GLOSSARY

CRATE = ItemTemplate(name="Crate", weight=Decimal(300), length=Decimal(48), width=Decimal(40),
                     height=Decimal(40), freight_class=Decimal(70),
                     description="Machine parts")  # fmt: skip
ACME = Location(company="Acme Supply", postal_code="30303")


def entry(sid: str, adjustment: dict[str, object]) -> Shipment:
    """A listing entry as the sandbox lists a billed shipment."""
    return Shipment.model_validate(
        {
            "id": sid, "status": "delivered", "cost": {"total": "600.00", "currency": "USD"},
            "destination": {"company": "ACME  supply", "postalCode": "30303"},
            "items": [
                {"description": "Pallets", "weight": 100, "quantity": 1, "freightClass": 70},
                {"description": "Machine parts", "weight": 400, "quantity": 2},
            ],
            "adjustments": [adjustment],
        }
    )  # fmt: skip


def test_a_reclass_and_an_accessorial_name_the_template_and_the_address_to_update() -> None:
    bills = [
        billed_of(entry("r", {"type": "reclass", "amount": 80,
                              "note": "Reclassed: class 70 -> 85"})),
        billed_of(entry("a", {"type": "accessorial", "amount": 120, "accessorial":
                              "residential delivery", "note": "Added at delivery"})),
        billed_of(entry("w", {"type": "reweigh", "amount": 50, "note": "Reweighed"})),
        Billed("u", "delivered", "USD", 60000),
    ]  # fmt: skip
    prices = {sid: (sid, f"P{sid}", "", "2026-11-02", "Bluecrest", "USD", 50000) for sid in "rawu"}
    report = audit(prices, bills)
    lines = {line.shipment_id: line for line in report.lines}
    fixes = {sid: fix for sid, line in lines.items() if (fix := fix_of(line, [CRATE], [ACME]))}
    assert set(fixes) == {"r", "a"}
    template, address = fixes["r"], fixes["a"]
    assert template.old == CRATE
    assert template.new == CRATE.model_copy(update={"freight_class": Decimal(85)})
    assert template.change == "class 70 → 85"
    assert address.new == ACME.model_copy(update={"location_type": LocationType.RESIDENTIAL})
    assert address.change == "location type Business with dock → Residential"
    # not ours: another item's template, another class, a place already residential
    other = CRATE.model_copy(update={"description": "Pallets", "freight_class": Decimal(85)})
    assert fix_of(lines["r"], [other], []) is None
    home = ACME.model_copy(update={"location_type": LocationType.RESIDENTIAL})
    assert fix_of(lines["a"], [], [home]) is None
    assert fix_of(lines["a"], [], [ACME.model_copy(update={"postal_code": "30304"})]) is None
    # the command line says which and how
    out = io.StringIO()
    write_table(report, out, fixes)
    text = out.getvalue()
    assert "reclass *" in text
    assert "accessorial *" in text
    assert "reweigh *" not in text
    assert HOW in text
    assert "Pr reclass: item template “Crate”: class 70 → 85" in text
    said = {r["shipmentId"]: r["suggestedUpdate"] for r in as_json(report, fixes)["billedAbove"]}
    assert said["a"] == (
        "address book entry “Acme Supply (30303)”: location type Business with dock → Residential"
    )
    assert said["w"] is None
    assert "suggestedUpdate" in GLOSSARY


def test_a_liftgate_asks_for_a_business_with_no_dock_only_at_a_dock() -> None:
    liftgate = {"type": "accessorial", "amount": 95, "accessorial": "liftgate delivery"}
    prices = {"l": ("l", "Pl", "", "2026-11-02", "Bluecrest", "USD", 50000)}
    (line,) = audit(prices, [billed_of(entry("l", liftgate))]).lines
    fix = fix_of(line, [], [ACME])
    assert fix is not None
    assert fix.new == ACME.model_copy(update={"location_type": LocationType.BUSINESS_NO_DOCK})
    farm = ACME.model_copy(update={"location_type": LocationType.FARM})
    assert fix_of(line, [], [farm]) is None


class Walked(list[ItemTemplate]):
    """The templates, counting how often they are walked through."""

    walks = 0

    def __iter__(self) -> Iterator[ItemTemplate]:
        self.walks += 1
        return super().__iter__()


def test_each_distinct_clue_is_matched_once_however_many_lines_share_it() -> None:
    reclass = billed_of(entry("r", {"type": "reclass", "amount": 80,
                                    "note": "Reclassed: class 70 -> 85"}))  # fmt: skip
    other = reclass._replace(
        clue=reclass.clue._replace(subject="Pallets") if reclass.clue else None
    )
    bills = [reclass._replace(shipment_id=f"r{n}") for n in range(50)]
    bills += [other._replace(shipment_id=f"p{n}") for n in range(50)]
    prices = {
        b.shipment_id: (b.shipment_id, "", "", "2026-11-02", "Blue", "USD", 500) for b in bills
    }
    report = audit(prices, bills)
    templates = Walked([CRATE])
    fixes = fixes_of(report.lines, templates, [])
    assert set(fixes) == {f"r{n}" for n in range(50)}  # the crate's lines, each with its fix
    assert {fix.change for fix in fixes.values()} == {"class 70 → 85"}
    assert templates.walks == 2  # once per distinct clue, not once per line (100)
