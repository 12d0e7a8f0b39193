"""The demo's first frame needs only a sketch of the profile; the typed one follows, same data."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.config import paths
from tui.config.plain import ConfigError, plain_settings, read_config_text
from tui.config.settings import AppConfig, Location, Profile, typed_config
from tui.demo import build_demo_session
from tui.session import OriginSketch, Session, SessionSketch

ACME = Profile(name="acme", base_url="https://api.acme.example", environment="production")


RENO = OriginSketch("89501", "residential", ("liftgate pickup",))


def _sketched(built: list[str], origin: OriginSketch | None = RENO) -> Session:
    def build() -> tuple[Profile, AppConfig]:
        built.append("built")
        return ACME, AppConfig()

    return Session(
        environment="PRODUCTION",
        profile=SessionSketch("acme", origin, build),
        config=None,
        data_dir=paths.data_dir(),
        connect=None,
    )


def test_what_the_first_frame_shows_does_not_build_the_typed_profile() -> None:
    built: list[str] = []
    session = _sketched(built)
    assert session.profile_name == "acme"
    assert session.origin_sketch() == RENO
    assert session.drafts.load("quote") is None
    assert not session.is_demo
    assert built == []
    assert session.profile is ACME, "the first use of the profile builds it"
    session.settle()
    assert session.config == AppConfig()
    assert built == ["built"], "built once"


def test_a_sketch_without_an_origin_leaves_the_origin_empty() -> None:
    assert _sketched([], origin=None).origin_sketch() is None


def test_the_demo_sketch_matches_the_typed_demo_profile() -> None:
    session = build_demo_session()
    sketch = (session.profile_name, session.origin_sketch())
    session.settle()
    assert sketch == (session.profile.name, session.origin_sketch()), "typed: the same"
    assert sketch == ("demo", OriginSketch("60607", "business-dock", ()))


def test_the_demo_sketch_reads_the_origin_saved_in_an_earlier_demo() -> None:
    first = build_demo_session()
    dock = Location.model_validate(
        {
            "label": "Reno",
            "postal_code": "89501",
            "location_type": "residential",
            "accessorials": ["liftgate pickup"],
        }
    )
    first.change_profile(default_origin=dock)
    again = build_demo_session()
    assert again.origin_sketch() == RENO
    again.settle()
    assert again.origin_sketch() == RENO, "the typed profile reads the same edits"
    first.change_profile(default_origin=None)
    assert build_demo_session().origin_sketch() is None


def _config(text: str) -> Path:
    file = paths.config_file()
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    return file


def test_a_config_file_that_is_not_toml_stops_the_demo_before_it_starts() -> None:
    _config('default_profile = "acme\n')
    with pytest.raises(ConfigError, match="not valid TOML"):
        build_demo_session()


def test_a_config_error_of_the_typed_checks_comes_when_the_demo_settles() -> None:
    file = _config('[profiles.acme]\nbase_url = "https://api.acme.example"\nenvironment = "prod"\n')
    session = build_demo_session()
    assert session.profile_name == "demo"
    with pytest.raises(ConfigError) as caught:
        session.settle()
    assert caught.value.key == "profiles.acme.environment"
    assert caught.value.line == 3
    assert str(file) in str(caught.value)
    with pytest.raises(ConfigError):
        session.config  # noqa: B018 - each later use says it again


def test_reading_a_missing_config_file_gives_no_text() -> None:
    read = read_config_text()
    assert (read.file, read.text, read.data) == (paths.config_file(), None, {})


SETTINGS = """\
theme = "nord"

[keymap]
quote.add_item = "ctrl+b , f5"
"app.help" = "f12"
"""


def test_the_sketch_reads_theme_and_keymap_as_the_typed_config_does() -> None:
    _config(SETTINGS)
    read = read_config_text()
    typed = typed_config(read)
    assert plain_settings(read) == (typed.theme, typed.keymap)
    assert plain_settings(read) == ("nord", {"quote.add_item": "ctrl+b,f5", "app.help": "f12"})
    session = build_demo_session()
    assert (session.theme, session.keymap) == ("nord", typed.keymap)


@pytest.mark.parametrize(
    "text",
    ["theme = 3\n", '[keymap]\nQuote = "ctrl+b"\n', '[keymap]\n"quote.add_item" = 5\n'],
)
def test_settings_the_typed_checks_refuse_read_as_the_defaults_until_then(text: str) -> None:
    _config(text)
    session = build_demo_session()
    assert (session.theme, session.keymap) == ("textual-dark", {})
    with pytest.raises(ConfigError):
        session.settle()
