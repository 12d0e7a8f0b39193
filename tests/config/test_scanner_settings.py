"""The config's `[scanner]`: the prefix read in every spelling, kept as written, refused at its
line when it cannot be a prefix; the demo's first frame knows it before the typed config."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.config import paths
from tui.config.plain import ScannerKeys, plain_scanner, read_config_text, scanner_prefix_key
from tui.config.settings import ConfigError, load_config, save_config

GS = "ctrl+right_square_bracket"


def _config_file(text: str) -> Path:
    file = paths.config_file()
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    return file


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("ctrl+]", GS),
        ("\x1d", GS),
        (GS, GS),
        ("\x02", "ctrl+b"),
        ("Ctrl+B", "ctrl+b"),
        ("f11", "f11"),
        ("ctrl+\\", "ctrl+backslash"),
    ],
)
def test_a_prefix_is_read_as_the_key_the_terminal_sends(written: str, key: str) -> None:
    assert scanner_prefix_key(written) == key


@pytest.mark.parametrize("written", ["\r", "\t", "\x1b", "enter", "tab", "escape", "a", "~", ""])
def test_a_key_that_types_or_edits_is_no_prefix(written: str) -> None:
    with pytest.raises(ValueError, match=r"prefix"):
        scanner_prefix_key(written)


def test_the_scanner_is_read_kept_as_written_and_the_sketch_agrees() -> None:
    file = _config_file('theme = "nord"\n\n[scanner]\nprefix = "ctrl+]"  # GS\nsuffix = "tab"\n')
    config = load_config(file)
    assert config.scanner.keys == ScannerKeys(GS, "tab")
    assert plain_scanner(read_config_text(file)) == config.scanner.keys
    save_config(config.model_copy(update={"theme": "gruvbox"}), file)
    text = file.read_text(encoding="utf-8")
    assert 'prefix = "ctrl+]"  # GS' in text


def test_no_scanner_table_means_no_prefix() -> None:
    file = _config_file('theme = "nord"\n')
    assert load_config(file).scanner.keys is None
    assert plain_scanner(read_config_text(file)) is None


def test_a_prefix_that_types_is_refused_at_its_line() -> None:
    file = _config_file('theme = "nord"\n\n[scanner]\nprefix = "x"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(file)
    assert caught.value.key == "scanner.prefix"
    assert caught.value.line == 4
    assert plain_scanner(read_config_text(file)) is None  # until the typed config says so
