"""Pasted orders kept in the data dir (``batch-pasted/<digest>.txt``), so that a batch of
pasted rows cut short can be resumed like a file's: the text read back is the text pasted,
byte for byte, and so names the same batch (``engine.source_id``)."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import Final

from tui.atomic import write_atomically
from tui.batch.engine import source_id

FOLDER: Final = "batch-pasted"
PREFIX: Final = "pasted:"


def kept_file(data_dir: Path, source: str) -> Path | None:
    """Where the text of a pasted batch (``pasted:<digest>``) is kept; None for a file's."""
    if not source.startswith(PREFIX):
        return None
    digest = source.removeprefix(PREFIX)
    if not digest.isalnum():
        return None
    return data_dir / FOLDER / f"{digest}.txt"


def keep(data_dir: Path, text: str) -> Path:
    """Keep pasted text (once per text) and return its file. Raises OSError."""

    target = kept_file(data_dir, source_id(None, text))
    assert target is not None
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with suppress(FileExistsError):  # kept meanwhile: the same text, by its name
        write_atomically(target, text.encode("utf-8", "surrogatepass"), overwrite=False)
    return target


def is_kept(data_dir: Path, path: Path) -> bool:
    """Whether ``path`` is pasted text this data dir keeps (read it with ``read_kept``)."""
    try:
        return path.resolve().parent == (data_dir / FOLDER).resolve()
    except OSError:
        return False


def read_kept(path: Path) -> str:
    """Kept pasted text, exactly as it was pasted. Raises OSError."""
    return path.read_bytes().decode("utf-8", "surrogatepass")
