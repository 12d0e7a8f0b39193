"""What the sign-in fields must hold, the message at each field when not, and their profile."""

from __future__ import annotations

import re

from tui.api.secret import Secret
from tui.config.settings import DEMO_PROFILE, AccountEnvironment, AppConfig, Profile
from tui.config.urls import (
    BaseURLError,
    canonical_base_url,
    is_placeholder,
    production_url_problem,
)

PROFILE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


def field_errors(
    name: str,
    url_text: str,
    client_id: str,
    secret: Secret,
    environment: AccountEnvironment = "sandbox",
) -> tuple[dict[str, str], str]:
    """Each field's problem (none: empty) and the canonical base URL ("" if it has none).

    A production profile needs an https:// address (http:// only to this machine).
    """
    errors: dict[str, str] = {}
    if not PROFILE_NAME.match(name):
        errors["profile"] = "letters, digits, - and _ only (up to 40)"
    elif name == DEMO_PROFILE:
        errors["profile"] = "demo is the built-in demo: press F5 for it"
    url = ""
    try:
        url = canonical_base_url(url_text)
        if is_placeholder(url):
            errors["base_url"] = "enter the service's real base URL"
        elif environment == "production" and production_url_problem(url):
            errors["base_url"] = (
                "production needs https://: http:// would send the secret unencrypted "
                "(it is allowed only to this machine, for a tunnel)"
            )
    except BaseURLError as exc:
        errors["base_url"] = str(exc) if url_text else "the service's base URL is required"
    if not client_id:
        errors["client_id"] = "the client ID is required"
    elif any(c.isspace() for c in client_id):
        errors["client_id"] = "a client ID has no spaces"
    if not secret:
        errors["secret"] = "the secret is required"
    return errors, url


def canonical_or_none(url: str) -> str | None:
    """The canonical form of a base URL, or None if it is not one."""
    try:
        return canonical_base_url(url)
    except BaseURLError:
        return None


def profile_for(config: AppConfig, name: str, url: str, environment: AccountEnvironment) -> Profile:
    """The config's profile with this URL and environment, or a new one."""
    known = config.profiles.get(name)
    if known is None:
        return Profile(name=name, base_url=url, environment=environment)
    if known.canonical_url == url and known.environment == environment:
        return known
    return known.model_copy(update={"base_url": url, "environment": environment})
