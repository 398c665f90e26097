from django.apps import AppConfig


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = "Card catalogue"

    def ready(self) -> None:
        from cards.api import cache  # noqa: F401  (connects the catalogue's change signals)
