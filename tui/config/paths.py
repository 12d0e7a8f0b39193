"""Where Freight keeps its config, data and logs (platformdirs, evaluated at call time)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "freight-tui"
CONFIG_ENV = "FREIGHT_CONFIG"


def config_dir() -> Path:
    """The folder of the config file and the opt-in credentials file."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def config_file() -> Path:
    """The TOML config file: ``$FREIGHT_CONFIG`` when set, else ``config.toml`` in config_dir."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override).expanduser()
    return config_dir() / "config.toml"


def data_dir() -> Path:
    """Drafts, the sandbox database and saved documents (by default) live here."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    """Tables derived from installed data, rebuilt when missing (safe to delete)."""
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def log_dir() -> Path:
    """The folder of the log file."""
    return Path(platformdirs.user_log_dir(APP_NAME, appauthor=False))


def log_file() -> Path:
    """The app's log file."""
    return log_dir() / "freight.log"


def drafts_dir() -> Path:
    """Unsent shipment drafts."""
    return data_dir() / "drafts"


def documents_dir() -> Path:
    """Default folder for saved documents (BOLs, labels)."""
    return data_dir() / "documents"


def sandbox_db() -> Path:
    """Default SQLite file of the local sandbox."""
    return data_dir() / "sandbox.sqlite3"
