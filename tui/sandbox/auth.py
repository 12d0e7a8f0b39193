"""Seeded accounts and bearer-token checks (401, 402, 403)."""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from tui.sandbox.errors import ApiError


@dataclass(frozen=True)
class Account:
    """An API account: who it is and what it may do."""

    client_id: str
    secret: str
    subscribed: bool
    can_book: bool


ACCOUNTS: dict[str, Account] = {
    account.client_id: account
    for account in (
        Account("demo", "demo-secret", subscribed=True, can_book=True),
        Account("nosub", "nosub-secret", subscribed=False, can_book=True),
        Account("readonly", "readonly-secret", subscribed=True, can_book=False),
    )
}


def authenticate(header: str | None) -> Account:
    """Return the account of an ``Authorization: Bearer ID.SECRET`` header or raise 401."""
    if not header:
        raise ApiError(401, "UNAUTHORIZED", "Missing Authorization header (Bearer token).")
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "UNAUTHORIZED", "Authorization must be 'Bearer <CLIENT_ID>.<SECRET>'.")
    client_id, dot, secret = token.strip().partition(".")
    account = ACCOUNTS.get(client_id)
    if (
        not dot
        or account is None
        or not hmac.compare_digest(secret.encode(), account.secret.encode())
    ):
        raise ApiError(401, "UNAUTHORIZED", "Invalid API token.")
    return account


def require_subscription(account: Account) -> None:
    """Raise 402 when the account has no active subscription."""
    if not account.subscribed:
        raise ApiError(402, "SUBSCRIPTION_INACTIVE", "This account has no active subscription.")


def require_booking(account: Account) -> None:
    """Raise 403 when the account may not book."""
    if not account.can_book:
        raise ApiError(403, "FORBIDDEN", "This API token may not book shipments.")
