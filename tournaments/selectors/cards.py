"""What the tournaments hold of the card catalogue (read by the cards admin through
``settings.CARD_USERS``, so that ``cards`` never imports ``tournaments``)."""

from __future__ import annotations

from cards.snapshots import snapshot_specs
from tournaments.models import Status, Tournament

RUNNING = (Status.DECK, Status.MATCH)
# Starter and Robot cards are in every tournament, whichever sets it plays.
ALWAYS_IN_PLAY = frozenset({"S", "R", "SOLO"})


def running_tournaments_holding(*, set_name: str, name: str) -> int:
    """How many running tournaments play the card ``set_name/name`` as frozen at their start."""
    key = f"{set_name}/{name}"
    rows = Tournament.objects.filter(status__in=RUNNING, snapshot__isnull=False).values_list(
        "snapshot_id", "basic_set", "additional_sets"
    )
    count = 0
    for snapshot_id, basic_set, additional_sets in rows:
        spec = snapshot_specs(snapshot_id).get(key)
        if spec is None:
            continue
        if spec.level in ALWAYS_IN_PLAY or set_name in {basic_set, *additional_sets}:
            count += 1
    return count
