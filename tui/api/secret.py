"""A secret string (API token, client secret) that never shows itself by accident."""

from __future__ import annotations

from typing import Any, NoReturn

REDACTED = "***"


class Secret:
    """Holds a secret value; ``str``/``repr``/``format`` give ``'***'``, ``reveal()`` the value.

    Equal by value (compared in constant time) without exposing it; cannot be pickled or
    copied to plain text by ``pickle``/``copy``. Accepts a ``str`` or another ``Secret``.
    """

    __slots__ = ("_value",)
    _value: str

    def __init__(self, value: str | Secret) -> None:
        if isinstance(value, Secret):
            value = value.reveal()
        if not isinstance(value, str):
            raise TypeError("Secret holds a str")
        object.__setattr__(self, "_value", value)

    def reveal(self) -> str:
        """Return the secret value; the only way to get it out."""
        return self._value

    def __repr__(self) -> str:
        return f"Secret('{REDACTED}')"

    def __str__(self) -> str:
        return REDACTED

    def __format__(self, format_spec: str) -> str:
        return REDACTED

    def __bool__(self) -> bool:
        return bool(self._value)

    def __len__(self) -> int:
        return len(self._value)

    def __eq__(self, other: object) -> bool:
        # hmac is imported here, at the first comparison: the log's scrubber brings this
        # module to every start, and hmac (with hashlib and OpenSSL's digests) cost the first
        # frame about 8 M instructions (tests/ui/test_first_frame.py).
        import hmac

        if isinstance(other, Secret):
            return hmac.compare_digest(self._value.encode(), other._value.encode())
        return NotImplemented

    def __hash__(self) -> int:
        return hash((Secret, self._value))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("Secret is immutable")

    def __reduce__(self) -> NoReturn:
        raise TypeError("a Secret cannot be pickled")

    def __copy__(self) -> Secret:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Secret:
        return self

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        """Let pydantic models hold a ``Secret`` (from a str); it serializes as ``'***'``."""
        from pydantic_core import core_schema

        return core_schema.no_info_plain_validator_function(
            _to_secret,
            serialization=core_schema.plain_serializer_function_ser_schema(lambda _s: REDACTED),
        )


def _to_secret(value: Any) -> Secret:
    if isinstance(value, Secret):
        return value
    if isinstance(value, str):
        return Secret(value)
    raise ValueError("expected a text value")


def reveal(value: str | Secret) -> str:
    """Return the plain text of a ``str`` or ``Secret``."""
    return value.reveal() if isinstance(value, Secret) else value
