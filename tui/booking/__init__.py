"""The booking engine: one booking, proven, never sent twice by accident. No Textual.

The Book screen, the batch engine and the CLI all book through this room::

    from tui.booking import BookingEngine, Lane
    from tui.store import open_ledger

    engine = BookingEngine(client, open_ledger(data_dir, "sandbox"), profile_name)
    outcome = await engine.book(request, lane=Lane("60607", "30303", "Acme", "ACME", day),
                                reference=order_reference)
    match outcome.status:
        case "booked": ...    # BookedOutcome: .booking (the answer) or .found (a search proved
                              #   it), .shipment_id, .pro_number, .bol_number, .earlier
        case "refused": ...   # RefusedOutcome: .message, .fields (wire path -> problem),
                              #   .already_booked (a 409's shipment id)
        case "failed": ...    # FailedOutcome: .reason, .retryable; nothing was booked
        case "unknown": ...   # UnknownOutcome: .reason, .candidates, .searched, .search_error

``BookingEngine(client, ledger, profile)``
    ``await book(request, *, lane=None, reference=None, search_unknown=True)`` books a
    ``BookingRequest`` (LTL, truckload) or ``ParcelBookingRequest`` and returns a
    ``BookingOutcome``; it never raises for anything the service or the disk does.

    - *Idempotent per reference.* ``reference`` (default: a new ``FRT…`` one) is the
      booking's key in the ledger and goes out in ``reference`` and
      ``originReferenceNumber`` where the request leaves them empty (in
      ``destReferenceNumber`` when both are taken; with all three taken it goes without, and
      a search looks for the request's own ``reference``, whose hits are only candidates). A
      reference the ledger holds as booked is not sent (``BookedOutcome.earlier``); one it
      holds as sent or unknown is searched for, never sent again; a refused one is sent
      again. Give each order of a batch its own reference and keep it: a rerun then skips
      what is booked and settles what is unknown.
    - *No ``sent`` line, no request.* The ledger line is written (and synced) before a byte
      goes out; when it cannot be (disk full, file too large, a torn write) the booking
      stops with ``FailedOutcome`` and the reason. The ledger refuses a reference already
      sent, across processes, so two tasks or two Freights never send the same one.
    - *Unknown is searched.* No usable answer (timeout, broken connection, 5xx, unreadable)
      is recorded as unknown and, with ``search_unknown``, searched for at once (``settle``).
    - Safe for many concurrent ``book`` calls on one engine (ledger writes run in a thread).

    ``await settle(record)`` searches for a booking sent before: a listed shipment that
    shows its reference, or the PRO / shipment id its answer gave, proves it (the ledger
    then says booked) -> ``BookedOutcome``. Otherwise -> ``UnknownOutcome`` whose
    ``candidates`` are the search's other hits and the shipments created since it was sent
    on its lane (origin and destination postal codes, carrier, pickup day): the user must say
    whether one is theirs. Raises ``FreightError`` when the search fails.

    ``await confirm(record, shipment, why=None)`` records a candidate the user said is theirs
    as booked (``BookedOutcome.confirmed_by_user``).

    ``record(reference)`` and ``earlier(quote_id, rate_id)`` read the ledger: a reference's
    latest state, and the booking of a quote and rate to look for before booking it again.

``Lane(origin, destination, carrier, carrier_code, pickup_date)`` (from ``tui.ledger``): what
the ledger keeps to recognise a booking's shipment when the reference is not listed.
``Candidate(shipment, why)``: a shipment that may be the booking. ``place_reference``,
``search_terms``: how a reference goes into a request and what a search looks for.
"""

from __future__ import annotations

from tui.booking.engine import BookingEngine, place_reference, search_terms
from tui.booking.outcome import (
    BookedOutcome,
    BookingOutcome,
    Candidate,
    FailedOutcome,
    RefusedOutcome,
    UnknownOutcome,
)
from tui.ledger import Lane, new_reference

__all__ = [
    "BookedOutcome",
    "BookingEngine",
    "BookingOutcome",
    "Candidate",
    "FailedOutcome",
    "Lane",
    "RefusedOutcome",
    "UnknownOutcome",
    "new_reference",
    "place_reference",
    "search_terms",
]
