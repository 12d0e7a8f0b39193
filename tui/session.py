"""Session: who the app talks to (profile, environment, client) for one run."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from tui.config.paths import config_file
from tui.config.paths import data_dir as default_data_dir
from tui.config.plain import DEFAULT_THEME, DEMO_PROFILE, ScannerKeys
from tui.demo_profile import demo_profile
from tui.domain.locations import parse_location_type, parse_package
from tui.drafts import DraftStore
from tui.workspace import draft_folder

if TYPE_CHECKING:
    import httpx

    from tui.api.client import FreightClient
    from tui.api.options import ClientOptions
    from tui.api.secret import Secret
    from tui.booking import BookingEngine
    from tui.config.settings import AppConfig, Location, Profile
    from tui.store.core import Store
    from tui.store.ledger import StoreLedger

EnvironmentWord = Literal["DEMO", "SANDBOX", "PRODUCTION"]
"""The environment as the header and confirmations say it (a profile's environment, or DEMO)."""

ENV_WORDS: dict[str, EnvironmentWord] = {
    "demo": "DEMO",
    "sandbox": "SANDBOX",
    "production": "PRODUCTION",
}
"""From a profile's (or resolved target's) environment to the word shown."""

# A connection is: base URL plus token, available maybe only later (the demo sandbox starts
# after the first frame).
Connect = Callable[[], Awaitable[tuple[str, "str | Secret"]]]


STEP_ASIDE_LIMIT = 1.0
"""Seconds at most that one step of start-up work in the background waits for keys."""


class OriginSketch(NamedTuple):
    """The default origin as a new quote starts from it."""

    postal_code: str
    location_type: str
    accessorials: tuple[str, ...] = ()
    """Its usual accessorials, by name."""


class SessionSketch(NamedTuple):
    """The profile and config as far as the first frame needs them, and how to build the
    typed ones later.

    Building the typed profile and config (pydantic) costs more than the first frame of a
    bare app; the demo shows its first screen from this sketch and builds them after it.
    """

    name: str
    """The profile's name, shown in the header (drafts are kept under it too)."""
    origin: OriginSketch | None
    """The default origin; None when there is none."""
    build: Callable[[], tuple[Profile, AppConfig]]
    """The typed profile and config; raises ConfigError when the config file does not check."""
    theme: str = DEFAULT_THEME
    """The config's theme."""
    keymap: Mapping[str, str] = MappingProxyType({})
    """The config's ``[keymap]``: keys by binding id."""
    scanner: ScannerKeys | None = None
    """The config's ``[scanner]`` keys; None without a prefix."""


class Session:
    """Holds the profile, the environment word and the one long-lived FreightClient.

    It is the one owner of the profile: `change_profile` and `switch_profile` are the only
    ways it changes, each writes through to where it is kept and tells the listeners.
    """

    def __init__(
        self,
        *,
        environment: EnvironmentWord,
        profile: Profile | SessionSketch,
        config: AppConfig | None,
        data_dir: Path,
        connect: Connect | None,
        config_path: Path | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._environment: EnvironmentWord = environment
        self._sketch = profile if isinstance(profile, SessionSketch) else None
        self._profile = None if isinstance(profile, SessionSketch) else profile
        self._config = config
        if self._sketch is None and config is None:
            raise ValueError("a typed profile comes with its config")
        self.data_dir = data_dir
        self.config_path = config_path
        self._connect = connect
        self._transport = transport
        self._client: FreightClient | None = None
        self._client_lock = asyncio.Lock()
        self.closers: list[Callable[[], None]] = []
        self.after_first_frame: list[Callable[[], None]] = []
        self.profile_listeners: list[Callable[[], None]] = []
        """Called after the profile, environment or config changed (the app's reactive)."""
        self._ledgers: dict[str, StoreLedger] = {}
        self._store: Store | None = None
        self._store_lock = threading.Lock()
        self.addresses: list[Location] | None = None
        """The active profile's address book as last read from the store (None: not yet);
        what a screen shows at once, before its worker reads the store again."""
        self.credentials_connector: object | None = None
        """What found this session's credentials (`tui.credentials.session` sets and reads it)."""
        self.keys_quiet = threading.Event()
        """Set while the app has no key to act on (the app clears it as keys come in)."""
        self.keys_quiet.set()

    def step_aside(self) -> None:
        """Between steps of start-up work in a background thread (the demo's sandbox, module
        loading): wait while the app acts on keys, at most `STEP_ASIDE_LIMIT`, so a key pressed
        as the first frame shows has the CPU (Python runs one thread at a time)."""
        self.keys_quiet.wait(STEP_ASIDE_LIMIT)

    # -- the profile and its owner ----------------------------------------------------------

    def settle(self) -> None:
        """Build the typed profile and config if the session started from a sketch (the app
        calls this after its first frame). Raises ConfigError; later uses raise it again."""
        if self._sketch is not None:
            self._profile, self._config = self._sketch.build()
            self._sketch = None

    def _settled(self) -> tuple[Profile, AppConfig]:
        """The typed profile and config, built first if need be (see `settle`)."""
        self.settle()
        assert self._profile is not None
        assert self._config is not None
        return self._profile, self._config

    @property
    def profile(self) -> Profile:
        """The active profile (read only: change it with `change_profile`)."""
        return self._settled()[0]

    @property
    def environment(self) -> EnvironmentWord:
        """The word shown in the header: DEMO, SANDBOX or PRODUCTION."""
        return self._environment

    @property
    def config(self) -> AppConfig:
        """The config file's contents as last read or written."""
        return self._settled()[1]

    @property
    def profile_name(self) -> str:
        """The active profile's name, shown in the header (known before the typed profile)."""
        return self._sketch.name if self._sketch is not None else self.profile.name

    @property
    def theme(self) -> str:
        """The config's theme (known before the typed config)."""
        return self._sketch.theme if self._sketch is not None else self.config.theme

    @property
    def keymap(self) -> dict[str, str]:
        """The config's ``[keymap]``, keys by binding id (known before the typed config)."""
        return dict(self._sketch.keymap if self._sketch is not None else self.config.keymap)

    @property
    def scanner(self) -> ScannerKeys | None:
        """The barcode scanner's prefix and suffix keys (known before the typed config);
        None when no prefix is set."""
        return self._sketch.scanner if self._sketch is not None else self.config.scanner.keys

    def origin_sketch(self) -> OriginSketch | None:
        """The default origin as a new quote starts from it (known before the typed profile);
        None when the profile has none."""
        if self._sketch is not None:
            return self._sketch.origin
        origin = self.profile.default_origin
        if origin is None:
            return None
        kind = str(origin.location_type)
        return OriginSketch(origin.postal_code, kind, tuple(origin.accessorials))

    @property
    def is_demo(self) -> bool:
        """True on the built-in demo (its edits are kept in the data dir, not the config)."""

        return self.profile_name == DEMO_PROFILE  # reserved: no config profile has it

    @property
    def drafts(self) -> DraftStore:
        """The active profile's drafts (one profile never sees another's)."""
        key = re.sub(r"[^a-z0-9_.-]", "_", self.profile_name.lower()) or "_"

        return DraftStore(draft_folder(self.data_dir / "drafts" / key))

    def booking_engine(self, client: FreightClient) -> BookingEngine:
        """The booking engine of this profile: bookings through `client`, in this data dir's
        booking ledger."""
        from tui.booking import BookingEngine

        return BookingEngine(client, self.ledger(), self.profile_name)

    def store(self) -> Store:
        """The one store of this session, opened once (SQLite in the data dir, or the
        database ``[store] url`` of this session's config names; ``FREIGHT_STORE_URL``
        wins) and closed with the session. Blocking: call it from a worker. Raises
        StoreError (an OSError)."""
        with self._store_lock:
            if self._store is None:
                from tui.store import open_store, store_url

                config = self.config
                self._store = open_store(self.data_dir, store_url(config), config=config)
                self.closers.append(self._close_store)
            return self._store

    def has_store(self) -> bool:
        """A store is there to read without making one: a database is configured, or the
        SQLite file is in the data dir. Blocking (reads the config)."""
        from tui.store import store_url
        from tui.store.sqlite import FILE_NAME

        return (
            self._store is not None
            or bool(store_url(self.config))
            or (self.data_dir / FILE_NAME).exists()
        )

    def ledger(self) -> StoreLedger:
        """The booking ledger of this profile's environment in the session's store. Raises
        StoreError (an OSError)."""
        from tui.store import ledger_environment, station_name
        from tui.store.ledger import StoreLedger

        environment = ledger_environment(self.profile_name, self._environment)
        kept = self._ledgers.get(environment)
        if kept is None:
            kept = self._ledgers[environment] = StoreLedger(
                self.store(), station_name(), environment
            )
        return kept

    def booked_shipments(self) -> dict[str, tuple[str, str | None]]:
        """Shipment id -> (Freight's booking reference, the batch's order number or None) of
        every booking of this profile in the store that has a shipment; none when the store
        cannot be read (a listing is the service's, the store only adds). Blocking: call it
        from a worker."""
        try:
            return self.ledger().booked_shipments(self.profile_name)
        except OSError:  # StoreError
            return {}

    def address_book(self) -> list[Location]:
        """The active profile's address book as the store holds it now (shared by the
        stations on one store; the config's entries taken in once). Blocking: call it from a
        worker. Raises StoreError (an OSError)."""
        from tui.store.named import address_book

        profile = self.profile
        book = address_book(self.ledger().store, self.data_dir, profile)
        if self.profile.name == profile.name:  # not another's, switched to meanwhile
            self.addresses = book
        return book

    def save_address(self, entry: Location, replacing: Sequence[Location] = ()) -> list[Location]:
        """Keep ``entry`` in the active profile's address book in the store, in place of
        ``replacing``; the book as it is then. Blocking: call it from a worker. Raises
        StoreError (an OSError)."""
        from tui.store.named import save_address

        save_address(self.ledger().store, self.profile.name, entry, replacing)
        return self.address_book()

    def _close_store(self) -> None:
        with self._store_lock:
            store, self._store = self._store, None
            self._ledgers.clear()
        if store is not None:
            store.close()

    def change_profile(self, **fields: Any) -> Profile:
        """Change fields of the active profile (item_templates, default_origin…; the address
        book is in the store: ``save_address``) and write them through: the demo's to the
        data dir, any other to the config file.

        The change holds for this run even when writing fails (OSError is raised then).
        """
        profile = self._profile = self.profile.model_copy(update=fields)
        self._tell()
        if self.is_demo:
            from tui.demo_profile import save_demo_edits

            save_demo_edits(self.data_dir, profile)
            return profile
        known = self.config.profiles.get(profile.name)
        # The config's own profile gets only the changed fields: a --base-url for this run
        # is not written over the configured one.
        stored = profile if known is None else known.model_copy(update=fields)
        self._save_config(self.config.with_profile(stored))
        return profile

    def change_settings(self, **fields: Any) -> Path:
        """Change settings of the whole config (``theme``…) and write it; returns the file.

        The change holds for this run even when writing fails (OSError is raised then).
        """

        config = self._config = self.config.model_copy(update=fields)
        self._save_config(config)
        return self.config_path or config_file()

    def switch_profile(
        self,
        profile: Profile,
        environment: EnvironmentWord,
        connect: Connect | None,
        *,
        save: bool = False,
    ) -> None:
        """Use another profile (after sign-in, or the demo); ``save`` adds it to the config.

        Raises OSError when the config could not be written (the switch holds).
        """
        self.settle()  # the config is kept, and written when ``save``
        if profile.name != self.profile_name:
            self.addresses = None  # another profile's book: read when first needed
        self._profile = profile
        self._environment = environment
        if connect is not None:
            self.set_connection(connect)
        self._tell()
        if save and self.config.profiles.get(profile.name) != profile:
            self._save_config(self.config.with_profile(profile))

    def _save_config(self, config: AppConfig) -> None:
        from tui.config.settings import save_config

        self._config = config
        save_config(config, self.config_path)

    def _tell(self) -> None:
        for listener in list(self.profile_listeners):
            listener()

    # -- the connection ---------------------------------------------------------------------

    @property
    def has_connection(self) -> bool:
        """False until credentials are known (the sign-in screen sets them)."""
        return self._connect is not None

    def set_connection(self, connect: Connect) -> None:
        """Use new credentials from now on (after sign-in); the old client is dropped."""
        self._connect = connect
        old, self._client = self._client, None
        if old is not None:
            asyncio.get_running_loop().create_task(old.aclose())

    async def client(self) -> FreightClient:
        """Return the one client, creating it on first use (after the sandbox is up)."""
        if self._client is not None:
            return self._client
        async with self._client_lock:
            if self._client is None:
                if self._connect is None:
                    from tui.api.errors import AuthenticationError

                    raise AuthenticationError(
                        status=401,
                        name="UNAUTHORIZED",
                        request_id=None,
                        message="Not signed in: enter a client ID and secret.",
                    )
                base_url, token = await self._connect()
                from tui.api.client import FreightClient

                self._client = FreightClient(
                    base_url, token, transport=self._transport, options=self._client_options()
                )
            return self._client

    async def batch_client(self) -> FreightClient:
        """A client of its own for a batch (close it after): it waits out no 429 itself, the
        batch's one pace does that for all of its requests."""

        from tui.api.client import FreightClient

        await self.client()  # the same errors as the one client when not signed in
        assert self._connect is not None
        base_url, token = await self._connect()
        options = self._client_options()
        options = replace(  # a 429 goes to the batch's pace, not waited for here
            options, retry=replace(options.retry, rate_attempts=1, retry_after_cap=0.0)
        )
        return FreightClient(base_url, token, transport=self._transport, options=options)

    def _client_options(self) -> ClientOptions:
        """Client settings for the "not shown" parts of the interface, from the profile."""
        return client_options_for(self.profile)

    async def aclose(self) -> None:
        """Close the client and stop what this session started (the demo sandbox)."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None
        while self.closers:
            self.closers.pop()()

    @classmethod
    def for_testing(
        cls,
        base_url: str,
        token: str,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        environment: EnvironmentWord = "DEMO",
        config: AppConfig | None = None,
        data_dir: Path | None = None,
    ) -> Session:
        """A session on a given server, for tests (data in the XDG data dir of the test)."""
        from tui.config.settings import AppConfig

        config = config or AppConfig()
        directory = data_dir or default_data_dir()
        profile = demo_profile(base_url, directory)

        async def connect() -> tuple[str, str]:
            return base_url, token

        return cls(
            environment=environment,
            profile=profile,
            config=config,
            data_dir=directory,
            connect=connect,
            transport=transport,
        )


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def client_options_for(profile: Profile) -> ClientOptions:
    """The client's options from a profile: its ``[wire]`` table, search parameter names and
    booking aliases (``search_params`` and ``booking_aliases`` may also sit in ``[wire]``)."""

    from tui.api.options import ClientOptions
    from tui.api.wire import ChangePaths, ShipmentParams, WireFormat

    table = profile.wire
    names = {**profile.search_params, **table.search_params}
    params = ShipmentParams(
        text=names.get("search", "search"),
        status=names.get("status", "status"),
        mode=names.get("mode", "mode"),
        pickup_date_from=names.get("pickupDateFrom", "pickupDateFrom"),
        pickup_date_to=names.get("pickupDateTo", "pickupDateTo"),
        continuation_token=names.get("continuationToken", "continuationToken"),
        page_size=names.get("limit", "limit"),
    )
    wire = WireFormat(shipment_params=params, changes=ChangePaths(**table.change_paths))
    changes: dict[str, object] = {}
    if table.location_types:
        locations = {parse_location_type(k): v for k, v in table.location_types.items()}
        changes["location_types"] = {**wire.location_types, **locations}
    if table.time_format:
        changes["time_format"] = table.time_format
    if table.item_count:
        count = table.item_count
        changes["item_count"] = (count,) if isinstance(count, str) else tuple(count)
    if table.package_labels:
        labels = {parse_package(k): v for k, v in table.package_labels.items()}
        changes["package_labels"] = {**wire.package_labels, **labels}
    if table.countries:
        changes["countries"] = {**wire.countries, **table.countries}
    aliases = {**profile.booking_aliases, **table.booking_aliases}
    if aliases:
        extra = {_snake(field): tuple(names) for field, names in aliases.items()}

        def merged(defaults: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
            return {key: extra.get(key, ()) + tuple(value) for key, value in defaults.items()}

        changes["booking_aliases"] = merged(wire.booking_aliases)
        changes["parcel_aliases"] = merged(wire.parcel_aliases)
    return ClientOptions(wire=replace(wire, **changes), **_limits(profile))  # type: ignore[arg-type]


def _limits(profile: Profile) -> dict[str, float | int]:
    """The ``ClientOptions`` a profile's [limits] table changes."""
    table = profile.limits
    mib = 1024 * 1024
    chosen: dict[str, float | int | None] = {
        "read_timeout": table.read_timeout,
        "request_deadline": table.deadline,
        "booking_deadline": table.booking_deadline,
        "document_deadline": table.document_deadline,
        "max_answer_bytes": int(table.max_answer_mb * mib) if table.max_answer_mb else None,
        "max_document_bytes": int(table.max_document_mb * mib) if table.max_document_mb else None,
    }
    return {key: value for key, value in chosen.items() if value is not None}
