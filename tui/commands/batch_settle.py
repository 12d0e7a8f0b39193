"""``freight batch settle FILE ORDER --booked PRO | --not-booked``: what the Batch screen's
keys do for an order whose booking's outcome is unknown, for a script or a cron job.

The same rules as the screen's booking check (``tui.booking.proof``): the service is searched
first (the booking's reference, its PRO, then its lane); a shipment that proves the booking
settles it whatever was said. ``--booked PRO`` is taken only for a shipment that search
lists as possibly this booking (it shows the reference, or was created on the lane after the
booking was sent); ``--not-booked`` only once the search has answered, and it makes the order
booked again, under a new reference, by the next ``batch book``. Both ask to confirm (``--yes``
for scripts; without a terminal and without ``--yes``: refused, with the reason).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
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
    from tui.api.models import Shipment
    from tui.batch.engine import Batch
    from tui.booking import UnknownOutcome
    from tui.config.settings import Profile
    from tui.ledger import BookingRecord


async def settle(args: argparse.Namespace, batch: Batch, profile: Profile, err: TextIO) -> int:
    """Settle one order of unknown outcome; the exit status (0 settled, 1 not: unconfirmed,
    or the PRO is not one the search lists). Raises UsageError (no such order, not unknown,
    no terminal to confirm on), FreightError (the search failed: nothing is settled)."""

    if args.unfound or args.order is None:
        from tui.commands.batch_unfound import settle_unfound

        if not args.unfound or not args.not_booked or args.order is not None:
            raise UsageError("batch settle takes an ORDER, or --unfound --not-booked without one")
        return await settle_unfound(
            args, batch, profile, err, terminal=stdin_is_terminal(), confirmed=_confirmed
        )
    key = args.order
    if batch.order(key) is None and key not in batch.states:
        raise UsageError(f"{plain(key, limit=40)}: no such order in {plain(args.file)}")
    state = batch.state(key)
    if state.status not in ("booking", "unknown"):
        shown = "booked" if state.status == "booked" else state.status
        raise UsageError(
            f"order {plain(key, limit=40)} is {shown}, not unknown: there is nothing to settle"
        )
    if not args.yes and not stdin_is_terminal():
        raise UsageError(
            "settling asks to confirm and there is no terminal to confirm on: add --yes to "
            "settle from a script"
        )
    ledger = open_ledger(data_dir(), ledger_environment(profile.name, profile.environment))
    record = ledger.latest(state.reference) if state.reference else None
    if not batch.store.claim(batch.info.id, [key]):  # not while another station books it
        raise UsageError(
            f"order {plain(key, limit=40)} is being booked by another station right now: "
            "settle it when that run has ended"
        )
    try:
        async with open_client(args, retry=RetryPolicy(rate_attempts=1)) as client:
            engine = BookingEngine(client, ledger, batch.profile)
            return await _settled(args, batch, key, engine, record, err)
    finally:
        batch.store.release(batch.info.id, [key])


async def _settled(
    args: argparse.Namespace,
    batch: Batch,
    key: str,
    engine: BookingEngine,
    record: BookingRecord | None,
    err: TextIO,
) -> int:

    if record is None:  # never sent: nothing can exist, it is simply bookable again
        return await _not_sent(args, batch, key, err)
    outcome = await engine.settle(record)
    if isinstance(outcome, BookedOutcome):
        return _proven(args, batch, key, outcome, err)
    if args.not_booked:
        return await _not_booked(args, batch, key, engine, outcome, err)
    return await _booked(args, batch, key, engine, outcome, err)


def _proven(
    args: argparse.Namespace, batch: Batch, key: str, outcome: BookedOutcome, err: TextIO
) -> int:
    """The search proved the booking: it is recorded booked, whatever was said."""

    assert outcome.record is not None
    after = claimed(batch, key, outcome.record)
    pro = plain(after.pro_number) or "no PRO listed"
    print(
        f"freight: order {plain(key, limit=40)}: the search proves it booked "
        f"(shipment {plain(after.shipment_id)}, PRO {pro}); recorded as booked",
        file=err,
    )
    if args.not_booked or (args.booked and not _same(args.booked, after.pro_number)):
        print(
            f"freight: not settled as asked: the service lists its booking with PRO {pro}",
            file=err,
        )
        return FAILED
    return OK


async def _booked(
    args: argparse.Namespace,
    batch: Batch,
    key: str,
    engine: BookingEngine,
    outcome: UnknownOutcome,
    err: TextIO,
) -> int:
    """``--booked PRO``: the listed candidate with that PRO is this booking."""

    match = [c for c in outcome.candidates if _same(args.booked, c.shipment.pro_number)]
    if len(match) != 1:
        listed = "; ".join(_line(c.shipment, c.why) for c in outcome.candidates[:10])
        print(
            f"freight: not settled: PRO {plain(args.booked, limit=40)} is not that of one "
            "shipment the search lists as possibly this booking ("
            + (f"listed: {listed}" if listed else "it lists none yet: search again later")
            + ")",
            file=err,
        )
        return FAILED
    candidate = match[0]
    question = (
        f"Order {plain(key, limit=40)}: record shipment {_line(candidate.shipment, candidate.why)} "
        "as its booking?"
    )
    if not args.yes and not await _confirmed(question, err):
        print("freight: not settled: not confirmed", file=err)
        return FAILED
    assert outcome.record is not None
    settled = await engine.confirm(outcome.record, candidate.shipment, candidate.why)
    if settled.ledger_problem or settled.record is None:
        raise OSError(f"the booking ledger could not record it: {settled.ledger_problem}")
    after = claimed(batch, key, settled.record)
    print(
        f"freight: order {plain(key, limit=40)} settled: booked, PRO "
        f"{plain(after.pro_number)}; its paperwork is fetched by the next batch book (or "
        "batch paperwork)",
        file=err,
    )
    return OK


async def _not_booked(
    args: argparse.Namespace,
    batch: Batch,
    key: str,
    engine: BookingEngine,
    outcome: UnknownOutcome,
    err: TextIO,
) -> int:
    """``--not-booked``: none of what the search lists is it; booked again next run."""

    listed = [_line(c.shipment, c.why) for c in outcome.candidates[:10]]
    maybe = (
        f" The search lists {len(outcome.candidates)} shipment(s) that may be it: "
        + "; ".join(listed)
        + "."
        if listed
        else " The search found no shipment that may be it."
    )
    question = (
        f"Order {plain(key, limit=40)}: its booking under {plain(outcome.reference)} is to be "
        f"taken as never made, and the order booked again by the next batch book (if it was "
        f"made after all, that makes a second shipment).{maybe} Settle as not booked?"
    )
    if not args.yes and not await _confirmed(question, err):
        print("freight: not settled: not confirmed", file=err)
        return FAILED
    try:
        after = book_again(batch, key, outcome.reference, engine.ledger)
    except ValueError as error:
        raise UsageError(str(error)) from None
    print(
        f"freight: order {plain(key, limit=40)} settled: not booked; the next batch book books "
        f"it under {after.reference}",
        file=err,
    )
    return OK


async def _not_sent(args: argparse.Namespace, batch: Batch, key: str, err: TextIO) -> int:
    """No booking of it was ever sent (the ledger has no record): bookable again."""
    state = batch.state(key)
    if args.booked:
        print(
            f"freight: not settled: order {plain(key, limit=40)}'s booking was never sent "
            "(the ledger has no record of it): no shipment can be it",
            file=err,
        )
        return FAILED
    batch.save(state.updated(status="rated" if state.choice else "pending", errors=()))
    print(
        f"freight: order {plain(key, limit=40)} settled: never sent; the next batch book books it",
        file=err,
    )
    return OK


def _line(shipment: Shipment, why: str) -> str:
    pro = plain(shipment.pro_number, limit=40) or "no PRO"
    return f"{plain(shipment.id, limit=40)} (PRO {pro}, {plain(why, limit=80)})"


def _same(a: str | None, b: str | None) -> bool:
    return bool(a and b) and (a or "").strip().casefold() == (b or "").strip().casefold()


async def _confirmed(question: str, err: TextIO) -> bool:
    typed = await asyncio.to_thread(_ask, err, f"{question} Type yes to confirm: ")
    return typed.strip().casefold() in ("y", "yes")


def _ask(err: TextIO, prompt: str) -> str:
    err.write(prompt)
    err.flush()
    return sys.stdin.readline()


def stdin_is_terminal() -> bool:
    """Whether the confirmation can be typed (tests say yes with text waiting on stdin)."""
    return sys.stdin.isatty()
