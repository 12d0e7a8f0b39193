"""What to tell the user when no usable keyring exists, and what they can do, safest first."""

from __future__ import annotations

from dataclasses import dataclass

from tui.credentials.detect import KeyringState, Status

HEADLINES: dict[Status, str] = {
    "none": "This session has no keyring service, so Freight cannot save your secret securely.",
    "locked": (
        "Your keyring is locked, and it cannot be unlocked from an SSH session "
        "(there is no screen for the unlock prompt)."
    ),
    "disabled": (
        "Keyring use is turned off for your account "
        "(keyring --disable, or PYTHON_KEYRING_BACKEND names the null backend)."
    ),
    "refused": (
        "The configured keyring asks for its own password at the terminal "
        "(keyrings.alt EncryptedKeyring); Freight does not use it."
    ),
    "timeout": (
        "The keyring did not answer in 5 s; it may be waiting for a password prompt "
        "on another display."
    ),
    "error": "The keyring could not be used (see the technical detail).",
    "insecure": (
        "The configured keyring backend is not an OS keyring: secrets saved there are not "
        "encrypted (chosen through PYTHON_KEYRING_BACKEND or keyringrc.cfg)."
    ),
    "ok": "The OS keyring is available.",
}

ENV_EXAMPLE = """\
export FREIGHT_CLIENT_ID=your-client-id
read -rs -p 'Client secret: ' FREIGHT_CLIENT_SECRET; echo
export FREIGHT_CLIENT_SECRET
freight"""

SSH_KEYRING_RECIPE = """\
# needs the gnome-keyring and dbus packages; redo it in every SSH login
dbus-run-session -- bash
read -rs -p 'Keyring password: ' pw; echo
printf '%s' "$pw" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
unset pw
freight login"""


@dataclass(frozen=True)
class Offer:
    """One way forward."""

    key: str
    """Stable id: session, env, ssh, file."""
    title: str
    body: str


OFFERS = (
    Offer(
        "session",
        "Use for this session only",
        "Keep the secret in memory until you quit Freight. Nothing is saved; you sign in "
        "again next time.",
    ),
    Offer(
        "env",
        "Use environment variables",
        "Freight reads FREIGHT_CLIENT_ID and FREIGHT_CLIENT_SECRET (or FREIGHT_API_TOKEN) and "
        "never saves them. Type the secret without echo:\n" + ENV_EXAMPLE,
    ),
    Offer(
        "ssh",
        "Start a keyring for this SSH session",
        "A keyring daemon can run inside this login; it keeps your secrets encrypted in "
        "~/.local/share/keyrings and lasts until you log out:\n" + SSH_KEYRING_RECIPE,
    ),
    Offer(
        "file",
        "Save in a plain file (not secure)",
        "freight login --insecure-storage writes credentials.json (mode 0600) in the config "
        "folder. Anyone with your account or root can read it.",
    ),
)


def headline(state: KeyringState) -> str:
    """One sentence naming the case."""
    return HEADLINES[state.status]


def technical(state: KeyringState) -> str:
    """The folded-away detail: backend and exception."""
    parts = [f"state: {state.status}"]
    if state.backend:
        parts.append(f"backend: {state.backend}")
    if state.detail:
        parts.append(f"detail: {state.detail}")
    return "; ".join(parts)


def render_text(state: KeyringState) -> str:
    """The diagnosis and the offers as plain text for the command line."""
    lines = [headline(state), f"({technical(state)})", "", "What you can do, safest first:"]
    for number, offer in enumerate(OFFERS, start=1):
        title = offer.title
        if offer.key == "session":
            title += " (in the app: run freight and sign in)"
        lines.append(f"{number}. {title}")
        lines.extend(f"   {line}" for line in offer.body.splitlines())
    return "\n".join(lines)
