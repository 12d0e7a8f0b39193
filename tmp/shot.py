import asyncio, sys
from tests.ui.test_quote import offline_session, type_text, fill_row
from tests.ui.screen import screen_text
from tui.app import make_app


async def main():
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_text(pilot, "30303")
        await pilot.press("tab", "down", "down", "enter", "tab", "tab")
        await fill_row(pilot, "2", "pallet", "800", "48", "40", "48", "", "Paint")
        await pilot.pause(3)
        print(screen_text(app))
        await pilot.press("ctrl+o")
        await pilot.pause()
        print(screen_text(app))
        await pilot.press("escape")
        await pilot.press("ctrl+l")
        await pilot.pause()
        print(screen_text(app))


asyncio.run(main())
