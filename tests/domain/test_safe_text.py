"""Server text made display text and file names: no control, no markup meaning, no paths."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui.domain.safe_text import (
    FILE_NAME_LIMIT,
    json_escaped,
    plain,
    plain_cell,
    plain_lines,
    safe_file_name,
    safe_name_part,
    visible,
)

# Anything a terminal would act on: C0 but newline (checked apart), DEL, C1, bidi overrides.
_ACTS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Lakeshore Interstate", "Lakeshore Interstate"),
        ("ACME\x1b]52;c;ZWNobyBoaQ==\x07 Freight", "ACME Freight"),  # clipboard write
        ("\x1b]0;pwned\x1b\\Title", "Title"),  # window title, ST-terminated
        ("\x1b[2J\x1b[HWiped", "Wiped"),  # clear screen, cursor home
        ("\x1b]8;;https://evil.test\x07click\x1b]8;;\x07", "click"),  # hyperlink
        ("\x9b31mred", "red"),  # 8-bit CSI
        ("\x9d0;t\x9cdone", "done"),  # 8-bit OSC with 8-bit ST
        ("bell\x07", "bell\\x07"),
        ("nul\x00byte", "nul\\x00byte"),
        ("del\x7f", "del\\x7f"),
        ("c1\x85next", "c1 next"),
        ("two\nlines\r\nhere\ttab", "two lines here tab"),
        ("evil\u202eftp.exe", "evil\\u202eftp.exe"),
        ("bad\udcffbyte", "bad\\xffbyte"),
        ("[@click=app.quit]Quit[/]", "[@click=app.quit]Quit[/]"),  # markup is only text
        ("4415[x=227893", "4415[x=227893"),
        ("unterminated\x1b]0;title", "unterminated"),
        ("lone escape\x1b", "lone escape"),
        (None, ""),
        (42, "42"),
    ],
)
def test_plain(raw: object, shown: str) -> None:
    assert plain(raw) == shown


def test_plain_cuts_to_a_limit_with_an_ellipsis() -> None:
    assert plain("abcdefgh", limit=5) == "abcd…"
    assert plain("abc", limit=5) == "abc"


def test_plain_lines_keeps_line_breaks_only() -> None:
    assert plain_lines("one\r\ntwo\rthree\u2028four\x1b[31m\x07") == "one\ntwo\nthree\nfour\\x07"


def test_visible_shows_every_escape() -> None:
    assert visible('{"n": "a\x1b]52;c;x\x07"}') == '{"n": "a\\x1b]52;c;x\\x07"}'
    assert visible("a\nb") == "a\nb"
    assert visible("a\nb", keep_newlines=False) == "a\\x0ab"
    assert visible("\x9b\u2066") == "\\x9b\\u2066"


@given(st.text())
def test_plain_never_leaves_anything_a_terminal_acts_on(raw: str) -> None:
    shown = plain(raw)
    assert "\n" not in shown
    assert "\x1b" not in shown
    assert not _ACTS.search(shown)
    shown.encode("utf-8")  # never a lone surrogate that fails to print


@given(st.text())
def test_plain_lines_and_visible_too(raw: str) -> None:
    for shown in (plain_lines(raw), visible(raw)):
        assert not _ACTS.search(shown)
        shown.encode("utf-8")


@given(st.text(alphabet=st.characters(blacklist_categories=["Cc", "Cs", "Zl", "Zp"])))
def test_printable_text_is_unchanged(raw: str) -> None:
    if not re.search("[\u202a-\u202e\u2066-\u2069]", raw):
        assert plain(raw) == raw


@pytest.mark.parametrize(
    ("name", "kind", "fmt", "expected"),
    [
        ("BOL.pdf", "bol", "pdf", "BOL.pdf"),
        ("label", "label", "zpl", "label.zpl"),
        ("4415-227893", "bol", "PDF", "bol-4415-227893.pdf"),
        ("...", "/home/u/", "bashrc", "home-u.bashrc"),  # the ~/.bashrc of issue 20
        (None, "../../etc", "pdf", "etc.pdf"),
        ("../../.ssh/authorized_keys", "label", "zpl", "label-authorized_keys.zpl"),
        ("..\\..\\boot.ini", "bol", "pdf", "bol-boot.pdf"),
        ("x", None, "../pdf", "document-x.pdf"),
        ("CON", "aux", "txt", "aux_-CON_.txt"),
        ("", "", "", "document.pdf"),
        ("\x1b]52;c;eA==\x07", "bol", "pdf", "bol.pdf"),
        ("A\x07B", "bol", "pdf", "bol-AB.pdf"),
        ("naïve", "bol", "pdf", "bol-na-ve.pdf"),
    ],
)
def test_safe_file_name(name: str | None, kind: str | None, fmt: str, expected: str) -> None:
    assert safe_file_name(name, kind, fmt) == expected


@given(st.text(), st.text(), st.text())
def test_a_file_name_is_never_a_path(name: str, kind: str, fmt: str) -> None:
    file_name = safe_file_name(name, kind, fmt)
    assert 0 < len(file_name) <= FILE_NAME_LIMIT
    assert re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9._-]*\.[a-z0-9]+", file_name)
    assert file_name.split(".")[0].lower() not in {"con", "prn", "aux", "nul"}


def test_safe_name_part_is_empty_when_nothing_is_left() -> None:
    assert safe_name_part("../..") == ""
    assert safe_name_part("shp_01H/../x") == "shp_01H-..-x"
    assert safe_name_part(".hidden") == "hidden"
    assert safe_name_part("a" * 300, limit=10) == "a" * 10


def test_json_escaped_keeps_the_json_and_escapes_what_a_terminal_acts_on() -> None:
    import json

    value = {"carrier": "A\x7f\x9b2J\u202e\udcff", "n": [1, "ok"]}
    dumped = json.dumps(value, ensure_ascii=False, indent=2)
    escaped = json_escaped(dumped)
    assert not _ACTS.search(escaped)
    assert "\n" in escaped  # the indentation stays
    assert json.loads(escaped) == value
    assert json_escaped('{"a": "plain"}') == '{"a": "plain"}'


def test_a_data_cell_keeps_its_whitespace_and_loses_its_escapes() -> None:
    assert plain_cell("a\tb\r\nc") == "a\tb\r\nc"
    assert plain_cell("x\x1b]0;t\x07y\x9b31mz\x00") == "xyz\\x00"
