from django.apps import AppConfig


class CardsConfig(AppConfig):
    """Catalog data, card copies and the match engine."""

    name = "cards"
    default_auto_field = "django.db.models.BigAutoField"
