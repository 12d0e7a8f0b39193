"""No usable keyring: say which case it is and offer ways forward, the safest first."""

from __future__ import annotations

from typing import ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Collapsible, Input
from textual.widgets.option_list import Option

from tui.credentials.detect import KeyringState
from tui.credentials.diagnosis import OFFERS, headline, technical
from tui.screens.modal import FreightDialog
from tui.widgets.footer import FreightFooter
from tui.widgets.plain import OptionList, Static

Choice = Literal["session", "file"]
CONFIRM_WORD = "plain"
"""What the user types to confirm saving the secret in a plain file."""


class KeyringHelpScreen(FreightDialog[Choice | None]):
    """The keyring diagnosis; returns "session", "file" (after a typed confirmation) or None."""

    TITLE = "Keeping the token"

    HELP = """\
## No usable keyring

Freight keeps secrets in the operating system's keyring. Over SSH there often is none, or it
is locked. **Use for this session only** keeps the secret in memory until you quit; the
environment variable and SSH keyring recipes work for every run; a plain file is the last
resort and asks you to type `plain` to confirm.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape",
            "back",
            "Back",
            id="keyring_help.back",
            tooltip="Back to the sign-in form (nothing is saved)",
        ),
        Binding(
            "f7",
            "session_only",
            "Session only",
            id="keyring_help.session",
            tooltip="Keep the secret in memory until you quit (safest)",
        ),
        Binding(
            "f8",
            "details",
            "Details",
            id="keyring_help.details",
            tooltip="Show or hide the technical detail (backend, error)",
        ),
        *(
            Binding(
                str(number),
                f"choose({number})",
                offer.title,
                id=f"keyring_help.choice_{number}",
                tooltip=f"Choose {number}. {offer.title}",
                show=False,
            )
            for number, offer in enumerate(OFFERS, start=1)
        ),
    ]

    DEFAULT_CSS = """
    KeyringHelpScreen > Vertical {
        width: 78;
        max-height: 100%;
        border: round $warning;
    }
    KeyringHelpScreen #keyring-headline {
        text-style: bold;
        height: auto;
    }
    KeyringHelpScreen #keyring-offers {
        height: auto;
        max-height: 6;
        margin-top: 1;
    }
    KeyringHelpScreen #keyring-offer-body {
        height: auto;
        max-height: 9;
        margin-top: 1;
    }
    KeyringHelpScreen #keyring-confirm {
        display: none;
        height: auto;
    }
    KeyringHelpScreen #keyring-confirm.-shown {
        display: block;
    }
    KeyringHelpScreen #keyring-confirm-error {
        color: $error;
        height: auto;
    }
    KeyringHelpScreen Collapsible {
        padding: 0;
        border: none;
    }
    """

    def __init__(self, state: KeyringState) -> None:
        super().__init__()
        self.state = state

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(headline(self.state), id="keyring-headline", markup=False)
            yield OptionList(
                *(
                    Option(f"{number}. {offer.title}", id=offer.key)
                    for number, offer in enumerate(OFFERS, start=1)
                ),
                id="keyring-offers",
                compact=True,
                markup=False,
            )
            with VerticalScroll(id="keyring-offer-body", can_focus=False):
                yield Static(OFFERS[0].body, id="keyring-offer-text", markup=False)
            with Vertical(id="keyring-confirm"):
                yield Static(
                    f"Anyone who can use your account, and root, can read that file. "
                    f"Type {CONFIRM_WORD} and press Enter to save there anyway.",
                    markup=False,
                )
                yield Input(
                    placeholder=CONFIRM_WORD,
                    id="keyring-confirm-input",
                    compact=True,
                    max_length=20,
                )
                yield Static("", id="keyring-confirm-error", markup=False)
            with Collapsible(title="Technical detail", id="keyring-details"):
                yield Static(technical(self.state), markup=False)
        yield FreightFooter()

    def on_mount(self) -> None:
        offers = self.query_one("#keyring-offers", OptionList)
        offers.highlighted = 0
        offers.focus()

    @on(OptionList.OptionHighlighted, "#keyring-offers")
    def _show_offer(self, event: OptionList.OptionHighlighted) -> None:
        body = next(o.body for o in OFFERS if o.key == event.option.id)
        self.query_one("#keyring-offer-text", Static).update(body)
        self.query_one("#keyring-confirm").set_class(event.option.id == "file", "-shown")

    @on(OptionList.OptionSelected, "#keyring-offers")
    def _choose(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == "session":
            self.dismiss("session")
        elif event.option.id == "file":
            self.query_one("#keyring-confirm").add_class("-shown")
            self.query_one("#keyring-confirm-input", Input).focus()
        else:
            self.notify(
                "Quit Freight (ctrl+q), follow these steps, and start it again.",
                title=next(o.title for o in OFFERS if o.key == event.option.id),
                timeout=6,
            )

    @on(Input.Submitted, "#keyring-confirm-input")
    def _confirm_file(self, event: Input.Submitted) -> None:
        if event.value.strip().lower() == CONFIRM_WORD:
            self.dismiss("file")
            return
        self.query_one("#keyring-confirm-error", Static).update(
            f"Type {CONFIRM_WORD} to save in a plain file, or Esc to go back."
        )

    def action_choose(self, number: int) -> None:
        """A number key: that choice, as if highlighted and Enter pressed."""
        offers = self.query_one("#keyring-offers", OptionList)
        offers.focus()
        offers.highlighted = number - 1
        offers.action_select()

    def action_back(self) -> None:
        self.dismiss(None)

    def action_session_only(self) -> None:
        self.dismiss("session")

    def action_details(self) -> None:
        details = self.query_one("#keyring-details", Collapsible)
        details.collapsed = not details.collapsed
