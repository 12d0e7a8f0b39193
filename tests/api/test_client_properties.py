"""The client fed arbitrary text and bytes as ids, URLs, search text, base URLs and tokens:
every call ends in an answer or a ``FreightError`` (``RequestValidationError`` for what cannot
be sent), never another exception."""

from __future__ import annotations

import asyncio
import contextlib

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.hostile_server import TOKEN, HostileServer
from tui.api import FreightClient, FreightError, RequestValidationError

SERVER = HostileServer()
APP = SERVER.app()

ANY_TEXT = st.one_of(
    st.text(max_size=60),
    st.text(st.characters(codec=None, exclude_categories=()), max_size=30),  # surrogates too
    st.binary(max_size=60).map(lambda raw: raw.decode("utf-8", "surrogateescape")),
    st.binary(max_size=60).map(lambda raw: raw.decode("latin-1")),
    st.sampled_from(["http://[::1/docs/bol.pdf", "http://h/\x00", "http://h/\x7f", "..", "."]),
)


def _client() -> FreightClient:
    return FreightClient(SERVER.base_url, TOKEN, transport=httpx.ASGITransport(app=APP))


@settings(max_examples=150, deadline=None)
@given(value=ANY_TEXT)
def test_any_id_url_or_search_text_ends_in_an_answer_or_a_freight_error(value: str) -> None:
    async def calls() -> None:
        async with _client() as client:
            for call in (
                lambda: client.get_shipment(value),
                lambda: client.get_tracking(value),
                lambda: client.download_document(value),
                lambda: client.search_shipments({"text": value}),
            ):
                with contextlib.suppress(FreightError):
                    await call()

    asyncio.run(calls())


@settings(max_examples=150, deadline=None)
@given(base_url=ANY_TEXT, token=ANY_TEXT)
def test_any_base_url_and_token_make_a_client_or_a_validation_error(
    base_url: str, token: str
) -> None:
    try:
        client = FreightClient(base_url, token)
    except RequestValidationError as error:
        refused: RequestValidationError | None = error
    else:
        refused = None
        asyncio.run(client.aclose())
    secret = token.strip()
    if refused is not None and len(secret) >= 8:
        assert secret not in str(refused)  # the token is never shown
