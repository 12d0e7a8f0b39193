"""Sign in: profile, base URL, environment, client ID and secret; or try the demo."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, ClassVar, Literal

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Button, Input

from tui.api.secret import Secret
from tui.config.resolve import ResolvedProfile
from tui.config.settings import AccountEnvironment
from tui.config.urls import is_placeholder
from tui.credentials import blocking, detect, redact
from tui.credentials.check import check_credentials
from tui.credentials.detect import KeyringState
from tui.credentials.session import CredentialConnector, attach, connector_for
from tui.demo import start_demo
from tui.forms.signin import canonical_or_none, field_errors, profile_for
from tui.host import Hosted
from tui.screens import signin_keep
from tui.screens.keyring_help import KeyringHelpScreen
from tui.screens.modal import FreightScreen
from tui.service_call import WorkerErrorsToHost
from tui.session import ENV_WORDS
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.signin_form import SignInForm

if TYPE_CHECKING:
    from tui.credentials.resolve import Credentials
    from tui.screens.signin_keep import Keep
    from tui.session import Session


class SignInScreen(Hosted, WorkerErrorsToHost, FreightScreen[bool]):
    """Asks for a profile's credentials, checks them with one call, and keeps them safely.

    Dismisses with True once signed in (or switched to the demo). The input of the screen
    underneath is untouched: this screen is pushed on top of it.
    """

    TITLE = "Sign in"

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
        yield SignInForm(id="signin-body")
        yield FreightFooter()

    @property
    def form(self) -> SignInForm:
        return self.query_one(SignInForm)

    @property
    def session(self) -> Session:
        return self.host.session

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
            base_url=canonical_or_none(profile.base_url),
            profile=session.config.profiles.get(profile.name),
            credential_store=session.config.credential_store,
            sources={"name": "config", "base_url": "config", "credential_store": "config"},
            in_config=profile.name in session.config.profiles,
        )
        connector = CredentialConnector(resolved, session.config, os.environ)
        attach(session, connector)
        return connector

    def on_mount(self) -> None:
        form = self.form
        resolved = self.connector.resolved
        form.input("profile").value = resolved.name if not resolved.is_demo else ""
        url = resolved.base_url or ""
        form.input("base_url").value = "" if is_placeholder(url) else url
        if resolved.environment in ("sandbox", "production"):
            form.environment = resolved.environment
        creds = self.connector.credentials
        if creds is not None:
            form.input("client_id").value = creds.client_id
        form.set_message(self.message, error=self.message is not None)
        form.focus_first_empty()
        self._look_up()

    # -- keyring state ------------------------------------------------------------------

    @work(exclusive=True, group="signin-lookup")
    async def _look_up(self) -> None:
        """Read the keyring (daemon thread, 5 s) to show its state; use what it holds."""
        connector = self.connector
        if connector.resolved.base_url is None or connector.resolved.needs_base_url:
            loaded = await blocking.acall(detect.load_backend)
            self.show_keyring(loaded.state or KeyringState("ok", _name(loaded)))
            return
        found = await connector.find()
        self.show_keyring(found.keyring)
        if found.problems and self.message is None:
            self.form.set_message(found.problems[0], error=True)
        creds = found.credentials
        if creds is not None and self.message is None and not self.session.has_connection:
            self.session.set_connection(connector.connect)
            self.notify(f"Signed in with the credentials from the {_place(creds)}.", timeout=4)
            self._done()

    async def _ask_keyring_choice(self, state: KeyringState) -> Keep | None:
        """Show why the keyring cannot keep the secret; the way chosen instead, or None."""

        self.show_keyring(state)
        return await self.app.push_screen_wait(KeyringHelpScreen(state))

    def show_keyring(self, state: KeyringState | None) -> None:
        """Remember the keyring's state and say on the form where a secret will be kept."""
        self.keyring_state = state
        self.form.show_keyring(
            state,
            store=self.connector.resolved.credential_store,
            env_credentials=self.connector.has_env_credentials(),
        )

    # -- editing ------------------------------------------------------------------------

    @on(Input.Changed, "#signin-profile")
    def _profile_changed(self, event: Input.Changed) -> None:
        profile = self.session.config.profiles.get(event.value.strip())
        if profile is not None and event.input.has_focus:
            self.form.input("base_url").value = (
                "" if is_placeholder(profile.base_url) else profile.canonical_url
            )
            self.form.environment = profile.environment

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

    # -- actions ------------------------------------------------------------------------

    def action_back(self) -> None:
        self.dismiss(False)

    def action_keyring_help(self) -> None:

        state = self.keyring_state or KeyringState("none", "", "not checked yet")
        if state.status == "ok":
            self.notify("The OS keyring is available: the secret is saved there.", timeout=4)
            return

        def chosen(choice: Literal["session", "file"] | None) -> None:
            if choice is not None:
                self.keep_choice = choice
                where = "for this session only" if choice == "session" else "in a plain file"
                self.form.set_message(f"The secret will be kept {where}.")

        self.app.push_screen(KeyringHelpScreen(state), chosen)

    def action_demo(self) -> None:
        """Switch this session to the demo on a local sandbox."""
        start_demo(self.session)
        self.form.clear_credentials()
        self._done()

    def action_sign_in(self) -> None:
        form = self._read_form()
        if form is not None:
            self._sign_in(*form)

    def _read_form(self) -> tuple[str, str, AccountEnvironment, str, Secret] | None:
        """The form's values, or None after showing each problem at its field."""
        form = self.form
        name = form.input("profile").value.strip()
        url_text = form.input("base_url").value.strip()
        client_id = form.input("client_id").value.strip()
        secret = Secret(form.input("secret").value.strip())
        redact.register(secret)
        environment = form.environment
        errors, url = field_errors(name, url_text, client_id, secret, environment)
        if not form.show_errors(errors):
            return None
        return name, url, environment, client_id, secret

    @work(exclusive=True, group="signin-submit")
    async def _sign_in(
        self, name: str, url: str, environment: AccountEnvironment, client_id: str, secret: Secret
    ) -> None:

        form = self.form
        button = self.query_one("#signin-submit", Button)
        button.disabled = True
        form.set_message("Checking with the service…")
        try:
            config = self.session.config
            profile = profile_for(config, name, url, environment)
            result = await check_credentials(url, client_id, secret, profile)
            if not result.authentic:
                form.set_message(result.message, error=True)
                form.field_error("secret", "not accepted: check the client ID and secret")
                form.input("secret").focus()
                return
            kept = await signin_keep.keep(
                self.connector,
                self.keep_choice,
                (name, url, client_id, secret),
                self._ask_keyring_choice,
            )
            if kept.warning:
                self.notify(kept.warning, severity="warning", timeout=8)
            if kept.credentials is None:
                hint = "Not signed in yet: choose how to keep the secret (F6)."
                if kept.problem:  # the store's failure stays on screen, with the way on
                    form.set_message(f"{kept.problem} {hint}", error=True)
                else:
                    form.set_message(hint)
                return
            problem = signin_keep.apply(self.session, self.connector, profile, kept.credentials)
            if problem is not None:
                self.notify(problem, severity="warning")
            notice = f"Signed in to {ENV_WORDS[environment]} as {client_id}; secret {kept.where}."
            if result.outcome != "ok":
                notice += " " + result.message
            self.notify(notice, timeout=6)
            form.clear_credentials()
            self._done()
        finally:
            button.disabled = False

    def _done(self) -> None:
        """Close (the headers follow the session's profile by themselves)."""
        self.dismiss(True)


def _name(loaded: detect.Loaded) -> str:
    return detect.backend_name(loaded.backend) if loaded.backend is not None else ""


def _place(creds: Credentials) -> str:
    return {
        "environment": "environment",
        "keyring": "OS keyring",
        "file": "plain file",
        "session": "session",
    }[creds.source]
