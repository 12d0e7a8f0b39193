"""The sign-in screen at 80x24: first run, checking with the sandbox, no keyring, the demo."""

from __future__ import annotations

import argparse
import logging
import stat
import uuid
from pathlib import Path

import keyring.core
import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.ui.screen import screen_text, wait_for
from tui.app import FreightApp, make_app
from tui.config.settings import load_config
from tui.credentials import detect
from tui.credentials.file_store import credentials_file
from tui.credentials.session import connector_for, session_from_args
from tui.sandbox.threaded import RunningSandbox
from tui.screens.keyring_help import KeyringHelpScreen
from tui.screens.signin import SignInScreen
from tui.session import Session

NO_KEYRING = "keyring.backends.fail.Keyring"


@pytest.fixture(autouse=True)
def fresh_backend() -> None:
    detect.reset()


def _session(profile: str | None = None) -> Session:
    return session_from_args(argparse.Namespace(profile=profile, base_url=None, demo=False))


async def _signin_screen(app: FreightApp, pilot: Pilot[None]) -> SignInScreen:
    await wait_for(pilot, lambda: isinstance(app.screen, SignInScreen))
    screen = app.screen
    assert isinstance(screen, SignInScreen)
    await wait_for(pilot, lambda: screen.keyring_state is not None)
    return screen


def _field(screen: SignInScreen, name: str) -> Input:
    return screen.query_one(f"#signin-{name}", Input)


async def _fill(pilot: Pilot[None], screen: SignInScreen, **values: str) -> None:
    """Put text in fields as pasted (typing every key of a URL makes tests slow)."""
    for name, value in values.items():
        field = _field(screen, name)
        field.focus()
        field.value = value
    await pilot.pause()


async def _fill_account(
    pilot: Pilot[None],
    screen: SignInScreen,
    base_url: str,
    *,
    profile: str = "acme",
    secret: str = "demo-secret",
) -> None:
    """Fill every field for the sandbox's demo account (client ID `demo`)."""
    await _fill(pilot, screen, profile=profile, base_url=base_url, client_id="demo", secret=secret)


async def _submit_to_the_diagnosis(pilot: Pilot[None], screen: SignInScreen, base_url: str) -> None:
    """Sign in to the demo account where there is no keyring: the diagnosis opens."""
    await _fill_account(pilot, screen, base_url)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, KeyringHelpScreen))


def _error(screen: SignInScreen, name: str) -> str:
    from textual.widgets import Static

    widget = screen.query_one(f"#error-{name}", Static)
    return str(widget.render()) if widget.has_class("-shown") else ""


def _files_with(home: Path, text: str) -> list[Path]:
    return [p for p in home.rglob("*") if p.is_file() and text.encode() in p.read_bytes()]


def test_every_binding_has_an_id_and_a_tooltip() -> None:
    for screen in (SignInScreen, KeyringHelpScreen):
        for binding in screen.BINDINGS:
            assert not isinstance(binding, tuple)
            assert binding.id, binding
            assert binding.tooltip, binding


async def test_first_run_opens_sign_in_with_a_hidden_secret_field() -> None:
    app = make_app(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _signin_screen(app, pilot)
        assert _field(screen, "secret").password
        assert _field(screen, "profile").value == "sandbox"
        assert _field(screen, "base_url").value == "", "the placeholder URL is not offered"
        assert _field(screen, "base_url").has_focus
        assert "Try the demo on a local sandbox" in screen_text(app)


async def test_bad_fields_are_marked_where_they_are_and_nothing_typed_is_lost() -> None:
    app = make_app(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _signin_screen(app, pilot)
        await _fill(pilot, screen, base_url="api.example.com", client_id="my id")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "http" in _error(screen, "base_url")
        assert "spaces" in _error(screen, "client_id")
        assert "required" in _error(screen, "secret")
        assert _field(screen, "base_url").has_focus
        assert _field(screen, "client_id").value == "my id"
        assert isinstance(app.screen, SignInScreen)


async def test_signing_in_checks_with_the_sandbox_and_saves_in_the_keyring(
    live_sandbox: RunningSandbox,
) -> None:
    session = _session()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _signin_screen(app, pilot)
        await _fill_account(pilot, screen, live_sandbox.base_url)
        secret_field = _field(screen, "secret")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, SignInScreen))
        assert session.profile.name == "acme"
        assert session.environment == "SANDBOX"
        assert session.has_connection
        assert secret_field.value == "", "the secret stays in a widget"
        client = await session.client()
        await client.verify()
    saved = keyring.core.get_keyring().get_password("freight-tui:acme", live_sandbox.base_url)
    assert saved is not None
    assert '"client_id":"demo"' in saved
    profile = load_config().profiles["acme"]
    assert (profile.base_url, profile.environment) == (live_sandbox.base_url, "sandbox")


async def test_saved_credentials_are_used_on_the_next_start(live_sandbox: RunningSandbox) -> None:
    url = live_sandbox.base_url
    first = make_app(_session())
    async with first.run_test(size=(80, 24)) as pilot:
        screen = await _signin_screen(first, pilot)
        await _fill(pilot, screen, profile="acme", base_url=url, client_id="demo")
        _field(screen, "secret").focus()
        await pilot.press(*"demo-secret", "enter")
        await wait_for(pilot, lambda: not isinstance(first.screen, SignInScreen))
    session = _session("acme")
    assert session.has_connection, "a saved profile should not ask again"
    client = await session.client()
    await client.verify()
    await session.aclose()


async def test_a_rejected_secret_stays_on_the_form_and_leaks_nowhere(
    live_sandbox: RunningSandbox, caplog: pytest.LogCaptureFixture, isolated_home: Path
) -> None:
    secret = f"wrong-{uuid.uuid4().hex}"
    app = make_app(_session())
    with caplog.at_level(logging.DEBUG):
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await _signin_screen(app, pilot)
            await _fill_account(pilot, screen, live_sandbox.base_url, secret=secret)
            await pilot.press("ctrl+s")
            await wait_for(
                pilot, lambda: "rejected" in str(screen.query_one("#signin-message").render())
            )
            assert isinstance(app.screen, SignInScreen)
            assert _field(screen, "client_id").value == "demo"
            assert "not accepted" in _error(screen, "secret")
            shot = app.export_screenshot() + screen_text(app)
            reprs = repr(screen.__dict__) + repr(connector_for(app.session))
    assert secret not in shot
    assert secret not in reprs
    assert secret not in caplog.text
    assert _files_with(isolated_home, secret) == []


async def test_without_a_keyring_the_diagnosis_offers_session_only_first(
    live_sandbox: RunningSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", NO_KEYRING)
    session = _session()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _signin_screen(app, pilot)
        assert screen.keyring_state is not None
        assert screen.keyring_state.status == "none"
        await _submit_to_the_diagnosis(pilot, screen, live_sandbox.base_url)
        text = screen_text(app)
        assert "no keyring service" in text
        assert text.index("session only") < text.index("environment variables")
        await pilot.press("enter")  # the first, highlighted offer: this session only
        await wait_for(pilot, lambda: not isinstance(app.screen, (SignInScreen, KeyringHelpScreen)))
        assert session.has_connection
        client = await session.client()
        await client.verify()
        connector = connector_for(session)
        assert connector is not None
        assert connector.credentials is not None
        assert connector.credentials.source == "session"
    assert not credentials_file().exists()


async def test_a_plain_file_needs_the_typed_confirmation(
    live_sandbox: RunningSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", NO_KEYRING)
    session = _session()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _signin_screen(app, pilot)
        await _submit_to_the_diagnosis(pilot, screen, live_sandbox.base_url)
        await pilot.press("down", "down", "down", "enter")
        await pilot.press(*"yes", "enter")
        await pilot.pause()
        assert isinstance(app.screen, KeyringHelpScreen)
        assert not credentials_file().exists()
        confirm = app.screen.query_one("#keyring-confirm-input", Input)
        confirm.value = ""
        await pilot.press(*"plain", "enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, (SignInScreen, KeyringHelpScreen)))
        assert session.has_connection
    path = credentials_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "demo-secret" in path.read_text()


async def test_escape_from_the_diagnosis_keeps_the_form(
    live_sandbox: RunningSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", NO_KEYRING)
    app = make_app(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _signin_screen(app, pilot)
        await _submit_to_the_diagnosis(pilot, screen, live_sandbox.base_url)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        assert _field(screen, "client_id").value == "demo"
        assert _field(screen, "secret").value == "demo-secret"
        assert not app.session.has_connection


async def test_a_401_message_is_shown_and_escape_returns_to_the_screen_below() -> None:
    app = make_app(_session())
    async with app.run_test(size=(80, 24)) as pilot:
        first = await _signin_screen(app, pilot)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, SignInScreen))
        below = app.screen
        app.show_sign_in("Credentials rejected (revoked or rotated?)")
        screen = await _signin_screen(app, pilot)
        assert screen is not first
        assert "revoked or rotated" in str(screen.query_one("#signin-message").render())
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is below)


async def test_environment_credentials_skip_the_sign_in(
    monkeypatch: pytest.MonkeyPatch, live_sandbox: RunningSandbox
) -> None:
    monkeypatch.setenv("FREIGHT_BASE_URL", live_sandbox.base_url)
    monkeypatch.setenv("FREIGHT_API_TOKEN", "demo.demo-secret")
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "no_such_module.Keyring")
    session = _session()
    assert session.has_connection
    client = await session.client()
    await client.verify()
    await session.aclose()
    assert detect._cache is None, "the keyring was loaded although the environment had credentials"


async def test_the_demo_action_switches_to_the_local_sandbox() -> None:
    session = _session()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _signin_screen(app, pilot)
        await pilot.press("f5")
        await wait_for(pilot, lambda: not isinstance(app.screen, SignInScreen))
        assert session.environment == "DEMO"
        assert session.has_connection
        await pilot.pause()
        assert " DEMO " in screen_text(app).splitlines()[0]


async def test_choosing_production_warns_before_signing_in(live_sandbox: RunningSandbox) -> None:
    from textual.widgets import Select

    session = _session()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _signin_screen(app, pilot)
        assert "bookings are real" not in screen_text(app)
        screen.query_one("#signin-environment", Select).value = "production"
        await wait_for(
            pilot,
            lambda: "PRODUCTION: bookings are real and billed." in screen_text(app),
            what="PRODUCTION: bookings are real and billed.",
        )
        await _fill_account(pilot, screen, live_sandbox.base_url, profile="live")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, SignInScreen))
        await pilot.pause()
        assert session.environment == "PRODUCTION"
        assert " PRODUCTION " in screen_text(app).splitlines()[0]
    assert load_config().profiles["live"].environment == "production"


async def test_the_number_keys_answer_the_numbered_offers(
    live_sandbox: RunningSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", NO_KEYRING)
    session = _session()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _signin_screen(app, pilot)
        await _submit_to_the_diagnosis(pilot, screen, live_sandbox.base_url)
        assert "4. " in screen_text(app)
        await pilot.press("4")  # the plain file: asks for the typed confirmation
        confirm = app.screen.query_one("#keyring-confirm-input", Input)
        assert app.focused is confirm
        await pilot.press(*"plain", "enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, (SignInScreen, KeyringHelpScreen)))
        assert session.has_connection
    assert "demo-secret" in credentials_file().read_text()


async def test_a_plain_file_that_cannot_be_written_says_why_and_keeps_the_form(
    live_sandbox: RunningSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", NO_KEYRING)
    credentials_file().mkdir(parents=True)  # a folder where the file goes: the save fails
    session = _session()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _signin_screen(app, pilot)
        await _submit_to_the_diagnosis(pilot, screen, live_sandbox.base_url)
        await pilot.press("4")
        await pilot.press(*"plain", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SignInScreen))
        await wait_for(
            pilot,
            lambda: "Not saved" in " ".join(screen_text(app).split()),
            what="the failure to save the plain file",
        )
        assert not session.has_connection
        assert _field(screen, "client_id").value  # nothing typed is lost
