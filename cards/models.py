"""Catalog entries in the database, the physical card copies of each game, and its matches."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# Piles that belong to a participant (the owner column is set exactly for these).
OWNED_LOCATIONS = ("team", "holding", "selection")


class CatalogCard(models.Model):
    """One card of the catalog (the data files in cards/data), loaded idempotently by ``load_catalog``."""

    class Kind(models.TextChoices):
        COUNTRY = "country", _("Country")
        FIELD = "field", _("Field player")
        KEEPER = "keeper", _("Keeper")
        RIVAL = "rival", _("Rival player")
        MATCH = "match", _("Match card")
        MONEY = "money", _("Money card")

    id = models.CharField(primary_key=True, max_length=8)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    name = models.CharField(max_length=80)
    stars = models.PositiveSmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict)
    catalog_version = models.CharField(max_length=32)

    class Meta:
        ordering = ["kind", "id"]

    def __str__(self) -> str:
        return f"{self.id} {self.name}"


class CardCopy(models.Model):
    """A physical card in one game. One row per card, so a card can never be in two places."""

    class Location(models.TextChoices):
        BOX1 = "box1", _("Box 1: field players (blind)")
        BOX2 = "box2", _("Box 2: match cards")
        BOX3 = "box3", _("Box 3: keepers (blind)")
        BOX4 = "box4", _("Box 4: money cards")
        BOX5 = "box5", _("Box 5: open field player")
        BOX6 = "box6", _("Box 6: used match cards")
        BOX7 = "box7", _("Box 7: open keeper")
        OFFICIAL_COUNTRIES = "official_countries", _("Official: country cards")
        OFFICIAL_FIELDS = "official_fields", _("Official: field players")
        OFFICIAL_RIVALS = "official_rivals", _("Official: rival cards")
        SQUARE = "square", _("On a country square")
        TEAM = "team", _("In a team")
        HOLDING = "holding", _("In a match-card holding")
        SELECTION = "selection", _("In hand, being chosen from")
        MATCH = "match", _("In play in the running match")
        FINALS = "finals", _("In a finals box")
        CUP = "cup", _("On the Cup")
        OUT = "out", _("Out of the game")

    game = models.ForeignKey("tournament.Game", on_delete=models.CASCADE, related_name="cards")
    card = models.ForeignKey(CatalogCard, on_delete=models.PROTECT, related_name="copies")
    location = models.CharField(max_length=20, choices=Location.choices)
    owner = models.ForeignKey(
        "tournament.Participant", null=True, blank=True, on_delete=models.PROTECT, related_name="cards"
    )
    position = models.PositiveSmallIntegerField(default=0)  # 0 = bottom of the pile; square/box number

    class Meta:
        ordering = ["game", "location", "owner", "position"]
        verbose_name_plural = "card copies"
        constraints = [
            models.UniqueConstraint(fields=["game", "card"], name="card_copy_one_per_game"),
            models.CheckConstraint(
                condition=(Q(location__in=OWNED_LOCATIONS) & Q(owner__isnull=False))
                | (~Q(location__in=OWNED_LOCATIONS) & Q(owner__isnull=True)),
                name="card_copy_owner_iff_owned_pile",
            ),
        ]
        indexes = [models.Index(fields=["game", "location"], name="card_copy_location")]

    def __str__(self) -> str:
        return f"{self.card_id} @ {self.location}:{self.position}"


class Match(models.Model):
    """A match of a game: a phase-2 challenge, a finals match, or a practice match."""

    class Kind(models.TextChoices):
        PRACTICE = "practice", _("Practice match")
        CHALLENGE = "challenge", _("Challenge")
        QUARTER_FINAL = "qf", _("Quarter-final")
        SEMI_FINAL = "sf", _("Semi-final")
        FINAL = "f", _("Final")
        SINGLE = "single", _("Match")  # the match of a room of another game (one match)
        CUP = "cup", _("Cup match")
        LEAGUE = "league", _("League match")

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    game = models.ForeignKey("tournament.Game", on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    slot = models.CharField(max_length=4, blank=True, default="")  # "A".."D" (QF), "AB"/"CD" (SF), "F"
    format = models.CharField(max_length=16, default="duel")
    home_country = models.CharField(max_length=3, blank=True, default="")
    away_country = models.CharField(max_length=3, blank=True, default="")
    home_coach_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    away_coach_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    home_role = models.CharField(max_length=4, blank=True, default="")  # "bc" | "ac" | "bot" | "seat"
    away_role = models.CharField(max_length=4, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    score_home = models.PositiveSmallIntegerField(default=0)
    score_away = models.PositiveSmallIntegerField(default=0)
    penalties_home = models.PositiveSmallIntegerField(null=True, blank=True)
    penalties_away = models.PositiveSmallIntegerField(null=True, blank=True)
    decided_by = models.CharField(max_length=12, blank=True, default="")
    winner_side = models.CharField(max_length=4, blank=True, default="")
    state = models.JSONField(null=True, blank=True)  # the match engine's state: private, never rendered raw

    class Meta:
        ordering = ["game", "number"]
        verbose_name_plural = "matches"
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="match_unique_number")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.home_country}–{self.away_country}"
