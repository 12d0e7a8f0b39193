"""The quote screen at 80x24, driven by keys: live density, validation, rows, drafts."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from textual import events
from textual.color import Color
from textual.pilot import Pilot
from textual.widgets import Input

from tests.textual_probes import watch_frames
from tests.ui.screen import Notices, screen_text, wait_for
from tui.app import FreightApp, make_app
from tui.domain.quote_form import ItemDraft, QuoteDraft
from tui.screens.quote import DRAFT_NAME, QuoteScreen
from tui.session import Session
from tui.widgets.item_strip import ItemStrip, grid_columns
from tui.widgets.items_editor import ItemsEditor, TextCell

TOKEN = "demo.demo-secret"
OFFLINE = "http://127.0.0.1:9"  # the quote form never talks to the server


def offline_session() -> Session:
    return Session.for_testing(OFFLINE, TOKEN)


def quote(app: FreightApp) -> QuoteScreen:
    screen = app.screen
    assert isinstance(screen, QuoteScreen)
    return screen


def focused_field(app: FreightApp) -> str | None:
    """`items.0.weight`, `dest_zip`… for whatever has focus."""
    screen = quote(app)
    return screen._field_of(app.focused)


def row_line(text: str, number: int) -> str:
    """The drawn line of item row `number` (1-based)."""
    return next(line for line in text.splitlines() if line.startswith(f"│{number:>2} "))


async def type_text(pilot: Pilot[Any], text: str) -> None:
    await pilot.press(*[{" ": "space", ".": "full_stop"}.get(c, c) for c in text])


async def fill_row(pilot: Pilot[Any], *values: str) -> None:
    """From the focused Qty field: type qty, package, weight, L, W, H, class, description."""
    for index, value in enumerate(values):
        if value:
            await type_text(pilot, value)
        if index < len(values) - 1:
            await pilot.press("tab")
    await pilot.pause()


async def start(pilot: Pilot[Any]) -> QuoteScreen:
    """The quote screen, started, with its grid's inputs built (as the cursor entering the
    grid builds them), so a test may reach a row's input directly."""
    await pilot.pause()
    await pilot.pause()
    screen = quote(pilot.app)  # type: ignore[arg-type]
    await screen.editor.complete()
    return screen


async def test_first_focus_is_the_empty_destination_and_origin_is_prefilled() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        assert focused_field(app) == "dest_zip"
        draft = screen.draft()
        assert draft.origin_zip == app.session.profile.default_origin.postal_code  # type: ignore[union-attr]
        text = screen_text(app)
        assert "From 60607" in text
        assert "Show All" in text


async def test_typing_an_item_shows_density_implied_class_and_totals_live() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await type_text(pilot, "30303")
        await pilot.press("tab", "tab", "tab")  # type, mode, then row 1 Qty
        assert focused_field(app) == "items.0.quantity"
        await fill_row(pilot, "2", "", "800", "48", "40", "47.2")
        text = screen_text(app)
        line = row_line(text, 1)
        assert "15.00" in line  # 47.2 bills as 48 in: 800 lb / 53.33 ft³
        assert "70" in line
        assert "◂" in line
        assert "2 units · 1,600 lb · 106.7 ft³ · avg 15.0 pcf" in text
        assert "row 1: class 70 ◂ implied by 15.00 pcf" in text
        # the user overrides the class; the density stays, the mark changes
        await pilot.press("tab")
        await type_text(pilot, "85")
        await pilot.pause()
        text = screen_text(app)
        assert "✎" in row_line(text, 1)
        assert "class 85 ✎ yours; 15.00 pcf implies 70" in text
        assert screen.draft().items[0].effective_class() == Decimal(85)


async def test_a_wrong_field_turns_red_with_its_message_and_ctrl_r_goes_there() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await type_text(pilot, "30303")
        await pilot.press("tab", "tab", "tab")
        await fill_row(pilot, "1", "", "12x")
        weight = screen.editor.input_for(0, "weight")
        assert weight.has_class("-invalid")
        text = screen_text(app)
        assert "row 1: weight (lb per unit) must be a number" in text
        assert "0 units · 0 lb · 0.0 ft³ · 1 row not counted" in text
        await pilot.press("tab", "tab")  # move on: the message stays for the first problem
        assert focused_field(app) == "items.0.width"
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.focused is weight
        assert isinstance(app.screen, QuoteScreen), "an invalid form is never sent"
        # every other missing field is now shown too, and F9 does the same as ctrl+r
        assert screen.editor.input_for(0, "length").has_class("-invalid")
        await type_text(pilot, "12")  # the field was selected on focus: typing replaces it
        await pilot.pause()
        assert weight.value == "12"
        assert not weight.has_class("-invalid")
        screen.query_one("#origin").query_one(Input).focus()
        await pilot.press("f9")
        await pilot.pause()
        assert focused_field(app) == "items.0.length"
        assert "row 1: enter the length (inches)" in screen_text(app)


async def test_ctrl_r_on_an_empty_form_goes_to_the_destination_zip() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        screen.editor.input_for(0, "description").focus()
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert focused_field(app) == "dest_zip"
        assert "to: enter a ZIP code  (+1 more, ctrl+r)" in screen_text(app)
        await type_text(pilot, "3030")
        assert "to: ZIP is 5 digits" in screen_text(app)
        await type_text(pilot, "3")
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert focused_field(app) == "items.0.weight"
        assert "row 1: describe at least one item" in screen_text(app)


async def test_rows_add_duplicate_delete_and_move_by_keys() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        editor = screen.query_one(ItemsEditor)
        editor.input_for(0, "quantity").focus()
        await fill_row(pilot, "1", "crate", "350", "40", "30", "36", "", "Spare motor")
        await pilot.press("enter")  # Enter in the last field adds a row
        await pilot.pause()
        assert len(editor.rows) == 2
        assert focused_field(app) == "items.1.quantity"
        await fill_row(pilot, "2", "pal", "800", "48", "40", "48")
        await pilot.press("tab", "tab")  # leaving Pkg completed "pal" to "pallet"
        assert editor.values()[1].package == "pallet"
        await pilot.press("ctrl+d")  # duplicate row 2 (ctrl+d beats Input's delete-right)
        await pilot.pause()
        values = editor.values()
        assert len(values) == 3
        assert values[2] == values[1]
        assert focused_field(app) == "items.2.description"
        await type_text(pilot, "copy")
        await pilot.press("ctrl+up")  # move the copy above row 2
        await pilot.pause()
        assert [v.description for v in editor.values()] == ["Spare motor", "copy", ""]
        assert focused_field(app) == "items.1.description"
        await pilot.press("up")  # arrows move between rows, same column
        assert focused_field(app) == "items.0.description"
        await pilot.press("alt+down")
        await pilot.pause()
        assert [v.description for v in editor.values()] == ["copy", "Spare motor", ""]
        await pilot.press("ctrl+x")  # delete the moved row; focus stays in that column
        await pilot.pause()
        assert [v.description for v in editor.values()] == ["copy", ""]
        assert focused_field(app) == "items.1.description"
        await pilot.press("f5")  # F5 adds a row below the current one
        await pilot.pause()
        assert len(editor.rows) == 3
        assert focused_field(app) == "items.2.quantity"
        await pilot.press("f7")
        await pilot.press("f7")
        await pilot.press("f7")  # the last row is never removed: it is emptied
        await pilot.pause()
        assert editor.values() == (QuoteDraft().items[0],)
        text = screen_text(app)
        assert "0 units · 0 lb · 0.0 ft³ ─" in text
        assert row_line(text, 1)


async def test_the_draft_comes_back_after_the_app_is_gone() -> None:
    session = offline_session()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await type_text(pilot, "30303")
        # open the type list, two down to Residential, Enter; Tab past the mode filter
        await pilot.press("tab", "down", "down", "down", "enter", "tab")
        await pilot.press("tab")
        await fill_row(pilot, "3", "", "4OO", "48", "40", "48", "", "Oops: letter O")
        # The debounced save runs without any unmount.
        await wait_for(pilot, lambda: "4OO" in str(session.drafts.load(DRAFT_NAME)), what="save")
        saved = session.drafts.load(DRAFT_NAME)
        assert saved is not None
        assert saved["dest_type"] == "residential"
        assert saved["items"][0]["weight"] == "4OO"
        expected = screen.draft()
    # a new app, same data directory: as after a dropped SSH session
    again = make_app(offline_session())
    async with again.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        assert screen.draft() == expected
        weight = screen.editor.input_for(0, "weight")
        assert weight.has_class("-invalid"), "restored mistakes are shown at once"
        assert "Oops: letter O" in screen_text(again)


async def test_only_the_quote_draft_is_written(tmp_path: Any) -> None:
    session = Session.for_testing(OFFLINE, TOKEN, data_dir=tmp_path)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await type_text(pilot, "1")
    assert sorted(p.name for p in session.drafts.directory.iterdir()) == [f"{DRAFT_NAME}.json"]
    restored = QuoteDraft.from_dict(session.drafts.load(DRAFT_NAME) or {})
    assert restored.dest_zip == "1"


async def test_f1_in_the_grid_explains_the_columns_and_lists_the_row_keys() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        screen.editor.input_for(0, "freight_class").focus()
        await pilot.press("f1")
        await pilot.pause()
        text = screen_text(app)
        assert "Leave it empty to use the" in text
        assert "class implied by density" in text
        body = getattr(app.screen, "body", "")
        assert "Duplicate this row below it (F6)" in body
        assert "Ask for rates; jumps to the first wrong field instead (F9)" in body
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_clearing_the_quote_keeps_the_default_origin_only() -> None:
    session = offline_session()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await type_text(pilot, "30303")
        screen.editor.input_for(0, "weight").focus()
        await type_text(pilot, "500")
        await pilot.press("ctrl+n")
        await pilot.pause()
        screen.clear_form()
        await pilot.app.workers.wait_for_complete()
        fresh = QuoteDraft(origin_zip="60607")
        await wait_for(
            pilot,
            lambda: (
                screen.draft() == fresh
                and QuoteDraft.from_dict(session.drafts.load(DRAFT_NAME) or {}) == fresh
            ),
            what="the fresh form, and its draft saved",
        )
        assert not screen.query(".-invalid"), "a fresh form shows no errors"


async def test_a_burst_of_keys_lands_in_the_right_fields() -> None:
    """Keys queued before any is handled (a quick typist on a slow link, a scanner)."""
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        burst = [*"30303", "tab", "tab", "tab", "2", "tab", *"pal", "tab", *"800", "tab"]
        burst += [*"48", "tab", *"40", "tab", *"48", "tab", "tab", *"Machine", "enter"]
        burst += ["1", "tab", *"cr", "tab", *"350", "tab", *"40", "tab", *"30", "tab", *"36"]
        burst += ["up", *"47", "down", "tab", *"100", "tab", *"Motor"]
        for key in burst:
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await pilot.pause()
        # One key at a time, each through its widgets before the next (tui.key_filter).
        await wait_for(pilot, lambda: not app.input_waiting, what="every key handled")
        await pilot.pause()
        draft = screen.draft()
        assert (draft.origin_zip, draft.dest_zip) == ("60607", "30303")
        rows = [
            (i.quantity, i.package, i.weight, i.length, i.width, i.height, i.freight_class)
            for i in draft.items
        ]
        assert rows == [
            ("2", "pallet", "800", "48", "40", "47", ""),
            ("1", "crate", "350", "40", "30", "36", "100"),
        ]
        assert [i.description for i in draft.items] == ["Machine", "Motor"]


async def test_steady_typing_is_saved_while_it_goes_on() -> None:
    session = offline_session()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        for char in "303":
            await pilot.press(char)
            await pilot.pause(0.2)
        saved_during = session.drafts.load(DRAFT_NAME)
        assert saved_during is not None, "no pause in typing is needed for a save"
        assert saved_during["dest_zip"].startswith("30")


async def test_the_items_border_is_bright_only_while_focus_is_in_the_grid() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        colors = app.get_css_variables()
        bright, dim = Color.parse(colors["border"]), Color.parse(colors["border-blurred"])
        assert bright != dim
        assert screen.editor.styles.border_top[1] == dim  # focus is on the destination
        await pilot.press("tab", "tab", "tab")  # type, mode, then row 1 Qty
        assert focused_field(app) == "items.0.quantity"
        await pilot.pause()
        assert screen.editor.styles.border_top[1] == bright
        await pilot.press("ctrl+n", "down", "up")  # moves inside the grid keep it bright
        await pilot.pause()
        assert screen.editor.styles.border_top[1] == bright
        screen.query_one("#origin").query_one(Input).focus()
        await pilot.pause()
        assert screen.editor.styles.border_top[1] == dim


async def test_forty_rows_keep_their_numbers_order_and_focus_through_edits() -> None:
    session = offline_session()
    items = tuple(ItemDraft(weight=str(100 + n), description=f"line {n + 1}") for n in range(40))
    draft = QuoteDraft(origin_zip="60607", dest_zip="30303", items=items)
    session.drafts.save(DRAFT_NAME, draft.to_dict())
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        editor = screen.editor
        editor.input_for(20, "weight").focus()
        await pilot.pause()
        await pilot.press("ctrl+x")  # row 21 goes; focus takes the same field of the next
        await pilot.pause()
        assert len(editor.rows) == 39
        assert focused_field(app) == "items.20.weight"
        assert editor.input_for(20, "weight").value == "121"
        await pilot.press("alt+up")
        await pilot.pause()
        assert [i.description for i in editor.values()[19:22]] == ["line 22", "line 20", "line 23"]
        await pilot.press("ctrl+d")  # the copy goes below; 40 is the most a quote holds
        await pilot.pause()
        assert len(editor.rows) == 40
        assert editor.values()[20] == editor.values()[19]
        assert focused_field(app) == "items.20.weight"
        text = screen_text(app)
        assert "Items (40)" in text
        assert row_line(text, 21)  # the renumbered rows are drawn where focus is
        await pilot.press("ctrl+n")  # full: refused with a warning
        await pilot.pause()
        assert len(editor.rows) == 40


def _draft_with(session: Session, *items: ItemDraft) -> None:
    draft = QuoteDraft(origin_zip="60607", dest_zip="30303", items=items)
    session.drafts.save(DRAFT_NAME, draft.to_dict())


async def test_tab_goes_on_to_the_next_row_and_keys_typed_ahead_follow() -> None:
    """Only the edited row is made of inputs: Tab past Description (and shift+Tab before
    Qty) brings the inputs to the next row on arrival, so a burst lands field by field."""
    session = offline_session()
    _draft_with(session, ItemDraft(weight="100"), ItemDraft(weight="200"))
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        screen.editor.input_for(0, "description").focus()
        await pilot.pause()
        burst = [*"AB", "tab", *"7", "tab", *"box", "shift+tab", "shift+tab", *"CD"]
        for key in burst:
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await pilot.pause()
        await pilot.pause()
        first, second = screen.draft().items
        assert first.description == "CD", "shift+tab from Qty selected row 1's Description"
        assert (second.quantity, second.package, second.weight) == ("7", "box", "200")
        assert focused_field(app) == "items.0.description"
        text = screen_text(app)
        assert "box" in row_line(text, 2), "the row left is drawn with what was typed"


async def test_tab_into_the_grid_starts_at_row_one_and_shift_tab_leaves_it() -> None:
    session = offline_session()
    _draft_with(session, ItemDraft(weight="100"), ItemDraft(weight="200"), ItemDraft())
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        screen.editor.input_for(2, "weight").focus()
        await pilot.pause()
        screen.query_one("#quote-mode").focus()
        await pilot.pause()
        await pilot.press("tab")
        assert focused_field(app) == "items.0.quantity"
        await pilot.press("shift+tab")
        assert app.focused is screen.query_one("#quote-mode")


async def test_a_click_on_a_drawn_row_edits_the_field_under_it() -> None:
    session = offline_session()
    _draft_with(session, ItemDraft(weight="100"), ItemDraft(weight="200"), ItemDraft())
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        editor = screen.editor
        editor.input_for(0, "quantity").focus()
        await pilot.pause()
        strip = next(iter(editor.query(ItemStrip)))  # over row 1: the rows draw where it is
        weight = next(c for c in strip.columns() if c.key == "weight")
        await pilot.click(editor.rows[1], offset=(weight.x + 1, 0))
        await pilot.pause()
        assert focused_field(app) == "items.1.weight"
        assert editor.input_for(1, "weight").value == "200"


async def test_a_row_not_being_edited_still_shows_its_wrong_field_in_red() -> None:
    session = offline_session()
    _draft_with(
        session,
        ItemDraft(weight="4O", length="48", width="40", height="40"),
        ItemDraft(weight="200", length="48", width="40", height="40"),
    )
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        screen.editor.input_for(1, "quantity").focus()
        await pilot.pause()
        drawn = screen.editor.rows[0]
        assert drawn.display, "row 1 is drawn, not made of inputs"
        segments = {s.text.strip(): s.style for s in drawn.render_line(0) if s.text.strip()}
        wrong, right = segments["4O"], segments["48"]
        assert wrong is not None
        assert right is not None
        assert wrong.bgcolor != right.bgcolor
        assert wrong.bgcolor is not None
        assert wrong.bgcolor.triplet is not None
        assert wrong.bgcolor.triplet.red > wrong.bgcolor.triplet.green
        message = str(screen.query_one("#quote-message", TextCell).text)
        assert message.startswith("row 1: weight (lb per unit) must be a number")


async def test_the_first_frame_draws_row_1_and_entering_the_grid_builds_its_inputs() -> None:
    """The first frame builds no input of the grid (focus is on the ZIP to fill): every row is
    drawn. Tab into the grid builds the inputs over row 1, which looks as it was drawn, and
    puts the cursor in its Qty."""
    app = make_app(offline_session())
    frames: list[tuple[bool, str]] = []

    def record(screen: Any) -> None:
        if not frames and isinstance(screen, QuoteScreen):
            editor = screen.query_one(ItemsEditor)
            frames.append((editor.completed, row_line(screen_text(app), 1)))

    watch_frames(app, record)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = quote(app)
        completed, first_row = frames[0]
        assert not completed, "no input of the grid before the cursor enters it"
        assert first_row.split()[:4] == ["│", "1", "1", "pallet"], first_row
        assert focused_field(app) == "dest_zip"
        await pilot.press("tab", "tab", "tab")  # past the dock type and the mode
        await wait_for(pilot, lambda: focused_field(app) == "items.0.quantity", what="Qty")
        assert screen.editor.completed
        assert row_line(screen_text(app), 1) == first_row, "the inputs show row 1 as drawn"


async def test_shift_tab_into_a_grid_without_inputs_lands_in_the_last_field() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = quote(app)
        screen.shipment.summary.focus()  # builds the line's inputs, Ref focused
        await wait_for(pilot, lambda: screen.shipment.built, what="the shipment line")
        await pilot.pause()
        assert not screen.editor.completed
        await pilot.press("shift+tab")
        await type_text(pilot, "bolts")  # typed while the inputs are built: held, not lost
        await wait_for(pilot, lambda: screen.draft().items[0].description == "bolts", what="it")
        assert focused_field(app) == "items.0.description"


async def test_a_form_with_both_zips_starts_in_row_1_and_keys_typed_at_once_land_there() -> None:
    session = offline_session()
    session.drafts.save(DRAFT_NAME, QuoteDraft(origin_zip="60607", dest_zip="30303").to_dict())
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_text(pilot, "12")  # before the grid's inputs are built: held for them
        await wait_for(pilot, lambda: quote(app).draft().items[0].quantity == "12", what="Qty")
        assert focused_field(app) == "items.0.quantity"


async def test_keys_typed_while_the_screen_completes_wait_and_land_in_order() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        release = app.hold_input()
        await type_text(pilot, "30303")
        await pilot.press("tab", "tab", "tab")
        await type_text(pilot, "4")
        await pilot.press("tab")
        await type_text(pilot, "crate")
        await pilot.pause()
        assert quote(app).draft().dest_zip == "", "held: nothing typed yet"
        assert app.input_waiting
        release()
        release()  # a second call changes nothing
        await pilot.pause()
        await pilot.pause()
        assert not app.input_waiting
        draft = quote(app).draft()
        assert draft.dest_zip == "30303"
        assert (draft.items[0].quantity, draft.items[0].package) == ("4", "crate")
        assert focused_field(app) == "items.0.package"


async def test_a_restored_draft_says_so_and_a_damaged_one_is_kept_aside() -> None:
    session = offline_session()
    session.drafts.save(DRAFT_NAME, QuoteDraft(origin_zip="60607", dest_zip="30303").to_dict())
    app = make_app(session)
    notices = Notices(app)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await start(pilot)
        assert screen.draft().dest_zip == "30303"
        await wait_for(pilot, lambda: bool(notices.said), what="the word")
        [(title, said)] = notices.said
        assert title == "Quote draft"
        assert said.startswith("Restored the quote you were typing (saved ")
        assert said.endswith("To start afresh: ctrl+p, Clear the quote.")
    path = session.drafts.directory / f"{DRAFT_NAME}.json"
    path.write_bytes(b'{"dest_zip": "303')  # torn
    again = make_app(offline_session())
    notices = Notices(again)
    async with again.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await start(pilot)
        assert screen.draft().dest_zip == ""  # an empty form…
        await wait_for(pilot, lambda: bool(notices.said), what="the warning")
        [(title, said)] = notices.said
        assert title == "Quote draft"
        assert said.startswith("The saved draft of the quote was damaged; it was kept as ")
    [kept] = [p for p in session.drafts.directory.iterdir() if ".damaged-" in p.name]
    assert kept.read_bytes() == b'{"dest_zip": "303'  # …and the damaged one kept, as it was
    assert kept.name.startswith(f"{DRAFT_NAME}.json.damaged-")


@pytest.mark.parametrize(("size", "wide"), [((80, 24), False), ((120, 40), True)])
async def test_the_grid_s_table_puts_each_cell_where_the_inputs_are_laid_out(
    size: tuple[int, int], wide: bool
) -> None:
    """The header and the rows drawn before the inputs exist follow `grid_columns`; the
    inputs are laid out by Textual from the CSS the same table writes: the two agree."""
    app = make_app(offline_session())
    async with app.run_test(size=size) as pilot:
        screen = await start(pilot)
        await wait_for(pilot, lambda: screen.editor.completed, what="the grid's inputs")
        editor = screen.editor
        assert editor.has_class("-wide") is wide
        strip = next(iter(editor.query(ItemStrip)))
        laid_out = strip.columns()
        table = grid_columns(strip.region.width, wide)
        assert [(c.key, c.x) for c in laid_out] == [(c.key, c.x) for c in table]
        assert [c.width for c in laid_out[:-1]] == [c.width for c in table[:-1]]
        head = next(line for line in screen_text(app).splitlines() if " Qty " in line)
        assert ("Line lb" in head) is wide


async def test_a_burst_into_the_narrow_class_field_is_kept_and_seen_whole() -> None:
    """Issue 28: `hello` typed fast into Class (5 cells) showed `ello` once left."""
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await pilot.press("tab", "tab", "tab", *["tab"] * 6)  # To ZIP → row 1's Class
        assert focused_field(app) == "items.0.freight_class"
        for key in [*"hel9", "backspace", *"lo", "tab"]:
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await wait_for(pilot, lambda: not app.input_waiting, what="every key handled")
        await pilot.pause()
        assert focused_field(app) == "items.0.description"
        assert screen.draft().items[0].freight_class == "hello"
        assert " hello " in row_line(screen_text(app), 1)
        await pilot.press("shift+tab")  # back in, its text selected: still seen whole
        await pilot.pause()
        await pilot.pause()
        assert focused_field(app) == "items.0.freight_class"
        assert " hello " in row_line(screen_text(app), 1)
