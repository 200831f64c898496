"""Django admin for the catalog, the card copies of each game and its matches: read-only raw data.

The catalog is loaded from ``cards/data`` (``manage.py load_catalog``); card copies and matches belong to a
game's state and only ever change through ``game_act``.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from cards.models import CardCopy, CatalogCard, Match


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shows everything, changes nothing."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(CatalogCard)
class CatalogCardAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "name", "stars", "catalog_version")
    list_filter = ("kind", "stars")
    search_fields = ("id", "name")


@admin.register(CardCopy)
class CardCopyAdmin(ReadOnlyAdmin):
    list_display = ("game", "card", "location", "owner", "position")
    list_filter = ("location",)
    search_fields = ("game__code", "card__id", "card__name")
    list_select_related = ("game", "card", "owner")


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = (
        "game",
        "number",
        "kind",
        "slot",
        "home_country",
        "away_country",
        "status",
        "score_home",
        "score_away",
        "decided_by",
        "winner_side",
    )
    list_filter = ("kind", "status", "decided_by")
    search_fields = ("game__code", "home_country", "away_country")
    exclude = ("state",)  # the engine state holds every hidden card of both sides
