"""The config's ``[keymap]`` checked against the app's bindings: known ids, real keys, no clash."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from textual.binding import Binding
from textual.dom import DOMNode
from textual.keys import Keys

import tui.screens
import tui.widgets
from tui.textual_internals import key_of_character, merged_bindings, normalized_keys

MODIFIERS = frozenset({"ctrl", "alt", "shift", "super", "meta", "hyper"})


@dataclass(frozen=True)
class KeymapProblem:
    """One entry of the keymap that cannot be used, and why."""

    binding_id: str
    message: str


def binding_places(extra: Iterable[type[DOMNode]] = ()) -> list[type[DOMNode]]:
    """Every class of the app that declares bindings with ids: screens, widgets, ``extra``."""
    for package in (tui.screens, tui.widgets):
        for module in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package.__name__}.{module.name}")
    places: list[type[DOMNode]] = []
    pending: list[type[DOMNode]] = [DOMNode, *extra]
    seen: set[type[DOMNode]] = set()
    while pending:
        cls = pending.pop()
        if cls in seen:
            continue
        seen.add(cls)
        pending.extend(cls.__subclasses__())
        if cls.__module__.startswith("tui.") and _bindings(cls):
            places.append(cls)
    return sorted(places, key=lambda cls: (cls.__module__, cls.__qualname__))


def _bindings(cls: type[DOMNode]) -> list[Binding]:
    """The class's bindings (its own and inherited), one per key."""
    merged = merged_bindings(cls)
    return [binding for bindings in merged.key_to_bindings.values() for binding in bindings]


@cache
def _key_names() -> frozenset[str]:
    printable = {key_of_character(chr(code)) for code in range(32, 127)}
    return frozenset({key.value for key in Keys} | printable)


def _bad_key(key: str) -> bool:
    """True when ``key`` is not a key Textual can report (``ctrl+n``, ``f5``, ``slash``, ``?``)."""
    *modifiers, name = key.split("+")
    if any(modifier not in MODIFIERS for modifier in modifiers) or not name:
        return True
    return len(name) != 1 and name not in _key_names() and key not in _key_names()


def keymap_problems(
    keymap: Mapping[str, str], places: Iterable[type[DOMNode]]
) -> list[KeymapProblem]:
    """What is wrong with ``keymap``: ids no binding has, keys that do not exist, and keys
    given to two bindings of one screen or widget (in the keymap's order)."""
    wanted = {binding_id: normalized_keys(keys).split(",") for binding_id, keys in keymap.items()}
    order = list(keymap)
    problems: dict[str, KeymapProblem] = {}
    known: set[str] = set()
    for cls in places:
        owners: dict[str, set[str]] = {}
        for binding in _bindings(cls):
            name = binding.id or binding.action
            if binding.id:
                known.add(binding.id)
            for key in wanted.get(binding.id or "", [binding.key]):
                owners.setdefault(key, set()).add(name)
        for key, names in owners.items():
            remapped = [name for name in order if name in names]
            if len(names) > 1 and remapped:
                culprit = remapped[-1]  # the later claim on the key
                rivals = ", ".join(sorted(names - {culprit}))
                message = f"key {key!r} is also {rivals} on {cls.__name__}"
                problems.setdefault(culprit, KeymapProblem(culprit, message))
    for binding_id, keys in wanted.items():
        if binding_id not in known:
            problems[binding_id] = KeymapProblem(binding_id, "no key binding has this id")
        elif bad := [key for key in keys if _bad_key(key)]:
            problems[binding_id] = KeymapProblem(binding_id, f"not a key: {bad[0]!r}")
    return sorted(problems.values(), key=lambda problem: order.index(problem.binding_id))
