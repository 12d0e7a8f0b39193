"""Canonical form of a service base URL, so one host is always spelled one way."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}


class BaseURLError(ValueError):
    """A base URL that is not an absolute http(s) URL."""


def canonical_base_url(url: str) -> str:
    """Lower-case scheme and host, drop the default port, query, fragment and trailing slash.

    ``HTTPS://API.Example.com:443/v1/`` becomes ``https://api.example.com/v1``.
    """
    text = url.strip()
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise BaseURLError(f"base URL must start with http:// or https://, got {text!r}")
    host = (parts.hostname or "").lower()
    if not host:
        raise BaseURLError(f"base URL has no host: {text!r}")
    if parts.username or parts.password:
        raise BaseURLError("base URL must not contain a user name or password")
    try:
        port = parts.port
    except ValueError as exc:
        raise BaseURLError(f"base URL has a bad port: {text!r}") from exc
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    path = parts.path.rstrip("/")
    return urlunsplit((scheme, netloc, path, "", ""))


def is_placeholder(url: str) -> bool:
    """True for a URL under the reserved ``.invalid`` domain: a value still to be configured."""
    host = (urlsplit(url).hostname or "").lower()
    return host == "invalid" or host.endswith(".invalid")
