"""The token type never shows its value by accident."""

from __future__ import annotations

import copy
import pickle

import pytest
from pydantic import BaseModel

from tui.api.secret import Secret, reveal


def test_secret_hides_its_value_everywhere_but_reveal() -> None:
    s = Secret("demo.demo-secret")
    for text in (str(s), repr(s), f"{s}", f"{s!r}", f"{s}", str([s]), str({"t": s})):
        assert "demo-secret" not in text
    assert s.reveal() == "demo.demo-secret"
    assert reveal(s) == reveal("demo.demo-secret") == "demo.demo-secret"


def test_secret_equality_by_value() -> None:
    assert Secret("a") == Secret("a")
    assert Secret("a") != Secret("b")
    assert Secret("a") != "a"
    assert len({Secret("a"), Secret("a")}) == 1
    assert Secret(Secret("a")) == Secret("a")


def test_secret_cannot_be_pickled_or_changed() -> None:
    s = Secret("x")
    with pytest.raises(TypeError):
        pickle.dumps(s)
    with pytest.raises(AttributeError):
        s._value = "y"
    assert copy.deepcopy(s) is s


def test_secret_in_a_pydantic_model_dumps_redacted() -> None:
    class Profile(BaseModel):
        token: Secret

    p = Profile(token="abc.def")
    assert p.token.reveal() == "abc.def"
    assert "def" not in repr(p)
    assert "def" not in p.model_dump_json()
