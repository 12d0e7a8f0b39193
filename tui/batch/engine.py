"""A batch: the orders of one file, each one's saved state, and what can be done with them.

``Batch.open`` reads the saved state of the same file (same profile) and reconciles it with the
orders as the file says them now: an order rated or booked keeps its state; one whose content
changed since it was rated is rated again; one now wrong in the file is set aside (unless a
booking of it exists, which nothing undoes).
"""

from __future__ import annotations

import asyncio
import hashlib
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from tui.batch.fields import ColumnMapping
from tui.batch.model import (
    BOOKED_OR_MAYBE,
    OUTPUT_STATUS,
    Order,
    OrderState,
    Status,
    to_rate_statuses,
)
from tui.batch.orders import Context, read_orders
from tui.batch.rating import DEFAULT_CONCURRENCY, rate_orders
from tui.batch.report import order_record
from tui.batch.rules import Rules, choose
from tui.batch.source import Sheet
from tui.batch.store import BatchInfo, BatchStore
from tui.domain.safe_text import plain
from tui.store import LEASE_S

if TYPE_CHECKING:
    from tui.batch.pace import Pace
    from tui.batch.rating import Progress, RatesClient


NOT_SENT: Final = frozenset({"pending", "rated", "no-rate", "failed"})
"""Statuses of an order whose booking was never sent from this batch."""
CHUNK: Final = 500
"""Orders' states read (and saved, in one transaction) at a time when a batch is opened or
read back: a store's statement takes so many keys at most, and 100,000 decoded records
would cost more memory than the batch itself."""


NOT_HAZARDOUS: Final = "notHazardous"
"""The batch's setting that keeps the user's word that orders are not hazardous."""


def said_not_hazardous(settings: Mapping[str, Any]) -> dict[str, str]:
    """Order -> the digest of the lines the user said were not hazardous, as a batch's
    settings keep it (an unreadable entry is no word)."""
    kept = settings.get(NOT_HAZARDOUS)
    if not isinstance(kept, dict):
        return {}
    return {k: v for k, v in kept.items() if isinstance(k, str) and isinstance(v, str)}


def source_id(path: Path | None, text: str | None = None) -> str:
    """What names a batch's source: the file's full path, or a digest of pasted text."""
    if path is not None:
        return str(path.expanduser().resolve())
    digest = hashlib.sha256((text or "").encode("utf-8")).hexdigest()[:16]
    return f"pasted:{digest}"


@dataclass
class Batch:
    """The orders of one file and their states, kept in a ``BatchStore`` as they change."""

    store: BatchStore
    info: BatchInfo
    sheet: Sheet
    mapping: ColumnMapping
    orders: list[Order]
    states: dict[str, OrderState]
    rules: Rules = field(default_factory=Rules)
    _by_key: dict[str, Order] = field(default_factory=dict, init=False, repr=False)

    @classmethod
    def open(
        cls,
        store: BatchStore,
        profile: str,
        source: str,
        sheet: Sheet,
        mapping: ColumnMapping,
        context: Context,
        rules: Rules | None = None,
    ) -> Batch:
        """The batch of this file: its orders read now, their states reconciled and saved."""
        info = store.open(profile, source)
        said = said_not_hazardous(info.settings)
        context = replace(context, said_not_hazardous={**said, **context.said_not_hazardous})
        orders = read_orders(sheet, mapping, context)
        for order in orders:  # the word given this run is kept for the lines it was given of
            if order.looks_hazardous is not None and order.key in context.not_hazardous:
                said[order.key] = order.looks_hazardous.lines
        kept_rules = Rules.from_json(info.settings.get("rules")) if rules is None else rules
        settings = {
            **info.settings,
            "rules": kept_rules.to_json(),
            "mapping": mapping.to_json(),
            NOT_HAZARDOUS: said,
        }
        info = replace(info, settings=settings)
        batch = cls(store, info, sheet, mapping, orders, {}, kept_rules)
        batch._by_key = {order.key: order for order in orders}  # here, not at the first Enter
        batch._reconcile()
        store.set_settings(info.id, settings)
        if rules is not None:
            batch.apply_rules(rules)
        return batch

    def say_not_hazardous(self, keys: Iterable[str]) -> list[str]:
        """Keep the user's word that these orders are not hazardous, for the lines of each
        that look it (read again, they are then read as not hazardous, with a note; asked
        again when those lines change). The orders it was kept for (those that look
        hazardous). Blocking: a store call."""
        said = said_not_hazardous(self.info.settings)
        kept = []
        for key in keys:
            order = self.order(key)
            if order is not None and order.looks_hazardous is not None:
                said[key] = order.looks_hazardous.lines
                kept.append(key)
        if kept:
            settings = {**self.info.settings, NOT_HAZARDOUS: said}
            self.store.set_settings(self.info.id, settings)
            self.info = replace(self.info, settings=settings)
        return kept

    def _reconcile(self) -> None:
        # Read and saved a few thousand at a time: a file of 100,000 orders is never held as
        # 100,000 stored records at once (each save is durable on its own; a reconciled state
        # saved twice is the same state). Orders kept that the file no longer has keep their
        # state too (an unknown booking is settled even after its row is deleted).
        file_keys = {order.key for order in self.orders}
        others = [key for key in self.store.keys(self.info.id) if key not in file_keys]
        file_keys.clear()
        self.reload(others)
        for start in range(0, len(self.orders), CHUNK):
            chunk = self.orders[start : start + CHUNK]
            stored = self.store.orders(self.info.id, [order.key for order in chunk])
            changed: list[OrderState] = []
            copied = self._booked_in_others(chunk, stored)
            for order in chunk:
                before = stored.get(order.key)
                after = copied.get(order.key) or _reconciled(order, before)
                if after != before:
                    changed.append(after)
                self.states[order.key] = after
            self.reload(self.store.save(self.info.id, changed))

    def _booked_in_others(
        self, chunk: Sequence[Order], stored: dict[str, OrderState]
    ) -> dict[str, OrderState]:
        """The orders of ``chunk`` not booked here that another batch of the profile booked
        (a copy of a booked file): booked here too, as there, never rated or sent again."""
        open_keys = [
            o.key
            for o in chunk
            if o.valid and (o.key not in stored or stored[o.key].status in NOT_SENT)
        ]
        out: dict[str, OrderState] = {}
        for key, (there, source) in self.store.booked_in_others(
            self.profile, self.info.id, open_keys
        ).items():
            name = "pasted rows" if source.startswith("pasted:") else Path(source).name
            note = f"booked in the batch of {plain(name, limit=60)}: not rated or sent again"
            order = self.order(key)
            out[key] = there.updated(
                position=order.rows[0] if order is not None else there.position,
                notes=tuple(dict.fromkeys((*there.notes, note))),
            )
        return out

    # -- reading --------------------------------------------------------------------------

    @property
    def profile(self) -> str:
        """The profile the batch belongs to."""
        return self.info.profile

    def order(self, key: str) -> Order | None:
        """The order of this key in the file, or None."""
        if len(self._by_key) != len(self.orders):
            self._by_key = {o.key: o for o in self.orders}
        return self._by_key.get(key)

    def state(self, key: str) -> OrderState:
        """The state of an order of the file."""
        return self.states[key]

    def counts(self) -> Counter[str]:
        """Orders of the file by the status a user reads."""
        return Counter(OUTPUT_STATUS[self.states[o.key].status] for o in self.orders)

    def totals(self, statuses: Iterable[Status] = ("rated", "booked")) -> dict[str, Decimal]:
        """The chosen rates' totals of orders in these statuses, per currency (never summed
        across currencies)."""
        wanted = set(statuses)
        out: dict[str, Decimal] = {}
        for order in self.orders:
            state = self.states[order.key]
            choice = state.choice
            if state.status in wanted and choice is not None:
                out[choice.currency] = out.get(choice.currency, Decimal(0)) + choice.total
        return out

    def all_done(self, goal: Status = "rated") -> bool:
        """Every order of the file rated (or booked, when ``goal`` is booked)."""
        if goal == "booked":  # and its paperwork all saved
            return all(
                self.states[o.key].status == "booked" and not self.states[o.key].owes_paperwork
                for o in self.orders
            )
        done: set[Status] = {"rated", "booked"}
        return all(self.states[o.key].status in done for o in self.orders)

    def reload(self, keys: Sequence[str]) -> None:
        """Read these orders' states again from the store (another station may have moved
        them), a chunk at a time."""
        self.states.update(self.read_states(keys))

    def read_states(self, keys: Sequence[str]) -> dict[str, OrderState]:
        """These orders' states as the store has them now, read a chunk at a time (blocking:
        a run calls it in a worker thread)."""
        out: dict[str, OrderState] = {}
        for start in range(0, len(keys), CHUNK):
            out.update(self.store.orders(self.info.id, keys[start : start + CHUNK]))
        return out

    def save(self, state: OrderState) -> None:
        """Keep an order's new state, unless another station moved the order since this one
        read it: then the order's state is the store's (read again), never this stale view."""
        self.states[state.key] = state
        self.reload(self.store.save(self.info.id, [state]))

    async def keep(self, state: OrderState) -> None:
        """``save``, the store's write in a worker thread: a run's saves never hold up the
        event loop (another process may hold the store's lock)."""
        self.states[state.key] = state
        stale = await asyncio.to_thread(self.store.save, self.info.id, [state])
        if stale:
            self.states.update(await asyncio.to_thread(self.read_states, stale))

    # -- choosing -------------------------------------------------------------------------

    def apply_rules(self, rules: Rules) -> None:
        """Choose again by these rules for every rated order not chosen by hand."""
        self.rules = rules
        settings = {
            **self.info.settings,
            "rules": rules.to_json(),
            "mapping": self.mapping.to_json(),
        }
        self.store.set_settings(self.info.id, settings)
        self.info = replace(self.info, settings=settings)
        changed = []
        for order in self.orders:
            state = self.states[order.key]
            if state.status not in ("rated", "no-rate") or state.chosen_by == "hand":
                continue
            from tui.batch.rating import rated_state

            after = rated_state(state, state.quote_id, state.rates, rules)
            if after != state:
                self.states[order.key] = after
                changed.append(after)
        self.reload(self.store.save(self.info.id, changed))

    def pick(self, key: str, rate_id: str) -> OrderState:
        """Choose an order's rate by hand (kept over the rules). Raises ValueError."""
        state = self.states[key]
        if state.status in BOOKED_OR_MAYBE:
            raise ValueError(f"order {key} is booked (or its booking is not settled)")
        option = next((r for r in state.rates if r.id == rate_id), None)
        if option is None or not option.ok:
            raise ValueError(f"order {key} has no bookable rate {rate_id}")
        after = state.updated(status="rated", chosen=rate_id, chosen_by="hand", errors=())
        self.save(after)
        return self.states[key]  # the store's, when another station moved it meanwhile

    def best(self, key: str) -> str:
        """Why the rules chose nothing for an order ('' when they chose)."""
        return choose(self.states[key].rates, self.rules)[1]

    # -- rating ---------------------------------------------------------------------------

    def to_rate(self, *, rerate: bool = False, keys: Sequence[str] | None = None) -> list[Order]:
        """The orders a rating run asks for: pending and failed ones (with ``rerate``, also
        the rated ones not booked)."""
        wanted = to_rate_statuses(rerate)
        return [
            order
            for order in self.orders
            if order.valid
            and self.states[order.key].status in wanted
            and (keys is None or order.key in keys)
        ]

    async def rate(
        self,
        client: RatesClient,
        *,
        pace: Pace | None = None,
        concurrency: int | None = None,
        progress: Callable[[Progress], None] | None = None,
        rerate: bool = False,
        keys: Sequence[str] | None = None,
        on_state: Callable[[OrderState], None] | None = None,
    ) -> None:
        """Rate the orders that need it (see ``to_rate``); each saved as it is known (then
        handed to ``on_state``). Claimed a few at a time, as a booking run claims them: an
        order another station is rating, or rated since, is not rated again."""

        wanted = to_rate_statuses(rerate)

        async def save(state: OrderState) -> None:
            await self.keep(state)  # off the event loop
            if on_state is not None:
                on_state(self.states[state.key])  # the store's, if another moved it

        async def claim(chunk: Sequence[Order]) -> list[Order]:
            def take() -> tuple[list[str], dict[str, OrderState]]:
                got = self.store.claim_to_rate(self.info.id, [o.key for o in chunk], rerate)
                return got, (self.store.orders(self.info.id, got) if got else {})

            got, states = await asyncio.to_thread(take)
            self.states.update(states)
            mine = {key for key in got if self.states[key].status in wanted}
            if len(mine) < len(got):
                others = [key for key in got if key not in mine]
                await asyncio.to_thread(self.store.release, self.info.id, others)
            return [o for o in chunk if o.key in mine]

        async def release(chunk: Sequence[Order]) -> None:
            await asyncio.to_thread(self.store.release, self.info.id, [o.key for o in chunk])

        renewing = asyncio.create_task(self.renew_leases())
        try:
            await rate_orders(
                client,
                self.to_rate(rerate=rerate, keys=keys),
                self.states,
                self.rules,
                self.mapping,
                save=save,
                pace=pace,
                concurrency=concurrency or DEFAULT_CONCURRENCY,
                progress=progress,
                claim=claim,
                release=release,
            )
        finally:
            renewing.cancel()

    async def renew_leases(self) -> None:
        """Keep this station's claims on the batch alive while it works (every third of the
        lease), until cancelled."""
        while True:
            await asyncio.sleep(LEASE_S / 3)
            await asyncio.to_thread(self.store.renew, self.info.id)

    # -- output ---------------------------------------------------------------------------

    def records(self) -> list[dict[str, Any]]:
        """Each order as the JSON output writes it."""

        return [order_record(order, self.states[order.key]) for order in self.orders]


def _reconciled(order: Order, before: OrderState | None) -> OrderState:
    """An order's state now, from its state saved before (if any) and the file as it is."""
    position = order.rows[0]
    if before is not None and before.status in BOOKED_OR_MAYBE:
        notes = before.notes
        if before.fingerprint and order.fingerprint != before.fingerprint:
            note = "changed in the file after it was booked: the booking stands as it was"
            notes = tuple(dict.fromkeys((*before.notes, note)))
        return before.updated(position=position, notes=notes)
    if not order.valid:
        return OrderState(
            order.key, status="invalid", errors=order.errors, notes=order.notes, position=position
        )
    if (
        before is not None
        and before.fingerprint == order.fingerprint
        and before.status != "pending"
    ) and (before.status != "invalid" or before.errors):
        return before.updated(position=position, notes=order.notes)
    return OrderState(
        order.key,
        status="pending",
        fingerprint=order.fingerprint,
        pickup_date=sys.intern(order.pickup_date.isoformat()) if order.pickup_date else "",
        notes=order.notes,
        position=position,
    )
