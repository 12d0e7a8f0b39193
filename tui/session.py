"""Session: who the app talks to (profile, environment, client) for one run."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from tui.drafts import DraftStore

if TYPE_CHECKING:
    import httpx

    from tui.api.client import FreightClient
    from tui.api.options import ClientOptions
    from tui.api.secret import Secret
    from tui.config.settings import AppConfig, Profile

Environment = Literal["DEMO", "SANDBOX", "PRODUCTION"]

# A connection is: base URL plus token, available maybe only later (the demo sandbox starts
# after the first frame).
Connect = Callable[[], Awaitable[tuple[str, "str | Secret"]]]


class Session:
    """Holds the profile, the environment word and the one long-lived FreightClient."""

    def __init__(
        self,
        *,
        environment: Environment,
        profile: Profile,
        config: AppConfig,
        data_dir: Path,
        connect: Connect | None,
        config_path: Path | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.environment: Environment = environment
        self.profile = profile
        self.config = config
        self.data_dir = data_dir
        self.config_path = config_path
        self.drafts = DraftStore(data_dir / "drafts")
        self._connect = connect
        self._transport = transport
        self._client: FreightClient | None = None
        self._client_lock = asyncio.Lock()
        self.closers: list[Callable[[], None]] = []
        self.after_first_frame: list[Callable[[], None]] = []

    @property
    def profile_name(self) -> str:
        """The active profile's name, shown in the header."""
        return self.profile.name

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

    def _client_options(self) -> ClientOptions:
        """Client settings for the "not shown" parts of the interface, from the profile."""
        return client_options_for(self.profile)

    def save_config(self) -> None:
        """Write the config (after the address book or templates changed)."""
        from tui.config.settings import save_config

        save_config(self.config, self.config_path)

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
        environment: Environment = "DEMO",
        config: AppConfig | None = None,
        data_dir: Path | None = None,
    ) -> Session:
        """A session on a given server, for tests (data in the XDG data dir of the test)."""
        from tui.config.paths import data_dir as default_data_dir
        from tui.config.settings import AppConfig
        from tui.demo import demo_profile

        config = config or AppConfig()
        profile = config.profiles.get("demo") or demo_profile(base_url)

        async def connect() -> tuple[str, str]:
            return base_url, token

        return cls(
            environment=environment,
            profile=profile,
            config=config,
            data_dir=data_dir or default_data_dir(),
            connect=connect,
            transport=transport,
        )


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def client_options_for(profile: Profile) -> ClientOptions:
    """The client's options from a profile: its ``[wire]`` table, search parameter names and
    booking aliases (``search_params`` and ``booking_aliases`` may also sit in ``[wire]``)."""
    from dataclasses import replace

    from tui.api.options import ClientOptions
    from tui.api.wire import ShipmentParams, WireFormat
    from tui.domain.locations import parse_location_type, parse_package

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
    wire = WireFormat(shipment_params=params)
    changes: dict[str, object] = {}
    if table.location_types:
        locations = {parse_location_type(k): v for k, v in table.location_types.items()}
        changes["location_types"] = {**wire.location_types, **locations}
    if table.time_format:
        changes["time_format"] = table.time_format
    if table.item_count:
        changes["item_count"] = table.item_count
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
    return ClientOptions(wire=replace(wire, **changes))  # type: ignore[arg-type]
