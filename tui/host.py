"""The app as screens and widgets see it: session, activity, errors and navigation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from textual.dom import DOMNode
    from textual.worker import Worker

    from tui.api.models import Quote, RateRequest, Shipment
    from tui.session import Session

LastRates = tuple["RateRequest", "str | None", "Quote"]
"""The last rates shown: request, mode filter and quote (for F3 after leaving them)."""


class Host(Protocol):
    """What a screen or widget may ask of the app; nothing else of it is theirs to touch."""

    @property
    def session(self) -> Session:
        """Who the app talks to: profile, environment, client."""

    @property
    def activity_text(self) -> str:
        """What is in flight, as the header shows it."""

    booking_in_flight: bool
    """True while a booking request is sent (quitting asks, a second one waits)."""
    last_rates: LastRates | None
    """The last rates shown, for F3."""

    def set_activity(self, key: str, text: str | None) -> None:
        """Show what is in flight in the header; None clears that entry."""

    def handle_api_error(self, error: BaseException) -> str:
        """Act on errors every screen shares (sign in again…); return a one-line message."""

    def show_quote(self, *, new: bool = False) -> None:
        """Go to the quote form; `new` starts it empty (the default origin stays)."""

    def show_rates(self) -> None:
        """Go to the rates of the last quote."""

    def show_shipments(self, search: str | None = None) -> None:
        """Go to the shipments list, optionally searching."""

    def open_shipment(self, shipment_id: str, listing: Shipment | None = None) -> None:
        """Show one shipment's detail."""

    def show_sign_in(self, message: str | None = None) -> None:
        """Ask for credentials on top of the current screen."""

    def hold_input(self) -> Callable[[], None]:
        """Keep keys and pastes waiting until the returned function is called (a screen
        mounting the rest of itself after its first frame); then they go on, in order."""

    def worker_failed(self, worker: Worker[Any]) -> None:
        """The safety net: a worker died of an error nothing caught; say so, log it."""


def host_of(node: DOMNode) -> Host:
    """The host of a mounted screen or widget (the running app)."""
    return cast(Host, node.app)
