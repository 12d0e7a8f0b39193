"""Item templates as the quote form uses them: a one-line summary, a row from one, saving one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.config.settings import ItemTemplate
from tui.domain.freight_class import format_class
from tui.domain.hazmat import parse_hazard_class, parse_nmfc, parse_packing_group, parse_un_number
from tui.domain.locations import package_label
from tui.domain.quote_form import ItemDraft, complete_package

if TYPE_CHECKING:
    from tui.session import Session


def template_line(template: ItemTemplate) -> str:
    """`Std pallet · 1 × Pallet 800 lb 48×40×48 · cl 70 · Machine parts`."""
    dims = f"{template.length:f}×{template.width:f}×{template.height:f}"
    parts = [
        template.name,
        f"{template.quantity} × {package_label(template.package)} {template.weight:f} lb {dims}",
    ]
    if template.freight_class is not None:
        parts.append(f"cl {format_class(template.freight_class)}")
    if template.description:
        parts.append(template.description)
    if template.hazardous:
        parts.append(f"HM {template.hazmat_id} {template.hazard_class}".strip())
    return " · ".join(parts)


def item_from_template(template: ItemTemplate) -> ItemDraft:
    """A row filled from a saved template (numbers written plainly: `800`, `47.5`)."""
    return ItemDraft(
        quantity=str(template.quantity),
        package=template.package,
        weight=f"{template.weight:f}",
        length=f"{template.length:f}",
        width=f"{template.width:f}",
        height=f"{template.height:f}",
        freight_class=(
            format_class(template.freight_class) if template.freight_class is not None else ""
        ),
        description=template.description,
        nmfc=template.nmfc,
        stackable=template.stackable,
        hazardous=template.hazardous,
        hazmat_id=template.hazmat_id,
        hazard_class=template.hazard_class,
        packing_group=template.packing_group,
    )


def save_template(session: Session, name: str, item: ItemDraft) -> str:
    """Save a complete row under `name` (replacing one of that name); returns what happened."""

    line = item.line()
    if line is None or item.errors():
        return "Fix the row first: only a complete row can be a template."
    template = ItemTemplate(
        name=name,
        quantity=line.quantity,
        package=complete_package(item.package) or "pallet",
        weight=line.weight,
        length=line.length,
        width=line.width,
        height=line.height,
        freight_class=item.class_override(),
        description=item.description.strip(),
        nmfc=parse_nmfc(item.nmfc) or "",
        stackable=item.stackable,
        hazardous=item.hazardous,
        hazmat_id=parse_un_number(item.hazmat_id) if item.hazardous else "",
        hazard_class=parse_hazard_class(item.hazard_class) if item.hazardous else "",
        packing_group=(parse_packing_group(item.packing_group) or "") if item.hazardous else "",
    )
    kept = [t for t in session.profile.item_templates if t.name != name]
    try:
        session.change_profile(item_templates=[*kept, template])
    except OSError as error:
        return f"Template kept for this run only, not saved: {error}"
    return f"Saved template “{name}”."
