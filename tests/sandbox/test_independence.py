"""The sandbox stands alone: importing its app loads nothing of the client, its domain or UI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.clock import pythonpath

ROOT = Path(__file__).resolve().parents[2]


def test_sandbox_app_imports_no_other_tui_module() -> None:
    code = (
        "import json, sys, tui.sandbox.app\n"
        "print(json.dumps(sorted(m for m in sys.modules if m == 'tui' or m.startswith('tui.'))))"
    )
    env = {**os.environ, "PYTHONPATH": pythonpath(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True
    )
    loaded = json.loads(result.stdout)
    assert "tui.sandbox.app" in loaded
    outside = [
        m for m in loaded if m != "tui" and m != "tui.sandbox" and not m.startswith("tui.sandbox.")
    ]
    assert outside == []
