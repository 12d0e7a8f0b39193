"""Sign in: profile, base URL, environment, client ID and secret; or try the demo."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, ClassVar, Literal, cast

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from tui.api.secret import Secret
from tui.config.resolve import ResolvedProfile
from tui.config.settings import DEMO_PROFILE, AppConfig, Environment, Profile
from tui.config.urls import BaseURLError, canonical_base_url, is_placeholder
from tui.credentials import blocking, detect, redact
from tui.credentials.detect import KeyringState
from tui.credentials.resolve import Credentials
from tui.credentials.session import ENV_WORDS, CredentialConnector, attach, connector_for
from tui.widgets.header import FreightHeader

if TYPE_CHECKING:
    from tui.app import FreightApp
    from tui.credentials.save import Saved
    from tui.session import Session

PROFILE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
FIELDS = ("profile", "base_url", "client_id", "secret")
Keep = Literal["keyring", "file", "session"]


class SignInScreen(Screen[bool]):
    """Asks for a profile's credentials, checks them with one call, and keeps them safely.

    Dismisses with True once signed in (or switched to the demo). The input of the screen
    underneath is untouched: this screen is pushed on top of it.
    """

    HELP = """\
## Sign in

Enter the **client ID** and **secret** from the account dashboard. They are checked with
one request before anything is saved, then kept in the OS keyring (or, when there is none,
for this session only unless you choose otherwise). The secret is never shown.

**Environment** decides the word in the header: PRODUCTION bookings are real.
F5 opens the demo on a local sandbox; no account is needed.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+s,f10",
            "sign_in",
            "Sign in",
            id="signin.submit",
            tooltip="Check the credentials with the service, then keep them",
        ),
        Binding(
            "f5",
            "demo",
            "Demo",
            id="signin.demo",
            tooltip="Try the demo on a local sandbox (no account needed)",
        ),
        Binding(
            "f6",
            "keyring_help",
            "Keyring",
            id="signin.keyring",
            tooltip="Why the secret cannot be saved securely here, and what to do",
        ),
        Binding(
            "escape",
            "back",
            "Back",
            id="signin.back",
            tooltip="Back to the previous screen, still signed out",
        ),
    ]

    DEFAULT_CSS = """
    SignInScreen #signin-body {
        padding: 0 1;
        height: 1fr;
    }
    SignInScreen #signin-title {
        text-style: bold;
        height: 1;
    }
    SignInScreen #signin-message {
        height: auto;
        color: $warning;
    }
    SignInScreen #signin-message.-error {
        color: $error;
        text-style: bold;
    }
    SignInScreen .field-row {
        height: 1;
        margin-top: 1;
    }
    SignInScreen .field-label {
        width: 13;
    }
    SignInScreen .field-row Input {
        width: 1fr;
    }
    SignInScreen .field-row Select {
        width: 24;
    }
    SignInScreen .field-error {
        height: auto;
        color: $error;
        padding-left: 13;
        display: none;
    }
    SignInScreen .field-error.-shown {
        display: block;
    }
    SignInScreen #signin-production {
        display: none;
        color: $error;
        text-style: bold;
        padding-left: 13;
    }
    SignInScreen #signin-production.-shown {
        display: block;
    }
    SignInScreen #signin-keyring {
        height: auto;
        margin-top: 1;
        color: $text-muted;
    }
    SignInScreen #signin-keyring.-problem {
        color: $warning;
    }
    SignInScreen #signin-buttons {
        height: 1;
        margin-top: 1;
    }
    SignInScreen #signin-buttons Button {
        margin-right: 2;
    }
    """

    def __init__(self, message: str | None = None) -> None:
        super().__init__()
        self.message = message
        self.keyring_state: KeyringState | None = None
        self.keep_choice: Keep | None = None
        """Set from the keyring diagnosis: keep the next sign-in in memory or a plain file."""
        self._connector: CredentialConnector | None = None

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield FreightHeader("Sign in")
        with Vertical(id="signin-body"):
            yield Static("Sign in to the shipping service", id="signin-title")
            yield Static("", id="signin-message", markup=False)
            yield from self._row("profile", "Profile", Input(id="signin-profile", compact=True))
            yield from self._row(
                "base_url",
                "Base URL",
                Input(id="signin-base_url", placeholder="https://api.example.com", compact=True),
            )
            with Horizontal(classes="field-row"):
                yield Label("Environment", classes="field-label")
                yield Select[str](
                    [("Sandbox", "sandbox"), ("Production", "production")],
                    allow_blank=False,
                    value="sandbox",
                    id="signin-environment",
                    compact=True,
                )
            yield Static(
                "PRODUCTION: bookings are real and billed.", id="signin-production", markup=False
            )
            yield from self._row(
                "client_id", "Client ID", Input(id="signin-client_id", compact=True)
            )
            yield from self._row(
                "secret",
                "Secret",
                Input(id="signin-secret", password=True, compact=True),
            )
            yield Static("Keyring: checking…", id="signin-keyring", markup=False)
            with Horizontal(id="signin-buttons"):
                yield Button("Sign in", id="signin-submit", variant="primary", compact=True)
                yield Button(
                    "Try the demo on a local sandbox",
                    id="signin-demo",
                    compact=True,
                    tooltip="No account needed (F5)",
                )
        yield Footer()

    @staticmethod
    def _row(name: str, label: str, field: Input) -> ComposeResult:
        with Horizontal(classes="field-row", id=f"row-{name}"):
            yield Label(label, classes="field-label")
            yield field
        yield Static("", id=f"error-{name}", classes="field-error", markup=False)

    @property
    def freight_app(self) -> FreightApp:
        return cast("FreightApp", self.app)

    @property
    def session(self) -> Session:
        return self.freight_app.session

    @property
    def connector(self) -> CredentialConnector:
        """The session's credential connector (made from the session's profile if missing)."""
        if self._connector is None:
            self._connector = connector_for(self.session) or self._new_connector()
        return self._connector

    def _new_connector(self) -> CredentialConnector:
        session = self.session
        profile = session.profile
        environment = "sandbox" if session.environment == "DEMO" else profile.environment
        resolved = ResolvedProfile(
            name=profile.name,
            environment=environment,
            base_url=_canonical_or_none(profile.base_url),
            profile=session.config.profiles.get(profile.name),
            credential_store=session.config.credential_store,
            sources={"name": "config", "base_url": "config", "credential_store": "config"},
            in_config=profile.name in session.config.profiles,
        )
        connector = CredentialConnector(resolved, session.config, os.environ)
        attach(session, connector)
        return connector

    def on_mount(self) -> None:
        resolved = self.connector.resolved
        self._input("profile").value = resolved.name if not resolved.is_demo else ""
        url = resolved.base_url or ""
        self._input("base_url").value = "" if is_placeholder(url) else url
        if resolved.environment in ("sandbox", "production"):
            self.query_one("#signin-environment", Select).value = resolved.environment
        creds = self.connector.credentials
        if creds is not None:
            self._input("client_id").value = creds.client_id
        self._set_message(self.message, error=self.message is not None)
        self._focus_first_empty()
        self._look_up()

    def _input(self, name: str) -> Input:
        return self.query_one(f"#signin-{name}", Input)

    def _focus_first_empty(self) -> None:
        for name in FIELDS:
            if not self._input(name).value:
                self._input(name).focus()
                return
        self._input("secret").focus()

    def _set_message(self, text: str | None, *, error: bool = False) -> None:
        message = self.query_one("#signin-message", Static)
        message.update(redact.redact(text or ""))
        message.set_class(error, "-error")

    # -- keyring state ------------------------------------------------------------------

    @work(exclusive=True, group="signin-lookup")
    async def _look_up(self) -> None:
        """Read the keyring (daemon thread, 5 s) to show its state; use what it holds."""
        connector = self.connector
        if connector.resolved.base_url is None or connector.resolved.needs_base_url:
            loaded = await blocking.acall(detect.load_backend)
            self._show_keyring(loaded.state or KeyringState("ok", _name(loaded)))
            return
        found = await connector.find()
        self._show_keyring(found.keyring)
        if found.problems and self.message is None:
            self._set_message(found.problems[0], error=True)
        creds = found.credentials
        if creds is not None and self.message is None and not self.session.has_connection:
            self.session.set_connection(connector.connect)
            self.notify(f"Signed in with the credentials from the {_place(creds)}.", timeout=4)
            self._done()

    def _show_keyring(self, state: KeyringState | None) -> None:
        from tui.credentials.diagnosis import headline

        self.keyring_state = state
        line = self.query_one("#signin-keyring", Static)
        store = self.connector.resolved.credential_store
        if self.connector.has_env_credentials():
            text, problem = "Credentials: environment variables (never saved).", False
        elif store == "memory":
            text, problem = "credential_store is memory: kept for this session only.", False
        elif store == "file":
            text, problem = "credential_store is file: saved in a plain file (not secure).", True
        elif state is None:
            text, problem = "Keyring: not checked yet.", False
        elif state.status == "ok":
            text, problem = f"Keyring: available ({state.backend}).", False
        elif state.status == "insecure":
            text, problem = f"Keyring: {headline(state)}", True
        else:
            text, problem = f"Keyring: {headline(state)} F6: what you can do.", True
        line.update(text)
        line.set_class(problem, "-problem")

    # -- editing ------------------------------------------------------------------------

    @on(Input.Changed, "#signin-profile")
    def _profile_changed(self, event: Input.Changed) -> None:
        profile = self.session.config.profiles.get(event.value.strip())
        if profile is not None and event.input.has_focus:
            self._input("base_url").value = (
                "" if is_placeholder(profile.base_url) else profile.canonical_url
            )
            self.query_one("#signin-environment", Select).value = profile.environment

    @on(Select.Changed, "#signin-environment")
    def _environment_changed(self, event: Select.Changed) -> None:
        self.query_one("#signin-production").set_class(event.value == "production", "-shown")

    @on(Input.Changed)
    def _clear_error(self, event: Input.Changed) -> None:
        name = (event.input.id or "").removeprefix("signin-")
        if name in FIELDS:
            self._field_error(name, None)

    @on(Input.Submitted)
    def _next_or_submit(self, event: Input.Submitted) -> None:
        if event.input.id == "signin-secret":
            self.action_sign_in()
        else:
            self.focus_next()

    @on(Button.Pressed, "#signin-submit")
    def _submit_pressed(self) -> None:
        self.action_sign_in()

    @on(Button.Pressed, "#signin-demo")
    def _demo_pressed(self) -> None:
        self.action_demo()

    def _field_error(self, name: str, text: str | None) -> None:
        error = self.query_one(f"#error-{name}", Static)
        error.update(text or "")
        error.set_class(bool(text), "-shown")

    # -- actions ------------------------------------------------------------------------

    def action_back(self) -> None:
        self.dismiss(False)

    def action_keyring_help(self) -> None:
        from tui.screens.keyring_help import KeyringHelpScreen

        state = self.keyring_state or KeyringState("none", "", "not checked yet")
        if state.status == "ok":
            self.notify("The OS keyring is available: the secret is saved there.", timeout=4)
            return

        def chosen(choice: Literal["session", "file"] | None) -> None:
            if choice is not None:
                self.keep_choice = choice
                where = "for this session only" if choice == "session" else "in a plain file"
                self._set_message(f"The secret will be kept {where}.")

        self.app.push_screen(KeyringHelpScreen(state), chosen)

    def action_demo(self) -> None:
        """Switch this session to the demo on a local sandbox."""
        from tui.demo import DemoSandbox, demo_profile

        session = self.session
        sandbox = DemoSandbox(session.data_dir / "demo-sandbox.sqlite3")
        session.environment = "DEMO"
        session.profile = demo_profile()
        session.closers.append(sandbox.stop)
        sandbox.start()
        session.set_connection(sandbox.connect)
        self._clear_inputs()
        self._done()

    def action_sign_in(self) -> None:
        form = self._read_form()
        if form is not None:
            self._sign_in(*form)

    def _read_form(self) -> tuple[str, str, Environment, str, Secret] | None:
        """The form's values, or None after showing each problem at its field."""
        name = self._input("profile").value.strip()
        url_text = self._input("base_url").value.strip()
        client_id = self._input("client_id").value.strip()
        secret = Secret(self._input("secret").value.strip())
        redact.register(secret)
        environment = cast(Environment, self.query_one("#signin-environment", Select).value)
        errors: dict[str, str] = {}
        if not PROFILE_NAME.match(name):
            errors["profile"] = "letters, digits, - and _ only (up to 40)"
        elif name == DEMO_PROFILE:
            errors["profile"] = "demo is the built-in demo: press F5 for it"
        url = ""
        try:
            url = canonical_base_url(url_text)
            if is_placeholder(url):
                errors["base_url"] = "enter the service's real base URL"
        except BaseURLError as exc:
            errors["base_url"] = str(exc) if url_text else "the service's base URL is required"
        if not client_id:
            errors["client_id"] = "the client ID is required"
        elif any(c.isspace() for c in client_id):
            errors["client_id"] = "a client ID has no spaces"
        if not secret:
            errors["secret"] = "the secret is required"
        for field in FIELDS:
            self._field_error(field, errors.get(field))
        if errors:
            first = next(f for f in FIELDS if f in errors)
            self._input(first).focus()
            return None
        return name, url, environment, client_id, secret

    @work(exclusive=True, group="signin-submit")
    async def _sign_in(
        self, name: str, url: str, environment: Environment, client_id: str, secret: Secret
    ) -> None:
        from tui.credentials.check import check_credentials

        button = self.query_one("#signin-submit", Button)
        button.disabled = True
        self._set_message("Checking with the service…")
        try:
            config = self.session.config
            profile = _profile_for(config, name, url, environment)
            result = await check_credentials(url, client_id, secret, profile)
            if not result.authentic:
                self._set_message(result.message, error=True)
                self._field_error("secret", "not accepted: check the client ID and secret")
                self._input("secret").focus()
                return
            kept = await self._keep(name, url, client_id, secret)
            if kept is None:
                self._set_message("Not signed in yet: choose how to keep the secret (F6).")
                return
            credentials, where = kept
            self._apply(config, profile, credentials)
            notice = f"Signed in to {ENV_WORDS[environment]} as {client_id}; secret {where}."
            if result.outcome != "ok":
                notice += " " + result.message
            self.notify(notice, timeout=6)
            self._clear_inputs()
            self._done()
        finally:
            button.disabled = False

    async def _keep(
        self, name: str, url: str, client_id: str, secret: Secret
    ) -> tuple[Credentials, str] | None:
        """Keep the checked credentials as the setting (or the diagnosis) says."""
        from tui.credentials.file_store import FileStoreError, UnsafeFileError
        from tui.credentials.keyring_store import KeyringUnusableError
        from tui.credentials.save import asave, target_for
        from tui.screens.keyring_help import KeyringHelpScreen

        store = self.connector.resolved.credential_store
        choice: Keep = self.keep_choice or cast(Keep, target_for(store))
        if target_for(store) == "memory":
            choice = "session"
        if choice == "keyring":
            try:
                saved = await asave(name, url, client_id, secret, "keyring")
            except KeyringUnusableError as exc:
                self._show_keyring(exc.state)
                picked = await self.app.push_screen_wait(KeyringHelpScreen(exc.state))
                if picked is None:
                    return None
                choice = picked
            else:
                return self._saved(saved, client_id, secret, "keyring")
        if choice == "file":
            try:
                saved = await asave(name, url, client_id, secret, "file")
            except (UnsafeFileError, FileStoreError, OSError) as exc:
                self._set_message(f"Not saved: {exc}", error=True)
                return None
            return self._saved(saved, client_id, secret, "file")
        creds = self.connector.memory.keep(name, url, client_id, secret)
        return creds, "kept for this session only"

    def _saved(
        self, saved: Saved, client_id: str, secret: Secret, source: Literal["keyring", "file"]
    ) -> tuple[Credentials, str]:
        if saved.warning:
            self.notify(saved.warning, severity="warning", timeout=8)
        where = "saved in the OS keyring" if source == "keyring" else "saved in a plain file"
        return Credentials(client_id, secret, source).register(), where

    def _apply(self, config: AppConfig, profile: Profile, credentials: Credentials) -> None:
        """Make the session use the new profile and credentials; save the config if changed."""
        from tui.config.settings import save_config

        session = self.session
        known = config.profiles.get(profile.name)
        if known != profile:
            config = config.model_copy(
                update={"profiles": {**config.profiles, profile.name: profile}}
            )
            try:
                save_config(config, session.config_path)
            except OSError as exc:
                self.notify(f"The config file was not updated: {exc}", severity="warning")
            session.config = config
        old = self.connector.resolved
        resolved = ResolvedProfile(
            name=profile.name,
            environment=profile.environment,
            base_url=profile.canonical_url,
            profile=profile,
            credential_store=old.credential_store,
            sources={**old.sources, "name": "config", "base_url": "config"},
        )
        self.connector.use(resolved, config, credentials)
        session.profile = profile
        session.environment = ENV_WORDS[profile.environment]
        session.set_connection(self.connector.connect)

    def _done(self) -> None:
        """Close, and repaint every header: profile and environment may have changed."""
        app = self.app
        self.dismiss(True)

        def repaint() -> None:
            for screen in app.screen_stack:
                for header in screen.query(FreightHeader):
                    header.refresh()

        app.call_after_refresh(repaint)

    def _clear_inputs(self) -> None:
        for name in ("client_id", "secret"):
            self._input(name).value = ""


def _canonical_or_none(url: str) -> str | None:
    try:
        return canonical_base_url(url)
    except BaseURLError:
        return None


def _profile_for(config: AppConfig, name: str, url: str, environment: Environment) -> Profile:
    """The config's profile with this URL and environment, or a new one."""
    known = config.profiles.get(name)
    if known is None:
        return Profile(name=name, base_url=url, environment=environment)
    if known.canonical_url == url and known.environment == environment:
        return known
    return known.model_copy(update={"base_url": url, "environment": environment})


def _name(loaded: detect.Loaded) -> str:
    return detect.backend_name(loaded.backend) if loaded.backend is not None else ""


def _place(creds: Credentials) -> str:
    return {
        "environment": "environment",
        "keyring": "OS keyring",
        "file": "plain file",
        "session": "session",
    }[creds.source]
