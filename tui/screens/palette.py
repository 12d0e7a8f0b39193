"""A screen's key bindings as command palette entries, each named as the footer names it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import partial

from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.widget import Widget


def binding_commands(
    node: Widget, bindings: Iterable[BindingType], keymap: Mapping[str, str] = {}
) -> Iterator[SystemCommand]:
    """One palette entry per binding with a description: its footer name, what it does and
    its key (the keymap's when the user changed it), running the binding's action on
    ``node``."""
    for binding in bindings:
        if not isinstance(binding, Binding) or not binding.description:
            continue
        changed = keymap.get(binding.id or "")
        key = changed.split(",")[0] if changed else binding.key_display or binding.key.split(",")[0]
        said = f"{binding.tooltip} ({key})" if binding.tooltip else key
        yield SystemCommand(binding.description, said, partial(node.run_action, binding.action))
