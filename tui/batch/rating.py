"""Rate many orders at once, within the service's limits.

A fixed number of workers (the concurrency) take orders one by one; every request waits its
turn at the batch's one ``Pace``. A 429 pauses the whole batch and the order is asked again; a
failure is kept on its order with the reason (rated again on the next run); a refusal of the
order's data points at its rows. Each order's state is saved the moment it is known, so a
cancel (or a kill) keeps every order already rated.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

from tui.api import errors as api
from tui.batch.model import Order, OrderState, RateOption, RowError
from tui.batch.orders import field_error
from tui.batch.pace import Pace, each, waiting_text
from tui.batch.rules import Rules, choose
from tui.domain.safe_text import plain

if TYPE_CHECKING:
    from datetime import datetime

    from tui.api.models import Quote, RateRequest
    from tui.batch.fields import ColumnMapping

MAX_LIMITED_TRIES: Final = 12
"""429s one order takes before it is set down as failed (retryable)."""
SERVER_TRIES: Final = 3
"""Tries of one order's rate request the service answers 5xx (a rate books nothing)."""
SERVER_BACKOFF_S: float = 0.5
"""Seconds before the next try after a 5xx, times the 5xx answers so far."""
DEFAULT_CONCURRENCY: Final = 8
CLAIM_GROUP: Final = 16
"""Orders a station claims to rate at a time (at least twice its concurrency)."""


class RatesClient(Protocol):
    """The one call rating needs (``FreightClient`` has it)."""

    async def get_rates(self, request: RateRequest) -> Quote: ...


@dataclass(frozen=True)
class Progress:
    """How far a rating run is: orders done of the total, and the time it has taken."""

    done: int
    total: int
    failed: int
    elapsed: float
    waiting: datetime | None = None
    """When the pause a 429 asked for ends (None: not waiting)."""

    @property
    def remaining(self) -> float | None:
        """Seconds left at the pace so far (None before the first answer)."""
        if self.done == 0 or self.elapsed <= 0:
            return None
        return (self.total - self.done) * self.elapsed / self.done

    @property
    def text(self) -> str:
        """``Rated 37 of 113 · 0:12 left``."""
        left = self.remaining
        tail = (
            f" · {format_seconds(left)} left" if left is not None and self.done < self.total else ""
        )
        failed = f" · {self.failed} failed" if self.failed else ""
        return f"Rated {self.done} of {self.total}{failed}{tail}{waiting_text(self.waiting)}"


def format_seconds(seconds: float) -> str:
    """``0:07``, ``2:15``, ``1:02:03``."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class FatalRatingError(Exception):
    """Rating cannot go on for any order (not signed in, not allowed): the batch stops."""


def options_of(quote: Quote) -> tuple[RateOption, ...]:
    """A quote's offers as the batch keeps them (text from the server stays text)."""

    out = []
    for rate in quote.rates:
        out.append(
            RateOption(
                id=rate.id,
                carrier=plain(rate.carrier, limit=80),
                carrier_code=plain(rate.carrier_code, limit=12),
                service=plain(rate.service_type, limit=60),
                mode=plain(rate.mode, limit=20),
                total=rate.total,
                currency=plain(rate.currency, limit=8),
                days=rate.days,
                ok=rate.is_ok,
                message=plain(rate.message or ("" if rate.is_ok else rate.status), limit=200),
            )
        )
    return tuple(out)


def rated_state(
    state: OrderState, quote_id: str, rates: tuple[RateOption, ...], rules: Rules
) -> OrderState:
    """The state after an answer: the rule's choice, or no-rate and why."""
    best, why = choose(rates, rules)
    if best is None:
        return state.updated(
            status="no-rate",
            quote_id=quote_id,
            rates=rates,
            chosen="",
            chosen_by="",
            errors=(RowError(None, None, None, why),),
        )
    return state.updated(
        status="rated", quote_id=quote_id, rates=rates, chosen=best.id, chosen_by="rule", errors=()
    )


async def rate_orders(
    client: RatesClient,
    orders: Sequence[Order],
    states: dict[str, OrderState],
    rules: Rules,
    mapping: ColumnMapping,
    *,
    save: Callable[[OrderState], Awaitable[None]],
    pace: Pace | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: Callable[[Progress], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    claim: Callable[[Sequence[Order]], Awaitable[list[Order]]] | None = None,
    release: Callable[[Sequence[Order]], Awaitable[None]] | None = None,
) -> None:
    """Rate ``orders`` (valid ones), updating ``states`` and saving each as it is known;
    with ``claim``, a group at a time: only those of it ``claim`` gives (this station now
    holds them; the others another station rated or is rating), let go by ``release``.

    Raises FatalRatingError when the service refuses the account; cancelling (Ctrl-C, the
    screen's cancel) stops at once and keeps what was done.
    """

    pace = pace or Pace()
    asking = [order for order in orders if order.packed]  # valid ones: not unpacked here
    total = len(asking)
    started = clock()
    done = failed = 0

    def report() -> None:
        if progress is not None:
            progress(Progress(done, total, failed, clock() - started, pace.wait_end()))

    async def finish(state: OrderState) -> None:
        nonlocal done, failed
        states[state.key] = state
        await save(state)
        done += 1
        failed += state.status == "failed"
        report()

    async def one(order: Order) -> None:
        request = order.request  # unpacked once
        assert request is not None
        state = states.get(order.key) or OrderState(order.key, position=order.rows[0])
        state = state.updated(
            fingerprint=order.fingerprint,
            pickup_date=order.pickup_date.isoformat() if order.pickup_date else "",
            notes=order.notes,
        )
        limited = failed_5xx = 0
        while True:
            await pace.turn()
            try:
                quote = await client.get_rates(request)
            except api.RateLimitedError as exc:
                limited += 1
                pace.limited(exc.retry_after)
                if limited < MAX_LIMITED_TRIES:
                    continue
                await finish(
                    _failed(state, f"the service kept answering 429 (too many requests): {exc}")
                )
                return
            except (api.AuthenticationError, api.SubscriptionError, api.PermissionDeniedError):
                raise
            except (api.InvalidRequestError, api.RequestValidationError) as exc:
                pace.ok()
                await finish(_refused(state, order, mapping, exc))
                return
            except api.ServerError as exc:  # a rate books nothing: asked again
                pace.ok()
                failed_5xx += 1
                if failed_5xx < SERVER_TRIES:
                    await asyncio.sleep(SERVER_BACKOFF_S * failed_5xx)
                    continue
                await finish(_failed(state, str(exc)))
                return
            except api.FreightError as exc:
                pace.ok()
                await finish(_failed(state, str(exc)))
                return
            pace.ok()
            await finish(rated_state(state, quote.id, options_of(quote), rules))
            return

    async def claimed() -> None:
        nonlocal done
        assert claim is not None
        group = max(2 * concurrency, CLAIM_GROUP)
        for start in range(0, total, group):
            chunk = asking[start : start + group]
            mine = await claim(chunk)
            done += len(chunk) - len(mine)  # another station has them, or had them
            try:
                await each(mine, concurrency, one)
            finally:
                if release is not None:
                    await release(mine)

    pace.on_wait = report
    report()
    try:
        await (each(asking, concurrency, one) if claim is None else claimed())
    except* (
        api.AuthenticationError,
        api.SubscriptionError,
        api.PermissionDeniedError,
    ) as group_error:
        first = group_error.exceptions[0]
        raise FatalRatingError(str(first)) from first


def _failed(state: OrderState, reason: str) -> OrderState:

    return state.updated(
        status="failed",
        errors=(RowError(None, None, None, plain(reason, limit=500)),),
        chosen="",
        chosen_by="",
    )


def _refused(
    state: OrderState, order: Order, mapping: ColumnMapping, error: Exception
) -> OrderState:
    """The service (or the request's own check) refused the order's data: point at its rows."""

    fields: dict[str, str] = getattr(error, "fields", {}) or {}
    if fields:
        errors = tuple(
            field_error(order.rows, mapping, plain(path, limit=80), plain(message, limit=300))
            for path, message in fields.items()
        )
    else:
        reason = plain(f"refused by the service: {error}", limit=500)
        errors = (RowError(order.rows[0], None, None, reason),)
    return state.updated(status="invalid", errors=errors, chosen="", chosen_by="", rates=())
