"""The typed config file: profiles, address book, item templates, printers; load and save."""

from __future__ import annotations

import re
from collections.abc import Mapping, MutableMapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal

import tomlkit
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import AoT, Table

from tui.atomic import masked, write_atomically
from tui.config import paths
from tui.config.plain import (
    DEFAULT_THEME,
    ConfigText,
    ScannerKeys,
    UnknownKeyError,
    check_keymap,
    flat_keymap,
    read_config_text,
    scanner_prefix_key,
)
from tui.config.plain import DEMO_PROFILE as DEMO_PROFILE  # re-exported: older imports
from tui.config.plain import ConfigError as ConfigError
from tui.config.tomlpos import key_lines, line_of
from tui.config.urls import BaseURLError, canonical_base_url
from tui.domain.accessorials import Accessorial, parse_accessorial
from tui.domain.freight_class import FREIGHT_CLASSES as NMFC_CLASSES
from tui.domain.hazmat import parse_hazard_class, parse_nmfc, parse_packing_group, parse_un_number
from tui.domain.locations import LocationType, parse_location_type

PLACEHOLDER_BASE_URL = "https://sandbox.example.invalid"
"""Base URL of the default ``sandbox`` profile until the user sets the real one."""

LocationKind = Annotated[LocationType, BeforeValidator(parse_location_type)]
"""Any spelling of the 13 location types (old ``distribution-center`` reads as business dock)."""
Environment = Literal["demo", "sandbox", "production"]
"""Where requests go: the local demo sandbox, a sandbox account, or production."""
AccountEnvironment = Literal["sandbox", "production"]
"""The environments a configured account can be in (``demo`` is the built-in local sandbox)."""
CredentialStore = Literal["auto", "keyring", "file", "memory"]
PackageLabel = Literal[
    "pallet", "skid", "crate", "box", "carton", "drum", "pail", "bundle", "roll", "reel",
    "coil", "tote", "bag", "bale", "cylinder", "tube", "loose", "gaylord", "envelope",
]  # fmt: skip
FREIGHT_CLASSES = frozenset(NMFC_CLASSES)
DEFAULT_SEARCH_PARAMS: dict[str, str] = {
    "search": "search",
    "status": "status",
    "mode": "mode",
    "pickupDateFrom": "pickupDateFrom",
    "pickupDateTo": "pickupDateTo",
    "continuationToken": "continuationToken",
    "limit": "limit",
}
"""Search query parameters of the service interface, each mapped to the server's own name."""

_HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


def _accessorial_names(values: list[str]) -> list[str]:
    """Each name as the service spells it (`delivery appointment` -> `arrival schedule`)."""
    names: list[str] = []
    for value in values:
        found = parse_accessorial(value)
        if found is None:
            known = ", ".join(a.label.lower() for a in Accessorial)
            raise ValueError(f"unknown accessorial {value!r}; known: {known}")
        if str(found) not in names:
            names.append(str(found))
    return names


def _blank_or(parse: Any) -> Any:
    """A check that leaves blank text alone and normalises the rest with `parse`."""

    def check(value: str) -> str:
        if not value.strip():
            return ""
        return str(parse(value))

    return check


def _check_hhmm(value: str) -> str:
    if not _HHMM.match(value):
        raise ValueError("must be a 24-hour time HH:MM, e.g. 08:00")
    return value


HHMM = Annotated[str, AfterValidator(_check_hhmm)]
Positive = Annotated[Decimal, Field(gt=0)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class Location(_Model):
    """A place freight is picked up from or delivered to."""

    label: str = ""
    """Short name to pick it by in the address book (e.g. "Main DC")."""
    company: str = ""
    """Company name as it goes on the bill of lading."""
    address: str = ""
    """Street address, first line."""
    address2: str = ""
    """Street address, second line (suite, dock door)."""
    city: str = ""
    """City."""
    state: str = ""
    """State or province code (e.g. "IL")."""
    postal_code: str
    """ZIP or postal code."""
    country: str = "US"
    """ISO country code."""
    contact_name: str = ""
    """Person to call about this location."""
    phone: str = ""
    """Contact phone number."""
    email: str = ""
    """Contact email address."""
    dock_open: HHMM | None = None
    """Dock opening time, HH:MM 24-hour, local time at the location."""
    dock_close: HHMM | None = None
    """Dock closing time, HH:MM 24-hour, local time at the location."""
    location_type: LocationKind = LocationType.BUSINESS_DOCK
    """Kind of location; decides accessorial charges such as liftgate or residential."""
    accessorials: Annotated[list[str], AfterValidator(_accessorial_names)] = Field(
        default_factory=list
    )
    """What this place usually needs, turned on when the quote picks it (e.g.
    ["liftgate delivery", "delivery appointment"]); those of the other end are ignored."""


class ItemTemplate(_Model):
    """A saved handling unit, to fill an item line with one key."""

    name: str
    """Name to pick it by (e.g. "Std pallet")."""
    quantity: Annotated[int, Field(ge=1)] = 1
    """Number of handling units."""
    package: PackageLabel = "pallet"
    """Kind of handling unit."""
    weight: Positive
    """Weight in pounds per handling unit."""
    length: Positive
    """Length in inches per unit."""
    width: Positive
    """Width in inches per unit."""
    height: Positive
    """Height in inches per unit."""
    freight_class: Decimal | None = None
    """NMFC freight class; none means the class implied by density."""
    description: str = ""
    """What the freight is, for the bill of lading."""
    nmfc: Annotated[str, AfterValidator(_blank_or(parse_nmfc))] = ""
    """NMFC item number (e.g. "156600-03")."""
    stackable: bool = True
    """False for freight nothing may be stacked on."""
    hazardous: bool = False
    """Hazardous material (then hazmat_id and hazard_class are needed)."""
    hazmat_id: Annotated[str, AfterValidator(_blank_or(parse_un_number))] = ""
    """UN number (e.g. "UN1203")."""
    hazard_class: Annotated[str, AfterValidator(_blank_or(parse_hazard_class))] = ""
    """Hazard class or division (e.g. "3", "2.1")."""
    packing_group: Annotated[str, AfterValidator(_blank_or(parse_packing_group))] = ""
    """Packing group I, II or III."""

    @model_validator(mode="after")
    def _hazmat_complete(self) -> ItemTemplate:
        if self.hazardous and not (self.hazmat_id and self.hazard_class):
            raise ValueError("a hazardous template needs hazmat_id and hazard_class")
        return self

    @field_validator("freight_class")
    @classmethod
    def _known_class(cls, value: Decimal | None) -> Decimal | None:
        if value is not None and value not in FREIGHT_CLASSES:
            raise ValueError("not an NMFC freight class (50 to 500)")
        return value


def _location_keys(value: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, name in value.items():
        try:
            out[parse_location_type(key)] = name
        except ValueError as exc:
            raise UnknownKeyError(key, str(exc)) from None
    return out


def _known_search_params(value: dict[str, str]) -> dict[str, str]:
    """`value`, when every key names a search parameter the client knows."""
    unknown = sorted(set(value) - set(DEFAULT_SEARCH_PARAMS))
    if unknown:
        known = ", ".join(DEFAULT_SEARCH_PARAMS)
        raise UnknownKeyError(unknown[0], f"unknown search parameter (known: {known})")
    return value


CHANGE_PATH_KEYS = (
    "cancel", "pickup_request", "pickup_change", "pickup_cancel", "pickup_date", "ready_time",
    "close_time",
)  # fmt: skip
"""What a profile's ``[wire] change_paths`` may name (``tui.api.wire.ChangePaths``)."""


class WireSettings(_Model):
    """How this profile's server spells request values; what is left out is the real service's
    spelling (README "Client library")."""

    location_types: Annotated[dict[str, str], AfterValidator(_location_keys)] = Field(
        default_factory=dict
    )
    """Name sent for a location type, e.g. "business dock" = "BUSINESS_DOCK"."""
    time_format: Literal["12h", "24h"] | None = None
    """Dock hours as 09:00 AM (12h, the default) or 09:00 (24h)."""
    item_count: str | list[str] | None = None
    """Name(s) an item's count of handling units is sent under: "quantity" alone (a server of
    the interface), "pieces" alone, or a list (default: ["quantity", "pieces"], both)."""
    package_labels: dict[str, str] = Field(default_factory=dict)
    """Label sent for a package kind, e.g. pallet = "PLT" (default: capitalised plural, Pallets)."""
    countries: dict[str, str] = Field(default_factory=dict)
    """Code sent for a country, e.g. US = "US" (default: USA and CAN)."""
    search_params: dict[str, str] = Field(default_factory=dict)
    """The server's names for the search query parameters (as the profile's search_params)."""
    booking_aliases: dict[str, list[str]] = Field(default_factory=dict)
    """More names a booking answer may use for a field (as the profile's booking_aliases)."""
    change_paths: dict[str, str] = Field(default_factory=dict)
    """Method and path of a change after booking, e.g. cancel = "POST shipments/{id}/void",
    and the pickup body's names (README "After the booking")."""

    @field_validator("search_params")
    @classmethod
    def _known_params(cls, value: dict[str, str]) -> dict[str, str]:
        return _known_search_params(value)

    @field_validator("change_paths")
    @classmethod
    def _known_changes(cls, value: dict[str, str]) -> dict[str, str]:
        out = {}
        for key, name in value.items():
            snake = re.sub(r"(?<!^)(?=[A-Z])", "_", key).lower()
            if snake not in CHANGE_PATH_KEYS:
                known = ", ".join(CHANGE_PATH_KEYS)
                raise UnknownKeyError(key, f"unknown change path (known: {known})")
            out[snake] = name
        return out


class LimitSettings(_Model):
    """How long this profile's server may take and how much it may send
    ([profiles.NAME.limits]); what is left out keeps Freight's default (README "Security")."""

    read_timeout: float | None = Field(default=None, gt=0, le=3600)
    """Seconds to wait for each read of an answer (default 20)."""
    deadline: float | None = Field(default=None, gt=0, le=3600)
    """Seconds for one whole answer of a search, a detail or rates (default: read_timeout)."""
    booking_deadline: float | None = Field(default=None, gt=0, le=3600)
    """Seconds for a booking's whole answer (default 60); past it the outcome is unknown."""
    document_deadline: float | None = Field(default=None, gt=0, le=3600)
    """Seconds for one document download (default 120)."""
    max_answer_mb: float | None = Field(default=None, gt=0, le=1024)
    """Largest API answer read, in MiB (default 10)."""
    max_document_mb: float | None = Field(default=None, gt=0, le=1024)
    """Largest document downloaded, in MiB (default 20)."""
    requests_per_second: float | None = Field(default=None, gt=0, le=1000)
    """The account's request budget a batch run keeps to, shared by every station on one store
    (default 20; ``--requests-per-second`` wins)."""
    max_retry_after: float | None = Field(default=None, gt=0, le=3600)
    """Longest Retry-After (seconds) a batch run waits for on a 429 (default 300); a longer
    one stops the run with the reason."""


class Profile(_Model):
    """One service account: where it is and how its server spells things."""

    name: str
    """Profile name; in the file it is the table name ([profiles.NAME])."""
    base_url: str
    """Service base URL, e.g. https://api.example.com."""
    environment: AccountEnvironment
    """"sandbox" or "production": shown in the header and on every booking confirmation."""
    search_params: dict[str, str] = Field(default_factory=lambda: dict(DEFAULT_SEARCH_PARAMS))
    """The server's names for the GET /shipments query parameters (missing ones: default)."""
    booking_aliases: dict[str, list[str]] = Field(default_factory=dict)
    """Other names the booking response may use for a field, e.g. proNumber = ["pro"]."""
    wire: WireSettings = Field(default_factory=WireSettings)
    """How the server spells request values ([profiles.NAME.wire]); empty: the real service's."""
    limits: LimitSettings = Field(default_factory=LimitSettings)
    """Deadlines and size caps for this server ([profiles.NAME.limits]); empty: Freight's."""
    default_origin: Location | None = None
    """Where shipments usually leave from."""
    address_book: list[Location] = Field(default_factory=list)
    """Saved addresses."""
    item_templates: list[ItemTemplate] = Field(default_factory=list)
    """Saved handling units."""
    emergency_name: str = ""
    """24-hour emergency contact for hazardous freight (name), put on batch bookings."""
    emergency_phone: str = ""
    """24-hour emergency contact's phone (e.g. 800-555-0100)."""

    @field_validator("base_url")
    @classmethod
    def _absolute_url(cls, value: str) -> str:
        try:
            canonical_base_url(value)
        except BaseURLError as exc:
            raise ValueError(str(exc)) from None
        return value.strip()

    @field_validator("search_params")
    @classmethod
    def _known_params(cls, value: dict[str, str]) -> dict[str, str]:
        return {**DEFAULT_SEARCH_PARAMS, **_known_search_params(value)}

    @property
    def canonical_url(self) -> str:
        """The base URL in canonical form (the keyring entry is tied to it)."""
        return canonical_base_url(self.base_url)


class PrinterSettings(_Model):
    """Where paperwork is printed."""

    document_printer: str | None = None
    """CUPS printer for bills of lading and other full-page documents (none: save only)."""
    label_printer: str | None = None
    """CUPS printer for 4x6 labels (none: save only)."""
    label_format: Literal["zpl", "pdf"] = "zpl"
    """Label format sent to the label printer: ZPL for thermal printers, or PDF."""


def default_profiles() -> dict[str, Profile]:
    """The profiles of a fresh config: one ``sandbox`` profile whose URL is to be configured."""
    return {
        "sandbox": Profile(name="sandbox", base_url=PLACEHOLDER_BASE_URL, environment="sandbox")
    }


Keymap = Annotated[dict[str, str], BeforeValidator(flat_keymap), AfterValidator(check_keymap)]


class StoreSettings(_Model):
    """Where Freight keeps its durable state ([store])."""

    url: str = ""
    """Empty: SQLite in the data dir; ``postgresql://…``: a database shared by stations
    (``FREIGHT_STORE_URL`` wins over it)."""


class ScannerSettings(_Model):
    """What the barcode scanner sends around a code ([scanner]); docs "Keys", Scanners."""

    prefix: str = ""
    """The key the scanner sends before each code: a control character ("\\u001d"), a control
    key ("ctrl+]") or a function key ("f11"). Set, a scan is known by it wherever the focus
    is; empty, scans are told from typing by their pace, on the screens that open them."""
    suffix: Literal["enter", "tab"] = "enter"
    """The key the scanner sends after each code: "enter" or "tab"."""

    @field_validator("prefix")
    @classmethod
    def _prefix_key(cls, value: str) -> str:
        if value:
            scanner_prefix_key(value)  # kept as written: a save writes it back the same
        return value

    @property
    def keys(self) -> ScannerKeys | None:
        """The keys as the app reads them; None without a prefix."""
        return ScannerKeys(scanner_prefix_key(self.prefix), self.suffix) if self.prefix else None


class AppConfig(_Model):
    """The whole config file."""

    default_profile: str = "sandbox"
    """Profile used when neither --profile nor FREIGHT_PROFILE says otherwise ("demo" allowed)."""
    credential_store: CredentialStore = "auto"
    """Where secrets are kept: auto (keyring if usable, else this session only), keyring, file
    (plain credentials.json, mode 0600; not secure) or memory (never saved)."""
    profiles: dict[str, Profile] = Field(default_factory=default_profiles)
    """Service accounts by name ([profiles.NAME])."""
    printers: PrinterSettings = Field(default_factory=PrinterSettings)
    """Printers for documents and labels."""
    theme: str = DEFAULT_THEME
    """The app's colours: any built-in Textual theme (nord, gruvbox, textual-light…)."""
    store: StoreSettings = Field(default_factory=StoreSettings)
    """Where batches, the booking ledger and paperwork owed are kept ([store] url)."""
    keymap: Keymap = Field(default_factory=dict)
    """Keys by binding id ([keymap]), e.g. "quote.add_item" = "ctrl+n,f5"; F1 lists the ids."""
    scanner: ScannerSettings = Field(default_factory=ScannerSettings)
    """The barcode scanner's prefix and suffix ([scanner] prefix = "ctrl+]")."""

    @model_validator(mode="before")
    @classmethod
    def _names_from_keys(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get("profiles"), dict):
            return data
        profiles: dict[str, Any] = {}
        for key, value in data["profiles"].items():
            if isinstance(value, dict) and "name" not in value:
                value = {"name": key, **value}
            profiles[key] = value
        return {**data, "profiles": profiles}

    @model_validator(mode="after")
    def _consistent(self) -> AppConfig:
        for key, profile in self.profiles.items():
            if key == DEMO_PROFILE:
                raise ValueError(f'"{DEMO_PROFILE}" is reserved for the built-in demo')
            if profile.name != key:
                raise ValueError(f"profile {key!r} has name {profile.name!r}; they must match")
        if self.default_profile != DEMO_PROFILE and self.default_profile not in self.profiles:
            names = ", ".join([*self.profiles, DEMO_PROFILE])
            raise ValueError(f"default_profile {self.default_profile!r} is not one of: {names}")
        return self

    def with_profile(self, profile: Profile) -> AppConfig:
        """This config with ``profile`` added or replacing the one of its name."""
        return self.model_copy(update={"profiles": {**self.profiles, profile.name: profile}})


def load_config(path: Path | None = None) -> AppConfig:
    """Read the config file; a missing file gives the defaults. Raises ConfigError."""
    return typed_config(read_config_text(path))


def typed_config(read: ConfigText) -> AppConfig:
    """The typed config of a file already read (`read_config_text`). Raises ConfigError."""
    if read.text is None:
        return AppConfig()
    try:
        return AppConfig.model_validate(read.data)
    except ValidationError as exc:
        raise _config_error(read.file, read.text, exc) from None


def _config_error(file: Path, text: str, exc: ValidationError) -> ConfigError:
    """Turn the first validation error into a ConfigError that points at the key's line."""
    error = exc.errors(include_url=False, include_input=False)[0]
    loc = list(error["loc"])
    cause = error.get("ctx", {}).get("error")
    if isinstance(cause, UnknownKeyError):
        loc.append(cause.key)
    if loc and loc[0] == "profiles" and len(loc) > 2 and loc[2] == "name":
        loc = loc[:2]
    key = ".".join(str(part) if isinstance(part, str) else f"[{part}]" for part in loc)
    key = key.replace(".[", "[")
    if error["type"] == "extra_forbidden":
        message = "unknown key"
    elif error["type"] == "missing":
        message = "required key is missing"
    else:
        message = error["msg"].removeprefix("Value error, ")
    return ConfigError(file, message, key=key or None, line=_line(text, loc))


def _line(text: str, loc: Sequence[str | int]) -> int | None:
    """The line of ``loc``; a dotted part (a binding id) may also be written unquoted."""
    lines = key_lines(text)
    dotted = tuple(
        part for item in loc for part in (item.split(".") if isinstance(item, str) else [item])
    )
    return lines.get(dotted) or line_of(lines, loc)


def config_error_at(file: Path, key: Sequence[str], message: str) -> ConfigError:
    """A ConfigError for the key path ``key`` of ``file``, with the line it is on."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    return ConfigError(file, message, key=".".join(key), line=_line(text, key))


def _config_data(config: AppConfig, *, lean: bool) -> dict[str, Any]:
    """The config as TOML-ready data; ``lean`` leaves out values equal to their defaults."""
    data = config.model_dump(mode="python", exclude_none=True, exclude_defaults=lean)
    if lean and config.profiles == default_profiles():
        # A fresh config's placeholder profile is not written for it (saving a theme writes
        # the theme); a file that has it keeps it.
        data.pop("profiles", None)
        return data
    data["profiles"] = {
        key: profile.model_dump(
            mode="python", exclude_none=True, exclude_defaults=lean, exclude={"name"}
        )
        for key, profile in config.profiles.items()
    }
    return data


def config_to_toml(config: AppConfig, previous: str | None = None) -> str:
    """The TOML text of ``config`` (profile names become table names).

    With the ``previous`` text of the file, only what changed is rewritten: the user's
    comments, key order and explicitly written defaults stay as they were.
    """
    document = tomlkit.parse(previous) if previous else tomlkit.document()
    lean, full = _config_data(config, lean=True), _config_data(config, lean=False)
    written = document.get("keymap")
    if isinstance(written, Table) and _same_keymap(written, config.keymap):
        full["keymap"] = lean["keymap"] = written.unwrap()  # as typed: dotted keys, comments
    _merge(document, lean, full)
    return tomlkit.dumps(document)


def _same_keymap(table: Table, keymap: dict[str, str]) -> bool:
    """Whether the file's ``[keymap]`` table says what ``keymap`` says (however spelled)."""
    try:
        return check_keymap(flat_keymap(table.unwrap())) == keymap
    except (ValueError, AttributeError):
        return False


def _merge(
    table: MutableMapping[str, Any], lean: Mapping[str, Any], full: Mapping[str, Any]
) -> None:
    """Make ``table`` hold ``full``'s values, adding only keys of ``lean`` that it lacks."""
    for key in [key for key in table if key not in full]:
        del table[key]
    for key, value in full.items():
        if key in table:
            current = table[key]
            if isinstance(value, dict) and isinstance(current, MutableMapping):
                _merge(current, lean.get(key, {}), value)
            elif isinstance(current, AoT) and not value:
                del table[key]  # an empty array of tables is the default: no entry at all
            elif isinstance(current, AoT) and _all_tables(value):
                _merge_tables(current, lean.get(key, []), value)
            elif _plain(current) != _plain(value):
                table[key] = _toml(value)
        elif key in lean:
            table[key] = _toml(lean[key])


def _all_tables(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, dict) for item in value)


def _merge_tables(tables: AoT, lean: list[dict[str, Any]], full: list[dict[str, Any]]) -> None:
    """Merge an array of tables entry by entry (so each entry keeps its comments)."""
    while len(tables) > len(full):
        del tables[len(tables) - 1]
    for index, entry in enumerate(full):
        if index < len(tables):
            _merge(tables[index], lean[index] if index < len(lean) else {}, entry)
        else:
            _append_table(tables, _toml(lean[index] if index < len(lean) else entry))


def _append_table(tables: AoT, table: Table) -> None:
    """Append ``table``; the comments and blank lines that closed the array stay at its end."""
    if len(tables):
        body = tables[len(tables) - 1].value.body
        trailing: list[tuple[Any, Any]] = []
        while body and body[-1][0] is None:
            trailing.insert(0, body.pop())
        body.append((None, tomlkit.nl()))
        for key, item in trailing:
            table.value.body.append((key, item))
        if not trailing:
            table.add(tomlkit.nl())
    else:
        table.add(tomlkit.nl())
    tables.append(table)


def _plain(value: Any) -> Any:
    """A value as plain Python, Decimals as TOML would read them back, for comparison."""
    if hasattr(value, "unwrap"):
        value = value.unwrap()
    if isinstance(value, Decimal):
        return _number(value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def _toml(value: Any) -> Any:
    """A new TOML item for ``value``: tables for dicts, arrays of tables for lists of dicts."""
    if isinstance(value, Decimal):
        return _number(value)
    if isinstance(value, dict):
        table = tomlkit.table()
        for key, item in value.items():
            table[key] = _toml(item)
        return table
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        tables = AoT([])
        for item in value:
            entry: Table = _toml(item)
            entry.add(tomlkit.nl())
            tables.append(entry)
        return tables
    if isinstance(value, list):
        return [_toml(item) for item in value]
    return value


def save_config(config: AppConfig, path: Path | None = None) -> Path:
    """Write ``config`` atomically, keeping the file's comments and order; returns its path."""
    file = path if path is not None else paths.config_file()
    file.parent.mkdir(parents=True, exist_ok=True)
    try:
        previous: str | None = file.read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        previous = None
    try:
        text = config_to_toml(config, previous)
    except TOMLKitError:
        text = config_to_toml(config)
    write_atomically(file, text, mode=masked(0o644))
    return file
