"""Signals from the card catalogue that tournaments' figures follow.

``TournamentsConfig.ready`` connects them: ``cards`` never imports ``tournaments``.
"""

from __future__ import annotations

from cards.models import Card
from tournaments.services.cardstats import card_stats_rename

STORED_KEY = "_stored_key"  # set on the instance before its save: the key it is saved over


def remember_stored_key(sender: type[Card], instance: Card, **kwargs: object) -> None:
    """Before a card is saved, note its key as stored (none for a new card)."""
    stored = Card.objects.filter(pk=instance.pk).values_list("card_set__name", "name").first()
    setattr(instance, STORED_KEY, "/".join(stored) if stored and instance.pk else None)


def follow_renamed_card(sender: type[Card], instance: Card, **kwargs: object) -> None:
    """After a save that renamed the card or moved it to another set, move its figures along."""
    old_key = getattr(instance, STORED_KEY, None)
    new_key = f"{instance.card_set.name}/{instance.name}"
    if old_key and old_key != new_key:
        card_stats_rename(old_key=old_key, new_key=new_key)
