"""The paperwork a booked order owes: its BOL and labels, saved into the batch's folder.

An order is recorded booked and owing its paperwork in one save; the paperwork is then fetched
(what the booking's answer named, else the shipment's detail), each request at the batch's
pace, and the debt cleared only once every document is saved. A run stopped in between (a
kill, a document host down) leaves the debt written down: the next ``batch book`` or ``batch
paperwork`` fetches what is missing, and nothing is saved twice (a document written just
before a kill is written again under its own name, never as a second file). A failure names
the host that failed: the document's, not the API's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeVar
from urllib.parse import urlsplit

from tui.api.errors import (
    ApiError,
    FreightError,
    RateLimitedError,
    RequestTimeoutError,
    TransportError,
)
from tui.atomic import write_atomically
from tui.batch.model import PAPERWORK_NOT_SAVED, Order, OrderState
from tui.batch.names import paperwork_stem
from tui.documents import document_format, document_kind
from tui.domain.safe_text import plain, safe_file_name

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models import Document
    from tui.batch.engine import Batch
    from tui.batch.pace import Pace

MAX_LIMITED_TRIES: Final = 12
"""429s one request takes before it is given up (the paperwork stays owed)."""
R = TypeVar("R")


def owing(batch: Batch, keys: Collection[str] | None = None) -> list[Order]:
    """The booked orders (of ``keys``, when given) whose paperwork is not all saved."""
    return [
        order
        for order in batch.orders
        if (keys is None or order.key in keys) and batch.state(order.key).owes_paperwork
    ]


def owed(state: OrderState) -> OrderState:
    """A state just booked, owing its paperwork (saved with the booking, in one save)."""
    if state.status != "booked":
        return state
    return state.updated(paperwork_missing=PAPERWORK_NOT_SAVED)


async def save_paperwork(
    client: FreightClient,
    key: str,
    state: OrderState,
    folder: Path,
    keep: Callable[[OrderState], Awaitable[None]],
    given: Sequence[Document],
    pace: Pace,
) -> OrderState:
    """Download the order's BOL and labels not saved yet into the batch's folder, named by
    order: those the booking's answer named, else those of the shipment's detail. The state
    after: owing nothing, or why not (what was saved is kept)."""

    documents = list(given)
    if not documents:
        if not state.shipment_id:
            return await _owe(state, "the booking named no shipment to fetch it from", keep)
        try:
            detail = await _paced(pace, partial(client.get_shipment, state.shipment_id))
        except FreightError as error:
            reason = f"the shipment's documents could not be listed: {plain(str(error))}"
            return await _owe(state, reason, keep)
        documents = list(detail.documents)
    try:
        await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
    except OSError as error:
        return await _owe(state, f"cannot write into {folder}: {error.strerror or error}", keep)
    saved = list(state.documents)
    for document, wanted in zip(documents, _names(key, documents), strict=True):
        if _already(folder, wanted, saved):
            continue
        url = document.url
        try:
            content = await _paced(pace, partial(client.download_document, url))
        except FreightError as error:
            state = state.updated(documents=tuple(saved))
            return await _owe(state, _failed_at(client, url, error), keep)
        try:
            name = await asyncio.to_thread(_write_new, folder, wanted, content)
        except OSError as error:
            state = state.updated(documents=tuple(saved))
            return await _owe(state, f"cannot write into {folder}: {error.strerror or error}", keep)
        saved.append(name)
    after = state.updated(documents=tuple(saved), paperwork_missing="")
    await keep(after)
    return after


async def _paced(pace: Pace, call: Callable[[], Awaitable[R]]) -> R:
    """One request at the batch's pace; a 429 pauses the batch and asks again."""

    for _ in range(MAX_LIMITED_TRIES - 1):
        await pace.turn()
        try:
            answer = await call()
        except RateLimitedError as error:
            pace.limited(error.retry_after)
            continue
        pace.ok()
        return answer
    await pace.turn()
    return await call()


def document_host(client: FreightClient, url: str) -> str:
    """The host (and port) a document's URL names: relative ones are the service's own."""
    try:
        parts = urlsplit(str(client.base_url.join(url.strip())))
        port = parts.port
    except ValueError:
        return "an unreadable address"
    host = parts.hostname or "?"
    shown = f"[{host}]" if ":" in host else host
    return plain(f"{shown}:{port}" if port else shown, limit=120)


def _failed_at(client: FreightClient, url: str, error: Exception) -> str:
    """Why one document could not be fetched, naming its host (not the API's)."""

    host = document_host(client, url)
    if isinstance(error, RequestTimeoutError):
        return f"the document host {host} did not answer in time"
    if isinstance(error, TransportError):
        return f"the document host {host} could not be reached"
    if isinstance(error, ApiError):
        return f"the document host {host} answered {error.status}"
    return f"a document at {host} could not be fetched: {plain(str(error), limit=200)}"


async def _owe(
    state: OrderState, reason: str, keep: Callable[[OrderState], Awaitable[None]]
) -> OrderState:
    after = state.updated(paperwork_missing=plain(reason, limit=300) or PAPERWORK_NOT_SAVED)
    await keep(after)
    return after


def _base_name(key: str, document: Document) -> str:

    kind = document_kind(document, "document")
    return safe_file_name(f"{paperwork_stem(key)}-{kind}", kind, document_format(document))


def _names(key: str, documents: Sequence[Document]) -> list[str]:
    """The file name each document is kept under: ``<order>-<kind>.<format>``, the second
    and later of one kind numbered (a parcel's four labels are four files, ``-label-2.pdf``
    …), the same on every run."""
    seen: dict[str, int] = {}
    out = []
    for document in documents:
        base = _base_name(key, document)
        seen[base] = seen.get(base, 0) + 1
        stem, _, extension = base.rpartition(".")
        out.append(base if seen[base] == 1 else f"{stem}-{seen[base]}.{extension}")
    return out


def _already(folder: Path, name: str, saved: list[str]) -> bool:
    """Whether the document of this name was saved before (by an earlier run)."""
    return name in saved and (folder / name).is_file()


def _write_new(folder: Path, name: str, content: bytes) -> str:
    """Write one document as ``name``, the order's own (unique per order and document, the
    same every run): a file there already is this document, left by a run stopped after
    writing it and before keeping its name (a kill, a crash), replaced whole, never kept
    beside it as a second copy. Its name."""

    write_atomically(folder / name, content, mode=0o644)
    return name
