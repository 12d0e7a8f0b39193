"""Files written whole or not at all: a temporary file beside the target, synced, then put in
its place (``os.replace``, or a hard link where a file must never be overwritten), and the
folder synced so the new name survives a crash too.

A write that fails or is stopped leaves the old file as it was and no temporary behind. The
temporary is created with ``O_EXCL`` under a random name and given its mode before a byte is
written (0600 unless asked otherwise), so a secret is never readable by others, not even for
a moment; a symlink at the target is replaced, never followed.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO, Any, BinaryIO, Generic, TextIO, TypeVar, cast

__all__ = ["Replacement", "masked", "replacing", "replacing_text", "sync_dir", "write_atomically"]

F = TypeVar("F", bound=IO[Any])


def masked(mode: int) -> int:
    """``mode`` less the process umask: what ``open`` would have given a new file."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mode & ~mask


def sync_dir(directory: Path) -> None:
    """Make a directory's entries durable (where the platform allows opening a directory)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@dataclass(eq=False, repr=False)
class Replacement(Generic[F]):
    """A temporary file (``file``) that takes ``path``'s place when the block ends without an
    error and was not ``discard``-ed; else it is removed and ``path`` stays as it was."""

    path: Path
    _: KW_ONLY
    mode: int = 0o600
    overwrite: bool = True
    text: bool = False
    encoding: str = "utf-8"
    newline: str | None = None
    _temporary: Path | None = field(default=None, init=False)
    _file: F | None = field(default=None, init=False)
    _keep: bool = field(default=True, init=False)

    @property
    def file(self) -> F:
        assert self._file is not None, "used outside its with block"
        return self._file

    def discard(self) -> None:
        """Leave ``path`` as it was when the block ends."""
        self._keep = False

    def __enter__(self) -> Replacement[F]:
        fd, name = tempfile.mkstemp(
            dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp"
        )
        self._temporary = Path(name)
        try:
            os.fchmod(fd, self.mode)
            handle: IO[Any] = (
                os.fdopen(fd, "w", encoding=self.encoding, newline=self.newline)
                if self.text
                else os.fdopen(fd, "wb")
            )
        except BaseException:
            os.close(fd)
            self._temporary.unlink(missing_ok=True)
            raise
        self._file = cast(F, handle)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        file, temporary = self.file, self._temporary
        assert temporary is not None
        try:
            if exc_type is None and self._keep:
                file.flush()
                os.fsync(file.fileno())
                file.close()
                if self.overwrite:
                    os.replace(temporary, self.path)
                else:
                    os.link(temporary, self.path)  # FileExistsError: it is left alone
                    temporary.unlink()
                sync_dir(self.path.parent)
        finally:
            file.close()
            temporary.unlink(missing_ok=True)


def replacing(path: Path, *, mode: int = 0o600, overwrite: bool = True) -> Replacement[BinaryIO]:
    """A binary file that replaces ``path`` whole (see ``Replacement``)."""
    return Replacement(path, mode=mode, overwrite=overwrite)


def replacing_text(
    path: Path,
    *,
    mode: int = 0o600,
    overwrite: bool = True,
    encoding: str = "utf-8",
    newline: str | None = None,
) -> Replacement[TextIO]:
    """A text file that replaces ``path`` whole (see ``Replacement``)."""
    return Replacement(
        path, mode=mode, overwrite=overwrite, text=True, encoding=encoding, newline=newline
    )


def write_atomically(
    path: Path, content: bytes | str, *, mode: int = 0o600, overwrite: bool = True
) -> None:
    """Put ``content`` (text as UTF-8) at ``path`` whole or not at all. With ``overwrite``
    False an existing file is left as it is and ``FileExistsError`` raised."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    with replacing(path, mode=mode, overwrite=overwrite) as replacement:
        replacement.file.write(data)
