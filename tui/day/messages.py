"""What the Day's paperwork did, in one line that fits the width it is shown in.

A message is made of parts: fixed words (the counts and what was printed or written, always
kept), names (a printer, a station: cut at the end), paths (cut in the middle, so the start
and the folder or file name stay), extras (notes: cut at the end) and spares (said elsewhere
too). A part may have a lead (``; files in ``) that goes with it when it is left out.
``fit`` first leaves out the spares, then shortens names and paths down to a floor each; the
line is whole if that is enough. Else it shortens the extras, leaves them out (the last
first), then the paths; only when even that is too long is the line cut at its end. A
screen shows the full text elsewhere when a line is not whole.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Literal

from rich.cells import cell_len

from tui.domain.display_paths import display_path, middle_short
from tui.domain.safe_text import plain

Kind = Literal["fixed", "name", "path", "extra", "spare"]
ELLIPSIS = "…"
LEAST: dict[Kind, int] = {"fixed": 0, "name": 10, "path": 18, "extra": 18, "spare": 0}
"""The fewest cells a part is shortened to before the next step."""


@dataclass(frozen=True)
class Part:
    """One piece of a message, how it may be shortened, and the words that lead to it."""

    text: str
    kind: Kind = "fixed"
    lead: str = ""


def fixed(text: str) -> Part:
    return Part(text)


def name(text: object) -> Part:
    """Server, file or config text: plain, one line, cut at the end when the line is long."""
    return Part(plain(text), "name")


def path(where: Path | str, lead: str = "") -> Part:
    return Part(plain(display_path(where)), "path", lead)


def extra(text: object, lead: str = "; ") -> Part:
    return Part(plain(text), "extra", lead)


def spare(text: object, lead: str = " · ") -> Part:
    return Part(plain(text), "spare", lead)


def _cut_end(text: str, cells: int) -> str:
    """``text`` in at most ``cells`` cells, ending in ``…`` when cut."""
    if cell_len(text) <= cells:
        return text
    if cells <= 0:
        return ""
    kept = text
    while kept and cell_len(kept) > cells - 1:
        kept = kept[:-1]
    return kept.rstrip() + ELLIPSIS


def _shorter(part: Part, cells: int) -> str:
    if part.kind == "path":
        shortened = middle_short(part.text, cells)
        return shortened if cell_len(shortened) <= cells else _cut_end(part.text, cells)
    return _cut_end(part.text, cells)


class _Line:
    """The parts as they stand while ``fit`` shortens them (None: left out)."""

    def __init__(self, parts: Sequence[Part], left_out: Collection[int] = ()) -> None:
        self.parts = parts
        self.texts: list[str | None] = [
            None if index in left_out else part.text for index, part in enumerate(parts)
        ]

    def cells(self, index: int) -> int:
        text = self.texts[index]
        return 0 if text is None else cell_len(self.parts[index].lead + text)

    @property
    def text(self) -> str:
        return "".join(
            part.lead + text for part, text in zip(self.parts, self.texts, strict=True) if text
        )

    def shrink(self, kinds: set[Kind], over: int) -> int:
        """Shorten the parts of ``kinds`` evenly (the one furthest above its floor first)
        until ``over`` cells are gone or each is at its floor; how many are still over."""
        while over > 0:
            slack = sorted(
                (
                    (cell_len(text) - LEAST[part.kind], i)
                    for i, (part, text) in enumerate(zip(self.parts, self.texts, strict=True))
                    if text is not None and part.kind in kinds
                ),
                reverse=True,
            )
            if not slack or slack[0][0] <= 0:
                break
            room, index = slack[0]
            below = max(slack[1][0], 0) if len(slack) > 1 else 0
            cut = min(over, max(room - below, 1))  # down to the next one, then turn about
            before = self.cells(index)
            text = self.texts[index] or ""
            self.texts[index] = _shorter(self.parts[index], cell_len(text) - cut)
            if self.cells(index) >= before:  # could not shorten it (wide characters)
                break
            over -= before - self.cells(index)
        return over

    def leave_out(self, kind: Kind, over: int) -> int:
        """Leave out parts of ``kind``, the last first (never the first part of all), until
        ``over`` cells are gone; how many are still over."""
        for index in reversed(range(1, len(self.parts))):
            if over <= 0:
                break
            if self.parts[index].kind == kind and self.texts[index] is not None:
                over -= self.cells(index)
                self.texts[index] = None
        return over


def fit(parts: Sequence[Part], width: int) -> tuple[str, bool]:
    """The parts joined in at most ``width`` cells, and whether the line is whole (nothing
    but spares left out, names and paths shortened)."""
    line = _Line(parts)
    over = cell_len(line.text) - width
    if over <= 0:
        return line.text, True
    over = line.leave_out("spare", over)
    if line.shrink({"name", "path"}, over) <= 0:
        return line.text, True
    over = line.shrink({"name", "path", "extra"}, over)
    over = line.leave_out("extra", over)
    line.leave_out("path", over)
    # What is left out leaves room: shorten the rest again from their whole text.
    line = _Line(parts, [index for index, text in enumerate(line.texts) if text is None])
    over = line.shrink({"name", "path"}, cell_len(line.text) - width)
    if line.shrink({"extra"}, over) > 0:
        return _cut_end(line.text, width), False
    return line.text, False


def text_of(parts: Iterable[Part]) -> str:
    """The whole message, nothing shortened (a log, a notification, the command line)."""
    return "".join(part.lead + part.text for part in parts)


def counted(count: int, noun: str) -> str:
    """``1 BOL``, ``12 BOLs``, ``2 label files``."""
    return f"{count} {noun}{'s' * (count != 1)}"


def day_name(day: date) -> str:
    """``Tue Nov 24``: the day as a person says it (the year is on the table's title)."""
    return f"{day:%a %b} {day.day}"


def manifests_written(written: Sequence[Path], carriers: int, folder: Path) -> list[Part]:
    """``Wrote 2 manifests (4 files: CSV and PDF) to ~/…/manifests``."""
    kinds = " and ".join(sorted({p.suffix.lstrip(".").upper() for p in written if p.suffix}))
    files = counted(len(written), "file") + (f": {kinds}" if kinds else "")
    return [fixed(f"Wrote {counted(carriers, 'manifest')} ({files})"), path(folder, " to ")]


def printed_summary(printed: Sequence[str]) -> str:
    """What the close records as written or printed here, counted: manifest files and print
    jobs (``bols-2026-11-24.pdf (2 BOLs)``) -> ``2 manifests; printed 2 BOLs``; "" for none."""
    manifests = {Path(entry).stem for entry in printed if entry.startswith("manifest-")}
    jobs = [entry for entry in printed if not entry.startswith("manifest-")]
    what = [
        entry[entry.index("(") + 1 : -1] if entry.endswith(")") and "(" in entry else entry
        for entry in jobs
    ]
    said = [counted(len(manifests), "manifest")] if manifests else []
    if what:
        said.append("printed " + ", ".join(what))
    return "; ".join(said)


def day_closed(
    day: date, shipments: int, printed: Sequence[str], carrier: str | None = None
) -> list[Part]:
    """``Closed Tue Nov 24: 2 shipments; 2 manifests; printed 2 BOLs, 2 label files``, or
    with a carrier ``Closed Estes on Tue Nov 24: 1 shipment; …`` (its name kept whole: what
    was printed gives way first; who closed it and when are on the day's title, or the
    carrier's heading)."""
    done = printed_summary(printed) or "nothing written or printed here"
    count = counted(shipments, "shipment")
    if carrier is None:
        return [fixed(f"Closed {day_name(day)}: {count}"), extra(done)]
    said = plain(f"Closed {carrier} on {day_name(day)}: {count}")  # the carrier kept whole
    return [fixed(said), extra(done)]
