"""How a batch chooses each order's rate: cheapest, fastest, or cheapest within N transit
days; carriers preferred and excluded; a maximum total. Enter moves on, the last Enter (or
ctrl+s) chooses again by them; Esc leaves the rules as they were."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Input

from tui.batch.rules import RuleError, Rules, parse_max_total, parse_rule
from tui.screens.modal import FreightDialog
from tui.widgets.plain import Label, Static

_FIELDS = (
    ("rule", "Rule", "cheapest, fastest, or cheapest-within-3 (transit days)"),
    ("prefer", "Prefer", "carriers chosen among first: SCAC or name, commas between"),
    ("exclude", "Exclude", "carriers never chosen: SCAC or name, commas between"),
    ("max-total", "Max total", "an order's most: 1500 or 1500 USD (blank: no maximum)"),
)


def rules_text(rules: Rules) -> dict[str, str]:
    """The rules as the dialog's fields write them."""
    kind = f"cheapest-within-{rules.within_days}" if rules.kind == "within" else rules.kind
    total = ""
    if rules.max_total is not None:
        total = f"{rules.max_total}" + (f" {rules.max_currency}" if rules.max_currency else "")
    return {
        "rule": kind,
        "prefer": ", ".join(rules.prefer),
        "exclude": ", ".join(rules.exclude),
        "max-total": total,
    }


def parse_rules(fields: dict[str, str]) -> Rules:
    """The rules the fields say. Raises RuleError (its message without the CLI's flag)."""

    try:
        kind, within = parse_rule(fields.get("rule", "") or "cheapest")
        text = fields.get("max-total", "").strip()
        total, currency = parse_max_total(text) if text else (None, None)
    except RuleError as error:
        raise RuleError(str(error).split(": ", 1)[-1]) from None

    def names(key: str) -> tuple[str, ...]:
        return tuple(n.strip() for n in fields.get(key, "").split(",") if n.strip())

    return Rules(
        kind=kind,
        within_days=within,
        prefer=names("prefer"),
        exclude=names("exclude"),
        max_total=total,
        max_currency=currency,
    )


class BatchRulesScreen(FreightDialog["Rules | None"]):
    """The batch's rules to change; dismisses with the new rules (None: unchanged)."""

    TITLE = "Batch rules"

    HELP: ClassVar[str | None] = """\
## Rules

How each rated order's rate is chosen: `cheapest`, `fastest`, or `cheapest-within-N`
(N transit days at most); carriers to **prefer** (chosen among first when one fits) and to
**exclude** (a SCAC or the start of a name, commas between); a **maximum total** per order
(`1500`, or `1500 USD` for one currency). Totals are compared within one currency. Orders
chosen by hand keep their choice. **Enter** goes to the next field and from the last one
chooses again (so does **ctrl+s**); **Esc** leaves the rules as they were.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "apply", "Choose again", id="batch_rules.apply", tooltip="Use them"),
        Binding("escape", "cancel", "Cancel", id="batch_rules.cancel", tooltip="Keep the rules"),
    ]

    DEFAULT_CSS = """
    BatchRulesScreen > Vertical { width: 76; }
    BatchRulesScreen Horizontal { height: 1; }
    BatchRulesScreen Label { width: 11; }
    BatchRulesScreen Input { width: 1fr; }
    BatchRulesScreen .batch-rules-hint { color: $text-muted; height: auto; }
    BatchRulesScreen #batch-rules-problem { color: $text-error; height: auto; }
    """

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        values = rules_text(self.rules)
        with Vertical() as box:
            box.border_title = "Choose each order's rate by"
            for key, label, hint in _FIELDS:
                with Horizontal():
                    yield Label(label)
                    yield Input(values[key], id=f"rules-{key}", placeholder=hint, compact=True)
            yield Static(
                "Orders chosen by hand keep their choice · Enter next, then chooses again · "
                "Esc keeps the rules",
                classes="batch-rules-hint",
                markup=False,
            )
            yield Static("", id="batch-rules-problem", markup=False)

    def on_mount(self) -> None:
        self.query_one("#rules-rule", Input).focus()

    def _fields(self) -> dict[str, str]:
        return {key: self.query_one(f"#rules-{key}", Input).value for key, _, _ in _FIELDS}

    @on(Input.Submitted)
    def _submitted(self, message: Input.Submitted) -> None:
        self._enter_goes_on(message, self.action_apply)

    def action_apply(self) -> None:

        try:
            rules = parse_rules(self._fields())
        except RuleError as error:
            self.query_one("#batch-rules-problem", Static).update(str(error))
            return
        self.dismiss(rules)

    def action_cancel(self) -> None:
        self.dismiss(None)
