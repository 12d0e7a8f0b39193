"""The package says what it is: MIT, the license text in the repository and in the wheel."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_the_license_is_mit_and_ships_with_the_package() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Freight developers" in text
    metadata = importlib.metadata.metadata("freight-tui")
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    shipped = [f for f in importlib.metadata.files("freight-tui") or [] if f.name == "LICENSE"]
    assert shipped
    assert shipped[0].read_text(encoding="utf-8") == text
