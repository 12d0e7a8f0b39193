"""Environment credentials: one form or the other, errors that name variables, never values."""

from __future__ import annotations

import pytest

from tui.credentials.env import EnvCredentialError, from_env

SECRET = "env-s3cret-44b0"


def test_token_is_split_on_the_first_period() -> None:
    creds = from_env({"FREIGHT_API_TOKEN": f"client.{SECRET}.with.dots"})
    assert creds is not None
    assert creds.client_id == "client"
    assert creds.secret.reveal() == f"{SECRET}.with.dots"


def test_the_pair_is_read_as_given() -> None:
    creds = from_env({"FREIGHT_CLIENT_ID": "id.with.dot", "FREIGHT_CLIENT_SECRET": SECRET})
    assert creds is not None
    assert creds.client_id == "id.with.dot"
    assert creds.secret.reveal() == SECRET
    assert SECRET not in repr(creds)


def test_nothing_set_is_none() -> None:
    assert from_env({"FREIGHT_CLIENT_ID": "  "}) is None


@pytest.mark.parametrize(
    ("env", "named"),
    [
        (
            {"FREIGHT_API_TOKEN": f"a.{SECRET}", "FREIGHT_CLIENT_ID": "a"},
            ["FREIGHT_API_TOKEN", "FREIGHT_CLIENT_ID"],
        ),
        ({"FREIGHT_CLIENT_SECRET": SECRET}, ["FREIGHT_CLIENT_SECRET", "FREIGHT_CLIENT_ID"]),
        ({"FREIGHT_CLIENT_ID": "a"}, ["FREIGHT_CLIENT_ID", "FREIGHT_CLIENT_SECRET"]),
        ({"FREIGHT_API_TOKEN": SECRET}, ["FREIGHT_API_TOKEN"]),
        ({"FREIGHT_API_TOKEN": f".{SECRET}"}, ["FREIGHT_API_TOKEN"]),
    ],
)
def test_inconsistent_variables_name_the_variables_not_the_values(
    env: dict[str, str], named: list[str]
) -> None:
    with pytest.raises(EnvCredentialError) as caught:
        from_env(env)
    message = str(caught.value)
    for name in named:
        assert name in message
    assert SECRET not in message
