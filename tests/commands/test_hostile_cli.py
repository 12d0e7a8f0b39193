"""The commands against a hostile server, and fed odd input: no traceback, no escape sequence
on the terminal, no file outside its folder, a documented exit status every time."""

from __future__ import annotations

import io
import json
import logging
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.commands.conftest import Result
from tests.hostile_server import NEVER_SHOWN, TOKEN, HostileServer
from tui.cli import main

DOCUMENTED = {0, 1, 2, 3, 4, 5}
"""The exit statuses README and --help name (70, a bug, is documented but never expected)."""
# What a terminal acts on; newline and tab are the output's own.
_ACTS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

Runner = Callable[..., Result]


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch, stdin: bytes = b"") -> Result:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", newline="")  # strict, as a UTF-8 terminal
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse's own usage errors
        status = int(exit_.code or 0) if not isinstance(exit_.code, str) else 2
    out.flush()
    err.flush()
    assert isinstance(err.buffer, io.BytesIO)
    return Result(status, raw.getvalue().decode("utf-8"), err.buffer.getvalue().decode("utf-8"))


@pytest.fixture(scope="module")
def hostile() -> Iterator[HostileServer]:
    server = HostileServer()
    with server.serve():
        yield server


@pytest.fixture
def freight(
    hostile: HostileServer, monkeypatch: pytest.MonkeyPatch, isolated_home: Path
) -> Iterator[Runner]:
    """``freight(*args)`` in-process against the hostile server (a SANDBOX profile)."""
    config = isolated_home / "config" / "freight-tui" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        'default_profile = "hostile"\n'
        f'[profiles.hostile]\nbase_url = "{hostile.base_url}"\nenvironment = "sandbox"\n'
    )
    monkeypatch.setenv("FREIGHT_API_TOKEN", TOKEN)

    def run(*args: str, stdin: bytes = b"") -> Result:
        return _run(list(args), monkeypatch, stdin)

    yield run
    from tui import logsetup

    logsetup.remove()
    logging.getLogger().setLevel(logging.WARNING)


def assert_clean(result: Result, *, data: bool = False) -> None:
    """A documented status, no traceback, nothing a terminal would act on.

    ``data``: the output is JSON, which keeps the server's text whole, escapes written as
    ``\u001b``; otherwise no word from inside an escape sequence may show either.
    """
    assert result.status in DOCUMENTED, (result.status, result.err)
    assert "Traceback" not in result.err
    for text in (result.out, result.err):
        assert not _ACTS.search(text), repr(text[:300])
    for word in NEVER_SHOWN:
        assert word not in result.err
        assert data or word not in result.out


# -- the hostile server's text --------------------------------------------------------------


def test_listing_detail_tracking_and_rates_print_text_not_escapes(freight: Runner) -> None:
    listing = freight("shipments")
    assert_clean(listing)
    assert listing.status == 0
    assert "Evil Carrier" in listing.out
    assert "[@click=app.pwned()]" in listing.out  # markup is printed as the text it is

    detail = freight("shipment", "shp_1")
    assert_clean(detail)
    assert "4415[x=227893" in detail.out
    for fmt in ("json", "jsonl"):
        as_json = freight("shipment", "shp_1", "--format", fmt)
        assert_clean(as_json, data=True)
        record = json.loads(as_json.out)
        assert "\x1b]0;PWNED-TITLE" in record["proNumber"]  # the data itself is intact

    tracked = freight("track", "PRO2")
    assert_clean(tracked)

    rates = freight("rates", "--from", "60607", "--to", "30303", "--item", "1xpallet,500,48x40x48")
    assert_clean(rates)
    assert "Markup Freight" in rates.out

    csv = freight("shipments", "--format", "csv")
    assert_clean(csv)


def test_documents_land_in_the_folder_only(freight: Runner, tmp_path: Path) -> None:
    folder = tmp_path / "out" / "papers"
    result = freight("shipment", "shp_1", "--documents", str(folder))
    assert_clean(result)
    assert result.status == 0, result.err
    written = {p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file()}
    written -= {p for p in written if p.parts[0] == "home"}  # the test's config and log
    assert len(written) == 5
    assert all(p.parts[:2] == ("out", "papers") and len(p.parts) == 3 for p in written), written
    assert "home-u.bashrc" in {p.name for p in written}
    assert str(folder) in result.err  # it says where they went


def test_a_detail_without_its_id_is_the_shipment_asked_for(
    freight: Runner, hostile: HostileServer
) -> None:
    hostile.no_detail_id = True
    try:
        result = freight("shipment", "shp_2")
    finally:
        hostile.no_detail_id = False
    assert_clean(result)
    assert result.status == 0, result.err
    assert re.search(r"Shipment:\s+shp_2", result.out)


def test_an_error_message_from_the_server_is_plain_text(freight: Runner) -> None:
    result = freight("shipment", "nope")
    assert_clean(result)
    assert result.status == 3
    assert result.err.startswith("freight: ")


# -- odd input ------------------------------------------------------------------------------


def _request_body() -> dict[str, object]:
    return {
        "originPostalCode": "H3B 1A7",
        "destPostalCode": "30303",
        "items": [{"weight": 500, "length": 48, "width": 40, "height": 48, "quantity": 1,
                   "package": "pallet", "description": "Café crème"}],
    }  # fmt: skip


@pytest.mark.parametrize(
    "encode",
    [
        lambda text: text.encode("utf-16"),  # PowerShell's `>`: UTF-16 with a BOM
        lambda text: text.encode("utf-16-le"),
        lambda text: text.encode("latin-1"),
        lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"),  # Notepad's UTF-8 with a BOM
    ],
    ids=["utf-16", "utf-16-le", "latin-1", "utf-8-bom"],
)
def test_request_files_in_any_common_encoding_are_read(
    freight: Runner, tmp_path: Path, encode: Callable[[str], bytes], hostile: HostileServer
) -> None:
    path = tmp_path / "quote.json"
    path.write_bytes(encode(json.dumps(_request_body(), ensure_ascii=False)))
    result = freight("rates", "--request", str(path))
    assert_clean(result)
    assert result.status == 0, result.err
    sent = hostile.bodies[-1]
    assert sent["items"][0]["description"] == "Café crème"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[" * 1000 + b"]" * 1000, "nested deeper than 32 levels"),
        (b'{"a":' * 100 + b"1" + b"}" * 100, "nested deeper than 32 levels"),
        (b"\x00\x01\x02 not json", "not JSON"),
        (b"null", "one JSON object"),
    ],
)
def test_a_request_file_that_is_no_request_is_a_usage_error(
    freight: Runner, tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "quote.json"
    path.write_bytes(content)
    result = freight("rates", "--request", str(path))
    assert_clean(result)
    assert result.status == 2
    assert message in result.err


def test_an_endless_request_file_is_refused_not_read_for_ever(freight: Runner) -> None:
    result = freight("rates", "--request", "/dev/zero")
    assert_clean(result)
    assert result.status == 2
    assert "larger than 1024 KiB" in result.err


@pytest.mark.parametrize(
    "argv",
    [
        ["shipments", "--base-url", "http://[::1"],
        ["shipment", "x", "--base-url", "http://[::1"],
        ["auth", "login", "--profile", "p", "--base-url", "http://[::1"],
        ["--base-url", "http://[::1", "auth", "status"],
    ],
)
def test_a_malformed_ipv6_base_url_is_a_usage_error(freight: Runner, argv: list[str]) -> None:
    result = freight(*argv, stdin=b"id\nsecret\n")
    assert_clean(result)
    assert result.status == 2
    assert "base URL" in result.err


def test_a_byte_that_is_not_utf8_in_an_argument_is_refused_cleanly(freight: Runner) -> None:
    not_utf8 = b"\xff".decode("utf-8", "surrogateescape")  # what Python makes of argv bytes
    for argv in (["shipment", not_utf8], ["track", not_utf8], ["shipments", "--search", not_utf8]):
        result = freight(*argv)
        assert_clean(result)
        assert result.status == 2, (argv, result.err)
        assert any(w in result.err for w in ("not text", "\\xff", "unicode string")), result.err


# -- anything at all ------------------------------------------------------------------------

_ARG_TEXT = st.one_of(
    st.text(max_size=40),
    st.binary(max_size=40).map(lambda b: b.decode("utf-8", "surrogateescape")),
).filter(lambda text: "\x00" not in text)  # argv cannot hold NUL

_ARGV = st.one_of(
    st.tuples(st.just("shipment"), _ARG_TEXT).map(list),
    st.tuples(st.just("track"), _ARG_TEXT).map(list),
    st.tuples(st.just("shipments"), st.just("--search"), _ARG_TEXT).map(list),
    st.tuples(st.just("shipments"), st.just("--from"), _ARG_TEXT).map(list),
    st.tuples(st.just("shipments"), st.just("--json"), _ARG_TEXT).map(list),
    st.tuples(
        st.just("rates"),
        st.just("--from"),
        _ARG_TEXT,
        st.just("--to"),
        _ARG_TEXT,
        st.just("--item"),
        _ARG_TEXT,
    ).map(list),
    st.tuples(st.just("shipments"), st.just("--base-url"), _ARG_TEXT).map(list),
    st.tuples(st.just("shipment"), st.just("x"), st.just("--documents"), _ARG_TEXT).map(list),
    # A command, then anything (no command at all would start the app).
    st.tuples(
        st.sampled_from(["shipments", "shipment", "track", "rates", "auth", "config"]),
        st.lists(_ARG_TEXT.filter(lambda text: text != "--demo"), max_size=3),
    ).map(lambda parts: [parts[0], *parts[1]]),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(argv=_ARGV)
# Found by a random draw: a --json that named no field wrote every field of the hostile
# server's shipments (its escape words among them) instead of a usage error.
@example(argv=["shipments", "--json", "\r"])
def test_any_arguments_end_in_a_documented_status(freight: Runner, argv: list[str]) -> None:
    result = freight(*argv)
    assert_clean(result)


_JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3)
    ),
    max_leaves=20,
)
_ITEM = st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8), max_size=4)
_REQUEST_LIKE = st.fixed_dictionaries(
    {
        "originPostalCode": st.text(max_size=12),
        "destPostalCode": st.text(max_size=12),
        "items": st.lists(_ITEM, max_size=2),
    }
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    content=st.one_of(
        st.binary(max_size=300),
        _JSON_VALUE.map(lambda value: json.dumps(value).encode()),
        _REQUEST_LIKE.map(lambda value: json.dumps(value).encode()),
    )
)
def test_any_request_file_ends_in_a_documented_status(
    freight: Runner, tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "request.json"
    path.write_bytes(content)
    result = freight("rates", "--request", str(path))
    assert_clean(result)
