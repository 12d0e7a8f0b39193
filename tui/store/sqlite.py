"""The embedded store: one SQLite file in the data dir (WAL; every write ``BEGIN IMMEDIATE``).

A data dir on a network filesystem is refused: SQLite's locks are not to be trusted there, and
stations that share a folder should share a PostgreSQL database instead.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from tui.store.engine import Row, StoreError
from tui.store.schema import SQLITE

FILE_NAME: Final = "freight.sqlite3"
NETWORK_FILESYSTEMS: Final = frozenset(
    {"nfs", "nfs4", "cifs", "smb", "smb2", "smb3", "smbfs", "9p", "afs", "ncpfs", "fuse.sshfs"}
)
BUSY_TIMEOUT_S: Final = 30.0


def filesystem_type(path: Path, mountinfo: str = "/proc/self/mountinfo") -> str | None:
    """The type of the filesystem ``path`` is on (from the longest matching mount point), or
    None when it cannot be told (no /proc: not Linux)."""
    try:
        lines = Path(mountinfo).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    target = str(path.resolve())
    best: tuple[int, str] | None = None
    for line in lines:
        left, _, right = line.partition(" - ")
        fields = left.split()
        after = right.split()
        if len(fields) < 5 or not after:
            continue
        mount = fields[4].replace("\\040", " ")
        inside = target == mount or target.startswith(mount.rstrip("/") + "/")
        if inside and (best is None or len(mount) > best[0]):
            best = (len(mount), after[0])
    return best[1] if best else None


def refuse_network(folder: Path, mountinfo: str = "/proc/self/mountinfo") -> None:
    """Raise StoreError when ``folder`` is on a network filesystem."""
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    kind = filesystem_type(probe, mountinfo)
    if kind is not None and (kind in NETWORK_FILESYSTEMS or kind.startswith(("nfs", "smb"))):
        raise StoreError(
            f"the data dir {folder} is on a network filesystem ({kind}): SQLite cannot keep "
            "its promises there. Give the stations a shared PostgreSQL database with "
            "FREIGHT_STORE_URL=postgresql://… (or [store] url in the config), or use a local "
            "data dir"
        )


def _hurt(path: Path, error: sqlite3.Error) -> StoreError:
    text = str(error)
    if "full" in text:
        what, do = "the disk is full", "free some space, then run the command again"
    elif "not a database" in text or "malformed" in text or "corrupt" in text:
        what = "the file is damaged"
        do = "restore it from a backup (or move it aside and `freight store import`)"
    elif "locked" in text or "busy" in text:
        what, do = "another Freight held it too long", "run the command again"
    else:
        what, do = text, "check the file and its folder, then run the command again"
    return StoreError(f"the store {path} cannot be used: {what} ({text}); {do}")


def _enter_wal(conn: sqlite3.Connection) -> None:
    """Put the file in WAL mode, waiting for other stations as a write does.

    SQLite answers "locked" at once, without its busy handler, when another connection holds
    a write lock on a file still in rollback mode: two stations opening a new store together
    meet exactly that. The switch is tried again until BUSY_TIMEOUT_S has passed.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    pause = 0.005
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            waiting = (error.sqlite_errorcode & 0xFF) in (
                sqlite3.SQLITE_BUSY,
                sqlite3.SQLITE_LOCKED,
            )
            if not waiting or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def _make_new(path: Path) -> None:
    """A new store file, put in place whole: made beside it (already a WAL database, so never
    0 bytes) and linked to its name, unless another process put one there first. So a file of
    0 bytes at the store's name is never one being made: it is damaged."""
    spare = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.new")
    try:
        made = sqlite3.connect(spare, isolation_level=None)
        try:
            made.execute("PRAGMA journal_mode=WAL")
        finally:
            made.close()
        os.chmod(spare, 0o600)
        try:
            os.link(spare, path)
        except FileExistsError:
            pass  # another station made it first: that one is the store
        except OSError:  # a filesystem without hard links: renamed instead
            if not path.exists():
                os.replace(spare, path)
    finally:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{spare}{suffix}").unlink(missing_ok=True)


def _refuse_empty(path: Path) -> None:
    """A store file of 0 bytes (what a full disk or an interrupted copy leaves) is damaged,
    never a new store: read as new, every order it knew would be booked again."""
    if path.stat().st_size == 0:
        raise StoreError(
            f"the store {path} cannot be used: the file is empty (0 bytes; a full disk or an "
            "interrupted copy leaves that), so it is damaged, not new; restore it from a "
            "backup, or move it aside: the next run makes a new store, which looks every "
            "order up on the service before booking it"
        )


class _Tx:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def run(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [tuple(r) for r in self._conn.execute(sql, tuple(params)).fetchall()]

    def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._conn.executemany(sql, [tuple(r) for r in rows])


class SqliteEngine:
    """``Engine`` on one SQLite file; safe to share between the threads of one process."""

    dialect = SQLITE

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)
        refuse_network(path.parent)
        self._lock = threading.RLock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            if not path.exists():
                _make_new(path)
            _refuse_empty(path)
            self._conn = sqlite3.connect(
                path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
            self._conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
            _enter_wal(self._conn)
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as error:
            raise _hurt(path, error) from None
        except StoreError:
            raise  # said already (an empty file)
        except OSError as error:
            raise StoreError(
                f"the store {path} cannot be opened: {error.strerror or error}; check the "
                "data dir and its permissions"
            ) from None

    @contextmanager
    def write(self) -> Iterator[_Tx]:
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise _hurt(self.path, error) from None
            try:
                yield _Tx(self._conn)
                self._conn.execute("COMMIT")
            except sqlite3.Error as error:
                self._rollback()
                raise _hurt(self.path, error) from None
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        """Undo the open transaction, if SQLite has not (a full disk ends it itself)."""
        if self._conn.in_transaction:
            try:
                self._conn.execute("ROLLBACK")
            except sqlite3.Error as error:
                raise _hurt(self.path, error) from None

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with self._lock:
            try:
                return [tuple(r) for r in self._conn.execute(sql, tuple(params)).fetchall()]
            except sqlite3.Error as error:
                raise _hurt(self.path, error) from None

    def stream(self, sql: str, params: Sequence[Any] = ()) -> Iterator[Row]:
        yield from self.read(sql, params)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def listen(self, channel: str, payload: str) -> None:
        """SQLite sends no notifications: its readers poll."""
        return None
