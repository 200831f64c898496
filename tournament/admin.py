"""Django admin for the raw data of games (the host console is the place to intervene).

Everything that carries a game invariant — money, cards, events, versions — is read-only here: a change
outside ``game_act`` would bypass the rules, the ledger and the audit log. Deleting a whole room is allowed
(its rows go with it); chat lines may be hidden (moderation).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournament.models import (
    Account,
    ActionRecord,
    ChatMessage,
    CountrySquare,
    Event,
    Game,
    LedgerEntry,
    Marker,
    Participant,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shows everything, changes nothing."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ParticipantInline(admin.TabularInline):
    model = Participant
    fields = ("seat", "nickname", "kind", "strength", "is_host", "role", "out", "bot_takeover")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class AccountInline(admin.TabularInline):
    model = Account
    fields = ("key", "kind", "balance")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("code", "status", "phase", "mode", "version", "last_seq", "winner_country", "created_at")
    list_filter = ("status", "phase", "mode")
    search_fields = ("code", "participants__nickname")
    readonly_fields = [f.name for f in Game._meta.fields if f.name != "host_key"]
    exclude = ("host_key",)  # a secret: whoever sees it can act as the host
    inlines = (ParticipantInline, AccountInline)
    date_hierarchy = "created_at"

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)  # removing a whole room keeps every invariant


@admin.register(Participant)
class ParticipantAdmin(ReadOnlyAdmin):
    list_display = ("nickname", "game", "seat", "kind", "strength", "is_host", "role", "out", "bot_takeover")
    list_filter = ("kind", "role", "out")
    search_fields = ("nickname", "game__code")
    exclude = ("token",)  # a secret: it identifies the seat's browser


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("game", "key", "kind", "balance")
    list_filter = ("kind",)
    search_fields = ("game__code", "key")


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "debit", "credit", "amount", "reason", "memo", "event_seq", "created_at")
    list_filter = ("reason",)
    search_fields = ("game__code", "reason", "memo")
    list_select_related = ("game", "debit", "credit")


@admin.register(CountrySquare)
class CountrySquareAdmin(ReadOnlyAdmin):
    list_display = ("game", "index", "status", "coach")
    list_filter = ("status",)
    search_fields = ("game__code",)


@admin.register(Marker)
class MarkerAdmin(ReadOnlyAdmin):
    list_display = ("game", "number", "square")
    search_fields = ("game__code",)


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "version", "kind", "actor", "audience", "created_at")
    list_filter = ("kind",)
    search_fields = ("game__code", "kind")


@admin.register(ActionRecord)
class ActionRecordAdmin(ReadOnlyAdmin):
    list_display = (
        "game",
        "version_before",
        "version_after",
        "actor",
        "action_id",
        "first_seq",
        "last_seq",
        "created_at",
    )
    search_fields = ("game__code", "action_id", "actor")


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("game", "channel", "author_name", "text", "hidden", "created_at")
    list_filter = ("channel", "hidden")
    search_fields = ("game__code", "author_name", "text")
    fields = ("game", "channel", "author", "author_name", "text", "hidden", "created_at")
    readonly_fields = ("game", "channel", "author", "author_name", "text", "created_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
