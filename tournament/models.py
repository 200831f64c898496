"""Persistent truth of a game: rooms, participants, money, the board, events and received commands.

Models hold data and database constraints only; every write goes through ``tournament.services``.
Card copies and matches live in ``cards.models``.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class Game(models.Model):
    """A room and the game played in it (one game per room; a rematch opens a new room)."""

    class Mode(models.TextChoices):
        WORLD_CUP = "world_cup", _("World Cup")
        EURO = "euro", _("European Championship")

    class Status(models.TextChoices):
        LOBBY = "lobby", _("Lobby")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Ended by the host")

    code = models.CharField(max_length=16, unique=True)
    host_key = models.CharField(max_length=64, unique=True)
    # which game the room plays: "magic-football" or a registered game's key (games/api.py)
    kind = models.CharField(max_length=24, default="magic-football")
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.WORLD_CUP)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LOBBY)
    phase = models.CharField(max_length=16, default="lobby")
    seed = models.BigIntegerField()
    rng_counter = models.BigIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)
    last_seq = models.PositiveIntegerField(default=0)
    house_rules = models.JSONField(default=dict, blank=True)
    setup = models.JSONField(default=dict, blank=True)  # mode and house rules at creation: replays start here
    flow = models.JSONField(default=dict, blank=True)
    pre_qualified = models.CharField(max_length=3, blank=True, default="")
    previous = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next_games"
    )
    winner_country = models.CharField(max_length=3, blank=True, default="")
    invariant_alert = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(last_seq__gte=0), name="game_last_seq_nonnegative"),
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.get_status_display()})"


class Participant(models.Model):
    """A seat at the table: a human (identified by a signed session) or a bot."""

    class Kind(models.TextChoices):
        HUMAN = "human", _("Human")
        BOT = "bot", _("Bot")

    class Role(models.TextChoices):
        TRAINER = "trainer", _("Trainer")
        NATIONAL_COACH = "bc", _("National coach")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="participants")
    seat = models.PositiveSmallIntegerField()
    nickname = models.CharField(max_length=24)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.HUMAN)
    strength = models.CharField(max_length=8, blank=True, default="")
    is_host = models.BooleanField(default=False)
    token = models.CharField(max_length=64, unique=True)
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.TRAINER)
    out = models.BooleanField(default=False)
    bot_takeover = models.BooleanField(default=False)
    connections = models.PositiveIntegerField(default=0)
    last_seen = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="participant_unique_seat"),
            models.UniqueConstraint(Lower("nickname"), "game", name="participant_unique_nickname"),
            models.CheckConstraint(condition=Q(seat__gte=1) & Q(seat__lte=8), name="participant_seat_1_8"),
        ]

    def __str__(self) -> str:
        return f"{self.nickname} (seat {self.seat})"


class Account(models.Model):
    """A money account of the double-entry ledger: the Bank, the Bonus Fund, or a participant."""

    class Kind(models.TextChoices):
        BANK = "bank", _("Bank")
        BONUS_FUND = "bonus", _("Bonus Fund")
        PARTICIPANT = "participant", _("Participant")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="accounts")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    participant = models.OneToOneField(
        Participant, null=True, blank=True, on_delete=models.CASCADE, related_name="account"
    )
    key = models.CharField(max_length=8)  # "bank", "bonus", "p3": the pure rules' account key
    balance = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["game", "key"]
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="account_unique_key"),
            models.CheckConstraint(
                condition=(Q(kind="participant") & Q(participant__isnull=False))
                | (~Q(kind="participant") & Q(participant__isnull=True)),
                name="account_participant_iff_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game.code}:{self.key}"


class LedgerEntry(models.Model):
    """One transfer between two accounts: money only ever moves, it is never created or lost."""

    # no index of its own: the unique (game, seq) index starts with it, and every action writes both
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="ledger", db_index=False)
    seq = models.PositiveIntegerField()
    debit = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="outgoing")
    credit = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="incoming")
    amount = models.BigIntegerField()
    reason = models.CharField(max_length=48)
    memo = models.CharField(max_length=200, blank=True, default="")
    event_seq = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        verbose_name_plural = "ledger entries"
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="ledger_unique_seq"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="ledger_amount_positive"),
            models.CheckConstraint(condition=~Q(debit=F("credit")), name="ledger_distinct_accounts"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.amount} {self.reason}"


class CountrySquare(models.Model):
    """One of the 16 country squares of the track and what lies on it."""

    class Status(models.TextChoices):
        EMPTY = "empty", _("Empty")
        QUALIFIED = "qualified", _("Qualified")
        CONTRACTED = "contracted", _("Contracted")
        MARKER = "marker", _("Marker")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="country_squares")
    index = models.PositiveSmallIntegerField()  # track index
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.EMPTY)
    coach = models.ForeignKey(Participant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="country_square_unique_index"),
            models.CheckConstraint(
                condition=(Q(status="contracted") & Q(coach__isnull=False))
                | (~Q(status="contracted") & Q(coach__isnull=True)),
                name="country_square_coach_iff_contracted",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game.code} square {self.index}: {self.status}"


class Marker(models.Model):
    """One of the eight Markers: with the Official (no square) or on an eliminated country's square."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="markers")
    number = models.PositiveSmallIntegerField()
    square = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="marker_unique_number"),
            models.UniqueConstraint(
                fields=["game", "square"], condition=Q(square__isnull=False), name="marker_one_per_square"
            ),
        ]

    def __str__(self) -> str:
        return f"marker {self.number} @ {self.square}"


class Event(models.Model):
    """Append-only log of what happened, with a per-game sequence number and an audience."""

    # no index of its own: the unique (game, seq) index starts with it, and every action writes both
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField()  # game version this event belongs to
    kind = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    audience = models.JSONField(null=True, blank=True)  # null = public; else a list of seats
    actor = models.CharField(max_length=16, blank=True, default="")  # "seat:3", "host", "bot:3", "system"
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        # no (game, version) index: no query looks events up by version, and each action paid for it
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="event_unique_seq")]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.kind}"


class ActionRecord(models.Model):
    """A command the game accepted: makes retries idempotent and lets a game be replayed from its seed."""

    # no index of its own: the unique (game, actor, action_id) index starts with it
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions", db_index=False)
    actor = models.CharField(max_length=16)
    action_id = models.CharField(max_length=64)
    action = models.JSONField()
    version_before = models.PositiveIntegerField()
    version_after = models.PositiveIntegerField()
    first_seq = models.PositiveIntegerField()
    last_seq = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "version_before"]
        constraints = [
            models.UniqueConstraint(fields=["game", "actor", "action_id"], name="action_unique_id"),
            models.UniqueConstraint(fields=["game", "version_before"], name="action_unique_version"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} v{self.version_before}: {self.action.get('type', '?')}"


class ChatMessage(models.Model):
    """A chat line in the players' room chat or the spectators' chat, stored with the game.

    Not a game action: no version, not replayed. ``author_key`` says who wrote it for rate limits and
    mutes ("seat:3", "host", "spectator:<id of the browser's session>"); a ``muted``/``unmuted`` line is
    the host's notice, its ``text`` the name concerned (``tournament/services/chat.py``).
    """

    class Channel(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    class Kind(models.TextChoices):
        TEXT = "text", _("Message")
        MUTED = "muted", _("Muted")
        UNMUTED = "unmuted", _("Unmuted")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    channel = models.CharField(max_length=12, choices=Channel.choices)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.TEXT)
    author = models.ForeignKey(
        Participant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    author_key = models.CharField(max_length=64, blank=True, default="")
    author_name = models.CharField(max_length=24)
    text = models.CharField(max_length=500)
    hidden = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "created_at", "id"]
        indexes = [
            models.Index(fields=["game", "channel", "id"], name="chat_game_channel"),
            models.Index(fields=["game", "author_key", "created_at"], name="chat_game_author"),
        ]

    def __str__(self) -> str:
        return f"{self.author_name}: {self.text[:30]}"


class ChatMute(models.Model):
    """The host silenced someone in the room's chats: a seat ("seat:3") or a spectator's browser."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_mutes")
    key = models.CharField(max_length=64)  # the muted ChatMessage.author_key
    label = models.CharField(max_length=24)  # the name shown to the host
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "created_at"]
        constraints = [models.UniqueConstraint(fields=["game", "key"], name="chat_mute_unique_key")]

    def __str__(self) -> str:
        return f"{self.game_id}: {self.label} muted"
