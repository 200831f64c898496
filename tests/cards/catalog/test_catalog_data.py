"""The real catalog: counts, distributions and the design choices a player would notice.

The data files are read from cards/data; while the duel engine's match_cards.json is absent, synthetic match
cards stand in (see conftest.py), and the tests of ``get_catalog()`` itself are skipped.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cards.catalog import (
    MONEY_EFFECT_KINDS,
    CardKind,
    Catalog,
    Color,
    SquareKind,
    build_catalog,
    card_data,
    get_catalog,
    load_catalog,
)
from cards.catalog.loader import DATA_DIR, MONEY_PARAMS, RULEBOOK_BILLS, RULEBOOK_CLASSES

Docs = dict[str, Any]

needs_match_cards = pytest.mark.skipif(
    not (DATA_DIR / "match_cards.json").exists(),
    reason="cards/data/match_cards.json is written by the duel engine and has not landed yet",
)


@pytest.fixture
def catalog(real_docs: Docs) -> Catalog:
    return build_catalog(real_docs)


def test_box_counts(catalog: Catalog) -> None:
    assert len(catalog.countries) == 32
    assert len(catalog.field_players) == 103
    assert len(catalog.keepers) == 33
    assert len(catalog.rivals) == 22
    assert len(catalog.match_cards) == 40
    assert len(catalog.money_cards) == 22
    assert len(catalog.all_ids()) == len(set(catalog.all_ids())) == 252


def test_twenty_european_countries_for_the_european_championship(catalog: Catalog) -> None:
    assert sum(c.european for c in catalog.countries.values()) == 20


def test_class_table_is_the_rulebooks(catalog: Catalog) -> None:
    assert catalog.classes == RULEBOOK_CLASSES
    for row in catalog.classes.values():
        assert row.entry_cost == row.klass * 100_000  # "De entreekosten zijn klasse x 100.000"
        assert row.selection == row.field_dealt + row.keepers_dealt
        assert row.field_dealt - row.field_returned == 11  # keeps 10 + reserve


def test_netherlands_is_class_6_as_in_the_rulebooks_example(catalog: Catalog) -> None:
    assert catalog.countries["NED"].klass == 6
    assert catalog.classes[6].field_dealt == 15 and catalog.classes[6].keepers_dealt == 1


def test_classes_follow_the_fifa_ranking(catalog: Catalog) -> None:
    by_rank = sorted(catalog.countries.values(), key=lambda c: c.fifa_rank)
    assert [c.klass for c in by_rank] == sorted((c.klass for c in by_rank), reverse=True)
    assert catalog.ranking_date == "2022-10-06"


def test_every_class_is_well_populated_and_class_3_is_small(catalog: Catalog) -> None:
    """Phase 2 (R12): uncontracted class-3 countries among the 16 qualified take markers at once; with at most
    4 class-3 countries at least 4 of the 8 markers are always won in matches."""
    counts = Counter(c.klass for c in catalog.countries.values())
    assert all(counts[k] >= 4 for k in range(3, 8))
    assert counts[3] <= 4


def test_country_flags_and_ids(catalog: Catalog) -> None:
    assert catalog.countries["ENG"].flag == "gb-eng"
    assert catalog.countries["NED"].flag == "nl"
    assert len({c.flag for c in catalog.countries.values()}) == 32
    assert all(len(cid) == 3 and cid.isupper() for cid in catalog.countries)


def test_field_player_stars_with_the_best_the_rarest(catalog: Catalog) -> None:
    stars = Counter(p.stars for p in catalog.field_players.values())
    assert set(stars) == {2, 3, 4, 5, 6}
    assert max(stars[5], stars[6]) < min(stars[2], stars[3], stars[4])
    assert stars[6] < stars[5]


def test_keeper_stars_with_five_the_rarest(catalog: Catalog) -> None:
    stars = Counter(k.stars for k in catalog.keepers.values())
    assert set(stars) == {3, 4, 5}
    assert stars[5] < min(stars[3], stars[4])
    assert all(k.position == "GK" for k in catalog.keepers.values())


def test_rivals_are_a_real_but_beatable_side(catalog: Catalog) -> None:
    """Yellow rival players have no country; a dealt rival side of 11 averages below a contracted team."""
    assert all(r.country is None and r.kind is CardKind.RIVAL for r in catalog.rivals.values())
    stars = Counter(r.stars for r in catalog.rivals.values())
    assert set(stars) == {2, 3, 4, 5, 6}
    mean = sum(r.stars for r in catalog.rivals.values()) / len(catalog.rivals)
    field_best = sorted((p.stars for p in catalog.field_players.values()), reverse=True)
    assert 3.5 <= mean < sum(field_best[:51]) / 51  # weaker than the best half of the field players


def test_players_have_a_country_a_position_and_unique_names(catalog: Catalog) -> None:
    players = [*catalog.field_players.values(), *catalog.keepers.values(), *catalog.rivals.values()]
    names = [p.name.casefold() for p in players]
    assert len(names) == len(set(names))
    for p in [*catalog.field_players.values(), *catalog.keepers.values()]:
        assert p.country in catalog.countries
    assert {p.position for p in catalog.field_players.values()} == {"DF", "MF", "FW"}
    # every country has field players of its own, and a keeper
    assert {p.country for p in catalog.field_players.values()} == set(catalog.countries)
    assert {k.country for k in catalog.keepers.values()} == set(catalog.countries)


def test_every_money_effect_has_its_params(catalog: Catalog) -> None:
    for card in catalog.money_cards.values():
        assert card.effect.kind in MONEY_EFFECT_KINDS
        assert set(card.effect.params) == {MONEY_PARAMS[card.effect.kind]}, card.id
        amount = card.effect.params.get("amount")
        if amount is not None:
            assert amount > 0 and amount % 5_000 == 0
            assert f"{amount:,}" in card.text_en and f"{amount:,}".replace(",", ".") in card.text_nl


def test_money_cards_are_balanced_and_sensible(catalog: Catalog) -> None:
    colours = Counter(card.color for card in catalog.money_cards.values())
    assert abs(colours[Color.GREEN] - colours[Color.RED]) <= 2
    gotos = [c for c in catalog.money_cards.values() if c.effect.kind == "goto"]
    assert 2 <= len(gotos) <= 3
    amounts = [c.effect.params["amount"] for c in catalog.money_cards.values() if "amount" in c.effect.params]
    assert max(amounts) <= 2_440_000 // 8  # no single card decides a game
    assert len({c.effect.kind for c in catalog.money_cards.values()}) == len(MONEY_EFFECT_KINDS)


def test_board_track(catalog: Catalog) -> None:
    board = catalog.board
    kinds = Counter(s.kind for s in board.squares)
    assert 36 <= len(board.squares) <= 44
    assert board.squares[0].kind is SquareKind.START and kinds[SquareKind.START] == 1
    assert set(kinds) == set(SquareKind)
    assert kinds[SquareKind.COUNTRY] == 16
    assert [s.index for s in board.squares] == list(range(len(board.squares)))


def test_country_squares_are_spread_around_the_track(catalog: Catalog) -> None:
    squares = catalog.board.country_squares
    size = len(catalog.board.squares)
    quarters = Counter(i * 4 // size for i in squares)
    assert sorted(quarters.values()) == [4, 4, 4, 4]
    assert all(b - a >= 2 for a, b in itertools.pairwise(squares))
    assert squares[-1] == size - 1  # R18: the last country square before Start


def test_card_boxes_finals_and_money(catalog: Catalog) -> None:
    board = catalog.board
    assert board.card_boxes[1] == "field_blind" and board.card_boxes[5] == "field_open"
    assert board.card_boxes[3] == "keeper_blind" and board.card_boxes[7] == "keeper_open"
    assert sorted(board.card_boxes) == [1, 2, 3, 4, 5, 6, 7]
    assert board.finals_boxes == 8
    assert board.starting_capital == 2_440_000
    assert board.bills == RULEBOOK_BILLS
    assert sum(v * n for v, n in board.bills.items()) == board.starting_capital


def test_loading_is_idempotent(real_docs: Docs, write: Callable[[Docs], Path]) -> None:
    directory = write(real_docs)
    assert load_catalog(directory) == load_catalog(directory)


def test_version_combines_the_files_versions(real_docs: Docs) -> None:
    before = build_catalog(real_docs).version
    assert before.startswith("2026.1+")
    assert len(before) <= 32  # CatalogCard.catalog_version
    real_docs["board.json"]["version"] = "2026.2"
    after = build_catalog(real_docs).version
    assert after.startswith("2026.2+") and after != before


def test_card_data_is_the_data_files_entry(real_docs: Docs, catalog: Catalog) -> None:
    for file, table, key in (
        ("countries.json", catalog.countries, "countries"),
        ("money_cards.json", catalog.money_cards, "cards"),
        ("match_cards.json", catalog.match_cards, "cards"),
    ):
        for entry in real_docs[file][key]:
            expected = {"seed": False, **entry} if file == "match_cards.json" else entry
            assert card_data(table[entry["id"]]) == expected
    entry = real_docs["field_players.json"]["cards"][0]
    assert card_data(catalog.field_players[entry["id"]]) == {"kind": "field", **entry}


@needs_match_cards
def test_get_catalog_loads_the_real_files_once() -> None:
    catalog = get_catalog()
    assert catalog is get_catalog()
    assert catalog == load_catalog()
    assert sum(card.seed for card in catalog.match_cards.values()) == 4


def test_catalog_package_imports_no_django() -> None:
    code = (
        "import sys, cards.catalog, cards.catalog.loader, cards.catalog.markdown; "
        "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[3])
