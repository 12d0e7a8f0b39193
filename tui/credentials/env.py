"""Credentials from environment variables: FREIGHT_API_TOKEN, or the ID and secret pair.

``FREIGHT_API_TOKEN`` is ``CLIENT_ID.CLIENT_SECRET`` split on the FIRST period: everything
before it is the client ID, everything after it (periods included) the secret. A client ID that
itself contains a period must be given with ``FREIGHT_CLIENT_ID`` and ``FREIGHT_CLIENT_SECRET``.
Environment credentials are never saved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tui.api.secret import Secret

TOKEN = "FREIGHT_API_TOKEN"
CLIENT_ID = "FREIGHT_CLIENT_ID"
CLIENT_SECRET = "FREIGHT_CLIENT_SECRET"
NAMES = (TOKEN, CLIENT_ID, CLIENT_SECRET)


class EnvCredentialError(Exception):
    """The credential variables are set inconsistently; names the variables, never values."""


@dataclass(frozen=True)
class EnvCredentials:
    """A client ID and secret taken from the environment."""

    client_id: str
    secret: Secret
    variables: tuple[str, ...]
    """The variables they came from, for messages."""


def split_token(token: str) -> tuple[str, str]:
    """Split ``ID.SECRET`` on the first period; raises ValueError when a part is empty."""
    client_id, dot, secret = token.strip().partition(".")
    if not dot or not client_id or not secret:
        raise ValueError("a token is CLIENT_ID.CLIENT_SECRET")
    return client_id, secret


def from_env(env: Mapping[str, str]) -> EnvCredentials | None:
    """The credentials the environment sets, None when it sets none. Raises EnvCredentialError."""
    present = [name for name in NAMES if env.get(name, "").strip()]
    if not present:
        return None
    if TOKEN in present and len(present) > 1:
        raise EnvCredentialError(
            f"set either {TOKEN}, or {CLIENT_ID} with {CLIENT_SECRET}, not both "
            f"(set now: {', '.join(present)})"
        )
    if TOKEN in present:
        try:
            client_id, secret = split_token(env[TOKEN])
        except ValueError:
            raise EnvCredentialError(
                f"{TOKEN} must look like CLIENT_ID.CLIENT_SECRET (split at the first period)"
            ) from None
        return EnvCredentials(client_id, Secret(secret), (TOKEN,))
    if len(present) == 1:
        missing = CLIENT_SECRET if present[0] == CLIENT_ID else CLIENT_ID
        raise EnvCredentialError(f"{present[0]} is set but {missing} is not; set both or neither")
    return EnvCredentials(
        env[CLIENT_ID].strip(), Secret(env[CLIENT_SECRET].strip()), (CLIENT_ID, CLIENT_SECRET)
    )


def any_set(env: Mapping[str, str]) -> bool:
    """True when any credential variable is set (even inconsistently)."""
    return any(env.get(name, "").strip() for name in NAMES)
