"""What a bot seat may know, gathered from the rows.

It glues the database to the pure bot levels in ``tournaments.rules.bots``. A bot sees what its seat
would see: its own deck, the card data, the piles' public composition, the plan, and every seat's
deck size. A champion also sees cards revealed in released matches. A bot never reads another seat's
deck or a pile's order.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from cards.snapshots import snapshot_specs
from matches.models import Match, MatchEvent
from matches.release import public_results
from tournaments.models import Seat, SeatKind, Tournament
from tournaments.rules.bots import BUDGETS, TAKEOVER_LEVEL, Outlook
from tournaments.rules.bots.practice import Rival, level_pools, model_deck, starter_keys
from tournaments.rules.bots.stakes import rival_weights
from tournaments.rules.plan import ROBOT, plan_from_data
from tournaments.rules.robot import START_CARDS
from tournaments.rules.seeds import derive_seed, stream
from tournaments.selectors.cards import card_facts, sets_in_play


def level_of(seat: Seat) -> str:
    """The level that plays ``seat`` now: a bot's own, or a dropped seat's stand-in.

    ``""`` when its person plays.
    """
    if seat.kind == SeatKind.BOT:
        return seat.bot_level or "rookie"
    return TAKEOVER_LEVEL if seat.dropped else ""


def rookie_noise(tournament: Tournament, seat: Seat, actions: int) -> random.Random:
    return stream(tournament.seed, "rookie", tournament.round, seat.number, actions)


def next_rival(tournament: Tournament, number: int) -> int | None:
    """Who ``number`` meets this round, or ``None``. The Robot is ``ROBOT``."""
    if tournament.is_final:
        others = [n for n in tournament.finalists if n != number]
        return others[0] if others else None
    plan = plan_from_data(tournament.plan)
    for pairing in plan[tournament.round - 1]:
        if number in pairing.seats():
            return pairing.b if pairing.a == number else pairing.a
    return None


def seen_cards(tournament: Tournament, rival: Seat) -> list[str]:
    """The keys of the rival's cards revealed in its released matches.

    Reveals there are public events. Starter cards are left out.
    """
    keys: dict[object, str] = {}
    for side, field in (("A", "seat_a"), ("B", "seat_b")):
        matches = Match.objects.filter(public_results(), tournament=tournament, **{field: rival})
        events = MatchEvent.objects.filter(
            match__in=matches, kind="reveal", payload__side=side
        ).order_by("match__round", "seq")
        for payload in events.values_list("payload", flat=True):
            keys.setdefault((payload.get("card"), payload.get("key")), str(payload.get("key")))
    return [key for key in keys.values() if not key.startswith(("Starter", "Beach Cup Starter"))]


def _rival(
    outlook: Outlook, tournament: Tournament, seats: Mapping[int, Seat], number: int
) -> Rival:
    if number == ROBOT or number not in seats:
        return Rival(START_CARDS)
    rival = seats[number]
    facts = card_facts(tournament)
    seen = seen_cards(tournament, rival) if outlook.level == "champion" else []
    deck = model_deck(
        starter=starter_keys(facts),
        deck_size=len(rival.deck),
        rounds_done=min(tournament.round - 1, 7),
        outlook=outlook,
        rng=stream(tournament.seed, "model", tournament.round, number),
        seen=seen,
    )
    return Rival(deck)


def outlook_for(
    tournament: Tournament,
    seat: Seat,
    level: str,
    budget: int | None = None,
    *,
    seats: Mapping[int, Seat] | None = None,
) -> Outlook:
    """The outlook of ``seat`` playing at ``level`` in this Deck Phase.

    A rookie, or a person's plain heuristic, needs only its level and the round. It plays no
    practice matches. ``seats``: every seat by number, if the caller holds them up to date.
    """
    if level in ("", "rookie"):
        return Outlook(
            level=level,
            round=tournament.round,
            seed=0,
            specs={},
            sets_in_play=(),
            rivals=(),
            budget=0,
        )
    facts = card_facts(tournament)
    base = Outlook(
        level=level,
        round=tournament.round,
        seed=derive_seed(tournament.seed, "bot", tournament.round, seat.number),
        specs=snapshot_specs(tournament.snapshot_id) if tournament.snapshot_id else {},
        sets_in_play=tuple(sets_in_play(tournament)),
        rivals=(),
        budget=BUDGETS.get(level, 0) if budget is None else budget,
        beach_cup=tournament.beach_cup,
        pools=level_pools(facts),
    )
    if seats is None:
        seats = {s.number: s for s in tournament.seats.all()}
    opponent = next_rival(tournament, seat.number)
    if opponent is None:
        return base
    weights = {opponent: 1.0}
    if level == "champion" and not tournament.is_final:
        others = [n for n, s in seats.items() if n != seat.number and not s.is_robot]
        weights = rival_weights(round_number=tournament.round, next_rival=opponent, others=others)
    rivals = tuple(
        Rival(_rival(base, tournament, seats, n).deck, w) for n, w in sorted(weights.items())
    )
    return replace(base, rivals=rivals)
