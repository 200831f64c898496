"""Every way the loader refuses bad data: the exact message names the file and the bad entry.

Each case mutates a copy of the real data files (with synthetic match cards), writes it into a temporary
data directory and loads it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cards.catalog import CatalogError, load_catalog

Docs = dict[str, Any]


def card(docs: Docs, file: str, card_id: str) -> dict[str, Any]:
    key = {"countries.json": "countries"}.get(file, "cards")
    return next(c for c in docs[file][key] if c["id"] == card_id)


def klass(docs: Docs, number: int) -> dict[str, Any]:
    return next(row for row in docs["classes.json"]["classes"] if row["class"] == number)


def setter(file: str, card_id: str, **values: Any) -> Callable[[Docs], None]:
    return lambda docs: card(docs, file, card_id).update(values)


def effect(file: str, card_id: str, **values: Any) -> Callable[[Docs], None]:
    return lambda docs: card(docs, file, card_id)["effect"].update(values)


def drop(file: str, card_id: str) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        key = {"countries.json": "countries"}.get(file, "cards")
        docs[file][key] = [c for c in docs[file][key] if c["id"] != card_id]

    return mutate


def board(**values: Any) -> Callable[[Docs], None]:
    return lambda docs: docs["board.json"].update(values)


def track(index: int, kind: str) -> Callable[[Docs], None]:
    return lambda docs: docs["board.json"]["track"].__setitem__(index, kind)


def replace_kind(old: str, new: str) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        docs["board.json"]["track"] = [new if k == old else k for k in docs["board.json"]["track"]]

    return mutate


def set_stars(file: str, ids: list[str], stars: int) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        for card_id in ids:
            card(docs, file, card_id)["stars"] = stars

    return mutate


def no_class_3(docs: Docs) -> None:
    bands = {b["class"]: b for b in docs["countries.json"]["class_bands"]}
    bands[4]["max_rank"], bands[3]["min_rank"] = 40, 41
    for cid in ("AUT", "CZE", "HUN", "SCO"):
        card(docs, "countries.json", cid)["class"] = 4


def seed_flag(card_id: str, value: bool) -> Callable[[Docs], None]:
    return setter("match_cards.json", card_id, seed=value)


def pop_key(file: str, card_id: str, key: str) -> Callable[[Docs], None]:
    return lambda docs: card(docs, file, card_id).pop(key)


F = "field_players.json"
K = "keepers.json"
R = "rivals.json"
C = "countries.json"
M = "match_cards.json"
G = "money_cards.json"
B = "board.json"
KINDS = "start/training/credit/debet/field/keeper/luck/risk/country/match/money"

CASES: list[tuple[str, Callable[[Docs], None], str]] = [
    # --- shape, ids and versions
    ("top level", lambda d: d.__setitem__(R, []), "rivals.json: the top level must be a JSON object"),
    (
        "no version",
        lambda d: d[R].pop("version"),
        "rivals.json: version must be a string like '2026.1', got None",
    ),
    (
        "bad version",
        lambda d: d[R].update(version="v1"),
        "rivals.json: version must be a string like '2026.1', got 'v1'",
    ),
    ("cards not a list", lambda d: d[K].update(cards={}), "keepers.json: 'cards' must be a list"),
    (
        "entry not an object",
        lambda d: d[K]["cards"].__setitem__(2, "K03"),
        "keepers.json: #3: entry is not a JSON object",
    ),
    (
        "id not a string",
        lambda d: d[K]["cards"][0].update(id=1),
        "keepers.json: #1: id must be a non-empty string",
    ),
    (
        "duplicate id in file",
        setter(F, "F003", id="F002"),
        "field_players.json: F002: duplicate id, already used in field_players.json",
    ),
    (
        "duplicate id across kinds",
        setter(K, "K01", id="F001"),
        "keepers.json: F001: duplicate id, already used in field_players.json",
    ),
    ("missing field", pop_key(F, "F005", "position"), "field_players.json: F005: missing field 'position'"),
    ("unknown field", setter(F, "F005", club="Ajax"), "field_players.json: F005: unknown field 'club'"),
    # --- class table
    (
        "class value",
        lambda d: klass(d, 6).update(visit_fee=125_000),
        "classes.json: class 6: visit_fee 125000, the rulebook says 120000",
    ),
    (
        "class dealt",
        lambda d: klass(d, 7).update(field_dealt=15),
        "classes.json: class 7: field_dealt 15, the rulebook says 16",
    ),
    (
        "class missing",
        lambda d: d["classes.json"]["classes"].pop(),
        "classes.json: class 3 is missing (the rulebook has classes 3..7)",
    ),
    (
        "class 8",
        lambda d: klass(d, 7).update({"class": 8}),
        "classes.json: class 8: the rulebook has classes 3..7 only",
    ),
    ("class twice", lambda d: klass(d, 6).update({"class": 7}), "classes.json: class 7: listed twice"),
    (
        "class type",
        lambda d: klass(d, 7).update(entry_cost="700000"),
        "classes.json: class 7: entry_cost must be a whole number, got '700000'",
    ),
    ("class field", lambda d: klass(d, 7).pop("visit_fee"), "classes.json: #1: missing field 'visit_fee'"),
    # --- countries
    (
        "ranking date",
        lambda d: d[C].update(ranking_date="October 2022"),
        "countries.json: ranking_date must be a date like 2022-10-06, got 'October 2022'",
    ),
    (
        "ranking date format",
        lambda d: d[C].update(ranking_date="20221006"),
        "countries.json: ranking_date must be a date like 2022-10-06, got '20221006'",
    ),
    ("country count", drop(C, "SCO"), "countries.json: 31 countries, expected 32"),
    (
        "european count",
        setter(C, "NED", european=False),
        "countries.json: 19 European countries, expected 20 (European Championship mode)",
    ),
    (
        "european type",
        setter(C, "NED", european="yes"),
        "countries.json: NED: european must be true or false, got 'yes'",
    ),
    (
        "class off band",
        setter(C, "NED", **{"class": 7}),
        "countries.json: NED: class 7, but FIFA rank 8 is in the band of class 6",
    ),
    ("class outside", setter(C, "NED", **{"class": 2}), "countries.json: NED: class 2 outside 3..7"),
    (
        "rank in no band",
        setter(C, "SCO", fifa_rank=250),
        "countries.json: SCO: FIFA rank 250 is in no class band",
    ),
    ("rank twice", setter(C, "SCO", fifa_rank=36), "countries.json: SCO: fifa_rank 36 already used by HUN"),
    ("flag twice", setter(C, "SCO", flag="gb-eng"), "countries.json: SCO: flag 'gb-eng' already used by ENG"),
    (
        "flag code",
        setter(C, "NED", flag="NL"),
        "countries.json: NED: flag 'NL' is not a flag-icons code like 'nl' or 'gb-eng'",
    ),
    (
        "country id",
        setter(C, "NED", id="Ned"),
        "countries.json: Ned: id must be a FIFA trigram of three capital letters",
    ),
    (
        "bands overlap",
        lambda d: d[C]["class_bands"][1].update(min_rank=5),
        "countries.json: the band of class 7 must end before the band of class 6 starts",
    ),
    (
        "band missing",
        lambda d: d[C]["class_bands"].pop(),
        "countries.json: class_bands must give one band for each class 3..7",
    ),
    ("no class 3", no_class_3, "countries.json: no country of class 3"),
    (
        "name spaces",
        setter(C, "NED", name_nl=" Nederland"),
        "countries.json: NED: name_nl has leading or trailing spaces",
    ),
    # --- players
    ("field stars", setter(F, "F017", stars=7), "field_players.json: F017: stars 7 outside 2..6"),
    (
        "field stars type",
        setter(F, "F017", stars=True),
        "field_players.json: F017: stars must be a whole number, got True",
    ),
    ("keeper stars", setter(K, "K01", stars=6), "keepers.json: K01: stars 6 outside 3..5"),
    ("rival stars", setter(R, "R22", stars=1), "rivals.json: R22: stars 1 outside 2..6"),
    (
        "field distribution",
        set_stars(F, [f"F{n:03d}" for n in (3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43)], 6),
        "field_players.json: star distribution 2★ 17, 3★ 29, 4★ 20, 5★ 16, 6★ 21: there must be fewer 5★ and "
        "6★ field players than of any other star value",
    ),
    (
        "keeper distribution",
        set_stars(K, [f"K{n}" for n in range(20, 29)], 5),
        "keepers.json: star distribution 3★ 5, 4★ 13, 5★ 15: "
        "there must be fewer 5★ keepers than of any other star value",
    ),
    (
        "unknown country",
        setter(F, "F001", country="XYZ"),
        "field_players.json: F001: country 'XYZ' is not one of the 32 countries",
    ),
    (
        "keeper without country",
        setter(K, "K01", country=None),
        "keepers.json: K01: country None is not one of the 32 countries",
    ),
    (
        "rival with country",
        setter(R, "R01", country="NED"),
        "rivals.json: R01: a rival card belongs to no country: country must be null",
    ),
    (
        "keeper position",
        setter(K, "K01", position="DF"),
        "keepers.json: K01: position 'DF' must be one of GK",
    ),
    (
        "field position",
        setter(F, "F001", position="GK"),
        "field_players.json: F001: position 'GK' must be one of DF/MF/FW",
    ),
    ("field id format", setter(F, "F001", id="F1"), "field_players.json: F1: id must be F001..F103"),
    ("field id range", setter(F, "F103", id="F104"), "field_players.json: F104: id must be F001..F103"),
    (
        "field id digits",
        setter(F, "F103", id="F１０３"),
        "field_players.json: F１０３: id must be F001..F103",
    ),
    ("rival id", setter(R, "R01", id="X01"), "rivals.json: X01: id must be R01..R22"),
    ("field count", drop(F, "F103"), "field_players.json: 102 cards, expected 103"),
    ("keeper count", drop(K, "K33"), "keepers.json: 32 cards, expected 33"),
    ("rival count", drop(R, "R22"), "rivals.json: 21 cards, expected 22"),
    (
        "name twice",
        setter(K, "K01", name="Tiago Mourão"),
        "keepers.json: K01: name 'Tiago Mourão' already used by F001",
    ),
    (
        "name twice any case",
        setter(R, "R01", name="TIAGO MOURÃO"),
        "rivals.json: R01: name 'TIAGO MOURÃO' already used by F001",
    ),
    (
        "name too long",
        setter(F, "F001", name="X" * 81),
        "field_players.json: F001: name is longer than 80 characters",
    ),
    ("name empty", setter(F, "F001", name=" "), "field_players.json: F001: name must be a non-empty string"),
    # --- board
    ("no track", lambda d: d[B].pop("track"), "board.json: missing field 'track'"),
    ("track type", board(track="start"), "board.json: track must be a non-empty list of square kinds"),
    ("square kind", track(3, "bonus"), f"board.json: square 3: kind must be one of {KINDS}, got 'bonus'"),
    ("start first", track(0, "country"), "board.json: square 0 must be start, got country"),
    (
        "start twice",
        track(20, "start"),
        "board.json: square 20: start appears again (only square 0 is Start)",
    ),
    ("kind missing", replace_kind("luck", "match"), "board.json: the track has no luck square"),
    ("country squares", track(1, "money"), "board.json: 15 country squares, expected exactly 16"),
    (
        "box content",
        lambda d: d[B]["card_boxes"].update({"5": "keeper_open", "7": "field_open"}),
        "board.json: box 5: holds 'keeper_open', the set-up rules put 'field_open' there",
    ),
    ("box missing", lambda d: d[B]["card_boxes"].pop("7"), 'board.json: card_boxes must name boxes "1".."7"'),
    ("finals", board(finals_boxes=4), "board.json: finals_boxes 4, the finals have 8 boxes"),
    (
        "capital",
        board(starting_capital=2_500_000),
        "board.json: starting_capital 2500000, the rulebook gives 2440000",
    ),
    (
        "bills sum",
        lambda d: d[B]["bills"].update({"500000": 3}),
        "board.json: bills: the bills add up to 2940000, not to the starting capital 2440000",
    ),
    (
        "bills breakdown",
        lambda d: d[B]["bills"].update({"500000": 1, "100000": 9}),
        "board.json: bills: the breakdown differs from the rulebook's "
        "2×500k 4×200k 4×100k 3×50k 3×20k 2×10k 2×5k",
    ),
    (
        "bill value",
        lambda d: d[B]["bills"].update({"1000": 1}),
        "board.json: bills: '1000' is not a bill of the game (5000..500000)",
    ),
    (
        "bill count",
        lambda d: d[B]["bills"].update({"5000": 0}),
        "board.json: bills: count of the 5000 bill must be a positive whole number",
    ),
    # --- match cards
    ("match count", drop(M, "M40"), "match_cards.json: 39 cards, expected 40"),
    ("match id", setter(M, "M40", id="M41"), "match_cards.json: M41: id must be M01..M40"),
    ("match field", setter(M, "M05", tags=["x"]), "match_cards.json: M05: unknown field 'tags'"),
    (
        "match kind",
        effect(M, "M05", kind="teleport"),
        "match_cards.json: M05: unknown effect kind 'teleport'",
    ),
    (
        "match effect shape",
        setter(M, "M05", effect="stars"),
        "match_cards.json: M05: effect must be an object with a 'kind'",
    ),
    (
        "delta missing",
        lambda d: card(d, M, "M05")["effect"].pop("delta"),
        "match_cards.json: M05: effect stars needs 'delta'",
    ),
    (
        "delta type",
        effect(M, "M05", delta="2"),
        "match_cards.json: M05: effect stars: delta must be a whole number, got '2'",
    ),
    (
        "delta zero",
        effect(M, "M05", delta=0),
        "match_cards.json: M05: effect stars: delta 0 must be -7..-1 or 1..7",
    ),
    (
        "green minus",
        effect(M, "M05", delta=-1),
        "match_cards.json: M05: effect stars: delta -1, but a green card adds stars (delta > 0)",
    ),
    (
        "red plus",
        effect(M, "M06", delta=2),
        "match_cards.json: M06: effect stars: delta 2, but a red card takes stars away (delta < 0)",
    ),
    (
        "set_stars value",
        effect(M, "M07", value=9),
        "match_cards.json: M07: effect set_stars: value 9 outside 0..7",
    ),
    (
        "stars without target",
        setter(M, "M05", target="none"),
        "match_cards.json: M05: effect stars needs a field or keeper target",
    ),
    (
        "colour",
        setter(M, "M05", color="blue"),
        "match_cards.json: M05: color must be one of green/red, got 'blue'",
    ),
    (
        "target",
        setter(M, "M05", target="referee"),
        "match_cards.json: M05: target must be one of field/keeper/none, got 'referee'",
    ),
    (
        "penalty flag",
        setter(M, "M05", penalty_ok="P"),
        "match_cards.json: M05: penalty_ok must be true or false, got 'P'",
    ),
    ("seed flag", setter(M, "M05", seed=1), "match_cards.json: M05: seed must be true or false, got 1"),
    ("text empty", setter(M, "M05", text_nl=""), "match_cards.json: M05: text_nl must be a non-empty string"),
    (
        "seed altered",
        effect(M, "M01", delta=3),
        "match_cards.json: M01: 'Tackle' differs from the rulebook: green stars +2 on a field player",
    ),
    (
        "seed colour",
        setter(M, "M04", color="green"),
        "match_cards.json: M04: 'Doelpunt afgekeurd' differs from the rulebook: red disallow_goal",
    ),
    (
        "seed missing",
        seed_flag("M02", False),
        "match_cards.json: the rulebook card 'Blessure' is missing (or not flagged seed)",
    ),
    (
        "not a seed",
        seed_flag("M05", True),
        "match_cards.json: M05: 'Synthetic 5' is flagged seed but is not printed in the rulebook",
    ),
    (
        "seed twice",
        lambda d: card(d, M, "M05").update(name_nl="Tackle", seed=True, effect={"kind": "stars", "delta": 2}),
        "match_cards.json: M05: 'Tackle' is flagged seed twice (also M01)",
    ),
    # --- money cards
    ("money count", drop(G, "G22"), "money_cards.json: 21 cards, expected 22"),
    ("money id", setter(G, "G01", id="G1"), "money_cards.json: G1: id must be G01..G22"),
    ("money kind", effect(G, "G01", kind="steal"), "money_cards.json: G01: unknown effect kind 'steal'"),
    (
        "amount missing",
        lambda d: card(d, G, "G12")["effect"].pop("amount"),
        "money_cards.json: G12: effect pay_bank needs 'amount'",
    ),
    (
        "amount type",
        effect(G, "G12", amount="200000"),
        "money_cards.json: G12: effect pay_bank: amount must be a whole number, got '200000'",
    ),
    (
        "amount step",
        effect(G, "G12", amount=12_345),
        "money_cards.json: G12: effect pay_bank: amount 12345 must be a positive multiple of 5,000",
    ),
    (
        "amount negative",
        effect(G, "G12", amount=-5_000),
        "money_cards.json: G12: effect pay_bank: amount -5000 must be a positive multiple of 5,000",
    ),
    (
        "extra param",
        effect(G, "G12", to="bonus"),
        "money_cards.json: G12: effect pay_bank takes only 'amount', not 'to'",
    ),
    (
        "text amount en",
        effect(G, "G12", amount=205_000),
        "money_cards.json: G12: text_en must state the amount as 205,000",
    ),
    (
        "text amount nl",
        setter(G, "G12", text_nl="Betaal 2 ton aan de Bank."),
        "money_cards.json: G12: text_nl must state the amount as 200.000",
    ),
    (
        "percent",
        effect(G, "G09", percent=150),
        "money_cards.json: G09: effect bonus_share: percent 150 outside 1..100",
    ),
    (
        "percent text",
        effect(G, "G09", percent=40),
        "money_cards.json: G09: text_en and text_nl must state 40%",
    ),
    (
        "goto kind",
        effect(G, "G10", square="bonus"),
        "money_cards.json: G10: effect goto: square 'bonus' is not a square kind",
    ),
    (
        "goto money",
        effect(G, "G10", square="money"),
        "money_cards.json: G10: effect goto: square 'money' would chain money cards without end",
    ),
    (
        "gain is green",
        setter(G, "G01", color="red"),
        "money_cards.json: G01: effect bank_pays is a gain, so the card must be green",
    ),
    (
        "cost is red",
        setter(G, "G12", color="green"),
        "money_cards.json: G12: effect pay_bank is a cost, so the card must be red",
    ),
    (
        "money colour",
        setter(G, "G12", color="yellow"),
        "money_cards.json: G12: color must be one of green/red, got 'yellow'",
    ),
]


@pytest.mark.parametrize(("mutate", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_data_is_refused_with_a_message_naming_file_and_entry(
    docs: Docs, write: Callable[[Docs], Path], mutate: Callable[[Docs], None], message: str
) -> None:
    mutate(docs)
    with pytest.raises(CatalogError) as caught:
        load_catalog(write(docs))
    assert str(caught.value) == message
    assert caught.value.file == message.split(":")[0]


def test_the_untouched_fixture_loads(docs: Docs, write: Callable[[Docs], Path]) -> None:
    """Guards the table above: every case fails because of its own mutation, not because of the fixture."""
    catalog = load_catalog(write(docs))
    assert len(catalog.match_cards) == 40


def test_missing_file_names_the_directory(docs: Docs, write: Callable[[Docs], Path]) -> None:
    directory = write(docs)
    (directory / "board.json").unlink()
    with pytest.raises(CatalogError) as caught:
        load_catalog(directory)
    assert str(caught.value) == f"board.json: file not found in {directory}"
    assert caught.value.code == "missing_file"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b"{",
            "classes.json: invalid JSON at line 1 column 2: "
            "Expecting property name enclosed in double quotes",
        ),
        (
            b'{"version": "2026.1", "version": "2026.2"}',
            "classes.json: key 'version' appears twice in one object",
        ),
        (b"\xff\xfe", "classes.json: not UTF-8 text (invalid start byte)"),
    ],
    ids=["syntax", "duplicate key", "encoding"],
)
def test_unreadable_file(docs: Docs, write: Callable[[Docs], Path], content: bytes, message: str) -> None:
    directory = write(docs)
    (directory / "classes.json").write_bytes(content)
    with pytest.raises(CatalogError) as caught:
        load_catalog(directory)
    assert str(caught.value) == message
    assert caught.value.code == "bad_json"


def test_error_codes_are_stable(docs: Docs, write: Callable[[Docs], Path]) -> None:
    card(docs, F, "F017")["stars"] = 7
    with pytest.raises(CatalogError) as caught:
        load_catalog(write(docs))
    error = caught.value
    assert (error.code, error.file, error.entry, error.problem) == (
        "stars_range",
        "field_players.json",
        "F017",
        "stars 7 outside 2..6",
    )


def test_a_bad_entry_in_the_real_files_would_be_caught(
    real_docs: Docs, write: Callable[[Docs], Path]
) -> None:
    """The same check on the real match cards (or their stand-in): an unknown effect kind is refused."""
    first = real_docs[M]["cards"][0]
    first["effect"] = {"kind": "magic"}
    with pytest.raises(
        CatalogError, match=rf"^match_cards.json: {first['id']}: unknown effect kind 'magic'$"
    ):
        load_catalog(write(real_docs))


def test_the_data_files_are_plain_json_objects_with_a_version() -> None:
    from cards.catalog.loader import DATA_DIR, FILES

    for file in FILES:
        path = DATA_DIR / file
        if not path.exists():
            pytest.skip(f"{file} not written yet")
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(doc, dict) and isinstance(doc["version"], str), file
