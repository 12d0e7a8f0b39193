"""The sign-in form: profile, base URL, environment, client ID and secret, each with its error."""

from __future__ import annotations

from typing import ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Select

from tui.config.settings import AccountEnvironment
from tui.credentials import redact
from tui.credentials.detect import KeyringState
from tui.credentials.diagnosis import headline
from tui.domain.safe_text import plain_lines
from tui.widgets.plain import Label, Static
from tui.widgets.typeahead import TypeaheadFocus

FIELDS = ("profile", "base_url", "client_id", "secret")
"""The form's text fields, top to bottom."""


class SignInForm(Vertical, TypeaheadFocus):
    """The fields, the message above them, the keyring line and the two buttons below."""

    DEFAULT_CSS: ClassVar[str] = """
    SignInForm {
        padding: 0 1;
        height: 1fr;
    }
    SignInForm #signin-title {
        text-style: bold;
        height: 1;
    }
    SignInForm #signin-message {
        height: auto;
        color: $warning;
    }
    SignInForm #signin-message.-error {
        color: $error;
        text-style: bold;
    }
    SignInForm .field-row {
        height: 1;
        margin-top: 1;
    }
    SignInForm .field-label {
        width: 13;
    }
    SignInForm .field-row Input {
        width: 1fr;
    }
    SignInForm .field-row Select {
        width: 24;
    }
    SignInForm .field-error {
        height: auto;
        color: $error;
        padding-left: 13;
        display: none;
    }
    SignInForm .field-error.-shown {
        display: block;
    }
    SignInForm #signin-production {
        display: none;
        color: $error;
        text-style: bold;
        padding-left: 13;
    }
    SignInForm #signin-production.-shown {
        display: block;
    }
    SignInForm #signin-keyring {
        height: auto;
        margin-top: 1;
        color: $text-muted;
    }
    SignInForm #signin-keyring.-problem {
        color: $warning;
    }
    SignInForm #signin-buttons {
        height: 1;
        margin-top: 1;
    }
    SignInForm #signin-buttons Button {
        margin-right: 2;
    }
    """

    def compose(self) -> ComposeResult:
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
        yield from self._row("client_id", "Client ID", Input(id="signin-client_id", compact=True))
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

    @staticmethod
    def _row(name: str, label: str, field: Input) -> ComposeResult:
        with Horizontal(classes="field-row", id=f"row-{name}"):
            yield Label(label, classes="field-label")
            yield field
        yield Static("", id=f"error-{name}", classes="field-error", markup=False)

    def input(self, name: str) -> Input:
        """The text field called ``name`` (one of FIELDS)."""
        return self.query_one(f"#signin-{name}", Input)

    @property
    def environment(self) -> AccountEnvironment:
        return cast(AccountEnvironment, self.query_one("#signin-environment", Select).value)

    @environment.setter
    def environment(self, value: AccountEnvironment) -> None:
        self.query_one("#signin-environment", Select).value = value

    def focus_first_empty(self) -> None:
        for name in FIELDS:
            if not self.input(name).value:
                self.input(name).focus()
                return
        self.input("secret").focus()

    def set_message(self, text: str | None, *, error: bool = False) -> None:
        """The line above the fields (redacted: a secret never shows)."""
        message = self.query_one("#signin-message", Static)
        message.update(plain_lines(redact.redact(text or "")))
        message.set_class(error, "-error")

    def field_error(self, name: str, text: str | None) -> None:
        """Show ``text`` under the field (None hides it)."""
        error = self.query_one(f"#error-{name}", Static)
        error.update(plain_lines(text))
        error.set_class(bool(text), "-shown")

    def show_errors(self, errors: dict[str, str]) -> bool:
        """Show each field's problem (clearing the others), focus the first; True if none."""
        for field in FIELDS:
            self.field_error(field, errors.get(field))
        if errors:
            first = next(f for f in FIELDS if f in errors)
            self.input(first).focus()
        return not errors

    def show_keyring(
        self, state: KeyringState | None, *, store: str, env_credentials: bool
    ) -> None:
        """Say where a secret will be kept: environment, memory, plain file or the keyring."""

        if env_credentials:
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
        line = self.query_one("#signin-keyring", Static)
        line.update(text)
        line.set_class(problem, "-problem")

    def clear_credentials(self) -> None:
        """Empty the client ID and secret (after use: they are kept elsewhere or not at all)."""
        for name in ("client_id", "secret"):
            self.input(name).value = ""

    @on(Select.Changed, "#signin-environment")
    def _environment_changed(self, event: Select.Changed) -> None:
        self.query_one("#signin-production").set_class(event.value == "production", "-shown")

    @on(Input.Changed)
    def _clear_error(self, event: Input.Changed) -> None:
        name = (event.input.id or "").removeprefix("signin-")
        if name in FIELDS:
            self.field_error(name, None)
