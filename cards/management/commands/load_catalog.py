"""``manage.py load_catalog``: validate the catalog data files and upsert them into the database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.catalog import CatalogError, get_catalog, load_catalog
from cards.services import catalog_load


class Command(BaseCommand):
    help = "Load the card catalog (cards/data/*.json) into the database; safe to run again."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--data-dir",
            type=Path,
            default=None,
            help="Read the data files from this directory instead of cards/data (to try out edited data).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data_dir = options["data_dir"]
            catalog = load_catalog(data_dir) if data_dir is not None else get_catalog()
        except CatalogError as exc:
            raise CommandError(f"Catalog not loaded: {exc}") from exc
        changed = catalog_load(catalog=catalog)
        total = len(catalog.all_ids())
        self.stdout.write(f"Catalog {catalog.version}: {total} cards, {changed} created or updated.")
