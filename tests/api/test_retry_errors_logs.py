"""Back-off and Retry-After arithmetic, error mapping from odd bodies, and log redaction."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest

from tui.api.errors import (
    ApiError,
    InvalidRequestError,
    RateLimitedError,
    ServerError,
    error_for_status,
    fields_from_body,
)
from tui.api.logs import LOG, redact, register_secret, unregister_secret
from tui.api.options import RetryPolicy
from tui.api.retry import backoff_delay, parse_retry_after
from tui.api.secret import Secret


def test_backoff_grows_is_jittered_and_capped() -> None:
    policy = RetryPolicy(backoff_base=0.5, backoff_cap=3.0)
    assert [backoff_delay(policy, n, lambda: 1.0) for n in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    assert backoff_delay(policy, 3, lambda: 0.0) == 0.0
    assert 0 <= backoff_delay(policy, 2) <= 2.0


def test_retry_after_seconds_and_http_dates() -> None:
    now = datetime(2026, 11, 22, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(" 1.5 ") == 1.5
    assert parse_retry_after("Sun, 22 Nov 2026 12:00:30 GMT", now) == 30.0
    assert parse_retry_after("Sun, 22 Nov 2026 11:00:00 GMT", now) == 0.0
    assert parse_retry_after("-4") == 0.0
    for junk in (None, "", "soon", "nan", "inf"):
        assert parse_retry_after(junk) is None


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"fields": [{"field": "items[0].weight", "message": "must be > 0"}]},
         {"items[0].weight": "must be > 0"}),
        ({"errors": {"originPostalCode": ["unknown ZIP", "too short"]}},
         {"originPostalCode": "unknown ZIP; too short"}),
        ({"detail": [{"loc": ["body", "items", 0, "height"], "msg": "required"}]},
         {"items[0].height": "required"}),
        ({"errors": ["the quote is odd"]}, {"": "the quote is odd"}),
        ({"message": "bad"}, {}),
    ],
)  # fmt: skip
def test_field_messages_in_the_usual_shapes(
    body: dict[str, object], fields: dict[str, str]
) -> None:
    assert fields_from_body(body) == fields


def test_error_for_status_with_odd_bodies() -> None:
    html = error_for_status(502, None, request_id="hdr-1")
    assert isinstance(html, ServerError)
    assert html.request_id == "hdr-1"
    assert "Try again" in str(html)
    teapot = error_for_status(418, {"code": "TEAPOT", "detail": "short and stout"})
    assert type(teapot) is ApiError
    assert teapot.name == "TEAPOT"
    assert "short and stout" in str(teapot)
    limited = error_for_status(429, ["not", "an", "object"], retry_after=None)
    assert isinstance(limited, RateLimitedError)
    assert "Wait a moment" in str(limited)
    unprocessable = error_for_status(422, {"name": "RATE_NOT_BOOKABLE", "message": "not ok"})
    assert isinstance(unprocessable, InvalidRequestError)
    assert unprocessable.fields == {}
    fastapi = error_for_status(422, {"detail": [{"loc": ["body", "weight"], "msg": "required"}]})
    assert isinstance(fastapi, InvalidRequestError)
    assert fastapi.fields == {"weight": "required"}
    assert fastapi.server_message is None
    assert "RATE_NOT_BOOKABLE" in repr(unprocessable)


def test_log_lines_never_carry_a_registered_token_or_bearer_value(
    caplog: pytest.LogCaptureFixture,
) -> None:
    token = Secret("acct.very-secret-value")
    register_secret(token)
    try:
        caplog.set_level(logging.DEBUG, logger="tui.api")
        LOG.debug("sent %s with %s", {"Authorization": "Bearer xyz.abc"}, "acct.very-secret-value")
        LOG.info("plain Bearer other.token, done")
    finally:
        unregister_secret(token)
    text = caplog.text
    assert "very-secret" not in text
    assert "xyz.abc" not in text
    assert "other.token" not in text
    assert text.count("***") == 3
    assert redact("acct.very-secret-value") == "acct.very-secret-value"  # no longer registered


@pytest.mark.parametrize(
    ("retry_after", "wait"),
    [(1.0, "Wait 1 second and"), (2.0, "Wait 2 seconds"), (0.5, "0.5 seconds")],
)
def test_the_429_advice_counts_its_seconds(retry_after: float, wait: str) -> None:
    error = error_for_status(429, {}, retry_after=retry_after)
    assert wait in str(error)
    assert "1 seconds" not in str(error)
