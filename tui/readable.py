"""Readable text whatever colours the terminal shows: every theme, every colour system.

A theme is drawn in 24-bit colour. A 256-colour terminal shows the nearest of its palette and a
16-colour one the nearest ANSI colour (in the terminal's own palette), so two close shades
can become one: text the colour of its background. An ANSI theme leaves the background to the
terminal, dark or light, which Freight cannot see. And some themes draw a word in a colour
close to the one under it (a border title in a pale accent on a pale panel). This filter sits
at the end of Textual's line filters and, for each style drawn:

1. rounds each 24-bit colour itself, to the nearest palette colour as the eye sees it (OKLab),
   not by Rich's channel arithmetic (which turns a pale beige pink);
2. keeps the pair when the text has at least 3:1 against its background, on a dark and a
   light terminal alike where a default colour is involved;
3. else gives the text the nearest colour (by eye) that reads at 4.5:1 (3:1 at worst): on a
   true-colour terminal the same hue made lighter or darker, else a palette colour. So a field
   keeps its hue when it can and is never text on itself: the theme's closest readable variant.

With ``NO_COLOR`` Textual has drawn everything in greys already; the filter keeps to greys.
The xterm palette stands for "the terminal's own": 16 colours and the 256-colour cube.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from rich.color import Color as RichColor
from rich.color import ColorSystem, ColorType
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

from tui.theming import luminance

_luminance = lru_cache(maxsize=8192)(luminance)


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio (1 to 21); luminances remembered (a palette has few colours)."""
    la, lb = _luminance(a), _luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


RGB = tuple[int, int, int]

XTERM_16: tuple[RGB, ...] = (
    (0x00, 0x00, 0x00), (0xCD, 0x00, 0x00), (0x00, 0xCD, 0x00), (0xCD, 0xCD, 0x00),
    (0x00, 0x00, 0xEE), (0xCD, 0x00, 0xCD), (0x00, 0xCD, 0xCD), (0xE5, 0xE5, 0xE5),
    (0x7F, 0x7F, 0x7F), (0xFF, 0x00, 0x00), (0x00, 0xFF, 0x00), (0xFF, 0xFF, 0x00),
    (0x5C, 0x5C, 0xFF), (0xFF, 0x00, 0xFF), (0x00, 0xFF, 0xFF), (0xFF, 0xFF, 0xFF),
)  # fmt: skip
"""xterm's 16 ANSI colours, the palette Freight assumes a terminal shows them in."""

DARK_TERMINAL: tuple[RGB, RGB] = ((0xE5, 0xE5, 0xE5), (0x00, 0x00, 0x00))
"""Default foreground and background of a dark terminal."""
LIGHT_TERMINAL: tuple[RGB, RGB] = ((0x00, 0x00, 0x00), (0xFF, 0xFF, 0xFF))
"""Default foreground and background of a light terminal."""

ENOUGH = 3.0
"""Contrast a pair keeps as it is."""
GOAL = 4.5
"""Contrast a changed text colour aims for."""


def _cube(level: int) -> int:
    return 0 if level == 0 else 55 + 40 * level


def palette_256(number: int) -> RGB:
    """xterm's colour ``number`` of 256."""
    if number < 16:
        return XTERM_16[number]
    if number >= 232:
        grey = 8 + 10 * (number - 232)
        return (grey, grey, grey)
    n = number - 16
    return (_cube(n // 36), _cube(n // 6 % 6), _cube(n % 6))


@lru_cache(maxsize=4096)
def oklab(rgb: RGB) -> tuple[float, float, float]:
    """The colour in OKLab, where distance is what the eye sees."""

    def linear(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in rgb)
    l_ = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3)
    m_ = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3)
    s_ = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3)
    return (
        0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
        1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
        0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_,
    )


def from_oklab(lab: tuple[float, float, float]) -> RGB:
    """The sRGB colour of an OKLab one (channels clipped to the gamut)."""
    lightness, a, b = lab
    l_ = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3
    m_ = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3
    s_ = (lightness - 0.0894841775 * a - 1.2914855480 * b) ** 3
    linear = (
        4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
        -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
        -0.0041960863 * l_ - 0.7034186147 * m_ + 1.7076147010 * s_,
    )

    def encode(c: float) -> int:
        c = min(max(c, 0.0), 1.0)
        value = 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
        return round(value * 255)

    r, g, b_ = (encode(c) for c in linear)
    return (r, g, b_)


def distance(a: RGB, b: RGB) -> float:
    """How different two colours look (OKLab, squared)."""
    la, lb = oklab(a), oklab(b)
    return (la[0] - lb[0]) ** 2 + (la[1] - lb[1]) ** 2 + (la[2] - lb[2]) ** 2


class Shown:
    """A colour as the terminal shows it: on a dark terminal, and on a light one (the same
    unless it is the terminal's default)."""

    __slots__ = ("colour", "dark", "light")  # a plain class: no dataclass made at import

    def __init__(self, colour: RichColor | None, dark: RGB, light: RGB) -> None:
        self.colour = colour
        self.dark = dark
        self.light = light


def _grey(rgb: RGB) -> bool:
    return max(rgb) - min(rgb) <= 2


class Palette:
    """The colours a terminal shows: what a colour rounds to, and the text colours to pick."""

    def __init__(self, system: ColorSystem, greys_only: bool = False) -> None:
        self.system = system
        numbers: Iterable[int]
        if system == ColorSystem.EIGHT_BIT:
            numbers = range(16, 256)  # 0-15 are the user's to change: round to the cube
            entries = [(RichColor.from_ansi(n), palette_256(n)) for n in numbers]
        else:
            entries = [(RichColor.from_ansi(n), XTERM_16[n]) for n in range(16)]
        if greys_only:
            entries = [(c, rgb) for c, rgb in entries if _grey(rgb)]
        self.entries: Sequence[tuple[RichColor, RGB]] = entries
        self._nearest: dict[RGB, tuple[RichColor, RGB]] = {}
        self._labs = [oklab(rgb) for _, rgb in entries]
        self.texts: Sequence[Shown] = [
            Shown(None, DARK_TERMINAL[0], LIGHT_TERMINAL[0]),
            *(Shown(c, rgb, rgb) for c, rgb in entries),
        ]

    def nearest(self, rgb: RGB) -> tuple[RichColor, RGB]:
        """The palette colour nearest ``rgb`` by eye."""
        found = self._nearest.get(rgb)
        if found is None:
            labs = self._labs
            lightness, a, b = oklab(rgb)
            best = min(
                range(len(labs)),
                key=lambda i: (
                    (labs[i][0] - lightness) ** 2 + (labs[i][1] - a) ** 2 + (labs[i][2] - b) ** 2
                ),
            )
            found = self._nearest[rgb] = self.entries[best]
        return found

    def show(self, colour: RichColor | None, foreground: bool) -> Shown:
        """``colour`` as this terminal shows it (rounded when it has more than it shows)."""
        if colour is None or colour.type == ColorType.DEFAULT:
            default = 0 if foreground else 1
            return Shown(None, DARK_TERMINAL[default], LIGHT_TERMINAL[default])
        if colour.type == ColorType.TRUECOLOR and self.system != ColorSystem.TRUECOLOR:
            triplet = colour.triplet
            assert triplet is not None
            rounded, rgb = self.nearest((triplet.red, triplet.green, triplet.blue))
            return Shown(rounded, rgb, rgb)
        if colour.type == ColorType.TRUECOLOR:
            triplet = colour.triplet
            assert triplet is not None
            rgb = (triplet.red, triplet.green, triplet.blue)
            return Shown(colour, rgb, rgb)
        number = colour.number or 0
        if colour.type == ColorType.EIGHT_BIT and self.system == ColorSystem.STANDARD:
            rounded, rgb = self.nearest(palette_256(number))
            return Shown(rounded, rgb, rgb)
        rgb = palette_256(number)
        return Shown(colour, rgb, rgb)


def _worst(text: Shown, back: Shown) -> float:
    return min(contrast(text.dark, back.dark), contrast(text.light, back.light))


def _blend(back: RGB, fore: RGB, factor: float) -> RGB:
    return (
        round(back[0] + (fore[0] - back[0]) * factor),
        round(back[1] + (fore[1] - back[1]) * factor),
        round(back[2] + (fore[2] - back[2]) * factor),
    )


def _dimmed(text: Shown, back: Shown) -> Shown:
    """Faint text, as Textual's dim draws it: half way to the background."""
    return Shown(
        text.colour, _blend(back.dark, text.dark, 0.5), _blend(back.light, text.light, 0.5)
    )


_DRAWING = " " + "".join(chr(code) for code in range(0x2500, 0x25A0))


def _drawing(text: str) -> bool:
    """True for blanks, lines and blocks (borders, bars, scroll bars): nothing to read, and
    their colours are the drawing (a tall border is a half block the colour of what is
    beside it)."""
    return not text.strip(_DRAWING)


class ReadableColours(LineFilter):
    """Round colours to the terminal's palette by eye and keep every text readable."""

    def __init__(self, palette: Palette, enabled: bool = True) -> None:
        super().__init__(enabled=enabled)
        self.palette = palette
        self._styles: dict[Style, Style] = {}
        self._blanks: dict[Style, Style] = {}

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        styles, blanks = self._styles, self._blanks
        out: list[Segment] = []
        for text, style, control in segments:
            if style is not None and control is None:
                if _drawing(text):  # nothing to read: only the colours are shown as they are
                    shown = blanks.get(style)
                    if shown is None:
                        shown = blanks[style] = self.rounded(style)
                else:
                    shown = styles.get(style)
                    if shown is None:
                        shown = styles[style] = self.readable(style)
                style = shown
            out.append(Segment(text, style, control))
        return out

    def rounded(self, style: Style) -> Style:
        """``style`` with its colours as this terminal shows them (nothing else changed)."""
        if self.palette.system == ColorSystem.TRUECOLOR:
            return style
        default = RichColor.default()
        return style + Style(
            color=self.palette.show(style.color, foreground=True).colour or default,
            bgcolor=self.palette.show(style.bgcolor, foreground=False).colour or default,
        )

    def readable(self, style: Style) -> Style:
        """``style`` with its colours as the terminal will show them, its text readable."""
        palette = self.palette
        reverse = bool(style.reverse)
        fore = palette.show(style.bgcolor if reverse else style.color, foreground=not reverse)
        back = palette.show(style.color if reverse else style.bgcolor, foreground=reverse)
        dim = bool(style.dim)
        shown = _dimmed(fore, back) if dim else fore
        if _worst(shown, back) < ENOUGH:
            if dim and _worst(fore, back) >= ENOUGH:
                dim = False
            else:
                fore = self._text_on(fore, back)
                dim = False
        # Rich drops a None colour in a sum: "default" says the terminal's own is meant.
        default = RichColor.default()
        changes = Style(
            color=(back.colour if reverse else fore.colour) or default,
            bgcolor=(fore.colour if reverse else back.colour) or default,
            dim=dim if style.dim else None,
        )
        return style + changes

    def _text_on(self, fore: Shown, back: Shown) -> Shown:
        """The text colour nearest ``fore`` that reads on ``back`` (4.5:1, else 3:1, else the
        most readable there is): on a true-colour terminal ``fore`` made lighter or darker
        (its hue kept), else the nearest palette colour by eye."""
        if self.palette.system == ColorSystem.TRUECOLOR and fore.colour is not None:
            found = _shade_on(fore.dark, back)
            if found is not None:
                return found
        texts = self.palette.texts
        # Nearest by eye to the colour as a dark terminal shows it (the terminal's own text
        # included: it is light there).
        ranked = sorted(texts, key=lambda c: distance(c.dark, fore.dark))
        for enough in (GOAL, ENOUGH):
            for candidate in ranked:
                if _worst(candidate, back) >= enough:
                    return candidate
        return max(texts, key=lambda c: _worst(c, back))


def _shade_on(rgb: RGB, back: Shown, steps: int = 50) -> Shown | None:
    """``rgb`` made as little lighter or darker as reads on ``back`` (4.5:1, else 3:1), its
    hue and chroma kept (OKLab); None when no shade of it does."""
    lightness, a, b = oklab(rgb)
    for enough in (GOAL, ENOUGH):
        for step in range(1, steps + 1):
            for sign in (1, -1):
                level = lightness + sign * step / steps
                if not 0 <= level <= 1:
                    continue
                shade = from_oklab((level, a, b))
                candidate = Shown(None, shade, shade)
                if _worst(candidate, back) >= enough:
                    return Shown(RichColor.from_rgb(*shade), shade, shade)
    return None


def readable_filter(system: str | None, no_color: bool) -> ReadableColours:
    """The filter for a console of ``system`` (Rich's name: truecolor, 256, standard…)."""
    systems = {
        "truecolor": ColorSystem.TRUECOLOR,
        "256": ColorSystem.EIGHT_BIT,
        "standard": ColorSystem.STANDARD,
        "windows": ColorSystem.STANDARD,
    }
    return ReadableColours(Palette(systems.get(system or "", ColorSystem.STANDARD), no_color))
