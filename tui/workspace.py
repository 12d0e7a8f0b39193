"""Where files go: one folder for a browser's session, and what the browser is given.

``freight serve`` runs the app for whoever holds the page; that person may not be this
machine's user in every respect, so a served session reads and writes only inside one folder
(its *workspace*, named by ``FREIGHT_WORKSPACE``): documents, exports, batch inputs and
results. A path typed into a field is resolved (``~``, ``..``, symlinks) and refused when it
leaves the folder. Everywhere, the terminal included, nothing is written as a dotfile (a
``.bashrc``, a ``.profile``) and nothing is overwritten without asking.

Plain Python, no UI: the screens' path fields call :func:`confine`; the app calls
:func:`one_download` so one user action hands the browser one file (several → one zip).
"""

from __future__ import annotations

import fcntl
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

WORKSPACE_ENV = "FREIGHT_WORKSPACE"
"""Set by ``freight serve`` for each session's app: the folder it may read and write."""


def workspace() -> Path | None:
    """The served session's folder, or None outside ``freight serve`` (no confinement)."""
    value = os.environ.get(WORKSPACE_ENV, "").strip()
    return Path(value).resolve() if value else None


def files_dir(data_dir: Path) -> Path:
    """Where documents, exports and results go by default: the workspace when served."""
    return workspace() or data_dir


def inside(text: str) -> bool:
    """``text`` (a path being typed) stays in the workspace (always True when not served):
    a path field lists nothing beyond it."""
    try:
        confine(text)
    except (OutsideWorkspace, OSError, RuntimeError):
        return False
    return True


class OutsideWorkspace(ValueError):
    """A path that leaves the workspace, or names a dotfile to write."""


def confine(
    text: str | Path,
    *,
    base: Path | None = None,
    writing: bool = False,
    also: Sequence[Path] = (),
) -> Path:
    """The path a field's ``text`` names, resolved; in a served session relative to and
    inside the workspace, or one of the files ``also`` names (Freight's own, read-only: the
    demo's sample orders). Raises :class:`OutsideWorkspace` with the sentence to show."""
    folder = workspace()
    raw = Path(str(text).strip()).expanduser()
    if folder is not None:
        if not raw.is_absolute():
            raw = (base or folder) / raw
        resolved = raw.resolve()
        exempt = not writing and any(resolved == p.resolve() for p in also)
        if resolved != folder and folder not in resolved.parents and not exempt:
            raise OutsideWorkspace(
                f"In the browser, files stay in the workspace folder {folder}: "
                f"{text} is outside it."
            )
    else:
        resolved = (raw if raw.is_absolute() else (base or Path.cwd()) / raw).resolve()
    if writing:
        refuse_dotfile(resolved)
    return resolved


def save_folder(text: str, default: Path) -> Path:
    """The folder a field names for saving files into (a shipment's documents): ``default``
    when it is empty; in a served session inside the workspace, a planted link included.
    Raises :class:`OutsideWorkspace` with the sentence to show at the field."""
    return confine(text) if text.strip() else default


def refuse_dotfile(path: Path) -> None:
    """Freight never writes a file whose name starts with a dot (a shell's start-up file)."""
    if path.name.startswith("."):
        raise OutsideWorkspace(
            f"{path.name}: Freight does not write files whose name starts with a dot."
        )


@dataclass(frozen=True)
class Delivery:
    """What one user action hands the browser: one file, or one zip of several."""

    name: str
    payload: io.BytesIO
    mime_type: str | None
    count: int

    @property
    def sentence(self) -> str:
        """What the app says the browser was given."""
        if self.count == 1:
            return f"The browser was given {self.name}."
        return f"The browser was given {self.name} ({self.count} files)."


def download_name(name: str) -> str:
    """A name for a browser download: letters, digits, ``.``, ``-`` and ``_``, never empty
    or a dotfile."""
    cleaned = "".join(c if c.isascii() and (c.isalnum() or c in ".-_") else "_" for c in name)
    return cleaned.strip(".") or "download"


def one_download(paths: Sequence[Path], mime_type: str | None = None) -> Delivery:
    """The files one action saved, as one download: the file itself, or a zip named after
    their folder holding each (read now, so later writes do not change what is sent)."""
    if not paths:
        raise ValueError("nothing to deliver")
    if len(paths) == 1:
        return Delivery(
            download_name(paths[0].name), io.BytesIO(paths[0].read_bytes()), mime_type, 1
        )
    # zipfile (and the importlib.util it brings) is imported at the first zip: the footer
    # brings this module to the first frame, which it cost about 2 M instructions.
    import zipfile

    buffer = io.BytesIO()
    seen: set[str] = set()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in paths:
            name = download_name(path.name)
            while name in seen:
                name = "_" + name
            seen.add(name)
            archive.writestr(name, path.read_bytes())
    folder = download_name(paths[0].parent.name) if paths[0].parent.name else "files"
    return Delivery(f"{folder}.zip", buffer, "application/zip", len(paths))


SERVE_SESSION_ENV = "FREIGHT_SERVE_SESSION"
"""Set by ``freight serve`` for each tab's app."""
BROWSER_KEYS = frozenset({"ctrl+n", "ctrl+t", "ctrl+w", "ctrl+shift+n", "ctrl+shift+t"})
"""Keys a browser keeps for itself (new window, new tab, close tab): a page never gets them,
so in a served app each binding on one is shown by its other key (F5, F8, F6…)."""


def served() -> bool:
    """True in an app that ``freight serve`` started for a browser's tab."""
    return bool(os.environ.get(SERVE_SESSION_ENV))


MAX_DRAFT_SLOTS = 64
_slots: dict[Path, tuple[Path, int]] = {}


def draft_folder(directory: Path) -> Path:
    """Where this app keeps its drafts: ``directory`` itself, except in a served tab while
    another tab holds it, when the next free ``tab-N`` slot in it (so two tabs never write
    one draft, last writer wins). A slot is held by a lock this process keeps until it
    ends; the next tab (a reload included) takes the first free one again."""
    if not os.environ.get(SERVE_SESSION_ENV):
        return directory
    held = _slots.get(directory)
    if held is not None:
        return held[0]

    for number in range(1, MAX_DRAFT_SLOTS + 1):
        folder = directory if number == 1 else directory / f"tab-{number}"
        try:
            directory.mkdir(parents=True, exist_ok=True)
            fd = os.open(directory / f".tab-{number}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return directory
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        _slots[directory] = (folder, fd)
        return folder
    return directory
