"""The draft advisor for a person's seat (``GET …/advice/``).

It sees only what that seat may know. That is the seat's own turn and deck, plus the public facts
``tournaments.selectors.bots`` gathers for a steady bot. It never reads another seat's deck or a
pile's order. The pure advisor, ``tournaments.rules.bots.advice``, does the work. Refused when the
tournament does not allow advice.
"""

from __future__ import annotations

import random

from django.utils.translation import gettext as _

from infra.errors import ForbiddenError, NotFoundError
from tournaments.models import DraftTurn, Seat, SeatKind, Status, Tournament
from tournaments.rules import draft as rules
from tournaments.rules.bots.advice import advise
from tournaments.selectors.bots import next_rival, outlook_for
from tournaments.selectors.cards import card_facts
from tournaments.selectors.viewers import require_seat
from tournaments.shapes import AdviceChoice, AdviceView

ADVICE_SIMS = 100
"""Practice matches per choice."""


def draft_advice(*, tournament_id: int, seat: Seat | None) -> AdviceView:
    """Each choice of the seat's Deck Phase now, with its estimated win probability."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFoundError("not_found", _("No such tournament."))
    seat = require_seat(seat, tournament)
    if not tournament.advice_allowed:
        raise ForbiddenError(
            "advice_not_allowed", _("This tournament does not allow draft advice.")
        )
    if seat.kind != SeatKind.HUMAN:
        raise ForbiddenError("not_your_seat", _("Only a person's seat gets advice."))
    seat = Seat.objects.get(pk=seat.pk)
    row = DraftTurn.objects.filter(seat=seat, round=tournament.round).first()
    if tournament.status != Status.DECK or row is None:
        return AdviceView(round=tournament.round, rival=None, kind="none", choices=[])
    table = rules.Table(
        deck=list(seat.deck), piles={}, cards=card_facts(tournament), rng=random.Random(0)
    )
    outlook = outlook_for(tournament, seat, "steady")
    found = advise(rules.turn_from_data(row.state), table, outlook, ADVICE_SIMS)
    return AdviceView(
        round=tournament.round,
        rival=next_rival(tournament, seat.number),
        kind=found["kind"],
        choices=[AdviceChoice(**choice) for choice in found["choices"]],
    )
