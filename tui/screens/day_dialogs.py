"""The Day screen's dialogs: where the manifests go (never over files without asking), a
yes/no for printing and closing the day, and the close of one carrier (or of the whole day)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input

from tui.day.manifests import plan_manifests
from tui.domain.display_paths import display_path, home_relative
from tui.screens.modal import PATH_WIDTH, PathDialog
from tui.screens.yes_no import YesNo, YesNoDialog
from tui.widgets.plain import Label, Static
from tui.workspace import OutsideWorkspace, confine

if TYPE_CHECKING:
    from tui.day import Day


@dataclass(frozen=True)
class ManifestsAnswer:
    """Where to write the day's manifests, and whether files there may be replaced."""

    folder: Path
    replace: bool


class ManifestsDialog(PathDialog["ManifestsAnswer | None"]):
    """A folder for the day's manifests; files already there are replaced only after a
    second Enter (the dialog names them first)."""

    TITLE = "Manifests"

    HELP: ClassVar[str | None] = """\
## Write manifests

One CSV and one PDF (with the driver's signature line) per carrier, named
`manifest-DAY-CARRIER`. Type the folder and press **Enter**. When manifests of the day are
already there, the dialog says which: **Enter** again replaces them, or change the folder.
**Escape** closes, nothing written.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="manifests.cancel", tooltip="Nothing written"),
    ]

    PATH_FIELD = "#manifests-folder"
    STATUS = "#manifests-status"

    DEFAULT_CSS = """
    ManifestsDialog {
        & > Vertical { width: 76; }
        & #manifests-status { color: $text-muted; }
        & #manifests-status.-error { color: $text-error; }
    }
    """

    def __init__(self, day: Day, folder: Path) -> None:
        super().__init__()
        self._day = day
        self._folder = folder

    def compose(self) -> ComposeResult:
        count = len(self._day.carriers)
        with Vertical() as box:
            box.border_title = Content(f"Manifests of {self._day.day.isoformat()}")
            yield Label(
                f"{count} carrier{'s' * (count != 1)}: a CSV and a PDF each. Folder "
                "(Enter writes, Esc cancels):"
            )
            yield Input(home_relative(self._folder), id="manifests-folder", compact=True)
            yield Static("", id="manifests-status")  # wraps: file names are long

    @on(Input.Submitted, "#manifests-folder")
    def _submitted(self, event: Input.Submitted) -> None:

        text = event.value.strip()
        if not text:
            self._say("Type a folder.", error=True)
            return
        try:
            folder = confine(text, writing=True)
            if folder == self._folder:  # the default folder is made when first used
                folder.mkdir(parents=True, exist_ok=True)
            plan = plan_manifests(self._day, folder)
        except OutsideWorkspace as error:
            self._say(str(error), error=True)
            return
        except OSError:
            self._say(f"There is no folder {display_path(folder, PATH_WIDTH)}.", error=True)
            return
        if plan.there and self._replace != folder:  # never overwritten without asking
            self._replace = folder
            count = len(plan.there)
            more = f" and {count - 1} more" if count > 1 else ""
            self._say(
                f"Already there: {plan.there[0].name}{more}. Enter again replaces "
                f"{'them' if count > 1 else 'it'}, or change the folder.",
                error=True,
            )
            return
        self.dismiss(ManifestsAnswer(folder, replace=bool(plan.there)))

    def action_cancel(self) -> None:
        self.dismiss(None)


class DayConfirm(YesNoDialog):
    """A yes/no about the day: y (or Enter) goes on, n or Esc leaves it."""

    TITLE = "Day"

    ANSWERS: ClassVar[YesNo] = YesNo("day_confirm", "Yes", "Go on", "No", "Leave it")
    BINDINGS: ClassVar[list[BindingType]] = ANSWERS.bindings()


@dataclass(frozen=True)
class CloseAnswers(YesNo):
    """Yes (this carrier), all (the whole day) or no: ``a`` answers all."""

    all: str = "All carriers"
    all_tip: str = "Close the whole day"

    def bindings(self) -> list[BindingType]:
        """y or Enter: this carrier; a: the whole day; n or Esc: neither."""
        tip = self.all_tip
        return [
            *super().bindings(),
            Binding("a", "all", self.all, id=f"{self.name}.all", tooltip=tip),
        ]

    @property
    def hint(self) -> str:
        return f"y {self.yes.lower()} · a {self.all.lower()} · n {self.no.lower()}"


class CarrierClose(YesNoDialog):
    """Close the highlighted carrier (y, Enter), the whole day (a), or nothing (n, Esc): the
    answer is True for either close, and ``whole`` says which."""

    TITLE = "Close"

    ANSWERS: ClassVar[YesNo] = CloseAnswers(
        "day_close", "This carrier", "Close this carrier alone", "Keep open", "Close nothing"
    )
    BINDINGS: ClassVar[list[BindingType]] = ANSWERS.bindings()

    whole = False
    """True when the answer was the whole day (a)."""

    def action_all(self) -> None:
        self.whole = True
        self.dismiss(True)
