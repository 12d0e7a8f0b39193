"""Text from a file or a server, made safe to show and to write: one line, no control
characters (no terminal escapes, no bidirectional overrides). Never markup, never a path."""

from __future__ import annotations

import unicodedata


def shown(text: str | None, limit: int = 200) -> str:
    """``text`` on one line without control or format characters, at most ``limit`` long."""
    if not text:
        return ""
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if char in "\t\n\r" or category == "Zl" or category == "Zp":
            kept.append(" ")
        elif category in ("Cc", "Cf", "Cs", "Co", "Cn"):
            continue
        else:
            kept.append(char)
    line = " ".join("".join(kept).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
