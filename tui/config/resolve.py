"""Which profile, base URL and credential store a run uses: flags > environment > config file."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, cast, get_args

from tui.config.settings import (
    DEMO_PROFILE,
    AppConfig,
    CredentialStore,
    Environment,
    Profile,
)
from tui.config.urls import (
    BaseURLError,
    canonical_base_url,
    is_placeholder,
    production_url_problem,
)

ENV_PROFILE = "FREIGHT_PROFILE"
ENV_BASE_URL = "FREIGHT_BASE_URL"
ENV_CREDENTIAL_STORE = "FREIGHT_CREDENTIAL_STORE"

Source = Literal["flag", "environment", "config", "default"]


class ProfileError(Exception):
    """The chosen profile, base URL or credential store cannot be used; says why and where."""


@dataclass(frozen=True)
class ResolvedProfile:
    """The target of this run, after applying flags, environment variables and the config."""

    name: str
    """Profile name ("demo" for the built-in local sandbox)."""
    environment: Environment
    """What the header shows: DEMO, SANDBOX or PRODUCTION."""
    base_url: str | None
    """Canonical base URL; None for the demo until the app starts its local sandbox."""
    profile: Profile | None
    """The config profile (search names, address book…); None for demo and ad-hoc targets."""
    credential_store: CredentialStore
    """Where secrets are kept for this run."""
    sources: dict[str, Source] = field(default_factory=dict)
    """Where each of name, base_url and credential_store came from."""
    in_config: bool = True
    """False when the profile is not (yet) in the config file."""

    @property
    def is_demo(self) -> bool:
        """True for the built-in demo on a local sandbox."""
        return self.environment == "demo"

    @property
    def needs_base_url(self) -> bool:
        """True while the base URL is the placeholder of a fresh config."""
        return self.base_url is not None and is_placeholder(self.base_url)

    def url_problem(self, environment: Environment | None = None) -> str | None:
        """Why this run must not reach its service — production over plain http — or None.

        ``environment`` overrides the profile's (``auth login --environment``).
        """
        if (environment or self.environment) != "production" or self.base_url is None:
            return None
        problem = production_url_problem(self.base_url)
        return f"profile {self.name!r} at {self.base_url}: {problem}" if problem else None


def resolve_profile(
    args_profile: str | None,
    args_base_url: str | None,
    env: Mapping[str, str],
    config: AppConfig,
    *,
    args_credential_store: CredentialStore | None = None,
) -> ResolvedProfile:
    """Apply flags, then environment variables, then the config file. Raises ProfileError.

    A profile that is not in the config is allowed only with a base URL (from a flag or
    FREIGHT_BASE_URL); it is then treated as production, the safe assumption for the header.
    """
    sources: dict[str, Source] = {}
    name, sources["name"] = _first(
        (args_profile, "flag"),
        (env.get(ENV_PROFILE), "environment"),
        (config.default_profile, "config"),
    )
    override, url_source = _first((args_base_url, "flag"), (env.get(ENV_BASE_URL), "environment"))
    store_text, sources["credential_store"] = _first(
        (args_credential_store, "flag"),
        (env.get(ENV_CREDENTIAL_STORE), "environment"),
        (config.credential_store, "config"),
    )
    store = _store(store_text, sources["credential_store"])
    base_url = _canonical(override, url_source) if override else None
    if name == DEMO_PROFILE:
        sources["base_url"] = url_source if override else "default"
        return ResolvedProfile(
            name=name,
            environment="demo",
            base_url=base_url,
            profile=None,
            credential_store="memory",
            sources=sources,
            in_config=False,
        )
    profile = config.profiles.get(name)
    if profile is None:
        if base_url is None:
            known = ", ".join([*config.profiles, DEMO_PROFILE])
            raise ProfileError(
                f"no profile named {name!r} in the config file (profiles: {known}); "
                "give --base-url to use a new one"
            )
        sources["base_url"] = url_source
        return ResolvedProfile(
            name=name,
            environment="production",
            base_url=base_url,
            profile=None,
            credential_store=store,
            sources=sources,
            in_config=False,
        )
    if base_url is None:
        base_url = _canonical(profile.base_url, "config")
        sources["base_url"] = "config"
    else:
        sources["base_url"] = url_source
    return ResolvedProfile(
        name=name,
        environment=profile.environment,
        base_url=base_url,
        profile=profile,
        credential_store=store,
        sources=sources,
    )


def _first(*candidates: tuple[str | None, Source]) -> tuple[str, Source]:
    """The first non-empty value and its source; ("", "default") when none is set."""
    for value, source in candidates:
        if value:
            return value.strip(), source
    return "", "default"


def _canonical(url: str, source: Source) -> str:
    try:
        return canonical_base_url(url)
    except BaseURLError as exc:
        where = {"flag": "--base-url", "environment": ENV_BASE_URL}.get(source, "config file")
        raise ProfileError(f"{where}: {exc}") from None


def _store(text: str, source: Source) -> CredentialStore:
    allowed = get_args(CredentialStore)
    if text not in allowed:
        where = ENV_CREDENTIAL_STORE if source == "environment" else "credential_store"
        raise ProfileError(f"{where} must be one of {', '.join(allowed)}, not {text!r}")
    return cast(CredentialStore, text)
