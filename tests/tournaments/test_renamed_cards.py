"""A card renamed (or moved to another set) in admin while a tournament plays it: the
tournament keeps playing the card as it froze it at its start, to its end (its next draw
failed with a KeyError on the new name before snapshots carried the designs' ids), and the
design's figures follow it to its new name: those recorded before, and those its running
tournament records after."""

from __future__ import annotations

from typing import Any

import pytest

from cards.models import Card, CardSet
from tests.tournaments.play import ROUND_GUARD, open_game, play_to_the_end
from tournaments.models import CardCopy, CardStat, Tournament
from tournaments.rules.cardstats import COUNTERS
from tournaments.selectors import cards as tournament_cards
from tournaments.services.cardstats import card_stats_fold, card_stats_recount

pytestmark = pytest.mark.django_db(transaction=True)


def _renamed_in_play(tournament_id: int) -> tuple[str, str]:
    """A card of the tournament's copies, renamed as a curator would: its old and new keys."""
    copy = CardCopy.objects.filter(tournament_id=tournament_id, card__level="C").first()
    assert copy is not None
    card = copy.card
    old_key = f"{card.card_set.name}/{card.name}"
    card.name = f"{card.name} (renamed)"
    card.full_clean()
    card.save()
    _as_another_process()
    return old_key, f"{card.card_set.name}/{card.name}"


def _as_another_process() -> None:
    """Forget what this process cached of the tournament's cards: a worker started after the
    rename (or another one) reads them afresh."""
    tournament_cards._facts_of_tournament.cache_clear()


def test_a_card_renamed_mid_tournament_plays_on_as_frozen(catalogue: Any) -> None:
    players = open_game(seats=2, seed=5)
    old_key, new_key = _renamed_in_play(players[0].id)
    for _ in range(ROUND_GUARD):
        if players[0].get()["status"] == "finished":
            break
        assert any(player.act() for player in players), players[0].get()
    assert Tournament.objects.get(pk=players[0].id).status == "finished"
    card_stats_fold()
    live = _figures(new_key)
    assert live["offered"] > 0 and not CardStat.objects.filter(key=old_key).exists()
    assert card_stats_recount() > 0  # the recount reads the same frozen cards, keyed by design
    assert _figures(new_key) == live


def _figures(key: str) -> dict[str, int]:
    """The design's figures in every set combination, summed over the kinds of player."""
    rows = CardStat.objects.filter(key=key, sets="").values(*COUNTERS)
    return {name: sum(row[name] for row in rows) for name in COUNTERS}


def test_a_renamed_cards_recorded_figures_follow_it(catalogue: Any) -> None:
    first = play_to_the_end(seats=2, seed=7)
    card_stats_fold()
    played = CardStat.objects.filter(key__contains="/", sets="", offered__gt=0).first()
    assert played is not None
    before = _figures(played.key)
    set_name, name = played.key.split("/", 1)
    card = Card.objects.get(card_set__name=set_name, name=name)
    card.name = f"{name} (typo fixed)"
    card.save()
    assert _figures(f"{set_name}/{card.name}") == before
    assert not CardStat.objects.filter(key=played.key).exists()
    assert first.get()["status"] == "finished"


def test_a_card_moved_to_another_set_keeps_its_running_game(catalogue: Any) -> None:
    players = open_game(seats=2, seed=6)
    copy = CardCopy.objects.filter(tournament_id=players[0].id, card__level="C")
    card = copy.first().card  # type: ignore[union-attr]
    other = CardSet.objects.filter(kind=card.card_set.kind).exclude(pk=card.card_set_id).first()
    assert other is not None
    Card.objects.filter(pk=card.pk).update(card_set=other)
    _as_another_process()
    for _ in range(ROUND_GUARD):
        if players[0].get()["status"] == "finished":
            return
        assert any(player.act() for player in players), players[0].get()
    raise AssertionError("the tournament did not end")
