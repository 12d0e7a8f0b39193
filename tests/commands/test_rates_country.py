"""`freight rates --from/--to` with a Canadian postal code says Canada on the wire, as the
Quote screen does: a real service need not guess the country from the code's shape."""

from __future__ import annotations

import io
import sys

import pytest

from tests.independent_server import TOKEN, IndependentServer, serve
from tui.cli import main


@pytest.mark.parametrize(
    ("origin", "dest", "countries"),
    [
        ("m5v2t6", "30303", {"originCountry": "CAN"}),
        ("60607", "v6b 1a1", {"destCountry": "CAN"}),
        ("60607", "30303", {}),
    ],
)
def test_a_canadian_end_is_sent_with_its_country(
    monkeypatch: pytest.MonkeyPatch, origin: str, dest: str, countries: dict[str, str]
) -> None:
    server = IndependentServer()
    with serve(server) as base_url:
        monkeypatch.setenv("FREIGHT_BASE_URL", base_url)
        monkeypatch.setenv("FREIGHT_API_TOKEN", TOKEN)
        monkeypatch.setattr(sys, "stdout", io.StringIO())
        monkeypatch.setattr(sys, "stderr", err := io.StringIO())
        status = main(
            ["rates", "--from", origin, "--to", dest, "--item", "2xpallet,800lb,48x40x48"]
        )
    assert status == 0, err.getvalue()
    sent = server.bodies[-1]
    assert {k: v for k, v in sent.items() if k.endswith("Country")} == countries
    if countries.get("originCountry"):
        assert sent["originPostalCode"] == "M5V 2T6"
