"""docs/CATALOG.md is the rendering of the current data files (the host reads it; it must not drift)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cards.catalog import get_catalog, load_catalog
from cards.catalog.loader import DATA_DIR
from cards.catalog.markdown import catalog_markdown

DOC = Path(__file__).resolve().parents[3] / "docs" / "CATALOG.md"


@pytest.mark.skipif(
    not (DATA_DIR / "match_cards.json").exists(),
    reason="cards/data/match_cards.json is written by the duel engine and has not landed yet",
)
def test_catalog_doc_is_up_to_date() -> None:
    assert DOC.read_text(encoding="utf-8") == catalog_markdown(get_catalog()), (
        "docs/CATALOG.md is stale: run `.venv/bin/python manage.py catalog_markdown`"
    )


def test_rendering_shows_what_a_host_looks_up(
    docs: dict[str, Any], write: Callable[[dict[str, Any]], Path]
) -> None:
    catalog = load_catalog(write(docs))
    text = catalog_markdown(catalog)
    assert "| 6 | 16 | 600,000 | 120,000 | 15 | 1 | 4 | 0 | 7 |" in text  # class 6 row, 7 countries
    assert "| NED | Netherlands | Nederland | 6 | yes | 8 | `nl` |" in text
    assert "| F017 | Callum Ashworth | ★★★★★★ | FW | England (ENG) |" in text
    assert "Starting capital per participant: 2,440,000 magic = 2×500,000 + 4×200,000" in text
    assert "Country squares: 1, 3, 5, 8" in text
    for card in catalog.money_cards.values():
        assert card.text_en in text and card.text_nl in text
