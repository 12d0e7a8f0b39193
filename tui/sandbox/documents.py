"""Shipment paperwork: a straight bill of lading (PDF, letter) and 4x6 labels (PDF and ZPL)."""

from __future__ import annotations

from typing import Any

from tui.sandbox.pdf import Page, render

LETTER = (612.0, 792.0)
LABEL_4X6 = (288.0, 432.0)
MAX_LABELS = 30


def _address_lines(block: dict[str, Any]) -> list[str]:
    lines = [block.get("company") or "", block.get("address") or ""]
    if block.get("address2"):
        lines.append(block["address2"])
    lines.append(f"{block.get('city', '')}, {block.get('state', '')} {block.get('postalCode', '')}")
    contact = " ".join(filter(None, (block.get("contactName"), block.get("contactPhone"))))
    if contact:
        lines.append(contact)
    return [line for line in lines if line.strip()]


def _end_notes(block: dict[str, Any], reference: str | None = None) -> list[str]:
    """Dock hours, reference and instructions of one end: ``reference`` where given (the
    shipper's own, for the shipper's block), else the end's reference number."""
    notes = []
    if block.get("dockHoursOpen") or block.get("dockHoursClose"):
        notes.append(
            f"Dock hours {block.get('dockHoursOpen') or '?'}-{block.get('dockHoursClose') or '?'}"
        )
    if reference or block.get("referenceNumber"):
        notes.append(f"Ref {reference or block['referenceNumber']}")
    if block.get("instructions"):
        notes.append(f"Note: {block['instructions']}")
    return notes


def _hazmat_line(hazard: dict[str, Any]) -> str:
    parts = [f"HM {hazard.get('hazmatId', '')}", f"Class {hazard.get('hazardClass', '')}"]
    if hazard.get("packingGroup"):
        parts.append(f"PG {hazard['packingGroup']}")
    if hazard.get("properShippingName"):
        parts.append(str(hazard["properShippingName"]))
    return ", ".join(parts)


def _shipment_notes(shipment: dict[str, Any]) -> list[str]:
    """Pickup date, references, accessorials and the emergency contact, one line each."""
    notes = []
    if shipment.get("requestedPickupDate"):
        notes.append(f"Pickup date: {shipment['requestedPickupDate']}")
    references = shipment.get("references") or {}
    if references:
        notes.append("References: " + ", ".join(f"{k} {v}" for k, v in references.items()))
    if shipment.get("accessorials"):
        notes.append("Accessorials: " + ", ".join(shipment["accessorials"]))
    emergency = shipment.get("emergencyContact") or {}
    if emergency:
        notes.append(
            "Hazmat emergency contact (24 h): "
            + " ".join(filter(None, (emergency.get("name"), emergency.get("phone"))))
        )
    return notes


def _units(shipment: dict[str, Any]) -> int:
    return max(1, sum(int(item.get("quantity", 1)) for item in shipment["items"]))


def bol_pdf(shipment: dict[str, Any]) -> bytes:
    """A one-page straight bill of lading on US letter paper."""
    page = Page(*LETTER)
    top = LETTER[1] - 50
    page.text(40, top, "STRAIGHT BILL OF LADING - SHORT FORM", 15, bold=True)
    page.text(40, top - 16, "Not negotiable. SANDBOX document: no freight will move.", 8)
    page.text(400, top, f"BOL {shipment.get('bolNumber') or ''}", 11, bold=True)
    page.code39(400, top - 45, shipment.get("bolNumber") or "0", 28, 0.7)
    carrier = shipment["carrier"]
    page.text(40, top - 40, f"Carrier: {carrier['name']}  SCAC {carrier['scac']}", 10)
    page.text(40, top - 54, f"PRO: {shipment.get('proNumber') or ''}", 10, bold=True)
    page.text(40, top - 68, f"Service: {shipment.get('serviceType', '')}", 10)
    page.text(40, top - 82, f"Pickup confirmation: {shipment.get('pickupConfirmation') or '-'}")
    y = top - 115
    # The shipper's block carries the shipper's own reference (a client may have put a
    # reference of its own in the origin's reference number; it is listed under References)
    shipper = (shipment.get("references") or {}).get("reference")
    blocks = (("SHIP FROM", "origin", 40, shipper), ("SHIP TO", "destination", 320, None))
    for label, key, x, reference in blocks:
        page.rect(x - 6, y - 102, 268, 120)
        page.text(x, y, label, 9, bold=True)
        lines = _address_lines(shipment[key]) + _end_notes(shipment[key], reference)
        for offset, line in enumerate(lines[:8], start=1):
            page.text(x, y - 12 * offset, line[:50], 9)
    y -= 122
    page.text(40, y, f"Reference: {shipment.get('reference') or '-'}", 10)
    page.text(320, y, f"Shipment: {shipment['id']}", 10)
    for line in _shipment_notes(shipment):
        y -= 13
        page.text(40, y, line[:110], 9)
    y -= 22
    headers = ((40, "QTY"), (80, "TYPE"), (140, "DESCRIPTION"), (330, "NMFC"), (400, "CLASS"),
               (450, "WEIGHT (LB)"), (530, "HM"))  # fmt: skip
    for x, text in headers:
        page.text(x, y, text, 8, bold=True)
    page.line(36, y - 4, 576, y - 4)
    total = 0.0
    for item in shipment["items"][:16]:
        y -= 15
        weight = float(item["weight"]) * int(item["quantity"])
        total += weight
        cells = ((40, str(item["quantity"])), (80, item.get("package", "")),
                 (140, str(item.get("description", ""))[:34]), (330, item.get("nmfc") or ""),
                 (400, f"{item.get('freightClass', '')}"), (450, f"{weight:,.0f}"),
                 (530, "X" if item.get("hazardous") else ""))  # fmt: skip
        for x, text in cells:
            page.text(x, y, text, 9)
        hazard = item.get("hazard")
        if item.get("hazardous") and isinstance(hazard, dict):
            y -= 11
            page.text(140, y, _hazmat_line(hazard), 8, bold=True)
    page.line(36, y - 6, 576, y - 6)
    page.text(400, y - 20, "TOTAL", 9, bold=True)
    page.text(450, y - 20, f"{total:,.0f}", 9, bold=True)
    y -= 70
    page.text(
        40,
        y,
        "Received, subject to the classifications and tariffs in effect on the date of issue.",
        8,
    )
    for x, label in ((40, "SHIPPER SIGNATURE / DATE"), (320, "CARRIER SIGNATURE / PICKUP DATE")):
        page.line(x, y - 40, x + 240, y - 40)
        page.text(x, y - 52, label, 8)
    return render([page], f"BOL {shipment.get('bolNumber') or shipment['id']}")


def _tracking(shipment: dict[str, Any]) -> list[str]:
    numbers = list(shipment.get("trackingNumbers") or [])
    return numbers or [shipment.get("proNumber") or shipment["id"]]


def label_pdf(shipment: dict[str, Any]) -> bytes:
    """4x6 in labels, one per handling unit (parcel: per package)."""
    pages = []
    count = min(_units(shipment), MAX_LABELS)
    numbers = _tracking(shipment)
    for index in range(count):
        page = Page(*LABEL_4X6)
        number = numbers[index] if index < len(numbers) else numbers[0]
        page.text(12, 410, shipment["carrier"]["name"][:40], 11, bold=True)
        page.text(12, 396, f"{shipment.get('serviceType', '')}  {shipment['mode'].upper()}", 9)
        page.line(8, 388, 280, 388)
        page.text(12, 374, "FROM", 7, bold=True)
        for offset, line in enumerate(_address_lines(shipment["origin"])[:4], start=1):
            page.text(12, 374 - 10 * offset, line[:46], 8)
        page.line(8, 318, 280, 318)
        page.text(12, 302, "SHIP TO", 8, bold=True)
        for offset, line in enumerate(_address_lines(shipment["destination"])[:4], start=1):
            page.text(12, 300 - 15 * offset, line[:32], 12, bold=offset == 1)
        page.line(8, 222, 280, 222)
        page.text(12, 204, ("PRO " if shipment["mode"] != "parcel" else "TRK ") + number, 13, True)
        page.code39(12, 130, number, 60, 0.62 if len(number) > 12 else 0.9)
        page.text(12, 112, f"Unit {index + 1} of {count}", 10)
        page.text(150, 112, f"Ref {shipment.get('reference') or '-'}", 9)
        page.text(12, 20, "SANDBOX label: not valid for shipping", 7)
        pages.append(page)
    return render(pages, f"Labels {shipment['id']}")


def _zpl_text(text: str) -> str:
    return "".join(c if 32 <= ord(c) < 127 and c not in "^~" else " " for c in text)


def label_zpl(shipment: dict[str, Any]) -> bytes:
    """ZPL II labels for a 4x6 in printer at 203 dpi (812 x 1218 dots), one per unit."""
    out = []
    count = min(_units(shipment), MAX_LABELS)
    numbers = _tracking(shipment)
    dest = _address_lines(shipment["destination"])
    origin = _address_lines(shipment["origin"])
    for index in range(count):
        number = numbers[index] if index < len(numbers) else numbers[0]
        lines = ["^XA", "^CI28", "^PW812", "^LL1218", "^LH0,0"]
        lines.append(f"^FO30,30^A0N,40,40^FD{_zpl_text(shipment['carrier']['name'][:34])}^FS")
        lines.append(f"^FO30,80^A0N,28,28^FD{_zpl_text(shipment.get('serviceType', ''))}^FS")
        lines.append("^FO20,120^GB772,3,3^FS")
        for offset, line in enumerate(origin[:4]):
            lines.append(f"^FO30,{140 + 30 * offset}^A0N,26,26^FD{_zpl_text(line[:50])}^FS")
        lines.append("^FO20,270^GB772,3,3^FS")
        lines.append("^FO30,290^A0N,30,30^FDSHIP TO^FS")
        for offset, line in enumerate(dest[:4]):
            lines.append(f"^FO30,{330 + 45 * offset}^A0N,40,40^FD{_zpl_text(line[:34])}^FS")
        lines.append("^FO20,540^GB772,3,3^FS")
        lines.append(f"^FO30,570^A0N,50,50^FD{_zpl_text(number)}^FS")
        lines.append(f"^FO60,640^BY3^BCN,200,N,N,N^FD{_zpl_text(number)}^FS")
        lines.append(f"^FO30,880^A0N,34,34^FDUnit {index + 1} of {count}^FS")
        lines.append(f"^FO30,930^A0N,30,30^FDRef {_zpl_text(shipment.get('reference') or '-')}^FS")
        lines.append("^FO30,1160^A0N,24,24^FDSANDBOX label: not valid for shipping^FS")
        lines.append("^PQ1^XZ")
        out.append("\n".join(lines))
    return ("\n".join(out) + "\n").encode("ascii")
