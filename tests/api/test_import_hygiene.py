"""Importing the models (or the package) must not pay for httpx or pull in Textual."""

from __future__ import annotations

import subprocess
import sys


def _loaded_after(statement: str) -> set[str]:
    code = (
        f"import sys\n{statement}\n"
        "print(' '.join(m for m in ('httpx', 'httpcore', 'textual') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return set(out.stdout.split())


def test_models_load_neither_httpx_nor_textual() -> None:
    assert _loaded_after("import tui.api.models") == set()


def test_secret_errors_and_options_load_no_httpx() -> None:
    loaded = _loaded_after("import tui.api.secret, tui.api.errors, tui.api.options")
    assert loaded == set()


def test_package_and_its_lazy_exports_load_no_httpx_or_textual() -> None:
    loaded = _loaded_after(
        "import tui.api\n"
        "from tui.api import RateRequest, Quote, FreightError, Secret, ClientOptions"
    )
    assert loaded == set()


def test_the_client_loads_httpx_but_no_textual() -> None:
    loaded = _loaded_after("from tui.api import FreightClient")
    assert "textual" not in loaded
    assert "httpx" in loaded
