"""Check a client ID and secret with one cheap API call before anything is saved."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from tui.api.client import FreightClient
from tui.api.errors import (
    AuthenticationError,
    FreightError,
    PermissionDeniedError,
    SubscriptionError,
    TransportError,
)
from tui.api.options import ClientOptions
from tui.api.secret import Secret
from tui.credentials import redact
from tui.session import client_options_for

if TYPE_CHECKING:
    import httpx

    from tui.api.options import ClientOptions
    from tui.config.settings import Profile

Outcome = Literal["ok", "rejected", "inactive", "forbidden", "unreachable", "error"]
SAVABLE: frozenset[Outcome] = frozenset({"ok", "inactive", "forbidden"})
"""Outcomes that prove the credentials authentic (402 and 403 come after authentication)."""


@dataclass(frozen=True)
class CheckResult:
    """How the service answered, as a sentence for the user (never with the secret)."""

    outcome: Outcome
    message: str

    @property
    def authentic(self) -> bool:
        """True when the service recognised the credentials."""
        return self.outcome in SAVABLE


def client_options(profile: Profile | None) -> ClientOptions:
    """Client settings from a profile (the session's rule), or the defaults."""

    return ClientOptions() if profile is None else client_options_for(profile)


def token_of(client_id: str, secret: Secret) -> Secret:
    """The bearer token ``CLIENT_ID.CLIENT_SECRET``."""
    return Secret(f"{client_id}.{secret.reveal()}")


async def check_credentials(
    base_url: str,
    client_id: str,
    secret: Secret,
    profile: Profile | None = None,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
) -> CheckResult:
    """Make one authenticated request and say what it showed."""

    token = token_of(client_id, secret)
    redact.register(secret, token)
    try:
        async with FreightClient(
            base_url, token, transport=transport, options=client_options(profile)
        ) as client:
            await client.verify()
    except AuthenticationError:
        return CheckResult(
            "rejected",
            f"The service at {base_url} rejected this client ID and secret (401). "
            "Check both and try again.",
        )
    except SubscriptionError:
        return CheckResult(
            "inactive",
            "The credentials are valid, but the account has no active subscription (402): "
            "renew it in the account dashboard; rating and booking fail until then.",
        )
    except PermissionDeniedError:
        return CheckResult(
            "forbidden",
            "The credentials are valid but may not search shipments (403); some screens "
            "will say so.",
        )
    except TransportError as exc:
        return CheckResult("unreachable", redact.redact(f"Could not reach {base_url}: {exc}"))
    except (FreightError, ValueError) as exc:
        return CheckResult("error", redact.redact(f"The check failed: {exc}"))
    return CheckResult("ok", f"The service at {base_url} accepted the credentials.")
