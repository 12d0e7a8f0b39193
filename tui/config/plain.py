"""The config file read as plain TOML data, cheap enough to do before the first frame."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from tui import config
from tui.config import paths
from tui.domain.safe_text import lazy_pattern

DEMO_PROFILE = "demo"
"""Reserved profile name: the app's local sandbox with demo data, built at run time."""


class ConfigError(Exception):
    """The config file cannot be read: names the file, key path and line when known."""

    def __init__(
        self, file: Path, message: str, key: str | None = None, line: int | None = None
    ) -> None:
        self.file = file
        self.key = key
        self.line = line
        self.message = message
        where = str(file)
        if line is not None:
            where += f", line {line}"
        if key:
            where += f", {key}"
        super().__init__(f"{where}: {message}")


class UnknownKeyError(ValueError):
    """A dict key the config does not know; ``key`` is appended to the error's key path."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


class ConfigText(NamedTuple):
    """What the config file holds, parsed as TOML but not yet checked against the typed config.

    A named tuple, not a frozen dataclass: making the dataclass was a third of a millisecond
    of every start (it is read before the first frame)."""

    file: Path
    text: str | None
    """The file's text; None when there is no file (the defaults apply)."""
    data: dict[str, Any]
    """The TOML tables as plain dicts and lists (numbers with a fraction as Decimal)."""


def read_config_text(path: Path | None = None) -> ConfigText:
    """Read and parse the config file; a missing file is empty. Raises ConfigError for a file
    that cannot be read or is not valid TOML."""
    file = path if path is not None else paths.config_file()
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ConfigText(file, None, {})
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(file, f"cannot read: {exc}") from None

    try:
        data = config.toml_read.parse(text)
    except ValueError as exc:  # tomllib.TOMLDecodeError
        raise ConfigError(file, f"not valid TOML: {exc}") from None
    return ConfigText(file, text, data)


DEFAULT_THEME = "textual-dark"
BINDING_ID = lazy_pattern(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$")


def check_keymap(value: dict[str, str]) -> dict[str, str]:
    """Each entry a binding id (``screen.name``) and a comma-separated list of keys."""
    out: dict[str, str] = {}
    for binding_id, keys in value.items():
        if not BINDING_ID().match(binding_id):
            raise UnknownKeyError(binding_id, "a binding id looks like quote.add_item")
        parts = [part.strip() for part in keys.split(",")]
        if not all(parts) or any(" " in part for part in parts):
            raise UnknownKeyError(binding_id, 'keys are names joined by commas, e.g. "ctrl+n,f5"')
        out[binding_id] = ",".join(parts)
    return out


def flat_keymap(value: Any) -> Any:
    """``quote.add_item = …`` unquoted is a nested table in TOML: read it as the dotted id."""
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        if isinstance(item, dict):
            out.update({f"{key}.{inner}": keys for inner, keys in flat_keymap(item).items()})
        else:
            out[key] = item
    return out


class ScannerKeys(NamedTuple):
    """What a barcode scanner sends around a code ([scanner]): with a prefix, a scan is known
    by its content wherever the focus is (tui.key_filter)."""

    prefix: str
    """The key (Textual's name) the scanner sends before the code, e.g.
    ``ctrl+right_square_bracket``."""
    suffix: str = "enter"
    """The key it sends after the code: ``enter`` or ``tab``."""


SCANNER_SUFFIXES = ("enter", "tab")
_CONTROL_NAMES = {
    "\x1c": "ctrl+backslash",
    "\x1d": "ctrl+right_square_bracket",
    "\x1e": "ctrl+circumflex_accent",
    "\x1f": "ctrl+underscore",
}
_PUNCTUATION_NAMES = {
    "]": "right_square_bracket",
    "[": "left_square_bracket",
    "\\": "backslash",
    "^": "circumflex_accent",
    "_": "underscore",
}
_NOT_PREFIXES = {"\x00", "\t", "\n", "\r", "\x08", "\x1b", "\x7f"}
"""Tab, Enter, Backspace and Esc edit and move: a scanner's prefix is none of them."""
_KEY_NAME = lazy_pattern(r"^((ctrl|alt|shift)\+)*[a-z0-9_]+$")


def scanner_prefix_key(value: str) -> str:
    """The key a scanner prefix is read as: a control character (``"\\u001d"``, GS), a key
    such as ``ctrl+]`` or ``f11``, or Textual's own name of it. Raises ValueError."""
    if len(value) == 1 and (value < " " or value == "\x7f"):
        if value in _NOT_PREFIXES:
            raise ValueError("Tab, Enter, Backspace and Esc cannot be a scanner's prefix")
        if value in _CONTROL_NAMES:
            return _CONTROL_NAMES[value]
        return f"ctrl+{chr(ord(value) + 96)}"
    name = value.strip().lower()
    head, plus, last = name.rpartition("+")
    if plus and last in _PUNCTUATION_NAMES:
        name = f"{head}+{_PUNCTUATION_NAMES[last]}"
    if name in ("enter", "tab", "escape", "backspace", "ctrl+i", "ctrl+m", "ctrl+h"):
        raise ValueError("Tab, Enter, Backspace and Esc cannot be a scanner's prefix")
    if not _KEY_NAME().match(name) or ("+" not in name and len(name) == 1):
        raise ValueError(
            'a prefix is a control key or function key, e.g. "ctrl+]", "f11" or "\\u001d"'
        )
    return name


def plain_scanner(read: ConfigText) -> ScannerKeys | None:
    """The ``[scanner]`` keys as the typed config reads them (None: no prefix, scans told by
    their pace). What the typed checks refuse reads as no prefix here: they say so later."""
    table = read.data.get("scanner")
    if not isinstance(table, dict):
        return None
    prefix, suffix = table.get("prefix", ""), table.get("suffix", "enter")
    if not isinstance(prefix, str) or not prefix or suffix not in SCANNER_SUFFIXES:
        return None
    try:
        return ScannerKeys(scanner_prefix_key(prefix), suffix)
    except ValueError:
        return None


def plain_settings(read: ConfigText) -> tuple[str, dict[str, str]]:
    """The theme and ``[keymap]`` as the typed config reads them, from the plain data (the
    first frame's colours and keys). What the typed checks refuse reads as the default here:
    they say so, with the file and line, once the typed config is built."""
    theme = read.data.get("theme", DEFAULT_THEME)
    try:
        keymap = flat_keymap(read.data.get("keymap", {}))
        if not isinstance(keymap, dict) or not all(isinstance(v, str) for v in keymap.values()):
            raise TypeError("not a table of strings")
        keymap = check_keymap(keymap)
    except (TypeError, ValueError):
        keymap = {}
    return (theme if isinstance(theme, str) else DEFAULT_THEME), keymap
