"""The contrast of every text cell on the screen as a terminal would show it.

Textual composes the screen as segments with Rich styles; the terminal's colour system decides
what reaches the glass: a true-colour terminal shows the RGB as it is, a 256-colour one the
nearest of its palette, a 16-colour one the nearest ANSI colour (shown in the terminal's own
palette: here xterm's), and "default" colours are the terminal's own foreground and background,
which may be dark or light. Each text cell's colours are resolved that way (for both a dark
and a light terminal), and its WCAG contrast ratio is worked out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.color import Color, ColorSystem, ColorType
from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widget import Widget

from tests.textual_probes import layout_render

RGB = tuple[int, int, int]

XTERM = (
    (0x00, 0x00, 0x00), (0xCD, 0x00, 0x00), (0x00, 0xCD, 0x00), (0xCD, 0xCD, 0x00),
    (0x00, 0x00, 0xEE), (0xCD, 0x00, 0xCD), (0x00, 0xCD, 0xCD), (0xE5, 0xE5, 0xE5),
    (0x7F, 0x7F, 0x7F), (0xFF, 0x00, 0x00), (0x00, 0xFF, 0x00), (0xFF, 0xFF, 0x00),
    (0x5C, 0x5C, 0xFF), (0xFF, 0x00, 0xFF), (0x00, 0xFF, 0xFF), (0xFF, 0xFF, 0xFF),
)  # fmt: skip
"""xterm's default 16 colours."""


def _cube(level: int) -> int:
    return 0 if level == 0 else 55 + 40 * level


def _palette_256(number: int) -> RGB:
    """xterm's 256-colour palette."""
    if number < 16:
        return XTERM[number]
    if number >= 232:
        grey = 8 + 10 * (number - 232)
        return (grey, grey, grey)
    n = number - 16
    return (_cube(n // 36), _cube(n // 6 % 6), _cube(n % 6))


@dataclass(frozen=True)
class Terminal:
    """A terminal's default foreground and background (what "default" colours show as)."""

    name: str
    foreground: RGB
    background: RGB


DARK = Terminal("dark terminal", (0xE5, 0xE5, 0xE5), (0x00, 0x00, 0x00))
LIGHT = Terminal("light terminal", (0x00, 0x00, 0x00), (0xFF, 0xFF, 0xFF))

SYSTEMS = {
    "truecolor": ColorSystem.TRUECOLOR,
    "256": ColorSystem.EIGHT_BIT,
    "standard": ColorSystem.STANDARD,
    "windows": ColorSystem.WINDOWS,
}


def resolve(colour: Color | None, system: ColorSystem, terminal: Terminal, foreground: bool) -> RGB:
    """The RGB a terminal of ``system`` with ``terminal``'s defaults shows for ``colour``."""
    if colour is None or colour.type == ColorType.DEFAULT:
        return terminal.foreground if foreground else terminal.background
    shown = colour.downgrade(system)
    if shown.type == ColorType.TRUECOLOR:
        triplet = shown.triplet
        assert triplet is not None
        return (triplet.red, triplet.green, triplet.blue)
    number = shown.number
    assert number is not None
    if shown.type == ColorType.STANDARD or (shown.type == ColorType.WINDOWS and number < 16):
        return XTERM[number]
    return _palette_256(number)


def luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = luminance(a), luminance(b)
    light, dark = max(la, lb), min(la, lb)
    return (light + 0.05) / (dark + 0.05)


def _blend(a: RGB, b: RGB, f: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * f),
        round(a[1] + (b[1] - a[1]) * f),
        round(a[2] + (b[2] - a[2]) * f),
    )


def cell_colours(style: Style | None, system: ColorSystem, terminal: Terminal) -> tuple[RGB, RGB]:
    """(foreground, background) of a cell drawn in ``style``: reverse swaps them, dim (faint)
    is taken as half way to the background, as Textual's own dim filter draws it."""
    if style is None:
        return terminal.foreground, terminal.background
    fg = resolve(style.color, system, terminal, foreground=True)
    bg = resolve(style.bgcolor, system, terminal, foreground=False)
    if style.reverse:
        fg, bg = bg, fg
    if style.dim:
        fg = _blend(bg, fg, 0.5)
    return fg, bg


def is_text(character: str) -> bool:
    """A cell that carries text: not blank, not a box-drawing or block character (borders,
    scroll bars, the tall borders' half blocks: lines, not words), not an emoji (the terminal
    draws it in its own colours)."""
    if not character.strip():
        return False
    code = ord(character)
    return not (0x2500 <= code <= 0x259F or code >= 0x1F000)  # nor emoji: drawn in their own


@dataclass(frozen=True)
class Cell:
    """One text cell and its contrast."""

    ratio: float
    x: int
    y: int
    character: str
    line: str
    foreground: RGB
    background: RGB
    terminal: str

    def describe(self) -> str:
        fg = "#{:02X}{:02X}{:02X}".format(*self.foreground)
        bg = "#{:02X}{:02X}{:02X}".format(*self.background)
        return (
            f"{self.ratio:.2f}:1 at ({self.x},{self.y}) {self.character!r} {fg} on {bg} "
            f"({self.terminal}) in {self.line.strip()!r}"
        )


def screen_lines(app: App[Any]) -> list[list[Segment]]:
    """The segments of each line of the screen as the terminal gets them (filters applied)."""
    update = layout_render(app)
    lines: list[list[Segment]] = []
    for strips in update.strips:
        line: list[Segment] = []
        for strip in strips:
            line.extend(strip)
        lines.append(line)
    return lines


def _region(app: App[Any]) -> Region | None:
    """The dialog's region on a modal screen (what lies under it is dimmed on purpose)."""
    screen = app.screen
    if not isinstance(screen, ModalScreen):
        return None
    regions = [w.region for w in screen.walk_children(Widget) if w.display and w.region.area]
    if not regions:
        return None
    return Region.from_union(regions)


def cells(app: App[Any], terminals: Iterable[Terminal] = (DARK, LIGHT)) -> Iterator[Cell]:
    """Every text cell of the current screen, once per terminal default."""
    system = SYSTEMS.get(app.console.color_system or "", ColorSystem.STANDARD)
    region = _region(app)
    lines = screen_lines(app)
    for terminal in terminals:
        for y, line in enumerate(lines):
            text = "".join(segment.text for segment in line)
            x = 0
            for segment in line:
                if segment.control:
                    continue
                style = segment.style
                measured: tuple[float, RGB, RGB] | None = None
                for character in segment.text:
                    if is_text(character) and (region is None or region.contains(x, y)):
                        if measured is None:
                            fg, bg = cell_colours(style, system, terminal)
                            measured = (ratio(fg, bg), fg, bg)
                        value, fg, bg = measured
                        yield Cell(value, x, y, character, text, fg, bg, terminal.name)
                    x += cell_len(character)


def worst(app: App[Any], terminals: Iterable[Terminal] = (DARK, LIGHT)) -> Cell | None:
    """The text cell with the lowest contrast on the current screen."""
    return min(cells(app, terminals), key=lambda cell: cell.ratio, default=None)
