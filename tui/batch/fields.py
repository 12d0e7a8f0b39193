"""The fields of an order line, and the mapping of a file's columns onto them.

A mapping says which column holds each field, which fields are a constant (``--set
package=pallet``), whether a weight is per unit or the line's total, and the units used when
the file has no unit column. It is guessed from the headers (English and the usual French,
German and Spanish spellings; a unit named in a header, ``Weight (kg)``, is taken), shown for
review, and saved under a name to be reused when the same headers come back.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from tui.batch.source import header_key

WeightPer = Literal["unit", "line"]
WeightUnit = Literal["lb", "kg", "g", "oz", "t"]
WEIGHT_UNITS: Final[tuple[WeightUnit, ...]] = ("lb", "kg", "g", "oz", "t")
DimUnit = Literal["in", "cm", "mm"]
Level = Literal["order", "line"]


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One field an order file can fill."""

    name: str
    level: Level
    """``order``: one value per order (blank on later rows takes the first row's);
    ``line``: one per line of freight."""
    help: str


FIELDS: Final[tuple[FieldSpec, ...]] = (
    FieldSpec("order", "order", "order number; rows with the same one are one shipment"),
    FieldSpec("ship_date", "order", "pickup date (past or not a business day: the next one)"),
    FieldSpec("origin_zip", "order", "ZIP of the warehouse it leaves from (in the address book)"),
    FieldSpec("dest_company", "order", "consignee company"),
    FieldSpec(
        "dest_address",
        "order",
        "consignee street address (or the whole address in one cell, a line each: company, "
        "Attn, street, City ST ZIP, country)",
    ),
    FieldSpec("dest_city", "order", "consignee city"),
    FieldSpec("dest_state", "order", "consignee state or province (two letters)"),
    FieldSpec("dest_zip", "order", "consignee ZIP or postal code"),
    FieldSpec("dest_country", "order", "US or CA (default US)"),
    FieldSpec("dest_location", "order", "location type: business dock, residential…"),
    FieldSpec("contact", "order", "consignee contact name"),
    FieldSpec("phone", "order", "consignee contact phone"),
    FieldSpec("email", "order", "consignee contact email"),
    FieldSpec("quantity", "line", "handling units on the line (default 1)"),
    FieldSpec("package", "line", "handling unit type: pallet, crate, drum, box… (a UOM column)"),
    FieldSpec(
        "items",
        "line",
        "several items in one cell, each with its count: Pallet x1; Crate x2 (a line each)",
    ),
    FieldSpec("weight", "line", "weight, per unit or the line's total (see --weight-per)"),
    FieldSpec(
        "weight_unit", "line", "lb, kg, g, oz or t for each row (else the header's or --set)"
    ),
    FieldSpec("length", "line", "length of one unit"),
    FieldSpec("width", "line", "width of one unit"),
    FieldSpec("height", "line", "height of one unit"),
    FieldSpec("dims", "line", "LxWxH in one cell or anywhere in a text: 48x40x48, 120x100x120 cm"),
    FieldSpec("dim_unit", "line", "in or cm for each row (else the header's or --set)"),
    FieldSpec("class", "line", "NMFC freight class (blank: implied by density)"),
    FieldSpec("nmfc", "line", "NMFC item number, e.g. 156600 or 156600-03"),
    FieldSpec("description", "line", "what the freight is"),
    FieldSpec("hazmat_un", "line", "UN or NA number of hazardous freight (e.g. UN1203)"),
    FieldSpec("hazard_class", "line", "hazard class or division (e.g. 3, 2.1)"),
    FieldSpec("packing_group", "line", "packing group I, II or III"),
    FieldSpec("liftgate", "order", "liftgate at delivery: Y, yes, x, 1, true"),
    FieldSpec("appointment", "order", "delivery appointment: Y, yes, x, 1, true"),
    FieldSpec("inside", "order", "inside delivery: Y, yes, x, 1, true"),
    FieldSpec("po", "order", "customer PO (sent as the consignee's reference)"),
    FieldSpec("notes", "order", "notes; dimensions written in them are found (dims: 40x30x36)"),
    FieldSpec(
        "tags",
        "order",
        "tags; residential, liftgate, inside delivery, appointment, limited access are applied",
    ),
)
FIELD_NAMES: Final = tuple(spec.name for spec in FIELDS)
SPECS: Final = {spec.name: spec for spec in FIELDS}
ORDER_FIELDS: Final = frozenset(spec.name for spec in FIELDS if spec.level == "order")


def _words(text: str) -> tuple[str, ...]:
    """Lower-case ASCII words of a header: ``Poids (lb)`` -> ``poids``, ``lb``."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    plain = plain.replace("#", " no ").replace("ß", "ss")
    return tuple(re.findall(r"[a-z0-9]+", plain.lower()))


_SYNONYMS: Final[dict[str, tuple[str, ...]]] = {
    "order": (
        "order", "order no", "order number", "order id", "order ref", "so", "so no", "so number",
        "sales order", "document number", "document no", "doc number", "doc no",
        "transaction number", "tran id", "name", "order name", "auftrag", "auftragsnummer",
        "auftrag nr",
        "bestellung", "bestellnummer", "commande", "no commande", "numero de commande",
        "n commande", "pedido", "numero de pedido", "no pedido", "orden",
    ),
    "ship_date": (
        "ship date", "shipping date", "pickup date", "pick up date", "ship by", "date",
        "ship on", "versanddatum", "abholdatum", "versand", "date expedition",
        "date d expedition", "date enlevement", "fecha de envio", "fecha envio", "fecha",
    ),
    "origin_zip": (
        "ship from zip", "from zip", "origin zip", "origin postal code", "from postal code",
        "ship from postal code", "warehouse zip", "origin", "ship from", "warehouse",
        "abgangs plz", "plz absender", "absender plz", "versand plz", "cp depart",
        "code postal depart", "cp origine", "cp origen", "codigo postal origen",
    ),
    "dest_company": (
        "consignee", "company", "ship to company", "ship to name", "shipping company",
        "customer", "customer name", "recipient company", "dest company", "destination company",
        "empfanger", "firma", "kunde", "destinataire", "societe", "client", "raison sociale",
        "empresa", "cliente", "destinatario",
    ),
    "dest_address": (
        "address", "ship to address", "street", "address 1", "address line 1",
        "shipping address1", "shipping address 1", "shipping street", "dest address",
        "ship to", "shipping address", "address block",
        "strasse", "anschrift", "adresse", "rue", "direccion", "calle",
    ),
    "dest_city": (
        "city", "ship to city", "shipping city", "dest city", "town", "ort", "stadt", "ville",
        "ciudad", "localidad",
    ),
    "dest_state": (
        "state", "province", "ship to state", "shipping province", "shipping state", "st",
        "dest state", "state province", "region", "bundesland", "etat", "estado", "provincia",
    ),
    "dest_zip": (
        "zip", "zip code", "zipcode", "postal code", "postcode", "ship to zip", "shipping zip",
        "dest zip", "destination zip", "plz", "postleitzahl", "code postal", "cp",
        "codigo postal",
    ),
    "dest_country": (
        "country", "ship to country", "shipping country", "dest country", "land", "pays",
        "pais",
    ),
    "dest_location": (
        "location type", "dest location type", "delivery location type", "dest type",
        "destination type", "address type", "site type", "delivery type", "location",
        "lieferort", "ortstyp", "type de lieu", "tipo de ubicacion",
    ),
    "contact": (
        "contact", "contact name", "attention", "attn", "recipient", "ship to contact",
        "shipping name", "ansprechpartner", "kontakt", "nom du contact", "contacto",
    ),
    "phone": (
        "phone", "telephone", "tel", "phone number", "contact phone", "ship to phone",
        "shipping phone", "telefon", "telefono",
    ),
    "email": ("email", "e mail", "mail", "contact email", "courriel", "correo"),
    "quantity": (
        "handling units", "units", "qty", "quantity", "pieces", "pcs", "count", "hu",
        "lineitem quantity", "menge", "anzahl", "packstucke", "quantite", "colis", "cantidad",
        "bultos",
    ),
    "package": (
        "unit type", "package", "package type", "packaging", "handling unit", "hu type",
        "handling unit type", "pkg", "uom", "unit of measure", "u m", "u o m", "verpackung",
        "packmittel", "emballage", "conditionnement",
        "embalaje",
    ),
    "weight": (
        "weight", "gross weight", "total weight", "line weight", "unit weight", "weight each",
        "gross wt", "net wt", "total wt", "unit wt", "net weight",
        "wt", "gewicht", "bruttogewicht", "poids", "poids brut", "peso", "peso bruto",
    ),
    "items": ("items", "order items", "line items", "products", "item list"),
    "weight_unit": (
        "weight unit", "weight uom", "unit of weight", "gewichtseinheit", "unite de poids",
    ),
    "length": ("length", "len", "l", "lange", "longueur", "largo", "longitud"),
    "width": ("width", "w", "breite", "largeur", "ancho"),
    "height": ("height", "h", "hohe", "hauteur", "alto", "altura"),
    "dims": (
        "dims", "dimensions", "dimension", "dim", "size", "l x w x h", "lxwxh", "abmessungen",
        "masse", "mabe", "medidas",
    ),
    "dim_unit": ("dim unit", "dimension unit", "dims unit", "unit of length", "length unit"),
    "class": ("class", "freight class", "nmfc class", "klasse", "frachtklasse", "classe", "clase"),
    "nmfc": ("nmfc", "nmfc item", "nmfc no", "nmfc number"),
    "description": (
        "description", "commodity", "item description", "product", "contents",
        "lineitem name", "item", "beschreibung", "ware", "inhalt", "designation",
        "marchandise", "descripcion", "mercancia",
    ),
    "hazmat_un": (
        "hazmat un", "un", "un number", "un no", "hazmat", "hazmat id", "un nummer",
        "numero onu", "onu",
    ),
    "hazard_class": (
        "hazard class", "hazmat class", "dot class", "gefahrklasse", "gefahrgutklasse",
        "classe de danger", "clase de peligro",
    ),
    "packing_group": (
        "packing group", "pg", "verpackungsgruppe", "groupe d emballage", "grupo de embalaje",
    ),
    "liftgate": (
        "liftgate", "lift gate", "liftgate delivery", "tail lift", "tailgate", "hebebuhne",
        "hayon", "plataforma elevadora",
    ),
    "appointment": (
        "appointment", "appt", "delivery appointment", "call for appointment",
        "arrival schedule", "termin", "rendez vous", "cita",
    ),
    "inside": (
        "inside delivery", "inside", "inside dlv", "inside del", "zustellung innen",
        "livraison interieure", "entrega interior",
    ),
    "po": (
        "customer po", "po", "po number", "purchase order", "cust po", "po no", "customer ref",
        "reference", "ref", "bestellnummer kunde", "kundenreferenz", "bon de commande",
        "orden de compra",
    ),
    "notes": (
        "notes", "note", "customer note", "customer notes", "order note",
        "customer provided note", "memo", "comments", "comment", "instructions",
        "delivery instructions",
        "remarks", "bemerkung", "bemerkungen", "hinweis", "remarques", "commentaires", "notas",
        "observaciones",
    ),
    "tags": ("tags", "order tags", "labels", "schlagworte", "etiquettes", "etiquetas"),
}  # fmt: skip

_WEIGHT_UNITS: Final[dict[str, WeightUnit]] = {
    "lb": "lb", "lbs": "lb", "pound": "lb", "pounds": "lb", "no": "lb",
    "kg": "kg", "kgs": "kg", "kilo": "kg", "kilos": "kg", "kilogram": "kg", "kilograms": "kg",
    "kilogramm": "kg", "g": "g", "gram": "g", "grams": "g", "gramm": "g", "gramme": "g",
    "grammes": "g", "oz": "oz", "ounce": "oz", "ounces": "oz", "t": "t", "tonne": "t",
    "tonnes": "t",
}  # fmt: skip
_DIM_UNITS: Final[dict[str, DimUnit]] = {
    "in": "in", "inch": "in", "inches": "in", "zoll": "in", "pouces": "in",
    "cm": "cm", "centimeters": "cm", "centimetres": "cm", "zentimeter": "cm", "mm": "mm",
}  # fmt: skip
_PER_UNIT_WORDS: Final = frozenset(
    {"unit", "each", "ea", "per", "piece", "stuck", "unitaire", "lineitem", "variant"}
)
"""Words of a weight's header that make it per unit (a storefront's ``Lineitem weight`` is
the weight of one of the line's items, as its ``Lineitem price`` is the price of one)."""
_PER_LINE_WORDS: Final = frozenset({"total", "line", "gesamt"})
_DIM_FIELDS: Final = ("length", "width", "height", "dims")


@dataclass(frozen=True)
class ColumnMapping:
    """Which column fills each field, the constants, and how weights and sizes are meant."""

    columns: Mapping[str, str] = field(default_factory=dict)
    """Field name -> header of the column that holds it."""
    constants: Mapping[str, str] = field(default_factory=dict)
    """Field name -> the value every row takes (wins over a column)."""
    weight_per: WeightPer = "line"
    weight_unit: WeightUnit = "lb"
    """The unit of weights when no ``weight_unit`` column says."""
    dim_unit: DimUnit = "in"
    """The unit of sizes when no ``dim_unit`` column (or a unit in the text) says."""
    name: str = ""
    """The name it is saved under."""
    headers: tuple[str, ...] = ()
    """The headers of the file it was made for (reused when the same headers come back)."""
    saved: bool = field(default=False, compare=False)
    """Read from the saved mappings (not guessed for this run)."""

    def column_of(self, field_name: str) -> str | None:
        """The header mapped to a field (None when the field is a constant or unmapped)."""
        if field_name in self.constants:
            return None
        return self.columns.get(field_name)

    def to_json(self) -> dict[str, Any]:
        """The mapping as saved."""
        return {
            "columns": dict(self.columns),
            "constants": dict(self.constants),
            "weight_per": self.weight_per,
            "weight_unit": self.weight_unit,
            "dim_unit": self.dim_unit,
            "headers": list(self.headers),
        }

    @classmethod
    def from_json(cls, name: str, data: Any) -> ColumnMapping | None:
        """A saved mapping, or None when it cannot be read (unknown fields are dropped)."""
        if not isinstance(data, dict):
            return None
        columns = data.get("columns", {})
        constants = data.get("constants", {})
        headers = data.get("headers", [])
        if not (
            isinstance(columns, dict) and isinstance(constants, dict) and isinstance(headers, list)
        ):
            return None
        per = data.get("weight_per")
        wunit = data.get("weight_unit")
        dunit = data.get("dim_unit")
        return cls(
            columns={k: v for k, v in columns.items() if k in SPECS and isinstance(v, str) and v},
            constants={k: v for k, v in constants.items() if k in SPECS and isinstance(v, str)},
            weight_per=per if per in ("unit", "line") else "line",
            weight_unit=wunit if wunit in WEIGHT_UNITS else "lb",
            dim_unit=dunit if dunit in ("in", "cm", "mm") else "in",
            name=name,
            headers=tuple(h for h in headers if isinstance(h, str)),
            saved=True,
        )

    def fits(self, headers: Sequence[str]) -> bool:
        """Whether every mapped column is among ``headers``."""
        keys = {header_key(h) for h in headers}
        return all(header_key(h) in keys for h in self.columns.values())

    def same_headers(self, headers: Sequence[str]) -> bool:
        """Whether it was made for a file with exactly these headers (case, spaces ignored)."""
        return [header_key(h) for h in self.headers] == [header_key(h) for h in headers]

    def describe(self, headers: Sequence[str]) -> list[tuple[str, str]]:
        """Each field and where it comes from, as the review shows it."""
        out: list[tuple[str, str]] = []
        for spec in FIELDS:
            if spec.name in self.constants:
                out.append((spec.name, f"= {self.constants[spec.name]}"))
            elif spec.name in self.columns:
                out.append((spec.name, self.columns[spec.name]))
        del headers
        return out

    def units_text(self) -> str:
        """``weight lb per line · sizes in``."""
        return f"weight {self.weight_unit} per {self.weight_per} · sizes {self.dim_unit}"


def unguessed(used: ColumnMapping, guessed: ColumnMapping) -> list[str]:
    """What ``used`` reads otherwise than ``guessed``, units first: ``weight unit kg, not lb``,
    ``weights per unit, not per line``, ``order Ref, not Order No``, ``package = pallet, not
    Unit Type``."""
    found: list[str] = []
    if used.weight_unit != guessed.weight_unit:
        found.append(f"weight unit {used.weight_unit}, not {guessed.weight_unit}")
    if used.weight_per != guessed.weight_per:
        found.append(f"weights per {used.weight_per}, not per {guessed.weight_per}")
    if used.dim_unit != guessed.dim_unit:
        found.append(f"sizes in {used.dim_unit}, not {guessed.dim_unit}")
    for spec in FIELDS:
        mine, theirs = _source(used, spec.name), _source(guessed, spec.name)
        if mine != theirs:
            found.append(f"{spec.name} {mine or 'unmapped'}, not {theirs or 'unmapped'}")
    return found


def _source(mapping: ColumnMapping, name: str) -> str:
    if name in mapping.constants:
        return f"= {mapping.constants[name]}"
    return mapping.columns.get(name, "")


def guess_mapping(headers: Sequence[str]) -> ColumnMapping:
    """The mapping the headers suggest: each field to at most one column and back.

    A header equal to a known spelling wins over one that merely contains its words; among
    those, the longer spelling wins (``Ship From Zip`` is the origin ZIP, not the consignee's).
    A unit in a header (``Weight Lbs``, ``Poids (kg)``, ``Length (cm)``) sets the unit;
    ``Unit Weight`` / ``Total Weight`` say whether weights are per unit or per line.
    """
    candidates: list[tuple[int, int, int, str, str]] = []
    for column, header in enumerate(headers):
        words = _words(header)
        bare = tuple(w for w in words if w not in _WEIGHT_UNITS and w not in _DIM_UNITS) or words
        for rank, spec in enumerate(FIELDS):
            for synonym in _SYNONYMS[spec.name]:
                syn = tuple(synonym.split())
                if bare == syn or words == syn:
                    candidates.append((2, len(syn), -rank, spec.name, header))
                elif (len(syn) > 1 and _contains(bare, syn)) or (len(syn) == 1 and syn[0] in bare):
                    if len(syn) == 1 and len(syn[0]) < 3:
                        continue  # "l", "w", "h", "st", "pg" only as the whole header
                    candidates.append((1, len(syn), -rank, spec.name, header))
        del column
    candidates.sort(reverse=True)
    columns: dict[str, str] = {}
    taken: set[str] = set()
    for _exact, _length, _rank, name, header in candidates:
        if name in columns or header_key(header) in taken:
            continue
        columns[name] = header
        taken.add(header_key(header))
    if "dims" in columns and all(f in columns for f in ("length", "width", "height")):
        del columns["dims"]
    if "payment" in _words(columns.get("po", "")):
        del columns["po"]  # a payment's reference is not the customer's PO
    _units_is_the_package(columns, headers)
    _street_beside_a_block(columns, headers)
    storefront = any(_words(h)[:1] == ("lineitem",) for h in headers)
    if storefront and _words(columns.get("dest_location", "")) == ("location",):
        del columns["dest_location"]  # a storefront's Location is the shop's own
    return _with_units(ColumnMapping(columns=columns, headers=tuple(headers)))


def _units_is_the_package(columns: dict[str, str], headers: Sequence[str]) -> None:
    """Beside a ``Quantity`` column, an ERP's ``Units`` is the unit of measure (``Pallet``),
    not the count: the count is the quantity's, the units the package's."""
    if _words(columns.get("quantity", "")) != ("units",):
        return
    count = next((h for h in headers if _words(h) in (("quantity",), ("qty",))), None)
    if count is None:
        return
    if "package" not in columns:
        columns["package"] = columns["quantity"]
    columns["quantity"] = count


_BLOCKS: Final = frozenset({("ship", "to"), ("shipping", "address"), ("address", "block")})
"""Headers of a column that may hold a whole address in one cell (an ERP's ``Ship To``)."""


def _street_beside_a_block(columns: dict[str, str], headers: Sequence[str]) -> None:
    """A ``Ship To`` beside a street column (``Address``) is the consignee's name, not the
    address: the street is the street column's."""
    taken = set(columns.values())
    if _words(columns.get("dest_address", "")) not in _BLOCKS:
        return
    streets = {tuple(s.split()) for s in _SYNONYMS["dest_address"]} - _BLOCKS
    street = next((h for h in headers if h not in taken and _words(h) in streets), None)
    if street is None:
        return
    block = columns["dest_address"]
    columns["dest_address"] = street
    if "dest_company" not in columns and _words(block) == ("ship", "to"):
        columns["dest_company"] = block


_KEY_FIELDS: Final = frozenset({"weight", "dest_zip", "quantity", "package", "dims"})


def looks_like_header(cells: Sequence[str]) -> bool:
    """Whether a row reads as an order file's header: at least three of its cells name fields,
    one of them the freight or where it goes (a summary's ``Total orders | 12`` does not)."""
    if len(cells) < 3 or len(cells) > 400:
        return False
    mapped = guess_mapping(cells).columns
    return len(mapped) >= 3 and bool(_KEY_FIELDS & mapped.keys())


def _contains(words: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    size = len(phrase)
    return any(words[i : i + size] == phrase for i in range(len(words) - size + 1))


def _with_units(mapping: ColumnMapping) -> ColumnMapping:
    """Units and per-unit weight as the mapped headers name them."""
    weight_unit: WeightUnit = mapping.weight_unit
    dim_unit: DimUnit = mapping.dim_unit
    weight_per: WeightPer = mapping.weight_per
    weight = mapping.columns.get("weight")
    if weight is not None:
        words = set(_words(weight))
        for word in words:
            if word in _WEIGHT_UNITS and not (word == "no" and "weight" not in words):
                weight_unit = _WEIGHT_UNITS[word]
        if words & _PER_UNIT_WORDS:
            weight_per = "unit"
        elif words & _PER_LINE_WORDS:
            weight_per = "line"
    for name in _DIM_FIELDS:
        header = mapping.columns.get(name)
        if header is not None:
            for word in _words(header):
                if word in _DIM_UNITS:
                    dim_unit = _DIM_UNITS[word]
    return replace(mapping, weight_unit=weight_unit, dim_unit=dim_unit, weight_per=weight_per)


class MappingError(ValueError):
    """A ``--map`` or ``--set`` that cannot be used; the message names it."""


def parse_assignments(texts: Iterable[str], flag: str) -> dict[str, str]:
    """``FIELD=VALUE`` pairs (``--map weight=Gross Wt``); unknown fields refused."""
    out: dict[str, str] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        name = name.strip().lower().replace("-", "_")
        if not sep or not name:
            raise MappingError(f"{flag} {text!r}: write it as FIELD=VALUE")
        if name not in SPECS:
            raise MappingError(
                f"{flag} {text!r}: no field {name!r} (freight batch fields lists them)"
            )
        out[name] = value.strip()
    return out


def with_overrides(
    mapping: ColumnMapping,
    headers: Sequence[str],
    *,
    columns: Mapping[str, str] | None = None,
    constants: Mapping[str, str] | None = None,
    weight_per: WeightPer | None = None,
) -> ColumnMapping:
    """The mapping with ``--map`` columns (a blank one unmaps), ``--set`` constants and
    ``--weight-per``. Raises MappingError for a column the file does not have."""
    by_key = {header_key(h): h for h in headers}
    mapped = dict(mapping.columns)
    fixed = dict(mapping.constants)
    for name, header in (columns or {}).items():
        fixed.pop(name, None)
        if not header:
            mapped.pop(name, None)
            continue
        found = by_key.get(header_key(header))
        if found is None:
            raise MappingError(
                f"--map {name}={header}: the file has no column {header!r} "
                f"(its columns: {', '.join(headers)})"
            )
        mapped[name] = found  # only this field: a column may fill two (name and package)
    units: dict[str, Any] = {}
    for name, value in (constants or {}).items():
        if name == "weight_unit" and value.lower() in _WEIGHT_UNITS:
            units["weight_unit"] = _WEIGHT_UNITS[value.lower()]
        elif name == "dim_unit" and value.lower() in _DIM_UNITS:
            units["dim_unit"] = _DIM_UNITS[value.lower()]
        elif name in ("weight_unit", "dim_unit"):
            raise MappingError(
                f"--set {name}={value}: use lb, kg, g, oz or t (weight), in or cm (sizes)"
            )
        else:
            fixed[name] = value
            mapped.pop(name, None)
    result = replace(mapping, columns=mapped, constants=fixed, headers=tuple(headers), **units)
    if columns:
        result = _with_units(replace(result, weight_per=mapping.weight_per))
        result = replace(result, **units)
    if weight_per is not None:
        result = replace(result, weight_per=weight_per)
    return result
