"""Configuration: where files live, the typed config file, and which profile a run uses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.late import exports

if TYPE_CHECKING:
    from tui.config import toml_read as toml_read

_WHERE = {
    "toml_read": "tui.config.toml_read",  # tomllib: only when there is a config file
}

__all__ = ["toml_read"]

__getattr__, __dir__ = exports(__name__, _WHERE)
