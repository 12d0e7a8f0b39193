"""Secrets never reach a log record, whichever logger or argument carries them."""

from __future__ import annotations

import logging

import pytest

from tui.api.secret import Secret
from tui.credentials import redact
from tui.credentials.resolve import Credentials

SECRET = "redact-me-5c2e9"


def test_log_records_lose_registered_secrets_and_bearer_values(
    caplog: pytest.LogCaptureFixture,
) -> None:
    redact.install()
    creds = Credentials("client-9", Secret(SECRET), "keyring").register()
    logger = logging.getLogger("freight.test")
    with caplog.at_level(logging.DEBUG):
        logger.info("client %s token %s", creds.client_id, creds.token().reveal())
        logger.debug("secret alone: %s", SECRET)
        logger.warning("header Authorization: Bearer abc.def-anything")
        try:
            raise RuntimeError(f"failed with {SECRET}")
        except RuntimeError:
            logger.exception("boom")
    text = caplog.text + "".join(r.getMessage() for r in caplog.records)
    assert SECRET not in text
    assert "abc.def-anything" not in text
    assert "Bearer ***" in text
    assert "client-9" in text


def test_reprs_never_show_the_secret() -> None:
    creds = Credentials("client-9", Secret(SECRET), "file")
    assert SECRET not in repr(creds)
    assert SECRET not in str(creds)
    assert SECRET not in repr(creds.token())
    assert SECRET not in f"{creds.secret}"
