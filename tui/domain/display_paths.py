"""Paths as a person reads them on an 80-column screen: the home folder as `~`, and a path too
long for its place shortened in the middle, so its start (where) and its end (the file name)
both stay in view: `~/.local/share/…/exports/freight-shipments-2026-11-25.csv`."""

from __future__ import annotations

import os
from pathlib import Path

ELLIPSIS = "…"
HEAD_KEPT = 12
"""The start of a path shortened around its file name keeps at least this much (`~/.local/s`)."""


def home_relative(path: Path | str, home: Path | str | None = None) -> str:
    """`~/…` for a path under the home folder (`home`, else the user's); else as it is."""
    text = str(path)
    base = str(home) if home is not None else os.path.expanduser("~")
    if base and base != "~" and base != os.sep:
        base = base.rstrip(os.sep)
        if text == base:
            return "~"
        if text.startswith(base + os.sep):
            return "~" + text[len(base) :]
    return text


def middle_short(text: str, width: int) -> str:
    """`text` in at most `width` characters: whole when it fits; else its start and its end
    with `…` between, cut at folder separators where one is near, keeping the whole file name
    when it leaves room for the path's first `HEAD_KEPT` characters."""
    if len(text) <= width:
        return text
    if width <= 1:
        return ELLIPSIS[:width]
    room = width - 1
    name_start = text.rfind(os.sep) + 1
    tail = len(text) - name_start + 1 if name_start > 0 else 0  # "/name"
    if 0 < tail <= room - min(HEAD_KEPT, room // 3):
        head = room - tail
        cut = text.rfind(os.sep, 0, head)
        start = text[: cut + 1] if cut >= head // 2 else text[:head]
        return start + ELLIPSIS + text[name_start - 1 :]
    head = room // 2
    return text[:head] + ELLIPSIS + text[len(text) - (room - head) :]


def display_path(path: Path | str, width: int | None = None, home: Path | str | None = None) -> str:
    """A path to show: home as `~`, shortened in the middle to `width` when given."""
    text = home_relative(path, home)
    return middle_short(text, width) if width is not None else text
