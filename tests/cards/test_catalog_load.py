"""Loading the catalog into the CatalogCard table: complete, idempotent, one transaction."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from io import StringIO
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from cards import services
from cards.catalog import card_data, get_catalog
from cards.catalog.loader import DATA_DIR, FILES
from cards.models import CatalogCard
from cards.services import catalog_load

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        not (DATA_DIR / "match_cards.json").exists(),
        reason="cards/data/match_cards.json is written by the duel engine and has not landed yet",
    ),
]


def snapshot() -> list[tuple[object, ...]]:
    return list(
        CatalogCard.objects.order_by("id").values_list(
            "id", "kind", "name", "stars", "data", "catalog_version"
        )
    )


def test_first_load_creates_every_card_with_its_data() -> None:
    catalog = get_catalog()
    assert catalog_load() == 252
    assert Counter(CatalogCard.objects.values_list("kind", flat=True)) == {
        "country": 32,
        "field": 103,
        "keeper": 33,
        "rival": 22,
        "match": 40,
        "money": 22,
    }
    ned = CatalogCard.objects.get(id="NED")
    assert (ned.name, ned.stars, ned.data["class"], ned.data["flag"]) == ("Netherlands", None, 6, "nl")
    f017 = CatalogCard.objects.get(id="F017")
    assert (f017.kind, f017.name, f017.stars) == ("field", catalog.field_players["F017"].name, 6)
    assert f017.data == card_data(catalog.field_players["F017"])
    g01 = CatalogCard.objects.get(id="G01")
    assert g01.data["effect"] == {"kind": "bank_pays", "amount": 200_000}
    assert set(CatalogCard.objects.values_list("catalog_version", flat=True)) == {catalog.version}
    for row in CatalogCard.objects.filter(kind__in=["field", "keeper", "rival"]):
        assert row.stars == catalog.player(row.id).stars


def test_second_load_changes_nothing() -> None:
    catalog_load()
    before = snapshot()
    assert catalog_load() == 0
    assert snapshot() == before


def test_an_edited_card_is_updated_and_only_that_one(tmp_path: Path) -> None:
    catalog_load()
    edited = dataclasses.replace(
        get_catalog(),
        rivals={**get_catalog().rivals, "R01": dataclasses.replace(get_catalog().rivals["R01"], stars=5)},
    )
    assert catalog_load(catalog=edited) == 1
    row = CatalogCard.objects.get(id="R01")
    assert row.stars == 5 and row.data["stars"] == 5
    assert catalog_load(catalog=edited) == 0


def test_a_new_catalog_version_restamps_every_row() -> None:
    catalog_load()
    bumped = dataclasses.replace(get_catalog(), version="2026.2+abcdef")
    assert catalog_load(catalog=bumped) == 252
    assert set(CatalogCard.objects.values_list("catalog_version", flat=True)) == {"2026.2+abcdef"}


def test_an_invalid_row_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = list(services.catalog_rows(get_catalog()))
    rows[-1].kind = "joker"  # not a CatalogCard.Kind
    monkeypatch.setattr(services, "catalog_rows", lambda catalog: iter(rows))
    with pytest.raises(ValidationError):
        catalog_load()
    assert CatalogCard.objects.count() == 0


def test_the_load_is_one_transaction(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure after the new rows were inserted rolls the inserts back too."""
    catalog_load()
    CatalogCard.objects.filter(kind="money").delete()
    bumped = dataclasses.replace(get_catalog(), version="2026.2+abcdef")  # 22 to create, 230 to update

    def disk_full(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(CatalogCard.objects, "bulk_update", disk_full)
    with pytest.raises(RuntimeError, match="disk full"):
        catalog_load(catalog=bumped)
    assert CatalogCard.objects.filter(kind="money").count() == 0
    assert set(CatalogCard.objects.values_list("catalog_version", flat=True)) == {get_catalog().version}


def test_command_prints_a_one_line_summary() -> None:
    out = StringIO()
    call_command("load_catalog", stdout=out)
    version = get_catalog().version
    assert out.getvalue() == f"Catalog {version}: 252 cards, 252 created or updated.\n"
    out = StringIO()
    call_command("load_catalog", stdout=out)
    assert out.getvalue() == f"Catalog {version}: 252 cards, 0 created or updated.\n"


def test_command_refuses_bad_data_and_writes_nothing(tmp_path: Path) -> None:
    for file in FILES:
        doc = json.loads((DATA_DIR / file).read_text(encoding="utf-8"))
        if file == "field_players.json":
            doc["cards"][16]["stars"] = 7
        (tmp_path / file).write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(
        CommandError, match=r"^Catalog not loaded: field_players.json: F017: stars 7 outside 2..6$"
    ):
        call_command("load_catalog", data_dir=tmp_path)
    assert CatalogCard.objects.count() == 0
