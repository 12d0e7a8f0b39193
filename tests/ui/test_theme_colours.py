"""The colours widgets read from the theme (the drawn fields, the drop-down's arrow, the
footer) are the ones Textual composes from the same rules as CSS: every theme, at 256
colours and at 16."""

from __future__ import annotations

from typing import ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.widget import Widget

from tui.theme_colours import field_palette, theme_colour
from tui.widgets.footer import FooterStyles

# The rules the drawn fields had as component classes, kept here as the reference.
REFERENCE_CSS = """
Reference {
    & > .value { background: $surface; color: $foreground; }
    & > .placeholder { background: $surface; color: $text-disabled; }
    & > .invalid { background: $error 35%; background-tint: $error 20%; color: $foreground; }
    & > .invalid-placeholder {
        background: $error 35%; background-tint: $error 20%; color: $text-disabled;
    }
    & > .muted { color: $text-muted; }
    & > .arrow { color: $foreground-muted; }
    & > .text { color: $text; }
    & > .footer-key {
        color: $footer-key-foreground; background: $footer-key-background; text-style: bold;
    }
    & > .footer-description {
        color: $footer-description-foreground; background: $footer-description-background;
    }
    & > .footer-hover { background: $block-hover-background; }
    & > .footer-separator { color: $foreground 20%; }
    &:ansi {
        & > .value { background: ansi_default; color: ansi_default; }
        & > .placeholder { background: ansi_default; color: ansi_default; text-style: dim; }
        & > .invalid { background: ansi_red; color: ansi_default; }
        & > .invalid-placeholder { background: ansi_red; color: ansi_default; text-style: dim; }
    }
}
"""


class Reference(Widget):
    """Styled by the reference rules."""

    DEFAULT_CSS = "Reference { height: 1; background: $surface; }"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "value",
        "placeholder",
        "invalid",
        "invalid-placeholder",
        "muted",
        "arrow",
        "text",
        "footer-key",
        "footer-description",
        "footer-hover",
        "footer-separator",
    }


class Themes(App[None]):
    CSS = REFERENCE_CSS

    def compose(self) -> ComposeResult:
        yield Reference()


@pytest.mark.parametrize("colours", ["256", "16"])
async def test_the_theme_s_colours_are_what_the_css_rules_gave(
    colours: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TERM", "tmux-256color" if colours == "256" else "xterm")
    monkeypatch.setenv("COLORTERM", "truecolor" if colours == "256" else "")
    app = Themes()
    async with app.run_test(size=(40, 5)) as pilot:
        reference = app.query_one(Reference)
        checked = 0
        for name in sorted(app.available_themes):
            app.theme = name
            await pilot.pause()
            palette = field_palette(reference)
            for part, style in zip(palette._fields, palette, strict=True):
                wanted = reference.get_component_rich_style(part.replace("_", "-"))
                assert style == wanted, (name, part)
            for variable, part in (("foreground-muted", "arrow"), ("text", "text")):
                drawn = reference.get_visual_style(part)
                assert drawn.background is not None
                assert drawn.foreground is not None
                wanted_colour = drawn.background + drawn.foreground
                assert theme_colour(reference, variable) == wanted_colour, (name, part)
            footer = FooterStyles.of(reference)
            assert footer.key == reference.get_visual_style("footer-key"), name
            assert footer.description == reference.get_visual_style("footer-description"), name
            hover = reference.get_visual_style("footer-hover").background
            assert footer.hover.background == hover, name
            assert footer.separator == reference.get_visual_style("footer-separator"), name
            checked += 1
        assert checked >= 20
        assert {"ansi-dark", "textual-light"} <= set(app.available_themes)
