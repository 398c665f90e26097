"""Starting a tournament: cards, decks, piles, the Robot, the plan and the trophy stacks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from cards.models import Card
from cards.snapshots import snapshot_take
from infra.errors import ConflictError
from tournaments.models import CardCopy, Pile, Seat, SeatKind, Status, Tournament, Trophy
from tournaments.rules.data import parks_for
from tournaments.rules.dealing import Deal, deal
from tournaments.rules.piles import LEVELS
from tournaments.rules.plan import ROBOT, compute_plan, places, plan_to_data
from tournaments.rules.seeds import stream
from tournaments.rules.trophies import deal_trophies
from tournaments.selectors.cards import card_key
from tournaments.services.bot_talk import bots_say
from tournaments.services.common import locked_tournament
from tournaments.services.events import publish
from tournaments.services.lobby import free_numbers, require_host, require_lobby
from tournaments.services.rounds import open_deck_phase

if TYPE_CHECKING:
    from tournaments.services.lobby import Actor


def tournament_start(*, tournament_id: int, seat: Actor) -> Tournament:
    """The host starts a full lobby. Everything is dealt and the first Deck Phase opens."""
    with locked_tournament(tournament_id) as tournament:
        require_host(seat, tournament)
        require_lobby(tournament)
        if free_numbers(tournament):
            raise ConflictError(
                "seats_open", _("Fill every seat (join or add bots) before starting.")
            )
        tournament.snapshot = snapshot_take()  # card edits from now on reach later tournaments
        humans = list(tournament.seats.exclude(kind=SeatKind.ROBOT))
        dealt = _deal(tournament, tournament.snapshot.entries, [s.number for s in humans])
        _save_deal(tournament, dealt, humans)
        _make_plan(tournament)
        tournament.status = Status.DECK
        tournament.round = 1
        tournament.save()
        publish(
            tournament, "tournament_started", {"parks": tournament.parks, "plan": tournament.plan}
        )
        bots_say(tournament, "greeting")
        open_deck_phase(tournament)
    return tournament


def _deal(tournament: Tournament, entries: list[dict[str, object]], numbers: list[int]) -> Deal:
    """The start's deal, from the seed and the frozen card data (``rules.dealing``)."""
    robot = None
    if ROBOT in places(tournament.seat_count):
        robot = (tournament.robot_difficulty, tournament.solo_challenge)
    return deal(
        tournament.seed,
        entries,
        basic_set=tournament.basic_set,
        additional_sets=tournament.additional_sets,
        seats=numbers,
        robot=robot,
    )


def _save_deal(tournament: Tournament, dealt: Deal, humans: list[Seat]) -> None:
    """The deal's rows: every physical card, the starter decks, the piles and the Robot."""
    # Retired cards are dealt to no new tournament (its snapshot leaves them out as well).
    in_play = Card.objects.filter(retired=False, card_set__retired=False)
    cards = {card_key(card): card for card in in_play.select_related("card_set")}
    CardCopy.objects.bulk_create(
        CardCopy(tournament=tournament, uid=uid, card=cards[key])
        for uid, key in sorted(dealt.keys.items())
    )
    for seat in humans:
        seat.deck = dealt.starter[seat.number]
        seat.save(update_fields=["deck"])
    for level in LEVELS:
        Pile.objects.create(tournament=tournament, level=level, cards=dealt.piles[level])
    if dealt.robot is not None:
        Seat.objects.create(
            tournament=tournament,
            number=ROBOT,
            kind=SeatKind.ROBOT,
            name="The Robot",
            deck=dealt.robot,
            answers_live=False,
        )


def _make_plan(tournament: Tournament) -> None:
    plan = compute_plan(tournament.seat_count)
    parks = parks_for(len(places(tournament.seat_count)))
    tournament.plan = plan_to_data(plan)
    tournament.parks = list(parks)
    stacks = deal_trophies(stream(tournament.seed, "trophies"), parks)
    Trophy.objects.bulk_create(
        Trophy(tournament=tournament, park=park, round=index + 1, fans=fans)
        for park, row in stacks.items()
        for index, fans in enumerate(row)
    )
