"""The config's `theme` and `[keymap]`: read, written back, and refused at the line when wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.app import make_app
from tui.config import paths
from tui.config.settings import ConfigError, load_config, save_config
from tui.session import Session


def _config_file(text: str) -> Path:
    file = paths.config_file()
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    return file


def _start(text: str) -> ConfigError:
    """Load ``text`` as the config file and build the app on it; return the error it gives."""
    file = _config_file(text)
    session = Session.for_testing("http://127.0.0.1:9", "demo.demo-secret", config=load_config())
    with pytest.raises(ConfigError) as caught:
        make_app(session)
    assert caught.value.file == file
    return caught.value


def test_theme_and_keymap_are_read_in_either_toml_spelling_and_written_back() -> None:
    file = _config_file(
        'theme = "nord"\n\n[keymap]\n"quote.add_item" = "ctrl+b, f5"\napp.help = "f1,?"\n'
    )
    config = load_config(file)
    assert config.theme == "nord"
    assert config.keymap == {"quote.add_item": "ctrl+b,f5", "app.help": "f1,?"}
    save_config(config.model_copy(update={"theme": "gruvbox"}), file)
    again = load_config(file)
    assert again.theme == "gruvbox"
    assert again.keymap == config.keymap
    session = Session.for_testing("http://127.0.0.1:9", "demo.demo-secret", config=again)
    assert make_app(session).theme == "gruvbox"


def test_saving_a_theme_to_a_fresh_config_writes_only_the_theme(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    save_config(load_config(file).model_copy(update={"theme": "nord"}), file)
    assert file.read_text(encoding="utf-8").strip() == 'theme = "nord"'  # no placeholder URL
    again = load_config(file)
    assert again.theme == "nord"
    assert again == load_config(tmp_path / "absent.toml").model_copy(update={"theme": "nord"})
    kept = tmp_path / "kept.toml"
    kept.write_text(
        '[profiles.sandbox]\nbase_url = "https://sandbox.example.invalid"\n'
        'environment = "sandbox"\n',
        encoding="utf-8",
    )
    save_config(load_config(kept).model_copy(update={"theme": "nord"}), kept)
    assert "[profiles.sandbox]" in kept.read_text(encoding="utf-8")  # a file that has it keeps it


def test_no_theme_is_textual_dark_and_no_keymap_changes_nothing(tmp_path: Path) -> None:
    config = load_config(tmp_path / "absent.toml")
    assert config.theme == "textual-dark"
    assert config.keymap == {}


def test_a_binding_id_that_does_not_exist_is_named_at_its_line() -> None:
    error = _start('theme = "nord"\n\n[keymap]\n"quote.add_item" = "ctrl+b"\n"quote.fly" = "x"\n')
    assert error.line == 5
    assert error.key == "keymap.quote.fly"
    assert "no key binding has this id" in str(error)


def test_a_key_two_bindings_of_one_screen_would_share_is_a_clash_at_its_line() -> None:
    error = _start('[keymap]\n"shipments.export" = "t"\n')
    assert error.line == 2
    assert "key 't' is also shipments.summary on ShipmentsScreen" in str(error)


def test_two_remapped_ids_on_one_key_name_the_later_one() -> None:
    text = '[keymap]\n"rates.filter" = "x"\n"rates.book" = "enter,x"\n'
    error = _start(text)
    assert (error.line, error.key) == (3, "keymap.rates.book")
    assert "rates.filter" in error.message


def test_moving_a_binding_away_frees_its_key_for_another() -> None:
    text = '[keymap]\n"shipments.summary" = "T"\n"shipments.export" = "t"\n'
    session = Session.for_testing(
        "http://127.0.0.1:9", "demo.demo-secret", config=load_config(_config_file(text))
    )
    assert make_app(session).session.config.keymap["shipments.export"] == "t"


def test_a_key_that_does_not_exist_is_refused() -> None:
    error = _start('[keymap]\n"app.help" = "ctrl+flux"\n')
    assert error.line == 2
    assert "not a key: 'ctrl+flux'" in str(error)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('[keymap]\n"Quote.Add" = "x"\n', 2, "a binding id looks like quote.add_item"),
        ('[keymap]\n"app.help" = "f1,,f2"\n', 2, "keys are names joined by commas"),
        ('\n[keymap]\n"app.help" = 5\n', 3, "valid string"),
    ],
)
def test_a_keymap_entry_of_the_wrong_shape_stops_loading_at_its_line(
    text: str, line: int, message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(_config_file(text))
    assert caught.value.line == line
    assert message in str(caught.value)


def test_an_unknown_theme_lists_the_themes_at_its_line() -> None:
    error = _start('default_profile = "sandbox"\ntheme = "neon"\n')
    assert error.line == 2
    assert error.key == "theme"
    assert "unknown theme 'neon'" in error.message
    for name in ("textual-dark", "nord", "gruvbox", "solarized-light"):
        assert name in error.message


def test_saving_another_setting_leaves_the_keymap_as_the_user_typed_it() -> None:
    typed = '[keymap]\napp.help = "f12"  # my help key\n"quote.add_item" = "ctrl+b, f5"\n'
    file = _config_file('theme = "nord"\n\n' + typed)
    save_config(load_config(file).model_copy(update={"theme": "gruvbox"}), file)
    text = file.read_text(encoding="utf-8")
    assert 'theme = "gruvbox"' in text
    assert typed in text
