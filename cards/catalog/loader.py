"""Read the catalog data files (``cards/data/*.json``), validate every entry and build the frozen ``Catalog``.

Why validate this much: the files are edited by hand (designers, translators) and the rules trust them
blindly. A bad file must stop the server at start-up with a message that names the file and the entry
(``field_players.json: F017: stars 7 outside 2..6``), never surface as a ``KeyError`` in the middle of a game.

Reading the files is the only I/O here; everything after ``_read`` is pure. No Django.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Mapping
from datetime import date
from functools import cache
from hashlib import blake2b
from pathlib import Path
from typing import Any, TypeVar

from cards.catalog.types import (
    MATCH_EFFECT_KINDS,
    MONEY_EFFECT_KINDS,
    Board,
    CardKind,
    Catalog,
    ClassRow,
    Color,
    Country,
    Effect,
    MatchCard,
    MoneyCard,
    PlayerCard,
    Square,
    SquareKind,
    Target,
)

T = TypeVar("T")

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

CLASSES_FILE = "classes.json"
COUNTRIES_FILE = "countries.json"
FIELD_FILE = "field_players.json"
KEEPERS_FILE = "keepers.json"
RIVALS_FILE = "rivals.json"
MATCH_FILE = "match_cards.json"
MONEY_FILE = "money_cards.json"
BOARD_FILE = "board.json"

# file -> the key of its list of entries (None: the board has no entry list)
FILES: dict[str, str | None] = {
    CLASSES_FILE: "classes",
    COUNTRIES_FILE: "countries",
    FIELD_FILE: "cards",
    KEEPERS_FILE: "cards",
    RIVALS_FILE: "cards",
    MATCH_FILE: "cards",
    MONEY_FILE: "cards",
    BOARD_FILE: None,
}

# Files whose entries are cards with an id that must be unique across the whole box.
CARD_FILES = (COUNTRIES_FILE, FIELD_FILE, KEEPERS_FILE, RIVALS_FILE, MATCH_FILE, MONEY_FILE)

# The rulebook's KLASSENTABEL, exactly (seed, back page; digest §1).
RULEBOOK_CLASSES: dict[int, ClassRow] = {
    row.klass: row
    for row in (
        ClassRow(7, 17, 700_000, 140_000, 16, 1, 5, 0),
        ClassRow(6, 16, 600_000, 120_000, 15, 1, 4, 0),
        ClassRow(5, 15, 500_000, 100_000, 14, 1, 3, 0),
        ClassRow(4, 14, 400_000, 80_000, 13, 1, 2, 0),
        ClassRow(3, 13, 300_000, 60_000, 12, 1, 1, 0),
    )
}
CLASS_FIELDS = (
    "selection",
    "entry_cost",
    "visit_fee",
    "field_dealt",
    "keepers_dealt",
    "field_returned",
    "keepers_returned",
)

# Counts printed in the box (digest §1).
COUNTRY_COUNT = 32
EUROPEAN_COUNT = 20
FIELD_COUNT = 103
KEEPER_COUNT = 33
RIVAL_COUNT = 22
MATCH_COUNT = 40
MONEY_COUNT = 22
COUNTRY_SQUARES = 16
FINALS_BOXES = 8

FIELD_STARS = (2, 6)
KEEPER_STARS = (3, 5)
RIVAL_STARS = (2, 6)
FIELD_POSITIONS = ("DF", "MF", "FW")

# Starting capital and its bills: 2×500k 4×200k 4×100k 3×50k 3×20k 2×10k 2×5k
# (seed, "VERDELING VAN HET GELD").
STARTING_CAPITAL = 2_440_000
RULEBOOK_BILLS: dict[int, int] = {
    500_000: 2,
    200_000: 4,
    100_000: 4,
    50_000: 3,
    20_000: 3,
    10_000: 2,
    5_000: 2,
}
MONEY_STEP = 5_000  # the smallest bill: every amount is a multiple of it

# What lies in card boxes 1..7 at set-up (seed, set-up passage; digest §1).
CARD_BOXES: dict[int, str] = {
    1: "field_blind",
    2: "match",
    3: "keeper_blind",
    4: "money",
    5: "field_open",
    6: "match_used",
    7: "keeper_open",
}

# Money effects: the parameter each kind needs, and which kinds are gains (green) or costs (red).
MONEY_PARAMS: dict[str, str] = {
    "bank_pays": "amount",
    "pay_bank": "amount",
    "pay_bonus": "amount",
    "collect_from_each": "amount",
    "pay_each": "amount",
    "pay_per_player": "amount",
    "bank_pays_per_star": "amount",
    "bonus_share": "percent",
    "goto": "square",
}
MONEY_GAINS = frozenset({"bank_pays", "collect_from_each", "bank_pays_per_star", "bonus_share"})
MONEY_COSTS = frozenset({"pay_bank", "pay_bonus", "pay_each", "pay_per_player"})
assert set(MONEY_PARAMS) == MONEY_EFFECT_KINDS, "MONEY_PARAMS must cover the money effect vocabulary"
assert MONEY_GAINS | MONEY_COSTS | {"goto"} == MONEY_EFFECT_KINDS

# The four match cards printed in the rulebook
# (seed, "TWEE VOORBEELDEN GEBRUIK MATCHKAARTEN", "MATCH OP MATCH"):
# Dutch name -> (colour, target or None when any, effect kind, stars delta or None).
SEED_MATCH_CARDS: dict[str, tuple[Color, Target | None, str, int | None]] = {
    "tackle": (Color.GREEN, Target.FIELD, "stars", 2),
    "blessure": (Color.RED, Target.FIELD, "stars", -1),
    "blinkt uit": (Color.GREEN, Target.FIELD, "stars", 1),
    "doelpunt afgekeurd": (Color.RED, None, "disallow_goal", None),
}

VERSION_RE = re.compile(r"[0-9]{4}\.[0-9]{1,3}")
COUNTRY_ID_RE = re.compile(r"[A-Z]{3}")
FLAG_RE = re.compile(r"[a-z]{2}(-[a-z]{2,3})?")
MAX_NAME = 80  # CatalogCard.name max_length


class CatalogError(ValueError):
    """The catalog data is not valid; the message names the file and, where there is one, the entry.

    ``code`` is stable (tests and the host console key on it); ``file``, ``entry`` and ``problem`` are the
    parts of the message.
    """

    def __init__(self, file: str, problem: str, *, entry: str | None = None, code: str = "invalid") -> None:
        self.file = file
        self.entry = entry
        self.problem = problem
        self.code = code
        super().__init__(f"{file}: {entry}: {problem}" if entry else f"{file}: {problem}")


# --------------------------------------------------------------------------------------------- reading


def _no_duplicate_keys(file: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in pairs:
            if key in obj:
                raise CatalogError(file, f"key '{key}' appears twice in one object", code="bad_json")
            obj[key] = value
        return obj

    return hook


def _read(data_dir: Path) -> dict[str, dict[str, Any]]:
    """Parse every data file (the only I/O of the loader)."""
    docs: dict[str, dict[str, Any]] = {}
    for file in FILES:
        path = data_dir / file
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CatalogError(file, f"file not found in {data_dir}", code="missing_file") from None
        except UnicodeDecodeError as exc:
            raise CatalogError(file, f"not UTF-8 text ({exc.reason})", code="bad_json") from None
        try:
            docs[file] = json.loads(text, object_pairs_hook=_no_duplicate_keys(file))
        except json.JSONDecodeError as exc:
            raise CatalogError(
                file, f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", code="bad_json"
            ) from None
    return docs


def load_catalog(data_dir: Path | None = None) -> Catalog:
    """Read and validate the data files in ``data_dir`` (default ``cards/data``) and build the catalog.

    Loading is idempotent: the same files always give an equal catalog.

    :raises CatalogError: the first problem found, naming the file and the entry.
    """
    return build_catalog(_read(Path(data_dir) if data_dir is not None else DATA_DIR))


@cache
def get_catalog() -> Catalog:
    """The real catalog (``cards/data``), loaded once per process: every game and match shares it."""
    return load_catalog()


# --------------------------------------------------------------------------------------------- checks


class _Doc:
    """One parsed file plus helpers that raise ``CatalogError`` naming this file and the entry."""

    def __init__(self, file: str, root: Any) -> None:
        self.file = file
        if not isinstance(root, dict):
            raise self.error("the top level must be a JSON object", code="bad_shape")
        self.root: dict[str, Any] = root
        version = root.get("version")
        if not isinstance(version, str) or not VERSION_RE.fullmatch(version):
            raise self.error(f"version must be a string like '2026.1', got {version!r}", code="bad_version")
        self.version = version

    def error(self, problem: str, entry: str | None = None, *, code: str = "invalid") -> CatalogError:
        return CatalogError(self.file, problem, entry=entry, code=code)

    def entries(self, key: str) -> list[dict[str, Any]]:
        """The list of entry objects under ``key``."""
        items = self.root.get(key)
        if not isinstance(items, list):
            raise self.error(f"'{key}' must be a list", code="bad_shape")
        for n, item in enumerate(items, start=1):
            if not isinstance(item, dict):
                raise self.error("entry is not a JSON object", f"#{n}", code="bad_shape")
        return items

    def fields(
        self, obj: Mapping[str, Any], entry: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> None:
        """Every required field present and no unknown field (a typo must not be silently ignored)."""
        for key in required:
            if key not in obj:
                raise self.error(f"missing field '{key}'", entry, code="bad_shape")
        for key in obj:
            if key not in required and key not in optional:
                raise self.error(f"unknown field '{key}'", entry, code="bad_shape")

    def text(self, obj: Mapping[str, Any], key: str, entry: str, *, max_length: int | None = None) -> str:
        value = obj.get(key)
        if not isinstance(value, str) or not value.strip():
            raise self.error(f"{key} must be a non-empty string", entry, code="bad_type")
        if value != value.strip():
            raise self.error(f"{key} has leading or trailing spaces", entry, code="bad_value")
        if max_length is not None and len(value) > max_length:
            raise self.error(f"{key} is longer than {max_length} characters", entry, code="bad_value")
        return value

    def integer(self, obj: Mapping[str, Any], key: str, entry: str | None) -> int:
        value = obj.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(f"{key} must be a whole number, got {value!r}", entry, code="bad_type")
        return value

    def flag(self, obj: Mapping[str, Any], key: str, entry: str) -> bool:
        value = obj.get(key)
        if not isinstance(value, bool):
            raise self.error(f"{key} must be true or false, got {value!r}", entry, code="bad_type")
        return value

    def choice(
        self, obj: Mapping[str, Any], key: str, entry: str, enum: Callable[[Any], T], allowed: str
    ) -> T:
        value = obj.get(key)
        try:
            if not isinstance(value, str):
                raise ValueError(value)
            return enum(value)
        except ValueError:
            raise self.error(
                f"{key} must be one of {allowed}, got {value!r}", entry, code="bad_value"
            ) from None

    def count(self, items: list[Any], expected: int, what: str) -> None:
        if len(items) != expected:
            raise self.error(f"{len(items)} {what}, expected {expected}", code="count")


def _numbered_id(doc: _Doc, card_id: str, prefix: str, digits: int, last: int) -> None:
    """Ids run from ``prefix`` + 1 to ``prefix`` + last, zero-padded (F001..F103)."""
    match = re.fullmatch(rf"{prefix}([0-9]{{{digits}}})", card_id)
    if match is None or not 1 <= int(match.group(1)) <= last:
        first, final = f"{prefix}{1:0{digits}d}", f"{prefix}{last:0{digits}d}"
        raise doc.error(f"id must be {first}..{final}", card_id, code="bad_id")


def _check_ids(docs: Mapping[str, _Doc]) -> None:
    """Every card id is a string and unique across all kinds (a card copy is identified by its id alone)."""
    seen: dict[str, str] = {}
    for file in CARD_FILES:
        doc = docs[file]
        key = FILES[file]
        assert key is not None
        for n, item in enumerate(doc.entries(key), start=1):
            card_id = item.get("id")
            if not isinstance(card_id, str) or not card_id:
                raise doc.error("id must be a non-empty string", f"#{n}", code="bad_id")
            if card_id in seen:
                raise doc.error(
                    f"duplicate id, already used in {seen[card_id]}", card_id, code="duplicate_id"
                )
            seen[card_id] = file


def _classes(doc: _Doc) -> dict[int, ClassRow]:
    rows: dict[int, ClassRow] = {}
    for n, item in enumerate(doc.entries("classes"), start=1):
        doc.fields(item, f"#{n}", ("class", *CLASS_FIELDS))
        klass = doc.integer(item, "class", f"#{n}")
        entry = f"class {klass}"
        if klass not in RULEBOOK_CLASSES:
            raise doc.error("the rulebook has classes 3..7 only", entry, code="class_table")
        if klass in rows:
            raise doc.error("listed twice", entry, code="class_table")
        values = {name: doc.integer(item, name, entry) for name in CLASS_FIELDS}
        row = ClassRow(klass=klass, **values)
        expected = RULEBOOK_CLASSES[klass]
        for name in CLASS_FIELDS:
            if getattr(row, name) != getattr(expected, name):
                raise doc.error(
                    f"{name} {getattr(row, name)}, the rulebook says {getattr(expected, name)}",
                    entry,
                    code="class_table",
                )
        rows[klass] = row
    missing = sorted(set(RULEBOOK_CLASSES) - set(rows))
    if missing:
        raise doc.error(f"class {missing[0]} is missing (the rulebook has classes 3..7)", code="class_table")
    return dict(sorted(rows.items(), reverse=True))


def _class_bands(doc: _Doc) -> dict[int, tuple[int, int]]:
    bands: dict[int, tuple[int, int]] = {}
    for n, item in enumerate(doc.entries("class_bands"), start=1):
        entry = f"class band #{n}"
        doc.fields(item, entry, ("class", "min_rank", "max_rank"))
        klass = doc.integer(item, "class", entry)
        low, high = doc.integer(item, "min_rank", entry), doc.integer(item, "max_rank", entry)
        if klass not in RULEBOOK_CLASSES or klass in bands:
            raise doc.error(f"class {klass} is not one of 3..7 or is listed twice", entry, code="class_bands")
        if not 1 <= low <= high:
            raise doc.error(f"ranks {low}..{high} are not a range", entry, code="class_bands")
        bands[klass] = (low, high)
    if set(bands) != set(RULEBOOK_CLASSES):
        raise doc.error("class_bands must give one band for each class 3..7", code="class_bands")
    for klass in range(7, 3, -1):
        if bands[klass][1] >= bands[klass - 1][0]:
            raise doc.error(
                f"the band of class {klass} must end before the band of class {klass - 1} starts",
                code="class_bands",
            )
    return bands


def _countries(doc: _Doc) -> tuple[str, dict[str, Country]]:
    ranking_date = doc.root.get("ranking_date")
    try:
        if not isinstance(ranking_date, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", ranking_date):
            raise ValueError(ranking_date)
        date.fromisoformat(ranking_date)
    except ValueError:
        raise doc.error(
            f"ranking_date must be a date like 2022-10-06, got {ranking_date!r}", code="bad_value"
        ) from None
    bands = _class_bands(doc)
    items = doc.entries("countries")
    doc.count(items, COUNTRY_COUNT, "countries")
    countries: dict[str, Country] = {}
    ranks: dict[int, str] = {}
    flags: dict[str, str] = {}
    names: dict[str, str] = {}
    for item in items:
        cid = item["id"]
        doc.fields(item, cid, ("id", "name_en", "name_nl", "class", "european", "flag", "fifa_rank"))
        if not COUNTRY_ID_RE.fullmatch(cid):
            raise doc.error("id must be a FIFA trigram of three capital letters", cid, code="bad_id")
        name_en = doc.text(item, "name_en", cid, max_length=MAX_NAME)
        name_nl = doc.text(item, "name_nl", cid, max_length=MAX_NAME)
        klass = doc.integer(item, "class", cid)
        if klass not in RULEBOOK_CLASSES:
            raise doc.error(f"class {klass} outside 3..7", cid, code="bad_value")
        european = doc.flag(item, "european", cid)
        flag = doc.text(item, "flag", cid)
        if not FLAG_RE.fullmatch(flag):
            raise doc.error(
                f"flag '{flag}' is not a flag-icons code like 'nl' or 'gb-eng'", cid, code="bad_value"
            )
        rank = doc.integer(item, "fifa_rank", cid)
        if rank < 1:
            raise doc.error(f"fifa_rank {rank} must be 1 or more", cid, code="bad_value")
        band = next((k for k, (low, high) in bands.items() if low <= rank <= high), None)
        if band is None:
            raise doc.error(f"FIFA rank {rank} is in no class band", cid, code="class_bands")
        if band != klass:
            raise doc.error(
                f"class {klass}, but FIFA rank {rank} is in the band of class {band}", cid, code="class_bands"
            )
        for value, seen, what in (
            (rank, ranks, "fifa_rank"),
            (flag, flags, "flag"),
            (name_en, names, "name_en"),
        ):
            if value in seen:
                raise doc.error(f"{what} {value!r} already used by {seen[value]}", cid, code="duplicate")
            seen[value] = cid
        countries[cid] = Country(
            id=cid,
            name_en=name_en,
            name_nl=name_nl,
            klass=klass,
            european=european,
            flag=flag,
            fifa_rank=rank,
        )
    european_count = sum(c.european for c in countries.values())
    if european_count != EUROPEAN_COUNT:
        raise doc.error(
            f"{european_count} European countries, expected {EUROPEAN_COUNT} (European Championship mode)",
            code="count",
        )
    for klass in RULEBOOK_CLASSES:
        if not any(c.klass == klass for c in countries.values()):
            raise doc.error(f"no country of class {klass}", code="distribution")
    return ranking_date, countries


def _stars_histogram(cards: Mapping[str, PlayerCard], stars: tuple[int, int]) -> dict[int, int]:
    counts = Counter(card.stars for card in cards.values())
    return {s: counts.get(s, 0) for s in range(stars[0], stars[1] + 1)}


def _fewest(doc: _Doc, histogram: dict[int, int], best: tuple[int, ...], what: str) -> None:
    """The best cards are the rarest: every count of a best star value is below every other count."""
    others = [n for s, n in histogram.items() if s not in best]
    if max(histogram[s] for s in best) >= min(others):
        shown = ", ".join(f"{s}★ {n}" for s, n in histogram.items())
        best_shown = " and ".join(f"{s}★" for s in best)
        raise doc.error(
            f"star distribution {shown}: "
            f"there must be fewer {best_shown} {what} than of any other star value",
            code="distribution",
        )


def _players(
    doc: _Doc,
    kind: CardKind,
    prefix: str,
    digits: int,
    count: int,
    stars: tuple[int, int],
    positions: tuple[str, ...],
    countries: Mapping[str, Country] | None,
) -> dict[str, PlayerCard]:
    """Field players, keepers or rivals; ``countries`` None means the cards belong to no country (rivals)."""
    items = doc.entries("cards")
    doc.count(items, count, "cards")
    cards: dict[str, PlayerCard] = {}
    for item in items:
        cid = item["id"]
        doc.fields(item, cid, ("id", "name", "stars", "position", "country"))
        _numbered_id(doc, cid, prefix, digits, count)
        name = doc.text(item, "name", cid, max_length=MAX_NAME)
        value = doc.integer(item, "stars", cid)
        if not stars[0] <= value <= stars[1]:
            raise doc.error(f"stars {value} outside {stars[0]}..{stars[1]}", cid, code="stars_range")
        position = item["position"]
        if position not in positions:
            raise doc.error(
                f"position {position!r} must be one of {'/'.join(positions)}", cid, code="bad_value"
            )
        country = item["country"]
        if countries is None:
            if country is not None:
                raise doc.error(
                    "a rival card belongs to no country: country must be null", cid, code="bad_value"
                )
        elif not isinstance(country, str) or country not in countries:
            raise doc.error(
                f"country {country!r} is not one of the {COUNTRY_COUNT} countries",
                cid,
                code="unknown_country",
            )
        cards[cid] = PlayerCard(id=cid, kind=kind, name=name, stars=value, position=position, country=country)
    return cards


def _unique_player_names(docs: Mapping[str, _Doc], tables: Mapping[str, Mapping[str, PlayerCard]]) -> None:
    seen: dict[str, str] = {}
    for file, table in tables.items():
        for card in table.values():
            key = card.name.casefold()
            if key in seen:
                raise docs[file].error(
                    f"name '{card.name}' already used by {seen[key]}", card.id, code="duplicate_name"
                )
            seen[key] = card.id


def _board(doc: _Doc) -> Board:
    for key in ("track", "card_boxes", "finals_boxes", "starting_capital", "bills"):
        if key not in doc.root:
            raise doc.error(f"missing field '{key}'", code="bad_shape")
    track = doc.root["track"]
    if not isinstance(track, list) or not track:
        raise doc.error("track must be a non-empty list of square kinds", code="bad_shape")
    known = "/".join(k.value for k in SquareKind)
    squares = tuple(
        Square(index=i, kind=doc.choice({"kind": kind}, "kind", f"square {i}", SquareKind, known))
        for i, kind in enumerate(track)
    )
    if squares[0].kind is not SquareKind.START:
        raise doc.error(f"square 0 must be start, got {squares[0].kind.value}", code="board")
    for square in squares[1:]:
        if square.kind is SquareKind.START:
            raise doc.error(
                "start appears again (only square 0 is Start)", f"square {square.index}", code="board"
            )
    present = {s.kind for s in squares}
    for kind in SquareKind:
        if kind not in present:
            raise doc.error(f"the track has no {kind.value} square", code="board")
    country_squares = sum(s.kind is SquareKind.COUNTRY for s in squares)
    if country_squares != COUNTRY_SQUARES:
        raise doc.error(
            f"{country_squares} country squares, expected exactly {COUNTRY_SQUARES}", code="board"
        )

    boxes = doc.root["card_boxes"]
    if not isinstance(boxes, dict) or sorted(boxes) != [str(n) for n in CARD_BOXES]:
        raise doc.error('card_boxes must name boxes "1".."7"', code="board")
    for number, content in CARD_BOXES.items():
        if boxes[str(number)] != content:
            raise doc.error(
                f"holds {boxes[str(number)]!r}, the set-up rules put {content!r} there",
                f"box {number}",
                code="board",
            )
    finals = doc.integer(doc.root, "finals_boxes", None)
    if finals != FINALS_BOXES:
        raise doc.error(f"finals_boxes {finals}, the finals have {FINALS_BOXES} boxes", code="board")

    capital = doc.integer(doc.root, "starting_capital", None)
    if capital != STARTING_CAPITAL:
        raise doc.error(f"starting_capital {capital}, the rulebook gives {STARTING_CAPITAL}", code="money")
    raw_bills = doc.root["bills"]
    if not isinstance(raw_bills, dict):
        raise doc.error("bills must map a bill value to a count", code="bad_shape")
    bills: dict[int, int] = {}
    for key, number in raw_bills.items():
        if not re.fullmatch(r"[0-9]+", key) or int(key) not in RULEBOOK_BILLS:
            raise doc.error(f"{key!r} is not a bill of the game (5000..500000)", "bills", code="money")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise doc.error(f"count of the {key} bill must be a positive whole number", "bills", code="money")
        bills[int(key)] = number
    total = sum(value * number for value, number in bills.items())
    if total != capital:
        raise doc.error(
            f"the bills add up to {total}, not to the starting capital {capital}", "bills", code="money"
        )
    if bills != RULEBOOK_BILLS:
        raise doc.error(
            "the breakdown differs from the rulebook's 2×500k 4×200k 4×100k 3×50k 3×20k 2×10k 2×5k",
            "bills",
            code="money",
        )
    return Board(
        squares=squares,
        card_boxes=dict(CARD_BOXES),
        finals_boxes=finals,
        starting_capital=capital,
        bills=dict(sorted(bills.items(), reverse=True)),
    )


def _effect(doc: _Doc, item: Mapping[str, Any], cid: str, kinds: frozenset[str]) -> Effect:
    raw = item["effect"]
    if not isinstance(raw, dict):
        raise doc.error("effect must be an object with a 'kind'", cid, code="bad_shape")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        raise doc.error(f"unknown effect kind {kind!r}", cid, code="unknown_effect")
    return Effect(kind=kind, params={k: v for k, v in raw.items() if k != "kind"})


def _param_int(doc: _Doc, effect: Effect, name: str, cid: str) -> int:
    if name not in effect.params:
        raise doc.error(f"effect {effect.kind} needs '{name}'", cid, code="bad_param")
    value = effect.params[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise doc.error(
            f"effect {effect.kind}: {name} must be a whole number, got {value!r}", cid, code="bad_param"
        )
    return value


def _match_cards(doc: _Doc) -> dict[str, MatchCard]:
    items = doc.entries("cards")
    doc.count(items, MATCH_COUNT, "cards")
    cards: dict[str, MatchCard] = {}
    for item in items:
        cid = item["id"]
        doc.fields(
            item,
            cid,
            (
                "id",
                "name_en",
                "name_nl",
                "text_en",
                "text_nl",
                "color",
                "target",
                "penalty_ok",
                "corner_ok",
                "effect",
            ),
            ("seed",),
        )
        _numbered_id(doc, cid, "M", 2, MATCH_COUNT)
        color = doc.choice(item, "color", cid, Color, "green/red")
        target = doc.choice(item, "target", cid, Target, "field/keeper/none")
        effect = _effect(doc, item, cid, MATCH_EFFECT_KINDS)
        if effect.kind == "stars":
            delta = _param_int(doc, effect, "delta", cid)
            if delta == 0 or abs(delta) > 7:
                raise doc.error(f"effect stars: delta {delta} must be -7..-1 or 1..7", cid, code="bad_param")
            if (color is Color.GREEN) != (delta > 0):
                rule = (
                    "a green card adds stars (delta > 0)"
                    if color is Color.GREEN
                    else ("a red card takes stars away (delta < 0)")
                )
                raise doc.error(f"effect stars: delta {delta}, but {rule}", cid, code="bad_param")
        elif effect.kind == "set_stars":
            value = _param_int(doc, effect, "value", cid)
            if not 0 <= value <= 7:
                raise doc.error(f"effect set_stars: value {value} outside 0..7", cid, code="bad_param")
        if effect.kind in ("stars", "set_stars") and target is Target.NONE:
            raise doc.error(f"effect {effect.kind} needs a field or keeper target", cid, code="bad_param")
        seed = item.get("seed", False)
        if not isinstance(seed, bool):
            raise doc.error(f"seed must be true or false, got {seed!r}", cid, code="bad_type")
        cards[cid] = MatchCard(
            id=cid,
            name_en=doc.text(item, "name_en", cid, max_length=MAX_NAME),
            name_nl=doc.text(item, "name_nl", cid, max_length=MAX_NAME),
            text_en=doc.text(item, "text_en", cid),
            text_nl=doc.text(item, "text_nl", cid),
            color=color,
            target=target,
            penalty_ok=doc.flag(item, "penalty_ok", cid),
            corner_ok=doc.flag(item, "corner_ok", cid),
            effect=effect,
            seed=seed,
        )
    _seed_match_cards(doc, cards)
    return cards


def _seed_match_cards(doc: _Doc, cards: Mapping[str, MatchCard]) -> None:
    """The four cards printed in the rulebook are present, flagged ``seed`` and work as printed."""
    found: dict[str, str] = {}
    for card in cards.values():
        key = card.name_nl.casefold()
        if not card.seed:
            continue
        if key not in SEED_MATCH_CARDS:
            raise doc.error(
                f"'{card.name_nl}' is flagged seed but is not printed in the rulebook",
                card.id,
                code="seed_card",
            )
        if key in found:
            raise doc.error(
                f"'{card.name_nl}' is flagged seed twice (also {found[key]})", card.id, code="seed_card"
            )
        found[key] = card.id
        color, target, kind, delta = SEED_MATCH_CARDS[key]
        printed = (color, target or card.target, kind, delta)
        actual = (card.color, card.target, card.effect.kind, card.effect.params.get("delta"))
        if actual != printed:
            raise doc.error(
                f"'{card.name_nl}' differs from the rulebook: {color.value} {kind}"
                + (f" {delta:+d}" if delta is not None else "")
                + (f" on a {target.value} player" if target is not None else ""),
                card.id,
                code="seed_card",
            )
    missing = [name for name in SEED_MATCH_CARDS if name not in found]
    if missing:
        raise doc.error(
            f"the rulebook card '{missing[0].capitalize()}' is missing (or not flagged seed)",
            code="seed_card",
        )


def _amount_texts(amount: int) -> tuple[str, str]:
    """How an amount is written on the card: 200,000 in English, 200.000 in Dutch."""
    english = f"{amount:,}"
    return english, english.replace(",", ".")


def _money_cards(doc: _Doc) -> dict[str, MoneyCard]:
    items = doc.entries("cards")
    doc.count(items, MONEY_COUNT, "cards")
    cards: dict[str, MoneyCard] = {}
    for item in items:
        cid = item["id"]
        doc.fields(item, cid, ("id", "name_en", "name_nl", "text_en", "text_nl", "color", "effect"))
        _numbered_id(doc, cid, "G", 2, MONEY_COUNT)
        name_en = doc.text(item, "name_en", cid, max_length=MAX_NAME)
        name_nl = doc.text(item, "name_nl", cid, max_length=MAX_NAME)
        text_en = doc.text(item, "text_en", cid)
        text_nl = doc.text(item, "text_nl", cid)
        color = doc.choice(item, "color", cid, Color, "green/red")
        effect = _effect(doc, item, cid, MONEY_EFFECT_KINDS)
        param = MONEY_PARAMS[effect.kind]
        for name in effect.params:
            if name != param:
                raise doc.error(
                    f"effect {effect.kind} takes only '{param}', not '{name}'", cid, code="bad_param"
                )
        if param == "amount":
            amount = _param_int(doc, effect, "amount", cid)
            if amount <= 0 or amount % MONEY_STEP:
                raise doc.error(
                    f"effect {effect.kind}: amount {amount} must be a positive multiple of 5,000",
                    cid,
                    code="bad_param",
                )
            english, dutch = _amount_texts(amount)
            if english not in text_en:
                raise doc.error(f"text_en must state the amount as {english}", cid, code="text")
            if dutch not in text_nl:
                raise doc.error(f"text_nl must state the amount as {dutch}", cid, code="text")
        elif param == "percent":
            percent = _param_int(doc, effect, "percent", cid)
            if not 1 <= percent <= 100:
                raise doc.error(
                    f"effect bonus_share: percent {percent} outside 1..100", cid, code="bad_param"
                )
            if f"{percent}%" not in text_en or f"{percent}%" not in text_nl:
                raise doc.error(f"text_en and text_nl must state {percent}%", cid, code="text")
        else:
            square = effect.params.get("square")
            if not isinstance(square, str) or square not in {k.value for k in SquareKind}:
                raise doc.error(f"effect goto: square {square!r} is not a square kind", cid, code="bad_param")
            if square == SquareKind.MONEY:
                raise doc.error(
                    "effect goto: square 'money' would chain money cards without end", cid, code="bad_param"
                )
        if effect.kind in MONEY_GAINS and color is not Color.GREEN:
            raise doc.error(
                f"effect {effect.kind} is a gain, so the card must be green", cid, code="bad_value"
            )
        if effect.kind in MONEY_COSTS and color is not Color.RED:
            raise doc.error(f"effect {effect.kind} is a cost, so the card must be red", cid, code="bad_value")
        cards[cid] = MoneyCard(
            id=cid,
            name_en=name_en,
            name_nl=name_nl,
            text_en=text_en,
            text_nl=text_nl,
            color=color,
            effect=effect,
        )
    return cards


def _version(docs: Mapping[str, _Doc]) -> str:
    """One catalog version from the files' versions: the newest, plus a digest of all of them.

    ``2026.1+5c0b7e`` changes whenever any file's version changes, and fits ``CatalogCard.catalog_version``.
    """
    pairs = "\n".join(f"{file}={docs[file].version}" for file in sorted(docs))
    newest = max((docs[file].version for file in docs), key=lambda v: tuple(int(p) for p in v.split(".")))
    return f"{newest}+{blake2b(pairs.encode(), digest_size=3).hexdigest()}"


def build_catalog(raw: Mapping[str, Any]) -> Catalog:
    """Validate parsed file contents (file name -> JSON value) and build the catalog. Pure.

    :raises CatalogError: the first problem found.
    """
    for file in FILES:
        if file not in raw:
            raise CatalogError(file, "file not given", code="missing_file")
    docs = {file: _Doc(file, raw[file]) for file in FILES}
    for file, key in FILES.items():
        if key is not None:
            docs[file].entries(key)
    _check_ids(docs)

    classes = _classes(docs[CLASSES_FILE])
    ranking_date, countries = _countries(docs[COUNTRIES_FILE])

    field_players = _players(
        docs[FIELD_FILE], CardKind.FIELD, "F", 3, FIELD_COUNT, FIELD_STARS, FIELD_POSITIONS, countries
    )
    _fewest(docs[FIELD_FILE], _stars_histogram(field_players, FIELD_STARS), (5, 6), "field players")
    keepers = _players(
        docs[KEEPERS_FILE], CardKind.KEEPER, "K", 2, KEEPER_COUNT, KEEPER_STARS, ("GK",), countries
    )
    _fewest(docs[KEEPERS_FILE], _stars_histogram(keepers, KEEPER_STARS), (5,), "keepers")
    rivals = _players(
        docs[RIVALS_FILE], CardKind.RIVAL, "R", 2, RIVAL_COUNT, RIVAL_STARS, FIELD_POSITIONS, None
    )
    _unique_player_names(docs, {FIELD_FILE: field_players, KEEPERS_FILE: keepers, RIVALS_FILE: rivals})

    board = _board(docs[BOARD_FILE])
    match_cards = _match_cards(docs[MATCH_FILE])
    money_cards = _money_cards(docs[MONEY_FILE])
    return Catalog(
        version=_version(docs),
        ranking_date=ranking_date,
        classes=classes,
        countries=countries,
        field_players=field_players,
        keepers=keepers,
        rivals=rivals,
        match_cards=match_cards,
        money_cards=money_cards,
        board=board,
    )


# --------------------------------------------------------------------------------------------- export


def effect_data(effect: Effect) -> dict[str, Any]:
    """An effect as written in the data files: ``{"kind": ..., **params}``."""
    return {"kind": effect.kind, **effect.params}


def card_data(card: Country | PlayerCard | MatchCard | MoneyCard) -> dict[str, Any]:
    """A card as a JSON-ready dict, in the data files' own field names (what ``CatalogCard.data`` stores)."""
    if isinstance(card, Country):
        return {
            "id": card.id,
            "name_en": card.name_en,
            "name_nl": card.name_nl,
            "class": card.klass,
            "european": card.european,
            "flag": card.flag,
            "fifa_rank": card.fifa_rank,
        }
    if isinstance(card, PlayerCard):
        return {
            "id": card.id,
            "kind": card.kind.value,
            "name": card.name,
            "stars": card.stars,
            "position": card.position,
            "country": card.country,
        }
    data: dict[str, Any] = {
        "id": card.id,
        "name_en": card.name_en,
        "name_nl": card.name_nl,
        "text_en": card.text_en,
        "text_nl": card.text_nl,
        "color": card.color.value,
    }
    if isinstance(card, MatchCard):
        data |= {
            "target": card.target.value,
            "penalty_ok": card.penalty_ok,
            "corner_ok": card.corner_ok,
            "effect": effect_data(card.effect),
            "seed": card.seed,
        }
    else:
        data["effect"] = effect_data(card.effect)
    return data
