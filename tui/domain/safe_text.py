"""Text from a server or a file made safe to show, and safe to name a file with.

Everything a server sends (and every line of a file the user hands us) is data: never markup,
never terminal control, never a path. This module is the one place that turns such text into
display text and into file names; every widget, notification, CLI line and saved file goes
through it.

- `plain` — a display string: terminal escape sequences (CSI, OSC, DCS…) removed, line breaks
  and tabs made spaces, every other control character (C0, C1, DEL, lone surrogates, bidi
  overrides) shown as a visible escape such as ``\\x07``. The result is still *plain text*: give
  it to a widget as ``Text``/``Content`` (or with ``markup=False``), never as a markup string.
- `visible` — for raw views: nothing removed, every control character (ESC too) shown as an
  escape, so the user sees exactly what came.
- `plain_cell` — a data file's cell (CSV): as `plain_lines`, but tab, CR and LF stay.
- `json_escaped` — JSON text (``json.dumps(..., ensure_ascii=False)``) with every character a
  terminal acts on written as a ``\\uXXXX`` escape: still the same JSON, safe to print.
- `decode_text` — a file's bytes as text, whatever wrote it: a BOM (UTF-8, UTF-16, UTF-32, as
  PowerShell's ``>`` writes), else UTF-8, else Windows-1252 (Latin-1's superset).
- `safe_name_part` / `safe_file_name` — a name with no separators, no leading dots, no reserved
  device names, length capped; `safe_file_name` includes the document's type and format.

Pure: no Textual, no I/O. The fast path (text with nothing to change) is one C-level check.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, partial

__all__ = [
    "FILE_NAME_LIMIT",
    "decode_text",
    "json_escaped",
    "plain",
    "plain_cell",
    "plain_lines",
    "safe_file_name",
    "safe_name_part",
    "visible",
]

FILE_NAME_LIMIT = 100
"""The longest file name `safe_file_name` returns, extension included (well under every
filesystem's 255 bytes, and short enough to read in a status line)."""

_FORMAT_LIMIT = 10
_KIND_LIMIT = 24


def lazy_pattern(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """`pattern`, compiled at its first use: compiling every pattern here took a millisecond
    of each start, whose first frame needs none (text that is printable skips them)."""
    return cache(partial(re.compile, pattern, flags))


# Terminal escape sequences, 7-bit and 8-bit forms. A string command (OSC, DCS, SOS, PM, APC)
# runs to its terminator (BEL or ST) or, unterminated, to the end of the text — as a terminal
# would swallow it.
_SEQUENCE = lazy_pattern(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"  # CSI: ESC[2J, ESC[31m
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]).*?(?:\x07|\x1b\\|\x9c|\Z)"  # OSC 0/8/52, DCS…
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?",  # any other ESC sequence (ESC c, ESC 7, ESC ( B)
    re.DOTALL,
)
# Characters never shown as they are: C0, DEL, C1, line/paragraph separators, the bidi
# embeddings, overrides and isolates (they reorder what is drawn), lone surrogates (an
# undecodable byte from argv or a file, which would fail to print).
_CONTROL_CLASS = "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
_CONTROL = lazy_pattern(_CONTROL_CLASS)
_CONTROL_RUN = lazy_pattern("\r\n|" + _CONTROL_CLASS)
# In JSON text: the structural whitespace (tab, newline, return) stays; json.dumps has escaped
# every control character inside strings but DEL and C1.
_JSON_UNSAFE = lazy_pattern(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
_LINE_BREAK = lazy_pattern("\r\n|[\n\r\x0b\x0c\x85\u2028\u2029]")
_SPACES = frozenset("\t\n\r\x0b\x0c\x85\u2028\u2029")


def _escape(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte Python could not decode (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def _escape_match(match: re.Match[str]) -> str:
    char = match.group()
    return " " if char in _SPACES or char == "\r\n" else _escape(char)


def _escape_keeping_breaks(match: re.Match[str]) -> str:
    char = match.group()
    if char == "\n":
        return "\n"
    return " " if char in _SPACES else _escape(char)


def _cut(text: str, limit: int | None) -> str:
    if limit is not None and len(text) > limit:
        return text[: max(limit - 1, 0)] + "…"
    return text


def _unless_printable(text: object, clean: Callable[[str], str]) -> str:
    """``text`` as a string (None is empty), through ``clean`` unless every character of it is
    printable (the common case: nothing to change)."""
    if text is None:
        return ""
    if not isinstance(text, str):
        text = str(text)
    return text if text.isprintable() else clean(text)


def plain(text: object, *, limit: int | None = None) -> str:
    """One line of display text from server or file text (None is empty).

    Escape sequences are removed, tabs and line breaks become spaces, other control characters
    become visible escapes (``\\x07``, ``\\u202e``). With `limit`, longer text is cut to that
    many characters, the last one ``…``.
    """
    return _cut(_unless_printable(text, _one_line), limit)


def _one_line(text: str) -> str:
    return _CONTROL_RUN().sub(_escape_match, _SEQUENCE().sub("", text))


def plain_lines(text: object, *, limit: int | None = None) -> str:
    """Like `plain`, but line breaks stay (as ``\\n``): for notes, messages, multi-line values."""
    return _cut(_unless_printable(text, _lines), limit)


def _lines(text: str) -> str:
    text = _LINE_BREAK().sub("\n", _SEQUENCE().sub("", text))
    return _CONTROL().sub(_escape_keeping_breaks, text)


def visible(text: object, *, keep_newlines: bool = True) -> str:
    """Raw text with every control character shown as an escape, escape sequences included.

    For views that show what came verbatim (the raw JSON): ``ESC]52;…`` appears as
    ``\\x1b]52;…``. Newlines stay line breaks unless `keep_newlines` is False.
    """

    def one(match: re.Match[str]) -> str:
        char = match.group()
        return "\n" if keep_newlines and char == "\n" else _escape(char)

    return _unless_printable(text, lambda raw: _CONTROL().sub(one, raw))


def plain_cell(text: object) -> str:
    """A cell of a data file (CSV): like `plain_lines`, but tab, CR and LF stay as they are.

    The file format quotes its own whitespace; escape sequences and every other control
    character are still removed or escaped, so the file is safe to print to a terminal.
    """
    return _unless_printable(
        text,
        lambda raw: _JSON_UNSAFE().sub(
            lambda match: _escape(match.group()), _SEQUENCE().sub("", raw)
        ),
    )


def json_escaped(dumped: str) -> str:
    """JSON text with DEL, C1, separators, bidi controls and lone surrogates as ``\\uXXXX``.

    ``json.dumps(ensure_ascii=False)`` escapes C0 but lets these through; outside strings JSON
    is ASCII, so escaping them anywhere in the text leaves the same JSON value.
    """
    if dumped.isascii() and "\x7f" not in dumped:
        return dumped
    return _JSON_UNSAFE().sub(lambda match: f"\\u{ord(match.group()):04x}", dumped)


_BOMS = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


def decode_text(data: bytes) -> tuple[str, str]:
    """The text of a file's bytes and the encoding read: never fails, never guesses wildly.

    A byte-order mark says the encoding (the mark is dropped); text with no mark whose every
    other byte is NUL is UTF-16 (little- or big-endian); otherwise UTF-8, and where that fails,
    Windows-1252 (a Latin-1 export), and for its five undefined bytes Latin-1 itself.
    """
    for mark, encoding in _BOMS:
        if data.startswith(mark):
            try:
                return data.decode(encoding), encoding
            except UnicodeDecodeError:
                continue
    if len(data) >= 2 and len(data) % 2 == 0:
        if data[1::2].count(0) == len(data) // 2 and data[0::2].count(0) == 0:
            return data.decode("utf-16-le", errors="replace"), "utf-16-le"
        if data[0::2].count(0) == len(data) // 2 and data[1::2].count(0) == 0:
            return data.decode("utf-16-be", errors="replace"), "utf-16-be"
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


# File names: ASCII letters, digits, dot, dash, underscore — safe on every filesystem a
# warehouse PC or a USB stick uses, and never a separator.
_UNSAFE_NAME = lazy_pattern(r"[^A-Za-z0-9._-]+")
_RESERVED = frozenset(
    {"con", "prn", "aux", "nul"} | {f"com{n}" for n in range(10)} | {f"lpt{n}" for n in range(10)}
)


def safe_name_part(text: object, *, limit: int = FILE_NAME_LIMIT) -> str:
    """A piece of a file name: separators and anything unusual become ``-``; no leading dots.

    Empty when nothing usable is left (the caller supplies its own default). A Windows device
    name (``CON``, ``lpt1``) gets a trailing ``_`` so it never names a device.
    """
    if text is None:
        return ""
    text = _CONTROL().sub("", _SEQUENCE().sub("", str(text)))  # escape sequences and controls go
    name = _UNSAFE_NAME().sub("-", text).strip("-.")
    name = re.sub(r"-{2,}", "-", name)[:limit].rstrip("-.")
    if name.split(".", 1)[0].lower() in _RESERVED:
        name = name + "_"
    return name


def _format_part(fmt: object) -> str:
    return re.sub(r"[^a-z0-9]+", "", str(fmt or "").lower())[:_FORMAT_LIMIT]


def safe_file_name(
    name: object,
    kind: object,
    fmt: object,
    *,
    default_kind: str = "document",
    default_format: str = "pdf",
    limit: int = FILE_NAME_LIMIT,
) -> str:
    """A file name for a document from server data: ``bol-BOL-4415.pdf``, ``label.zpl``.

    `name` is the server's name for it (the stem of its last path segment is kept; any
    extension is replaced), `kind`
    its type (``bol``, ``label``), `fmt` its format (``pdf``, ``zpl``). Each is cut down to
    letters, digits, ``.``, ``-`` and ``_``; the type leads the name unless the name already
    says it, the format is the extension. The result never holds a separator, never starts with
    a dot, is never a device name, and is at most `limit` characters.
    """
    extension = _format_part(fmt) or default_format
    kind_part = safe_name_part(str(kind or "").lower(), limit=_KIND_LIMIT) or default_kind
    stem_text = re.split(r"[/\\]", str(name or ""))[-1]
    if "." in stem_text:
        stem_text = stem_text.rsplit(".", 1)[0]
    room = max(limit - len(extension) - 1, 1)
    stem = safe_name_part(stem_text, limit=room)
    if not stem:
        stem = kind_part
    elif kind_part.lower() not in stem.lower():
        stem = safe_name_part(f"{kind_part}-{stem}", limit=room)
    return f"{stem[:room]}.{extension}"
