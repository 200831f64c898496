"""Writes for the cards app: loading the catalog into the ``CatalogCard`` table.

Why a table at all when the catalog is data files: every ``CardCopy`` of a game points at its catalog row
(a foreign key), so the database itself refuses a card that is not in the box.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.db import transaction

from cards.catalog import Catalog, get_catalog
from cards.catalog.loader import card_data
from cards.models import CatalogCard

CATALOG_FIELDS = ("kind", "name", "stars", "data", "catalog_version")


def catalog_rows(catalog: Catalog) -> Iterator[CatalogCard]:
    """One unsaved ``CatalogCard`` per card of the catalog, in the catalog's stable order."""
    for country in catalog.countries.values():
        yield CatalogCard(
            id=country.id,
            kind=CatalogCard.Kind.COUNTRY,
            name=country.name_en,
            stars=None,
            data=card_data(country),
            catalog_version=catalog.version,
        )
    for table in (catalog.field_players, catalog.keepers, catalog.rivals):
        for player in table.values():
            yield CatalogCard(
                id=player.id,
                kind=player.kind.value,
                name=player.name,
                stars=player.stars,
                data=card_data(player),
                catalog_version=catalog.version,
            )
    for kind, cards in (
        (CatalogCard.Kind.MATCH, catalog.match_cards),
        (CatalogCard.Kind.MONEY, catalog.money_cards),
    ):
        for card in cards.values():
            yield CatalogCard(
                id=card.id,
                kind=kind,
                name=card.name_en,
                stars=None,
                data=card_data(card),
                catalog_version=catalog.version,
            )


@transaction.atomic
def catalog_load(*, catalog: Catalog | None = None) -> int:
    """Upsert every card of the catalog (default: the real one) into ``CatalogCard``, in one transaction.

    Idempotent: a row that already holds exactly this card is left alone, so a second run changes nothing
    and returns 0. Rows of cards no longer in the catalog are kept (game copies may still point at them).

    :returns: the number of rows created or updated.
    """
    catalog = catalog if catalog is not None else get_catalog()
    wanted = list(catalog_rows(catalog))
    existing = CatalogCard.objects.select_for_update().in_bulk([row.id for row in wanted])
    created: list[CatalogCard] = []
    updated: list[CatalogCard] = []
    for row in wanted:
        current = existing.get(row.id)
        if current is None:
            row.full_clean(validate_unique=False)  # the id is new: in_bulk found no row
            created.append(row)
        elif any(getattr(current, name) != getattr(row, name) for name in CATALOG_FIELDS):
            for name in CATALOG_FIELDS:
                setattr(current, name, getattr(row, name))
            current.full_clean(validate_unique=False)
            updated.append(current)
    CatalogCard.objects.bulk_create(created)
    CatalogCard.objects.bulk_update(updated, CATALOG_FIELDS)
    return len(created) + len(updated)
