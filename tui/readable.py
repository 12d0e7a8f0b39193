"""Readable themes: each text colour the CSS draws reads at 3:1 on what it is drawn on.

A theme is checked once, when the app first uses it (``FreightApp.get_theme``), on the
terminal the app runs on: its variables worked out as Textual does (``ColorSystem.generate``
and the theme's own ``variables``), and each (text, background) pair of ``PAIRS`` composed and
shown as that terminal shows it: Rich's rounding to 256 or 16 colours (``Color.downgrade``,
xterm's palette), Textual's greys under ``NO_COLOR``. A pair below 3:1 is nudged, and only
it: its text variable made lighter or darker in OKLab (hue and chroma kept), or a tier of the
terminal's contrasting text (``auto 60%``) made more opaque; where no shade of the text reads
(a background the palette rounds onto the text's), the background variable is nudged instead.
A nudge is an override in a copy of the theme (``Theme.variables``), so a true-colour theme
whose pairs read stays exactly as its author made it, and nothing runs per frame.

The nudges of Textual's own themes are worked out ahead (``tui.readable_known``): as the app
starts, this module loads only for a theme they were not worked out for.

An ANSI theme (``ansi-dark``, ``ansi-light``) draws in the terminal's own colours on its own
background, dark or light, which Freight cannot see: its pairs are checked on both (xterm's
palette), and a failing text colour becomes the ANSI colour nearest it by eye that reads on
both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

from rich.color import Color as RichColor
from rich.color import ColorSystem, ColorType
from textual.color import Color, ColorParseError
from textual.theme import Theme

from tui.theming import luminance

RGB = tuple[int, int, int]

_DEFAULT = Color.parse("ansi_default")

XTERM_16: tuple[RGB, ...] = (
    (0x00, 0x00, 0x00), (0xCD, 0x00, 0x00), (0x00, 0xCD, 0x00), (0xCD, 0xCD, 0x00),
    (0x00, 0x00, 0xEE), (0xCD, 0x00, 0xCD), (0x00, 0xCD, 0xCD), (0xE5, 0xE5, 0xE5),
    (0x7F, 0x7F, 0x7F), (0xFF, 0x00, 0x00), (0x00, 0xFF, 0x00), (0xFF, 0xFF, 0x00),
    (0x5C, 0x5C, 0xFF), (0xFF, 0x00, 0xFF), (0x00, 0xFF, 0xFF), (0xFF, 0xFF, 0xFF),
)  # fmt: skip
"""xterm's 16 ANSI colours, the palette Freight assumes a terminal shows them in."""

ANSI_NAMES = (
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
    "bright_black", "bright_red", "bright_green", "bright_yellow", "bright_blue",
    "bright_magenta", "bright_cyan", "bright_white",
)  # fmt: skip
"""Textual's names of the 16 ANSI colours (``ansi_…``), by number."""

DARK_TERMINAL: tuple[RGB, RGB] = ((0xE5, 0xE5, 0xE5), (0x00, 0x00, 0x00))
"""A dark terminal's own text and background."""
LIGHT_TERMINAL: tuple[RGB, RGB] = ((0x00, 0x00, 0x00), (0xFF, 0xFF, 0xFF))
"""A light terminal's own text and background."""

ENOUGH = 3.0
"""Contrast every text keeps against what it is drawn on."""

PANES = ("background", "surface", "panel")
"""The backgrounds text is drawn on: screens, fields and tables, dialogs and headers."""

TEXTS = (
    "foreground", "text", "text-muted", "text-disabled", "foreground-muted",
    "text-primary", "text-secondary", "text-accent", "text-warning", "text-error",
    "text-success", "error", "warning", "accent", "success",
)  # fmt: skip
"""The colours text is drawn in on every pane (``color: $…`` in the app's and Textual's CSS)."""

PAIRS: tuple[tuple[str, str], ...] = (
    *((text, pane) for text in TEXTS for pane in PANES),
    # Muted parts of widgets, drawn with an alpha of their own.
    *((f"markdown-h{level}-color", pane) for level in range(1, 7) for pane in PANES),
    ("foreground", "panel-darken-1"),  # the command palette
    ("background", "foreground-muted"),  # a tick box's mark, off
    # Faint text (Rich's dim: a charge's detail, a timeline's other steps, a hint).
    *(("foreground dim", pane) for pane in PANES),
    ("background", "success"),  # a tick box's mark, on
    # Fields, focused (a solid primary) or not, and what is selected in them.
    ("text", "primary"),
    ("input-selection-foreground", "surface>input-selection-background"),
    ("input-selection-foreground", "primary>foreground 5%>input-selection-background"),
    # The border titles of a focused table, in the border's colour.
    *(("primary", pane) for pane in PANES),
    ("input-cursor-foreground", "input-cursor-background"),
    # Focused widgets tint their background with the foreground (5%), a wrong field with the
    # error colour (20%).
    ("text", "primary>foreground 5%"),
    ("foreground", "surface>foreground 5%"),
    ("foreground-muted", "surface>foreground 5%"),
    ("success", "surface>foreground 5%"),
    ("text-error", "surface>error 20%"),
    ("text", "primary>error 20%>foreground 5%"),
    ("block-cursor-foreground", "block-cursor-background>foreground 5%"),
    # Tables and lists: header, cursor, hover.
    ("foreground", "panel"),
    ("text-accent", "surface"),
    ("block-cursor-foreground", "block-cursor-background"),
    ("block-cursor-blurred-foreground", "block-cursor-blurred-background"),
    ("foreground", "surface>block-cursor-blurred-background"),
    ("foreground", "surface>block-hover-background"),
    # The footer, the header's production badge, the result's banner.
    ("footer-foreground", "footer-background"),
    ("footer-key-foreground", "footer-background"),
    ("footer-description-foreground", "footer-background"),
    ("text", "error"),
    ("foreground", "background>error 35%"),
    ("foreground", "background>success 30%"),
)
"""Every (text, background) pair of theme variables the app and Textual draw text with; a
background ``a>b`` is ``b`` over ``a``; a translucent one is over each of ``PANES``."""


def palette_256(number: int) -> RGB:
    """xterm's colour ``number`` of 256."""
    if number < 16:
        return XTERM_16[number]
    if number >= 232:
        grey = 8 + 10 * (number - 232)
        return (grey, grey, grey)
    n = number - 16

    def cube(level: int) -> int:
        return 0 if level == 0 else 55 + 40 * level

    return (cube(n // 36), cube(n // 6 % 6), cube(n % 6))


@dataclass(frozen=True)
class Terminal:
    """What a terminal shows: its colour system and whether it has ``NO_COLOR`` (greys)."""

    system: ColorSystem
    no_color: bool = False

    def shows(self, colour: Color, dark: bool, foreground: bool) -> RGB:
        """The RGB this terminal shows for an opaque ``colour`` (an ANSI colour in xterm's
        palette, the default one as a ``dark`` or light terminal's own text or background)."""
        if colour.ansi is not None:
            if colour.ansi < 0:
                own = DARK_TERMINAL if dark else LIGHT_TERMINAL
                return own[0] if foreground else own[1]
            return XTERM_16[colour.ansi]
        return _shown(colour.rgb, self.system, self.no_color)


@lru_cache(maxsize=16384)
def _shown(rgb: RGB, system: ColorSystem, no_color: bool) -> RGB:
    if no_color:
        rgb = Color(*rgb).monochrome.rgb
    if system == ColorSystem.TRUECOLOR:
        return rgb
    shown = RichColor.from_rgb(*rgb).downgrade(system)
    if shown.type == ColorType.TRUECOLOR:
        triplet = shown.triplet
        assert triplet is not None
        return (triplet.red, triplet.green, triplet.blue)
    number = shown.number or 0
    return XTERM_16[number] if number < 16 else palette_256(number)


_luminance = lru_cache(maxsize=16384)(luminance)


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio (1 to 21); luminances remembered (a palette has few colours)."""
    la, lb = _luminance(a), _luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


TERMINALS: Mapping[str, Terminal] = {
    "truecolor": Terminal(ColorSystem.TRUECOLOR),
    "256": Terminal(ColorSystem.EIGHT_BIT),
    "16": Terminal(ColorSystem.STANDARD),
    "NO_COLOR": Terminal(ColorSystem.STANDARD, no_color=True),
}
"""The terminals Freight is checked on, by the name the contrast test gives them."""


def terminal_of(color_system: str | None, no_color: bool) -> Terminal:
    """The terminal of a Rich console's ``color_system`` (truecolor, 256, standard…)."""
    systems = {"truecolor": ColorSystem.TRUECOLOR, "256": ColorSystem.EIGHT_BIT}
    return Terminal(systems.get(color_system or "", ColorSystem.STANDARD), no_color)


@lru_cache(maxsize=1024)
def _split(expression: str) -> tuple[str, float]:
    """``name`` and the alpha of ``name N%`` (1 without); ``name dim`` is ``name``."""
    name, _, percent = expression.removesuffix(" dim").partition(" ")
    return name, float(percent.rstrip("%")) / 100 if percent else 1.0


_USES = Counter(
    _split(part)[0] for text, background in PAIRS for part in (text, *background.split(">"))
)
"""How many pairs each variable is drawn in."""


@lru_cache(maxsize=4096)
def _parse(value: str | None) -> Color | None:
    """A variable's colour: ``#81A1C1``, ``ansi_red``, or with an alpha, ``#81A1C1 35%``."""
    if value is None or value.startswith("auto"):
        return None
    colour, _, percent = value.partition(" ")
    try:
        parsed = Color.parse(colour)
        return parsed.multiply_alpha(float(percent.rstrip("%")) / 100) if percent else parsed
    except (ColorParseError, ValueError):
        return None


def _auto_alpha(value: str) -> float | None:
    """The alpha of ``auto N%`` (the contrasting text at N%), else None."""
    words = value.split()
    if not words or words[0] != "auto":
        return None
    if len(words) == 1:
        return 1.0
    try:
        return float(words[1].rstrip("%")) / 100
    except ValueError:
        return None


def _layer(variables: Mapping[str, str], expression: str) -> Color | None:
    name, alpha = _split(expression)
    colour = _parse(variables.get(name))
    if colour is None:
        return None
    return colour.multiply_alpha(alpha) if alpha < 1 else colour


def _pane(variables: Mapping[str, str], name: str) -> Color | None:
    """Pane ``name``: a transparent one (an ANSI theme's) is the terminal's own background."""
    colour = _parse(variables.get(name))
    if colour is not None and colour.a == 0:
        return _DEFAULT
    return colour


def _over(back: Color, expression: str, variables: Mapping[str, str]) -> Color | None:
    """Layer ``expression`` over the opaque ``back``: blended, or, where an ANSI colour is
    involved, the layer when it is opaque and ``back`` when it is a tint (drawn as nothing)."""
    over = _layer(variables, expression)
    if over is None:
        return None
    if over.ansi is not None or back.ansi is not None:
        return over if over.a >= 1 and _split(expression)[1] >= 1 else back
    return back + over


def _backs(variables: Mapping[str, str], spec: str) -> list[Color]:
    """The opaque colours background ``spec`` shows as (a translucent one over each pane)."""
    first, *layers = spec.split(">")
    start = _pane(variables, first) if first in PANES else _layer(variables, first)
    if start is None:
        return []
    if start.a >= 1:
        starts = [start]
    else:
        panes = (_pane(variables, pane) for pane in PANES)
        starts = [
            found for pane in panes if pane is not None and (found := _over(pane, first, variables))
        ]
    backs = []
    for start in starts:
        back: Color | None = start
        for expression in layers:
            back = None if back is None else _over(back, expression, variables)
        if back is not None:
            backs.append(back)
    return backs


def _on(value: str, alpha: float, back: Color) -> Color | None:
    """Text colour ``value`` (at ``alpha`` more) as drawn on the opaque ``back``."""
    auto = _auto_alpha(value)
    if auto is not None:
        if back.ansi is not None:
            return Color.parse("ansi_default")
        return back + back.get_contrast_text(auto * alpha)
    colour = _parse(value)
    if colour is None:
        return None
    if colour.ansi is not None or back.ansi is not None:
        return colour
    colour = colour.multiply_alpha(alpha) if alpha < 1 else colour
    return back + colour if colour.a < 1 else colour


def _ratio(text: Color, back: Color, terminal: Terminal, dim: bool) -> float:
    """The worst contrast of ``text`` on ``back``, on a dark and a light terminal (the same
    unless an ANSI colour is involved); ``dim`` (faint) text as the terminal draws it, half
    way from the colour it shows to the background's."""
    ansi = text.ansi is not None or back.ansi is not None
    worst = 21.0
    for dark in (True, False) if ansi else (True,):
        fore, under = terminal.shows(text, dark, True), terminal.shows(back, dark, False)
        if dim:
            fore = (
                round((fore[0] + under[0]) / 2),
                round((fore[1] + under[1]) / 2),
                round((fore[2] + under[2]) / 2),
            )
        worst = min(worst, contrast(fore, under))
    return worst


def _worst(
    value: str, alpha: float, backs: Iterable[Color], terminal: Terminal, dim: bool = False
) -> float:
    ratios = [
        _ratio(text, back, terminal, dim)
        for back in backs
        if (text := _on(value, alpha, back)) is not None
    ]
    return min(ratios, default=21.0)


@dataclass(frozen=True)
class Pair:
    """A text on a background, and how it reads on a terminal."""

    text: str
    background: str
    ratio: float

    def describe(self) -> str:
        return f"${self.text} on ${self.background} {self.ratio:.2f}:1"


def pairs(variables: Mapping[str, str], terminal: Terminal) -> list[Pair]:
    """Every pair of ``PAIRS`` that ``variables`` defines, with its contrast on ``terminal``."""
    return [
        Pair(text, background, _pair_ratio(variables, text, background, terminal))
        for text, background in PAIRS
        if _split(text)[0] in variables and _backs(variables, background)
    ]


def worst_pair(variables: Mapping[str, str], terminal: Terminal) -> Pair:
    """The pair of ``variables`` that reads worst on ``terminal``."""
    return min(pairs(variables, terminal), key=lambda pair: pair.ratio)


def _candidates(value: str) -> Iterable[str]:
    """Values of a variable nearest ``value`` first: more opaque for ``auto N%`` or a
    translucent colour, lighter and darker shades (hue and chroma kept) for an opaque one,
    the other ANSI colours nearest by eye for an ANSI one."""
    auto = _auto_alpha(value)
    colour = _parse(value)
    if auto is not None:
        yield from (f"auto {step}%" for step in range(round(auto * 100) + 1, 101))
        return
    if colour is None:
        return
    if colour.ansi is not None:
        here = oklab(XTERM_16[colour.ansi]) if colour.ansi >= 0 else oklab(XTERM_16[7])
        ranked = sorted(range(16), key=lambda n: _distance(oklab(XTERM_16[n]), here))
        yield from (f"ansi_{ANSI_NAMES[n]}" for n in ranked)
        return
    if colour.a < 1:
        yield from (
            colour.with_alpha(step / 100).hex for step in range(round(colour.a * 100) + 1, 101)
        )
    lightness, a, b = oklab(colour.rgb)
    for alpha in (colour.a, 1.0) if colour.a < 1 else (1.0,):  # a tint: its shades, then solid
        for step in range(1, 101):
            for sign in (1, -1):
                level = lightness + sign * step / 100
                if 0 <= level <= 1:
                    yield Color(*from_oklab((level, a, b)), a=alpha).hex


def _linear(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


@lru_cache(maxsize=4096)
def oklab(rgb: RGB) -> tuple[float, float, float]:
    """The colour in OKLab, where lightness can change with hue and chroma kept."""
    r, g, b = (_linear(v) for v in rgb)
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


def _distance(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


def _nudged(
    variables: Mapping[str, str],
    name: str,
    failing: list[tuple[str, str]],
    terminal: Terminal,
    strict: bool = True,
) -> str | None:
    """The value of variable ``name`` nearest its own under which every pair of ``failing``
    reads and (``strict``) every other pair drawn with ``name`` that read still does; None
    when no value does."""
    involved = [
        (text, background)
        for text, background in PAIRS
        if name in (_split(text)[0], *(_split(layer)[0] for layer in background.split(">")))
    ]
    wanted = {*failing, *involved}
    before = {
        (text, background): _pair_ratio(variables, text, background, terminal)
        for text, background in wanted
    }
    for candidate in _candidates(variables[name]):
        trial = {**variables, name: candidate}
        ratios = {pair: _pair_ratio(trial, *pair, terminal) for pair in wanted}
        if all(ratios[pair] >= ENOUGH for pair in failing) and all(
            ratios[pair] >= ENOUGH for pair in wanted if strict and before[pair] >= ENOUGH
        ):
            return candidate
    return None


def _pair_ratio(
    variables: Mapping[str, str], text: str, background: str, terminal: Terminal
) -> float:
    name, alpha = _split(text)
    value = variables.get(name)
    backs = _backs(variables, background)
    if value is None or not backs:
        return 21.0
    return _worst(value, alpha, backs, terminal, dim=text.endswith(" dim"))


def readable_variables(variables: Mapping[str, str], terminal: Terminal) -> dict[str, str]:
    """The overrides that make every pair of ``variables`` read on ``terminal`` (empty when
    they all do): each failing pair's text variable nudged (for every pair drawn with it),
    else its background's."""
    changes: dict[str, str] = {}
    current = dict(variables)
    for _ in range(4):  # a nudged colour is another pair's background: check again
        failing = [
            (text, background)
            for text, background in PAIRS
            if _pair_ratio(current, text, background, terminal) < ENOUGH
        ]
        if not failing:
            break
        for text, background in failing:
            if _pair_ratio(current, text, background, terminal) >= ENOUGH:
                continue  # mended by an earlier nudge
            # The variable drawn in the fewest pairs first: a hover colour before the
            # foreground, a disabled tier before the panel it is on.
            names = sorted(
                [_split(text)[0], *(_split(layer)[0] for layer in background.split(">"))],
                key=_USES.__getitem__,
            )
            # Without breaking a pair that reads; else breaking one, mended in the next round
            # (a palette can round a background onto the only shades that read on it).
            tries = [(name, strict) for strict in (True, False) for name in names]
            for name, strict in tries:
                if name not in current:
                    continue
                value = _nudged(current, name, [(text, background)], terminal, strict)
                if value is not None:
                    current[name] = changes[name] = value
                    break
    return changes


def theme_variables(theme: Theme) -> dict[str, str]:
    """The variables Textual works out for ``theme``, its own overrides on top (as
    ``App.get_css_variables`` has them)."""
    return {**theme.to_color_system().generate(), **theme.variables}


def readable_theme(theme: Theme, terminal: Terminal) -> Theme:
    """``theme`` itself when every pair reads on ``terminal``, else a copy with the variables
    of its failing pairs nudged."""
    if theme.ansi and terminal.no_color:
        # Textual's greys (``NO_COLOR``) turn the terminal's own colours black: the ANSI
        # colours are drawn as RGB instead (Textual's ANSI palette), then made grey.
        theme = replace(theme, ansi=False)
    changes = readable_variables(theme_variables(theme), terminal)
    if not changes:
        return theme
    return replace(theme, variables={**theme.variables, **changes})
