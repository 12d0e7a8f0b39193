"""The config file read as plain TOML data, cheap enough to do before the first frame."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from tui.config import paths

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


@dataclass(frozen=True)
class ConfigText:
    """What the config file holds, parsed as TOML but not yet checked against the typed config."""

    file: Path
    text: str | None
    """The file's text; None when there is no file (the defaults apply)."""
    data: dict[str, Any] = field(default_factory=dict)
    """The TOML tables as plain dicts and lists (numbers with a fraction as Decimal)."""


def read_config_text(path: Path | None = None) -> ConfigText:
    """Read and parse the config file; a missing file is empty. Raises ConfigError for a file
    that cannot be read or is not valid TOML."""
    file = path if path is not None else paths.config_file()
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ConfigText(file, None)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(file, f"cannot read: {exc}") from None
    import tomllib  # only when there is a file

    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(file, f"not valid TOML: {exc}") from None
    return ConfigText(file, text, data)
