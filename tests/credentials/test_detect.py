"""Detecting a usable keyring: never plaintext by accident, never a hang, never a crash."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.credentials import backends
from tui.credentials import detect

SERVICE, USER = "freight-tui:sandbox", "https://api.example.com"


def _use(monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", backend)


def test_explicit_plaintext_backend_is_usable_but_flagged_insecure() -> None:
    found = detect.probe(SERVICE, USER)
    assert found.state.status == "insecure"
    assert found.state.usable
    assert found.state.backend == "keyrings.alt.file.PlaintextKeyring"
    assert found.value is None


def test_autodetection_never_picks_keyrings_alt(monkeypatch: pytest.MonkeyPatch) -> None:
    """keyrings.alt is installed, but with no env and no config the answer is `none`."""
    monkeypatch.delenv("PYTHON_KEYRING_BACKEND")
    found = detect.probe(SERVICE, USER)
    assert found.state.status == "none", found.state
    assert not found.state.usable
    assert found.state.backend == "keyring.backends.fail.Keyring"


def test_keyringrc_choice_of_an_admin_is_honoured(
    monkeypatch: pytest.MonkeyPatch, isolated_home: Path
) -> None:
    monkeypatch.delenv("PYTHON_KEYRING_BACKEND")
    rc = isolated_home / "config" / "python_keyring" / "keyringrc.cfg"
    rc.parent.mkdir(parents=True)
    rc.write_text("[backend]\ndefault-keyring=keyring.backends.null.Keyring\n")
    assert detect.probe(SERVICE, USER).state.status == "disabled"
    rc.write_text("[backend]\ndefault-keyring=keyrings.alt.file.PlaintextKeyring\n")
    assert detect.probe(SERVICE, USER).state.status == "insecure"


@pytest.mark.parametrize(
    ("backend", "status"),
    [
        ("keyring.backends.fail.Keyring", "none"),
        ("keyring.backends.null.Keyring", "disabled"),
        ("no_such_module.Keyring", "error"),
        ("keyrings.alt.file.EncryptedKeyring", "error"),
        (backends.name(backends.PromptingKeyring), "refused"),
        (backends.name(backends.LockedKeyring), "locked"),
    ],
)
def test_each_unusable_case_is_named(
    monkeypatch: pytest.MonkeyPatch, backend: str, status: str
) -> None:
    _use(monkeypatch, backend)
    state = detect.probe(SERVICE, USER).state
    assert state.status == status
    assert not state.usable


def test_bad_backend_name_gives_the_exception_type_not_a_crash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _use(monkeypatch, "no_such_module.Keyring")
    state = detect.probe(SERVICE, USER).state
    assert "ModuleNotFoundError" in state.detail


def test_unresponsive_keyring_times_out_without_waiting_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _use(monkeypatch, backends.name(backends.SlowKeyring))
    backends.slow_answer.clear()
    try:
        state = detect.probe(SERVICE, USER, limit=0.3).state
        assert state.status == "timeout"
        assert not backends.slow_finished.is_set(), "returned only after the keyring answered"
    finally:
        backends.slow_answer.set()  # the hung keyring answers now, after the probe gave up


async def test_app_side_probe_times_out_and_the_loop_keeps_running(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _use(monkeypatch, backends.name(backends.SlowKeyring))
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    backends.slow_answer.clear()
    try:
        ticker = asyncio.create_task(tick())
        found = await detect.aprobe(SERVICE, USER, limit=0.3)
        ticker.cancel()
        assert found.state.status == "timeout"
        # A blocked loop would not tick at all before the probe returned.
        assert ticks >= 2, "the event loop was blocked while the keyring hung"
        assert not backends.slow_finished.is_set()
    finally:
        backends.slow_answer.set()


def test_backend_is_initialised_once_per_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    first = detect.load_backend()
    assert detect.load_backend() is first
    _use(monkeypatch, "keyring.backends.null.Keyring")
    assert detect.load_backend() is not first


def test_probe_reads_and_does_not_write(isolated_home: Path) -> None:
    detect.probe(SERVICE, USER)
    assert not list(isolated_home.rglob("keyring_pass.cfg"))


def test_keyring_core_still_offers_the_limit_we_rely_on() -> None:
    """keyring>=25,<26: init_backend(limit=…) and recommended live in keyring.core."""
    import keyring.core
    from keyrings.alt.file import PlaintextKeyring

    assert callable(keyring.core.init_backend)
    assert keyring.core.recommended(PlaintextKeyring()) is False
