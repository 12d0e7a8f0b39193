"""The demo's first frame is built from what it shows; the typed config is checked right after."""

from __future__ import annotations

import ast
import subprocess
import sys

from tests.ui.screen import screen_text, wait_for
from tui.app import make_app
from tui.config import paths
from tui.demo import build_demo_session
from tui.screens.quote import QuoteScreen

FIRST_FRAME_PROBE = """
import asyncio, re, sys
# Loaded by the interpreter's start-up before any of the app (a moved-clock run's
# sitecustomize brings importlib.metadata): not the first frame's doing.
PRELOADED = set(sys.modules)
import tui.cli, tui.launch  # the command's way in: `freight --demo` imports them first
from tui.app import make_app
from tui.demo import build_demo_session
from tests.textual_probes import watch_frames

# What must not be imported before the first frame: each costs the first frame 4-190 ms
# (measured on a regular install, after Textual and the quote screen: importlib.metadata
# 11 ms, the result and shipment detail screens 8 ms with what they bring, Textual's
# TextArea 6 ms). Modules are imported at the top of the module that uses them unless that
# would put one of these on this path.
# argparse (and gettext), tomllib and zoneinfo came back with the imports at the top of
# tui.cli, tui.config.plain and tui.forms.zip_places (2026-12-07): the full parser, a config
# file's reader and the ZIP data's time zones all wait for their first use.
# The dialogs' bases (tui.screens.modal) and the booked draft's dialog wait for their first
# use too (2026-12-07: 20 M instructions of the first frame).
# The readable themes' check (tui.readable: Textual's themes are looked up in a table worked
# out ahead) and hmac with hashlib (a secret's comparison) wait too (2026-12-07: about 7 and
# 8 M instructions of the first frame), and zipfile (a served session's download of several
# files, 2 M).
# Not holidays: the quote screen loads it in a thread from its first refresh, which Textual's
# start-up batch finishes before it sends the first frame.
HEAVY = (
    "pydantic", "httpx", "tomlkit", "zipcodes", "openpyxl", "keyring", "markdown_it",
    "psycopg", "textual_serve", "aiohttp", "playwright",
    "tui.sandbox", "tui.config.settings", "tui.api.client", "tui.batch", "tui.booking",
    "tui.export", "tui.screens.batch", "tui.screens.rates", "tui.screens.book",
    "tui.screens.shipments", "tui.screens.result", "tui.screens.shipment_detail",
    "tui.documents", "importlib.metadata", "textual.widgets._text_area",
    "tui.store", "sqlite3", "argparse", "gettext", "tomllib", "zoneinfo",
    "tui.screens.modal", "tui.screens.yes_no", "tui.screens.quote_booked",
    "tui.readable", "hmac", "hashlib", "zipfile",
)


async def main():
    app = make_app(build_demo_session())
    frames = []

    def first_frame(screen):  # what is loaded when the first frame is written
        if not frames:
            frames.append(screen)
            print("first frame:", screen.query_one("#origin").postal_code)
            loaded = set(sys.modules) - PRELOADED
            print("loaded:", sorted(name for name in HEAVY if name in loaded))
            # Each pattern compiled as its module is imported costs the first frame about
            # 0.1-0.3 ms; a pattern the first frame does not use is compiled at its first use
            # (tui.domain.safe_text.lazy_pattern).
            patterns = sorted(
                f"{name}.{attribute}"
                for name, module in list(sys.modules.items())
                if name.startswith("tui.")
                for attribute, value in vars(module).items()
                if isinstance(value, re.Pattern)
            )
            print("patterns:", patterns)

    watch_frames(app, first_frame)
    app._after_first_frame = app.exit  # no sandbox, no typed config: the first frame only
    async with app.run_test() as pilot:
        await pilot.pause()

asyncio.run(main())
"""


PATTERNS_THE_FIRST_FRAME_USES = {
    "tui.domain.postal.ZIP_RE",  # the origin's ZIP is checked for the first frame
    "tui.domain.postal.CANADIAN_RE",
    "tui.drafts._NAME",  # the saved draft is looked up
}


def test_the_first_frame_loads_no_heavy_module_it_does_not_show() -> None:
    result = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME_PROBE], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "first frame: 60607" in result.stdout
    assert "loaded: []" in result.stdout
    compiled = result.stdout.split("patterns: ", 1)[1].splitlines()[0]
    assert set(ast.literal_eval(compiled)) <= PATTERNS_THE_FIRST_FRAME_USES, compiled


async def test_the_demo_shows_its_origin_and_header_from_the_sketch() -> None:
    session = build_demo_session()
    session.after_first_frame.clear()  # no sandbox: this test reads the first screen only
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, QuoteScreen)
        text = screen_text(app)
        assert "demo ·  DEMO " in text.splitlines()[0]
        assert "60607" in text
        assert app.return_code is None, "a good config keeps the app running"


async def test_a_config_error_found_after_the_first_frame_ends_the_app_with_its_message() -> None:
    file = paths.config_file()
    file.parent.mkdir(parents=True)
    file.write_text('[profiles.acme]\nbase_url = "https://x.example"\nenvironment = "prod"\n')
    session = build_demo_session()  # valid TOML: the start goes ahead
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.return_code is not None, what="the app to exit")
    assert app.return_code == 2
    assert app.config_error is not None
    message = str(app.config_error)
    assert message.startswith(f"{file}, line 3, profiles.acme.environment: ")


async def test_the_demo_takes_theme_and_keys_from_the_config_in_its_first_frame() -> None:
    file = paths.config_file()
    file.parent.mkdir(parents=True)
    file.write_text('theme = "nord"\n[keymap]\n"app.help" = "f11"\n')
    session = build_demo_session()
    session.after_first_frame.clear()
    app = make_app(session)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        assert app.theme == "nord"
        assert screen_text(app).splitlines()[0].rstrip().endswith("f11 help")
