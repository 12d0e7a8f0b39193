"""The ``login``, ``logout``, ``auth status`` and ``config path`` commands."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import os
import sys
from typing import Any, TextIO

from tui.api.secret import Secret
from tui.config import paths
from tui.config.resolve import ProfileError, ResolvedProfile, resolve_profile
from tui.config.settings import (
    DEMO_PROFILE,
    AccountEnvironment,
    AppConfig,
    ConfigError,
    Profile,
    load_config,
    save_config,
)
from tui.config.urls import is_placeholder
from tui.credentials import diagnosis, index, redact
from tui.credentials import env as env_credentials
from tui.credentials.check import check_credentials
from tui.credentials.file_store import FileStore, FileStoreError, UnsafeFileError
from tui.credentials.keyring_store import KeyringStore, KeyringUnusableError
from tui.credentials.resolve import consulted, lookup
from tui.credentials.save import save, target_for
from tui.domain.safe_text import json_escaped
from tui.session import ENV_WORDS
from tui.vocabulary import UnknownFieldsError, dict_fields

SOURCE_WORDS = {
    "flag": "command-line flag",
    "environment": "environment variable",
    "config": "config file",
    "default": "default",
}


class UsageError(Exception):
    """A problem with what the user asked; exit status 2."""


def main(args: argparse.Namespace) -> int:
    """Run ``args.command``; returns the exit status. Never prints a secret."""
    redact.install()
    out, err = sys.stdout, sys.stderr
    try:
        wanted: str | None = getattr(args, "json_out", None)
        if args.command == "config":
            if wanted is not None:
                return write_facts(paths_record(), wanted, out)
            return config_path(out)
        config = load_config()
        insecure = bool(getattr(args, "insecure_storage", False))
        resolved = resolve_profile(
            DEMO_PROFILE if getattr(args, "demo", False) else args.profile,
            args.base_url,
            os.environ,
            config,
            args_credential_store="file" if insecure else None,
        )
        action = args.auth_command if args.command == "auth" else args.command
        if action == "login":
            return login(resolved, config, out, err, getattr(args, "environment", None))
        if action == "logout":
            return logout(resolved, out, err)
        if action == "status":
            if wanted is not None:
                record, status = status_record(resolved)
                return write_facts(record, wanted, out) or status
            return auth_status(resolved, out, err)
    except (ConfigError, ProfileError, UsageError, env_credentials.EnvCredentialError) as exc:
        print(f"freight: {redact.redact(str(exc))}", file=err)
        return 2
    except (KeyboardInterrupt, EOFError):
        print("\nfreight: cancelled; nothing was saved.", file=err)
        return 130
    print(f"freight: unknown command {args.command!r}", file=err)
    return 2


def config_path(out: TextIO) -> int:
    """Print where the config, the data and the log live."""
    print(f"Config file: {paths.config_file()}", file=out)
    print(f"Data dir:    {paths.data_dir()}", file=out)
    print(f"Log file:    {paths.log_file()}", file=out)
    return 0


def paths_record() -> dict[str, Any]:
    """``config path --json``: where the config, the data and the log live."""
    return {
        "configFile": str(paths.config_file()),
        "dataDir": str(paths.data_dir()),
        "logFile": str(paths.log_file()),
    }


def write_facts(record: dict[str, Any], wanted: str, out: TextIO) -> int:
    """``record`` as one JSON object (every key when ``wanted`` is blank, else those named;
    an unknown name is a usage error); names and meanings are the glossary's."""

    fieldset = dict_fields("fact", record)
    try:
        chosen = fieldset.select(wanted)
    except UnknownFieldsError as error:
        raise UsageError(f"--json: {error}") from None
    dumped = json.dumps(fieldset.record(record, chosen), indent=2, ensure_ascii=False)
    print(json_escaped(dumped), file=out)
    return 0


# -- login ----------------------------------------------------------------------------------


def read_credentials(err: TextIO) -> tuple[str, Secret]:
    """Client ID, then the hidden secret, from the terminal; or one line each from stdin."""
    if sys.stdin.isatty():
        print("Client ID: ", end="", file=err, flush=True)
        client_id = sys.stdin.readline().strip()
        secret = Secret(getpass.getpass("Client secret (hidden): ").strip())
    else:
        client_id = sys.stdin.readline().strip()
        secret = Secret(sys.stdin.readline().strip())
    redact.register(secret)
    if not client_id:
        raise UsageError("no client ID given")
    if not secret:
        raise UsageError("no client secret given")
    return client_id, secret


def login(
    resolved: ResolvedProfile,
    config: AppConfig,
    out: TextIO,
    err: TextIO,
    environment: AccountEnvironment | None = None,
) -> int:
    """Ask for the credentials, check them with the service, save them, say where.

    ``environment`` (``--environment``) is saved with the profile; without it a new profile is
    production unless it is named ``sandbox``, and an existing one keeps its own.
    """
    if resolved.is_demo:
        raise UsageError("the demo needs no login: run freight --demo")
    assert resolved.base_url is not None
    if resolved.needs_base_url:
        raise UsageError(
            f"profile {resolved.name!r} has no base URL yet: "
            f"freight login --profile {resolved.name} --base-url https://…"
        )
    if (
        problem := resolved.url_problem(login_environment(resolved, config, environment))
    ) is not None:
        raise UsageError(f"{problem}. Nothing was asked for or saved.")
    if env_credentials.any_set(os.environ):
        print(
            "Note: FREIGHT_* credential variables are set; while they are, they are used "
            "instead of what you save now.",
            file=err,
        )
    target = target_for(resolved.credential_store, resolved.sources["credential_store"] == "flag")
    print(f"Profile {resolved.name} at {resolved.base_url}", file=err)
    client_id, secret = read_credentials(err)
    result = asyncio.run(check_credentials(resolved.base_url, client_id, secret, resolved.profile))
    if not result.authentic:
        print(f"freight: {result.message} Nothing was saved.", file=err)
        return 1
    if result.outcome != "ok":
        print(f"Warning: {result.message}", file=err)
    if target == "memory":
        print(
            "Checked: the service accepted them. Not saved, because credential_store is "
            '"memory"; sign in in the app or use FREIGHT_CLIENT_ID and FREIGHT_CLIENT_SECRET.',
            file=out,
        )
        return 0
    try:
        saved = save(resolved.name, resolved.base_url, client_id, secret, target)
    except KeyringUnusableError as exc:
        print("freight: the credentials are valid but were NOT saved.", file=err)
        print(diagnosis.render_text(exc.state), file=err)
        return 1
    except (UnsafeFileError, FileStoreError, OSError) as exc:
        print(f"freight: the credentials are valid but were NOT saved: {exc}", file=err)
        return 1
    _remember_profile(resolved, config, out, environment)
    print(f"Checked with the service and saved in {saved.where}.", file=out)
    if saved.warning:
        print(f"Warning: {saved.warning}", file=err)
    return 0


def login_environment(
    resolved: ResolvedProfile, config: AppConfig, environment: AccountEnvironment | None
) -> AccountEnvironment:
    """The environment a login saves: ``--environment``, else the profile's own, else
    production (sandbox for a new profile named ``sandbox``)."""
    if environment is not None:
        return environment
    current = config.profiles.get(resolved.name)
    if current is not None:
        return current.environment
    return "sandbox" if resolved.name == "sandbox" else "production"


def _remember_profile(
    resolved: ResolvedProfile,
    config: AppConfig,
    out: TextIO,
    environment: AccountEnvironment | None = None,
) -> None:
    """Add a new profile, or a changed base URL or environment, to the config file; the
    first profile signed in to becomes the default (while the default is still the fresh
    config's placeholder, a bare `freight auth status` would look there and find nothing)."""
    assert resolved.base_url is not None
    current = config.profiles.get(resolved.name)
    same_env = environment is None or (current is not None and current.environment == environment)
    first = _default_is_placeholder(config) and config.default_profile != resolved.name
    if current is not None and current.canonical_url == resolved.base_url and same_env:
        if first:
            path = save_config(config.model_copy(update={"default_profile": resolved.name}))
            print(f"Made {resolved.name!r} the default profile in {path}.", file=out)
        return
    if current is None:
        chosen: AccountEnvironment = environment or (
            "sandbox" if resolved.name == "sandbox" else "production"
        )
        profile = Profile(name=resolved.name, base_url=resolved.base_url, environment=chosen)
        note = f"Added profile {resolved.name!r} ({chosen.upper()})"
        if environment is None:
            note += "; say --environment sandbox for a test account"
    else:
        changes: dict[str, object] = {"base_url": resolved.base_url}
        changed = []
        if current.canonical_url != resolved.base_url:
            changed.append("base URL")
        if environment is not None and environment != current.environment:
            changes["environment"] = environment
            changed.append(f"environment ({environment.upper()})")
        profile = current.model_copy(update=changes)
        note = f"Set the {' and '.join(changed)} of profile {resolved.name!r}"
    update: dict[str, object] = {"profiles": {**config.profiles, resolved.name: profile}}
    if first:
        update["default_profile"] = resolved.name
        note += ", the default profile"
    path = save_config(config.model_copy(update=update))
    print(f"{note} in {path}.", file=out)


def _default_is_placeholder(config: AppConfig) -> bool:
    """The default profile is the fresh config's, its base URL not yet set (or it is gone)."""
    default = config.profiles.get(config.default_profile)
    if config.default_profile == DEMO_PROFILE:
        return False
    return default is None or is_placeholder(default.base_url)


# -- logout ---------------------------------------------------------------------------------


def logout(resolved: ResolvedProfile, out: TextIO, err: TextIO) -> int:
    """Delete the profile's keyring entry and file entry; the environment is the user's."""
    if resolved.is_demo:
        raise UsageError("the demo has no saved credentials")
    removed: list[str] = []
    failed = False
    noted = index.read_index().get(resolved.name)
    urls = {u for u in (resolved.base_url, noted.base_url if noted else None) if u}
    use_keyring, _ = consulted(resolved.credential_store)
    if use_keyring or (noted is not None and noted.store == "keyring"):
        store = KeyringStore()
        for url in sorted(urls):
            try:
                if store.delete(resolved.name, url):
                    removed.append(f"the keyring entry for {url}")
            except KeyringUnusableError as exc:
                if exc.state.status in ("none", "disabled", "refused"):
                    break  # no keyring in use, so nothing can be saved in one
                failed = True
                print(
                    f"freight: could not reach the keyring: {diagnosis.headline(exc.state)}",
                    file=err,
                )
                break
    try:
        file_store = FileStore()
        if file_store.delete(resolved.name):
            removed.append(f"the entry in {file_store.path}")
    except (UnsafeFileError, FileStoreError) as exc:
        failed = True
        print(f"freight: {exc}", file=err)
    index.record(resolved.name, None)
    if removed:
        print(f"Logged out of profile {resolved.name}: removed {', '.join(removed)}.", file=out)
    else:
        print(f"No saved credentials for profile {resolved.name}.", file=out)
    present = [name for name in env_credentials.NAMES if os.environ.get(name)]
    if present:
        print(
            f"{', '.join(present)} still set in this shell and used by every run; "
            f"remove with: unset {' '.join(present)}",
            file=out,
        )
    return 1 if failed else 0


# -- auth status ----------------------------------------------------------------------------


def auth_status(resolved: ResolvedProfile, out: TextIO, err: TextIO) -> int:
    """Profile, base URL, environment, where the secret lives, client ID; never the secret."""

    env_credentials.from_env(os.environ)  # inconsistent variables: an error before anything

    def line(label: str, value: str) -> None:
        print(f"{label + ':':<13}{value}", file=out)

    line("Profile", f"{resolved.name} ({SOURCE_WORDS[resolved.sources['name']]})")
    if resolved.is_demo:
        line("Environment", "DEMO (a local sandbox; no credentials needed)")
        return 0
    assert resolved.base_url is not None
    line("Base URL", f"{resolved.base_url} ({SOURCE_WORDS[resolved.sources['base_url']]})")
    line("Environment", ENV_WORDS[resolved.environment])
    line(
        "Store",
        f"{resolved.credential_store} ({SOURCE_WORDS[resolved.sources['credential_store']]})",
    )
    found = lookup(resolved, os.environ)
    creds = found.credentials
    if found.env_error:
        for problem in found.problems:
            print(f"freight: {problem}", file=err)
        return 2
    if creds is None:
        line("Credentials", "none found; run: freight login" + _profile_flag(resolved))
        noted = index.read_index().get(resolved.name)
        if noted is not None and noted.base_url == resolved.base_url:
            line("Noted", f"saved in the {noted.store} on {noted.saved_at}, but not readable now")
    else:
        where = {
            "environment": "environment variables (never saved)",
            "keyring": f"keyring ({found.keyring.backend if found.keyring else '?'})",
            "file": f"plain file {found.file_path} (not secure)",
            "session": "this session only",
        }[creds.source]
        line("Credentials", where)
        line("Client ID", creds.client_id)
        saved = f", saved {creds.saved_at.isoformat()}" if creds.saved_at else ""
        line("Secret", f"•••••••• (never shown{saved})")
    if found.keyring is not None:
        state = found.keyring
        line("Keyring", f"{state.status} ({state.backend or 'no backend'})")
        if state.status == "insecure":
            print(f"Warning: {diagnosis.headline(state)}", file=out)
        elif not state.usable:
            print("", file=out)
            print(diagnosis.render_text(state), file=out)
    elif creds is not None and creds.source == "environment":
        line("Keyring", "not consulted (credentials come from the environment)")
    for problem in found.problems:
        print(f"Problem: {problem}", file=out)
    return 0 if creds is not None else 1


def status_record(resolved: ResolvedProfile) -> tuple[dict[str, Any], int]:
    """``auth status --json``: what ``auth status`` says, as one record (never the secret),
    and the exit status it would have."""
    env_credentials.from_env(os.environ)  # inconsistent variables: an error before anything
    record: dict[str, Any] = {
        "profile": resolved.name,
        "profileSource": resolved.sources["name"],
        "demo": resolved.is_demo,
        "baseUrl": None,
        "environment": None,
        "credentialStore": None,
        "credentialSource": None,
        "clientId": None,
        "savedAt": None,
        "keyring": None,
        "problems": [],
    }
    if resolved.is_demo:
        return record, 0
    record["baseUrl"] = resolved.base_url
    record["environment"] = resolved.environment
    record["credentialStore"] = resolved.credential_store
    found = lookup(resolved, os.environ)
    record["problems"] = [str(problem) for problem in found.problems]
    if found.env_error:
        return record, 2
    creds = found.credentials
    if creds is not None:
        record["credentialSource"] = creds.source
        record["clientId"] = creds.client_id
        record["savedAt"] = creds.saved_at.isoformat() if creds.saved_at else None
    if found.keyring is not None:
        record["keyring"] = found.keyring.status
    return record, 0 if creds is not None else 1


def _profile_flag(resolved: ResolvedProfile) -> str:
    flags = f" --profile {resolved.name}" if resolved.sources["name"] != "config" else ""
    if resolved.sources["base_url"] in ("flag", "environment"):
        flags += f" --base-url {resolved.base_url}"
    return flags
