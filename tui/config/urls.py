"""Canonical form of a service base URL, so one host is always spelled one way; and the rule
that a production service is reached over https (loopback excepted, for a local tunnel)."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit, urlunsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}


class BaseURLError(ValueError):
    """A base URL that is not an absolute http(s) URL."""


def canonical_base_url(url: str) -> str:
    """Lower-case scheme and host, drop the default port, query, fragment and trailing slash.

    ``HTTPS://API.Example.com:443/v1/`` becomes ``https://api.example.com/v1``.
    """
    text = url.strip()
    if not text.isprintable() or " " in text:
        raise BaseURLError(
            "base URL holds a space or a control character; type the address alone, "
            "e.g. https://api.example.com"
        )
    try:
        parts = urlsplit(text)
    except ValueError as exc:  # `http://[::1`: a bracket never closed
        raise BaseURLError(f"base URL is not a web address ({exc}): {text!r}") from None
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


def is_loopback(url: str) -> bool:
    """True when the URL's host is this machine: ``localhost``, 127.0.0.0/8 or ``[::1]``."""
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def production_url_problem(url: str) -> str | None:
    """Why a production service cannot be reached at ``url`` (None: it can).

    Production means https: over http the API secret and every booking would cross the
    network readable by anyone on the way. Plain http stays allowed to this machine itself,
    for a local TLS tunnel (``stunnel``, ``ssh -L``) to the real service.
    """
    try:
        scheme = urlsplit(url.strip()).scheme.lower()
    except ValueError:
        return None  # not a URL at all: canonical_base_url says so
    if scheme != "http" or is_loopback(url):
        return None
    return (
        "a production service must be reached over https://: with http:// the API secret "
        "and every booking would cross the network unencrypted. Use the https:// address "
        "(http:// is allowed only to this machine, e.g. http://127.0.0.1:8443 for a local "
        "tunnel)"
    )


def is_placeholder(url: str) -> bool:
    """True for a URL under the reserved ``.invalid`` domain: a value still to be configured."""
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        return False
    return host == "invalid" or host.endswith(".invalid")
