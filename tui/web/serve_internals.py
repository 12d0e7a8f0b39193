"""Every part of textual-serve that Freight uses, private names included, in one place.

textual-serve (the ``web`` extra) gives the page's terminal: the script and styles of the
page, the packets between the page and the app (``AppService``), and the downloads. Its
``AppService`` starts the app through a shell with nothing to tie it to the server; Freight
overrides two of its private methods and reads its private fields for that, as
``tui.textual_internals`` does for Textual. Each use below says which name and why. They were
checked on textual-serve `CHECKED_ON` (pyproject.toml allows only that minor), and
`tests/test_serve_internals.py` fails when an upgrade removes or changes one of them: run it
before widening the range.

What the app inherits: ``AppService._build_environment`` copies the server's whole
environment into each app (docs/security.md says so), and Freight adds its own variables.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from textual_serve import server as textual_server
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from tui.web.tether import PARENT_ENV

CHECKED_ON: Final = "1.1"
"""The textual-serve minor these names were checked on (`major.minor`)."""

STOP_SECONDS: Final = 0.8
"""How long a stop waits for the apps to quit by themselves before they are killed."""


def static_folder() -> Path:
    """textual-serve's own files for the page (its script, styles and fonts): a folder of the
    package, `textual_serve/static`, which no API names."""

    return Path(textual_server.__file__).parent / "static"


def download_manager() -> Any:
    """textual-serve's ``DownloadManager``: the files an app hands the page, in chunks."""

    return DownloadManager()


def session_class() -> type[Any]:
    """textual-serve's ``AppService``, with the app run without a shell, in a session of its
    own (a Ctrl-C at the server's terminal reaches the server, which stops the apps), and
    with Freight's variables added to what it inherits.

    Overrides ``AppService._open_app_process`` (it runs ``command`` through a shell) and
    ``AppService.stop`` (it waits for the app however long it takes); reads
    ``_build_environment``, ``_process``, ``_stdin``, ``_task`` and ``_download_manager``,
    which those two use.
    """

    class Session(AppService):
        """One tab's app: its process, its pipes, its downloads."""

        argv: list[str] = []
        extra_env: Mapping[str, str] = {}

        async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
            environment = self._build_environment(width=width, height=height)
            environment.update(self.extra_env)
            environment[PARENT_ENV] = str(os.getpid())
            self._process = process = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=environment,
                start_new_session=True,
            )
            self._stdin = process.stdin
            return process

        @property
        def process(self) -> asyncio.subprocess.Process | None:
            """The app's process (None before it starts)."""
            return self._process

        async def stop(self) -> None:
            """Ask the app to quit; if it has not within STOP_SECONDS, end it."""
            process = self._process
            if self._task is None:
                return
            await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
            await self.send_meta({"type": "quit"})
            task, self._task = self._task, None
            try:
                await asyncio.wait_for(asyncio.shield(task), STOP_SECONDS)
            except TimeoutError:
                if process is not None and process.returncode is None:
                    with contextlib.suppress(ProcessLookupError):
                        process.kill()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(task, 1.0)
            if process is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.wait(), 1.0)

    return Session
