"""Who may drive ``freight serve``: the checks every request passes, without aiohttp.

The page runs the app as this machine's user, so a request is served only when all of these
hold (each answers one way in):

- **the token** printed at start, traded once for an HttpOnly, SameSite=Strict cookie that
  holds another secret: no other user, page or process on this machine knows either, and the
  printed address works once (a browser's history or a shared screen cannot reopen Freight);
- **the Host** names this server (the bound address, ``localhost`` or ``--public-url``'s
  host): a page on a rebound DNS name (``evil.example`` → 127.0.0.1) is refused;
- **the Origin** (a websocket's always, any request's when the browser sends one) is the
  served origin exactly: a page from another port, ``null`` (a ``file://`` page, a sandboxed
  frame) or another host cannot open the app even though the browser would send the cookie
  (cookies ignore ports, so SameSite alone does not stop another local port);
- **Sec-Fetch-Site** is ``same-origin`` or ``none`` (typed, a bookmark) for a request that
  relies on the cookie: another site's link, image or form cannot use it.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from dataclasses import dataclass, field
from urllib.parse import urlsplit

MAX_COLUMNS = 500
MAX_ROWS = 200
"""The largest terminal a connection may ask for (the app draws every cell it is given)."""

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "font-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
"""Everything the page loads comes from this server; no other page may frame it."""

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
"""On every response, refusals included."""


def new_token() -> str:
    """A fresh secret for one start of the server (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """True for an address that binds every interface (0.0.0.0, ::): no name to check."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def host_name(host_header: str) -> str:
    """The name in a Host header, without its port, lowercase (``[::1]:8000`` → ``::1``)."""
    value = host_header.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else ""
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def clamp_size(width: object, height: object) -> tuple[int, int]:
    """A terminal size a connection asked for, within 1..MAX_COLUMNS x 1..MAX_ROWS."""

    def number(value: object, default: int, top: int) -> int:
        try:
            asked = int(str(value))
        except ValueError:
            return default
        return max(1, min(asked, top))

    return number(width, 80, MAX_COLUMNS), number(height, 24, MAX_ROWS)


SPENT = (
    "this address was opened once already (its token works once): open Freight in the "
    "browser that opened it, or restart freight serve for a new address"
)
"""Why the printed address is refused after its token was traded for the cookie."""


@dataclass
class Gate:
    """The secrets and the names of one running server."""

    token: str = field(repr=False)
    """The printed one: good for one trade, for the cookie."""
    bound_host: str
    public_url: str | None = None
    secure: bool = False
    """Served over TLS (``--certfile``) or behind an ``https://`` public URL: the cookie is
    then ``Secure``."""
    port: int = 0
    cookie_secret: str = field(default_factory=new_token, repr=False)
    """What the cookie holds: never printed, never in an address."""
    spent: bool = field(default=False, init=False)
    """The printed token was traded: it opens nothing any more."""
    hosts: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        names = {"localhost"}
        if not is_wildcard(self.bound_host):
            names.add(host_name(self.bound_host))
        if self.public_url:
            names.add((urlsplit(self.public_url).hostname or "").lower())
        names.discard("")
        object.__setattr__(self, "hosts", frozenset(names))

    @property
    def cookie_name(self) -> str:
        """One cookie per port: cookies ignore ports, and two servers must not mix them."""
        return f"freight_token_{self.port}"

    def token_matches(self, given: str | None) -> bool:
        """``given`` is this start's printed token (compared in constant time)."""
        return _same(given, self.token)

    def cookie_matches(self, given: str | None) -> bool:
        """``given`` is the cookie's secret (compared in constant time)."""
        return _same(given, self.cookie_secret)

    def trade(self, given: str | None) -> bool:
        """Spend the printed token for the cookie: True once, for the first to bring it."""
        if self.spent or not self.token_matches(given):
            return False
        self.spent = True
        return True

    def host_allowed(self, host_header: str | None) -> bool:
        """The request names this server (any port: an SSH tunnel may use another)."""
        return bool(host_header) and host_name(host_header or "") in self.hosts

    def origins(self, scheme: str, host_header: str) -> set[str]:
        """The origins this page is served from, as the browser reached it."""
        served = {f"{scheme}://{host_header.strip().lower()}"}
        if self.public_url:
            parts = urlsplit(self.public_url)
            served.add(f"{parts.scheme}://{parts.netloc.lower()}")
        return served

    def origin_allowed(self, origin: str | None, scheme: str, host_header: str) -> bool:
        """``origin`` is exactly this server's (not ``null``, another port, another host)."""
        if not origin:
            return False
        return origin.strip().lower() in self.origins(scheme, host_header)

    def refusal(
        self,
        *,
        host: str | None,
        scheme: str,
        origin: str | None,
        fetch_site: str | None,
        token: str | None,
        cookie: str | None,
        websocket: bool,
        changes: bool = False,
    ) -> str | None:
        """Why this request is refused (a short reason for the 403 page), or None to serve.
        ``changes``: a request that changes something (an upload) needs its Origin too."""
        if not self.host_allowed(host):
            return "this server is not reached by that name"
        if (websocket or changes) and not self.origin_allowed(origin, scheme, host or ""):
            return "the app opens only from its own page"
        if origin is not None and not self.origin_allowed(origin, scheme, host or ""):
            return "requests from another page are refused"
        if self.token_matches(token) and not self.spent:
            return None
        if not self.cookie_matches(cookie):
            if self.token_matches(token):
                return SPENT
            return "open the address freight serve printed (it carries the token)"
        if fetch_site not in (None, "same-origin", "none"):
            return "requests from another page are refused"
        return None


def _same(given: str | None, secret: str) -> bool:
    """``given`` is ``secret``, compared in constant time (nothing given: never)."""
    if not given:
        return False
    return hmac.compare_digest(given.encode(), secret.encode())
