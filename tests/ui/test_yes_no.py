"""The one yes/no dialog: title and question shown as they are, y or Enter answers yes,
n or Esc answers no, the keys named in the asker's words."""

from __future__ import annotations

from typing import ClassVar

import pytest
from textual.app import App
from textual.binding import BindingType

from tests.ui.screen import screen_text, wait_for
from tui.screens.yes_no import YesNo, YesNoDialog


class Asking(YesNoDialog):
    TITLE = "Asking"
    ANSWERS: ClassVar[YesNo] = YesNo("asking", "Send", "Send it", "Hold", "Keep it here")
    BINDINGS: ClassVar[list[BindingType]] = ANSWERS.bindings()


@pytest.mark.parametrize(("key", "answer"), [("y", True), ("enter", True), ("n", False),
                                             ("escape", False)])  # fmt: skip
async def test_y_or_enter_say_yes_n_or_esc_say_no(key: str, answer: bool) -> None:
    app: App[None] = App()
    answers: list[bool | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(Asking("Send [b]PRO[/b]?", "Order [@click=app.quit]x[/] goes."),
                        answers.append)  # fmt: skip
        await wait_for(pilot, lambda: isinstance(app.screen, Asking), what="the question")
        shown = screen_text(app)
        assert "Send [b]PRO[/b]?" in shown
        assert "Order [@click=app.quit]x[/] goes." in shown
        assert "y send · n hold" in shown
        await pilot.press(key)
        await wait_for(pilot, lambda: answers == [answer], what="the answer")
        assert not isinstance(app.screen, Asking)


def test_the_keys_carry_the_askers_ids_and_words() -> None:
    keys = Asking.ANSWERS.bindings()
    assert [(b.key, b.action, b.description, b.id, b.tooltip) for b in keys] == [  # type: ignore[union-attr]
        ("y,enter", "yes", "Send", "asking.yes", "Send it"),
        ("n,escape", "no", "Hold", "asking.no", "Keep it here"),
    ]
