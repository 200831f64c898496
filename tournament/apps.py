from django.apps import AppConfig


class TournamentConfig(AppConfig):
    """Rooms, participants, the board, money and phases."""

    name = "tournament"
    default_auto_field = "django.db.models.BigAutoField"
