from django.apps import AppConfig


class TournamentConfig(AppConfig):
    """Rooms, participants, the board, money and phases."""

    name = "tournament"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from magicfootball.sqlite import connection_created as checkpoint_sqlite_in_background

        connection_created.connect(checkpoint_sqlite_in_background, dispatch_uid="sqlite-checkpoint")
