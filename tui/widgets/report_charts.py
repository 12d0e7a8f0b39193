"""The Reports screen's charts: a bar per carrier or lane (or week), and per carrier its share,
on-time share and transit days, drawn in block characters so they read without colour."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events

from tui.domain.money import format_amount
from tui.domain.safe_text import plain
from tui.widgets.plain import Static

_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(value: Decimal | int, largest: Decimal | int, width: int) -> str:
    """A bar of full and eighth blocks, ``width`` cells for the largest value; any value
    above zero gets at least a sliver."""
    if width <= 0 or largest <= 0 or value <= 0:
        return ""
    eighths = max(1, int(Decimal(value) * width * 8 / Decimal(largest)))
    full, part = divmod(min(eighths, width * 8), 8)
    return "█" * full + (_EIGHTHS[part] if part else "")


def percent(share: Decimal | None) -> str:
    """A fraction as a whole percent (``35%``); unknown is ``–``."""
    return "–" if share is None else f"{share * 100:.0f}%"


def cut(text: str, width: int) -> str:
    """Text in at most ``width`` cells, padded; a cut ends with ``…``."""
    shown = plain(text)
    if len(shown) > width:
        shown = shown[: max(0, width - 1)].rstrip() + "…"
    return f"{shown:<{width}}"


@dataclass(frozen=True)
class Bar:
    """One bar: its name, amount, and the shipments it counts."""

    name: str
    amount: Decimal
    shipments: int


@dataclass(frozen=True)
class Score:
    """One carrier's line of the scorecard chart."""

    carrier: str
    shipments: int
    share: Decimal
    on_time: Decimal | None
    quoted_days: Decimal | None
    actual_days: Decimal | None


def spend_bars(bars: Sequence[Bar], currency: str, width: int, bar_style: Style) -> Text:
    """One line per bar: name, amount in ``currency`` (its code unless USD), shipments, bar."""
    text = Text(no_wrap=True, overflow="ellipsis")
    amounts = [format_amount(b.amount, currency) for b in bars]
    amount_width = max((len(a) for a in amounts), default=4)
    count_width = max((len(f"{b.shipments:,}") for b in bars), default=1)
    name_width = min(24, max((len(plain(b.name)) for b in bars), default=4), max(8, width // 3))
    room = max(4, width - name_width - amount_width - count_width - 6)
    largest = max((b.amount for b in bars), default=Decimal(0))
    for line, (item, amount) in enumerate(zip(bars, amounts, strict=True)):
        if line:
            text.append("\n")
        text.append(f"{cut(item.name, name_width)} {amount:>{amount_width}} ")
        text.append(f"({item.shipments:>{count_width},}) ", style="dim")
        text.append(bar(item.amount, largest, room), style=bar_style)
    return text


def days(value: Decimal | None) -> str:
    return "–" if value is None else f"{value}"


def score_bars(scores: Sequence[Score], width: int, bar_style: Style) -> Text:
    """Per carrier: name, shipments, a bar of its share of bookings, the share, on time, and
    transit days quoted → actual."""
    text = Text(no_wrap=True, overflow="ellipsis")
    count_width = max((len(f"{s.shipments:,}") for s in scores), default=1)
    tail_width = 30  # " 100%  on time 100%  10.0→12.5d"
    name_width = min(
        24, max((len(plain(s.carrier)) for s in scores), default=4), max(8, width // 4)
    )
    room = max(4, width - name_width - count_width - tail_width - 3)
    largest = max((s.share for s in scores), default=Decimal(0))
    for line, score in enumerate(scores):
        if line:
            text.append("\n")
        text.append(f"{cut(score.carrier, name_width)} {score.shipments:>{count_width},} ")
        drawn = bar(score.share, largest, room)
        text.append(drawn, style=bar_style)
        text.append(" " * (room - len(drawn)))
        text.append(f" {percent(score.share):>4}", style="bold")
        text.append(f"  on time {percent(score.on_time):>4}")
        transit = f"{days(score.quoted_days)}→{days(score.actual_days)}d"
        text.append(f"  {transit:>9}", style="dim")
    return text


class ReportChart(Static):
    """Bars for one report, drawn again at each width; the bar colour is the theme's."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"report-chart--bar"}

    DEFAULT_CSS = """
    ReportChart {
        height: auto;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .report-chart--bar { color: $primary; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._bars: Sequence[Bar] = ()
        self._scores: Sequence[Score] = ()
        self._currency = ""

    def show_spend(self, bars: Sequence[Bar], currency: str) -> None:
        """Draw one currency's spend bars."""
        self._bars, self._scores, self._currency = bars, (), currency
        self._draw()

    def show_scores(self, scores: Sequence[Score]) -> None:
        """Draw the carriers' scorecard."""
        self._bars, self._scores = (), scores
        self._draw()

    def on_resize(self, event: events.Resize) -> None:
        self._draw()

    def _draw(self) -> None:
        width = max(30, self.size.width or 78)
        style = self.get_component_rich_style("report-chart--bar", partial=True)
        if self._scores:
            self.update(score_bars(self._scores, width, style))
        else:
            self.update(spend_bars(self._bars, self._currency, width, style))
