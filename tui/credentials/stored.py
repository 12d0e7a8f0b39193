"""The saved form of one profile's credentials: one JSON value, so ID and secret change together."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from tui.api.secret import Secret

FORMAT_VERSION = 1


class StoredFormatError(ValueError):
    """A saved value that is not ours or is damaged (the message never includes the value)."""


@dataclass(frozen=True)
class StoredCredentials:
    """A client ID and secret as saved, with when they were saved."""

    client_id: str
    secret: Secret
    saved_at: datetime

    def encode(self) -> Secret:
        """The JSON text to save (a Secret, as it contains the secret)."""
        return Secret(
            json.dumps(
                {
                    "v": FORMAT_VERSION,
                    "client_id": self.client_id,
                    "client_secret": self.secret.reveal(),
                    "saved_at": self.saved_at.isoformat(),
                },
                separators=(",", ":"),
            )
        )

    @classmethod
    def new(cls, client_id: str, secret: Secret) -> StoredCredentials:
        """Credentials saved now (UTC, to the second)."""
        return cls(client_id, secret, datetime.now(UTC).replace(microsecond=0))

    @classmethod
    def decode(cls, text: str | Secret) -> StoredCredentials:
        """Parse a saved value; raises StoredFormatError."""
        raw = text.reveal() if isinstance(text, Secret) else text
        try:
            data = json.loads(raw)
        except ValueError:
            raise StoredFormatError("the saved value is not Freight's JSON") from None
        if not isinstance(data, dict) or data.get("v") != FORMAT_VERSION:
            raise StoredFormatError("the saved value has an unknown format")
        client_id, secret, saved = (data.get(k) for k in ("client_id", "client_secret", "saved_at"))
        if not (isinstance(client_id, str) and client_id and isinstance(secret, str) and secret):
            raise StoredFormatError("the saved value lacks the client ID or secret")
        try:
            saved_at = datetime.fromisoformat(saved) if isinstance(saved, str) else None
        except ValueError:
            saved_at = None
        if saved_at is None or saved_at.tzinfo is None:
            raise StoredFormatError("the saved value has no valid saved_at time")
        return cls(client_id, Secret(secret), saved_at)
