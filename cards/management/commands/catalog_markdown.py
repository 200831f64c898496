"""``manage.py catalog_markdown``: write the human-readable catalog (docs/CATALOG.md) from the data files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.catalog import CatalogError, load_catalog
from cards.catalog.markdown import catalog_markdown


class Command(BaseCommand):
    help = "Render the card catalog as Markdown into docs/CATALOG.md (or --output; '-' for standard output)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", default=str(Path(settings.BASE_DIR) / "docs" / "CATALOG.md"))
        parser.add_argument("--data-dir", type=Path, default=None, help="Data files (default: cards/data).")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            catalog = load_catalog(options["data_dir"])
        except CatalogError as exc:
            raise CommandError(f"Catalog not rendered: {exc}") from exc
        text = catalog_markdown(catalog)
        if options["output"] == "-":
            self.stdout.write(text, ending="")
            return
        Path(options["output"]).write_text(text, encoding="utf-8")
        self.stdout.write(f"Wrote {options['output']} (catalog {catalog.version}).")
