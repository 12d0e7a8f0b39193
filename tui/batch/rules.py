"""Choosing a rate for each order by rule: cheapest, fastest, or cheapest within N transit
days; preferred and excluded carriers; a maximum total per order.

Totals are compared only within one currency: when an order's offers come in several, the
rule chooses among those in the home currency (USD), or, with none in it, in the currency most
of them are in.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Final, Literal

from tui.batch.model import RateOption

RuleKind = Literal["cheapest", "fastest", "within"]
HOME_CURRENCY: Final = "USD"
CURRENCIES: Final = ("USD", "CAD")
"""The currencies offers come in (the service serves the US and Canada)."""
RULE_HELP: Final = "cheapest, fastest, or cheapest-within-N (N transit days)"
_WITHIN = re.compile(r"^cheapest[- ]within[- :]?(\d{1,2})(?:[- ]?days?)?$")


class RuleError(ValueError):
    """A rule written wrong; the message says how to write it."""


@dataclass(frozen=True)
class Rules:
    """How a batch chooses each order's rate."""

    kind: RuleKind = "cheapest"
    within_days: int | None = None
    prefer: tuple[str, ...] = ()
    """Carriers (name or SCAC) chosen among first when one of them has a rate that fits."""
    exclude: tuple[str, ...] = ()
    max_total: Decimal | None = None
    max_currency: str | None = None
    """The currency ``max_total`` is in; None: the total of any currency is held to it."""

    @property
    def text(self) -> str:
        """``cheapest within 3 days, prefer LKIF, max 1,500.00 USD``."""
        parts = [f"cheapest within {self.within_days} days" if self.kind == "within" else self.kind]
        if self.prefer:
            parts.append("prefer " + ", ".join(self.prefer))
        if self.exclude:
            parts.append("exclude " + ", ".join(self.exclude))
        if self.max_total is not None:
            parts.append(
                f"max {self.max_total:,.2f}"
                + (f" {self.max_currency}" if self.max_currency else "")
            )
        return ", ".join(parts)

    def to_json(self) -> dict[str, object]:
        """As the batch keeps it."""
        return {
            "kind": self.kind,
            "within_days": self.within_days,
            "prefer": list(self.prefer),
            "exclude": list(self.exclude),
            "max_total": str(self.max_total) if self.max_total is not None else None,
            "max_currency": self.max_currency,
        }

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Kept rules (the defaults for anything unreadable)."""
        if not isinstance(data, dict):
            return cls()
        kind = data.get("kind")
        within = data.get("within_days")
        total = data.get("max_total")
        try:
            max_total = Decimal(total) if isinstance(total, str) else None
        except InvalidOperation:
            max_total = None
        currency = data.get("max_currency")
        return cls(
            kind=kind if kind in ("cheapest", "fastest", "within") else "cheapest",
            within_days=within if isinstance(within, int) else None,
            prefer=tuple(str(x) for x in data.get("prefer") or () if isinstance(x, str)),
            exclude=tuple(str(x) for x in data.get("exclude") or () if isinstance(x, str)),
            max_total=max_total,
            max_currency=currency if isinstance(currency, str) else None,
        )


def parse_rule(text: str) -> tuple[RuleKind, int | None]:
    """``cheapest``, ``fastest`` or ``cheapest-within-3``."""
    value = " ".join(text.strip().lower().split())
    if value in ("cheapest", "fastest"):
        return value, None  # type: ignore[return-value]
    found = _WITHIN.match(value)
    if found and int(found[1]) >= 1:
        return "within", int(found[1])
    raise RuleError(f"--rule {text!r}: use {RULE_HELP}, e.g. cheapest-within-3")


def parse_max_total(text: str) -> tuple[Decimal, str | None]:
    """``1500``, ``1,500.00`` or ``1500 USD``."""
    found = re.fullmatch(r"\s*([\d,]+(?:\.\d{1,2})?)(?:\s*([A-Za-z]{3}))?\s*", text)
    if found is None:
        raise RuleError(f"--max-total {text!r}: an amount like 1500 or 1500.00 USD")
    if found[2] and found[2].upper() not in CURRENCIES:
        raise RuleError(
            f"--max-total {text!r}: {found[2]!r} is not a currency the service quotes in "
            f"({', '.join(CURRENCIES)})"
        )
    try:
        amount = Decimal(found[1].replace(",", ""))
    except InvalidOperation:
        raise RuleError(f"--max-total {text!r}: an amount like 1500 or 1500.00 USD") from None
    if amount <= 0:
        raise RuleError(f"--max-total {text!r}: must be more than 0")
    return amount, found[2].upper() if found[2] else None


def names_carrier(rate: RateOption, name: str) -> bool:
    """Whether ``name`` (a SCAC or the start of a carrier's name) names this rate's carrier."""
    wanted = " ".join(name.split()).casefold()
    if not wanted:
        return False
    return wanted == rate.carrier_code.casefold() or rate.carrier.casefold().startswith(wanted)


def unknown_carriers(rates: Sequence[RateOption], names: Sequence[str]) -> list[str]:
    """The names among ``names`` that name no carrier of these offers."""
    return [name for name in names if not any(names_carrier(r, name) for r in rates)]


def choose(rates: Sequence[RateOption], rules: Rules) -> tuple[RateOption | None, str]:
    """The rate the rules choose, or None and why none fits."""
    usable = [r for r in rates if r.ok and r.total > 0]
    if not usable:
        reasons = sorted({r.message for r in rates if r.message})
        why = "; ".join(reasons[:3])
        return None, "no carrier offered a rate" + (f" ({why})" if why else "")
    allowed = [r for r in usable if not any(names_carrier(r, x) for x in rules.exclude)]
    if not allowed:
        return None, "every offer is from an excluded carrier"
    currency = _currency(allowed)
    allowed = [r for r in allowed if r.currency == currency]
    if rules.max_total is not None:
        capped = [
            r
            for r in allowed
            if r.total <= rules.max_total
            or (rules.max_currency is not None and r.currency != rules.max_currency)
        ]
        if not capped:
            cheapest = min(allowed, key=lambda r: r.total)
            return None, (
                f"the cheapest offer, {cheapest.total:,.2f} {cheapest.currency}, is over the "
                f"maximum of {rules.max_total:,.2f}"
            )
        allowed = capped
    if rules.kind == "within" and rules.within_days is not None:
        days = rules.within_days
        fitting = [r for r in allowed if r.days is not None and r.days <= days]
        if not fitting:
            known = [r.days for r in allowed if r.days is not None]
            fastest = f" (the fastest takes {min(known)} days)" if known else ""
            return None, f"no offer within {days} transit days{fastest}"
        allowed = fitting
    preferred = [r for r in allowed if any(names_carrier(r, x) for x in rules.prefer)]
    pool = preferred or allowed
    if rules.kind == "fastest":
        best = min(pool, key=lambda r: (r.days if r.days is not None else 999, r.total, r.carrier))
    else:
        best = min(pool, key=lambda r: (r.total, r.days if r.days is not None else 999, r.carrier))
    return best, ""


def _currency(rates: Sequence[RateOption]) -> str:
    currencies = Counter(r.currency for r in rates)
    if HOME_CURRENCY in currencies:
        return HOME_CURRENCY
    return currencies.most_common(1)[0][0]
