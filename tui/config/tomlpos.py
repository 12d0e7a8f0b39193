"""Find the line of a key path in TOML text, so config errors can point at it."""

from __future__ import annotations

import re
from collections.abc import Sequence

_HEADER = re.compile(r"^\s*(\[\[?)\s*(?P<key>[^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY_LINE = re.compile(
    r"^\s*(?P<key>(?:[A-Za-z0-9_\-]+|\"(?:[^\"\\]|\\.)*\"|'[^']*')"
    r"(?:\s*\.\s*(?:[A-Za-z0-9_\-]+|\"(?:[^\"\\]|\\.)*\"|'[^']*'))*)\s*="
)
_PART = re.compile(r"\s*(?:([A-Za-z0-9_\-]+)|\"((?:[^\"\\]|\\.)*)\"|'([^']*)')\s*(?:\.|$)")

Path = tuple[str | int, ...]


def split_key(text: str) -> tuple[str, ...]:
    """Split a dotted TOML key (bare or quoted parts) into its parts."""
    parts: list[str] = []
    pos = 0
    while pos < len(text):
        match = _PART.match(text, pos)
        if match is None or match.end() == pos:
            break
        bare, basic, literal = match.groups()
        if bare is not None:
            parts.append(bare)
        elif basic is not None:
            parts.append(basic.encode().decode("unicode_escape"))
        else:
            parts.append(literal or "")
        pos = match.end()
    return tuple(parts)


def key_lines(text: str) -> dict[Path, int]:
    """Map each key path and table header in ``text`` to its 1-based line number.

    Arrays of tables get an index after their name, as pydantic reports them:
    the second ``[[p.book]]`` table's ``city`` is ``("p", "book", 1, "city")``.
    Keys inside inline tables and multi-line strings are not mapped.
    """
    lines: dict[Path, int] = {}
    counts: dict[tuple[str, ...], int] = {}
    table: Path = ()
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string is not None:
            if line.count(in_string) % 2 == 1:
                in_string = None
            continue
        header = _HEADER.match(line)
        if header is not None:
            names = split_key(header.group("key"))
            if header.group(1) == "[[":
                index = counts.get(names, -1) + 1
                counts[names] = index
                table = (*_indexed(names, counts), index)
                lines.setdefault(table[:-1], number)
            else:
                table = _indexed(names, counts)
            lines.setdefault(table, number)
            continue
        key = _KEY_LINE.match(line)
        if key is None:
            continue
        path = (*table, *split_key(key.group("key")))
        lines.setdefault(path, number)
        rest = line[key.end() :]
        for quote in ('"""', "'''"):
            if rest.count(quote) % 2 == 1:
                in_string = quote
    return lines


def _indexed(names: tuple[str, ...], counts: dict[tuple[str, ...], int]) -> Path:
    """Insert array-of-tables indexes for every prefix of ``names`` that is such an array."""
    out: list[str | int] = []
    for size in range(1, len(names) + 1):
        out.append(names[size - 1])
        prefix = names[:size]
        if prefix in counts and size < len(names):
            out.append(counts[prefix])
    return tuple(out)


def line_of(lines: dict[Path, int], loc: Sequence[str | int]) -> int | None:
    """The line of the longest prefix of ``loc`` that appears in ``lines``."""
    for size in range(len(loc), 0, -1):
        found = lines.get(tuple(loc[:size]))
        if found is not None:
            return found
    return None
