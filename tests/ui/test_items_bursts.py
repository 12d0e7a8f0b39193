"""Bursts of row moves in the items grid (40 rows, 80x24): each key lands where it should and
the grid moves its one strip of inputs instead of building new ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import events
from textual.pilot import Pilot

from tests.ui.screen import wait_for
from tests.ui.test_quote import focused_field, offline_session, start
from tui.app import FreightApp, make_app
from tui.domain.quote_form import ItemDraft, QuoteDraft
from tui.screens.quote import DRAFT_NAME, QuoteScreen
from tui.widgets.item_strip import ItemStrip
from tui.widgets.items_editor import ItemsEditor

ROWS = 40


def forty_rows_app() -> FreightApp:
    session = offline_session()
    items = tuple(ItemDraft(weight=str(100 + n), description=f"line {n + 1}") for n in range(ROWS))
    draft = QuoteDraft(origin_zip="60607", dest_zip="30303", items=items)
    session.drafts.save(DRAFT_NAME, draft.to_dict())
    return make_app(session)


async def burst(
    pilot: Pilot[Any], row: int, field: str, keys: list[str], done: Callable[[ItemsEditor], bool]
) -> QuoteScreen:
    """From field `field` of row `row`, queue every key before any is handled (a held key, a
    fast typist over SSH), then wait until they are through and `done` holds."""
    app = pilot.app
    assert isinstance(app, FreightApp)
    screen = await start(pilot)
    screen.set_focus(screen.editor.input_for(row, field))
    await pilot.pause()
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))
    await wait_for(
        pilot,
        lambda: not app.input_waiting and done(screen.editor),
        what="every key handled",
    )
    return screen


async def test_fifteen_ups_in_one_burst_land_on_the_row_fifteen_above_with_the_typing() -> None:
    app = forty_rows_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # Row 35's weight replaced, 15 rows up, the weight there replaced, then 3 rows down.
        keys = ["7", *["up"] * 15, *"55", *["down"] * 3, *"9"]
        screen = await burst(pilot, 34, "weight", keys, lambda e: e.values()[22].weight == "9")
        assert focused_field(app) == "items.22.weight"
        weights = [item.weight for item in screen.editor.values()]
        assert (weights[34], weights[19], weights[22]) == ("7", "55", "9")
        untouched = [w for n, w in enumerate(weights) if n not in (19, 22, 34)]
        assert untouched == [str(100 + n) for n in range(ROWS) if n not in (19, 22, 34)]
        # Counted work: the one strip of eight inputs moved from row to row. Counting the
        # focus and blur messages a move leaves queued as "keys still on their way" made a
        # burst build a fresh strip every other key (5 for 15 keys: 1.7 s of CPU at 40 rows).
        assert len(screen.query(ItemStrip)) == 1


async def test_tabs_and_shift_tabs_across_rows_in_one_burst_keep_one_strip() -> None:
    app = forty_rows_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # Tab past Description to row 12's Qty, twice across rows, then back to row 11's.
        keys = ["tab", "3", *["tab"] * 8, "4", "shift+tab", "x"]
        screen = await burst(
            pilot, 10, "description", keys, lambda e: e.values()[11].description == "x"
        )
        assert focused_field(app) == "items.11.description"
        values = screen.editor.values()
        assert (values[11].quantity, values[12].quantity) == ("3", "4")
        assert values[10].description == "line 11"
        assert len(screen.query(ItemStrip)) == 1
