from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = _("Card catalogue")

    def ready(self) -> None:
        from cards import cache  # noqa: F401  (connects the catalogue's change signals)
