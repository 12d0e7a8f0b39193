"""A real PostgreSQL for the store's tests: initdb and pg_ctl in a temporary folder, one
server per test session, one database per test.

The server runs as a user other than root (PostgreSQL refuses root): as ``postgres`` (or
``nobody``) through ``runuser`` when the tests run as root, with the folder made theirs. It
listens only on a unix socket in that folder. Without PostgreSQL's programs the tests that
need it are skipped, except in CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class PostgresServer:
    """A running server: its socket folder and the user the databases are made for."""

    socket_dir: Path
    user: str

    def url(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URL of one database on the unix socket."""
        return f"postgresql://{self.user}@/{database}?host={self.socket_dir}"


def _bin_dir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    return Path(candidates[0]).parent if candidates else None


def _missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"CI runs the PostgreSQL tests: {reason}")
    pytest.skip(reason)


def _as_user() -> tuple[list[str], str]:
    """The command prefix that runs as a non-root user, and that user's name."""
    if os.geteuid() != 0:
        return [], pwd.getpwuid(os.geteuid()).pw_name
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return ["runuser", "-u", name, "--"], name
    raise RuntimeError("no user to run PostgreSQL as (postgres, nobody)")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the test session (skipped without PostgreSQL, not in CI)."""
    bin_dir = _bin_dir()
    if bin_dir is None:
        _missing("PostgreSQL is not installed (initdb, pg_ctl)")
    assert bin_dir is not None
    prefix, user = _as_user()
    root = Path(tempfile.mkdtemp(prefix="freight-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        entry = pwd.getpwnam(user)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    root.chmod(0o700)
    env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    subprocess.run(
        [*prefix, str(bin_dir / "initdb"), "-D", str(data), "-U", user, "-A", "trust", "-E",
         "UTF8", "--no-sync"],
        check=True, capture_output=True, env=env, timeout=120,
    )  # fmt: skip
    options = f"-k {root} -c listen_addresses='' -c fsync=off -c max_connections=60"
    subprocess.run(
        [*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l",
         str(root / "log"), "-w", "-t", "60", "start"],
        check=True, capture_output=True, env=env, timeout=120,
    )  # fmt: skip
    try:
        yield PostgresServer(root, user)
    finally:
        subprocess.run(
            [*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
            capture_output=True,
            env=env,
            timeout=120,
        )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty database of its own for one test (dropped after)."""
    import psycopg

    name = f"freight_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _migrated(postgres_server.url(name))
    finally:
        with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _migrated(url: str) -> str:
    """The database with Freight's tables made (what `freight store migrate` does once; an
    ordinary run never makes tables on PostgreSQL)."""
    from tui.store import open_store

    open_store(Path(tempfile.gettempdir()), url, migrate=True).close()
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest) -> str:
    """The store's URL, once per engine: "" (SQLite in the data dir) or a fresh PostgreSQL
    database."""
    if request.param == "sqlite":
        return ""
    url: str = request.getfixturevalue("postgres_url")
    return url
