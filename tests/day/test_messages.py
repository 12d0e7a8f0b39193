"""The Day's messages fit a width: what was done and its counts kept, names and paths
shortened first, notes then, a line cut at its end only as the last resort; and the close
says what was written and printed, counted."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from rich.cells import cell_len

from tui.day.messages import (
    day_closed,
    extra,
    fit,
    fixed,
    manifests_written,
    name,
    path,
    printed_summary,
    spare,
    text_of,
)
from tui.day.printing import DayPrint
from tui.documents import PrintJob, PrintOutcome

DAY = date(2026, 12, 8)
FOLDER = Path("/home/dock/.local/share/freight/files/documents/day-2026-12-08")


def test_a_message_that_fits_is_left_whole() -> None:
    parts = [fixed("Printed 12 BOLs to "), name("office"), path(FOLDER, "; files in ")]
    assert fit(parts, 200) == (text_of(parts), True)


def test_names_and_paths_are_shortened_evenly_and_the_line_stays_whole() -> None:
    parts = [
        fixed("Printed 12 BOLs to "),
        name("Warehouse-2nd-floor-HP-LaserJet-Enterprise-M507-duplex"),
        path(FOLDER, "; files in "),
    ]
    line, whole = fit(parts, 78)
    assert whole
    assert cell_len(line) == 78
    assert line.startswith("Printed 12 BOLs to Warehouse-2nd-floor")
    assert "…; files in /home/dock/" in line
    assert line.endswith("…/day-2026-12-08")  # the folder's own name stays


def test_with_two_long_printer_names_the_folder_gives_way() -> None:
    parts = [
        fixed("Printed 12 BOLs to "),
        name("Warehouse-2nd-floor-HP-LaserJet-M507"),
        fixed(", 12 label files to "),
        name("Zebra-ZT410-dock-door-7-left-side"),
        path(FOLDER, "; files in "),
    ]
    line, whole = fit(parts, 78)
    assert not whole  # the screen shows the whole message as a notice too
    assert line == "Printed 12 BOLs to Warehouse-2nd-floor…, 12 label files to Zebra-ZT410-dock-d…"


def test_notes_go_before_the_counts_and_a_spare_goes_silently() -> None:
    notes = [extra("no paperwork for 3410000001, 3410000002, 3410000003 and 9 more")]
    parts = [fixed("Printed 12 BOLs to office"), *notes, spare("2 carriers")]
    line, whole = fit(parts, 50)
    assert line.startswith("Printed 12 BOLs to office; no paperwork")
    assert line.endswith("…")
    assert cell_len(line) <= 50
    assert not whole
    line, whole = fit([fixed("Printed 12 BOLs to office"), spare("2 carriers")], 30)
    assert (line, whole) == ("Printed 12 BOLs to office", True)


def test_wide_characters_count_as_two_cells() -> None:
    parts = [fixed("Wrote 2 manifests to "), path("/srv/出荷/毎日の書類/マニフェスト")]
    line, _whole = fit(parts, 40)
    assert cell_len(line) <= 40
    assert line.startswith("Wrote 2 manifests to ")


def test_the_last_resort_cuts_the_line_at_its_end() -> None:
    line, whole = fit([fixed("Printed 123456789 BOLs and 123456789 label files")], 30)
    assert line == "Printed 123456789 BOLs and 12…"
    assert not whole


def test_server_text_is_plain() -> None:
    line, _whole = fit([fixed("Not printed"), extra("lp: [b]no\x1b[2J\nsuch printer", ": ")], 80)
    assert line == "Not printed: lp: [b]no such printer"


def test_what_the_print_did_and_where_its_files_are() -> None:
    bols = PrintJob("office", FOLDER / "bols-2026-12-08.pdf", raw=False)
    labels = PrintJob("zebra", FOLDER / "labels-2026-12-08.zpl", raw=True)
    done = DayPrint(FOLDER, bol_count=12, label_count=12)
    done.outcomes = [
        PrintOutcome(bols, True, "request id is office-1"),
        PrintOutcome(labels, False, "lp: printer zebra is offline"),
    ]
    done.notes = ["no paperwork for 3410000001"]
    said = done.said
    assert said.startswith("Printed 12 BOLs to office; 12 label files NOT printed (zebra): lp:")
    assert "; no paperwork for 3410000001; files in " in said
    line, whole = fit(done.message(), 78)
    assert line.startswith("Printed 12 BOLs to office; 12 label files NOT printed (zebra)")
    assert cell_len(line) <= 78
    assert not whole


def test_the_close_counts_what_was_written_and_printed() -> None:
    printed = [
        "manifest-2026-12-08-HGFL.csv", "manifest-2026-12-08-HGFL.pdf",
        "manifest-2026-12-08-LKIF.csv", "manifest-2026-12-08-LKIF.pdf",
        "manifest-2026-12-08-BCXP.csv", "manifest-2026-12-08-BCXP.pdf",
        "bols-2026-12-08.pdf (12 BOLs)", "labels-2026-12-08.zpl (12 label files)",
    ]  # fmt: skip
    assert printed_summary(printed) == "3 manifests; printed 12 BOLs, 12 label files"
    line, whole = fit(day_closed(DAY, 12, printed), 78)
    assert line == "Closed Tue Dec 8: 12 shipments; 3 manifests; printed 12 BOLs, 12 label files"
    assert whole
    assert text_of(day_closed(DAY, 1, [])) == (
        "Closed Tue Dec 8: 1 shipment; nothing written or printed here"
    )


def test_manifests_written_name_the_files_and_the_folder() -> None:
    written = [Path(f"/x/manifest-2026-12-08-{c}.{s}") for c in ("A", "B") for s in ("csv", "pdf")]
    said = text_of(manifests_written(written, 2, Path("/srv/manifests")))
    assert said == "Wrote 2 manifests (4 files: CSV and PDF) to /srv/manifests"


def test_a_carriers_close_keeps_its_name_and_what_was_printed_gives_way() -> None:
    line, whole = fit(day_closed(DAY, 2, [], "Harrowgate Freight Lines"), 78)
    assert line == "Closed Harrowgate Freight Lines on Tue Dec 8: 2 shipments; nothing written or…"
    assert not whole
    assert text_of(day_closed(DAY, 1, [], "Blue")) == (
        "Closed Blue on Tue Dec 8: 1 shipment; nothing written or printed here"
    )
