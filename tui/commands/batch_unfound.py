"""``freight batch settle FILE --unfound --not-booked``: every order of unknown outcome that no
search finds a shipment for is taken as never booked, after one confirmation, and booked
again by the next ``batch book`` (one command, not one per order).

Each order is searched as ``batch settle FILE ORDER`` searches it: a shipment that proves its
booking settles it as booked; an order the search lists candidates for is left, named, to be
settled alone; an order never sent (no ledger record) is simply bookable again.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TextIO

from tui.api.options import RetryPolicy
from tui.batch.book import book_again, claimed
from tui.booking import BookedOutcome, BookingEngine
from tui.commands.connect import open_client
from tui.commands.exits import FAILED, OK, UsageError
from tui.config.paths import data_dir
from tui.domain.safe_text import plain
from tui.store import ledger_environment, open_ledger

if TYPE_CHECKING:
    from tui.batch.engine import Batch
    from tui.config.settings import Profile

UNSETTLED = ("booking", "unknown")


async def settle_unfound(
    args: argparse.Namespace,
    batch: Batch,
    profile: Profile,
    err: TextIO,
    *,
    terminal: bool,
    confirmed: Callable[[str, TextIO], Awaitable[bool]],
) -> int:
    """Settle every unknown order no search finds as not booked; 0 when every one was
    settled, 1 when some were left (candidates listed, another station's, not confirmed)."""

    keys = [o.key for o in batch.orders if batch.state(o.key).status in UNSETTLED]
    keys += [k for k, s in batch.states.items() if s.status in UNSETTLED and k not in keys]
    if not keys:
        print("freight: no order's booking outcome is unknown: nothing to settle", file=err)
        return OK
    if not args.yes and not terminal:
        raise UsageError(
            "settling asks to confirm and there is no terminal to confirm on: add --yes to "
            "settle from a script"
        )
    ledger = open_ledger(data_dir(), ledger_environment(profile.name, profile.environment))
    mine = batch.store.claim(batch.info.id, keys)  # not those another station books now
    left = len(keys) - len(mine)
    if left:
        print(f"freight: {left} order(s) are being booked by another station: left", file=err)
    try:
        async with open_client(args, retry=RetryPolicy(rate_attempts=1)) as client:
            engine = BookingEngine(client, ledger, batch.profile)
            unfound, listed = await _searched(batch, engine, mine, err)
            left += listed
            if not unfound:
                return FAILED if left else OK
            if not await _agreed(args, unfound, err, confirmed):
                print("freight: not settled: not confirmed", file=err)
                return FAILED
            _settle(batch, engine, unfound)
    finally:
        batch.store.release(batch.info.id, mine)
    print(
        f"freight: {len(unfound)} order(s) settled: not booked; the next batch book books them",
        file=err,
    )
    return FAILED if left else OK


async def _searched(
    batch: Batch, engine: BookingEngine, keys: list[str], err: TextIO
) -> tuple[list[tuple[str, str | None]], int]:
    """The orders no search found (key, and the reference of the booking sent; None: never
    sent), and how many the search listed candidates for (left to settle alone)."""

    unfound: list[tuple[str, str | None]] = []
    listed = 0
    for key in keys:
        reference = batch.state(key).reference
        record = await asyncio.to_thread(engine.record, reference) if reference else None
        if record is None:
            unfound.append((key, None))
            continue
        outcome = await engine.settle(record)
        if isinstance(outcome, BookedOutcome):
            assert outcome.record is not None
            after = claimed(batch, key, outcome.record)
            print(
                f"freight: order {plain(key, limit=40)}: the search proves it booked (PRO "
                f"{plain(after.pro_number) or 'none listed'}); recorded as booked",
                file=err,
            )
            continue
        candidates = getattr(outcome, "candidates", ())
        if candidates:
            listed += 1
            print(
                f"freight: order {plain(key, limit=40)}: the search lists {len(candidates)} "
                "shipment(s) that may be it: settle it alone (batch settle FILE ORDER)",
                file=err,
            )
            continue
        unfound.append((key, record.reference))
    return unfound, listed


async def _agreed(
    args: argparse.Namespace,
    unfound: list[tuple[str, str | None]],
    err: TextIO,
    confirmed: Callable[[str, TextIO], Awaitable[bool]],
) -> bool:
    if args.yes:
        return True
    names = ", ".join(plain(key, limit=40) for key, _ in unfound[:20])
    more = f" and {len(unfound) - 20} more" if len(unfound) > 20 else ""
    question = (
        f"{len(unfound)} order(s) ({names}{more}): no search found a shipment for their "
        "booking. Take each as never made, and book it again with the next batch book (a "
        "booking made after all makes a second shipment)?"
    )
    return await confirmed(question, err)


def _settle(batch: Batch, engine: BookingEngine, unfound: list[tuple[str, str | None]]) -> None:

    for key, reference in unfound:
        state = batch.state(key)
        if reference is None:  # never sent: simply bookable again
            batch.save(state.updated(status="rated" if state.choice else "pending", errors=()))
        else:
            try:
                book_again(batch, key, reference, engine.ledger)
            except ValueError as error:  # its rate is gone from the file: rate it first
                raise UsageError(f"{error}: rate it again first (batch rate --rerate)") from None
