"""The Batch review's rows in file order, with what its filter and its borders read kept as
compact columns (the filter's text, the status, the paperwork owed, the chosen totals per
currency): a filter is one pass over a list of strings giving a byte per row, and the counts
and totals of the rows it lets through are C-level passes over those columns, not a Python
step per row. No Textual: the review table shows what this finds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from decimal import Decimal
from itertools import compress, repeat
from operator import and_, contains
from typing import Final

from tui.batch.view import ReviewRow, counts_line, totals_line

_ZERO: Final = Decimal(0)
_COUNTED: Final = ("rated", "booked")
"""The statuses whose chosen totals the lower border adds up."""
KEPT_MASKS: Final = 8
"""How many filters' masks are kept (each a byte per row)."""


def _amount(row: ReviewRow) -> tuple[str, Decimal] | None:
    if row.total is None or row.status not in _COUNTED:
        return None
    return row.currency, row.total


def _bits(flags: bytearray) -> int:
    """Bytes of 0 and 1 as one number, a bit set per byte set."""
    return int.from_bytes(flags, "little")


def _cents(amount: Decimal) -> int | None:
    """An amount in cents, if it is a whole number of them (None otherwise)."""
    cents = amount.scaleb(2)
    return int(cents) if cents == cents.to_integral_value() else None


class ReviewIndex:
    """Every order's review row, by its place in the file (its number), and the columns the
    filter and the borders read."""

    def __init__(self) -> None:
        self._clear()

    def _clear(self) -> None:
        self.rows: list[ReviewRow] = []
        self._numbers: dict[str, int] = {}
        self._haystacks: list[str] = []
        self._statuses: list[str] = []
        self._in_status: dict[str, bytearray] = {}
        """Per status, which rows have it (a byte each)."""
        self._owing = bytearray()
        self._masks: dict[tuple[str, ...], bytearray] = {}
        """The last filters' masks, by their words, kept up to date as rows change: typing
        back to a filter seen a moment ago costs no pass over the rows."""
        self._amounts: dict[str, list[Decimal]] = {}
        """Per currency, each row's chosen total in it (zero for the others)."""
        self._cents: dict[str, list[int]] = {}
        """The same in cents, added up far faster than Decimals, while ``_uneven`` says
        none has a fraction of a cent."""
        self._uneven: Counter[str] = Counter()
        """Per currency, how many totals in it are not whole cents."""
        self._in_currency: dict[str, bytearray] = {}
        """Per currency, which rows have a chosen total in it."""
        # Of every row, kept as rows change (a rating run changes one at a time):
        self._status_counts: Counter[str] = Counter()
        self._owing_count = 0
        self._sums: dict[str, Decimal] = {}
        self._counted: Counter[str] = Counter()
        """Per currency, how many rows have a chosen total in it."""

    def __len__(self) -> int:
        return len(self.rows)

    def get(self, key: str) -> ReviewRow | None:
        number = self._numbers.get(key)
        return None if number is None else self.rows[number]

    def replace(self, rows: Iterable[ReviewRow]) -> None:
        """Every row at once, in file order."""
        self._clear()
        for row in rows:
            self.update(row)

    def update(self, row: ReviewRow) -> bool:
        """One order's row, new (True: it goes last) or changed."""
        number = self._numbers.get(row.key)
        if number is None:
            self._numbers[row.key] = len(self.rows)
            self.rows.append(row)
            self._haystacks.append(row.haystack)
            self._statuses.append(row.status)
            for in_status in self._in_status.values():
                in_status.append(0)
            self._set_status(len(self.rows) - 1, row.status)
            self._owing.append(row.paperwork_missing)
            for words, mask in self._masks.items():
                mask.append(row.matches(words))
            self._status_counts[row.status] += 1
            self._owing_count += row.paperwork_missing
            for currency, amounts in self._amounts.items():
                amounts.append(_ZERO)
                self._cents[currency].append(0)
                self._in_currency[currency].append(0)
            self._set_amount(len(self.rows) - 1, _amount(row))
            return True
        self.rows[number] = row
        self._haystacks[number] = row.haystack
        self._status_counts[self._statuses[number]] -= 1
        self._status_counts[row.status] += 1
        self._in_status[self._statuses[number]][number] = 0
        self._set_status(number, row.status)
        self._statuses[number] = row.status
        for words, mask in self._masks.items():
            mask[number] = row.matches(words)
        self._owing_count += row.paperwork_missing - self._owing[number]
        self._owing[number] = row.paperwork_missing
        self._set_amount(number, _amount(row))
        return False

    def _set_status(self, number: int, status: str) -> None:
        in_status = self._in_status.get(status)
        if in_status is None:
            in_status = self._in_status[status] = bytearray(len(self.rows))
        in_status[number] = 1

    def _set_amount(self, number: int, amount: tuple[str, Decimal] | None) -> None:
        for currency, amounts in self._amounts.items():
            if self._in_currency[currency][number]:
                self._uneven[currency] -= _cents(amounts[number]) is None
                self._sums[currency] -= amounts[number]
                self._counted[currency] -= 1
                amounts[number] = _ZERO
                self._cents[currency][number] = 0
                self._in_currency[currency][number] = 0
        if amount is None:
            return
        currency, total = amount
        if currency not in self._amounts:
            self._amounts[currency] = [_ZERO] * len(self.rows)
            self._cents[currency] = [0] * len(self.rows)
            self._in_currency[currency] = bytearray(len(self.rows))
        self._amounts[currency][number] = total
        self._sums[currency] = self._sums.get(currency, _ZERO) + total
        self._counted[currency] += 1
        cents = _cents(total)
        self._cents[currency][number] = cents or 0
        self._uneven[currency] += cents is None
        self._in_currency[currency][number] = 1

    def mask(self, words: Sequence[str]) -> bytearray | None:
        """A byte per row, set for those holding every word (None for no words: all). Read
        it, do not change it (the last few are kept, and kept up to date)."""
        if not words:
            return None
        key = tuple(words)
        found = self._masks.pop(key, None)  # (put back as the newest)
        if found is None:
            for word in words:  # (C-level passes: no Python step per row)
                holds = map(contains, self._haystacks, repeat(word))
                found = bytearray(holds if found is None else map(and_, found, holds))
            assert found is not None
            if len(self._masks) >= KEPT_MASKS:
                del self._masks[next(iter(self._masks))]
        self._masks[key] = found
        return found

    def counts_text(self, mask: bytearray | None) -> str:
        """``120 orders · 113 rated · 7 invalid`` for the rows ``mask`` lets through."""
        if mask is None:  # (kept as rows change: a rating run asks after each order)
            return counts_line(len(self.rows), self._status_counts, self._owing_count)
        # Bytes of 0 and 1 read as big numbers: an AND and a bit count per status count
        # the rows both let through, in C (no Python step per row).
        shown = _bits(mask)
        counts = {s: (shown & _bits(rows)).bit_count() for s, rows in self._in_status.items()}
        owing = (shown & _bits(self._owing)).bit_count()
        return counts_line(mask.count(1), counts, owing)

    def totals(self, mask: bytearray | None) -> dict[str, Decimal]:
        """The chosen totals per currency of the rated and booked rows ``mask`` lets through
        (a currency none of them is in is left out)."""
        if mask is None:
            return {c: self._sums[c] for c, counted in self._counted.items() if counted}
        out: dict[str, Decimal] = {}
        shown = _bits(mask)
        for currency, amounts in self._amounts.items():
            if not shown & _bits(self._in_currency[currency]):
                continue
            if self._uneven[currency]:
                out[currency] = sum(compress(amounts, mask), _ZERO)
            else:
                added = sum(compress(self._cents[currency], mask))
                out[currency] = Decimal(added).scaleb(-2)
        return out

    def totals_text(self, mask: bytearray | None) -> str:
        """``total 69,770.03 USD · 1,234.50 CAD`` for the rows ``mask`` lets through."""
        return totals_line(self.totals(mask))
