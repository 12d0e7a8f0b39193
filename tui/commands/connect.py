"""Open the one FreightClient a command uses: the demo sandbox, or a profile's service."""

from __future__ import annotations

import argparse
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TYPE_CHECKING

from tui.api.client import FreightClient
from tui.api.errors import AuthenticationError
from tui.api.options import ClientOptions
from tui.commands.exits import NotSignedInError, UsageError
from tui.config.paths import data_dir
from tui.config.plain import DEMO_PROFILE
from tui.config.resolve import ProfileError, resolve_profile
from tui.credentials import redact
from tui.credentials.env import CLIENT_ID, CLIENT_SECRET, TOKEN
from tui.credentials.resolve import alookup
from tui.session import client_options_for
from tui.store import ledger_environment

if TYPE_CHECKING:
    from tui.api.options import RetryPolicy


@asynccontextmanager
async def open_client(
    args: argparse.Namespace, *, retry: RetryPolicy | None = None
) -> AsyncIterator[FreightClient]:
    """The client for ``--demo`` or the profile, closed (and the demo sandbox stopped) after.

    ``retry`` replaces the retry policy (a batch answers 429s itself, at its shared pace).
    """
    if args.demo:
        async with _demo_client(retry) as client:
            yield client
        return
    async with _profile_client(args, retry) as client:
        yield client


def _with_retry(options: ClientOptions | None, retry: RetryPolicy | None) -> ClientOptions:

    options = options or ClientOptions()
    return replace(options, retry=retry) if retry is not None else options


@asynccontextmanager
async def _demo_client(retry: RetryPolicy | None = None) -> AsyncIterator[FreightClient]:
    from tui.demo import DemoSandbox

    sandbox = DemoSandbox(data_dir() / "demo-sandbox.sqlite3")
    try:
        base_url, token = await sandbox.connect()
        async with FreightClient(base_url, token, options=_with_retry(None, retry)) as client:
            yield client
    finally:
        sandbox.stop()


def environment_refused(error: AuthenticationError, env: Mapping[str, str]) -> str:
    """A 401 for credentials from the environment: the advice names the variable they came
    from (`freight login` saves other credentials, which that variable hides)."""

    where = TOKEN if env.get(TOKEN, "").strip() else f"{CLIENT_ID} and {CLIENT_SECRET}"
    advice = (
        f"The service did not accept the credentials in {where}. Set a valid client ID and "
        "secret there, or unset it to use the profile's saved credentials (freight login)."
    )
    return str(error).replace(AuthenticationError.default_advice, advice)


@asynccontextmanager
async def _profile_client(
    args: argparse.Namespace, retry: RetryPolicy | None = None
) -> AsyncIterator[FreightClient]:
    from tui.config.settings import ConfigError, Profile, load_config

    redact.install()
    try:
        config = load_config()
        resolved = resolve_profile(args.profile, args.base_url, os.environ, config)
    except (ConfigError, ProfileError) as exc:
        raise UsageError(str(exc)) from None
    if resolved.is_demo:
        async with _demo_client(retry) as client:
            yield client
        return
    if (problem := resolved.url_problem()) is not None:
        raise UsageError(problem)  # before any credential is looked up, let alone sent
    if resolved.base_url is None or resolved.needs_base_url:
        raise NotSignedInError(
            f"profile {resolved.name!r} has no base URL yet: "
            f"freight auth login --profile {resolved.name} --base-url https://…"
        )
    found = await alookup(resolved, os.environ)
    if found.credentials is None:
        reason = redact.redact(found.problems[0]) if found.problems else "not signed in"
        raise NotSignedInError(
            f"{reason} (profile {resolved.name!r}, {resolved.base_url}); run "
            f"`freight auth login --profile {resolved.name}` or set FREIGHT_API_TOKEN"
        )
    credentials = found.credentials.register()
    profile = resolved.profile or Profile(
        name=resolved.name, base_url=resolved.base_url, environment="production"
    )
    options = _with_retry(client_options_for(profile), retry)
    async with FreightClient(resolved.base_url, credentials.token(), options=options) as client:
        try:
            yield client
        except AuthenticationError as error:
            if credentials.source != "environment":
                raise
            raise NotSignedInError(environment_refused(error, os.environ)) from None


def ledger_account(args: argparse.Namespace) -> tuple[str, str]:
    """The account (the profile's name) and environment a command's bookings, day closes and
    reports are kept under: the app's for the same target (``demo`` for ``--demo``). Raises
    UsageError when the profile cannot be chosen."""

    if getattr(args, "demo", False):
        return DEMO_PROFILE, ledger_environment(DEMO_PROFILE, "demo")
    from tui.config.settings import ConfigError, load_config

    try:
        resolved = resolve_profile(
            getattr(args, "profile", None), getattr(args, "base_url", None), os.environ,
            load_config(),
        )  # fmt: skip
    except (ConfigError, ProfileError) as exc:
        raise UsageError(str(exc)) from None
    return resolved.name, ledger_environment(resolved.name, resolved.environment)
