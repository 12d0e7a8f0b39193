"""``freight batch``: a file of orders read, checked, rated, chosen and booked, on the batch
engine (``tui.batch``) the Batch screen uses too."""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

from tui.batch import sample_path
from tui.batch.engine import Batch, source_id
from tui.batch.fields import (
    FIELD_NAMES,
    FIELDS,
    MappingError,
    guess_mapping,
    looks_like_header,
    parse_assignments,
    unguessed,
    with_overrides,
)
from tui.batch.mappings import MappingStore, name_problem
from tui.batch.model import OUTPUT_STATUS
from tui.batch.orders import context_for
from tui.batch.pace import WaitTooLongError
from tui.batch.rating import FatalRatingError
from tui.batch.report import BATCH_FIELDS, BatchOrder, flat
from tui.batch.rules import RuleError, Rules, parse_max_total, parse_rule, unknown_carriers
from tui.batch.run import BATCH_RETRY, rate_run
from tui.batch.source import SourceError, read_file
from tui.batch.store import SharedBatchStore
from tui.commands.connect import open_client
from tui.commands.exits import FAILED, OK, SERVICE, UsageError
from tui.commands.fields import output_of, write_records
from tui.commands.progress import ProgressLine
from tui.commands.text import money, table
from tui.config.paths import data_dir
from tui.config.resolve import ProfileError, resolve_profile
from tui.config.settings import ConfigError, Profile, load_config
from tui.demo_profile import demo_profile
from tui.domain.safe_text import plain, safe_name_part
from tui.store.named import address_book
from tui.vocabulary import UnknownFieldsError, dict_fields

if TYPE_CHECKING:
    from tui.batch.fields import ColumnMapping
    from tui.batch.source import Sheet

_CARRIER_WIDTH: Final = 30
_DEST_WIDTH: Final = 26


class _NoRows(Exception):
    """The file has a header and no rows: the run did nothing (exit 1, not 0)."""


async def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run one ``freight batch`` action; return the exit status."""
    action = args.batch_command
    if action == "fields":
        if args.json_out is not None:
            return _fields_json(args.json_out, out)
        return _fields(out)
    if action == "sample":
        return _sample(args, out)
    if action == "columns":
        return _columns(args, out)

    try:
        batch, sheet, profile = _prepare(args)
    except _NoRows as exc:
        print(f"freight: {exc}", file=err)
        return FAILED
    try:
        if action == "cancel":
            from tui.commands.changes import batch_cancel

            return await batch_cancel(args, batch, profile, out, err)
        if action == "settle":
            from tui.commands.batch_settle import settle

            status = await settle(args, batch, profile, err)
            _write(args, batch, sheet, out)
            return status
        try:
            if action == "rate":
                rules = _rules(args)
                _check_carriers(args, batch)
                await _rate(args, batch, err, profile)
                _check_carriers(args, batch)
                if rules is not None:
                    batch.apply_rules(rules)
            elif action in ("book", "paperwork"):
                from tui.commands.batch_book import book

                refused = await book(args, batch, profile, err)
                if refused is not None:
                    return refused
        except WaitTooLongError as exc:
            _write(args, batch, sheet, out)
            print(f"freight: {exc}", file=err)
            return SERVICE
        _write(args, batch, sheet, out)
        if action == "paperwork":  # every booked order's paperwork saved
            from tui.batch.paperwork import owing

            return FAILED if owing(batch) else OK
        if action == "status" and getattr(args, "watch", None):
            from tui.commands.batch_watch import watch

            await watch(batch, args.watch, out)
        return OK if batch.all_done("booked" if action == "book" else "rated") else FAILED
    finally:
        batch.store.close()


# -- fields and the sample -----------------------------------------------------------------


def _fields(out: TextIO) -> int:

    width = max(len(spec.name) for spec in FIELDS) + 2
    print(
        "Fields a column maps to (--map FIELD=COLUMN) or a value sets (--set FIELD=VALUE).",
        file=out,
    )
    print(
        "Order fields are read from each order's first row; line fields from every row.", file=out
    )
    print(file=out)
    for spec in FIELDS:
        print(f"  {spec.name:<{width}}{spec.level:<7}{spec.help}", file=out)
    return OK


def _fields_json(wanted: str, out: TextIO) -> int:
    """``batch fields --json``: a list of {field, level, help} (or the fields named)."""

    fieldset = dict_fields("fact", ("field", "level", "help"))
    try:
        chosen = fieldset.select(wanted)
    except UnknownFieldsError as error:
        raise UsageError(f"--json: {error}") from None
    records = [
        fieldset.record({"field": s.name, "level": s.level, "help": s.help}, chosen) for s in FIELDS
    ]
    write_records(records, "json", out)
    return OK


def _sample(args: argparse.Namespace, out: TextIO) -> int:
    data = sample_path().read_bytes()
    if args.out:
        target = Path(args.out).expanduser()
        try:
            target.write_bytes(data)
        except OSError as exc:
            raise UsageError(f"--out: cannot write {target}: {exc.strerror or exc}") from None
        print(f"Wrote the sample orders to {target}", file=out)
        return OK
    out.write(data.decode("utf-8-sig").replace("\r\n", "\n"))
    return OK


# -- reading -------------------------------------------------------------------------------


def _prepare(args: argparse.Namespace) -> tuple[Batch, Sheet, Profile]:
    """The batch of the file (read, mapped, reconciled with its saved state), its sheet, and
    the profile it belongs to."""
    profile = _profile(args)
    path = Path(args.file).expanduser()
    sheet = _read(args, path)
    if not sheet.rows:
        raise _NoRows(
            f"{path}: the file has its header (row {sheet.header_row}) but no order rows: "
            "nothing to do"
        )
    mapping = _mapping(args, profile.name, sheet, path)
    return _open(args, profile, path, sheet, mapping), sheet, profile


def _columns(args: argparse.Namespace, out: TextIO) -> int:
    """The mapping a run would use for FILE, as text or JSON (nothing saved)."""

    profile = _profile(args)
    path = Path(args.file).expanduser()
    sheet = _read(args, path)
    mapping = _mapping(args, profile.name, sheet, path, save=False)
    used = {h.casefold() for h in mapping.columns.values()}
    unused = [h for h in sheet.headers if h.casefold() not in used]
    if args.json:
        record = {
            "file": sheet.source,
            "headerRow": sheet.header_row,
            "mapping": mapping.name,
            "columns": [
                {"field": k, "column": mapping.columns[k]} for k in _in_field_order(mapping.columns)
            ],
            "constants": [
                {"field": k, "value": mapping.constants[k]}
                for k in _in_field_order(mapping.constants)
            ],
            "weightPer": mapping.weight_per,
            "weightUnit": mapping.weight_unit,
            "dimUnit": mapping.dim_unit,
            "unusedColumns": unused,
        }
        out.write(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
        return OK
    print(
        f"{plain(Path(sheet.source).name, limit=60)} · header on row {sheet.header_row} · "
        f"mapping {plain(mapping.name)!r} · {mapping.units_text()}",
        file=out,
    )
    described = mapping.describe(sheet.headers)
    width = max((len(name) for name, _ in described), default=5) + 2
    for name, source in described:
        print(f"  {name:<{width}}{plain(source, limit=60)}", file=out)
    if unused:
        print("Columns not used: " + ", ".join(plain(h, limit=40) for h in unused), file=out)
    return OK


def _in_field_order(names: Any) -> list[str]:

    return [name for name in FIELD_NAMES if name in names]


def _profile(args: argparse.Namespace) -> Profile:
    """The profile whose address book, default origin and emergency contact the batch uses."""

    if args.demo:
        return demo_profile(data_dir=data_dir())

    try:
        resolved = resolve_profile(args.profile, args.base_url, os.environ, load_config())
    except (ConfigError, ProfileError) as exc:
        raise UsageError(str(exc)) from None
    if resolved.is_demo:
        return demo_profile(data_dir=data_dir())
    if resolved.profile is not None:
        return resolved.profile
    return Profile(
        name=resolved.name,
        base_url=resolved.base_url or "https://example.invalid",
        environment="production",
    )


def profile_of(args: argparse.Namespace) -> Profile:
    """The profile a command works for (``--demo``, ``--profile`` or the default one)."""
    return _profile(args)


def _read(args: argparse.Namespace, path: Path) -> Sheet:

    delimiter = "\t" if args.delimiter == "tab" else args.delimiter
    try:
        return read_file(
            path,
            encoding=args.encoding,
            delimiter=delimiter,
            sheet=args.sheet,
            is_header=looks_like_header,
        )
    except SourceError as exc:
        raise UsageError(f"{path}: {exc}") from None


def _mapping(
    args: argparse.Namespace, profile: str, sheet: Sheet, path: Path, *, save: bool = True
) -> ColumnMapping:
    """The mapping to use: the one named, else the one saved for these headers, else guessed
    (a new name starts a new mapping); then the flags, for this run; then saved (under its
    name, or the file's) when ``--save-mapping`` asks and ``save`` is true."""

    store = MappingStore.in_dir(data_dir())  # StoreError: exit 6, the store named
    try:
        return _mapping_in(args, store, profile, sheet, path, save=save)
    finally:
        store.close()


def _mapping_in(
    args: argparse.Namespace,
    store: MappingStore,
    profile: str,
    sheet: Sheet,
    path: Path,
    *,
    save: bool,
) -> ColumnMapping:

    found = store.get(profile, args.mapping) if args.mapping else None
    if found is not None:
        if not found.fits(sheet.headers):
            missing = [h for h in found.columns.values() if sheet.column(h) is None]
            raise UsageError(
                f"--mapping {args.mapping!r}: the file has no column {missing[0]!r} "
                f"(its columns: {', '.join(sheet.headers)})"
            )
        mapping = found
    elif args.mapping:
        mapping = guess_mapping(sheet.headers)  # a new name: a new mapping, from the guess
    else:
        mapping = store.for_headers(profile, sheet.headers) or guess_mapping(sheet.headers)
    try:
        mapping = with_overrides(
            mapping,
            sheet.headers,
            columns=parse_assignments(args.map, "--map"),
            constants=parse_assignments(args.set, "--set"),
            weight_per=args.weight_per,
        )
    except MappingError as exc:
        raise UsageError(str(exc)) from None
    name = args.mapping or mapping.name or safe_name_part(path.stem, limit=60) or "orders"
    if problem := name_problem(name):
        raise UsageError(f"--mapping: {problem}")
    mapping = replace(mapping, name=name)
    if not (save and getattr(args, "save_mapping", False)):
        return mapping
    try:
        store.save(profile, name, mapping)
    except ValueError as exc:
        raise UsageError(f"the mapping cannot be saved: {exc}") from None
    return mapping


def _open(
    args: argparse.Namespace, profile: Profile, path: Path, sheet: Sheet, mapping: ColumnMapping
) -> Batch:

    now = datetime.now(UTC)
    store = SharedBatchStore.in_dir(data_dir())
    try:
        book = address_book(store.store, data_dir(), profile)
        context = context_for(profile, now.astimezone().date(), now, book)
        said = frozenset(getattr(args, "not_hazardous", ()) or ())
        if said:
            from dataclasses import replace

            context = replace(context, not_hazardous=said)
        return Batch.open(store, profile.name, source_id(path), sheet, mapping, context)
    except BaseException:
        store.close()
        raise


def _rules(args: argparse.Namespace) -> Any:
    """The rules the flags give, or None to keep the batch's own."""

    given = args.rule or args.prefer or args.exclude or args.max_total
    if not given:
        return None
    try:
        kind, within = parse_rule(args.rule or "cheapest")
        total, currency = parse_max_total(args.max_total) if args.max_total else (None, None)
    except RuleError as exc:
        raise UsageError(str(exc)) from None
    return Rules(
        kind=kind,
        within_days=within,
        prefer=tuple(args.prefer),
        exclude=tuple(args.exclude),
        max_total=total,
        max_currency=currency,
    )


def _check_carriers(args: argparse.Namespace, batch: Batch) -> None:
    """Refuse a ``--prefer``/``--exclude`` that names no carrier of the batch's offers (once
    it has offers: the service lists its carriers only in its rates)."""

    offers = [rate for state in batch.states.values() for rate in state.rates]
    if not offers:
        return
    for flag, names in (("--prefer", args.prefer), ("--exclude", args.exclude)):
        unknown = unknown_carriers(offers, names)
        if unknown:
            known = sorted({f"{r.carrier_code} ({r.carrier})" for r in offers if r.carrier_code})
            raise UsageError(
                f"{flag} {unknown[0]!r}: no carrier of this batch's offers is named that "
                f"(a SCAC or the start of a name: {', '.join(known)})"
            )


# -- rating --------------------------------------------------------------------------------


async def _rate(args: argparse.Namespace, batch: Batch, err: TextIO, profile: Profile) -> None:

    if args.concurrency is not None and not 1 <= args.concurrency <= 64:
        raise UsageError("--concurrency: from 1 to 64")
    if args.rps is not None and not 0 < args.rps <= 1000:
        raise UsageError("--requests-per-second: more than 0, at most 1000")
    todo = batch.to_rate(rerate=args.rerate)
    if not todo:
        return
    progress = ProgressLine(err)
    try:
        async with open_client(args, retry=BATCH_RETRY) as client:
            await rate_run(
                batch,
                client,
                rate=args.rps if args.rps is not None else profile.limits.requests_per_second,
                concurrency=args.concurrency,
                progress=progress,
                rerate=args.rerate,
                max_wait=profile.limits.max_retry_after,
            )
    except FatalRatingError as exc:
        cause = exc.__cause__
        raise (cause if isinstance(cause, Exception) else exc) from None
    finally:
        progress.done()


# -- output --------------------------------------------------------------------------------


def _write(args: argparse.Namespace, batch: Batch, sheet: Sheet, out: TextIO) -> None:

    output = output_of(args, BATCH_FIELDS, args.format)
    items = [BatchOrder(order, batch.state(order.key)) for order in batch.orders]
    if output.format == "table":
        print_batch(batch, sheet, out)
    elif output.format in ("json", "jsonl"):
        write_records([BATCH_FIELDS.record(i, output.fields) for i in items], output.format, out)
    else:
        from tui.export import RecordWriter

        writer = RecordWriter(out, "csv", output.fields)
        for item in items:
            writer.add(flat(BATCH_FIELDS.record(item, output.fields)))
        writer.finish()
    if args.out:
        from tui.batch.results import write_results

        target = Path(args.out).expanduser()
        try:
            write_results(target, sheet, batch.orders, batch.states)
        except OSError as exc:
            raise UsageError(f"--out: cannot write {target}: {exc.strerror or exc}") from None


def print_batch(batch: Batch, sheet: Sheet, out: TextIO) -> None:
    """The batch as people read it: a line on the file, a row per order, the problems, the
    totals per currency."""

    name = plain(Path(sheet.source).name, limit=60)
    encoding = sheet.encoding.replace("-sig", " (BOM)")
    ending = "CRLF" if sheet.line_ending == "\r\n" else "LF"
    print(
        f"{name} · {_count(len(sheet.rows), 'row')} · {_count(len(batch.orders), 'order')} · "
        f"{sheet.delimiter_name}, {encoding}, {ending}"
        + (", decimal commas" if sheet.decimal_comma else "")
        + f" · mapping {plain(batch.mapping.name)!r}"
        + _unguessed(batch.mapping, sheet)
        + f" · rule {batch.rules.text}",
        file=out,
    )
    for note in sheet.set_aside:
        print(f"  {plain(note)}", file=out)
    rows = []
    for order in batch.orders:
        state = batch.state(order.key)
        choice = state.choice
        rows.append(
            [
                plain(order.key, limit=24),
                _shown_status(state.status),
                plain(choice.carrier, limit=_CARRIER_WIDTH) if choice else "",
                plain(choice.service, limit=14) if choice else "",
                str(choice.days) if choice and choice.days is not None else "",
                money(choice.total, choice.currency) if choice else "",
                state.pickup_date,
                plain(state.pro_number or order.dest_text, limit=_DEST_WIDTH),
            ]
        )
    table(
        ("ORDER", "STATUS", "CARRIER", "SERVICE", "DAYS", "TOTAL", "PICKUP", "TO / PRO"), rows, out
    )
    problems = [
        (order.key, error.message)
        for order in batch.orders
        for error in batch.state(order.key).errors
    ]
    problems += [
        (order.key, f"booked, paperwork missing: {plain(state.paperwork_missing)}")
        for order in batch.orders
        if (state := batch.state(order.key)).owes_paperwork
    ]
    if problems:
        print(file=out)
        print("Problems (fix the file and run again; orders done keep their state):", file=out)
        for key, message in problems:
            print(f"  {plain(key, limit=24)}  {message}", file=out)
    notes = [(o.key, note) for o in batch.orders for note in batch.state(o.key).notes]
    if notes:
        print(file=out)
        print("Notes:", file=out)
        for key, note in notes:
            print(f"  {plain(key, limit=24)}  {plain(note)}", file=out)
    _print_stations(batch, out)
    counts = batch.counts()
    shown = ("booked", "rated", "no-rate", "pending", "failed", "unknown", "invalid")
    owing = sum(batch.state(o.key).owes_paperwork for o in batch.orders)
    missing = f" ({owing} with paperwork missing)" if owing else ""
    summary = " · ".join(
        f"{counts[s]} {s}" + (missing if s == "booked" else "") for s in shown if counts.get(s)
    )
    totals = batch.totals()
    if totals:
        summary += " · total " + ", ".join(money(v, c) for c, v in sorted(totals.items()))
    print(file=out)
    print(summary, file=out)


def _unguessed(mapping: ColumnMapping, sheet: Sheet) -> str:
    """`` (saved; not the guess: weight unit kg, not lb; order Ref, not Order No)``: what a
    saved mapping reads otherwise than Freight would guess, units first ('' when the same)."""

    if not mapping.saved:
        return ""
    found = unguessed(mapping, guess_mapping(sheet.headers))
    if not found:
        return ""
    return " (saved; not the guess: " + plain("; ".join(found), limit=200) + ")"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _shown_status(status: str) -> str:

    return OUTPUT_STATUS[status]  # type: ignore[index]


def _print_stations(batch: Batch, out: TextIO) -> None:
    """Who booked the batch's orders, or holds them now: each station's orders by status."""

    stations = batch.store.stations(batch.info.id)
    if not stations:
        return
    print(file=out)
    print("Stations:", file=out)
    for station, counts in sorted(stations.items()):
        shown = " · ".join(
            f"{n} {OUTPUT_STATUS.get(s, s)}"  # type: ignore[call-overload]
            for s, n in sorted(counts.items())
        )
        print(f"  {plain(station, limit=40)}  {shown}", file=out)
