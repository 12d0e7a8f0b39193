"""A whole address in one cell, as ERP saved searches export it (NetSuite's ``Ship To``): a
line each for the company, ``Attn:`` the contact, the street, ``City ST ZIP`` (or ``City QC
H4P 2N2``) and the country. Read into the order's fields a file's own columns leave blank."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

_COUNTRIES: Final = {
    "us": "US", "usa": "US", "u s a": "US", "u s": "US", "united states": "US",
    "united states of america": "US", "ca": "CA", "can": "CA", "canada": "CA",
}  # fmt: skip
_PROVINCES: Final = {
    "alberta": "AB", "british columbia": "BC", "manitoba": "MB", "new brunswick": "NB",
    "newfoundland and labrador": "NL", "newfoundland": "NL", "nova scotia": "NS",
    "ontario": "ON", "prince edward island": "PE", "quebec": "QC", "québec": "QC",
    "saskatchewan": "SK", "northwest territories": "NT", "nunavut": "NU", "yukon": "YT",
}  # fmt: skip
_POSTAL: Final = r"\d{5}(?:-\d{4})?|[A-Za-z]\d[A-Za-z][ -]?\d[A-Za-z]\d"
_CITY_LINE: Final = (
    re.compile(rf"^(?P<city>.+?)[,\s]+(?P<state>[A-Za-z]{{2}})\.?[,\s]+(?P<zip>{_POSTAL})$"),
    re.compile(rf"^(?P<city>[^,]+),\s*(?P<state>[^\d,]{{4,30}}?)[,\s]+(?P<zip>{_POSTAL})$"),
)
_POSTAL_ONLY: Final = re.compile(rf"^(?:{_POSTAL})$")
_ATTENTION: Final = re.compile(r"^(?:attn|attention|c/o|care of)\b[.:]?\s*", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class AddressBlock:
    """The parts of a one-cell address."""

    company: str
    contact: str
    street: str
    city: str
    state: str
    zip: str
    country: str

    def fields(self) -> dict[str, str]:
        """The order fields it fills."""
        return {
            "dest_company": self.company,
            "contact": self.contact,
            "dest_address": self.street,
            "dest_city": self.city,
            "dest_state": self.state,
            "dest_zip": self.zip,
            "dest_country": self.country,
        }


def is_block(text: str) -> bool:
    """Whether a cell holds an address of several lines."""
    return sum(1 for line in text.splitlines() if line.strip()) >= 2


def parse_block(text: str) -> AddressBlock:
    """The parts of a one-cell address: the last lines give the city, state or province, ZIP
    or postal code, and the country (US when none). Raises ValueError with the reason."""
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    country = "US"
    if lines and _country_key(lines[-1]) in _COUNTRIES:
        country = _COUNTRIES[_country_key(lines.pop())]
    if len(lines) >= 2 and _POSTAL_ONLY.match(lines[-1]):
        postal = lines.pop()
        lines[-1] = f"{lines[-1]} {postal}"
    found = next((m for p in _CITY_LINE if lines and (m := p.match(lines[-1]))), None)
    if found is None:
        raise ValueError(
            "is not an address whose last lines give the city, state and ZIP (City ST 12345, "
            "or City QC H4P 2N2) and the country"
        )
    lines.pop()
    state = found["state"].strip()
    if len(state) != 2:
        code = _PROVINCES.get(state.casefold())
        if code is None:
            raise ValueError(f"is an address whose state or province {state!r} is not known")
        state = code
    zip_code = found["zip"].upper()
    if not zip_code[0].isdigit():
        country = "CA"
    contact = ""
    rest: list[str] = []
    for line in lines:
        attention = _ATTENTION.match(line)
        if attention is not None and not contact:
            contact = line[attention.end() :].strip()
        else:
            rest.append(line)
    company = rest.pop(0) if len(rest) >= 2 else ""
    return AddressBlock(
        company=company,
        contact=contact,
        street=", ".join(rest),
        city=found["city"].strip().rstrip(","),
        state=state.upper(),
        zip=zip_code,
        country=country,
    )


def _country_key(line: str) -> str:
    return " ".join(re.sub(r"[^\w ]", " ", line.casefold()).split())
